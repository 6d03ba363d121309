"""Fuzz targets for the game server's inputs (issue 13, fuzzing): HTTP JSON bodies on every
POST route and every game id, and WebSocket messages (text, binary, any JSON).  Any input
gets a success or a 4xx with a JSON ``detail``; never a 500 (the test client re-raises any
server exception), and a socket keeps answering after any message.

A few hundred inputs per target run in the normal suite (seconds).  The long campaign is
``make fuzz-server`` (SERVER_FUZZ_EXAMPLES=N, default 20000 per target), which also
prints the inputs tried, the distinct failures and the slowest input.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server_support import client, database, new_game

EXAMPLES = int(os.environ.get("RANDOMCHESS_FUZZ_EXAMPLES", "100"))
# The suite's short run is the same inputs every time (a failure there is reproducible); the
# long campaign draws new ones each run.
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize="RANDOMCHESS_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
STATS: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest,
      tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # PostgreSQL too: its driver refuses what SQLite takes (a NUL byte in text).
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    STATS.clear()
    with database(request.param, tmp) as url, client(url, engine_movetime_ms=20) as c:
        yield c
    if os.environ.get("RANDOMCHESS_FUZZ_EXAMPLES"):
        for name, s in STATS.items():
            print(f"\nfuzz {request.param} {name}: {s['tried']} inputs, 0 failures, slowest "
                  f"{s['slowest'] * 1000:.1f} ms: {s['slowest_input']!r:.200}")


@pytest.fixture(scope="module")
def games(c: TestClient) -> dict[str, dict[str, Any]]:
    """A game of each kind, to aim inputs at real ids and real tokens."""
    return {
        "hotseat": new_game(c, variant="chess960", setup=518),
        "computer": new_game(c, variant="mrc", opponent="computer", level=1, color="white"),
        "friend": new_game(c, variant="chess", opponent="friend",
                           clock={"minutes": 1, "increment": 1}),
    }


def _record(target: str, value: Any, took: float) -> None:
    s = STATS.setdefault(target, {"tried": 0, "slowest": 0.0, "slowest_input": None})
    s["tried"] += 1
    if took > s["slowest"]:
        s["slowest"], s["slowest_input"] = took, value


# ------------------------------------------------------------------------------ strategies
SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-10, 10_000)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=40)
           | st.sampled_from(["random", "chess", "chess960", "mrc", "modern", "computer",
                              "friend", "hotseat", "white", "black", "e2e4", "e4", "Nf3",
                              "O-O", "e1h1", "a7a8q", "\x00", "518", "-1", "1e9",
                              "8/8/8/8/8/8/8/4K2k w - - 0 1", "99999999", "²", "\ud800",
                              "a\udfffb", "\u202e", " " * 33]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
FIELDS = st.sampled_from(["variant", "setup", "opponent", "level", "color", "clock", "minutes",
                          "increment", "move", "token", "invite", "type"])
OBJECTS = st.dictionaries(FIELDS | st.text(max_size=6), JSON, max_size=7)
CREATE = st.fixed_dictionaries(
    {"variant": st.sampled_from(["chess", "chess960", "mrc", "modern", "Chess960"]) | SCALARS},
    optional={"setup": SCALARS, "opponent": SCALARS, "level": SCALARS, "color": SCALARS,
              "clock": st.fixed_dictionaries({"minutes": SCALARS, "increment": SCALARS})
              | JSON})
RAW = st.binary(max_size=300) | st.text(max_size=300).map(str.encode)
ACTIONS = ["moves", "resign", "draw-offer", "draw-accept", "draw-decline", "draw-claim",
           "takeback-offer", "takeback-accept", "takeback-decline", "join"]
IDS = st.sampled_from(["hotseat", "computer", "friend"]) | st.text(max_size=30)


def _check(r: Any) -> None:
    assert r.status_code < 500, (r.status_code, r.text)
    if r.status_code >= 400:
        detail = r.json()["detail"]
        assert isinstance(detail, str) and detail


# ------------------------------------------------------------------------------ HTTP
@FUZZ
@given(body=CREATE | OBJECTS | JSON)
def test_fuzz_create_bodies(c: TestClient, body: Any) -> None:
    start = time.perf_counter()
    r = c.post("/api/games", content=json.dumps(body), headers={"content-type":
                                                                "application/json"})
    _record("POST /api/games", body, time.perf_counter() - start)
    _check(r)
    if r.status_code == 201:
        assert c.get(f"/api/games/{r.json()['id']}").status_code == 200


@FUZZ
@given(which=IDS, action=st.sampled_from(ACTIONS), body=OBJECTS | JSON,
       real_token=st.booleans())
def test_fuzz_action_bodies(c: TestClient, games: dict[str, dict[str, Any]], which: str,
                            action: str, body: Any, real_token: bool) -> None:
    game = games.get(which)
    gid = game["id"] if game else which
    if game and real_token and isinstance(body, dict):
        body["token"] = game["seat"]["token"]
    start = time.perf_counter()
    r = c.post(f"/api/games/{quote(gid, safe='')}/{action}", content=json.dumps(body),
               headers={"content-type": "application/json"})
    _record("POST /api/games/{id}/...", (gid, action, body), time.perf_counter() - start)
    _check(r)


@FUZZ
@given(path=st.sampled_from(["/api/games", "/api/games/x/moves", "/api/games/x/join"]),
       raw=RAW, content_type=st.sampled_from(["application/json", "text/plain", ""]))
def test_fuzz_raw_bodies(c: TestClient, path: str, raw: bytes, content_type: str) -> None:
    start = time.perf_counter()
    r = c.post(path, content=raw, headers={"content-type": content_type} if content_type
               else {})
    _record("raw bodies", raw, time.perf_counter() - start)
    _check(r)


@FUZZ
@given(gid=IDS, tail=st.sampled_from(["", "/pgn"]))
def test_fuzz_game_ids(c: TestClient, games: dict[str, dict[str, Any]], gid: str,
                       tail: str) -> None:
    real = games.get(gid)
    start = time.perf_counter()
    r = c.get(f"/api/games/{quote(real['id'] if real else gid, safe='')}{tail}")
    _record("GET /api/games/{id}", gid, time.perf_counter() - start)
    _check(r)
    assert r.status_code in (200, 404, 405)  # 405: the empty id is GET /api/games


# ------------------------------------------------------------------------------ WebSocket
WS_TYPES = st.sampled_from(["move", "resign", "draw-offer", "draw-accept", "draw-decline",
                            "draw-claim", "takeback-offer", "takeback-accept",
                            "takeback-decline", "state", "ping"]) | SCALARS
WS_MESSAGES = (st.fixed_dictionaries({"type": WS_TYPES}, optional={
    "move": SCALARS, "token": SCALARS, "extra": JSON}) | OBJECTS | JSON)


@FUZZ
@given(which=st.sampled_from(["hotseat", "computer", "friend"]),
       message=WS_MESSAGES.map(json.dumps) | st.text(max_size=300) | st.binary(max_size=200),
       real_token=st.booleans())
def test_fuzz_socket_messages(c: TestClient, games: dict[str, dict[str, Any]], which: str,
                              message: str | bytes, real_token: bool) -> None:
    game = games[which]
    if real_token and isinstance(message, str) and message.startswith("{"):
        with_token = json.loads(message)
        if "token" in with_token:
            with_token["token"] = game["seat"]["token"]
            message = json.dumps(with_token)
    start = time.perf_counter()
    with c.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        if isinstance(message, bytes):
            ws.send_bytes(message)
        else:
            ws.send_text(message)
        ws.send_text('{"type": "ping"}')
        # Every answer is JSON: an error, a state, a pong; the socket reaches the pong.
        for _ in range(10):
            answer = ws.receive_json()
            assert answer["type"] in ("error", "state", "pong"), answer
            if answer["type"] == "error":
                assert 400 <= answer["status"] < 500, answer
            if answer["type"] == "pong":
                break
        else:
            pytest.fail(f"no pong after {message!r}")
    _record("WebSocket messages", message, time.perf_counter() - start)
