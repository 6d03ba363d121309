"""The server endpoints the play page needs (issue 11): abort and rematch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client, new_game, play


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path_factory.mktemp('play') / 'g.sqlite3'}") as c:
        yield c


def _friends(c: TestClient, **body: Any) -> tuple[dict[str, Any], str, str]:
    g = new_game(c, opponent="friend", color="white", **body)
    r = c.post(f"/api/games/{g['id']}/join", json={"invite": g["invite_url"].rsplit("/", 1)[1]})
    return g, g["seat"]["token"], r.json()["seat"]["token"]


def test_abort_before_both_sides_moved(c: TestClient) -> None:
    g, white, black = _friends(c)
    play(c, g, "e2e4", token=white)
    r = c.post(f"/api/games/{g['id']}/abort", json={"token": "nobody"})
    assert r.status_code == 403
    r = c.post(f"/api/games/{g['id']}/abort", json={"token": black})
    assert r.status_code == 200
    s = r.json()
    assert (s["status"], s["result"], s["termination"]) == ("ended", "*", "aborted")
    assert s["winner"] is None and s["legal_moves"] == []
    assert c.post(f"/api/games/{g['id']}/moves",
                  json={"move": "e7e5", "token": black}).status_code == 409
    assert "[Result \"*\"]" in c.get(f"/api/games/{g['id']}/pgn").text


def test_no_abort_once_both_sides_moved(c: TestClient) -> None:
    g, white, black = _friends(c)
    play(c, g, "e2e4", token=white)
    play(c, g, "e7e5", token=black)
    r = c.post(f"/api/games/{g['id']}/abort", json={"token": white})
    assert r.status_code == 409 and "too late to abort" in r.json()["detail"]


def test_abort_closes_an_unused_invitation(c: TestClient) -> None:
    g = new_game(c, opponent="friend", color="white")
    assert c.post(f"/api/games/{g['id']}/abort", json={"token": g["seat"]["token"]}).json()[
        "invite_open"] is False


@pytest.mark.parametrize("setup", ["same", "new"])
def test_rematch_against_the_computer_reverses_colours(c: TestClient, setup: str) -> None:
    g = new_game(c, variant="chess960", setup=100, opponent="computer", color="white", level=1,
                 clock={"minutes": 3, "increment": 2})
    tok = g["seat"]["token"]
    assert c.post(f"/api/games/{g['id']}/rematch",
                  json={"token": tok}).status_code == 409  # not over yet
    c.post(f"/api/games/{g['id']}/resign", json={"token": tok})
    r = c.post(f"/api/games/{g['id']}/rematch", json={"token": tok, "setup": setup})
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["seat"]["color"] == "black" and "invite_url" not in new
    s = c.get(f"/api/games/{new['id']}").json()
    assert s["players"]["white"] == "computer" and s["level"] == 1
    assert s["clocks"]["initial"] == 180_000 and s["clocks"]["increment"] == 2000
    if setup == "same":
        assert s["number"] == 100
    assert c.post(f"/api/games/{g['id']}/rematch",
                  json={"token": "x", "setup": setup}).status_code == 403


@pytest.mark.parametrize("variant", ["caparandom", "pmrc"])
def test_rematch_with_a_new_setup_in_an_unnumbered_random_variant(c: TestClient,
                                                                  variant: str) -> None:
    """A new setup for a variant whose arrays have no numbers is a fresh server draw (it was
    a 422: "random" knew only Chess960 and MRC)."""
    g = new_game(c, variant=variant, opponent="hotseat")
    tok = g["seat"]["token"]
    c.post(f"/api/games/{g['id']}/resign", json={"token": tok})
    r = c.post(f"/api/games/{g['id']}/rematch", json={"token": tok, "setup": "new"})
    assert r.status_code == 200, r.text
    s = c.get(f"/api/games/{r.json()['id']}").json()
    assert s["variant"] == variant and s["number"] is None and s["moves"] == []


def test_friend_rematch_offer_accept(c: TestClient) -> None:
    g, white, black = _friends(c, variant="mrc", setup=8226)
    gid = g["id"]
    c.post(f"/api/games/{gid}/resign", json={"token": black})
    assert c.get(f"/api/games/{gid}/rematch").json() == {"offer": None}
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.receive_json()  # the current state
        r = c.post(f"/api/games/{gid}/rematch", json={"token": white, "setup": "same"})
        assert r.status_code == 200
        mine = r.json()
        assert mine["seat"]["color"] == "black" and "/invite/" in mine["invite_url"]
        pushed = ws.receive_json()  # its own frame (contract.RematchFrame)
        assert pushed == {"type": "rematch", "offer": {"by": "white", "id": mine["id"]}}
        assert "invite" not in str(pushed)
    assert c.get(f"/api/games/{gid}/rematch").json()["offer"]["id"] == mine["id"]
    assert c.post(f"/api/games/{gid}/rematch",
                  json={"token": white}).status_code == 409  # offered already
    assert c.post(f"/api/games/{gid}/rematch-accept",
                  json={"token": white}).status_code == 409  # not your own
    r = c.post(f"/api/games/{gid}/rematch-accept", json={"token": black})
    assert r.status_code == 200
    theirs = r.json()
    assert theirs["id"] == mine["id"] and theirs["seat"]["color"] == "white"
    s = c.get(f"/api/games/{mine['id']}").json()
    assert s["number"] == 8226 and s["invite_open"] is False and s["status"] == "playing"
    play(c, {"id": mine["id"], "seat": theirs["seat"]}, "e2e4")
    assert c.get(f"/api/games/{gid}/rematch").json() == {"offer": None}


def test_friend_rematch_decline(c: TestClient) -> None:
    g, white, black = _friends(c)
    c.post(f"/api/games/{g['id']}/resign", json={"token": white})
    c.post(f"/api/games/{g['id']}/rematch", json={"token": black, "setup": "new"})
    assert c.post(f"/api/games/{g['id']}/rematch-decline",
                  json={"token": black}).status_code == 409
    assert c.post(f"/api/games/{g['id']}/rematch-decline",
                  json={"token": white}).status_code == 200
    assert c.get(f"/api/games/{g['id']}/rematch").json() == {"offer": None}
