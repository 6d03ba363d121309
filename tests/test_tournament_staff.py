"""Events belong to accounts (issue 30): the signed-in creator is the organiser, who adds
co-arbiters by account name; the rights follow the account to any browser (the session
cookie and its CSRF token) or the organiser secret; nobody else can pair, enter, correct or
close; the public list of events and the account's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client, database
from test_accounts import Browser, user


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with database("sqlite", tmp_path) as url, client(url) as c:
        yield c


@pytest.fixture(params=["sqlite", "postgresql"])
def cdb(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The list's joins and correlated counts, on both databases."""
    with database(request.param, tmp_path) as url, client(url) as c:
        yield c


def _create(b: Browser | TestClient, name: str, **body: Any) -> dict[str, Any]:
    body.setdefault("rounds", 1)
    r = b.post("/api/tournaments", json={"name": name, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _steps(eid: str) -> list[tuple[str, dict[str, Any] | None]]:
    return [(f"/api/tournaments/{eid}/players", {"name": "Zed"}),
            (f"/api/tournaments/{eid}/start", None),
            (f"/api/tournaments/{eid}/pair", None),
            (f"/api/tournaments/{eid}/results", {"round": 1, "board": 1, "result": "1-0"}),
            (f"/api/tournaments/{eid}/results",
             {"round": 1, "board": 1, "result": "0-1", "reason": "wrong board"}),
            (f"/api/tournaments/{eid}/close", None)]


def _two_players(b: Browser, eid: str) -> None:
    for name in ("Ann", "Bob"):
        r = b.post(f"/api/tournaments/{eid}/players", json={"name": name})
        assert r.status_code == 201, r.text


def test_the_signed_in_creator_organises_from_any_browser(c: TestClient) -> None:
    ana = user(c, "ana")
    out = _create(ana, "Ana's Open")
    assert out["organiser"] == "ana"
    eid = out["id"]
    # A second browser, signed in as the same account: every step, no secret.
    laptop = Browser(c)
    assert laptop.log_in("ana").status_code == 200
    staff = laptop.get(f"/api/tournaments/{eid}/staff").json()
    assert staff == {"organiser": "ana", "arbiters": [], "you": "organiser"}
    _two_players(laptop, eid)
    for path, body in _steps(eid)[1:]:
        r = laptop.post(path, json=body)
        assert r.status_code == 200, (path, r.text)
    assert c.get(f"/api/tournaments/{eid}").json()["status"] == "closed"


def test_anonymous_creation_has_no_organiser_account_and_runs_on_the_secret(
        c: TestClient) -> None:
    out = _create(c, "Nobody's Cup")
    assert out["organiser"] is None and out["organiser_secret"]
    eid = out["id"]
    assert c.get(f"/api/tournaments/{eid}/staff").json() == {
        "organiser": None, "arbiters": [], "you": None}
    auth = {"X-Organiser-Secret": out["organiser_secret"]}
    assert c.get(f"/api/tournaments/{eid}/staff", headers=auth).json()["you"] == "organiser"
    bea = user(c, "bea")
    r = bea.post(f"/api/tournaments/{eid}/players", json={"name": "Zed"})
    assert r.status_code == 403 and r.json()["code"] == "tournament.organiser_only"
    # The secret adds a co-arbiter, who then runs the event from her account.
    r = c.post(f"/api/tournaments/{eid}/arbiters", json={"name": "BEA"}, headers=auth)
    assert r.status_code == 201, r.text
    assert r.json()["arbiters"] == ["bea"]
    _two_players(bea, eid)


def test_a_co_arbiter_runs_the_steps_but_not_the_staff(c: TestClient) -> None:
    ana, bea, cid = user(c, "ana"), user(c, "bea"), user(c, "cid")
    eid = _create(ana, "Staffed Open")["id"]
    r = ana.post(f"/api/tournaments/{eid}/arbiters", json={"name": "bea"})
    assert r.status_code == 201 and r.json() == {"organiser": "ana", "arbiters": ["bea"],
                                                 "you": "organiser"}
    assert bea.get(f"/api/tournaments/{eid}/staff").json()["you"] == "arbiter"
    r = bea.post(f"/api/tournaments/{eid}/arbiters", json={"name": "cid"})
    assert r.status_code == 403 and r.json()["code"] == "tournament.owner_only"
    assert "coárbitros" in r.json()["detail_es"]
    _two_players(bea, eid)
    for path, body in _steps(eid)[1:]:
        r = bea.post(path, json=body)
        assert r.status_code == 200, (path, r.text)
    assert cid.get(f"/api/tournaments/{eid}/staff").json()["you"] is None


def test_no_one_without_rights_can_pair_enter_correct_or_close(c: TestClient) -> None:
    ana, eve = user(c, "ana"), user(c, "eve")
    out = _create(ana, "Guarded Cup")
    eid = out["id"]
    r = ana.post(f"/api/tournaments/{eid}/arbiters", json={"name": "bea"})
    assert r.status_code == 409 and r.json()["code"] == "tournament.staff"  # no such account
    assert "ninguna cuenta" in r.json()["detail_es"]
    _two_players(ana, eid)
    steps = _steps(eid)
    for i, (path, body) in enumerate(steps):
        before = c.get(f"/api/tournaments/{eid}").json()
        for who, headers in ((eve, {}), (Browser(c), {}),
                             (eve, {"X-Organiser-Secret": "not-the-secret"})):
            r = who.post(path, json=body, headers=headers)
            assert r.status_code == 403, (path, r.text)
            assert r.json()["code"] == "tournament.organiser_only"
        # The organiser's own cookie without its CSRF token is refused too.
        r = ana.post(path, json=body, csrf=False)
        assert r.status_code == 403 and r.json()["code"] == "account.csrf", path
        assert c.get(f"/api/tournaments/{eid}").json() == before
        if i < len(steps) - 1:
            r = ana.post(path, json=body)
            assert r.status_code in (200, 201), (path, r.text)
    assert ana.post(steps[-1][0]).status_code == 200


def test_arbiters_are_added_once_and_removed(c: TestClient) -> None:
    ana, _bea = user(c, "ana"), user(c, "bea")
    eid = _create(ana, "Twice Cup")["id"]
    assert ana.post(f"/api/tournaments/{eid}/arbiters", json={"name": "bea"}).status_code == 201
    r = ana.post(f"/api/tournaments/{eid}/arbiters", json={"name": "bea"})
    assert r.status_code == 409 and "already" in r.json()["detail"]
    r = ana.post(f"/api/tournaments/{eid}/arbiters", json={"name": "ana"})
    assert r.status_code == 409 and "organiser" in r.json()["detail"]
    r = ana.request("DELETE", f"/api/tournaments/{eid}/arbiters/bea")
    assert r.status_code == 200 and r.json()["arbiters"] == []
    r = ana.request("DELETE", f"/api/tournaments/{eid}/arbiters/bea")
    assert r.status_code == 409
    assert c.get("/api/tournaments/nope/staff").status_code == 404


def test_the_list_of_events_and_my_events(cdb: TestClient) -> None:
    c = cdb
    ana, bea = user(c, "ana"), user(c, "bea")
    first = _create(ana, "First Open")["id"]
    second = _create(ana, "Second Open", system="rr", rounds=None)["id"]
    third = _create(c, "Anonymous Open")
    assert ana.post(f"/api/tournaments/{third['id']}/arbiters", json={"name": "bea"},
                    headers={"X-Organiser-Secret": third["organiser_secret"]}
                    ).status_code == 201
    _two_players(ana, first)
    assert ana.post(f"/api/tournaments/{first}/start").status_code == 200
    assert ana.post(f"/api/tournaments/{first}/pair").status_code == 200
    listed = c.get("/api/tournaments").json()
    assert [e["id"] for e in listed["upcoming"]] == [third["id"], second]
    assert [e["id"] for e in listed["running"]] == [first] and listed["finished"] == []
    running = listed["running"][0]
    assert running["players"] == 2 and running["paired_rounds"] == 1
    assert running["organiser"] == "ana" and "role" not in running
    assert listed["upcoming"][0]["organiser"] is None
    mine = ana.get("/api/account/events").json()["events"]
    assert [(e["id"], e["role"]) for e in mine] == [(second, "organiser"),
                                                    (first, "organiser")]
    assert [(e["id"], e["role"]) for e in bea.get("/api/account/events").json()["events"]] \
        == [(third["id"], "arbiter")]
    r = c.get("/api/account/events")
    assert r.status_code == 401


def test_an_online_game_names_its_event_and_players(c: TestClient) -> None:
    ana = user(c, "ana")
    eid = _create(ana, "Named Open", time_control="300+2")["id"]
    _two_players(ana, eid)
    ana.post(f"/api/tournaments/{eid}/start")
    board = ana.post(f"/api/tournaments/{eid}/pair").json()["round_list"][0]["boards"][0]
    games = ana.post(f"/api/tournaments/{eid}/rounds/1/online").json()["games"]
    r = c.get(f"/api/games/{games[0]['game_id']}/event")
    assert r.status_code == 200, r.text
    names = {1: "Ann", 2: "Bob"}
    assert r.json()["board"] == {"event_id": eid, "event": "Named Open", "round": 1, "board": 1,
                                 "game": None,  # a knock-out match's game number
                                 "white": names[board["white"]], "black": names[board["black"]]}
    game = c.post("/api/games", json={"variant": "chess", "opponent": "hotseat"}).json()
    r = c.get(f"/api/games/{game['id']}/event")  # every game page asks: no 404 to log
    assert r.status_code == 200 and r.json() == {"board": None}
    assert c.get("/api/games/not-a-game-id!/event").status_code == 404


def test_a_signed_in_knockout_creator_runs_it_from_another_browser(c: TestClient) -> None:
    """A knock-out made while signed in belongs to the account (issue 30 with issue 34): a
    second browser of the account sees it as its organiser and runs its steps; a co-arbiter
    added by name may too, someone else may not."""
    ana, eve = user(c, "ana"), user(c, "eve")
    r = ana.post("/api/tournaments/knockout", json={"name": "Ana's KO", "games": 2,
                                                    "armageddon": "bid:300"})
    assert r.status_code == 201, r.text
    assert r.json()["organiser"] == "ana"
    eid = r.json()["id"]
    laptop = Browser(c)
    assert laptop.log_in("ana").status_code == 200
    assert laptop.get(f"/api/tournaments/{eid}/staff").json()["you"] == "organiser"
    for i, name in enumerate(("A", "B", "C", "D")):
        r = laptop.post(f"/api/tournaments/{eid}/players", json={"name": name,
                                                                 "rating": 2000 - i})
        assert r.status_code == 201, r.text
    assert laptop.post(f"/api/tournaments/{eid}/start").status_code == 200
    assert laptop.post(f"/api/tournaments/{eid}/pair").status_code == 200
    r = eve.post(f"/api/tournaments/{eid}/games", json={"round": 1, "match": 1, "game": 1,
                                                       "result": "1-0"})
    assert r.status_code == 403
    r = laptop.post(f"/api/tournaments/{eid}/games", json={"round": 1, "match": 1, "game": 1,
                                                          "result": "1-0"})
    assert r.status_code == 200, r.text
