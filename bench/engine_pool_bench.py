"""Computer-move latency of the server's engine pool under N concurrent clocked games
(issue 14): p50/p99 of the time from asking to answer, the lowest clock and flag falls.

    .venv/bin/python bench/engine_pool_bench.py [--games 6 --workers 1 --clock 30 --moves 10]

Each game's human answers at once with a random legal move, so the queue is as long as it
can be; the computer's clock is charged with its whole latency (queueing included), as the
server's clock does.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from randomchess.position import Position
from randomchess.server.engines.pool import EnginePool
from randomchess.variants import get_variant


async def game(pool: EnginePool, variant: str, seed: int, clock_ms: int, inc_ms: int,
               moves: int, level: int, latencies: list[int]) -> tuple[int, bool]:
    rng = random.Random(seed)
    start = get_variant(variant).default_fen
    pos = Position(start, variant)
    played: list[str] = []
    clocks = [clock_ms, clock_ms]
    lowest = clock_ms
    for _ in range(moves):
        if not pos.legal_moves():
            break
        human = rng.choice(pos.legal_moves())
        played.append(pos.uci(human))
        pos.push(human)
        if not pos.legal_moves():
            break
        t0 = time.monotonic()
        uci = await pool.best_move(variant, start, played, level, 1500,
                                   (clocks[0], clocks[1]), inc_ms)
        spent = int((time.monotonic() - t0) * 1000)
        latencies.append(spent)
        clocks[1] += inc_ms - spent
        lowest = min(lowest, clocks[1])
        if clocks[1] <= 0:
            return lowest, True
        assert uci is not None
        played.append(uci)
        pos.push_uci(uci)
    return lowest, False


async def run(args: argparse.Namespace) -> None:
    pool = EnginePool(args.workers)
    try:
        await pool.best_move(args.variant, get_variant(args.variant).default_fen, [], 1, 50,
                             None, 0)  # the workers are up
        latencies: list[int] = []
        results = await asyncio.gather(*(
            game(pool, args.variant, i, int(args.clock * 1000), int(args.inc * 1000),
                 args.moves, args.level, latencies) for i in range(args.games)))
    finally:
        pool.shutdown()
    latencies.sort()
    n = len(latencies)
    print(f"{args.games} games, {args.workers} worker(s), level {args.level}, "
          f"{args.clock:g}+{args.inc:g} s, {n} computer moves: "
          f"p50 {latencies[n // 2]} ms, p99 {latencies[min(n - 1, n * 99 // 100)]} ms, "
          f"max {latencies[-1]} ms; lowest clock {min(r[0] for r in results)} ms; "
          f"flag falls {sum(r[1] for r in results)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--clock", type=float, default=30.0, help="seconds per side")
    parser.add_argument("--inc", type=float, default=0.0)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--level", type=int, default=8)
    parser.add_argument("--variant", default="chess960")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
