"""Hostile input to the game server (issue 13, Server): malformed game ids on every route,
binary and deeply nested WebSocket messages, deeply nested HTTP bodies.  Each refusal is a
4xx with a reason, on SQLite and on PostgreSQL, and a socket keeps serving after one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client, database, new_game


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest,
      tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    tmp: Path = tmp_path_factory.mktemp("hardening")
    with database(request.param, tmp) as url, client(url) as c:
        yield c


BAD_IDS = ["%00", "abc%00def", "%FF%FE", "a%20b", "a.b", "x" * 25, "%E2%80%AE"]


@pytest.mark.parametrize("gid", BAD_IDS)
def test_malformed_game_ids_are_404_on_every_route(c: TestClient, gid: str) -> None:
    calls: list[tuple[str, str, dict[str, Any] | None]] = [
        ("GET", f"/api/games/{gid}", None),
        ("GET", f"/api/games/{gid}/pgn", None),
        ("POST", f"/api/games/{gid}/moves", {"move": "e2e4", "token": "t"}),
        ("POST", f"/api/games/{gid}/resign", {"token": "t"}),
        ("POST", f"/api/games/{gid}/draw-claim", {"token": "t"}),
        ("POST", f"/api/games/{gid}/join", {"invite": "i"}),
    ]
    for method, path, body in calls:
        r = c.request(method, path, json=body)
        assert r.status_code == 404, (path, r.status_code, r.text)
        assert "game id" in r.json()["detail"], (path, r.text)
    # The invitation route answers a non-browser client with JSON too.
    r = c.get(f"/invite/{gid}/code")
    assert r.status_code == 404 and "game id" in r.json()["detail"]


@pytest.mark.parametrize("gid", BAD_IDS)
def test_malformed_game_id_on_the_socket_is_an_error_message(c: TestClient, gid: str) -> None:
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 404
        assert "game id" in msg["detail"]


def test_well_formed_unknown_id_is_still_no_such_game(c: TestClient) -> None:
    r = c.get("/api/games/AAAAAAAAAAAA")
    assert r.status_code == 404 and r.json()["detail"] == "no such game"


def test_binary_and_nested_socket_messages_get_errors_and_the_socket_serves_on(
        c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518)
    with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b'{"type": "ping"}')
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 422 and "binary" in err["detail"]
        ws.send_text("[" * 1000 + "]" * 1000)  # 2 KB, 1,000 nested brackets
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 422 and "nest" in err["detail"]
        ws.send_text('{"type": "ping", "token": ' + "[" * 5000 + "]" * 5000 + "}")
        assert ws.receive_json()["status"] == 422
        ws.send_text('"\\ud800"')  # a lone surrogate, valid JSON
        assert ws.receive_json()["status"] == 422
        # The same socket still takes a valid action.
        ws.send_json({"type": "move", "move": "e2e4", "token": g["seat"]["token"]})
        state = ws.receive_json()
        assert state["type"] == "state" and state["game"]["moves"] == ["e2e4"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


@pytest.mark.parametrize("path", ["/api/games", "/api/games/AAAAAAAAAAAA/moves"])
def test_deeply_nested_http_bodies_are_422(c: TestClient, path: str) -> None:
    for body in ("[" * 8000 + "]" * 8000, '{"a":' * 2000 + "1" + "}" * 2000):
        r = c.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, r.text
        assert "nest" in r.json()["detail"]


@pytest.mark.parametrize("setup", ["\u0665\u0661\u0668", "\u00b2", "5\u06618"])
def test_setup_numbers_are_ascii_digits(c: TestClient, setup: str) -> None:
    # Arabic-Indic digits passed str.isdigit() and were read as SP 518; a superscript gave
    # int()'s own text. Both are a 422 that says what a setup is (issue 13).
    r = c.post("/api/games", json={"variant": "chess960", "opponent": "hotseat",
                                   "setup": setup})
    assert r.status_code == 422, r.text
    assert "invalid literal" not in r.text and "bad setup" in r.text
