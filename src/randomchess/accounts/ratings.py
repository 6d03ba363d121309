"""Glicko-2 ratings per variant and speed class (docs/accounts.md).

The arithmetic is the ``glicko2`` package's (MIT), checked against the worked example of
Glickman's "Example of the Glicko-2 system" in tests/test_ratings.py.  Each rated game is
its own rating period, as on lichess, so a rating changes as soon as a game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import glicko2  # type: ignore[import-untyped]

Speed = Literal["bullet", "blitz", "rapid", "classical", "correspondence"]
SPEEDS: tuple[Speed, ...] = ("bullet", "blitz", "rapid", "classical", "correspondence")

# lichess's boundaries on the estimated duration ``base + 40 x increment`` (seconds): under
# 180 s bullet (lichess's "ultrabullet", under 30 s, is counted as bullet here), under 480 s
# blitz, under 1500 s rapid, else classical.  Days per move make a correspondence game.
BLITZ_FROM_S = 180
RAPID_FROM_S = 480
CLASSICAL_FROM_S = 1500
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 14)

INITIAL_RATING = 1500.0
INITIAL_RD = 350.0
INITIAL_VOLATILITY = 0.06
# A rating is provisional while its deviation is above 110, lichess's threshold: about the
# first dozen games against established players.
PROVISIONAL_RD = 110.0


class RatingError(ValueError):
    """A time control or result that cannot be rated."""


def estimated_seconds(initial_ms: int, increment_ms: int) -> float:
    """The estimated duration of a game: base + 40 x increment, in seconds."""
    if initial_ms < 0 or increment_ms < 0:
        raise RatingError("a clock cannot be negative")
    return initial_ms / 1000 + 40 * increment_ms / 1000


def speed_class(initial_ms: int | None, increment_ms: int | None,
                days_per_move: int | None = None) -> Speed:
    """The speed class of a time control; a game with neither a clock nor days per move has
    none (such games are casual only)."""
    if days_per_move is not None:
        if days_per_move not in CORRESPONDENCE_DAYS:
            raise RatingError(f"days per move must be one of {CORRESPONDENCE_DAYS}")
        return "correspondence"
    if initial_ms is None:
        raise RatingError("a game without a clock has no speed class and cannot be rated")
    t = estimated_seconds(initial_ms, increment_ms or 0)
    if t < BLITZ_FROM_S:
        return "bullet"
    if t < RAPID_FROM_S:
        return "blitz"
    if t < CLASSICAL_FROM_S:
        return "rapid"
    return "classical"


@dataclass(frozen=True)
class Rating:
    rating: float = INITIAL_RATING
    rd: float = INITIAL_RD
    volatility: float = INITIAL_VOLATILITY
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def update(player: Rating, results: list[tuple[Rating, float]]) -> Rating:
    """The player's rating after one rating period against ``results`` (opponent's rating
    before the period, score 1 / 0.5 / 0).  No games: only the deviation grows."""
    for _, score in results:
        if score not in (0.0, 0.5, 1.0):
            raise RatingError(f"a score is 0, 0.5 or 1, not {score}")
    p = glicko2.Player(player.rating, player.rd, player.volatility)
    if not results:
        p.did_not_compete()
    else:
        p.update_player([o.rating for o, _ in results], [o.rd for o, _ in results],
                        [s for _, s in results])
    rd = min(INITIAL_RD, float(p.rd))
    return Rating(float(p.rating), rd, float(p.vol), player.games + len(results))


def rate_game(white: Rating, black: Rating, result: str) -> tuple[Rating, Rating]:
    """Both new ratings after one game (its own rating period) with a PGN result."""
    scores = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    if result not in scores:
        raise RatingError(f"cannot rate a game with result {result!r}")
    s = scores[result]
    new_white = update(white, [(black, s)])
    new_black = update(black, [(white, 1.0 - s)])
    return new_white, new_black
