"""Load test of the game server, loopback only and bounded.

Starts ``randomchess serve`` on 127.0.0.1 (SQLite in a temporary directory, or a fresh
database on the local PostgreSQL), then drives N concurrent hot-seat games of random legal
moves, each watched by one WebSocket spectator.  Reports moves/s, the p50/p99 round trip
of ``POST /api/games/{id}/moves`` (commit included; no engine thinking is involved) and the
server's CPU time per move (all its processes).  Each spectator counts the states pushed to it
and the run fails loudly if one missed a move (with ``--workers 2 --redis URL`` the pushes cross
workers through Redis).  ``SERVER_LOAD_COMMAND`` replaces the server command (e.g. by a
profiling wrapper, called with the database URL and the port); ``SERVER_LOAD_LOG`` keeps its
output.

    .venv/bin/python bench/server_load.py --games 50 200 --db sqlite postgresql
    .venv/bin/python bench/server_load.py --games 200 --db postgresql --workers 2 \
        --redis redis://127.0.0.1:6379

The issue's goal is printed beside the figures: 200 games, p99 < 50 ms, on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
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
from typing import Any

import httpx

GOAL_P99_MS = 50.0
PG_ADMIN = os.environ.get("RANDOMCHESS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
MAX_GAMES = 2000  # bounded: this is a loopback benchmark, not a load generator
KEEP_ALIVE_S = 4.0  # uvicorn closes a connection idle for 5 s: reconnect before that


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
def _server(db_url: str, workers: int = 1,
            redis_url: str | None = None) -> Iterator[tuple[str, int]]:
    port = _free_port()
    env = {**os.environ, "RANDOMCHESS_STATIC_DIR": "", "RANDOMCHESS_CREATE_BURST": "10000",
           "RANDOMCHESS_CREATE_PER_MINUTE": "100000"}
    log = open(os.environ.get("SERVER_LOAD_LOG", os.devnull), "ab")  # noqa: SIM115
    command = [sys.executable, "-m", "randomchess", "serve", "--host", "127.0.0.1", "--port",
               str(port), "--db", db_url]
    if workers > 1:
        command += ["--workers", str(workers)]
    if redis_url:
        command += ["--redis", redis_url]
    if os.environ.get("SERVER_LOAD_COMMAND"):  # e.g. a profiling wrapper: COMMAND DB PORT
        command = [*os.environ["SERVER_LOAD_COMMAND"].split(), db_url, str(port)]
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=log, start_new_session=True)
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
        if workers > 1:  # the port answers once the first worker is up: wait for the rest
            while len(_tree(proc.pid)) < 1 + workers and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(2)
        yield base, proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


class _Http:
    """One keep-alive HTTP/1.1 connection, JSON in and out.  The load runs on the same two
    cores as the server, so the client is kept lean: httpx spent more CPU per request than
    the server did, and its queueing showed up in the measured round trips."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._used = 0.0

    async def request(self, method: str, path: str,
                      body: dict[str, Any] | None = None) -> tuple[int, Any]:
        now = time.monotonic()
        if self._writer is not None and now - self._used > KEEP_ALIVE_S:
            await self.close()  # the server may have closed it: never reuse it then
            self._writer = None
        self._used = now
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        self._writer.write(head.encode() + data)
        status_line = await self._reader.readuntil(b"\r\n")
        length = 0
        while (line := await self._reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        payload = await self._reader.readexactly(length)
        return int(status_line.split()[1]), json.loads(payload) if payload else None

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                await self._writer.wait_closed()


async def _spectate(host: str, port: int, gid: str, ready: asyncio.Event,
                   heard: list[int]) -> None:
    """A WebSocket spectator that offers compression as browsers do and reads every frame
    (answering pings) without decoding the messages: the server does all its work.
    ``heard[0]`` counts the text messages; ``ready`` is set by the first (the state sent on
    connecting, after which the socket hears every change)."""
    reader, writer = await asyncio.open_connection(host, port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws/games/{gid} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n"
                  "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                  "\r\n").encode())
    try:
        await reader.readuntil(b"\r\n\r\n")
        while True:
            b0, b1 = await reader.readexactly(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(await reader.readexactly(2))
            elif n == 127:
                n = int.from_bytes(await reader.readexactly(8))
            payload = await reader.readexactly(n)
            if b0 & 0x0F == 0x1:
                heard[0] += 1
                ready.set()
            elif b0 & 0x0F == 0x9:  # ping: answer with a masked pong
                mask = os.urandom(4)
                writer.write(bytes([0x8A, 0x80 | len(payload)]) + mask +
                             bytes(c ^ mask[i % 4] for i, c in enumerate(payload)))
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        ready.set()
        writer.close()


async def _game(host: str, port: int, plies: int, think: float, rtts: list[float],
                rng: random.Random, watch: bool) -> tuple[int, int]:
    """Play one game; (moves played, states its spectator missed)."""
    # Games start spread over the first think interval, as players arrive: 200 creations in
    # the same instant would measure a burst no server sees, not a steady load.
    await asyncio.sleep(rng.random() * think)
    http = _Http(host, port)
    status, game = await http.request("POST", "/api/games", {
        "variant": rng.choice(["chess960", "mrc"]), "opponent": "hotseat"})
    assert status == 201, game
    gid, token = game["id"], game["seat"]["token"]
    spectator = None
    heard = [0]
    if watch:
        ready = asyncio.Event()
        spectator = asyncio.create_task(_spectate(host, port, gid, ready, heard))
        await ready.wait()
    state = (await http.request("GET", f"/api/games/{gid}"))[1]
    played = 0
    try:
        while played < plies and state["legal_moves"]:
            move = rng.choice(state["legal_moves"])
            t0 = time.perf_counter()
            status, state = await http.request("POST", f"/api/games/{gid}/moves",
                                               {"move": move, "token": token})
            rtts.append((time.perf_counter() - t0) * 1000)
            assert status == 200, state
            played += 1
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
        if spectator is not None:  # the last push may trail the last answer a little
            deadline = time.monotonic() + 5
            while heard[0] < played + 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
    finally:
        await http.close()
        if spectator is not None:
            spectator.cancel()
    return played, max(0, played + 1 - heard[0]) if watch else 0


async def _run(base: str, games: int, plies: int, think: float, watch: bool) -> dict[str, float]:
    host, port = base.removeprefix("http://").split(":")
    rtts: list[float] = []
    rng = random.Random(1)
    t0 = time.perf_counter()
    results = await asyncio.gather(*(
        _game(host, int(port), plies, think, rtts, random.Random(rng.random()), watch)
        for _ in range(games)))
    elapsed = time.perf_counter() - t0
    rtts.sort()
    moves = sum(r[0] for r in results)
    return {"moves": moves, "missed": sum(r[1] for r in results), "seconds": elapsed,
            "moves_per_s": moves / elapsed,
            "p50": statistics.median(rtts), "p99": rtts[int(len(rtts) * 0.99) - 1],
            "max": rtts[-1]}


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (uvicorn's workers, the engine pool), Linux /proc."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return out


def _cpu_seconds(pid: int) -> dict[int, float]:
    """CPU time (user + system) used so far by each process of the server (Linux /proc)."""
    out = {}
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[p] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--db", nargs="+", default=["sqlite", "postgresql"],
                    choices=["sqlite", "postgresql"])
    ap.add_argument("--plies", type=int, default=30, help="moves per game (bounded)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds between a game's moves (0 = as fast as possible)")
    ap.add_argument("--no-watchers", action="store_true", help="no WebSocket spectators")
    ap.add_argument("--workers", type=int, default=1,
                    help="server processes (PostgreSQL only, as `randomchess serve`)")
    ap.add_argument("--redis", metavar="URL", default=None,
                    help="fan WebSocket pushes out through this Redis (loopback)")
    ap.add_argument("--runs", type=int, default=1, help="repeat each configuration")
    args = ap.parse_args()
    if args.workers > 1 and "sqlite" in args.db:
        ap.error("several workers need PostgreSQL (--db postgresql)")
    print(f"server load: {os.cpu_count()} cores, {args.plies} plies per game, think "
          f"{args.think:g} s, {'no' if args.no_watchers else 'one'} spectator per game, "
          f"{args.workers} worker(s){', Redis fan-out' if args.redis else ''}")
    print(f"load average before: {os.getloadavg()[0]:.1f} (other work on these cores skews "
          "the tail)")
    print(f"{'db':<11}{'games':>6}{'moves':>7}{'moves/s':>9}{'p50 ms':>8}{'p99 ms':>8}"
          f"{'max ms':>8}{'cpu/move':>10}   goal (issue 6)")
    missed = 0
    for kind in args.db:
        for n in args.games:
            for _ in range(args.runs):
                if n > MAX_GAMES:
                    sys.exit(f"--games {n}: at most {MAX_GAMES} (a loopback benchmark)")
                with _database(kind) as url, \
                        _server(url, args.workers, args.redis) as (base, pid):
                    before = _cpu_seconds(pid)
                    r = asyncio.run(_run(base, n, args.plies, args.think,
                                         not args.no_watchers))
                    after = _cpu_seconds(pid)
                cpu = sum(t - before.get(p, 0.0) for p, t in after.items())
                ok = "met" if n < 200 or r["p99"] < GOAL_P99_MS else "MISSED"
                print(f"{kind:<11}{n:>6}{int(r['moves']):>7}{r['moves_per_s']:>9.0f}"
                      f"{r['p50']:>8.1f}{r['p99']:>8.1f}{r['max']:>8.1f}"
                      f"{cpu * 1000 / max(1, r['moves']):>8.2f}ms   "
                      f"p99 < {GOAL_P99_MS:.0f} ms at 200 games: {ok}", flush=True)
                if r["missed"]:
                    print(f"  spectators missed {int(r['missed'])} pushed states", flush=True)
                missed += int(r["missed"])
    if missed:
        sys.exit("some spectators did not hear every move")


if __name__ == "__main__":
    main()
