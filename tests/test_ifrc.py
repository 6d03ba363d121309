"""International Fischer Random Chess (10x10, issue 35): Chess960's arrays on the 2nd rank
inside empty edge files and ranks, pawns on the 3rd; castling onto Chess960's squares
shifted one file (docs/rules.md); perft against Fairy-Stockfish (tests/data/variants.ini)."""

from __future__ import annotations

import random

import pytest

from fsf_support import fsf_perft, random_walks
from randomchess import Position, get_variant, push_san, san
from randomchess.startpos import CHESS960_SETUPS, setup_from_fen, setup_from_number

IFRC = get_variant("ifrc")
SAMPLE = sorted({518, 0, *random.Random(10).sample(range(CHESS960_SETUPS), 4)})


def start(number: int) -> Position:
    return Position(setup_from_number(IFRC, number).fen, IFRC)


def test_arrays_numbers_and_start_fen() -> None:
    assert len(list(IFRC.setups())) == 960
    s = setup_from_number(IFRC, 518)
    assert s.fen == "10/1rnbqkbnr1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1RNBQKBNR1/10 w KQkq - 0 1"
    assert setup_from_fen(s.fen).variant is IFRC  # the only numbered 10x10 board
    assert s.castling() == {"O-O": "Kh2 Rg2", "O-O-O": "Kd2 Re2"}
    assert start(518).perft(1) == 40  # 8 pawns x 2, 5 squares for each knight, 6 ... bishops


@pytest.mark.parametrize("number", SAMPLE)
def test_start_perft_depth3_matches_fairy_stockfish(number: int) -> None:
    pos = start(number)
    assert [pos.perft(3)] == fsf_perft("ifrc", [pos.fen(shredder=True)], 3)


@pytest.mark.slow
@pytest.mark.parametrize("number", SAMPLE[:3])
def test_start_perft_depth4_matches_fairy_stockfish(number: int) -> None:
    pos = start(number)
    assert [pos.perft(4)] == fsf_perft("ifrc", [pos.fen(shredder=True)], 4)


def test_random_positions_match_fairy_stockfish() -> None:
    positions = random_walks(start, CHESS960_SETUPS, 10, (6, 60), seed=100)
    fens = [p.fen(shredder=True) for p in positions]
    assert [p.perft(2) for p in positions] == fsf_perft("ifrc", fens, 2), fens


def test_castling_on_the_second_rank_onto_shifted_squares() -> None:
    pos = Position("10/1r3k2r1/10/10/10/10/10/10/1R3K2R1/10 w KQkq - 0 1", IFRC)
    a_side, h_side = pos.copy(), pos.copy()
    assert san(a_side, a_side.parse_uci("f2b2")) == "O-O-O"
    push_san(a_side, "O-O-O")
    push_san(h_side, "O-O")
    assert a_side.fen().split()[0].split("/")[-2] == "3KR3R1"  # king d2, rook e2
    assert h_side.fen().split()[0].split("/")[-2] == "1R4RK2"  # king h2, rook g2


def test_pawns_step_two_from_the_third_rank_and_promote_on_the_last() -> None:
    pos = start(518)
    pos.push_uci("e3e5")
    assert pos.fen().split()[3] == "-"  # no black pawn beside it: no en passant square
    pos = Position("10/5k4/1p8/10/10/2P7/10/10/5K4/10 w - - 0 1", IFRC)
    pos.push_uci("c5c6")
    pos.push_uci("b8b6")  # a double step from Black's 3rd rank (the 8th)
    assert pos.fen().split()[3] == "b7"
    pos.push_uci("c6b7")  # en passant
    assert pos.fen().split()[0] == "10/5k4/10/1P8/10/10/10/10/5K4/10"
    pos = Position("10/5k4/1P8/10/10/10/10/10/5K4/10 w - - 0 1", IFRC)
    assert [pos.uci(m) for m in pos.legal_moves() if m.promotion] == []  # to the 9th: no
    pos.push_uci("b8b9")
    pos.push_uci("f9f8")
    assert sorted(pos.uci(m) for m in pos.legal_moves() if m.promotion) == [
        "b9b10b", "b9b10n", "b9b10q", "b9b10r"]
    pos.push_uci("b9b10q")
    assert pos.fen().split()[0].startswith("1Q8/")
