"""The declared shapes of the accounts wing's answers (issue 27 item 3): the account and
player routes and the lobby's.  The routes still build plain dicts; FastAPI validates each
against its model here (``extra="forbid"``: a key the model does not declare is a loud error
in the tests, never dropped in silence) and writes exactly the keys the dict had
(``response_model_exclude_unset``), so the JSON is what it always was."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from randomchess.server.games.contract import SeekOut, SeekStarted
from randomchess.server.games.routes import SeatOut

ColourName = Literal["white", "black"]
# The keyword arguments of a route whose answer is one of these models.
ANSWER: dict[str, Any] = {"response_model_exclude_unset": True}


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CsrfOut(_Out):
    csrf: str = Field(description="repeat it in X-CSRF-Token")


class MeOut(_Out):
    """The signed-in account: its name and the session's CSRF token."""

    name: str
    csrf: str


class RatingOut(_Out):
    variant: str
    speed: str
    rating: int
    rd: int
    games: int
    provisional: bool


class AccountOut(MeOut):
    ratings: list[RatingOut]


class SessionOut(_Out):
    """Who this browser is logged in as, if anyone: a page asks without a 401 (issue 32)."""

    account: AccountOut | None = Field(description="none: not logged in")


class Tally(_Out):
    wins: int
    draws: int
    losses: int


class ByColourOut(_Out):
    white: Tally
    black: Tally


class RatingPoint(_Out):
    game: str
    variant: str
    speed: str
    before: int
    rating: int
    at: int = Field(description="epoch ms")


class StatsRow(_Out):
    """Finished games with a result in one variant and speed class."""

    variant: str
    speed: str
    games: int
    wins: int
    draws: int
    losses: int
    white: Tally
    black: Tally
    score: float = Field(description="a win 1, a draw 1/2, over the games")


class PlayerOut(_Out):
    name: str
    ratings: list[RatingOut]
    by_colour: ByColourOut
    history: list[RatingPoint]
    stats: list[StatsRow]


class TurnDetail(_Out):
    id: str
    variant: str
    number: int | None
    color: ColourName
    days: int | None = Field(description="correspondence: days per move")
    deadline: int | None = Field(description="epoch ms by which to move; none without a "
                                             "running clock")


class TurnOut(_Out):
    games: list[str] = Field(description="the ids, the nearest deadline first")
    details: list[TurnDetail]


class AccountGame(_Out):
    id: str
    variant: str
    number: int | None
    status: str
    result: str | None
    termination: str | None
    color: ColourName
    opponent: str | None
    rated: bool
    speed: str | None


class AccountGamesOut(_Out):
    games: list[AccountGame]


class ClaimOut(_Out):
    id: str
    colors: list[ColourName]


class TakeSeatOut(_Out):
    id: str
    seat: SeatOut


class SeatNames(_Out):
    white: str | None
    black: str | None


class RatingChange(_Out):
    color: ColourName
    player: str | None
    before: int
    after: int
    change: int
    provisional: bool


class SeatRating(_Out):
    rating: int
    provisional: bool


class SeatRatings(_Out):
    """Each seat's account rating in the game's variant and speed (issue 32: shown beside
    the names during a rated game); none for a seat no account holds, or a casual game."""

    white: SeatRating | None
    black: SeatRating | None


class GameRatingsOut(_Out):
    rated: bool
    speed: str | None
    fresh_setup: bool
    players: SeatNames
    ratings: SeatRatings
    changes: list[RatingChange]


class FirstMove(_Out):
    san: str
    games: int


class LatestGame(_Out):
    id: str
    result: str
    termination: str | None
    plies: int
    ended_at: int = Field(description="epoch ms")
    white: str | None = Field(description="the account holding the seat; none: anonymous")
    black: str | None


class SetupStatsOut(_Out):
    variant: str
    number: int
    games: int
    otb_games: int = Field(description="of which over the board: events' games entered "
                                       "from their scoresheets")
    white_wins: int
    draws: int
    black_wins: int
    white_score: float | None = Field(description="none before a game with a result")
    first_moves: list[FirstMove]
    game_ids: list[str] = Field(description="the last 100")
    latest: list[LatestGame] = Field(description="the last 20 to end, newest first")


# --------------------------------------------------------------------- lobby
class SeeksOut(_Out):
    """``GET /api/lobby/seeks``: what the lobby socket pushes (contract.LobbySeeksFrame)."""

    type: Literal["seeks"]
    seeks: list[SeekOut]
    started: SeekStarted | None = None


class SeekIdOut(_Out):
    id: str


class AcceptOut(_Out):
    """The accepted seek's game: the accepting account's seat."""

    id: str
    seat: SeatOut
    rated: bool
    speed: str


class QuickOut(_Out):
    """Paired (an open seek was accepted: its game) or not (a seek of one's own opened)."""

    paired: bool
    id: str | None = None
    seat: SeatOut | None = None
    rated: bool | None = None
    speed: str | None = None
    seek: str | None = Field(None, description="unpaired: the seek opened")


# --------------------------------------------------------------------- setup brief (issue 33)
class BriefDiagonal(_Out):
    piece: str = Field(description="FEN letter of the aiming piece (upper case: White)")
    square: str
    target: str = Field(description="the opponent's shelter pawn it hits")
    opened_by: list[str] = Field(description="UCI pawn moves that open the diagonal")
    target_defenders: list[str] = Field(description="squares of the target's defenders")


class BriefKingLine(_Out):
    line: Literal["rank_a", "rank_h", "file", "diagonal_a", "diagonal_h"]
    end: str = Field(description="the line's last square, at the edge")
    pieces: list[tuple[str, str]] = Field(description="(square, FEN letter), nearest first")
    shield: list[str] = Field(description="the king's own pieces before the first enemy one")


class BriefCastling(_Out):
    side: Literal["a", "h"]
    san: str
    king_to: str
    rook_to: str
    blockers: list[str] = Field(description="pieces that must leave the path")
    unlock: list[str] = Field(description="pawns to move first to free walled-in blockers")
    moves: int = Field(description="own moves before castling; 0: legal on move 1")


class BriefSide(_Out):
    color: ColourName
    king: str
    undefended_pawns: list[str]
    king_only_pawns: list[str] = Field(description="pawns defended by the king alone")
    diagonals: list[BriefDiagonal]
    king_lines: list[BriefKingLine]
    castling: list[BriefCastling]


class BriefEvaluation(_Out):
    engine: str
    depth: int
    cp: int | None
    mate: int | None
    best: str
    balance_rank: int | None = Field(description="1 = the most balanced")
    evaluated: int


class SetupBriefOut(_Out):
    """``GET /api/setups/{variant}/{number}/brief``: the rules core's facts about a setup
    (randomchess.brief, docs/shuffler.md), its evaluation where the package ships one and
    this server's statistics."""

    variant: str
    number: int
    fen: str
    white: BriefSide
    black: BriefSide
    evaluation: BriefEvaluation | None = Field(description="none: no evaluation shipped")
    stats: SetupStatsOut
