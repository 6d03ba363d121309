"""Pieces as data: colours, kinds, letters and how each kind moves (leaps and slides).

A piece on the board is a small int, its *code* (0 = empty square).  This module is the only
one that knows how a code is made from a kind and a colour: everyone else builds codes with
:func:`make_piece` (or the precomputed :data:`PIECE_CODES`) and reads them back through
:data:`PIECE_KIND` and :data:`PIECE_COLOR`, tuples indexed by the code, which cost one
subscript in hot loops, the same as the shift and mask they replace.  Kinds have four bits, so
fifteen kinds fit; eight are used.

The movement of every kind except the pawn is described by leap offsets and slide
directions, so a new fairy piece is a new row of :data:`PIECE_TYPES`, not new code: the move
generator, the attack test, SAN, FEN, the diagrams and the evaluator read it from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from randomchess.geometry import DIAGONAL, KING_LEAPS, KNIGHT_LEAPS, ORTHOGONAL, Offset

Color = int
WHITE: Final[Color] = 0
BLACK: Final[Color] = 1
# NO_COLOR: PIECE_COLOR of the empty square (indexing a per-colour pair with it fails loudly).
NO_COLOR: Final[Color] = 2
COLOR_NAMES = ("white", "black")

PieceKind = int
Piece = int  # a piece code as stored on the board

PAWN: Final[PieceKind] = 1
KNIGHT: Final[PieceKind] = 2
BISHOP: Final[PieceKind] = 3
ROOK: Final[PieceKind] = 4
QUEEN: Final[PieceKind] = 5
KING: Final[PieceKind] = 6
MINISTER: Final[PieceKind] = 7  # Prime Minister = bishop + knight (RULES.md §3, §4.2)
ARCHBISHOP: Final[PieceKind] = 8  # Capablanca's archbishop: the minister's moves, letter A
CHANCELLOR: Final[PieceKind] = 9  # Capablanca's chancellor = rook + knight, letter C

_KIND_BITS: Final = 4
_KIND_MASK: Final = (1 << _KIND_BITS) - 1
_CODES: Final = 2 << _KIND_BITS  # every code is below this


@dataclass(frozen=True)
class PieceType:
    """One kind of piece: its letters and how it moves (one-step leaps, unlimited slides)."""

    kind: PieceKind
    letter: str  # English letter, upper case (FEN, UCI promotions, English SAN)
    spanish: str  # Spanish letter, upper case (R = rey! RULES.md, letters)
    name: str  # English name
    spanish_name: str
    leaps: tuple[Offset, ...] = ()
    slides: tuple[Offset, ...] = ()

    @property
    def is_slider(self) -> bool:
        return bool(self.slides)


PIECE_TYPES: dict[PieceKind, PieceType] = {
    t.kind: t
    for t in (
        PieceType(PAWN, "P", "P", "pawn", "peón"),
        PieceType(KNIGHT, "N", "C", "knight", "caballo", leaps=KNIGHT_LEAPS),
        PieceType(BISHOP, "B", "A", "bishop", "alfil", slides=DIAGONAL),
        PieceType(ROOK, "R", "T", "rook", "torre", slides=ORTHOGONAL),
        PieceType(QUEEN, "Q", "D", "queen", "dama", slides=ORTHOGONAL + DIAGONAL),
        PieceType(KING, "K", "R", "king", "rey", leaps=KING_LEAPS),
        PieceType(MINISTER, "M", "M", "minister", "ministro", leaps=KNIGHT_LEAPS,
                  slides=DIAGONAL),
        # Spanish letters of the Capablanca pieces (docs/rules.md): A and C are taken by
        # alfil and caballo, so Z (arZobispo) and E (canciller, also "emperatriz").
        PieceType(ARCHBISHOP, "A", "Z", "archbishop", "arzobispo", leaps=KNIGHT_LEAPS,
                  slides=DIAGONAL),
        PieceType(CHANCELLOR, "C", "E", "chancellor", "canciller", leaps=KNIGHT_LEAPS,
                  slides=ORTHOGONAL),
    )
}


def _check_piece_table() -> None:
    """Letters are unique per language and every kind fits the code (import-time check)."""
    for attr in ("letter", "spanish"):
        letters = [getattr(t, attr) for t in PIECE_TYPES.values()]
        if len(set(letters)) != len(letters):
            raise AssertionError(f"piece table: repeated {attr} letter in {letters}")
    if max(PIECE_TYPES) > _KIND_MASK:
        raise AssertionError("piece table: a kind does not fit the piece code")


_check_piece_table()

KIND_BY_LETTER: dict[str, PieceKind] = {t.letter: t.kind for t in PIECE_TYPES.values()}
KIND_BY_SPANISH_LETTER: dict[str, PieceKind] = {t.spanish: t.kind for t in PIECE_TYPES.values()}
# The FIDE Spanish text writes L (alfil) for the bishop; accept it on input.
KIND_BY_SPANISH_LETTER["L"] = BISHOP


def make_piece(kind: PieceKind, color: Color) -> Piece:
    """The code of a ``color`` piece of ``kind``."""
    return kind | (color << _KIND_BITS)


def _decode() -> tuple[tuple[PieceKind, ...], tuple[Color, ...]]:
    kinds = [0] * _CODES
    colors = [NO_COLOR] * _CODES
    for kind in PIECE_TYPES:
        for color in (WHITE, BLACK):
            kinds[make_piece(kind, color)] = kind
            colors[make_piece(kind, color)] = color
    return tuple(kinds), tuple(colors)


# PIECE_KIND[code] and PIECE_COLOR[code]: 0 and NO_COLOR for the empty square (and for any
# code no kind uses).  Every code on a board is below PIECE_CODE_LIMIT.
_DECODED = _decode()
PIECE_KIND: Final = _DECODED[0]
PIECE_COLOR: Final = _DECODED[1]
PIECE_CODE_LIMIT: Final = _CODES
# PIECE_CODES[color]: every code of that colour.
PIECE_CODES: tuple[frozenset[Piece], frozenset[Piece]] = (
    frozenset(make_piece(k, WHITE) for k in PIECE_TYPES),
    frozenset(make_piece(k, BLACK) for k in PIECE_TYPES),
)


def is_piece(code: object) -> bool:
    """Whether ``code`` is the code of a piece (not empty, not garbage)."""
    return type(code) is int and 0 < code < _CODES and PIECE_KIND[code] != 0


def piece_symbol(piece: Piece) -> str:
    """FEN letter: upper case for White, lower case for Black."""
    letter = PIECE_TYPES[PIECE_KIND[piece]].letter
    return letter if PIECE_COLOR[piece] == WHITE else letter.lower()


def piece_from_symbol(symbol: str) -> Piece:
    """The piece for a FEN letter; ``ValueError`` for an unknown letter."""
    kind = KIND_BY_LETTER.get(symbol.upper())
    if kind is None:
        raise ValueError(f"unknown piece letter {symbol!r}")
    return make_piece(kind, WHITE if symbol.isupper() else BLACK)
