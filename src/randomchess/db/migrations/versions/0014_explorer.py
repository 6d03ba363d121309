"""The opening explorer's counts and its PGN imports (issue 33).

Revision ID: 0014
Revises: 0007 (the lead re-chains the migrations when merging)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision: str | None = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "explorer_moves",
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("position", sa.String(160), primary_key=True),
        sa.Column("source", sa.String(40), primary_key=True),
        sa.Column("move", sa.String(12), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("white_wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("black_wins", sa.Integer, nullable=False),
    )
    op.create_table(
        "explorer_imports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("games_read", sa.Integer, nullable=False),
        sa.Column("games_counted", sa.Integer, nullable=False),
        sa.Column("games_skipped", sa.Integer, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("source", "path", "size", name="uq_explorer_imports_file"),
    )


def downgrade() -> None:
    op.drop_table("explorer_imports")
    op.drop_table("explorer_moves")
