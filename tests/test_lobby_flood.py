"""The lobby under a flood (issue 28, item 10).

Measured before: one account posted 1,000 seeks, all accepted; every lobby frame then carried
the whole lobby (236 KB), one watcher received 118 MB, and listing took 0.6 s with one rating
query per seek.  Now an account has at most ``MAX_SEEKS`` open seeks and challenges (more is
a typed 429 that changes nothing), and the listing reads the ratings in the same query, so
its number of statements does not grow with the number of seeks.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from randomchess.server.accounts.lobby import MAX_SEEKS
from server_support import client
from test_accounts import user
from test_lobby import BLITZ, listed, seek


@pytest.fixture()
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path / 'lobby.sqlite3'}", signup_per_hour=100) as c:
        yield c


def test_an_account_cannot_flood_the_lobby(c: TestClient) -> None:
    a = user(c, "alice")
    ids = [seek(a) for _ in range(MAX_SEEKS)]
    r = a.post("/api/lobby/seeks", json={"variant": "chess960", "clock": BLITZ},
               headers={"Accept-Language": "es"})
    assert r.status_code == 429 and r.json()["code"] == "seek.too_many"
    assert r.json()["detail"] == r.json()["detail_es"]
    assert sorted(listed(a)) == sorted(ids)  # nothing changed
    user(c, "bob")
    r = a.post("/api/lobby/challenges", json={"name": "bob", "variant": "chess960",
                                              "clock": BLITZ})
    assert r.status_code == 429
    # A seek taken back frees a place.
    assert a.request("DELETE", f"/api/lobby/seeks/{ids[0]}").status_code == 204
    seek(a)


def _statements(c: TestClient, fn: Any) -> int:
    engine = c.app.state.players.accounts.engine  # type: ignore[attr-defined]
    count = 0

    def counted(*_: Any) -> None:
        nonlocal count
        count += 1

    event.listen(engine, "before_cursor_execute", counted)
    try:
        fn()
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    return count


def test_listing_reads_the_ratings_in_one_query(c: TestClient) -> None:
    people = [user(c, f"player{i}") for i in range(4)]
    people[0].get("/api/lobby/seeks")  # warm: the session's own statements
    few = _statements(c, lambda: people[0].get("/api/lobby/seeks"))
    for p in people:
        for _ in range(3):
            seek(p)
    many = _statements(c, lambda: people[0].get("/api/lobby/seeks"))
    assert len(listed(people[0])) == 12
    assert many == few, (few, many)
    shown = people[0].get("/api/lobby/seeks").json()["seeks"][0]
    assert shown["rating"] == 1500 and shown["provisional"] is True
