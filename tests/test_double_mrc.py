"""Double Modern Random Chess (issue 35), the MRC twin of Double Fischer Random: each side its
own MRC array, 15,120 x 15,120 setups numbered by a pair of MRC-Ids (Black's read from
Black's side, so ``8226/8226`` is Modern Chess), the Bishop Adjustment for each side whose
own bishops share a colour (BAR-1); perft against Fairy-Stockfish's ``modern`` (which reads
any 9x9 FEN with Chess960 castling and knows no adjustment)."""

from __future__ import annotations

import random

import pytest

from fsf_support import fsf_perft, random_walks
from randomchess import Position, get_variant
from randomchess.pgn import parse_game, write_game
from randomchess.startpos import (
    DOUBLE_MRC_SETUPS,
    MAURA_NUMBER,
    MRC_SETUPS,
    SetupNumberError,
    SetupPool,
    draw_seeded,
    mrc_number,
    setup_from_fen,
    setup_from_label,
    setup_from_number,
    setup_from_rank,
)

DMRC = get_variant("double-mrc")
MRC = get_variant("mrc")
SAMPLE = sorted({MAURA_NUMBER * MRC_SETUPS + MAURA_NUMBER, 0, DOUBLE_MRC_SETUPS - 1,
                 *random.Random(15120).sample(range(DOUBLE_MRC_SETUPS), 5)})


def start(number: int) -> Position:
    # Fairy-Stockfish knows no Bishop Adjustment: compare the arrays without the right.
    rank = setup_from_number(DMRC, number).rank
    return Position(DMRC.setup_fen(rank, adjustment=False), DMRC)


def test_numbers_are_a_pair_of_mrc_ids_read_from_each_side() -> None:
    maura = setup_from_label(DMRC, "8226/8226")
    assert maura.number == MAURA_NUMBER * MRC_SETUPS + MAURA_NUMBER
    assert maura.rank == "RNBMKQBNR/RNBQKMBNR"  # Black's a-file first: Maura's, half-turned
    assert maura.rank == DMRC.startpos_rank
    # N/N is MRC setup N, the Bishop Adjustment field included.
    for n in (MAURA_NUMBER, 0, 4321, MRC_SETUPS - 1):
        setup = setup_from_label(DMRC, f"{n}/{n}")
        assert setup.fen == setup_from_number(MRC, n).fen
        assert setup.label == f"{n}/{n}"
    s = setup_from_label(DMRC, "8226/123")
    white, black = s.rank.split("/")
    assert white == "RNBMKQBNR" and mrc_number(black[::-1]) == 123
    assert setup_from_fen(s.fen, DMRC).label == "8226/123"
    assert setup_from_rank(DMRC, s.rank).number == s.number
    assert setup_from_number(DMRC, DOUBLE_MRC_SETUPS - 1).label == "15119/15119"
    for bad in ("8226", "15120/1", "1/-1", "8226/1/2"):
        with pytest.raises(SetupNumberError):
            setup_from_label(DMRC, bad)
    with pytest.raises(SetupNumberError, match="two MRC numbers"):
        setup_from_label(DMRC, "8226")


def test_the_shuffler_draws_from_228_million_without_listing_them() -> None:
    pool = SetupPool(DMRC, exclude_standard=True)
    assert len(pool) == DOUBLE_MRC_SETUPS - 1 == 228_614_399
    standard = MAURA_NUMBER * MRC_SETUPS + MAURA_NUMBER
    assert pool.excluded == (standard,) and standard not in pool and standard + 1 in pool
    assert pool.setup(standard).number == standard + 1  # the indexes step over it
    assert pool.setup(standard - 1).number == standard - 1
    drawn = draw_seeded(pool, "issue 35", 3)
    assert [s.number for s in drawn] == [s.number for s in draw_seeded(pool, "issue 35", 3)]
    assert all(DMRC.is_setup(s.rank) for s in drawn)
    # The lazy list answers as the listed one did (Chess960: 959 numbers, 518 left out).
    listed = SetupPool("chess960", exclude_standard=True).numbers
    assert list(listed) == [n for n in range(960) if n != 518] and listed[518] == 519
    assert listed == tuple(n for n in range(960) if n != 518)


def test_each_side_has_the_adjustment_of_its_own_bishops() -> None:
    split = setup_from_number(MRC, 0).rank  # BB on a and b: opposite colours
    assert not MRC.bishops_same_colour(split)
    light = next(setup_from_number(MRC, n).rank for n in range(36)
                 if MRC.bishops_same_colour(setup_from_number(MRC, n).rank))
    # White's bishops share a colour, Black's do not: only White may adjust.
    fen = DMRC.setup_fen(f"{light}/{split[::-1]}")
    assert fen.split()[6] == "ABCDEFGHI"
    pos = Position(fen, DMRC)
    assert any(pos.is_adjustment(m) for m in pos.legal_moves())
    pos.push_uci("e2e4")
    assert not any(pos.is_adjustment(m) for m in pos.legal_moves())
    # And the other way round.
    fen = DMRC.setup_fen(f"{split}/{light[::-1]}")
    assert fen.split()[6] == "abcdefghi"
    pos = Position(fen, DMRC)
    assert not any(pos.is_adjustment(m) for m in pos.legal_moves())
    # Neither: no seventh field.
    assert len(DMRC.setup_fen(f"{split}/{split[::-1]}").split()) == 6


@pytest.mark.parametrize("number", SAMPLE)
def test_start_perft_depth4_matches_fairy_stockfish(number: int) -> None:
    pos = start(number)
    assert [pos.perft(4)] == fsf_perft("modern", [pos.fen()], 4)


def test_random_positions_perft_depth3_matches_fairy_stockfish() -> None:
    positions = random_walks(start, DOUBLE_MRC_SETUPS, 10, (4, 30), seed=35)
    fens = [p.fen() for p in positions]
    assert [p.perft(3) for p in positions] == fsf_perft("modern", fens, 3), fens


def test_perft2_with_one_sides_adjustment_adds_the_hand_counted_swaps() -> None:
    # White's bishops on c1 and e1 (both dark), Black's on a9/b9 (opposite): White has the
    # adjustments of c1 and e1 with their MRC partners, Black none.
    white = next(setup_from_number(MRC, n).rank for n in range(MRC_SETUPS)
                 if setup_from_number(MRC, n).rank.startswith("RNBKB"))
    black = setup_from_number(MRC, 0).rank[::-1]
    pos = Position(DMRC.setup_fen(f"{white}/{black}"), DMRC)
    plain = Position(DMRC.setup_fen(f"{white}/{black}", adjustment=False), DMRC)
    swaps = sorted(pos.uci(m) for m in pos.legal_moves() if pos.is_adjustment(m))
    assert {m[:2] for m in swaps} == {"c1", "e1"}  # White's bishops; Black has none
    children = []
    for text in swaps:
        child = pos.copy()
        child.push_uci(text)
        children.append(" ".join(child.fen().split()[:6]))
    [ordinary2] = fsf_perft("modern", [plain.fen()], 2)
    assert pos.perft(2) == ordinary2 + sum(fsf_perft("modern", children, 1))


def test_pgn_names_the_variant_and_keeps_both_arrays() -> None:
    s = setup_from_label(DMRC, "100/200")
    text = (f'[Variant "Double Modern Random Chess"]\n[FEN "{s.fen}"]\n[SetUp "1"]\n\n'
            "1. e4 e6 *\n")
    game = parse_game(text)
    assert game.variant.key == "double-mrc"
    again = parse_game(write_game(game, lang="es"))
    assert again.variant.key == "double-mrc" and again.start_fen == s.fen
    assert again.end_position().fen() == game.end_position().fen()
    assert "1. e4 e6" in write_game(game, lang="es")
