"""Durable storage of games: synchronous SQLAlchemy Core on a small connection pool.

Callers run these methods in a worker thread.  Every write is one short transaction that
starts with its ``UPDATE``/``INSERT``: SQLite takes its write lock at the first statement
(the busy timeout applies) and PostgreSQL never sees a read-then-upgrade.  ``update`` is
optimistic: it names the version it read and loses cleanly to a concurrent writer.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, insert, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from randomchess.server.models import Base, GameRow, ServerState

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_GAMES = Base.metadata.tables[GameRow.__tablename__]
_STATE = Base.metadata.tables[ServerState.__tablename__]
_MIGRATION_LOCK = 0x72636873  # PostgreSQL advisory lock id while migrating ("rchs")


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class GameRecord:
    """An immutable snapshot of one ``games`` row."""

    id: str
    variant: str
    number: int | None
    start_fen: str
    fen: str
    moves: str
    san: str
    clock_log: str
    status: str
    result: str | None
    termination: str | None
    opponent: str
    level: int | None
    computer_color: str | None
    white_token: str | None
    black_token: str | None
    invite_hash: str | None
    clock_initial_ms: int | None
    clock_increment_ms: int | None
    white_ms: int | None
    black_ms: int | None
    clock_started_at: int | None
    draw_offer: str | None
    takeback_offer: str | None
    version: int
    created_at: int
    updated_at: int

    def with_changes(self, changes: dict[str, Any]) -> GameRecord:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return GameRecord(**values)


_COLUMNS = tuple(f.name for f in fields(GameRecord))


def make_engine(url: str) -> Engine:
    """An engine tuned for the server: WAL and full sync for SQLite, a bigger pool for
    PostgreSQL."""
    if url.startswith("sqlite"):
        if url.rstrip("/") in {"sqlite:", "sqlite:/", "sqlite://"} or ":memory:" in url:
            raise ValueError("the server needs a SQLite file, not an in-memory database")
        path = url.split("///", 1)[-1].split("?", 1)[0]
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               pool_size=8, max_overflow=16)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before the move is acknowledged, even on power loss
            # (NORMAL would survive kill -9 but not a power cut).
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    if url.startswith("postgresql"):
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    return create_engine(url, poolclass=NullPool)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (several workers may race here:
    PostgreSQL serialises them with an advisory lock)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    """The games table and the heartbeat, behind plain methods."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        # SQLite has one writer at a time and its busy handler backs off by sleeping (up to
        # 100 ms a try): queueing the writers of this process on a lock instead keeps the
        # p99 of a move in milliseconds (bench/server_load.py).  PostgreSQL needs none.
        self._write_lock: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if self.engine.dialect.name == "sqlite"
            else contextlib.nullcontext())

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ----------------------------------------------------------------- games
    def insert(self, record: GameRecord) -> None:
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(insert(_GAMES).values(
                **{c: getattr(record, c) for c in _COLUMNS}))

    def load(self, game_id: str) -> GameRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(_GAMES).where(_GAMES.c.id == game_id)).first()
        return None if row is None else GameRecord(**row._mapping)

    def update(self, game_id: str, version: int, changes: dict[str, Any]) -> bool:
        """Apply ``changes`` and bump the version if the row is still at ``version``;
        False (and nothing written) if another writer got there first."""
        with self._write_lock, self.engine.begin() as conn:
            done = conn.execute(
                update(_GAMES)
                .where(_GAMES.c.id == game_id, _GAMES.c.version == version)
                .values(**changes, version=version + 1)
            )
            return done.rowcount == 1

    def unfinished(self) -> list[GameRecord]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(_GAMES).where(_GAMES.c.status != "ended")).all()
        return [GameRecord(**r._mapping) for r in rows]

    # ----------------------------------------------------------------- heartbeat
    def heartbeat(self, at: int) -> None:
        with self._write_lock, self.engine.begin() as conn:
            done = conn.execute(update(_STATE).where(_STATE.c.id == 1).values(heartbeat_at=at))
            if done.rowcount == 0:
                conn.execute(insert(_STATE).values(id=1, heartbeat_at=at))

    def last_heartbeat(self) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(_STATE.c.heartbeat_at).where(_STATE.c.id == 1)).scalar()

    def resume_clocks(self, at: int, grace_ms: int) -> int:
        """Stop charging the time no server was running (docs/server.md, durability).

        Each running clock is moved forward by the gap between the last heartbeat and ``at``
        when that gap exceeds ``grace_ms``.  The heartbeat row is claimed in the same
        transaction, so when several workers start together only one shifts the clocks.
        Returns the number of games whose clock was shifted.
        """
        with self._write_lock, self.engine.begin() as conn:
            last = conn.execute(
                select(_STATE.c.heartbeat_at).where(_STATE.c.id == 1)
            ).scalar()
            if last is None:
                conn.execute(insert(_STATE).values(id=1, heartbeat_at=at))
                return 0
            claimed = conn.execute(
                update(_STATE).where(_STATE.c.id == 1, _STATE.c.heartbeat_at == last)
                .values(heartbeat_at=at)
            ).rowcount
            gap = at - last
            if claimed != 1 or gap <= grace_ms:
                return 0
            rows = conn.execute(
                select(_GAMES.c.id, _GAMES.c.clock_started_at, _GAMES.c.version)
                .where(_GAMES.c.status != "ended", _GAMES.c.clock_started_at.is_not(None))
            ).all()
            for gid, started, version in rows:
                # Time up to the last heartbeat is charged; the outage is not.
                charged_until = max(started, last)
                conn.execute(
                    update(_GAMES).where(_GAMES.c.id == gid)
                    .values(clock_started_at=at - (charged_until - started),
                            version=version + 1, updated_at=at)
                )
            return len(rows)
