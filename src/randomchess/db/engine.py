"""The database engine and the migrations: every wing's connection to the database is made
here (:func:`make_engine`), and the schema is brought up to date here (:func:`migrate`).

Alembic and the PostgreSQL driver are imported only when needed: a database already at the
newest revision costs :func:`migrate` one ``SELECT`` (the command line runs it on every
call), and :data:`DB_ERRORS` is built on first use."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine
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


def __getattr__(name: str) -> tuple[type[Exception], ...]:
    """``DB_ERRORS``, what a failing database raises, built on first use (it imports the
    PostgreSQL driver)."""
    if name == "DB_ERRORS":
        errors = _db_errors()
        globals()["DB_ERRORS"] = errors
        return errors
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_db_url() -> str:
    """The embedded SQLite file in the user's data directory (created on first use): the
    server's default (``randomchess.server.http.settings`` has the same function) and the
    command line's."""
    import platformdirs

    data = Path(platformdirs.user_data_dir("randomchess", appauthor=False))
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'games.sqlite3'}"


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


@contextmanager
def snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection whose statements all read one state of the database, for a read that
    builds one answer from several ``SELECT`` statements: a write committed meanwhile is
    wholly in it or wholly out of it.  Read only; it takes no write lock and waits for none.

    Outside a transaction each statement sees the newest commit: Python's ``sqlite3`` opens
    no transaction for a ``SELECT``, and PostgreSQL's READ COMMITTED takes a snapshot per
    statement.  So SQLite gets an explicit deferred ``BEGIN`` (in WAL mode the snapshot is
    taken at the first read and writers go on), PostgreSQL a ``REPEATABLE READ READ ONLY``
    transaction (set on the driver's connection: no extra round trip).  The transaction is
    rolled back at the end."""
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execution_options(isolation_level="REPEATABLE READ",
                                   postgresql_readonly=True)
        elif conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN")
        try:
            yield conn
        finally:
            conn.rollback()


_REVISION = re.compile(r"^(down_)?revision(?:\s*:[^=]*)?\s*=\s*(?:None|[\"']([^\"']+)[\"'])",
                       re.MULTILINE)


@cache
def head_revision() -> str | None:
    """The newest revision in ``db/migrations/versions``, read from the scripts' text
    without importing Alembic (``None`` if the scripts do not form one chain)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        for down, rev in _REVISION.findall(script.read_text("utf-8")):
            if rev:
                (parents if down else revisions).add(rev)
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None``: not migrated, or unreadable)."""
    from sqlalchemy.exc import DBAPIError

    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
    except DBAPIError:
        return None
    return str(rows[0][0]) if len(rows) == 1 else None


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (several workers may race here:
    PostgreSQL serialises them with an advisory lock).  A database at the newest revision
    already is only read: Alembic runs once per change of the database's version."""
    head = head_revision()
    if head is not None and current_revision(engine) == head:
        return
    from alembic import command
    from alembic.config import Config

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


