"""Accounts, sessions, seats owned by accounts, ratings and rating changes.

Revision ID: 0004
Revises: 0003 (0003_reviews)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),  # lower-cased
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),  # SHA-256 of the cookie
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_sessions_user", "sessions", ["user_id"])
    op.create_table(
        "game_seats",  # which account holds which seat; user_id NULL once deleted
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("color", sa.String(5), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL")),
    )
    op.create_index("ix_game_seats_user", "game_seats", ["user_id"])
    op.create_table(
        "game_terms",  # rated or casual and the speed class, fixed when the game is made
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("speed", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "rating_changes",  # one row per rated seat: the game is rated exactly once
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("color", sa.String(5), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("rd_after", sa.Float, nullable=False),
        sa.Column("rated_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "seeks",  # the lobby's open seeks and challenges (target_id set)
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("target_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE")),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer),  # NULL: a random setup
        sa.Column("initial_ms", sa.BigInteger, nullable=False),
        sa.Column("increment_ms", sa.BigInteger, nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating_min", sa.Integer),
        sa.Column("rating_max", sa.Integer),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seeks")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("game_terms")
    op.drop_index("ix_game_seats_user", table_name="game_seats")
    op.drop_table("game_seats")
    op.drop_index("ix_sessions_user", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("users")
