"""With the database down, every wing answers the catalogue's typed 503 (issue 27, part 1).

Measured before the wings shared one door to the database: the game routes answered 503, but
the players, lobby, tournament and setup-statistics routes answered 500 in plain text.  Here
PostgreSQL sits behind a proxy made by the test (the machine's PostgreSQL is shared and never
stopped); the proxy closes every connection and refuses new ones, and one request per wing
must get a JSON 503 naming ``db.down`` or ``db.timeout`` in the request's language, with
``Retry-After``; when the database is back, the same requests are served again.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from fastapi.testclient import TestClient

from server_support import FlakyProxy, client, new_game, pg_database

DB_TIMEOUT_S = 1.5


@pytest.fixture(scope="module")
def setting() -> Iterator[tuple[TestClient, FlakyProxy, dict[str, Any]]]:
    with pg_database() as url:
        parts = urlsplit(url)
        proxy = FlakyProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
        via = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}"))
        try:
            with client(via, db_timeout_s=DB_TIMEOUT_S) as c:
                game = new_game(c)
                c.headers["X-CSRF-Token"] = c.get("/api/account/csrf").json()["csrf"]
                r = c.post("/api/account/signup", json={"name": "ana", "password": "x" * 12})
                assert r.status_code == 201, r.text
                c.headers["X-CSRF-Token"] = r.json()["csrf"]
                r = c.post("/api/tournaments", json={"name": "Club 960", "rounds": 3})
                assert r.status_code == 201, r.text
                yield c, proxy, {"game": game["id"], "event": r.json()["id"]}
        finally:
            proxy.close()


# One request or more per wing: (wing, method, path, body).
REQUESTS: list[tuple[str, str, str, dict[str, Any] | None]] = [
    ("games", "GET", "/api/games/{game}", None),
    ("games", "POST", "/api/games", {"variant": "chess960", "opponent": "hotseat"}),
    ("games", "GET", "/api/games/{game}/pgn", None),
    ("engines", "GET", "/api/games/{game}/review", None),
    ("accounts", "GET", "/api/account/me", None),
    ("accounts", "GET", "/api/players/ana", None),
    ("accounts", "POST", "/api/account/login", {"name": "ana", "password": "x" * 12}),
    ("accounts", "GET", "/api/account/games", None),
    ("accounts", "GET", "/api/games/{game}/ratings", None),
    ("setups", "GET", "/api/setups/chess960/518/stats", None),
    ("lobby", "GET", "/api/lobby/seeks", None),
    ("lobby", "POST", "/api/lobby/seeks", {"variant": "chess960",
                                           "clock": {"minutes": 5, "increment": 3}}),
    ("tournaments", "GET", "/api/tournaments/{event}", None),
    ("tournaments", "GET", "/api/tournaments/{event}/verify", None),
    ("tournaments", "GET", "/api/tournaments/{event}/export.trf", None),
    ("tournaments", "POST", "/api/tournaments", {"name": "Another", "rounds": 3}),
]


def _call(c: TestClient, ids: dict[str, Any], method: str, path: str,
          body: dict[str, Any] | None, lang: str = "en") -> Any:
    # The CSRF header repeats the cookie (a log-in rotates it).
    return c.request(method, path.format(**ids), json=body,
                     headers={"Accept-Language": lang,
                              "X-CSRF-Token": c.cookies.get("rc_csrf") or ""})


@pytest.mark.parametrize("wing,method,path,body", REQUESTS,
                         ids=[f"{w}:{m} {p}" for w, m, p, _ in REQUESTS])
def test_every_wing_answers_a_typed_503_while_the_database_is_down(
        setting: tuple[TestClient, FlakyProxy, dict[str, Any]], wing: str, method: str,
        path: str, body: dict[str, Any] | None) -> None:
    c, proxy, ids = setting
    proxy.up()
    before = _call(c, ids, method, path, body)
    assert before.status_code < 500, before.text  # the request itself is served normally
    proxy.down()
    try:
        r = _call(c, ids, method, path, body, lang="es")
    finally:
        proxy.up()
    assert r.status_code == 503, (wing, r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers.get("retry-after") == "1"
    out = r.json()
    assert out["code"] in {"db.down", "db.timeout"}
    assert out["detail"] == out["detail_es"] != out["detail_en"]
    again = _call(c, ids, method, path, body)
    assert again.status_code < 500, again.text
