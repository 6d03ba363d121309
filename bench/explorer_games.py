#!/usr/bin/env python3
"""Random self-play games for the opening explorer's benchmark (issue 33): PGN on stdout or
to --out (``.zst`` / ``.bz2`` compressed by the name), ready for ``randomchess explorer
import``.

Each game starts from a numbered setup of --variant drawn at random (or always --number) and
plays uniformly random legal moves for up to --plies plies; its result is the real one if the
game ended, else drawn at random.

``--tree`` makes a collection shaped like a real one instead (the 1,000,000 games of the
latency goal): half of the games start from one of 10 "popular" setups (weights 1, 1/2, ...
1/10), the rest from any setup; for the first ``TREE_PLIES`` plies each move is drawn with a
weight that falls with its rank (1/(r+1)^1.5) in an order fixed by the position (a CRC of the
position's hash and the move), so that games share opening trees with a realistic fan-out
(a few main moves, a long tail), then uniformly at random.

A TimeControl tag and WhiteElo/BlackElo tags (1000-2600) are drawn too, so the explorer's
speed and rating filters have something to filter.  Fixed --seed: the same file every time.
``--games 1000000 --tree`` is the collection the issue's latency goal names (about 1.2 ms a
game on one core with the compiled rules core, so ~20 minutes on 8x8).  ``--part K/N``
writes the K-th of N slices of it, for N processes whose ``.zst`` files are then
concatenated (``cat a.zst b.zst > all.zst``: a multi-frame file, which the importer reads).

Usage: python bench/explorer_games.py --games 1000000 --tree --out /tmp/960-1m.pgn.zst
       python bench/explorer_games.py --games 1000 --variant mrc > mrc.pgn
"""

from __future__ import annotations

import argparse
import bz2
import random
import sys
import zlib
from collections.abc import Iterator
from typing import IO

from randomchess.pgn import Node, PgnGame, write_game
from randomchess.position import Move, Position
from randomchess.startpos import setup_count, setup_from_number

TIME_CONTROLS = ("60+0", "180+2", "300+3", "600+5", "900+10", "1800+0", "5400+30")
TREE_PLIES = 16  # --tree: the plies drawn with rank weights (an opening tree), then uniform
POPULAR = 10  # --tree: half of the games start from one of this many setups


class _Tree:
    """The weighted choice of --tree: per position (by its hash) the legal moves in a fixed
    order and their cumulative weights, remembered while the cache is not full."""

    def __init__(self, rng: random.Random, last: int) -> None:
        self.rng = rng
        self.cache: dict[int, tuple[list[Move], list[float]]] = {}
        self.popular = [rng.randrange(last) for _ in range(POPULAR)]
        self.popular_weights = [1 / (r + 1) for r in range(POPULAR)]
        self.last = last

    def setup(self) -> int:
        if self.rng.random() < 0.5:
            return self.rng.choices(self.popular, self.popular_weights)[0]
        return self.rng.randrange(self.last)

    def move(self, pos: Position, legal: list[Move]) -> Move:
        hit = self.cache.get(pos.zobrist)
        if hit is None:
            order = sorted(legal, key=lambda m: zlib.crc32(
                f"{pos.zobrist:x}{pos.uci(m)}".encode()))
            total, cumulative = 0.0, []
            for r in range(len(order)):
                total += 1 / (r + 1) ** 1.5
                cumulative.append(total)
            if len(self.cache) > 1_000_000:
                self.cache.clear()
            hit = self.cache[pos.zobrist] = (order, cumulative)
        return self.rng.choices(hit[0], cum_weights=hit[1])[0]


def games(count: int, variant: str, plies: int, seed: int, number: int | None = None,
          tree: bool = False, part: tuple[int, int] = (1, 1)) -> Iterator[str]:
    """``count`` games as PGN texts (the ``part[0]``-th of ``part[1]`` slices of them: the
    same games as one process would write, by a random stream per game)."""
    rng = random.Random(seed)
    last = setup_count(variant)
    shape = _Tree(rng, last) if tree else None
    k, n = part
    for i in range(count):
        if n > 1:
            if i % n != k - 1:
                continue
            rng.seed(f"{seed}-{i}")
        if number is not None:
            setup = setup_from_number(variant, number)
        else:
            setup = setup_from_number(variant, rng.randrange(last) if shape is None
                                      else shape.setup())
        pos = Position(setup.fen, setup.variant)
        record = PgnGame(variant=pos.variant, start_fen=pos.fen())
        result = None
        for ply in range(plies):
            legal = pos.legal_moves()
            if not legal:
                result = ("0-1" if pos.turn == 0 else "1-0") if pos.is_check() else "1/2-1/2"
                break
            if shape is not None and ply < TREE_PLIES:
                move = shape.move(pos, legal)
            else:
                move = rng.choice(legal)
            record.moves.append(Node(move))
            pos.push(move)
        record.result = result or rng.choice(("1-0", "1/2-1/2", "0-1"))
        headers = {"Event": f"explorer bench {i + 1}", "Result": record.result,
                   "TimeControl": rng.choice(TIME_CONTROLS),
                   "WhiteElo": str(rng.randrange(1000, 2600)),
                   "BlackElo": str(rng.randrange(1000, 2600))}
        yield write_game(record, headers=headers)


def open_out(path: str) -> IO[str]:
    if path.endswith(".zst"):
        import io

        import zstandard

        raw = open(path, "wb")  # noqa: SIM115 - closed through the text stream
        writer = zstandard.ZstdCompressor(level=3).stream_writer(raw)
        return io.TextIOWrapper(writer, encoding="utf-8")
    if path.endswith(".bz2"):
        return bz2.open(path, "wt", encoding="utf-8")
    return open(path, "w", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--variant", default="chess960")
    ap.add_argument("--number", type=int, default=None, help="always this setup")
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--out", default=None)
    ap.add_argument("--tree", action="store_true",
                    help="opening trees and popular setups, as a real collection has")
    ap.add_argument("--part", default="1/1", help="K/N: the K-th of N slices of the games")
    a = ap.parse_args()
    k, n = (int(x) for x in a.part.split("/"))
    if not 1 <= k <= n:
        ap.error("--part K/N needs 1 <= K <= N")
    out = open_out(a.out) if a.out else sys.stdout
    try:
        for text in games(a.games, a.variant, a.plies, a.seed, a.number, a.tree, (k, n)):
            out.write(text)
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
