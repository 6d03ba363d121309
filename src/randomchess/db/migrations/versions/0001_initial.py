"""Games and the server heartbeat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer),
        sa.Column("start_fen", sa.Text, nullable=False),
        sa.Column("fen", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("san", sa.Text, nullable=False),
        sa.Column("clock_log", sa.Text, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("result", sa.String(8)),
        sa.Column("termination", sa.String(32)),
        sa.Column("opponent", sa.String(8), nullable=False),
        sa.Column("level", sa.Integer),
        sa.Column("computer_color", sa.String(5)),
        sa.Column("white_token", sa.String(64)),
        sa.Column("black_token", sa.String(64)),
        sa.Column("invite_hash", sa.String(64)),
        sa.Column("clock_initial_ms", sa.BigInteger),
        sa.Column("clock_increment_ms", sa.BigInteger),
        sa.Column("white_ms", sa.BigInteger),
        sa.Column("black_ms", sa.BigInteger),
        sa.Column("clock_started_at", sa.BigInteger),
        sa.Column("draw_offer", sa.String(5)),
        sa.Column("takeback_offer", sa.String(5)),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "server_state",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("heartbeat_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_state")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
