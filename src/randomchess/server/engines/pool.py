"""The computer's moves, thought out in a pool of worker processes so the event loop keeps
answering while the engine searches (the search is pure Python and holds the GIL).

Two promises (issue 14):

* **A dead worker is replaced.**  When a worker process dies (``kill -9``, out of memory)
  the executor breaks; the pool builds a new one and runs the moves that were waiting again.
  Until a move has been answered by the new pool, :meth:`EnginePool.status` says
  ``"degraded"`` (``/api/health`` answers 503).
* **Queueing counts against the budget.**  At most one request per worker is handed to the
  executor; the others wait here, in order.  When a request's turn comes, the time it waited
  is taken off its clock and off the no-clock bound, and its share of the worker is divided
  by the requests still waiting behind it, so a loaded server searches less deeply instead
  of letting the computer flag.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from randomchess.analysis.core import AnalysisError
from randomchess.analysis.engines import EngineConfig, EngineUnavailableError
from randomchess.analysis.levels import EXTERNAL_LEVELS, external_engines, external_move
from randomchess.engine import LEVELS, Limits, Searcher
from randomchess.engine.search import MOVE_OVERHEAD_MS, time_budget
from randomchess.position import Position
from randomchess.variants import get_variant

log = logging.getLogger("randomchess.engine")
_searchers: dict[int, Searcher] = {}  # one per level inside each worker process
_config: EngineConfig | None = None  # the external engines this process knows
MIN_THINK_MS = 10  # below this the search still completes a scored root move
# The server's own share of each move: the queue hand-off, the database write, the push.
SERVER_OVERHEAD_MS = 60
RETRIES = 3  # executor rebuilds one request may go through before its error is raised


def move_budget_ms(movetime_ms: int, mine: int | None, inc: int, waited_ms: int,
                   share: float) -> int:
    """How long one computer move may think: the no-clock bound (``movetime_ms``) and, with
    a clock, the allocator's hard limit for what is left once the wait is paid, both less
    the time already spent waiting, divided by ``share`` (requests per worker at hand)."""
    budget = float(movetime_ms - waited_ms)
    if mine is not None:
        remaining = mine - waited_ms
        soft, hard = time_budget(max(0, remaining), inc, 0, SERVER_OVERHEAD_MS)
        budget = min(budget, 1.5 * soft, hard)
    return max(MIN_THINK_MS, int(budget / max(1.0, share)))


def engine_config() -> EngineConfig:
    """The external engines of this process: found on the machine, or configured with
    ``RANDOMCHESS_ENGINES=NAME=PATH,...`` (``--engine NAME=PATH`` of ``serve`` and
    ``worker``)."""
    global _config
    if _config is None:
        raw = os.environ.get("RANDOMCHESS_ENGINES", "")
        _config = EngineConfig.detect([p.strip() for p in raw.split(",") if p.strip()])
    return _config


def known_level(level: int) -> int:
    return level if level in LEVELS or level in EXTERNAL_LEVELS else 4


def think(variant: str, start_fen: str, moves: list[str], level: int, movetime_ms: int,
          wtime: int | None, btime: int | None, winc: int, binc: int,
          waited_ms: int = 0, share: float = 1.0, sent_at: float | None = None,
          deadline: float | None = None) -> str | None:
    """Runs in a worker: the UCI of the move the engine plays, None without a legal move.
    ``sent_at`` (``time.time()`` when handed over) adds the hand-over to ``waited_ms``;
    ``deadline`` (``time.time()``) caps the budget so the answer is back by then.  Levels
    9, 10 and maximum are played by the external engine (:mod:`randomchess.analysis.levels`)
    where one plays the variant, else by our level 8."""
    if sent_at is not None:
        waited_ms += max(0, int((time.time() - sent_at) * 1000))
    pos = Position(start_fen, get_variant(variant))
    keys = [pos.zobrist]
    for text in moves:
        pos.push(pos.parse_uci(text))
        keys.append(pos.zobrist)
    if wtime is not None and btime is not None:
        white = pos.turn == 0
        mine = wtime if white else btime
        inc = winc if white else binc
        budget = move_budget_ms(movetime_ms, mine, inc, waited_ms, share)
    else:
        budget = move_budget_ms(movetime_ms, None, 0, waited_ms, share)
    if deadline is not None:
        budget = max(MIN_THINK_MS, min(budget, int((deadline - time.time()) * 1000)
                                       - SERVER_OVERHEAD_MS))
    if level in EXTERNAL_LEVELS:
        if not pos.legal_moves():
            return None
        try:
            uci, _name = external_move(engine_config(), variant, start_fen, moves, level,
                                       budget)
            return uci
        except (EngineUnavailableError, AnalysisError) as exc:
            log.warning("level %d: %s; our level 8 plays instead", level, exc)
            level = 8
    searcher = _searchers.get(level)
    if searcher is None:
        searcher = _searchers[level] = Searcher(hash_mb=16, level=level)
    # The searcher keeps MOVE_OVERHEAD_MS of a movetime for itself; give it back here, the
    # server's overhead is already in the budget.
    limits = Limits(movetime=budget + MOVE_OVERHEAD_MS)
    searcher.move_overhead_ms = MOVE_OVERHEAD_MS
    result = searcher.search(pos, limits, game_keys=keys[:-1])
    return None if result.move is None else pos.uci(result.move)


def fallback_move(variant: str, start_fen: str, moves: list[str], level: int,
                  budget_ms: int) -> str | None:
    """The emergency move of a server whose engine service missed its deadline: a short
    search of at most ``budget_ms`` at a level no higher than 3, in the calling process."""
    return think(variant, start_fen, moves, min(max(1, level), 3), budget_ms,
                 None, None, 0, 0)


class EnginePool:
    """A ``ProcessPoolExecutor`` started with ``spawn`` (a fork of a threaded server is not
    safe), a queue in front of it and a coroutine front.  It is the embedded
    :class:`~randomchess.server.engines.service.EngineService`: computer moves here, analysis
    and reviews in the analysis pool of :mod:`randomchess.server.engines.jobs`."""

    mode = "embedded"

    def __init__(self, workers: int) -> None:
        self._workers = max(1, workers)
        self._ctx = multiprocessing.get_context("spawn")
        self._executor = self._new_executor()
        self._generation = 0
        self._degraded = False
        self.restarts = 0
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0

    def _new_executor(self) -> ProcessPoolExecutor:
        from randomchess.variant_file import load_from_environment

        # Variants from a file (settings.variants_file) are known in the workers too.
        return ProcessPoolExecutor(max_workers=self._workers, mp_context=self._ctx,
                                   initializer=load_from_environment)

    def status(self) -> str:
        """``"ok"``, or ``"degraded"`` from a worker's death until the rebuilt pool has
        answered a move (a broken executor found here is rebuilt at once)."""
        if getattr(self._executor, "_broken", False):
            self._rebuild(self._generation)
        return "degraded" if self._degraded else "ok"

    def _rebuild(self, generation: int) -> None:
        if generation != self._generation:
            return  # another request has rebuilt it already
        self._generation += 1
        self.restarts += 1
        self._degraded = True
        old = self._executor
        self._executor = self._new_executor()
        old.shutdown(wait=False, cancel_futures=True)

    async def start(self) -> None:
        return None

    async def health(self) -> dict[str, Any]:
        return {"mode": self.mode, "status": self.status(), "workers": self._workers,
                "restarts": self.restarts, "queued": self._waiting}

    async def levels(self) -> dict[str, tuple[str, str]]:
        """The external engine of each variant it plays here (levels 9, 10, maximum)."""
        return await asyncio.to_thread(external_engines, engine_config())

    async def engines(self) -> list[str]:
        return engine_config().available()

    async def run_job(self, kind: str, *args: Any, key: str | None = None,
                      timeout_s: float | None = None) -> Any:
        """An analysis job (``analyse`` or ``review``) in the analysis pool."""
        from randomchess.server.engines.jobs import JOBS, pool

        return await pool.run(JOBS[kind], *args)

    async def best_move(self, variant: str, start_fen: str, moves: list[str], level: int,
                        movetime_ms: int, clocks: tuple[int, int] | None,
                        increment_ms: int, key: str | None = None) -> str | None:
        level = known_level(level)
        wtime, btime = clocks if clocks is not None else (None, None)
        loop = asyncio.get_running_loop()
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._workers)
        asked = time.monotonic()
        self._waiting += 1
        acquired = False
        try:
            await self._slots.acquire()
            acquired = True
            self._waiting -= 1
            for attempt in range(RETRIES + 1):
                generation = self._generation
                waited = int((time.monotonic() - asked) * 1000)
                share = 1.0 + self._waiting / self._workers
                try:
                    uci = await loop.run_in_executor(
                        self._executor, think, variant, start_fen, moves, level, movetime_ms,
                        wtime, btime, increment_ms, increment_ms, waited, share, time.time(),
                    )
                except BrokenProcessPool:
                    if attempt == RETRIES:
                        raise
                    self._rebuild(generation)
                    continue
                if generation == self._generation:
                    self._degraded = False
                return uci
            raise AssertionError("unreachable")
        finally:
            if acquired:
                self._slots.release()
            else:
                self._waiting -= 1

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        self.shutdown()
