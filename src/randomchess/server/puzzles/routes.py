"""Puzzles over HTTP (issue 33; docs/puzzles.md).

``GET /api/puzzles/next?variant=chess960&theme=fork&rating=1600``: a puzzle near the
account's puzzle rating (or ``rating``) it has not tried; ``GET /api/puzzles/{id}``;
``POST /api/puzzles/{id}/attempt`` with the solver's moves so far: each is checked as on the
game page (an illegal move is refused with the same 409 ``move.illegal``), the answer says
whether they are right, the opponent's reply, and at the end (solved, wrong, or
``give_up``) the whole solution; the account's first finished attempt moves its puzzle
rating and the puzzle's (Glicko-2).  ``GET /api/puzzles/{id}/hint?moves=...``: the square of
the piece to move next."""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import APIRouter, FastAPI, Path, Query, Request
from pydantic import Field

from randomchess.accounts.ratings import PROVISIONAL_RD, Rating
from randomchess.errors import RandomChessError
from randomchess.pieces import WHITE
from randomchess.puzzles.model import (
    PUZZLE_VARIANTS,
    THEMES,
    Puzzle,
    PuzzleError,
    check_attempt,
)
from randomchess.san import san
from randomchess.server.accounts.deps import CSRF_HEADER, current_session
from randomchess.server.accounts.store import Session, same_secret
from randomchess.server.games.answers import ANSWER, _Out
from randomchess.server.games.live import LiveGame
from randomchess.server.games.service import GameService
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import Line
from randomchess.server.puzzles.store import PuzzleStore, StoredPuzzle

log = logging.getLogger("randomchess.server.puzzles")
router = APIRouter()
Uci = Annotated[str, Field(max_length=12)]


class PuzzleRatingOut(_Out):
    rating: int
    rd: int
    games: int
    provisional: bool


class PuzzleOut(_Out):
    id: str
    variant: str
    fen: str = Field(description="the position the solver sees (the solver is to move)")
    last_move: str | None = Field(description="the opponent's move that led to it (UCI)")
    turn: str
    steps: int = Field(description="the solver's moves in the solution")
    themes: list[str]
    rating: int = Field(description="the puzzle's own Glicko-2 rating")
    plays: int
    my_rating: PuzzleRatingOut | None = Field(
        description="the signed-in account's puzzle rating in this variant")
    tried: bool = Field(description="the account has finished an attempt (retries unrated)")


class AttemptIn(_Out):
    moves: list[Uci] = Field(max_length=20, description="the solver's moves so far (UCI)")
    give_up: bool = False


class AttemptOut(_Out):
    correct: bool
    solved: bool
    finished: bool
    reply: str | None = Field(description="the opponent's answer to play (UCI)")
    reply_san: str | None
    expected: str | None = Field(description="the right move where a wrong one was played")
    solution: list[str] | None = Field(description="the whole solution, once finished")
    solution_san: list[str] | None
    rated: bool
    my_rating: PuzzleRatingOut | None
    rating_diff: int | None
    puzzle_rating: int


class HintOut(_Out):
    square: str = Field(description="the square of the piece the solver moves next")


def _store(request: Request) -> PuzzleStore:
    store: PuzzleStore = request.app.state.puzzles
    return store


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _rating_out(r: Rating | None) -> PuzzleRatingOut | None:
    if r is None:
        return None
    return PuzzleRatingOut(rating=round(r.rating), rd=round(r.rd), games=r.games,
                           provisional=r.rd > PROVISIONAL_RD)


def _check_variant(variant: str) -> str:
    key = variant.strip().lower()
    if key not in PUZZLE_VARIANTS:
        raise ApiError(404, "puzzle.unknown_variant", variant=variant,
                       variants=", ".join(PUZZLE_VARIANTS))
    return key


async def _puzzle(request: Request, puzzle_id: str) -> StoredPuzzle:
    store = _store(request)
    found = await _service(request).db.run(store.get, puzzle_id)
    if found is None:
        raise ApiError(404, "puzzle.not_found", id=puzzle_id)
    return found


async def _puzzle_out(request: Request, stored: StoredPuzzle,
                      session: Session | None) -> PuzzleOut:
    p = stored.puzzle
    mine = tried = None
    if session is not None:
        db = _service(request).db
        mine = await db.run(_store(request).rating_of, session.user_id, p.variant)
        tried = await db.run(_store(request).attempted, session.user_id, p.id)
    pos = p.position()
    return PuzzleOut(id=p.id, variant=p.variant, fen=p.fen, last_move=p.last_move,
                     turn="white" if pos.turn == WHITE else "black",
                     steps=(len(p.moves) + 1) // 2, themes=p.themes,
                     rating=round(stored.rating.rating), plays=stored.plays,
                     my_rating=_rating_out(mine), tried=bool(tried))



# A puzzle's id (12 hex digits): anything else is refused at the edge (no NUL reaches the
# database).
PuzzleId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,16}$", description="a puzzle's id")]


@router.get("/api/puzzles/next", **ANSWER)
async def next_puzzle(request: Request,
                      variant: Annotated[Line, Query(max_length=40)] = "chess960",
                      theme: Annotated[Line | None, Query(max_length=40)] = None,
                      rating: Annotated[int | None, Query(ge=400, le=3500)] = None,
                      exclude: Annotated[list[Annotated[str, Field(max_length=16)]] | None,
                                         Query(max_length=50)] = None) -> PuzzleOut:
    """A puzzle near the account's puzzle rating (or ``rating``), one it has not tried."""
    key = _check_variant(variant)
    if theme and theme not in THEMES:
        raise ApiError(422, "puzzle.unknown_theme", theme=theme)
    session = await current_session(request)
    db = _service(request).db
    store = _store(request)
    target = float(rating) if rating is not None else None
    if target is None:
        target = (await db.run(store.rating_of, session.user_id, key)).rating \
            if session is not None else 1500.0
    found = await db.run(store.next_for, key, target, theme or None,
                         session.user_id if session is not None else None, exclude or [])
    if found is None:
        raise ApiError(404, "puzzle.none", variant=key)
    return await _puzzle_out(request, found, session)


@router.get("/api/puzzles/{puzzle_id}", **ANSWER)
async def get_puzzle(request: Request,
                     puzzle_id: PuzzleId) -> PuzzleOut:
    stored = await _puzzle(request, puzzle_id)
    return await _puzzle_out(request, stored, await current_session(request))


def _judge(stored: StoredPuzzle, moves: list[str]) -> tuple[bool, bool, str | None,
                                                             str | None]:
    try:
        step = check_attempt(stored.puzzle, moves)
    except PuzzleError:
        raise ApiError(422, "puzzle.too_many_moves", steps=(len(stored.puzzle.moves) + 1) // 2,
                       moves=len(moves)) from None
    except RandomChessError as exc:  # as on the game page: 409 move.illegal / malformed
        bad = next((m for m in moves if not _legal_prefix(stored, moves, m)), moves[-1])
        raise ApiError.wrap(409, exc, "move.sent", move=bad) from None
    return step.correct, step.solved, step.reply, step.expected


def _legal_prefix(stored: StoredPuzzle, moves: list[str], upto: str) -> bool:
    """Whether the solver's moves up to and including ``upto`` can be played."""
    pos = stored.puzzle.position()
    for i, text in enumerate(moves):
        try:
            pos.push_uci(text)
        except RandomChessError:
            return False
        if text == upto:
            return True
        if 2 * i + 1 < len(stored.puzzle.moves):
            pos.push_uci(stored.puzzle.moves[2 * i + 1])
    return True


def _sans(stored: StoredPuzzle) -> list[str]:
    pos = stored.puzzle.position()
    out = []
    for text in stored.puzzle.moves:
        move = pos.parse_uci(text)
        out.append(san(pos, move))
        pos.push(move)
    return out


@router.post("/api/puzzles/{puzzle_id}/attempt", **ANSWER)
async def attempt(request: Request, puzzle_id: PuzzleId,
                  body: AttemptIn) -> AttemptOut:
    """Judge the solver's moves; the first finished attempt of an account is rated."""
    stored = await _puzzle(request, puzzle_id)
    session = await current_session(request)
    if session is not None and not same_secret(request.headers.get(CSRF_HEADER),
                                               session.csrf):
        raise ApiError(403, "account.csrf")
    correct, solved, reply, expected = _judge(stored, list(body.moves))
    if body.give_up and not solved:
        correct = False
    finished = solved or not correct
    reply_san = None
    if reply is not None and not finished:
        pos = stored.puzzle.position()
        for i, text in enumerate(body.moves):
            pos.push_uci(text)
            pos.push_uci(stored.puzzle.moves[2 * i + 1])
        pos.pop()
        reply_san = san(pos, pos.parse_uci(reply))
    rated = False
    mine: Rating | None = None
    diff = None
    puzzle_rating = stored.rating.rating
    if finished:
        store = _store(request)
        result = await _service(request).db.run(
            store.record, session.user_id if session is not None else None, stored, solved)
        rated = result.rated
        mine = result.solver
        puzzle_rating = result.puzzle.rating
        if result.rated and result.solver is not None and result.solver_before is not None:
            diff = round(result.solver.rating) - round(result.solver_before.rating)
    return AttemptOut(
        correct=correct, solved=solved, finished=finished,
        reply=None if finished else reply, reply_san=None if finished else reply_san,
        expected=expected if not solved else None,
        solution=list(stored.puzzle.moves) if finished else None,
        solution_san=_sans(stored) if finished else None,
        rated=rated, my_rating=_rating_out(mine), rating_diff=diff,
        puzzle_rating=round(puzzle_rating))


@router.get("/api/puzzles/{puzzle_id}/hint", **ANSWER)
async def hint(request: Request, puzzle_id: PuzzleId,
               moves: Annotated[list[Uci] | None, Query(max_length=20)] = None) -> HintOut:
    """The square of the piece to move next, after the solver's (right) ``moves``."""
    stored = await _puzzle(request, puzzle_id)
    played = list(moves or [])
    correct, solved, _, _ = _judge(stored, played)
    index = 2 * len(played)
    if not correct or solved or index >= len(stored.puzzle.moves):
        raise ApiError(422, "input.invalid", reason="no move left to hint at")
    pos = stored.puzzle.position()
    for text in stored.puzzle.moves[:index]:
        pos.push_uci(text)
    nxt = pos.parse_uci(stored.puzzle.moves[index])
    return HintOut(square=pos.geometry.name(nxt.from_square))


MINE_FROM_PLY = 20  # shorter games are not mined
MINE_PER_GAME = 3
MINE_TIMEOUT_S = 900.0


async def mine_game(service: GameService, store: PuzzleStore, live: LiveGame) -> int:
    """Puzzles from a game that has just ended, found by a ``puzzles`` job on the engine
    workers and stored under the source ``server``; how many were new."""
    r = live.record
    moves = r.moves.split()
    if r.variant not in PUZZLE_VARIANTS or len(moves) < MINE_FROM_PLY or service.engine is None:
        return 0
    result = await service.engine.run_job("puzzles", r.variant, MINE_PER_GAME, 0, r.start_fen,
                                          moves, key=f"puzzles-{r.id}",
                                          timeout_s=MINE_TIMEOUT_S)
    if not isinstance(result, dict) or "puzzles" not in result:
        log.warning("mining game %s for puzzles: %s", r.id, result)
        return 0
    found = [Puzzle.from_dict(p) for p in result["puzzles"]]
    new: int = await service.db.run(store.add, found, bounded=False)
    return new


def install_puzzles(app: FastAPI) -> None:
    """The puzzle routes and their store (one line in app.py); with the setting
    ``puzzles_from_games``, every Chess960 and MRC game that ends here is mined."""
    service: GameService = app.state.service
    store = app.state.puzzles = PuzzleStore(service.store.engine,
                                            getattr(service.store, "_write_lock", None))
    if service.settings.puzzles_from_games:
        async def on_end(live: LiveGame) -> None:
            try:
                await mine_game(service, store, live)
            except Exception:
                log.exception("mining game %s for puzzles failed", live.record.id)

        service.end_hooks.append(on_end)
    app.include_router(router)
