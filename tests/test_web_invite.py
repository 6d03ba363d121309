"""The invite link (issue 11): a plain GET of ``/invite/{id}/{code}`` (curl, a chat app's link
preview) must not take the friend's seat.  HTML clients get the page, which claims the seat only
when the player presses "Join this game" (``POST /api/games/{id}/join``); other clients get a
description of the game without any token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_support import client, new_game


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    tmp = tmp_path_factory.mktemp("invite")
    static = tmp / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>board</title>")
    with client(f"sqlite:///{tmp / 'g.sqlite3'}", static_dir=static) as c:
        yield c


def _path(g: dict[str, object]) -> str:
    return str(g["invite_url"]).removeprefix("http://testserver")


@pytest.mark.parametrize("accept", ["*/*", "application/json", "text/html", ""])
def test_get_of_the_invite_never_claims_the_seat(c: TestClient, accept: str) -> None:
    g = new_game(c, variant="chess960", opponent="friend", color="white")
    path = _path(g)
    for _ in range(3):  # a link preview may fetch it several times
        r = c.get(path, headers={"accept": accept} if accept else {})
        assert r.status_code == 200
        assert "token" not in r.text
    s = c.get(f"/api/games/{g['id']}").json()
    assert s["invite_open"] is True and s["status"] == "waiting"
    # The friend's explicit action still works afterwards.
    r = c.post(f"/api/games/{g['id']}/join", json={"invite": path.rsplit("/", 1)[1]})
    assert r.status_code == 200 and r.json()["seat"]["color"] == "black"


def test_non_html_get_describes_the_game(c: TestClient) -> None:
    g = new_game(c, variant="mrc", opponent="friend", color="black")
    r = c.get(_path(g), headers={"accept": "application/json"})
    body = r.json()
    assert body["id"] == g["id"] and body["variant"] == "mrc"
    assert body["color"] == "white"  # the seat on offer
    assert body["invite_open"] is True
    assert body["join"] == f"/api/games/{g['id']}/join"
    assert "seat" not in body and "token" not in body


def test_bad_and_used_invites(c: TestClient) -> None:
    g = new_game(c, variant="chess", opponent="friend", color="white")
    path = _path(g)
    j = {"accept": "application/json"}
    assert c.get(path[:-2] + "zz", headers=j).status_code == 403
    assert c.get("/invite/nosuchgame/abc", headers=j).status_code == 404
    assert c.post(f"/api/games/{g['id']}/join",
                  json={"invite": path.rsplit("/", 1)[1]}).status_code == 200
    r = c.get(path, headers=j)
    assert r.status_code == 409 and "already been used" in r.json()["detail"]
    # A browser still gets the page, which then says so in the player's language.
    assert "board" in c.get(path, headers={"accept": "text/html"}).text


def test_the_page_is_served_for_html(c: TestClient, tmp_path: Path) -> None:
    g = new_game(c, variant="chess", opponent="friend")
    assert "board" in c.get(_path(g), headers={"accept": "text/html,*/*"}).text
