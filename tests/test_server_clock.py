"""Server-side clocks: increments, flag fall decided by the server (FIDE 6.9 with the
insufficient-material rule), pushed to watchers without any request."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client, new_game, play


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path_factory.mktemp('clock') / 'g.sqlite3'}") as c:
        yield c


def test_clocks_start_after_both_first_moves_and_add_increments(c: TestClient) -> None:
    g = new_game(c, variant="chess", clock={"minutes": 1, "increment": 2})
    s = c.get(f"/api/games/{g['id']}").json()
    assert s["clocks"] == {"white": 60_000, "black": 60_000, "running": None,
                           "initial": 60_000, "increment": 2_000, "days": None,
                           "deadline": None, "control": "60+2",
                           "label": {"en": "1 min + 2 s", "es": "1 min + 2 s"}, "delay": 0,
                           "to_control": {"white": None, "black": None}}
    s = play(c, g, "e4", "e5")
    assert s["clocks"]["running"] == "white"
    assert 59_900 < s["clocks"]["white"] <= 60_000 and s["clocks"]["black"] == 60_000
    time.sleep(0.2)
    s = play(c, g, "Nf3")
    assert 61_000 < s["clocks"]["white"] < 61_850  # 60 s - ~0.2 s + 2 s
    assert s["clocks"]["running"] == "black"


def test_flag_fall_loses_and_is_pushed(c: TestClient) -> None:
    g = new_game(c, variant="chess", clock={"minutes": 0.01, "increment": 0})  # 600 ms
    with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
        ws.receive_json()
        play(c, g, "e4", "e5")
        ws.receive_json()
        ws.receive_json()
        msg = ws.receive_json()  # the flag timer fires with nobody asking
        s = msg["game"]
    assert (s["status"], s["result"], s["termination"]) == ("ended", "0-1", "time forfeit")
    assert s["clocks"]["white"] == 0 and s["clocks"]["running"] is None
    r = c.post(f"/api/games/{g['id']}/moves", json={"move": "Nf3",
                                                   "token": g["seat"]["token"]})
    assert r.status_code == 409


def test_flag_against_bare_king_is_a_draw(c: TestClient) -> None:
    g = new_game(c, variant="chess", setup="4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                 clock={"minutes": 0.01, "increment": 0})
    play(c, g, "Ra2", "Kd7")
    time.sleep(0.8)
    s = c.get(f"/api/games/{g['id']}").json()
    # White's flag fell but Black's bare king cannot mate: drawn (FIDE 6.9).
    assert (s["result"], s["termination"]) == ("1/2-1/2", "time forfeit")


def test_late_move_is_refused(tmp_path: Path) -> None:
    # Without a running timer (as on another worker), the move itself finds the flag.
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c2:
        g = new_game(c2, variant="chess", clock={"minutes": 0.005, "increment": 0})
        play(c2, g, "e4", "e5")
        service = c2.app.state.service  # type: ignore[attr-defined]
        for handle in service._timers.values():
            handle.cancel()
        time.sleep(0.5)
        r = c2.post(f"/api/games/{g['id']}/moves",
                    json={"move": "Nf3", "token": g["seat"]["token"]})
        assert r.status_code == 409 and "time is up" in r.json()["detail"]
        s = c2.get(f"/api/games/{g['id']}").json()
        assert s["termination"] == "time forfeit" and s["moves"] == ["e2e4", "e7e5"]


def _wait_ply(c: TestClient, gid: str, ply: int) -> dict[str, Any]:
    end = time.monotonic() + 20
    while True:
        s: dict[str, Any] = c.get(f"/api/games/{gid}").json()
        if s["ply"] == ply or time.monotonic() > end:
            assert s["ply"] == ply, s
            return s
        time.sleep(0.02)


def test_takebacks_do_not_farm_the_clock(c: TestClient) -> None:
    # Issue 13 (Server 3): 1+10, move, the computer replies, take back, again and again:
    # each takeback restores both clocks as they were at that ply (as lichess does).
    g = new_game(c, variant="chess", opponent="computer", color="white", level=1,
                 clock={"minutes": 1, "increment": 10})
    gid, tok = g["id"], g["seat"]["token"]
    play(c, g, "e4", token=tok)
    at_two = _wait_ply(c, gid, 2)["clocks"]  # the computer replied: clocks run
    assert at_two["black"] == 60_000 and at_two["running"] == "white"
    whites = []
    for _ in range(4):
        play(c, g, "d4" if _ % 2 else "Nf3", token=tok)  # +10 s for White
        _wait_ply(c, gid, 4)  # the computer's reply: +10 s for Black
        s = c.post(f"/api/games/{gid}/takeback-offer", json={"token": tok}).json()
        assert s["ply"] == 2 and s["clocks"]["running"] == "white"
        whites.append(s["clocks"]["white"])
        assert s["clocks"]["white"] <= 60_000, whites
        assert s["clocks"]["black"] == 60_000, s["clocks"]
    assert min(whites) > 55_000  # restored, not charged the thinking of the taken-back move


def test_takeback_to_the_start_restores_the_initial_clocks(c: TestClient) -> None:
    g = new_game(c, variant="chess", clock={"minutes": 1, "increment": 5})  # hot seat
    play(c, g, "e4", "e5", "Nf3", "Nc6")
    for ply in (3, 2, 1, 0):
        s = c.post(f"/api/games/{g['id']}/takeback-offer",
                   json={"token": g["seat"]["token"]}).json()
        assert s["ply"] == ply
    assert (s["clocks"]["white"], s["clocks"]["black"]) == (60_000, 60_000)
    assert s["clocks"]["running"] is None


def test_takeback_clocks_survive_a_restart(tmp_path: Path) -> None:
    # The clock history per ply is the durable clock_log column: a server started afresh on
    # the same database restores the same clocks.
    db = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with client(db) as c:
        g = new_game(c, variant="chess", clock={"minutes": 1, "increment": 10})
        play(c, g, "e4", "e5", "Nf3", "Nc6")
    with client(db) as c:
        s = c.post(f"/api/games/{g['id']}/takeback-offer",
                   json={"token": g["seat"]["token"]}).json()
        # Black (to move, running again) has its time after e5, White its time after Nf3.
        assert s["ply"] == 3 and s["clocks"]["running"] == "black"
        assert 59_000 < s["clocks"]["black"] <= 60_000
        assert 65_000 < s["clocks"]["white"] <= 70_000
