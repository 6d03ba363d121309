"""WebSocket pushes: players and spectators see every change; sockets may send actions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server_support import client, new_game, play


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path_factory.mktemp('ws') / 'g.sqlite3'}") as c:
        yield c


def _state(ws: Any) -> dict[str, Any]:
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    out: dict[str, Any] = msg["game"]
    return out


def test_players_and_spectators_get_every_change(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518)
    gid, tok = g["id"], g["seat"]["token"]
    with c.websocket_connect(f"/ws/games/{gid}") as player, \
            c.websocket_connect(f"/ws/games/{gid}") as spectator:
        assert _state(player)["moves"] == [] and _state(spectator)["moves"] == []
        play(c, g, "e2e4")  # over HTTP: pushed to both sockets
        assert _state(player)["moves"] == ["e2e4"]
        assert _state(spectator)["san"] == ["e4"]
        player.send_json({"type": "move", "move": "e5", "token": tok})  # over the socket
        assert _state(player)["moves"] == ["e2e4", "e7e5"]
        assert _state(spectator)["to_move"] == "white"
        # The spectator has no token: refused, nothing pushed.
        spectator.send_json({"type": "move", "move": "Nf3"})
        assert spectator.receive_json() == {
            "type": "error", "status": 403, "code": "seat.token_required",
            "detail": "a seat token is required", "detail_en": "a seat token is required",
            "detail_es": "hace falta el token de un asiento"}
        spectator.send_json({"type": "move", "move": "Nf3", "token": "guess"})
        assert spectator.receive_json()["status"] == 403
        player.send_json({"type": "move", "move": "Ke3", "token": tok})
        err = player.receive_json()
        assert err["type"] == "error" and err["status"] == 409 and "illegal" in err["detail"]
        player.send_text("{not json")
        assert player.receive_json()["status"] == 422
        player.send_json({"type": "move", "move": "Nf3", "token": tok, "extra": 1})
        assert player.receive_json()["status"] == 422
        player.send_text("x" * 20_000)
        assert player.receive_json()["status"] == 413
        player.send_json({"type": "ping"})
        assert player.receive_json() == {"type": "pong"}
        player.send_json({"type": "resign", "token": tok})
        end = _state(player)
        assert end["status"] == "ended" and end["termination"] == "resignation"
        assert _state(spectator)["result"] == end["result"]
    assert c.get(f"/api/games/{gid}").json()["moves"] == ["e2e4", "e7e5"]


def test_reconnect_gets_the_full_state(c: TestClient) -> None:
    g = new_game(c, variant="mrc", setup=8226)
    with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
        _state(ws)
    play(c, g, "e2e4", "e8e6", "d2d3")  # while disconnected
    with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
        s = _state(ws)
        assert s["moves"] == ["e2e4", "e8e6", "d2d3"] and len(s["san"]) == 3
        ws.send_json({"type": "state"})
        assert _state(ws)["moves"] == s["moves"]


def test_unknown_game_socket(c: TestClient) -> None:
    with c.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json()["status"] == 404
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4404


def test_computer_move_is_pushed(c: TestClient) -> None:
    g = new_game(c, variant="chess960", opponent="computer", color="white", level=1)
    with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
        s = _state(ws)
        ws.send_json({"type": "move", "move": s["legal_moves"][0],
                      "token": g["seat"]["token"]})
        assert len(_state(ws)["moves"]) == 1
        assert len(_state(ws)["moves"]) == 2  # the engine's reply arrives by itself
