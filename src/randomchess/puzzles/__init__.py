"""Puzzles for Chess960 and Modern Random Chess (issue 33): what a puzzle is
(:mod:`~randomchess.puzzles.model`), its themes (:mod:`~randomchess.puzzles.themes`), the
engine-driven generator (:mod:`~randomchess.puzzles.generator`) and the shipped starter set
(``data/*.jsonl``, :func:`~randomchess.puzzles.model.shipped_puzzles`).

This package sits above the engine layer (it drives engines through
:mod:`randomchess.analysis`) and below the server and the command line (docs/puzzles.md)."""

from randomchess.puzzles.model import (
    PUZZLE_VARIANTS,
    Puzzle,
    PuzzleError,
    check_attempt,
    shipped_puzzles,
)

__all__ = ["PUZZLE_VARIANTS", "Puzzle", "PuzzleError", "check_attempt", "shipped_puzzles"]
