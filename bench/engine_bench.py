"""Search speed: our nodes/s on fixed positions, with sunfish's beside it (STYLE.md).

    .venv/bin/python bench/engine_bench.py [--seconds 3]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
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
