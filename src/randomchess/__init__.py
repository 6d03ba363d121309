"""randomchess: rules, notation, setups and an engine for Chess960 and Modern Random Chess."""

# First: the compiled modules (build_support/native.py), when built and fresh, go ahead of
# the .py files of this package (randomchess.native says whether they are in use).
from randomchess import native

__path__ = native.prepend(__path__)

from randomchess.errors import (
    AmbiguousMoveError,
    BoardSizeError,
    ColorError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    LanguageError,
    RandomChessError,
)
from randomchess.fen import Setup, parse_fen
from randomchess.game import Game, GameOverError, Outcome, Termination
from randomchess.geometry import Geometry, geometry
from randomchess.pgn import PgnError, PgnGame, read_games, write_game, write_games
from randomchess.pieces import (
    ARCHBISHOP,
    BISHOP,
    BLACK,
    CHANCELLOR,
    KING,
    KNIGHT,
    MINISTER,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
)
from randomchess.position import Move, Position
from randomchess.san import parse_san, push_san, san
from randomchess.startpos import (
    CommitmentError,
    NotASetupError,
    NumberedSetup,
    RoundError,
    SeedError,
    SetupNumberError,
    SetupPool,
    SetupPoolError,
    chess960_number,
    chess960_rank,
    draw_random,
    draw_seeded,
    mrc_number,
    mrc_rank,
    setup_from_fen,
    setup_from_number,
    setup_from_rank,
)
from randomchess.variants import VARIANTS, UnknownVariantError, Variant, get_variant

__all__ = [
    "ARCHBISHOP",
    "BISHOP",
    "BLACK",
    "CHANCELLOR",
    "KING",
    "KNIGHT",
    "MINISTER",
    "PAWN",
    "QUEEN",
    "ROOK",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "BoardSizeError",
    "ColorError",
    "CommitmentError",
    "FenError",
    "Game",
    "GameOverError",
    "Geometry",
    "IllegalMoveError",
    "InvalidMoveError",
    "LanguageError",
    "Move",
    "NotASetupError",
    "NumberedSetup",
    "Outcome",
    "PgnError",
    "PgnGame",
    "Position",
    "RandomChessError",
    "RoundError",
    "SeedError",
    "Setup",
    "SetupNumberError",
    "SetupPool",
    "SetupPoolError",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "chess960_number",
    "chess960_rank",
    "draw_random",
    "draw_seeded",
    "geometry",
    "get_variant",
    "mrc_number",
    "mrc_rank",
    "parse_fen",
    "parse_san",
    "push_san",
    "read_games",
    "san",
    "setup_from_fen",
    "setup_from_number",
    "setup_from_rank",
    "write_game",
    "write_games",
]
