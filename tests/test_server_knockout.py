"""Knock-out API (issue 34): a 4-player bracket through the organiser's routes, each guarded
by the organiser secret; bids refused in both languages and nothing recorded; the public
bracket, the PGN and the HTML bracket; verification after the close."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.pgn import read_games
from server_support import client


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("knockout") / "games.sqlite3"
    with client(f"sqlite:///{db}") as cl:
        yield cl


def _new(c: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    body.setdefault("name", "Web KO")
    body.setdefault("armageddon", "bid:300")
    r = c.post("/api/tournaments/knockout", json=body)
    assert r.status_code == 201, r.text
    out = r.json()
    return out["id"], {"X-Organiser-Secret": out["organiser_secret"]}


def _game(c: TestClient, eid: str, auth: dict[str, str], rnd: int, match: int, game: int,
          result: str) -> dict[str, Any]:
    r = c.post(f"/api/tournaments/{eid}/games", headers=auth,
               json={"round": rnd, "match": match, "game": game, "result": result})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_knockout_through_the_api(c: TestClient) -> None:
    eid, auth = _new(c, time_control="900+10", tiebreaks=["2:600+5"])
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        r = c.post(f"/api/tournaments/{eid}/players", json={"name": name, "rating": 2500 - i},
                   headers=auth)
        assert r.status_code == 201, r.text
    assert c.post(f"/api/tournaments/{eid}/start", headers=auth).status_code == 200
    assert c.post(f"/api/tournaments/{eid}/pair", headers={}).status_code == 403
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    b = c.get(f"/api/tournaments/{eid}/bracket").json()
    first = b["rounds"][0]["matches"]
    assert [(m["top"], m["bottom"], m["status"]) for m in first] == [
        (1, None, "bye"), (2, 3, "playing")]
    assert b["rounds"][1]["matches"][0]["top"] == 1 and not b["rounds"][1]["open"]
    g1 = first[1]["games"][0]
    assert (g1["label"], g1["white"], g1["black"], g1["time_control"]) == \
        ("1.1", 2, 3, "900+10") and g1["setup"] is not None
    # organiser rights on every knock-out step
    for path, body in (("games", {"round": 1, "match": 2, "game": 1, "result": "1-0"}),
                       ("bids", {"round": 1, "match": 2, "player": 2, "bid": 100})):
        for headers in ({}, {"X-Organiser-Secret": "wrong"}):
            assert c.post(f"/api/tournaments/{eid}/{path}", json=body,
                          headers=headers).status_code == 403
    for result in ("1-0", "1-0", "1/2", "1/2"):  # level after the match and the tie-break
        m = _game(c, eid, auth, 1, 2, len([x for x in _match(c, eid, 1, 2)["games"]
                                           if x["result"]]) + 1, result)
    assert m["status"] == "bids" and m["next_game"] == 5
    r = c.post(f"/api/tournaments/{eid}/pair", headers=auth)
    assert r.status_code == 409 and "undecided" in r.json()["detail"]
    _check_bad_bids(c, eid, auth)
    r = c.post(f"/api/tournaments/{eid}/bids", headers=auth,
               json={"round": 1, "match": 2, "player": 3, "bid": "2:30"})
    assert r.status_code == 201 and r.json()["seconds"] == 150
    seen = _match(c, eid, 1, 2)
    assert seen["bids"] == [] and seen["bids_in"] == [3]  # a lone bid stays sealed
    r = c.post(f"/api/tournaments/{eid}/bids", headers=auth,
               json={"round": 1, "match": 2, "player": 2, "bid": 200})
    assert r.status_code == 201
    m = _match(c, eid, 1, 2)
    arm = m["games"][-1]
    assert (arm["white"], arm["black"], arm["time_control"], arm["black_time_control"]) == \
        (2, 3, "300", "150")
    m = _game(c, eid, auth, 1, 2, 5, "1/2")  # Black's draw wins the match
    assert m["winner"] == 3
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    _game(c, eid, auth, 2, 1, 1, "1-0")
    m = _game(c, eid, auth, 2, 1, 2, "0-1")
    assert m["winner"] == 1 and c.get(f"/api/tournaments/{eid}/bracket").json()["champion"] == 1
    _check_exports(c, eid, auth)


def _match(c: TestClient, eid: str, rnd: int, match: int) -> dict[str, Any]:
    out: dict[str, Any] = \
        c.get(f"/api/tournaments/{eid}/bracket").json()["rounds"][rnd - 1]["matches"][match - 1]
    return out


def _check_bad_bids(c: TestClient, eid: str, auth: dict[str, str]) -> None:
    for bid, en, es in [(-5, "cannot be negative", "no puede ser negativa"),
                        ("301", "over the base time", "supera el tiempo base"),
                        ("abc", "is a number of seconds", "es un número de segundos"),
                        (2.5, "whole seconds", "segundos enteros")]:
        r = c.post(f"/api/tournaments/{eid}/bids?lang=es", headers=auth,
                   json={"round": 1, "match": 2, "player": 2, "bid": bid})
        assert r.status_code == 422, r.text
        body = r.json()
        assert en in body["detail_en"] and es in body["detail_es"], body
    r = c.post(f"/api/tournaments/{eid}/bids", headers=auth,
               json={"round": 1, "match": 2, "player": 1, "bid": 100})
    assert r.status_code == 409 and "does not play" in r.json()["detail"]
    assert _match(c, eid, 1, 2)["bids_in"] == []


def _check_exports(c: TestClient, eid: str, auth: dict[str, str]) -> None:
    r = c.post(f"/api/tournaments/{eid}/close", headers=auth)
    assert r.status_code == 200 and r.json()["salt"]
    v = c.get(f"/api/tournaments/{eid}/verify").json()
    assert v["verified"] and len(v["rounds"][0]) == 5
    games = list(read_games(io.StringIO(c.get(f"/api/tournaments/{eid}/export.pgn").text)))
    assert [g.headers["Round"] for g in games] == ["1.1", "1.2", "1.3", "1.4", "1.5", "2.1",
                                                   "2.2"]
    assert games[4].headers["BlackClock"] == "150" and games[4].headers["WhiteBid"] == "200"
    page = c.get(f"/api/tournaments/{eid}/export.html?lang=es").text
    assert "Campeón: <strong>Ann</strong>" in page
    trf = c.get(f"/api/tournaments/{eid}/export.trf")
    assert trf.status_code == 200 and "XXR 7\n" in trf.text  # round 1: 5 slots, the final 2
    assert c.get(f"/api/tournaments/{eid}/export.csv").status_code == 404
    # The bulletin (issue 34): the bracket and every game with a board to step through.
    r = c.get(f"/api/tournaments/{eid}/export.bulletin?lang=es")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), r.text
    text = r.text
    assert "Boletín" in text and "Campeón: <strong>Ann</strong>" in text
    assert text.count('<section class="game"') == 7 and 'id="g-1.5-2"' in text
    assert "Semifinales" in text and "Posición" in text
    assert not re.search(r"(?i)(https?:|//[a-z0-9]|\bsrc=|\bhref=\"(?!#))", text)  # self-contained
    r = c.post(f"/api/tournaments/{eid}/games", headers=auth,
               json={"round": 2, "match": 1, "game": 3, "result": "1-0"})
    assert r.status_code == 409


def test_bad_formats_are_refused(c: TestClient, tmp_path: Path) -> None:
    r = c.post("/api/tournaments/knockout", json={"name": "x", "armageddon": "sudden"})
    assert r.status_code == 422 and "fixed:WHITE,BLACK" in r.json()["detail_en"]
    r = c.post("/api/tournaments/knockout", json={"name": "x", "armageddon": "bid:300",
                                                  "tiebreaks": ["two"]})
    assert r.status_code == 422 and "PARTIDAS:RITMO" in r.json()["detail_es"]
    r = c.post("/api/tournaments/knockout", json={"name": "x", "armageddon": "bid:300",
                                                  "games": 0})
    assert r.status_code == 422
    eid, auth = _new(c, name="Swiss steps")
    r = c.post(f"/api/tournaments/{eid}/results", headers=auth,
               json={"round": 1, "board": 1, "result": "1-0"})
    assert r.status_code == 409
