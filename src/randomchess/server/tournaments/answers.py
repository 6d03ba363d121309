"""The declared shapes of the tournament routes' answers (issue 27 item 3).  The routes build
plain dicts (``event_json``); FastAPI validates each against its model (``extra="forbid"``)
and writes exactly the keys the dict had (``response_model_exclude_unset``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# The keyword arguments of a route whose answer is one of these models.
ANSWER: dict[str, Any] = {"response_model_exclude_unset": True}


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreatedOut(_Out):
    id: str
    commitment: str = Field(description="SHA-256 commitment to the setups, to publish now")
    organiser_secret: str = Field(description="shown once: send it in X-Organiser-Secret")
    organiser: str | None = Field(None, description="the signed-in account that organises "
                                                    "the event; none: the secret alone")


Role = Literal["organiser", "arbiter"]


class StaffOut(_Out):
    """Who runs the event, and what the asking browser may do."""

    organiser: str | None = Field(description="the organiser's account; none: an event made "
                                              "without an account")
    arbiters: list[str] = Field(description="the co-arbiters' accounts")
    you: Role | None = Field(description="organiser: every step and the co-arbiters (the "
                                         "organiser's account or secret); arbiter: every "
                                         "step; none: a spectator")


class EventSummaryOut(_Out):
    id: str
    name: str
    variant: str
    system: str
    rounds: int = Field(description="0: a round robin not started yet")
    status: Literal["registration", "running", "closed"]
    players: int
    paired_rounds: int
    created_at: int = Field(description="epoch ms")
    organiser: str | None
    role: Role | None = Field(None, description="the account's role (its own list only)")


class EventListOut(_Out):
    upcoming: list[EventSummaryOut] = Field(description="in registration, newest first")
    running: list[EventSummaryOut]
    finished: list[EventSummaryOut] = Field(description="closed, newest first")


class MyEventsOut(_Out):
    events: list[EventSummaryOut] = Field(description="organised or arbitrated, newest first")


class EventBoardOut(_Out):
    """The event board an online game is played on, with the players' names."""

    event_id: str
    event: str
    round: int
    board: int = Field(description="the board; in a knock-out, the match")
    game: int | None = Field(None, description="a knock-out match's game number")
    white: str
    black: str


class RankNames(_Out):
    en: str
    es: str


class CastlingNames(_Out):
    en: dict[str, str]
    es: dict[str, str]


class BoardOut(_Out):
    board: int
    white: int = Field(description="a player's number")
    black: int | None = Field(description="none: a bye")
    result: str | None
    bye: str | None
    setup: int | None
    fen: str
    game_id: str | None = Field(description="the online game, when played on the server")
    rank: RankNames | None = Field(None, description="the setup's back rank, in words; "
                                                     "only with a setup number")
    castling: CastlingNames | None = Field(None, description=(
        "where king and rook end after each castling, White's (SAN -> squares), in English "
        "and Spanish letters; only with a setup number"))


class RevealOut(_Out):
    """A round revealed in the hall (docs/shuffler.md §6)."""

    round: int
    input: str = Field(description="the digits drawn in the hall")
    at: int = Field(description="when, ms since the epoch")
    key: str = Field(description="the round key (hex) the salt and the digits gave")
    window_ends: int | None = Field(description="end of the preparation window, ms since "
                                                "the epoch; none without a window")


class RoundOut(_Out):
    round: int
    complete: bool
    boards: list[BoardOut]
    awaits_reveal: bool = Field(False, description="a hall round whose setup is not "
                                                   "revealed yet")
    reveal: RevealOut | None = None
    opens_at: int | None = Field(None, description=(
        "when the server opens the round's online games by itself (the end of the "
        "preparation window, ms since the epoch); none when it is not to, or has"))


class TiebreakValue(_Out):
    value: float | None
    text: str
    arithmetic: str


class StandingOut(_Out):
    rank: int
    shared: bool
    number: int
    name: str
    points: float
    tiebreaks: dict[str, TiebreakValue] = Field(description="by tiebreak code")


class TiebreakName(_Out):
    code: str
    en: str
    es: str


class TournamentPlayer(_Out):
    number: int
    name: str
    rating: int | None
    federation: str | None
    fide_id: str | None
    joined_round: int
    withdrawn_round: int | None


class EventOut(_Out):
    """An event as everyone sees it: settings, players, rounds and standings."""

    id: str
    name: str
    variant: str
    system: str
    rounds: int
    time_control: str
    status: str
    tiebreaks: list[TiebreakName]
    setup_policy: str
    mini_match: bool
    exclude_standard: bool
    bishops: str
    no_repeat: bool
    commitment: str
    eval_band: float | None = Field(description="pawns")
    tiebreak_edition: Literal["2026", "2023"] = Field(
        description="FIDE's tie-break regulations followed: in force from 1 March 2026, or "
                    "the 2023/2024 text")
    eval_digest: str | None
    salt: str | None = Field(description="hex; shown once the event is closed")
    setup_source: Literal["salt", "hall"] = Field(
        "salt", description="setups from the salt alone, or revealed in the hall")
    excluded: list[int] = Field(default_factory=list,
                                description="the organiser's excluded setup numbers")
    shortlist: list[int] | None = Field(None, description="draw only from these numbers")
    prep_minutes: int = Field(0, description="preparation window after a reveal")
    preview: int | None = Field(None, description="the setup preview's countdown of the "
                                                  "online games, seconds (none: the speed's)")
    players: list[TournamentPlayer]
    paired_rounds: int
    completed_rounds: int
    round_list: list[RoundOut]
    standings: list[StandingOut]


class VerifyOut(_Out):
    verified: bool
    rounds: list[list[int | None]] = Field(description="the re-derived setup per board")
    mismatches: list[str]


class PlayerAddedOut(_Out):
    number: int
    name: str
    joined_round: int


class WithdrawnOut(_Out):
    number: int
    withdrawn_round: int | None


class ByeOut(_Out):
    player: int
    round: int
    kind: str


class ResultOut(_Out):
    round: int
    board: int
    result: str | None


class GameOut(_Out):
    """A board's over-the-board game as stored: UCI moves, English SAN, clocks (seconds
    left after each ply, null where not written) and the result (``*``: unfinished)."""

    round: int
    board: int
    moves: list[str]
    san: list[str]
    clocks: list[int | None]
    result: str
    notation: str | None


class LiveBoard(_Out):
    """A board of a round as spectators follow it: the setup from the start, then the moves
    entered or relayed so far (over the board) and the result once there is one."""

    board: int
    white: str
    black: str
    setup: int | None
    fen: str
    moves: list[str]
    san: list[str]
    clocks: list[int | None]
    result: str | None


class LiveOut(_Out):
    round: int
    boards: list[LiveBoard]


class SeatLink(_Out):
    number: int | None
    link: str


class OnlineBoard(_Out):
    board: int = Field(description="the board; in a knock-out, the match")
    game: int | None = Field(None, description="a knock-out match's game number")
    game_id: str
    white: SeatLink
    black: SeatLink


class OnlineOut(_Out):
    round: int
    games: list[OnlineBoard] = Field(description="each player's personal link, shown once")


class RevealedOut(EventOut):
    """The event once a hall round is revealed; with ``online``, the players' links of the
    games the server opens when the preparation window ends, shown this once (the database
    keeps only their hashes)."""

    online: list[OnlineOut] = Field(default_factory=list, description=(
        "the revealed round's games and, in a mini-match, its replay round's (colours "
        "swapped): each player's personal link, shown once"))


class WatchBoard(_Out):
    board: int
    game_id: str
    watch: str = Field(description="the game's page, to watch it")


class OpenedOut(_Out):
    """A round the server opens by itself, for the staff after the reveal: its state and
    its games to watch (the players' links were shown once, in the reveal's answer)."""

    round: int
    state: Literal["none", "waiting", "opening", "opened", "dropped"]
    opens_at: int | None = Field(description="when the server opens the games (ms)")
    games: list[WatchBoard]


# The media types of the routes that answer files.
_TEXT = {"schema": {"type": "string"}}
SVG: dict[int | str, dict[str, Any]] = {200: {
    "content": {"image/svg+xml": _TEXT},
    "description": "The board's setup as an SVG diagram"}}
EXPORT: dict[int | str, dict[str, Any]] = {200: {
    "content": {media: _TEXT for media in (
        "text/plain", "text/csv", "text/html", "application/x-chess-pgn")},
    "description": "trf: FIDE TRF (text/plain); csv and html: the crosstable; pgn: the games"}}


class GameEventOut(_Out):
    board: EventBoardOut | None = Field(description="none: the game is not an event's")
