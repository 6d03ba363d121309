"""The position is the one validation gate (shakmaty's Setup -> Position): a FEN, a Setup
built by hand and a setup number all pass the same checks, so no invalid input can give a
position whose moves or FEN then fail (issue 13, item 3)."""

from __future__ import annotations

import pytest

from randomchess import FenError, Position, get_variant
from randomchess.fen import Setup, parse_fen


def _setup(fen: str, variant: str = "chess") -> Setup:
    return parse_fen(fen, get_variant(variant))


def test_from_setup_rejects_a_castling_right_without_a_rook() -> None:
    # White's right names h1, where no rook stands: parse_fen refuses this text, and a Setup
    # built by hand with the same content must be refused by the position too.
    s = _setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    s.castling_rooks = {7}
    with pytest.raises(FenError, match="castling"):
        Position.from_setup(s)
