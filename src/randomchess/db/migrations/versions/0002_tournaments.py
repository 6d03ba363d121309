"""Tournaments: events, players, requested byes, boards (pairings, results, setups) and the
arbiter's log (randomchess.tournament.tables).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("system", sa.String(8), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("time_control", sa.String(64), nullable=False),
        sa.Column("tiebreaks", sa.String(120), nullable=False),
        sa.Column("setup_policy", sa.String(8), nullable=False),
        sa.Column("mini_match", sa.Boolean, nullable=False),
        sa.Column("exclude_standard", sa.Boolean, nullable=False),
        sa.Column("bishops", sa.String(8), nullable=False),
        sa.Column("no_repeat", sa.Boolean, nullable=False),
        sa.Column("initial_colour", sa.String(5), nullable=False),
        sa.Column("salt", sa.LargeBinary(32), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("organiser_hash", sa.String(64)),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("closed_at", sa.BigInteger),
    )
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rating", sa.Integer),
        sa.Column("fide_id", sa.String(12)),
        sa.Column("federation", sa.String(3)),
        sa.Column("joined_round", sa.Integer, nullable=False),
        sa.Column("withdrawn_round", sa.Integer),
    )
    op.create_table(
        "tournament_byes",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(1), nullable=False),
    )
    op.create_table(
        "tournament_boards",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("white", sa.Integer, nullable=False),
        sa.Column("black", sa.Integer),
        sa.Column("result", sa.String(8)),
        sa.Column("bye", sa.String(1)),
        sa.Column("setup", sa.Integer),
        sa.Column("fen", sa.Text, nullable=False),
        sa.Column("game_id", sa.String(24)),
        sa.UniqueConstraint("tournament_id", "round", "white",
                            name="uq_tournament_round_white"),
    )
    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("round", sa.Integer),
        sa.Column("board", sa.Integer),
        sa.Column("old", sa.String(64)),
        sa.Column("new", sa.String(64)),
        sa.Column("reason", sa.Text),
    )
    op.create_index("ix_tournament_log_event", "tournament_log", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_log_event", table_name="tournament_log")
    for table in ("tournament_log", "tournament_boards", "tournament_byes",
                  "tournament_players", "tournaments"):
        op.drop_table(table)
