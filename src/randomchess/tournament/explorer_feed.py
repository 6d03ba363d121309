"""Over-the-board games of events in the opening explorer (issue 33): every finished game an
arbiter entered (typed from a scoresheet, a round's PGN file, a relay) is counted under the
source ``otb``, with the event's name, the players' names and ratings and the event's speed
class, as an imported game is.  An arbiter may correct a game afterwards (``replace``), or
take its result back: each counted game is kept with a digest of its moves and result
(``explorer_counted``), and a game whose digest changed is taken back out and counted again in
one transaction, so the explorer never counts a board twice nor keeps moves nobody played.

:func:`sync` brings the explorer up to date with the events' games; the server runs it every
``SWEEP_S`` seconds (server/tournaments/explorer_sweep.py) and ``randomchess explorer events``
runs it once from the command line."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from sqlalchemy import and_, func, select

from randomchess.db import schema
from randomchess.explorer.counts import RESULTS, Tally
from randomchess.explorer.importer import count_pgn_game
from randomchess.explorer.store import ExplorerStore
from randomchess.tournament import otb
from randomchess.tournament.export import game_records
from randomchess.tournament.store import TournamentStore

SOURCE = "otb"


def digest(moves: str, result: str) -> str:
    """What a counted game is compared by: its UCI moves and its result."""
    return hashlib.sha256(f"{moves}|{result}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SyncReport:
    counted: int = 0  # games counted (new or corrected)
    removed: int = 0  # games taken out (result taken back, game deleted)
    left: int = 0  # games still to count (beyond ``limit``)


def _tally(store: TournamentStore, event_id: str, rnd: int, board: int) -> Tally:
    """The board's game as the explorer counts it (empty when it cannot be counted: not
    from a numbered setup)."""
    t = store.load(event_id)
    g = store.otb_games(event_id).get((rnd, board))
    tally = Tally()
    if g is None:
        return tally
    for record in game_records(t, None, {(rnd, board): g}):
        h = record.headers
        if h.get("Round") == str(rnd) and h.get("Board") == str(board):
            # The bulletin leaves out what the explorer shows of a game: the players' ratings
            # (its rating band) and the day the game was entered.
            b = t.board(rnd, board)
            for tag, number in (("WhiteElo", b.white), ("BlackElo", b.black)):
                rating = t.player(number).rating if number is not None else None
                if rating:
                    h[tag] = str(rating)
            h["Date"] = time.strftime("%Y.%m.%d", time.gmtime(g.entered_at / 1000))
            count_pgn_game(tally, record)
            break
    return tally


def sync(store: TournamentStore, explorer: ExplorerStore, limit: int = 200) -> SyncReport:
    """Count the finished over-the-board games not counted as they are now (at most
    ``limit`` of them), and take out those whose result was taken back."""
    g, b = schema.tournament_games.c, schema.tournament_boards.c
    # The board's result is the event's (an arbiter may correct it after the game was
    # entered); the game's own is used while the board has none.
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(g.tournament_id, g.round, g.board, g.moves,
                   func.coalesce(b.result, g.result).label("result"))
            .select_from(schema.tournament_games.outerjoin(schema.tournament_boards, and_(
                b.tournament_id == g.tournament_id, b.round == g.round, b.board == g.board)))
            .order_by(g.entered_at)).all()
    current: dict[str, tuple[str, str, int, int]] = {}
    for r in rows:
        if r.result in RESULTS and str(r.moves).strip():
            current[otb.review_id(r.tournament_id, r.round, r.board)] = (
                digest(str(r.moves), str(r.result)), str(r.tournament_id), int(r.round),
                int(r.board))
    counted = explorer.counted(SOURCE)
    removed = 0
    for key in counted.keys() - current.keys():
        explorer.replace(SOURCE, key, "", None)
        removed += 1
    todo = [(key, v) for key, v in current.items() if counted.get(key) != v[0]]
    for key, (dig, event_id, rnd, board) in todo[:limit]:
        explorer.replace(SOURCE, key, dig, _tally(store, event_id, rnd, board))
    return SyncReport(min(len(todo), limit), removed, max(0, len(todo) - limit))
