"""Ratings of the computer levels, measured by the match runner (issues 11 and 14).

Every level plays Chess960 matches at the server's conditions against Stockfish limited by
``UCI_LimitStrength`` / ``UCI_Elo`` (the anchors: their rating is fixed at the nominal
``UCI_Elo``) and against its neighbouring levels (the chain that reaches the levels below
Stockfish's lowest setting, 1350).  :func:`fit` finds the ratings that make the observed
scores most likely under the Elo model (Bradley-Terry on the 400-point logistic scale, a draw
counted as half a win), with one **virtual draw** per pairing as a prior so that a clean sweep
gives a finite figure (BayesElo's device; it pulls each estimate a little towards its
opponents).  The margin is 1.96 standard errors from the curvature of the likelihood.

The measured tallies are shipped in ``analysis/data/level_ratings.json`` (written by
``bench/calibrate_levels.py``); :func:`level_ratings` refits them, so the labels the server
shows are always what the recorded games say.  Standard library only.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

K = math.log(10) / 400  # d/dr of the logistic's exponent
PRIOR_DRAWS = 1.0  # virtual draws added to every pairing


@dataclass(frozen=True)
class Pairing:
    """The tally of ``a`` against ``b``: ``a``'s wins, the draws and ``a``'s losses."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws


@dataclass(frozen=True)
class Rating:
    rating: float
    margin: float  # half the 95 % interval
    games: int


def expected(ra: float, rb: float) -> float:
    """The Elo model's expected score of a player rated ``ra`` against one rated ``rb``."""
    return 1.0 / (1.0 + 10 ** ((rb - ra) / 400))


def fit(pairings: list[Pairing], anchors: dict[str, float],
        prior_draws: float = PRIOR_DRAWS) -> dict[str, Rating]:
    """The maximum-likelihood ratings of every player of ``pairings`` that is not an anchor
    (anchors keep their given rating), by Newton's method; ``ValueError`` when a player is not
    connected to an anchor through the games."""
    players = sorted({p.a for p in pairings} | {p.b for p in pairings})
    free = [name for name in players if name not in anchors]
    index = {name: i for i, name in enumerate(free)}
    _check_connected(pairings, anchors, free)
    start = sum(anchors.values()) / len(anchors)
    r = {name: anchors.get(name, start) for name in players}
    n = len(free)
    for _ in range(100):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for p in pairings:
            games = p.games + prior_draws
            points = p.points + prior_draws / 2
            e = expected(r[p.a], r[p.b])
            g = K * (points - games * e)
            w = K * K * games * e * (1 - e)
            ia, ib = index.get(p.a), index.get(p.b)
            if ia is not None:
                grad[ia] += g
                hess[ia][ia] -= w
            if ib is not None:
                grad[ib] -= g
                hess[ib][ib] -= w
            if ia is not None and ib is not None:
                hess[ia][ib] += w
                hess[ib][ia] += w
        step = _solve([[-x for x in row] for row in hess], grad)
        for name, i in index.items():
            r[name] += max(-400.0, min(400.0, step[i]))
        if max((abs(s) for s in step), default=0.0) < 1e-6:
            break
    cov = _inverse([[-x for x in row] for row in hess])
    games_of = {name: 0 for name in free}
    for p in pairings:
        for name in (p.a, p.b):
            if name in games_of:
                games_of[name] += p.games
    return {name: Rating(r[name], 1.96 * math.sqrt(cov[i][i]), games_of[name])
            for name, i in index.items()}


def _check_connected(pairings: list[Pairing], anchors: dict[str, float],
                     free: list[str]) -> None:
    reached = set(anchors)
    changed = True
    while changed:
        changed = False
        for p in pairings:
            if (p.a in reached) != (p.b in reached):
                reached |= {p.a, p.b}
                changed = True
    lost = [name for name in free if name not in reached]
    if lost:
        raise ValueError(f"not connected to an anchor: {', '.join(lost)}")


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda i: abs(m[i][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-300:
            raise ValueError("the ratings are not determined by these games")
        for i in range(n):
            if i != col:
                f = m[i][col] / m[col][col]
                for j in range(col, n + 1):
                    m[i][j] -= f * m[col][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    columns = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


# --------------------------------------------------------------------- the shipped data
@dataclass(frozen=True)
class LevelRating:
    """What a computer level's label says: a rating on Stockfish's ``UCI_Elo`` scale."""

    level: int
    rating: int  # rounded to 10
    margin: int  # half the 95 % interval, rounded up to 10
    games: int


def load(data: dict[str, Any]) -> tuple[list[Pairing], dict[str, float], dict[str, int]]:
    """(pairings, anchors, level of each level player) from the JSON document."""
    pairings = [Pairing(p["a"], p["b"], p["wins"], p["draws"], p["losses"])
                for p in data["pairings"]]
    anchors = {name: float(p["anchor"]) for name, p in data["players"].items()
               if p.get("anchor") is not None}
    levels = {name: int(p["level"]) for name, p in data["players"].items()
              if p.get("level") is not None}
    return pairings, anchors, levels


def ratings_from(data: dict[str, Any]) -> dict[int, LevelRating]:
    pairings, anchors, levels = load(data)
    played = {p.a for p in pairings} | {p.b for p in pairings}
    fitted = fit(pairings, anchors, float(data.get("prior_draws", PRIOR_DRAWS)))
    out = {}
    for name, level in levels.items():
        if name in played and name in fitted:
            f = fitted[name]
            out[level] = LevelRating(level, int(round(f.rating, -1)),
                                     int(math.ceil(f.margin / 10) * 10), f.games)
    return out


@cache
def _shipped() -> dict[str, Any]:
    text = resources.files("randomchess.analysis").joinpath("data/level_ratings.json").read_text(
        encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def level_ratings() -> dict[int, LevelRating]:
    """The measured rating of each computer level (levels not measured are absent)."""
    return ratings_from(_shipped())


def conditions() -> dict[str, Any]:
    """How the shipped ratings were measured (variant, times, date, engine commit)."""
    info: dict[str, Any] = _shipped()["conditions"]
    return info
