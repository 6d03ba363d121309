"""Endgame knowledge on top of the static evaluation (issue 16.7), for any board size.

* **Drawish material**: a side without pawns that is not at least a minor piece ahead in
  pieces rarely wins (KRKB, KRKN, KBNKR, KQKR ...): its advantage is scaled down.  With a
  single minor piece and no pawn it cannot mate at all: nothing is left of its advantage.
* **Mating a bare king** (mop-up): against a lone king the stronger side is paid for driving
  it to the edge and bringing its own king close, so the search finds its way to the mate
  instead of shuffling.  With bishop and knight only, the target is a corner of the bishop's
  colour (KBNK); otherwise (queen, rook, the Prime Minister, which mates with its king alone
  on 9x9) any corner.

``adjust(pos, score)`` takes and returns centipawns for the side to move; it costs two set
sizes in the middlegame (more than eight pieces: nothing to do).
"""

from __future__ import annotations

from typing import Final

from randomchess.engine.evaluate import material_value
from randomchess.pieces import BISHOP, KING, KNIGHT, PAWN, PIECE_KIND, WHITE
from randomchess.position import Position

MOP_UP_EDGE: Final = 20  # per step of the lone king away from the centre
MOP_UP_CORNER: Final = 30  # per step of the lone king towards its target corner
MOP_UP_KINGS: Final = 6  # per step the kings come closer
DRAWISH_DIVISOR: Final = 4
# KBNK: the mate needs a corner of the bishop's colour, so the lone king's distance to the
# nearer such corner (in steps, Manhattan) leads; the other terms only bring the pieces up.
# Measured in self-play at 4,000 nodes a move from ten starting positions: 10 mates in 120
# plies (3 of 10 with the general mop-up weights).
KBNK_CORNER: Final = 100  # per step of the lone king towards a corner of the bishop's colour
KBNK_EDGE: Final = 5
KBNK_KINGS: Final = 12
KBNK_KNIGHT: Final = 4  # per step the knight comes closer to the lone king


def adjust(pos: Position, score: int) -> int:
    w = pos.piece_squares(WHITE)
    b = pos.piece_squares(1)
    if len(w) + len(b) > 8 or score == 0:
        return score
    white_ahead = (score > 0) == (pos.turn == WHITE)
    strong, weak = (w, b) if white_ahead else (b, w)
    board = pos.board
    strong_kinds = [PIECE_KIND[board[sq]] for sq in strong]
    if PAWN in strong_kinds:
        return score  # pawns to promote: the evaluation's passed-pawn terms lead
    v = pos.variant
    pieces = [k for k in strong_kinds if k != KING]
    weak_kinds = [PIECE_KIND[board[sq]] for sq in weak]
    if len(pieces) == 1 and pieces[0] in (KNIGHT, BISHOP):
        # One minor piece and no pawn cannot mate; against pawns it can at most hold.
        return _shrink(score, 8) if PAWN in weak_kinds else 0
    if len(weak) == 1 and sorted(pieces) == [KNIGHT, KNIGHT]:
        return _shrink(score, DRAWISH_DIVISOR)  # two knights cannot force mate
    strong_material = sum(material_value(v, k) for k in pieces)
    weak_material = sum(material_value(v, k) for k in weak_kinds if k not in (KING, PAWN))
    if strong_material - weak_material < material_value(v, BISHOP) + 50:
        return _shrink(score, DRAWISH_DIVISOR)  # KRKB, KRKN, KBNKR, KQKR ...
    if len(weak) == 1:
        bonus = _mop_up(pos, strong, weak, pieces)
        return score + bonus if score > 0 else score - bonus
    return score


def _shrink(score: int, divisor: int) -> int:
    return int(score / divisor)  # towards zero for either sign


def _mop_up(pos: Position, strong: list[int], weak: list[int], pieces: list[int]) -> int:
    board = pos.board
    g = pos.geometry
    files, ranks = g.files, g.ranks
    strong_king = weak_king = -1
    bishop_colour = -1
    for sq in strong:
        kind = PIECE_KIND[board[sq]]
        if kind == KING:
            strong_king = sq
        elif kind == BISHOP:
            bishop_colour = (sq % files + sq // files) % 2
    for sq in weak:
        weak_king = sq
    if strong_king < 0 or weak_king < 0:
        return 0
    wf, wr = weak_king % files, weak_king // files
    corners: tuple[tuple[int, int], ...] = ((0, 0), (files - 1, 0), (0, ranks - 1),
                                            (files - 1, ranks - 1))
    # Away from the centre (the edge), then along the edge towards a target corner.
    centre = int(abs(wf - (files - 1) / 2)) + int(abs(wr - (ranks - 1) / 2))
    sf, sr = strong_king % files, strong_king // files
    king_distance = max(abs(wf - sf), abs(wr - sr))
    span = max(files, ranks) - 1
    if sorted(pieces) == [KNIGHT, BISHOP]:
        # KBNK: the corners of the bishop's colour (on 9x9 all four share a colour; with
        # the other bishop, any corner will do as a target).
        own = tuple(c for c in corners if (c[0] + c[1]) % 2 == bishop_colour)
        corner_steps = min(abs(wf - f) + abs(wr - r) for f, r in own or corners)
        knight = next(sq for sq in strong if PIECE_KIND[board[sq]] == KNIGHT)
        knight_distance = max(abs(wf - knight % files), abs(wr - knight // files))
        return (KBNK_CORNER * (2 * span - corner_steps) + KBNK_EDGE * centre
                + KBNK_KINGS * (span - king_distance) + KBNK_KNIGHT * (span - knight_distance))
    corner_distance = min(max(abs(wf - f), abs(wr - r)) for f, r in corners)
    return (MOP_UP_EDGE * centre + MOP_UP_CORNER * (span - corner_distance)
            + MOP_UP_KINGS * (span - king_distance))


__all__ = ["adjust"]
