"""Rated tournament rounds (issue 18): an organiser opens a round's online games as rated, in
the event's variant and the speed class of its time control; a game is rated when both
players have claimed their seats with their accounts (from their personal links)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client, database, play
from test_accounts import user, wait_rated


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with database("sqlite", tmp_path) as url, client(url) as c:
        yield c


def event(c: TestClient, time_control: str) -> tuple[str, dict[str, str]]:
    r = c.post("/api/tournaments", json={"name": "Rated Open", "rounds": 1,
                                         "variant": "mrc", "time_control": time_control})
    assert r.status_code == 201, r.text
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for name in ("Ann", "Bob"):
        assert c.post(f"/api/tournaments/{eid}/players", json={"name": name},
                      headers=auth).status_code == 201
    assert c.post(f"/api/tournaments/{eid}/start", headers=auth).status_code == 200
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    return eid, auth


def test_rated_round_rates_games_whose_seats_the_accounts_claimed(c: TestClient) -> None:
    eid, auth = event(c, "180+2")
    r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth, json={"rated": True})
    assert r.status_code == 200, r.text
    [g] = r.json()["games"]
    gid = g["game_id"]
    terms = c.get(f"/api/games/{gid}/ratings").json()
    assert (terms["rated"], terms["speed"]) == (True, "blitz")
    white: str = g["white"]["link"].rsplit("/", 1)[1]
    invite = g["black"]["link"].rsplit("/", 1)[1]
    black: str = c.post(f"/api/games/{gid}/join", json={"invite": invite}).json()["seat"]["token"]
    ann, bob = user(c, "ann"), user(c, "bob")
    for b, token in ((ann, white), (bob, black)):
        assert b.post(f"/api/account/games/{gid}/claim", json={"token": token}).status_code == 200
    board: dict[str, Any] = {"id": gid, "seat": {"token": white}}
    play(c, board, "e2e4")
    c.post(f"/api/games/{gid}/resign", json={"token": black})
    changes = wait_rated(c, gid)
    assert {ch["player"]: ch["change"] > 0 for ch in changes} == {"ann": True, "bob": False}
    ratings = ann.get("/api/account/me").json()["ratings"]
    assert [(r["variant"], r["speed"]) for r in ratings] == [("mrc", "blitz")]


def test_rounds_are_casual_by_default_and_a_rated_one_needs_a_clock(c: TestClient) -> None:
    eid, auth = event(c, "")
    r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth, json={"rated": True})
    assert r.status_code == 422 and "time control" in r.json()["detail"]
    r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth)
    assert r.status_code == 200
    gid = r.json()["games"][0]["game_id"]
    assert c.get(f"/api/games/{gid}/ratings").json()["rated"] is False
