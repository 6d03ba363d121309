"""The WebSocket contract (issue 12): every frame the game socket pushes and accepts is a
pydantic model of ``server/contract.py``.  A real friend game is followed by a spectator
socket from the first state to the rematch; every frame it receives validates against
``ServerFrame``.  Bad client frames get a typed error frame and change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from randomchess.server.games.contract import (
    ClientFrame,
    ErrorFrame,
    GameStatus,
    RematchFrame,
    ServerFrame,
    StateFrame,
)
from server_support import client

FRAME: TypeAdapter[Any] = TypeAdapter(ServerFrame)


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("frames") / "g.sqlite3"
    with client(f"sqlite:///{Path(db)}") as c:
        yield c


def _friend_game(c: TestClient) -> tuple[str, str, str]:
    made = c.post("/api/games", json={"variant": "chess", "opponent": "friend",
                                      "color": "white",
                                      "clock": {"minutes": 5, "increment": 1}}).json()
    invite = made["invite_url"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{made['id']}/join", json={"invite": invite}).json()
    return made["id"], made["seat"]["token"], joined["seat"]["token"]


def _frame(ws: Any) -> Any:
    raw = ws.receive_json()
    return FRAME.validate_python(raw), raw


def test_every_pushed_frame_of_a_real_game_is_a_model(c: TestClient) -> None:
    gid, white, black = _friend_game(c)
    frames: list[Any] = []
    with c.websocket_connect(f"/ws/games/{gid}") as watcher, \
            c.websocket_connect(f"/ws/games/{gid}") as player:
        for ws in (watcher, player):
            frames.append(_frame(ws))
        steps: list[tuple[str, dict[str, Any]]] = [
            ("moves", {"move": "e2e4", "token": white}),
            ("moves", {"move": "e7e5", "token": black}),
            ("draw-offer", {"token": white}),
            ("draw-decline", {"token": black}),
            ("takeback-offer", {"token": white}),
            ("takeback-decline", {"token": black}),
            ("moves", {"move": "g1f3", "token": white}),
            ("resign", {"token": black}),
        ]
        for path, body in steps:
            assert c.post(f"/api/games/{gid}/{path}", json=body).status_code == 200, path
            frames.append(_frame(watcher))
            frames.append(_frame(player))
        # over the socket as well
        player.send_json({"type": "state"})
        frames.append(_frame(player))
        player.send_json({"type": "ping"})
        frames.append(_frame(player))
        # The rematch offer of a friend game is pushed to the old game's sockets.
        offer = c.post(f"/api/games/{gid}/rematch", json={"token": white}).json()
        frames.append(_frame(watcher))
        assert c.post(f"/api/games/{gid}/rematch-decline",
                      json={"token": black}).status_code == 200
        frames.append(_frame(watcher))
    models = [m for m, _ in frames]
    states = [m.game for m in models if isinstance(m, StateFrame)]
    assert [s.ply for s in states[:2]] == [0, 0]
    assert states[-1].status is GameStatus.ENDED
    assert any(s.draw_offer == "white" for s in states)
    assert any(s.takeback_offer == "white" for s in states)
    rematches = [m for m in models if isinstance(m, RematchFrame)]
    assert len(rematches) == 2
    assert rematches[0].offer is not None and rematches[0].offer.by == "white"
    assert rematches[0].offer.id == offer["id"]
    assert rematches[1].offer is None
    assert models[-3].type == "pong"
    # Each model gives back exactly the JSON the server sent.
    for model, raw in frames:
        assert FRAME.dump_python(model, mode="json") == raw


BAD_FRAMES: list[tuple[str | bytes, int]] = [
    ("{not json", 422),
    ("[1, 2]", 422),
    ('{"type": "castle", "token": "t"}', 422),
    ('{"type": "move", "move": "e2e4", "token": "TOKEN", "extra": 1}', 422),
    ('{"type": "move", "move": 7, "token": "TOKEN"}', 422),
    ('{"type": "move", "move": "e2e4"}', 403),
    ('{"type": "move", "move": "e2e4", "token": "guess"}', 403),
    ('{"type": "move", "move": "e2e5", "token": "TOKEN"}', 409),
    ('{"type": "draw-accept", "token": "TOKEN"}', 409),
    ("x" * 20_000, 413),
    (b"\x00\x01", 422),
]


@pytest.mark.parametrize(("text", "status"), BAD_FRAMES)
def test_bad_client_frames_get_a_typed_error_and_change_nothing(
        c: TestClient, text: str | bytes, status: int) -> None:
    gid, white, _black = _friend_game(c)
    before = c.get(f"/api/games/{gid}").json()
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        _frame(ws)
        if isinstance(text, bytes):
            ws.send_bytes(text)
        else:
            ws.send_text(text.replace("TOKEN", white))
        model, raw = _frame(ws)
        assert isinstance(model, ErrorFrame), raw
        assert model.status == status and model.detail
        ws.send_json({"type": "ping"})  # the socket serves on
        assert _frame(ws)[0].type == "pong"
    assert c.get(f"/api/games/{gid}").json()["version"] == before["version"]


def test_client_frames_are_the_model_the_server_reads() -> None:
    ok = ClientFrame.model_validate({"type": "move", "move": "e4", "token": "t"})
    assert ok.type == "move"
    with pytest.raises(ValueError):
        ClientFrame.model_validate({"type": "move", "move": "e4", "colour": "white"})


def test_the_frame_for_an_unknown_game_is_an_error_model(c: TestClient) -> None:
    with c.websocket_connect("/ws/games/nope") as ws:
        model, _raw = _frame(ws)
    assert isinstance(model, ErrorFrame) and model.status == 404


def test_a_computer_move_is_pushed_as_a_state_model(c: TestClient) -> None:
    made = c.post("/api/games", json={"variant": "chess", "opponent": "computer",
                                      "color": "black", "level": 1}).json()
    with c.websocket_connect(f"/ws/games/{made['id']}") as ws:
        model, _ = _frame(ws)
        while model.game.ply < 1:  # the computer (White) moves by itself
            model, _ = _frame(ws)
    assert isinstance(model, StateFrame) and model.game.players.white == "computer"
