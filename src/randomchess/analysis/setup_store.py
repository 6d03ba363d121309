"""The setup-evaluation batch's store on ``randomchess.db.schema.setup_evaluations``: one
committed row per evaluated setup, so an interrupted batch resumes where it stopped."""

from __future__ import annotations

import time

from sqlalchemy import and_, select
from sqlalchemy.engine import Engine

from randomchess.analysis.setup_eval import EvaluationSet, SetupEvaluation, check_variant
from randomchess.db import schema

setup_evaluations = schema.setup_evaluations


class SetupEvaluationStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def load(self, variant: str, engine_name: str, depth: int) -> EvaluationSet:
        key = check_variant(variant)
        out = EvaluationSet(key, engine_name, depth)
        t = setup_evaluations.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(setup_evaluations).where(and_(
                t.variant == key, t.engine == engine_name, t.depth == depth))).all()
        for r in rows:
            out.add(SetupEvaluation(r.number, r.cp, r.mate, r.best))
        return out

    def save(self, variant: str, engine_name: str, depth: int, e: SetupEvaluation) -> None:
        """Store one result (a repeated one replaces the row: same setup, same search)."""
        t = setup_evaluations
        now = int(time.time() * 1000)
        with self.engine.begin() as conn:
            conn.execute(t.delete().where(and_(
                t.c.variant == variant, t.c.engine == engine_name, t.c.depth == depth,
                t.c.number == e.number)))
            conn.execute(t.insert().values(variant=variant, engine=engine_name, depth=depth,
                                           number=e.number, cp=e.cp, mate=e.mate,
                                           best=e.best, created_at=now))

    def runs(self) -> list[tuple[str, str, int, int]]:
        """(variant, engine, depth, evaluated) of every stored batch."""
        from sqlalchemy import func

        t = setup_evaluations.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.variant, t.engine, t.depth, func.count())
                                .group_by(t.variant, t.engine, t.depth)
                                .order_by(t.variant, t.engine, t.depth)).all()
        return [(r[0], r[1], int(r[2]), int(r[3])) for r in rows]
