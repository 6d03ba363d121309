"""The puzzles' tables (``puzzles``, ``puzzle_ratings``, ``puzzle_attempts``; db/schema.py,
migration 0019): the shipped starter set loaded once, the next puzzle for an account, and
the Glicko-2 rating of account and puzzle after an account's first attempt (a retry is
practice and changes nothing)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, literal, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from randomchess.accounts.ratings import INITIAL_RD, INITIAL_VOLATILITY, Rating, after_idle
from randomchess.accounts.ratings import update as glicko_update
from randomchess.db import now_ms, schema
from randomchess.puzzles.model import PUZZLE_VARIANTS, Puzzle, shipped_puzzles

PUZZLES = schema.puzzles
RATINGS = schema.puzzle_ratings
ATTEMPTS = schema.puzzle_attempts
NEAREST = 12  # the next puzzle is drawn among this many nearest the solver's rating


@dataclass(frozen=True)
class StoredPuzzle:
    puzzle: Puzzle
    rating: Rating  # the puzzle's own Glicko-2 rating
    plays: int


@dataclass(frozen=True)
class AttemptResult:
    rated: bool  # the account's first attempt at this puzzle
    solver: Rating | None  # the account's rating after it (None: nobody signed in)
    solver_before: Rating | None
    puzzle: Rating


def _stored(row: Any) -> StoredPuzzle:
    puzzle = Puzzle(variant=row.variant, fen=row.fen, moves=row.moves.split(),
                    themes=row.themes.split(), last_move=row.last_move, rating=row.rating,
                    source=row.source, id=row.id)
    return StoredPuzzle(puzzle, Rating(row.rating, row.rd, row.volatility, row.plays),
                        row.plays)


class PuzzleStore:
    def __init__(self, engine: Engine, lock: Any = None) -> None:
        self.engine = engine
        self._lock = lock if lock is not None else threading.Lock()
        self._loaded = False

    @contextmanager
    def _write(self) -> Any:
        with self._lock, self.engine.begin() as conn:
            yield conn

    # ----------------------------------------------------------------- puzzles
    def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Store the puzzles not stored yet (by id); how many were new."""
        new = 0
        with self._write() as conn:
            have = set(conn.execute(select(PUZZLES.c.id)).scalars())
            rows = []
            for p in puzzles:
                if p.id in have:
                    continue
                have.add(p.id)
                rows.append(dict(id=p.id, variant=p.variant, fen=p.fen, last_move=p.last_move,
                                 moves=" ".join(p.moves), themes=" ".join(p.themes),
                                 source=p.source[:16], rating=p.rating, rd=INITIAL_RD,
                                 volatility=INITIAL_VOLATILITY, plays=0,
                                 created_at=now_ms()))
            if rows:
                conn.execute(insert(PUZZLES), rows)
                new = len(rows)
        return new

    def ensure_shipped(self) -> None:
        """Load the shipped starter set the first time (its puzzles keep their ids)."""
        if self._loaded:
            return
        for variant in PUZZLE_VARIANTS:
            puzzles = shipped_puzzles(variant)
            try:
                self.add(puzzles)
            except IntegrityError:  # another server process loaded them at the same time
                self.add(puzzles)
        self._loaded = True

    def get(self, puzzle_id: str) -> StoredPuzzle | None:
        self.ensure_shipped()
        with self.engine.connect() as conn:
            row = conn.execute(select(PUZZLES).where(PUZZLES.c.id == puzzle_id)).first()
        return None if row is None else _stored(row)

    def count(self, variant: str) -> int:
        self.ensure_shipped()
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(PUZZLES).where(
                PUZZLES.c.variant == variant)).scalar_one())

    def next_for(self, variant: str, target: float, theme: str | None = None,
                 user_id: int | None = None, exclude: Iterable[str] = (),
                 rng: random.Random | None = None) -> StoredPuzzle | None:
        """A puzzle of ``variant`` (and ``theme``) near the rating ``target``, not yet
        tried by ``user_id`` when there is one such left, and not in ``exclude``."""
        self.ensure_shipped()
        t = PUZZLES.c
        query = select(PUZZLES).where(t.variant == variant)
        if theme:
            query = query.where((literal(" ") + t.themes + literal(" ")).like(f"% {theme} %"))
        skip = list(exclude)[:50]
        if skip:
            query = query.where(t.id.not_in(skip))
        with self.engine.connect() as conn:
            rows: list[Any] = []
            if user_id is not None:
                tried = select(ATTEMPTS.c.puzzle_id).where(ATTEMPTS.c.user_id == user_id)
                rows = list(conn.execute(query.where(t.id.not_in(tried)).order_by(
                    func.abs(t.rating - target)).limit(NEAREST)))
            if not rows:
                rows = list(conn.execute(query.order_by(func.abs(t.rating - target))
                                         .limit(NEAREST)))
        if not rows:
            return None
        return _stored((rng or random).choice(rows))

    # ----------------------------------------------------------------- ratings
    def rating_of(self, user_id: int, variant: str) -> Rating:
        with self.engine.connect() as conn:
            return self._rating(conn, user_id, variant)

    @staticmethod
    def _rating(conn: Connection, user_id: int, variant: str) -> Rating:
        row = conn.execute(select(RATINGS).where(RATINGS.c.user_id == user_id,
                                                 RATINGS.c.variant == variant)).first()
        if row is None:
            return Rating()
        stored = Rating(row.rating, row.rd, row.volatility, row.games)
        return after_idle(stored, max(0, now_ms() - row.updated_at) / 86_400_000)

    def attempted(self, user_id: int, puzzle_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(ATTEMPTS.c.solved).where(
                ATTEMPTS.c.user_id == user_id, ATTEMPTS.c.puzzle_id == puzzle_id)
            ).first() is not None

    def record(self, user_id: int | None, stored: StoredPuzzle, solved: bool) -> AttemptResult:
        """The end of an attempt: for an account's first attempt, both ratings move
        (Glicko-2, the puzzle as the opponent); otherwise nothing changes."""
        pid = stored.puzzle.id
        variant = stored.puzzle.variant
        if user_id is None:
            return AttemptResult(False, None, None, stored.rating)
        try:
            with self._write() as conn:
                before = self._rating(conn, user_id, variant)
                row = conn.execute(select(PUZZLES).where(PUZZLES.c.id == pid)).first()
                if row is None:
                    return AttemptResult(False, before, before, stored.rating)
                p_before = Rating(row.rating, row.rd, row.volatility, row.plays)
                score = 1.0 if solved else 0.0
                after = glicko_update(before, [(p_before, score)])
                p_after = glicko_update(p_before, [(before, 1.0 - score)])
                # the primary key makes a second rated attempt fail here
                conn.execute(insert(ATTEMPTS).values(
                    user_id=user_id, puzzle_id=pid, solved=solved,
                    rating_before=before.rating, rating_after=after.rating,
                    created_at=now_ms()))
                values = dict(rating=after.rating, rd=after.rd, volatility=after.volatility,
                              games=after.games, updated_at=now_ms())
                exists = conn.execute(select(RATINGS.c.games).where(
                    RATINGS.c.user_id == user_id, RATINGS.c.variant == variant)).first()
                if exists is None:
                    conn.execute(insert(RATINGS).values(user_id=user_id, variant=variant,
                                                        **values))
                else:
                    conn.execute(update(RATINGS).where(
                        RATINGS.c.user_id == user_id, RATINGS.c.variant == variant
                    ).values(**values))
                conn.execute(update(PUZZLES).where(PUZZLES.c.id == pid).values(
                    rating=p_after.rating, rd=p_after.rd, volatility=p_after.volatility,
                    plays=row.plays + 1))
        except IntegrityError:
            current = self.rating_of(user_id, variant)
            again = self.get(pid)
            return AttemptResult(False, current, current,
                                 again.rating if again is not None else stored.rating)
        return AttemptResult(True, after, before, p_after)
