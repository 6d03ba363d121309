"""Knock-out routes (issue 34; docs/tournaments.md, "Knock-out events"): create a knock-out
event, read its bracket, and the organiser's game results and Armageddon bids, each guarded
by the event's organiser secret (``X-Organiser-Secret``) as every organiser step is.  The
steps every format shares (players, start, pair = open the next round, close, exports,
verify) are the event's routes in routes.py, which come here for a knock-out event."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Header, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from randomchess.clock import Bonus, Kind, TimeControl, TimeControlError
from randomchess.db import now_ms
from randomchess.server.games.live import COLOR_NAMES
from randomchess.server.games.preview import PREVIEW_MAX_S
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
    MyBidOut,
    MySeatOut,
)
from randomchess.server.tournaments.openings import open_game
from randomchess.tournament import errors
from randomchess.tournament.knockout import BidError, FormatError, Game, KnockoutError, Match
from randomchess.tournament.knockout_export import bracket_html, bulletin, pgn
from randomchess.tournament.knockout_store import KnockoutEvent, KnockoutStore, verify
from randomchess.tournament.knockout_trf import write_knockout_trf
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
    preview: int | None = Field(
        None, ge=0, le=PREVIEW_MAX_S,
        description="the setup preview's countdown of the online games, seconds (0: none; "
                    "none given: the speed's, 20 s bullet and blitz, 60 s rapid, 180 s "
                    "classical)")


class FromGroupsIn(_Strict):
    """A knock-out seeded by the top places of closed Swiss or round-robin events."""

    name: Line = Field(min_length=1, max_length=120)
    groups: list[Annotated[Line, Field(max_length=120)]] = Field(
        min_length=1, max_length=32, description="the groups' event ids (or exact names), in "
                                                 "order: seeds go by place, then by group")
    top: int = Field(ge=1, le=128, description="the places of each group that qualify")
    variant: Line | None = Field(None, max_length=40, description="default: the first group's")
    time_control: Line = Field("", max_length=64, description="the match games' clock text")
    games: int = Field(2, ge=1, le=20, description="the games of each match")
    tiebreaks: list[Annotated[Line, Field(max_length=70)]] = Field(
        [], max_length=8, description="tie-break stages in order, GAMES:TIME_CONTROL")
    armageddon: Line = Field(max_length=140, description="bid:BASE or fixed:WHITE,BLACK")
    match_setups: Literal["match", "pair"] = "match"
    exclude_standard: bool = False
    no_repeat: bool = False
    initial_colour: Literal["white", "black"] = "white"
    preview: int | None = Field(
        None, ge=0, le=PREVIEW_MAX_S,
        description="the setup preview's countdown of the online games, seconds (0: none; "
                    "none given: the speed's, 20 s bullet and blitz, 60 s rapid, 180 s "
                    "classical)")


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


class MyBidIn(_Strict):
    """A player's own Armageddon bid, or a look at the bids (no ``bid``), proved by their
    seat in one of the match's games played online (issue 34)."""

    round: Ordinal
    match: Ordinal
    game_id: Line = Field(min_length=1, max_length=24,
                          description="a game of this match the player played online")
    token: str | None = Field(None, min_length=1, max_length=128,
                              description="the player's seat token of that game; without it, "
                                          "the signed-in account's seat of it")
    bid: Annotated[str, Field(max_length=16)] | float | None = Field(
        None, description="seconds (240) or minutes:seconds ('4:00'), 0 to the base time; "
                          "final once made")


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
                   "black_time_control": g.black_time_control, "game_id": g.game_id}
                  for g in m.games],
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
                              preview_s=body.preview, organiser=True,
                              owner=None if session is None else session.user_id)
        except errors.TournamentError as e:  # every refusal here is about the request
            raise ApiError.wrap(422, e) from None

    created = await database(request).run(create)
    return CreatedOut.model_validate({"id": created.event.id,
                                      "commitment": created.event.commitment,
                                      "organiser_secret": created.organiser_secret,
                                      "organiser": None if session is None else session.name})


@router.post("/knockout/from-groups", status_code=201, **ANSWER)
async def create_from_groups(body: FromGroupsIn, request: Request) -> CreatedOut:
    """Group stage -> knock-out: a knock-out event whose players are the top ``top`` places
    of each closed group, seeded by place and then by group (docs/tournaments.md); left in
    registration like any new event.  Rate-limited per client like every event."""
    service: GameService = request.app.state.service
    client = request.client.host if request.client else "unknown"
    if not await service.rate.allow(client, now_ms()):
        raise ApiError(429, "rate.too_many_events")
    kos = _kstore(request)
    session = await rights.creator(request)
    options: dict[str, Any] = {
        "time_control": body.time_control, "exclude_standard": body.exclude_standard,
        "no_repeat": body.no_repeat, "initial_colour": body.initial_colour, "organiser": True,
        "preview_s": body.preview,
        "owner": None if session is None else session.user_id}
    if body.variant is not None:
        options["variant"] = body.variant

    def create() -> Any:
        try:
            created, _ = kos.from_groups(body.groups, body.top, body.name, body.games,
                                         body.tiebreaks, body.armageddon, body.match_setups,
                                         **options)
            return created
        except errors.UnknownEventError as e:
            raise ApiError.wrap(404, e) from None
        except errors.TournamentError as e:
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
    # A game played online that has just ended is final even before the end hook ran.
    call(lambda: kos.sync_online(event_id))
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


async def _bidder(request: Request, kos: KnockoutStore, event_id: str, body: MyBidIn
                  ) -> tuple[KnockoutEvent, Match, int]:
    """(the event, the match, the player) of a player's own bid request: the player is the
    one whose seat of ``body.game_id`` (a game of this match) the token, or the signed-in
    account (with its CSRF token), holds; 403 ``tournament.bid_not_yours`` otherwise."""
    db = database(request)
    ko: KnockoutEvent = await db.run(call, lambda: kos.load(event_id))
    m: Match = call(lambda: ko.bracket.match(body.round, body.match))
    g = next((g for g in m.games if g.game_id == body.game_id), None)
    if g is None or g.game_id is None:
        raise ApiError(403, "tournament.bid_not_yours")
    colours: set[str] = set()
    if body.token:
        service: GameService = request.app.state.service
        live = await service.load(g.game_id)
        colours = {COLOR_NAMES[c] for c in live.colors_of(body.token)}
    else:
        session = await rights.creator(request)  # the signed-in account, CSRF checked
        players = getattr(request.app.state, "players", None)
        if session is not None and players is not None:
            seats = await db.run(players.accounts.seats, g.game_id)
            colours = {c for c, uid in seats.items() if uid == session.user_id}
    if len(colours) != 1:
        raise ApiError(403, "tournament.bid_not_yours")
    return ko, m, g.white if colours.pop() == "white" else g.black


def _armageddon_of(m: Match) -> Game | None:
    return next((g for g in m.games if g.black_time_control is not None), None)


def _my_bid(ko: KnockoutEvent, m: Match, player: int) -> dict[str, Any]:
    arm = _armageddon_of(m)
    mine = m.bid(player)
    assert ko.format.armageddon is not None
    base = ko.format.armageddon.base_seconds if ko.format.armageddon.bidding else 0
    out = match_json(m)
    return {"round": m.round, "match": m.number, "player": player, "status": m.status,
            "mine": None if mine is None else mine.seconds, "bids_in": out["bids_in"],
            "bids": out["bids"], "base": base,
            "armageddon_game": None if arm is None else arm.game_id,
            "colour": None if arm is None else "white" if arm.white == player else "black"}


@router.post("/{event_id}/bids/mine", **ANSWER)
async def my_bid(event_id: EventId, body: MyBidIn, request: Request) -> MyBidOut:
    """A player's own Armageddon bid from their seat (issue 34): recorded, final, hidden from
    the opponent until both are in; without ``bid``, the bids as this player may see them.
    With both bids in, the Armageddon is written with its colours and the bid clocks, and
    opened online when the match's games are played online; each player then takes their
    seat with ``POST .../bids/mine/seat``."""
    db = database(request)
    kos = _kstore(request)
    ko, m, player = await _bidder(request, kos, event_id, body)
    if body.bid is not None:
        text = body.bid if isinstance(body.bid, str) else repr(body.bid)
        await db.run(call, lambda: kos.set_bid(event_id, body.round, body.match, player, text))
        ko = await db.run(call, lambda: kos.load(event_id))
        m = ko.bracket.match(body.round, body.match)
        arm = _armageddon_of(m)
        before = next((x for x in reversed(m.games) if x.game_id is not None), None)
        if arm is not None and arm.game_id is None and arm.result is None \
                and before is not None:
            await _open_one(request, kos, ko, arm, before)
            ko = await db.run(call, lambda: kos.load(event_id))
            m = ko.bracket.match(body.round, body.match)
    return MyBidOut.model_validate(_my_bid(ko, m, player))


@router.post("/{event_id}/bids/mine/seat", **ANSWER)
async def my_armageddon_seat(event_id: EventId, body: MyBidIn, request: Request) -> MySeatOut:
    """The player's seat in the Armageddon opened online after the bids: a fresh token for
    their colour (an earlier one of that seat stops working)."""
    kos = _kstore(request)
    _, m, player = await _bidder(request, kos, event_id, body)
    arm = _armageddon_of(m)
    if arm is None or arm.game_id is None:
        raise ApiError(409, "tournament.armageddon_not_online")
    colour = "white" if arm.white == player else "black"
    service: GameService = request.app.state.service
    token = await service.reseat(arm.game_id, colour)
    return MySeatOut(game_id=arm.game_id, color=colour, token=token)


async def _open_one(request: Request, kos: KnockoutStore, ko: KnockoutEvent, g: Game,
                    before: Game) -> None:
    """Open the game ``g`` on the server (an Armageddon after the players' own bids): its
    colours, setup and bid clocks; the players take their seats from their bid page.  As
    the match's game ``before`` was: rated when it was, and each seat an account held there
    held by the same account here."""
    db = database(request)
    players = getattr(request.app.state, "players", None)  # accounts (accounts/deps.py)
    terms = None if players is None or before.game_id is None else \
        await db.run(players.accounts.terms, before.game_id)
    clock, control, black_initial = online_clock(g)
    setup: int | str = g.setup if g.setup is not None else g.fen
    game_id, _, _ = await open_game(request.app, ko.event.variant, setup, clock,
                                    terms is not None and terms[0],
                                    _linker(kos, ko.event.id, g.round, g.match, g.game),
                                    control=control, black_initial_ms=black_initial)
    if players is None or before.game_id is None:
        return
    seats = await db.run(players.accounts.seats, before.game_id)
    for colour, uid in seats.items():
        player = before.white if colour == "white" else before.black
        if uid is not None:
            await db.run(players.accounts.claim, game_id,
                         ["white" if g.white == player else "black"], uid)


# --- online games (routes.open_online comes here for a knock-out) ---------------------------


def _control(text: str | None) -> TimeControl | None:
    """The clock of a stage's time-control text; None when the text is no clock the server
    runs (empty, "-", "?", days, a sandclock, or free text): the game is then played without
    a clock, as a Swiss round's online boards are."""
    if not text:
        return None
    try:
        tc = TimeControl.parse(text)
    except TimeControlError:
        return None
    return tc if tc.kind == Kind.CLOCK and tc.initial_ms > 0 else None


def online_clock(g: Game) -> tuple[tuple[int, int] | None, TimeControl | None, int | None]:
    """((initial ms, increment ms), control, Black's initial ms) of a knock-out game played
    online: the stage's control (multi-period, delay, Bronstein as written); an Armageddon's
    Black clock may differ from White's in its first period's time only (fixed times
    300+2 / 240+2, or the winning bid with the base's increment)."""
    white = _control(g.time_control)
    if g.black_time_control is None or g.black_time_control == g.time_control:
        black_initial = None
    else:
        black = _control(g.black_time_control)
        same = white is not None and black is not None and \
            len(white.periods) == len(black.periods) and \
            replace(black.periods[0], time_ms=white.periods[0].time_ms) == white.periods[0] \
            and black.periods[1:] == white.periods[1:]
        if not same or black is None:
            raise ApiError(422, "tournament.armageddon_clock", white=g.time_control,
                           black=g.black_time_control)
        black_initial = black.initial_ms
    if white is None:
        return None, None, None
    first = white.periods[0]
    increment = first.bonus_ms if first.bonus == Bonus.INCREMENT else 0
    return (white.initial_ms, increment), white, black_initial


def _linker(kos: KnockoutStore, event_id: str, rnd: int, match: int, game: int
            ) -> Callable[[str], None]:
    """Tie a knock-out game to the server game opened for it (run in the database's
    thread; a tournament error becomes the route's)."""
    return lambda game_id: call(lambda: kos.link_game(event_id, rnd, match, game, game_id))


async def open_online(request: Request, store: TournamentStore, event_id: str, rnd: int,
                      rated: bool) -> list[dict[str, Any]]:
    """Open on the server every game of round ``rnd`` that is due and not online yet (each
    match's next game, written with its colours, setup and clock); each player's personal
    link, shown once.  A game that ends records its result (the end hook) and the match
    goes on: its next game is then due, to be opened the same way."""
    db = database(request)
    kos = KnockoutStore(store)
    await db.run(call, lambda: kos.sync_online(event_id))
    ko: KnockoutEvent = await db.run(call, lambda: kos.load(event_id))
    if not 1 <= rnd <= ko.opened:
        raise ApiError(404, "tournament.no_round", round=rnd)
    players = getattr(request.app.state, "players", None)  # accounts (accounts_api.py)
    due = [g for g in ko.games if g.round == rnd and g.result is None and g.game_id is None]
    terms = [online_clock(g) for g in due]  # every refusal before any game is made
    if rated and (players is None or any(clock is None for clock, _, _ in terms)):
        raise ApiError(422, "tournament.rated_needs_clock")
    links = []
    for g, (clock, control, black_initial) in zip(due, terms, strict=True):
        setup: int | str = g.setup if g.setup is not None else g.fen
        game_id, token, invite = await open_game(
            request.app, ko.event.variant, setup, clock, rated,
            _linker(kos, event_id, rnd, g.match, g.game),
            control=control, black_initial_ms=black_initial, preview_s=ko.event.preview_s)
        white = f"/#/tournament/{event_id}/seat/{game_id}/{token}"
        black = str(request.url_for("open_invite", game_id=game_id, invite=invite))
        links.append({"board": g.match, "game": g.game, "game_id": game_id,
                      "white": {"number": g.white, "link": white},
                      "black": {"number": g.black, "link": black}})
    return links


def game_of(store: TournamentStore, event_id: str, game_id: str
            ) -> tuple[int, int, int, str, str]:
    """(round, match, game, White's name, Black's name) of the knock-out game played online
    as ``game_id``."""
    ko = call(lambda: KnockoutStore(store).load(event_id))
    g = next(g for g in ko.games if g.game_id == game_id)
    return g.round, g.match, g.game, ko.name(g.white), ko.name(g.black)


def sync(store: TournamentStore, event_id: str) -> None:
    """Record the event's ended online games (the end hook, and before an organiser step)."""
    KnockoutStore(store).sync_online(event_id)


# --- the shared steps, for a knock-out event (routes.py calls these) -----------------------


def start(store: TournamentStore, event_id: str) -> None:
    call(lambda: KnockoutStore(store).start(event_id))


def open_round(store: TournamentStore, event_id: str) -> None:
    call(lambda: KnockoutStore(store).sync_online(event_id))
    call(lambda: KnockoutStore(store).open_round(event_id))


def close(store: TournamentStore, event_id: str) -> None:
    call(lambda: KnockoutStore(store).sync_online(event_id))
    call(lambda: KnockoutStore(store).close(event_id))


def export(store: TournamentStore, event_id: str, fmt: str, lang: Literal["en", "es"],
           site: str) -> Response:
    ko = call(lambda: KnockoutStore(store).load(event_id))
    if fmt == "pgn":
        return Response(pgn(ko, store.online_moves, site=site),
                        media_type="application/x-chess-pgn")
    if fmt == "html":
        return Response(call(lambda: bracket_html(ko, lang)), media_type="text/html")
    if fmt == "trf":
        return PlainTextResponse(write_knockout_trf(ko))
    if fmt == "bulletin":  # the bracket and every game with a board to step through
        return Response(call(lambda: bulletin(ko, store.online_moves, lang)),
                        media_type="text/html")
    raise ApiError(404, "tournament.no_format", format=fmt)


def verify_event(store: TournamentStore, event_id: str) -> VerifyOut:
    ko = call(lambda: KnockoutStore(store).load(event_id))
    report = call(lambda: verify(ko))
    return VerifyOut.model_validate({"verified": not report.mismatches,
                                     "rounds": report.rounds,
                                     "mismatches": report.mismatches})
