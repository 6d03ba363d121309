"""The setup both players can verify, on the server (issue 32, docs/shuffler.md §10).

A lobby seek that draws a random setup of a numbered variant gets a secret server seed when it
is opened (:func:`open_commitment`, in the seek's own transaction); the lobby shows only its
SHA-256.  The acceptance claims it once with the joiner's client value (:func:`claim`:
malformed, late and replayed values are refused and change nothing), the game starts on
:func:`randomchess.fairdraw.game_setup` of the two, and from then on
``GET /api/games/{id}/setup-draw`` and the PGN reveal both values.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, Engine, insert, select, update
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
from randomchess.server.http.deps import database
from randomchess.server.http.errors import ApiError
from randomchess.variants import get_variant, numbered_variant_keys


class Accounts(Protocol):
    """What these functions need of the accounts' store (server/accounts/store.py, a wing
    above this one): its engine and its one writer."""

    engine: Engine

    def _write(self) -> AbstractContextManager[Connection]: ...

COMMITMENTS = schema.setup_commitments


class AcceptIn(BaseModel):
    """The body of an acceptance (optional): the joiner's share of the setup draw."""

    model_config = ConfigDict(extra="forbid")
    client_value: str | None = Field(
        None, max_length=200,
        description="32-64 lower-case hex digits from the browser's random source "
                    "(docs/shuffler.md §10); none: the server seed alone decides")


class SetupDrawOut(BaseModel):
    """A started game's verifiable setup draw: recompute with docs/shuffler.md §10
    (``committed`` false and the rest null: the game's setup was not drawn so)."""

    committed: bool
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


def open_commitment(conn: Connection, seek_id: str, variant: str) -> str:
    """A fresh server seed for seek ``seek_id``, stored in ``conn``'s transaction; returns
    the commitment."""
    seed = new_server_seed()
    commitment = game_commitment(seed)
    conn.execute(insert(COMMITMENTS).values(
        seek_id=seek_id, variant=get_variant(variant).key, server_seed=seed.hex(),
        commitment=commitment, created_at=now_ms()))
    return commitment


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
    client = row.client_value or ""
    setup = game_setup(bytes.fromhex(row.server_seed), client, row.variant)
    return {"committed": True, "recipe": GAME_DOMAIN.decode(), "variant": row.variant,
            "number": setup.number, "commitment": row.commitment, "server_seed": row.server_seed,
            "client_value": row.client_value, "pool": f"{row.variant}:any:-"}


def pgn_tags(draw: dict[str, Any] | None) -> dict[str, str]:
    """The PGN tags of a game's draw (docs/shuffler.md §10); none without one."""
    if draw is None:
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
