"""Static evaluation for any board size: material, generated piece-square tables, mobility,
king safety, pawn structure, and the value of castling and Bishop Adjustment rights.

Scores are centipawns from the side to move's point of view.  Every table is generated from
the board geometry (no hard-coded 8x8 arrays), so 8x8 and 9x9 share one evaluator.  The
tunable numbers are gathered at the top of the module (sunfish's habit, STYLE.md).
"""

from __future__ import annotations

from randomchess.game import is_dead_position
from randomchess.geometry import DIAGONAL, KING_LEAPS, KNIGHT_LEAPS, ORTHOGONAL, Geometry
from randomchess.pieces import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    MINISTER,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
)
from randomchess.position import Position

# ------------------------------------------------------------------ tunable numbers
# Material in centipawns, (middlegame, endgame).  8x8: the usual engine values, with the
# minister between rook and queen (the author's 8x8 scale, RULES.md §4.2: M = 8).
MATERIAL_8X8 = {
    PAWN: (90, 110), KNIGHT: (320, 300), BISHOP: (330, 320), ROOK: (480, 530),
    QUEEN: (950, 950), MINISTER: (820, 820), KING: (0, 0),
}
# 9x9: the author's guide values (RULES.md §4.2: Q 11, M 10, R 7, B 4, N 4, P 1).
MATERIAL_9X9 = {
    PAWN: (90, 110), KNIGHT: (400, 380), BISHOP: (400, 400), ROOK: (680, 720),
    QUEEN: (1100, 1100), MINISTER: (1000, 1000), KING: (0, 0),
}
# Game phase weight of each kind (pawns and kings count 0).
PHASE_WEIGHT = {KNIGHT: 1, BISHOP: 1, ROOK: 2, QUEEN: 4, MINISTER: 3}
# Mobility: centipawns per reachable square beyond the typical count, (mg, eg).
MOBILITY = {
    KNIGHT: (4, 4, 4), BISHOP: (5, 5, 6), ROOK: (2, 4, 6), QUEEN: (1, 2, 12),
    MINISTER: (3, 3, 9),
}  # (mg, eg, typical squares)
# King safety: penalty by number of attacks on the squares around the king (middlegame).
KING_ATTACK_WEIGHT = {KNIGHT: 2, BISHOP: 2, ROOK: 3, QUEEN: 5, MINISTER: 4}
PAWN_SHIELD = 12  # per own pawn in front of a king on its home ranks
OPEN_FILE_NEAR_KING = 15  # per file next to the king with no own pawn
DOUBLED_PAWN = (10, 20)
ISOLATED_PAWN = (10, 15)
PASSED_PAWN_MG = 50  # at the rank before promotion, scaled down for earlier ranks
PASSED_PAWN_EG = 120
BISHOP_PAIR = (30, 50)  # two bishops on squares of different colours
SAME_COLOUR_BISHOPS = 25  # two bishops sharing a colour (MRC arrays, before any adjustment)
CASTLING_RIGHT = 12  # per side that keeps a castling right (middlegame)
ADJUSTMENT_RIGHT = 15  # a live Bishop Adjustment with a partner still beside its bishop
ROOK_OPEN_FILE = (20, 10)
ROOK_HALF_OPEN_FILE = (10, 5)
TEMPO = 10


class _Tables:
    """Everything the evaluator precomputes for one board geometry."""

    def __init__(self, g: Geometry) -> None:
        self.g = g
        big = g.files * g.ranks >= 81
        self.material = MATERIAL_9X9 if big else MATERIAL_8X8
        self.max_phase = 2 * (2 * PHASE_WEIGHT[KNIGHT] + 2 * PHASE_WEIGHT[BISHOP]
                              + 2 * PHASE_WEIGHT[ROOK] + PHASE_WEIGHT[QUEEN]
                              + (PHASE_WEIGHT[MINISTER] if g.files >= 9 else 0))
        n = 16
        self.pst_mg: list[list[int]] = [[0] * g.size for _ in range(n)]
        self.pst_eg: list[list[int]] = [[0] * g.size for _ in range(n)]
        for kind in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, MINISTER):
            for sq in range(g.size):
                mg, eg = _pst(g, kind, sq)
                mg += self.material[kind][0]
                eg += self.material[kind][1]
                # Black's table is White's reflected through the middle rank.
                mirror = g.square(g.file_of(sq), g.ranks - 1 - g.rank_of(sq))
                self.pst_mg[kind][sq] = mg
                self.pst_eg[kind][sq] = eg
                self.pst_mg[kind | 8][mirror] = mg
                self.pst_eg[kind | 8][mirror] = eg
        self.knight = g.leaps(KNIGHT_LEAPS)
        self.king = g.leaps(KING_LEAPS)
        self.diag = tuple(g.rays(d) for d in DIAGONAL)
        self.orth = tuple(g.rays(d) for d in ORTHOGONAL)
        # King zone: the king's square and its neighbours.
        self.zone = tuple(frozenset((sq, *self.king[sq])) for sq in range(g.size))
        self.pawn_attacks = (g.leaps(((-1, 1), (1, 1))), g.leaps(((-1, -1), (1, -1))))
        # Passed-pawn bonus by relative rank (0 = home rank).
        last = g.ranks - 2
        self.passed = tuple(
            (PASSED_PAWN_MG * r * r // (last * last), PASSED_PAWN_EG * r * r // (last * last))
            if 1 <= r <= last else (0, 0)
            for r in range(g.ranks)
        )


def _pst(g: Geometry, kind: int, sq: int) -> tuple[int, int]:
    """Positional bonus (mg, eg) of a White piece of ``kind`` on ``sq``, from the geometry."""
    f, r = g.file_of(sq), g.rank_of(sq)
    cf, cr = (g.files - 1) / 2, (g.ranks - 1) / 2
    # 1.0 in the centre, 0.0 in a corner.
    centre = 1.0 - (abs(f - cf) / cf + abs(r - cr) / cr) / 2
    file_centre = 1.0 - abs(f - cf) / cf
    last = g.ranks - 1
    if kind == PAWN:
        advance = r - 1
        mg = advance * 4 + int(file_centre * (0, 0, 10, 25, 20)[r]) if r <= 4 else advance * 4
        if r == 1 and file_centre > 0.6:
            mg -= 10  # central pawns should leave home
        eg = advance * advance * 3 // 2
        return mg, eg
    if kind == KNIGHT:
        mg = int(centre * 50) - 25 - (15 if r == 0 else 0)
        return mg, int(centre * 40) - 20
    if kind == MINISTER:
        mg = int(centre * 40) - 20 - (10 if r == 0 else 0)
        return mg, int(centre * 30) - 15
    if kind == BISHOP:
        mg = int(centre * 30) - 15 - (10 if r == 0 else 0)
        return mg, int(centre * 20) - 10
    if kind == ROOK:
        mg = int(file_centre * 8) - 4 + (20 if r == last - 1 else 0)
        return mg, (15 if r == last - 1 else 0)
    if kind == QUEEN:
        return int(centre * 10) - 5, int(centre * 30) - 15
    # King: stay home and off the centre files in the middlegame, centralise in the ending.
    mg = -int(file_centre * 30) - r * 25 + (10 if r == 0 else 0)
    if r == 0 and file_centre < 0.5:
        mg += 15
    return mg, int(centre * 50) - 25


_TABLES: dict[tuple[int, int], _Tables] = {}


def _tables(g: Geometry) -> _Tables:
    t = _TABLES.get((g.files, g.ranks))
    if t is None:
        t = _TABLES[(g.files, g.ranks)] = _Tables(g)
    return t


def material_value(geometry: Geometry, kind: int) -> int:
    """Middlegame value of ``kind`` in centipawns on this board (used by move ordering)."""
    return _tables(geometry).material[kind][0]


def evaluate(pos: Position) -> int:
    """Static score of ``pos`` in centipawns for the side to move."""
    t = _tables(pos.geometry)
    g = pos.geometry
    board = pos.board
    files = g.files
    pst_mg, pst_eg = t.pst_mg, t.pst_eg
    mg = eg = 0
    phase = 0
    pawn_files: tuple[list[int], list[int]] = ([0] * files, [0] * files)
    pawns: tuple[list[int], list[int]] = ([], [])
    pieces: list[tuple[int, int]] = []
    bishops: tuple[list[int], list[int]] = ([], [])
    for c in (WHITE, BLACK):
        side_mg = side_eg = 0
        for sq in pos.piece_squares(c):
            p = board[sq]
            kind = p & 7
            side_mg += pst_mg[p][sq]
            side_eg += pst_eg[p][sq]
            if kind == PAWN:
                pawn_files[c][sq % files] += 1
                pawns[c].append(sq)
            elif kind != KING:
                phase += PHASE_WEIGHT[kind]
                pieces.append((sq, p))
                if kind == BISHOP:
                    bishops[c].append(sq)
        if c == WHITE:
            mg += side_mg
            eg += side_eg
        else:
            mg -= side_mg
            eg -= side_eg

    # Mobility and attacks on the enemy king's zone, in one pass over the pieces.
    zones = (t.zone[pos.kings[WHITE]], t.zone[pos.kings[BLACK]])
    attack = [0, 0]
    attackers = [0, 0]
    mob_mg = mob_eg = 0
    for sq, p in pieces:
        kind = p & 7
        c = p >> 3
        zone = zones[c ^ 1]
        count = 0
        hits = 0
        if kind in (KNIGHT, MINISTER):
            for s in t.knight[sq]:
                q = board[s]
                if not q or q >> 3 != c:
                    count += 1
                if s in zone:
                    hits += 1
        if kind != KNIGHT:
            dirs: tuple[tuple[tuple[int, ...], ...], ...]
            if kind in (BISHOP, MINISTER):
                dirs = t.diag
            elif kind == ROOK:
                dirs = t.orth
            else:
                dirs = t.diag + t.orth
            for table in dirs:
                for s in table[sq]:
                    q = board[s]
                    if s in zone:
                        hits += 1
                    if q:
                        if q >> 3 != c:
                            count += 1
                        break
                    count += 1
        wmg, weg, typical = MOBILITY[kind]
        sign = -1 if c else 1
        mob_mg += sign * wmg * (count - typical)
        mob_eg += sign * weg * (count - typical)
        if hits:
            attack[c] += hits * KING_ATTACK_WEIGHT[kind]
            attackers[c] += 1
        if kind == ROOK:
            f = sq % files
            if not pawn_files[c][f]:
                if not pawn_files[c ^ 1][f]:
                    mg += sign * ROOK_OPEN_FILE[0]
                    eg += sign * ROOK_OPEN_FILE[1]
                else:
                    mg += sign * ROOK_HALF_OPEN_FILE[0]
                    eg += sign * ROOK_HALF_OPEN_FILE[1]
    mg += mob_mg
    eg += mob_eg

    # King safety (middlegame only): attack units grow quadratically once two pieces join.
    king_mg = 0
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        enemy = c ^ 1
        if attackers[enemy] >= 2:
            units = attack[enemy]
            king_mg -= sign * min(units * units // 2, 500)
        ksq = pos.kings[c]
        kf, kr = ksq % files, ksq // files
        rel = kr if c == WHITE else g.ranks - 1 - kr
        if rel <= 1:
            step = files if c == WHITE else -files
            shield = 0
            open_files = 0
            for df in (-1, 0, 1):
                f = kf + df
                if not 0 <= f < files:
                    continue
                s1 = ksq + step + df
                own = PAWN | (c << 3)
                if 0 <= s1 < g.size and board[s1] == own:
                    shield += 2
                elif 0 <= s1 + step < g.size and board[s1 + step] == own:
                    shield += 1
                if not pawn_files[c][f]:
                    open_files += 1
            king_mg += sign * (shield * PAWN_SHIELD // 2 - open_files * OPEN_FILE_NEAR_KING)
    mg += king_mg

    # Pawn structure.
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        mine, theirs = pawn_files[c], pawn_files[c ^ 1]
        for f in range(files):
            n = mine[f]
            if n > 1:
                mg -= sign * DOUBLED_PAWN[0] * (n - 1)
                eg -= sign * DOUBLED_PAWN[1] * (n - 1)
            if n and (f == 0 or not mine[f - 1]) and (f == files - 1 or not mine[f + 1]):
                mg -= sign * ISOLATED_PAWN[0] * n
                eg -= sign * ISOLATED_PAWN[1] * n
        enemy_pawn = PAWN | ((c ^ 1) << 3)
        for sq in pawns[c]:
            f, r = sq % files, sq // files
            passed = True
            for df in (-1, 0, 1):
                ff = f + df
                if not 0 <= ff < files or not theirs[ff]:
                    continue
                rr = r + 1 if c == WHITE else r - 1
                while 0 <= rr < g.ranks:
                    if board[rr * files + ff] == enemy_pawn:
                        passed = False
                        break
                    rr += 1 if c == WHITE else -1
                if not passed:
                    break
            if passed:
                rel = r if c == WHITE else g.ranks - 1 - r
                bmg, beg = t.passed[rel]
                mg += sign * bmg
                eg += sign * beg

    # Bishops: a pair on both colours is worth more; two on one colour less (MRC, §4.3).
    for c in (WHITE, BLACK):
        b = bishops[c]
        if len(b) >= 2:
            sign = 1 if c == WHITE else -1
            colours = {(s % files + s // files) & 1 for s in b}
            if len(colours) == 2:
                mg += sign * BISHOP_PAIR[0]
                eg += sign * BISHOP_PAIR[1]
            else:
                mg -= sign * SAME_COLOUR_BISHOPS
                eg -= sign * SAME_COLOUR_BISHOPS

    # Rights worth keeping: castling, and a Bishop Adjustment that still has a partner.
    if pos.castling:
        for c in (WHITE, BLACK):
            if pos.castling & _home_mask(g, c):
                mg += CASTLING_RIGHT if c == WHITE else -CASTLING_RIGHT
    if pos.adjust_rights:
        for c in (WHITE, BLACK):
            if pos.adjust_rights >> c & 1 and pos.adjustment_pairs(c):
                mg += ADJUSTMENT_RIGHT if c == WHITE else -ADJUSTMENT_RIGHT

    phase = min(phase, t.max_phase)
    score = (mg * phase + eg * (t.max_phase - phase)) // t.max_phase
    return (score if pos.turn == WHITE else -score) + TEMPO


_HOME_MASKS: dict[tuple[int, int, int], int] = {}


def _home_mask(g: Geometry, c: int) -> int:
    key = (g.files, g.ranks, c)
    m = _HOME_MASKS.get(key)
    if m is None:
        r = 0 if c == WHITE else g.ranks - 1
        m = _HOME_MASKS[key] = sum(1 << g.square(f, r) for f in range(g.files))
    return m


def is_drawish_material(pos: Position) -> bool:
    """Bare kings or a single minor piece: no side can win (used to stop the search).  The
    judgement is the rules' own (``game.is_dead_position``); the count only keeps the
    common case cheap at every node."""
    if len(pos.piece_squares(WHITE)) + len(pos.piece_squares(BLACK)) > 3:
        return False
    return is_dead_position(pos)


__all__ = ["evaluate", "is_drawish_material", "material_value"]
