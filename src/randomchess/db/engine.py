"""The database engine and the migrations: every wing's connection to the database is made
here (:func:`make_engine`), and the schema is brought up to date here (:func:`migrate`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_LOCK = 0x72636873  # PostgreSQL advisory lock id while migrating ("rchs")


def now_ms() -> int:
    return int(time.time() * 1000)


def _db_errors() -> tuple[type[Exception], ...]:
    """The errors of a database that is down or unreachable (503 on the server).  Errors
    about the data or the statement (``DataError``, ``IntegrityError`` ...) are bugs."""
    import sqlite3

    from sqlalchemy import exc

    errors: list[type[Exception]] = [
        exc.OperationalError, exc.InterfaceError, exc.DisconnectionError, exc.TimeoutError,
        sqlite3.OperationalError, sqlite3.InterfaceError, OSError]
    try:
        import psycopg
    except ImportError:  # pragma: no cover - a dependency
        pass
    else:
        errors += [psycopg.OperationalError, psycopg.InterfaceError]
    return tuple(errors)


DB_ERRORS = _db_errors()  # what a failing database raises


def make_engine(url: str, timeout_s: float = 5.0) -> Engine:
    """An engine tuned for the server: WAL and full sync for SQLite, a bigger pool for
    PostgreSQL; no database wait longer than ``timeout_s`` (pool checkout, connecting,
    SQLite's busy handler, PostgreSQL's statements and lock waits)."""
    ms = max(1, int(timeout_s * 1000))
    if url.startswith("sqlite"):
        if url.rstrip("/") in {"sqlite:", "sqlite:/", "sqlite://"} or ":memory:" in url:
            raise ValueError("the server needs a SQLite file, not an in-memory database")
        path = url.split("///", 1)[-1].split("?", 1)[0]
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False,
                                                  "timeout": timeout_s},
                               pool_size=8, max_overflow=16, pool_timeout=timeout_s)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before the move is acknowledged, even on power loss
            # (NORMAL would survive kill -9 but not a power cut).
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute(f"PRAGMA busy_timeout={ms}")
            cur.close()

        return engine
    if url.startswith("postgresql"):
        # libpq: connect within the timeout (at least 2 s, libpq's floor), notice a dead
        # peer (keepalives, unacknowledged data), and let the server end statements and
        # lock waits that run long, and transactions left idle.
        connect_args = {
            "connect_timeout": max(2, round(timeout_s)),
            "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
            "keepalives_count": 3, "tcp_user_timeout": max(ms, 10_000),
            "options": f"-c statement_timeout={ms} -c lock_timeout={ms} "
                       f"-c idle_in_transaction_session_timeout={max(ms * 10, 60_000)}",
        }
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True,
                             pool_timeout=timeout_s, connect_args=connect_args)
    return create_engine(url, poolclass=NullPool)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (several workers may race here:
    PostgreSQL serialises them with an advisory lock)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # A migration may take longer than a request's statement timeout, and so may
            # waiting for another worker's migration.
            conn.execute(text("SET LOCAL statement_timeout = '10min'"))
            conn.execute(text("SET LOCAL lock_timeout = '10min'"))
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


