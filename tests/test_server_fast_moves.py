"""The move route's own door (server/games/fast_moves.py, issue 36) answers as the FastAPI
route does, and the state's JSON built once per version says what the state says."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.server.games import fast_moves, hub
from randomchess.server.games.live import LiveGame
from randomchess.server.http import app as app_module
from server_support import client, new_game, play

JSON = {"Content-Type": "application/json"}
# FastAPI reads a ``+json`` body as JSON too, but the fast door takes ``application/json``
# only: the same request reaches the route itself.
ROUTE = {"Content-Type": "application/x-test+json"}


# The door in front of the middleware stack (App.move_door), and behind trusted proxies the
# same door innermost of the middleware (MoveFastPath).
@pytest.fixture(scope="module", params=["front", "innermost"])
def c(request: pytest.FixtureRequest,
      tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    proxies = "127.0.0.1" if request.param == "innermost" else ""
    with client(f"sqlite:///{tmp_path_factory.mktemp('fast') / 'g.sqlite3'}",
                forwarded_allow_ips=proxies) as c:
        assert (c.app.move_door is None) == bool(proxies)  # type: ignore[attr-defined]
        yield c


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many requests went through the middleware stack's body limit."""
    calls = [0]
    real = app_module.BodyLimit.__call__

    async def counting(self: Any, scope: Any, receive: Any, send: Any) -> None:
        calls[0] += 1
        await real(self, scope, receive, send)

    monkeypatch.setattr(app_module.BodyLimit, "__call__", counting)
    return calls


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many bodies the fast door validated (the route never calls it)."""
    calls = [0]
    real = fast_moves.MoveIn.model_validate_json

    def counting(data: Any) -> Any:
        calls[0] += 1
        return real(data)

    monkeypatch.setattr(fast_moves.MoveIn, "model_validate_json", counting)
    return calls


def _post(c: TestClient, gid: str, body: Any, headers: dict[str, str],
          lang: str = "en") -> tuple[int, dict[str, str], Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    r = c.post(f"/api/games/{gid}/moves", content=data,
               headers={**headers, "Accept-Language": lang})
    kept = {k: v for k, v in r.headers.items() if k not in ("date", "content-length")}
    return r.status_code, kept, r.json()


def _same(a: Any, b: Any, ids: tuple[str, str]) -> None:
    """Equal but for the game ids (two games from the same start)."""
    assert json.loads(json.dumps(a).replace(ids[0], "ID")) == \
        json.loads(json.dumps(b).replace(ids[1], "ID"))


def test_the_door_answers_as_the_route(c: TestClient, counted: list[int],
                                       stack: list[int]) -> None:
    fast = new_game(c, variant="chess960", setup=518)
    slow = new_game(c, variant="chess960", setup=518)
    ids = (fast["id"], slow["id"])
    cases: list[tuple[Any, str]] = [
        ({"move": "e2e4", "token": "x" * 43}, "en"),  # 403, no seat
        ({"move": "e2e5", "token": "{token}"}, "es"),  # 409, illegal, in Spanish
        ({"move": "zz", "token": "{token}"}, "en"),  # 409, malformed
        ({"move": "e2e4", "token": "{token}"}, "en"),  # 200
        ({"move": "Cf6", "token": "{token}"}, "es"),  # 200, Spanish SAN
        ({"move": "g1f3", "token": "{token}", "lag": 40}, "en"),  # 200 with lag
        ({"move": "e7e5", "token": "{token}"}, "en"),  # 409, not this piece's turn
    ]
    before, stacked = counted[0], stack[0]
    for body, lang in cases:
        answers = []
        for game, headers in ((fast, JSON), (slow, ROUTE)):
            filled = {k: (v.format(token=game["seat"]["token"]) if isinstance(v, str) else v)
                      for k, v in body.items()}
            answers.append(_post(c, game["id"], filled, headers, lang))
        assert answers[0][0] == answers[1][0], (body, answers)
        assert answers[0][1] == answers[1][1]  # the same headers, security headers included
        _same(answers[0][2], answers[1][2], ids)
    assert counted[0] - before == len(cases)  # each JSON request went through the door
    # in front of the stack, the route's requests only went through it (behind proxies all)
    front = c.app.move_door is not None  # type: ignore[attr-defined]
    assert stack[0] - stacked == (len(cases) if front else 2 * len(cases))
    assert answers[0][1]["content-type"] == "application/json"
    assert answers[0][1]["x-frame-options"] == "DENY"


@pytest.mark.parametrize("body", [
    {"move": "e2e4"},  # no token
    {"move": "e2e4", "token": "t", "extra": 1},  # a field the model forbids
    {"move": "e2e4", "token": "t", "lag": 1.5},  # not an integer
    {"move": "e2e4", "token": "t", "lag": True},
    {"move": "", "token": "t"},
    b"{not json",
    b"",
])
def test_what_the_door_refuses_reaches_the_route(c: TestClient, body: Any) -> None:
    fast = new_game(c, variant="chess960", setup=518)
    slow = new_game(c, variant="chess960", setup=518)
    a = _post(c, fast["id"], body, JSON)
    b = _post(c, slow["id"], body, ROUTE)
    assert a[0] == 422 and b[0] == 422
    assert a[2]["code"] == "request.invalid"
    assert a[1] == b[1]


def test_unknown_game_and_other_routes(c: TestClient, counted: list[int]) -> None:
    status, _, body = _post(c, "nosuchgame0", {"move": "e2e4", "token": "t"}, JSON)
    assert status == 404 and body["code"] == "game.not_found"
    game = new_game(c)
    r = c.post(f"/api/games/{game['id']}/resign", json={"token": game["seat"]["token"]})
    assert r.status_code == 200 and r.json()["status"] == "ended"
    status, _, body = _post(c, game["id"], {"move": "e2e4", "token": game["seat"]["token"]},
                            JSON)
    assert status == 409 and body["code"] == "game.over"
    r = c.get(f"/api/games/{game['id']}/moves")  # another method: the router's 405
    assert r.status_code == 405


@pytest.mark.parametrize("clock", [None, {"minutes": 3, "increment": 2}])
def test_state_json_says_what_state_says(tmp_path: Path, clock: Any) -> None:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}", preview=True) as c:
        body: dict[str, Any] = {"variant": "mrc", "opponent": "friend"}
        if clock:
            body["clock"] = clock
        game = new_game(c, **body)
        invite = game["invite_url"].rsplit("/", 1)[1]
        r = c.post(f"/api/games/{game['id']}/join", json={"invite": invite})
        assert r.status_code == 200, r.text
        service = c.app.state.service  # type: ignore[attr-defined]
        live: LiveGame = service._cache[game["id"]]
        shown = []
        for now in (live.record.updated_at, live.record.updated_at + 5_000):
            assert json.loads(live.state_json(now)) == live.state(now)
            shown.append(live.state(now))
        assert (shown[0]["preview"] is not None) == (clock is not None)  # a timed game's
        assert (shown[0]["clocks"] is not None) == (clock is not None)


def test_hub_messages_carry_batches() -> None:
    events = [("g1", '{"type":"state","game":{"a":1}}'), ("lobby", "x:1:2:"),
              ("ñ:9", "é\u2603 12:34"), ("", "")]
    assert hub._unpack(hub._pack(events)) == events
    assert hub._unpack(hub._pack(events).encode()) == events
    # An earlier release's message: one JSON envelope per event.
    assert hub._unpack(json.dumps({"game": "g1", "text": "t"})) == [("g1", "t")]
    with pytest.raises(ValueError):
        hub._unpack(hub._pack(events)[:-3])


def test_no_telemetry_asked_per_request(c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the OpenTelemetry SDK nothing can receive FastAPI's telemetry, so it is off
    and a request does not ask OpenTelemetry's global providers (about 4 % of the server's
    CPU under load asked them and read the environment each time: issue 36)."""
    opentelemetry = pytest.importorskip("opentelemetry.trace")  # FastAPI >= 0.16x needs it
    asked = [0]
    real = opentelemetry.get_tracer_provider

    def counting() -> Any:
        asked[0] += 1
        return real()

    monkeypatch.setattr(opentelemetry, "get_tracer_provider", counting)
    game = new_game(c)
    play(c, game, "e2e4")
    assert asked[0] == 0


@pytest.mark.parametrize("body, status, code", [
    (b"[" * 40 + b"]" * 40, 422, "request.too_deep"),
    (b"x" * 70_000, 413, "request.too_large"),
])
def test_the_guards_answer_before_the_door(c: TestClient, body: bytes, status: int,
                                           code: str) -> None:
    game = new_game(c)
    for headers in (JSON, ROUTE):
        r = c.post(f"/api/games/{game['id']}/moves", content=body, headers=headers)
        assert (r.status_code, r.json()["code"]) == (status, code)
        assert r.headers["x-frame-options"] == "DENY"


def test_the_front_door_knows_every_middleware(c: TestClient) -> None:
    """The door in front of the stack does the body limit's and the security headers' part
    itself (App.__call__): a middleware added to the app must be added to it too, or the
    door put back innermost.  This list fails until that is done."""
    names = [m.cls.__name__ for m in c.app.user_middleware]  # type: ignore[attr-defined]
    front = c.app.move_door is not None  # type: ignore[attr-defined]
    assert names == ([] if front else ["ProxyHeadersMiddleware"]) + \
        ["SecurityHeaders", "BodyLimit", "MoveFastPath"]
