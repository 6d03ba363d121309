"""The explorer's tables (``explorer_moves``, ``explorer_imports``; db/schema.py, migrations
0014 and 0018): counts added in one transaction each (one statement run over all the rows), an
import's progress committed with them so that an interrupted import resumes without counting
a game twice, and the query of one position with its filters."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.engine import Connection, Engine

from randomchess.db import now_ms, schema
from randomchess.explorer.counts import BAND, COLUMNS, NO_BAND, Tally, position_key
from randomchess.position import Position
from randomchess.startpos import setup_from_number

MOVES = schema.explorer_moves
IMPORTS = schema.explorer_imports
GAMES = schema.explorer_games
LINKS = schema.explorer_links
EVALS = schema.explorer_evals
COUNTED = schema.explorer_counted
_KEYS = ("variant", "number", "position", "source", "speed", "band", "move")
_COUNTS = COLUMNS
_RESULTS = ("games", "white_wins", "draws", "black_wins")


IMPORT_CACHE_KIB = 1024 * 1024  # SQLite's page cache while a batch is written


def _import_pragmas(conn: Connection) -> list[str]:
    """SQLite's settings for an import's batch, set on ``conn`` outside a transaction; the
    statements that put back the ones the connection had.  WAL (as the server runs) with
    ``synchronous=NORMAL``: a batch commits without waiting for the disk.  A power cut may
    lose the last batches, but each batch's counts and the import's mark commit together, so
    the import resumes consistently (kill -9 loses nothing).  A large page cache keeps a big
    table's B-tree pages in memory while the batch's rows go in."""
    synchronous = conn.exec_driver_sql("PRAGMA synchronous").scalar()
    cache = conn.exec_driver_sql("PRAGMA cache_size").scalar()
    conn.exec_driver_sql("PRAGMA journal_mode=WAL")
    conn.exec_driver_sql("PRAGMA synchronous=NORMAL")
    conn.exec_driver_sql(f"PRAGMA cache_size=-{IMPORT_CACHE_KIB}")
    conn.commit()
    return [f"PRAGMA synchronous={int(synchronous or 2)}",
            f"PRAGMA cache_size={int(cache or -2000)}"]


class ExplorerStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _upsert(self, conn: Connection, source: str, tally: Tally) -> list[int]:
        """One statement run over every row (executemany): insert, or add to the row; the
        ids of the games' rows in ``explorer_games``, in the tally's order."""
        if not any(tally.groups.values()):
            return []
        # "%016x" % key: the key's hex (counts.key_text) in a third of an f-string's time
        rows = [(v, n, "%016x" % key, source, speed, band, uci, *c)  # noqa: UP031
                for (v, n, speed, band), group in tally.groups.items()
                for (key, uci), c in group.items()]
        marks = "?" if conn.dialect.name == "sqlite" else "%s"
        columns = _KEYS + _COUNTS
        sql = (f"INSERT INTO {MOVES.name} ({', '.join(columns)}) "
               f"VALUES ({', '.join([marks] * len(columns))}) "
               f"ON CONFLICT ({', '.join(_KEYS)}) DO UPDATE SET "
               + ", ".join(f"{c} = {MOVES.name}.{c} + excluded.{c}" for c in _COUNTS))
        conn.exec_driver_sql(sql, rows)
        if tally.rows:
            ids = conn.execute(GAMES.insert().returning(GAMES.c.id, sort_by_parameter_order=True),
                               [dict(row, source=source) for row, _ in tally.rows]).scalars().all()
            links = [(row["variant"], row["number"], "%016x" % key, uci,  # noqa: UP031
                      game_id)
                     for (row, pairs), game_id in zip(tally.rows, ids, strict=True)
                     for key, uci in pairs]
            if links:
                conn.exec_driver_sql(
                    f"INSERT INTO {LINKS.name} (variant, number, position, move, game) "
                    f"VALUES ({', '.join([marks] * 5)})", links)
            return [int(i) for i in ids]
        return []

    def add(self, source: str, tally: Tally) -> None:
        """Add ``tally``'s counts under ``source`` in one transaction."""
        with self.engine.begin() as conn:
            self._upsert(conn, source, tally)

    # ------------------------------------------------------------------ games that change
    def counted(self, source: str) -> dict[str, str]:
        """The games counted under ``source`` by key (:meth:`replace`): key -> digest."""
        t = COUNTED.c
        with self.engine.connect() as conn:
            return {str(k): str(d) for k, d in conn.execute(
                select(t.key, t.digest).where(t.source == source)).all()}

    def replace(self, source: str, key: str, digest: str, tally: Tally | None) -> None:
        """Count the game ``key`` of ``source`` as ``tally`` (one game; None: no longer
        counted), taking out what was counted for it before, in one transaction: a
        corrected game is never counted twice."""
        t = COUNTED.c
        with self.engine.begin() as conn:
            old = conn.execute(select(t.game).where(and_(t.source == source, t.key == key))
                               ).first()
            if old is not None:
                if old.game is not None:
                    self._take_out(conn, int(old.game))
                conn.execute(COUNTED.delete().where(and_(t.source == source, t.key == key)))
            if tally is None:
                return
            ids = self._upsert(conn, source, tally)
            conn.execute(COUNTED.insert().values(source=source, key=key, digest=digest,
                                                 game=ids[0] if ids else None,
                                                 counted_at=now_ms()))

    def _take_out(self, conn: Connection, game_id: int) -> None:
        """Subtract a counted game's pairs (its links) from the counts and drop its rows."""
        g = conn.execute(select(GAMES).where(GAMES.c.id == game_id)).mappings().first()
        if g is None:
            return
        pairs = conn.execute(select(LINKS.c.position, LINKS.c.move)
                             .where(LINKS.c.game == game_id)).all()
        won = {"1-0": "white_wins", "1/2-1/2": "draws", "0-1": "black_wins"}[g["result"]]
        white, black = g["white_elo"], g["black_elo"]
        rated = g["band"] != NO_BAND and bool(white) and bool(black)
        rating = (white + black) // 2 if rated else 0
        m = MOVES.c
        for position, move in pairs:
            where = and_(m.variant == g["variant"], m.number == g["number"],
                         m.position == position, m.source == g["source"],
                         m.speed == g["speed"], m.band == g["band"], m.move == move)
            conn.execute(update(MOVES).where(where).values(
                games=m.games - 1, **{won: m[won] - 1},
                rating_sum=m.rating_sum - rating, rated=m.rated - int(rated)))
            conn.execute(MOVES.delete().where(and_(where, m.games <= 0)))
        conn.execute(LINKS.delete().where(LINKS.c.game == game_id))
        conn.execute(GAMES.delete().where(GAMES.c.id == game_id))

    # ------------------------------------------------------------------ imports
    def start_import(self, source: str, path: str, size: int) -> tuple[int, int, bool]:
        """The import of ``path`` (``size`` bytes) under ``source``: (id, games already
        read, finished), a new row when it was never started."""
        t = IMPORTS.c
        with self.engine.begin() as conn:
            row = conn.execute(select(t.id, t.games_read, t.finished).where(and_(
                t.source == source, t.path == path, t.size == size))).first()
            if row is not None:
                return int(row.id), int(row.games_read), bool(row.finished)
            now = now_ms()
            new = conn.execute(IMPORTS.insert().values(
                source=source, path=path, size=size, games_read=0, games_counted=0,
                games_skipped=0, finished=False, created_at=now, updated_at=now))
            key = new.inserted_primary_key
            assert key is not None
            return int(key[0]), 0, False

    def commit_batch(self, import_id: int, source: str, tally: Tally, read: int,
                     skipped: int, finished: bool = False) -> None:
        """Add a batch's counts and move the import's mark past it, together."""
        with self.engine.connect() as conn:
            restore = _import_pragmas(conn) if conn.dialect.name == "sqlite" else []
            try:
                with conn.begin():
                    self._upsert(conn, source, tally)
                    conn.execute(update(IMPORTS).where(IMPORTS.c.id == import_id).values(
                        games_read=IMPORTS.c.games_read + read,
                        games_counted=IMPORTS.c.games_counted + tally.games,
                        games_skipped=IMPORTS.c.games_skipped + skipped,
                        finished=finished, updated_at=now_ms()))
            finally:
                for pragma in restore:
                    conn.exec_driver_sql(pragma)
                conn.commit()

    def imports(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(IMPORTS).order_by(IMPORTS.c.id)).mappings().all()
        return [dict(r) for r in rows]

    # ------------------------------------------------------------------ queries
    def moves(self, variant: str, number: int, position: str,
              sources: Sequence[str] | None = None, speeds: Sequence[str] | None = None,
              min_rating: int | None = None, max_rating: int | None = None,
              ) -> list[dict[str, Any]]:
        """The moves played from ``position`` (a key, counts.position_key) in games from
        setup ``number`` of ``variant``, summed over ``sources`` and ``speeds`` (all when
        None) and the rating bands within ``min_rating``..``max_rating`` (a game's band is
        its players' mean rating rounded down to a multiple of counts.BAND; with either
        bound, games without ratings are left out), most played first; each with the
        average rating of its games that have ratings (None if none has)."""
        t = MOVES.c
        where = [t.variant == variant, t.number == number, t.position == position]
        if sources is not None:
            where.append(t.source.in_(list(sources)))
        if speeds is not None:
            where.append(t.speed.in_(list(speeds)))
        if min_rating is not None or max_rating is not None:
            where.append(t.band > NO_BAND)
        if min_rating is not None:
            where.append(t.band >= min_rating // BAND * BAND)
        if max_rating is not None:
            where.append(t.band <= max_rating // BAND * BAND)
        query = (select(t.move, *(func.sum(t[c]).label(c) for c in _COUNTS))
                 .where(and_(*where)).group_by(t.move))
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        out: list[dict[str, Any]] = []
        for r in rows:
            rated = int(r["rated"])
            out.append({"move": r["move"], **{c: int(r[c]) for c in _RESULTS},
                        "average_rating": round(int(r["rating_sum"]) / rated) if rated
                        else None})
        return sorted(out, key=lambda m: (-m["games"], m["move"]))

    def games(self, variant: str, number: int, position: str, move: str,
              sources: Sequence[str] | None = None, speeds: Sequence[str] | None = None,
              min_rating: int | None = None, max_rating: int | None = None,
              limit: int = 20) -> list[dict[str, Any]]:
        """The games that played ``move`` (UCI) from ``position``, with the filters of
        :meth:`moves`, the latest counted first, at most ``limit``."""
        ln, g = LINKS.c, GAMES.c
        where = [ln.variant == variant, ln.number == number, ln.position == position,
                 ln.move == move]
        if sources is not None:
            where.append(g.source.in_(list(sources)))
        if speeds is not None:
            where.append(g.speed.in_(list(speeds)))
        if min_rating is not None or max_rating is not None:
            where.append(g.band > NO_BAND)
        if min_rating is not None:
            where.append(g.band >= min_rating // BAND * BAND)
        if max_rating is not None:
            where.append(g.band <= max_rating // BAND * BAND)
        query = (select(g.source, g.white, g.black, g.white_elo, g.black_elo, g.result, g.date,
                        g.event, g.speed, g.game_id)
                 .select_from(LINKS.join(GAMES, ln.game == g.id))
                 .where(and_(*where)).order_by(g.id.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings().all()]

    # ------------------------------------------------------------------ evaluations
    def set_eval(self, variant: str, number: int, position: str, cp: int | None,
                 mate: int | None, depth: int, engine: str) -> None:
        """Keep an evaluation of ``position`` (a key), replacing a shallower one."""
        t = EVALS.c
        with self.engine.begin() as conn:
            old = conn.execute(select(t.depth).where(and_(
                t.variant == variant, t.number == number, t.position == position))).scalar()
            values = {"cp": cp, "mate": mate, "depth": depth, "engine": engine,
                      "updated_at": now_ms()}
            if old is None:
                conn.execute(EVALS.insert().values(variant=variant, number=number,
                                                   position=position, **values))
            elif old <= depth:
                conn.execute(update(EVALS).where(and_(
                    t.variant == variant, t.number == number, t.position == position))
                    .values(**values))

    def evals(self, variant: str, number: int,
              positions: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The evaluations known of ``positions`` (keys): key -> {cp, mate, depth}."""
        if not positions:
            return {}
        t = EVALS.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.position, t.cp, t.mate, t.depth).where(and_(
                t.variant == variant, t.number == number,
                t.position.in_(list(positions))))).all()
        return {r.position: {"cp": r.cp, "mate": r.mate, "depth": r.depth} for r in rows}

    def sources(self, variant: str, number: int) -> list[str]:
        """The sources with games from setup ``number`` of ``variant``.  Every counted game
        has its first pair at the setup's start position (a game without moves counts
        nothing), so these are the sources at that one position: a few rows of the primary
        key, where the setup's whole range can hold millions (issue 33: 50 ms at p99)."""
        t = MOVES.c
        where = [t.variant == variant, t.number == number]
        with suppress(ValueError):  # not a numbered setup: the whole range says it (none)
            where.append(t.position == _start_key(variant, number))
        with self.engine.connect() as conn:
            return list(conn.execute(select(t.source).distinct().where(and_(*where))
                                     .order_by(t.source)).scalars())


@lru_cache(maxsize=4096)
def _start_key(variant: str, number: int) -> str:
    """The key of setup ``number``'s start position (counts.position_key)."""
    setup = setup_from_number(variant, number)
    return position_key(Position(setup.fen, setup.variant))
