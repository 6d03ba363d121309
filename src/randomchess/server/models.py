"""The database schema (SQLAlchemy 2).  Migrations in ``migrations/versions`` must match it.

A game is one row: its moves are a space-separated UCI list, so acknowledging a move is a
single ``UPDATE ... WHERE version = ?`` that either commits whole or loses the race.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    number: Mapped[int | None] = mapped_column(Integer)
    start_fen: Mapped[str] = mapped_column(Text)
    fen: Mapped[str] = mapped_column(Text)
    moves: Mapped[str] = mapped_column(Text, default="")  # UCI, space-separated
    san: Mapped[str] = mapped_column(Text, default="")  # English SAN, space-separated
    clock_log: Mapped[str] = mapped_column(Text, default="")  # mover's ms left after each ply
    status: Mapped[str] = mapped_column(String(8))  # waiting | playing | ended
    result: Mapped[str | None] = mapped_column(String(8))
    termination: Mapped[str | None] = mapped_column(String(32))
    opponent: Mapped[str] = mapped_column(String(8))  # computer | friend | hotseat
    level: Mapped[int | None] = mapped_column(Integer)
    computer_color: Mapped[str | None] = mapped_column(String(5))
    # SHA-256 of the seat tokens and of the invite code: the database never holds a secret.
    white_token: Mapped[str | None] = mapped_column(String(64))
    black_token: Mapped[str | None] = mapped_column(String(64))
    invite_hash: Mapped[str | None] = mapped_column(String(64))
    clock_initial_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_increment_ms: Mapped[int | None] = mapped_column(BigInteger)
    white_ms: Mapped[int | None] = mapped_column(BigInteger)
    black_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_started_at: Mapped[int | None] = mapped_column(BigInteger)  # epoch ms; None = stopped
    draw_offer: Mapped[str | None] = mapped_column(String(5))
    takeback_offer: Mapped[str | None] = mapped_column(String(5))
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[int] = mapped_column(BigInteger)
    # days per move of a correspondence game (migration 0006); None for any other game
    days_per_move: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (Index("ix_games_status", "status"),)


class ServerState(Base):
    """One row: when a server process last proved it was alive (the downtime policy)."""

    __tablename__ = "server_state"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    heartbeat_at: Mapped[int] = mapped_column(BigInteger)
