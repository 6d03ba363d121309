"""Perft against independent implementations (python-chess for Chess960, Fairy-Stockfish
``modern`` with 960 castling for MRC); cases copied from shared/cases into tests/data.

The MRC FENs carry no adjustment field, so they mean "no Bishop Adjustment right" (RULES.md
§4.9) and the counts are exact."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import load_cases
from randomchess import Position

D3 = load_cases("chess960_s1_d3.jsonl") + load_cases("mrc_s1_d3.jsonl")
D4 = load_cases("chess960_s1_d4.jsonl") + load_cases("mrc_s1_d4.jsonl")


@pytest.mark.parametrize("form", ["fen", "xfen"])
@pytest.mark.parametrize("case", D3, ids=[c["id"] for c in D3])
def test_perft_depth3(case: dict[str, Any], form: str) -> None:
    pos = Position(case[form], case["variant"])
    assert pos.perft(case["depth"]) == case["nodes"]


@pytest.mark.slow
@pytest.mark.parametrize("case", D4, ids=[c["id"] for c in D4])
def test_perft_depth4(case: dict[str, Any]) -> None:
    pos = Position(case["fen"], case["variant"])
    assert pos.perft(case["depth"]) == case["nodes"]


PLAYED = [c for c in D3 if "start_fen" in c]


@pytest.mark.parametrize("case", PLAYED, ids=[c["id"] for c in PLAYED])
def test_case_reached_by_its_moves(case: dict[str, Any]) -> None:
    """Playing the recorded UCI moves (castling king-takes-rook) from the start reaches the
    case's position, so make-move agrees with the oracles too."""
    pos = Position(case["start_fen"], case["variant"])
    for text in case["moves"]:
        pos.push_uci(text)
    assert pos.fen(shredder=True).split()[:4] == case["fen"].split()[:4]
    # Unmaking everything returns to the start exactly.
    while pos.move_stack:
        pos.pop()
    assert pos.fen(shredder=True) == Position(case["start_fen"], case["variant"]).fen(shredder=True)
