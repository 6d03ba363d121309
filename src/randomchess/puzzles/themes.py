"""Theme tags of a puzzle, read off its solution by the rules core (docs/puzzles.md)."""

from __future__ import annotations

from collections.abc import Sequence

from randomchess.pieces import KING, MINISTER, PAWN, PIECE_TYPES, WHITE, Color
from randomchess.position import Move, Position

KING_VALUE = 100_000


def value(pos: Position, kind: int) -> int:
    return KING_VALUE if kind == KING else pos.variant.piece_value(kind)[0]


def attacked_by_piece(pos: Position, sq: int) -> list[int]:
    """Squares the piece on ``sq`` attacks (its captures if an enemy stood there)."""
    kind = pos.piece_type_at(sq)
    colour = pos.color_at(sq)
    g = pos.geometry
    if not kind or colour is None:
        return []
    if kind == PAWN:
        step = 1 if colour == WHITE else -1
        f, r = g.file_of(sq), g.rank_of(sq) + step
        return [g.square(f + df, r) for df in (-1, 1) if g.on_board(f + df, r)]
    ptype = PIECE_TYPES[kind]
    out: list[int] = list(g.leaps(ptype.leaps)[sq]) if ptype.leaps else []
    for direction in ptype.slides:
        for s in g.ray(sq, direction):
            out.append(s)
            if pos.board[s]:
                break
    return out


def _enemy_targets(pos: Position, sq: int, them: Color) -> list[int]:
    return [s for s in attacked_by_piece(pos, sq) if pos.color_at(s) == them]


def is_fork(after: Position, to: int) -> bool:
    """The piece that just moved to ``to`` attacks two enemy pieces (not pawns), each the
    king, worth more than itself, or undefended."""
    kind = after.piece_type_at(to)
    if kind in (0, KING):
        return False
    us = after.color_at(to)
    assert us is not None
    them = us ^ 1
    if after.is_attacked(to, them):
        # the forker can simply be taken (by a piece; the king only if it is undefended)
        defenders = [s for s in range(after.geometry.size) if after.color_at(s) == them
                     and to in attacked_by_piece(after, s)]
        if any(after.piece_type_at(s) != KING for s in defenders) or \
                not after.is_attacked(to, us):
            return False
    mine = value(after, kind)
    hits = 0
    for s in _enemy_targets(after, to, them):
        k = after.piece_type_at(s)
        if k == PAWN:
            continue
        if k == KING or value(after, k) > mine or not after.is_attacked(s, them):
            hits += 1
    return hits >= 2


def is_pin(after: Position, to: int) -> bool:
    """The slider that just moved to ``to`` pins an enemy piece to its king or to a piece
    worth more than the pinned one."""
    kind = after.piece_type_at(to)
    us = after.color_at(to)
    if not kind or us is None:
        return False
    them = us ^ 1
    g = after.geometry
    for direction in PIECE_TYPES[kind].slides:
        first = -1
        for s in g.ray(to, direction):
            if not after.board[s]:
                continue
            if after.color_at(s) != them:
                break
            if first < 0:
                first = s
                if after.piece_type_at(s) == KING:
                    break
                continue
            back = after.piece_type_at(s)
            if back == KING or value(after, back) > value(after, after.piece_type_at(first)):
                return True
            break
    return False


def tag(pos: Position, moves: Sequence[Move], *, mate: bool) -> list[str]:
    """The themes of the solution ``moves`` (solver first) from ``pos``."""
    themes: set[str] = set()
    board = pos.copy(stack=False)
    solver = board.turn
    steps = (len(moves) + 1) // 2
    for i, move in enumerate(moves):
        mover = board.turn
        adjusting = board.is_adjustment(move)
        if mover == solver:
            if board.is_castling(move):
                themes.add("castling")
            if adjusting:
                themes.add("adjustment")
            if move.promotion:
                themes.add("promotion")
                if move.promotion == MINISTER:
                    themes.add("primeMinisterPromotion")
            if i == 0 and board.is_capture(move) and not mate:
                victim = board.piece_type_at(move.to_square)
                if victim not in (0, PAWN) and not board.is_attacked(move.to_square,
                                                                     solver ^ 1):
                    themes.add("hangingPiece")
        board.push(move)
        if mover == solver and not board.is_checkmate() and not adjusting:
            to = move.to_square
            if board.color_at(to) == solver:
                if is_fork(board, to):
                    themes.add("fork")
                if is_pin(board, to):
                    themes.add("pin")
    if mate:
        themes.update(("mate", f"mateIn{steps}"))
    else:
        themes.add("advantage")
    themes.add("oneMove" if steps == 1 else "short" if steps <= 3 else "long")
    return sorted(themes)
