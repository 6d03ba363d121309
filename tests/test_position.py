"""The position is the one validation gate (shakmaty's Setup -> Position): a FEN, a Setup
built by hand and a setup number all pass the same checks, so no invalid input can give a
position whose moves or FEN then fail (issue 13, item 3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from randomchess import FenError, Position, get_variant
from randomchess.fen import Setup, parse_fen
from randomchess.pieces import BLACK, KING, PAWN, PIECE_KIND, ROOK, WHITE, make_piece
from randomchess.variants import VARIANTS


def _setup(fen: str, variant: str = "chess") -> Setup:
    return parse_fen(fen, get_variant(variant))


def test_from_setup_rejects_a_castling_right_without_a_rook() -> None:
    # White's right names h1, where no rook stands: parse_fen refuses this text, and a Setup
    # built by hand with the same content must be refused by the position too.
    s = _setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    s.castling_rooks = {7}
    with pytest.raises(FenError, match="castling"):
        Position.from_setup(s)


def test_from_setup_checks_what_parse_fen_checks() -> None:
    base = _setup("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    for change, message in (
        (lambda s: s.castling_rooks.add(1), "castling"),  # b1: a knight's square, empty
        (lambda s: s.castling_rooks.update({0, 7, 5}), "castling"),
        (lambda s: setattr(s, "ep_square", 20), "en passant"),  # e3, no pawn passed it
        (lambda s: setattr(s, "halfmove_clock", -1), "half-move"),
        (lambda s: setattr(s, "fullmove_number", 0), "move number"),
        (lambda s: setattr(s, "turn", 2), "side to move"),
        (lambda s: s.board.__setitem__(3, 99), "not a piece"),
        (lambda s: s.board.pop(), "squares"),
        (lambda s: setattr(s, "unmoved", {0: frozenset({1})}), "adjustment"),
    ):
        s = _setup("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
        change(s)
        with pytest.raises(FenError, match=message):
            Position.from_setup(s)
    assert Position.from_setup(base).fen() == "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"


def test_a_piece_foreign_to_the_variant_is_refused() -> None:
    with pytest.raises(FenError, match="not a piece of chess960"):
        Position("4k3/8/8/8/8/8/8/3MK3 w - - 0 1", "chess960")
    with pytest.raises(FenError, match="not a piece of mrc"):
        Position("4k4/9/9/9/9/9/9/9/3AK4 w - - 0 1", "mrc")


@st.composite
def _setups(draw: st.DrawFn) -> Setup:
    """Random Setups near the legal ones: random pieces of the variant on random squares,
    rights and en passant squares drawn from plausible and implausible squares."""
    v = get_variant(draw(st.sampled_from(sorted(VARIANTS)), label="variant"))
    g = v.geometry
    kinds = sorted(v.kinds - {KING})
    board = [0] * g.size
    for _ in range(draw(st.integers(0, 12), label="pieces")):
        sq = draw(st.integers(0, g.size - 1))
        board[sq] = make_piece(draw(st.sampled_from(kinds)), draw(st.sampled_from([0, 1])))
    for c in (WHITE, BLACK):  # usually exactly one king each, on a home-rank square
        if draw(st.integers(0, 19)):
            sq = g.square(draw(st.integers(0, g.files - 1)), 0 if c == WHITE else g.ranks - 1)
            board[sq] = make_piece(KING, c)
    rook_squares = [sq for sq in range(g.size) if PIECE_KIND[board[sq]] == ROOK]
    wrong = [0, g.size - 1] if draw(st.integers(0, 4)) == 0 else []
    candidates = [*rook_squares, *wrong]
    castling = set(draw(st.lists(st.sampled_from(candidates), max_size=4), label="castling")
                   if candidates else ())
    ep = draw(st.integers(0, g.size - 1), label="ep") if draw(st.integers(0, 4)) == 0 else None
    unmoved: dict[int, frozenset[int]] = {}
    if draw(st.integers(0, 3), label="adjustment") == 0:
        for c in (WHITE, BLACK):
            row = [g.square(f, 0 if c == WHITE else g.ranks - 1) for f in range(g.files)]
            mine = [sq for sq in row if board[sq] and PIECE_KIND[board[sq]] != 1] or row
            unmoved[c] = frozenset(draw(st.lists(st.sampled_from(mine), min_size=1)))
    return Setup(v, board, draw(st.sampled_from([WHITE, BLACK])), castling, ep,
                 draw(st.integers(-1, 200), label="halfmove"),
                 draw(st.integers(0, 200), label="fullmove"), unmoved)


@settings(max_examples=400, deadline=None)
@given(_setups())
def test_random_setups_raise_the_typed_error_or_work(setup: Setup) -> None:
    try:
        pos = Position.from_setup(setup)
    except FenError:
        return
    fen = pos.fen()
    assert Position(fen, pos.variant).fen() == fen
    assert Position(pos.fen(shredder=True), pos.variant).fen() == fen
    for move in pos.legal_moves():
        pos.push(move)
        pos.fen()
        pos.legal_moves()
        pos.pop()
        assert pos.fen() == fen


def test_is_legal_and_parse_uci_agree_with_the_full_list_of_legal_moves() -> None:
    """push_uci and is_legal test one piece's moves (issue 36): on positions with checks,
    pins, en passant, promotions, castling and adjustments, every (from, to, promotion)
    they accept is in legal_moves() and every legal move is accepted."""
    import random

    from randomchess.position import Move
    from randomchess.startpos import setup_from_number

    rng = random.Random(36)
    checked = 0
    for n in range(60):
        variant = ("chess960", "mrc", "chess")[n % 3]
        pos = Position(setup_from_number(variant, rng.randrange(960)).fen
                       if variant != "chess" else None, variant)
        for _ in range(rng.randrange(0, 90)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        legal = set(pos.legal_moves())
        size = pos.geometry.size
        promotions = (0, *pos.variant.promotions)
        for a in range(size):
            pawn = PIECE_KIND[pos.board[a]] == PAWN
            for b in range(size):
                for k in promotions if pawn else (0, 1):
                    move = Move(a, b, k)
                    quick = pos._is_legal_ordinary(move)
                    assert not quick or move in legal, (pos.fen(), move)
                    assert pos.is_legal(move) == (move in legal), (pos.fen(), move)
        for move in legal:
            if not pos.is_castling(move) and not pos.is_adjustment(move):
                assert pos._is_legal_ordinary(move), (pos.fen(), move)
            assert pos.parse_uci(pos.uci(move)) == move
            checked += 1
    assert checked > 1000
