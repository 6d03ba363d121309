"""Server-side clocks: increments, flag fall decided by the server (FIDE 6.9 with the
insufficient-material rule), pushed to watchers without any request."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

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
                           "initial": 60_000, "increment": 2_000}
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
