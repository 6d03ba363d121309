"""The tournament tables (SQLAlchemy Core), created by the Alembic migration
``0002_tournaments`` in the server's migration chain; the two must match."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

events = Table(
    "tournaments", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(120), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("system", String(8), nullable=False),  # swiss | rr | drr
    Column("rounds", Integer, nullable=False),
    Column("time_control", String(64), nullable=False),
    Column("tiebreaks", String(120), nullable=False),  # comma-separated codes
    Column("setup_policy", String(8), nullable=False),  # round | board
    Column("mini_match", Boolean, nullable=False),
    Column("exclude_standard", Boolean, nullable=False),
    Column("bishops", String(8), nullable=False),
    Column("no_repeat", Boolean, nullable=False),
    Column("initial_colour", String(5), nullable=False),
    # The committed salt: never shown before the event is closed.
    Column("salt", LargeBinary(32), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("eval_band", Integer, nullable=True),  # migration 0005
    Column("eval_digest", String(64), nullable=True),
    Column("organiser_hash", String(64)),  # SHA-256 of the organiser secret (web)
    Column("status", String(12), nullable=False),  # registration | running | closed
    Column("version", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("closed_at", BigInteger),
)

players = Table(
    "tournament_players", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("rating", Integer),
    Column("fide_id", String(12)),
    Column("federation", String(3)),
    Column("joined_round", Integer, nullable=False),
    Column("withdrawn_round", Integer),
)

byes = Table(
    "tournament_byes", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("kind", String(1), nullable=False),  # H | Z | F
)

boards = Table(
    "tournament_boards", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("white", Integer, nullable=False),
    Column("black", Integer),
    Column("result", String(8)),
    Column("bye", String(1)),
    Column("setup", Integer),
    Column("fen", Text, nullable=False),
    Column("game_id", String(24)),
    UniqueConstraint("tournament_id", "round", "white", name="uq_tournament_round_white"),
)

log = Table(
    "tournament_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), nullable=False),
    Column("at", BigInteger, nullable=False),
    Column("action", String(24), nullable=False),
    Column("round", Integer),
    Column("board", Integer),
    Column("old", String(64)),
    Column("new", String(64)),
    Column("reason", Text),
)
Index("ix_tournament_log_event", log.c.tournament_id)
