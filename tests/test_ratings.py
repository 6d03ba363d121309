"""Glicko-2 (through the ``glicko2`` package) against Glickman's worked example, and the
speed classes on lichess's estimated-duration boundaries (docs/accounts.md)."""

from __future__ import annotations

import pytest

from randomchess.accounts.ratings import (
    PROVISIONAL_RD,
    Rating,
    RatingError,
    estimated_seconds,
    rate_game,
    speed_class,
    update,
)


def test_glickman_paper_example() -> None:
    # "Example of the Glicko-2 system", section 3: 1500/200/0.06 against 1400/30 (won),
    # 1550/100 (lost) and 1700/300 (lost).  The paper rounds its intermediate values and
    # prints r' = 1464.06; the exact computation gives 1464.05.
    player = Rating(1500, 200, 0.06)
    after = update(player, [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                            (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.games == 3


def test_no_game_widens_the_deviation_only() -> None:
    after = update(Rating(1600, 80, 0.06), [])
    assert after.rating == pytest.approx(1600)
    assert 80 < after.rd < 81


@pytest.mark.parametrize(("minutes", "increment", "speed"), [
    (0.25, 0, "bullet"),  # lichess's ultrabullet is counted as bullet
    (1, 0, "bullet"), (2, 1, "bullet"),  # 120 + 40 = 160 s
    (2, 1.5, "blitz"),  # 120 + 60 = 180 s: the first blitz second
    (3, 0, "blitz"), (5, 3, "blitz"),  # 420 s
    (7.5, 0.5, "blitz"), (8, 0, "rapid"),  # 470 s / 480 s
    (10, 0, "rapid"), (15, 10, "rapid"),  # 1300 s
    (20, 12, "classical"),  # 1680 s
    (25, 0, "classical"), (24.9, 0, "rapid"),
])
def test_speed_classes(minutes: float, increment: float, speed: str) -> None:
    assert speed_class(int(minutes * 60_000), int(increment * 1000)) == speed


def test_speed_class_edges_and_errors() -> None:
    assert estimated_seconds(180_000, 2000) == 260
    assert speed_class(None, None, days_per_move=3) == "correspondence"
    with pytest.raises(RatingError):
        speed_class(None, None)  # no clock: unrated
    with pytest.raises(RatingError):
        speed_class(None, None, days_per_move=4)
    with pytest.raises(ValueError):  # RatingError is a ValueError
        estimated_seconds(-1, 0)


def test_provisional_while_deviation_above_110() -> None:
    assert Rating().provisional
    assert Rating(1500, PROVISIONAL_RD + 0.1).provisional
    assert not Rating(1500, PROVISIONAL_RD).provisional
    # Two newcomers need many games before either stops being provisional.
    a, b = Rating(), Rating()
    games = 0
    while a.provisional:
        a, b = rate_game(a, b, "1-0" if games % 2 else "0-1")
        games += 1
    assert 5 < games < 40


def test_rate_game_results() -> None:
    w, b = rate_game(Rating(), Rating(), "1-0")
    assert w.rating > 1500 > b.rating
    assert w.rating - 1500 == pytest.approx(1500 - b.rating)
    dw, db = rate_game(Rating(1600, 60), Rating(1400, 60), "1/2-1/2")
    assert dw.rating < 1600 and db.rating > 1400
    with pytest.raises(RatingError):
        rate_game(Rating(), Rating(), "*")
    with pytest.raises(RatingError):
        update(Rating(), [(Rating(), 0.7)])
