"""The setup preview's length per event (issue 32): ``tournaments.preview_s``, the countdown
the organiser chose for the event's online games in seconds (0: none; NULL: the speed's
default, as before).

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision: str | None = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("preview_s", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("preview_s")
