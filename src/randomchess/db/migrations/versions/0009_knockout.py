"""Knock-out events (issue 34): the format of each knock-out event, the games of its
matches (tie-breaks and Armageddon included) and the Armageddon bids.

Revision ID: 0009
Revises: 0007 (0007_tiebreak_edition)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "knockout_formats",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("tiebreaks", sa.String(600), nullable=False),
        sa.Column("armageddon", sa.String(140), nullable=False),
        sa.Column("setups", sa.String(8), nullable=False),
        sa.Column("seeding", sa.String(8), nullable=False),
    )
    op.create_table(
        "knockout_games",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column("white", sa.Integer, nullable=False),
        sa.Column("black", sa.Integer, nullable=False),
        sa.Column("result", sa.String(8)),
        sa.Column("setup", sa.Integer),
        sa.Column("fen", sa.Text, nullable=False),
        sa.Column("time_control", sa.String(64), nullable=False),
        sa.Column("black_time_control", sa.String(64)),
        sa.Column("game_id", sa.String(24)),
    )
    op.create_table(
        "knockout_bids",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    for table in ("knockout_bids", "knockout_games", "knockout_formats"):
        op.drop_table(table)
