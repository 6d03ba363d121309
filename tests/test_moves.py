"""Coordinate (UCI) moves, make/unmake, check, mate and stalemate on 8x8 and 9x9."""

from __future__ import annotations

import pytest

from randomchess import (
    KING,
    MINISTER,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    get_variant,
)


def test_promotion_to_minister_on_nine_by_nine() -> None:
    pos = Position("4k4/8P/9/9/9/9/9/9/4K4 w - - 0 1", "mrc")
    move = pos.parse_uci("i8i9m")
    assert move.promotion == MINISTER
    pos.push(move)
    assert pos.fen().split()[0].startswith("4k3M/")
    assert pos.board[pos.geometry.parse_square("i9")] == MINISTER  # a White minister


def test_no_minister_promotion_in_chess960() -> None:
    pos = Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "chess960")
    promotions = sorted(pos.uci(m) for m in pos.legal_moves() if m.promotion)
    assert promotions == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    with pytest.raises(IllegalMoveError, match="does not promote to minister"):
        pos.parse_uci("a7a8m")


def test_double_step_and_en_passant_on_nine_ranks() -> None:
    pos2 = Position("4k4/9/9/9/9/3p5/9/4P4/4K4 w - - 0 1", "mrc")
    pos2.push_uci("e2e4")
    assert pos2.fen().split()[3] == "e3"
    ep = pos2.parse_uci("d4e3")
    assert pos2.is_en_passant(ep) and pos2.is_capture(ep)
    pos2.push(ep)
    assert pos2.fen().split()[0] == "4k4/9/9/9/9/9/4p4/9/4K4"
    assert pos2.halfmove_clock == 0


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", InvalidMoveError),
        ("e2", InvalidMoveError),
        ("e2e9", InvalidMoveError),  # no rank 9 on 8x8
        ("z2z4", InvalidMoveError),
        ("e2e4x", InvalidMoveError),
        ("e2e2", InvalidMoveError),
        ("e7e8k", InvalidMoveError),
        ("e2e5", IllegalMoveError),
        ("e1g1", IllegalMoveError),
        ("a1a2", IllegalMoveError),
    ],
)
def test_bad_moves_raise_typed_errors_and_change_nothing(
    text: str, error: type[Exception]
) -> None:
    v = get_variant("chess960")
    pos = Position(v.setup_fen("RNBQKBNR"), v)
    before = pos.fen()
    with pytest.raises(error):
        pos.push_uci(text)
    assert pos.fen() == before and pos.move_stack == []
    assert issubclass(error, ValueError)


def test_push_legal_rejects_illegal_moves_unchanged() -> None:
    pos = Position()
    before = pos.fen()
    with pytest.raises(IllegalMoveError):
        pos.push_legal(Move(12, 36))  # e2e5 written as squares
    assert pos.fen() == before


def test_checkmate_and_stalemate() -> None:
    mate = Position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert mate.is_check() and mate.is_checkmate() and not mate.is_stalemate()
    stale = Position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "chess960")
    assert stale.is_stalemate() and not stale.is_checkmate()


def test_minister_mates_with_its_knight_jump() -> None:
    # Corner mate on 9x9 that only the minister's knight leap gives: M e7-g8.
    pos = Position("7rk/7pp/4M4/9/9/9/9/9/4K4 w - - 0 1", "mrc")
    mates = []
    for m in pos.legal_moves():
        pos.push(m)
        if pos.is_checkmate():
            mates.append(pos.peek())
        pos.pop()
    assert [pos.uci(m) for m in mates] == ["e7g8"]


def test_pinned_piece_moves_only_along_the_pin() -> None:
    pos = Position("k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1", "chess960")
    rook_moves = sorted(pos.uci(m) for m in pos.legal_moves() if m.from_square == 12)
    assert rook_moves == ["e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"]


def test_double_check_allows_only_king_moves() -> None:
    pos = Position("4k3/8/8/8/8/5n2/8/R3K2r w - - 0 1", "chess960")
    assert len(pos.checkers()) == 2
    assert {pos.piece_type_at(m.from_square) for m in pos.legal_moves()} == {KING}


def test_push_pop_restores_everything() -> None:
    v = get_variant("mrc")
    pos = Position(v.setup_fen("RBKNQBNMR"), v)
    fens = []
    for text in ("e2e4", "e8e6", "e1e3", "d9e9", "b1c1"):
        fens.append(pos.fen())
        pos.push_uci(text)
    for fen in reversed(fens):
        pos.pop()
        assert pos.fen() == fen


def test_zobrist_is_the_same_for_transpositions_and_differs_by_rights() -> None:
    a, b = Position(), Position()
    for text in ("g1f3", "g8f6", "b1c3"):
        a.push_uci(text)
    for text in ("b1c3", "g8f6", "g1f3"):
        b.push_uci(text)
    assert a.zobrist == b.zobrist
    # Same placement, a castling right lost (the knight went out and came back is fine, the
    # rook is not).
    c = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    d = Position("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1")
    assert c.zobrist != d.zobrist
    c.push_uci("h1h2")
    c.push_uci("a8a7")
    c.push_uci("h2h1")
    c.push_uci("a7a8")
    assert c.zobrist == Position("r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3").zobrist


def test_null_move() -> None:
    pos = Position("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "chess960")
    pos.push_uci("e2e4")
    before = (pos.fen(), pos.zobrist)
    pos.push_null()
    assert pos.turn == 0 and pos.ep_square is None
    pos.pop()
    assert (pos.fen(), pos.zobrist) == before


def test_legal_moves_cache_is_safe_to_mutate_and_follows_moves() -> None:
    pos = Position()
    first = pos.legal_moves()
    first.clear()  # the caller owns the list it gets
    assert len(pos.legal_moves()) == 20
    pos.push_uci("e2e4")
    assert len(pos.legal_moves()) == 20 and all(m.from_square >= 48 for m in pos.legal_moves())
    pos.pop()
    assert Move(12, 28) in pos.legal_moves()


def _checks_when_played(pos: Position, move: Move) -> bool:
    pos.push(move)
    try:
        return pos.is_check()
    finally:
        pos.pop()


@pytest.mark.parametrize(("fen", "variant", "checking"), [
    # Discovered check by a pawn's double step, by a knight's leap off a bishop's diagonal.
    ("7k/8/8/8/8/8/1P6/B5K1 w - - 0 1", "chess", {"b2b3", "b2b4"}),
    ("7k/8/8/8/8/2N5/8/B5K1 w - - 0 1", "chess",
     {"c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5", "c3e2", "c3e4"}),
    # En passant that uncovers the rook along the fifth rank (both pawns leave it).
    ("8/8/8/R2pP2k/8/8/8/6K1 w - d6 0 2", "chess", {"e5d6"}),
    # A knight leaving the rook's file checks wherever it lands, twice over on d6 and f6;
    # the rook moving up its file behind the knight does not.
    ("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "chess",
     {"e4c3", "e4c5", "e4d2", "e4d6", "e4f2", "e4f6", "e4g3", "e4g5"}),
    # Castling with the rook landing on the king's file; promotion to a checking queen.
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "chess", {"e1g1", "h1h8", "h1f1"}),
    ("6k1/1P6/8/8/8/8/8/4K3 w - - 0 1", "chess", {"b7b8q", "b7b8r"}),
    # The minister checks by its knight's leap and by its diagonal on 9x9.
    ("4k4/9/9/9/2M6/9/9/9/4K4 w - - 0 1", "mrc", {"c5d7", "c5b6", "c5f8"}),
])
def test_gives_check_cases(fen: str, variant: str, checking: set[str]) -> None:
    pos = Position(fen, variant)
    found = {pos.uci(m) for m in pos.legal_moves() if pos.gives_check(m)}
    assert found == {pos.uci(m) for m in pos.legal_moves() if _checks_when_played(pos, m)}
    assert found == checking


@pytest.mark.parametrize("key", ["chess", "chess960", "mrc", "capablanca", "modern"])
def test_gives_check_agrees_with_playing_the_move(key: str) -> None:
    """``gives_check`` answers without playing the move (the search asks it of moves it may
    prune); along random games it must agree with playing each legal move."""
    import random

    from conftest import all_setups

    rng = random.Random(f"gives-check-{key}")
    v = get_variant(key)
    setups = all_setups(key)
    seen_checks = 0
    for _game in range(12):
        pos = Position(v.setup_fen(rng.choice(setups)), v)
        for _ply in range(120):
            moves = pos.legal_moves()
            if not moves:
                break
            for m in moves:
                expected = _checks_when_played(pos, m)
                seen_checks += expected
                assert pos.gives_check(m) == expected, (pos.fen(), pos.uci(m))
            # Prefer captures and checks so the games reach open, tactical positions.
            sharp = [m for m in moves if pos.is_capture(m) or _checks_when_played(pos, m)]
            pos.push(rng.choice(sharp) if sharp and rng.random() < 0.6 else rng.choice(moves))
    assert seen_checks > 200


@pytest.mark.parametrize("key", ["chess960", "mrc"])
def test_tracked_weights_follow_every_push_and_pop(key: str) -> None:
    """``track_weights``: the kept sum equals the sum over the board after every move kind
    (castling, adjustments, en passant, promotions), after null moves and after pops."""
    import random

    from conftest import all_setups

    rng = random.Random(f"weights-{key}")
    v = get_variant(key)
    size = v.geometry.size
    weights = [[0] * size] + [[rng.randrange(-999, 1000) for _ in range(size)]
                              for _ in range(1, 64)]

    def total(pos: Position) -> int:
        return sum(weights[p][sq] for sq, p in enumerate(pos.board) if p)

    kinds = set()
    for _game in range(16):
        pos = Position(v.setup_fen(rng.choice(all_setups(key))), v)
        pos.track_weights(weights)
        assert pos.weights is weights and pos.weight == total(pos) != 0
        for _ply in range(150):
            moves = sorted(pos.legal_moves())  # the walk does not hang on generation order
            if not moves:
                break
            special = [m for m in moves if pos.is_castling(m) or pos.is_adjustment(m)
                       or pos.is_en_passant(m) or m.promotion]
            move = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(moves)
            kinds.add("castling" if pos.is_castling(move) else "adjustment"
                      if pos.is_adjustment(move) else "en passant" if pos.is_en_passant(move)
                      else "promotion" if move.promotion else "other")
            before = pos.weight
            pos.push(move)
            assert pos.weight == total(pos)
            if rng.random() < 0.2:
                pos.pop()
                assert pos.weight == before
                pos.push(move)
            if rng.random() < 0.05 and not pos.is_check():
                pos.push_null()
                assert pos.weight == total(pos)
                pos.pop()
    assert {"castling", "en passant", "promotion", "other"} <= kinds
    assert key != "mrc" or "adjustment" in kinds
    pos = Position(v.setup_fen(all_setups(key)[0]), v)
    pos.track_weights(weights)
    pos.track_weights(None)
    assert pos.weights is None and pos.weight == 0
    pos.push(pos.legal_moves()[0])
    assert pos.weight == 0
