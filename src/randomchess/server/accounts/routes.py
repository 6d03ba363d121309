"""Account routes (docs/accounts.md): sign up, log in and out, password, deletion, seats held
by accounts, rated games and ratings.  ``install_accounts(app)`` adds them to the app and
hooks the rating of rated games into the service's game-end path.

Cookie-authenticated state changes need the session's CSRF token in ``X-CSRF-Token``; before
a session exists (sign up, log in) the header must repeat the ``rc_csrf`` cookie (double
submit).  The seat-token API of :mod:`api` reads no cookie and is unchanged.
"""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from randomchess.db import now_ms
from randomchess.server.accounts.answers import (
    ANSWER,
    AccountGamesOut,
    AccountOut,
    ClaimOut,
    CsrfOut,
    GameRatingsOut,
    MeOut,
    PlayerOut,
    SessionOut,
    SetupStatsOut,
    TakeSeatOut,
    TurnOut,
)
from randomchess.server.accounts.brief_routes import router as brief_router
from randomchess.server.accounts.deps import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    Players,
    changing_session,
    current_session,
    players_of,
)
from randomchess.server.accounts.lobby import LOBBY, Lobby
from randomchess.server.accounts.lobby import router as lobby_router
from randomchess.server.accounts.store import (
    MAX_PASSWORD,
    SESSION_MS,
    Accounts,
    NewSession,
    Session,
    game_speed,
    same_secret,
    setup_statistics,
)
from randomchess.server.games import commit
from randomchess.server.games.live import COLOR_NAMES, LiveGame, hash_secret
from randomchess.server.games.routes import CreateGameIn, CreateGameOut, SeatOut
from randomchess.server.games.service import GameService
from randomchess.server.games.store import GameChanges
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import Count, Int32, Line, Text, check_game_id
from randomchess.server.http.ratelimit import Rule


# --------------------------------------------------------------------- bodies
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Strict):
    name: Line = Field(min_length=1, max_length=64)
    password: Text = Field(min_length=1, max_length=MAX_PASSWORD)


class PasswordIn(_Strict):
    password: Text = Field(min_length=1, max_length=MAX_PASSWORD)


class NewPasswordIn(_Strict):
    old: Text = Field(min_length=1, max_length=MAX_PASSWORD)
    new: Text = Field(min_length=1, max_length=MAX_PASSWORD)


class AccountGameIn(CreateGameIn):
    rated: bool = False


class AccountGameOut(CreateGameOut):
    rated: bool
    speed: str


class ClaimIn(_Strict):
    token: Line = Field(min_length=1, max_length=128)


# --------------------------------------------------------------------- helpers
def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _accounts(request: Request) -> Accounts:
    return players_of(request).accounts


async def _run(request: Request, fn: Any, *args: Any) -> Any:
    return await players_of(request).run(fn, *args)


def _secure(request: Request) -> bool:
    """Cookies marked Secure: always when configured (behind a TLS proxy), else over https."""
    return bool(request.app.state.settings.cookie_secure == "always"
                or request.url.scheme == "https")


def _set_cookies(request: Request, response: Response, new: NewSession) -> None:
    secure = _secure(request)
    response.set_cookie(SESSION_COOKIE, new.token, max_age=SESSION_MS // 1000, path="/",
                        httponly=True, secure=secure, samesite="lax")
    # Readable by the page's script, which sends it back in X-CSRF-Token.
    response.set_cookie(CSRF_COOKIE, new.session.csrf, max_age=SESSION_MS // 1000, path="/",
                        httponly=False, secure=secure, samesite="lax")


def _clear_cookies(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")


def _check_double_submit(request: Request) -> None:
    if not same_secret(request.headers.get(CSRF_HEADER), request.cookies.get(CSRF_COOKIE)):
        raise ApiError(403, "account.csrf")


async def _limit(request: Request, key: str, rule: tuple[int, int]) -> None:
    if not await players_of(request).limits.take(f"account:{key}", Rule.per_window(*rule),
                                               now_ms()):
        raise ApiError(429, "rate.too_many_attempts")


async def _allow_create(service: GameService, client: str) -> bool:
    # The server's creation limit (shared through Redis when configured) counts these too.
    return bool(await service.rate.allow(client, now_ms()))


def _me(s: Session) -> MeOut:
    return MeOut(name=s.name, csrf=s.csrf)


router = APIRouter()


# --------------------------------------------------------------------- account
@router.get("/api/account/csrf", **ANSWER)
async def csrf(request: Request, response: Response) -> CsrfOut:
    """The token to repeat in ``X-CSRF-Token`` when signing up or logging in."""
    token = request.cookies.get(CSRF_COOKIE)
    if not token or len(token) > 128:
        token = secrets.token_urlsafe(32)
    response.set_cookie(CSRF_COOKIE, token, path="/", httponly=False,
                        secure=_secure(request), samesite="lax")
    return CsrfOut(csrf=token)


@router.post("/api/account/signup", status_code=201, **ANSWER)
async def sign_up(body: Credentials, request: Request, response: Response) -> MeOut:
    _check_double_submit(request)
    players = players_of(request)
    await _limit(request, f"signup:{_client(request)}", players.signup_per_address)
    new: NewSession = await players.sign_up(body.name, body.password)
    _set_cookies(request, response, new)
    return _me(new.session)


@router.post("/api/account/login", **ANSWER)
async def log_in(body: Credentials, request: Request, response: Response) -> MeOut:
    _check_double_submit(request)
    players = players_of(request)
    await _limit(request, f"login:{_client(request)}", players.login_per_address)
    await _limit(request, f"login-name:{body.name.lower()}", players.login_per_name)
    new: NewSession = await players.log_in(body.name, body.password)
    # No fixation: whatever session this browser had ends; the new one has a fresh id.
    old = await current_session(request)
    if old is not None:
        await _run(request, players.accounts.log_out, old)
    _set_cookies(request, response, new)
    return _me(new.session)


@router.post("/api/account/logout", status_code=204)
async def log_out(request: Request, response: Response) -> None:
    s = await changing_session(request)
    await _run(request, _accounts(request).log_out, s)
    _clear_cookies(response)


@router.post("/api/account/logout-everywhere", status_code=204)
async def log_out_everywhere(request: Request, response: Response) -> None:
    s = await changing_session(request)
    await _run(request, _accounts(request).log_out_everywhere, s)
    _clear_cookies(response)


@router.post("/api/account/password", **ANSWER)
async def change_password(body: NewPasswordIn, request: Request,
                          response: Response) -> MeOut:
    s = await changing_session(request)
    await _limit(request, f"login-name:{s.name.lower()}", players_of(request).login_per_name)
    new: NewSession = await players_of(request).change_password(s, body.old, body.new)
    _set_cookies(request, response, new)
    return _me(new.session)


@router.post("/api/account/delete", status_code=204)
async def delete_account(body: PasswordIn, request: Request, response: Response) -> None:
    s = await changing_session(request)
    await _limit(request, f"login-name:{s.name.lower()}", players_of(request).login_per_name)
    await players_of(request).delete_account(s, body.password)
    _clear_cookies(response)


@router.get("/api/account/me", **ANSWER)
async def me(request: Request) -> AccountOut:
    s = await current_session(request)
    if s is None:
        raise ApiError(401, "account.not_logged_in")
    ratings = await _run(request, _accounts(request).ratings, s.user_id)
    return AccountOut.model_validate({"name": s.name, "csrf": s.csrf, "ratings": ratings})


@router.get("/api/account/session", **ANSWER)
async def session(request: Request) -> SessionOut:
    """The logged-in account, or ``{"account": null}``: what a page asks on every load,
    answered 200 either way (``/api/account/me`` answers 401 when nobody is logged in)."""
    s = await current_session(request)
    if s is None:
        return SessionOut(account=None)
    ratings = await _run(request, _accounts(request).ratings, s.user_id)
    return SessionOut.model_validate({"account": {"name": s.name, "csrf": s.csrf,
                                                  "ratings": ratings}})


@router.get("/api/players/{name}", **ANSWER)
async def player(name: Annotated[Line, Path(max_length=64)], request: Request) -> PlayerOut:
    accounts = players_of(request).accounts
    uid = await _run(request, accounts.user_id, name[:64])
    if uid is None:
        raise ApiError(404, "player.not_found")
    return PlayerOut.model_validate({
        "name": name, "ratings": await _run(request, accounts.ratings, uid),
        "by_colour": await _run(request, accounts.by_colour, uid),
        "history": await _run(request, accounts.rating_history, uid),
        "stats": await _run(request, accounts.stats, uid)})


@router.get("/api/account/turn", **ANSWER)
async def your_turn(request: Request) -> TurnOut:
    """The account's unfinished games where it is to move."""
    s = await current_session(request)
    if s is None:
        raise ApiError(401, "account.login_required")
    details = await _run(request, _accounts(request).your_turn_details, s.user_id)
    return TurnOut.model_validate({"games": [g["id"] for g in details], "details": details})


# --------------------------------------------------------------------- games
@router.post("/api/account/games", status_code=201, response_model=AccountGameOut,
             response_model_exclude_none=True)
async def create_game(body: AccountGameIn, request: Request) -> AccountGameOut:
    """Start a game whose seat belongs to the account; a rated game is a friend game with
    a clock (computer and hot-seat games are never rated)."""
    s = await changing_session(request)
    service = players_of(request).service
    clock, days, control = body.clock.game_terms() if body.clock is not None \
        else (None, None, None)
    speed = "correspondence" if days is not None else \
        game_speed(*clock) if clock is not None else "unlimited"
    if body.rated and body.opponent != "friend":
        raise ApiError(422, "game.rated_needs_two_players")
    if body.rated and speed == "unlimited":
        raise ApiError(422, "game.rated_needs_clock")
    if not await _allow_create(service, _client(request)):
        raise ApiError(429, "rate.too_many_games")
    new = await commit.create(request, body.variant, body.setup, body.opponent, body.level,
                              body.color, clock, days=days, control=control,
                              preview_s=body.preview, setup_draw=body.setup_draw)
    gid = new.game.record.id
    accounts = players_of(request).accounts
    await _run(request, accounts.set_terms, gid, body.rated, speed)
    colors = list(COLOR_NAMES) if new.color == "both" else [new.color]
    await _run(request, accounts.claim, gid, colors, s.user_id)
    invite_url = None
    if new.invite is not None:
        invite_url = str(request.url_for("open_invite", game_id=gid, invite=new.invite))
    return AccountGameOut(id=gid, seat=SeatOut(color=new.color, token=new.token),  # type: ignore[arg-type]
                          invite_url=invite_url, rated=body.rated, speed=speed)


@router.post("/api/account/games/{game_id}/claim", **ANSWER)
async def claim(game_id: str, body: ClaimIn, request: Request) -> ClaimOut:
    """Give the seat(s) of ``token`` to the account (an anonymous game, or the invited
    seat of a rated game before it ends)."""
    s = await changing_session(request)
    players = players_of(request)
    live = await players.service.current(game_id)
    colors = [COLOR_NAMES[c] for c in sorted(live.colors_of(body.token))]
    if not colors:
        raise ApiError(403, "seat.wrong_token")
    terms = await _run(request, players.accounts.terms, game_id)
    if terms is not None and terms[0] and live.ended:
        raise ApiError(409, "seat.claim_too_late")
    await _run(request, players.accounts.claim, game_id, colors, s.user_id)
    return ClaimOut.model_validate({"id": game_id, "colors": colors})


@router.post("/api/account/games/{game_id}/seat", **ANSWER)
async def take_seat(game_id: str, request: Request) -> TakeSeatOut:
    """A fresh seat token for this browser, for the account's seat: the game follows the
    account.  The seat's previous token stops working."""
    check_game_id(game_id)  # before the driver sees it, as the game routes do
    s = await changing_session(request)
    players = players_of(request)
    seats = await _run(request, players.accounts.seats, game_id)
    colors = [c for c in COLOR_NAMES if seats.get(c) == s.user_id]
    if not colors:
        raise ApiError(403, "seat.not_held")
    token = secrets.token_urlsafe(32)

    def decide(_g: LiveGame, now: int) -> GameChanges:
        changes: GameChanges = {"updated_at": now}
        if "white" in colors:
            changes["white_token"] = hash_secret(token)
        if "black" in colors:
            changes["black_token"] = hash_secret(token)
        return changes

    await players.service.act(game_id, decide)
    color = "both" if len(colors) == 2 else colors[0]
    return TakeSeatOut.model_validate({"id": game_id,
                                       "seat": {"color": color, "token": token}})


@router.get("/api/account/games", **ANSWER)
async def my_games(request: Request,
                   variant: Annotated[Line | None, Query(max_length=16)] = None,
                   speed: Annotated[Line | None, Query(max_length=16)] = None,
                   result: Literal["win", "loss", "draw"] | None = None,
                   opponent: Annotated[Line | None, Query(max_length=64)] = None,
                   number: Int32 | None = None) -> AccountGamesOut:
    s = await current_session(request)
    if s is None:
        raise ApiError(401, "account.login_required")
    games = await _run(request, _accounts(request).games, s.user_id, variant, speed, result,
                       opponent, number)
    return AccountGamesOut.model_validate({"games": games})


@router.get("/api/games/{game_id}/ratings", **ANSWER)
async def game_ratings(game_id: str, request: Request) -> GameRatingsOut:
    """Rated or casual, the speed class, and each side's rating change once rated."""
    accounts = players_of(request).accounts
    live = await players_of(request).service.current(game_id)  # 404 for an unknown game
    terms = await _run(request, accounts.terms, game_id)
    rated = bool(terms and terms[0])
    ratings: dict[str, Any] = {"white": None, "black": None}
    if terms and rated:  # the names' ratings during a rated game (issue 32)
        ratings = await _run(request, accounts.seat_ratings, game_id, live.record.variant,
                             terms[1])
    return GameRatingsOut.model_validate({
        "rated": rated, "speed": terms[1] if terms else None,
        "fresh_setup": bool(terms and terms[2]),
        "players": await _run(request, accounts.seat_names, game_id), "ratings": ratings,
        "changes": await _run(request, accounts.rating_changes, game_id)})


@router.get("/api/setups/{variant}/{number}/stats", **ANSWER)
async def setup_stats(variant: Annotated[Line, Path(max_length=40)], number: Count,
                      request: Request) -> SetupStatsOut:
    """Per-setup statistics of this server's finished games (any player, any account)."""
    from randomchess.variants import get_variant

    try:
        key = get_variant(variant[:40]).key
    except ValueError as e:
        raise ApiError.wrap(404, e) from None
    return SetupStatsOut.model_validate(await _run(request, setup_statistics,
                                                    _accounts(request).engine, key, number))


def install_accounts(app: FastAPI) -> None:
    """Add the account routes and rate rated games when they end (one line in app.py)."""
    service: GameService = app.state.service
    players = Players(service)
    app.state.players = players
    service.end_hooks.append(players.on_game_end)

    async def rated_of(game_id: str) -> bool:
        terms = await service.db.run(players.accounts.terms, game_id)
        return bool(terms and terms[0])

    service.rated_of = rated_of
    service.close_hooks.append(players.limits.close)

    async def close_passwords() -> None:
        players.passwords.close()

    service.close_hooks.append(close_passwords)
    app.include_router(router)
    app.include_router(brief_router)
    lobby = Lobby(players.accounts, service.settings.preview)
    app.state.lobby = lobby
    service.hub.add(LOBBY, lobby)  # type: ignore[arg-type]  # it has the one method used
    games_resync = service.hub.resync

    async def resync(keys: list[str]) -> None:
        """After a Redis blip: the games' newest states, and the lobby's seeks."""
        if games_resync is not None:
            await games_resync(keys)
        if LOBBY in keys:
            seeks = await service.db.run(lobby.all)
            await lobby.send_text(json.dumps({"game": {"seeks": seeks, "started": None}}))

    service.hub.resync = resync
    app.include_router(lobby_router)
