"""Typed errors.  Every one is a ``ValueError``, so callers may catch broadly or precisely."""

from __future__ import annotations


class RandomChessError(ValueError):
    """Base class of every error this package raises about bad input."""


class FenError(RandomChessError):
    """A FEN that cannot be read, or that describes an impossible position."""


class InvalidMoveError(RandomChessError):
    """Move text that is malformed (not a move in any position)."""


class IllegalMoveError(RandomChessError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(RandomChessError):
    """A SAN move that matches more than one legal move."""


class NotASetupError(RandomChessError):
    """A rank or FEN that is not a start array of the variant; the message says why."""


class BoardSizeError(RandomChessError):
    """A board size outside 2x2 .. 12x12."""


class LanguageError(RandomChessError):
    """A notation language other than ``"en"`` and ``"es"``."""


class ColorError(RandomChessError):
    """A colour other than ``WHITE`` (0) and ``BLACK`` (1)."""
