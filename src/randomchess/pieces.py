"""Pieces as data: colours, kinds, letters and how each kind moves (leaps and slides).

A piece is an int ``kind | colour << 3`` (0 = empty square), cheap to store and compare.
The movement of every kind except the pawn is described by leap offsets and slide
directions, so a new fairy piece (a chancellor, say) is a new table row, not new code.
"""

from __future__ import annotations

from dataclasses import dataclass

from randomchess.geometry import DIAGONAL, KING_LEAPS, KNIGHT_LEAPS, ORTHOGONAL, Offset

Color = int
WHITE: Color = 0
BLACK: Color = 1
COLOR_NAMES = ("white", "black")

PieceKind = int
PAWN: PieceKind = 1
KNIGHT: PieceKind = 2
BISHOP: PieceKind = 3
ROOK: PieceKind = 4
QUEEN: PieceKind = 5
KING: PieceKind = 6
MINISTER: PieceKind = 7  # Prime Minister = bishop + knight (RULES.md §3, §4.2)

PIECE_KINDS = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, MINISTER)


@dataclass(frozen=True)
class PieceType:
    """How one kind of piece moves: one-step leaps and unlimited slides."""

    kind: PieceKind
    letter: str  # English letter, upper case
    spanish: str  # Spanish letter, upper case (R = rey! RULES.md, letters)
    name: str
    leaps: tuple[Offset, ...] = ()
    slides: tuple[Offset, ...] = ()


PIECE_TYPES: dict[PieceKind, PieceType] = {
    t.kind: t
    for t in (
        PieceType(PAWN, "P", "P", "pawn"),
        PieceType(KNIGHT, "N", "C", "knight", leaps=KNIGHT_LEAPS),
        PieceType(BISHOP, "B", "A", "bishop", slides=DIAGONAL),
        PieceType(ROOK, "R", "T", "rook", slides=ORTHOGONAL),
        PieceType(QUEEN, "Q", "D", "queen", slides=ORTHOGONAL + DIAGONAL),
        PieceType(KING, "K", "R", "king", leaps=KING_LEAPS),
        PieceType(MINISTER, "M", "M", "minister", leaps=KNIGHT_LEAPS, slides=DIAGONAL),
    )
}

KIND_BY_LETTER: dict[str, PieceKind] = {t.letter: t.kind for t in PIECE_TYPES.values()}
KIND_BY_SPANISH_LETTER: dict[str, PieceKind] = {t.spanish: t.kind for t in PIECE_TYPES.values()}
# The FIDE Spanish text writes L (alfil) for the bishop; accept it on input.
KIND_BY_SPANISH_LETTER["L"] = BISHOP


def make_piece(kind: PieceKind, color: Color) -> int:
    return kind | (color << 3)


def kind_of(piece: int) -> PieceKind:
    return piece & 7


def color_of(piece: int) -> Color:
    return piece >> 3


def piece_symbol(piece: int) -> str:
    """FEN letter: upper case for White, lower case for Black."""
    letter = PIECE_TYPES[piece & 7].letter
    return letter if piece >> 3 == WHITE else letter.lower()


def piece_from_symbol(symbol: str) -> int:
    """The piece for a FEN letter; ``ValueError`` for an unknown letter."""
    kind = KIND_BY_LETTER.get(symbol.upper())
    if kind is None:
        raise ValueError(f"unknown piece letter {symbol!r}")
    return make_piece(kind, WHITE if symbol.isupper() else BLACK)
