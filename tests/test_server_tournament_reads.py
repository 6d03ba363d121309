"""Reads never write (issue 28, item 6).

Measured before: every GET of a tournament page with an online game in progress bumped the
event's version (a database write): with 20 viewers on SQLite, "database is locked" 500s and
game moves answered 503.  A board whose online game was aborted wrote on every GET forever and
could not be opened online again.

Now a GET reads only: the result of an ended online game is shown at once (read from the game)
and recorded by the server when the game ends; an aborted game frees its board, which the
organiser can open online again.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client


@pytest.fixture()
def setting(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    db = tmp_path / "games.sqlite3"
    with client(f"sqlite:///{db}") as c:
        yield c, db


def _version(db: Path, eid: str) -> tuple[int, int]:
    """The event's version and the number of its log lines, read directly."""
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT version FROM tournaments WHERE id = ?", (eid,)).fetchone()
        logs = conn.execute("SELECT count(*) FROM tournament_log WHERE tournament_id = ?",
                            (eid,)).fetchone()
    return int(version[0]), int(logs[0])


def _stored_result(db: Path, eid: str) -> str | None:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT result FROM tournament_boards WHERE tournament_id = ? "
                           "AND board = 1", (eid,)).fetchone()
    return None if row is None else row[0]


def _wait_for(condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _online_round(c: TestClient) -> tuple[str, dict[str, str], list[dict[str, Any]]]:
    r = c.post("/api/tournaments", json={"name": "Reads", "rounds": 1,
                                         "time_control": "300+2"})
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for i, name in enumerate(["Ann", "Bob"]):
        c.post(f"/api/tournaments/{eid}/players", json={"name": name, "rating": 2000 - i},
               headers=auth)
    assert c.post(f"/api/tournaments/{eid}/start", headers=auth).status_code == 200
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth)
    assert r.status_code == 200, r.text
    return eid, auth, r.json()["games"]


def test_viewing_an_event_with_a_game_in_progress_writes_nothing(
        setting: tuple[TestClient, Path]) -> None:
    c, db = setting
    eid, _, games = _online_round(c)
    g = games[0]
    token = g["white"]["link"].rsplit("/", 1)[1]
    invite = g["black"]["link"].rsplit("/", 1)[1]
    black = c.post(f"/api/games/{g['game_id']}/join", json={"invite": invite}).json()
    assert c.post(f"/api/games/{g['game_id']}/moves",
                  json={"move": "e2e4", "token": token}).status_code == 200
    before = _version(db, eid)
    for _ in range(20):
        assert c.get(f"/api/tournaments/{eid}").status_code == 200
    assert _version(db, eid) == before
    # The game ends: the page shows the result at once, and it is recorded as final.
    assert c.post(f"/api/games/{g['game_id']}/resign",
                  json={"token": black["seat"]["token"]}).status_code == 200
    shown = c.get(f"/api/tournaments/{eid}").json()
    assert shown["round_list"][0]["boards"][0]["result"] == "1-0"
    assert _wait_for(lambda: _stored_result(db, eid) == "1-0")  # recorded by the server
    after = _version(db, eid)
    for _ in range(5):
        c.get(f"/api/tournaments/{eid}")
    assert _version(db, eid) == after


def test_an_aborted_online_game_frees_its_board_and_reads_stay_reads(
        setting: tuple[TestClient, Path]) -> None:
    c, db = setting
    eid, auth, games = _online_round(c)
    g = games[0]
    token = g["white"]["link"].rsplit("/", 1)[1]
    r = c.post(f"/api/games/{g['game_id']}/abort", json={"token": token})
    assert r.status_code == 200, r.text
    shown = c.get(f"/api/tournaments/{eid}").json()["round_list"][0]["boards"][0]
    assert shown["result"] is None and shown["game_id"] is None

    def freed() -> bool:
        with sqlite3.connect(db) as conn:
            row = conn.execute("SELECT game_id FROM tournament_boards WHERE tournament_id = ? "
                               "AND board = 1", (eid,)).fetchone()
        return row[0] is None

    assert _wait_for(freed)  # the server frees the board when the game ends
    before = _version(db, eid)
    for _ in range(10):
        c.get(f"/api/tournaments/{eid}")
    assert _version(db, eid) == before
    again = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth)
    assert again.status_code == 200, again.text
    assert [x["board"] for x in again.json()["games"]] == [1]
    assert again.json()["games"][0]["game_id"] != g["game_id"]


def test_opening_a_round_that_does_not_exist_online_is_refused(
        setting: tuple[TestClient, Path]) -> None:
    """Issue 28, item 11: it answered 200 (and opened nothing) for any round number."""
    c, db = setting
    eid, auth, _ = _online_round(c)
    before = _version(db, eid)
    for rnd in (2, 99):
        r = c.post(f"/api/tournaments/{eid}/rounds/{rnd}/online", headers=auth)
        assert r.status_code == 404, r.text
        assert r.json()["code"] == "tournament.no_round"
    assert _version(db, eid) == before
