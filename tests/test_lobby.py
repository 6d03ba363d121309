"""The lobby (issue 18): seeks pushed live over /ws/lobby, acceptance starting a game for
both accounts, rating ranges, challenges to a named player, quick pairing by speed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from server_support import client, database, play
from test_accounts import Browser, rated_game, user, wait_rated

BLITZ = {"minutes": 3, "increment": 2}


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, client(url) as c:
        yield c


def seek(b: Browser, **body: Any) -> str:
    body.setdefault("variant", "chess960")
    body.setdefault("clock", BLITZ)
    r = b.post("/api/lobby/seeks", json=body)
    assert r.status_code == 201, r.text
    sid: str = r.json()["id"]
    return sid


def listed(b: Browser) -> list[str]:
    return [s["id"] for s in b.get("/api/lobby/seeks").json()["seeks"]]


def test_seek_live_and_accepted_game_for_both(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    c.cookies = httpx.Cookies(b.cookies)
    with c.websocket_connect("/ws/lobby") as ws:
        c.cookies = httpx.Cookies()
        assert ws.receive_json() == {"type": "seeks", "seeks": []}
        sid = seek(a, setup=518, rated=True)
        event = ws.receive_json()
        assert event["type"] == "seeks-delta" and event["removed"] == []
        [shown] = event["added"]
        assert (shown["id"], shown["player"], shown["setup"], shown["speed"], shown["rated"]) \
            == (sid, "alice", 518, "blitz", True)
        assert "user_id" not in shown and "target_id" not in shown
        assert shown["rating"] == 1500 and shown["provisional"]
        r = b.post(f"/api/lobby/seeks/{sid}/accept")
        assert r.status_code == 200, r.text
        game = r.json()
        event = ws.receive_json()
        assert (event["added"], event["removed"]) == ([], [sid])
        assert event["started"] == {"seek": sid, "game": game["id"]}
    assert listed(a) == []
    # Alice takes her seat from the account; the two play and the game is rated.
    r = a.post(f"/api/account/games/{game['id']}/seat")
    assert r.status_code == 200
    seat_a = r.json()["seat"]
    assert {seat_a["color"], game["seat"]["color"]} == {"white", "black"}
    state = c.get(f"/api/games/{game['id']}").json()
    assert state["number"] == 518 and state["variant"] == "chess960"
    tokens = {seat_a["color"]: seat_a["token"], game["seat"]["color"]: game["seat"]["token"]}
    board = {"id": game["id"], "seat": {"token": tokens["white"]}}
    play(c, board, "e2e4")
    play(c, board, "e7e5", token=tokens["black"])
    c.post(f"/api/games/{game['id']}/resign", json={"token": tokens["black"]})
    changes = wait_rated(c, game["id"])
    assert {ch["player"] for ch in changes} == {"alice", "bob"}
    assert a.get("/api/account/games").json()["games"][0]["opponent"] == "bob"


def test_acceptance_rules(c: TestClient) -> None:
    a, b, d = user(c, "alice"), user(c, "bob"), user(c, "dora")
    sid = seek(a, rating_min=1600)
    assert a.post(f"/api/lobby/seeks/{sid}/accept").status_code == 409  # own seek
    assert b.post(f"/api/lobby/seeks/{sid}/accept").status_code == 403  # 1500 < 1600
    # Bob beats Dora in rated blitz chess960: over a 1550 maximum, and she under it.
    game = rated_game(c, b, d, variant="chess960")
    c.post(f"/api/games/{game['id']}/resign", json={"token": game["black"]})
    wait_rated(c, game["id"])
    capped = seek(a, rating_max=1550)
    assert b.post(f"/api/lobby/seeks/{capped}/accept").status_code == 403
    assert d.post(f"/api/lobby/seeks/{capped}/accept").status_code == 200  # she lost: < 1500
    assert d.post(f"/api/lobby/seeks/{capped}/accept").status_code == 404  # taken once
    r = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": BLITZ,
                                         "rating_min": 1700, "rating_max": 1600})
    assert r.status_code == 422


def test_challenge_only_for_the_named_player(c: TestClient) -> None:
    a, b, d = user(c, "alice"), user(c, "bob"), user(c, "dora")
    r = a.post("/api/lobby/challenges", json={"name": "Bob", "variant": "mrc", "clock": BLITZ})
    assert r.status_code == 201
    cid = r.json()["id"]
    assert listed(b) == [cid] and listed(a) == [cid]
    assert [s["challenge"] for s in b.get("/api/lobby/seeks").json()["seeks"]] == [True]
    assert listed(d) == [] and cid not in listed(Browser(c))
    assert d.post(f"/api/lobby/seeks/{cid}/accept").status_code == 404
    assert b.post(f"/api/lobby/seeks/{cid}/accept").status_code == 200
    r = a.post("/api/lobby/challenges", json={"name": "nobody", "clock": BLITZ})
    assert r.status_code == 404
    # Another site's page opening the socket with Bob's cookies sees no challenge of his.
    again = a.post("/api/lobby/challenges", json={"name": "bob", "clock": BLITZ}).json()["id"]
    c.cookies = httpx.Cookies(b.cookies)
    with c.websocket_connect("/ws/lobby", headers={"origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["seeks"] == []
    with c.websocket_connect("/ws/lobby", headers={"origin": "http://testserver"}) as ws:
        assert [s["id"] for s in ws.receive_json()["seeks"]] == [again]
    c.cookies = httpx.Cookies()


def test_the_challenged_player_may_decline_a_challenge(c: TestClient) -> None:
    """Issue 32: the named player declines (DELETE) a challenge; nobody else may, and an open
    seek is still its owner's alone to cancel."""
    a, b, d = user(c, "alice"), user(c, "bob"), user(c, "dora")
    cid = a.post("/api/lobby/challenges", json={"name": "bob", "clock": BLITZ}).json()["id"]
    assert d.request("DELETE", f"/api/lobby/seeks/{cid}").status_code == 404
    assert b.request("DELETE", f"/api/lobby/seeks/{cid}", csrf=False).status_code == 403
    assert listed(a) == [cid]
    assert b.request("DELETE", f"/api/lobby/seeks/{cid}").status_code == 204
    assert listed(a) == [] and listed(b) == []
    sid = seek(a)
    assert b.request("DELETE", f"/api/lobby/seeks/{sid}").status_code == 404
    assert listed(b) == [sid]


def test_bad_seeks_refused_before_the_lobby_sees_them(c: TestClient) -> None:
    a = user(c, "alice")
    for body in ({"variant": "nonsense", "clock": BLITZ},
                 {"variant": "chess960", "setup": 960, "clock": BLITZ},
                 {"variant": "chess", "setup": 5, "clock": BLITZ}):
        assert a.post("/api/lobby/seeks", json=body).status_code == 422, body
    assert listed(a) == []


def test_quick_pairing_by_speed(c: TestClient) -> None:
    a, b, d = user(c, "alice"), user(c, "bob"), user(c, "dora")
    r = a.post("/api/lobby/quick", json={"variant": "chess960", "clock": {"minutes": 3,
                                                                        "increment": 0}})
    assert r.json()["paired"] is False
    # Dora wants bullet: no pairing with Alice's blitz seek.
    r = d.post("/api/lobby/quick", json={"variant": "chess960", "clock": {"minutes": 1,
                                                                        "increment": 0}})
    assert r.json()["paired"] is False
    # Bob wants blitz at another clock: paired with Alice.
    r = b.post("/api/lobby/quick", json={"variant": "chess960", "clock": BLITZ})
    out = r.json()
    assert out["paired"] is True and out["speed"] == "blitz"
    assert [g["opponent"] for g in a.get("/api/account/games").json()["games"]] == ["bob"]
    assert len(listed(c_anon := Browser(c))) == 1 and c_anon.get("/api/lobby/seeks").json()[
        "seeks"][0]["player"] == "dora"


def test_seeks_need_an_account_and_csrf_and_only_owner_cancels(c: TestClient) -> None:
    anon = Browser(c)
    assert anon.post("/api/lobby/seeks", json={"clock": BLITZ}).status_code == 401
    a, b = user(c, "alice"), user(c, "bob")
    assert a.post("/api/lobby/seeks", json={"clock": BLITZ}, csrf=False).status_code == 403
    sid = seek(a)
    assert b.request("DELETE", f"/api/lobby/seeks/{sid}").status_code == 404
    assert b.post(f"/api/lobby/seeks/{sid}/accept", csrf=False).status_code == 403
    assert listed(b) == [sid]
    assert a.request("DELETE", f"/api/lobby/seeks/{sid}").status_code == 204
    assert listed(b) == []


def test_lobby_socket_answers_every_frame_and_bad_ones_with_a_typed_error(
        c: TestClient) -> None:
    """Bad WebSocket input gets a clear, typed error and changes nothing (STYLE.md); a ping
    is a ping however its JSON is spaced (json.dumps writes ``{"type": "ping"}``)."""
    from randomchess.server.games.contract import LobbyServerFrameAdapter

    a = user(c, "alice")
    with c.websocket_connect("/ws/lobby?lang=es") as ws:
        first = ws.receive_json()
        LobbyServerFrameAdapter.validate_python(first)
        assert first == {"type": "seeks", "seeks": []}
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}
        for frame, status, code in (("not json", 422, "frame.invalid"),
                                    ('{"type": "seek"}', 422, "frame.invalid"),
                                    ('{"type": "ping", "extra": 1}', 422, "frame.invalid"),
                                    ("[" * 300, 413, "frame.too_large")):
            ws.send_text(frame)
            reply = ws.receive_json()
            LobbyServerFrameAdapter.validate_python(reply)
            assert (reply["type"], reply["status"], reply["code"]) == ("error", status, code), \
                frame
            assert reply["detail"] == reply["detail_es"] != reply["detail_en"]
        ws.send_bytes(b'{"type": "ping"}')
        reply = ws.receive_json()
        assert (reply["type"], reply["code"]) == ("error", "frame.binary")
        # The socket serves on: the next seek is pushed, and a ping still answered.
        sid = seek(a)
        pushed = ws.receive_json()
        LobbyServerFrameAdapter.validate_python(pushed)
        assert [s["id"] for s in pushed["added"]] == [sid]
        ws.send_text('{"type":"ping"}')
        assert ws.receive_json() == {"type": "pong"}
    assert listed(a) == [sid]


def test_lobby_frames_carry_changes_not_the_whole_lobby(c: TestClient) -> None:
    """Issue 28 item 10: each lobby frame used to carry the whole lobby (236 KB per frame with
    1,000 seeks).  A socket gets the whole lobby once, when it connects, then only what
    changed: the seek added, the seek removed (cancelled, accepted) and the game it became.
    Replaying the changes onto the first frame gives exactly what GET /api/lobby/seeks
    shows, challenges to others never included; each seek says how long it stays open."""
    from randomchess.server.games.contract import LobbyServerFrameAdapter

    a, b, d = user(c, "alice"), user(c, "bob"), user(c, "dora")
    mine = [seek(a, rated=False) for _ in range(5)]
    c.cookies = httpx.Cookies(b.cookies)
    with c.websocket_connect("/ws/lobby") as ws:
        c.cookies = httpx.Cookies()
        first = ws.receive_json()
        LobbyServerFrameAdapter.validate_python(first)
        assert first["type"] == "seeks" and [s["id"] for s in first["seeks"]] == mine
        assert all(0 < s["expires_in_ms"] <= 3_600_000 for s in first["seeks"])
        shown = {s["id"]: s for s in first["seeks"]}

        def apply() -> dict[str, Any]:
            frame = ws.receive_json()
            LobbyServerFrameAdapter.validate_python(frame)
            assert frame["type"] == "seeks-delta", frame
            for s in frame["added"]:
                shown[s["id"]] = s
            for sid in frame["removed"]:
                shown.pop(sid, None)
            return frame

        sixth = seek(a, setup=518)
        frame = apply()
        assert [s["id"] for s in frame["added"]] == [sixth] and frame["removed"] == []
        assert frame["added"][0]["player"] == "alice" and frame["added"][0]["setup"] == 518
        # A challenge from alice to dora: bob is not shown it.
        r = a.post("/api/lobby/challenges", json={"name": "dora", "variant": "chess960",
                                                 "clock": BLITZ})
        assert r.status_code == 201
        assert apply()["added"] == []
        assert a.request("DELETE", f"/api/lobby/seeks/{mine[0]}").status_code == 204
        assert apply()["removed"] == [mine[0]]
        r = d.post(f"/api/lobby/seeks/{mine[1]}/accept")
        assert r.status_code == 200
        frame = apply()
        assert frame["removed"] == [mine[1]]
        assert frame["started"] == {"seek": mine[1], "game": r.json()["id"]}
        expected = {s["id"]: s for s in b.get("/api/lobby/seeks").json()["seeks"]}
        assert set(shown) == set(expected) == {*mine[2:], sixth}
        for sid, s in shown.items():
            assert {k: v for k, v in s.items() if k != "expires_in_ms"} == \
                {k: v for k, v in expected[sid].items() if k != "expires_in_ms"}
