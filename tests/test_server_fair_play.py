"""No engine help on a live game between people (issue 28, item 9).

Measured before: anyone, without a seat, could have an engine review a friend game **in
progress** (``POST /api/games/{id}/review``), and the game's PGN then carried the evaluations
and best lines for both players, in rated games too.  Now a game between two people is
reviewed, and its review shown, only once it has ended; games against the computer and on
one screen (hot seat) are unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from server_support import client, new_game, play


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fair") / "games.sqlite3"
    with client(f"sqlite:///{db}") as c:
        yield c


def test_a_friend_game_in_progress_gets_no_engine_help(c: TestClient) -> None:
    game = new_game(c, variant="chess", opponent="friend", color="white")
    invite = game["invite_url"].rsplit("/", 1)[1]
    black = c.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
    play(c, game, "e2e4")
    play(c, game, "e7e5", token=black["seat"]["token"])
    gid = game["id"]
    for method, path in [("POST", f"/api/games/{gid}/review"),
                         ("GET", f"/api/games/{gid}/review"),
                         ("GET", f"/api/games/{gid}/review.pgn")]:
        r = c.request(method, path, json={"depth": 2} if method == "POST" else None,
                      headers={"Accept-Language": "es"})
        assert r.status_code == 409, (path, r.text)
        assert r.json()["code"] == "review.game_in_progress"
        assert r.json()["detail"] == r.json()["detail_es"]
    assert "[%eval" not in c.get(f"/api/games/{gid}/pgn").text
    # Once the game has ended, the review is there for both players.
    assert c.post(f"/api/games/{gid}/resign",
                  json={"token": black["seat"]["token"]}).status_code == 200
    r = c.post(f"/api/games/{gid}/review", json={"depth": 2})
    assert r.status_code == 200, r.text
    assert "[%eval" in c.get(f"/api/games/{gid}/pgn").text


def test_a_game_against_the_computer_or_on_one_screen_may_be_reviewed_while_played(
        c: TestClient) -> None:
    game = new_game(c, variant="chess", opponent="hotseat")
    play(c, game, "e2e4", "e7e5")
    assert c.post(f"/api/games/{game['id']}/review", json={"depth": 2}).status_code == 200
