"""The engine review of events' over-the-board games (issue 31): a finished game goes to the
engine workers' review queue as an online game's review does
(:func:`randomchess.server.engines.routes.start_review`), and the review is kept under the
board's key (:func:`randomchess.tournament.otb.review_id`); the bulletin writes it as
comments.  A game entered through the server is queued at once; a sweep every ``SWEEP_S``
seconds queues the finished games stored by other processes (the CLI's ``tournament game``,
``import-pgn`` and ``relay``) or whose moves changed since their review.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import anyio.from_thread
from sqlalchemy import select

from randomchess.db import schema
from randomchess.pgn import write_game
from randomchess.server.engines.routes import start_review
from randomchess.tournament import otb
from randomchess.tournament.export import game_records
from randomchess.tournament.store import TournamentStore

log = logging.getLogger("randomchess.server.tournaments")

SWEEP_S = 30.0
SWEEP_BATCH = 4  # games queued per sweep: a bulletin typed in at once is reviewed bit by bit


def game_pgn(store: TournamentStore, event_id: str, g: otb.OtbGame) -> str:
    """The board's game as the bulletin writes it (tags, setup, moves)."""
    t = store.load(event_id)
    for record in game_records(t, store.online_moves, {(g.round, g.board): g}):
        if record.headers.get("Round") == str(g.round) \
                and record.headers.get("Board") == str(g.board):
            return write_game(record)
    raise LookupError(f"round {g.round}, board {g.board} has no game")


def queue(app: Any, event_id: str, g: otb.OtbGame, pgn: str) -> asyncio.Task[None]:
    """Queue the review of the finished game ``g`` (on the server's loop)."""
    task = start_review(app, otb.review_id(event_id, g.round, g.board), pgn, " ".join(g.moves))
    task.add_done_callback(_log_failure)
    return task


def queue_from_route(app: Any, store: TournamentStore, event_id: str, g: otb.OtbGame) -> None:
    """From a route's worker thread: queue the review, not waiting for it."""
    pgn = game_pgn(store, event_id, g)
    anyio.from_thread.run_sync(lambda: queue(app, event_id, g, pgn))


def unreviewed(store: TournamentStore, limit: int, skip: frozenset[str] = frozenset(),
               ) -> list[tuple[str, otb.OtbGame, str]]:
    """Up to ``limit`` finished over-the-board games with no review of their moves (leaving
    out the review keys in ``skip``), each with its event and PGN."""
    games, reviews = schema.tournament_games, schema.game_reviews
    with store.engine.connect() as conn:
        rows = conn.execute(select(games.c.tournament_id, games.c.round, games.c.board,
                                   games.c.moves)
                            .where(games.c.result != "*")
                            .order_by(games.c.entered_at)).all()
        keys = {otb.review_id(r.tournament_id, r.round, r.board): r for r in rows}
        reviewed: dict[str, str] = {}
        names = list(keys)
        for i in range(0, len(names), 500):
            found = conn.execute(select(reviews.c.game_id, reviews.c.moves)
                                 .where(reviews.c.game_id.in_(names[i:i + 500])))
            reviewed.update({str(gid): str(moves) for gid, moves in found})
    out: list[tuple[str, otb.OtbGame, str]] = []
    for key, r in keys.items():
        if reviewed.get(key) == str(r.moves) or key in skip or len(out) >= limit:
            continue
        g = store.otb_games(r.tournament_id).get((r.round, r.board))
        if g is None or not g.finished or not g.moves:
            continue
        out.append((r.tournament_id, g, game_pgn(store, r.tournament_id, g)))
    return out


async def sweep_forever(app: Any) -> None:
    """Queue the finished games still without a review, every ``SWEEP_S`` seconds."""
    store: TournamentStore = app.state.tournaments
    running: dict[str, asyncio.Task[None]] = {}
    failed: set[str] = set()  # not tried again by this process (the log says why)
    while True:
        try:
            for key in [k for k, task in running.items() if task.done()]:
                task = running.pop(key)
                if task.cancelled() or task.exception() is not None:
                    failed.add(key)
            skip = frozenset(failed | set(running))
            for event_id, g, pgn in await app.state.db.run(unreviewed, store, SWEEP_BATCH,
                                                           skip, bounded=False):
                running[otb.review_id(event_id, g.round, g.board)] = queue(app, event_id, g,
                                                                           pgn)
        except Exception:  # the next sweep tries again
            log.exception("the sweep of over-the-board games to review failed")
        await asyncio.sleep(SWEEP_S)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("review of an over-the-board game failed: %s", task.exception())
