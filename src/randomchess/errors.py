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
