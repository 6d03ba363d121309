"""The setup brief over HTTP (issue 33): ``GET /api/setups/{variant}/{number}/brief``.

The rules core's facts (:mod:`randomchess.brief`), the shipped engine evaluation and balance
rank (issue 17) and this server's statistics of the setup (issue 18) in one answer, for the
shuffler's cards.  It lives in the accounts wing because the statistics do."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from randomchess.analysis.setup_eval import EVALUATED_VARIANTS, shipped
from randomchess.brief import setup_brief
from randomchess.server.accounts.answers import ANSWER, SetupBriefOut
from randomchess.server.accounts.deps import players_of
from randomchess.server.accounts.store import setup_statistics
from randomchess.server.http.errors import ApiError
from randomchess.server.http.guards import Int32, Line
from randomchess.startpos import NumberedSetup, numbered_variant, setup_count, setup_from_number

router = APIRouter()


def _setup(variant: str, number: int) -> NumberedSetup:
    try:
        v = numbered_variant(variant)
    except (KeyError, ValueError) as e:
        raise ApiError.wrap(404, e) from None
    if not 0 <= number < setup_count(v):
        raise ApiError(404, "setup.out_of_range", number=number, variant=v.key,
                       last=setup_count(v) - 1)
    return setup_from_number(v, number)


def _evaluation(variant: str, number: int) -> dict[str, Any] | None:
    evals = shipped(variant) if variant in EVALUATED_VARIANTS else None
    e = None if evals is None else evals.items.get(number)
    if evals is None or e is None:
        return None
    return {"engine": evals.engine, "depth": evals.depth, "cp": e.cp, "mate": e.mate,
            "best": e.best, "balance_rank": evals.balance_rank(number),
            "evaluated": len(evals.items)}


@router.get("/api/setups/{variant}/{number}/brief", **ANSWER)
async def brief(variant: Annotated[Line, Path(max_length=40)], number: Int32,
                request: Request) -> SetupBriefOut:
    """What to know about a numbered setup before move 1: weak pawns, diagonals at the
    castled king's pawns, the king's lines, moves to castle; evaluation and statistics."""
    setup = _setup(variant[:40], number)
    key = setup.variant.key
    players = players_of(request)
    stats = await players.run(setup_statistics, players.accounts.engine, key, number)
    return SetupBriefOut.model_validate({
        **setup_brief(setup).as_dict(), "evaluation": _evaluation(key, number),
        "stats": stats})
