#!/usr/bin/env python3
"""Opening explorer speed (issue 33): import games/s beside python-chess's PGN reading speed
on the same games, and the latency of a query at a node, in one run.

The games are random Chess960 playouts (bench/pgn_bench.py's generator, fixed seed) with a
result drawn at random.  The import goes into a fresh SQLite file (or --db URL); python-chess
only reads the same text (no counting, no database), so the ratio is an upper bound of what
reading costs us.  Queries: --queries random positions met by the imported games, p50/p99.

Usage: python bench/explorer_bench.py [--games 2000] [--plies 80] [--seed 13] [--db URL]
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

from pgn_bench import make_games
from randomchess.db import migrate, schema
from randomchess.explorer.importer import import_pgn
from randomchess.explorer.store import ExplorerStore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--db", default=None)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    text = make_games(a.games, a.plies, a.seed)
    # a result for every game, so that each one counts
    text = text.replace('[Result "*"]', '[Result "1/2-1/2"]').replace(" *\n", " 1/2-1/2\n")
    with tempfile.TemporaryDirectory() as tmp:
        pgn = Path(tmp) / "bench.pgn"
        pgn.write_text(text, encoding="utf-8")
        t0 = time.process_time()
        handle = io.StringIO(text)
        read = 0
        while chess.pgn.read_game(handle) is not None:
            read += 1
        theirs = time.process_time() - t0
        engine = create_engine(a.db or f"sqlite:///{Path(tmp) / 'bench.db'}")
        migrate(engine)
        store = ExplorerStore(engine)
        t0 = time.perf_counter()
        report = import_pgn(store, pgn, f"bench-{a.seed}")
        ours = time.perf_counter() - t0
        with engine.connect() as conn:
            keys = conn.execute(select(schema.explorer_moves.c.variant,
                                       schema.explorer_moves.c.number,
                                       schema.explorer_moves.c.position)).all()
        latencies = []
        for variant, number, position in rng.sample(keys, min(a.queries, len(keys))):
            t0 = time.perf_counter()
            store.moves(variant, number, position)
            latencies.append((time.perf_counter() - t0) * 1000)
    print(f"games: {report.counted} imported ({read} read by python-chess), "
          f"{len(keys)} rows")
    print(f"import: {report.counted / ours:,.0f} games/s (wall clock, database included); "
          f"python-chess reading alone: {read / theirs:,.0f} games/s (CPU)")
    q = statistics.quantiles(latencies, n=100)
    print(f"query at a node: p50 {q[49]:.2f} ms, p99 {q[98]:.2f} ms over {len(latencies)}")


if __name__ == "__main__":
    main()
