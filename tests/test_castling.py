"""Castling by rook rights, all four physical methods (RULES.md §2.2, §2.3, §4.5, D-13, D-21,
D-27, D-28)."""

from __future__ import annotations

import pytest

from conftest import all_setups
from randomchess import Position, get_variant


def castles(pos: Position) -> list[str]:
    return sorted(pos.uci(m) for m in pos.legal_moves() if pos.is_castling(m))


def test_rook_shield_makes_castling_illegal() -> None:
    # §2.2: the b1 rook hides c1 from the black a1 rook; after O-O-O the king would stand in
    # check on c1.
    assert castles(Position("4k3/8/8/8/8/8/8/rR3K2 w B - 0 1", "chess960")) == []


def test_without_the_enemy_rook_the_same_castling_is_legal() -> None:
    pos = Position("4k3/8/8/8/8/8/8/1R3K2 w B - 0 1", "chess960")
    assert castles(pos) == ["f1b1"]
    pos.push_uci("f1b1")
    assert pos.fen().split()[0] == "4k3/8/8/8/8/8/8/2KR4"


def test_rook_only_castling() -> None:
    pos = Position("4k3/8/8/8/8/8/8/R1K5 w A - 0 1", "chess960")
    assert castles(pos) == ["c1a1"]
    pos.push_uci("c1a1")
    assert pos.fen().split()[:3] == ["4k3/8/8/8/8/8/8/2KR4", "b", "-"]


def test_rook_only_castling_not_while_in_check() -> None:
    assert castles(Position("2r1k3/8/8/8/8/8/8/R1K5 w A - 0 1", "chess960")) == []


def test_king_only_castling() -> None:
    pos = Position("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "chess960")
    assert castles(pos) == ["e1f1"]
    pos.push_uci("e1f1")
    assert pos.fen().split()[0] == "4k3/8/8/8/8/8/8/5RK1"


def test_castling_and_king_step_are_different_moves() -> None:
    # §2.2 pitfall / D-21: king on f1, rook on h1: Kg1 and O-O both exist and differ.
    pos = Position("4k3/8/8/8/8/8/8/5K1R w H - 0 1", "chess960")
    moves = {pos.uci(m) for m in pos.legal_moves()}
    assert {"f1g1", "f1h1"} <= moves
    step = pos.copy()
    step.push_uci("f1g1")
    assert step.fen().split()[0:3] == ["4k3/8/8/8/8/8/8/6KR", "b", "-"]
    pos.push_uci("f1h1")
    assert pos.fen().split()[0:3] == ["4k3/8/8/8/8/8/8/5RK1", "b", "-"]


def test_other_rook_blocks_castling() -> None:
    # Seed 000 §17: the player's other rook may not stand on the path.  The right belongs to
    # the b1 rook; the d1 rook stands on the king's path f1-e1-d1-c1.
    assert castles(Position("4k3/8/8/8/8/8/8/1R1R1K2 w B - 0 1", "chess960")) == []
    assert castles(Position("4k3/8/8/8/8/8/8/1R3K2 w B - 0 1", "chess960")) == ["f1b1"]


def test_king_may_not_cross_an_attacked_square() -> None:
    pos = Position("3rk3/8/8/8/8/8/8/R3K3 w A - 0 1", "chess960")  # d1 attacked
    assert castles(pos) == []
    pos = Position("4k3/8/8/8/8/8/8/R3K2r w A - 0 1", "chess960")  # in check
    assert castles(pos) == []


def test_attacked_rook_may_castle_unless_king_jumps_it() -> None:
    # D-13: the rook itself may be attacked...
    pos = Position("r3k3/8/8/8/8/8/8/R3K3 w A - 0 1", "chess960")
    assert castles(pos) == ["e1a1"]
    # ...but not when the king jumps over it (the rook square is on the king's path).
    pos = Position("4k3/8/8/8/8/8/6r1/4K1R1 w G - 0 1", "chess960")
    assert castles(pos) == []


def test_castling_right_belongs_to_the_original_rook() -> None:
    # D-28: White Kb1, rooks e1 and g1; the right belongs to the e1 rook.  X-FEN and
    # Shredder both write E (§2.5).
    pos = Position("7k/8/8/8/8/8/8/1K2R1R1 w E - 0 1", "chess960")
    assert pos.fen().split()[2] == "E"
    assert pos.fen(shredder=True).split()[2] == "E"
    assert castles(pos) == []  # the g1 rook stands on the king's destination
    # If the right belonged to the g1 rook, X-FEN writes K and Shredder G.
    other = Position("7k/8/8/8/8/8/8/1K2R1R1 w K - 0 1", "chess960")
    assert other.fen().split()[2] == "K" and other.fen(shredder=True).split()[2] == "G"


def test_rights_lost_by_king_move_rook_move_and_capture() -> None:
    pos = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "chess960")
    pos.push_uci("a1a8")  # rook leaves a1 and captures on a8: both a-side rights go
    assert pos.fen().split()[2] == "Kk"
    pos.push_uci("e8e7")  # the king moves: all of Black's rights go
    assert pos.fen().split()[2] == "K"
    pos.push_uci("h1h2")
    assert pos.fen().split()[2] == "-"
    pos.push_uci("e7e6")
    pos.push_uci("h2h1")  # a rook back on h1 has no right (§2.3)
    assert pos.fen().split()[2] == "-"


def test_sp3_and_sp74_castle_on_move_one() -> None:
    # §2.2 examples: SP 3 BQNNRKRB, O-O swaps f1/g1; SP 74 NNRKBBQR, O-O-O swaps d1/c1.
    v = get_variant("chess960")
    sp3 = Position(v.setup_fen("BQNNRKRB"), v)
    assert castles(sp3) == ["f1g1"]
    sp3.push_uci("f1g1")
    assert sp3.fen().split()[0].endswith("BQNNRRKB")
    sp74 = Position(v.setup_fen("NNRKBBQR"), v)
    assert castles(sp74) == ["d1c1"]
    sp74.push_uci("d1c1")
    assert sp74.fen().split()[0].endswith("NNKRBBQR")




@pytest.mark.parametrize(
    ("key", "total", "a_side", "far_side"),
    [("chess960", 960, 72, 90), ("mrc", 15120, 900, 900)],
)
def test_setups_where_castling_is_legal_on_move_one(
    key: str, total: int, a_side: int, far_side: int
) -> None:
    # §2.2: 162 of 960 (72 O-O-O + 90 O-O); §4.3: 1,800 of 15,120 (900 + 900).
    v = get_variant(key)
    setups = all_setups(key)
    assert len(setups) == total
    counts = [0, 0]
    with_any = 0
    for rank in setups:
        pos = Position(v.setup_fen(rank, adjustment=False), v)
        moves = [m for m in pos.legal_moves() if pos.is_castling(m)]
        with_any += bool(moves)
        for m in moves:
            counts[m.to_square > m.from_square] += 1
    assert counts == [a_side, far_side]
    assert with_any == a_side + far_side


def test_mrc_transposition_castling_example() -> None:
    # §4.5: from White BNBRNKRQM, f1g1 is g-castling by transposition and gives BNBRNRKQM.
    v = get_variant("mrc")
    pos = Position(v.setup_fen("BNBRNKRQM"), v)
    assert pos.fen().split()[0].startswith("mqrknrbnb/")
    pos.push_uci("f1g1")
    assert pos.fen().split()[0].endswith("/BNBRNRKQM")
    # White's rights are gone; Black keeps its rooks (c9, f9: the array point-reflected).
    assert pos.fen().split()[2] == "fc"


def test_mrc_king_jumps_over_to_the_centre() -> None:
    # §4.5: a king on b1 with its rook on a1 c-castles to Kc1 and Rd1.
    pos = Position("4k4/9/9/9/9/9/9/9/RK7 w A - 0 1", "mrc")
    assert castles(pos) == ["b1a1"]
    pos.push_uci("b1a1")
    assert pos.fen().split()[0].endswith("/2KR5")


def test_mrc_black_castles_onto_the_same_files() -> None:
    # D-27: Black's castling files are c and g, as White's.
    pos = Position("r3k3r/9/9/9/9/9/9/9/4K4 b ai - 0 1", "mrc")
    assert castles(pos) == ["e9a9", "e9i9"]
    short = pos.copy()
    short.push_uci("e9i9")
    assert short.fen().split()[0].startswith("r4rk2/")
    pos.push_uci("e9a9")
    assert pos.fen().split()[0].startswith("2kr4r/")


def test_classical_chess_reads_and_writes_e1g1() -> None:
    pos = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "chess")
    move = pos.parse_uci("e1g1")
    assert pos.is_castling(move)
    assert pos.parse_uci("e1h1") == move  # king-takes-rook accepted too (Ceres #15, §2.6)
    assert pos.uci(move) == "e1g1"
    assert pos.uci(move, chess960=True) == "e1h1"
    c960 = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "chess960")
    assert c960.uci(c960.parse_uci("e1h1")) == "e1h1"
