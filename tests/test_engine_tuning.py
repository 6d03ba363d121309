"""The evaluation's linear split (randomchess.engine.tuning), which bench/tune_eval.py fits to
Stockfish (issue 16): it must add up to what ``evaluate`` says, or the fitted weights would
be fitted to a different function than the one the engine plays with."""

from __future__ import annotations

import random
import sys

import pytest

from randomchess.engine.evaluate import evaluate
from randomchess.engine.tuning import NAMES, current_weights, features, predict
from randomchess.position import Position
from randomchess.startpos import setup_from_number

evaluate_module = sys.modules["randomchess.engine.evaluate"]


def _positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position(setup_from_number("chess960", rng.randrange(960)).fen, "chess960")
        for _ in range(rng.randrange(0, 90)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            out.append(pos)
    return out


def test_the_features_times_the_shipped_weights_are_the_evaluation() -> None:
    weights = current_weights()
    assert set(weights) == set(NAMES)
    worst = 0.0
    for pos in _positions(120, seed=16):
        white = predict(pos, weights)
        ours = evaluate(pos) if pos.turn == 0 else -evaluate(pos)
        worst = max(worst, abs(white - ours))
    # Rounding only: the tables round each square's weight, the taper divides by integers.
    assert worst <= 6


@pytest.mark.parametrize("name", ["PAWN_THREAT_TO_MOVER", "PAWN_THREAT_TO_WAITING",
                                  "MINOR_DEFENDED_BY_PAWN", "KING_DANGER", "ROOK_OPEN_FILE"])
def test_each_fitted_term_moves_the_evaluation_the_way_the_split_says(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed weight changes evaluate() by weight change x feature (so a feature that
    evaluate ignores, or counts differently, fails here)."""
    positions = _positions(40, seed=17)
    before = [evaluate(p) for p in positions]
    old = getattr(evaluate_module, name)
    new = tuple(v + 40 for v in old) if isinstance(old, tuple) else old + 40
    monkeypatch.setattr(evaluate_module, name, new)
    moved = 0
    try:
        for pos, b in zip(positions, before, strict=True):
            fresh = pos.copy()
            f, _ = features(fresh)
            keys = [n for n in NAMES if n.split(":")[0] == _feature_of[name]]
            expected = sum(f[k] for k in keys) * 40
            got = evaluate(fresh) - b
            if fresh.turn == 1:
                got = -got
            assert abs(got - expected) <= 6
            moved += abs(expected) > 10
    finally:
        monkeypatch.undo()
    assert moved  # the term mattered in some of the positions


_feature_of = {"PAWN_THREAT_TO_MOVER": "threat_mover", "PAWN_THREAT_TO_WAITING": "threat_waiting",
               "MINOR_DEFENDED_BY_PAWN": "minor_defended", "KING_DANGER": "king_danger",
               "ROOK_OPEN_FILE": "rook_open"}
