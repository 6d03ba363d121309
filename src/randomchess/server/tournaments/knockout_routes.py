"""Knock-out routes (issue 34; docs/tournaments.md, "Knock-out events"): create a knock-out
event, read its bracket, and the organiser's game results and Armageddon bids, each guarded
by the event's organiser secret (``X-Organiser-Secret``) as every organiser step is.  The
steps every format shares (players, start, pair = open the next round, close, exports,
verify) are the event's routes in routes.py, which come here for a knock-out event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from randomchess.db import now_ms
from randomchess.server.games.service import GameService
from randomchess.server.http.deps import database, through_db
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import EventId, Line, Ordinal
from randomchess.server.tournaments import rights
from randomchess.server.tournaments.answers import ANSWER, CreatedOut, VerifyOut
from randomchess.server.tournaments.knockout_answers import (
    BidMadeOut,
    BracketOut,
    KnockoutMatchOut,
)
from randomchess.tournament import errors
from randomchess.tournament.knockout import BidError, FormatError, KnockoutError, Match
from randomchess.tournament.knockout_export import bracket_html, pgn
from randomchess.tournament.knockout_store import KnockoutEvent, KnockoutStore, verify
from randomchess.tournament.store import TournamentStore

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
T = TypeVar("T")

_STATUS: dict[type[Exception], int] = {
    errors.UnknownEventError: 404,
    errors.UnknownPlayerError: 404,
    errors.EventClosedError: 409,
    errors.RegistrationError: 409,
    errors.PairingError: 409,
    errors.VerificationError: 409,
    KnockoutError: 409,
    FormatError: 422,
    BidError: 422,
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class KnockoutIn(_Strict):
    name: Line = Field(min_length=1, max_length=120)
    variant: Line = Field("chess960", max_length=40)
    time_control: Line = Field("", max_length=64, description="the match games' clock text")
    games: int = Field(2, ge=1, le=20, description="the games of each match")
    tiebreaks: list[Annotated[Line, Field(max_length=70)]] = Field(
        [], max_length=8, description="tie-break stages in order, GAMES:TIME_CONTROL")
    armageddon: Line = Field(max_length=140, description="bid:BASE or fixed:WHITE,BLACK")
    match_setups: Literal["match", "pair"] = "match"
    seeding: Literal["rating", "entered"] = "rating"
    exclude_standard: bool = False
    bishops: Literal["any", "same", "opposite"] = "any"
    no_repeat: bool = False
    initial_colour: Literal["white", "black"] = "white"


class GameResultIn(_Strict):
    round: Ordinal
    match: Ordinal
    game: Ordinal
    result: Line = Field(min_length=1, max_length=8)


class BidIn(_Strict):
    round: Ordinal
    match: Ordinal
    player: Ordinal
    bid: Annotated[str, Field(max_length=16)] | float = Field(
        description="seconds (240) or minutes:seconds ('4:00'), 0 to the base time")


def call(fn: Callable[[], T]) -> T:
    """``fn()``; a tournament error becomes the API's refusal, in both languages."""
    try:
        return fn()
    except errors.TournamentError as e:
        raise ApiError.wrap(_STATUS.get(type(e), 422), e) from None


def _kstore(request: Request) -> KnockoutStore:
    store: TournamentStore = request.app.state.tournaments
    return KnockoutStore(store)


def _organiser(request: Request, event_id: str, secret: str | None) -> KnockoutStore:
    """The store, once the request may run the event (the organiser secret, or the session of
    its organiser's or a co-arbiter's account, as every tournament route: routes._role)."""
    kos = _kstore(request)
    call(lambda: kos.load(event_id))  # 404 (or not a knock-out) first
    if rights.role_of(request, event_id, secret, changing=True) is None:
        raise ApiError(403, "tournament.organiser_only")
    return kos


def is_knockout(store: TournamentStore, event_id: str) -> bool:
    return store.load(event_id).event.system == "knockout"


def match_json(m: Match) -> dict[str, Any]:
    both = len(m.bids) == 2
    return {
        "round": m.round, "match": m.number, "top": m.top, "bottom": m.bottom,
        "status": m.status, "winner": m.winner,
        "score_top": float(m.score(m.top)) if m.top is not None else 0.0,
        "score_bottom": float(m.score(m.bottom)) if m.bottom is not None else 0.0,
        "next_game": None if m.winner is not None or m.next is None else m.next.game,
        "games": [{"game": g.game, "label": g.label, "white": g.white, "black": g.black,
                   "result": g.result, "setup": g.setup, "fen": g.fen,
                   "time_control": g.time_control,
                   "black_time_control": g.black_time_control} for g in m.games],
        "bids": [{"player": b.player, "seconds": b.seconds} for b in m.bids] if both else [],
        "bids_in": sorted(b.player for b in m.bids),
    }


def bracket_json(ko: KnockoutEvent) -> dict[str, Any]:
    f = ko.format
    rounds = [] if not ko.started else [
        {"round": r, "open": r <= ko.opened, "matches": [match_json(m) for m in row]}
        for r, row in enumerate(ko.bracket.rounds, 1)]
    return {
        "id": ko.event.id, "name": ko.event.name, "status": ko.event.status,
        "format": {"games": f.games, "time_control": f.time_control,
                   "tiebreaks": [s.spec for s in f.tiebreaks],
                   "armageddon": f.armageddon.spec if f.armageddon else "",
                   "setups": f.setups, "seeding": f.seeding},
        "opened": ko.opened,
        "champion": ko.bracket.champion if ko.started else None,
        "rounds": rounds,
    }


@router.post("/knockout", status_code=201, **ANSWER)
async def create_knockout(body: KnockoutIn, request: Request) -> CreatedOut:
    """Create a knock-out event; the answer holds its organiser secret (shown once) and the
    commitment to publish.  Rate-limited per client like every event."""
    service: GameService = request.app.state.service
    client = request.client.host if request.client else "unknown"
    if not await service.rate.allow(client, now_ms()):
        raise ApiError(429, "rate.too_many_events")
    kos = _kstore(request)
    # Signed in: the account organises it, as any event (issue 30).
    session = await rights.creator(request)

    def create() -> Any:
        try:
            return kos.create(body.name, body.games, body.tiebreaks, body.armageddon,
                              body.match_setups, body.seeding, variant=body.variant,
                              time_control=body.time_control,
                              exclude_standard=body.exclude_standard, bishops=body.bishops,
                              no_repeat=body.no_repeat, initial_colour=body.initial_colour,
                              organiser=True,
                              owner=None if session is None else session.user_id)
        except errors.TournamentError as e:  # every refusal here is about the request
            raise ApiError.wrap(422, e) from None

    created = await database(request).run(create)
    return CreatedOut.model_validate({"id": created.event.id,
                                      "commitment": created.event.commitment,
                                      "organiser_secret": created.organiser_secret,
                                      "organiser": None if session is None else session.name})


@router.get("/{event_id}/bracket", **ANSWER)
@through_db
def get_bracket(event_id: EventId, request: Request) -> BracketOut:
    """The bracket: every match (seeds, score, status, winner), its games with their setups
    and clocks, and the Armageddon bids once both are in."""
    kos = _kstore(request)
    return BracketOut.model_validate(bracket_json(call(lambda: kos.load(event_id))))


@router.post("/{event_id}/games", **ANSWER)
@through_db
def game_result(event_id: EventId, body: GameResultIn, request: Request,
                x_organiser_secret: str | None = Header(None)) -> KnockoutMatchOut:
    """The result of a match's next game; the match after it (its next game drawn, or its
    winner)."""
    kos = _organiser(request, event_id, x_organiser_secret)
    m = call(lambda: kos.set_result(event_id, body.round, body.match, body.game,
                                    body.result))
    return KnockoutMatchOut.model_validate(match_json(m))


@router.post("/{event_id}/bids", status_code=201, **ANSWER)
@through_db
def bid(event_id: EventId, body: BidIn, request: Request,
        x_organiser_secret: str | None = Header(None)) -> BidMadeOut:
    """A player's Armageddon bid, recorded (final)."""
    kos = _organiser(request, event_id, x_organiser_secret)
    text = body.bid if isinstance(body.bid, str) else repr(body.bid)
    made = call(lambda: kos.set_bid(event_id, body.round, body.match, body.player, text))
    return BidMadeOut.model_validate({"round": made.round, "match": made.match,
                                      "player": made.player, "seconds": made.seconds})


# --- the shared steps, for a knock-out event (routes.py calls these) -----------------------


def start(store: TournamentStore, event_id: str) -> None:
    call(lambda: KnockoutStore(store).start(event_id))


def open_round(store: TournamentStore, event_id: str) -> None:
    call(lambda: KnockoutStore(store).open_round(event_id))


def close(store: TournamentStore, event_id: str) -> None:
    call(lambda: KnockoutStore(store).close(event_id))


def export(store: TournamentStore, event_id: str, fmt: str, lang: Literal["en", "es"],
           site: str) -> Response:
    ko = call(lambda: KnockoutStore(store).load(event_id))
    if fmt == "pgn":
        return Response(pgn(ko, store.online_moves, site=site),
                        media_type="application/x-chess-pgn")
    if fmt == "html":
        return Response(call(lambda: bracket_html(ko, lang)), media_type="text/html")
    raise ApiError(404, "tournament.no_format", format=fmt)


def verify_event(store: TournamentStore, event_id: str) -> VerifyOut:
    ko = call(lambda: KnockoutStore(store).load(event_id))
    report = call(lambda: verify(ko))
    return VerifyOut.model_validate({"verified": not report.mismatches,
                                     "rounds": report.rounds,
                                     "mismatches": report.mismatches})
