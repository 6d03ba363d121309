"""The explorer's count tables without SQLite's rowid (issue 33): ``explorer_moves`` and
``explorer_links`` are keyed by their whole primary key, so a rowid table kept each row twice
(the table by rowid, and the primary key's index); a WITHOUT ROWID table is its primary key's
B-tree, one write per row (the import writes about 120 rows a game).  The rows are copied
into the new tables.  PostgreSQL's tables stay as they are (``sqlite_with_rowid`` is
SQLite's option only).

Revision ID: 0027
Revises: 0026
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision: str | None = "0026"
branch_labels = None
depends_on = None


def _columns(name: str) -> list[sa.Column[object]]:
    if name == "explorer_links":
        return [
            sa.Column("variant", sa.String(16), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True),
            sa.Column("position", sa.String(16), primary_key=True),
            sa.Column("move", sa.String(12), primary_key=True),
            sa.Column("game", sa.Integer,
                      sa.ForeignKey("explorer_games.id", ondelete="CASCADE"), primary_key=True),
        ]
    return [
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("position", sa.String(16), primary_key=True),
        sa.Column("source", sa.String(40), primary_key=True),
        sa.Column("speed", sa.String(16), primary_key=True),
        sa.Column("band", sa.Integer, primary_key=True),
        sa.Column("move", sa.String(12), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("white_wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("black_wins", sa.Integer, nullable=False),
        sa.Column("rating_sum", sa.BigInteger, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
    ]


def _rebuild(with_rowid: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for name in ("explorer_moves", "explorer_links"):
        columns = _columns(name)
        names = ", ".join(c.name for c in columns)
        op.create_table(f"{name}_0027", *columns, sqlite_with_rowid=with_rowid)
        op.execute(f"INSERT INTO {name}_0027 ({names}) SELECT {names} FROM {name}")
        op.drop_table(name)
        op.rename_table(f"{name}_0027", name)


def upgrade() -> None:
    _rebuild(with_rowid=False)


def downgrade() -> None:
    _rebuild(with_rowid=True)
