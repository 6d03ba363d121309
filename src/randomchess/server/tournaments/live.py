"""The live relay pushed to spectators (issue 31): ``WS /ws/tournaments/{id}/rounds/{r}/live``
sends the round's boards (``GET .../rounds/{r}/live``'s answer) at once and again whenever
they change, so a move entered from a scoresheet reaches every spectator's event page within
a second instead of waiting for the page's next poll.

A game or result stored through this process wakes the sockets at once (:meth:`LiveHub.bump`,
called by the entry and result routes).  Changes made elsewhere (the CLI's scoresheet entry
or relay watching an e-board file, another server process) are seen by a cheap look at the
event's over-the-board games every ``CHECK_S`` seconds, and a full look every ``FULL_S``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict
from sqlalchemy import func, select

from randomchess.db import schema
from randomchess.server.http.errors import ApiError, error_body, lang_of_scope
from randomchess.server.tournaments.answers import LiveOut
from randomchess.tournament.errors import UnknownEventError
from randomchess.tournament.model import Tournament
from randomchess.tournament.store import TournamentStore

CHECK_S = 1.0  # a change made by another process is seen within this (plus a read)
FULL_S = 5.0  # and a result recorded elsewhere within this

router = APIRouter(tags=["tournaments"])


class LiveFrame(BaseModel):
    """The socket's push: the round's boards, as ``GET .../rounds/{r}/live`` answers them."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["live"]
    live: LiveOut


class LiveHub:
    """Per event, a counter bumped on every change stored by this process, and the sockets'
    wake-up.  ``bump`` may be called from any thread (the routes run in worker threads)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.versions: dict[str, int] = {}
        self.waiters: dict[str, set[asyncio.Event]] = {}

    def bump(self, event_id: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(event_id)
        else:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(self._wake, event_id)

    def _wake(self, event_id: str) -> None:
        self.versions[event_id] = self.versions.get(event_id, 0) + 1
        for ev in self.waiters.get(event_id, ()):
            ev.set()

    def waiter(self, event_id: str) -> asyncio.Event:
        self.loop = asyncio.get_running_loop()
        ev = asyncio.Event()
        self.waiters.setdefault(event_id, set()).add(ev)
        return ev

    def drop(self, event_id: str, ev: asyncio.Event) -> None:
        left = self.waiters.get(event_id)
        if left is not None:
            left.discard(ev)
            if not left:
                del self.waiters[event_id]


def hub_of(app: Any) -> LiveHub:
    hub: LiveHub | None = getattr(app.state, "tournament_live", None)
    if hub is None:
        hub = app.state.tournament_live = LiveHub()
    return hub


def live_round(store: TournamentStore, t: Tournament, rnd: int) -> dict[str, Any]:
    """The boards of round ``rnd`` with their over-the-board moves so far (the answer of
    ``GET /api/tournaments/{id}/rounds/{r}/live``); 404 ``tournament.no_round`` for a round
    not paired."""
    if rnd > t.paired_rounds:
        raise ApiError(404, "tournament.no_round", round=rnd)
    games = store.otb_games(t.event.id)
    boards = []
    for b in t.round_boards(rnd):
        if b.black is None:
            continue
        g = games.get((rnd, b.board))
        boards.append({
            "board": b.board, "white": t.player(b.white).name, "black": t.player(b.black).name,
            "setup": b.setup, "fen": b.fen, "moves": list(g.moves) if g else [],
            "san": list(g.san) if g else [], "clocks": list(g.clocks) if g else [],
            "result": b.result})
    return {"round": rnd, "boards": boards}


def _signature(store: TournamentStore, event_id: str) -> tuple[Any, ...]:
    """What changes whenever a game of the event is entered or relayed, in one small read."""
    g = schema.tournament_games
    with store.engine.connect() as conn:
        row = conn.execute(select(func.count(), func.max(g.c.entered_at))
                           .where(g.c.tournament_id == event_id)).one()
    return tuple(row)


def _snapshot(store: TournamentStore, event_id: str, rnd: int) -> dict[str, Any]:
    try:
        t = store.load(event_id)
    except UnknownEventError as e:
        raise ApiError.wrap(404, e) from None
    return live_round(store, t, rnd)


@router.websocket("/ws/tournaments/{event_id}/rounds/{rnd}/live")
async def live_socket(websocket: WebSocket, event_id: str, rnd: int) -> None:
    """Pushes ``{"type": "live", "live": <the round's boards>}`` at once and on every change;
    an unknown event or round gets ``{"type": "error", ...}`` and the socket closes (4404).
    The client sends nothing but ``{"type": "ping"}`` (answered ``{"type": "pong"}``)."""
    app = websocket.app
    store: TournamentStore = app.state.tournaments
    db = app.state.db
    hub = hub_of(app)
    await websocket.accept()
    lang = lang_of_scope(websocket.scope)
    wake = hub.waiter(event_id)
    reader = asyncio.create_task(_read(websocket))
    try:
        sent: dict[str, Any] | None = None
        signature: tuple[Any, ...] | None = None
        version = -1
        full_at = 0.0
        loop = asyncio.get_running_loop()
        while not reader.done():
            now = loop.time()
            bumped = hub.versions.get(event_id, 0) != version
            version = hub.versions.get(event_id, 0)
            wake.clear()
            try:
                seen = await db.run(_signature, store, event_id)
                if bumped or seen != signature or now >= full_at:
                    signature, full_at = seen, now + FULL_S
                    snap = await db.run(_snapshot, store, event_id, rnd)
                    if snap != sent:
                        sent = snap
                        frame = LiveFrame.model_validate({"type": "live", "live": snap})
                        await websocket.send_json(frame.model_dump(mode="json"))
            except ApiError as e:
                await websocket.send_json({"type": "error", "status": e.status,
                                           **e.body(lang)})
                await websocket.close(code=4404 if e.status == 404 else 1013)
                return
            waiting = asyncio.create_task(wake.wait())
            await asyncio.wait({waiting, reader}, timeout=CHECK_S,
                               return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        hub.drop(event_id, wake)


async def _read(websocket: WebSocket) -> None:
    """Answer pings until the client goes; anything else is refused and the socket serves
    on."""
    lang = lang_of_scope(websocket.scope)
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        try:
            frame = json.loads(message.get("text") or "null")
        except ValueError:
            frame = None
        if isinstance(frame, dict) and frame.get("type") == "ping":
            await websocket.send_json({"type": "pong"})
        else:
            await websocket.send_json({"type": "error", "status": 422, **error_body(
                "frame.invalid", lang, reason='only {"type": "ping"} is sent here')})
