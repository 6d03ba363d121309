"""The setup brief (issue 33): hand-checked setups, and every Chess960 fact against
python-chess's attack maps and castling rules."""

from __future__ import annotations

from collections import deque

import chess
import pytest

from randomchess.brief import brief_lines, setup_brief
from randomchess.position import Position
from randomchess.startpos import setup_from_number


def test_the_orthodox_array_by_hand() -> None:
    b = setup_brief(setup_from_number("chess960", 518))
    w, k = b.white, b.black
    # f2 is defended by the king alone (Ng1 covers e2, f3, h3; Bf1 covers e2, g2); f7 alike.
    assert (w.undefended_pawns, w.king_only_pawns) == ((), ("f2",))
    assert (k.undefended_pawns, k.king_only_pawns) == ((), ("f7",))
    # No piece on the first rank reaches the seventh along a diagonal after one pawn move.
    assert w.diagonals == k.diagonals == ()
    lines = {line.line: line for line in w.king_lines}
    assert lines["diagonal_h"].end == "h4" and lines["diagonal_h"].shield == ("f2",)
    assert lines["file"].pieces == (("e2", "P"), ("e7", "p"), ("e8", "k"))
    assert lines["file"].shield == ("e2",)
    assert [s for s, _ in lines["rank_a"].pieces] == ["d1", "c1", "b1", "a1"]
    # O-O-O: Nb1, Bc1 and Qd1 leave, and d2 frees both the bishop and the queen: 4 moves.
    long, short = w.castling
    assert (long.san, long.blockers, long.unlock, long.moves) == \
        ("O-O-O", ("b1", "c1", "d1"), ("d2",), 4)
    # O-O: Ng1 jumps, Bf1 needs e2 or g2 first: 3 moves.
    assert (short.san, short.blockers, short.unlock, short.moves) == \
        ("O-O", ("f1", "g1"), ("e2",), 3)
    assert [c.moves for c in k.castling] == [4, 3]


def test_a_corner_bishop_and_the_other_rook_in_the_way() -> None:
    # 0 = BBQNNRKR: Ba1 hits g7 after b2-b3/b4, Bb1 hits h7 after c2-c3/c4 (the b1-h7
    # diagonal); e2 has no defender; short castling must first move the rook on f1.
    b = setup_brief(setup_from_number("chess960", 0))
    w = b.white
    assert [(d.square, d.target, d.opened_by) for d in w.diagonals] == [
        ("a1", "g7", ("b2b3", "b2b4")), ("b1", "h7", ("c2c3", "c2c4"))]
    assert w.diagonals[0].target_defenders == ("e8", "g8")  # Ne8 and Kg8
    assert w.undefended_pawns == ("e2",)
    long, short = w.castling
    assert (long.blockers, long.unlock, long.moves) == (("c1", "d1", "e1"), ("b2",), 4)
    assert (short.blockers, short.unlock, short.moves) == (("f1",), ("f2",), 2)


def test_mrc_by_hand() -> None:
    # MRC 0 = BBQMNNRKR (Black rkrnnmqbb): the a1 bishop's long diagonal meets h8 after b2
    # moves; h8 is defended by the queen g9, the bishop i9 and the minister f9 (a knight leap).
    b = setup_brief(setup_from_number("mrc", 0))
    w = b.white
    assert [(d.piece, d.square, d.target, d.opened_by, d.target_defenders)
            for d in w.diagonals] == [("B", "a1", "h8", ("b2b3", "b2b4"), ("f9", "g9", "i9"))]
    assert [(d.square, d.target) for d in b.black.diagonals] == [("i9", "b2")]
    assert w.undefended_pawns == w.king_only_pawns == ()
    cc, cg = w.castling
    # O-O-Oc: Kh1 to c1, Rg1 to d1: Qc1 (walled in, b2 frees it), Md1 (jumps), Ne1, Nf1.
    assert (cc.san, cc.blockers, cc.unlock, cc.moves) == \
        ("O-O-Oc", ("c1", "d1", "e1", "f1"), ("b2",), 5)
    # O-O-Og: Kh1 to g1, Ri1 to f1: Nf1 and the other rook on g1 (g2 must move first).
    assert (cg.san, cg.blockers, cg.unlock, cg.moves) == ("O-O-Og", ("f1", "g1"), ("g2",), 3)
    # Maura's array: the king's diagonals are shielded by d2 and f2.
    maura = setup_brief(setup_from_number("mrc", 8226)).white
    assert {k.line: k.shield for k in maura.king_lines}["diagonal_h"] == ("f2",)


def _chess_board(number: int) -> chess.Board:
    return chess.Board.from_chess960_pos(number)


def _pawn_facts(board: chess.Board, color: chess.Color) -> tuple[list[str], list[str]]:
    undefended, king_only = [], []
    for sq in sorted(board.pieces(chess.PAWN, color)):
        guards = board.attackers(color, sq)
        if not guards:
            undefended.append(chess.square_name(sq))
        elif len(guards) == 1 and board.piece_type_at(next(iter(guards))) == chess.KING:
            king_only.append(chess.square_name(sq))
    return undefended, king_only


SHELTER = {1, 2, 3, 5, 6, 7}  # b c d, f g h: around the castled kings on c and g


def _diagonal_facts(board: chess.Board, color: chess.Color) -> dict[tuple[str, str], list[str]]:
    """(piece, target) -> pawn moves, by python-chess: a diagonal attacker of a shelter pawn
    after the move that did not attack it before."""
    them = not color
    targets = [s for s in board.pieces(chess.PAWN, them) if chess.square_file(s) in SHELTER]

    def hits(b: chess.Board) -> set[tuple[int, int]]:
        return {(a, t) for t in targets for a in b.attackers(color, t)
                if b.piece_type_at(a) in (chess.BISHOP, chess.QUEEN)
                and chess.square_file(a) != chess.square_file(t)}

    before = hits(board)
    out: dict[tuple[str, str], list[str]] = {}
    b = board.copy()
    b.turn = color
    for move in [m for m in b.legal_moves if b.piece_type_at(m.from_square) == chess.PAWN]:
        b.push(move)
        for a, t in sorted(hits(b) - before):
            out.setdefault((chess.square_name(a), chess.square_name(t)), []).append(move.uci())
        b.pop()
    return out


@pytest.mark.parametrize("color", [chess.WHITE, chess.BLACK])
def test_every_chess960_setup_against_python_chess(color: chess.Color) -> None:
    for number in range(960):
        board = _chess_board(number)
        side = setup_brief(setup_from_number("chess960", number))
        side_brief = side.white if color == chess.WHITE else side.black
        undefended, king_only = _pawn_facts(board, color)
        assert list(side_brief.undefended_pawns) == undefended, number
        assert list(side_brief.king_only_pawns) == king_only, number
        got = {(d.square, d.target): sorted(d.opened_by) for d in side_brief.diagonals}
        assert got == {k: sorted(v) for k, v in _diagonal_facts(board, color).items()}, number
        # Castling needs no move at all exactly when python-chess allows it at once.
        b = board.copy()
        b.turn = color
        castles = {"a" if chess.square_file(m.to_square) < chess.square_file(m.from_square)
                   else "h" for m in b.legal_moves if b.is_castling(m)}
        assert {c.side for c in side_brief.castling if c.moves == 0} == castles, number


def _castles(board: chess.Board, side: str) -> bool:
    return any(board.is_castling(m) and (chess.square_file(m.to_square) <
                                         chess.square_file(m.from_square)) == (side == "a")
               for m in board.legal_moves)


def _clear(board: chess.Board, left: list[int], path: set[int], side: str) -> bool:
    """Whether the pieces on ``left`` can each leave the path once (in some order, to some
    square off the path), White moving and Black passing, so that castling becomes legal."""
    if not left:
        return _castles(board, side)
    for sq in left:
        for m in [m for m in board.legal_moves if m.from_square == sq
                  and m.to_square not in path and chess.square_rank(m.to_square) > 0]:
            board.push(m)
            board.push(chess.Move.null())
            done = _clear(board, [s for s in left if s != sq], path, side)
            board.pop()
            board.pop()
            if done:
                return True
    return False


def _plan_castles(number: int, side: str) -> int:
    """Play a brief's castling plan for White on a python-chess board (Black passes): its
    pawns first (double steps), then one move for each blocker; return the moves it took."""
    plan = next(c for c in setup_brief(setup_from_number("chess960", number)).white.castling
                if c.side == side)
    board = _chess_board(number)
    for pawn in plan.unlock:
        sq = chess.parse_square(pawn)
        board.push(chess.Move(sq, sq + 16))
        board.push(chess.Move.null())
    blockers = [chess.parse_square(s) for s in plan.blockers]
    assert _clear(board, blockers, set(blockers), side), (number, side)
    return len(plan.unlock) + len(blockers)


def _fewest_moves(number: int, side: str, limit: int) -> int | None:
    """Breadth-first over White's moves (Black passing): the fewest before castling
    ``side`` is legal, or None beyond ``limit``."""
    start = _chess_board(number)
    seen = {start.board_fen()}
    queue = deque([(start, 0)])
    while queue:
        board, depth = queue.popleft()
        if _castles(board, side):
            return depth
        if depth == limit:
            continue
        for m in list(board.legal_moves):
            if board.piece_type_at(m.from_square) == chess.KING or board.is_castling(m):
                continue
            nxt = board.copy(stack=False)
            nxt.push(m)
            nxt.push(chess.Move.null())
            key = nxt.board_fen()
            if key not in seen:
                seen.add(key)
                queue.append((nxt, depth + 1))
    return None


@pytest.mark.parametrize("number", [518, 0, 7, 100, 333, 959])
def test_castling_plans_work(number: int) -> None:
    for plan in setup_brief(setup_from_number("chess960", number)).white.castling:
        assert _plan_castles(number, plan.side) == plan.moves


@pytest.mark.parametrize(("number", "side"), [(0, "h"), (518, "h"), (107, "h"), (107, "a")])
def test_castling_counts_are_the_fewest(number: int, side: str) -> None:
    plan = next(c for c in setup_brief(setup_from_number("chess960", number)).white.castling
                if c.side == side)
    assert plan.moves <= 3
    assert _fewest_moves(number, side, plan.moves) == plan.moves


def test_mrc_castling_on_move_one_matches_the_move_generator() -> None:
    # RULES.md §4.3: 1,800 of the 15,120 setups castle on move 1; every 7th setup here.
    for number in range(0, 15_120, 7):
        s = setup_from_number("mrc", number)
        pos = Position(s.fen, "mrc")
        legal = {"a" if m.to_square < m.from_square else "h"
                 for m in pos.legal_moves() if pos.is_castling(m)}
        plans = setup_brief(s).white.castling
        assert {c.side for c in plans if c.moves == 0} == legal, number


def test_text_in_both_languages() -> None:
    b = setup_brief(setup_from_number("chess960", 518))
    en, es = dict(brief_lines(b, "en")), dict(brief_lines(b, "es"))
    assert en["White: Pawns defended only by the king"] == "f2"
    assert es["Blancas: Peones defendidos solo por el rey"] == "f2"
    assert "Dd1 Ac1 Cb1 Ta1" in es["Blancas: Piezas en las líneas del rey (Re1)"]
    assert en["Black: Moves to castle"].startswith("O-O-O: 4")
