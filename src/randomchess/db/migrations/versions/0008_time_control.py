"""Multi-period and delay clocks (issue 34): ``games.time_control`` holds a game's control in
``randomchess.clock``'s notation (the PGN ``TimeControl`` value, ``30/1500:300+5``, with
``d``/``b`` for a simple or Bronstein delay).  NULL, as for every game stored before, means
the control the other columns say: ``clock_initial_ms`` + ``clock_increment_ms``, or
``days_per_move``.

Revision ID: 0008
Revises: 0007 (0007_tiebreak_edition)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("time_control", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("time_control")
