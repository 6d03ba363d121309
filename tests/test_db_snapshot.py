"""Reads that build one answer from several statements see one state of the database: a
step committed between two of their statements (another connection, through the store's
API) is either wholly in the answer or wholly out of it, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine

from randomchess.db import snapshot
from randomchess.tournament import TournamentStore
from randomchess.tournament.knockout_store import KnockoutStore
from server_support import database


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TournamentStore]:
    with database(request.param, tmp_path) as url:
        s = TournamentStore(url)
        s.migrate()
        try:
            yield s
        finally:
            s.dispose()


@contextmanager
def write_after_first_read(engine: Engine, write: Callable[[], object]) -> Iterator[list[int]]:
    """Run ``write`` (a whole committed step, on another connection) right after the next
    ``SELECT`` executed on ``engine``; the list yielded counts the ``SELECT`` statements
    run from then on, ``write``'s own excepted."""
    selects: list[int] = []
    writing = [False]

    def after(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if writing[0] or not statement.lstrip().upper().startswith("SELECT"):
            return
        selects.append(1)
        if len(selects) == 1:
            writing[0] = True
            try:
                write()
            finally:
                writing[0] = False

    event.listen(engine, "after_cursor_execute", after)
    try:
        yield selects
    finally:
        event.remove(engine, "after_cursor_execute", after)


def test_a_knockout_load_is_one_state_when_a_bid_lands_mid_read(
        store: TournamentStore) -> None:
    """The second Armageddon bid writes the Armageddon game in the same step: a torn load
    would show the new bid without the game, or the old version with both."""
    kos = KnockoutStore(store)
    eid = kos.create("Snapshot KO", 2, [], "bid:300").event.id
    store.add_player(eid, "Ann", 2000)
    store.add_player(eid, "Bob", 1900)
    kos.start(eid)
    kos.open_round(eid)
    kos.set_result(eid, 1, 1, 1, "1-0")
    kos.set_result(eid, 1, 1, 2, "1-0")  # colours alternate: 1-1
    kos.set_bid(eid, 1, 1, 1, "4:00")
    before = kos.load(eid)
    assert before.bracket.match(1, 1).status == "bids" and len(before.games) == 2

    with write_after_first_read(store.engine,
                                lambda: kos.set_bid(eid, 1, 1, 2, "3:30")) as selects:
        got = kos.load(eid)
    assert len(selects) > 1  # the write landed between the load's statements
    after = kos.load(eid)
    assert len(after.bids) == 2 and len(after.games) == 3
    assert after.event.version == before.event.version + 1
    # one state: the version read first goes with the rows read after it
    assert (got.event.version, len(got.bids), len(got.games)) == \
        (before.event.version, 1, 2)
    assert got == before


def test_a_tournament_load_is_one_state_when_a_result_lands_mid_read(
        store: TournamentStore) -> None:
    eid = store.create("Snapshot Swiss", rounds=1).event.id
    for name, rating in (("Ann", 2000), ("Bob", 1900)):
        store.add_player(eid, name, rating)
    store.start(eid)
    store.pair(eid)
    before = store.load(eid)
    assert before.board(1, 1).result is None

    with write_after_first_read(store.engine,
                                lambda: store.set_result(eid, 1, 1, "1-0")) as selects:
        got = store.load(eid)
    assert len(selects) > 1
    after = store.load(eid)
    assert after.board(1, 1).result == "1-0" and len(after.log) == len(before.log) + 1
    assert (got.event.version, got.board(1, 1).result, len(got.log)) == \
        (before.event.version, None, len(before.log))
    assert got == before


def test_a_snapshot_holds_no_write_lock(store: TournamentStore) -> None:
    """A step commits while a snapshot is open (and has read), without waiting for it; the
    snapshot keeps seeing the state it started from."""
    eid = store.create("Snapshot lock", rounds=1).event.id
    with snapshot(store.engine) as conn:
        first = conn.execute(text("SELECT version FROM tournaments WHERE id = :i"),
                             {"i": eid}).scalar_one()
        store.add_player(eid, "Ann", 2000)  # would time out behind a write lock
        again = conn.execute(text("SELECT version FROM tournaments WHERE id = :i"),
                             {"i": eid}).scalar_one()
        players = conn.execute(text("SELECT count(*) FROM tournament_players "
                                    "WHERE tournament_id = :i"), {"i": eid}).scalar_one()
    assert first == again == 0 and players == 0
    assert store.load(eid).event.version == 1 and len(store.load(eid).players) == 1


def test_a_snapshot_is_read_only_and_leaves_its_connection_as_it_was(
        store: TournamentStore) -> None:
    """Inside, PostgreSQL runs REPEATABLE READ READ ONLY and SQLite an open transaction;
    the pooled connection goes back to READ COMMITTED, writable, outside any transaction
    (the steps that check it out next write on it)."""
    engine = create_engine(store.engine.url, pool_size=1, max_overflow=0)
    try:
        pg = engine.dialect.name == "postgresql"
        with snapshot(engine) as conn:
            raw = conn.connection.dbapi_connection
            if pg:
                assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == \
                    "repeatable read"
                assert conn.exec_driver_sql("SHOW transaction_read_only").scalar() == "on"
            else:
                assert raw is not None and raw.in_transaction
        with engine.begin() as conn:
            assert conn.connection.dbapi_connection is raw  # the same pooled connection
            if pg:
                assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == \
                    "read committed"
                assert conn.exec_driver_sql("SHOW transaction_read_only").scalar() == "off"
            else:
                assert not raw.in_transaction  # type: ignore[union-attr]
            conn.execute(text("UPDATE tournaments SET version = version + 1"))
    finally:
        engine.dispose()
