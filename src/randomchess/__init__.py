"""randomchess: rules, notation, setups and an engine for Chess960 and Modern Random Chess."""

from randomchess.errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    RandomChessError,
)
from randomchess.fen import Setup, parse_fen
from randomchess.geometry import Geometry, geometry
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
from randomchess.position import Move, Position
from randomchess.variants import VARIANTS, UnknownVariantError, Variant, get_variant

__all__ = [
    "BISHOP", "BLACK", "KING", "KNIGHT", "MINISTER", "PAWN", "QUEEN", "ROOK", "VARIANTS",
    "WHITE", "AmbiguousMoveError", "FenError", "Geometry", "IllegalMoveError",
    "InvalidMoveError", "Move", "Position", "RandomChessError", "Setup", "UnknownVariantError",
    "Variant", "geometry", "get_variant", "parse_fen",
]
