"""Issue 32: the organiser chooses the setup preview's length of an event's online games
(0..600 s; by default the speed's, as before) when creating a Swiss, round-robin or
knock-out event; the event shows it and its online games use it.  Out-of-range lengths are
refused in English and Spanish and create nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.db import make_engine
from randomchess.tournament.errors import TournamentError
from randomchess.tournament.store import TournamentStore
from server_support import client


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("event_preview") / "games.sqlite3"
    # The server's default countdown on, as in production: an event's own length wins.
    with client(f"sqlite:///{db}", preview=True) as cl:
        yield cl


def _event(c: TestClient, path: str = "", **body: Any) -> tuple[str, dict[str, str]]:
    body.setdefault("name", "Preview Open")
    body.setdefault("time_control", "300+2")
    if not path and body.get("system", "swiss") == "swiss":
        body.setdefault("rounds", 1)
    r = c.post(f"/api/tournaments{path}", json=body)
    assert r.status_code == 201, r.text
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dan"]):
        r = c.post(f"/api/tournaments/{eid}/players", json={"name": name,
                                                            "rating": 2000 - i},
                   headers=auth)
        assert r.status_code == 201, r.text
    assert c.post(f"/api/tournaments/{eid}/start", headers=auth).status_code == 200
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    return eid, auth


def _count(listed: dict[str, list[Any]]) -> int:
    """The events of ``GET /api/tournaments`` (upcoming, running and finished)."""
    return sum(len(v) for v in listed.values())


def _preview_of_first_game(c: TestClient, eid: str, auth: dict[str, str]) -> Any:
    """Open round 1 online, let Black join board 1's game: its state's ``preview``."""
    r = c.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth)
    assert r.status_code == 200, r.text
    g = r.json()["games"][0]
    invite = g["black"]["link"].rsplit("/", 1)[1]
    assert c.post(f"/api/games/{g['game_id']}/join",
                  json={"invite": invite}).status_code == 200
    return c.get(f"/api/games/{g['game_id']}").json()["preview"]


@pytest.mark.parametrize("system", ["swiss", "rr"])
def test_a_swiss_or_round_robin_event_s_games_use_its_preview_length(
        c: TestClient, system: str) -> None:
    eid, auth = _event(c, name=f"Preview {system}", system=system, preview=45)
    assert c.get(f"/api/tournaments/{eid}").json()["preview"] == 45
    preview = _preview_of_first_game(c, eid, auth)
    assert preview is not None and preview["length"] == 45_000


def test_no_preview_when_the_organiser_asks_for_none_and_the_speed_s_by_default(
        c: TestClient) -> None:
    eid, auth = _event(c, name="No preview", preview=0)
    assert c.get(f"/api/tournaments/{eid}").json()["preview"] == 0
    assert _preview_of_first_game(c, eid, auth) is None
    eid, auth = _event(c, name="Default preview")  # 5+2 is blitz: 20 s
    assert c.get(f"/api/tournaments/{eid}").json()["preview"] is None
    assert _preview_of_first_game(c, eid, auth)["length"] == 20_000


def test_a_knockout_event_s_games_use_its_preview_length(c: TestClient) -> None:
    eid, auth = _event(c, "/knockout", name="Preview KO", games=2, armageddon="bid:300",
                       preview=90)
    assert c.get(f"/api/tournaments/{eid}").json()["preview"] == 90
    assert _preview_of_first_game(c, eid, auth)["length"] == 90_000


@pytest.mark.parametrize("bad", [-1, 601, "long"])
def test_a_preview_length_out_of_range_is_refused_and_creates_nothing(
        c: TestClient, bad: Any) -> None:
    before = _count(c.get("/api/tournaments").json())
    for path, body in (("", {"rounds": 1}), ("/knockout", {"armageddon": "bid:300"})):
        for lang, word in (("en", "preview"), ("es", "preview")):
            r = c.post(f"/api/tournaments{path}", json={"name": "Bad", "preview": bad, **body},
                       headers={"Accept-Language": lang})
            assert r.status_code == 422, r.text
            assert word in r.text
    assert _count(c.get("/api/tournaments").json()) == before


def test_the_store_refuses_a_preview_out_of_range(tmp_path: Path) -> None:
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path / 't.sqlite3'}"))
    store.migrate()
    for bad in (-1, 601, True):
        with pytest.raises(TournamentError) as e:
            store.create("Bad", rounds=1, preview_s=bad)
        assert "0 to 600" in str(e.value) and "0 a 600" in (e.value.es or "")
    assert store.create("Good", rounds=1, preview_s=600).event.preview_s == 600
