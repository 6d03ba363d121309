"""Takebacks against the computer give no time and cannot reopen the abort (issue 28,
item 11).

Measured before: a takeback restored the requester's clock to what it showed at that ply, so
thinking, taking back and thinking again gave unlimited time; and a lost game could be taken
back to ply 0 and then aborted.  Now the requester never gets more time than it has left, and
once both sides have moved, a takeback cannot go back into the first two plies.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_support import client, new_game, play


@pytest.fixture()
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}", engine_movetime_ms=50) as c:
        yield c


def _until(c: TestClient, gid: str, ok: Any, timeout_s: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while not ok(s := c.get(f"/api/games/{gid}").json()):
        assert time.monotonic() < deadline, s
        time.sleep(0.02)
    return s


def test_a_takeback_gives_the_requester_no_time(c: TestClient) -> None:
    g = new_game(c, variant="chess", opponent="computer", color="white", level=1,
                 clock={"minutes": 1, "increment": 0})
    gid, tok = g["id"], g["seat"]["token"]
    play(c, g, "e4", token=tok)
    _until(c, gid, lambda s: s["ply"] == 2)
    play(c, g, "d4", token=tok)
    _until(c, gid, lambda s: s["ply"] == 4)
    # White is thinking: its clock runs below what it had at ply 2.
    before = _until(c, gid, lambda s: s["clocks"]["white"] < 60_000)["clocks"]["white"]
    s = c.post(f"/api/games/{gid}/takeback-offer", json={"token": tok}).json()
    assert s["ply"] == 2
    assert s["clocks"]["white"] <= before  # not the 60,000 it showed at ply 2
    assert s["clocks"]["black"] == 60_000


def test_a_takeback_cannot_reopen_the_abort(c: TestClient) -> None:
    g = new_game(c, variant="chess", opponent="computer", color="white", level=1)
    gid, tok = g["id"], g["seat"]["token"]
    play(c, g, "e4", token=tok)
    _until(c, gid, lambda s: s["ply"] == 2)
    r = c.post(f"/api/games/{gid}/takeback-offer", json={"token": tok},
               headers={"Accept-Language": "es"})
    assert r.status_code == 409 and r.json()["code"] == "takeback.too_early"
    assert r.json()["detail"] == r.json()["detail_es"]
    assert c.post(f"/api/games/{gid}/abort", json={"token": tok}).status_code == 409
    assert c.get(f"/api/games/{gid}").json()["ply"] == 2
