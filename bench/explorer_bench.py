#!/usr/bin/env python3
"""Opening explorer speed (issue 33): import games/s on 8x8 and 9x9 beside python-chess's
PGN reading speed on the same 8x8 games (and our full PGN reader's on the 9x9 ones), and the
latency of a query at a node after N games, in one run.

The games are random self-play (bench/explorer_games.py, fixed seed): Chess960 for 8x8, MRC
for 9x9.  Each import goes into a fresh SQLite file (or the database --db names, PostgreSQL
included, which must be empty of these sources).  Times are CPU seconds of this process
(SQLite runs in it; with PostgreSQL the server's share is not counted, and the wall clock is
printed too).  python-chess only reads the text (no counting, no database).  Queries:
--queries positions drawn from those the imported games met, p50/p99 of ExplorerStore.moves,
the same for the list of games behind a move (ExplorerStore.games), plus a start position.

Usage: python bench/explorer_bench.py [--games 2000] [--games9 1000] [--plies 80] [--db URL]
       python bench/explorer_bench.py --db URL --query-only      (a database already imported,
                                         e.g. the 1,000,000 games of docs/analysis.md)
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import tempfile
import time
from pathlib import Path

import chess.pgn
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine

from explorer_games import games
from randomchess.db import migrate, schema
from randomchess.explorer.counts import position_key
from randomchess.explorer.importer import import_pgn
from randomchess.explorer.store import ExplorerStore
from randomchess.pgn import read_games
from randomchess.position import Position
from randomchess.startpos import setup_from_number


def timed_import(store: ExplorerStore, path: Path, source: str) -> tuple[int, float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    report = import_pgn(store, path, source)
    return report.counted, time.process_time() - c0, time.perf_counter() - w0


def queries(engine: Engine, store: ExplorerStore, count: int, seed: int) -> None:
    t = schema.explorer_moves.c
    with engine.connect() as conn:
        keys = conn.execute(select(t.variant, t.number, t.position).distinct()).all()
        games = conn.execute(select(t.games).where(t.position == "")).all()  # warm the file
    del games
    rng = random.Random(seed)
    sample = rng.sample(keys, min(count, len(keys)))
    latencies = []
    for variant, number, position in sample:
        t0 = time.perf_counter()
        store.moves(variant, number, position)
        latencies.append((time.perf_counter() - t0) * 1000)
    q = statistics.quantiles(latencies, n=100)
    print(f"query at a node ({len(keys):,} positions stored): p50 {q[49]:.2f} ms, "
          f"p99 {q[98]:.2f} ms over {len(latencies)} random positions")
    links = schema.explorer_links.c
    with engine.connect() as conn:
        pairs = conn.execute(select(links.variant, links.number, links.position, links.move)
                             .distinct().limit(200_000)).all()
    behind = []
    for variant, number, position, move in rng.sample(pairs, min(count, len(pairs))):
        t0 = time.perf_counter()
        store.games(variant, number, position, move)
        behind.append((time.perf_counter() - t0) * 1000)
    if len(behind) > 1:
        q = statistics.quantiles(behind, n=100)
        print(f"games behind a move (20 at most): p50 {q[49]:.2f} ms, p99 {q[98]:.2f} ms "
              f"over {len(behind)} random moves")
    variant, number = sample[0][0], sample[0][1]
    start = Position(setup_from_number(variant, number).fen, variant)
    starts = []
    for _ in range(50):
        t0 = time.perf_counter()
        moves = store.moves(variant, number, position_key(start))
        starts.append((time.perf_counter() - t0) * 1000)
    print(f"query at a start position ({variant} {number}, {len(moves)} moves): "
          f"median {statistics.median(starts):.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="8x8 (Chess960) games")
    ap.add_argument("--games9", type=int, default=1000, help="9x9 (MRC) games")
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--db", default=None)
    ap.add_argument("--query-only", action="store_true")
    a = ap.parse_args()
    if a.query_only:
        if a.db is None:
            ap.error("--query-only needs --db")
        engine = create_engine(a.db)
        queries(engine, ExplorerStore(engine), a.queries, a.seed)
        return
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(a.db or f"sqlite:///{Path(tmp) / 'bench.db'}")
        migrate(engine)
        store = ExplorerStore(engine)
        for label, variant, count in (("8x8", "chess960", a.games),
                                      ("9x9", "mrc", a.games9)):
            if not count:
                continue
            text = "".join(games(count, variant, a.plies, a.seed))
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
        queries(engine, store, a.queries, a.seed)


if __name__ == "__main__":
    main()
