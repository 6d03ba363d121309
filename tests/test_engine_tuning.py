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


def test_the_square_corrections_are_added_on_their_board_only() -> None:
    """engine/data/pst_squares.json corrects the orthodox kinds' tables square by square on
    8x8; 9x9 (MRC) keeps the shapes alone, so its evaluation is not moved by an 8x8 fit."""
    from randomchess.engine.evaluate import PST_SHAPE, _pst, pst_basis, square_tables
    from randomchess.geometry import Geometry
    from randomchess.pieces import KNIGHT, PAWN

    tables = square_tables()
    assert set(tables) <= {(8, 8)}
    corrections = tables.get((8, 8), {})
    for size in ((8, 8), (9, 9)):
        g = Geometry(*size)
        for kind in (PAWN, KNIGHT):
            for sq in range(g.size):
                shape = [sum(w * b for w, b in zip(PST_SHAPE[kind][j], pst_basis(g, sq),
                                                   strict=True)) for j in (0, 1)]
                if size == (8, 8) and kind in corrections:
                    shape = [shape[j] + corrections[kind][j][sq] for j in (0, 1)]
                assert _pst(g, kind, sq) == (round(shape[0]), round(shape[1]))


def test_the_square_features_count_each_piece_on_its_own_square() -> None:
    """A White knight on f3 and a Black knight on f6 are the same relative square: they
    cancel in the square feature, and a lone extra knight counts +1 (White) or -1 (Black)."""
    from randomchess.pieces import KNIGHT

    pos = Position("4k3/8/5n2/8/8/5N2/8/4K3 w - - 0 1", "chess960")
    f, _ = features(pos)
    f3 = 2 * 8 + 5
    assert f[f"sq:{KNIGHT}:mg:{f3}"] == 0
    pos = Position("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", "chess960")
    f, _ = features(pos)
    # tapered: the phase of one knight of a full army's phase
    assert f[f"sq:{KNIGHT}:mg:{f3}"] > 0 and f[f"sq:{KNIGHT}:eg:{f3}"] > 0.9
    pos = Position("4k3/8/5n2/8/8/8/8/4K3 w - - 0 1", "chess960")
    f, _ = features(pos)
    assert f[f"sq:{KNIGHT}:mg:{f3}"] < 0 and f[f"sq:{KNIGHT}:eg:{f3}"] < -0.9
