"""Setup evaluations over HTTP (issue 17): the shipped evaluation set of a numbered variant,
its summary (the most and least balanced setups) and one setup's score, for the shuffler
page and for arbiters choosing an evaluation band.

``GET /api/setups/{variant}/evaluations``, ``GET /api/setups/{variant}/evaluation-set`` (the
whole set, for the shuffler page's evaluation bands) and ``GET /api/setups/{variant}/{number}``.
"""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import Response

from randomchess.analysis.setup_eval import EVALUATED_VARIANTS, EvaluationSet, shipped
from randomchess.server.games.answers import (
    ANSWER,
    EvaluationSummaryOut,
    SetupEvaluationOut,
)
from randomchess.server.http.errors import ApiError
from randomchess.startpos import setup_count, setup_from_number
from randomchess.variants import get_variant

router = APIRouter()


def _evaluations(variant: str) -> tuple[str, EvaluationSet]:
    try:
        key = get_variant(variant).key
    except (KeyError, ValueError):
        raise ApiError(404, "evaluations.unknown_variant", variant=variant) from None
    if key not in EVALUATED_VARIANTS:
        raise ApiError(404, "evaluations.not_evaluated",
                       variants=", ".join(EVALUATED_VARIANTS), variant=key)
    evals = shipped(key)
    if evals is None:
        raise ApiError(404, "evaluations.not_installed", variant=key)
    return key, evals


@router.get("/api/setups/{variant}/evaluations", **ANSWER)
def evaluation_summary(variant: str, k: int = Query(5, ge=1, le=50)) -> EvaluationSummaryOut:
    """Engine, depth, digest, mean and median score, and the ``k`` most and least balanced
    setups (centipawns from White's point of view)."""
    _, evals = _evaluations(variant)
    return EvaluationSummaryOut.model_validate(evals.summary(k))


@router.get("/api/setups/{variant}/evaluation-set", response_class=Response, responses={
    200: {"content": {"application/json": {"schema": {"type": "object", "properties": {
        "format": {"type": "string"}, "variant": {"type": "string"},
        "engine": {"type": "string"}, "depth": {"type": "integer"},
        "digest": {"type": "string", "description": "SHA-256 of the set, hex"},
        "evaluations": {"type": "array", "description": "[number, cp, mate, best] each",
                        "items": {"type": "array", "items": {}}}}}}},
          "description": "The whole set as its file (format, variant, engine, depth, digest, "
                         "evaluations: [number, cp, mate, best])"}})
def evaluation_set(variant: str) -> Response:
    """The whole shipped evaluation set, for a page that re-derives an event with an
    evaluation band: it checks the set's digest against the event's and leaves out the
    setups outside the band itself (docs/shuffler.md §6)."""
    _, evals = _evaluations(variant)
    return Response(evals.to_json(), media_type="application/json",
                    headers={"Cache-Control": "public, max-age=3600"})


@router.get("/api/setups/{variant}/{number}", **ANSWER)
def setup_evaluation(variant: str, number: int) -> SetupEvaluationOut:
    """One setup: its number, FEN and evaluation (``null`` when not evaluated), with its rank
    among all setups by balance (1 = the most balanced)."""
    key, evals = _evaluations(variant)
    if not 0 <= number < setup_count(key):
        raise ApiError(404, "setup.out_of_range", number=number, variant=key,
                       last=setup_count(key) - 1)
    e = evals.items.get(number)
    return SetupEvaluationOut.model_validate({
        "variant": key, "number": number, "fen": setup_from_number(key, number).fen,
        "engine": evals.engine, "depth": evals.depth,
        "evaluation": None if e is None else e.as_dict(),
        "balance_rank": evals.balance_rank(number),
        "evaluated": len(evals.items),
    })
