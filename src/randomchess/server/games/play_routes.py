"""What the play page needs around a game (issue 11): abort while a side has not moved, and a
rematch with colours reversed, on the same setup or a new random one.

No new column: an abort is an ending (status ``ended``, result ``*``, termination
``aborted``), and a rematch is a new game made by the usual create path.  A rematch offer in a
friend game waits in this process's memory, keyed by the old game, and reaches the other side
as the old game's state with a ``rematch`` field (pushed) or ``GET /api/games/{id}/rematch``;
the friend's seat in the new game is claimed with the old game's token, so the invitation code
never leaves the server.  (With several workers an offer is known to the worker that took it
only: the friend then joins with the invite link instead.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from randomchess.db import now_ms
from randomchess.pieces import Color
from randomchess.server.games import commit
from randomchess.server.games.contract import (
    STATE_ROUTE,
    RematchOffer,
    rematch_frame,
)
from randomchess.server.games.live import COLOR_BY_NAME, COLOR_NAMES, LiveGame
from randomchess.server.games.routes import CreateGameOut, SeatOut
from randomchess.server.games.service import GameService
from randomchess.server.games.store import GameChanges
from randomchess.server.http.errors import ApiError

router = APIRouter()


class _TokenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=128)


_CLIENT_VALUE = Field(None, max_length=200, description=(
    "the accepting side's share of a new setup's verifiable draw: 32-64 lower-case hex "
    "digits (docs/shuffler.md §10)"))


class AcceptIn(_TokenIn):
    client_value: str | None = _CLIENT_VALUE


class RematchIn(AcceptIn):
    setup: Literal["same", "new"] | None = Field(
        None, description="the same start or a new draw; by default the same, except for a "
                          "game whose seek asked for a new random setup per game")
    setup_draw: commit.SetupDrawIn | None = Field(
        None, description="against the computer, a new setup: the draw the page opened "
                          "(POST /api/setup-draws) and its client value")


@dataclass
class Offer:
    by: str  # the colour that asked, in the old game
    new_id: str
    invite: str


def _offers(request: Request) -> dict[str, Offer]:
    state = request.app.state
    if not hasattr(state, "rematch_offers"):
        state.rematch_offers = {}
    offers: dict[str, Offer] = state.rematch_offers
    return offers


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _public(offer: Offer | None) -> RematchOffer | None:
    return None if offer is None else RematchOffer.model_validate({"by": offer.by,
                                                                   "id": offer.new_id})


def abort_changes(g: LiveGame, colors: set[Color], now: int,
                  rated: bool = False) -> GameChanges:
    """End the game without a result while a side has not moved yet; in a rated game whose
    setup both players have seen, a resignation (docs/rules.md, "no setup-shopping")."""
    return g.leave_changes(colors, now, rated)


@router.post("/api/games/{game_id}/abort", **STATE_ROUTE)
async def abort(game_id: str, body: _TokenIn, request: Request) -> Response:
    """Abort (no result) while a side has not moved; 409 afterwards.  In a rated game
    after the setup was shown to both players it counts as a resignation (docs/rules.md,
    "no setup-shopping")."""
    service = _service(request)
    rated = await service.is_rated(game_id)
    live = await service.act(
        game_id, lambda g, now: abort_changes(g, g.colors_of(body.token), now, rated))
    return Response(live.state_json(now_ms()), media_type="application/json")


async def _publish(service: GameService, live: LiveGame, offer: Offer | None) -> None:
    # Its own frame: the game's state does not change with an offer (contract.RematchFrame).
    await service.hub.publish_frame(live.record.id, rematch_frame(_public(offer)))


class RematchOfferOut(BaseModel):
    offer: RematchOffer | None = Field(description="none: no rematch is offered")


_SEAT_ROUTE: dict[str, Any] = {"response_model": CreateGameOut,
                               "response_model_exclude_none": True}


@router.get("/api/games/{game_id}/rematch", response_model=RematchOfferOut)
async def rematch_offer(game_id: str, request: Request) -> RematchOfferOut:
    await _service(request).load(game_id)  # 404 for no such game
    return RematchOfferOut(offer=_public(_offers(request).get(game_id)))


@router.post("/api/games/{game_id}/rematch", **_SEAT_ROUTE)
async def rematch(game_id: str, body: RematchIn, request: Request) -> CreateGameOut:
    """A new game with colours reversed.  Against the computer or on one screen it starts at
    once; in a friend game the other side is offered it (accept with ``rematch-accept``)."""
    service = _service(request)
    live = await service.load(game_id)
    r = live.record
    colors = live.colors_of(body.token)
    if not colors:
        raise ApiError(403, "seat.wrong_token")
    if not live.ended:
        raise ApiError(409, "game.not_over")
    offers = _offers(request)
    me = COLOR_NAMES[next(iter(colors))] if len(colors) == 1 else "both"
    existing = offers.get(game_id)
    if existing is not None:
        if existing.by == me:
            raise ApiError(409, "rematch.already_offered")
        return await _accept(request, live, body.token, body.client_value)
    players = getattr(request.app.state, "players", None)  # accounts (accounts_api.py)
    terms = None if players is None else \
        await service.db.run(players.accounts.terms, game_id)
    fresh = bool(terms and terms[2])
    if fresh and body.setup == "same":
        raise ApiError(409, "rematch.fixed_setup")
    if not await service.rate.allow(request.client.host if request.client else "unknown",
                                    now_ms()):
        raise ApiError(429, "rate.too_many_games")
    setup: int | str = "random"
    if (body.setup or ("new" if fresh else "same")) == "same":
        setup = r.number if r.number is not None else r.start_fen
    clock = None
    if r.clock_initial_ms is not None:
        clock = (r.clock_initial_ms, r.clock_increment_ms or 0)
    color = "white" if me == "both" else COLOR_NAMES[COLOR_BY_NAME[me] ^ 1]
    # A new random setup: verifiable (issue 32) in a friend's game (drawn at the
    # acceptance) and, with the page's draw, against the computer.
    new = await commit.create(request, r.variant, setup, r.opponent, r.level, color, clock,
                              days=r.days_per_move,
                              control=live.control if r.time_control is not None else None,
                              preview_s=(r.preview_ms or 0) // 1000,
                              setup_draw=body.setup_draw)
    new_id = new.game.record.id
    if players is not None:  # rated or casual, fresh setups and the accounts' seats carry over
        await service.db.run(players.accounts.carry_over, game_id, new_id)
    out = CreateGameOut(id=new_id, seat=SeatOut.model_validate(
        {"color": new.color, "token": new.token}))
    if new.invite is not None:
        out.invite_url = str(request.url_for("open_invite", game_id=new_id, invite=new.invite))
        offer = offers[game_id] = Offer(me, new_id, new.invite)
        await _publish(service, live, offer)
    return out


async def _accept(request: Request, live: LiveGame, token: str,
                  client_value: str | None = None) -> CreateGameOut:
    service = _service(request)
    offers = _offers(request)
    offer = offers.get(live.record.id)
    if offer is None:
        raise ApiError(409, "rematch.no_offer")
    colors = live.colors_of(token)
    if not colors:
        raise ApiError(403, "seat.wrong_token")
    if COLOR_BY_NAME[offer.by] in colors:
        raise ApiError(409, "rematch.own_offer")
    color, new_token = await commit.join(request, offer.new_id, offer.invite, client_value)
    del offers[live.record.id]
    await _publish(service, live, None)
    return CreateGameOut(id=offer.new_id,
                         seat=SeatOut.model_validate({"color": color, "token": new_token}))


@router.post("/api/games/{game_id}/rematch-accept", **_SEAT_ROUTE)
async def rematch_accept(game_id: str, body: AcceptIn, request: Request) -> CreateGameOut:
    """Take the seat of the rematch the other side offered; answers the new game's seat.
    ``client_value`` fixes a new setup's verifiable draw (docs/shuffler.md §10)."""
    return await _accept(request, await _service(request).load(game_id), body.token,
                         body.client_value)


@router.post("/api/games/{game_id}/rematch-decline", response_model=RematchOfferOut)
async def rematch_decline(game_id: str, body: _TokenIn, request: Request) -> RematchOfferOut:
    service = _service(request)
    live = await service.load(game_id)
    offer = _offers(request).get(game_id)
    colors = live.colors_of(body.token)
    if not colors:
        raise ApiError(403, "seat.wrong_token")
    if offer is None or COLOR_BY_NAME[offer.by] in colors:
        raise ApiError(409, "rematch.no_offer")
    del _offers(request)[game_id]
    await _publish(service, live, None)
    return RematchOfferOut(offer=None)
