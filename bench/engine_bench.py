"""Search speed: our nodes/s on fixed positions, with sunfish's beside it (STYLE.md).

    .venv/bin/python bench/engine_bench.py [--seconds 3]
    .venv/bin/python bench/engine_bench.py --latency [--movetime 10 --repeat 20]
    .venv/bin/python bench/engine_bench.py --levels
    .venv/bin/python bench/engine_bench.py --ttd
    .venv/bin/python bench/engine_bench.py --native [--rounds 3]

``--latency`` prints the distribution of the wall time from ``go movetime N`` to the
``bestmove`` line through the UCI layer (issue 14.5); ``--levels`` the CPU time one
computer move costs at each level with the server's 1.5 s bound, and so how many games
one core serves (issue 14, docs/server.md); ``--ttd`` the nodes and CPU seconds to a fixed
depth (6; 8 in the endgame, 5 in MRC), the search's efficiency whatever the machine's load;
``--native`` the same for the modules compiled with mypyc (build_support/native.py) and for
the pure-Python source (``RANDOMCHESS_NATIVE=off``), alternated, with the ratio.

sunfish (``pip install sunfish``) counts the nodes of its MTD-bi search; ours counts
principal-variation and quiescence nodes.  Both are pure Python, so the figures compare
like with like on the same machine; sunfish only plays classical chess, so its column is
empty for the other positions.
"""

from __future__ import annotations

import argparse
import time

from randomchess.engine.search import Limits, Searcher
from randomchess.position import Position

POSITIONS = (
    ("chess", "start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "kiwipete",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "middlegame",
     "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"),
    ("chess", "endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("chess960", "SP 0 (BBQNNRKR)",
     "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"),
    ("mrc", "Maura array + BAR",
     "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1 ABCDEFGHIabcdefghi"),
    ("mrc", "RBKNQBNMR",
     "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w AIai - 0 1 ABCDEFGHIabcdefghi"),
)


def ours(variant: str, fen: str, seconds: float) -> tuple[int, int, int]:
    """(nodes per wall second, nodes per CPU second, depth).  On a shared machine the CPU
    figure is the steadier one: it does not count the time other processes take."""
    searcher = Searcher()
    cpu = time.process_time()
    result = searcher.search(Position(fen, variant), Limits(movetime=int(seconds * 1000)))
    cpu = time.process_time() - cpu
    return (result.nodes * 1000 // max(result.time_ms, 1), int(result.nodes / max(cpu, 1e-3)),
            result.depth)


def sunfish_nps(fen: str, seconds: float) -> int | None:
    try:
        import sunfish  # type: ignore[import-untyped]
        import sunfish_ui.uci as sunfish_uci  # type: ignore[import-untyped]
    except ImportError:
        return None
    sunfish_uci.sunfish = sunfish  # run() normally sets it
    from_fen = sunfish_uci.from_fen
    pos = from_fen(*fen.split()[:6])
    searcher = sunfish.Searcher()
    searcher.soft = time.time() + 10**6
    start = time.monotonic()
    for _ in searcher.search([pos]):
        if time.monotonic() - start >= seconds:
            break
    return int(searcher.nodes / (time.monotonic() - start))


def latency(movetime: int, repeat: int) -> None:
    """go movetime N -> bestmove, wall time through UciServer, on every position."""
    import threading

    from randomchess.engine.uci import UciServer

    done = threading.Event()
    engine = UciServer(write=lambda line: done.set() if line.startswith("bestmove") else None)
    spent: list[float] = []
    for variant, _name, fen in POSITIONS + LATENCY_EXTRA:
        engine.handle(f"setoption name UCI_Variant value {variant}")
        engine.handle(f"position fen {fen}")
        for _ in range(repeat):
            done.clear()
            t0 = time.monotonic()
            engine.handle(f"go movetime {movetime}")
            done.wait(60)
            spent.append((time.monotonic() - t0) * 1000)
    spent.sort()
    n = len(spent)
    print(f"go movetime {movetime}: {n} moves, p50 {spent[n // 2]:.1f} ms, "
          f"p90 {spent[n * 9 // 10]:.1f} ms, p99 {spent[min(n - 1, n * 99 // 100)]:.1f} ms, "
          f"max {spent[-1]:.1f} ms, over 2x: {sum(s > 2 * movetime for s in spent)}")


def levels(movetime: int) -> None:
    """CPU ms per computer move at each level (the server's bound), over all positions."""
    from randomchess.engine.search import LEVELS

    print(f"{'level':>5} {'cpu ms/move':>12} {'moves/s/core':>13} {'games/core @10 s':>17}")
    for level in sorted(LEVELS):
        cpu = 0.0
        for variant, _name, fen in POSITIONS:
            searcher = Searcher(level=level, seed=1)
            t0 = time.process_time()
            searcher.search(Position(fen, variant), Limits(movetime=movetime))
            cpu += time.process_time() - t0
        per_move = cpu * 1000 / len(POSITIONS)
        # A human who takes 10 s a move: games one core answers without a queue forming.
        print(f"{level:>5} {per_move:>12.0f} {1000 / per_move:>13.1f} "
              f"{10_000 / per_move:>17.0f}")


def time_to_depth() -> tuple[int, float]:
    from randomchess import native

    print(f"modules: {native.STATUS}")
    total_nodes = 0
    total_cpu = 0.0
    for variant, name, fen in POSITIONS:
        depth = 8 if name == "endgame" else 5 if variant == "mrc" else 6
        searcher = Searcher()
        t0 = time.process_time()
        result = searcher.search(Position(fen, variant), Limits(depth=depth))
        cpu = time.process_time() - t0
        total_nodes += result.nodes
        total_cpu += cpu
        print(f"{name:<22} {variant:<9} depth {depth}: {result.nodes:>8} nodes "
              f"{cpu:6.2f} s cpu")
    print(f"{'total':<22} {'':<9} {'':>8} {total_nodes:>8} nodes {total_cpu:6.2f} s cpu")
    return total_nodes, total_cpu


def native_against_pure(rounds: int) -> None:
    """Time to depth of the compiled modules and of the pure-Python source, alternated in
    fresh processes (the best round of each counts), and the ratio."""
    import os
    import re
    import subprocess
    import sys

    best: dict[str, float] = {}
    nodes: dict[str, int] = {}
    for r in range(rounds):
        for mode in ("auto", "off"):
            env = {**os.environ, "RANDOMCHESS_NATIVE": mode}
            out = subprocess.run([sys.executable, __file__, "--ttd"], env=env, check=True,
                                 capture_output=True, text=True).stdout
            m = re.search(r"total\s+(\d+) nodes\s+([\d.]+) s cpu", out)
            assert m, out
            status = out.splitlines()[0]
            nodes[mode], cpu = int(m.group(1)), float(m.group(2))
            best[mode] = min(best.get(mode, cpu), cpu)
            print(f"round {r + 1} {status:<40} {nodes[mode]:>8} nodes {cpu:6.2f} s cpu")
    assert nodes["auto"] == nodes["off"], "the compiled search must count the same nodes"
    print(f"pure Python {best['off']:.2f} s, compiled {best['auto']:.2f} s: "
          f"{best['off'] / best['auto']:.2f} times as fast to the same depths")


LATENCY_EXTRA = (
    ("chess", "issue 14.5", "r2q1rk1/pb1nbppp/1p2pn2/2ppN3/2PP4/1PN1P1P1/PB3PBP/R2Q1RK1 w - - 0 1"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--latency", action="store_true")
    parser.add_argument("--movetime", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--levels", action="store_true")
    parser.add_argument("--ttd", action="store_true")
    parser.add_argument("--native", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.native:
        native_against_pure(args.rounds)
        return
    if args.ttd:
        time_to_depth()
        return
    if args.latency:
        latency(args.movetime, args.repeat)
        return
    if args.levels:
        levels(1500)
        return
    print(f"{'position':<22} {'variant':<9} {'ours nps':>9} {'cpu nps':>9} {'depth':>5} "
          f"{'sunfish nps':>12}")
    total_ours = total_cpu = total_sf = n_sf = 0
    for variant, name, fen in POSITIONS:
        nps, cpu_nps, depth = ours(variant, fen, args.seconds)
        sf = sunfish_nps(fen, args.seconds) if variant == "chess" else None
        total_ours += nps
        total_cpu += cpu_nps
        if sf is not None:
            total_sf += sf
            n_sf += 1
        print(f"{name:<22} {variant:<9} {nps:>9} {cpu_nps:>9} {depth:>5} "
              f"{sf if sf is not None else '-':>12}")
    print(f"{'mean':<22} {'':<9} {total_ours // len(POSITIONS):>9} "
          f"{total_cpu // len(POSITIONS):>9} {'':>5} {total_sf // n_sf if n_sf else '-':>12}")


if __name__ == "__main__":
    main()
