"""Every path, query and body field is checked at the edge (issue 28 item 7): a NUL byte, a
lone surrogate or an integer past the database column's range gets the catalogue's typed 422
(``request.invalid``) before any driver sees it, on SQLite and PostgreSQL alike; never a 500.
The inputs are the ones the fuzz campaign found (44 on PostgreSQL, 3 on SQLite)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.server import create_app
from server_support import database
from test_accounts import Browser, user

NUL = "a%00b"
HUGE = "99999999999999999999"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest,
      tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    tmp: Path = tmp_path_factory.mktemp("edge")
    with database(request.param, tmp) as url:
        app = create_app(db_url=url, static_dir=None, create_burst=1000,
                         create_per_minute=60_000, login_per_minute=10_000)
        # A 500 is an answer here, not an exception: the test reads its status.
        with TestClient(app, raise_server_exceptions=False) as c:
            yield c


@pytest.fixture(scope="module")
def alice(c: TestClient) -> Browser:
    return user(c, "alice")


@pytest.fixture(scope="module")
def event(c: TestClient) -> tuple[str, dict[str, str]]:
    r = c.post("/api/tournaments", json={"name": "Edge Open", "rounds": 1,
                                         "time_control": "180+2"})
    assert r.status_code == 201, r.text
    return r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}


def refused(r: Any) -> None:
    """The catalogue's typed 422, naming the field."""
    assert r.status_code == 422, (r.status_code, r.text)
    body = r.json()
    assert body["code"] == "request.invalid", body
    assert body["detail_en"] and body["detail_es"]
    assert body["errors"], body


TOURNAMENT_ROUTES = [
    ("GET", ""), ("GET", "/rounds/1/setup.svg"), ("GET", "/export.trf"), ("GET", "/verify"),
    ("POST", "/players"), ("POST", "/players/1/withdraw"), ("POST", "/byes"),
    ("POST", "/start"), ("POST", "/pair"), ("POST", "/results"), ("POST", "/close"),
    ("POST", "/rounds/1/online"),
]
BODIES = {"/players": {"name": "Ann"}, "/byes": {"player": 1, "round": 1},
          "/results": {"round": 1, "board": 1, "result": "1-0"}}


@pytest.mark.parametrize(("method", "tail"), TOURNAMENT_ROUTES)
def test_tournament_ids_with_nul(c: TestClient, method: str, tail: str) -> None:
    r = c.request(method, f"/api/tournaments/{NUL}{tail}", json=BODIES.get(tail),
                  headers={"X-Organiser-Secret": "x"})
    refused(r)


def test_login_name_with_nul_unauthenticated(c: TestClient) -> None:
    b = Browser(c)
    b.csrf()
    refused(b.post("/api/account/login", json={"name": "a\u0000b", "password": "whatever"}))
    # A lone surrogate (JSON allows the escape; UTF-8 cannot hold it).
    refused(b.post("/api/account/login", content='{"name": "a\\ud800b", "password": "x"}',
                   headers={"content-type": "application/json"}))
    refused(b.post("/api/account/login", json={"name": "alice", "password": "a\u0000b"}))
    refused(b.post("/api/account/signup", json={"name": "a\u0000b", "password": "x" * 12}))


def test_player_name_with_nul(c: TestClient) -> None:
    refused(c.get(f"/api/players/{NUL}"))
    assert c.get("/api/players/nobody").status_code == 404  # a real name's format: 404


def test_seek_id_with_nul(c: TestClient, alice: Browser) -> None:
    refused(alice.request("DELETE", f"/api/lobby/seeks/{NUL}"))
    refused(alice.post(f"/api/lobby/seeks/{NUL}/accept"))
    assert alice.request("DELETE", "/api/lobby/seeks/nosuchseek").status_code == 404


def test_challenge_name_with_nul(c: TestClient, alice: Browser) -> None:
    refused(alice.post("/api/lobby/challenges", json={
        "name": "a\u0000b", "clock": {"minutes": 3, "increment": 2}}))


def test_out_of_range_integers(c: TestClient, alice: Browser,
                               event: tuple[str, dict[str, str]]) -> None:
    refused(c.get(f"/api/setups/chess960/{HUGE}/stats"))
    refused(c.get(f"/api/setups/chess960/-{HUGE}/stats"))
    refused(alice.get(f"/api/account/games?number={HUGE}"))
    eid, auth = event
    refused(c.post(f"/api/tournaments/{eid}/players/{HUGE}/withdraw", headers=auth))
    refused(c.post(f"/api/tournaments/{eid}/byes", headers=auth,
                   json={"player": int(HUGE), "round": 1}))
    refused(c.post(f"/api/tournaments/{eid}/results", headers=auth,
                   json={"round": int(HUGE), "board": 1, "result": "1-0"}))
    refused(c.get(f"/api/tournaments/{eid}/rounds/{HUGE}/setup.svg"))
    refused(c.post(f"/api/tournaments/{eid}/rounds/{HUGE}/online", headers=auth))


def test_tournament_clock_past_the_column(c: TestClient) -> None:
    """Sixty nines as the time control: refused when the event is made, not a 500 when its
    round's games are opened with that clock."""
    refused(c.post("/api/tournaments", json={"name": "Nines", "rounds": 1,
                                             "time_control": "9" * 60}))
    refused(c.post("/api/tournaments", json={"name": "Nines", "rounds": 1,
                                             "time_control": "180+" + "9" * 60}))
    r = c.post("/api/tournaments", json={"name": "Long", "rounds": 1,
                                         "time_control": "36000+600"})
    assert r.status_code == 201, r.text


def test_text_fields_with_nul(c: TestClient, event: tuple[str, dict[str, str]]) -> None:
    eid, auth = event
    refused(c.post("/api/tournaments", json={"name": "a\u0000b"}))
    refused(c.post(f"/api/tournaments/{eid}/players", headers=auth,
                   json={"name": "a\u0000b"}))
    refused(c.post(f"/api/tournaments/{eid}/players", headers=auth,
                   json={"name": "Ann", "fide_id": "\u0000"}))
