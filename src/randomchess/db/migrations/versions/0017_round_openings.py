"""A hall round's online games opened by the server when its preparation window ends
(issue 30): one row per round the arbiter asked for, its state the lock that makes one
server process, and only one, open the games (``waiting`` -> ``opening`` -> ``opened``).

Revision ID: 0017
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision: str | None = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_openings",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("due_at", sa.BigInteger, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("claimed_at", sa.BigInteger),
        sa.Column("opened_at", sa.BigInteger),
        sa.Column("links", sa.Text),
    )


def downgrade() -> None:
    op.drop_table("tournament_openings")
