"""Tournament routes (docs/tournaments.md, "Web"): a public view of every event and the
organiser's steps, each guarded by the event's organiser secret (sent in the
``X-Organiser-Secret`` header; the database keeps only its SHA-256) or by the signed-in
account of its organiser or a co-arbiter (issue 30: the session cookie and its CSRF token).

Online games: the organiser opens a round's games on the server; each player gets a personal
link (White's seat token, Black's invitation) and a game's result becomes the board's result,
final, when the game ends.
"""

from __future__ import annotations

import functools
import logging
import re
from fractions import Fraction
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Header, Request
from fastapi import Path as PathParam
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from randomchess.db import now_ms
from randomchess.diagram import svg_diagram
from randomchess.server.accounts.deps import current_session
from randomchess.server.games.live import LiveGame
from randomchess.server.games.preview import PREVIEW_MAX_S
from randomchess.server.games.service import GameService
from randomchess.server.http.deps import database, through_db
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import EventId, Line, Ordinal, Text, check_game_id
from randomchess.server.tournaments import explorer_sweep, rights
from randomchess.server.tournaments import knockout_routes as knockout
from randomchess.server.tournaments import live as live_relay
from randomchess.server.tournaments import reviews as otb_reviews
from randomchess.server.tournaments.answers import (
    ANSWER,
    EXPORT,
    SVG,
    ByeOut,
    CreatedOut,
    EventBoardOut,
    EventListOut,
    EventOut,
    EventSummaryOut,
    GameEventOut,
    GameOut,
    LiveOut,
    MyEventsOut,
    OnlineOut,
    OpenedOut,
    PlayerAddedOut,
    ResultOut,
    RevealedOut,
    StaffOut,
    VerifyOut,
    WithdrawnOut,
)
from randomchess.server.tournaments.openings import (
    RoundOpener,
    clock_of,
    open_games,
    plan_links,
    watch_links,
)
from randomchess.startpos import setup_from_number
from randomchess.tournament import errors, openings
from randomchess.tournament.bulletin import bulletin_html
from randomchess.tournament.export import (
    CROSSTABLE_CSP,
    crosstable_csv,
    crosstable_html,
    game_records,
    pgn,
)
from randomchess.tournament.model import Tournament
from randomchess.tournament.openings import PlannedGame
from randomchess.tournament.setups import parse_setup_list
from randomchess.tournament.staff import ORGANISER, Staff, Summary
from randomchess.tournament.store import TournamentStore, check_playable, verify, window_end
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
    # Setups from the salt alone, or revealed in the hall round by round (docs/shuffler.md)
    setup_source: Literal["salt", "hall"] = "salt"
    excluded: Line = Field("", max_length=400, description=(
        "setups never drawn: numbers (518,534) and/or the word standard (the standard "
        "array and its mirror)"))
    shortlist: Line | None = Field(None, max_length=2000, description=(
        "draw only from these setup numbers"))
    prep_minutes: Literal[0, 5, 10, 15] = 0
    preview: int | None = Field(
        None, ge=0, le=PREVIEW_MAX_S,
        description="the setup preview's countdown of the online games, seconds (0: none; "
                    "none given: the speed's, 20 s bullet and blitz, 60 s rapid, 180 s "
                    "classical)")

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


class RevealIn(_Strict):
    # Checked by the store, so that an empty or malformed input gets its own translated
    # reason (tournament.reveal) rather than a schema error.
    input: str = Field(max_length=200, description=(
        "the digits drawn in the hall: 0-9 (dice 1-6 are digits too), at least 6; spaces "
        "ignored"))
    online: bool = Field(False, description=(
        "the server opens the round's online games itself when the preparation window "
        "ends (at once without a window); the players' links are in this answer, once"))
    rated: bool = Field(False, description="those games rated (as OnlineIn.rated)")


class ResultIn(_Strict):
    round: Ordinal
    board: Ordinal
    result: Line = Field(min_length=1, max_length=8)
    reason: Text | None = Field(None, max_length=500, description="set: a correction")


class GameIn(_Strict):
    text: Text = Field(min_length=1, max_length=12_000,
                       description="the scoresheet: SAN in English or Spanish")
    notation: Literal["en", "es"] | None = Field(None, description="null: from the letters")
    result: Line | None = Field(None, min_length=1, max_length=8)
    replace: bool = Field(False, description="replace a game stored for the board")


_STATUS = {
    errors.GameExistsError: 409,
    errors.UnknownEventError: 404,
    errors.UnknownPlayerError: 404,
    errors.EventClosedError: 409,
    errors.PairingError: 409,
    errors.RegistrationError: 409,
    errors.ResultError: 409,
    errors.CorrectionError: 409,
    errors.VerificationError: 409,
    errors.PreparationError: 409,
    errors.StaffError: 409,
}


def _reveal_status(e: errors.RevealError) -> int:
    return 422 if e.reason in ("empty", "alphabet", "short", "long") else 409


def _store(request: Request) -> TournamentStore:
    store: TournamentStore = request.app.state.tournaments  # made by install_tournaments
    return store


def _call(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except errors.RevealError as e:
        raise ApiError.wrap(_reveal_status(e), e) from None
    except errors.TournamentError as e:
        raise ApiError.wrap(_STATUS.get(type(e), 422), e) from None


def _staff(request: Request) -> Staff:
    staff: Staff = request.app.state.tournament_staff  # made by install_tournaments
    return staff


_role = rights.role_of


def _organiser(request: Request, event_id: EventId, secret: str | None,
               owner: bool = False) -> TournamentStore:
    """The store, once the request may run the event's steps (``owner``: may also change
    who runs it: the organiser's account or the secret, not a co-arbiter)."""
    store = _store(request)
    _call(store.load, event_id)  # 404 first
    role = _role(request, event_id, secret, changing=True)
    if role is None:
        raise ApiError(403, "tournament.organiser_only")
    if owner and role != ORGANISER:
        raise ApiError(403, "tournament.owner_only")
    return store


def _frac(x: Fraction) -> float:
    return float(x)


def event_out(t: Tournament, opens: dict[int, int] | None = None) -> EventOut:
    """The event's answer; ``opens``: when the server opens each round's online games
    (rounds still to open)."""
    out = event_json(t)
    for r in out["round_list"]:
        r["opens_at"] = (opens or {}).get(r["round"])
    return EventOut.model_validate(out)


def _opens(store: TournamentStore, event_id: str) -> dict[int, int]:
    return {r: o.due_at for r, o in openings.of_event(store.engine, event_id).items()
            if o.state in ("waiting", "opening")}


def _reveal_json(t: Tournament, rnd: int) -> dict[str, Any] | None:
    r = t.reveal_of(rnd)
    if r is None:
        return None
    return {"round": r.round, "input": r.input, "at": r.at, "key": r.key,
            "window_ends": window_end(t, rnd)}


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
                item["castling"] = {"en": s.castling("en"), "es": s.castling("es")}
            boards.append(item)
        rounds.append({"round": r, "complete": t.round_complete(r), "boards": boards,
                       "awaits_reveal": t.awaits_reveal(r), "reveal": _reveal_json(t, r)})
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
        "setup_source": e.setup_source, "excluded": list(e.excluded),
        "shortlist": None if e.shortlist is None else list(e.shortlist),
        "prep_minutes": e.prep_minutes, "preview": e.preview_s,
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
    excluded = _call(parse_setup_list, body.excluded, body.variant)
    shortlist = None if body.shortlist is None else _call(parse_setup_list, body.shortlist,
                                                          body.variant)
    session = await rights.creator(request)
    owner = None if session is None else session.user_id
    created = await database(request).run(lambda: _call(lambda: store.create(
        body.name, variant=body.variant, system=body.system, rounds=body.rounds,
        time_control=body.time_control, tiebreaks=body.tiebreaks,
        setup_policy=body.setup_policy, mini_match=body.mini_match,
        exclude_standard=body.exclude_standard, bishops=body.bishops,
        no_repeat=body.no_repeat, initial_colour=body.initial_colour, organiser=True,
        eval_band=None if body.eval_band is None else round(body.eval_band * 100),
        tiebreak_edition=body.tiebreak_edition, setup_source=body.setup_source,
        excluded=excluded, shortlist=shortlist, prep_minutes=body.prep_minutes,
        preview_s=body.preview,
        owner=owner)))
    return CreatedOut.model_validate({"id": created.event.id,
                                      "commitment": created.event.commitment,
                                      "organiser_secret": created.organiser_secret,
                                      "organiser": None if session is None else session.name})


def _summary(s: Summary) -> EventSummaryOut:
    out = {"id": s.id, "name": s.name, "variant": s.variant, "system": s.system,
           "rounds": s.rounds, "status": s.status, "players": s.players,
           "paired_rounds": s.paired_rounds, "created_at": s.created_at,
           "organiser": s.organiser}
    if s.role is not None:
        out["role"] = s.role
    return EventSummaryOut.model_validate(out)


@router.get("", **ANSWER)
@through_db
def list_events(request: Request) -> EventListOut:
    """Every event, by status (registration, running, closed), newest first."""
    rows = _staff(request).listing()
    by = {status: [_summary(s) for s in rows if s.status == status]
          for status in ("registration", "running", "closed")}
    return EventListOut(upcoming=by["registration"], running=by["running"],
                        finished=by["closed"])


def _staff_out(request: Request, event_id: str, secret: str | None) -> StaffOut:
    listed = _staff(request).staff(event_id)
    return StaffOut(organiser=listed.organiser, arbiters=listed.arbiters,
                    you=_role(request, event_id, secret, changing=False))


@router.get("/{event_id}/staff", **ANSWER)
@through_db
def get_staff(event_id: EventId, request: Request,
              x_organiser_secret: str | None = Header(None)) -> StaffOut:
    """The organiser and co-arbiters, and what this browser may do (its account or the
    secret it sends)."""
    _call(_store(request).load, event_id)  # 404
    return _staff_out(request, event_id, x_organiser_secret)


class ArbiterIn(_Strict):
    name: Line = Field(min_length=1, max_length=64, description="an account's name")


@router.post("/{event_id}/arbiters", status_code=201, **ANSWER)
@through_db
def add_arbiter(event_id: EventId, body: ArbiterIn, request: Request,
                x_organiser_secret: str | None = Header(None)) -> StaffOut:
    """Add a co-arbiter by account name (the organiser's account or secret only)."""
    _organiser(request, event_id, x_organiser_secret, owner=True)
    _call(_staff(request).add_arbiter, event_id, body.name)
    return _staff_out(request, event_id, x_organiser_secret)


@router.delete("/{event_id}/arbiters/{name}", **ANSWER)
@through_db
def remove_arbiter(event_id: EventId, name: Annotated[Line, PathParam(max_length=64)],
                   request: Request,
                   x_organiser_secret: str | None = Header(None)) -> StaffOut:
    _organiser(request, event_id, x_organiser_secret, owner=True)
    _call(_staff(request).remove_arbiter, event_id, name)
    return _staff_out(request, event_id, x_organiser_secret)


# Routes outside /api/tournaments: the account's events, and an online game's event board.
others = APIRouter(tags=["tournaments"])


@others.get("/api/account/events", **ANSWER)
async def my_events(request: Request) -> MyEventsOut:
    """The events the signed-in account organises or arbitrates."""
    session = await current_session(request)
    if session is None:
        raise ApiError(401, "account.login_required")
    rows = await database(request).run(_staff(request).events_of, session.user_id)
    return MyEventsOut(events=[_summary(s) for s in rows])


@others.get("/api/games/{game_id}/event", **ANSWER)
@through_db
def game_event(game_id: str, request: Request) -> GameEventOut:
    """The event, round and board of an online game, with the players' names (none for a
    game outside events: every game page asks)."""
    check_game_id(game_id)
    store = _store(request)
    event_id = store.event_of_game(game_id)
    if event_id is None:
        return GameEventOut(board=None)
    t: Tournament = _call(store.load, event_id)
    if t.event.system == "knockout":  # the board is the match
        rnd, match, game, white, black = knockout.game_of(store, event_id, game_id)
        return GameEventOut(board=EventBoardOut(event_id=event_id, event=t.event.name,
                                                round=rnd, board=match, game=game,
                                                white=white, black=black))
    b = next(b for b in t.boards if b.game_id == game_id)
    names = {p.number: p.name for p in t.players}
    return GameEventOut(board=EventBoardOut(
        event_id=event_id, event=t.event.name, round=b.round, board=b.board, game=None,
        white=names[b.white], black=names[b.black] if b.black is not None else ""))


@router.get("/{event_id}", **ANSWER)
@through_db
def get_event(event_id: EventId, request: Request) -> EventOut:
    # Read only (issue 28): the games that ended are shown as they ended; the server
    # records them when they end (install_tournaments).
    store = _store(request)
    t = _call(store.load_live, event_id)
    return event_out(t, _opens(store, event_id))


@router.get("/{event_id}/rounds/{rnd}/setup.svg", response_class=Response, responses=SVG)
@through_db
def setup_svg(event_id: EventId, rnd: Ordinal, request: Request, board: Ordinal = 1,
              lang: Literal["en", "es"] = "en") -> Response:
    t: Tournament = _call(_store(request).load, event_id)
    games = [b for b in t.round_boards(rnd) if not b.is_bye]
    chosen = next((b for b in games if b.board == board), None)
    if chosen is None:
        raise ApiError(404, "tournament.no_board", round=rnd, board=board)
    if chosen.fen == "":
        raise ApiError(404, "tournament.not_revealed", round=rnd)
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
        # Its own policy: the page's one inline style sheet, allowed by its hash (issue 30).
        return Response(crosstable_html(t, lang), media_type="text/html",
                        headers={"Content-Security-Policy": CROSSTABLE_CSP})
    if fmt_ == "pgn":
        return Response(pgn(t, store.online_moves, site=str(request.base_url),
                            otb_games=store.otb_games(event_id), review_of=store.review_of),
                        media_type="application/x-chess-pgn")
    if fmt_ == "bulletin":
        records = game_records(t, store.online_moves, store.otb_games(event_id),
                               store.review_of)
        return Response(bulletin_html(t, records, lang), media_type="text/html")
    raise ApiError(404, "tournament.no_format", format=fmt_)


@router.get("/{event_id}/verify", **ANSWER)
@through_db
def verify_event(event_id: EventId, request: Request,
                 lang: Literal["en", "es"] = "en") -> VerifyOut:
    t: Tournament = _call(_store(request).load, event_id)
    if t.event.system == "knockout":
        return knockout.verify_event(_store(request), event_id)
    report = _call(verify, t, lang)
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
        return event_out(store.load(event_id))
    boards = _call(store.pair, event_id)
    # A mini-match's replay round whose games were made at its first round's reveal.
    rnd = boards[0].round if boards else 0
    o = openings.of_event(store.engine, event_id).get(rnd)
    if o is not None and o.state == "waiting":
        opener: RoundOpener = request.app.state.round_opener
        opener.arm_soon(event_id, rnd, o.due_at)
    return event_out(store.load(event_id), _opens(store, event_id))


@router.post("/{event_id}/rounds/{rnd}/reveal", **ANSWER)
@through_db
def reveal(event_id: EventId, rnd: Ordinal, body: RevealIn, request: Request,
           x_organiser_secret: str | None = Header(None)) -> RevealedOut:
    """Reveal a hall round's setup from the salt and the digits drawn in the hall.  The
    answer comes once the reveal is committed; a second reveal of the round is refused.
    ``online``: the games are made now and the players' links are in this answer, once;
    the server creates those games when the preparation window ends."""
    store = _organiser(request, event_id, x_organiser_secret)
    t: Tournament = _call(store.load, event_id)
    if body.online and body.rated and (clock_of(t.event.time_control) is None
                                       or getattr(request.app.state, "players", None) is None):
        raise ApiError(422, "tournament.rated_needs_clock")
    planned: list[PlannedGame] | None = None
    shown: list[dict[str, Any]] = []
    if body.online and 1 <= rnd <= t.paired_rounds:
        planned, shown = plan_links(t, rnd)
    _call(store.reveal, event_id, rnd, body.input, planned, body.rated)
    if planned is not None:  # this process's timer; the others' (and a restart's) read the row
        o = openings.of_event(store.engine, event_id)[rnd]
        opener: RoundOpener = request.app.state.round_opener
        opener.arm_soon(event_id, rnd, o.due_at)
    out = event_out(store.load_live(event_id), _opens(store, event_id))
    return RevealedOut.model_validate({**out.model_dump(), "online": shown})


def _invite_url(request: Request, game_id: str, code: str) -> str:
    return str(request.url_for("open_invite", game_id=game_id, invite=code))


@router.post("/{event_id}/results", **ANSWER)
@through_db
def result(event_id: EventId, body: ResultIn, request: Request,
           x_organiser_secret: str | None = Header(None)) -> ResultOut:
    store = _organiser(request, event_id, x_organiser_secret)
    # A board's online game that has just ended is final even before the end hook (a task
    # of its own) has recorded it: record it first, so a first result cannot overwrite it.
    store.sync_online(event_id)
    if body.reason is not None:
        b = _call(store.correct, event_id, body.round, body.board, body.result, body.reason)
    else:
        b = _call(store.set_result, event_id, body.round, body.board, body.result)
    live_relay.hub_of(request.app).bump(event_id)
    return ResultOut.model_validate({"round": b.round, "board": b.board, "result": b.result})


@router.post("/{event_id}/rounds/{rnd}/boards/{board}/game", **ANSWER)
@through_db
def enter_game(event_id: EventId, rnd: Ordinal, board: Ordinal, body: GameIn,
               request: Request, x_organiser_secret: str | None = Header(None)) -> GameOut:
    """Store a board's over-the-board game, checked move by move from the round's setup;
    the first bad move is refused naming the game, ply and token (issue 31)."""
    store = _organiser(request, event_id, x_organiser_secret)
    g = _call(lambda: store.enter_game(event_id, rnd, board, body.text, lang=body.notation,
                                       result=body.result, replace_game=body.replace))
    live_relay.hub_of(request.app).bump(event_id)  # spectators see it at once
    if g.finished:
        otb_reviews.queue_from_route(request.app, store, event_id, g)
    return GameOut.model_validate({
        "round": g.round, "board": g.board, "moves": list(g.moves), "san": list(g.san),
        "clocks": list(g.clocks), "result": g.result, "notation": g.lang})


@router.get("/{event_id}/rounds/{rnd}/live", **ANSWER)
@through_db
def live(event_id: EventId, rnd: Ordinal, request: Request) -> LiveOut:
    """The boards of a round with their over-the-board moves so far (issue 31's relay); the
    setup is there before the first move.  ``WS /ws/tournaments/{id}/rounds/{r}/live`` pushes
    the same answer on every change (server/tournaments/live.py)."""
    store = _store(request)
    t: Tournament = _call(store.load, event_id)
    return LiveOut.model_validate(live_relay.live_round(store, t, rnd))


class CloseIn(_Strict):
    early: Text | None = Field(None, max_length=500,
                               description="close after the last complete round although "
                                           "rounds remain, with the arbiter's reason (logged)")


@router.post("/{event_id}/close", **ANSWER)
@through_db
def close(event_id: EventId, request: Request, body: CloseIn | None = None,
          x_organiser_secret: str | None = Header(None)) -> EventOut:
    store = _organiser(request, event_id, x_organiser_secret)
    if knockout.is_knockout(store, event_id):
        knockout.close(store, event_id)
        return event_out(store.load(event_id))
    return event_out(_call(store.close, event_id, None if body is None else body.early))


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
    if t.event.system == "knockout":  # the round's due games: each match's next game
        games = await knockout.open_online(request, store, event_id, rnd,
                                           body is not None and body.rated)
        return OnlineOut.model_validate({"round": rnd, "games": games})
    if not 1 <= rnd <= t.paired_rounds:
        raise ApiError(404, "tournament.no_round", round=rnd)
    _call(check_playable, t, rnd, now_ms())  # revealed, preparation window over
    rated = body is not None and body.rated
    players = getattr(request.app.state, "players", None)  # accounts (accounts_api.py)
    if rated and (clock_of(t.event.time_control) is None or players is None):
        raise ApiError(422, "tournament.rated_needs_clock")

    links = await open_games(request.app, store, t, rnd, rated,
                             functools.partial(_invite_url, request))
    return OnlineOut.model_validate({"round": rnd, "games": links})


@router.get("/{event_id}/rounds/{rnd}/online", **ANSWER)
@through_db
def online_links(event_id: EventId, rnd: Ordinal, request: Request,
                 x_organiser_secret: str | None = Header(None)) -> OpenedOut:
    """A round the server opens by itself when its preparation window ends (issue 30), for
    the event's organiser and co-arbiters: its state and the games to watch.  No seat: the
    players' links were shown once, in the reveal's answer, and are stored nowhere."""
    store = _store(request)
    t: Tournament = _call(store.load, event_id)  # 404 first
    if _role(request, event_id, x_organiser_secret, changing=False) is None:
        raise ApiError(403, "tournament.organiser_only")
    o = openings.of_event(store.engine, event_id).get(rnd)
    games = watch_links(t, rnd) if 1 <= rnd <= t.paired_rounds else []
    return OpenedOut.model_validate({
        "round": rnd, "state": o.state if o else "none",
        "opens_at": o.due_at if o and o.state in ("waiting", "opening") else None,
        "games": games})


def install_tournaments(app: FastAPI) -> None:
    """Add the tournament routes, and record the result of an event's online game (or free
    the board of an aborted one) when the game ends, in the process that ended it."""
    service: GameService = app.state.service
    store = TournamentStore(service.store.engine)
    app.state.tournaments = store
    app.state.tournament_staff = Staff(service.store.engine)

    async def record_online_result(live: LiveGame) -> None:
        game_id = live.record.id
        try:
            event_id = await service.db.run(store.event_of_game, game_id, bounded=False)
            if event_id is not None and await service.db.run(knockout.is_knockout, store,
                                                             event_id, bounded=False):
                await service.db.run(knockout.sync, store, event_id, bounded=False)
            elif event_id is not None:
                await service.db.run(store.sync_online, event_id, bounded=False)
        except Exception:  # the next organiser step (pair, close) records it then
            log.exception("recording the result of game %s in its event failed", game_id)

    service.end_hooks.append(record_online_result)
    # Finished over-the-board games stored by other processes are reviewed too (issue 31).
    service.background_hooks.append(lambda: otb_reviews.sweep_forever(app))
    # ... and counted in the opening explorer under the source "otb" (issue 33).
    service.background_hooks.append(lambda: explorer_sweep.sweep_forever(app))
    # Rounds the server opens itself when their preparation window ends (issue 30): armed
    # from the database at the start, so a restart during a countdown loses nothing.
    opener = app.state.round_opener = RoundOpener(app, store)
    service.start_hooks.append(opener.start)
    service.close_hooks.append(opener.stop)
    app.include_router(knockout.router)  # before /{event_id}: POST /knockout is its own path
    app.include_router(router)
    app.include_router(others)
    app.include_router(live_relay.router)
    live_relay.hub_of(app)
