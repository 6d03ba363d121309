"""What a game adds to the explorer: one (position, move) pair per ply of its main line.

A position's key is its FEN without the two move counters (the half-move clock and the move
number), so that transpositions within a setup meet; the MRC adjustment field is kept, since
it is part of the position (RULES.md §4.9).  A game counts at most once for a pair, however
often it came back to that position and played that move; only the first ``MAX_PLIES`` plies
count (the explorer is about openings, and the table stays a bounded size per game)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from randomchess.position import Move, Position
from randomchess.startpos import setup_from_fen

MAX_PLIES = 60
RESULTS = ("1-0", "1/2-1/2", "0-1")


class ExplorerError(ValueError):
    """A game the explorer cannot take (no result, not from a numbered setup...)."""


def position_key(pos: Position) -> str:
    """The FEN of ``pos`` without its move counters."""
    fields = pos.fen().split(" ")
    return " ".join(fields[:4] + fields[6:])


def game_pairs(start: Position, moves: Iterable[Move]) -> list[tuple[str, str]]:
    """The (position key, UCI move) pairs of a main line from ``start`` (which is not
    changed), each once, for the first ``MAX_PLIES`` plies."""
    pos = start.copy(stack=False)
    seen: set[tuple[str, str]] = set()
    out = []
    for ply, move in enumerate(moves):
        if ply >= MAX_PLIES:
            break
        pair = (position_key(pos), pos.uci(move))
        if pair not in seen:
            seen.add(pair)
            out.append(pair)
        pos.push(move)
    return out


def setup_number(variant: str, start_fen: str) -> int:
    """The number of the numbered setup a game started from (``ExplorerError`` if none)."""
    try:
        return setup_from_fen(start_fen, variant).number
    except ValueError as e:
        raise ExplorerError(f"not a numbered start position: {e}") from None


@dataclass
class Tally:
    """Counts kept in memory before one transaction writes them: (variant, number, position,
    move) -> [games, White wins, draws, Black wins]."""

    counts: dict[tuple[str, int, str, str], list[int]] = field(default_factory=dict)
    games: int = 0

    def add_game(self, variant: str, number: int, start: Position, moves: Iterable[Move],
                 result: str) -> None:
        if result not in RESULTS:
            raise ExplorerError(f"the game has no result ({result!r})")
        column = 1 + RESULTS.index(result)
        for key, uci in game_pairs(start, moves):
            row = self.counts.setdefault((variant, number, key, uci), [0, 0, 0, 0])
            row[0] += 1
            row[column] += 1
        self.games += 1

    def clear(self) -> None:
        self.counts.clear()
        self.games = 0
