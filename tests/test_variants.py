"""Variants are data (RULES.md §5): the related members of the family run on the same move
generator, and their setups, symmetry and castling squares come from their entries alone.
Pseudo-MRC and Chess8400 are checked against pyffish ``modern`` (which reads any 9x9 FEN);
PMRC (9x8) against a pyffish variant defined from its rules in RULES.md §5."""

from __future__ import annotations

import pyffish
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import all_setups
from randomchess import Position, UnknownVariantError, get_variant

PMRC_CONFIG = """
[pmrc-check:chess]
maxRank = 8
maxFile = 9
archbishop = m
startFen = rnbqkmnbr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQKMNBR w KQkq - 0 1
promotionPieceTypes = qmrbn
castlingKingsideFile = h
castlingQueensideFile = b
"""




@pytest.mark.parametrize(
    ("key", "count"),
    [("chess960", 960), ("mrc", 15120), ("pseudo-mrc", 15120), ("chess8400", 8400),
     ("pmrc", 8400)],
)
def test_setup_counts(key: str, count: int) -> None:
    assert len(all_setups(key)) == count


def test_symmetry_and_geometry() -> None:
    rank = "RBKNQBNMR"
    assert get_variant("mrc").setup_fen(rank).split("/")[0] == "rmnbqnkbr"  # point reflection
    assert get_variant("pseudo-mrc").setup_fen(rank).split("/")[0] == "rbknqbnmr"  # direct
    pmrc = get_variant("pmrc")
    fen = pmrc.setup_fen("RNBQKMNBR")
    assert fen == "rnbqkmnbr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQKMNBR w IAia - 0 1"
    assert pmrc.geometry.size == 72 and pmrc.geometry.name(71) == "i8"
    assert Position(fen, pmrc).perft(1) == 24
    # a1 dark on every board: on 9x8 the right-hand corners differ in colour (RULES.md §5).
    g = pmrc.geometry
    assert g.is_dark(g.parse_square("a1")) and g.is_dark(g.parse_square("i1"))
    assert not g.is_dark(g.parse_square("a8"))


def test_pmrc_castles_to_b_and_h() -> None:
    pos = Position("r3k3r/9/9/9/9/9/9/R3K3R w IAia - 0 1", "pmrc")
    a_side, h_side = pos.copy(), pos.copy()
    a_side.push_uci("e1a1")
    h_side.push_uci("e1i1")
    assert a_side.fen().split()[0].endswith("/1KR5R")
    assert h_side.fen().split()[0].endswith("/R5RK1")


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match="unknown variant 'crazyhouse'"):
        get_variant("crazyhouse")
    assert get_variant("Fischer Random").key == "chess960"
    assert get_variant("Modern Random Chess").key == "mrc"


def _playout_against_pyffish(data: st.DataObject, key: str, oracle: str) -> None:
    v = get_variant(key)
    pos = Position(v.setup_fen(data.draw(st.sampled_from(all_setups(key)))), v)
    for _ in range(data.draw(st.integers(0, 50))):
        fen = " ".join(pos.fen(shredder=True).split()[:6])
        ours = sorted(pos.uci(m) for m in pos.legal_moves() if not pos.is_adjustment(m))
        assert ours == sorted(pyffish.legal_moves(oracle, fen, [], True)), fen
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(data.draw(st.sampled_from(moves)))


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_pseudo_mrc_and_chess8400_match_pyffish(data: st.DataObject) -> None:
    _playout_against_pyffish(data, data.draw(st.sampled_from(["pseudo-mrc", "chess8400"])),
                             "modern")


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_pmrc_matches_pyffish(data: st.DataObject) -> None:
    pyffish.load_variant_config(PMRC_CONFIG)
    _playout_against_pyffish(data, "pmrc", "pmrc-check")
