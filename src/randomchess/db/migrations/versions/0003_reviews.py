"""Game reviews: one computer review per game, stored as JSON with the moves it covers.

Revision ID: 0003
Revises: 0002 (the tournaments migration, merged first), so the history stays one line.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.String(24), primary_key=True),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("movetime", sa.Integer, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),  # UCI the review covers
        sa.Column("review", sa.Text, nullable=False),  # JSON (Review.as_dict)
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_reviews")
