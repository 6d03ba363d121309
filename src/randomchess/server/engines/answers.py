"""The declared shapes of the analysis and review answers (issue 27 item 3), and of the frames
of ``/ws/analysis``.  The routes and the engine jobs build plain dicts; FastAPI validates each
answer against its model (``extra="forbid"``) and writes exactly the keys the dict had
(``response_model_exclude_unset``); a test validates real socket frames against
:data:`AnalysisServerFrame`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

ANSWER: dict[str, Any] = {"response_model_exclude_unset": True}
ColourName = Literal["white", "black"]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EnginesOut(_Out):
    engines: list[str] = Field(description="randomchess first, then the external ones found")


class ScoreOut(_Out):
    """From White's side: centipawns, or moves to mate (negative: Black mates)."""

    cp: int | None
    mate: int | None


class LineOut(_Out):
    multipv: int
    depth: int
    score: ScoreOut
    pv: list[str] = Field(description="UCI")
    san: list[str]
    nodes: int
    time_ms: int


class AnalysisOut(_Out):
    engine: str
    fen: str = Field(description="the position analysed (after the moves)")
    turn: ColourName
    lines: list[LineOut]


class PositionOut(_Out):
    variant: str
    start_fen: str
    fen: str
    moves: list[str] = Field(description="UCI")
    san: list[str]
    legal_moves: list[str]
    to_move: ColourName
    check: bool
    over: bool


class PgnPositionOut(PositionOut):
    headers: dict[str, str] = Field(description="the PGN's tag pairs")


class PlyReviewOut(_Out):
    ply: int
    san: str
    uci: str
    score: ScoreOut | None
    win: float
    loss: float
    accuracy: float
    judgement: str | None
    best_uci: str | None
    best_san: str | None
    best_pv: list[str]
    best_pv_uci: list[str]


class SidesOut(_Out):
    white: float | None
    black: float | None


class JudgementCounts(_Out):
    white: dict[str, int]
    black: dict[str, int]


class ReviewBody(_Out):
    engine: str
    depth: int
    movetime: int
    start_score: ScoreOut | None
    first_mover: ColourName
    plies: list[PlyReviewOut]
    accuracy: SidesOut
    counts: JudgementCounts


class StoredReviewOut(_Out):
    """A game's review as stored with it."""

    game_id: str
    engine: str
    depth: int
    movetime: int
    moves: list[str] = Field(description="the UCI moves it covers")
    created_at: int = Field(description="epoch ms")
    review: ReviewBody


class RunningOut(_Out):
    status: Literal["running"]


# 202 while a review is being computed.
REVIEW_RESPONSES: dict[int | str, dict[str, Any]] = {
    202: {"model": RunningOut, "description": "Being computed: GET the review until it is "
                                              "there"}}


# --------------------------------------------------------------------- /ws/analysis frames
class LinesFrame(AnalysisOut):
    """The lines after one more depth of the analysis ``seq``."""

    type: Literal["lines"]
    seq: int
    depth: int


class DoneFrame(_Out):
    type: Literal["done"]
    seq: int


class StoppedFrame(_Out):
    type: Literal["stopped"]
    seq: int = Field(description="the last analysis started")


class AnalysisErrorFrame(_Out):
    """A refused frame (no ``seq``) or a failed analysis (its ``seq``)."""

    type: Literal["error"]
    seq: int | None = None
    status: int
    code: str
    detail: str
    detail_en: str
    detail_es: str


AnalysisServerFrame = Annotated[LinesFrame | DoneFrame | StoppedFrame | AnalysisErrorFrame,
                                Field(discriminator="type")]
AnalysisServerFrameAdapter: TypeAdapter[
    LinesFrame | DoneFrame | StoppedFrame | AnalysisErrorFrame] = TypeAdapter(
    AnalysisServerFrame)
