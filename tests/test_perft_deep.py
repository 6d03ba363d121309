"""Deep perft regression counts (run with ``make test-slow``): published chessprogramming
values for orthodox positions, Chess960 start positions counted by python-chess, and the 9x9
vectors of RULES.md §3 / §4.10.  A speed change that breaks a rare rule shows up here."""

from __future__ import annotations

import pytest

from randomchess import Position, get_variant

CASES = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333),
    ("chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487),
    # Chess960 (python-chess 1.11.2): SP 0 and SP 357.
    ("chess960", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", 4, 201143),
    ("chess960", "rnbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBRN w KQkq - 0 1", 4, 164941),
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "fen", "depth", "nodes"), CASES)
def test_deep_perft(variant: str, fen: str, depth: int, nodes: int) -> None:
    assert Position(fen, variant).perft(depth) == nodes


@pytest.mark.slow
def test_nine_by_nine_vectors_depth4() -> None:
    modern = get_variant("modern")
    assert Position(modern.setup_fen("RNBMKQBNR", adjustment=True), modern).perft(4) == 713549
    assert Position(modern.setup_fen("RNBMKQBNR"), modern).perft(4) == 433729
