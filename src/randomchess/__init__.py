"""randomchess: rules, notation, setups and an engine for Chess960 and Modern Random Chess."""

# First: the compiled modules (build_support/native.py), when built and fresh, go ahead of
# the .py files of this package (randomchess.native says whether they are in use).
from randomchess import native

__path__ = native.prepend(__path__)

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# The public names, imported on first use: ``import randomchess.tournament`` (the command
# line) does not pay for the PGN reader or the game model it does not use.
_LAZY: dict[str, str] = {
    'AmbiguousMoveError': 'randomchess.errors',
    'BoardSizeError': 'randomchess.errors',
    'ColorError': 'randomchess.errors',
    'FenError': 'randomchess.errors',
    'IllegalMoveError': 'randomchess.errors',
    'InvalidMoveError': 'randomchess.errors',
    'LanguageError': 'randomchess.errors',
    'RandomChessError': 'randomchess.errors',
    'Setup': 'randomchess.fen',
    'parse_fen': 'randomchess.fen',
    'Game': 'randomchess.game',
    'GameOverError': 'randomchess.game',
    'Outcome': 'randomchess.game',
    'Termination': 'randomchess.game',
    'Geometry': 'randomchess.geometry',
    'geometry': 'randomchess.geometry',
    'PgnError': 'randomchess.pgn',
    'PgnGame': 'randomchess.pgn',
    'read_games': 'randomchess.pgn',
    'write_game': 'randomchess.pgn',
    'write_games': 'randomchess.pgn',
    'ARCHBISHOP': 'randomchess.pieces',
    'BISHOP': 'randomchess.pieces',
    'BLACK': 'randomchess.pieces',
    'CHANCELLOR': 'randomchess.pieces',
    'KING': 'randomchess.pieces',
    'KNIGHT': 'randomchess.pieces',
    'MINISTER': 'randomchess.pieces',
    'PAWN': 'randomchess.pieces',
    'QUEEN': 'randomchess.pieces',
    'ROOK': 'randomchess.pieces',
    'WHITE': 'randomchess.pieces',
    'Move': 'randomchess.position',
    'Position': 'randomchess.position',
    'parse_san': 'randomchess.san',
    'push_san': 'randomchess.san',
    'san': 'randomchess.san',
    'CommitmentError': 'randomchess.startpos',
    'NotASetupError': 'randomchess.startpos',
    'NumberedSetup': 'randomchess.startpos',
    'RoundError': 'randomchess.startpos',
    'SeedError': 'randomchess.startpos',
    'SetupNumberError': 'randomchess.startpos',
    'SetupPool': 'randomchess.startpos',
    'SetupPoolError': 'randomchess.startpos',
    'chess960_number': 'randomchess.startpos',
    'chess960_rank': 'randomchess.startpos',
    'draw_random': 'randomchess.startpos',
    'draw_seeded': 'randomchess.startpos',
    'mrc_number': 'randomchess.startpos',
    'mrc_rank': 'randomchess.startpos',
    'setup_from_fen': 'randomchess.startpos',
    'setup_from_number': 'randomchess.startpos',
    'setup_from_rank': 'randomchess.startpos',
    'VARIANTS': 'randomchess.variants',
    'UnknownVariantError': 'randomchess.variants',
    'Variant': 'randomchess.variants',
    'get_variant': 'randomchess.variants',
}


# Two public names are also submodules' names: bound now, after their submodules, so that
# ``randomchess.geometry`` and ``randomchess.san`` are the functions, as they always were
# (a submodule imported later would otherwise bind its module to the name).
from randomchess.geometry import geometry
from randomchess.san import san


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
    try:  # a submodule reached as an attribute: randomchess.fen
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
