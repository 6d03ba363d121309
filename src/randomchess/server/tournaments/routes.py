"""Tournament routes (docs/tournaments.md, "Web"): a public view of every event and the
organiser's steps, each guarded by the event's organiser secret (sent in the
``X-Organiser-Secret`` header; the database keeps only its SHA-256).

Online games: the organiser opens a round's games on the server; each player gets a personal
link (White's seat token, Black's invitation) and a game's result becomes the board's result,
final, when the game ends.
"""

from __future__ import annotations

import logging
import re
from fractions import Fraction
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Header, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from randomchess.accounts.ratings import speed_class
from randomchess.db import now_ms
from randomchess.diagram import svg_diagram
from randomchess.server.games.live import LiveGame
from randomchess.server.games.service import GameService
from randomchess.server.http.deps import database, through_db
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import EventId, Line, Ordinal, Text
from randomchess.server.tournaments import knockout_routes as knockout
from randomchess.server.tournaments.answers import (
    ANSWER,
    EXPORT,
    SVG,
    ByeOut,
    CreatedOut,
    EventOut,
    OnlineOut,
    PlayerAddedOut,
    ResultOut,
    VerifyOut,
    WithdrawnOut,
)
from randomchess.startpos import setup_from_number
from randomchess.tournament import errors
from randomchess.tournament.export import crosstable_csv, crosstable_html, pgn
from randomchess.tournament.model import Tournament
from randomchess.tournament.store import TournamentStore, verify
from randomchess.tournament.tiebreaks import TIEBREAK_NAMES_ES, TIEBREAKS, Calculator, fmt
from randomchess.tournament.trf import write_trf

log = logging.getLogger("randomchess.server.tournaments")

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# A time control the server can play: seconds+increment, within a game clock's bounds
# (routes.ClockIn: 600 minutes, 600 s).
MAX_INITIAL_S = 36_000
MAX_INCREMENT_S = 600
_SECONDS_PLUS = re.compile(r"\s*(\d+)(?:\+(\d+))?\s*")


class CreateIn(_Strict):
    name: Line = Field(min_length=1, max_length=120)
    variant: Line = Field("chess960", max_length=40)
    system: Literal["swiss", "rr", "drr"] = "swiss"
    rounds: int | None = Field(None, ge=1, le=99)
    time_control: Line = Field("", max_length=64, description=(
        "seconds+increment (e.g. 180+2: the online games' clock, at most "
        f"{MAX_INITIAL_S}+{MAX_INCREMENT_S}) or any other text (online games without a clock)"))
    tiebreaks: list[Annotated[Line, Field(max_length=16)]] | None = Field(None, max_length=8)
    setup_policy: Literal["round", "board"] = "round"
    mini_match: bool = False
    exclude_standard: bool = False
    bishops: Literal["any", "same", "opposite"] = "any"
    no_repeat: bool = False
    initial_colour: Literal["white", "black"] = "white"
    eval_band: float | None = Field(None, ge=0, le=100)  # pawns
    # FIDE's tie-break regulations: in force from 1 March 2026, or the 2023/2024 text
    tiebreak_edition: Literal["2026", "2023"] = "2026"

    @field_validator("time_control")
    @classmethod
    def _playable(cls, text: str) -> str:
        m = _SECONDS_PLUS.fullmatch(text)
        if m and (int(m[1]) > MAX_INITIAL_S or int(m[2] or 0) > MAX_INCREMENT_S):
            raise ValueError(f"a clock of seconds+increment is at most "
                             f"{MAX_INITIAL_S}+{MAX_INCREMENT_S}")
        return text


class PlayerIn(_Strict):
    name: Line = Field(min_length=1, max_length=80)
    rating: int | None = Field(None, ge=0, le=3500)
    fide_id: Line | None = Field(None, max_length=12)
    federation: Line | None = Field(None, max_length=3)


class ByeIn(_Strict):
    player: Ordinal
    round: Ordinal
    kind: Literal["H", "Z", "F"] = "H"


class ResultIn(_Strict):
    round: Ordinal
    board: Ordinal
    result: Line = Field(min_length=1, max_length=8)
    reason: Text | None = Field(None, max_length=500, description="set: a correction")


_STATUS = {
    errors.UnknownEventError: 404,
    errors.UnknownPlayerError: 404,
    errors.EventClosedError: 409,
    errors.PairingError: 409,
    errors.RegistrationError: 409,
    errors.ResultError: 409,
    errors.CorrectionError: 409,
    errors.VerificationError: 409,
}


def _store(request: Request) -> TournamentStore:
    store: TournamentStore = request.app.state.tournaments  # made by install_tournaments
    return store


def _call(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except errors.TournamentError as e:
        raise ApiError.wrap(_STATUS.get(type(e), 422), e) from None


def _organiser(request: Request, event_id: EventId, secret: str | None) -> TournamentStore:
    store = _store(request)
    _call(store.load, event_id)  # 404 first
    if not secret or not store.check_organiser(event_id, secret):
        raise ApiError(403, "tournament.organiser_only")
    return store


def _frac(x: Fraction) -> float:
    return float(x)


def event_out(t: Tournament) -> EventOut:
    return EventOut.model_validate(event_json(t))


def event_json(t: Tournament) -> dict[str, Any]:
    e = t.event
    calc = Calculator(t, t.completed_rounds)
    rounds = []
    for r in range(1, t.paired_rounds + 1):
        boards = []
        for b in t.round_boards(r):
            item: dict[str, Any] = {
                "board": b.board, "white": b.white, "black": b.black, "result": b.result,
                "bye": b.bye, "setup": b.setup, "fen": b.fen, "game_id": b.game_id,
            }
            if b.setup is not None:
                s = setup_from_number(e.variant, b.setup)
                item["rank"] = {"en": s.localized("en"), "es": s.localized("es")}
            boards.append(item)
        rounds.append({"round": r, "complete": t.round_complete(r), "boards": boards})
    standings = [
        {
            "rank": s.rank, "shared": s.shared, "number": s.number, "name": s.name,
            "points": _frac(s.points),
            "tiebreaks": {c: {"value": _frac(v.value) if v.defined else None,
                              "text": fmt(v.value) if v.defined else "-",
                              "arithmetic": v.arithmetic} for c, v in s.values.items()},
        }
        for s in calc.standings()
    ]
    return {
        "id": e.id, "name": e.name, "variant": e.variant, "system": e.system,
        "rounds": e.rounds, "time_control": e.time_control, "status": e.status,
        "tiebreaks": [{"code": c, "en": TIEBREAKS[c], "es": TIEBREAK_NAMES_ES[c]}
                      for c in e.tiebreaks],
        "setup_policy": e.setup_policy, "mini_match": e.mini_match,
        "exclude_standard": e.exclude_standard, "bishops": e.bishops,
        "no_repeat": e.no_repeat, "commitment": e.commitment,
        "eval_band": None if e.eval_band is None else e.eval_band / 100,
        "tiebreak_edition": e.tiebreak_edition,
        "eval_digest": e.eval_digest,
        "salt": e.salt.hex() if e.salt is not None else None,
        "players": [{"number": p.number, "name": p.name, "rating": p.rating,
                     "federation": p.federation, "fide_id": p.fide_id,
                     "joined_round": p.joined_round, "withdrawn_round": p.withdrawn_round}
                    for p in t.players],
        "paired_rounds": t.paired_rounds, "completed_rounds": t.completed_rounds,
        "round_list": rounds, "standings": standings,
    }


@router.post("", status_code=201, **ANSWER)
async def create_event(body: CreateIn, request: Request) -> CreatedOut:
    """Create an event; the answer holds its organiser secret (shown once) and the
    commitment to publish.  Rate-limited per client like game creation."""
    service: GameService = request.app.state.service
    client = request.client.host if request.client else "unknown"
    if not await service.rate.allow(client, now_ms()):
        raise ApiError(429, "rate.too_many_events")
    store = _store(request)
    created = await database(request).run(lambda: _call(lambda: store.create(
        body.name, variant=body.variant, system=body.system, rounds=body.rounds,
        time_control=body.time_control, tiebreaks=body.tiebreaks,
        setup_policy=body.setup_policy, mini_match=body.mini_match,
        exclude_standard=body.exclude_standard, bishops=body.bishops,
        no_repeat=body.no_repeat, initial_colour=body.initial_colour, organiser=True,
        eval_band=None if body.eval_band is None else round(body.eval_band * 100),
        tiebreak_edition=body.tiebreak_edition)))
    return CreatedOut.model_validate({"id": created.event.id,
                                      "commitment": created.event.commitment,
                                      "organiser_secret": created.organiser_secret})


@router.get("/{event_id}", **ANSWER)
@through_db
def get_event(event_id: EventId, request: Request) -> EventOut:
    # Read only (issue 28): the games that ended are shown as they ended; the server
    # records them when they end (install_tournaments).
    return event_out(_call(_store(request).load_live, event_id))


@router.get("/{event_id}/rounds/{rnd}/setup.svg", response_class=Response, responses=SVG)
@through_db
def setup_svg(event_id: EventId, rnd: Ordinal, request: Request, board: Ordinal = 1,
              lang: Literal["en", "es"] = "en") -> Response:
    t: Tournament = _call(_store(request).load, event_id)
    games = [b for b in t.round_boards(rnd) if not b.is_bye]
    chosen = next((b for b in games if b.board == board), None)
    if chosen is None:
        raise ApiError(404, "tournament.no_board", round=rnd, board=board)
    title = f"{t.event.name} round {rnd}" + (f" setup {chosen.setup}" if chosen.setup else "")
    return Response(svg_diagram(chosen.fen, lang=lang, title=title),
                    media_type="image/svg+xml")


@router.get("/{event_id}/export.{fmt_}", response_class=Response, responses=EXPORT)
@through_db
def export(event_id: EventId, fmt_: Line, request: Request,
           lang: Literal["en", "es"] = "en") -> Response:
    store = _store(request)
    t: Tournament = _call(store.load, event_id)
    if t.event.system == "knockout":
        return knockout.export(store, event_id, fmt_, lang, str(request.base_url))
    if fmt_ == "trf":
        return PlainTextResponse(write_trf(t))
    if fmt_ == "csv":
        return Response(crosstable_csv(t, lang), media_type="text/csv")
    if fmt_ == "html":
        return Response(crosstable_html(t, lang), media_type="text/html")
    if fmt_ == "pgn":
        return Response(pgn(t, store.online_moves, site=str(request.base_url)),
                        media_type="application/x-chess-pgn")
    raise ApiError(404, "tournament.no_format", format=fmt_)


@router.get("/{event_id}/verify", **ANSWER)
@through_db
def verify_event(event_id: EventId, request: Request) -> VerifyOut:
    t: Tournament = _call(_store(request).load, event_id)
    if t.event.system == "knockout":
        return knockout.verify_event(_store(request), event_id)
    report = _call(verify, t)
    return VerifyOut.model_validate({"verified": not report.mismatches,
                                     "rounds": report.rounds,
                                     "mismatches": report.mismatches})


@router.post("/{event_id}/players", status_code=201, **ANSWER)
@through_db
def add_player(event_id: EventId, body: PlayerIn, request: Request,
               x_organiser_secret: str | None = Header(None)) -> PlayerAddedOut:
    store = _organiser(request, event_id, x_organiser_secret)
    p = _call(lambda: store.add_player(event_id, body.name, body.rating, body.fide_id,
                                       body.federation))
    return PlayerAddedOut.model_validate({"number": p.number, "name": p.name,
                                          "joined_round": p.joined_round})


@router.post("/{event_id}/players/{number}/withdraw", **ANSWER)
@through_db
def withdraw(event_id: EventId, number: Ordinal, request: Request,
             x_organiser_secret: str | None = Header(None)) -> WithdrawnOut:
    store = _organiser(request, event_id, x_organiser_secret)
    p = _call(store.withdraw, event_id, number)
    return WithdrawnOut.model_validate({"number": p.number,
                                        "withdrawn_round": p.withdrawn_round})


@router.post("/{event_id}/byes", status_code=201, **ANSWER)
@through_db
def request_bye(event_id: EventId, body: ByeIn, request: Request,
                x_organiser_secret: str | None = Header(None)) -> ByeOut:
    store = _organiser(request, event_id, x_organiser_secret)
    _call(store.request_bye, event_id, body.player, body.round, body.kind)
    return ByeOut.model_validate({"player": body.player, "round": body.round,
                                  "kind": body.kind})


@router.post("/{event_id}/start", **ANSWER)
@through_db
def start(event_id: EventId, request: Request,
          x_organiser_secret: str | None = Header(None)) -> EventOut:
    store = _organiser(request, event_id, x_organiser_secret)
    if knockout.is_knockout(store, event_id):
        knockout.start(store, event_id)
        return event_out(store.load(event_id))
    return event_out(_call(store.start, event_id))


@router.post("/{event_id}/pair", **ANSWER)
@through_db
def pair(event_id: EventId, request: Request,
               x_organiser_secret: str | None = Header(None)) -> EventOut:
    store = _organiser(request, event_id, x_organiser_secret)
    if knockout.is_knockout(store, event_id):  # opens the bracket's next round
        knockout.open_round(store, event_id)
    else:
        _call(store.pair, event_id)
    return event_out(store.load(event_id))


@router.post("/{event_id}/results", **ANSWER)
@through_db
def result(event_id: EventId, body: ResultIn, request: Request,
           x_organiser_secret: str | None = Header(None)) -> ResultOut:
    store = _organiser(request, event_id, x_organiser_secret)
    if body.reason is not None:
        b = _call(store.correct, event_id, body.round, body.board, body.result, body.reason)
    else:
        b = _call(store.set_result, event_id, body.round, body.board, body.result)
    return ResultOut.model_validate({"round": b.round, "board": b.board, "result": b.result})


@router.post("/{event_id}/close", **ANSWER)
@through_db
def close(event_id: EventId, request: Request,
          x_organiser_secret: str | None = Header(None)) -> EventOut:
    store = _organiser(request, event_id, x_organiser_secret)
    if knockout.is_knockout(store, event_id):
        knockout.close(store, event_id)
        return event_out(store.load(event_id))
    return event_out(_call(store.close, event_id))


def _clock(time_control: str) -> tuple[int, int] | None:
    m = _SECONDS_PLUS.fullmatch(time_control)
    if not m:
        return None
    return int(m[1]) * 1000, int(m[2] or 0) * 1000


class OnlineIn(_Strict):
    # Rated in the event's variant and the speed class of its time control (docs/accounts.md):
    # a game is rated when both players have claimed their seats with their accounts.
    rated: bool = False


@router.post("/{event_id}/rounds/{rnd}/online", **ANSWER)
async def open_online(event_id: EventId, rnd: Ordinal, request: Request,
                      body: OnlineIn | None = None,
                      x_organiser_secret: str | None = Header(None)) -> OnlineOut:
    """Open the round's games on the server; each player's personal link, shown once."""
    db = database(request)
    store = await db.run(_organiser, request, event_id, x_organiser_secret)
    t: Tournament = await db.run(_call, store.load, event_id)
    if not 1 <= rnd <= t.paired_rounds:
        raise ApiError(404, "tournament.no_round", round=rnd)
    service: GameService = request.app.state.service
    clock = _clock(t.event.time_control)
    rated = body is not None and body.rated
    players = getattr(request.app.state, "players", None)  # accounts (accounts_api.py)
    if rated and (clock is None or players is None):
        raise ApiError(422, "tournament.rated_needs_clock")
    links = []
    for b in t.round_boards(rnd):
        if b.is_bye or b.result is not None or b.game_id is not None:
            continue
        setup: int | str = b.setup if b.setup is not None else b.fen
        new = await service.create(t.event.variant, setup, "friend", None, "white", clock)
        game_id = new.game.record.id
        assert new.invite is not None
        if rated and clock is not None and players is not None:
            await db.run(players.accounts.set_terms, game_id, True, speed_class(*clock))
        await db.run(_call, store.link_game, event_id, rnd, b.board, game_id)
        white = f"/#/tournament/{event_id}/seat/{game_id}/{new.token}"
        black = str(request.url_for("open_invite", game_id=game_id, invite=new.invite))
        links.append({"board": b.board, "game_id": game_id,
                      "white": {"number": b.white, "link": white},
                      "black": {"number": b.black, "link": black}})
    return OnlineOut.model_validate({"round": rnd, "games": links})


def install_tournaments(app: FastAPI) -> None:
    """Add the tournament routes, and record the result of an event's online game (or free
    the board of an aborted one) when the game ends, in the process that ended it."""
    service: GameService = app.state.service
    store = TournamentStore(service.store.engine)
    app.state.tournaments = store

    async def record_online_result(live: LiveGame) -> None:
        game_id = live.record.id
        try:
            event_id = await service.db.run(store.event_of_game, game_id, bounded=False)
            if event_id is not None:
                await service.db.run(store.sync_online, event_id, bounded=False)
        except Exception:  # the next organiser step (pair, close) records it then
            log.exception("recording the result of game %s in its event failed", game_id)

    service.end_hooks.append(record_online_result)
    app.include_router(knockout.router)  # before /{event_id}: POST /knockout is its own path
    app.include_router(router)
