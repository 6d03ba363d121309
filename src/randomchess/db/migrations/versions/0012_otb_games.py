"""Over-the-board games (issue 31): a board's moves typed from its scoresheet or imported
from the round's PGN file, with clock times and the result (``*`` while unfinished).

Revision ID: 0012
Revises: 0007 (0007_tiebreak_edition)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("san", sa.Text, nullable=False),
        sa.Column("clocks", sa.Text, nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("lang", sa.String(2)),
        sa.Column("entered_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
