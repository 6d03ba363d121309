"""The profile's statistics per variant and speed class and its rating history (issue 18),
against counts computed independently here from the games the test plays."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_support import client, database
from test_accounts import rated_game, user, wait_rated


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, client(url) as c:
        yield c


# (variant, clock (minutes, increment), Alice's colour, how it ends)
PLAN = [
    ("chess960", (3, 2), "white", "white resigns"),
    ("chess960", (3, 2), "black", "white resigns"),
    ("chess960", (3, 2), "white", "draw"),
    ("chess960", (30, 0), "black", "black resigns"),
    ("mrc", (1, 0), "white", "black resigns"),
    ("mrc", (1, 0), "black", "draw"),
]


def test_stats_per_variant_and_speed_against_independent_counts(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    expected: dict[tuple[str, str], Counter[str]] = {}
    speeds = {(3, 2): "blitz", (30, 0): "classical", (1, 0): "bullet"}
    for variant, clock, colour, end in PLAN:
        white, black = (a, b) if colour == "white" else (b, a)
        g = rated_game(c, white, black, clock=clock, variant=variant)
        if end == "draw":
            c.post(f"/api/games/{g['id']}/draw-offer", json={"token": g["white"]})
            c.post(f"/api/games/{g['id']}/draw-accept", json={"token": g["black"]})
            mine = "draws"
        else:
            loser = end.split()[0]
            c.post(f"/api/games/{g['id']}/resign", json={"token": g[loser]})
            mine = "losses" if loser == colour else "wins"
        wait_rated(c, g["id"])
        counts = expected.setdefault((variant, speeds[clock]), Counter())
        counts["games"] += 1
        counts[mine] += 1
        counts[f"{colour}-{mine}"] += 1
    # An unrated, unfinished game counts nowhere.
    rated_game(c, a, b)
    profile = c.get("/api/players/alice").json()
    got = {(s["variant"], s["speed"]): s for s in profile["stats"]}
    assert set(got) == set(expected)
    for key, counts in expected.items():
        s = got[key]
        assert (s["games"], s["wins"], s["draws"], s["losses"]) == \
            (counts["games"], counts["wins"], counts["draws"], counts["losses"]), key
        for colour in ("white", "black"):
            assert s[colour] == {k: counts[f"{colour}-{k}"] for k in ("wins", "draws", "losses")}
        assert s["score"] == pytest.approx((counts["wins"] + counts["draws"] / 2)
                                           / counts["games"])
    # The history: one point per rated game, each starting where the one before ended
    # within its variant and speed, from 1500.
    history = profile["history"]
    assert len(history) == len(PLAN)
    last: dict[tuple[str, str], int] = {}
    for point in history:
        key = (point["variant"], point["speed"])
        assert point["before"] == last.get(key, 1500)
        last[key] = point["rating"]
    ratings = {(r["variant"], r["speed"]): r["rating"] for r in profile["ratings"]}
    assert ratings == last
    bob = {(s["variant"], s["speed"]): s for s in c.get("/api/players/bob").json()["stats"]}
    for key, s in got.items():  # Bob's results are Alice's, mirrored
        assert (bob[key]["wins"], bob[key]["losses"]) == (s["losses"], s["wins"])
