"""The explorer's record of games counted from sources that can change them (issue 33):
over-the-board games of events, counted by the server's sweep and taken back out when an
arbiter corrects them.

Revision ID: 0026
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision: str | None = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "explorer_counted",
        sa.Column("source", sa.String(40), primary_key=True),
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("game", sa.Integer, sa.ForeignKey("explorer_games.id", ondelete="SET NULL")),
        sa.Column("counted_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("explorer_counted")
