"""Fairy-Stockfish (the Debian binary) as a perft oracle, with the variants.ini the tests
ship (tests/data/variants.ini): one process, ``go perft`` per position."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

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
