"""A hall round's online games opened when its preparation window ends (issue 30).

The arbiter asks for it with the reveal; the reveal's transaction writes one row of
``tournament_openings`` (state ``waiting``, due at the window's end).  Whichever server
process takes the row first opens the games: :func:`claim` is a compare-and-set on the state
(``UPDATE ... WHERE state = 'waiting'``), so two processes armed for the same round open it
once.  A process that dies holding a claim leaves it ``opening``; after :data:`STALE_MS`
another (or the restarted one) may take it over — the boards that got their game meanwhile
keep it (a board's game is linked once).  The players' links are kept on the row for the
event's staff, since nobody is at the desk to be shown them when the server opens the round.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Engine

from randomchess.db import schema

openings_t = schema.tournament_openings

# A claim older than this is a dead process's: another process may take the round over.
STALE_MS = 120_000


@dataclass(frozen=True)
class Opening:
    """One round to open online: due when (ms since the epoch), rated or not, its state
    (waiting | opening | opened | dropped) and, once opened, the players' links."""

    event_id: str
    round: int
    state: str
    due_at: int
    rated: bool
    links: tuple[dict[str, Any], ...] = ()


def _opening(r: Any) -> Opening:
    links = tuple(json.loads(r.links)) if r.links else ()
    return Opening(str(r.tournament_id), int(r.round), str(r.state), int(r.due_at),
                   bool(r.rated), links)


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


def finish(engine: Engine, event_id: str, rnd: int, now: int,
           links: list[dict[str, Any]], state: str = "opened") -> None:
    """The round opened (its players' links kept for the staff), or dropped."""
    with engine.begin() as conn:
        conn.execute(update(openings_t).where(_key(event_id, rnd)).values(
            state=state, opened_at=now, links=json.dumps(links)))


def release(engine: Engine, event_id: str, rnd: int) -> None:
    """Give a claim back (the opening failed for a passing reason: tried again)."""
    with engine.begin() as conn:
        conn.execute(update(openings_t).where(_key(event_id, rnd),
                                              openings_t.c.state == "opening")
                     .values(state="waiting", claimed_at=None))
