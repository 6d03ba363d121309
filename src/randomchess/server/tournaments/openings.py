"""The server opens a hall round's online games itself when the preparation window ends
(issue 30; randomchess.tournament.openings holds the rows and their lock).

The games are made at the reveal (:func:`plan_links`): the organiser at the desk is shown
the players' links once, and the row keeps the games' ids and the SHA-256 of their seats'
secrets.  Each process arms a timer for every round still to open: at its start (read from
the database, so a restart during the countdown loses nothing; a window that ended while the
server was down opens at once), when its own reveal route commits a round to open, and every
:data:`POLL_S` (rounds asked for by the command line or another process).  The timer's
process claims the row (a compare-and-set: of two processes armed for one round, one opens
it) and creates exactly the games made at the reveal (clocks stopped until the first moves,
as a friend's game).
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
from randomchess.server.games.service import GameService, SeatHashes
from randomchess.tournament import openings
from randomchess.tournament.errors import TournamentError
from randomchess.tournament.model import Tournament
from randomchess.tournament.openings import PlannedGame
from randomchess.tournament.store import TournamentStore, check_playable

log = logging.getLogger("randomchess.server.tournaments")

# A failed opening (the database down, say) is tried again this much later.
RETRY_S = 2.0
# How often a process looks for rounds to open that it was not told of.
POLL_S = 10.0


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
                    premade: SeatHashes | None = None,
                    **create: Any) -> tuple[str, str, str]:
    """One event game on the server (a friend's game, White's seat taken, clocks stopped until
    the first moves), rated when asked and the event has a clock, and tied to its board by
    ``link(game_id)`` (run in the database's thread): (game id, White's seat token, Black's
    invitation).  ``premade``: the game made at a reveal (its secrets are not known here:
    both empty), created unless a process that died opening it created it.  ``create``: more
    of :meth:`GameService.create`'s terms (a control, Black's own time).  A Swiss or
    round-robin board and a knock-out game open alike."""
    service: GameService = app.state.service
    players = getattr(app.state, "players", None)  # accounts (accounts_api.py)
    if premade is not None and await service.db.run(
            service.store.load, premade.game_id) is not None:
        game_id, token, invite = premade.game_id, "", ""
        made = False
    else:
        new = await service.create(variant, setup, "friend", None, "white", clock,
                                   premade=premade, **create)
        game_id, token, invite = new.game.record.id, new.token, new.invite or ""
        made = True
    if rated and clock is not None and players is not None and (
            made or await service.db.run(players.accounts.terms, game_id) is None):
        await service.db.run(players.accounts.set_terms, game_id, True, speed_class(*clock))
    await service.db.run(link, game_id)
    return game_id, token, invite


def seat_links(event_id: str, game_id: str, token: str, invite: str,
               invite_link: Callable[[str, str], str]) -> tuple[str, str]:
    """White's personal link (the event's seat page) and Black's (the invitation)."""
    return f"/#/tournament/{event_id}/seat/{game_id}/{token}", invite_link(game_id, invite)


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
        white, black = seat_links(t.event.id, game_id, token, invite, invite_link)
        links.append({"board": b.board, "game_id": game_id,
                      "white": {"number": b.white, "link": white},
                      "black": {"number": b.black, "link": black}})
    return links


def plan_links(t: Tournament, rnd: int) -> tuple[list[PlannedGame], list[dict[str, Any]]]:
    """The games the server will open for round ``rnd`` (and a mini-match's replay round),
    made now: what the row keeps (ids, seats' hashes), and the players' links by round (an
    ``OnlineOut`` each), to show once: the players get them before their games exist."""
    made = openings.plan(t, rnd)
    by_round: dict[int, list[dict[str, Any]]] = {}
    for s in made:
        g = s.game
        white, black = openings.seat_links(t.event.id, s)
        by_round.setdefault(g.round, []).append({
            "board": g.board, "game_id": g.game_id,
            "white": {"number": g.white, "link": white},
            "black": {"number": g.black, "link": black}})
    shown = [{"round": r, "games": by_round.get(r, [])}
             for r in sorted({rnd} | set(by_round))]
    return [s.game for s in made], shown


def watch_links(t: Tournament, rnd: int) -> list[dict[str, Any]]:
    """The round's online games: where to watch each (no seat: the players' links were
    shown once)."""
    return [{"board": b.board, "game_id": b.game_id, "watch": f"/#/game/{b.game_id}"}
            for b in t.round_boards(rnd) if b.game_id is not None]


async def open_planned(app: FastAPI, store: TournamentStore, t: Tournament, rnd: int,
                       rated: bool, planned: tuple[PlannedGame, ...]) -> int:
    """Create the games made at the reveal for round ``rnd`` and link each to its board; a
    board that has its game, a result, or other players than planned keeps them.  The
    number of boards linked."""
    check_playable(t, rnd, now_ms())
    clock = clock_of(t.event.time_control)
    done = 0
    for g in planned:
        b = t.board(rnd, g.board)
        if b.is_bye or b.result is not None or (b.white, b.black) != (g.white, g.black):
            log.warning("board %s of round %s of event %s not opened online: it changed "
                        "since the reveal", g.board, rnd, t.event.id)
            continue
        if b.game_id is not None:
            continue
        setup: int | str = b.setup if b.setup is not None else b.fen
        await open_game(app, t.event.variant, setup, clock, rated,
                        functools.partial(store.link_game, t.event.id, rnd, b.board),
                        premade=SeatHashes(g.game_id, g.white_hash, g.invite_hash),
                        preview_s=t.event.preview_s)
        done += 1
    return done


class RoundOpener:
    """The timers of the rounds to open, in this process."""

    def __init__(self, app: FastAPI, store: TournamentStore) -> None:
        self.app, self.store = app, store
        self._timers: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[bool]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._poller: asyncio.Task[None] | None = None

    def arm_soon(self, event_id: str, rnd: int, due_at: int) -> None:
        """:meth:`arm` from a worker thread (a synchronous route)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.arm, event_id, rnd, due_at)

    async def start(self) -> None:
        """Arm a timer for every round still to open (the server's start), and look for new
        ones every :data:`POLL_S`."""
        self.loop = asyncio.get_running_loop()
        await self._arm_pending(again=True)
        self._poller = asyncio.create_task(self._poll())

    async def _arm_pending(self, again: bool) -> None:
        service: GameService = self.app.state.service
        for o in await service.db.run(openings.pending, self.store.engine, now_ms(),
                                      bounded=False):
            if again or (o.event_id, o.round) not in self._timers:
                self.arm(o.event_id, o.round, o.due_at)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_S)
            try:
                await self._arm_pending(again=False)
            except Exception:  # the database away for a while: the next poll
                log.exception("looking for rounds to open online failed")

    async def stop(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._poller
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
            t = await db.run(self.store.load, event_id, bounded=False)
            if rnd > t.paired_rounds and t.event.status != "closed":
                return False  # a mini-match's replay round: armed again when paired
            if not await db.run(openings.claim, engine, event_id, rnd, now_ms(),
                                bounded=False):
                return False
            t = await db.run(self.store.load, event_id, bounded=False)
            o = (await db.run(openings.of_event, engine, event_id, bounded=False))[rnd]
            if o.games is None:
                raise TournamentError("no games were made at its reveal (asked for before "
                                      "migration 0021): open it with the Online button")
            n = await open_planned(self.app, self.store, t, rnd, o.rated, o.games)
        except TournamentError as e:  # the event closed, the round's results entered...
            log.warning("round %s of event %s not opened online: %s", rnd, event_id, e)
            with contextlib.suppress(Exception):
                await db.run(openings.finish, engine, event_id, rnd, now_ms(), "dropped",
                             bounded=False)
            return False
        except Exception:
            log.exception("opening round %s of event %s online failed; tried again", rnd,
                          event_id)
            with contextlib.suppress(Exception):
                await db.run(openings.release, engine, event_id, rnd, bounded=False)
            self.arm(event_id, rnd, now_ms() + int(RETRY_S * 1000))
            return False
        await db.run(openings.finish, engine, event_id, rnd, now_ms(), bounded=False)
        log.info("round %s of event %s opened online: %d games", rnd, event_id, n)
        return True
