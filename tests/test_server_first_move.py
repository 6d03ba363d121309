"""A game between people whose side never makes its first move is aborted (issue 28, item 11).

Measured before: a live game whose second player never moved stayed ``playing`` for ever.
As on lichess, a clocked game between people in which a side has not made its first move
``first_move_s`` after its turn began is aborted (no result, like the abort button), by
whichever server process sweeps it; a game whose sides have both moved is never aborted, and
correspondence and computer games are left alone.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from server_support import client, new_game, play


def _state(c: TestClient, gid: str) -> dict[str, Any]:
    out: dict[str, Any] = c.get(f"/api/games/{gid}").json()
    return out


def _until(c: TestClient, gid: str, status: str, timeout_s: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while (s := _state(c, gid))["status"] != status and time.monotonic() < deadline:
        time.sleep(0.1)
    return s


def _friend(c: TestClient, **body: Any) -> tuple[dict[str, Any], str]:
    g = new_game(c, variant="chess960", opponent="friend", color="white", **body)
    invite = g["invite_url"].rsplit("/", 1)[1]
    black = c.post(f"/api/games/{g['id']}/join", json={"invite": invite}).json()
    return g, black["seat"]["token"]


def test_a_side_that_never_moves_gets_its_game_aborted(tmp_path: Path) -> None:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}", first_move_s=2.0, sweep_s=0.2) as c:
        # Made first, so that every sweep that aborts the idle games below had them too.
        both, black2 = _friend(c, clock={"minutes": 3, "increment": 2})
        play(c, both, "e2e4")
        play(c, both, "e7e5", token=black2)
        slow, _ = _friend(c, clock={"days": 2})  # correspondence: days to move
        idle, _ = _friend(c, clock={"minutes": 3, "increment": 2})
        half, _ = _friend(c, clock={"minutes": 3, "increment": 2})
        play(c, half, "e2e4")  # White moved; Black never answers
        for g in (idle, half):
            s = _until(c, g["id"], "ended")
            assert (s["status"], s["result"], s["termination"]) == ("ended", "*", "aborted")
        assert _state(c, both["id"])["status"] == "playing"
        assert _state(c, slow["id"])["status"] == "playing"
