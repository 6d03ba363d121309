"""Glicko-2 ratings per variant and speed class (docs/accounts.md).

The arithmetic is Glickman's "Example of the Glicko-2 system" (Boston University, 30 November
2013), steps 1-8, written here (the ``glicko2`` package, used before, computes step 5 with the
rating mu^2 where the deviation phi^2 belongs).  tests/test_ratings.py checks it against the
paper's worked example and, on random periods, against an independent computation.  Each
rated game is its own rating period, as on lichess, so a rating changes as soon as a game
ends.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

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

# Glicko-2 constants: the scale between the Glicko and Glicko-2 scales, the system constant
# tau (how fast volatility changes) and the convergence tolerance of step 5.
SCALE = 173.7178
TAU = 0.5
EPSILON = 0.000001
# lichess lets the deviation of an idle rating grow by 0.21436 rating periods a day.
RATING_PERIODS_PER_DAY = 0.21436


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


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _new_volatility(phi: float, sigma: float, delta: float, v: float) -> float:
    """Step 5: the root of f by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player: Rating, results: list[tuple[Rating, float]]) -> Rating:
    """The player's rating after one rating period against ``results`` (opponent's rating
    before the period, score 1 / 0.5 / 0).  No games: only the deviation grows (step 6)."""
    for _, score in results:
        if score not in (0.0, 0.5, 1.0):
            raise RatingError(f"a score is 0, 0.5 or 1, not {score}")
    mu = (player.rating - 1500) / SCALE  # step 2
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        rd = min(INITIAL_RD, math.sqrt(phi * phi + sigma * sigma) * SCALE)
        return Rating(player.rating, rd, sigma, player.games)
    gs, es = [], []
    for opponent, _ in results:
        g = _g(opponent.rd / SCALE)
        gs.append(g)
        es.append(1 / (1 + math.exp(-g * (mu - (opponent.rating - 1500) / SCALE))))
    v = 1 / sum(g * g * e * (1 - e) for g, e in zip(gs, es, strict=True))  # step 3
    total = sum(g * (s - e) for g, e, (_, s) in zip(gs, es, results, strict=True))
    delta = v * total  # step 4
    new_sigma = _new_volatility(phi, sigma, delta, v)  # step 5
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)  # step 6
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)  # step 7
    new_mu = mu + new_phi * new_phi * total
    rd = min(INITIAL_RD, new_phi * SCALE)  # step 8
    return Rating(new_mu * SCALE + 1500, rd, new_sigma, player.games + len(results))


def after_idle(player: Rating, days: float) -> Rating:
    """The rating after ``days`` without a rated game, as lichess previews it
    (``RatingCalculator.previewDeviation``): step 6 over ``days x 0.21436`` rating periods,
    phi' = sqrt(phi^2 + periods x sigma^2), at most the initial deviation.  The server
    applies it to every stored rating it shows or rates (docs/accounts.md)."""
    if days < 0:
        raise RatingError(f"elapsed time cannot be negative ({days} days)")
    phi = player.rd / SCALE
    periods = days * RATING_PERIODS_PER_DAY
    rd = min(INITIAL_RD, math.sqrt(phi * phi + periods * player.volatility ** 2) * SCALE)
    return Rating(player.rating, rd, player.volatility, player.games)


def rate_game(white: Rating, black: Rating, result: str) -> tuple[Rating, Rating]:
    """Both new ratings after one game (its own rating period) with a PGN result."""
    scores = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    if result not in scores:
        raise RatingError(f"cannot rate a game with result {result!r}")
    s = scores[result]
    new_white = update(white, [(black, s)])
    new_black = update(black, [(white, 1.0 - s)])
    return new_white, new_black
