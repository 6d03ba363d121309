"""A game's own initial time for Black, when it differs from White's: a knock-out's
Armageddon played online (issue 34; White 5 minutes, Black 4, or Black the winning bid);
and a lobby seek's control when minutes + increment do not say it (multi-period, delay).

Revision ID: 0020
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision: str | None = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("black_initial_ms", sa.BigInteger))
    op.add_column("seeks", sa.Column("time_control", sa.String(200)))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("time_control")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("black_initial_ms")
