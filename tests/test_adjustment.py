"""The Bishop Adjustment Rule, BAR-1 .. BAR-10 and decisions D-1 .. D-12 (RULES.md §3, §4.6)."""

from __future__ import annotations

import pytest

from randomchess import Position, get_variant

MAURA = "RNBMKQBNR"
# RULES.md §4.10: White R B K N Q B N M R, both bishops light; rook and king partners.
ROOK_KING_EXAMPLE = "rmnbqnkbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RBKNQBNMR w AIai - 0 1"


def adjustments(pos: Position) -> list[str]:
    return sorted(pos.uci(m) for m in pos.legal_moves() if pos.is_adjustment(m))


def maura(rule: bool) -> Position:
    v = get_variant("modern")
    return Position(v.setup_fen(MAURA, adjustment=rule), v)


def test_maura_array_perft_without_the_rule() -> None:
    # §3: 24 / 576 / 15831 (Fairy-Stockfish, cutechess).
    pos = maura(False)
    assert [pos.perft(d) for d in (1, 2, 3)] == [24, 576, 15831]


def test_maura_array_perft_with_the_rule() -> None:
    # §3: 28 / 784 / 23679 with the bishop rule, never while in check (D-1).
    pos = maura(True)
    assert pos.fen().endswith(" ABCDEFGHIabcdefghi")
    assert adjustments(pos) == ["c1b1", "c1d1", "g1f1", "g1h1"]  # partners N, M, Q, N only
    assert [pos.perft(d) for d in (1, 2, 3)] == [28, 784, 23679]


@pytest.mark.slow
def test_maura_array_perft_depth4() -> None:
    assert maura(False).perft(4) == 433729
    assert maura(True).perft(4) == 713549  # not 713609: 60 BARs out of check (D-1)


def test_rook_and_king_partners() -> None:
    # §4.10 example: b1<->a1 (rook), b1<->c1 (king), f1<->e1 (queen), f1<->g1 (knight).
    pos = Position(ROOK_KING_EXAMPLE + " ABCDEFGHIabcdefghi", "mrc")
    assert adjustments(pos) == ["b1a1", "b1c1", "f1e1", "f1g1"]
    assert [pos.perft(d) for d in (1, 2, 3)] == [28, 784, 23838]


@pytest.mark.slow
def test_rook_and_king_partners_depth4() -> None:
    assert Position(ROOK_KING_EXAMPLE + " ABCDEFGHIabcdefghi", "mrc").perft(4) == 723445


def test_fen_without_the_field_means_no_right() -> None:
    # §4.9: FENs from Fairy-Stockfish and other tools mean exactly what they say.
    pos = Position(ROOK_KING_EXAMPLE, "mrc")
    assert adjustments(pos) == []
    assert pos.perft(1) == 24


def test_bar1_only_arrays_with_same_coloured_bishops_have_the_right() -> None:
    mrc = get_variant("mrc")
    assert mrc.setup_fen("RBKNQBNMR").endswith(" ABCDEFGHIabcdefghi")
    opposite = mrc.setup_fen("RBBKQNNMR")
    assert len(opposite.split()) == 6
    with pytest.raises(ValueError, match="no bishop adjustment"):
        mrc.setup_fen("RBBKQNNMR", adjustment=True)
    # Maura's array uses it only by agreement (§3).
    assert len(get_variant("modern").start_fen.split()) == 6


def test_modern_partners_are_knight_queen_minister_only() -> None:
    fen = "4k4/9/9/9/9/9/9/9/RB2K4 w - - 0 1 ABE"
    assert adjustments(Position(fen, "modern")) == []
    assert adjustments(Position(fen, "mrc")) == ["b1a1"]


def test_bar4_adjacent_means_same_rank_and_a_corner_bishop_has_one_candidate() -> None:
    # D-4: the knight on b2 (diagonal) and the one on a2 (in front) are not adjacent.
    pos = Position("4k4/9/9/9/9/9/9/NN7/B1N1K4 w - - 0 1 ACE", "mrc")
    assert adjustments(pos) == []
    pos = Position("4k4/9/9/9/9/9/9/9/BN2K4 w - - 0 1 ABE", "mrc")
    assert adjustments(pos) == ["a1b1"]


def test_bar5_both_pieces_unmoved() -> None:
    # D-6: a knight that went out and came back has moved.
    pos = Position("4k4/9/9/9/9/9/9/9/1BN1K4 b - - 0 1 BCEe", "mrc")
    start = pos.key()
    assert adjustments(Position("4k4/9/9/9/9/9/9/9/1BN1K4 w - - 0 1 BCEe", "mrc")) == ["b1c1"]
    pos.push_uci("e9e8")
    pos.push_uci("c1d3")
    pos.push_uci("e8e9")
    pos.push_uci("d3c1")
    assert pos.board == Position("4k4/9/9/9/9/9/9/9/1BN1K4 b - - 0 1", "mrc").board
    assert adjustments(pos) == []
    assert pos.fen().endswith(" BE")  # black's e9 king moved too: only White's right lives
    # D-10: the same placement is a different position for repetition.
    pos.push_uci("e9e8")
    pos.pop()
    assert pos.key() != start


def test_bar7_no_adjustment_while_in_check() -> None:
    # D-1: the queen on c5 checks the king on c1; neither swap may answer it.
    in_check = Position("4k4/9/9/9/2q6/9/9/9/RBK6 w - - 0 1 ABC", "mrc")
    assert in_check.is_check()
    assert adjustments(in_check) == []
    quiet = Position("4k4/9/9/9/3q5/9/9/9/RBK6 w - - 0 1 ABC", "mrc")
    assert adjustments(quiet) == ["b1a1", "b1c1"]


def test_bar8_king_swap_onto_an_attacked_square_is_illegal() -> None:
    # D-2: the rook on b5 attacks b1; the king may not swap onto it; the rook swap is fine.
    pos = Position("4k4/9/9/9/1r7/9/9/9/RBK6 w - - 0 1 ABC", "mrc")
    assert adjustments(pos) == ["b1a1"]


def test_bar8_adjustment_may_give_check() -> None:
    # D-3: the swap puts the queen on the open e-file.
    pos = Position("4k4/9/9/9/9/9/9/9/K3BQ3 w - - 0 1 AEF", "mrc")
    move = pos.parse_uci("e1f1")
    assert pos.is_adjustment(move)
    assert pos.gives_check(move)


def test_bar6_once_per_game_and_bar10_bookkeeping() -> None:
    # D-5 once; D-9 the clock goes up, not to zero; BAR-10 turn passes, e.p. lapses.
    pos = Position("4k4/ppp6/9/3P5/9/9/9/9/RBKNB4 b - - 7 20 ABCDEe", "mrc")
    pos.push_uci("c8c6")
    assert pos.ep_square is not None
    pos.push_uci("b1c1")  # white adjusts with the king
    assert pos.ep_square is None
    assert pos.halfmove_clock == 1  # reset by the pawn move, then +1 for the adjustment
    assert pos.fullmove_number == 21
    assert adjustments(pos) == []
    assert pos.fen().split()[6] == "e"  # White's right is gone, Black's lives
    pos.push_uci("e9d9")
    assert adjustments(pos) == []  # the d1 bishop and its e1 partner are unmoved, but D-5


def test_bar9_rook_swap_loses_that_rooks_castling_only() -> None:
    pos = Position("r3k3r/9/9/9/9/9/9/9/RB2K3R w AIai - 0 1 ABEIaei", "mrc")
    pos.push_uci("b1a1")
    assert pos.fen().split()[2] == "Iia"


def test_bar9_king_swap_loses_all_castling_and_is_a_bishop_move() -> None:
    # D-12: the king swap is not castling and removes every castling right.
    pos = Position("r3k3r/9/9/9/9/9/9/9/R2BK3R w AIai - 0 1 ADEIaei", "mrc")
    move = pos.parse_uci("d1e1")
    assert pos.is_adjustment(move) and not pos.is_castling(move)
    pos.push(move)
    assert pos.kings[0] == pos.geometry.parse_square("d1")
    assert pos.fen().split()[2] == "ia"


def test_d7_right_survives_castling() -> None:
    pos = Position("4k4/9/9/9/9/9/9/9/R3K2NB w A - 0 1 AEHI", "mrc")
    pos.push_uci("e1a1")  # c-castling
    pos.push_uci("e9e8")
    assert adjustments(pos) == ["i1h1"]


def test_adjustment_unmake_restores_everything() -> None:
    pos = Position(ROOK_KING_EXAMPLE + " ABCDEFGHIabcdefghi", "mrc")
    before = (pos.fen(), pos.key())
    for move in [m for m in pos.legal_moves() if pos.is_adjustment(m)]:
        pos.push(move)
        pos.pop()
        assert (pos.fen(), pos.key()) == before
