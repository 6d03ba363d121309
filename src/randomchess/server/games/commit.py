"""The setup both players can verify, on the server (issue 32, docs/shuffler.md §10).

A lobby seek that draws a random setup of a numbered variant gets a secret server seed when it
is opened (:func:`open_commitment`, in the seek's own transaction); the lobby shows only its
SHA-256.  The acceptance claims it once with the joiner's client value (:func:`claim`:
malformed, late and replayed values are refused and change nothing), the game starts on
:func:`randomchess.fairdraw.game_setup` of the two, and from then on
``GET /api/games/{id}/setup-draw`` and the PGN reveal both values.

The same draw serves three more kinds of game (:func:`create` and :func:`join`):

* a friend's game made from a link on a random setup, and a rematch on a new random setup:
  the game is made with its draw bound and its setup *pending* (a provisional start nobody
  plays, ``number`` null); the friend's join carries the client value and fixes the setup
  in the same commit as the seat;
* a game against the computer: the player's page first opens a draw
  (``POST /api/setup-draws``: its id and commitment), then starts the game with
  ``setup_draw: {id, client_value}``.
"""

from __future__ import annotations

import hmac
import secrets
from contextlib import AbstractContextManager
from typing import Any, Protocol

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from randomchess.db import now_ms, schema
from randomchess.fairdraw import (
    GAME_DOMAIN,
    GameSeedError,
    game_commitment,
    game_setup,
    new_server_seed,
    parse_client_value,
)
from randomchess.server.games.live import hash_secret
from randomchess.server.games.service import GameService, NewGame
from randomchess.server.http.deps import database
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import check_game_id
from randomchess.startpos import setup_from_number
from randomchess.variants import get_variant, numbered_variant_keys


class Accounts(Protocol):
    """What these functions need of the accounts' store (server/accounts/store.py, a wing
    above this one): its engine and its one writer."""

    engine: Engine

    def _write(self) -> AbstractContextManager[Connection]: ...

COMMITMENTS = schema.setup_commitments
DRAW_TTL_MS = 60 * 60_000  # a draw opened for a game against the computer lapses after an hour
DRAW_PREFIX = "~"  # the ids of draws that are not a seek's (a seek id never has it)


class AcceptIn(BaseModel):
    """The body of an acceptance (optional): the joiner's share of the setup draw."""

    model_config = ConfigDict(extra="forbid")
    client_value: str | None = Field(
        None, max_length=200,
        description="32-64 lower-case hex digits from the browser's random source "
                    "(docs/shuffler.md §10); none: the server seed alone decides")


class SetupDrawIn(BaseModel):
    """A draw the player's page opened (``POST /api/setup-draws``) and its client value."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=16)
    client_value: str | None = Field(
        None, max_length=200,
        description="32-64 lower-case hex digits from the browser's random source "
                    "(docs/shuffler.md §10); none: the server seed alone decides")


class OpenDrawIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: str = Field(max_length=40, description="a variant with numbered setups")


class OpenDrawOut(BaseModel):
    """A setup draw opened for a game against the computer: send ``id`` with the game's
    creation (``setup_draw``), with a fresh client value."""

    id: str
    variant: str
    commitment: str = Field(description="hex(SHA-256(server seed)), fixed before the "
                                        "client value is known")


class SetupDrawOut(BaseModel):
    """A game's verifiable setup draw: recompute with docs/shuffler.md §10 (``committed``
    false and the rest null: the game's setup was not drawn so; ``revealed`` false: the
    draw waits for the friend's client value, only its commitment is shown)."""

    committed: bool
    revealed: bool = False
    recipe: str | None = None
    variant: str | None = None
    number: int | None = None
    commitment: str | None = None
    server_seed: str | None = None
    client_value: str | None = None
    pool: str | None = None


def committed(variant: str, setup: object) -> bool:
    """Whether a seek with this variant and setup choice gets a commitment: a random setup
    ("random" or "new-per-game") of a variant whose setups are numbered."""
    return setup in ("random", "new-per-game") and \
        get_variant(variant).key in numbered_variant_keys()


def open_commitment(conn: Connection, seek_id: str, variant: str,
                    game_id: str | None = None) -> str:
    """A fresh server seed for seek ``seek_id`` (or a draw of that id bound to game
    ``game_id``), stored in ``conn``'s transaction; returns the commitment."""
    seed = new_server_seed()
    commitment = game_commitment(seed)
    conn.execute(insert(COMMITMENTS).values(
        seek_id=seek_id, variant=get_variant(variant).key, server_seed=seed.hex(),
        commitment=commitment, created_at=now_ms(), game_id=game_id))
    return commitment


def open_draw(accounts: Accounts, variant: str, game_id: str | None = None) -> tuple[str, str]:
    """A draw that is no seek's: bound to game ``game_id`` now (a friend's game, whose
    setup waits for the join) or, without one, for a game against the computer the player
    starts next.  Returns (draw id, commitment); unbound draws older than an hour go."""
    draw_id = DRAW_PREFIX + secrets.token_urlsafe(9)
    with accounts._write() as conn:
        conn.execute(delete(COMMITMENTS).where(
            COMMITMENTS.c.seek_id.startswith(DRAW_PREFIX), COMMITMENTS.c.game_id.is_(None),
            COMMITMENTS.c.created_at < now_ms() - DRAW_TTL_MS))
        return draw_id, open_commitment(conn, draw_id, variant, game_id)


def open_row(accounts: Accounts, draw_id: str) -> dict[str, Any] | None:
    """The draw ``draw_id`` opened by :func:`open_draw` for a game against the computer:
    waiting (unbound, not lapsed) or already used (claimed: :func:`claim` refuses it as
    late); None for any other id (a seek's, a friend game's, a lapsed or unknown one)."""
    if not draw_id.startswith(DRAW_PREFIX):
        return None
    with accounts.engine.connect() as conn:
        row = conn.execute(select(COMMITMENTS).where(
            COMMITMENTS.c.seek_id == draw_id)).first()
    if row is None or (row.claimed_at is None and (
            row.game_id is not None or row.created_at < now_ms() - DRAW_TTL_MS)):
        return None
    return dict(row._mapping)


def pending_of_game(accounts: Accounts, game_id: str) -> dict[str, Any] | None:
    """Game ``game_id``'s draw while it waits for the friend's client value."""
    with accounts.engine.connect() as conn:
        row = conn.execute(select(COMMITMENTS).where(
            COMMITMENTS.c.game_id == game_id, COMMITMENTS.c.claimed_at.is_(None))).first()
    return None if row is None else dict(row._mapping)


def unclaim_draw(accounts: Accounts, draw_id: str) -> None:
    """Undo :func:`claim` of a draw whose game did not take it after all (the join or the
    creation was refused meanwhile): the draw waits for a value again."""
    with accounts._write() as conn:
        conn.execute(update(COMMITMENTS).where(COMMITMENTS.c.seek_id == draw_id)
                     .values(claimed_at=None, client_value=None))


def check_client_value(value: str | None) -> str:
    """The client value as it enters the draw ("" for none); 422 when malformed."""
    try:
        return parse_client_value(value or "")
    except GameSeedError:
        raise ApiError(422, "fairdraw.client_malformed") from None


def claim(accounts: Accounts, seek_id: str, client: str) -> dict[str, Any] | None:
    """Fix the client value of seek ``seek_id``'s draw, once: the row (server seed,
    variant), or None when the seek has no commitment.  409 ``fairdraw.revealed`` when a
    value was already fixed, 409 ``fairdraw.replayed`` when another draw used ``client``."""
    with accounts.engine.connect() as conn:
        row = conn.execute(select(COMMITMENTS).where(
            COMMITMENTS.c.seek_id == seek_id)).first()
        if row is None:
            return None
        if row.claimed_at is not None:
            raise ApiError(409, "fairdraw.revealed")
        if client and conn.execute(select(COMMITMENTS.c.seek_id).where(
                COMMITMENTS.c.client_value == client)).first() is not None:
            raise ApiError(409, "fairdraw.replayed")
    try:
        with accounts._write() as conn:
            done = conn.execute(update(COMMITMENTS).where(
                COMMITMENTS.c.seek_id == seek_id, COMMITMENTS.c.claimed_at.is_(None))
                .values(claimed_at=now_ms(), client_value=client or None)).rowcount
    except IntegrityError:
        raise ApiError(409, "fairdraw.replayed") from None  # the same value, at once
    if done != 1:
        raise ApiError(409, "fairdraw.revealed")
    return dict(row._mapping)


def unclaim(accounts: Accounts, seek_id: str) -> None:
    """Undo :func:`claim` when the seek was gone after all (cancelled or lapsed meanwhile)."""
    with accounts._write() as conn:
        conn.execute(update(COMMITMENTS).where(
            COMMITMENTS.c.seek_id == seek_id, COMMITMENTS.c.game_id.is_(None))
            .values(claimed_at=None, client_value=None))


def was_claimed(accounts: Accounts, seek_id: str) -> bool:
    """Whether seek ``seek_id``'s draw has been made (its game started)."""
    with accounts.engine.connect() as conn:
        return conn.execute(select(COMMITMENTS.c.seek_id).where(
            COMMITMENTS.c.seek_id == seek_id,
            COMMITMENTS.c.claimed_at.is_not(None))).first() is not None


def drawn_number(row: dict[str, Any], client: str) -> int:
    """The setup number of the claimed draw ``row`` with the client value ``client``."""
    number = game_setup(bytes.fromhex(row["server_seed"]), client, row["variant"]).number
    assert number is not None  # a numbered variant
    return number


def bind_game(accounts: Accounts, seek_id: str, game_id: str) -> None:
    """Record the game the draw of seek ``seek_id`` started: its values are public now."""
    with accounts._write() as conn:
        conn.execute(update(COMMITMENTS).where(COMMITMENTS.c.seek_id == seek_id)
                     .values(game_id=game_id))


def draw_of_game(accounts: Accounts, game_id: str) -> dict[str, Any] | None:
    """The revealed draw of game ``game_id`` as ``GET .../setup-draw`` answers it."""
    with accounts.engine.connect() as conn:
        row = conn.execute(select(COMMITMENTS).where(
            COMMITMENTS.c.game_id == game_id)).first()
    if row is None:
        return None
    shown = {"committed": True, "recipe": GAME_DOMAIN.decode(), "variant": row.variant,
             "commitment": row.commitment, "pool": f"{row.variant}:any:-"}
    if row.claimed_at is None:  # a friend's game waiting for the join: the seed is secret
        return {**shown, "revealed": False}
    client = row.client_value or ""
    setup = game_setup(bytes.fromhex(row.server_seed), client, row.variant)
    return {**shown, "revealed": True, "number": setup.number,
            "server_seed": row.server_seed, "client_value": row.client_value}


def pgn_tags(draw: dict[str, Any] | None) -> dict[str, str]:
    """The PGN tags of a game's draw (docs/shuffler.md §10); none without a revealed one."""
    if draw is None or not draw.get("revealed"):
        return {}
    return {"SetupCommit": draw["commitment"], "SetupServerSeed": draw["server_seed"],
            "SetupClientValue": draw["client_value"] or "-"}


router = APIRouter()


@router.get("/api/games/{game_id}/setup-draw")
async def setup_draw(game_id: str, request: Request) -> SetupDrawOut:
    """A started game's setup draw: the commitment shown with the seek, the revealed
    server seed and the joiner's client value (docs/shuffler.md §10); ``committed`` false
    for a game whose setup was not drawn so (every game page asks: no 404 in its console)."""
    service = request.app.state.service
    await service.load(game_id)  # 404 for an unknown game
    draw = await database(request).run(draw_of_game, request.app.state.lobby.accounts,
                                       game_id)
    return SetupDrawOut.model_validate(draw or {"committed": False})


# ----------------------------------------------------------------- games made and joined
def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.lobby.accounts
    return accounts


def _committed_friend_game(variant: str, setup: object, opponent: str) -> bool:
    try:
        return opponent == "friend" and setup == "random" and committed(variant, setup)
    except ValueError:
        return False  # an unknown variant: the creation says so


async def create(request: Request, variant: str, setup: int | str, opponent: str,
                 level: int | None, color: str, clock: tuple[int, int] | None, *,
                 setup_draw: SetupDrawIn | None = None, **terms: Any) -> NewGame:
    """:meth:`GameService.create` with a setup both players can verify where one is
    drawn: a friend's game on a random setup of a numbered variant waits for the join's
    client value (its draw bound now, its setup pending); a game against the computer
    takes the draw ``setup_draw`` its player's page opened, with that page's client value
    (malformed, unknown or lapsed, other-variant, late and replayed ones refused, nothing
    made)."""
    service: GameService = request.app.state.service
    db, accounts = database(request), _accounts(request)
    if setup_draw is not None:
        if opponent != "computer" or setup != "random":
            raise ApiError(422, "fairdraw.not_here")
        client = check_client_value(setup_draw.client_value)
        row = await db.run(open_row, accounts, setup_draw.id)
        if row is None:
            raise ApiError(404, "fairdraw.unknown")
        try:
            key = get_variant(variant).key
        except ValueError as e:
            raise ApiError.wrap(422, e) from None
        if row["variant"] != key:
            raise ApiError(422, "fairdraw.other_variant", drawn=row["variant"], variant=key)
        draw = await db.run(claim, accounts, setup_draw.id, client)
        assert draw is not None
        try:
            new = await service.create(variant, drawn_number(draw, client), opponent, level,
                                       color, clock, **terms)
        except BaseException:
            await db.run(unclaim_draw, accounts, setup_draw.id)
            raise
        await db.run(bind_game, accounts, setup_draw.id, new.game.record.id)
        return new
    if _committed_friend_game(variant, setup, opponent):
        new = await service.create(variant, setup, opponent, level, color, clock,
                                   setup_pending=True, **terms)
        await db.run(open_draw, accounts, variant, new.game.record.id)
        return new
    return await service.create(variant, setup, opponent, level, color, clock, **terms)


async def join(request: Request, game_id: str, invite: str,
               client_value: str | None) -> tuple[str, str]:
    """:meth:`GameService.join`; a game whose setup waits for the friend's client value
    gets it now: the setup is fixed in the same commit as the seat.  A value for a game
    whose setup is already revealed is refused (409 ``fairdraw.revealed``), as are
    malformed and replayed ones; a refusal changes nothing."""
    service: GameService = request.app.state.service
    db, accounts = database(request), _accounts(request)
    check_game_id(game_id)  # before any query: a NUL cannot reach PostgreSQL
    client = check_client_value(client_value)
    pending = await db.run(pending_of_game, accounts, game_id)
    if pending is None:
        if client and await db.run(draw_of_game, accounts, game_id) is not None:
            raise ApiError(409, "fairdraw.revealed")
        return await service.join(game_id, invite)
    r = (await service.load(game_id)).record
    if r.invite_hash is None:
        raise ApiError(409, "invite.used")
    if not hmac.compare_digest(hash_secret(invite), r.invite_hash):
        raise ApiError(403, "invite.wrong")
    draw = await db.run(claim, accounts, pending["seek_id"], client)
    assert draw is not None
    number = drawn_number(draw, client)
    start = (number, setup_from_number(draw["variant"], number).fen)
    try:
        return await service.join(game_id, invite, start)
    except BaseException:
        await db.run(unclaim_draw, accounts, pending["seek_id"])
        raise


@router.post("/api/setup-draws", status_code=201)
async def open_setup_draw(body: OpenDrawIn, request: Request) -> OpenDrawOut:
    """Open a setup draw for a game against the computer (docs/shuffler.md §10): the
    server's commitment now, before the page's client value exists; start the game with
    ``setup_draw: {id, client_value}`` within the hour.  Rate-limited as game creation."""
    service: GameService = request.app.state.service
    try:
        key = get_variant(body.variant).key
    except ValueError as e:
        raise ApiError.wrap(422, e) from None
    if key not in numbered_variant_keys():
        raise ApiError(422, "fairdraw.not_numbered", variant=key)
    if not await service.rate.allow(request.client.host if request.client else "unknown",
                                    now_ms()):
        raise ApiError(429, "rate.too_many_games")
    draw_id, commitment = await database(request).run(open_draw, _accounts(request), key)
    return OpenDrawOut(id=draw_id, variant=key, commitment=commitment)
