"""The perft benchmark names its Chess960 start positions by Scharnagl number; every label
must be the number of the array it times (issue 36: the array ``RNBKQBRN`` was labelled
SP 357 but is SP 630)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from randomchess.startpos import chess960_number

ROOT = Path(__file__).resolve().parent.parent


def test_every_chess960_label_is_its_arrays_number() -> None:
    spec = importlib.util.spec_from_file_location("perft_bench",
                                                  ROOT / "bench" / "perft_bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for number, rank in bench.CHESS960_SETUPS.items():
        assert chess960_number(rank) == number, (number, rank)
