#!/usr/bin/env python3
"""PGN speed: randomchess next to python-chess reading and writing the same Chess960 games in
one run (issue 13).

The games are made here, deterministically: random legal playouts (fixed seed) from random
Chess960 arrays, up to --plies plies or the end of the game, with a comment every tenth move
and a one-move variation every fifteenth, written by python-chess's exporter.  Both libraries
then read that same text, and each writes the games it read.  Times are CPU seconds of this
process (best of --repeat), so a busy machine skews both sides alike; the ratio is
randomchess time / python-chess time (below 1.00 means randomchess is faster).

Usage: python bench/pgn_bench.py [--games 1000] [--plies 80] [--repeat 3] [--seed 13]
       python bench/pgn_bench.py --profile read|write   (cProfile of randomchess's side)
"""

from __future__ import annotations

import argparse
import io
import random
import time
from collections.abc import Callable

import chess
import chess.pgn

from randomchess.pgn import PgnGame, read_games, write_game


def make_games(count: int, plies: int, seed: int) -> str:
    rng = random.Random(seed)
    out = io.StringIO()
    for number in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"bench {number + 1}"
        node: chess.pgn.GameNode = game
        for ply in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            if ply % 15 == 7 and len(moves) > 1:
                alternative = rng.choice([m for m in moves if m != move])
                node.add_variation(alternative, comment="or this")
            node = node.add_main_variation(move)
            if ply % 10 == 3:
                node.comment = f"note {ply}"
            board.push(move)
        game.headers["Result"] = board.result(claim_draw=False)
        print(game, file=out, end="\n\n")
    return out.getvalue()


def best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        times.append(time.process_time() - t0)
    return min(times), result


def ours_read(text: str) -> list[PgnGame]:
    games = list(read_games(io.StringIO(text)))
    bad = [g.error for g in games if g.error is not None]
    assert not bad, bad[0]
    return games


def theirs_read(text: str) -> list[chess.pgn.Game]:
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        games.append(game)
    return games


def ours_write(games: list[PgnGame]) -> str:
    return "".join(write_game(g) for g in games)


def theirs_write(games: list[chess.pgn.Game]) -> str:
    out = []
    for game in games:
        exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
        out.append(game.accept(exporter) + "\n\n")
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--profile", choices=["read", "write"])
    args = parser.parse_args()

    text = make_games(args.games, args.plies, args.seed)
    plies = text.count(".")  # rough size indicator only
    print(f"{args.games} Chess960 games, {len(text) / 1e6:.2f} MB of PGN (~{plies} move numbers)")

    if args.profile:
        import cProfile
        import pstats

        games = ours_read(text)
        target = (lambda: ours_read(text)) if args.profile == "read" else (
            lambda: ours_write(games))
        profiler = cProfile.Profile()
        profiler.runcall(target)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return

    t_ours_read, ours_games = best(lambda: ours_read(text), args.repeat)
    t_theirs_read, their_games = best(lambda: theirs_read(text), args.repeat)
    assert isinstance(ours_games, list) and isinstance(their_games, list)
    assert len(ours_games) == len(their_games) == args.games
    t_ours_write, ours_text = best(lambda: ours_write(ours_games), args.repeat)
    t_theirs_write, their_text = best(lambda: theirs_write(their_games), args.repeat)
    same = "identical" if ours_text == their_text else "DIFFERENT"

    print(f"{'':8}{'randomchess':>13}{'python-chess':>14}{'ratio':>8}")
    print(f"{'read':8}{t_ours_read:12.2f}s{t_theirs_read:13.2f}s"
          f"{t_ours_read / t_theirs_read:8.2f}")
    print(f"{'write':8}{t_ours_write:12.2f}s{t_theirs_write:13.2f}s"
          f"{t_ours_write / t_theirs_write:8.2f}")
    print(f"written text: {same} bytes ({len(str(ours_text))} vs {len(str(their_text))})")


if __name__ == "__main__":
    main()
