"""Invariants that hold in every registered variant: a new entry in ``VARIANTS`` is tested by
being registered (docs/variants.md).  Along random playouts from random start arrays: the FEN
reads back to the same position, push and pop are exact inverses, every legal move's SAN (in
English and Spanish) reads back to that move, the game's PGN reads back to the same game, and
the incremental Zobrist key equals the key computed from scratch.  Perft 2 from the start
arrays, and after reflecting a position through the middle rank with the colours swapped,
perft and the engine's evaluation stay the same (neither favours a colour)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import all_setups
from randomchess import Game, Position, get_variant
from randomchess.engine.evaluate import evaluate
from randomchess.fen import Setup
from randomchess.pgn import parse_game, write_game
from randomchess.pieces import make_piece
from randomchess.san import parse_san, san
from randomchess.variants import VARIANTS

KEYS = list(VARIANTS)


def _start(data: st.DataObject, key: str) -> Position:
    v = get_variant(key)
    rank = data.draw(st.sampled_from(all_setups(key)), label="setup")
    return Position(v.setup_fen(rank), v)


def _colour_flipped(pos: Position) -> Position:
    """``pos`` reflected through the middle rank, colours and side to move swapped."""
    g = pos.geometry

    def flip(sq: int) -> int:
        return g.square(g.file_of(sq), g.ranks - 1 - g.rank_of(sq))

    s = pos.to_setup()
    board = [0] * g.size
    for sq in range(g.size):
        color = pos.color_at(sq)
        if color is not None:
            board[flip(sq)] = make_piece(pos.piece_type_at(sq), color ^ 1)
    return Position.from_setup(Setup(
        s.variant, board, s.turn ^ 1, {flip(sq) for sq in s.castling_rooks},
        None if s.ep_square is None else flip(s.ep_square), s.halfmove_clock,
        s.fullmove_number, {c ^ 1: frozenset(map(flip, sqs)) for c, sqs in s.unmoved.items()},
        {c ^ 1: kinds for c, kinds in s.hand.items()}, {flip(sq) for sq in s.gates},
    ))


@pytest.mark.parametrize("key", KEYS)
def test_perft_two_from_the_start_and_colour_symmetry(key: str) -> None:
    v = get_variant(key)
    for rank in sorted({v.fixed_rank or v.startpos_rank or "", *all_setups(key)[::997]}):
        pos = Position(v.setup_fen(rank), v)
        n = pos.perft(1)
        assert n >= v.files  # at least every pawn's single step
        # Black's moves from the start (White's count unless each side has its own array).
        fields = pos.fen().split(" ")
        nb = Position(" ".join([fields[0], "b", *fields[2:]]), v).perft(1)
        assert nb == n or v.independent_sides
        # In two plies the armies can barely touch (a long diagonal may pin a pawn).
        assert n * nb - 2 * v.files <= pos.perft(2) <= n * nb, (key, rank)
        pos.push(pos.legal_moves()[len(pos.legal_moves()) // 2])
        flipped = _colour_flipped(pos)
        assert flipped.perft(2) == pos.perft(2), (key, rank)


@pytest.mark.parametrize("key", KEYS)
def test_default_position_is_a_start_array(key: str) -> None:
    v = get_variant(key)
    pos = Position(v.default_fen, v)
    assert pos.fen() == v.default_fen
    assert Position(pos.fen(shredder=True), v).fen() == v.default_fen


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_playout_invariants_in_every_variant(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(KEYS), label="variant")
    v = get_variant(key)
    pos = _start(data, key)
    # The same moves in a Game, which ends the playout where the rules end the game (mate,
    # stalemate, fivefold repetition, the 75-move rule, a dead position): after that it
    # refuses moves, and a random playout can shuffle into a fivefold repetition.
    game = Game(pos.fen(), v)
    history = []
    for _ in range(data.draw(st.integers(0, 40), label="plies")):
        fen = pos.fen()
        assert Position(fen, v).fen() == fen
        assert Position(pos.fen(shredder=True), v).fen() == fen
        # Incremental Zobrist key == the key computed from the same state (e.p. square
        # included even when no capture is legal: the Setup keeps it, the FEN may not).
        assert pos.zobrist == Position.from_setup(pos.to_setup()).zobrist
        moves = pos.legal_moves()
        if not moves or game.is_over:
            break
        for m in moves:
            for lang in ("en", "es"):
                assert parse_san(pos, san(pos, m, lang), lang) == m, (fen, m, lang)
        if data.draw(st.integers(0, 9), label="check symmetry") == 0:
            flipped = _colour_flipped(pos)
            assert flipped.perft(2) == pos.perft(2), fen
            # The evaluator favours neither colour either (material and tables from data);
            # the floor division of the phase blend may round the two by one centipawn apart.
            assert abs(evaluate(flipped) - evaluate(pos)) <= 1, fen
        history.append((fen, pos.key(), pos.zobrist))
        move = data.draw(st.sampled_from(moves), label="move")
        pos.push(move)
        game.push(move)
    for lang in ("en", "es"):
        # PGN written in either language reads back to the same game.
        read = parse_game(write_game(game, lang=lang), lang=lang)
        assert (read.variant, read.mainline()) == (v, pos.move_stack)
    while history:
        pos.pop()
        assert (pos.fen(), pos.key(), pos.zobrist) == history.pop()
