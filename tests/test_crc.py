"""Contemporary Random Chess (8x8, RULES.md §5, D-17, D-18): its 1,680 arrays and their
CRC-Id, castling onto b/c and g/f, perft against Fairy-Stockfish (tests/data/variants.ini)
and the Bishop Adjustment with its partners N, Q, R and K."""

from __future__ import annotations

import random

import pytest

from conftest import all_setups
from fsf_support import fsf_perft, random_walks
from randomchess import Position, get_variant, parse_san, push_san, san
from randomchess.startpos import (
    CRC_SETUPS,
    SetupPool,
    setup_from_fen,
    setup_from_number,
    setup_from_rank,
)

CRC = get_variant("crc")
# The standard array, CRC-Id 0, and a fixed sample of the others (same- and opposite-coloured
# bishops alike).
SAMPLE = sorted({911, 0, *random.Random(35).sample(range(CRC_SETUPS), 10)})


def start(number: int) -> Position:
    # Fairy-Stockfish knows no Bishop Adjustment: compare the arrays without the right.
    return Position(CRC.setup_fen(setup_from_number(CRC, number).rank, adjustment=False), CRC)


def test_arrays_and_their_numbers() -> None:
    arrays = all_setups("crc")
    assert len(arrays) == CRC_SETUPS == 1680  # D-17
    assert sorted(setup_from_number(CRC, n).rank for n in range(CRC_SETUPS)) == arrays
    assert all(setup_from_rank(CRC, r).rank == r for r in arrays[::37])
    assert setup_from_rank(CRC, "RNBQKBNR").number == 911
    assert setup_from_number(CRC, 0).rank == "BBQNNRKR"
    assert len(SetupPool(CRC, "same")) == sum(CRC.bishops_same_colour(r) for r in arrays) == 720
    assert SetupPool(CRC, exclude_standard=True).excluded == (911,)


def test_reverse_symmetry_and_the_start_fen() -> None:
    fen = CRC.setup_fen("RBKNQBNR")
    assert fen == "rnbqnkbr/pppppppp/8/8/8/8/PPPPPPPP/RBKNQBNR w KQkq - 0 1 ABCDEFGHabcdefgh"
    assert setup_from_fen(fen, "crc").rank == "RBKNQBNR"
    assert setup_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").variant \
        .key == "chess960"  # an untagged 8x8 start is still read as Chess960


@pytest.mark.parametrize("number", SAMPLE)
def test_start_perft_depth4_matches_fairy_stockfish(number: int) -> None:
    pos = start(number)
    assert [pos.perft(4)] == fsf_perft("crc", [pos.fen(shredder=True)], 4)


def test_random_positions_perft_depth3_matches_fairy_stockfish() -> None:
    positions = random_walks(start, CRC_SETUPS, 12, (4, 30), seed=1680)
    fens = [p.fen(shredder=True) for p in positions]
    assert [p.perft(3) for p in positions] == fsf_perft("crc", fens, 3), fens


def test_castling_onto_b_c_and_g_f() -> None:
    pos = Position("r2k3r/8/8/8/8/8/8/R1K4R w KQkq - 0 1", CRC)
    a_side, h_side = pos.copy(), pos.copy()
    assert san(a_side, a_side.parse_uci("c1a1")) == "O-Ob"
    assert san(a_side, a_side.parse_uci("c1h1"), "es") == "O-Og"
    push_san(a_side, "O-Ob")
    push_san(h_side, "O-Og")
    assert a_side.fen().split()[0] == "r2k3r/8/8/8/8/8/8/1KR4R"
    assert h_side.fen().split()[0] == "r2k3r/8/8/8/8/8/8/R4RK1"
    # The generic forms are read too (as for MRC), each meaning its side.
    assert parse_san(pos, "O-O") == pos.parse_uci("c1h1")
    assert parse_san(pos, "O-O-O") == pos.parse_uci("c1a1")
    # The king already on b: castling moves only the rook (a1 to c1).
    pos = Position("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", CRC)
    push_san(pos, "O-Ob")
    assert pos.fen().split()[0] == "rk5r/8/8/8/8/8/8/1KR4R"


# --- the Bishop Adjustment (partners N, Q, R, K; RULES.md §3) -------------------------------


def adjustments(pos: Position) -> list[str]:
    return sorted(pos.uci(m) for m in pos.legal_moves() if pos.is_adjustment(m))


def test_partners_and_arrays_with_the_right() -> None:
    pos = Position(CRC.setup_fen("RBKNQBNR"), CRC)  # bishops b1 and f1, both light
    assert adjustments(pos) == ["b1a1", "b1c1", "f1e1", "f1g1"]  # R, K, Q, N
    assert adjustments(Position(CRC.setup_fen("RNBQKBNR"), CRC)) == []  # opposite colours
    pos.push_uci("b1c1")  # the king swap loses castling (BAR-9)
    assert pos.fen() == "rnbqnkbr/pppppppp/8/8/8/8/PPPPPPPP/RKBNQBNR b kq - 1 1 abcdefgh"
    assert adjustments(pos) == ["c8b8", "c8d8", "g8f8", "g8h8"]  # N, Q, K, R


def test_perft2_with_the_adjustment_equals_the_oracle_plus_hand_counted_swaps() -> None:
    # White RBKNQBNR, Black its half-turn: 4 adjustments each (above).  No move of White's
    # first turn gives check, so Black keeps its 4 after each.  Depth 2 = Fairy-
    # Stockfish's depth 2 of the array + 4 x 20 ordinary White moves + for each of White's
    # 4 adjustments, Black's ordinary replies (Fairy-Stockfish, from the swapped array with
    # the castling rights left) and Black's 4.
    pos = Position(CRC.setup_fen("RBKNQBNR"), CRC)
    plain = Position(CRC.setup_fen("RBKNQBNR", adjustment=False), CRC)
    [ordinary2] = fsf_perft("crc", [plain.fen(shredder=True)], 2)
    children = []
    for text in adjustments(pos):
        child = pos.copy()
        child.push_uci(text)
        children.append(" ".join(child.fen(shredder=True).split()[:6]))
    replies = fsf_perft("crc", children, 1)
    n1 = plain.perft(1)
    assert pos.perft(1) == n1 + 4
    assert pos.perft(2) == ordinary2 + 4 * n1 + sum(replies) + 4 * 4
