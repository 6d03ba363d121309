"""Property tests against independent implementations along random playouts.

* Chess960 (8x8): the legal move set and the Shredder-FEN equal python-chess's at every ply.
* MRC (9x9): the legal moves other than Bishop Adjustments equal pyffish's (Fairy-Stockfish
  ``modern`` with Chess960 castling, which has no adjustment rule, RULES.md §4.10); the
  playouts themselves include adjustments, so positions after one are checked too.
"""

from __future__ import annotations

import chess
import pyffish
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import all_setups
from randomchess import Position, get_variant


def without_adjustment_field(fen: str) -> str:
    return " ".join(fen.split()[:6])


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_chess960_playouts_match_python_chess(data: st.DataObject) -> None:
    v = get_variant("chess960")
    rank = data.draw(st.sampled_from(all_setups("chess960")), label="setup")
    pos = Position(v.setup_fen(rank), v)
    ref = chess.Board(pos.fen(), chess960=True)
    plies = data.draw(st.integers(0, 80), label="plies")
    for _ in range(plies):
        ours = sorted(pos.uci(m) for m in pos.legal_moves())
        theirs = sorted(m.uci() for m in ref.legal_moves)
        assert ours == theirs, pos.fen()
        assert pos.fen(shredder=True) == ref.shredder_fen()
        assert pos.is_check() == ref.is_check()
        if not ours:
            break
        text = data.draw(st.sampled_from(ours), label="move")
        pos.push_uci(text)
        ref.push_uci(text)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_mrc_playouts_match_pyffish(data: st.DataObject) -> None:
    v = get_variant("mrc")
    rank = data.draw(st.sampled_from(all_setups("mrc")), label="setup")
    pos = Position(v.setup_fen(rank), v)
    plies = data.draw(st.integers(0, 60), label="plies")
    for _ in range(plies):
        fen = without_adjustment_field(pos.fen(shredder=True))
        ours = sorted(pos.uci(m) for m in pos.legal_moves() if not pos.is_adjustment(m))
        theirs = sorted(pyffish.legal_moves("modern", fen, [], True))
        assert ours == theirs, fen
        everything = sorted(pos.uci(m) for m in pos.legal_moves())
        if not everything:
            break
        text = data.draw(st.sampled_from(everything), label="move")
        move = pos.parse_uci(text)
        adjusting = pos.is_adjustment(move)
        pos.push(move)
        if not adjusting:
            # Make-move agrees too (placement, side, castling, e.p., clocks).
            expected = pyffish.get_fen("modern", fen, [text], True)
            assert without_adjustment_field(pos.fen(shredder=True)) == expected


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_push_pop_is_an_exact_inverse(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(["chess960", "mrc"]), label="variant")
    v = get_variant(key)
    pos = Position(v.setup_fen(data.draw(st.sampled_from(all_setups(key)))), v)
    history = []
    for _ in range(data.draw(st.integers(0, 40))):
        moves = pos.legal_moves()
        if not moves:
            break
        history.append((pos.fen(), pos.key(), pos.zobrist))
        if data.draw(st.integers(0, 9)) == 0 and not pos.is_check():
            pos.push_null()  # the engine's null move: pop() takes it back too
        else:
            pos.push(data.draw(st.sampled_from(moves)))
        # The incremental Zobrist key equals the key computed from scratch, also after a
        # double step (the Setup keeps the e.p. square the FEN omits when no capture is legal).
        assert pos.zobrist == Position.from_setup(pos.to_setup()).zobrist
    while history:
        pos.pop()
        assert (pos.fen(), pos.key(), pos.zobrist) == history.pop()
