"""Events belong to accounts (issue 30): the organiser who created an event while signed in
and the co-arbiters the organiser added by account name, one row each.

Revision ID: 0011
Revises: 0007 (0007_tiebreak_edition; the lead re-chains on merge)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_staff",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("added_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_tournament_staff_user", "tournament_staff", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_staff_user", "tournament_staff")
    op.drop_table("tournament_staff")
