"""A hall round's online games opened when its preparation window ends (issue 30).

The arbiter asks for it with the reveal; the reveal's transaction writes one row of
``tournament_openings`` (state ``waiting``, due at the window's end).  Whichever server
process takes the row first opens the games: :func:`claim` is a compare-and-set on the state
(``UPDATE ... WHERE state = 'waiting'``), so two processes armed for the same round open it
once.  A process that dies holding a claim leaves it ``opening``; after :data:`STALE_MS`
another (or the restarted one) may take it over — the boards that got their game meanwhile
keep it (a board's game is linked once).

The games are made at the reveal, while the organiser is at the desk (:func:`plan`): their
ids and seats' secrets (White's token, Black's invitation), shown once in the reveal's
answer.  The row keeps the ids and the SHA-256 of the secrets, never the secrets (the
database holds no secret, docs/tournaments.md); the server creates exactly those games.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Engine

from randomchess.db import schema
from randomchess.tournament.model import Tournament

openings_t = schema.tournament_openings

# A claim older than this is a dead process's: another process may take the round over.
STALE_MS = 120_000


@dataclass(frozen=True)
class PlannedGame:
    """A board's game made at the reveal: its id, its players and the SHA-256 of its seats'
    secrets (as the games table keeps them)."""

    round: int
    board: int
    white: int
    black: int
    game_id: str
    white_hash: str
    invite_hash: str


@dataclass(frozen=True)
class Seats:
    """A planned game with its secrets: White's seat token and Black's invitation, for the
    players' links (shown once, never stored)."""

    game: PlannedGame
    token: str
    invite: str


def seat_links(event_id: str, s: Seats) -> tuple[str, str]:
    """White's and Black's personal links (paths of the server's page): the event's seat and
    join pages, which wait for the game to open (web/src/tournament/seat.js)."""
    g = s.game
    return (f"/#/tournament/{event_id}/seat/{g.game_id}/{s.token}",
            f"/#/tournament/{event_id}/join/{g.game_id}/{s.invite}")


def seat_hash(secret: str) -> str:
    """A seat secret as the games table keeps it (server.games.live.hash_secret)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _seats(rnd: int, board: int, white: int, black: int) -> Seats:
    # The formats of GameService.create: a 9-byte id, a 256-bit token, a 128-bit invitation.
    token, invite = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
    return Seats(PlannedGame(rnd, board, white, black, secrets.token_urlsafe(9),
                             seat_hash(token), seat_hash(invite)), token, invite)


def plan(t: Tournament, rnd: int) -> list[Seats]:
    """The online games of round ``rnd``'s boards still to play, made now; in a mini-match
    also those of the next round, which replays this one's pairings with colours swapped
    (board for board: the games come first in both rounds)."""
    games = [(b.board, b.white, b.black) for b in t.round_boards(rnd)
             if b.black is not None and not b.is_bye and b.result is None and b.game_id is None]
    out = [_seats(rnd, board, white, black) for board, white, black in games]
    if t.event.mini_match and rnd % 2 == 1 and rnd < t.event.rounds:
        out += [_seats(rnd + 1, board, black, white) for board, white, black in games]
    return out


@dataclass(frozen=True)
class Opening:
    """One round to open online: due when (ms since the epoch), rated or not, its state
    (waiting | opening | opened | dropped) and the games made for it at the reveal."""

    event_id: str
    round: int
    state: str
    due_at: int
    rated: bool
    games: tuple[PlannedGame, ...] | None = None  # None: a row from before 0021


def games_json(games: list[PlannedGame]) -> str:
    return json.dumps([asdict(g) for g in games])


def _opening(r: Any) -> Opening:
    games = None if r.games is None else tuple(PlannedGame(**g) for g in json.loads(r.games))
    return Opening(str(r.tournament_id), int(r.round), str(r.state), int(r.due_at),
                   bool(r.rated), games)


def pending(engine: Engine, now: int) -> list[Opening]:
    """The rounds still to open: waiting, or claimed by a process that has not finished
    within :data:`STALE_MS` (a server's start arms a timer for each)."""
    with engine.connect() as conn:
        rows = conn.execute(select(openings_t).where(or_(
            openings_t.c.state == "waiting",
            and_(openings_t.c.state == "opening",
                 openings_t.c.claimed_at < now - STALE_MS)))).all()
    return [_opening(r) for r in rows]


def of_event(engine: Engine, event_id: str) -> dict[int, Opening]:
    with engine.connect() as conn:
        rows = conn.execute(select(openings_t)
                            .where(openings_t.c.tournament_id == event_id)).all()
    return {int(r.round): _opening(r) for r in rows}


def _key(event_id: str, rnd: int) -> Any:
    return and_(openings_t.c.tournament_id == event_id, openings_t.c.round == rnd)


def claim(engine: Engine, event_id: str, rnd: int, now: int) -> bool:
    """Take the round to open it (True), unless another process has (or it is opened)."""
    with engine.begin() as conn:
        done = conn.execute(update(openings_t).where(_key(event_id, rnd), or_(
            openings_t.c.state == "waiting",
            and_(openings_t.c.state == "opening",
                 openings_t.c.claimed_at < now - STALE_MS))).values(
            state="opening", claimed_at=now)).rowcount
    return bool(done == 1)


def finish(engine: Engine, event_id: str, rnd: int, now: int, state: str = "opened") -> None:
    """The round opened, or dropped."""
    with engine.begin() as conn:
        conn.execute(update(openings_t).where(_key(event_id, rnd)).values(
            state=state, opened_at=now))


def release(engine: Engine, event_id: str, rnd: int) -> None:
    """Give a claim back (the opening failed for a passing reason: tried again)."""
    with engine.begin() as conn:
        conn.execute(update(openings_t).where(_key(event_id, rnd),
                                              openings_t.c.state == "opening")
                     .values(state="waiting", claimed_at=None))
