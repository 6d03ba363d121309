"""The rules: legal moves, make/unmake, check, castling by rook rights, bishop adjustments.

A :class:`Position` is always legal: it is built from a :class:`~randomchess.fen.Setup`
(or a FEN) and checked once, then changed only by legal moves.

Moves are ``Move(from_square, to_square, promotion)``.  Two kinds of move are told apart by
what stands on the squares rather than by a flag, so the encoding is exactly the UCI text:

* castling is the king "capturing" its own castling rook (D-21, RULES.md §2.6);
* a Bishop Adjustment is the bishop "capturing" the adjacent partner it swaps with
  (RULES.md §4.7, BAR-2);
* in a gating variant (``Variant.hand``, docs/rules.md D-31) the third field of a piece's
  move (never a pawn's) is the kind gated onto its from-square, as UCI writes it (``b1c3q``);
  castling gating on the rook's square is written rook square + king square (``h1e1q``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Final, NamedTuple

from randomchess.errors import FenError, IllegalMoveError, InvalidMoveError
from randomchess.fen import Setup, format_fen, home_rank, parse_fen
from randomchess.geometry import DIAGONAL, KING_LEAPS, ORTHOGONAL, Geometry
from randomchess.pieces import (
    BISHOP,
    BLACK,
    KIND_BY_LETTER,
    KING,
    NO_COLOR,
    PAWN,
    PIECE_CODE_LIMIT,
    PIECE_CODES,
    PIECE_COLOR,
    PIECE_KIND,
    PIECE_TYPES,
    ROOK,
    WHITE,
    Color,
    PieceKind,
    is_piece,
    make_piece,
    piece_symbol,
)
from randomchess.variants import Variant, get_variant

DIRECTIONS: Final = ORTHOGONAL + DIAGONAL  # index < 4: orthogonal, >= 4: diagonal


class Move(NamedTuple):
    """A move as two squares plus an optional promotion kind (0 = none)."""

    from_square: int
    to_square: int
    promotion: PieceKind = 0


class _Tables:
    """Per (geometry, piece set) lookup tables used by the hot paths."""

    def __init__(self, g: Geometry, margin: int = 0) -> None:
        self.g = g
        # rays[sq] = 8 tuples of squares, in DIRECTIONS order
        self.rays = tuple(tuple(g.ray(sq, d) for d in DIRECTIONS) for sq in range(g.size))
        self.king_leaps = g.leaps(KING_LEAPS)
        # lines[a][b]: the index of the direction from a whose ray holds b, or -1.
        self.lines = tuple([-1] * g.size for _ in range(g.size))
        for sq in range(g.size):
            for d, ray in enumerate(self.rays[sq]):
                for s in ray:
                    self.lines[sq][s] = d
        # Movement of each kind as (leap table or None, slide direction indexes).
        self.leaps: dict[int, tuple[tuple[int, ...], ...] | None] = {}
        self.slides: dict[int, tuple[int, ...]] = {}
        for kind, t in PIECE_TYPES.items():
            if kind == PAWN:
                continue
            self.leaps[kind] = g.leaps(t.leaps) if t.leaps else None
            self.slides[kind] = tuple(DIRECTIONS.index(d) for d in t.slides)
        # The same two tables as tuples indexed by kind (None: no leap / no slide), for the
        # generator's inner loop (issue 36: a dict lookup per piece cost more).
        top = max(PIECE_TYPES) + 1
        self.kind_leaps = tuple(self.leaps.get(k) for k in range(top))
        # Attack detection: for each colour, the pieces that slide along direction d, and
        # groups of (leap table, pieces) for the leapers (symmetric leaps only).
        self.sliders: tuple[tuple[frozenset[int], ...], ...] = tuple(
            tuple(
                frozenset(make_piece(k, c) for k in self.slides if d in self.slides[k])
                for d in range(8)
            )
            for c in (WHITE, BLACK)
        )
        groups: dict[tuple[tuple[int, int], ...], set[int]] = {}
        for kind, t in PIECE_TYPES.items():
            if t.leaps:
                groups.setdefault(t.leaps, set()).add(kind)
        self.leapers: tuple[tuple[tuple[tuple[tuple[int, ...], ...], frozenset[int]], ...], ...] = (
            tuple(
                tuple((g.leaps(offs), frozenset(make_piece(k, c) for k in kinds))
                      for offs, kinds in groups.items())
                for c in (WHITE, BLACK)
            )
        )
        # pawn_attacks[c][sq]: squares a pawn of colour c on sq attacks.
        self.pawn_attacks = (g.leaps(((-1, 1), (1, 1))), g.leaps(((-1, -1), (1, -1))))
        self.pawn_code = (make_piece(PAWN, WHITE), make_piece(PAWN, BLACK))
        # slide_rays[kind][sq]: the rays a slider of that kind scans from sq.
        self.slide_rays: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {
            kind: tuple(tuple(self.rays[sq][d] for d in dirs) for sq in range(g.size))
            for kind, dirs in self.slides.items() if dirs
        }
        self.kind_rays: tuple[tuple[tuple[tuple[int, ...], ...], ...] | None, ...] = tuple(
            self.slide_rays.get(k) for k in range(top))
        # moves[a][b]: Move(a, b), made once per board size (about 0.3 MB on 8x8) and shared:
        # generation appends these instead of allocating a tuple per move, and perft spent a
        # third of its time making and freeing them (issue 36).  Moves are immutable tuples.
        self.moves = tuple(tuple(tuple.__new__(Move, (a, b, 0)) for b in range(g.size))
                           for a in range(g.size))
        # attack_rays[by][sq]: (ray, pieces of ``by`` sliding along it) for each direction.
        self.attack_rays = tuple(
            tuple(tuple(zip(self.rays[sq], self.sliders[c], strict=True)) for sq in range(g.size))
            for c in (WHITE, BLACK)
        )
        self.own = PIECE_CODES
        (self.z_piece, self.z_castling, self.z_ep, self.z_unmoved, self.z_adjust,
         self.z_turn) = _zobrist_keys(g)
        self.forward = (g.files, -g.files)
        # ``margin`` empty ranks behind each army (IFRC: 1, docs/rules.md): the home rank and
        # the pawns' start rank move in; promotion stays on the last rank (FIDE 3.7.5).
        low, high = margin * g.files, g.size - margin * g.files
        self.home_rows = (range(low, low + g.files), range(high - g.files, high))
        self.pawn_start_rank = (1 + margin, g.ranks - 2 - margin)
        self.promotion_rank = (g.ranks - 1, 0)
        # The home rows as bit sets, shared by every position of this board (issue 36).
        self.home_masks = tuple(sum(1 << sq for sq in row) for row in self.home_rows)


ZobristKeys = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...],
                    tuple[int, ...], tuple[int, int], int]


def _zobrist_keys(g: Geometry) -> ZobristKeys:
    """Zobrist keys (pieces, castling, en passant, unmoved, adjustment, turn), from a fixed
    seed so a position hashes the same in every process."""
    rng = random.Random(f"randomchess-zobrist-{g.files}x{g.ranks}")

    def keys() -> tuple[int, ...]:
        return tuple(rng.getrandbits(64) for _ in range(g.size))

    piece = tuple(keys() if PIECE_KIND[p] else (0,) * g.size for p in range(PIECE_CODE_LIMIT))
    castling, ep, unmoved = keys(), keys(), keys()
    return piece, castling, ep, unmoved, (rng.getrandbits(64), rng.getrandbits(64)), \
        rng.getrandbits(64)


@cache
def _tables(g: Geometry, margin: int = 0) -> _Tables:
    return _Tables(g, margin)


CastlingPaths = tuple[tuple[int, ...], tuple[int, ...]]


@cache
def _castling_paths(g: Geometry, castle_a: tuple[int, int], castle_h: tuple[int, int],
                    ksq: int, rsq: int) -> CastlingPaths:
    """(squares that must be empty, squares the king stands on, crosses or lands on) for
    castling with king and rook on ``ksq`` and ``rsq``: they depend on the board size and the
    variant's castling files only, so they are computed once per combination."""
    a_side = rsq < ksq
    kf, rf = castle_a if a_side else castle_h
    rank = g.rank_of(rsq)
    kdest, rdest = g.square(kf, rank), g.square(rf, rank)
    king_path = range(min(ksq, kdest), max(ksq, kdest) + 1)
    rook_path = range(min(rsq, rdest), max(rsq, rdest) + 1)
    empty = tuple(sorted((set(king_path) | set(rook_path)) - {ksq, rsq}))
    # The start square is known safe (castling is generated only out of check), and lifting
    # the rook cannot expose it alone (see _generate_castling); nearest the destination
    # first, where an attack is likeliest to be found.
    crossed = tuple(sorted(set(king_path) - {ksq} or {ksq}, key=lambda sq: abs(sq - kdest)))
    return empty, crossed


class _Undo(NamedTuple):
    move: Move
    changes: list[tuple[int, int]]  # (square, piece before the move)
    castling: int
    ep_square: int | None
    halfmove_clock: int
    adjust_rights: int
    unmoved: int
    kings: tuple[int, int]
    zobrist: int
    weight: int


NULL_MOVE: Final = Move(0, 0)


@cache
def _gating_keys(g: Geometry) -> tuple[tuple[int, ...], dict[tuple[int, int, int], int]]:
    """Zobrist keys of the gating state: one per gate square, one per (colour, kind, n-th
    piece of that kind) in hand; their own seed, so every other key stays as it was."""
    rng = random.Random(f"randomchess-gating-{g.files}x{g.ranks}")
    squares = tuple(rng.getrandbits(64) for _ in range(g.size))
    hand = {(c, k, n): rng.getrandbits(64)
            for c in (WHITE, BLACK) for k in range(16) for n in range(4)}
    return squares, hand


def _gating_zobrist(g: Geometry, hand: tuple[tuple[PieceKind, ...], tuple[PieceKind, ...]],
                    gates: int) -> int:
    squares, keys = _gating_keys(g)
    h = 0
    while gates:
        low = gates & -gates
        gates ^= low
        h ^= squares[low.bit_length() - 1]
    for c in (WHITE, BLACK):
        for n, k in enumerate(hand[c]):
            h ^= keys[c, k, hand[c][:n].count(k)]
    return h
_SIDE = ("White", "Black")


def _check_setup(s: Setup) -> None:
    """Everything a Setup must satisfy to be a position (``FenError`` naming the fault):
    the checks parse_fen makes on text, made again on the data, since a Setup can also be
    built by hand; the one check that needs attack tables (the side not to move is not in
    check) follows in ``Position._load``."""
    v = s.variant
    if not isinstance(v, Variant):
        raise FenError(f"setup variant {v!r} is not a Variant")
    g = v.geometry
    board = s.board
    if not isinstance(board, list) or len(board) != g.size:
        raise FenError(f"a {v.key} board has {g.size} squares")
    allowed = v.kinds | {KING}
    for sq, p in enumerate(board):
        if p != 0 and not (is_piece(p) and PIECE_KIND[p] in allowed):
            raise FenError(f"{g.name(sq)}: {p!r} is not a piece of {v.key}")
    if s.turn not in (WHITE, BLACK) or type(s.turn) is not int:
        raise FenError(f"side to move {s.turn!r} must be WHITE or BLACK")
    for c in (WHITE, BLACK):
        kings = board.count(make_piece(KING, c))
        if kings != 1:
            raise FenError(f"{_SIDE[c]} must have exactly one king, found {kings}")
    for sq, p in enumerate(board):
        if PIECE_KIND[p] == PAWN and g.rank_of(sq) in (0, g.ranks - 1):
            raise FenError(f"pawn on {g.name(sq)}, on the first or last rank")
    _check_castling(s)
    _check_en_passant(s)
    for name, value, low in (("half-move clock", s.halfmove_clock, 0),
                             ("move number", s.fullmove_number, 1)):
        if type(value) is not int or value < low:
            raise FenError(f"{name} {value!r} must be a whole number >= {low}")
    _check_unmoved(s)
    _check_gating(s)


def _check_gating(s: Setup) -> None:
    """Pieces in hand only of the variant's hand; gates only on home-rank squares holding one
    of the side's pieces (not a pawn), and only for a side with something in hand."""
    v = s.variant
    g = v.geometry
    if not isinstance(s.hand, dict) or not isinstance(s.gates, set):
        raise FenError("hand must be a dict and gates a set")
    if (s.hand or s.gates) and not v.has_gating:
        raise FenError(f"{v.key} has no pieces in hand")
    for c, kinds in s.hand.items():
        if c not in (WHITE, BLACK) or not isinstance(kinds, tuple) or any(
                kinds.count(k) > v.hand_kinds.count(k) for k in kinds):
            raise FenError(f"hand {kinds!r}: not pieces {v.key} holds in hand")
    for sq in s.gates:
        c = PIECE_COLOR[s.board[sq]] if type(sq) is int and 0 <= sq < g.size else NO_COLOR
        if c == NO_COLOR or sq not in _home_row(v, c) or PIECE_KIND[s.board[sq]] == PAWN:
            raise FenError(f"gate on {sq!r}: no piece on its home rank there")
        if not s.hand.get(c):
            raise FenError(f"gate on {g.name(sq)}, but {_SIDE[c]} has nothing in hand")


def _home_row(v: Variant, c: Color) -> list[int]:
    g = v.geometry
    return [g.square(f, home_rank(v, c)) for f in range(g.files)]


def _check_castling(s: Setup) -> None:
    """Each right names a rook on its home rank beside its king there, one per wing."""
    v = s.variant
    g = v.geometry
    board = s.board
    wings: set[tuple[Color, bool]] = set()
    for sq in s.castling_rooks:
        if type(sq) is not int or not 0 <= sq < g.size:
            raise FenError(f"castling right on {sq!r}, which is not a square")
        c = PIECE_COLOR[board[sq]]
        if c == NO_COLOR or board[sq] != make_piece(ROOK, c) or sq not in _home_row(v, c):
            raise FenError(f"castling right on {g.name(sq)}: no rook on its home rank there")
        ksq = board.index(make_piece(KING, c))
        if ksq not in _home_row(v, c):
            raise FenError(f"castling right on {g.name(sq)}, but {_SIDE[c]}'s king is not "
                           "on its home rank")
        wing = (c, sq < ksq)
        if wing in wings:
            raise FenError(f"castling rights give {_SIDE[c]} two rooks on one wing")
        wings.add(wing)


def _check_en_passant(s: Setup) -> None:
    """The en passant square is one a pawn of the side that just moved has skipped."""
    ep = s.ep_square
    if ep is None:
        return
    g = s.variant.geometry
    board = s.board
    if type(ep) is not int or not 0 <= ep < g.size:
        raise FenError(f"en passant square {ep!r} is not a square")
    forward = g.files if s.turn == WHITE else -g.files  # direction of the mover's pawns
    expected_rank = g.ranks - 3 - s.variant.margin if s.turn == WHITE else 2 + s.variant.margin
    if g.rank_of(ep) != expected_rank or board[ep - forward] != make_piece(PAWN, s.turn ^ 1) \
            or board[ep] or board[ep + forward]:
        raise FenError(f"en passant square {g.name(ep)}: no pawn can just have passed it")


def _check_unmoved(s: Setup) -> None:
    """Adjustment rights only in a variant with the rule, on never-moved home pieces."""
    v = s.variant
    g = v.geometry
    if s.unmoved and not v.has_adjustment:
        raise FenError(f"{v.key} has no bishop adjustment")
    for c, squares in s.unmoved.items():
        if c not in (WHITE, BLACK) or not squares:
            raise FenError(f"adjustment right for {c!r}: a colour with unmoved squares")
        for sq in squares:
            if type(sq) is not int or sq not in _home_row(v, c) or \
                    PIECE_COLOR[s.board[sq]] != c or PIECE_KIND[s.board[sq]] == PAWN:
                where = g.name(sq) if type(sq) is int and 0 <= sq < g.size else repr(sq)
                raise FenError(f"adjustment right: no unmoved {_SIDE[c]} piece on {where}")


# The attributes of a Position (its __slots__; copy() carries them over).
_SLOTS = (
    "_gate_stack",
    "_home_masks",
    "_legal_cache",
    "_legal_prev",
    "_stack",
    "_t",
    "_weights",
    "adjust_rights",
    "board",
    "castling",
    "ep_square",
    "fullmove_number",
    "gates",
    "geometry",
    "halfmove_clock",
    "hand",
    "kings",
    "turn",
    "unmoved",
    "variant",
    "weight",
    "zobrist",
)


# The FEN argument that makes ``__init__`` return at once (see _blank).
_BLANK: Final = "(blank)"


def _blank(cls: type[Position]) -> Position:
    """An instance whose attributes are set by the caller.  Not ``cls.__new__(cls)``: the
    type mypyc makes runs ``__init__`` in its ``__new__``, so every copy() built the chess
    start position first and cost more than reading a FEN (issue 36)."""
    return cls(_BLANK)


class Position:
    """A legal position of one variant, with its move history for :meth:`pop`."""

    __slots__ = _SLOTS

    variant: Variant
    geometry: Geometry
    board: list[int]
    turn: Color
    castling: int  # bit set of the squares of rooks that keep a castling right
    ep_square: int | None  # skipped square of the last double step (even if no capture)
    halfmove_clock: int
    fullmove_number: int
    adjust_rights: int  # bit c set = colour c may still make a Bishop Adjustment
    unmoved: int  # bit set of home-rank squares whose original piece never moved
    kings: list[int]
    zobrist: int  # incremental 64-bit hash of everything in the FEN but the clocks
    weight: int  # sum of the tracked square weights (see track_weights); 0 when untracked
    hand: tuple[tuple[PieceKind, ...], tuple[PieceKind, ...]]  # pieces in hand per colour
    gates: int  # bit set of home-rank squares a piece in hand may still be gated on

    def __init__(self, fen: str | None = None, variant: str | Variant = "chess") -> None:
        """The start position of a fixed variant, or the position of ``fen``."""
        if fen is _BLANK:
            return  # _blank: the caller sets every attribute
        v = get_variant(variant)
        text = v.start_fen if fen is None else fen
        self._load(parse_fen(text, v))

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_fen(cls, fen: str, variant: str | Variant = "chess") -> Position:
        return cls(fen, variant)

    @classmethod
    def from_setup(cls, setup: Setup) -> Position:
        """The position of ``setup`` after the same checks a FEN gets (``FenError`` if it is
        not a legal position of its variant); the Setup itself is not kept."""
        pos: Position = _blank(cls)
        pos._load(setup)
        return pos

    def _load(self, s: Setup) -> None:
        """Take ``s`` as the position after checking it: the one gate every way in (FEN,
        Setup, setup number, server) passes, so no later move or FEN can fail."""
        _check_setup(s)
        v = s.variant
        g = v.geometry
        self.variant = v
        self.geometry = g
        self._t = _tables(g, v.margin)
        self.board = list(s.board)
        self.turn = s.turn
        self._home_masks = self._t.home_masks
        self.castling = sum(1 << sq for sq in s.castling_rooks)
        self.ep_square = s.ep_square
        self.halfmove_clock = s.halfmove_clock
        self.fullmove_number = s.fullmove_number
        self.adjust_rights = sum(1 << c for c in s.unmoved)
        self.unmoved = sum(1 << sq for squares in s.unmoved.values() for sq in squares)
        self._stack: list[_Undo] = []
        self.hand = (s.hand.get(WHITE, ()), s.hand.get(BLACK, ()))
        self.gates = sum(1 << sq for sq in s.gates)
        # (index of the move's _Undo, hand, gates) before each move that changed them.
        self._gate_stack: list[tuple[int, tuple[tuple[PieceKind, ...], tuple[PieceKind, ...]],
                                     int]] = []
        self._legal_cache: tuple[int, tuple[Move, ...]] | None = None
        self._legal_prev: tuple[int, tuple[Move, ...]] | None = None
        board = self.board
        self.kings = [board.index(make_piece(KING, c)) for c in (WHITE, BLACK)]
        if self._attackers(self.kings[self.turn ^ 1], self.turn):
            raise FenError("the side not to move is in check")
        self.zobrist = self._full_zobrist()
        self._weights: Sequence[Sequence[int]] | None = None
        self.weight = 0

    def _full_zobrist(self) -> int:
        t = self._t
        h = t.z_turn if self.turn == BLACK else 0
        for sq, p in enumerate(self.board):
            h ^= t.z_piece[p][sq]
        for sq in range(self.geometry.size):
            if self.castling >> sq & 1:
                h ^= t.z_castling[sq]
            if self.unmoved >> sq & 1:
                h ^= t.z_unmoved[sq]
        for c in (WHITE, BLACK):
            if self.adjust_rights >> c & 1:
                h ^= t.z_adjust[c]
        if self.ep_square is not None:
            h ^= t.z_ep[self.ep_square]
        if self.variant.has_gating:
            h ^= _gating_zobrist(self.geometry, self.hand, self.gates)
        return h

    def _home_squares(self, c: Color) -> range:
        return self._t.home_rows[c]

    def piece_type_at(self, sq: int) -> PieceKind:
        """The kind of the piece on ``sq``; 0 for an empty square."""
        return PIECE_KIND[self.board[sq]]

    def color_at(self, sq: int) -> Color | None:
        """The colour of the piece on ``sq``; ``None`` for an empty square."""
        c = PIECE_COLOR[self.board[sq]]
        return None if c == NO_COLOR else c

    def copy(self, stack: bool = True) -> Position:
        pos: Position = _blank(Position)
        for name in _SLOTS:
            setattr(pos, name, getattr(self, name))
        pos.board = list(self.board)
        pos.kings = list(self.kings)
        pos._stack = list(self._stack) if stack else []
        pos._gate_stack = list(self._gate_stack) if stack else []
        return pos

    def to_setup(self) -> Setup:
        g = self.geometry
        unmoved = {
            c: frozenset(sq for sq in self._home_squares(c) if self.unmoved >> sq & 1)
            for c in (WHITE, BLACK) if self.adjust_rights >> c & 1
        }
        return Setup(
            self.variant, list(self.board), self.turn,
            {sq for sq in range(g.size) if self.castling >> sq & 1},
            self.ep_square, self.halfmove_clock, self.fullmove_number,
            {c: s for c, s in unmoved.items() if s},
            {c: h for c, h in zip((WHITE, BLACK), self.hand, strict=True) if h},
            {sq for sq in range(g.size) if self.gates >> sq & 1},
        )

    def fen(self, *, shredder: bool = False) -> str:
        """FEN of the position: X-FEN on 8x8 (Shredder on request), file letters on 9x9;
        the en passant square only when a legal en passant capture exists (D-23)."""
        return format_fen(self.to_setup(), shredder=shredder, ep_legal=self.has_legal_en_passant())

    def __repr__(self) -> str:
        return f"Position({self.fen()!r}, variant={self.variant.key!r})"

    def __str__(self) -> str:
        g = self.geometry
        rows = []
        for rank in range(g.ranks - 1, -1, -1):
            rows.append(" ".join(
                piece_symbol(self.board[g.square(f, rank)]) if self.board[g.square(f, rank)]
                else "." for f in range(g.files)
            ))
        return "\n".join(rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.variant == other.variant and \
            self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]

    # ----------------------------------------------------------------- attacks
    def _attackers(self, sq: int, by: Color) -> list[int]:
        """Squares of ``by``'s pieces that attack ``sq`` (pinned pieces included, 3.1.3)."""
        t = self._t
        board = self.board
        out = []
        sliders = t.sliders[by]
        for d, ray in enumerate(t.rays[sq]):
            for s in ray:
                p = board[s]
                if p:
                    if p in sliders[d]:
                        out.append(s)
                    break
        for table, pieces in t.leapers[by]:
            for s in table[sq]:
                if board[s] in pieces:
                    out.append(s)
        pawn = make_piece(PAWN, by)
        for s in t.pawn_attacks[by ^ 1][sq]:
            if board[s] == pawn:
                out.append(s)
        return out

    def is_attacked(self, sq: int, by: Color) -> bool:
        t = self._t
        board = self.board
        pawn = t.pawn_code[by]
        for s in t.pawn_attacks[by ^ 1][sq]:
            if board[s] == pawn:
                return True
        for table, pieces in t.leapers[by]:
            for s in table[sq]:
                if board[s] in pieces:
                    return True
        for ray, sliders in t.attack_rays[by][sq]:
            for s in ray:
                p = board[s]
                if p:
                    if p in sliders:
                        return True
                    break
        return False

    def is_check(self) -> bool:
        return self.is_attacked(self.kings[self.turn], self.turn ^ 1)

    def checkers(self) -> list[int]:
        return self._attackers(self.kings[self.turn], self.turn ^ 1)

    # ----------------------------------------------------------------- move generation
    def _checks_and_pins(
        self, ksq: int, us: Color
    ) -> tuple[int, frozenset[int] | None, dict[int, frozenset[int]]]:
        """One scan from our king: the number of checkers, the squares a non-king move must
        reach to answer a single check (capture or block), and our pinned pieces mapped to
        the squares they may still move to."""
        t = self._t
        board = self.board
        them = us ^ 1
        own = t.own[us]
        checkers = 0
        evasion: frozenset[int] | None = None
        pins: dict[int, frozenset[int]] = {}
        for ray, sliders in t.attack_rays[them][ksq]:
            candidate = -1
            for s in ray:
                p = board[s]
                if not p:
                    continue
                if p in own:
                    if candidate >= 0:
                        break
                    candidate = s
                    continue
                if p in sliders:
                    line = frozenset(ray[: ray.index(s) + 1])
                    if candidate >= 0:
                        pins[candidate] = line
                    else:
                        checkers += 1
                        evasion = line
                break
        for table, pieces in t.leapers[them]:
            for s in table[ksq]:
                if board[s] in pieces:
                    checkers += 1
                    evasion = frozenset((s,))
        pawn = make_piece(PAWN, them)
        for s in t.pawn_attacks[us][ksq]:
            if board[s] == pawn:
                checkers += 1
                evasion = frozenset((s,))
        return checkers, evasion, pins

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move (a new list each call)."""
        # Callers such as Game, SAN and the server ask several times about one position;
        # the last two answers are kept, keyed by the Zobrist key (which every move
        # changes): a move tried and taken back (the server judging a move before it is
        # committed, then playing it) asks about the position before and after it in turn.
        cached = self._legal_cache
        if cached is not None and cached[0] == self.zobrist:
            return list(cached[1])
        prev = self._legal_prev
        if prev is not None and prev[0] == self.zobrist:
            self._legal_cache, self._legal_prev = prev, cached
            return list(prev[1])
        out: list[Move] = []
        self._generate(out)
        self._legal_prev = cached
        self._legal_cache = (self.zobrist, tuple(out))
        return out

    def _generate(self, out: list[Move]) -> None:
        """Append every legal move to ``out``: king steps, then (unless in double check)
        the other pieces, then castling and adjustments (never out of check)."""
        us = self.turn
        if self.gates & self._home_masks[us]:
            self._generate_gating(out)
        ksq = self.kings[us]
        checkers, evasion, pins = self._checks_and_pins(ksq, us)
        self._generate_king_steps(ksq, out)
        if checkers > 1:
            return
        if evasion is None:
            self._generate_free(out, pins)
        else:
            board = self.board
            color_of = PIECE_COLOR
            for sq in range(len(board)):
                if color_of[board[sq]] == us and sq != ksq:
                    pinned = pins.get(sq)
                    self._generate_restricted(
                        sq, evasion if pinned is None else pinned & evasion, out)
            return
        if self.castling & self._home_masks[us]:
            self._generate_castling(out)
        if self.adjust_rights >> us & 1:
            self._generate_adjustments(out)

    def _generate_king_steps(self, ksq: int, out: list[Move]) -> None:
        # Each target is tested with the king lifted, so it cannot hide behind itself.
        t = self._t
        board = self.board
        us = self.turn
        them = us ^ 1
        own = t.own[us]
        king = board[ksq]
        made = t.moves[ksq]
        board[ksq] = 0
        for s in t.king_leaps[ksq]:
            if board[s] not in own and not self.is_attacked(s, them):
                out.append(made[s])
        board[ksq] = king

    def _generate_free(self, out: list[Move], pins: dict[int, frozenset[int]]) -> None:
        """Moves of the pieces (not the king) when not in check: the hot loop of perft and
        the search, so it works on local names only.  A pinned piece and a pawn about to
        promote go to :meth:`_generate_restricted` (in square order, so the move order is
        the same as one loop's)."""
        t = self._t
        board = self.board
        us = self.turn
        fwd = t.forward[us]
        last_rank = t.promotion_rank[us]
        start_rank = t.pawn_start_rank[us]
        files = self.geometry.files
        ep = self.ep_square
        pawn = make_piece(PAWN, us)
        king = make_piece(KING, us)
        kind_of = PIECE_KIND
        leap_tables = t.kind_leaps
        slide_rays = t.kind_rays
        pawn_attacks = t.pawn_attacks[us]
        moves = t.moves
        append = out.append
        color_of = PIECE_COLOR
        # The board is scanned rather than a set of squares per colour kept: two sets cost
        # 1.5 kB per position, and keeping them cost every push and pop (issue 36).
        for sq in range(len(board)):
            p = board[sq]
            if color_of[p] != us or p == king:
                continue
            if pins and sq in pins:
                self._generate_restricted(sq, pins[sq], out)
                continue
            made = moves[sq]
            if p == pawn:
                one = sq + fwd
                if one // files == last_rank:
                    self._generate_restricted(sq, None, out)
                    continue
                if not board[one]:
                    append(made[one])
                    if sq // files == start_rank and not board[one + fwd]:
                        append(made[one + fwd])
                for s in pawn_attacks[sq]:
                    q = board[s]
                    if q:
                        if color_of[q] != us:
                            append(made[s])
                    elif s == ep and self._en_passant_is_safe(sq, s):
                        append(made[s])
                continue
            kind = kind_of[p]
            leaps = leap_tables[kind]
            if leaps is not None:
                for s in leaps[sq]:
                    if color_of[board[s]] != us:
                        append(made[s])
            rays = slide_rays[kind]
            if rays is not None:
                for ray in rays[sq]:
                    for s in ray:
                        q = board[s]
                        if q:
                            if color_of[q] != us:
                                append(made[s])
                            break
                        append(made[s])

    def _generate_restricted(self, sq: int, allowed: frozenset[int] | None,
                             out: list[Move]) -> None:
        """Moves of the piece on ``sq`` (not the king) that end on ``allowed`` (the pin
        line, the squares that answer a check, or both; ``None`` = anywhere)."""
        t = self._t
        board = self.board
        us = self.turn
        own = t.own[us]
        p = board[sq]
        if PIECE_KIND[p] == PAWN:
            self._generate_pawn_restricted(sq, allowed, out)
            return
        kind = PIECE_KIND[p]
        made = t.moves[sq]
        leaps = t.leaps[kind]
        if leaps is not None:
            for s in leaps[sq]:
                if (allowed is None or s in allowed) and board[s] not in own:
                    out.append(made[s])
        rays = t.slide_rays.get(kind)
        if rays is not None:
            for ray in rays[sq]:
                for s in ray:
                    q = board[s]
                    if q in own:
                        break
                    if allowed is None or s in allowed:
                        out.append(made[s])
                    if q:
                        break

    def _generate_pawn_restricted(self, sq: int, allowed: frozenset[int] | None,
                                  out: list[Move]) -> None:
        t = self._t
        board = self.board
        us = self.turn
        own = t.own[us]
        files = self.geometry.files
        fwd = t.forward[us]
        one = sq + fwd
        targets: list[int] = []
        if not board[one]:
            targets.append(one)
            if sq // files == t.pawn_start_rank[us] and not board[one + fwd]:
                targets.append(one + fwd)
        for s in t.pawn_attacks[us][sq]:
            q = board[s]
            if q:
                if q not in own:
                    targets.append(s)
            elif s == self.ep_square and self._en_passant_is_safe(sq, s):
                # The trial capture is a complete legality test: pins and checks included.
                out.append(Move(sq, s))
        last_rank = t.promotion_rank[us]
        for s in targets:
            if allowed is not None and s not in allowed:
                continue
            if s // files == last_rank:
                out.extend(Move(sq, s, k) for k in self.variant.promotions)
            else:
                out.append(Move(sq, s))

    def _en_passant_is_safe(self, sq: int, to: int) -> bool:
        """Play the en passant capture on the board and see whether our king is attacked."""
        board = self.board
        us = self.turn
        captured_sq = to - self._t.forward[us]
        pawn, victim = board[sq], board[captured_sq]
        board[sq] = board[captured_sq] = 0
        board[to] = pawn
        safe = not self.is_attacked(self.kings[us], us ^ 1)
        board[to] = 0
        board[sq], board[captured_sq] = pawn, victim
        return safe

    def has_legal_en_passant(self) -> bool:
        """Whether an en passant capture is legal now (FEN and repetition key, D-23).  The
        trial capture on the board is a complete legality test for this move."""
        ep = self.ep_square
        if ep is None:
            return False
        pawn = make_piece(PAWN, self.turn)
        return any(
            self.board[s] == pawn and self._en_passant_is_safe(s, ep)
            for s in self._t.pawn_attacks[self.turn ^ 1][ep]
        )

    def castling_squares(self, rook_sq: int) -> tuple[int, int]:
        """(king destination, rook destination) for castling with the rook on ``rook_sq``."""
        g = self.geometry
        ksq = self.kings[PIECE_COLOR[self.board[rook_sq]]]
        a_side = rook_sq < ksq
        kf, rf = self.variant.castle_a if a_side else self.variant.castle_h
        rank = g.rank_of(rook_sq)
        return g.square(kf, rank), g.square(rf, rank)

    def _generate_castling(self, out: list[Move]) -> None:
        board = self.board
        us = self.turn
        ksq = self.kings[us]
        king = board[ksq]
        rights = self.castling & self._home_masks[us]
        while rights:
            low = rights & -rights
            rights ^= low
            rsq = low.bit_length() - 1
            must_be_empty, king_path = _castling_paths(
                self.geometry, self.variant.castle_a, self.variant.castle_h, ksq, rsq)
            # Vacancy (II.3.2.7): both paths, destinations included, empty but for these two.
            if any(board[s] for s in must_be_empty):
                continue
            # Safety with king and rook lifted: every square the king crosses and its
            # destination must be unattacked (its start is: we are not in check).  Lifting
            # the rook catches the rook shield of RULES.md §2.2.  It never reports a false
            # attack: a rook on the home rank can only shield squares of that rank from the
            # far side, and whenever it shields a square of the king's path it also shields
            # the king's destination, which it then leaves exposed after castling.  Lifting
            # the king likewise only opens lines through the king's own square, i.e. reveals
            # a check that already forbids castling.
            rook = board[rsq]
            board[ksq] = board[rsq] = 0
            safe = not any(self.is_attacked(s, us ^ 1) for s in king_path)
            board[ksq], board[rsq] = king, rook
            if safe:
                out.append(Move(ksq, rsq))

    def adjustment_partners(self, bishop_sq: int, color: Color | None = None) -> list[int]:
        """Squares of the partners the bishop on ``bishop_sq`` may swap with (BAR-2..BAR-5),
        ignoring check; for the side to move unless ``color`` is given."""
        g = self.geometry
        board = self.board
        us = self.turn if color is None else color
        if not (self.adjust_rights >> us & 1 and self.unmoved >> bishop_sq & 1):
            return []
        if board[bishop_sq] != make_piece(BISHOP, us):
            return []
        out = []
        f = g.file_of(bishop_sq)
        for df in (-1, 1):
            if not 0 <= f + df < g.files:
                continue
            s = bishop_sq + df
            p = board[s]
            if self.unmoved >> s & 1 and PIECE_COLOR[p] == us and \
                    PIECE_KIND[p] in self.variant.adjustment_partners:
                out.append(s)
        return out

    def _generate_adjustments(self, out: list[Move]) -> None:
        us = self.turn
        for b in self._home_squares(us):
            for s in self.adjustment_partners(b):
                # Only the king swap moves the king; it must not land on an attacked square
                # (BAR-8, D-2).  Other swaps keep every square's occupancy, so they are safe.
                if PIECE_KIND[self.board[s]] == KING and self.is_attacked(b, us ^ 1):
                    continue
                out.append(Move(b, s))

    # ----------------------------------------------------------------- move kinds
    def is_castling(self, move: Move) -> bool:
        if move.promotion and self.is_gating(move):
            move = self.gating_base(move)[0]
        p = self.board[move.from_square]
        return PIECE_KIND[p] == KING and \
            self.board[move.to_square] == make_piece(ROOK, PIECE_COLOR[p]) and \
            bool(self.castling >> move.to_square & 1)

    def is_adjustment(self, move: Move) -> bool:
        p, q = self.board[move.from_square], self.board[move.to_square]
        return PIECE_KIND[p] == BISHOP and q != 0 and PIECE_COLOR[p] == PIECE_COLOR[q]

    def is_en_passant(self, move: Move) -> bool:
        return PIECE_KIND[self.board[move.from_square]] == PAWN and \
            move.to_square == self.ep_square \
            and not self.board[move.to_square] and \
            self.geometry.file_of(move.from_square) != self.geometry.file_of(move.to_square)

    def is_capture(self, move: Move) -> bool:
        q = self.board[move.to_square]
        return (q != 0 and PIECE_COLOR[q] != self.turn) or self.is_en_passant(move)

    def is_zeroing(self, move: Move) -> bool:
        """Pawn move or capture: resets the half-move clock (FIDE 9.3; not a BAR, D-9)."""
        return PIECE_KIND[self.board[move.from_square]] == PAWN or self.is_capture(move)

    def gives_check(self, move: Move) -> bool:
        """Whether the legal ``move`` checks the opponent.  An ordinary move is judged
        without playing it (the search asks this of moves it may then prune): the moved
        piece attacks the king from its new square, or its old square was all that stood
        between the king and one of our sliders.  Castling, adjustments, en passant and
        promotions, which move or remove a second piece, are played and taken back."""
        board = self.board
        frm, to = move.from_square, move.to_square
        piece = board[frm]
        us = self.turn
        kind = PIECE_KIND[piece]
        if move.promotion or PIECE_COLOR[board[to]] == us or (
                kind == PAWN and to == self.ep_square and not board[to]):
            self.push(move)
            try:
                return self.is_check()
            finally:
                self.pop()
        t = self._t
        ksq = self.kings[us ^ 1]
        rays = t.rays[ksq]
        line = t.lines[ksq]
        if kind == PAWN:
            if ksq in t.pawn_attacks[us][to]:
                return True
        elif kind != KING:
            leaps = t.leaps[kind]
            if leaps is not None and ksq in leaps[to]:
                return True
            d = line[to]
            if d >= 0 and piece in t.sliders[us][d]:
                for s in rays[d]:
                    if s == to:
                        return True
                    if board[s] and s != frm:
                        break
        d = line[frm]
        if d >= 0:
            # The enemy king was not in check, so a slider found behind ``frm`` on this line
            # is one the move uncovers (unless it lands on the line in between: ``to``).
            sliders = t.sliders[us][d]
            for s in rays[d]:
                if s == frm:
                    continue
                if s == to:
                    return False
                p = board[s]
                if p:
                    return p in sliders
        return False

    # ----------------------------------------------------------------- make / unmake
    def push(self, move: Move) -> None:
        """Play ``move``, which must be legal (see :meth:`push_legal` for untrusted moves)."""
        if move.promotion and PIECE_KIND[self.board[move.from_square]] != PAWN:
            self._push_gating(move)
            return
        board = self.board
        g = self.geometry
        us = self.turn
        frm, to = move.from_square, move.to_square
        piece = board[frm]
        target = board[to]
        changes: list[tuple[int, int]] = []
        # tuple.__new__ skips the NamedTuple's Python-level constructor (hot: every move).
        undo = tuple.__new__(_Undo, (
            move, changes, self.castling, self.ep_square, self.halfmove_clock,
            self.adjust_rights, self.unmoved, tuple(self.kings), self.zobrist, self.weight,
        ))
        self._stack.append(undo)
        kind = PIECE_KIND[piece]
        new_ep = None
        self.halfmove_clock += 1
        if PIECE_COLOR[target] == us:
            if kind == KING:  # castling: king takes own rook (D-21)
                kdest, rdest = self.castling_squares(to)
                # The four squares overlap when king and rook trade places: record each once.
                changes += [(sq, board[sq]) for sq in dict.fromkeys((frm, to, kdest, rdest))]
                board[frm] = board[to] = 0
                board[kdest], board[rdest] = piece, target
                self.kings[us] = kdest
                self.castling &= ~self._home_masks[us]
            else:  # Bishop Adjustment: swap the two pieces (BAR-2, BAR-9, BAR-10)
                changes += ((frm, piece), (to, target))
                board[frm], board[to] = target, piece
                self.adjust_rights &= ~(1 << us)
                self.unmoved &= ~self._home_masks[us]  # only a live right needs them
                if PIECE_KIND[target] == KING:
                    self.kings[us] = frm
                    self.castling &= ~self._home_masks[us]
        else:
            changes += ((frm, piece), (to, target))
            if target:
                self.halfmove_clock = 0
            if kind == PAWN:
                self.halfmove_clock = 0
                if to == self.ep_square and g.file_of(frm) != g.file_of(to) and not target:
                    cap = to - self._t.forward[us]
                    changes.append((cap, board[cap]))
                    board[cap] = 0
                elif abs(to - frm) == 2 * g.files:
                    new_ep = (to + frm) // 2
            board[frm] = 0
            board[to] = make_piece(move.promotion, us) if move.promotion else piece
            if kind == KING:
                self.kings[us] = to
                self.castling &= ~self._home_masks[us]
        mask = ~((1 << frm) | (1 << to))
        self.castling &= mask
        self.unmoved &= mask
        self.ep_square = new_ep
        self._track(changes, undo)
        if self.gates:
            self._track_gates(mask)
        if us == BLACK:
            self.fullmove_number += 1
        self.turn = us ^ 1

    def _track(self, changes: list[tuple[int, int]], before: _Undo) -> None:
        """Bring the per-colour square sets and the Zobrist key in step with a move."""
        board = self.board
        t = self._t
        z_piece = t.z_piece
        h = self.zobrist ^ t.z_turn
        for sq, old in changes:
            h ^= z_piece[old][sq] ^ z_piece[board[sq]][sq]
        if before.ep_square is not None:
            h ^= t.z_ep[before.ep_square]
        if self.ep_square is not None:
            h ^= t.z_ep[self.ep_square]
        # Most moves change no right: each set of bits is usually 0.
        bits = before.castling ^ self.castling
        while bits:
            low = bits & -bits
            h ^= t.z_castling[low.bit_length() - 1]
            bits ^= low
        bits = before.unmoved ^ self.unmoved
        while bits:
            low = bits & -bits
            h ^= t.z_unmoved[low.bit_length() - 1]
            bits ^= low
        lost = before.adjust_rights & ~self.adjust_rights
        if lost:
            for c in (WHITE, BLACK):
                if lost >> c & 1:
                    h ^= t.z_adjust[c]
        self.zobrist = h
        weights = self._weights
        if weights is not None:
            w = self.weight
            for sq, old in changes:
                w += weights[board[sq]][sq] - weights[old][sq]
            self.weight = w

    def push_null(self) -> None:
        """Pass the turn (for null-move pruning in a search; never legal in a game)."""
        self._stack.append(_Undo(
            NULL_MOVE, [], self.castling, self.ep_square, self.halfmove_clock,
            self.adjust_rights, self.unmoved, (self.kings[0], self.kings[1]), self.zobrist,
            self.weight,
        ))
        self.halfmove_clock += 1
        self.ep_square = None
        self._track([], self._stack[-1])
        if self.turn == BLACK:
            self.fullmove_number += 1
        self.turn ^= 1

    @property
    def weights(self) -> Sequence[Sequence[int]] | None:
        """The table :attr:`weight` is the sum of (see :meth:`track_weights`), or None."""
        return self._weights

    def track_weights(self, weights: Sequence[Sequence[int]] | None) -> None:
        """Keep :attr:`weight` equal to the sum of ``weights[piece][square]`` over the
        pieces on the board, through every push and pop from now on (``weights[0]``, the
        empty square, must be all zeros); ``None`` stops it.  An evaluator's material and
        piece-square terms then cost nothing per position: the core adds the difference
        of the squares a move changes, as it does for the Zobrist key."""
        self._weights = weights
        self.weight = 0 if weights is None else sum(
            weights[p][sq] for sq, p in enumerate(self.board) if p)

    def piece_squares(self, color: Color) -> list[int]:
        """The squares of ``color``'s pieces, in square order (a new list each call)."""
        board = self.board
        color_of = PIECE_COLOR
        return [sq for sq in range(len(board)) if color_of[board[sq]] == color]

    def pop(self) -> Move:
        """Take back the last move and return it."""
        (move, changes, self.castling, self.ep_square, self.halfmove_clock,
         self.adjust_rights, self.unmoved, kings, self.zobrist, self.weight) = self._stack.pop()
        board = self.board
        for sq, piece in reversed(changes):
            board[sq] = piece
        self.kings = list(kings)
        self.turn ^= 1
        if self.turn == BLACK:
            self.fullmove_number -= 1
        gate_stack = self._gate_stack
        if gate_stack and gate_stack[-1][0] == len(self._stack):
            _, self.hand, self.gates = gate_stack.pop()
        return move

    @property
    def move_stack(self) -> list[Move]:
        return [u.move for u in self._stack]

    def peek(self) -> Move:
        return self._stack[-1].move

    def is_legal(self, move: Move) -> bool:
        return self._is_legal_ordinary(move) or move in self.legal_moves()

    def _is_legal_ordinary(self, move: Move) -> bool:
        """Whether ``move`` is a legal ordinary move (no castling, no adjustment), found by
        generating the moves of its piece only, under the same pins and check as
        :meth:`_generate` (issue 36: ``push_uci`` and ``is_legal`` need not list every
        move).  False only means "not shown here": callers then ask :meth:`legal_moves`."""
        board = self.board
        frm, to = move.from_square, move.to_square
        size = len(board)
        if not (0 <= frm < size and 0 <= to < size):
            return False
        us = self.turn
        piece = board[frm]
        if PIECE_COLOR[piece] != us or PIECE_COLOR[board[to]] == us:
            return False
        ksq = self.kings[us]
        out: list[Move] = []
        if frm == ksq:
            self._generate_king_steps(ksq, out)
            return move in out
        checkers, evasion, pins = self._checks_and_pins(ksq, us)
        if checkers > 1:
            return False
        allowed = pins.get(frm)
        if evasion is not None:
            allowed = evasion if allowed is None else allowed & evasion
        self._generate_restricted(frm, allowed, out)
        return move in out

    def push_legal(self, move: Move) -> None:
        """Play ``move`` after checking it; ``IllegalMoveError`` changes nothing."""
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {self.uci(move)} in {self.fen()}")
        self.push(move)

    # ----------------------------------------------------------------- game state
    def is_checkmate(self) -> bool:
        return self.is_check() and not self.legal_moves()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.legal_moves()

    def adjustment_pairs(self, color: Color) -> frozenset[tuple[int, int]]:
        """The (bishop, partner) swaps ``color`` still has a right to, check ignored (§4.9)."""
        if not self.adjust_rights >> color & 1:
            return frozenset()
        return frozenset(
            (b, s) for b in self._home_squares(color) for s in self.adjustment_partners(b, color)
        )

    def key(self) -> tuple[object, ...]:
        """Identity for repetition (RULES.md §1.5, §1.7, D-10, D-23): placement, side to
        move, permanent castling rights, en passant only when legal, adjustment rights."""
        return (
            tuple(self.board), self.turn, self.castling,
            self.ep_square if self.has_legal_en_passant() else None,
            self.adjustment_pairs(WHITE), self.adjustment_pairs(BLACK),
        ) + ((self.hand, self.gates) if self.variant.has_gating else ())

    # ----------------------------------------------------------------- UCI
    def uci(self, move: Move, *, chess960: bool | None = None) -> str:
        """Coordinate text of ``move``.  Castling is king-square + rook-square, except in
        classical chess with ``chess960=False`` (the default there), which writes ``e1g1``."""
        g = self.geometry
        to = move.to_square
        if chess960 is None:
            chess960 = not self.variant.classical_uci
        if not chess960 and self.is_castling(move):
            to = self.castling_squares(to)[0]
        text = g.name(move.from_square) + g.name(to)
        if move.promotion:
            text += PIECE_TYPES[move.promotion].letter.lower()
        return text

    def parse_uci(self, text: str) -> Move:
        """The legal move written ``text`` (``e2e4``, ``e7e8q``, ``i8i9m``, ``e1h1``; castling
        also as the king's step, ``e1g1``, in a fixed-array variant; bishop square + partner
        square for an adjustment).  ``InvalidMoveError`` if malformed, ``IllegalMoveError``
        if not legal here."""
        move = self._parse_uci_text(text)
        if self._is_legal_ordinary(move):
            return move
        legal = self.legal_moves()
        if move in legal:
            return move
        if not self.variant.is_random:
            # Classical notation for castling: the king's step onto its destination, as UCI
            # writes it with UCI_Chess960 off (Fairy-Stockfish does so in Maura's Modern chess
            # and Capablanca too, issue 36).  Not in random arrays, where the same text can be
            # an ordinary king move.
            for m in legal:
                if m.from_square == move.from_square and self.is_castling(m) and \
                        self.castling_squares(m.to_square)[0] == move.to_square and \
                        not move.promotion and PIECE_KIND[self.board[move.to_square]] != ROOK:
                    return m
        raise IllegalMoveError(f"illegal move {text!r} in {self.fen()}")

    def _parse_uci_text(self, text: str) -> Move:
        g = self.geometry
        if not isinstance(text, str) or not 4 <= len(text) <= 7:
            raise InvalidMoveError(f"malformed move {text!r}")
        i = 1
        while i < len(text) and text[i].isdigit():
            i += 1
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        try:
            frm = g.parse_square(text[:i])
            to = g.parse_square(text[i:j])
        except ValueError as exc:
            raise InvalidMoveError(f"malformed move {text!r}: {exc}") from None
        rest = text[j:]
        promotion = 0
        if rest:
            kind = KIND_BY_LETTER.get(rest.upper()) if len(rest) == 1 else None
            if kind is None or kind in (PAWN, KING):
                raise InvalidMoveError(f"malformed move {text!r}: bad promotion {rest!r}")
            if kind not in self.variant.promotions and kind not in self.variant.hand_kinds:
                raise IllegalMoveError(
                    f"{text!r}: {self.variant.key} does not promote to {PIECE_TYPES[kind].name}"
                )
            promotion = kind
        if frm == to:
            raise InvalidMoveError(f"malformed move {text!r}: from and to are the same square")
        return Move(frm, to, promotion)

    def push_uci(self, text: str) -> Move:
        move = self.parse_uci(text)
        self.push(move)
        return move

    # ----------------------------------------------------------------- gating
    # Pieces in hand enter Seirawan style (docs/rules.md D-31..D-36): when a piece leaves its
    # home-rank square for the first time, one of them may be placed on the square it left,
    # as part of the same move.  Everything here runs only in variants with a hand.
    def is_gating(self, move: Move) -> bool:
        """Whether ``move`` places a piece from the hand (a piece's move with a third field)."""
        p = self.board[move.from_square]
        return bool(move.promotion) and p != 0 and PIECE_KIND[p] != PAWN

    def gating_base(self, move: Move) -> tuple[Move, int]:
        """(the move without its gate, the square gated on) of a gating ``move``; castling
        gating on the rook's square (rook square + king square) becomes king takes rook."""
        frm, to = move.from_square, move.to_square
        piece, target = self.board[frm], self.board[to]
        if PIECE_KIND[piece] == ROOK and PIECE_KIND[target] == KING and \
                PIECE_COLOR[target] == PIECE_COLOR[piece]:
            return Move(to, frm), frm
        return Move(frm, to), frm

    def can_gate(self, color: Color) -> bool:
        """Whether ``color`` still has a piece in hand and a square to gate it on."""
        return bool(self.gates & self._home_masks[color])

    def gate_square(self, move: Move) -> int | None:
        """The square ``move`` gates a piece on, or None."""
        return self.gating_base(move)[1] if self.is_gating(move) else None

    def _generate_gating(self, out: list[Move]) -> None:
        """Append the legal gating moves: each legal move of a piece still on a gate square,
        and each legal castling whose king or rook leaves a gate square that stays empty.
        The gated piece never makes a move legal: a pinned piece stays pinned and the king
        may not step along a checking line, though the gate would fill the square (D-34,
        Seirawan's own ruling)."""
        t = self._t
        board = self.board
        us = self.turn
        them = us ^ 1
        own = t.own[us]
        ksq = self.kings[us]
        kinds = tuple(sorted(set(self.hand[us])))
        gates = self.gates & self._home_masks[us]
        while gates:
            low = gates & -gates
            gates ^= low
            sq = low.bit_length() - 1
            piece = board[sq]
            if PIECE_COLOR[piece] != us:
                continue
            if piece == board[ksq]:
                targets = [s for s in t.king_leaps[sq] if board[s] not in own]
            else:
                moves: list[Move] = []
                self._generate_restricted(sq, None, moves)
                targets = [m.to_square for m in moves]
            for s in targets:
                captured = board[s]
                board[s], board[sq] = piece, 0
                safe = not self.is_attacked(s if sq == ksq else ksq, them)
                board[s], board[sq] = captured, piece
                if safe:
                    out.extend(Move(sq, s, k) for k in kinds)
        if self.castling & self._home_masks[us] and not self.is_attacked(ksq, them):
            castles: list[Move] = []
            self._generate_castling(castles)
            for m in castles:
                landing = self.castling_squares(m.to_square)
                for gsq, frm, to in ((m.from_square, m.from_square, m.to_square),
                                     (m.to_square, m.to_square, m.from_square)):
                    if self.gates >> gsq & 1 and gsq not in landing:
                        out.extend(Move(frm, to, k) for k in kinds)

    def _push_gating(self, move: Move) -> None:
        """Play a gating move: its base move, then the piece from the hand on the gate."""
        base, gsq = self.gating_base(move)
        us = self.turn
        self.push(base)
        undo = self._stack[-1]
        gated = make_piece(move.promotion, us)
        undo.changes.append((gsq, 0))
        self.board[gsq] = gated
        h = self.zobrist ^ self._t.z_piece[gated][gsq] ^ _gating_zobrist(
            self.geometry, self.hand, self.gates)
        mine = list(self.hand[us])
        mine.remove(move.promotion)
        hand = (tuple(mine), self.hand[1]) if us == WHITE else (self.hand[0], tuple(mine))
        self.hand = hand
        if not mine:  # nothing left to gate: the side's gates go (as Fairy-Stockfish)
            self.gates &= ~self._home_masks[us]
        self.zobrist = h ^ _gating_zobrist(self.geometry, self.hand, self.gates)
        if self._weights is not None:
            self.weight += self._weights[gated][gsq]
        self._stack[-1] = undo._replace(move=move)

    def _track_gates(self, mask: int) -> None:
        """After a move that may leave or capture on gate squares (``mask`` clears its
        from- and to-squares): keep the gates before it for :meth:`pop`, clear them."""
        old = self.gates
        self._gate_stack.append((len(self._stack) - 1, self.hand, old))
        self.gates = old & mask
        if self.gates != old:
            self.zobrist ^= _gating_zobrist(self.geometry, self.hand, old) ^ \
                _gating_zobrist(self.geometry, self.hand, self.gates)

    # ----------------------------------------------------------------- perft
    def perft(self, depth: int) -> int:
        """Number of leaf nodes of the legal move tree ``depth`` plies deep."""
        if depth <= 0:
            return 1
        moves: list[Move] = []
        self._generate(moves)
        if depth == 1:
            return len(moves)  # bulk counting: the last ply is not played
        total = 0
        push, pop = self.push, self.pop
        if depth == 2:
            generate = self._generate
            for m in moves:
                push(m)
                leaves: list[Move] = []
                generate(leaves)
                total += len(leaves)
                pop()
            return total
        for m in moves:
            push(m)
            total += self.perft(depth - 1)
            pop()
        return total

    def divide(self, depth: int) -> Iterator[tuple[Move, int]]:
        for m in self.legal_moves():
            self.push(m)
            n = self.perft(depth - 1)
            self.pop()
            yield m, n

