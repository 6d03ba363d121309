"""A declared shape for every answer (issue 27 item 3): every route of the OpenAPI document
declares a JSON schema for its 2xx answers (a model, never a free-form object), or the media
type of the file it answers (PGN, SVG, CSV, HTML, TRF); and real answers the routes send as
they are (the game state's fast path, the invitation, health) and the frames of
``/ws/analysis`` and ``/ws/lobby`` validate against their models."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.server.accounts.answers import SeeksOut
from randomchess.server.engines.answers import AnalysisServerFrameAdapter
from randomchess.server.games.answers import HealthOut, InviteOut
from randomchess.server.games.contract import GameState, LobbyServerFrameAdapter
from server_support import client, new_game, play
from test_accounts import user

FILES = {"text/plain", "application/x-chess-pgn", "image/svg+xml", "text/csv", "text/html"}


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("answers") / "g.sqlite3"
    with client(f"sqlite:///{Path(db)}", engine_movetime_ms=20) as c:
        yield c


def _shaped(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """A declared shape: a model, a list of them, a union of them; not ``{}`` nor an object
    that may hold anything."""
    if "$ref" in schema:
        return True
    if "anyOf" in schema or "oneOf" in schema:
        return all(_shaped(s, components) for s in schema.get("anyOf", schema.get("oneOf")))
    if schema.get("type") == "array":
        return _shaped(schema.get("items", {}), components)
    if schema.get("type") == "object":
        return bool(schema.get("properties"))
    return schema.get("type") in ("string", "integer", "number", "boolean")


def shapes(doc: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(routes whose every 2xx answer has a declared shape, routes with one that has not)."""
    good, bad = [], []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            name = f"{method.upper()} {path}"
            ok = True
            for status, answer in op["responses"].items():
                if not status.startswith("2") or status == "204":
                    continue
                content = answer.get("content", {})
                json_schema = content.get("application/json", {}).get("schema")
                files = set(content) & FILES
                if json_schema is not None and json_schema:
                    ok &= _shaped(json_schema, doc["components"]["schemas"])
                elif not files:
                    ok = False
            (good if ok else bad).append(name)
    return good, bad


def test_every_route_declares_the_shape_of_its_answers(c: TestClient) -> None:
    good, bad = shapes(c.app.openapi())  # type: ignore[attr-defined]
    assert bad == []
    assert len(good) >= 60


def test_file_answers_declare_their_media_type(c: TestClient) -> None:
    paths = c.app.openapi()["paths"]  # type: ignore[attr-defined]
    for path, media in [("/api/games/{game_id}/pgn", "application/x-chess-pgn"),
                        ("/api/games/{game_id}/review.pgn", "application/x-chess-pgn"),
                        ("/api/tournaments/{event_id}/rounds/{rnd}/setup.svg",
                         "image/svg+xml"),
                        ("/api/tournaments/{event_id}/export.{fmt_}", "text/csv")]:
        content = paths[path]["get"]["responses"]["200"]["content"]
        assert media in content or (media == "application/x-chess-pgn"
                                    and "text/plain" in content), (path, content)


def test_answers_sent_as_they_are_match_their_models(c: TestClient) -> None:
    """The routes that bypass FastAPI's encoder (pre-serialised state, JSONResponse)."""
    game = new_game(c, variant="chess960", opponent="friend", color="white",
                    clock={"minutes": 5, "increment": 2})
    state = c.get(f"/api/games/{game['id']}")
    GameState.model_validate(state.json())
    invite = game["invite_url"].split("/invite/", 1)[1]
    r = c.get(f"/invite/{invite}", headers={"accept": "application/json"})
    assert r.status_code == 200, r.text
    assert InviteOut.model_validate(r.json()).color == "black"
    HealthOut.model_validate(c.get("/api/health").json())
    hot = new_game(c)
    GameState.model_validate(play(c, hot, "e4", "e5"))


def test_analysis_socket_frames_are_models(c: TestClient) -> None:
    kinds = []
    with c.websocket_connect("/ws/analysis") as ws:
        ws.send_json({"type": "analyse", "position": {"variant": "chess", "depth": 2}})
        while True:
            frame = AnalysisServerFrameAdapter.validate_python(raw := ws.receive_json())
            kinds.append(frame.type)
            if raw["type"] == "done":
                break
        ws.send_json({"type": "analyse", "position": {"variant": "chess", "fen": "x"}})
        failed = AnalysisServerFrameAdapter.validate_python(ws.receive_json())
        assert failed.type == "error" and failed.seq == 2
        ws.send_json({"type": "stop"})
        assert AnalysisServerFrameAdapter.validate_python(ws.receive_json()).type == "stopped"
        ws.send_json({"type": "nonsense"})
        refused = AnalysisServerFrameAdapter.validate_python(ws.receive_json())
        assert refused.type == "error" and refused.seq is None
        ws.send_json({"type": "analyse"})
        assert AnalysisServerFrameAdapter.validate_python(ws.receive_json()).type == "error"
    assert kinds == ["lines", "lines", "done"]


def test_lobby_answers_and_frames_are_models(c: TestClient) -> None:
    a = user(c, "answerer")
    with c.websocket_connect("/ws/lobby") as ws:
        LobbyServerFrameAdapter.validate_python(ws.receive_json())
        r = a.post("/api/lobby/seeks", json={"variant": "chess960",
                                             "clock": {"days": 3}})
        assert r.status_code == 201, r.text
        pushed = LobbyServerFrameAdapter.validate_python(raw := ws.receive_json())
        assert pushed.type == "seeks-delta"
        assert raw["added"][0]["clock"] == {"days": 3}
        assert isinstance(raw["added"][0]["clock"]["days"], int)  # not 3.0
    listed = a.get("/api/lobby/seeks").json()
    SeeksOut.model_validate(listed)
    drop = "expires_in_ms"  # counted from each frame
    assert [{k: v for k, v in s.items() if k != drop} for s in listed["seeks"]] == \
        [{k: v for k, v in s.items() if k != drop} for s in raw["added"]]
