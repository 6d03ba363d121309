"""Lag compensation for live clocks (issue 32, lichess style; docs/server.md, "Lag
compensation"): the page reports the lag it measures over its socket (half the ping's round
trip) with each move, and the server gives the mover that much of the move's time back, at
most LAG_CAP_MS per move and never more than the move took. A fake clock drives the server:
no waiting in the test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import randomchess.server.games.routes as game_routes
import randomchess.server.games.service as game_service
from randomchess.server.games.live import LAG_CAP_MS
from server_support import client, new_game, play

START = 1_800_000_000_000
FIVE_MINUTES = 300_000


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, list[int]]]:
    now = [START]
    for module in (game_service, game_routes):
        monkeypatch.setattr(module, "now_ms", lambda: now[0])
    with client(f"sqlite:///{tmp_path / 'lag.sqlite3'}") as c:
        yield c, now


def move(c: TestClient, g: dict[str, Any], uci: str, lag: int | None = None) -> Any:
    body: dict[str, Any] = {"move": uci, "token": g["seat"]["token"]}
    if lag is not None:
        body["lag"] = lag
    r = c.post(f"/api/games/{g['id']}/moves", json=body)
    assert r.status_code == 200, r.text
    return r.json()["clocks"]


def test_a_slow_connection_does_not_cost_the_player_its_lag(
        fake: tuple[TestClient, list[int]]) -> None:
    c, now = fake
    g = new_game(c, variant="chess", clock={"minutes": 5, "increment": 0})
    play(c, g, "e2e4", "e7e5")  # both have moved: White's clock runs from now
    # White thinks 1.8 s; the move spends 0.2 s on its way: the server sees 2 s.
    now[0] += 2_000
    assert move(c, g, "g1f3", lag=200)["white"] == FIVE_MINUTES - 1_800
    # The same 2 s without a lag report: all of it is charged.
    now[0] += 2_000
    assert move(c, g, "b8c6")["black"] == FIVE_MINUTES - 2_000
    # A lag beyond the cap is credited up to the cap only.
    now[0] += 3_000
    assert move(c, g, "f1c4", lag=5_000)["white"] == FIVE_MINUTES - 1_800 - 3_000 + LAG_CAP_MS
    # Never more than the move took: a move 50 ms after the last is free, not a gain.
    now[0] += 50
    assert move(c, g, "g8f6", lag=LAG_CAP_MS)["black"] == FIVE_MINUTES - 2_000


def test_a_lag_report_out_of_range_is_refused(fake: tuple[TestClient, list[int]]) -> None:
    c, _ = fake
    g = new_game(c, variant="chess", clock={"minutes": 5, "increment": 0})
    for bad in (-1, 60_001, "slow", 1.5):
        r = c.post(f"/api/games/{g['id']}/moves",
                   json={"move": "e2e4", "token": g["seat"]["token"], "lag": bad})
        assert r.status_code == 422, (bad, r.text)
    assert c.get(f"/api/games/{g['id']}").json()["moves"] == []
