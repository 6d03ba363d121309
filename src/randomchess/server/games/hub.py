"""WebSocket fan-out: every state change of a game reaches its players and spectators.

In one process the hub is a dictionary of sockets.  With ``redis_url`` set, events go through
Redis pub/sub instead, and each worker delivers them to its own sockets, so several workers
behind one PostgreSQL serve one audience (docs/server.md, scale path).

Redis may blink (issue 28): the subscription is watched and made again, with a growing pause,
whenever it is lost, and once it is back every key watched here is re-synchronised
(:attr:`Hub.resync`: the game service pushes each watched game's newest state), so a socket
that missed states gets the newest.  While the subscription is down, events are delivered to
this worker's own sockets as well as published.  One publisher task sends the events in
batches, one Redis message each, over one connection, instead of a task and a pooled
connection per event (which ran out of connections at 1,000 concurrent games).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from starlette.websockets import WebSocket

from randomchess.server.games.contract import GameStateDict, ServerFrameDict, state_frame

log = logging.getLogger("randomchess.server")
_CHANNEL = "randomchess:games"
_BATCH = 256  # events sent in one message at most
_QUEUE = 100_000  # events waiting for the publisher at most (then delivered locally only)
_RETRY_S = (0.05, 2.0)  # first and longest pause before subscribing again


class Hub:
    def __init__(self, redis_url: str | None = None) -> None:
        self._sockets: dict[str, set[WebSocket]] = defaultdict(set)
        self._redis_url = redis_url
        self._redis: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        # (key, text, already delivered to this worker's sockets)
        self._queue: asyncio.Queue[tuple[str, str, bool]] | None = None
        self._subscribed = asyncio.Event()
        # Called with the keys watched here once a lost subscription is back; the game
        # service pushes their newest states (service.py), the lobby its seeks.
        self.resync: Callable[[list[str]], Awaitable[None]] | None = None
        self.resubscriptions = 0  # how often the subscription was made again (health)
        self._resyncing: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[None]] = set()  # deliveries under way

    @property
    def fan_out(self) -> bool:
        return self._redis_url is not None

    @property
    def subscribed(self) -> bool:
        """Events of other workers reach this worker's sockets (always, without Redis)."""
        return not self.fan_out or self._subscribed.is_set()

    async def start(self, wait_s: float = 5.0) -> None:
        if not self._redis_url:
            return
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self._redis_url, health_check_interval=5,
                                        socket_keepalive=True, socket_connect_timeout=2)
        self._queue = asyncio.Queue(_QUEUE)
        self._tasks = [asyncio.create_task(self._listen_forever()),
                       asyncio.create_task(self._publish_forever())]
        try:  # serve at once if Redis is down: the listener keeps trying
            async with asyncio.timeout(wait_s):
                await self._subscribed.wait()
        except TimeoutError:
            log.warning("redis is not answering at %s: pushes stay local until it does",
                        self._redis_url)

    async def stop(self) -> None:
        for task in list(self._pending):
            task.cancel()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self._redis is not None:
            # A connection to a Redis that went away may never answer its goodbye.
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    await self._redis.aclose()

    async def _listen_forever(self) -> None:
        pause = _RETRY_S[0]
        lost = False
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.subscribe(_CHANNEL)
                self._subscribed.set()
                pause = _RETRY_S[0]
                if lost:
                    self.resubscriptions += 1
                    log.warning("redis subscription made again: re-synchronising %d keys",
                                len(self._sockets))
                    self._resyncing = asyncio.create_task(self._resync())
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        events = _unpack(message["data"])
                    except Exception:  # one bad message must not stop the listener
                        log.exception("bad hub message")
                        continue
                    for key, text in events:
                        await self._deliver(key, text)
                raise ConnectionError("the subscription ended")
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self._subscribed.is_set():
                    log.warning("redis subscription lost (%s): subscribing again", e)
                self._subscribed.clear()
                lost = True
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(pause)
            pause = min(_RETRY_S[1], pause * 2)

    async def _resync(self) -> None:
        if self.resync is None:
            return
        try:
            await self.resync(list(self._sockets))
        except Exception:
            log.exception("re-synchronising the sockets failed")

    async def _publish_forever(self) -> None:
        assert self._queue is not None
        while True:
            batch = [await self._queue.get()]
            while len(batch) < _BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            # Published whatever this worker's own subscription is doing: another worker
            # may be subscribed again already (test_hub_resubscribe).  A worker that is not
            # subscribed tries once, and does not hear its own message.
            sent = await self._send(batch, tries=3 if self._subscribed.is_set() else 1)
            if sent and self._subscribed.is_set():
                continue
            for key, text, heard in batch:  # this worker's audience hears it here
                if not heard:
                    await self._deliver(key, text)

    async def _send(self, batch: list[tuple[str, str, bool]], tries: int) -> bool:
        """Publish ``batch`` as one message; after a blip the pooled connection is stale
        and the first try fails, so it is tried again on a fresh one."""
        for pause in (0.0, 0.05, 0.25)[:tries]:
            await asyncio.sleep(pause)
            try:
                await self._redis.publish(_CHANNEL, _pack([(k, t) for k, t, _ in batch]))
                return True
            except Exception as e:
                log.warning("redis publish failed (%s)", e)
        return False

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

    def publish_state_soon(self, game_id: str, state_json: str) -> None:
        """Send the state encoded as ``state_json`` (``LiveGame.state_json``) to every
        socket watching ``game_id`` (in every worker), without waiting for the sockets: the
        frame is built from the text once for all of them."""
        text = f'{{"type":"state","game":{state_json}}}'
        if self._queue is None:  # one process: its own sockets only
            if self._sockets.get(game_id):
                self._soon(self._deliver(game_id, text))
            return
        if self._subscribed.is_set():
            try:
                self._queue.put_nowait((game_id, text, False))
                return
            except asyncio.QueueFull:
                pass  # delivered locally (and said so) by publish_text
        self._soon(self.publish_text(game_id, text))

    def _soon(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def publish_frame(self, game_id: str, frame: ServerFrameDict) -> None:
        """Send ``frame`` (a ``contract.ServerFrame``) to every socket watching ``game_id``
        (in every worker)."""
        await self.publish_text(game_id, _text(frame))

    async def publish_text(self, key: str, text: str) -> None:
        if self._queue is None:
            await self._deliver(key, text)
            return
        local = not self._subscribed.is_set()
        try:
            self._queue.put_nowait((key, text, local))
        except asyncio.QueueFull:
            log.warning("hub queue full: delivering locally only")
            await self._deliver(key, text)
            return
        if local:
            # Published if Redis answers, but this worker's sockets hear it now.
            await self._deliver(key, text)

    async def deliver_local(self, key: str, frame: ServerFrameDict) -> None:
        """Send ``frame`` to this worker's sockets watching ``key`` only (a re-sync)."""
        await self._deliver(key, _text(frame))

    async def _deliver(self, game_id: str, text: str) -> None:
        sockets = list(self._sockets.get(game_id, ()))
        if not sockets:
            return
        if len(sockets) == 1:  # the usual case: no gather, no task
            try:
                await sockets[0].send_text(text)
            except Exception:
                self.discard(game_id, sockets[0])
            return
        results = await asyncio.gather(*(ws.send_text(text) for ws in sockets),
                                       return_exceptions=True)
        for ws, res in zip(sockets, results, strict=True):
            if isinstance(res, BaseException):
                self.discard(game_id, ws)


def _pack(events: list[tuple[str, str]]) -> str:
    """One Redis message for a batch of events: each as ``len(key):len(text):`` followed by
    the key and the text (no JSON around a text that is JSON already; one PUBLISH, one
    message for every listener to parse, instead of one per event)."""
    return "".join(f"{len(key)}:{len(text)}:{key}{text}" for key, text in events)


def _unpack(data: str | bytes) -> list[tuple[str, str]]:
    """The (key, text) events of a message of :func:`_pack`; a process of an earlier release
    published one JSON object ``{"game": key, "text": text}`` per event."""
    if isinstance(data, bytes):
        data = data.decode()
    if data.startswith("{"):
        envelope = json.loads(data)
        return [(envelope["game"], envelope["text"])]
    events, i = [], 0
    while i < len(data):
        a = data.index(":", i)
        b = data.index(":", a + 1)
        start = b + 1 + int(data[i:a])
        end = start + int(data[a + 1:b])
        if end > len(data):
            raise ValueError("a hub message cut short")
        events.append((data[b + 1:start], data[start:end]))
        i = end
    return events


def _text(frame: ServerFrameDict) -> str:
    return json.dumps(frame, separators=(",", ":"))
