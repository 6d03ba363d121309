"""``GET /api/setups/{variant}/{number}/brief`` (issue 33): the rules core's brief, the
shipped evaluation and this server's statistics in one typed answer; bad input refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from randomchess.analysis.setup_eval import shipped
from randomchess.brief import setup_brief
from randomchess.startpos import setup_from_number
from server_support import client, database, new_game, play


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with database("sqlite", tmp_path) as url, client(url) as c:
        yield c


def test_brief_of_the_orthodox_array(c: TestClient) -> None:
    game = new_game(c, variant="chess960", setup=518)
    play(c, game, "e2e4")
    c.post(f"/api/games/{game['id']}/resign", json={"token": game["seat"]["token"]})
    r = c.get("/api/setups/chess960/518/brief")
    assert r.status_code == 200, r.text
    b = r.json()
    assert b["fen"] == setup_from_number("chess960", 518).fen
    assert b["white"]["king_only_pawns"] == ["f2"] and b["black"]["king_only_pawns"] == ["f7"]
    assert [(p["san"], p["moves"]) for p in b["white"]["castling"]] == [("O-O-O", 4), ("O-O", 3)]
    assert b["stats"]["games"] == 1 and b["stats"]["white_wins"] == 1
    evals = shipped("chess960")
    if evals is None:
        assert b["evaluation"] is None
    else:
        e = evals.items[518]
        assert (b["evaluation"]["cp"], b["evaluation"]["mate"]) == (e.cp, e.mate)
        assert b["evaluation"]["balance_rank"] == evals.balance_rank(518)


def test_brief_of_an_mrc_setup_is_the_core_brief(c: TestClient) -> None:
    r = c.get("/api/setups/mrc/0/brief")
    assert r.status_code == 200, r.text
    b = r.json()
    core = setup_brief(setup_from_number("mrc", 0)).as_dict()
    for side in ("white", "black"):
        assert b[side]["diagonals"][0]["target"] == core[side]["diagonals"][0]["target"]
        assert [p["moves"] for p in b[side]["castling"]] == \
            [p["moves"] for p in core[side]["castling"]]
    assert b["white"]["diagonals"][0]["opened_by"] == ["b2b3", "b2b4"]
    assert b["stats"]["games"] == 0


@pytest.mark.parametrize(("path", "code"), [
    ("/api/setups/chess960/960/brief", "setup.out_of_range"),
    ("/api/setups/mrc/-1/brief", "setup.out_of_range"),
    ("/api/setups/chess/0/brief", "setup.bad_number"),
    ("/api/setups/nosuch/0/brief", "variant.unknown"),
])
def test_bad_setups_are_refused_in_both_languages(c: TestClient, path: str, code: str) -> None:
    r = c.get(path)
    assert r.status_code == 404, r.text
    assert r.json()["code"] == code
    es = c.get(path, headers={"Accept-Language": "es"}).json()
    assert es["code"] == code and es["detail"] == es["detail_es"] != es["detail_en"]
