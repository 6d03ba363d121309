"""A hall round's games to open keep their ids and the SHA-256 of their seats' secrets, never
the secrets (issue 30): ``tournament_openings.games`` replaces ``links``, which held the
players' links in clear.  The links are made at the reveal and shown once, to the organiser.
A row still to open from before has no games made ahead: the server drops it (the organiser
opens the round with the Online button, which shows the links); the links of the rounds
already opened are erased with the column.

Revision ID: 0021
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision: str | None = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_openings") as batch:
        batch.add_column(sa.Column("games", sa.Text, nullable=True))
        batch.drop_column("links")


def downgrade() -> None:
    with op.batch_alter_table("tournament_openings") as batch:
        batch.add_column(sa.Column("links", sa.Text, nullable=True))
        batch.drop_column("games")
