"""Fuzz every route of the OpenAPI document (issue 28 item 7): for each path and method of
``app.openapi()``, path, query, header and body values drawn from the route's own schema
(in range, at its bounds, past them) and from anything at all (NUL bytes, lone surrogates,
integers past 64 bits, any JSON).  Whatever the input, the answer is never a 5xx but 503 (the
database or an engine being away is the one server-side refusal), and a 4xx is the
catalogue's JSON error.  On SQLite and PostgreSQL (whose driver refuses what SQLite takes).

The suite's run is a few inputs per route, the same every time; the long campaign draws new
ones: ``RANDOMCHESS_FUZZ_EXAMPLES=N pytest tests/test_fuzz_openapi.py -s`` (N per route), which
prints the inputs tried and the answers by status.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from randomchess.server import create_app
from randomchess.server.accounts.deps import CSRF_COOKIE, SESSION_COOKIE
from server_support import database, new_game
from test_accounts import user

EXAMPLES = int(os.environ.get("RANDOMCHESS_FUZZ_EXAMPLES", "12"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize="RANDOMCHESS_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])
SETTINGS: dict[str, Any] = {
    "static_dir": None, "engine_movetime_ms": 20, "create_burst": 100_000,
    "create_per_minute": 1e9, "login_per_minute": 100_000,
    "account_attempts_per_15min": 100_000, "signup_per_hour": 100_000}


def _document() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(db_url=f"sqlite:///{Path(tmp) / 'schema.sqlite3'}", **SETTINGS)
        doc: dict[str, Any] = app.openapi()
    return doc


DOCUMENT = _document()
ROUTES = [(path, method) for path, ops in DOCUMENT["paths"].items() for method in ops]
# These end or change the session the other routes use: sent without it.
SESSION_ENDING = {"/api/account/logout", "/api/account/logout-everywhere",
                  "/api/account/password", "/api/account/delete"}
# Engine work: a valid depth or movetime is kept small (their validation is fuzzed all the
# same), so that the suite's run stays short.
ENGINE_ROUTES = {"/api/analysis", "/api/games/{game_id}/review"}
STATS: dict[str, Counter[int]] = {}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with one of everything to aim at: games, an account with a session, a seek,
    a tournament with a paired round and its organiser secret."""
    tmp: Path = tmp_path_factory.mktemp("fuzz-openapi")
    STATS.clear()
    with database(request.param, tmp) as url:
        app = create_app(db_url=url, **SETTINGS)
        with TestClient(app, raise_server_exceptions=False) as c:
            friend = new_game(c, variant="chess960", opponent="friend",
                              clock={"minutes": 5, "increment": 2})
            hotseat = new_game(c, variant="chess", setup="random")
            alice, bob = user(c, "alice"), user(c, "bob")
            r = bob.post("/api/lobby/seeks", json={"variant": "chess960",
                                                   "clock": {"minutes": 3, "increment": 2}})
            assert r.status_code == 201, r.text
            seek = r.json()["id"]
            r = c.post("/api/tournaments", json={"name": "Fuzz Open", "rounds": 2,
                                                 "time_control": "180+2"})
            assert r.status_code == 201, r.text
            event, secret = r.json()["id"], r.json()["organiser_secret"]
            for name in ("Ann", "Ben", "Cy"):
                c.post(f"/api/tournaments/{event}/players", json={"name": name},
                       headers={"X-Organiser-Secret": secret})
            for step in ("start", "pair"):
                c.post(f"/api/tournaments/{event}/{step}",
                       headers={"X-Organiser-Secret": secret})
            yield {
                "c": c, "db": request.param,
                "session": {SESSION_COOKIE: alice.jar[SESSION_COOKIE],
                            CSRF_COOKIE: alice.jar[CSRF_COOKIE]},
                "values": {
                    "game_id": [friend["id"], hotseat["id"]],
                    "token": [friend["seat"]["token"], hotseat["seat"]["token"]],
                    "invite": [friend["invite_url"].rsplit("/", 1)[-1]],
                    "event_id": [event], "x-organiser-secret": [secret], "sid": [seek],
                    "name": ["bob", "alice"], "variant": ["chess960", "mrc", "chess"],
                    "number": [1, 518], "rnd": [1, 2], "fmt_": ["trf", "pgn", "csv", "html"],
                },
            }
    if os.environ.get("RANDOMCHESS_FUZZ_EXAMPLES"):
        total = sum(sum(s.values()) for s in STATS.values())
        print(f"\nfuzz {request.param}: {len(STATS)} routes, {total} inputs")
        for route, statuses in sorted(STATS.items()):
            print(f"  {route}: {dict(sorted(statuses.items()))}")


# ------------------------------------------------------------------------------ strategies
NASTY_TEXT = st.sampled_from(["", "\x00", "a\x00b", "\ud800", "a\udfffb", "\u202e", "\n",
                              " " * 70, "x" * 300, "²", "-1", "0", "99999999999999999999",
                              "1e9", "null", "%00", "../..", "random", "é"])
NASTY_INT = st.sampled_from([0, 1, -1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63,
                             -(2**63) - 1, 10**20, -(10**20)])
SCALARS = (st.none() | st.booleans() | st.integers() | NASTY_INT
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20)
           | NASTY_TEXT)
ANY_JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                        max_leaves=8)


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = DOCUMENT["components"]["schemas"][name]
    return schema


def from_schema(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values of ``schema``'s shape, at and past its bounds, and now and then anything."""
    schema = _resolve(schema)
    wild = SCALARS if depth > 2 else ANY_JSON
    if "const" in schema:
        return st.just(schema["const"]) | wild
    if "enum" in schema:
        return st.sampled_from(schema["enum"]) | wild
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return st.one_of([from_schema(s, depth) for s in schema[key]])
    kind = schema.get("type")
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength", 40)
        shaped = st.text(min_size=low, max_size=min(high, 60))
        if "pattern" in schema:
            shaped = shaped | st.from_regex(schema["pattern"], fullmatch=True).filter(
                lambda s: low <= len(s) <= high)
        edges = st.sampled_from(["x" * high, "x" * (high + 1), "\x00" * high])
        return shaped | edges | NASTY_TEXT | SCALARS
    if kind == "integer":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        edges = [x for b in (lo, hi) if b is not None for x in (b - 1, b, b + 1)]
        return st.integers(lo, hi) | st.sampled_from(edges or [0]) | NASTY_INT | SCALARS
    if kind == "number":
        return st.floats(schema.get("minimum"), schema.get("maximum")) | st.integers() \
            | NASTY_INT | SCALARS
    if kind == "boolean":
        return st.booleans() | SCALARS
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {}), depth + 1), max_size=4) | wild
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        fields = {k: from_schema(v, depth + 1) for k, v in props.items()}
        shaped_obj = st.fixed_dictionaries(
            {k: s for k, s in fields.items() if k in required},
            optional={k: s for k, s in fields.items() if k not in required})
        return shaped_obj | shaped_obj.map(lambda d: {**d, "extra": 1}) | wild
    return wild


def param_values(param: dict[str, Any], values: dict[str, list[Any]]) -> st.SearchStrategy[Any]:
    real = values.get(param["name"], [])
    shaped = from_schema(param.get("schema", {}))
    if real:
        return st.sampled_from(real) | shaped
    return shaped


HEADER_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value)


def _quoted(value: str) -> str:
    # A lone surrogate travels as the bytes Python's "surrogatepass" gives it (not UTF-8).
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def _small_engine_limits(body: Any) -> Any:
    if isinstance(body, dict):
        for key in ("depth", "movetime"):
            if isinstance(body.get(key), int) and 0 < body[key] <= 10_000:
                body[key] = min(body[key], 3 if key == "depth" else 50)
        if isinstance(body.get("position"), dict):
            _small_engine_limits(body["position"])
    return body


# ------------------------------------------------------------------------------ the test
@pytest.mark.parametrize(("path", "method"), ROUTES, ids=[f"{m.upper()} {p}" for p, m in ROUTES])
@FUZZ
@given(data=st.data())
def test_fuzz_route(world: dict[str, Any], path: str, method: str, data: st.DataObject) -> None:
    c: TestClient = world["c"]
    op = DOCUMENT["paths"][path][method]
    url, query, headers = path, {}, {}
    for param in op.get("parameters", ()):
        where, name = param["in"], param["name"]
        if where == "header":
            if data.draw(st.booleans(), label=f"send {name}"):
                headers[name] = data.draw(st.sampled_from(world["values"].get(name, ["x"]))
                                          | HEADER_TEXT, label=name)
            continue
        if where == "query" and not param.get("required") and \
                not data.draw(st.booleans(), label=f"send {name}"):
            continue
        value = _text(data.draw(param_values(param, world["values"]), label=name))
        if where == "path":
            if value in ("", ".", ".."):
                value = "x"  # another route, or none
            url = url.replace("{" + name + "}", _quoted(value))
        else:
            query[name] = value
    body: Any = None
    send_body = "requestBody" in op and data.draw(st.integers(0, 9), label="body") > 0
    if send_body:
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        body = data.draw(from_schema(schema), label="body")
        if path in ENGINE_ROUTES:
            body = _small_engine_limits(body)
    authed = path not in SESSION_ENDING and data.draw(st.booleans(), label="session")
    c.cookies = httpx.Cookies(world["session"] if authed else {})
    if authed:
        headers["X-CSRF-Token"] = world["session"][CSRF_COOKIE]
    content = None
    if send_body:
        # json.dumps keeps lone surrogates as escapes, as a client could send them.
        content = json.dumps(body)
        headers["content-type"] = "application/json"
    try:
        if query:
            url += "?" + "&".join(f"{_quoted(k)}={_quoted(v)}" for k, v in query.items())
        r = c.request(method.upper(), url, content=content, headers=headers)
    finally:
        c.cookies = httpx.Cookies()
    STATS.setdefault(f"{method.upper()} {path}", Counter())[r.status_code] += 1
    assert r.status_code < 500 or r.status_code == 503, (
        method, url, query, body, r.status_code, r.text[:500])
    if r.status_code >= 400:
        error = r.json()
        assert error["code"] and error["detail_en"] and error["detail_es"], error


# Every parameter of every route gets each of these once, the others real (below).
SWEEP = ["a\x00b", "\ud800", "a\x1fb", "99999999999999999999", "-99999999999999999999",
         "9223372036854775808", "2147483648", "-1", "0", "x" * 300, "é"]


def _real(world: dict[str, Any], param: dict[str, Any]) -> str:
    real = world["values"].get(param["name"])
    if real:
        return str(real[0])
    schema = _resolve(param.get("schema", {}))
    default = schema.get("default")
    return "1" if default is None else _text(default).strip('"')


@pytest.mark.parametrize(("path", "method"), ROUTES, ids=[f"{m.upper()} {p}" for p, m in ROUTES])
def test_sweep_every_parameter(world: dict[str, Any], path: str, method: str) -> None:
    """Each path and query parameter, in turn, holds each :data:`SWEEP` value (the others a
    real value): the inputs of issue 28 item 7, on every route the document lists."""
    c: TestClient = world["c"]
    op = DOCUMENT["paths"][path][method]
    params = [p for p in op.get("parameters", ()) if p["in"] in ("path", "query")]
    headers = {"X-CSRF-Token": world["session"][CSRF_COOKIE]}
    for name, v in world["values"].items():
        if name.startswith("x-"):
            headers[name] = str(v[0])
    body = "{}" if "requestBody" in op else None
    for target in params:
        for nasty in SWEEP:
            url, query = path, []
            for param in params:
                value = nasty if param is target else _real(world, param)
                if param["in"] == "path":
                    url = url.replace("{" + param["name"] + "}", _quoted(value))
                else:
                    query.append(f"{_quoted(param['name'])}={_quoted(value)}")
            if query:
                url += "?" + "&".join(query)
            c.cookies = httpx.Cookies(world["session"] if path not in SESSION_ENDING else {})
            try:
                r = c.request(method.upper(), url, content=body,
                              headers={**headers, "content-type": "application/json"})
            finally:
                c.cookies = httpx.Cookies()
            assert r.status_code < 500 or r.status_code == 503, (
                method, url, r.status_code, r.text[:300])


def test_every_route_is_fuzzed() -> None:
    """The list above is the document's: a route added later is fuzzed without a change."""
    assert len(ROUTES) >= 60
    assert ("/api/tournaments/{event_id}", "get") in ROUTES
    assert ("/api/lobby/seeks/{sid}", "delete") in ROUTES
