"""Endgame knowledge (issue 16.7): drawish material is scaled down, a bare king is driven
to the edge (to the bishop's corner in KBNK), and the Prime Minister mates alone on 9x9."""

from __future__ import annotations

import pytest

from randomchess.engine import endgame
from randomchess.engine.evaluate import evaluate
from randomchess.engine.search import Limits, Searcher
from randomchess.position import Position


def _both(fen: str, variant: str = "chess") -> tuple[int, int]:
    pos = Position(fen, variant)
    raw = evaluate(pos)
    return raw, endgame.adjust(pos, raw)


def test_rook_against_minor_and_lone_minors_are_scaled_towards_a_draw() -> None:
    raw, adjusted = _both("8/8/3k4/8/3b4/8/3RK3/8 w - - 0 1")  # KRKB
    assert raw > 100 and 0 < adjusted <= raw // 3
    raw, adjusted = _both("8/8/3k4/4p3/8/3N4/4K3/8 w - - 0 1")  # KN v KP: the knight cannot win
    assert abs(adjusted) <= abs(raw) // 4
    raw, adjusted = _both("8/8/3k4/8/8/3NN3/4K3/8 w - - 0 1")  # two knights
    assert abs(adjusted) <= abs(raw) // 3
    # Enough to win is left alone (KQKR keeps its edge, a rook ahead is a rook ahead).
    raw, adjusted = _both("8/8/3k4/3r4/8/3Q4/4K3/8 w - - 0 1")
    assert adjusted == raw
    raw, adjusted = _both("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert adjusted == raw  # the middlegame pays nothing


def test_kbnk_drives_the_king_to_the_bishops_corner() -> None:
    # Dark-squared bishop (c1): a1 and h8 are the mating corners, a8 and h1 are not.
    right = endgame.adjust(Position("7k/8/8/3K4/8/8/8/2BN4 w - - 0 1", "chess"), 500)
    wrong = endgame.adjust(Position("k7/8/8/3K4/8/8/8/2BN4 w - - 0 1", "chess"), 500)
    centre = endgame.adjust(Position("8/8/8/1K6/4k3/8/8/2BN4 w - - 0 1", "chess"), 500)
    assert right > wrong > centre > 500


def _self_play_mates(fen: str, variant: str, nodes: int, max_plies: int) -> int | None:
    pos = Position(fen, variant)
    searcher = Searcher(seed=1)
    keys: list[int] = []
    for ply in range(max_plies):
        if not pos.legal_moves():
            return ply if pos.is_check() else None
        result = searcher.search(pos, Limits(nodes=nodes), game_keys=keys)
        assert result.move is not None
        keys.append(pos.zobrist)
        pos.push(result.move)
    return None


def test_minister_and_king_mate_a_bare_king_on_9x9() -> None:
    # Without the mop-up terms the engine shuffled for 120 plies (measured).
    plies = _self_play_mates("9/9/9/4k4/9/9/9/9/3MK4 w - - 0 1", "mrc", 4000, 80)
    assert plies is not None and plies % 2 == 1  # White gave the mate


def test_queen_mates_quickly() -> None:
    plies = _self_play_mates("8/8/3k4/8/8/8/8/3QK3 b - - 0 1", "chess", 3000, 60)
    assert plies is not None and plies % 2 == 0


@pytest.mark.parametrize("fen", [
    "k7/8/8/8/8/8/8/2BNK3 w - - 0 1",  # the lone king starts in a wrong corner
    "8/8/8/8/8/5k2/8/K1N1B3 w - - 0 1",
])
def test_bishop_and_knight_mate_a_bare_king(fen: str) -> None:
    # With the general mop-up weights neither mated within 120 plies (measured).
    plies = _self_play_mates(fen, "chess", 4000, 120)
    assert plies is not None and plies % 2 == 1
