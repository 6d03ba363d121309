"""The one door to the database: the schema of every table (:mod:`randomchess.db.schema`,
one ``MetaData``), the engine and the migrations (:mod:`randomchess.db.engine`).

This package sits below the server and the tournament store and imports nothing of
randomchess; the Alembic migrations in ``db/migrations`` must build exactly
:data:`randomchess.db.schema.metadata` (``tests/test_db_schema.py`` compares them).
"""

from randomchess.db.engine import DB_ERRORS, make_engine, migrate, now_ms
from randomchess.db.schema import metadata

__all__ = ["DB_ERRORS", "make_engine", "metadata", "migrate", "now_ms"]
