"""Setups revealed in the hall (issue 30): an event's setup source (the salt alone, or the
salt and the digits drawn in the hall at each round), the organiser's exclusion list and
shortlist, the preparation window, and one row per revealed round.  Existing events keep
their setups from the salt alone, with no exclusions of their own.

Revision ID: 0010
Revises: 0007 (0007_tiebreak_edition)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("setup_source", sa.String(8), nullable=False,
                                   server_default="salt"))
        batch.add_column(sa.Column("excluded", sa.Text()))
        batch.add_column(sa.Column("shortlist", sa.Text()))
        batch.add_column(sa.Column("prep_minutes", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.create_table(
        "tournament_reveals",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("input", sa.String(64), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_reveals")
    with op.batch_alter_table("tournaments") as batch:
        for name in ("prep_minutes", "shortlist", "excluded", "setup_source"):
            batch.drop_column(name)
