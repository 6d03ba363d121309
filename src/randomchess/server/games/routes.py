"""HTTP and WebSocket routes (docs/server.md lists them with their fields)."""

from __future__ import annotations

import hmac
from typing import Literal

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from randomchess.clock import Bonus, Kind, TimeControl, TimeControlError
from randomchess.db import now_ms
from randomchess.server.games import commit
from randomchess.server.games.answers import ANSWER, HealthOut, InviteOut, LevelsOut, LiveOut
from randomchess.server.games.contract import (
    PONG_FRAME,
    STATE_ROUTE,
    ClientFrame,
    GameAction,
    ServerFrameDict,
    error_frame,
    read_frame,
    state_frame,
)
from randomchess.server.games.live import LiveGame, hash_secret
from randomchess.server.games.preview import PREVIEW_MAX_S
from randomchess.server.games.service import GameService
from randomchess.server.http.deps import database
from randomchess.server.http.errors import ApiError, Lang, error_body, lang_of_scope

_TOKEN = Field(min_length=1, max_length=128)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


DAY_MS = 86_400_000
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 14)  # as accounts.ratings (the speed class)


class ClockIn(_Strict):
    """A live clock (``minutes`` + ``increment``) or a correspondence one (``days`` per
    move: each move must be made within that many days of the previous one)."""

    minutes: float | None = Field(None, gt=0, le=600, description="initial time per side")
    increment: float | None = Field(None, ge=0, le=600,
                                    description="seconds added after each move")
    days: int | None = Field(None, strict=True,
                             description="days per move (correspondence): 1, 2, 3, 5, 7 "
                                         "or 14, instead of minutes")

    @model_validator(mode="after")
    def _one_kind(self) -> ClockIn:
        self._check_kind()
        return self

    def _check_kind(self) -> None:
        if self.days is not None:
            if self.days not in CORRESPONDENCE_DAYS:
                raise ValueError(f"days per move are one of {CORRESPONDENCE_DAYS}")
            if self.minutes is not None or self.increment is not None:
                raise ValueError("a clock has either days per move or minutes and increment")
        elif self.minutes is None or self.increment is None:
            raise ValueError("a clock needs minutes and increment, or days per move")

    def terms(self) -> tuple[tuple[int, int], int | None]:
        """((initial ms, increment ms), days per move or None).  A correspondence clock is
        the days per move in ms, given again in full after every move."""
        if self.days is not None:
            return (self.days * DAY_MS, 0), self.days
        return (int((self.minutes or 0) * 60_000), int((self.increment or 0) * 1000)), None


# The longest period and bonus a game online may have (as ClockIn's minutes and increment).
MAX_PERIOD_MS = 600 * 60_000
MAX_BONUS_MS = 600 * 1000


class GameClockIn(ClockIn):
    """A game's clock: as :class:`ClockIn`, or any ``control`` a player or arbiter uses,
    written as PGN ``TimeControl`` (docs/server.md, clocks): periods of moves in time, then
    the rest of the game, each with a Fischer increment (``+5``), a simple delay (``+5d``)
    or a Bronstein delay (``+5b``)."""

    control: str | None = Field(None, max_length=200, description=(
        'PGN TimeControl: "30/1500:300+5" (30 moves in 25 minutes, then 5 minutes with 5 s '
        'a move from move 31), "40/5400+30:1800+30", "300+3d" (3 s simple delay), "300+3b" '
        "(Bronstein); instead of minutes, increment and days"))

    @model_validator(mode="after")
    def _one_kind(self) -> GameClockIn:
        if self.control is None:
            self._check_kind()
            return self
        if self.days is not None or self.minutes is not None or self.increment is not None:
            raise ValueError("a clock has either a control or minutes and increment or days")
        return self

    def time_control(self) -> TimeControl | None:
        """The ``control``, read and checked (422 ``clock.invalid`` or
        ``clock.not_online``, in both languages); None for the other kinds of clock."""
        if self.control is None:
            return None
        try:
            tc = TimeControl.parse(self.control)
        except TimeControlError as e:
            raise ApiError.wrap(422, e) from None
        if tc.kind != Kind.CLOCK:
            raise ApiError(422, "clock.not_online", control=tc.pgn())
        if any(p.time_ms > MAX_PERIOD_MS or p.bonus_ms > MAX_BONUS_MS for p in tc.periods) \
                or tc.initial_ms == 0:
            raise ApiError(422, "clock.out_of_range", control=tc.pgn())
        return tc

    def game_terms(self) -> tuple[tuple[int, int] | None, int | None, TimeControl | None]:
        """((initial ms, increment ms), days per move, control) for ``GameService.create``:
        a control's first period gives the two numbers (the speed class reads them)."""
        control = self.time_control()
        if control is None:
            clock, days = self.terms()
            return clock, days, None
        first = control.periods[0]
        increment = first.bonus_ms if first.bonus == Bonus.INCREMENT else 0
        return (control.initial_ms, increment), None, control


class CreateGameIn(_Strict):
    variant: str = Field(max_length=40, description="chess960, mrc, modern or chess")
    setup: Literal["random"] | int | str = Field(
        "random", description='"random", a setup number, or a FEN')
    opponent: Literal["computer", "friend", "hotseat"] = "computer"
    level: int | None = Field(None, ge=1, le=11, description="computer level 1..8; 9, 10 "
                              "and 11 (maximum) where an external engine plays the variant "
                              "(GET /api/levels)")
    color: Literal["white", "black", "random"] = "random"
    clock: GameClockIn | None = None
    preview: int | None = Field(
        None, ge=0, le=PREVIEW_MAX_S,
        description="the setup preview's countdown, seconds (docs/server.md): by default "
                    "the speed's (20 s bullet and blitz, 60 s rapid, 180 s classical) for a "
                    "timed game between people and none against the computer; 0: none")
    setup_draw: commit.SetupDrawIn | None = Field(
        None, description="against the computer on a random setup: the draw the page "
                          "opened (POST /api/setup-draws) and its client value; the setup "
                          "is derived from both (docs/shuffler.md §10)")


class SeatOut(BaseModel):
    color: Literal["white", "black", "both"]
    token: str


class CreateGameOut(BaseModel):
    id: str
    seat: SeatOut
    invite_url: str | None = None


class TokenIn(_Strict):
    token: str = _TOKEN


class MoveIn(_Strict):
    move: str = Field(min_length=1, max_length=32, description="UCI (e2e4, e1h1) or SAN")
    token: str = _TOKEN
    lag: StrictInt = Field(0, ge=0, le=60_000,
                           description="the network lag (ms) the page measured: up to "
                                       "LAG_CAP_MS of it is given back (lag compensation)")


class ClaimIn(_Strict):
    token: str = _TOKEN
    move: str | None = Field(None, min_length=1, max_length=32,
                             description="claim with this move (FIDE 9.2.1)")


class JoinIn(_Strict):
    invite: str = Field(min_length=1, max_length=128)
    client_value: str | None = Field(
        None, max_length=200,
        description="the joiner's share of a friend game's verifiable setup draw: 32-64 "
                    "lower-case hex digits (docs/shuffler.md §10)")


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _state(game: LiveGame) -> Response:
    # The state is serialised once, here, rather than walked by FastAPI's encoder.
    return Response(game.state_json(now_ms()), media_type="application/json")


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


router = APIRouter()


@router.post("/api/games", response_model=CreateGameOut, response_model_exclude_none=True,
             status_code=201)
async def create_game(body: CreateGameIn, request: Request) -> CreateGameOut:
    """Start a game; the answer holds the creator's seat token (shown once)."""
    service = _service(request)
    if not await service.rate.allow(_client(request), now_ms()):
        raise ApiError(429, "rate.too_many_games")
    clock, days, control = body.clock.game_terms() if body.clock is not None \
        else (None, None, None)
    new = await commit.create(request, body.variant, body.setup, body.opponent, body.level,
                              body.color, clock, days=days, control=control,
                              preview_s=body.preview, setup_draw=body.setup_draw)
    invite_url = None
    if new.invite is not None:
        invite_url = str(request.url_for("open_invite", game_id=new.game.record.id,
                                         invite=new.invite))
    return CreateGameOut(id=new.game.record.id,
                         seat=SeatOut(color=new.color, token=new.token),  # type: ignore[arg-type]
                         invite_url=invite_url)


@router.get("/api/games/{game_id}", **STATE_ROUTE)
async def get_game(game_id: str, request: Request) -> Response:
    return _state(await _service(request).current(game_id))


@router.post("/api/games/{game_id}/moves", **STATE_ROUTE)
async def post_move(game_id: str, body: MoveIn, request: Request) -> Response:
    """Play a move; 409 when it is not this seat's turn or the move is illegal."""
    return _state(await _service(request).perform(game_id, "move", body.token, body.move,
                                                  lag=body.lag))


@router.post("/api/games/{game_id}/draw-claim", **STATE_ROUTE)
async def draw_claim(game_id: str, body: ClaimIn, request: Request) -> Response:
    return _state(await _service(request).perform(game_id, "draw-claim", body.token,
                                                  body.move))


def _action_route(action: GameAction) -> None:
    async def endpoint(game_id: str, body: TokenIn, request: Request) -> Response:
        return _state(await _service(request).perform(game_id, action, body.token))

    endpoint.__name__ = action.replace("-", "_")
    router.post(f"/api/games/{{game_id}}/{action}", name=action, **STATE_ROUTE)(endpoint)


for _action in ("resign", "draw-offer", "draw-accept", "draw-decline", "takeback-offer",
                "takeback-accept", "takeback-decline", "ready"):
    _action_route(_action)


@router.post("/api/games/{game_id}/join", response_model=CreateGameOut,
             response_model_exclude_none=True)
async def join_game(game_id: str, body: JoinIn, request: Request) -> CreateGameOut:
    """Claim the invited seat (once) and receive its token; ``client_value`` fixes a
    pending verifiable setup (docs/shuffler.md §10)."""
    color, token = await commit.join(request, game_id, body.invite, body.client_value)
    return CreateGameOut(id=game_id, seat=SeatOut(color=color, token=token))  # type: ignore[arg-type]


@router.get("/invite/{game_id}/{invite}", name="open_invite", response_model=InviteOut,
            responses={200: {"content": {"text/html": {"schema": {"type": "string"}}},
                             "description": "A browser (Accept: text/html) gets the front "
                                            "end; any other client the game"}})
async def open_invite(game_id: str, invite: str, request: Request) -> Response:
    """The invite URL.  A GET never claims the seat (link previews and ``curl`` fetch URLs):
    a browser gets the front end, whose "Join this game" button calls
    ``POST /api/games/{id}/join``; any other client gets a description of the game, without a
    token (403 for a wrong code, 409 once the invitation has been used)."""
    index = request.app.state.index_html
    if index is not None and "text/html" in request.headers.get("accept", ""):
        return FileResponse(index, headers={"Vary": "Accept", "Cache-Control": "no-store"})
    live = await _service(request).load(game_id)
    r = live.record
    if r.invite_hash is None:
        raise ApiError(409, "invite.used")
    if not hmac.compare_digest(hash_secret(invite), r.invite_hash):
        raise ApiError(403, "invite.wrong")
    pending = await database(request).run(commit.pending_of_game,
                                          request.app.state.lobby.accounts, game_id)
    return JSONResponse({
        "id": game_id, "variant": r.variant, "number": r.number, "status": r.status,
        # a setup drawn at the join: the commitment the joiner's value meets (issue 32)
        "setup_commit": None if pending is None else pending["commitment"],
        "invite_open": True, "color": "black" if r.black_token is None else "white",
        "clock": None if r.clock_initial_ms is None else
        {"initial": r.clock_initial_ms, "increment": r.clock_increment_ms,
         "days": r.days_per_move, "control": live.control.pgn(),
         "label": {"en": live.control.label("en"), "es": live.control.label("es")}},
        "join": f"/api/games/{game_id}/join",
    }, headers={"Vary": "Accept", "Cache-Control": "no-store"})


@router.get("/api/games/{game_id}/pgn", response_class=PlainTextResponse)
async def get_pgn(game_id: str, request: Request, review: bool = True,
                  lang: Literal["en", "es"] = "en") -> PlainTextResponse:
    """The game's PGN; once it has a computer review (issue 14), with the review's
    ``[%eval]`` comments, marks and better lines in ``lang`` (``review=false``: without)."""
    from randomchess.server.engines.routes import engine_help_allowed, reviewed_pgn
    from randomchess.server.games.commit import draw_of_game, pgn_tags

    service = _service(request)
    live = await service.load(game_id)  # a malformed or unknown id: 404 before any query
    draw = await database(request).run(draw_of_game, request.app.state.lobby.accounts, game_id)
    text = await service.pgn(game_id, request.url.netloc, pgn_tags(draw))  # issue 32
    if review and engine_help_allowed(live):  # no evaluations of a live game between people
        text = await reviewed_pgn(request, game_id, text, live.record.moves, lang) or text
    return PlainTextResponse(
        text, media_type="application/x-chess-pgn",
        headers={"Content-Disposition": f'attachment; filename="randomchess-{game_id}.pgn"'})


@router.get("/api/health/live", **ANSWER)
async def live() -> LiveOut:
    """Liveness: the process answers (nothing else is checked; a load balancer's
    readiness check is ``/api/health``)."""
    return LiveOut(live=True)


@router.get("/api/health", response_model=HealthOut,
            responses={503: {"model": HealthOut, "description": "This process's engine pool "
                             "is being rebuilt (or the database's catalogue 503)"}})
async def health(request: Request) -> JSONResponse:
    """What players of this process get (issue 28).  503 only when it cannot serve them:
    the database does not answer within the timeout (the catalogue's 503), or its own
    engine pool is being rebuilt after a worker died (computer moves wait meanwhile and
    resume by themselves).  Otherwise 200, with ``ok`` false when something is degraded
    that players still get around: ``engine`` ``fallback`` (the engine queue is unreachable:
    this server searches itself), ``no-workers``; ``pushes`` ``local-only`` (the Redis
    subscription is down: this process's sockets hear this process's moves, and every
    socket gets the newest state once it is back), ``live`` or ``local`` (no Redis)."""
    service = _service(request)
    await service.ping()
    details = await service.engine.health() if service.engine is not None else None
    engine = details["status"] if details is not None else "off"
    hub = service.hub
    pushes = "local" if not hub.fan_out else "live" if hub.subscribed else "local-only"
    body = {"ok": engine in ("ok", "off") and pushes != "local-only",
            "database": service.store.dialect, "engine": engine, "pushes": pushes,
            "engine_service": details}
    return JSONResponse(body, status_code=503 if engine == "degraded" else 200)


@router.get("/api/levels", **ANSWER)
async def levels(request: Request) -> LevelsOut:
    """The computer levels each variant offers on this server and who plays each one:
    1..8 our engine, 9, 10 and 11 (maximum) Stockfish or Fairy-Stockfish where present."""
    from randomchess.analysis.levels import level_table

    service = _service(request)
    engines = await service.engine.levels() if service.engine is not None else {}
    return LevelsOut.model_validate(level_table(engines))


# --------------------------------------------------------------------- WebSocket
@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """Pushes ``{"type": "state", "game": ...}`` on every change, starting with the current
    state; accepts actions ``{"type": "move", "move": ..., "token": ...}``.  Every frame is a
    model of ``contract`` (``ServerFrame``, ``ClientFrame``)."""
    service: GameService = websocket.app.state.service
    limit: int = websocket.app.state.settings.max_body_bytes
    await websocket.accept()
    lang = lang_of_scope(websocket.scope)
    try:
        state = await service.state(game_id)
    except ApiError as e:
        await websocket.send_json(error_frame(e.status, e.body(lang)))
        # 4404: no such game; 1013: try again later (the database is down).
        await websocket.close(code=4404 if e.status == 404 else 1013)
        return
    service.hub.add(game_id, websocket)
    try:
        await websocket.send_json(state_frame(state))
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            # A binary frame is refused like a bad one; the socket serves on.
            reply = await _ws_message(service, game_id, message.get("text"), limit, lang)
            if reply is not None:
                await websocket.send_json(reply)
    except WebSocketDisconnect:
        pass
    finally:
        service.hub.discard(game_id, websocket)


async def _ws_message(service: GameService, game_id: str, text: str | None, limit: int,
                      lang: Lang = "en") -> ServerFrameDict | None:
    """Handle one client frame; the answer to the sender only (state goes to all)."""
    msg = read_frame(text, ClientFrame, limit, lang)
    if not isinstance(msg, ClientFrame):
        return msg
    if msg.type == "ping":
        return PONG_FRAME
    if msg.type == "state":
        try:
            return state_frame(await service.state(game_id))
        except ApiError as e:
            return error_frame(e.status, e.body(lang))
    if msg.token is None:
        return error_frame(403, error_body("seat.token_required", lang))
    try:
        await service.perform(game_id, msg.type, msg.token, msg.move, lag=msg.lag)
    except ApiError as e:
        return error_frame(e.status, e.body(lang))
    return None
