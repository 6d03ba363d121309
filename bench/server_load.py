"""Load test of the game server, loopback only and bounded.

Starts ``randomchess serve`` on 127.0.0.1 (SQLite in a temporary directory, or a fresh
database on the local PostgreSQL), then drives N concurrent hot-seat games of random legal
moves, each watched by one WebSocket spectator.  Reports moves/s and the p50/p99 round trip
of ``POST /api/games/{id}/moves`` (commit included; no engine thinking is involved).

    .venv/bin/python bench/server_load.py --games 50 200 --db sqlite postgresql

The issue's goal is printed beside the figures: 200 games, p99 < 50 ms, on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import websockets

GOAL_P99_MS = 50.0
PG_ADMIN = os.environ.get("RANDOMCHESS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
MAX_GAMES = 500  # bounded: this is a loopback benchmark, not a load generator


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def _database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        return
    import psycopg

    name = f"rc_bench_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + \
            f"/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def _server(db_url: str) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "RANDOMCHESS_STATIC_DIR": "", "RANDOMCHESS_CREATE_BURST": "10000",
           "RANDOMCHESS_CREATE_PER_MINUTE": "100000"}
    log = open(os.environ.get("SERVER_LOAD_LOG", os.devnull), "ab")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "randomchess", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", db_url], env=env, stdout=log, stderr=log, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("server did not start")
            time.sleep(0.1)
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


async def _game(http: httpx.AsyncClient, base: str, plies: int, think: float,
                rtts: list[float], rng: random.Random, watch: bool) -> int:
    r = await http.post("/api/games", json={"variant": rng.choice(["chess960", "mrc"]),
                                            "opponent": "hotseat"})
    r.raise_for_status()
    game = r.json()
    gid, token = game["id"], game["seat"]["token"]
    ws = None
    if watch:
        ws = await websockets.connect(base.replace("http", "ws") + f"/ws/games/{gid}",
                                      max_size=2**22)
        drain = asyncio.create_task(_drain(ws))
    state = (await http.get(f"/api/games/{gid}")).json()
    played = 0
    await asyncio.sleep(rng.random() * think)  # spread the games' phases
    try:
        while played < plies and state["legal_moves"]:
            move = rng.choice(state["legal_moves"])
            t0 = time.perf_counter()
            r = await http.post(f"/api/games/{gid}/moves", json={"move": move, "token": token})
            rtts.append((time.perf_counter() - t0) * 1000)
            r.raise_for_status()
            state = r.json()
            played += 1
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
    finally:
        if ws is not None:
            drain.cancel()
            await ws.close()
    return played


async def _drain(ws: websockets.ClientConnection) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def _run(base: str, games: int, plies: int, think: float, watch: bool) -> dict[str, float]:
    rtts: list[float] = []
    limits = httpx.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        rng = random.Random(1)
        t0 = time.perf_counter()
        played = await asyncio.gather(*(
            _game(http, base, plies, think, rtts, random.Random(rng.random()), watch)
            for _ in range(games)))
        elapsed = time.perf_counter() - t0
    rtts.sort()
    return {"moves": sum(played), "seconds": elapsed, "moves_per_s": sum(played) / elapsed,
            "p50": statistics.median(rtts), "p99": rtts[int(len(rtts) * 0.99) - 1],
            "max": rtts[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--db", nargs="+", default=["sqlite", "postgresql"],
                    choices=["sqlite", "postgresql"])
    ap.add_argument("--plies", type=int, default=30, help="moves per game (bounded)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds between a game's moves (0 = as fast as possible)")
    ap.add_argument("--no-watchers", action="store_true", help="no WebSocket spectators")
    args = ap.parse_args()
    print(f"server load: {os.cpu_count()} cores, {args.plies} plies per game, think "
          f"{args.think:g} s, {'no' if args.no_watchers else 'one'} spectator per game")
    print(f"{'db':<11}{'games':>6}{'moves':>7}{'moves/s':>9}{'p50 ms':>8}{'p99 ms':>8}"
          f"{'max ms':>8}   goal (issue 6)")
    for kind in args.db:
        for n in args.games:
            n = min(n, MAX_GAMES)
            with _database(kind) as url, _server(url) as base:
                r = asyncio.run(_run(base, n, args.plies, args.think, not args.no_watchers))
            ok = "met" if n < 200 or r["p99"] < GOAL_P99_MS else "MISSED"
            print(f"{kind:<11}{n:>6}{int(r['moves']):>7}{r['moves_per_s']:>9.0f}"
                  f"{r['p50']:>8.1f}{r['p99']:>8.1f}{r['max']:>8.1f}   "
                  f"p99 < {GOAL_P99_MS:.0f} ms at 200 games: {ok}", flush=True)


if __name__ == "__main__":
    main()
