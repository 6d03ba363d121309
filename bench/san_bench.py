#!/usr/bin/env python3
"""SAN writing, ``push_uci`` and a position's memory: randomchess next to python-chess in one
run (issue 36).

The positions are made here, deterministically: random legal playouts (fixed seed) from random
Chess960 arrays, as in bench/pgn_bench.py.  Both libraries then

* write the SAN of every legal move of every position of those games (``san(pos, move)``
  beside ``board.san(move)``: both play the move to find ``+``/``#`` and take it back);
* replay every game from its start position by ``push_uci`` of the UCI texts (Chess960
  castling, king takes rook, in both);
* build positions from FEN, measured by tracemalloc (the bytes that stay allocated per
  position; the tables shared by every position of a board size are not counted).

Times are CPU seconds of this process (best of --repeat), so a busy machine skews both sides
alike; the ratio is python-chess time / randomchess time (above 1 means randomchess is faster),
and for memory randomchess bytes / python-chess bytes.

Usage: python bench/san_bench.py [--games 60] [--plies 80] [--repeat 3] [--seed 36]
       python bench/san_bench.py --profile san|uci   (cProfile of randomchess's side)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from collections.abc import Callable

import chess

from randomchess import Position, get_variant
from randomchess.native import STATUS
from randomchess.san import san


def make_games(count: int, plies: int, seed: int) -> list[tuple[str, list[str]]]:
    """(start FEN, UCI texts) of ``count`` random Chess960 playouts."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        fen = board.fen()
        ucis = []
        for _ply in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            ucis.append(move.uci())
            board.push(move)
        games.append((fen, ucis))
    return games


def best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        times.append(time.process_time() - t0)
    return min(times), result


def positions(games: list[tuple[str, list[str]]]) -> tuple[list[Position], list[chess.Board]]:
    """Every position of the games, in both libraries (copies without history)."""
    ours, theirs = [], []
    v960 = get_variant("chess960")
    for fen, ucis in games:
        pos = Position(fen, v960)
        board = chess.Board(fen, chess960=True)
        for text in ucis:
            ours.append(pos.copy(stack=False))
            theirs.append(board.copy(stack=False))
            pos.push_uci(text)
            board.push_uci(text)
    return ours, theirs


def ours_san(items: list[tuple[Position, list[object]]]) -> list[str]:
    out = []
    for pos, moves in items:
        for m in moves:
            out.append(san(pos, m))  # type: ignore[arg-type]
    return out


def theirs_san(items: list[tuple[chess.Board, list[chess.Move]]]) -> list[str]:
    out = []
    for board, moves in items:
        for m in moves:
            out.append(board.san(m))
    return out


def ours_uci(games: list[tuple[str, list[str]]]) -> int:
    v960 = get_variant("chess960")
    n = 0
    for fen, ucis in games:
        pos = Position(fen, v960)
        for text in ucis:
            pos.push_uci(text)
        n += len(ucis)
    return n


def theirs_uci(games: list[tuple[str, list[str]]]) -> int:
    n = 0
    for fen, ucis in games:
        board = chess.Board(fen, chess960=True)
        for text in ucis:
            board.push_uci(text)
        n += len(ucis)
    return n


def start_boards(games: list[tuple[str, list[str]]]) -> tuple[float, float]:
    """Construction only (both sides pay it in the push_uci figures): seconds per game."""
    v960 = get_variant("chess960")
    t_ours, _ = best(lambda: [Position(fen, v960) for fen, _u in games], 3)
    t_theirs, _ = best(lambda: [chess.Board(fen, chess960=True) for fen, _u in games], 3)
    return t_ours, t_theirs


def per_object(make: Callable[[], object], n: int = 2000) -> float:
    """Bytes that stay allocated per object made by ``make`` (tracemalloc)."""
    make()  # any shared table is built before the measurement
    keep: list[object] = []
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(n):
        keep.append(make())
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before - sys.getsizeof(keep)) / n


def memory(games: list[tuple[str, list[str]]]) -> None:
    v960 = get_variant("chess960")
    fens = {"SP 518 start": v960.setup_fen("RNBQKBNR")}
    fen, ucis = games[0]
    board = chess.Board(fen, chess960=True)
    for text in ucis[:30]:
        board.push_uci(text)
    fens["a game's 30th ply"] = board.fen()
    print(f"\nMemory per position (tracemalloc, bytes; history empty)\n"
          f"{'':22}{'randomchess':>12}{'python-chess':>13}{'ratio':>7}")
    for label, fen in fens.items():
        ours = per_object(lambda: Position(fen, v960))  # noqa: B023
        theirs = per_object(lambda: chess.Board(fen, chess960=True))  # noqa: B023
        print(f"{label:22}{ours:12.0f}{theirs:13.0f}{ours / theirs:7.2f}")
        pos = Position(fen, v960)
        pos.legal_moves()
        copied = chess.Board(fen, chess960=True)
        ours_copy = per_object(lambda: pos.copy(stack=False))  # noqa: B023
        theirs_copy = per_object(lambda: copied.copy(stack=False))  # noqa: B023
        print(f"{'  copy(stack=False)':22}{ours_copy:12.0f}{theirs_copy:13.0f}"
              f"{ours_copy / theirs_copy:7.2f}")
    mrc = get_variant("mrc")
    nine = per_object(lambda: Position(mrc.setup_fen("RNBMKQBNR"), mrc))
    print(f"{'9x9 MRC start':22}{nine:12.0f}{'-':>13}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--profile", choices=["san", "uci"])
    args = parser.parse_args()

    games = make_games(args.games, args.plies, args.seed)
    ours_pos, their_boards = positions(games)
    ours_items = [(p, list(p.legal_moves())) for p in ours_pos]
    their_items = [(b, list(b.legal_moves)) for b in their_boards]
    n_san = sum(len(m) for _p, m in ours_items)
    n_plies = sum(len(u) for _f, u in games)
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print(f"randomchess {STATUS}; {args.games} Chess960 games, {len(ours_pos)} positions, "
          f"{n_san} legal moves; load average {load}")

    if args.profile:
        import cProfile
        import pstats

        target: Callable[[], object] = (lambda: ours_san(ours_items)) \
            if args.profile == "san" else (lambda: ours_uci(games))
        profiler = cProfile.Profile()
        profiler.runcall(target)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return

    t_ours_san, ours_text = best(lambda: ours_san(ours_items), args.repeat)
    t_theirs_san, their_text = best(lambda: theirs_san(their_items), args.repeat)
    assert isinstance(ours_text, list) and isinstance(their_text, list)
    assert sorted(ours_text) == sorted(their_text), "SAN differs"
    t_ours_uci, _ = best(lambda: ours_uci(games), args.repeat)
    t_theirs_uci, _ = best(lambda: theirs_uci(games), args.repeat)
    b_ours, b_theirs = start_boards(games)

    print(f"{'':28}{'randomchess':>12}{'python-chess':>13}{'ratio':>7}")
    print(f"{'SAN of every legal move':28}{t_ours_san / n_san * 1e6:10.2f}us"
          f"{t_theirs_san / n_san * 1e6:11.2f}us{t_theirs_san / t_ours_san:7.2f}")
    print(f"{'push_uci, per ply':28}{t_ours_uci / n_plies * 1e6:10.2f}us"
          f"{t_theirs_uci / n_plies * 1e6:11.2f}us{t_theirs_uci / t_ours_uci:7.2f}")
    u_ours, u_theirs = t_ours_uci - b_ours, t_theirs_uci - b_theirs
    print(f"{'  less the start positions':28}{u_ours / n_plies * 1e6:10.2f}us"
          f"{u_theirs / n_plies * 1e6:11.2f}us{u_theirs / u_ours:7.2f}")
    print("SAN texts: identical")
    memory(games)


if __name__ == "__main__":
    main()
