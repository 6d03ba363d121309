"""The engine wing's jobs: analysis of a position and the review of a game, run by name
(:data:`JOBS`) in the server's analysis process pool (:data:`pool`) or on a queue worker
(``randomchess worker``), with the engines of the machine found once per process."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from randomchess.analysis.core import Analyser, Limit, StartTracker
from randomchess.analysis.engines import EngineConfig, EngineUnavailableError
from randomchess.analysis.review import review_game
from randomchess.errors import RandomChessError
from randomchess.pgn import parse_game
from randomchess.position import Position
from randomchess.server.http.errors import ApiError, job_error
from randomchess.variants import get_variant

_engines: dict[tuple[str, str], Analyser] = {}
_config: EngineConfig | None = None


def _engine_overrides() -> list[str]:
    raw = os.environ.get("RANDOMCHESS_ENGINES", "")
    return [part.strip() for part in raw.split(",") if part.strip()]


def _engine(name: str, variant: str) -> Analyser:
    """A cached engine of this worker process for (name, variant's board)."""
    global _config
    if _config is None:
        _config = EngineConfig.detect(_engine_overrides())
    key = (name, variant)
    engine = _engines.get(key)
    if engine is None:
        engine = _engines[key] = _config.open(name, variant)
    return engine


_started = StartTracker()  # a new game for each cached engine before another setup


def _position(variant: str, fen: str, moves: list[str]) -> Position:
    pos = Position(fen, get_variant(variant))
    for text in moves:
        pos.push_uci(text)
    return pos


def analyse_job(variant: str, fen: str, moves: list[str], engine: str, depth: int,
                movetime: int, multipv: int) -> dict[str, Any]:
    """Runs in a worker: the lines of the position, or an ``error`` (key and both
    languages for a missing engine)."""
    try:
        pos = _position(variant, fen, moves)
        analyser = _engine(engine, variant)
        _started.enter((engine, variant), analyser, fen)
        lines = analyser.analyse(pos, Limit(depth=depth, movetime=movetime), multipv)
    except EngineUnavailableError as exc:
        return job_error(exc, 409)
    except (RandomChessError, ValueError) as exc:
        return job_error(exc)
    name = getattr(analyser, "id_name", analyser.name)
    return {"engine": name, "fen": pos.fen(), "turn": "white" if pos.turn == 0 else "black",
            "lines": [ln.as_dict() for ln in lines]}


def review_job(pgn: str, engine: str, depth: int, movetime: int) -> dict[str, Any]:
    try:
        game = parse_game(pgn)
        if game.error is not None:
            return job_error(game.error)
        review = review_game(game, _engine(engine, game.variant.key),
                             Limit(depth=depth, movetime=movetime))
    except EngineUnavailableError as exc:
        return job_error(exc, 409)
    except (RandomChessError, ValueError) as exc:
        return job_error(exc)
    return review.as_dict()


def puzzles_job(variant: str, count: int, seed: int, start_fen: str | None = None,
                moves: list[str] | None = None, candidates: int = 400) -> dict[str, Any]:
    """Runs in a worker: up to ``count`` puzzles (docs/puzzles.md) mined from the game
    ``start_fen`` + ``moves``, or from engine self-play from random setups (``seed``) when
    no game is given; at most ``candidates`` positions are examined."""
    from itertools import islice

    from randomchess.puzzles.generator import (
        CRITERIA,
        PuzzleFinder,
        game_candidates,
        generate,
        selfplay_stream,
    )

    try:
        if variant not in CRITERIA:
            raise ValueError(f"there are puzzles for {', '.join(CRITERIA)}, not {variant}")
        analyser = _engine("auto", variant)
        analyser.new_game()
        criteria = CRITERIA[variant]
        if moves is not None:
            start = Position(start_fen or get_variant(variant).start_fen, get_variant(variant))
            played = []
            pos = start.copy(stack=False)
            for text in moves:
                played.append(pos.push_uci(text))
            stream: Any = ((c, "server") for c in game_candidates(analyser, start, played,
                                                                   criteria))
        else:
            stream = selfplay_stream(analyser, variant, seed, criteria)
        found = list(generate(PuzzleFinder(analyser, criteria), islice(stream, candidates),
                              count))
    except EngineUnavailableError as exc:
        return job_error(exc, 409)
    except (RandomChessError, ValueError) as exc:
        return job_error(exc)
    return {"puzzles": [p.as_dict() for p in found]}


def explorer_eval_job(variant: str, start_fen: str, moves: list[str], plies: list[int],
                      depth: int, movetime: int) -> dict[str, Any]:
    """Runs in a worker: the evaluation (White's point of view) of the position after each
    of ``plies`` plies of the game ``start_fen`` + ``moves``, for the opening explorer
    (issue 33), by the strongest engine installed for the variant."""
    try:
        pos = Position(start_fen, get_variant(variant))
        analyser = _engine("auto", variant)
        _started.enter(("auto", variant), analyser, start_fen)
        wanted = set(plies)
        out: list[list[int | None]] = []
        limit = Limit(depth=depth, movetime=movetime)
        for ply in range(max(wanted, default=-1) + 1):
            if ply in wanted and pos.legal_moves():
                lines = analyser.analyse(pos, limit)
                if lines:
                    score = lines[0].score  # White's point of view already
                    out.append([ply, score.cp, score.mate])
            if ply < len(moves):
                pos.push_uci(moves[ply])
    except EngineUnavailableError as exc:
        return job_error(exc, 409)
    except (RandomChessError, ValueError) as exc:
        return job_error(exc)
    return {"engine": str(getattr(analyser, "id_name", analyser.name))[:40], "evals": out}


def engines_job() -> list[str]:
    return EngineConfig.detect(_engine_overrides()).available()


# What the engine service runs by name: in the analysis pool here, or on a queue worker.
JOBS: dict[str, Any] = {"analyse": analyse_job, "review": review_job,
                        "puzzles": puzzles_job, "explorer_eval": explorer_eval_job}


class Pool:
    """The analysis process pool and its concurrency bound, made on first use."""

    def __init__(self) -> None:
        self.workers = max(1, int(os.environ.get("RANDOMCHESS_ANALYSIS_WORKERS", "1")))
        self._executor: ProcessPoolExecutor | None = None
        # One bound per event loop (a semaphore belongs to the loop it first waits on).
        self._sems: dict[int, asyncio.Semaphore] = {}

    async def run(self, fn: Any, *args: Any) -> Any:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")
            from randomchess.variant_file import load_from_environment

            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                                 initializer=load_from_environment)
        loop = asyncio.get_running_loop()
        sem = self._sems.get(id(loop))
        if sem is None:
            # Waiting requests beyond the workers queue here, never inside the executor.
            sem = self._sems[id(loop)] = asyncio.Semaphore(self.workers * 2)
        async with sem:
            try:
                return await loop.run_in_executor(self._executor, fn, *args)
            except Exception as exc:  # a worker died (BrokenProcessPool): start afresh
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
                raise ApiError(503, "analysis.worker_failed",
                               name=exc.__class__.__name__) from None


pool = Pool()


