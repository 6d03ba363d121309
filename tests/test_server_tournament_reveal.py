"""The hall reveal over HTTP (issue 30): ``POST /api/tournaments/{id}/rounds/{r}/reveal``
needs the organiser secret; an empty, malformed or repeated input is refused with its reason
in English and Spanish and changes nothing; online games wait for the reveal and the
preparation window; exclusions and the shortlist are part of the event."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("reveal") / "games.sqlite3"
    with client(f"sqlite:///{db}") as cl:
        yield cl


def _paired_hall_event(c: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    body = {"name": "Hall Web Open", "rounds": 1, "setup_source": "hall",
            "time_control": "300+2", **body}
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dan"]):
        r = c.post(f"/api/tournaments/{eid}/players", json={"name": name, "rating": 2000 - i},
                   headers=auth)
        assert r.status_code == 201, r.text
    assert c.post(f"/api/tournaments/{eid}/start", headers=auth).status_code == 200
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    return eid, auth


def test_only_the_organiser_reveals(c: TestClient) -> None:
    eid, auth = _paired_hall_event(c, name="Rights Open")
    for headers in ({}, {"X-Organiser-Secret": "wrong"}):
        r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal", json={"input": "123456"},
                   headers=headers)
        assert r.status_code == 403
        assert r.json()["code"] == "tournament.organiser_only"
    event = c.get(f"/api/tournaments/{eid}").json()
    assert event["round_list"][0]["awaits_reveal"] is True
    assert event["round_list"][0]["reveal"] is None
    assert all(b["fen"] == "" for b in event["round_list"][0]["boards"])
    r = c.get(f"/api/tournaments/{eid}/rounds/1/setup.svg")
    assert r.status_code == 404 and r.json()["code"] == "tournament.not_revealed"
    r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal", json={"input": "12 34 56"},
               headers=auth)
    assert r.status_code == 200, r.text
    rnd = r.json()["round_list"][0]
    assert rnd["awaits_reveal"] is False and rnd["reveal"]["input"] == "123456"
    assert len(rnd["reveal"]["key"]) == 64 and rnd["reveal"]["window_ends"] is None
    assert len({b["setup"] for b in rnd["boards"]}) == 1 and rnd["boards"][0]["fen"]
    assert c.get(f"/api/tournaments/{eid}/rounds/1/setup.svg").status_code == 200
    trf = c.get(f"/api/tournaments/{eid}/export.trf").text
    assert "### randomchess-reveal round=1 " in trf and "input=123456" in trf


@pytest.mark.parametrize(("digits", "status", "en", "es"), [
    ("", 422, "empty", "vacía"),
    ("12x456", 422, "only the digits 0-9", "solo puede tener las cifras"),
    ("12345", 422, "at least 6", "al menos 6"),
])
def test_bad_inputs_are_refused_in_both_languages_and_change_nothing(
        c: TestClient, digits: str, status: int, en: str, es: str) -> None:
    eid, auth = _paired_hall_event(c, name=f"Bad {digits or 'empty'}")
    before = c.get(f"/api/tournaments/{eid}").json()
    r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal", json={"input": digits},
               headers=auth)
    assert r.status_code == status
    body = r.json()
    assert body["code"] == "tournament.reveal"
    assert en in body["detail_en"] and es in body["detail_es"]
    r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal?lang=es", json={"input": digits},
               headers=auth)
    assert es in r.json()["detail"]
    assert c.get(f"/api/tournaments/{eid}").json() == before


def test_a_round_is_revealed_once(c: TestClient) -> None:
    eid, auth = _paired_hall_event(c, name="Once Open")
    url = f"/api/tournaments/{eid}/rounds/1/reveal"
    first = c.post(url, json={"input": "111222"}, headers=auth)
    assert first.status_code == 200
    again = c.post(url, json={"input": "333444"}, headers=auth)
    assert again.status_code == 409
    assert "revealed already" in again.json()["detail_en"]
    assert "ya se reveló" in again.json()["detail_es"]
    after = c.get(f"/api/tournaments/{eid}").json()["round_list"][0]
    assert after["reveal"]["input"] == "111222"
    assert after["boards"] == first.json()["round_list"][0]["boards"]
    r = c.post(f"/api/tournaments/{eid}/rounds/2/reveal", json={"input": "123456"},
               headers=auth)
    assert r.status_code == 409 and "not paired" in r.json()["detail_en"]


def test_online_games_open_after_the_reveal_and_the_preparation_window(c: TestClient) -> None:
    eid, auth = _paired_hall_event(c, name="Prep Open", prep_minutes=10)
    online = f"/api/tournaments/{eid}/rounds/1/online"
    r = c.post(online, headers=auth)
    assert r.status_code == 409 and r.json()["code"] == "tournament.preparation"
    assert "not revealed" in r.json()["detail_en"]
    r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal", json={"input": "654321"},
               headers=auth)
    reveal = r.json()["round_list"][0]["reveal"]
    assert reveal["window_ends"] == reveal["at"] + 10 * 60_000
    r = c.post(online, headers=auth)
    assert r.status_code == 409 and "preparation window" in r.json()["detail_en"]
    assert "ventana de preparación" in r.json()["detail_es"]
    event = c.get(f"/api/tournaments/{eid}").json()
    assert all(b["game_id"] is None for b in event["round_list"][0]["boards"])


def test_exclusions_and_the_shortlist_are_part_of_the_event(c: TestClient) -> None:
    r = c.post("/api/tournaments", json={"name": "List Open", "rounds": 2,
                                         "excluded": "standard, 7", "shortlist": None})
    assert r.status_code == 201, r.text
    event = c.get(f"/api/tournaments/{r.json()['id']}").json()
    assert event["excluded"] == [7, 518, 534] and event["setup_source"] == "salt"
    r = c.post("/api/tournaments", json={"name": "Short Open", "rounds": 2,
                                         "variant": "mrc", "shortlist": "standard 100"})
    event = c.get(f"/api/tournaments/{r.json()['id']}").json()
    assert event["shortlist"] == [100, 8226, 8406]
    for bad in ({"excluded": "518 x"}, {"excluded": "960"}, {"shortlist": "518",
                                                              "excluded": "518"},
                {"prep_minutes": 7}):
        r = c.post("/api/tournaments", json={"name": "Bad List", "rounds": 2, **bad})
        assert r.status_code == 422, (bad, r.text)
