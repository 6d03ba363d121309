"""Migration 0004_accounts upgrades today's schema with games in it, on SQLite and on the
local PostgreSQL (skipped, loudly, only when PostgreSQL is unreachable), and downgrades."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, select, text

from randomchess.server.accounts import Accounts
from randomchess.server.store import MIGRATIONS, Store
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


def test_upgrade_from_the_current_schema_with_data(db_url: str) -> None:
    store = Store(db_url)
    try:
        _alembic(store, "upgrade", "0001")  # the schema before accounts
        assert not NEW_TABLES & set(inspect(store.engine).get_table_names())
        store.insert(record("old1", status="ended", result="1-0", termination="resignation"))
        store.insert(record("old2"))
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
        new = accounts.sign_up("alice", "a long password")
        accounts.claim("old1", ["white"], new.session.user_id)
        games = accounts.games(new.session.user_id)
        assert [(g["id"], g["result"], g["rated"]) for g in games] == [("old1", "1-0", False)]
        assert accounts.session(new.token) == new.session
        # A rated game between two accounts is rated once, on this database too.
        bob = accounts.sign_up("bob", "another long password").session.user_id
        accounts.set_terms("old2", True, "blitz")
        accounts.claim("old2", ["white"], new.session.user_id)
        accounts.claim("old2", ["black"], bob)
        assert accounts.rate_ended_game("old2", "chess", "1/2-1/2")
        assert not accounts.rate_ended_game("old2", "chess", "1/2-1/2")
        assert [r["games"] for r in accounts.ratings(bob)] == [1]
        # And back down: the account tables go, the games stay.
        _alembic(store, "downgrade", "0001")
        assert not NEW_TABLES & set(inspect(store.engine).get_table_names())
        assert store.load("old2") == record("old2")
        store.migrate()
        with store.engine.connect() as conn:
            assert conn.execute(select(text("count(*)")).select_from(text("users"))
                                ).scalar() == 0
    finally:
        store.close()
