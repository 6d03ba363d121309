"""Static exchange evaluation and the transposition table's replacement (issue 16.1, 16.5)."""

from __future__ import annotations

import pytest

from randomchess.engine.search import Searcher, see
from randomchess.position import Position


@pytest.mark.parametrize(("fen", "move", "sign"), [
    ("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 1),  # a free pawn
    # The classic: NxP, then N, R, B, Q x-rayed behind the bishop: White loses the knight.
    ("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -1),
    ("4k3/8/2b5/3p4/4Q3/8/8/4K3 b - - 0 1", "d5e4", 1),  # pawn takes queen
    ("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", -1),  # doubled rooks each side
    ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 1),  # two rooks against one
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 1),  # en passant
])
def test_see_sign(fen: str, move: str, sign: int) -> None:
    pos = Position(fen, "chess")
    value = see(pos, pos.parse_uci(move))
    assert value * sign > 0, value
    assert pos.fen() == Position(fen, "chess").fen()  # nothing was changed


def test_see_knows_the_ministers_leap_on_9x9() -> None:
    # The black minister on f7 guards e5 with its knight leap: RxP loses the exchange.
    pos = Position("4k4/9/5m3/9/4p4/9/9/4R4/4K4 w - - 0 1", "mrc")
    assert see(pos, pos.parse_uci("e2e5")) < 0


def test_losing_captures_are_ordered_after_the_quiet_moves() -> None:
    pos = Position("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "chess")
    moves = pos.legal_moves()
    Searcher()._order(pos, moves, None, 1)
    # Three captures of a defended pawn lose material (SEE -230, -240, -390): they come
    # last, the smallest loss first.
    assert [pos.uci(m) for m in moves[-3:]] == ["d3e5", "g2b7", "e2e5"]
    assert all(not pos.is_capture(m) for m in moves[-10:-3])


def test_tt_keeps_the_deep_entry_and_is_never_cleared() -> None:
    s = Searcher(hash_mb=1)
    size = s.tt_capacity // 2
    s._store(7, 9, 0, 50, None, 0)  # deep
    s._store(7 + size, 2, 0, 10, None, 0)  # same slot, shallower: the always-replace table
    assert s.tt_probe(7) is not None and s.tt_probe(7)[1] == 9
    assert s.tt_probe(7 + size) is not None
    for k in range(10, 10 + 3 * s.tt_capacity):  # far more than fits
        s._store(k * 7919, 1, 0, 0, None, 0)
    assert s.tt_probe(7) is not None  # the deep entry of this search survived
    s._tt_generation += 1  # a new search: old entries give way to anything
    s._store(7 + 2 * size, 1, 0, 0, None, 0)
    entry = s._tt_deep[7 & s._tt_mask]
    assert entry is not None and entry[0] == 7 + 2 * size
