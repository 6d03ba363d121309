"""Fairy-Stockfish (the Debian binary) as a perft oracle, with the variants.ini the tests
ship (tests/data/variants.ini): one process, ``go perft`` per position."""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from randomchess import Position

FSF = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
INI = Path(__file__).resolve().parent / "data" / "variants.ini"


def fsf_perft(variant: str, fens: list[str], depth: int) -> list[int]:
    """Fairy-Stockfish's perft ``depth`` of each FEN (Shredder or X-FEN, Chess960 castling)."""
    lines = ["uci", f"setoption name VariantPath value {INI}",
             f"setoption name UCI_Variant value {variant}",
             "setoption name UCI_Chess960 value true"]
    for fen in fens:
        lines += [f"position fen {fen}", f"go perft {depth}", "isready"]
    lines.append("quit")
    out = subprocess.run([FSF], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=600, check=True).stdout
    counts = [int(line.split(":")[1]) for line in out.splitlines()
              if line.startswith("Nodes searched")]
    assert len(counts) == len(fens), out[-2000:]
    return counts


def random_walks(start: Callable[[int], Position], setups: int, count: int,
                 plies: tuple[int, int], seed: int) -> list[Position]:
    """``count`` positions, each a random number of random legal moves (``plies``: the
    ``randrange`` bounds) from ``start(n)`` of a random setup ``n`` below ``setups``."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        pos = start(rng.randrange(setups))
        for _ in range(rng.randrange(*plies)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        positions.append(pos)
    return positions
