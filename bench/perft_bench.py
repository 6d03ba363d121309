#!/usr/bin/env python3
"""Perft speed: randomchess next to python-chess on the same Chess960 start positions, in one
run, plus randomchess (and pyffish driven from Python) on 9x9 MRC positions.

Bulk counting (the last ply counts the legal moves without playing them) in both programs.
Times are CPU seconds of this process (medians), so a busy machine skews both sides alike.
Usage: python bench/perft_bench.py [--depth 4] [--mrc-depth 3] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
import timeit
from collections.abc import Callable

import chess

from randomchess import Position, get_variant

CHESS960_SETUPS = {0: "BBQNNRKR", 630: "RNBKQBRN", 518: "RNBQKBNR", 959: "RKRNNQBB"}
MRC_SETUPS = ("RNBMKQBNR", "BQNNMBRKR", "RBKNQBNMR", "NBMBNRKRQ")
# A quiet middlegame (Queen's Gambit, Slav structure) with 31 legal moves for White, the size
# of the reference figure (python-chess 26 us).
MIDDLEGAME = "r2q1rk1/pp1nbppp/2p1pn2/3p1b2/2PP4/1PN1PN2/P3BPPP/R1BQ1RK1 w - - 2 9"


def legal_move_listing() -> None:
    pos = Position(MIDDLEGAME, "chess960")
    board = chess.Board(MIDDLEGAME, chess960=True)
    assert len(pos.legal_moves()) == board.legal_moves.count()
    n = 20000
    cpu = time.process_time

    def uncached() -> object:
        # legal_moves() keeps its last answer per position; time the generation itself.
        pos._legal_cache = None
        return pos.legal_moves()

    ours = min(timeit.repeat(uncached, number=n, repeat=5, timer=cpu)) / n * 1e6
    theirs = min(
        timeit.repeat(lambda: list(board.legal_moves), number=n, repeat=5, timer=cpu)
    ) / n * 1e6
    print(f"\nLegal moves of a {len(pos.legal_moves())}-move middlegame: randomchess "
          f"{ours:.1f} us, python-chess {theirs:.1f} us, ratio {theirs / ours:.2f}")


def memory() -> None:
    import sys
    import tracemalloc

    def per_object(make: Callable[[], object], n: int = 2000) -> float:
        make()  # shared tables built first
        keep: list[object] = []
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        keep.extend(make() for _ in range(n))
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return (after - before - sys.getsizeof(keep)) / n

    fen8 = get_variant("chess960").setup_fen("RNBQKBNR")
    ours8 = per_object(lambda: Position(fen8, "chess960"))
    theirs8 = per_object(lambda: chess.Board(fen8, chess960=True))
    fen9 = get_variant("mrc").setup_fen("RNBMKQBNR")
    ours9 = per_object(lambda: Position(fen9, "mrc"))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Memory (tracemalloc, per position from FEN; shared tables not counted): 8x8 "
          f"{ours8:.0f} bytes, python-chess {theirs8:.0f} bytes, ratio {ours8 / theirs8:.2f}; "
          f"9x9 {ours9:.0f} bytes; peak resident size of this process {rss_mb:.0f} MB "
          "(python-chess loaded too)")


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def pyffish_perft(fen: str, depth: int) -> int:
    import pyffish

    moves = pyffish.legal_moves("modern", fen, [], True)
    if depth == 1:
        return len(moves)
    return sum(pyffish_perft(pyffish.get_fen("modern", fen, [m], True), depth - 1) for m in moves)


def timed(fn: Callable[[], int], repeat: int) -> tuple[int, float]:
    # CPU time of this process, so that other work on the machine skews both sides less.
    times, nodes = [], 0
    for _ in range(repeat):
        start = time.process_time()
        nodes = fn()
        times.append(time.process_time() - start)
    return nodes, statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--mrc-depth", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pyffish", action="store_true", help="also time pyffish on 9x9 (slow)")
    args = ap.parse_args()
    v960 = get_variant("chess960")
    print(f"Chess960 start positions, perft {args.depth}, median of {args.repeat}")
    print(f"{'SP':>4} {'nodes':>10} {'randomchess n/s':>16} {'python-chess n/s':>17} {'ratio':>6}")
    ours_total = theirs_total = time_ours = time_theirs = 0.0
    for number, rank in CHESS960_SETUPS.items():
        fen = v960.setup_fen(rank)
        pos = Position(fen, v960)
        board = chess.Board(fen, chess960=True)
        n1, t1 = timed(lambda: pos.perft(args.depth), args.repeat)  # noqa: B023
        n2, t2 = timed(lambda: python_chess_perft(board, args.depth), args.repeat)  # noqa: B023
        assert n1 == n2, (number, n1, n2)
        print(f"{number:>4} {n1:>10} {n1 / t1:>16,.0f} {n2 / t2:>17,.0f} {t2 / t1:>6.2f}")
        ours_total += n1
        theirs_total += n2
        time_ours += t1
        time_theirs += t2
    rate_ours, rate_theirs = ours_total / time_ours, theirs_total / time_theirs
    print(f" all {int(ours_total):>10} {rate_ours:>16,.0f} {rate_theirs:>17,.0f} "
          f"{rate_ours / rate_theirs:>6.2f}")
    vmrc = get_variant("mrc")
    print(f"\nMRC (9x9) start positions, perft {args.mrc_depth} (no adjustment right), "
          f"median of {args.repeat}")
    nodes = seconds = 0.0
    for rank in MRC_SETUPS:
        fen = vmrc.setup_fen(rank, adjustment=False)
        pos = Position(fen, vmrc)
        n, t = timed(lambda: pos.perft(args.mrc_depth), args.repeat)  # noqa: B023
        line = f"{rank} {n:>10} {n / t:>14,.0f} n/s"
        if args.pyffish:
            n2, t2 = timed(lambda: pyffish_perft(fen, args.mrc_depth), 1)  # noqa: B023
            assert n2 == n
            line += f"   pyffish from Python {n2 / t2:>10,.0f} n/s   ratio {t2 / t:.1f}"
        print(line)
        nodes += n
        seconds += t
    print(f"MRC all: {nodes / seconds:,.0f} n/s = {nodes / seconds / rate_theirs:.2f} x "
          "python-chess's 8x8 rate")
    legal_move_listing()
    memory()


if __name__ == "__main__":
    main()
