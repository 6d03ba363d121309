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
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from randomchess.engine import LEVELS, Limits, Searcher
from randomchess.engine.search import MOVE_OVERHEAD_MS, time_budget
from randomchess.position import Position
from randomchess.variants import get_variant

_searchers: dict[int, Searcher] = {}  # one per level inside each worker process
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


def think(variant: str, start_fen: str, moves: list[str], level: int, movetime_ms: int,
          wtime: int | None, btime: int | None, winc: int, binc: int,
          waited_ms: int = 0, share: float = 1.0, sent_at: float | None = None) -> str | None:
    """Runs in a worker: the UCI of the move the engine plays, None without a legal move.
    ``sent_at`` (``time.time()`` when handed over) adds the hand-over to ``waited_ms``."""
    if sent_at is not None:
        waited_ms += max(0, int((time.time() - sent_at) * 1000))
    pos = Position(start_fen, get_variant(variant))
    keys = [pos.zobrist]
    for text in moves:
        pos.push(pos.parse_uci(text))
        keys.append(pos.zobrist)
    searcher = _searchers.get(level)
    if searcher is None:
        searcher = _searchers[level] = Searcher(hash_mb=16, level=level)
    if wtime is not None and btime is not None:
        white = pos.turn == 0
        mine = wtime if white else btime
        inc = winc if white else binc
        budget = move_budget_ms(movetime_ms, mine, inc, waited_ms, share)
    else:
        budget = move_budget_ms(movetime_ms, None, 0, waited_ms, share)
    # The searcher keeps MOVE_OVERHEAD_MS of a movetime for itself; give it back here, the
    # server's overhead is already in the budget.
    limits = Limits(movetime=budget + MOVE_OVERHEAD_MS)
    searcher.move_overhead_ms = MOVE_OVERHEAD_MS
    result = searcher.search(pos, limits, game_keys=keys[:-1])
    return None if result.move is None else pos.uci(result.move)


class EnginePool:
    """A ``ProcessPoolExecutor`` started with ``spawn`` (a fork of a threaded server is not
    safe), a queue in front of it and a coroutine front."""

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
        return ProcessPoolExecutor(max_workers=self._workers, mp_context=self._ctx)

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

    async def best_move(self, variant: str, start_fen: str, moves: list[str], level: int,
                        movetime_ms: int, clocks: tuple[int, int] | None,
                        increment_ms: int) -> str | None:
        level = level if level in LEVELS else 4
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
