"""How a game ends (RULES.md §1.4-§1.7), for the server.

The material rules come from :mod:`randomchess.game`; the automatic endings and claims are
computed here over the server's own replay (a list of position keys per stored game), so a
request never rebuilds a ``Game`` object.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from randomchess.game import can_checkmate, is_dead_position
from randomchess.pieces import BLACK, WHITE, Color
from randomchess.position import Move, Position

COLOR_NAMES = ("white", "black")

CHECKMATE = "checkmate"
STALEMATE = "stalemate"
DEAD_POSITION = "dead position"
FIVEFOLD = "fivefold repetition"
SEVENTY_FIVE = "seventy-five-move rule"
THREEFOLD = "threefold repetition"
FIFTY = "fifty-move rule"
RESIGNATION = "resignation"
AGREEMENT = "agreement"
TIME_FORFEIT = "time forfeit"


@dataclass(frozen=True)
class Outcome:
    """A finished game: ``winner`` is ``"white"``, ``"black"`` or None for a draw."""

    termination: str
    winner: str | None

    @property
    def result(self) -> str:
        return {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[self.winner]


def win_for(color: Color, termination: str) -> Outcome:
    return Outcome(termination, COLOR_NAMES[color])


def is_dead_by_material(pos: Position) -> bool:
    """RULES.md §1.7: besides the kings nothing, one knight, or bishops all on one colour."""
    return is_dead_position(pos)


def can_mate(pos: Position, color: Color) -> bool:
    """Whether ``color`` could mate by some series of legal moves, as far as material
    decides (FIDE 6.9 and 5.1.2: a flag fall or resignation against a side that cannot
    mate is a draw)."""
    return can_checkmate(pos, color)


def automatic(pos: Position, keys: Sequence[Hashable]) -> Outcome | None:
    """The ending that needs no claim, in RULES.md §1.7's order: checkmate, stalemate, dead
    position, fivefold, 75 moves.  ``keys`` are the position keys of the game so far, the
    current position's last."""
    if not pos.legal_moves():
        if pos.is_check():
            return win_for(pos.turn ^ 1, CHECKMATE)
        return Outcome(STALEMATE, None)
    if is_dead_by_material(pos):
        return Outcome(DEAD_POSITION, None)
    if keys and Counter(keys)[keys[-1]] >= 5:
        return Outcome(FIVEFOLD, None)
    if pos.halfmove_clock >= 150:
        return Outcome(SEVENTY_FIVE, None)
    return None


def claimable(pos: Position, keys: Sequence[Hashable]) -> list[str]:
    """The draws the side to move may claim now, without naming a move (FIDE 9.2.2, 9.3)."""
    out = []
    if keys and Counter(keys)[keys[-1]] >= 3:
        out.append(THREEFOLD)
    if pos.halfmove_clock >= 100:
        out.append(FIFTY)
    return out


def claimable_with(pos: Position, keys: Sequence[Hashable], move: Move) -> list[str]:
    """The draws claimable by writing ``move`` and declaring it (FIDE 9.2.1, 9.3.1)."""
    pos.push(move)
    try:
        return claimable(pos, [*keys, pos.key()])
    finally:
        pos.pop()


__all__ = [
    "AGREEMENT", "BLACK", "CHECKMATE", "COLOR_NAMES", "DEAD_POSITION", "FIFTY", "FIVEFOLD",
    "RESIGNATION", "SEVENTY_FIVE", "STALEMATE", "THREEFOLD", "TIME_FORFEIT", "WHITE",
    "Outcome", "automatic", "can_mate", "claimable", "claimable_with", "is_dead_by_material",
    "win_for",
]
