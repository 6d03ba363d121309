"""The server opens a hall round's online games itself when the preparation window ends
(issue 30; randomchess.tournament.openings holds the rows and their lock).

Each process arms a timer for every round still to open: at its start (read from the
database, so a restart during the countdown loses nothing; a window that ended while the
server was down opens at once) and when its own reveal route commits a round to open.  The
timer's process claims the row (a compare-and-set: of two processes armed for one round, one
opens it), creates the games (clocks stopped until the first moves, as a friend's game) and
keeps the players' links on the row for the event's staff.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from randomchess.accounts.ratings import speed_class
from randomchess.db import now_ms
from randomchess.server.games.service import GameService
from randomchess.tournament import openings
from randomchess.tournament.errors import TournamentError
from randomchess.tournament.model import Tournament
from randomchess.tournament.store import TournamentStore, check_playable

log = logging.getLogger("randomchess.server.tournaments")

# A failed opening (the database down, say) is tried again this much later.
RETRY_S = 2.0


_SECONDS_PLUS = re.compile(r"\s*(\d+)(?:\+(\d+))?\s*")


def clock_of(time_control: str) -> tuple[int, int] | None:
    """The game clock (initial, increment in ms) of an event's "seconds+increment" time
    control, or None (an untimed game) for any other."""
    m = _SECONDS_PLUS.fullmatch(time_control)
    if not m:
        return None
    return int(m[1]) * 1000, int(m[2] or 0) * 1000


async def open_game(app: FastAPI, variant: str, setup: int | str,
                    clock: tuple[int, int] | None, rated: bool, link: Callable[[str], object],
                    **create: Any) -> tuple[str, str, str]:
    """One event game on the server (a friend's game, White's seat taken, clocks stopped until
    the first moves), rated when asked and the event has a clock, and tied to its board by
    ``link(game_id)`` (run in the database's thread): (game id, White's seat token, Black's
    invitation).  ``create``: more of :meth:`GameService.create`'s terms (a control,
    Black's own time).  A Swiss or round-robin board and a knock-out game open alike."""
    service: GameService = app.state.service
    new = await service.create(variant, setup, "friend", None, "white", clock, **create)
    game_id = new.game.record.id
    assert new.invite is not None
    players = getattr(app.state, "players", None)  # accounts (accounts_api.py)
    if rated and clock is not None and players is not None:
        await service.db.run(players.accounts.set_terms, game_id, True, speed_class(*clock))
    await service.db.run(link, game_id)
    return game_id, new.token, new.invite


async def open_games(app: FastAPI, store: TournamentStore, t: Tournament, rnd: int,
                     rated: bool, invite_link: Callable[[str, str], str]) -> list[dict[str, Any]]:
    """Create the online games of round ``rnd``'s boards still to play and link each to its
    board; each player's personal link (White's seat token, Black's invitation)."""
    check_playable(t, rnd, now_ms())
    clock = clock_of(t.event.time_control)
    links = []
    for b in t.round_boards(rnd):
        if b.is_bye or b.result is not None or b.game_id is not None:
            continue
        setup: int | str = b.setup if b.setup is not None else b.fen
        game_id, token, invite = await open_game(
            app, t.event.variant, setup, clock, rated,
            functools.partial(store.link_game, t.event.id, rnd, b.board),
            preview_s=t.event.preview_s)
        links.append({"board": b.board, "game_id": game_id,
                      "white": {"number": b.white,
                                "link": f"/#/tournament/{t.event.id}/seat/{game_id}/{token}"},
                      "black": {"number": b.black, "link": invite_link(game_id, invite)}})
    return links


class RoundOpener:
    """The timers of the rounds to open, in this process."""

    def __init__(self, app: FastAPI, store: TournamentStore) -> None:
        self.app, self.store = app, store
        self._timers: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[bool]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def arm_soon(self, event_id: str, rnd: int, due_at: int) -> None:
        """:meth:`arm` from a worker thread (a synchronous route)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.arm, event_id, rnd, due_at)

    async def start(self) -> None:
        """Arm a timer for every round still to open (the server's start)."""
        self.loop = asyncio.get_running_loop()
        service: GameService = self.app.state.service
        for o in await service.db.run(openings.pending, self.store.engine, now_ms(),
                                      bounded=False):
            self.arm(o.event_id, o.round, o.due_at)

    async def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def arm(self, event_id: str, rnd: int, due_at: int) -> None:
        key = (event_id, rnd)
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        delay = max(0.0, (due_at - now_ms()) / 1000) + 0.005
        self._timers[key] = asyncio.get_running_loop().call_later(
            delay, self._fire, event_id, rnd)

    def _fire(self, event_id: str, rnd: int) -> None:
        self._timers.pop((event_id, rnd), None)
        task = asyncio.create_task(self.open(event_id, rnd))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def open(self, event_id: str, rnd: int) -> bool:
        """Open the round if this process wins its row; True when it did."""
        service: GameService = self.app.state.service
        db, engine = service.db, self.store.engine
        try:
            if not await db.run(openings.claim, engine, event_id, rnd, now_ms(),
                                bounded=False):
                return False
            t = await db.run(self.store.load, event_id, bounded=False)
            rated = (await db.run(openings.of_event, engine, event_id, bounded=False))[rnd].rated
            links = await open_games(self.app, self.store, t, rnd, rated, self._invite)
        except TournamentError as e:  # the event closed, the round's results entered...
            log.warning("round %s of event %s not opened online: %s", rnd, event_id, e)
            with contextlib.suppress(Exception):
                await db.run(openings.finish, engine, event_id, rnd, now_ms(), [], "dropped",
                             bounded=False)
            return False
        except Exception:
            log.exception("opening round %s of event %s online failed; tried again", rnd,
                          event_id)
            with contextlib.suppress(Exception):
                await db.run(openings.release, engine, event_id, rnd, bounded=False)
            self.arm(event_id, rnd, now_ms() + int(RETRY_S * 1000))
            return False
        await db.run(openings.finish, engine, event_id, rnd, now_ms(), links, bounded=False)
        log.info("round %s of event %s opened online: %d games", rnd, event_id, len(links))
        return True

    def _invite(self, game_id: str, invite: str) -> str:
        return str(self.app.url_path_for("open_invite", game_id=game_id, invite=invite))
