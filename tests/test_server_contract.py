"""The typed server contract (issue 12 §4): the game state a client receives is a pydantic
model, ``GameState``, that the OpenAPI schema shows for ``GET /api/games/{id}`` and every
move and action answer; its status and termination strings are enums.  A real state of each
kind (waiting, playing with clocks, ended by each way the server ends games) validates
against the model, which forbids fields it does not declare."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from randomchess.server.games.contract import GameState, GameStatus, TerminationName
from randomchess.server.games.live import TERMINATION_NAMES
from server_support import client, new_game

STATE_ROUTES = [
    ("get", "/api/games/{game_id}"),
    ("post", "/api/games/{game_id}/moves"),
    ("post", "/api/games/{game_id}/draw-claim"),
    ("post", "/api/games/{game_id}/abort"),
    *[("post", f"/api/games/{{game_id}}/{a}") for a in (
        "resign", "draw-offer", "draw-accept", "draw-decline", "takeback-offer",
        "takeback-accept", "takeback-decline")],
]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'g.sqlite3'}"


def _schema_ref(responses: dict[str, Any]) -> str:
    return str(responses["200"]["content"]["application/json"]["schema"]["$ref"])


def test_openapi_shows_the_real_state(db: str) -> None:
    with client(db) as c:
        schema = c.get("/openapi.json").json()
        g = new_game(c)
        state = c.get(f"/api/games/{g['id']}").json()
    for method, path in STATE_ROUTES:
        assert _schema_ref(schema["paths"][path][method]["responses"]) == \
            "#/components/schemas/GameState", (method, path)
    model = schema["components"]["schemas"]["GameState"]
    # Every field the server sends is declared, and nothing else.
    assert set(model["properties"]) == set(state)
    assert set(model["required"]) == set(state)
    statuses = schema["components"]["schemas"]["GameStatus"]["enum"]
    assert statuses == ["waiting", "playing", "ended"]
    terminations = schema["components"]["schemas"]["TerminationName"]["enum"]
    assert set(terminations) == set(TERMINATION_NAMES.values()) | {"aborted"}
    clocks = schema["components"]["schemas"]["ClockState"]["properties"]
    assert set(clocks) == {"white", "black", "running", "initial", "increment", "days",
                           "deadline", "control", "label", "delay", "to_control"}


def test_real_states_validate_against_the_model(db: str) -> None:
    seen: list[dict[str, Any]] = []
    with client(db) as c:
        friend = c.post("/api/games", json={"variant": "chess960", "opponent": "friend",
                                            "color": "white"}).json()
        seen.append(c.get(f"/api/games/{friend['id']}").json())  # waiting for the friend
        g = new_game(c, variant="capablanca", clock={"minutes": 5, "increment": 2})
        tok = g["seat"]["token"]
        seen.append(c.post(f"/api/games/{g['id']}/moves", json={"move": "e2e4",
                                                                "token": tok}).json())
        seen.append(c.post(f"/api/games/{g['id']}/moves", json={"move": "e7e5",
                                                                "token": tok}).json())
        seen.append(c.post(f"/api/games/{g['id']}/draw-offer", json={"token": tok}).json())
        seen.append(c.post(f"/api/games/{g['id']}/resign", json={"token": tok}).json())
        m = new_game(c)
        for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
            last = c.post(f"/api/games/{m['id']}/moves", json={"move": uci,
                                                                "token": m["seat"]["token"]})
        seen.append(last.json())  # checkmate
        a = new_game(c)
        seen.append(c.post(f"/api/games/{a['id']}/abort",
                           json={"token": a["seat"]["token"]}).json())
    states = [GameState.model_validate(s) for s in seen]
    assert [s.status for s in states] == [GameStatus.WAITING, GameStatus.PLAYING,
                                          GameStatus.PLAYING, GameStatus.PLAYING,
                                          GameStatus.ENDED,
                                          GameStatus.ENDED, GameStatus.ENDED]
    # Clocks start with White's second move (both sides have moved once).
    assert states[1].clocks is not None and states[1].clocks.running is None
    assert states[2].clocks is not None and states[2].clocks.running == "white"
    assert states[3].draw_offer == "white"
    assert [s.termination for s in states[4:]] == [
        TerminationName.RESIGNATION, TerminationName.CHECKMATE, TerminationName.ABORTED]
    # The model round-trips the server's JSON exactly.
    for raw, model in zip(seen, states, strict=True):
        assert model.model_dump(mode="json") == raw


def test_the_model_refuses_what_the_server_never_sends(db: str) -> None:
    with client(db) as c:
        state = c.get(f"/api/games/{new_game(c)['id']}").json()
    for bad in ({"status": "over"}, {"termination": "boredom"}, {"surprise": 1},
                {"to_move": "red"}):
        with pytest.raises(ValueError):
            GameState.model_validate({**state, **bad})


# ------------------------------------------------------------------ typed changes (issue 12)
def test_the_store_speaks_the_contract_enums(tmp_path: Path) -> None:
    """A record read back from the database carries the enums, not bare strings, and the
    changes an action hands the store are a declared shape: every key a column the store
    may set, and typed as the record types it."""
    import typing

    from randomchess.server.games.store import GameChanges, GameRecord, Store

    hints = typing.get_type_hints(GameRecord)
    assert hints["status"] is GameStatus
    assert hints["termination"] == TerminationName | None
    changes = typing.get_type_hints(GameChanges)
    assert set(changes) == set(hints) - {"id", "created_at"}
    for name, kind in changes.items():
        assert kind == hints[name], name
    assert GameChanges.__total__ is False

    db = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with client(db) as c:
        g = new_game(c)
        c.post(f"/api/games/{g['id']}/resign", json={"token": g["seat"]["token"]})
    store = Store(db)
    try:
        record = store.load(g["id"])
        assert record is not None
        assert type(record.status) is GameStatus and record.status is GameStatus.ENDED
        assert type(record.termination) is TerminationName
        assert record.termination is TerminationName.RESIGNATION
        playing = store.unfinished()
        assert all(type(r.status) is GameStatus for r in playing)
    finally:
        store.close()



def test_the_typed_dicts_name_exactly_the_models_fields() -> None:
    """The server builds states and frames as TypedDicts (checked by mypy) and documents them
    as pydantic models (checked against real JSON): both must name the same fields."""
    from randomchess.server.games import contract as k

    pairs = [(k.GameStateDict, k.GameState), (k.ClockDict, k.ClockState),
             (k.StateFrameDict, k.StateFrame), (k.RematchFrameDict, k.RematchFrame),
             (k.RematchOfferDict, k.RematchOffer), (k.ErrorFrameDict, k.ErrorFrame),
             (k.PongFrameDict, k.PongFrame)]
    for typed, model in pairs:
        assert set(typed.__annotations__) == set(model.model_fields), typed.__name__
        assert typed.__required_keys__ == frozenset(model.model_fields), typed.__name__
    players = k.GameState.model_fields["players"].annotation
    assert players is k.PlayersState


def test_openapi_shows_the_rematch_answers(db: str) -> None:
    """The rematch routes answer declared shapes: the new game's seat, and the offer."""
    with client(db) as c:
        schema = c.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/games/{game_id}/rematch", "/api/games/{game_id}/rematch-accept"):
        assert _schema_ref(paths[path]["post"]["responses"]) == \
            "#/components/schemas/CreateGameOut", path
    for method, path in (("get", "/api/games/{game_id}/rematch"),
                         ("post", "/api/games/{game_id}/rematch-decline")):
        assert _schema_ref(paths[path][method]["responses"]) == \
            "#/components/schemas/RematchOfferOut", path
    offer = schema["components"]["schemas"]["RematchOfferOut"]["properties"]["offer"]
    assert {"$ref": "#/components/schemas/RematchOffer"} in offer["anyOf"]

