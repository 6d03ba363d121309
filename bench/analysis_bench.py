"""Analysis throughput: positions per second at one fixed depth, for our engine and every
external engine installed, on the same positions in the same run (issue 14).

    python bench/analysis_bench.py [--depth 4] [--variant chess|mrc]

Prints a table and each engine's speed as a ratio to ours.  Figures depend on the machine's
load: compare the rows of one run, not runs on different days.
"""

from __future__ import annotations

import argparse
import random
import time

from randomchess import Position, get_variant
from randomchess.analysis import EngineConfig, EngineUnavailableError, Limit
from randomchess.analysis.match import random_setup


def positions(variant: str, count: int, seed: int = 1) -> list[Position]:
    """Positions a few random plies into random setups (the same for every engine)."""
    v = get_variant(variant)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        fen = v.start_fen if v.fixed_rank else random_setup(v, rng)
        pos = Position(fen, v)
        for _ in range(rng.randrange(4, 14)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            out.append(pos.copy(stack=False))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--positions", type=int, default=8)
    args = ap.parse_args()
    config = EngineConfig.detect()
    sample = positions(args.variant, args.positions)
    rows: list[tuple[str, float, float]] = []
    for name in config.available():
        try:
            engine = config.open(name, args.variant)
        except EngineUnavailableError as exc:
            print(f"{name}: skipped ({exc.message()})")
            continue
        try:
            engine.analyse(sample[0], Limit(depth=1))  # start-up and warm-up
            start = time.perf_counter()
            for pos in sample:
                engine.analyse(pos, Limit(depth=args.depth))
            elapsed = time.perf_counter() - start
        finally:
            engine.close()
        rows.append((getattr(engine, "id_name", engine.name), elapsed, len(sample) / elapsed))
    print(f"{args.variant}, depth {args.depth}, {len(sample)} positions")
    print(f"{'engine':<34} {'seconds':>8} {'pos/s':>9} {'x ours':>8}")
    ours = rows[0][2] if rows else 1.0
    for name, elapsed, rate in rows:
        print(f"{name:<34} {elapsed:>8.2f} {rate:>9.2f} {rate / ours:>8.1f}")


if __name__ == "__main__":
    main()
