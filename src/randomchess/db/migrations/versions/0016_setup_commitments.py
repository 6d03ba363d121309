"""Committed server seeds of lobby seeks: setups both players can verify (issue 32).

Revision ID: 0016
Revises: 0017 (main had 0017 when this branch merged it; the lead re-chains at merge)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision: str | None = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "setup_commitments",
        sa.Column("seek_id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("claimed_at", sa.BigInteger),
        sa.Column("client_value", sa.String(64), unique=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  unique=True),
    )


def downgrade() -> None:
    op.drop_table("setup_commitments")
