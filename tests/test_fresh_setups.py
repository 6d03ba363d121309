"""The "new random setup per game" seek (issue 18): the game from such a seek, and every
rematch of it, draws a new random setup; the terms (rated, speed) and the accounts' seats
carry over to the rematch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess import startpos
from randomchess.fairdraw import game_setup
from randomchess.server.games import service as service_module
from server_support import client, database, play
from test_accounts import Browser, user, wait_rated

BLITZ = {"minutes": 3, "increment": 2}


@pytest.fixture
def c(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    # The server's draws, made predictable: 100, 200, 300 ... (each a fresh draw).
    drawn: list[int] = []

    def draw(pool: startpos.SetupPool, *args: Any, **kw: Any) -> list[startpos.NumberedSetup]:
        drawn.append(100 * (len(drawn) + 1))
        return [startpos.setup_from_number(pool.variant, drawn[-1])]

    monkeypatch.setattr(service_module, "draw_random", draw)
    with database("sqlite", tmp_path) as url, client(url) as c:
        c.drawn = drawn  # type: ignore[attr-defined]
        yield c


def accept(a: Browser, b: Browser, **seek: Any) -> dict[str, Any]:
    body = {"variant": "chess960", "clock": BLITZ, "rated": True, **seek}
    r = a.post("/api/lobby/seeks", json=body)
    assert r.status_code == 201, r.text
    r = b.post(f"/api/lobby/seeks/{r.json()['id']}/accept")
    assert r.status_code == 200, r.text
    game: dict[str, Any] = r.json()
    seat = a.post(f"/api/account/games/{game['id']}/seat").json()["seat"]
    game["tokens"] = {seat["color"]: seat["token"], game["seat"]["color"]: game["seat"]["token"]}
    return game


def finish(c: TestClient, game_id: str, tokens: dict[str, str]) -> None:
    play(c, {"id": game_id, "seat": {"token": tokens["white"]}}, "a2a3")
    play(c, {"id": game_id, "seat": {"token": tokens["black"]}}, "a7a6")
    r = c.post(f"/api/games/{game_id}/resign", json={"token": tokens["black"]})
    assert r.status_code == 200, r.text


def test_per_game_seek_and_its_rematches_draw_new_setups(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    r = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": BLITZ,
                                         "setup": "new-per-game"})
    assert r.status_code == 201, r.text
    [shown] = Browser(c).get("/api/lobby/seeks").json()["seeks"]
    assert shown["setup"] == "new-per-game"
    assert a.request("DELETE", f"/api/lobby/seeks/{shown['id']}").status_code == 204
    game = accept(a, b, setup="new-per-game")
    first = c.get(f"/api/games/{game['id']}").json()
    # The seek's own game: the setup both players can verify (issue 32, docs/shuffler.md §10),
    # recomputed from its two values; so is each of its rematches.
    draw = c.get(f"/api/games/{game['id']}/setup-draw").json()
    assert draw["committed"] is True
    assert first["number"] == game_setup(bytes.fromhex(draw["server_seed"]),
                                         draw["client_value"] or "", "chess960").number
    terms = c.get(f"/api/games/{game['id']}/ratings").json()
    assert terms["fresh_setup"] is True and terms["rated"] is True
    finish(c, game["id"], game["tokens"])
    wait_rated(c, game["id"])
    seen = {draw["commitment"]}
    old, tokens = game["id"], game["tokens"]
    for _ in range(2):
        # "same" is refused: this game's seek asked for a new setup every game.
        r = c.post(f"/api/games/{old}/rematch", json={"token": tokens["white"], "setup": "same"})
        assert r.status_code == 409 and "new random setup" in r.json()["detail"]
        r = c.post(f"/api/games/{old}/rematch", json={"token": tokens["white"]})
        assert r.status_code == 200, r.text
        new_id = r.json()["id"]
        r2 = c.post(f"/api/games/{old}/rematch-accept", json={"token": tokens["black"]})
        assert r2.status_code == 200, r2.text
        tokens = {r.json()["seat"]["color"]: r.json()["seat"]["token"],
                  r2.json()["seat"]["color"]: r2.json()["seat"]["token"]}
        state = c.get(f"/api/games/{new_id}").json()
        # A new draw both can verify (issue 32): committed before the acceptance, fixed by
        # it (a fresh commitment every game; the number may repeat only by chance).
        draw = c.get(f"/api/games/{new_id}/setup-draw").json()
        assert draw["revealed"] and draw["commitment"] not in seen
        assert state["number"] == draw["number"] == game_setup(
            bytes.fromhex(draw["server_seed"]), "", "chess960").number
        seen.add(draw["commitment"])
        # The terms and the accounts carry over: rated, fresh, both players' game.
        terms = c.get(f"/api/games/{new_id}/ratings").json()
        assert (terms["rated"], terms["speed"], terms["fresh_setup"]) == (True, "blitz", True)
        assert a.get("/api/account/games").json()["games"][0]["id"] == new_id
        assert b.get("/api/account/games").json()["games"][0]["id"] == new_id
        finish(c, new_id, tokens)
        assert {ch["player"] for ch in wait_rated(c, new_id)} == {"alice", "bob"}
        old = new_id
    assert len(seen) == 3


def test_a_random_seek_rematch_may_keep_its_setup(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    game = accept(a, b, setup="random")
    number = c.get(f"/api/games/{game['id']}").json()["number"]
    assert c.get(f"/api/games/{game['id']}/ratings").json()["fresh_setup"] is False
    finish(c, game["id"], game["tokens"])
    r = c.post(f"/api/games/{game['id']}/rematch", json={"token": game["tokens"]["white"]})
    assert r.status_code == 200
    assert c.get(f"/api/games/{r.json()['id']}").json()["number"] == number


def test_per_game_needs_a_random_variant(c: TestClient) -> None:
    a = user(c, "alice")
    r = a.post("/api/lobby/seeks", json={"variant": "chess", "clock": BLITZ,
                                         "setup": "new-per-game"})
    assert r.status_code == 422 and "random" in r.json()["detail"]
