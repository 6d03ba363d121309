"""Alembic environment: always run programmatically by :func:`randomchess.db.migrate`
with an open connection in ``config.attributes["connection"]``; the target is the one
schema (:data:`randomchess.db.schema.metadata`)."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from randomchess.db.schema import metadata

connection: Connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
