"""The one door to the database: the schema of every table (:mod:`randomchess.db.schema`,
one ``MetaData``), the engine and the migrations (:mod:`randomchess.db.engine`).

This package sits below the server and the tournament store and imports nothing of
randomchess; the Alembic migrations in ``db/migrations`` must build exactly
:data:`randomchess.db.schema.metadata` (``tests/test_db_schema.py`` compares them).
"""

from randomchess.db import engine as _engine
from randomchess.db.engine import default_db_url, make_engine, migrate, now_ms, snapshot
from randomchess.db.schema import metadata

__all__ = ["DB_ERRORS", "default_db_url", "make_engine", "metadata", "migrate", "now_ms",
           "snapshot"]


def __getattr__(name: str) -> tuple[type[Exception], ...]:
    """``DB_ERRORS`` (:data:`randomchess.db.engine.DB_ERRORS`), built on first use."""
    if name == "DB_ERRORS":
        errors: tuple[type[Exception], ...] = _engine.DB_ERRORS
        return errors
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
