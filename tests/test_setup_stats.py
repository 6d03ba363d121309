"""Per-setup statistics (issue 18) against counts the test keeps itself."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_support import client, database, new_game, play


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with database("sqlite", tmp_path) as url, client(url) as c:
        yield c


def test_setup_statistics_match_independent_counts(c: TestClient) -> None:
    # Setup 518 is the standard array: its first moves are easy to write.
    plan = [(518, ["e2e4"], "resign-black"), (518, ["e2e4", "e7e5"], "resign-white"),
            (518, ["d2d4"], "draw"), (518, ["g1f3"], "resign-black"), (518, ["e2e4"], None),
            (518, [], "resign-white"), (7, ["e2e4"], "resign-black"),
            ("random", ["a2a3"], "draw")]
    kept: list[tuple[int | str, str, str | None]] = []  # setup, first SAN, result
    for setup, moves, end in plan:
        game = new_game(c, variant="chess960", setup=setup)
        state = c.get(f"/api/games/{game['id']}").json()
        for m in moves:
            state = play(c, game, m)
        token = {"token": game["seat"]["token"]}
        if end == "draw":
            c.post(f"/api/games/{game['id']}/draw-offer", json=token)
            state = c.post(f"/api/games/{game['id']}/draw-accept", json=token).json()
        elif end is not None:
            # Hot seat: the side to move resigns; make it the side named.
            if (end == "resign-black") != (len(moves) % 2 == 1):
                state = play(c, game, "h2h3" if len(moves) % 2 == 0 else "h7h6")
            state = c.post(f"/api/games/{game['id']}/resign", json=token).json()
        number = state["number"]
        kept.append((number, state["san"][0] if state["san"] else "", state["result"]
                     if state["status"] == "ended" else None))
    # An aborted game (issue 37) is an ending with no result: not a finished game, not a
    # first move, not among the latest games.
    aborted = new_game(c, variant="chess960", setup=518)
    play(c, aborted, "c2c4")
    r = c.post(f"/api/games/{aborted['id']}/abort", json={"token": aborted["seat"]["token"]})
    assert r.status_code == 200 and r.json()["termination"] == "aborted", r.text
    ended = [k for k in kept if k[0] == 518 and k[2] is not None]
    r = c.get("/api/setups/chess960/518/stats")
    assert r.status_code == 200
    stats = r.json()
    assert stats["games"] == len(ended) == 5
    results = Counter(k[2] for k in ended)
    assert (stats["white_wins"], stats["draws"], stats["black_wins"]) == \
        (results["1-0"], results["1/2-1/2"], results["0-1"])
    score = (results["1-0"] + 0.5 * results["1/2-1/2"]) / len(ended)
    assert stats["white_score"] == pytest.approx(score)
    firsts = Counter(k[1] for k in ended if k[1])
    assert firsts == {"e4": 2, "d4": 1, "Nf3": 1}  # by the plan above
    assert results == {"1-0": 2, "0-1": 2, "1/2-1/2": 1}
    assert {m["san"]: m["games"] for m in stats["first_moves"]} == dict(firsts)
    assert stats["first_moves"][0] == {"san": firsts.most_common(1)[0][0],
                                       "games": firsts.most_common(1)[0][1]}
    assert len(stats["game_ids"]) == 5
    assert aborted["id"] not in stats["game_ids"]
    # "Latest games" (issue 37): each with its result, length and end time, newest first,
    # not bare ids.
    latest = stats["latest"]
    assert [g["id"] for g in latest] == stats["game_ids"][::-1]
    for g in latest:
        state = c.get(f"/api/games/{g['id']}").json()
        assert g["result"] == state["result"] and g["plies"] == len(state["moves"])
        assert g["termination"] == state["termination"]
        assert g["white"] is None and g["black"] is None  # anonymous seats
    ends = [g["ended_at"] for g in latest]
    assert ends == sorted(ends, reverse=True) and ends[-1] > 1_700_000_000_000
    empty = c.get("/api/setups/chess960/959/stats").json()
    assert (empty["games"], empty["white_score"], empty["first_moves"]) == (0, None, [])
    assert c.get("/api/setups/nonsense/1/stats").status_code == 404
