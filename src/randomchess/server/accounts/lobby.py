"""The lobby (docs/accounts.md): open seeks and challenges kept in the database (every worker
sees them, and exactly one acceptance wins), pushed live to ``/ws/lobby`` through the game
hub (so through Redis when configured).

Accepting a seek starts a friend game whose two seats belong to the two accounts; each
player takes a seat token for their browser with ``POST /api/account/games/{id}/seat``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any, Literal

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import and_, delete, func, insert, or_, select, true

from randomchess.accounts.ratings import Rating, RatingError, speed_class
from randomchess.clock import TimeControl
from randomchess.db import now_ms
from randomchess.server.accounts.answers import (
    ANSWER,
    AcceptOut,
    QuickOut,
    SeekIdOut,
    SeeksOut,
)
from randomchess.server.accounts.deps import SESSION_COOKIE, changing_session, current_session
from randomchess.server.accounts.store import RATINGS, SEEKS, USERS, Accounts, Session
from randomchess.server.games import commit
from randomchess.server.games.contract import LobbyClientFrame, read_frame
from randomchess.server.games.preview import PREVIEW_MAX_S, preview_length_ms
from randomchess.server.games.routes import GameClockIn
from randomchess.server.http.deps import database
from randomchess.server.http.errors import ApiError, Lang, lang_of_scope
from randomchess.server.http.guards import Line, SeekId
from randomchess.startpos import numbered_variant, setup_from_number
from randomchess.variants import get_variant

SEEK_TTL_MS = 60 * 60_000  # an open seek lapses after an hour
MAX_SEEKS = 10  # open seeks and challenges of one account at once (issue 28)
LOBBY = "lobby:all"  # the hub key of the lobby (game ids never contain ':')


class SeekIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: Line = Field("chess960", max_length=40)
    # "random": one random setup drawn when the seek is accepted; "new-per-game": the same,
    # and every rematch of the game draws a new one too (the arbiter's way); or a number.
    setup: Literal["random", "new-per-game"] | int = "random"
    clock: GameClockIn  # minutes + increment, days, or any control (multi-period, delay)
    rated: bool = False
    rating_min: int | None = Field(None, ge=0, le=4000)
    rating_max: int | None = Field(None, ge=0, le=4000)
    # the setup preview's countdown in seconds (None: the speed's default; 0: none)
    preview: int | None = Field(None, ge=0, le=PREVIEW_MAX_S)


class ChallengeIn(SeekIn):
    name: Line = Field(min_length=1, max_length=64)


class QuickIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: Line = Field("chess960", max_length=40)
    clock: GameClockIn  # as a seek's: minutes + increment, days, or any control (issue 34)
    rated: bool = True
    client_value: str | None = Field(
        None, max_length=200, description="the joiner's share of a verifiable setup draw, "
                                          "when an open seek is accepted (docs/shuffler.md §10)")


def _preview_s(asked: int | None, initial_ms: int, increment_ms: int,
               days: int | None, default_on: bool) -> int:
    """The countdown a game from this seek will have (seconds): the game's own rule
    (server/games/preview.py), a seek's game being a friend's game."""
    ms = preview_length_ms("friend", (initial_ms, increment_ms), days, asked, default_on)
    return (ms or 0) // 1000


class Lobby:
    """The seeks table behind blocking methods, and the lobby's sockets in this process."""

    def __init__(self, accounts: Accounts, preview: bool = True) -> None:
        self.accounts = accounts
        self.preview = preview  # the server's ``preview`` setting: a default countdown
        self.sockets: dict[WebSocket, int | None] = {}
        # Changes that reach a socket before its first (whole-lobby) frame is sent wait
        # here and follow that frame, so none is lost between the read and the send.
        self.pending: dict[WebSocket, list[dict[str, Any]]] = {}

    def add(self, uid: int, body: SeekIn, target: int | None = None) -> str:
        clock, days, control = body.clock.game_terms()
        assert clock is not None
        initial, increment = clock  # a control's first period gives the speed class
        try:
            speed = speed_class(initial, increment, days)
        except RatingError as e:
            raise ApiError.wrap(422, e) from None
        try:
            variant = get_variant(body.variant).key
            if body.setup == "new-per-game" and not get_variant(variant).is_random:
                raise ApiError(422, "seek.no_fresh_setup", variant=variant)
            if isinstance(body.setup, int):
                v = get_variant(variant)
                numbered_variant(v)
                setup_from_number(v, body.setup)
        except ValueError as e:
            raise ApiError.wrap(422, e, "seek.bad") from None
        if body.rating_min is not None and body.rating_max is not None and \
                body.rating_min > body.rating_max:
            raise ApiError(422, "seek.empty_range")
        sid = secrets.token_urlsafe(9)
        with self.accounts._write() as conn:
            mine = conn.execute(select(func.count()).select_from(SEEKS).where(
                SEEKS.c.user_id == uid, SEEKS.c.created_at > now_ms() - SEEK_TTL_MS)).scalar()
            if (mine or 0) >= MAX_SEEKS:
                raise ApiError(429, "seek.too_many", limit=MAX_SEEKS)
            conn.execute(insert(SEEKS).values(
                id=sid, user_id=uid, target_id=target, variant=variant,
                number=body.setup if isinstance(body.setup, int) else None,
                fresh_setup=body.setup == "new-per-game", initial_ms=initial,
                increment_ms=increment, days=days, speed=speed, rated=body.rated,
                time_control=None if control is None or control.simple else control.pgn(),
                rating_min=body.rating_min, rating_max=body.rating_max, created_at=now_ms(),
                preview_s=body.preview))
            if commit.committed(variant, body.setup):  # a setup both can verify (issue 32)
                commit.open_commitment(conn, sid, variant)
        return sid

    def all(self) -> list[dict[str, Any]]:
        """Every live seek, oldest first, with its owner's name and rating there."""
        return self._seeks(None)

    def one(self, sid: str) -> dict[str, Any] | None:
        """The live seek ``sid`` as :meth:`all` shows it; None when gone."""
        found = self._seeks(sid)
        return found[0] if found else None

    def _seeks(self, sid: str | None) -> list[dict[str, Any]]:
        # One statement: each seek with its owner's name and rating for the seek's variant
        # and speed (no rating yet: the starting one).
        only = SEEKS.c.id == sid if sid is not None else true()
        with self.accounts.engine.connect() as conn:
            rows = conn.execute(
                select(SEEKS, USERS.c.name, RATINGS.c.rating, RATINGS.c.rd,
                       RATINGS.c.volatility, RATINGS.c.games.label("rated_games"),
                       commit.COMMITMENTS.c.commitment)
                .join(USERS, USERS.c.id == SEEKS.c.user_id)
                .outerjoin(commit.COMMITMENTS, commit.COMMITMENTS.c.seek_id == SEEKS.c.id)
                .outerjoin(RATINGS, and_(RATINGS.c.user_id == SEEKS.c.user_id,
                                         RATINGS.c.variant == SEEKS.c.variant,
                                         RATINGS.c.speed == SEEKS.c.speed))
                .where(SEEKS.c.created_at > now_ms() - SEEK_TTL_MS, only)
                .order_by(SEEKS.c.created_at, SEEKS.c.id)).all()
        out = []
        for r in rows:
            rating = Rating() if r.rating is None else \
                Rating(r.rating, r.rd, r.volatility, r.rated_games)
            out.append({"id": r.id, "player": r.name, "user_id": r.user_id,
                        "target_id": r.target_id, "variant": r.variant,
                        "setup": r.number if r.number is not None else
                        "new-per-game" if r.fresh_setup else "random",
                        "clock": {"days": r.days} if r.days is not None else
                        {"minutes": r.initial_ms / 60_000, "increment": r.increment_ms / 1000,
                         **({"control": r.time_control} if r.time_control else {})},
                        "speed": r.speed, "rated": bool(r.rated),
                        "rating": round(rating.rating), "provisional": rating.provisional,
                        "rating_min": r.rating_min, "rating_max": r.rating_max,
                        "preview": _preview_s(r.preview_s, r.initial_ms, r.increment_ms,
                                              r.days, self.preview),
                        "setup_commit": r.commitment, "created_at": r.created_at})
        return out

    def take(self, sid: str) -> dict[str, Any] | None:
        """Remove the seek and return it; None when gone (another worker took it)."""
        with self.accounts.engine.connect() as conn:
            row = conn.execute(select(SEEKS).where(SEEKS.c.id == sid)).first()
        if row is None:
            return None
        with self.accounts._write() as conn:
            if conn.execute(delete(SEEKS).where(SEEKS.c.id == sid)).rowcount != 1:
                return None
        return dict(row._mapping)

    def remove(self, sid: str, uid: int) -> bool:
        """Cancel a seek of ``uid``'s, or decline a challenge to ``uid`` (issue 32)."""
        with self.accounts._write() as conn:
            return bool(conn.execute(delete(SEEKS).where(
                SEEKS.c.id == sid, or_(SEEKS.c.user_id == uid,
                                       SEEKS.c.target_id == uid))).rowcount)

    def find_quick(self, uid: int, variant: str, speed: str, rated: bool) -> list[str]:
        with self.accounts.engine.connect() as conn:
            return list(conn.execute(
                select(SEEKS.c.id).where(
                    SEEKS.c.variant == variant, SEEKS.c.speed == speed,
                    SEEKS.c.rated == rated, SEEKS.c.user_id != uid,
                    SEEKS.c.target_id.is_(None),
                    SEEKS.c.created_at > now_ms() - SEEK_TTL_MS)
                .order_by(SEEKS.c.created_at)).scalars())

    # ----------------------------------------------------------------- live
    async def send_text(self, text: str) -> None:
        """The hub's delivery of a lobby event (this object is the lobby's one 'socket' in
        the hub): each of this process's lobby sockets gets the seeks it may see."""
        event = json.loads(text)["game"]
        for ws, uid in list(self.sockets.items()):
            if ws in self.pending:
                self.pending[ws].append(event)
                continue
            try:
                await ws.send_json(view(event, uid))
            except Exception:
                self.sockets.pop(ws, None)


def view(event: dict[str, Any], uid: int | None) -> dict[str, Any]:
    """What one lobby socket is shown of a lobby event: the whole lobby (``seeks``: when it
    connects, after a Redis blip) or one change (``seeks-delta``: the seeks added and the
    ids removed); open seeks, and challenges to or from its account; no account ids."""
    now = now_ms()

    def shown(seeks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**{k: v for k, v in s.items()
                    if k not in ("user_id", "target_id", "created_at")},
                 "challenge": s["target_id"] is not None,
                 "expires_in_ms": max(0, s["created_at"] + SEEK_TTL_MS - now)}
                for s in seeks if s["target_id"] is None or uid in (s["target_id"], s["user_id"])]

    out: dict[str, Any]
    if "seeks" in event:
        out = {"type": "seeks", "seeks": shown(event["seeks"])}
    else:
        out = {"type": "seeks-delta", "added": shown(event["added"]),
               "removed": list(event["removed"])}
    if event.get("started") is not None:
        out["started"] = event["started"]
    return out


router = APIRouter()


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def _publish(request: Request, added: str | None = None, removed: str | None = None,
                   started: dict[str, Any] | None = None) -> None:
    """Tell every lobby socket (through the hub: every process) what changed."""
    seek = None if added is None else await database(request).run(_lobby(request).one, added)
    await request.app.state.service.hub.publish(LOBBY, {
        "added": [] if seek is None else [seek],
        "removed": [] if removed is None else [removed], "started": started})




@router.get("/api/lobby/seeks", **ANSWER)
async def seeks(request: Request) -> SeeksOut:
    s = await current_session(request)
    all_ = await database(request).run(_lobby(request).all)
    return SeeksOut.model_validate(view({"seeks": all_}, s.user_id if s else None))


@router.post("/api/lobby/seeks", status_code=201, **ANSWER)
async def create_seek(body: SeekIn, request: Request) -> SeekIdOut:
    s = await changing_session(request)
    sid = await database(request).run(_lobby(request).add, s.user_id, body)
    await _publish(request, added=sid)
    return SeekIdOut(id=sid)


@router.post("/api/lobby/challenges", status_code=201, **ANSWER)
async def challenge(body: ChallengeIn, request: Request) -> SeekIdOut:
    """A seek only the named player sees and may accept."""
    s = await changing_session(request)
    lobby = _lobby(request)
    target = await database(request).run(lobby.accounts.user_id, body.name)
    if target is None or target == s.user_id:
        raise ApiError(404, "player.not_found_to_challenge")
    sid = await database(request).run(lobby.add, s.user_id, body, target)
    await _publish(request, added=sid)
    return SeekIdOut(id=sid)


@router.delete("/api/lobby/seeks/{sid}", status_code=204)
async def cancel_seek(sid: SeekId, request: Request) -> None:
    """Cancel one's own seek or challenge, or decline a challenge to one's account."""
    s = await changing_session(request)
    if not await database(request).run(_lobby(request).remove, sid, s.user_id):
        raise ApiError(404, "seek.not_yours")
    await _publish(request, removed=sid)


@router.post("/api/lobby/seeks/{sid}/accept", **ANSWER)
async def accept(sid: SeekId, request: Request,
                 body: commit.AcceptIn | None = None) -> AcceptOut:
    """Accept a seek or challenge; ``client_value`` is the joiner's share of a verifiable
    setup draw (docs/shuffler.md §10)."""
    s = await changing_session(request)
    client = commit.check_client_value(body.client_value if body else None)
    return AcceptOut.model_validate(await _accept(request, s, sid, client))


async def _accept(request: Request, s: Session, sid: str, client: str = "") -> dict[str, Any]:
    lobby = _lobby(request)
    seek = await database(request).run(lobby.one, sid)
    if seek is None:
        claimed = bool(client) and await database(request).run(
            commit.was_claimed, lobby.accounts, sid)
        if claimed:
            raise ApiError(409, "fairdraw.revealed")  # a value for a setup already shown
        raise ApiError(404, "seek.gone")
    if seek["user_id"] == s.user_id:
        raise ApiError(409, "seek.own")
    if seek["target_id"] not in (None, s.user_id):
        raise ApiError(404, "seek.gone")
    mine = await database(request).run(lobby.accounts.rating_of, s.user_id,
                                          seek["variant"], seek["speed"])
    if (seek["rating_min"] is not None and mine.rating < seek["rating_min"]) or \
            (seek["rating_max"] is not None and mine.rating > seek["rating_max"]):
        raise ApiError(403, "seek.rating_outside")
    # The client value is fixed (once) before the seek is taken: a refusal changes nothing.
    draw = await database(request).run(commit.claim, lobby.accounts, sid, client)
    row = await database(request).run(lobby.take, sid)
    if row is None:
        if draw is not None:
            await database(request).run(commit.unclaim, lobby.accounts, sid)
        raise ApiError(404, "seek.gone")
    setup: int | str = row["number"] if row["number"] is not None else "random"
    if draw is not None:
        setup = commit.drawn_number(draw, client)
    service = request.app.state.service
    new = await service.create(row["variant"], setup, "friend", None, "random",
                               (row["initial_ms"], row["increment_ms"]), days=row["days"],
                               control=TimeControl.parse(row["time_control"])
                               if row.get("time_control") else None,
                               preview_s=row["preview_s"])
    gid = new.game.record.id
    if draw is not None:
        await database(request).run(commit.bind_game, lobby.accounts, sid, gid)
    accepter, token = await service.join(gid, new.invite)
    accounts = lobby.accounts
    await database(request).run(accounts.set_terms, gid, bool(row["rated"]), row["speed"],
                                   bool(row["fresh_setup"]))
    await database(request).run(accounts.claim, gid, [new.color], row["user_id"])
    await database(request).run(accounts.claim, gid, [accepter], s.user_id)
    await _publish(request, removed=sid, started={"seek": sid, "game": gid})
    return {"id": gid, "seat": {"color": accepter, "token": token}, "rated": bool(row["rated"]),
            "speed": row["speed"]}


@router.post("/api/lobby/quick", **ANSWER)
async def quick(body: QuickIn, request: Request) -> QuickOut:
    """Quick pairing: accept the oldest open seek of another player in the same variant,
    speed class and rated/casual, whatever its exact clock; else open one."""
    s = await changing_session(request)
    lobby = _lobby(request)
    client = commit.check_client_value(body.client_value)
    clock, days, _ = body.clock.game_terms()  # a control is checked here, before anything
    assert clock is not None
    try:
        speed = speed_class(*clock, days)
    except RatingError as e:
        raise ApiError.wrap(422, e) from None
    for sid in await database(request).run(lobby.find_quick, s.user_id, body.variant,
                                              speed, body.rated):
        try:
            return QuickOut.model_validate({"paired": True,
                                            **await _accept(request, s, sid, client)})
        except ApiError as e:
            if e.code == "fairdraw.replayed":
                raise  # the client value itself is refused: so it would be everywhere
            continue  # taken meanwhile, or out of its range
    seek = SeekIn(variant=body.variant, setup="random",
                  clock=body.clock, rated=body.rated,
                  rating_min=None, rating_max=None, preview=None)
    sid = await database(request).run(lobby.add, s.user_id, seek)
    await _publish(request, added=sid)
    return QuickOut(paired=False, seek=sid)


LOBBY_FRAME_LIMIT = 256  # bytes: the one frame a client sends is a ping


def _lobby_reply(text: str | None, lang: Lang) -> dict[str, Any]:
    """The answer to one client frame on a lobby socket: ``pong`` to a ping, else an
    ``error`` frame (contract.LobbyServerFrame); nothing is changed either way."""
    msg = read_frame(text, LobbyClientFrame, LOBBY_FRAME_LIMIT, lang)
    return {"type": "pong"} if isinstance(msg, LobbyClientFrame) else dict(msg)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """Pushes ``{"type": "seeks", "seeks": [...]}`` (the whole lobby) now, then
    ``{"type": "seeks-delta", "added": [...], "removed": [ids]}`` on every change; a
    ``started`` field names the game a seek became.  Answers a ping with ``pong`` and any
    other frame with a typed ``error`` (contract.LobbyServerFrame)."""
    lobby: Lobby = websocket.app.state.lobby
    await websocket.accept()
    lang = lang_of_scope(websocket.scope)
    # Another site's page may open this socket with the browser's cookies: it is shown the
    # lobby as anyone is, not the account's challenges.
    origin = websocket.headers.get("origin")
    same_site = origin is None or origin.split("://", 1)[-1] == websocket.headers.get("host")
    s = await database(websocket).run(lobby.accounts.session,
                                       websocket.cookies.get(SESSION_COOKIE)) \
        if same_site else None
    uid = s.user_id if s else None
    lobby.pending[websocket] = []
    lobby.sockets[websocket] = uid
    try:
        await websocket.send_json(view({"seeks": await database(websocket).run(lobby.all)},
                                       uid))
        while queue := lobby.pending[websocket]:
            await websocket.send_json(view(queue.pop(0), uid))
        del lobby.pending[websocket]  # no await since the queue was found empty
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            await websocket.send_json(_lobby_reply(message.get("text"), lang))
    except WebSocketDisconnect:
        pass
    finally:
        lobby.sockets.pop(websocket, None)
        lobby.pending.pop(websocket, None)
