"""WebSocket fan-out: every state change of a game reaches its players and spectators.

In one process the hub is a dictionary of sockets.  With ``redis_url`` set, events go through
Redis pub/sub instead, and each worker delivers them to its own sockets, so several workers
behind one PostgreSQL serve one audience (docs/server.md, scale path).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict
from typing import Any

from starlette.websockets import WebSocket

from randomchess.server.games.contract import GameStateDict, ServerFrameDict, state_frame

log = logging.getLogger("randomchess.server")
_CHANNEL = "randomchess:games"


class Hub:
    def __init__(self, redis_url: str | None = None) -> None:
        self._sockets: dict[str, set[WebSocket]] = defaultdict(set)
        self._redis_url = redis_url
        self._redis: Any = None
        self._listener: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if not self._redis_url:
            return
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self._redis_url)
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(_CHANNEL)
        self._listener = asyncio.create_task(self._listen(pubsub))

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._redis is not None:
            await self._redis.aclose()

    async def _listen(self, pubsub: Any) -> None:
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                envelope = json.loads(message["data"])
                await self._deliver(envelope["game"], envelope["text"])
            except Exception:  # one bad message must not stop the listener
                log.exception("bad hub message")

    def add(self, game_id: str, ws: WebSocket) -> None:
        self._sockets[game_id].add(ws)

    def discard(self, game_id: str, ws: WebSocket) -> None:
        sockets = self._sockets.get(game_id)
        if sockets is not None:
            sockets.discard(ws)
            if not sockets:
                del self._sockets[game_id]

    def watchers(self, game_id: str) -> int:
        return len(self._sockets.get(game_id, ()))

    async def publish(self, game_id: str, state: GameStateDict) -> None:
        """Send ``state`` to every socket watching ``game_id`` (in every worker)."""
        await self.publish_frame(game_id, state_frame(state))

    async def publish_frame(self, game_id: str, frame: ServerFrameDict) -> None:
        """Send ``frame`` (a ``contract.ServerFrame``) to every socket watching ``game_id``
        (in every worker)."""
        text = json.dumps(frame, separators=(",", ":"))
        if self._redis is not None:
            try:
                await self._redis.publish(_CHANNEL, json.dumps({"game": game_id, "text": text}))
                return
            except Exception:  # Redis down: at least this worker's audience hears it
                log.exception("redis publish failed; delivering locally")
        await self._deliver(game_id, text)

    async def _deliver(self, game_id: str, text: str) -> None:
        sockets = list(self._sockets.get(game_id, ()))
        if not sockets:
            return
        results = await asyncio.gather(*(ws.send_text(text) for ws in sockets),
                                       return_exceptions=True)
        for ws, res in zip(sockets, results, strict=True):
            if isinstance(res, BaseException):
                self.discard(game_id, ws)
