"""The opening explorer over HTTP (issue 33) and its feed from this server's games.

``GET /api/explorer/{variant}/{number}?fen=...&source=...&speed=...&min_rating=...&max_rating=...``:
the moves played from a position reached from setup ``number`` (the start position when
``fen`` is left out), with their counts, results and average rating, summed over the chosen
sources and speed classes (all when none is given) and the rating range (docs/analysis.md).
``GET /api/explorer/{variant}?start_fen=...&fen=...`` is the same with the setup given by its
start position (the analysis board knows the FEN it started from, not always its number).
``GET /api/explorer/{variant}/{number}/games?move=...&fen=...`` lists the games behind a move,
latest first, with the same filters.  Each move carries the engine's evaluation of the
position it leads to when ``randomchess explorer evaluate`` has made one.  Every game that
ends here with a result is counted under the source ``server`` as it ends, with its speed
class (no rating band: the players' ratings at the start are not kept)."""

from __future__ import annotations

import logging
import time
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query
from pydantic import Field
from sqlalchemy import select

from randomchess.db import schema
from randomchess.explorer.counts import (
    NO_SPEED,
    RESULTS,
    SPEEDS,
    GameInfo,
    Tally,
    position_key,
)
from randomchess.explorer.store import ExplorerStore
from randomchess.position import Position
from randomchess.san import san
from randomchess.server.games.answers import ANSWER, _Out
from randomchess.server.games.live import LiveGame
from randomchess.server.games.service import GameService
from randomchess.server.http.deps import DB
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import Int32, Line
from randomchess.startpos import (
    NumberedSetup,
    numbered_variant,
    setup_count,
    setup_from_fen,
    setup_from_number,
)

log = logging.getLogger("randomchess.server.explorer")
router = APIRouter()
SERVER_SOURCE = "server"


class ExplorerEval(_Out):
    cp: int | None = Field(description="centipawns, White's point of view")
    mate: int | None = Field(description="moves to mate: positive White mates")
    depth: int


class ExplorerMove(_Out):
    uci: str
    san: str
    games: int
    white_wins: int
    draws: int
    black_wins: int
    average_rating: int | None = Field(
        description="mean of its rated games' players' mean ratings; null when none is rated")
    evaluation: ExplorerEval | None = Field(
        description="the engine's evaluation of the position after the move, if known")


class ExplorerOut(_Out):
    variant: str
    number: int
    fen: str
    sources: list[str] = Field(description="the sources summed (all those with games here)")
    available: list[str] = Field(description="every source with games from this setup")
    speeds: list[str] = Field(description="the speed classes summed (empty: all)")
    min_rating: int | None
    max_rating: int | None
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


Source = Annotated[str, Field(max_length=40, pattern=r"^[^\x00-\x1f\x7f]*$")]
Rating = Annotated[int, Field(ge=0, le=4000)]


def _after(pos: Position, rows: list[dict[str, Any]]) -> dict[str, str]:
    """The key of the position after each move of ``rows``: UCI -> key."""
    out = {}
    for r in rows:
        child = pos.copy(stack=False)
        child.push(child.parse_uci(str(r["move"])))
        out[str(r["move"])] = position_key(child)
    return out


def _answer(setup: NumberedSetup, pos: Position, rows: list[dict[str, Any]],
            sources: list[str], available: list[str], speeds: list[str],
            min_rating: int | None, max_rating: int | None,
            evals: dict[str, dict[str, Any]]) -> ExplorerOut:
    moves = []
    for r in rows:
        move = pos.parse_uci(str(r["move"]))
        moves.append({"uci": r["move"], "san": san(pos, move),
                      **{k: r[k] for k in ("games", "white_wins", "draws", "black_wins",
                                           "average_rating")},
                      "evaluation": evals.get(str(r["move"]))})
    return ExplorerOut.model_validate({
        "variant": setup.variant.key, "number": setup.number, "fen": pos.fen(),
        "sources": sources, "available": available, "speeds": speeds,
        "min_rating": min_rating, "max_rating": max_rating,
        "games": sum(int(r["games"]) for r in rows), "moves": moves})


def _check(source: list[str] | None, speed: list[str] | None, min_rating: int | None,
           max_rating: int | None) -> None:
    if source is not None and len(source) > 20:
        raise ApiError(422, "input.invalid", reason="at most 20 sources")
    for s in speed or ():
        if s not in SPEEDS:
            raise ApiError(422, "input.invalid",
                           reason=f"speed {s[:20]!r} is not one of {', '.join(SPEEDS)}")
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise ApiError(422, "input.invalid", reason="min_rating is above max_rating")


async def _explore(db: DB, setup: NumberedSetup, fen: str | None, source: list[str] | None,
                   speed: list[str] | None, min_rating: int | None,
                   max_rating: int | None) -> ExplorerOut:
    _check(source, speed, min_rating, max_rating)
    try:
        pos = Position(fen if fen is not None else setup.fen, setup.variant)
    except ValueError as e:
        raise ApiError.wrap(422, e) from None
    store = ExplorerStore(db.engine)
    key = position_key(pos)
    rows = await db.run(store.moves, setup.variant.key, setup.number, key, source,
                        speed or None, min_rating, max_rating)
    available = await db.run(store.sources, setup.variant.key, setup.number)
    chosen = source if source is not None else available
    after = _after(pos, rows)
    known = await db.run(store.evals, setup.variant.key, setup.number, list(after.values()))
    evals = {uci: known[key] for uci, key in after.items() if key in known}
    return _answer(setup, pos, rows, sorted(set(chosen)), available, sorted(set(speed or ())),
                   min_rating, max_rating, evals)


Sources = Annotated[list[Source] | None, Query(max_length=20)]
Speeds = Annotated[list[Annotated[str, Field(max_length=16)]] | None, Query(max_length=5)]
Fen = Annotated[Line | None, Query(max_length=200)]


@router.get("/api/explorer/{variant}/{number}", **ANSWER)
async def explore(variant: Annotated[Line, Path(max_length=40)], number: Int32, db: DB,
                  fen: Fen = None, source: Sources = None, speed: Speeds = None,
                  min_rating: Rating | None = None, max_rating: Rating | None = None,
                  ) -> ExplorerOut:
    """The moves played from ``fen`` (default: the setup's start) in games from this setup."""
    return await _explore(db, _setup(variant[:40], number), fen, source, speed, min_rating,
                          max_rating)


@router.get("/api/explorer/{variant}", **ANSWER)
async def explore_from(variant: Annotated[Line, Path(max_length=40)], db: DB,
                       start_fen: Annotated[Line, Query(max_length=200)],
                       fen: Fen = None, source: Sources = None, speed: Speeds = None,
                       min_rating: Rating | None = None, max_rating: Rating | None = None,
                       ) -> ExplorerOut:
    """The same, the setup given by its start position ``start_fen``."""
    try:
        v = numbered_variant(variant[:40])
    except (KeyError, ValueError) as e:
        raise ApiError.wrap(404, e) from None
    try:
        found = setup_from_fen(start_fen, v)
    except ValueError as e:
        raise ApiError(422, "setup.invalid", reason=e) from None
    return await _explore(db, found, fen, source, speed, min_rating, max_rating)


class ExplorerGame(_Out):
    source: str
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None
    result: str
    date: str = Field(description="YYYY.MM.DD as the PGN gave it; empty when unknown")
    event: str
    speed: str = Field(description="the speed class; empty when unknown")
    game_id: str | None = Field(description="this server's game, for a link to its page")


class ExplorerGamesOut(_Out):
    variant: str
    number: int
    fen: str
    uci: str
    games: list[ExplorerGame] = Field(description="the latest counted first")


@router.get("/api/explorer/{variant}/{number}/games", **ANSWER)
async def explore_games(variant: Annotated[Line, Path(max_length=40)], number: Int32, db: DB,
                        move: Annotated[Line, Query(max_length=12)],
                        fen: Fen = None, source: Sources = None, speed: Speeds = None,
                        min_rating: Rating | None = None, max_rating: Rating | None = None,
                        limit: Annotated[int, Query(ge=1, le=100)] = 20,
                        ) -> ExplorerGamesOut:
    """The games behind ``move`` (UCI) from ``fen`` (default: the start), latest first."""
    setup = _setup(variant[:40], number)
    _check(source, speed, min_rating, max_rating)
    try:
        pos = Position(fen if fen is not None else setup.fen, setup.variant)
    except ValueError as e:
        raise ApiError.wrap(422, e) from None
    try:
        uci = pos.uci(pos.parse_uci(move))
    except ValueError as e:
        raise ApiError.wrap(422, e) from None
    rows = await db.run(ExplorerStore(db.engine).games, setup.variant.key, setup.number,
                        position_key(pos), uci, source, speed or None, min_rating, max_rating,
                        limit)
    return ExplorerGamesOut.model_validate({"variant": setup.variant.key,
                                            "number": setup.number, "fen": pos.fen(),
                                            "uci": uci, "games": rows})


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
    terms, seats, users = schema.game_terms, schema.game_seats, schema.users
    with store.engine.connect() as conn:
        speed = conn.execute(select(terms.c.speed).where(terms.c.game_id == r.id)).scalar()
        names = {str(color): str(name) for color, name in conn.execute(
            select(seats.c.color, users.c.name)
            .select_from(seats.join(users, seats.c.user_id == users.c.id))
            .where(seats.c.game_id == r.id)).all()}
    tally = Tally()
    date = time.strftime("%Y.%m.%d", time.gmtime(r.created_at / 1000))
    info = GameInfo(names.get("white", "?"), names.get("black", "?"), date, "", r.id)
    tally.add_game(start.variant.key, r.number, start, moves, r.result,
                   speed if speed in SPEEDS else NO_SPEED, info=info)
    store.add(SERVER_SOURCE, tally)


EVAL_MOVETIME_MS = 2000  # at most per position, whatever the depth
EVAL_TIMEOUT_S = 600.0


def to_evaluate(store: ExplorerStore, live: LiveGame, plies: int, depth: int) -> list[int]:
    """The plies (0: the start) of an ended game's first ``plies`` whose positions the
    explorer has no evaluation of at least ``depth``; none for a game it does not count."""
    r = live.record
    if r.number is None or r.result not in RESULTS:
        return []
    pos = Position(r.start_fen, r.variant)
    keys: list[str] = []
    for uci in [None, *r.moves.split()[:plies]]:
        if uci is not None:
            pos.push_uci(uci)
        keys.append(position_key(pos))
    known = store.evals(pos.variant.key, r.number, keys)
    return [i for i, key in enumerate(keys) if known.get(key, {}).get("depth", -1) < depth]


def keep_evals(store: ExplorerStore, live: LiveGame, engine: str, depth: int,
               evals: list[list[int | None]]) -> int:
    """Keep a job's evaluations (ply, cp, mate) of the game's positions; how many."""
    r = live.record
    assert r.number is not None
    pos = Position(r.start_fen, r.variant)
    moves = r.moves.split()
    by_ply = {int(ply): (cp, mate) for ply, cp, mate in evals if ply is not None}
    for ply in range(max(by_ply, default=-1) + 1):
        if ply in by_ply:
            cp, mate = by_ply[ply]
            store.set_eval(pos.variant.key, r.number, position_key(pos), cp, mate, depth,
                           engine)
        if ply < len(moves):
            pos.push_uci(moves[ply])
    return len(by_ply)


async def evaluate_game(service: GameService, store: ExplorerStore, live: LiveGame) -> int:
    """Evaluate an ended game's positions for the explorer, by an ``explorer_eval`` job on
    the engine workers (or the server's analysis pool); how many were kept."""
    s = service.settings
    if service.engine is None:
        return 0
    plies = await service.db.run(to_evaluate, store, live, s.explorer_eval_plies,
                                 s.explorer_eval_depth, bounded=False)
    if not plies:
        return 0
    r = live.record
    result = await service.engine.run_job(
        "explorer_eval", r.variant, r.start_fen, r.moves.split()[:max(plies)], plies,
        s.explorer_eval_depth, EVAL_MOVETIME_MS, key=f"explorer-eval-{r.id}",
        timeout_s=EVAL_TIMEOUT_S)
    if not isinstance(result, dict) or "evals" not in result:
        log.warning("evaluating game %s for the explorer: %s", r.id, result)
        return 0
    kept: int = await service.db.run(keep_evals, store, live, str(result["engine"]),
                                     s.explorer_eval_depth, result["evals"], bounded=False)
    return kept


def install_explorer(app: FastAPI) -> None:
    """The explorer's route, and its count of every game that ends (one line in app.py);
    with the setting ``explorer_evals``, the evaluation of each such game's positions."""
    service: GameService = app.state.service
    store = ExplorerStore(service.store.engine)

    async def on_end(live: LiveGame) -> None:
        try:
            await service.db.run(count_game, store, live, bounded=False)
        except Exception:
            log.exception("counting game %s for the explorer failed", live.record.id)
        if service.settings.explorer_evals:
            try:
                await evaluate_game(service, store, live)
            except Exception:
                log.exception("evaluating game %s for the explorer failed", live.record.id)

    service.end_hooks.append(on_end)
    app.include_router(router)
