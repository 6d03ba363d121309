#!/usr/bin/env python3
"""Random self-play games for the opening explorer's benchmark (issue 33): PGN on stdout or
to --out (``.zst`` / ``.bz2`` compressed by the name), ready for ``randomchess explorer
import``.

Each game starts from a numbered setup of --variant drawn at random (or always --number) and
plays uniformly random legal moves for up to --plies plies; its result is the real one if the
game ended, else drawn at random.  A TimeControl tag and WhiteElo/BlackElo tags (1000-2600)
are drawn too, so the explorer's speed and rating filters have something to filter.  Fixed
--seed: the same file every time.  ``--games 1000000`` is the collection the issue's latency
goal names (about 2 ms a game on one core, so ~35 minutes on 8x8; run it once and keep the
file).

Usage: python bench/explorer_games.py --games 1000000 --variant chess960 --out /tmp/960.pgn.zst
       python bench/explorer_games.py --games 1000 --variant mrc > mrc.pgn
"""

from __future__ import annotations

import argparse
import bz2
import random
import sys
from collections.abc import Iterator
from typing import IO

from randomchess.pgn import Node, PgnGame, write_game
from randomchess.position import Position
from randomchess.startpos import setup_count, setup_from_number

TIME_CONTROLS = ("60+0", "180+2", "300+3", "600+5", "900+10", "1800+0", "5400+30")


def games(count: int, variant: str, plies: int, seed: int,
          number: int | None = None) -> Iterator[str]:
    rng = random.Random(seed)
    last = setup_count(variant)
    for i in range(count):
        setup = setup_from_number(variant, rng.randrange(last) if number is None else number)
        pos = Position(setup.fen, setup.variant)
        record = PgnGame(variant=pos.variant, start_fen=pos.fen())
        result = None
        for _ in range(plies):
            legal = pos.legal_moves()
            if not legal:
                result = ("0-1" if pos.turn == 0 else "1-0") if pos.is_check() else "1/2-1/2"
                break
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
    a = ap.parse_args()
    out = open_out(a.out) if a.out else sys.stdout
    try:
        for text in games(a.games, a.variant, a.plies, a.seed, a.number):
            out.write(text)
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
