"""The durable store and the concurrency guarantee, on SQLite and on the local PostgreSQL
(skipped, loudly, only when PostgreSQL is unreachable)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from randomchess.server.games.store import GameRecord, Store
from server_support import client, database, new_game, play


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with database(request.param, tmp_path_factory.mktemp(request.param)) as url:
        yield url


@pytest.fixture(scope="module")
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    s.migrate()
    s.migrate()  # idempotent: a second start finds the schema current
    yield s
    s.close()


def record(gid: str, **changes: Any) -> GameRecord:
    base = dict(
        id=gid, variant="chess", number=None, start_fen="startfen", fen="startfen", moves="",
        san="", clock_log="", status="playing", result=None, termination=None,
        opponent="hotseat", level=None, computer_color=None, white_token="a" * 64,
        black_token="a" * 64, invite_hash=None, clock_initial_ms=60_000,
        clock_increment_ms=0, white_ms=60_000, black_ms=60_000, clock_started_at=None,
        draw_offer=None, takeback_offer=None, version=0, created_at=1, updated_at=1,
    )
    base.update(changes)
    return GameRecord(**base)  # type: ignore[arg-type]


def test_with_changes_is_the_dataclass_replace() -> None:
    """The copy that skips the frozen dataclass's __init__ (issue 36) makes the same record,
    equal, hashed and printed alike, the original untouched; unknown columns are refused."""
    before = record("g0")
    changes: Any = {"moves": "e2e4", "fen": "f1", "version": 1, "result": "1-0"}
    after = before.with_changes(changes)
    assert after == dataclasses.replace(before, **changes) and type(after) is GameRecord
    assert hash(after) == hash(dataclasses.replace(before, **changes))
    assert repr(after) == repr(dataclasses.replace(before, **changes))
    assert before == record("g0") and after != before
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.moves = "x"  # type: ignore[misc]
    with pytest.raises(TypeError, match="no_such_column"):
        before.with_changes({"no_such_column": 1})  # type: ignore[typeddict-unknown-key]


def test_insert_load_update_versions(store: Store) -> None:
    store.insert(record("g1"))
    got = store.load("g1")
    assert got == record("g1")
    assert store.load("missing") is None
    assert store.update("g1", 0, {"moves": "e2e4", "fen": "f1"})
    assert not store.update("g1", 0, {"moves": "d2d4", "fen": "f2"})  # stale version loses
    got = store.load("g1")
    assert got is not None and (got.moves, got.fen, got.version) == ("e2e4", "f1", 1)


def test_concurrent_updates_one_winner(store: Store) -> None:
    store.insert(record("race"))
    results: list[bool] = []
    barrier = threading.Barrier(8)

    def attempt(i: int) -> None:
        barrier.wait()
        results.append(store.update("race", 0, {"moves": f"m{i}"}))

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1
    got = store.load("race")
    assert got is not None and got.version == 1


def test_unfinished_and_heartbeat_resume(store: Store) -> None:
    store.insert(record("run", clock_started_at=10_000))
    store.insert(record("done", status="ended", clock_started_at=None))
    ids = {r.id for r in store.unfinished()}
    assert "run" in ids and "done" not in ids
    store.heartbeat(12_000)
    assert store.last_heartbeat() == 12_000
    # Down from 12 s to 100 s: 2 s are charged, the 88 s outage is not.
    assert store.resume_clocks(100_000, grace_ms=3000) >= 1
    got = store.load("run")
    assert got is not None and got.clock_started_at == 98_000
    assert store.last_heartbeat() == 100_000
    # A quick restart (within the grace) shifts nothing.
    assert store.resume_clocks(101_000, grace_ms=3000) == 0


def test_api_concurrency_on_this_database(db_url: str, tmp_path: Path) -> None:
    """Two clients send moves at once to the same game: exactly one is played."""
    with client(db_url) as c:
        for _ in range(4):
            g = new_game(c, variant="chess960", setup=518)
            codes: list[int] = []
            barrier = threading.Barrier(2)

            def send(move: str, g: dict[str, Any] = g, codes: list[int] = codes,
                     barrier: threading.Barrier = barrier) -> None:
                barrier.wait()
                codes.append(c.post(f"/api/games/{g['id']}/moves", json={
                    "move": move, "token": g["seat"]["token"]}).status_code)

            threads = [threading.Thread(target=send, args=(m,)) for m in ("e2e4", "g1f3")]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(codes) == [200, 409]
        g = new_game(c, variant="mrc", setup=8226)
        s = play(c, g, "e2e4", "e8e6")
        assert s["moves"] == ["e2e4", "e8e6"]
        assert c.get("/api/health").json()["database"] in ("sqlite", "postgresql")
