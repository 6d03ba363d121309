"""Correspondence games and the "new random setup per game" seeks (issue 18).

``games.days_per_move``: days per move of a correspondence game (NULL for any other game); its
deadline is the stored clock (``clock_started_at`` + the mover's time left), so it survives a
restart.  ``seeks.days``: a correspondence seek.  ``seeks.fresh_setup`` and
``game_terms.fresh_setup``: every game from the seek, and every rematch of such a game, draws
a new random setup.

Revision ID: 0006
Revises: 0005 (0005_setup_evaluations)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("days_per_move", sa.Integer, nullable=True))
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("days", sa.Integer, nullable=True))
        batch.add_column(sa.Column("fresh_setup", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("game_terms") as batch:
        batch.add_column(sa.Column("fresh_setup", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("game_terms") as batch:
        batch.drop_column("fresh_setup")
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("fresh_setup")
        batch.drop_column("days")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("days_per_move")
