#!/usr/bin/env python3
"""Opening explorer speed (issue 33): import games/s on 8x8 and 9x9 beside python-chess's
PGN reading speed on the same 8x8 games (and our full PGN reader's on the 9x9 ones), and the
latency of a query at a node after N games, in one run.

The games are random self-play (bench/explorer_games.py, fixed seed): Chess960 for 8x8, MRC
for 9x9.  Each import goes into a fresh SQLite file (or the database --db names, PostgreSQL
included, which must be empty of these sources).  Times are CPU seconds of this process
(SQLite runs in it; with PostgreSQL the server's share is not counted, and the wall clock is
printed too).  python-chess only reads the text (no counting, no database).

Queries: --queries visits of the explorer, each from the start of a random setup with games
(every tenth from the setup with the most games) for 0-40 moves, each move the most played
one or a random one; at every node the three queries the API route makes
(ExplorerStore.moves, .sources, .evals: server/games/explorer_routes.py), timed by the wall
clock and by this process's CPU time (SQLite's work is in it; on a busy machine the wall
clock's p99 is mostly waiting for a core), p50/p99 for start, early (plies 1-8) and deep
(9+) nodes, and the list of games behind a move (ExplorerStore.games).  --explain prints
the plans of the queries at the busiest start position.

Usage: python bench/explorer_bench.py [--games 2000] [--games9 1000] [--plies 80] [--tree]
                                      [--db URL]
       python bench/explorer_bench.py --db URL --query-only [--explain]  (a database already
                                 imported, e.g. the large collection of docs/analysis.md)
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import chess.pgn
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import Engine

from explorer_games import games
from randomchess.db import migrate, schema
from randomchess.explorer.counts import position_key
from randomchess.explorer.importer import import_pgn
from randomchess.explorer.store import ExplorerStore
from randomchess.pgn import read_games
from randomchess.position import Position
from randomchess.startpos import setup_count, setup_from_number


def timed_import(store: ExplorerStore, path: Path, source: str) -> tuple[int, float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    report = import_pgn(store, path, source)
    return report.counted, time.process_time() - c0, time.perf_counter() - w0


def _quantiles(label: str, latencies: list[float]) -> None:
    if len(latencies) < 2:
        print(f"{label}: {len(latencies)} queries, too few for quantiles")
        return
    q = statistics.quantiles(latencies, n=100, method="inclusive")  # p99 <= max
    print(f"{label}: p50 {q[49]:.2f} ms, p99 {q[98]:.2f} ms, max {max(latencies):.2f} ms "
          f"over {len(latencies)}")


def _walk(store: ExplorerStore, variant: str, number: int, depth: int, rng: random.Random,
          timings: dict[str, list[float]]) -> list[tuple[str, str]]:
    """One visit of the explorer: from the setup's start, ``depth`` moves, each the most
    played one or a random one (half and half), timing at each node the queries the API
    route makes (moves, sources, evaluations: server/games/explorer_routes.py) and
    ExplorerStore.moves alone; the (position, move) pairs met, for the games lists."""
    setup = setup_from_number(variant, number)
    pos = Position(setup.fen, setup.variant)
    met = []
    for ply in range(depth + 1):
        key = position_key(pos)
        c0, t0 = time.process_time(), time.perf_counter()
        rows = store.moves(variant, number, key)
        c1, t1 = time.process_time(), time.perf_counter()
        store.sources(variant, number)
        after = []
        for r in rows:
            child = pos.copy(stack=False)
            child.push(child.parse_uci(str(r["move"])))
            after.append(position_key(child))
        c2, t2 = time.process_time(), time.perf_counter()
        store.evals(variant, number, after)
        c3, t3 = time.process_time(), time.perf_counter()
        kind = "start" if ply == 0 else "early (plies 1-8)" if ply <= 8 else "deep (9+)"
        timings["moves " + kind].append((t1 - t0) * 1000)
        timings["route " + kind].append((t3 - t0 - (t2 - t1)) * 1000)
        timings["CPU " + kind].append((c3 - c0 - (c2 - c1)) * 1000)
        if not rows:
            break
        row = rows[0] if rng.random() < 0.5 else rng.choice(rows)
        met.append((key, str(row["move"])))
        pos.push(pos.parse_uci(str(row["move"])))
    return met


def queries(engine: Engine, store: ExplorerStore, count: int, seed: int,
            explain: bool = False) -> None:
    """``count`` visits of random setups with games (walks of 0-40 plies; see _walk)."""
    t = schema.explorer_moves.c
    rng = random.Random(seed)
    setups = []
    for variant in ("chess960", "mrc"):
        last = setup_count(variant)
        for number in rng.sample(range(last), min(last, 3000)):
            if store.sources(variant, number):
                setups.append((variant, number))
    if not setups:
        print("no games stored")
        return
    with engine.connect() as conn:
        print(f"{conn.execute(select(func.count()).select_from(schema.explorer_moves)).scalar():,}"
              f" rows in explorer_moves, "
              f"{conn.execute(select(func.count()).select_from(schema.explorer_games)).scalar():,}"
              f" games; {len(setups)} setups with games among those sampled")
        # the setup with the most games first: its start position is the busiest node
        busiest = max(setups[:200], key=lambda s: sum(
            r["games"] for r in store.moves(s[0], s[1], _start(*s))))
    timings: dict[str, list[float]] = {}
    for k in ("start", "early (plies 1-8)", "deep (9+)"):
        timings["moves " + k], timings["route " + k], timings["CPU " + k] = [], [], []
    pairs: list[tuple[str, int, str, str]] = []
    for i in range(count):
        variant, number = busiest if i % 10 == 0 else rng.choice(setups)
        met = _walk(store, variant, number, rng.randrange(41), rng, timings)
        pairs.extend((variant, number, key, move) for key, move in met)
    for label, latencies in timings.items():
        _quantiles(f"{label} node", latencies)
    for what in ("route", "CPU"):
        _quantiles(f"{what}, every node",
                   [x for k, v in timings.items() if k.startswith(what) for x in v])
    behind = []
    for variant, number, position, move in rng.sample(pairs, min(count, len(pairs))):
        t0 = time.perf_counter()
        store.games(variant, number, position, move)
        behind.append((time.perf_counter() - t0) * 1000)
    _quantiles("games behind a move (20 at most)", behind)
    print(f"busiest start: {busiest[0]} {busiest[1]}, "
          f"{sum(r['games'] for r in store.moves(busiest[0], busiest[1], _start(*busiest))):,}"
          " games")
    _busiest(store, busiest)
    if explain:
        _explain(engine, busiest, t)


def _busiest(store: ExplorerStore, busiest: tuple[str, int], repeats: int = 60) -> None:
    """The busiest start position alone, ``repeats`` times: the moves and sources queries."""
    variant, number = busiest
    key = _start(variant, number)
    rows = store.moves(variant, number, key)
    wall, cpu = [], []
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        store.moves(variant, number, key)
        store.sources(variant, number)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    print(f"busiest start: {len(rows)} moves")
    _quantiles(f"busiest start, moves and sources, wall ({repeats} times)", wall)
    _quantiles(f"busiest start, moves and sources, CPU ({repeats} times)", cpu)
    filtered = []
    for _ in range(repeats):  # the filters the page offers: a speed and a rating range
        t0 = time.perf_counter()
        store.moves(variant, number, key, speeds=["blitz"], min_rating=1800, max_rating=2200)
        filtered.append((time.perf_counter() - t0) * 1000)
    _quantiles(f"busiest start, moves filtered by speed and rating, wall ({repeats} times)",
               filtered)


def _start(variant: str, number: int) -> str:
    setup = setup_from_number(variant, number)
    return position_key(Position(setup.fen, setup.variant))


def _explain(engine: Engine, busiest: tuple[str, int], t: Any) -> None:
    """The plans of the explorer's queries at the busiest start position."""
    variant, number = busiest
    key = _start(variant, number)
    store_moves = (select(t.move, func.sum(t.games)).where(
        t.variant == variant, t.number == number, t.position == key).group_by(t.move))
    sources = (select(t.source).distinct().where(
        t.variant == variant, t.number == number, t.position == key))
    prefix = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN ANALYZE "
    with engine.connect() as conn:
        for name, query in (("moves", store_moves), ("sources", sources)):
            sql = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
            print(f"-- {name}: {prefix}{' '.join(sql.split())}")
            for row in conn.exec_driver_sql(prefix + sql).all():
                print("   ", " | ".join(str(c) for c in row))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="8x8 (Chess960) games")
    ap.add_argument("--games9", type=int, default=1000, help="9x9 (MRC) games")
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--db", default=None)
    ap.add_argument("--query-only", action="store_true")
    ap.add_argument("--tree", action="store_true",
                    help="games shaped like a real collection (explorer_games.py --tree)")
    ap.add_argument("--explain", action="store_true",
                    help="print the query plans (EXPLAIN QUERY PLAN / EXPLAIN ANALYZE)")
    a = ap.parse_args()
    if a.query_only:
        if a.db is None:
            ap.error("--query-only needs --db")
        engine = create_engine(a.db)
        queries(engine, ExplorerStore(engine), a.queries, a.seed, a.explain)
        return
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(a.db or f"sqlite:///{Path(tmp) / 'bench.db'}")
        migrate(engine)
        store = ExplorerStore(engine)
        for label, variant, count in (("8x8", "chess960", a.games),
                                      ("9x9", "mrc", a.games9)):
            if not count:
                continue
            text = "".join(games(count, variant, a.plies, a.seed, tree=a.tree))
            pgn = Path(tmp) / f"{variant}.pgn"
            pgn.write_text(text, encoding="utf-8")
            c0 = time.process_time()
            if variant == "chess960":
                handle, read = io.StringIO(text), 0
                while chess.pgn.read_game(handle) is not None:
                    read += 1
                reader = "python-chess reading alone"
            else:
                read = sum(1 for _ in read_games(io.StringIO(text)))
                reader = "our full PGN reader alone"
            theirs = time.process_time() - c0
            counted, cpu, wall = timed_import(store, pgn, f"bench-{variant}-{a.seed}")
            print(f"{label} ({variant}, {count} games of up to {a.plies} plies): import "
                  f"{counted / cpu:,.0f} games/s CPU ({counted / wall:,.0f} wall clock, "
                  f"database included); {reader}: {read / theirs:,.0f} games/s CPU")
        queries(engine, store, a.queries, a.seed, a.explain)


if __name__ == "__main__":
    main()
