"""Issue 34 in the lobby: a seek may carry any control a player uses (multi-period, simple
delay, Bronstein), not only minutes + increment or days; the seek shows it, the game accepted
from it runs it, and its first period gives the speed class.  A sandclock, "-" and "?" are
refused (no clock the server runs online: docs/server.md), in both languages, and nothing is
listed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_support import client, database
from test_accounts import user


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, client(url) as c:
        yield c


@pytest.mark.parametrize(("control", "speed", "first_ms"), [
    ("30/1500:300+5", "classical", 1_500_000),  # 25 min then 5 min, +5 s from move 31
    ("300+3d", "blitz", 300_000),
    ("180+2b", "blitz", 180_000),
])
def test_a_seek_with_any_control_starts_a_game_that_runs_it(
        c: TestClient, control: str, speed: str, first_ms: int) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    r = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": {"control": control}})
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    [shown] = a.get("/api/lobby/seeks").json()["seeks"]
    assert (shown["id"], shown["clock"]["control"], shown["speed"]) == (sid, control, speed)
    r = b.post(f"/api/lobby/seeks/{sid}/accept")
    assert r.status_code == 200, r.text
    state = c.get(f"/api/games/{r.json()['id']}").json()
    assert state["clocks"]["control"] == control
    assert (state["clocks"]["white"], state["clocks"]["black"]) == (first_ms, first_ms)


def test_a_simple_control_is_shown_as_minutes_and_increment(c: TestClient) -> None:
    a = user(c, "alice")
    r = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": {"control": "180+2"}})
    assert r.status_code == 201, r.text
    [shown] = a.get("/api/lobby/seeks").json()["seeks"]
    assert shown["clock"] == {"minutes": 3, "increment": 2}


def test_a_sandclock_and_other_clockless_controls_are_refused(c: TestClient) -> None:
    a = user(c, "alice")
    for control, lang, text in (("*60", "en", "no clock to run online"),
                                ("-", "es", "no tiene un reloj que funcione en línea"),
                                ("?", "en", "no clock to run online")):
        r = a.post("/api/lobby/seeks", json={"variant": "chess960",
                                             "clock": {"control": control}},
                   headers={"Accept-Language": lang})
        assert r.status_code == 422 and text in r.text, r.text
        assert r.json()["code"] == "clock.not_online"
    r = a.post("/api/lobby/seeks", json={"variant": "chess960",
                                         "clock": {"control": "300", "minutes": 5}})
    assert r.status_code == 422
    assert a.get("/api/lobby/seeks").json()["seeks"] == []


def test_quick_pairing_takes_any_control_a_seek_takes(c: TestClient) -> None:
    """Quick pairing accepts the clocks a seek accepts (issue 34): a multi-period control opens
    a seek with that control, and another player's quick pairing in the same speed class (a
    classical "90+30") is paired with it; the game runs the seeker's control."""
    a, b = user(c, "alice"), user(c, "bob")
    r = a.post("/api/lobby/quick", json={"variant": "chess960",
                                         "clock": {"control": "40/5400+30:1800+30"}})
    assert r.status_code == 200, r.text
    assert r.json()["paired"] is False
    [shown] = a.get("/api/lobby/seeks").json()["seeks"]
    assert (shown["clock"]["control"], shown["speed"]) == ("40/5400+30:1800+30", "classical")
    r = b.post("/api/lobby/quick", json={"variant": "chess960", "clock": {"control": "5400+30"}})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["paired"] is True and out["speed"] == "classical"
    state = c.get(f"/api/games/{out['id']}").json()
    assert state["clocks"]["control"] == "40/5400+30:1800+30"
    for control, code in (("*60", "clock.not_online"), ("40/99999999", "clock.invalid")):
        r = a.post("/api/lobby/quick", json={"variant": "chess960",
                                             "clock": {"control": control}})
        assert r.status_code == 422 and r.json()["code"] in (code, "clock.out_of_range"), r.text
    assert a.get("/api/lobby/seeks").json()["seeks"] == []
