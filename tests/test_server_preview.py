"""The setup preview and the rule against setup-shopping (issue 32; docs/server.md "Setup
preview", docs/rules.md "no setup-shopping"), with a fake clock driving the server: no
waiting for the countdowns.

- a timed game between people starts with a shared countdown once its second seat is taken
  (20 s bullet/blitz, 60 s rapid, 180 s classical by default; asked per game or seek): the
  board is locked (a typed 409 in both languages), the clocks stand still and no flag falls;
- both players ready ends it at once; a ready sent twice or after the countdown acts once;
- in a rated game, aborting after the setup was shown is a resignation and a side that lets
  its first-move time run out loses on time; a casual game is aborted in both cases;
- a server started again on the same database keeps the countdown's end and re-arms it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import randomchess.server.games.play_routes as play_routes
import randomchess.server.games.routes as game_routes
import randomchess.server.games.service as game_service
from server_support import client
from test_accounts import Browser, user
from test_server_crash import Server

START = 1_800_000_000_000
BLITZ = {"minutes": 3, "increment": 2}


class Fake:
    """The server's clock (epoch ms), moved by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Fake:
    f = Fake()
    for module in (game_service, game_routes, play_routes):
        monkeypatch.setattr(module, "now_ms", f)
    return f


@contextmanager
def server(db: str, **settings: Any) -> Iterator[TestClient]:
    settings.setdefault("preview", True)  # the product's default (the fixtures turn it off)
    with client(db, **settings) as c:
        yield c


@pytest.fixture
def c(tmp_path: Path, fake: Fake) -> Iterator[TestClient]:
    with server(f"sqlite:///{tmp_path / 'preview.sqlite3'}") as c:
        yield c


def friends(c: TestClient, clock: dict[str, Any] | None = None, **body: Any) -> dict[str, Any]:
    """A friend game (White creates, Black joins): its id and both tokens."""
    body = {"variant": "chess", "opponent": "friend", "color": "white",
            "clock": clock or BLITZ, **body}
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    g = r.json()
    invite = g["invite_url"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{g['id']}/join", json={"invite": invite})
    assert joined.status_code == 200, joined.text
    return {"id": g["id"], "white": g["seat"]["token"], "black": joined.json()["seat"]["token"]}


def state(c: TestClient, gid: str) -> dict[str, Any]:
    out: dict[str, Any] = c.get(f"/api/games/{gid}").json()
    return out


def move(c: TestClient, g: dict[str, Any], color: str, uci: str, lang: str = "en") -> Any:
    return c.post(f"/api/games/{g['id']}/moves", json={"move": uci, "token": g[color]},
                  headers={"Accept-Language": lang})


def act(c: TestClient, g: dict[str, Any], color: str, action: str) -> Any:
    return c.post(f"/api/games/{g['id']}/{action}", json={"token": g[color]})


def until(check: Callable[[], bool], timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


# ------------------------------------------------------------------------------ the preview
def test_the_board_is_locked_and_the_clocks_stand_still_during_the_preview(
        c: TestClient, fake: Fake) -> None:
    r = c.post("/api/games", json={"variant": "chess", "opponent": "friend",
                                   "color": "white", "clock": BLITZ})
    assert state(c, r.json()["id"])["preview"] is None  # nothing before the second seat
    g = friends(c)
    s = state(c, g["id"])
    assert s["preview"] == {"until": START + 20_000, "left": 20_000, "length": 20_000,
                            "ready": []}
    assert s["status"] == "playing"
    for lang, words in (("en", "setup preview"), ("es", "vista previa")):
        refused = move(c, g, "white", "e2e4", lang)
        assert refused.status_code == 409
        body = refused.json()
        assert body["code"] == "preview.running" and words in body["detail"]
        assert "20 s" in body["detail"]
    fake.advance(19_999)
    s = state(c, g["id"])
    assert s["preview"]["left"] == 1
    assert s["clocks"]["white"] == s["clocks"]["black"] == 180_000
    assert s["clocks"]["running"] is None and s["moves"] == [] and s["version"] == 1
    fake.advance(1)  # the countdown is over: the board opens
    assert state(c, g["id"])["preview"] is None
    assert move(c, g, "white", "e2e4").status_code == 200
    assert move(c, g, "black", "e7e5").status_code == 200
    fake.advance(5_000)
    assert state(c, g["id"])["clocks"]["white"] == 175_000  # the clocks run from here


def test_no_flag_falls_during_the_preview(c: TestClient, fake: Fake) -> None:
    g = friends(c, clock={"minutes": 0.01, "increment": 0})  # 600 ms a side: bullet
    fake.advance(15_000)  # 25 times the clock, inside the 20 s countdown
    s = state(c, g["id"])
    assert (s["status"], s["result"]) == ("playing", None)
    assert (s["clocks"]["white"], s["clocks"]["black"]) == (600, 600)
    assert s["preview"]["left"] == 5_000


@pytest.mark.parametrize(("clock", "seconds"), [
    ({"minutes": 1, "increment": 0}, 20),  # bullet
    (BLITZ, 20),  # blitz
    ({"minutes": 10, "increment": 0}, 60),  # rapid
    ({"minutes": 30, "increment": 0}, 180),  # classical
])
def test_the_countdown_follows_the_speed(c: TestClient, clock: dict[str, Any],
                                         seconds: int) -> None:
    g = friends(c, clock=clock)
    assert state(c, g["id"])["preview"]["left"] == seconds * 1000


def test_the_countdown_is_asked_per_game_within_limits(c: TestClient) -> None:
    assert state(c, friends(c, preview=45)["id"])["preview"]["length"] == 45_000
    assert state(c, friends(c, preview=0)["id"])["preview"] is None  # asked for none
    for bad in (-1, 601, "long"):
        r = c.post("/api/games", json={"variant": "chess", "opponent": "friend",
                                       "clock": BLITZ, "preview": bad})
        assert r.status_code == 422, bad
    # Correspondence and untimed games have none; the computer only when asked.
    assert state(c, friends(c, clock={"days": 2})["id"])["preview"] is None
    r = c.post("/api/games", json={"variant": "chess", "opponent": "friend"})
    invite = r.json()["invite_url"].rsplit("/", 1)[1]
    c.post(f"/api/games/{r.json()['id']}/join", json={"invite": invite})
    assert state(c, r.json()["id"])["preview"] is None
    plain = c.post("/api/games", json={"variant": "chess", "opponent": "computer",
                                       "color": "white", "clock": BLITZ}).json()
    assert state(c, plain["id"])["preview"] is None


def test_against_the_computer_on_request_the_computer_is_ready(c: TestClient,
                                                                fake: Fake) -> None:
    r = c.post("/api/games", json={"variant": "chess", "opponent": "computer", "level": 1,
                                   "color": "black", "clock": BLITZ, "preview": 30})
    g = r.json()
    s = state(c, g["id"])
    assert s["preview"] == {"until": START + 30_000, "left": 30_000, "length": 30_000,
                            "ready": ["white"]}
    time.sleep(0.5)  # the computer (White) would have moved by now without the preview
    assert state(c, g["id"])["moves"] == []
    ready = c.post(f"/api/games/{g['id']}/ready", json={"token": g["seat"]["token"]})
    assert ready.status_code == 200 and ready.json()["preview"] is None
    until(lambda: len(state(c, g["id"])["moves"]) == 1)  # the computer moves at once


def test_both_ready_starts_at_once_and_a_ready_acts_once(c: TestClient, fake: Fake) -> None:
    g = friends(c)
    fake.advance(3_000)
    first = act(c, g, "white", "ready")
    assert first.status_code == 200
    assert first.json()["preview"]["ready"] == ["white"]
    version = first.json()["version"]
    again = act(c, g, "white", "ready")  # twice: refused, nothing changes
    assert again.status_code == 409 and again.json()["code"] == "preview.already_ready"
    assert state(c, g["id"])["version"] == version
    assert move(c, g, "white", "e2e4").status_code == 409  # one ready is not enough
    both = act(c, g, "black", "ready")
    assert both.status_code == 200 and both.json()["preview"] is None
    after = act(c, g, "black", "ready")  # after the countdown: refused, nothing changes
    assert after.status_code == 409 and after.json()["code"] == "preview.none"
    assert state(c, g["id"])["version"] == version + 1
    assert move(c, g, "white", "e2e4").status_code == 200  # at once, 17 s early
    wrong = c.post(f"/api/games/{g['id']}/ready", json={"token": "not-a-seat"})
    assert wrong.status_code == 403


def test_lobby_seeks_and_challenges_carry_their_countdown(c: TestClient, fake: Fake) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    plain = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": BLITZ}).json()
    rapid = a.post("/api/lobby/seeks", json={"variant": "chess960", "preview": 90,
                                             "clock": {"minutes": 10, "increment": 0}}).json()
    corr = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": {"days": 2}}).json()
    challenge = a.post("/api/lobby/challenges", json={"variant": "chess960", "name": "bob",
                                                      "clock": BLITZ, "preview": 0}).json()
    bad = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": BLITZ,
                                           "preview": 601})
    assert bad.status_code == 422
    shown = {s["id"]: s["preview"] for s in b.get("/api/lobby/seeks").json()["seeks"]}
    assert shown == {plain["id"]: 20, rapid["id"]: 90, corr["id"]: 0, challenge["id"]: 0}
    for sid, left in ((plain["id"], 20_000), (rapid["id"], 90_000)):
        game = b.post(f"/api/lobby/seeks/{sid}/accept").json()
        assert state(c, game["id"])["preview"]["left"] == left
    game = b.post(f"/api/lobby/seeks/{challenge['id']}/accept").json()
    assert state(c, game["id"])["preview"] is None  # asked for none


def test_a_rematch_keeps_the_countdown(c: TestClient) -> None:
    g = friends(c, preview=45)
    assert act(c, g, "white", "abort").json()["termination"] == "aborted"  # casual: free
    offer = c.post(f"/api/games/{g['id']}/rematch", json={"token": g["white"]}).json()
    taken = c.post(f"/api/games/{g['id']}/rematch-accept", json={"token": g["black"]})
    assert taken.status_code == 200 and taken.json()["id"] == offer["id"]
    assert state(c, offer["id"])["preview"]["length"] == 45_000


# ------------------------------------------------------------------------------ no shopping
def rated(c: TestClient, a: Browser, b: Browser, is_rated: bool = True) -> dict[str, Any]:
    r = a.post("/api/account/games", json={
        "variant": "chess960", "opponent": "friend", "color": "white", "rated": is_rated,
        "clock": BLITZ})
    assert r.status_code == 201, r.text
    game = r.json()
    invite = game["invite_url"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
    assert b.post(f"/api/account/games/{game['id']}/claim",
                  json={"token": joined["seat"]["token"]}).status_code == 200
    return {"id": game["id"], "white": game["seat"]["token"], "black": joined["seat"]["token"]}


def test_abort_after_the_reveal_is_a_loss_when_rated_and_free_when_casual(
        c: TestClient, fake: Fake) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    # Rated, during the preview: Black aborts and so resigns.
    g = rated(c, a, b)
    s = act(c, g, "black", "abort").json()
    assert (s["status"], s["result"], s["termination"]) == ("ended", "1-0", "resignation")
    # Rated, after White's first move: White aborts and loses.
    g = rated(c, a, b)
    fake.advance(20_000)
    assert move(c, g, "white", "e2e4").status_code == 200
    s = act(c, g, "white", "abort").json()
    assert (s["result"], s["termination"]) == ("0-1", "resignation")
    # An abort sent twice acts once: the second is refused, the result stands.
    again = act(c, g, "white", "abort")
    assert again.status_code == 409 and again.json()["code"] == "game.over"
    assert state(c, g["id"])["result"] == "0-1"
    # Casual: aborted without a result, during or after the preview.
    for wait in (0, 20_000):
        g = rated(c, a, b, is_rated=False)
        fake.advance(wait)
        s = act(c, g, "black", "abort").json()
        assert (s["status"], s["result"], s["termination"]) == ("ended", "*", "aborted")
    # Before anyone joined (nothing shown to an opponent) a rated game aborts freely.
    r = a.post("/api/account/games", json={"variant": "chess960", "opponent": "friend",
                                           "rated": True, "clock": BLITZ}).json()
    s = c.post(f"/api/games/{r['id']}/abort", json={"token": r["seat"]["token"]}).json()
    assert (s["result"], s["termination"]) == ("*", "aborted")


def test_the_first_move_timer_after_the_preview(tmp_path: Path, fake: Fake) -> None:
    with server(f"sqlite:///{tmp_path / 'first.sqlite3'}", first_move_s=5.0,
                sweep_s=0.05) as c:
        a, b = user(c, "alice"), user(c, "bob")
        rated_idle = rated(c, a, b)  # White never moves
        rated_half = rated(c, a, b)  # Black never answers
        casual_idle = rated(c, a, b, is_rated=False)
        fake.advance(20_000 + 4_000)  # the countdown, then 4 of the 5 s to move
        assert move(c, rated_half, "white", "e2e4").status_code == 200
        time.sleep(0.5)  # ten sweeps: nothing is due yet
        for g in (rated_idle, rated_half, casual_idle):
            assert state(c, g["id"])["status"] == "playing"
        fake.advance(1_001)  # White's first-move time is up (it ran from the preview's end)
        until(lambda: state(c, rated_idle["id"])["status"] == "ended")
        until(lambda: state(c, casual_idle["id"])["status"] == "ended")
        s = state(c, rated_idle["id"])
        assert (s["result"], s["termination"]) == ("0-1", "time forfeit")
        s = state(c, casual_idle["id"])
        assert (s["result"], s["termination"]) == ("*", "aborted")
        assert state(c, rated_half["id"])["status"] == "playing"
        fake.advance(4_000)  # Black's first-move time (from White's move) is up
        until(lambda: state(c, rated_half["id"])["status"] == "ended")
        s = state(c, rated_half["id"])
        assert (s["result"], s["termination"]) == ("1-0", "time forfeit")


# ------------------------------------------------------------------------------ restart
def test_a_restart_keeps_the_end_of_the_preview(tmp_path: Path, fake: Fake) -> None:
    db = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    with server(db) as c:
        g = friends(c, clock={"minutes": 10, "increment": 0})  # rapid: 60 s
        assert act(c, g, "white", "ready").status_code == 200
    fake.advance(25_000)  # the server is down for 25 s
    with server(db) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        assert g["id"] in service._previews  # re-armed from the stored end
        s = state(c, g["id"])
        assert s["preview"] == {"until": START + 60_000, "left": 35_000, "length": 60_000,
                                "ready": ["white"]}
        assert s["clocks"]["white"] == s["clocks"]["black"] == 600_000
        assert move(c, g, "white", "e2e4").status_code == 409
        fake.advance(35_000)
        assert move(c, g, "white", "e2e4").status_code == 200


def test_kill9_during_the_preview_keeps_its_end(tmp_path: Path) -> None:
    """A real server process killed with SIGKILL during a preview: the one started again on
    the same database keeps the countdown's end (re-armed from it, not restarted)."""
    server = Server(f"sqlite:///{tmp_path / 'kill.sqlite3'}", tmp_path)
    try:
        server.start()
        http = httpx.Client(base_url=server.base, timeout=10)
        r = http.post("/api/games", json={"variant": "chess", "opponent": "friend",
                                          "color": "white", "clock": BLITZ, "preview": 120})
        g = r.json()
        invite = g["invite_url"].rsplit("/", 1)[1]
        black = http.post(f"/api/games/{g['id']}/join", json={"invite": invite}).json()
        tokens = {"white": g["seat"]["token"], "black": black["seat"]["token"]}
        before = http.get(f"/api/games/{g['id']}").json()["preview"]
        assert before is not None and before["length"] == 120_000
        server.kill9()
        server.start()
        after = http.get(f"/api/games/{g['id']}").json()
        assert after["preview"]["until"] == before["until"]  # neither restarted nor moved
        assert after["clocks"]["white"] == after["clocks"]["black"] == 180_000
        refused = http.post(f"/api/games/{g['id']}/moves",
                            json={"move": "e2e4", "token": tokens["white"]})
        assert refused.status_code == 409 and refused.json()["code"] == "preview.running"
        for color in ("white", "black"):
            ready = http.post(f"/api/games/{g['id']}/ready", json={"token": tokens[color]})
            assert ready.status_code == 200, ready.text
        played = http.post(f"/api/games/{g['id']}/moves",
                           json={"move": "e2e4", "token": tokens["white"]})
        assert played.status_code == 200, played.text
    finally:
        server.cleanup()
