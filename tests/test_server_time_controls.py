"""Multi-period and delay clocks on the server (issue 34), played through the API with a
fake time source: the server's clock reads ``now_ms`` of its game modules, replaced here by a
clock that moves only when the test says so (no sleeps, exact figures)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.db import now_ms
from server_support import client, new_game, play


class FakeTime:
    def __init__(self) -> None:
        self.ms = now_ms()

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    from randomchess.server.games import play_routes, routes, service

    t = FakeTime()
    for module in (service, routes, play_routes):
        monkeypatch.setattr(module, "now_ms", t)
    return t


@pytest.fixture
def c(tmp_path: Path, fake: FakeTime) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        yield c


def state(c: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    s: dict[str, Any] = c.get(f"/api/games/{g['id']}").json()
    return s


def clocks(s: dict[str, Any]) -> tuple[int, int]:
    return s["clocks"]["white"], s["clocks"]["black"]


def test_a_multi_period_game_crosses_the_control_exactly_at_the_move_count(
        c: TestClient, fake: FakeTime) -> None:
    # 3 moves in 60 s, then 30 s for the rest with 5 s a move from move 4.
    g = new_game(c, clock={"control": "3/60:30+5"})
    s = state(c, g)
    assert s["clocks"]["control"] == "3/60:30+5"
    assert s["clocks"]["label"]["en"] == "3 moves in 1 min, then 30 s, +5 s per move from move 4"
    assert s["clocks"]["label"]["es"].startswith("3 jugadas en 1 min, después 30 s")
    assert clocks(s) == (60_000, 60_000) and s["clocks"]["to_control"]["white"] == 3
    play(c, g, "e4", "e5")  # untimed first moves (the clock starts after them)
    fake.advance(10_000)
    s = play(c, g, "Nf3")  # White's move 2
    assert clocks(s) == (50_000, 60_000) and s["clocks"]["running"] == "black"
    fake.advance(5_000)
    s = play(c, g, "Nc6")
    assert clocks(s) == (50_000, 55_000) and s["clocks"]["to_control"]["white"] == 1
    fake.advance(19_999)
    assert clocks(state(c, g)) == (30_001, 55_000)
    fake.advance(1)
    s = play(c, g, "Bc4")  # White's move 3: the control, +30 s; no increment yet
    assert clocks(s) == (60_000, 55_000)
    assert s["clocks"]["to_control"] == {"white": None, "black": 1}
    fake.advance(1_000)
    s = play(c, g, "Nf6")
    assert clocks(s) == (60_000, 84_000)
    fake.advance(10_000)
    s = play(c, g, "d3")  # White's move 4: the first with the increment
    assert clocks(s) == (55_000, 84_000)
    fake.advance(84_000)  # Black's flag: exactly at 0 it has fallen
    s = state(c, g)
    assert (s["status"], s["result"], s["termination"]) == ("ended", "1-0", "time forfeit")
    pgn = c.get(f"/api/games/{g['id']}/pgn").text
    assert '[TimeControl "3/60:30+5"]' in pgn
    assert "Bc4 { [%clk 0:01:00] }" in pgn and "d3 { [%clk 0:00:55] }" in pgn


def test_the_control_survives_a_restart_and_a_rematch(tmp_path: Path, fake: FakeTime) -> None:
    db = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with client(db) as c:
        g = new_game(c, clock={"control": "40/5400+30:1800+30"})
    with client(db) as c:
        s = state(c, g)
        assert s["clocks"]["control"] == "40/5400+30:1800+30"
        assert (s["clocks"]["initial"], s["clocks"]["increment"]) == (5_400_000, 30_000)
        c.post(f"/api/games/{g['id']}/resign", json={"token": g["seat"]["token"]})
        r = c.post(f"/api/games/{g['id']}/rematch", json={"token": g["seat"]["token"]})
        assert r.status_code in (200, 201), r.text
        assert state(c, r.json())["clocks"]["control"] == "40/5400+30:1800+30"


def test_a_simple_delay_does_not_count_down(c: TestClient, fake: FakeTime) -> None:
    g = new_game(c, clock={"control": "60+5d"})
    play(c, g, "e4", "e5")
    fake.advance(3_000)
    s = state(c, g)
    assert clocks(s) == (60_000, 60_000) and s["clocks"]["delay"] == 2_000
    fake.advance(5_000)
    s = state(c, g)
    assert clocks(s) == (57_000, 60_000) and s["clocks"]["delay"] == 0
    s = play(c, g, "Nf3")
    assert clocks(s) == (57_000, 60_000)  # nothing added back
    fake.advance(4_000)
    assert clocks(play(c, g, "Nc6")) == (57_000, 60_000)  # inside the delay: free
    # The flag falls after the delay and the time left, not before.
    fake.advance(5_000 + 57_000 - 1)
    assert state(c, g)["status"] == "playing"
    fake.advance(1)
    assert state(c, g)["termination"] == "time forfeit"


def test_bronstein_counts_down_and_gives_back(c: TestClient, fake: FakeTime) -> None:
    g = new_game(c, clock={"control": "60+5b"})
    play(c, g, "e4", "e5")
    fake.advance(3_000)
    s = state(c, g)
    assert clocks(s) == (57_000, 60_000) and s["clocks"]["delay"] == 0
    assert clocks(play(c, g, "Nf3")) == (60_000, 60_000)  # the 3 s back
    fake.advance(8_000)
    assert clocks(play(c, g, "Nc6")) == (60_000, 57_000)  # 5 s back at most


def test_the_simple_requests_are_unchanged(c: TestClient, fake: FakeTime) -> None:
    g = new_game(c, clock={"minutes": 1, "increment": 2})
    play(c, g, "e4", "e5")
    fake.advance(1_000)
    s = play(c, g, "Nf3")
    assert clocks(s) == (61_000, 60_000) and s["clocks"]["control"] == "60+2"
    assert '[TimeControl "60+2"]' in c.get(f"/api/games/{g['id']}/pgn").text


@pytest.mark.parametrize(("control", "code", "es"), [
    ("30/1500:abc", "clock.invalid", "no es un número de segundos"),
    ("300:40/60", "clock.invalid", "solo el último periodo"),
    ("-", "clock.not_online", "no tiene un reloj"),
    ("*60", "clock.not_online", "no tiene un reloj"),
    ("36060", "clock.out_of_range", "fuera de rango"),
    ("40/60:300+601", "clock.invalid", "10 minutos"),
])
def test_bad_controls_are_refused_in_both_languages(c: TestClient, control: str, code: str,
                                                    es: str) -> None:
    r = c.post("/api/games?lang=es", json={"variant": "chess", "opponent": "hotseat",
                                          "clock": {"control": control}})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["code"] == code and es in body["detail"] and body["detail_en"] != body["detail"]


def test_a_control_goes_alone(c: TestClient) -> None:
    r = c.post("/api/games", json={"variant": "chess", "clock": {"control": "300",
                                                                 "minutes": 5}})
    assert r.status_code == 422 and r.json()["code"] == "request.invalid"


def test_an_account_game_takes_a_control_and_its_speed_class(c: TestClient) -> None:
    from test_accounts import user

    a = user(c, "arbiter")
    r = a.post("/api/account/games", json={"variant": "chess960", "opponent": "friend",
                                           "rated": True,
                                           "clock": {"control": "40/5400+30:1800+30"}})
    assert r.status_code == 201, r.text
    assert r.json()["speed"] == "classical"
    s = c.get(f"/api/games/{r.json()['id']}").json()
    assert s["clocks"]["control"] == "40/5400+30:1800+30"
    assert (s["clocks"]["white"], s["clocks"]["increment"]) == (5_400_000, 30_000)
    bad = a.post("/api/account/games?lang=es", json={"variant": "chess", "opponent": "friend",
                                                    "clock": {"control": "40/x"}})
    assert bad.status_code == 422 and bad.json()["code"] == "clock.invalid"
