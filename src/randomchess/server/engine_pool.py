"""The computer's moves, thought out in a pool of worker processes so the event loop keeps
answering while the engine searches (the search is pure Python and holds the GIL)."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from randomchess.engine import LEVELS, Limits, Searcher
from randomchess.position import Position
from randomchess.variants import get_variant

_searchers: dict[int, Searcher] = {}  # one per level inside each worker process


def think(variant: str, start_fen: str, moves: list[str], level: int, movetime_ms: int,
          wtime: int | None, btime: int | None, winc: int, binc: int) -> str | None:
    """Runs in a worker: the UCI of the move the engine plays, None without a legal move."""
    pos = Position(start_fen, get_variant(variant))
    keys = [pos.zobrist]
    for text in moves:
        pos.push(pos.parse_uci(text))
        keys.append(pos.zobrist)
    searcher = _searchers.get(level)
    if searcher is None:
        searcher = _searchers[level] = Searcher(hash_mb=16, level=level)
    if wtime is not None and btime is not None:
        limits = Limits(wtime=wtime, btime=btime, winc=winc, binc=binc)
        mine = wtime if pos.turn == 0 else btime
        # Never think longer than the no-clock bound, nor than a tenth of what is left.
        limits.movetime = max(50, min(movetime_ms, mine // 10))
    else:
        limits = Limits(movetime=movetime_ms)
    result = searcher.search(pos, limits, game_keys=keys[:-1])
    return None if result.move is None else pos.uci(result.move)


class EnginePool:
    """A ``ProcessPoolExecutor`` started with ``spawn`` (a fork of a threaded server is not
    safe) and a coroutine front."""

    def __init__(self, workers: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._executor = ProcessPoolExecutor(max_workers=max(1, workers), mp_context=ctx)

    async def best_move(self, variant: str, start_fen: str, moves: list[str], level: int,
                        movetime_ms: int, clocks: tuple[int, int] | None,
                        increment_ms: int) -> str | None:
        level = level if level in LEVELS else 4
        wtime, btime = clocks if clocks is not None else (None, None)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, think, variant, start_fen, moves, level, movetime_ms,
            wtime, btime, increment_ms, increment_ms,
        )

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
