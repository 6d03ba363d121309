"""Durable storage of games: SQLAlchemy for the engine, pool, schema and migrations; the
per-move statements as plain SQL on the pooled DBAPI connections.

Callers run the blocking methods in a worker thread (or await :meth:`Store.submit_update`).
Every write transaction starts with its ``UPDATE``/``INSERT``: SQLite takes its write lock at
the first statement (the busy timeout applies) and PostgreSQL never sees a
read-then-upgrade.  ``update`` is optimistic: it names the version it read and loses cleanly
to a concurrent writer.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import and_, case, insert, or_, select, update
from sqlalchemy.engine import Engine

from randomchess.db import make_engine, migrate, schema
from randomchess.server.games.contract import GameStatus, TerminationName
from randomchess.server.games.row import GameChanges as GameChanges  # re-exported
from randomchess.server.games.row import GameRow

_GAMES = schema.games
_STATE = schema.server_state


@dataclass(frozen=True)
class GameRecord(GameRow):
    """An immutable snapshot of one ``games`` row.  Its fields are ``GameRow``'s, generated
    from the one definition of the row, the ``games`` table of ``randomchess.db.schema``:
    a new column is added there, never here."""

    def with_changes(self, changes: GameChanges) -> GameRecord:
        """This record with ``changes``: its fields copied whole, not through the frozen
        dataclass's ``__init__`` one field at a time (once per move: issue 36)."""
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"not columns of a game: {', '.join(sorted(unknown))}")
        new = object.__new__(GameRecord)
        values = new.__dict__
        values.update(self.__dict__)
        values.update(changes)
        return new

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> GameRecord:
        """The record of a ``games`` row in ``_COLUMNS`` order, its status and termination
        read as the contract's enums (the database holds their strings)."""
        values = list(row)
        values[_STATUS] = GameStatus(values[_STATUS])
        if values[_TERMINATION] is not None:
            values[_TERMINATION] = TerminationName(values[_TERMINATION])
        return cls(*values)


_COLUMNS = tuple(f.name for f in fields(GameRecord))
_FIELDS = frozenset(_COLUMNS)
_STATUS = _COLUMNS.index("status")
_TERMINATION = _COLUMNS.index("termination")


# statement, parameters, its row count, the game it writes
_Write = tuple[str, tuple[Any, ...], "Future[int]", str]


class _GroupCommit:
    """The process's one writer: the writes waiting when a transaction starts are committed
    together, one fsync for all of them, and each caller returns once that commit is on disk.

    With SQLite's ``synchronous=FULL`` a commit costs a WAL fsync; committed one by one, the
    moves of 200 games queued behind each other's fsyncs (p99 in the hundreds of ms).  On
    PostgreSQL it also spares a thread per waiting write.  Nothing is acknowledged earlier
    than before: a caller still waits for the commit holding its row.

    On PostgreSQL the writer keeps one connection of its own (autocommit, out of the pool)
    and sends a batch as one pipeline, ``BEGIN``, the statements and ``COMMIT`` in a single
    network round trip, the answer arriving once the commit is flushed.  Through the pool a
    batch cost three round trips (the pool's ping at checkout, the statement, the commit),
    each one a wake-up of this thread competing with the event loop for the GIL.  A
    connection idle for a while is pinged first; one that fails is dropped and replaced.
    """

    _MAX_BATCH = 64

    def __init__(self, engine: Engine,
                 lock: threading.Lock | contextlib.nullcontext[None]) -> None:
        self._engine = engine
        self._lock = lock
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._pipelined = engine.dialect.name == "postgresql"
        self._own: Any = None  # the writer's own pooled connection (PostgreSQL)
        self._own_used = 0.0  # time.monotonic() of its last use

    def run(self, sql: str, params: tuple[Any, ...], game_id: str) -> int:
        """Execute ``sql`` in the next group transaction; its row count once committed."""
        return self.submit(sql, params, game_id).result()

    def submit(self, sql: str, params: tuple[Any, ...], game_id: str) -> Future[int]:
        """Queue ``sql`` for the next group transaction; the future is resolved with its row
        count once that transaction has committed."""
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._serve, daemon=True,
                                                    name="randomchess-sqlite-writer")
                    self._thread.start()
        done: Future[int] = Future()
        self._queue.put((sql, params, done, game_id))
        return done

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        self._drop_own(invalidate=False)

    def _serve(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self._MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            # A caller that gave up waiting (the request's database timeout) before its write
            # started has cancelled it: it is not run.  Once running it cannot be cancelled.
            batch = [w for w in batch if w[2].set_running_or_notify_cancel()]
            if not batch:
                if stop:
                    return
                continue
            # Rows are locked in one order (by game id) so that the writers of two processes
            # sharing PostgreSQL cannot deadlock on each other's batches.
            batch.sort(key=lambda write: write[3])
            try:
                counts = self._commit(batch)
            except Exception:
                # One bad statement must not fail its neighbours: commit them one by one.
                for write in batch:
                    try:
                        write[2].set_result(self._commit([write])[0])
                    except Exception as e:
                        write[2].set_exception(e)
            else:
                for write, count in zip(batch, counts, strict=True):
                    write[2].set_result(count)
            if stop:
                return

    _IDLE_PING_S = 5.0

    def _own_connection(self) -> Any:
        """The writer's connection (PostgreSQL), autocommit; pinged when it was idle."""
        if self._own is not None and time.monotonic() - self._own_used > self._IDLE_PING_S:
            try:
                self._own.dbapi_connection.execute("SELECT 1")
            except Exception:
                self._drop_own(invalidate=True)
        if self._own is None:
            conn: Any = self._engine.raw_connection()
            conn.dbapi_connection.autocommit = True
            self._own = conn
        return self._own

    def _drop_own(self, invalidate: bool) -> None:
        conn, self._own = self._own, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            if invalidate:
                conn.invalidate()
                return
            conn.dbapi_connection.autocommit = False
            conn.close()  # back to the pool

    def _commit_pipelined(self, batch: list[_Write]) -> list[int]:
        """BEGIN, the batch and COMMIT in one round trip; the counts once committed."""
        raw = self._own_connection().dbapi_connection
        try:
            cursors = []
            with raw.pipeline(), raw.transaction():
                for sql, params, _, _ in batch:
                    cur = raw.cursor()
                    cur.execute(sql, params)
                    cursors.append(cur)
            # Leaving the blocks sent COMMIT and waited for its answer: the rows are durable.
            counts = [cur.rowcount for cur in cursors]
        except BaseException:
            # A failed statement was rolled back and leaves the connection idle; a lost or
            # confused connection is replaced.
            if raw.closed or raw.broken or raw.info.transaction_status != 0:  # 0: IDLE
                self._drop_own(invalidate=True)
            raise
        self._own_used = time.monotonic()
        return counts

    def _commit(self, batch: list[_Write]) -> list[int]:
        if self._pipelined:
            return self._commit_pipelined(batch)
        with self._lock:
            conn = self._engine.raw_connection()
            try:
                cur = conn.cursor()
                counts = []
                for sql, params, _, _ in batch:
                    cur.execute(sql, params)
                    counts.append(cur.rowcount)
                cur.close()
                conn.commit()
                return counts
            except BaseException:
                conn.rollback()
                raise
            finally:
                conn.close()


class Store:
    """The games table and the heartbeat, behind plain methods."""

    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        self.url = url
        self.timeout_s = timeout_s
        self.engine = make_engine(url, timeout_s)
        # SQLite has one writer at a time and its busy handler backs off by sleeping (up to
        # 100 ms a try): queueing the writers of this process on a lock instead keeps the
        # p99 of a move in milliseconds (bench/server_load.py).  PostgreSQL needs none.
        self._write_lock: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if self.engine.dialect.name == "sqlite"
            else contextlib.nullcontext())
        # The two statements of every request (read a game, commit a change) are written
        # once per set of columns and run on the pooled DBAPI connection: building and
        # compiling them through SQLAlchemy Core took most of the server's CPU under load
        # (docs/server.md, benchmark).
        self._mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._select = (f"SELECT {', '.join(_COLUMNS)} FROM {_GAMES.name} "
                        f"WHERE id = {self._mark}")
        self._insert = (f"INSERT INTO {_GAMES.name} ({', '.join(_COLUMNS)}) "
                        f"VALUES ({', '.join([self._mark] * len(_COLUMNS))})")
        self._updates: dict[tuple[str, ...], str] = {}
        self._group: _GroupCommit | None = None
        if self.engine.dialect.name in ("sqlite", "postgresql"):
            self._group = _GroupCommit(self.engine, self._write_lock)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        if self._group is not None:
            self._group.close()
        self.engine.dispose()

    # ----------------------------------------------------------------- games
    def insert(self, record: GameRecord) -> None:
        params = tuple(getattr(record, c) for c in _COLUMNS)
        if self._group is not None:
            self._group.run(self._insert, params, record.id)
            return
        self._write(self._insert, params)

    def load(self, game_id: str) -> GameRecord | None:
        conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            cur.execute(self._select, (game_id,))
            row = cur.fetchone()
            cur.close()
        finally:
            conn.close()  # back to the pool, which ends the read transaction
        return None if row is None else GameRecord.from_row(row)

    def update(self, game_id: str, version: int, changes: GameChanges) -> bool:
        """Apply ``changes`` and bump the version if the row is still at ``version``, in one
        committed transaction; False (and nothing written) if another writer got there
        first."""
        sql, params = self._update_statement(game_id, version, changes)
        if self._group is not None:
            return self._group.run(sql, params, game_id) == 1
        return self._write(sql, params) == 1

    def submit_update(self, game_id: str, version: int,
                      changes: GameChanges) -> Future[int] | None:
        """:meth:`update` without a thread to wait in, where the store has a writer thread
        of its own (SQLite, PostgreSQL): a future of the row count (1 when applied), resolved
        once committed.  None where the caller should run :meth:`update` in a thread."""
        if self._group is None:
            return None
        return self._group.submit(*self._update_statement(game_id, version, changes), game_id)

    def _update_statement(self, game_id: str, version: int,
                          changes: GameChanges) -> tuple[str, tuple[Any, ...]]:
        names = tuple(changes)
        sql = self._updates.get(names)
        if sql is None:
            unknown = set(names) - set(_COLUMNS) | {"id", "version"} & set(names)
            if unknown:
                raise ValueError(f"cannot update {sorted(unknown)}")
            m = self._mark
            sets = ", ".join(f"{name} = {m}" for name in (*names, "version"))
            sql = self._updates[names] = \
                f"UPDATE {_GAMES.name} SET {sets} WHERE id = {m} AND version = {m}"
        return sql, (*changes.values(), version + 1, game_id, version)

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        """Run one statement in its own transaction; its row count once committed."""
        conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            cur.execute(sql, params)
            done: int = cur.rowcount
            cur.close()
            conn.commit()  # the move is acknowledged only after this returns
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()
        return done

    def unfinished(self) -> list[GameRecord]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_GAMES).where(_GAMES.c.status != GameStatus.ENDED.value)).all()
        return [GameRecord.from_row(tuple(r._mapping[c] for c in _COLUMNS)) for r in rows]

    def overdue(self, now: int, flag_grace_ms: int, stale_ms: int,
                first_move_ms: int) -> list[tuple[str, int]]:
        """(id, version) of the unfinished games some process may have stranded (issue 28):
        a running clock whose lower side ran out more than ``flag_grace_ms`` ago, or a game
        against the computer untouched for ``stale_ms`` (the computer may owe a move), or a
        clocked game between people still in its first two plies and untouched for
        ``first_move_ms`` (a side never made its first move).  The caller
        checks each one on its record; this only keeps the candidates few."""
        g = _GAMES.c
        lower = case((g.white_ms < g.black_ms, g.white_ms), else_=g.black_ms)
        with self.engine.connect() as conn:
            rows = conn.execute(select(g.id, g.version).where(
                g.status == GameStatus.PLAYING.value,
                or_(and_(g.clock_started_at.is_not(None), g.white_ms.is_not(None),
                         g.black_ms.is_not(None),
                         g.clock_started_at + lower < now - flag_grace_ms),
                    and_(g.opponent == "computer", g.updated_at < now - stale_ms),
                    and_(g.opponent == "friend", g.days_per_move.is_(None),
                         g.clock_initial_ms.is_not(None), g.moves.not_like("% %"),
                         g.updated_at < now - first_move_ms,
                         # the first-move time runs from the preview's end (issue 32)
                         or_(g.preview_until.is_(None),
                             g.preview_until < now - first_move_ms))))
                .limit(500)).all()
        return [(str(r[0]), int(r[1])) for r in rows]

    def ping(self) -> None:
        """One round trip to the database (``GET /api/health``)."""
        conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            cur.execute("SELECT 1")
            cur.fetchone()
            cur.close()
        finally:
            conn.close()

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
                .where(_GAMES.c.status != GameStatus.ENDED.value,
                       _GAMES.c.clock_started_at.is_not(None))
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
