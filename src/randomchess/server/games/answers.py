"""The declared shapes of the game wing's answers beyond the game state (issue 27 item 3): the
invitation, health, levels and setup evaluations.  The game state and the socket's frames are
:mod:`contract`'s.  FastAPI validates each answer against its model (``extra="forbid"``) and
writes exactly the keys the route's dict had (``response_model_exclude_unset``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from randomchess.server.games.contract import GameStatus

ANSWER: dict[str, Any] = {"response_model_exclude_unset": True}


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class InviteClock(_Out):
    initial: int = Field(description="ms")
    increment: int | None = Field(description="ms")
    days: int | None = Field(description="correspondence: days per move")
    control: str = Field(description="PGN TimeControl (docs/server.md, clocks)")
    label: dict[str, str] = Field(description="the control in words: {en, es}")


class InviteOut(_Out):
    """``GET /invite/{id}/{code}`` for a client that is not a browser: the game, no token."""

    id: str
    variant: str
    number: int | None = Field(description="none: a setup the join draws (setup_commit)")
    setup_commit: str | None = Field(
        None, description="the commitment of a setup drawn at the join: the joiner's "
                          "client_value meets it (docs/shuffler.md §10)")
    status: GameStatus
    invite_open: bool
    color: Literal["white", "black"] = Field(description="the invited seat")
    clock: InviteClock | None
    join: str = Field(description="POST it {invite, client_value} to take the seat")


class LiveOut(_Out):
    live: bool


class HealthOut(_Out):
    ok: bool = Field(description="nothing is degraded")
    database: str = Field(description="sqlite or postgresql")
    engine: str = Field(description="ok; degraded (503: the pool is being rebuilt); fallback "
                        "(the queue is unreachable: this server searches itself); "
                        "no-workers; off")
    pushes: Literal["live", "local-only", "local"] = Field(
        description="live: fan-out through Redis; local-only: the Redis subscription is "
                    "down (this process's sockets only, re-synchronised when it is back); "
                    "local: one process without Redis")
    engine_service: dict[str, Any] | None = Field(
        description="the engine service's own report (mode, workers, queue, latency)")


class LevelRow(_Out):
    level: int
    name: str
    engine: str
    engine_key: str | None = Field(None, description="external engines only")
    elo: int | None
    label: str
    rating: int | None = Field(description="measured (GET /api/levels ratings)")
    rating_margin: int | None
    rating_games: int


class RatingConditions(_Out):
    variant: str
    scale: str
    level_movetime_ms: int
    measured: str
    engine_commit: str


class LevelsOut(_Out):
    maximum: int
    variants: dict[str, list[LevelRow]] = Field(description="by variant key")
    ratings: RatingConditions


class SetupScore(_Out):
    number: int
    cp: int | None
    mate: int | None
    best: str


class EvaluationSummaryOut(_Out):
    variant: str
    engine: str
    depth: int
    evaluated: int
    total: int
    digest: str
    mean_cp: float | None
    median_cp: int | float | None
    within_30cp: int
    most_balanced: list[SetupScore]
    least_balanced: list[SetupScore]


class SetupEvaluationOut(_Out):
    variant: str
    number: int
    fen: str
    engine: str
    depth: int
    evaluation: SetupScore | None = Field(description="none: not evaluated")
    balance_rank: int | None = Field(description="1 = the most balanced")
    evaluated: int
