"""The opening explorer over HTTP (issue 33) and its feed from this server's games.

``GET /api/explorer/{variant}/{number}?fen=...&source=...``: the moves played from a position
reached from setup ``number`` (the start position when ``fen`` is left out), with their counts
and results, summed over the chosen sources (all when none is given).  Every game that ends
here with a result is counted under the source ``server`` as it ends."""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import APIRouter, FastAPI, Path, Query
from pydantic import Field

from randomchess.explorer.counts import RESULTS, Tally, position_key
from randomchess.explorer.store import ExplorerStore
from randomchess.position import Position
from randomchess.san import san
from randomchess.server.games.answers import ANSWER, _Out
from randomchess.server.games.live import LiveGame
from randomchess.server.games.service import GameService
from randomchess.server.http.deps import DB
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import Int32, Line
from randomchess.startpos import NumberedSetup, numbered_variant, setup_count, setup_from_number

log = logging.getLogger("randomchess.server.explorer")
router = APIRouter()
SERVER_SOURCE = "server"


class ExplorerMove(_Out):
    uci: str
    san: str
    games: int
    white_wins: int
    draws: int
    black_wins: int


class ExplorerOut(_Out):
    variant: str
    number: int
    fen: str
    sources: list[str] = Field(description="the sources summed (all those with games here)")
    games: int = Field(description="games that played a move from this position")
    moves: list[ExplorerMove] = Field(description="most played first")


def _setup(variant: str, number: int) -> NumberedSetup:
    try:
        v = numbered_variant(variant)
    except (KeyError, ValueError) as e:
        raise ApiError.wrap(404, e) from None
    if not 0 <= number < setup_count(v):
        raise ApiError(404, "setup.out_of_range", number=number, variant=v.key,
                       last=setup_count(v) - 1)
    return setup_from_number(v, number)


def _answer(setup: NumberedSetup, pos: Position, rows: list[dict[str, int | str]],
            sources: list[str]) -> ExplorerOut:
    moves = []
    for r in rows:
        move = pos.parse_uci(str(r["move"]))
        moves.append({"uci": r["move"], "san": san(pos, move),
                      **{k: r[k] for k in ("games", "white_wins", "draws", "black_wins")}})
    return ExplorerOut.model_validate({
        "variant": setup.variant.key, "number": setup.number, "fen": pos.fen(),
        "sources": sources, "games": sum(int(r["games"]) for r in rows), "moves": moves})


@router.get("/api/explorer/{variant}/{number}", **ANSWER)
async def explore(variant: Annotated[Line, Path(max_length=40)], number: Int32, db: DB,
                  fen: Annotated[Line | None, Query(max_length=200)] = None,
                  source: Annotated[list[Annotated[str, Field(max_length=40)]] | None,
                                    Query()] = None,
                  ) -> ExplorerOut:
    """The moves played from ``fen`` (default: the setup's start) in games from this setup."""
    setup = _setup(variant[:40], number)
    if source is not None and len(source) > 20:
        raise ApiError(422, "input.invalid", reason="at most 20 sources")
    try:
        pos = Position(fen if fen is not None else setup.fen, setup.variant)
    except ValueError as e:
        raise ApiError.wrap(422, e) from None
    store = ExplorerStore(db.engine)
    key = position_key(pos)
    rows = await db.run(store.moves, setup.variant.key, setup.number, key, source)
    chosen = source if source is not None else await db.run(
        store.sources, setup.variant.key, setup.number)
    return _answer(setup, pos, rows, sorted(set(chosen)))


def count_game(store: ExplorerStore, live: LiveGame) -> None:
    """Add an ended game with a result, from a numbered setup, under ``server``."""
    r = live.record
    if r.number is None or r.result not in RESULTS:
        return
    start = Position(r.start_fen, r.variant)
    pos = start.copy(stack=False)
    moves = []
    for uci in r.moves.split():
        moves.append(pos.push_uci(uci))
    tally = Tally()
    tally.add_game(start.variant.key, r.number, start, moves, r.result)
    store.add(SERVER_SOURCE, tally)


def install_explorer(app: FastAPI) -> None:
    """The explorer's route, and its count of every game that ends (one line in app.py)."""
    service: GameService = app.state.service
    store = ExplorerStore(service.store.engine)

    async def on_end(live: LiveGame) -> None:
        try:
            await service.db.run(count_game, store, live, bounded=False)
        except Exception:
            log.exception("counting game %s for the explorer failed", live.record.id)

    service.end_hooks.append(on_end)
    app.include_router(router)
