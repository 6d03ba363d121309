"""Static evaluation for any board and army: material, generated piece-square tables,
mobility, king safety, pawn structure, and the value of castling and Bishop Adjustment rights.

Scores are centipawns from the side to move's point of view.  Material comes from the
variant (``Variant.piece_values``), movement from the piece table, and every table is
generated from the board geometry (no hard-coded 8x8 arrays), so 8x8, 9x9 and 10x8 share one
evaluator; on top of that, a board size may have fitted per-square corrections as data
(``engine/data/pst_squares.json``: 8x8 has them).  The tunable numbers are gathered at the
top of the module (sunfish's habit, STYLE.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from typing import Final, NamedTuple, TypeVar, cast

from randomchess.game import is_dead_position
from randomchess.geometry import KING_LEAPS, Geometry
from randomchess.pieces import (
    ARCHBISHOP,
    BISHOP,
    BLACK,
    CHANCELLOR,
    KIND_BY_LETTER,
    KING,
    KNIGHT,
    MINISTER,
    PAWN,
    PIECE_CODE_LIMIT,
    PIECE_COLOR,
    PIECE_KIND,
    PIECE_TYPES,
    QUEEN,
    ROOK,
    WHITE,
    Piece,
    PieceKind,
    make_piece,
)
from randomchess.position import Position
from randomchess.variants import Variant

# ------------------------------------------------------------------ tunable numbers
# Material is the variant's (Variant.piece_values).  The per-kind numbers below cover every
# kind of the piece table; a kind missing here gets _DEFAULT_KIND's.
# Game phase weight of each kind (pawns and kings count 0).
PHASE_WEIGHT = {KNIGHT: 1, BISHOP: 1, ROOK: 2, QUEEN: 4, MINISTER: 3, ARCHBISHOP: 3,
                CHANCELLOR: 3}
# Mobility: centipawns per reachable square beyond the typical count, (mg, eg, typical).
MOBILITY = {
    KNIGHT: (2, 2, 4), BISHOP: (6, 4, 6), ROOK: (6, 1, 6), QUEEN: (4, 5, 12),
    MINISTER: (3, 3, 9), ARCHBISHOP: (3, 3, 9), CHANCELLOR: (2, 3, 10),
}
# King safety: penalty by number of attacks on the squares around the king (middlegame).
KING_ATTACK_WEIGHT = {KNIGHT: 2, BISHOP: 2, ROOK: 3, QUEEN: 5, MINISTER: 4, ARCHBISHOP: 4,
                      CHANCELLOR: 4}
# Piece-square tables of the orthodox kinds: (mg, eg) weights of the square's shapes
# (PST_BASIS, computed by pst_basis), fitted with the other weights below to Stockfish's
# scores of quiet Chess960 positions (randomchess.engine.tuning, bench/tune_eval.py).
PST_BASIS = ("centre", "file_centre", "rank", "rank2", "home", "seventh", "file_centre_rank")
PST_SHAPE: dict[PieceKind, tuple[tuple[float, ...], tuple[float, ...]]] = {
    PAWN: ((-37.6, 24.6, 15.4, 77.9, 0.0, 10.8, 85.1),
        (-5.6, 16.7, -53.3, 45.0, 0.0, 29.0, -61.3)),
    KNIGHT: ((47.4, 8.8, 14.4, 23.4, -7.7, -10.0, 45.0),
        (42.0, 12.7, -14.6, -8.8, -48.3, 16.8, -6.4)),
    BISHOP: ((25.8, -4.6, 8.2, -26.1, 6.2, 20.4, 26.1),
        (1.5, 7.8, -4.3, -5.2, -6.5, -4.2, -18.8)),
    ROOK: ((-34.3, 31.6, -29.7, 10.8, 12.8, 15.7, -30.4),
        (54.4, -29.9, 44.4, 15.2, 2.3, 4.5, 27.7)),
    QUEEN: ((-14.3, 13.8, -10.8, 0.4, 8.0, -22.1, -29.9),
        (77.2, 29.8, 75.1, 51.5, -35.3, 28.0, 11.3)),
    KING: ((-6.1, -50.4, -130.8, 39.1, -22.6, 18.8, -6.7),
        (50.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
}
# Per-square corrections to those tables on boards of one size, added to the shapes' sum:
# {(files, ranks): {kind: (mg by square, eg by square)}} for a White piece (Black's mirrored),
# fitted to Stockfish like the shapes (engine/data/pst_squares.json, written by
# bench/tune_eval.py fit --squares).  A board without an entry uses the shapes alone.
SQUARE_TABLES_FILE = "data/pst_squares.json"
# The fairy kinds' piece-square shape: (mg scale, eg scale, home-rank penalty); the bonus is
# int(centre * scale) - scale // 2, centre = 1 in the middle, 0 in a corner.
CENTRE_SHAPE = {MINISTER: (40, 30, 10), ARCHBISHOP: (40, 30, 10), CHANCELLOR: (30, 30, 10)}
_DEFAULT_KIND = (2, (2, 3, 8), 3, (30, 20, 10))  # phase, mobility, king attack, shape
KING_DANGER = 62  # percent of min(units**2 / 2, 500), the attack on a king
PAWN_SHIELD = 5  # per own pawn in front of a king on its home ranks
OPEN_FILE_NEAR_KING = 23  # per file next to the king with no own pawn
DOUBLED_PAWN = (39, 6)
ISOLATED_PAWN = (15, 5)
# Passed pawns: (mg, eg) times (rank / last)**2 and times rank / last, rank relative to home
# and ``last`` the rank before promotion.
PASSED_PAWN = (69, 165)
PASSED_PAWN_LINEAR = (-51, -11)
BISHOP_PAIR = (70, 54)  # two bishops on squares of different colours
SAME_COLOUR_BISHOPS = 25  # two bishops sharing a colour (MRC arrays, before any adjustment)
CASTLING_RIGHT = 15  # per side that keeps a castling right (middlegame)
ADJUSTMENT_RIGHT = 15  # a live Bishop Adjustment with a partner still beside its bishop
ROOK_OPEN_FILE = (33, 0)
ROOK_HALF_OPEN_FILE = (13, 11)
TEMPO = 25
# A piece (not a pawn or king) attacked by an enemy pawn, (mg, eg): of the side to move
# (it may still step away) and of the side that is not (the mover takes it, or a second
# threat wins it).
PAWN_THREAT_TO_MOVER = (-62, -20)
PAWN_THREAT_TO_WAITING = (-100, -23)
MINOR_DEFENDED_BY_PAWN = (-1, 18)  # a knight, bishop or minister a friendly pawn defends
# Pawn-structure entries kept by pawn placement (the pawn hash, issue 16.4).
PAWN_CACHE_ENTRIES: Final = 1 << 16

Table = tuple[tuple[int, ...], ...]
PawnFiles = tuple[tuple[int, ...], tuple[int, ...]]  # pawns per file, per colour
# The pawn hash's entry: mg, eg, pawns per file, squares attacked by each colour's pawns.
PawnEntry = tuple[int, int, PawnFiles, tuple[int, int]]
_Scan = tuple[Table | None, Table, tuple[Table, ...], int, int, int, int, bool]


class _Mover(NamedTuple):
    """How a non-pawn piece kind is scanned for mobility and king attacks."""

    leaps: Table | None  # leap targets per square
    rays: tuple[Table, ...]  # slide rays per direction, per square
    mobility: tuple[int, int, int]
    king_attack: int
    rook: bool  # paid for an open or half-open file


class _Tables:
    """Everything the evaluator precomputes for one variant (its board and army)."""

    def __init__(self, v: Variant) -> None:
        g = v.geometry
        self.g = g
        self.material = {k: v.piece_value(k) for k in v.kinds | {KING}}
        # Both armies complete: every piece of the start array counts, twice.
        self.max_phase = 2 * sum(_phase(KIND_BY_LETTER[c]) for c in v.army if c != "K")
        self.pst_mg, self.pst_eg = _piece_square_tables(v, self.material)
        self.movers: dict[PieceKind, _Mover] = {
            kind: _Mover(
                g.leaps(t.leaps) if t.leaps else None,
                tuple(g.rays(d) for d in t.slides),
                MOBILITY.get(kind, _DEFAULT_KIND[1]),
                KING_ATTACK_WEIGHT.get(kind, _DEFAULT_KIND[2]),
                kind == ROOK,
            )
            for kind, t in PIECE_TYPES.items() if kind not in (PAWN, KING)
        }
        # By piece code, so the evaluation's loops index once.
        self.movers_by_code: list[_Mover] = [self.movers[KNIGHT]] * PIECE_CODE_LIMIT
        self.phase_of = [0] * PIECE_CODE_LIMIT
        self.codes = tuple((make_piece(PAWN, c), make_piece(KING, c), make_piece(BISHOP, c))
                           for c in (WHITE, BLACK))
        for kind, mover in self.movers.items():
            for c in (WHITE, BLACK):
                self.movers_by_code[make_piece(kind, c)] = mover
                self.phase_of[make_piece(kind, c)] = _phase(kind)
        self.file_masks, self.passed_masks = _pawn_masks(g)
        self.weights = _weights(g, self.pst_mg, self.pst_eg, self.phase_of)
        # The pawn hash: the pawn-structure terms and the pawns per file, by the pawns'
        # placement (cleared when full).
        self.pawn_cache: dict[int, PawnEntry] = {}
        king = g.leaps(KING_LEAPS)
        # King zone: the king's square and its neighbours.
        self.zone = tuple(frozenset((sq, *king[sq])) for sq in range(g.size))
        # The same as 0/1 flags by square (added up in the slider scans).
        self.zone_flags = tuple(
            tuple(1 if s in self.zone[k] else 0 for s in range(g.size)) for k in range(g.size)
        )
        self.scan = _scans(g, self.movers, self.zone)
        # Passed-pawn bonus by relative rank (0 = home rank).
        last = g.ranks - 2
        self.passed = tuple(
            (round(PASSED_PAWN[0] * (r / last) ** 2 + PASSED_PAWN_LINEAR[0] * r / last),
             round(PASSED_PAWN[1] * (r / last) ** 2 + PASSED_PAWN_LINEAR[1] * r / last))
            if 1 <= r <= last else (0, 0)
            for r in range(g.ranks)
        )
        # Pawn attacks as bit sets, by shifting the pawns: a pawn on the first (last) file
        # attacks nothing towards the left (right).
        self.board_mask = (1 << g.size) - 1
        self.not_first_file = sum(1 << sq for sq in range(g.size) if g.file_of(sq) != 0)
        self.not_last_file = sum(1 << sq for sq in range(g.size)
                                 if g.file_of(sq) != g.files - 1)
        # Pieces a friendly pawn's defence makes an outpost of: knights, bishops, minister.
        self.is_minor = [PIECE_KIND[p] in (KNIGHT, BISHOP, MINISTER) for p in
                         range(PIECE_CODE_LIMIT)]
        self.home_masks = tuple(
            sum(1 << g.square(f, 0 if c == WHITE else g.ranks - 1) for f in range(g.files))
            for c in (WHITE, BLACK)
        )


def _piece_square_tables(v: Variant, material: dict[PieceKind, tuple[int, int]]
                         ) -> tuple[list[list[int]], list[list[int]]]:
    """(mg, eg) material plus placement by piece code and square; Black's table is White's
    reflected through the middle rank."""
    g = v.geometry
    pst_mg: list[list[int]] = [[0] * g.size for _ in range(PIECE_CODE_LIMIT)]
    pst_eg: list[list[int]] = [[0] * g.size for _ in range(PIECE_CODE_LIMIT)]
    for kind in v.kinds | {KING}:
        for sq in range(g.size):
            mg, eg = _pst(g, kind, sq)
            mg += material[kind][0]
            eg += material[kind][1]
            mirror = g.square(g.file_of(sq), g.ranks - 1 - g.rank_of(sq))
            pst_mg[make_piece(kind, WHITE)][sq] = mg
            pst_eg[make_piece(kind, WHITE)][sq] = eg
            pst_mg[make_piece(kind, BLACK)][mirror] = mg
            pst_eg[make_piece(kind, BLACK)][mirror] = eg
    return pst_mg, pst_eg


def _pawn_masks(g: Geometry) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Pawn structure from bit sets (bit ``sq`` set = a pawn on ``sq``): the squares of each
    file, and per colour and square the squares ahead on its file and beside it, where an
    enemy pawn stops a passed pawn."""
    file_masks = tuple(
        sum(1 << g.square(f, r) for r in range(g.ranks)) for f in range(g.files)
    )
    passed_masks = tuple(
        tuple(
            sum(1 << g.square(ff, rr)
                for ff in range(g.file_of(sq) - 1, g.file_of(sq) + 2) if 0 <= ff < g.files
                for rr in (range(g.rank_of(sq) + 1, g.ranks) if c == WHITE
                           else range(g.rank_of(sq))))
            for sq in range(g.size)
        )
        for c in (WHITE, BLACK)
    )
    return file_masks, passed_masks


def _weights(g: Geometry, pst_mg: list[list[int]], pst_eg: list[list[int]],
             phase_of: list[int]) -> tuple[tuple[int, ...], ...]:
    """Material + placement and the game phase of every piece code on every square, packed
    into one int (see _pack) for Position.track_weights: the search's position keeps their
    sum up to date in push/pop (incremental evaluation)."""
    return tuple(
        tuple(
            _pack(pst_mg[p][sq], pst_eg[p][sq], phase)
            if PIECE_COLOR[p] == WHITE else
            _pack(-pst_mg[p][sq], -pst_eg[p][sq], phase)
            for sq in range(g.size)
        ) if PIECE_KIND[p] else (0,) * g.size
        for p, phase in ((p, phase_of[p]) for p in range(PIECE_CODE_LIMIT))
    )


def _scans(g: Geometry, movers: dict[PieceKind, _Mover],
           zone: tuple[frozenset[int], ...]) -> list[_Scan]:
    """By piece code: (leaps, zone hits of the leaps, rays, mg and eg weight, typical
    mobility, king-attack weight, rook), unpacked once per piece in _mobility.  A leaper's
    zone hits are the number of its leaps from a square into each king's zone, which does
    not depend on what stands where."""
    leap_hits: dict[Table, tuple[tuple[int, ...], ...]] = {}
    for mover in movers.values():
        if mover.leaps is not None and mover.leaps not in leap_hits:
            leap_hits[mover.leaps] = tuple(
                tuple(sum(1 for s in mover.leaps[sq] if s in zone[k]) for k in range(g.size))
                for sq in range(g.size)
            )
    scan: list[_Scan] = [(None, (), (), 0, 0, 0, 0, False)] * PIECE_CODE_LIMIT
    for kind, mover in movers.items():
        wmg, weg, typical = mover.mobility
        entry: _Scan = (mover.leaps, () if mover.leaps is None else leap_hits[mover.leaps],
                        mover.rays, wmg, weg, typical, mover.king_attack, mover.rook)
        for c in (WHITE, BLACK):
            scan[make_piece(kind, c)] = entry
    return scan


_LANE_BITS: Final = 20  # mg and eg each within +-2**19 centipawns, the phase below 2**20
_LANE: Final = 1 << _LANE_BITS
_HALF: Final = _LANE >> 1


def _pack(mg: int, eg: int, phase: int) -> int:
    """Three integers in one, so a sum of packs is the pack of the sums (one addition per
    changed square in push/pop instead of three)."""
    return mg + (eg << _LANE_BITS) + (phase << 2 * _LANE_BITS)


def _unpack(v: int) -> tuple[int, int, int]:
    mg = ((v + _HALF) & (_LANE - 1)) - _HALF
    v = (v - mg) >> _LANE_BITS
    eg = ((v + _HALF) & (_LANE - 1)) - _HALF
    return mg, eg, (v - eg) >> _LANE_BITS


def incremental_weights(variant: Variant) -> Sequence[Sequence[int]]:
    """The table to give ``Position.track_weights`` so that :func:`evaluate` reads the
    material, piece-square and phase terms from the position instead of adding them up."""
    return _tables(variant).weights


def _phase(kind: PieceKind) -> int:
    return PHASE_WEIGHT.get(kind, _DEFAULT_KIND[0])


def pst_basis(g: Geometry, sq: int) -> tuple[float, ...]:
    """The shapes of a White piece's square that the piece-square tables combine
    (``PST_BASIS``): from the geometry alone, so the same weights fit any board."""
    f, r = g.file_of(sq), g.rank_of(sq)
    cf, cr = (g.files - 1) / 2, (g.ranks - 1) / 2
    centre = 1.0 - (abs(f - cf) / cf + abs(r - cr) / cr) / 2  # 1 in the middle, 0 in a corner
    file_centre = 1.0 - abs(f - cf) / cf
    rank = r / (g.ranks - 1)
    return (centre, file_centre, rank, rank * rank, 1.0 if r == 0 else 0.0,
            1.0 if r == g.ranks - 2 else 0.0, file_centre * rank)


@cache
def square_tables() -> dict[tuple[int, int], dict[PieceKind, tuple[tuple[float, ...],
                                                                   tuple[float, ...]]]]:
    """The per-square corrections (``SQUARE_TABLES_FILE``), by board size and kind."""
    text = resources.files("randomchess.engine").joinpath(SQUARE_TABLES_FILE).read_text(
        encoding="utf-8")
    out: dict[tuple[int, int], dict[PieceKind, tuple[tuple[float, ...], tuple[float, ...]]]] = {}
    for size, kinds in json.loads(text)["boards"].items():
        files, ranks = (int(n) for n in size.split("x"))
        out[files, ranks] = {
            KIND_BY_LETTER[letter]: (tuple(float(x) for x in tables["mg"]),
                                     tuple(float(x) for x in tables["eg"]))
            for letter, tables in kinds.items()
        }
        for mg, eg in out[files, ranks].values():
            if len(mg) != files * ranks or len(eg) != files * ranks:
                raise ValueError(f"{SQUARE_TABLES_FILE}: a {size} table needs "
                                 f"{files * ranks} squares")
    return out


def _pst(g: Geometry, kind: int, sq: int) -> tuple[int, int]:
    """Positional bonus (mg, eg) of a White piece of ``kind`` on ``sq``, from the geometry."""
    shape = PST_SHAPE.get(kind)
    if shape is not None:
        basis = pst_basis(g, sq)
        mg = sum(w * b for w, b in zip(shape[0], basis, strict=True))
        eg = sum(w * b for w, b in zip(shape[1], basis, strict=True))
        squares = square_tables().get((g.files, g.ranks), {}).get(kind)
        if squares is not None:
            mg += squares[0][sq]
            eg += squares[1][sq]
        return round(mg), round(eg)
    # The fairy pieces (no engine to fit them to on 8x8): centralising, a little for
    # leaving home.
    f, r = g.file_of(sq), g.rank_of(sq)
    cf, cr = (g.files - 1) / 2, (g.ranks - 1) / 2
    centre = 1.0 - (abs(f - cf) / cf + abs(r - cr) / cr) / 2
    mg_scale, eg_scale, home = CENTRE_SHAPE.get(kind, _DEFAULT_KIND[3])
    mg = int(centre * mg_scale) - mg_scale // 2 - (home if r == 0 else 0)
    return mg, int(centre * eg_scale) - eg_scale // 2


T = TypeVar("T")


def per_variant(build: Callable[[Variant], T]) -> Callable[[Variant], T]:
    """``build`` once per variant (cached); the last variant asked for is kept by identity,
    which spares the cache's hash of the variant on every node (one rebinding of a tuple:
    safe across threads)."""
    built = cache(build)
    cell: list[tuple[object, object]] = [(None, None)]

    def get(variant: Variant) -> T:
        held, tables = cell[0]
        if held is variant:
            return cast(T, tables)
        made = built(variant)
        cell[0] = (variant, made)
        return made

    return get


_tables = per_variant(_Tables)


def material_value(variant: Variant, kind: int) -> int:
    """Middlegame value of ``kind`` in centipawns in ``variant`` (used by move ordering)."""
    return _tables(variant).material[kind][0]


def evaluate(pos: Position) -> int:
    """Static score of ``pos`` in centipawns for the side to move."""
    t = _tables(pos.variant)
    board = pos.board
    weights = t.weights
    tracked = pos.weights is weights
    packed = pos.weight if tracked else 0
    pawn_bits = [0, 0]
    pieces: list[tuple[int, Piece]] = []
    bishops: tuple[list[int], list[int]] = ([], [])
    # One pass over the pieces: the pawns as a bit set (the key of the pawn hash), the
    # other pieces for mobility, and material, placement and phase unless the position
    # keeps them (Position.track_weights).
    # The board is scanned once for both colours (the position keeps no square sets, issue
    # 36); White's pieces come first in ``pieces``, then Black's, each in square order.
    color_of = PIECE_COLOR
    black_pieces: list[tuple[int, Piece]] = []
    for sq in range(len(board)):
        p = board[sq]
        if not p:
            continue
        c = color_of[p]
        pawn, king, bishop = t.codes[c]
        if not tracked:
            packed += weights[p][sq]
        if p == pawn:
            pawn_bits[c] |= 1 << sq
        elif p != king:
            (pieces if c == WHITE else black_pieces).append((sq, p))
            if p == bishop:
                bishops[c].append(sq)
    pieces += black_pieces
    mg, eg, phase = _unpack(packed)
    pawn_key = pawn_bits[0] | pawn_bits[1] << t.g.size
    entry = t.pawn_cache.get(pawn_key)
    if entry is None:
        if len(t.pawn_cache) >= PAWN_CACHE_ENTRIES:
            t.pawn_cache.clear()
        entry = t.pawn_cache[pawn_key] = _pawn_structure(t, pawn_bits[0], pawn_bits[1])
    pawn_mg, pawn_eg, pawn_files, pawn_attacks = entry
    threatened = [0, 0]
    defended = [0, 0]
    mob_mg, mob_eg, attack, attackers = _mobility(pos, t, pieces, pawn_files, pawn_attacks,
                                                  threatened, defended)
    mg += mob_mg + _king_safety(pos, pawn_files, attack, attackers)
    eg += mob_eg
    # Pieces attacked by enemy pawns, and minor pieces defended by their own.
    if threatened[0] or threatened[1]:
        us = pos.turn
        mover = threatened[us] if us == WHITE else -threatened[us]
        waiting = threatened[WHITE] - threatened[BLACK] - mover
        mg += PAWN_THREAT_TO_MOVER[0] * mover + PAWN_THREAT_TO_WAITING[0] * waiting
        eg += PAWN_THREAT_TO_MOVER[1] * mover + PAWN_THREAT_TO_WAITING[1] * waiting
    if defended[0] != defended[1]:
        mg += MINOR_DEFENDED_BY_PAWN[0] * (defended[0] - defended[1])
        eg += MINOR_DEFENDED_BY_PAWN[1] * (defended[0] - defended[1])
    bishop_mg, bishop_eg = _bishops(pos.geometry, bishops)
    mg += pawn_mg + bishop_mg + _rights(pos, t)
    eg += pawn_eg + bishop_eg
    phase = min(phase, t.max_phase)
    score = (mg * phase + eg * (t.max_phase - phase)) // t.max_phase
    return (score if pos.turn == WHITE else -score) + TEMPO


def _mobility(pos: Position, t: _Tables, pieces: list[tuple[int, Piece]],
              pawn_files: PawnFiles, pawn_attacks: tuple[int, int], threatened: list[int],
              defended: list[int]) -> tuple[int, int, list[int], list[int]]:
    """Mobility and rook files (mg, eg), and per colour the attack units on the enemy king's
    zone and the number of pieces adding them, in one pass over the pieces; the same pass
    counts into ``threatened`` the pieces an enemy pawn attacks and into ``defended`` the
    minor pieces a pawn of their own defends, by colour."""
    board = pos.board
    files = pos.geometry.files
    color_of = PIECE_COLOR
    kings = pos.kings
    zone_flags = (t.zone_flags[kings[WHITE]], t.zone_flags[kings[BLACK]])
    scan = t.scan
    attack = [0, 0]
    attackers = [0, 0]
    is_minor = t.is_minor
    mg = eg = 0
    for sq, p in pieces:
        c = color_of[p]
        leaps, leap_hits, rays, wmg, weg, typical, king_attack, rook = scan[p]
        count = hits = 0
        if leaps is not None:
            for s in leaps[sq]:
                if color_of[board[s]] != c:
                    count += 1
            hits = leap_hits[sq][kings[c ^ 1]]
        zone = zone_flags[c ^ 1]
        for table in rays:
            for s in table[sq]:
                q = board[s]
                hits += zone[s]
                if q:
                    if color_of[q] != c:
                        count += 1
                    break
                count += 1
        if c:
            mg -= wmg * (count - typical)
            eg -= weg * (count - typical)
        else:
            mg += wmg * (count - typical)
            eg += weg * (count - typical)
        if hits:
            attack[c] += hits * king_attack
            attackers[c] += 1
        if pawn_attacks[c ^ 1] >> sq & 1:
            threatened[c] += 1
        if is_minor[p] and pawn_attacks[c] >> sq & 1:
            defended[c] += 1
        if rook:
            f = sq % files
            if not pawn_files[c][f]:
                bonus = ROOK_HALF_OPEN_FILE if pawn_files[c ^ 1][f] else ROOK_OPEN_FILE
                sign = -1 if c else 1
                mg += sign * bonus[0]
                eg += sign * bonus[1]
    return mg, eg, attack, attackers


def _king_safety(pos: Position, pawn_files: PawnFiles, attack: list[int],
                 attackers: list[int]) -> int:
    """Middlegame only: attack units grow quadratically once two pieces join; a pawn shield
    and closed files near a king at home help."""
    king_mg = 0
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        enemy = c ^ 1
        if attackers[enemy] >= 2:
            units = attack[enemy]
            king_mg -= sign * (min(units * units // 2, 500) * KING_DANGER // 100)
        shelter = king_shelter(pos, c, pawn_files)
        if shelter is not None:
            shield, open_files = shelter
            king_mg += sign * (shield * PAWN_SHIELD // 2 - open_files * OPEN_FILE_NEAR_KING)
    return king_mg


def king_shelter(pos: Position, c: int, pawn_files: PawnFiles) -> tuple[int, int] | None:
    """For a king of colour ``c`` on its two home ranks: (shield, open files) — 2 per own
    pawn just in front of it on its file or the next, 1 per pawn a rank further; the files
    among those three with no own pawn.  None for a king that has left home."""
    g = pos.geometry
    board = pos.board
    files = g.files
    ksq = pos.kings[c]
    kf, kr = ksq % files, ksq // files
    if (kr if c == WHITE else g.ranks - 1 - kr) > 1:
        return None
    step = files if c == WHITE else -files
    own = make_piece(PAWN, c)
    shield = open_files = 0
    for df in (-1, 0, 1):
        f = kf + df
        if not 0 <= f < files:
            continue
        s1 = ksq + step + df
        if 0 <= s1 < g.size and board[s1] == own:
            shield += 2
        elif 0 <= s1 + step < g.size and board[s1 + step] == own:
            shield += 1
        if not pawn_files[c][f]:
            open_files += 1
    return shield, open_files


def _pawn_structure(t: _Tables, white: int, black: int) -> PawnEntry:
    """Doubled, isolated and passed pawns (mg, eg), the pawns per file of each colour and
    the squares each colour's pawns attack, from the two pawn bit sets: a function of the
    pawns alone, so the pawn hash keeps it."""
    g = t.g
    files = g.files
    attacks = ((((white & t.not_first_file) << (files - 1))
                | ((white & t.not_last_file) << (files + 1))) & t.board_mask,
               ((black & t.not_first_file) >> (files + 1))
               | ((black & t.not_last_file) >> (files - 1)))
    bits = (white, black)
    counts = tuple(tuple((b & m).bit_count() for m in t.file_masks) for b in bits)
    mg = eg = 0
    for c in (WHITE, BLACK):
        sign = 1 if c == WHITE else -1
        mine = counts[c]
        for f in range(files):
            n = mine[f]
            if n > 1:
                mg -= sign * DOUBLED_PAWN[0] * (n - 1)
                eg -= sign * DOUBLED_PAWN[1] * (n - 1)
            if n and (f == 0 or not mine[f - 1]) and (f == files - 1 or not mine[f + 1]):
                mg -= sign * ISOLATED_PAWN[0] * n
                eg -= sign * ISOLATED_PAWN[1] * n
        theirs = bits[c ^ 1]
        front = t.passed_masks[c]
        b = bits[c]
        while b:
            low = b & -b
            b ^= low
            sq = low.bit_length() - 1
            if not front[sq] & theirs:  # no enemy pawn ahead on its file or beside it
                r = sq // files
                bmg, beg = t.passed[r if c == WHITE else g.ranks - 1 - r]
                mg += sign * bmg
                eg += sign * beg
    return mg, eg, (counts[0], counts[1]), attacks


def _bishops(g: Geometry, bishops: tuple[list[int], list[int]]) -> tuple[int, int]:
    """A pair on both colours is worth more; two on one colour less (MRC, §4.3)."""
    files = g.files
    mg = eg = 0
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
    return mg, eg


# Share (%) of a piece's value while it waits in hand with a gate still open.
HAND_SHARE: Final = 85


def _rights(pos: Position, t: _Tables) -> int:
    """Rights worth keeping (mg): castling, a Bishop Adjustment that has a partner, and
    pieces in hand that may still be gated."""
    mg = 0
    if pos.castling:
        for c in (WHITE, BLACK):
            if pos.castling & t.home_masks[c]:
                mg += CASTLING_RIGHT if c == WHITE else -CASTLING_RIGHT
    if pos.adjust_rights:
        for c in (WHITE, BLACK):
            if pos.adjust_rights >> c & 1 and pos.adjustment_pairs(c):
                mg += ADJUSTMENT_RIGHT if c == WHITE else -ADJUSTMENT_RIGHT
    if pos.gates:
        # Pieces in hand that may still enter (gating, D-31): most of their value, so that
        # gating gains a little (the piece comes into play) rather than a whole queen.
        for c in (WHITE, BLACK):
            if pos.can_gate(c):
                v = sum(t.material[k][0] for k in pos.hand[c]) * HAND_SHARE // 100
                mg += v if c == WHITE else -v
    return mg


def is_drawish_material(pos: Position) -> bool:
    """Bare kings or a single minor piece: no side can win (used to stop the search).  The
    judgement is the rules' own (``game.is_dead_position``); the count only keeps the
    common case cheap at every node."""
    found = 0
    for p in pos.board:  # stops at the fourth man, near the start of most boards
        if p:
            found += 1
            if found > 3:
                return False
    return is_dead_position(pos)


__all__ = ["evaluate", "incremental_weights", "is_drawish_material", "material_value"]
