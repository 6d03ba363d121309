"""Correspondence games (issue 18): days per move, a per-move deadline kept in the database
(so it survives a restart), shown in the state, and a missed deadline lost on time, or drawn
when the opponent cannot mate (FIDE 6.9)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from server_support import client, database, new_game, play
from test_accounts import Browser, user

DAY = 86_400_000


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    with database("sqlite", tmp_path) as url:
        yield url


def overdue(c: TestClient, game_id: str, by_ms: int = 1000) -> None:
    """Move the game's running clock back in the database, as if its deadline had passed
    ``by_ms`` ago (the version grows, as every committed change makes it)."""
    engine = c.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        row = conn.execute(text("SELECT white_ms, black_ms, clock_started_at, moves FROM games "
                                "WHERE id = :id"), {"id": game_id}).one()
        mover_ms = row.white_ms if len(row.moves.split()) % 2 == 0 else row.black_ms
        started = int(time.time() * 1000) - mover_ms - by_ms
        conn.execute(text("UPDATE games SET clock_started_at = :s, version = version + 1 "
                          "WHERE id = :id"), {"s": started, "id": game_id})


def test_days_per_move_and_the_deadline_in_the_state(db: str) -> None:
    with client(db) as c:
        before = int(time.time() * 1000)
        g = new_game(c, clock={"days": 3})
        s = c.get(f"/api/games/{g['id']}").json()
        clocks = s["clocks"]
        assert (clocks["days"], clocks["initial"], clocks["increment"]) == (3, 3 * DAY, 0)
        # The first move has its deadline too: the clock runs from the start.
        assert clocks["running"] == "white" and clocks["black"] == 3 * DAY
        assert before + 3 * DAY - 5000 <= clocks["deadline"] <= int(time.time() * 1000) + 3 * DAY
        s = play(c, g, "e4")
        # Each move gives the mover its full days again: no time is saved up.
        assert s["clocks"]["white"] == 3 * DAY and s["clocks"]["running"] == "black"
        moved = int(time.time() * 1000)
        assert abs(s["clocks"]["deadline"] - (moved + 3 * DAY)) < 5000
        s = play(c, g, "e5")
        assert s["clocks"]["black"] == 3 * DAY and s["clocks"]["running"] == "white"


@pytest.mark.parametrize("clock", [{"days": 4}, {"days": 0}, {"days": 3, "minutes": 5},
                                   {"days": 3, "increment": 2}, {}, {"days": "3"}])
def test_bad_days_refused(db: str, clock: dict[str, Any]) -> None:
    with client(db) as c:
        r = c.post("/api/games", json={"variant": "chess", "opponent": "hotseat",
                                       "clock": clock})
        assert r.status_code == 422, (clock, r.text)


def test_missed_deadline_loses_on_time_after_a_restart(db: str) -> None:
    with client(db) as c:
        g = new_game(c, clock={"days": 1})
        play(c, g, "e4", "e5")
        overdue(c, g["id"])  # White's day has passed while the server was stopped
    with client(db) as c:  # a fresh server: the deadline comes from the database
        for _ in range(100):
            s = c.get(f"/api/games/{g['id']}").json()
            if s["status"] == "ended":
                break
            time.sleep(0.02)
        assert (s["result"], s["termination"]) == ("0-1", "time forfeit")
        assert s["moves"] == ["e2e4", "e7e5"]


def test_restart_timer_ends_the_game_without_a_request(db: str) -> None:
    with client(db) as c:
        g = new_game(c, clock={"days": 2})
        play(c, g, "d4")
        overdue(c, g["id"], by_ms=10)
    with client(db) as c:
        # Nobody asks: the flag timer armed at start from the stored deadline ends it.
        service = c.app.state.service  # type: ignore[attr-defined]
        engine = service.store.engine
        for _ in range(200):
            with engine.connect() as conn:
                row = conn.execute(text("SELECT status, result, termination FROM games "
                                        "WHERE id = :id"), {"id": g["id"]}).one()
            if row.status == "ended":
                break
            time.sleep(0.02)
        assert tuple(row) == ("ended", "1-0", "time forfeit")


def test_missed_deadline_against_a_bare_king_is_a_draw(db: str) -> None:
    with client(db) as c:
        g = new_game(c, setup="4k3/8/8/8/8/8/8/R3K3 w - - 0 1", clock={"days": 1})
        play(c, g, "Ra2", "Kd7")
        overdue(c, g["id"])
        s = c.get(f"/api/games/{g['id']}").json()
        # White missed the deadline but Black's bare king cannot mate (FIDE 6.9).
        assert (s["result"], s["termination"]) == ("1/2-1/2", "time forfeit")
        r = c.post(f"/api/games/{g['id']}/moves", json={"move": "Ra3",
                                                        "token": g["seat"]["token"]})
        assert r.status_code == 409


def test_friend_game_deadline_starts_when_the_friend_joins(db: str) -> None:
    with client(db) as c:
        g = new_game(c, opponent="friend", color="white", clock={"days": 5})
        s = c.get(f"/api/games/{g['id']}").json()
        assert s["clocks"]["running"] is None and s["clocks"]["deadline"] is None
        invite = g["invite_url"].rsplit("/", 1)[1]
        assert c.post(f"/api/games/{g['id']}/join", json={"invite": invite}).status_code == 200
        s = c.get(f"/api/games/{g['id']}").json()
        assert s["clocks"]["running"] == "white" and s["clocks"]["days"] == 5
        assert s["clocks"]["deadline"] > int(time.time() * 1000) + 5 * DAY - 5000


def test_takeback_gives_full_days_and_keeps_the_deadline_running(db: str) -> None:
    with client(db) as c:
        g = new_game(c, clock={"days": 2})
        play(c, g, "e4")
        s = c.post(f"/api/games/{g['id']}/takeback-offer",
                   json={"token": g["seat"]["token"]}).json()
        assert s["ply"] == 0 and s["clocks"]["running"] == "white"
        assert s["clocks"]["black"] == 2 * DAY and s["clocks"]["white"] > 2 * DAY - 5000


def test_rated_correspondence_between_accounts_and_in_the_lobby(db: str) -> None:
    with client(db) as c:
        a, b = user(c, "alice"), user(c, "bob")
        r = a.post("/api/account/games", json={
            "variant": "chess960", "opponent": "friend", "rated": True, "clock": {"days": 7}})
        assert r.status_code == 201, r.text
        assert r.json()["speed"] == "correspondence"
        r = a.post("/api/lobby/seeks", json={"variant": "mrc", "clock": {"days": 2},
                                             "rated": True})
        assert r.status_code == 201, r.text
        sid = r.json()["id"]
        [shown] = Browser(c).get("/api/lobby/seeks").json()["seeks"]
        assert shown["clock"] == {"days": 2} and shown["speed"] == "correspondence"
        r = b.post(f"/api/lobby/seeks/{sid}/accept")
        assert r.status_code == 200, r.text
        assert r.json()["speed"] == "correspondence"
        s = c.get(f"/api/games/{r.json()['id']}").json()
        assert s["clocks"]["days"] == 2 and s["clocks"]["running"] == "white"
        # Quick pairing knows correspondence as a speed of its own.
        q = b.post("/api/lobby/quick", json={"variant": "chess960", "clock": {"days": 3}})
        assert q.json()["paired"] is False
        q = a.post("/api/lobby/quick", json={"variant": "chess960", "clock": {"days": 14}})
        assert q.json()["paired"] is True and q.json()["speed"] == "correspondence"


def test_pgn_time_control_and_rematch_keep_the_days(db: str) -> None:
    with client(db) as c:
        g = new_game(c, clock={"days": 3})
        play(c, g, "e4", "e5")
        pgn = c.get(f"/api/games/{g['id']}/pgn").text
        assert '[TimeControl "1/259200"]' in pgn and "%clk" not in pgn
        c.post(f"/api/games/{g['id']}/resign", json={"token": g["seat"]["token"]})
        r = c.post(f"/api/games/{g['id']}/rematch", json={"token": g["seat"]["token"]})
        assert r.status_code == 200, r.text
        s = c.get(f"/api/games/{r.json()['id']}").json()
        assert s["clocks"]["days"] == 3 and s["clocks"]["running"] == "white"


def test_your_turn_list_with_deadlines_nearest_first(db: str) -> None:
    with client(db) as c:
        a, b = user(c, "alice"), user(c, "bob")
        ids = {}
        for days in (7, 1):
            r = a.post("/api/account/games", json={"variant": "chess", "opponent": "friend",
                                                   "color": "white", "clock": {"days": days}})
            game = r.json()
            invite = game["invite_url"].rsplit("/", 1)[1]
            joined = c.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
            b.post(f"/api/account/games/{game['id']}/claim",
                   json={"token": joined["seat"]["token"]})
            ids[days] = game["id"]
        turn = a.get("/api/account/turn").json()
        assert turn["games"] == [ids[1], ids[7]]  # the nearest deadline first
        d1, d7 = turn["details"]
        assert (d1["days"], d7["days"], d1["color"]) == (1, 7, "white")
        assert d7["deadline"] - d1["deadline"] > 6 * DAY - 5000
        state = c.get(f"/api/games/{ids[1]}").json()
        assert d1["deadline"] == state["clocks"]["deadline"]
        assert b.get("/api/account/turn").json() == {"games": [], "details": []}
        names = c.get(f"/api/games/{ids[7]}/ratings").json()["players"]
        assert names == {"white": "alice", "black": "bob"}
