"""The game state a client receives, as types (issue 12 §4).

``GET /api/games/{id}``, every move and action answer and every WebSocket push carry the same
JSON object, built by :meth:`LiveGame.state` and serialised once by ``state_json`` (the fast
path stays: FastAPI never walks it).  :class:`GameState` declares that object, so the OpenAPI
schema shows the real state and a test can validate real states against it; it forbids any
field it does not declare.  The status and termination strings are the enums here.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal, TypedDict, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter

from randomchess.game import Termination
from randomchess.server.http.frames import ErrorFrameDict as ErrorFrameDict
from randomchess.server.http.frames import error_frame as error_frame
from randomchess.server.http.frames import read_frame as read_frame


class GameStatus(enum.StrEnum):
    """Where a game is: waiting for the invited friend, being played, or over."""

    WAITING = "waiting"
    PLAYING = "playing"
    ENDED = "ended"


class TerminationName(enum.StrEnum):
    """Why a game ended, as the API spells it: the core's :class:`Termination` values, the two
    move-count rules in words, and ``aborted`` (a game abandoned in its first two plies)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    DEAD_POSITION = "dead position"
    FIVEFOLD_REPETITION = "fivefold repetition"
    SEVENTYFIVE_MOVES = "seventy-five-move rule"
    THREEFOLD_REPETITION = "threefold repetition"
    FIFTY_MOVES = "fifty-move rule"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIME_FORFEIT = "time forfeit"
    ABORTED = "aborted"


# The API's name of each core termination (docs/server.md; the front end shows them).
TERMINATION_NAMES: dict[Termination, TerminationName] = {
    t: TerminationName[t.name] for t in Termination}

ColourName = Literal["white", "black"]

# What a seat may do to a game (``GameService.perform``; one POST route and one WebSocket
# message type each).
GameAction = Literal["move", "draw-claim", "draw-offer", "resign", "draw-accept",
                     "draw-decline", "takeback-offer", "takeback-accept", "takeback-decline",
                     "ready"]
GAME_ACTIONS: tuple[GameAction, ...] = get_args(GameAction)
Result = Literal["1-0", "0-1", "1/2-1/2", "*"]


class ClockLabel(BaseModel):
    """The time control in words (randomchess.clock), in each language."""

    model_config = ConfigDict(extra="forbid")

    en: str
    es: str


class ToControl(BaseModel):
    """Moves each side still owes before its next time control; none in sudden death."""

    model_config = ConfigDict(extra="forbid")

    white: int | None
    black: int | None


class ClockState(BaseModel):
    """Milliseconds left for each side at the moment the state was sent."""

    model_config = ConfigDict(extra="forbid")

    white: int
    black: int
    running: ColourName | None = Field(description="whose clock runs; none before it starts")
    initial: int | None = Field(description="initial time per side, ms")
    increment: int | None = Field(description="added after each move, ms")
    days: int | None = Field(description="correspondence only: days per move")
    deadline: int | None = Field(
        description="correspondence only: epoch ms by which the side to move must "
                          "move (none before the clock starts)")
    control: str = Field(description='the time control as PGN TimeControl ("300+2", '
                         '"30/1500:300+5"; "+3d" a simple delay, "+3b" Bronstein)')
    label: ClockLabel
    delay: int = Field(description="ms of simple delay the running side has left now: its "
                                   "clock counts down only after it")
    to_control: ToControl


class PlayersState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    white: Literal["human", "computer"]
    black: Literal["human", "computer"]


class PreviewState(BaseModel):
    """The setup preview's countdown while it runs (issue 32, docs/server.md): the board is
    locked and both clocks stopped until ``until``."""

    model_config = ConfigDict(extra="forbid")

    until: int = Field(description="epoch ms the countdown ends (stored: a restart keeps it)")
    left: int = Field(description="ms left at the moment the state was sent")
    length: int = Field(description="the whole countdown, ms")
    ready: list[ColourName] = Field(description="the sides that declared ready; both "
                                                "ready ends the countdown at once")


class GameState(BaseModel):
    """The public state of a game: no secret, the same for every client."""

    model_config = ConfigDict(extra="forbid")

    id: str
    variant: str = Field(description="a key of GET /api/variants")
    number: int | None = Field(description="the setup number, when the array has one")
    start_fen: str
    fen: str
    moves: list[str] = Field(description="the moves so far, in UCI")
    san: list[str] = Field(description="the same moves in English SAN")
    status: GameStatus
    result: Result | None
    termination: TerminationName | None
    winner: ColourName | None
    clocks: ClockState | None = Field(description="none for a game without a clock")
    to_move: ColourName
    legal_moves: list[str] = Field(description="UCI; empty once the game is over")
    check: bool
    ply: int
    opponent: Literal["computer", "friend", "hotseat"]
    level: int | None = Field(description="the computer's level: 1..8 our engine; 9, 10 and "
                                          "11 (maximum) an external one (GET /api/levels)")
    players: PlayersState
    invite_open: bool = Field(description="the friend's invite link is still unused")
    draw_offer: ColourName | None
    takeback_offer: ColourName | None
    claimable: list[TerminationName] = Field(
        description="draws the side to move may claim now without naming a move")
    version: int = Field(description="grows with every change; older states are stale")
    preview: PreviewState | None = Field(
        description="the setup preview while its countdown runs; none otherwise")


# The same shapes as the server code builds them (plain dicts on the fast path, serialised
# once): mypy checks every field ``LiveGame.state`` writes, and tests/test_server_contract.py
# that these name exactly the models' fields.
class ClockLabelDict(TypedDict):
    en: str
    es: str


class ClockDict(TypedDict):
    white: int
    black: int
    running: str | None
    initial: int | None
    increment: int | None
    days: int | None
    deadline: int | None
    control: str
    label: ClockLabelDict
    delay: int
    to_control: dict[str, int | None]


class PreviewDict(TypedDict):
    until: int
    left: int
    length: int
    ready: list[str]


class GameStateDict(TypedDict):
    id: str
    variant: str
    number: int | None
    start_fen: str
    fen: str
    moves: list[str]
    san: list[str]
    status: GameStatus
    result: str | None
    termination: TerminationName | None
    winner: str | None
    clocks: ClockDict | None
    to_move: str
    legal_moves: list[str]
    check: bool
    ply: int
    opponent: str
    level: int | None
    players: dict[str, str]
    invite_open: bool
    draw_offer: str | None
    takeback_offer: str | None
    claimable: list[TerminationName]
    version: int
    preview: PreviewDict | None


# --------------------------------------------------------------------- WebSocket frames
# ``/ws/games/{id}`` (docs/server.md): the server pushes a ``state`` frame on every change (the
# first on connecting), a ``rematch`` frame when a rematch offer of the ended game appears or
# goes, and answers the sender alone with ``pong`` or ``error``.  The client sends a
# :class:`ClientFrame`.  The pushes are built as plain dicts on the fast path (``state_frame``
# and friends); a test validates real ones against these models.

class StateFrame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["state"]
    game: GameState


class RematchOffer(BaseModel):
    """A rematch the side ``by`` offered after this game; ``id`` is the new game's."""

    model_config = ConfigDict(extra="forbid")

    by: ColourName
    id: str


class RematchFrame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["rematch"]
    offer: RematchOffer | None = Field(description="none: the offer was answered or is gone")


class ErrorFrame(BaseModel):
    """A refused or unreadable client frame (or a game that cannot be read): the HTTP status
    the same request would get, the error's code and its reason.  Nothing was changed."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["error"]
    status: int
    code: str = Field(description="stable: one of the catalogue's codes (docs/server.md)")
    detail: str = Field(description="the reason in the connection's language (?lang=es or "
                                    "Accept-Language), English by default")
    detail_en: str
    detail_es: str


class ApiErrorOut(BaseModel):
    """Every refusal's body, HTTP status 4xx or 5xx (docs/server.md, errors)."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="stable: one of the catalogue's codes (docs/server.md)")
    detail: str = Field(description="the reason in the request's language (?lang=es or "
                                    "Accept-Language), English by default")
    detail_en: str
    detail_es: str
    errors: list[dict[str, Any]] | None = Field(
        None, description="request.invalid only: pydantic's errors (loc, msg, type)")


# Declared for every route (FastAPI's own 422 schema is not what the server answers).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": ApiErrorOut, "description": "Refused; nothing was changed"},
    "5XX": {"model": ApiErrorOut, "description": "The database or the engines did not "
                                                 "answer; try again"},
}


class PongFrame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["pong"]


ServerFrame = Annotated[StateFrame | RematchFrame | ErrorFrame | PongFrame,
                        Field(discriminator="type")]


class ClientFrame(BaseModel):
    """What a client sends: an action for a seat (``token``; ``move`` for ``move`` and a
    ``draw-claim`` with a move), ``state`` (send me the state) or ``ping``."""

    model_config = ConfigDict(extra="forbid")

    type: GameAction | Literal["state", "ping"]
    token: str | None = Field(None, max_length=128)
    move: str | None = Field(None, max_length=32)
    lag: StrictInt = Field(0, ge=0, le=60_000,
                           description="with a move: the network lag (ms) the client measured "
                                       "(lag compensation, docs/server.md)")


class StateFrameDict(TypedDict):
    type: Literal["state"]
    game: GameStateDict


class RematchOfferDict(TypedDict):
    by: str
    id: str


class RematchFrameDict(TypedDict):
    type: Literal["rematch"]
    offer: RematchOfferDict | None


class PongFrameDict(TypedDict):
    type: Literal["pong"]


ServerFrameDict = StateFrameDict | RematchFrameDict | ErrorFrameDict | PongFrameDict


def state_frame(state: GameStateDict) -> StateFrameDict:
    return {"type": "state", "game": state}


def rematch_frame(offer: RematchOffer | None) -> RematchFrameDict:
    return {"type": "rematch",
            "offer": None if offer is None else {"by": offer.by, "id": offer.id}}


PONG_FRAME: PongFrameDict = {"type": "pong"}


# For a route that answers with the state: the schema is documented, the body is the
# pre-serialised JSON (a returned Response is never re-validated or re-encoded).
STATE_ROUTE: dict[str, Any] = {
    "response_model": GameState,
    "responses": {200: {"description": "The game's state after the request"}},
}


# --------------------------------------------------------------------- lobby frames
# ``/ws/lobby`` (docs/server.md, lobby): the server pushes a ``seeks`` frame on connecting and
# on every change, answers ``{"type": "ping"}`` with ``pong`` and any other frame with an
# ``error`` (nothing changes: seeks are made and taken over HTTP).

class SeekOut(BaseModel):
    """An open seek or a challenge as a lobby socket (or ``GET /api/lobby/seeks``) shows it:
    never an account id."""

    model_config = ConfigDict(extra="forbid")

    id: str
    player: str
    variant: str
    setup: int | Literal["random", "new-per-game"]
    clock: dict[str, int | float | str] = Field(
        description="{minutes, increment} or {days}; a control that minutes and increment do "
                    "not say (multi-period, delay) adds its PGN text as control")
    speed: str
    rated: bool
    rating: int
    provisional: bool
    rating_min: int | None
    rating_max: int | None
    preview: int = Field(description="the setup preview's countdown, seconds (0: none); in "
                                     "a rated game, aborting or not moving after it is a loss "
                                     "(docs/rules.md, no setup-shopping)")
    challenge: bool = Field(description="addressed to one player (this account, or by it)")
    expires_in_ms: int = Field(description="how long the seek stays open from this frame")
    setup_commit: str | None = Field(
        None, description="SHA-256 (hex) of the server seed of the setup draw both players "
                          "can verify (docs/shuffler.md §10); null: no committed draw")


class SeekStarted(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seek: str
    game: str


class LobbySeeksFrame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["seeks"]
    seeks: list[SeekOut]
    started: SeekStarted | None = Field(None, description="the game an accepted seek became")


class LobbyDeltaFrame(BaseModel):
    """One change of the lobby after the socket's first (whole-lobby) frame."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["seeks-delta"]
    added: list[SeekOut] = Field(description="seeks opened (only those this socket may see)")
    removed: list[str] = Field(description="ids of seeks gone (cancelled, accepted)")
    started: SeekStarted | None = Field(None, description="the game an accepted seek became")


LobbyServerFrame = Annotated[LobbySeeksFrame | LobbyDeltaFrame | ErrorFrame | PongFrame,
                             Field(discriminator="type")]
LobbyServerFrameAdapter: TypeAdapter[
    LobbySeeksFrame | LobbyDeltaFrame | ErrorFrame | PongFrame] = TypeAdapter(LobbyServerFrame)


class LobbyClientFrame(BaseModel):
    """The one frame a lobby socket accepts: a keep-alive."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["ping"]
