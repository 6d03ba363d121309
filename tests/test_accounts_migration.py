"""Migration 0004_accounts upgrades today's schema with games in it, on SQLite and on the
local PostgreSQL (skipped, loudly, only when PostgreSQL is unreachable), and downgrades."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, select, text

from randomchess.db.engine import MIGRATIONS
from randomchess.server.accounts.store import Accounts, hash_password
from randomchess.server.games.store import GameRecord, Store
from server_support import database
from test_server_store import record

NEW_TABLES = {"users", "sessions", "game_seats", "game_terms", "ratings", "rating_changes",
              "seeks"}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


def _head() -> str:
    """The newest revision of the chain (later migrations come after 0004)."""
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None and head >= "0004"
    return head


def _alembic(store: Store, action: str, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        getattr(command, action)(cfg, revision)


def insert_old(store: Store, rec: GameRecord) -> None:
    """Insert a game with the columns the database has now (those of 0001: no
    ``days_per_move`` of 0006, nor the columns later migrations add)."""
    have = {c["name"] for c in inspect(store.engine).get_columns("games")}
    values = {f.name: getattr(rec, f.name) for f in fields(rec) if f.name in have}
    with store.engine.begin() as conn:
        conn.execute(text(f"INSERT INTO games ({', '.join(values)}) "
                          f"VALUES ({', '.join(':' + k for k in values)})"), values)


def test_upgrade_from_the_current_schema_with_data(db_url: str) -> None:
    store = Store(db_url)
    try:
        _alembic(store, "upgrade", "0001")  # the schema before accounts
        assert not NEW_TABLES & set(inspect(store.engine).get_table_names())
        insert_old(store, record("old1", status="ended", result="1-0",
                                 termination="resignation"))
        insert_old(store, record("old2"))
        store.migrate()  # what the server does at start: up to head
        tables = set(inspect(store.engine).get_table_names())
        assert tables >= NEW_TABLES
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() \
                == _head()
        # The games are untouched and work with the new tables.
        assert store.load("old1") == record("old1", status="ended", result="1-0",
                                            termination="resignation")
        accounts = Accounts(store.engine)
        new = accounts.create_user("alice", hash_password("a long password"))
        accounts.claim("old1", ["white"], new.session.user_id)
        games = accounts.games(new.session.user_id)
        assert [(g["id"], g["result"], g["rated"]) for g in games] == [("old1", "1-0", False)]
        assert accounts.session(new.token) == new.session
        # A rated game between two accounts is rated once, on this database too.
        bob = accounts.create_user("bob", hash_password("another long password")).session.user_id
        accounts.set_terms("old2", True, "blitz")
        accounts.claim("old2", ["white"], new.session.user_id)
        accounts.claim("old2", ["black"], bob)
        assert accounts.rate_ended_game("old2", "chess", "1/2-1/2")
        assert not accounts.rate_ended_game("old2", "chess", "1/2-1/2")
        assert [r["games"] for r in accounts.ratings(bob)] == [1]
        # And back down: the account tables go, the games stay.
        _alembic(store, "downgrade", "0001")
        assert not NEW_TABLES & set(inspect(store.engine).get_table_names())
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT id, status FROM games WHERE id = 'old2'")).one() \
                == ("old2", "playing")
        store.migrate()
        assert store.load("old2") == record("old2")
        with store.engine.connect() as conn:
            assert conn.execute(select(text("count(*)")).select_from(text("users"))
                                ).scalar() == 0
    finally:
        store.close()


def test_0006_correspondence_upgrade_with_data(db_url: str) -> None:
    """0005 -> 0006 with games, terms and a seek in the tables: the new columns arrive empty
    (no correspondence, no fresh setups) and the rows are kept; and back down."""
    store = Store(db_url)
    try:
        _alembic(store, "upgrade", "0005")
        insert_old(store, record("old1", status="ended", result="0-1", termination="checkmate"))
        accounts = Accounts(store.engine)
        uid = accounts.create_user("alice", hash_password("a long password")).session.user_id
        with store.engine.begin() as conn:
            conn.execute(text("INSERT INTO game_terms (game_id, rated, speed) "
                              "VALUES ('old1', :t, 'blitz')"), {"t": True})
            conn.execute(text(
                "INSERT INTO seeks (id, user_id, variant, initial_ms, increment_ms, speed, "
                "rated, created_at) VALUES ('s1', :u, 'chess960', 180000, 2000, 'blitz', "
                ":f, 1)"), {"u": uid, "f": False})
        _alembic(store, "upgrade", "0006")
        with store.engine.connect() as conn:
            days, fresh = conn.execute(text("SELECT days, fresh_setup FROM seeks")).one()
            assert days is None and not fresh  # SQLite answers 0, PostgreSQL False
            assert not conn.execute(text("SELECT fresh_setup FROM game_terms")).scalar()
            assert conn.execute(text("SELECT result FROM games WHERE id = 'old1'")).scalar() \
                == "0-1"
        # The game is read back, and a correspondence game round-trips, with today's columns
        # (up to the head first).
        _alembic(store, "upgrade", _head())
        assert store.load("old1") == record("old1", status="ended", result="0-1",
                                            termination="checkmate")
        store.insert(record("corr", days_per_move=3, clock_initial_ms=3 * 86_400_000))
        got = store.load("corr")
        assert got is not None and got.days_per_move == 3
        _alembic(store, "downgrade", "0005")
        with store.engine.connect() as conn:
            cols = {c["name"] for c in inspect(store.engine).get_columns("games")}
            assert "days_per_move" not in cols
            assert conn.execute(text("SELECT count(*) FROM seeks")).scalar() == 1
    finally:
        store.close()
