"""The puzzle routes (issue 33): next puzzle, solving, failing, hints, an illegal move
refused as on the game page, and the Glicko-2 ratings of account and puzzle moving once per
account and puzzle."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from randomchess.db import schema
from randomchess.puzzles.model import Puzzle, shipped_puzzles
from randomchess.server.engines.jobs import puzzles_job
from randomchess.server.puzzles import routes
from randomchess.server.puzzles.store import PuzzleStore
from server_support import client, database, new_game, play
from test_accounts import user

MATE2 = Puzzle(variant="chess960", fen="r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1",
               moves=["e2e8", "a8e8", "e1e8"], themes=["mate", "mateIn2", "short"],
               last_move="a7a8", rating=1400, source="test")
MRC1 = Puzzle(variant="mrc", fen="r7k/6ppp/9/9/9/9/9/4R1PPP/4R3K w - - 0 1",
              moves=["e2e9", "a9e9", "e1e9"], themes=["mate", "mateIn2", "short"],
              rating=1500, source="test")


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, client(url) as c:
        store: PuzzleStore = c.app.state.puzzles  # type: ignore[attr-defined]
        store.add([MATE2, MRC1])
        yield c


def test_the_shipped_set_is_served(c: TestClient) -> None:
    r = c.get("/api/puzzles/next", params={"variant": "chess960"})
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["variant"] == "chess960" and p["my_rating"] is None and p["steps"] >= 1
    shipped = {q.id for q in shipped_puzzles("chess960")} | {MATE2.id}
    assert p["id"] in shipped
    assert "moves" not in p  # the solution stays on the server until the end
    r = c.get("/api/puzzles/next", params={"variant": "mrc", "theme": "mateIn2",
                                             "rating": 1500})
    assert r.status_code == 200 and "mateIn2" in r.json()["themes"]


def test_solve_anonymously(c: TestClient) -> None:
    r = c.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": ["e2e8"]})
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["correct"] and not a["solved"] and not a["finished"]
    assert a["reply"] == "a8e8" and a["reply_san"] == "Rxe8" and a["solution"] is None
    r = c.get(f"/api/puzzles/{MATE2.id}/hint", params={"moves": ["e2e8"]})
    assert r.json() == {"square": "e1"}
    a = c.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": ["e2e8", "e1e8"]}).json()
    assert a["solved"] and a["finished"] and not a["rated"] and a["my_rating"] is None
    assert a["solution"] == MATE2.moves and a["solution_san"] == ["Re8+", "Rxe8", "Rxe8#"]


def test_fail_shows_the_solution(c: TestClient) -> None:
    a = c.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": ["e2e7"]}).json()
    assert not a["correct"] and a["finished"] and a["expected"] == "e2e8"
    assert a["solution"] == MATE2.moves
    a = c.post(f"/api/puzzles/{MRC1.id}/attempt", json={"moves": [], "give_up": True}).json()
    assert a["finished"] and not a["solved"] and a["solution"] == MRC1.moves


@pytest.mark.parametrize(("moves", "code"), [
    (["e2d3"], "move.illegal"),  # a rook does not move so
    (["e2e9"], "move.malformed"),  # no ninth rank on 8x8
    (["zz"], "move.malformed"),
])
def test_an_illegal_move_is_refused_as_in_a_game(c: TestClient, moves: list[str],
                                                 code: str) -> None:
    before = c.get(f"/api/puzzles/{MATE2.id}").json()
    r = c.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": moves},
               headers={"Accept-Language": "es"})
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["code"] == code
    assert moves[0] in body["detail_en"] and "no se puede jugar" in body["detail_es"]
    assert c.get(f"/api/puzzles/{MATE2.id}").json() == before  # nothing changed


def test_bad_requests(c: TestClient) -> None:
    assert c.get("/api/puzzles/next", params={"variant": "chess"}).json()["code"] == \
        "puzzle.unknown_variant"
    assert c.get("/api/puzzles/next", params={"theme": "nope"}).json()["code"] == \
        "puzzle.unknown_theme"
    assert c.get("/api/puzzles/nothere").status_code == 404
    r = c.post(f"/api/puzzles/{MATE2.id}/attempt",
               json={"moves": ["e2e8", "e1e8", "g1f1"]})
    assert r.status_code == 422 and r.json()["code"] == "puzzle.too_many_moves"


def test_ratings_move_once_per_account_and_puzzle(c: TestClient) -> None:
    ann = user(c, "ann")
    bob = user(c, "bob")
    p0 = ann.get(f"/api/puzzles/{MATE2.id}").json()
    assert p0["my_rating"]["rating"] == 1500 and not p0["tried"]
    a = ann.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": ["e2e8", "e1e8"]}).json()
    assert a["solved"] and a["rated"]
    assert a["my_rating"]["rating"] > 1500 and a["rating_diff"] > 0
    assert a["puzzle_rating"] < p0["rating"]
    # a retry is practice: nothing moves
    again = ann.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": ["e2e7"]}).json()
    assert not again["rated"] and again["my_rating"]["rating"] == a["my_rating"]["rating"]
    p1 = ann.get(f"/api/puzzles/{MATE2.id}").json()
    assert p1["tried"] and p1["rating"] == a["puzzle_rating"] and p1["plays"] == 1
    # bob fails: his rating goes down, the puzzle's up
    b = bob.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": ["e2e7"]}).json()
    assert b["rated"] and b["my_rating"]["rating"] < 1500 and b["rating_diff"] < 0
    assert b["puzzle_rating"] > a["puzzle_rating"]
    # ratings are per variant
    assert bob.get(f"/api/puzzles/{MRC1.id}").json()["my_rating"]["rating"] == 1500
    # the next puzzle for ann is one she has not tried
    for _ in range(5):
        n = ann.get("/api/puzzles/next", params={"variant": "chess960"}).json()
        assert n["id"] != MATE2.id


def test_a_signed_in_attempt_needs_the_csrf_token(c: TestClient) -> None:
    ann = user(c, "ann")
    r = ann.post(f"/api/puzzles/{MATE2.id}/attempt", json={"moves": ["e2e8", "e1e8"]},
                 csrf=False)
    assert r.status_code == 403 and r.json()["code"] == "account.csrf"
    assert not ann.get(f"/api/puzzles/{MATE2.id}").json()["tried"]


def test_ended_games_are_mined_on_the_engine_workers(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``puzzles_from_games``, a Chess960 game that ends here goes to a ``puzzles``
    job; the mate the loser allowed becomes a puzzle under the source ``server``."""
    monkeypatch.setattr(routes, "MINE_FROM_PLY", 6)
    with database("sqlite", tmp_path) as url, client(url, puzzles_from_games=True) as c:
        store: PuzzleStore = c.app.state.puzzles  # type: ignore[attr-defined]
        game = new_game(c, variant="chess960", setup=518)
        state = play(c, game, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
        assert state["status"] == "ended"
        deadline = time.monotonic() + 180
        found: list[Puzzle] = []
        while time.monotonic() < deadline and not found:
            with store.engine.connect() as conn:
                rows = conn.execute(select(schema.puzzles).where(
                    schema.puzzles.c.source == "server")).all()
            found = [Puzzle(variant=r.variant, fen=r.fen, moves=r.moves.split(),
                            themes=r.themes.split(), id=r.id) for r in rows]
            time.sleep(0.2)
        assert [p.moves for p in found] == [["h5f7"]]
        assert found[0].fen.startswith("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/")
        assert {"mate", "mateIn1"} <= set(found[0].themes)


def test_the_puzzles_job_refuses_other_variants() -> None:
    out = puzzles_job("chess", 1, 0, None, [])
    assert out["code"] == "input.invalid" and "chess960" in out["error"]
