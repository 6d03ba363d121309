"""Analysis and game-review routes (docs/server.md, "Analysis"):

* ``POST /api/analysis``: the best lines of a position (FEN or setup, variant, moves);
* ``WS /ws/analysis``: the same, streamed depth by depth until the depth asked for or
  ``{"type": "stop"}``;
* ``POST /api/games/{id}/review``: a computer review of a stored game, kept in the
  ``game_reviews`` table (migration 0003); ``GET`` reads it back, ``GET .../review.pgn``
  gives the game's PGN with the review's ``[%eval]`` comments and NAGs.

Engine work runs in a process pool of its own (spawned; ``RANDOMCHESS_ANALYSIS_WORKERS``,
default 1) behind a semaphore, so the event loop and the computer opponents' pool are never
blocked by it.  External engines come from ``RANDOMCHESS_ENGINES`` (``NAME=PATH,...``) or
are found on the machine (docs/engine.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any, Literal

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from randomchess.analysis.core import AnalysisError
from randomchess.analysis.review import Review, annotate, annotated_pgn
from randomchess.db import now_ms, schema
from randomchess.errors import RandomChessError
from randomchess.pgn import PgnError, PgnGame, parse_game, write_game
from randomchess.position import Position
from randomchess.server.engines.answers import (
    ANSWER,
    REVIEW_RESPONSES,
    AnalysisOut,
    EnginesOut,
    PgnPositionOut,
    PositionOut,
    StoredReviewOut,
)
from randomchess.server.http.deps import database
from randomchess.server.http.errors import ApiError, error_body, lang_of_scope
from randomchess.server.http.frames import read_frame
from randomchess.startpos import setup_from_number
from randomchess.variants import get_variant

MAX_DEPTH = 20
MAX_MOVETIME = 10_000
MAX_MOVES = 600
REVIEW_MAX_DEPTH = 14
REVIEW_CAP_MS = 1_000  # per position of a review given only a depth
REVIEW_WAIT_S = 20.0  # POST .../review answers the review if it is ready by then, else 202
STREAM_DEPTH = 12  # where the analysis board's stream stops by itself
STREAM_STEP_MS = 2_500  # the longest one step of the stream may think
REVIEW_TIMEOUT_S = 1_800.0  # a review not back from the engine service by then is a 503

REVIEWS = schema.game_reviews


def _service_of(app: Any) -> Any:
    """The app's engine service (:mod:`randomchess.server.engines.service`)."""
    return app.state.service.engine


def _checked(result: dict[str, Any]) -> dict[str, Any]:
    if "error" in result:
        raise ApiError.from_job(result)
    return result


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


EngineName = Field("randomchess", max_length=200,
                   description="randomchess, stockfish, fairy-stockfish or auto")


class AnalysisIn(_Strict):
    variant: str = Field("chess", max_length=40)
    fen: str | None = Field(None, max_length=200, description="start position (FEN)")
    setup: int | None = Field(None, ge=0, le=1_000_000_000, description="or a setup number")
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES,
                             description="UCI moves played from the start position")
    engine: str = EngineName
    depth: int = Field(0, ge=0, le=MAX_DEPTH)
    movetime: int = Field(0, ge=0, le=MAX_MOVETIME, description="milliseconds")
    multipv: int = Field(1, ge=1, le=3)


class PositionIn(_Strict):
    variant: str = Field("chess", max_length=40)
    fen: str | None = Field(None, max_length=200)
    setup: int | None = Field(None, ge=0, le=1_000_000_000)
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)


class ReviewIn(_Strict):
    engine: str = EngineName
    depth: int = Field(0, ge=0, le=REVIEW_MAX_DEPTH)
    movetime: int = Field(0, ge=0, le=2_000)


def _start_fen(body: AnalysisIn | PositionIn) -> str:
    try:
        variant = get_variant(body.variant)
        if body.setup is not None:
            if body.fen is not None:
                raise ApiError(422, "analysis.fen_and_setup")
            return setup_from_number(variant.key, body.setup).fen
        fen = body.fen or variant.start_fen
        Position(fen, variant)
        return fen
    except ApiError:
        raise
    except (RandomChessError, ValueError) as exc:
        raise ApiError.wrap(422, exc) from None


def _limits(depth: int, movetime: int, default_depth: int, cap_ms: int) -> tuple[int, int]:
    """(depth, movetime): the default depth when neither is given, and a time cap on a
    depth-only request (whichever comes first ends the search)."""
    if not depth and not movetime:
        depth = default_depth
    return depth, movetime or cap_ms


router = APIRouter()


@router.get("/api/analysis/engines", **ANSWER)
async def list_engines(request: Request) -> EnginesOut:
    """The engines this server can analyse with (its own first)."""
    return EnginesOut(engines=await _service_of(request.app).engines())


@router.post("/api/analysis", **ANSWER)
async def analyse(body: AnalysisIn, request: Request) -> AnalysisOut:
    """The ``multipv`` best lines (score from White's side, PV in UCI and SAN)."""
    fen = _start_fen(body)
    depth, movetime = _limits(body.depth, body.movetime, 8, MAX_MOVETIME)
    variant = get_variant(body.variant).key
    return AnalysisOut.model_validate(_checked(await _service_of(request.app).run_job(
        "analyse", variant, fen, body.moves, body.engine, depth, movetime, body.multipv,
        timeout_s=movetime / 1000 + 10)))


def position_info(variant: str, fen: str, moves: list[str]) -> dict[str, Any]:
    """What the analysis board needs after each move: the FEN, the legal moves (UCI), the
    SAN of the moves played, check and the end of the game."""
    from randomchess.san import san

    v = get_variant(variant)
    pos = Position(fen, v)
    sans = []
    for text in moves:
        move = pos.parse_uci(text)
        sans.append(san(pos, move))
        pos.push(move)
    legal = pos.legal_moves()
    return {"variant": v.key, "start_fen": fen, "fen": pos.fen(), "moves": moves, "san": sans,
            "legal_moves": [pos.uci(m) for m in legal],
            "to_move": "white" if pos.turn == 0 else "black", "check": pos.is_check(),
            "over": not legal}


@router.post("/api/analysis/position", **ANSWER)
async def position(body: PositionIn) -> PositionOut:
    """The position after ``moves`` from a FEN or setup number: legal moves and SAN."""
    fen = _start_fen(body)
    try:
        return PositionOut.model_validate(
            await asyncio.to_thread(position_info, body.variant, fen, body.moves))
    except (RandomChessError, ValueError) as exc:
        raise ApiError.wrap(422, exc) from None


class PgnIn(_Strict):
    pgn: str = Field(min_length=1, max_length=12_000)


@router.post("/api/analysis/pgn", **ANSWER)
async def read_pgn(body: PgnIn) -> PgnPositionOut:
    """The first game of a pasted PGN as a start position and UCI moves (its main line)."""
    try:
        game = await asyncio.to_thread(parse_game, body.pgn)
    except PgnError as exc:
        raise ApiError.wrap(422, exc) from None
    pos = game.start_position()
    moves = []
    for m in game.mainline():
        moves.append(pos.uci(m))
        pos.push(m)
    return PgnPositionOut.model_validate({
        **position_info(game.variant.key, game.start_fen, moves), "headers": game.headers})


ANALYSIS_FRAME_LIMIT = 16_384  # bytes: a position with up to MAX_MOVES moves fits


class WsAnalysisIn(_Strict):
    type: Literal["analyse", "stop"]
    position: AnalysisIn | None = None


@router.websocket("/ws/analysis")
async def analysis_socket(websocket: WebSocket) -> None:
    """``{"type": "analyse", "position": {...}}`` starts an analysis whose lines arrive
    as ``{"type": "lines", "depth": d, ...}`` after each depth, then ``{"type": "done"}``;
    ``{"type": "stop"}`` (or a new ``analyse``) ends it.  Every frame the server sends is
    a model of :mod:`answers` (``AnalysisServerFrame``)."""
    await websocket.accept()
    lang = lang_of_scope(websocket.scope)
    task: asyncio.Task[None] | None = None

    async def run(body: AnalysisIn, seq: int) -> None:
        try:
            fen = _start_fen(body)
            variant = get_variant(body.variant).key
            target = body.depth or STREAM_DEPTH
            for depth in range(1, target + 1):
                # Each step is one bounded job, so a stop never leaves a long search behind.
                result = _checked(await _service_of(websocket.app).run_job(
                    "analyse", variant, fen, body.moves, body.engine, depth, STREAM_STEP_MS,
                    body.multipv, timeout_s=STREAM_STEP_MS / 1000 + 10))
                await websocket.send_json({"type": "lines", "seq": seq, "depth": depth,
                                           **result})
                lines = result["lines"]
                if not lines or min(ln["depth"] for ln in lines) < depth:
                    break  # the step ran out of time: deeper steps would too
            await websocket.send_json({"type": "done", "seq": seq})
        except ApiError as exc:
            await websocket.send_json({"type": "error", "seq": seq, "status": exc.status,
                                       **exc.body(lang)})

    seq = 0
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            # The reader every socket uses: a binary, oversized, too deep or unreadable
            # frame gets a typed error frame, and the socket serves on.
            msg = read_frame(message.get("text"), WsAnalysisIn, ANALYSIS_FRAME_LIMIT, lang)
            if not isinstance(msg, WsAnalysisIn):
                await websocket.send_json(msg)
                continue
            if task is not None and not task.done():
                task.cancel()
            if msg.type == "stop":
                await websocket.send_json({"type": "stopped", "seq": seq})
                continue
            if msg.position is None:
                await websocket.send_json({"type": "error", "status": 422,
                                           **error_body("frame.no_position", lang)})
                continue
            seq += 1
            task = asyncio.create_task(run(msg.position, seq))
    except WebSocketDisconnect:
        pass
    finally:
        if task is not None:
            task.cancel()


# --------------------------------------------------------------------- reviews
def _engine_of(request: Request) -> Engine:
    engine: Engine = request.app.state.service.store.engine
    return engine


def _load_review(db: Engine, game_id: str) -> dict[str, Any] | None:
    with db.connect() as conn:
        row = conn.execute(select(REVIEWS).where(REVIEWS.c.game_id == game_id)).first()
    if row is None:
        return None
    return {"game_id": row.game_id, "engine": row.engine, "depth": row.depth,
            "movetime": row.movetime, "moves": row.moves.split(),
            "created_at": row.created_at, "review": json.loads(row.review)}


def _save_review(db: Engine, game_id: str, moves: str, review: dict[str, Any],
                 depth: int, movetime: int) -> None:
    values = {"game_id": game_id, "engine": str(review["engine"])[:64], "depth": depth,
              "movetime": movetime, "moves": moves, "review": json.dumps(review),
              "created_at": now_ms()}
    insert = postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert
    stmt = insert(REVIEWS).values(**values)
    # The same review again (a job run twice, a repeated request) is not stored again.
    same = ((REVIEWS.c.moves == moves) & (REVIEWS.c.depth == depth)
            & (REVIEWS.c.movetime == movetime) & (REVIEWS.c.engine == values["engine"]))
    stmt = stmt.on_conflict_do_update(index_elements=[REVIEWS.c.game_id],
                                      set_={k: v for k, v in values.items() if k != "game_id"},
                                      where=~same)
    with db.begin() as conn:
        conn.execute(stmt)


def engine_help_allowed(live: Any) -> bool:
    """Fair play (issue 28): no engine review of a game between two people while it is
    played, from any route; against the computer or on one screen it is the player's own."""
    return bool(live.ended or live.record.opponent != "friend")


async def _live_checked(request: Request, game_id: str) -> Any:
    live = await request.app.state.service.load(game_id)  # 404 for no such game
    if not engine_help_allowed(live):
        raise ApiError(409, "review.game_in_progress")
    return live


async def _game_pgn(request: Request, game_id: str) -> tuple[str, str]:
    live = await _live_checked(request, game_id)
    return await request.app.state.service.pgn(game_id, request.url.netloc), live.record.moves


def _running(request: Request) -> dict[str, asyncio.Task[None]]:
    """The reviews being computed by this process, by game id."""
    return _running_of(request.app)


def _running_of(app: Any) -> dict[str, asyncio.Task[None]]:
    state = app.state
    if not hasattr(state, "reviews_running"):
        state.reviews_running = {}
    running: dict[str, asyncio.Task[None]] = state.reviews_running
    return running


def start_review(app: Any, game_id: str, pgn: str, moves: str, engine: str = "randomchess",
                 depth: int = 0, movetime: int = 0) -> asyncio.Task[None]:
    """Queue the review of ``pgn`` (UCI ``moves``) for the engine workers and keep it in
    ``game_reviews`` under ``game_id`` when it is back; the task doing so (one per game at a
    time).  Call it on the server's event loop.  The review routes and the over-the-board
    games of events (issue 31: a finished game entered is reviewed in the background, under
    :func:`randomchess.tournament.otb.review_id`) share it."""
    if depth == 0 and movetime == 0:
        depth, movetime = _limits(0, 0, 6, REVIEW_CAP_MS)
    state = app.state
    running = _running_of(app)
    task = running.get(game_id)
    if task is not None and not task.done():
        return task
    db: Engine = state.service.store.engine
    door = state.db
    engines = _service_of(app)
    # One job per (game, moves, engine, limits): a queue runs it once however often it
    # is asked for, and a worker's death hands it to another worker, not a second copy.
    key = hashlib.sha256(f"{game_id}|{moves}|{engine}|{depth}|{movetime}"
                         .encode()).hexdigest()[:32]

    async def job() -> None:
        try:
            review = _checked(await engines.run_job(
                "review", pgn, engine, depth, movetime, key=f"review:{key}",
                timeout_s=REVIEW_TIMEOUT_S))
            # bounded like any request's write; the review is kept by the job's
            # key in the queue, so asking again stores it once the database is back
            await door.run(_save_review, db, game_id, moves, review, depth, movetime)
        finally:
            running.pop(game_id, None)

    task = running[game_id] = asyncio.create_task(job())
    return task


@router.post("/api/games/{game_id}/review", response_model=StoredReviewOut,
             responses=REVIEW_RESPONSES, **ANSWER)
async def create_review(game_id: str, body: ReviewIn,
                        request: Request) -> StoredReviewOut | JSONResponse:
    """Review the game's moves so far with the engine and keep the review with the game.
    Answers the stored review (200) when it is ready within ``REVIEW_WAIT_S``, else 202
    ``{"status": "running"}``: ``GET`` the review until it is there."""
    pgn, moves = await _game_pgn(request, game_id)
    depth, movetime = _limits(body.depth, body.movetime, 6, REVIEW_CAP_MS)
    task = start_review(request.app, game_id, pgn, moves, body.engine, depth, movetime)
    done, _ = await asyncio.wait({task}, timeout=REVIEW_WAIT_S)
    if not done:
        return JSONResponse({"status": "running"}, status_code=202)
    task.result()  # an engine error surfaces here as its ApiError
    stored = await database(request).run(_load_review, _engine_of(request), game_id)
    assert stored is not None
    return StoredReviewOut.model_validate(stored)


@router.get("/api/games/{game_id}/review", response_model=StoredReviewOut,
            responses=REVIEW_RESPONSES, **ANSWER)
async def get_review(game_id: str, request: Request) -> StoredReviewOut | JSONResponse:
    """The stored review; 202 ``{"status": "running"}`` while one is being computed."""
    await _live_checked(request, game_id)
    task = _running(request).get(game_id)
    if task is not None and not task.done():
        return JSONResponse({"status": "running"}, status_code=202)
    stored = await database(request).run(_load_review, _engine_of(request), game_id)
    if stored is None:
        raise ApiError(404, "review.none")
    return StoredReviewOut.model_validate(stored)


async def reviewed_pgn(request: Request, game_id: str, pgn: str, moves: str,
                       lang: str = "en") -> str | None:
    """The game's PGN with its stored review as ``[%eval]`` comments, NAGs and better lines
    on the plies it covers (moves played after the review follow as they are); None when
    the game has no review, or the game's moves no longer start with the reviewed ones."""
    stored = await database(request).run(_load_review, _engine_of(request), game_id)
    if stored is None:
        return None
    game: PgnGame = parse_game(pgn)
    review = Review.from_dict(stored["review"])
    covered = len(review.plies)
    if game.error is not None or covered > len(game.moves) \
            or stored["moves"] != moves.split()[:covered]:
        return None
    rest = game.moves[covered:]
    game.moves = game.moves[:covered]
    try:
        annotated = annotate(game, review, lang)
    except AnalysisError:
        return None
    annotated.moves = [*annotated.moves, *rest]
    return write_game(annotated, lang="en")


@router.get("/api/games/{game_id}/review.pgn", response_class=PlainTextResponse)
async def get_review_pgn(game_id: str, request: Request,
                         lang: Literal["en", "es"] = "en") -> PlainTextResponse:
    """The game's PGN with the stored review as ``[%eval]`` comments, NAGs and lines."""
    pgn, moves = await _game_pgn(request, game_id)
    stored = await database(request).run(_load_review, _engine_of(request), game_id)
    if stored is None:
        raise ApiError(404, "review.none")
    game: PgnGame = parse_game(pgn)
    review = Review.from_dict(stored["review"])
    covered = len(review.plies)
    if covered > len(game.moves) or stored["moves"] != moves.split()[:covered]:
        raise ApiError(409, "review.stale")
    game.moves = game.moves[:covered] if covered < len(game.moves) else game.moves
    try:
        text = annotated_pgn(game, review, lang)
    except AnalysisError as exc:
        raise ApiError.wrap(409, exc) from None
    return PlainTextResponse(
        text, media_type="application/x-chess-pgn",
        headers={"Content-Disposition":
                 f'attachment; filename="randomchess-{game_id}-review.pgn"'})
