"""Shared helpers of the tests/test_server_*.py suites: databases and clients."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.server import create_app

PG_ADMIN = os.environ.get("RANDOMCHESS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def pg_reachable() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, connect_timeout=2):
            return True
    except Exception:
        return False


@contextmanager
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test module, dropped afterwards."""
    import psycopg

    if not pg_reachable():
        msg = f"PostgreSQL NOT REACHABLE at {PG_ADMIN}: PostgreSQL server tests SKIPPED"
        warnings.warn(msg, stacklevel=2)
        print(f"\n*** {msg} ***")
        pytest.skip(msg)
    name = f"rc_test_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def database(kind: str, tmp: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'games.sqlite3'}"
    else:
        with pg_database() as url:
            yield url


@contextmanager
def client(db_url: str, **settings: Any) -> Iterator[TestClient]:
    settings.setdefault("static_dir", None)
    settings.setdefault("engine_movetime_ms", 150)
    settings.setdefault("create_burst", 1000)
    settings.setdefault("create_per_minute", 60_000)
    # The setup preview (issue 32) is on by default for timed games between people; the
    # suites that do not test it play at once (tests/test_server_preview.py turns it on).
    settings.setdefault("preview", False)
    app = create_app(db_url=db_url, **settings)
    with TestClient(app) as c:
        yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def new_game(c: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("variant", "chess")
    body.setdefault("opponent", "hotseat")
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def play(c: TestClient, game: dict[str, Any], *moves: str, token: str | None = None) -> Any:
    state = None
    for m in moves:
        r = c.post(f"/api/games/{game['id']}/moves",
                   json={"move": m, "token": token or game["seat"]["token"]})
        assert r.status_code == 200, (m, r.text)
        state = r.json()
    return state


class FlakyProxy:
    """A TCP proxy to ``target`` on a free port: ``stall()`` stops forwarding (connections
    stay open, nothing moves), ``reset()`` closes every connection and forwards again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._flowing = asyncio.Event()
        self._writers: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._refusing = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(5)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._flowing.set()
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._handle, "127.0.0.1", self.port))
        self._ready.set()
        self._loop.run_forever()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._refusing:  # the database is down: nothing answers
            writer.transport.abort()
            return
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers.add(up_writer)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with suppress(Exception):
                while data := await src.read(65536):
                    await self._flowing.wait()
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        self._writers.discard(writer)
        self._writers.discard(up_writer)

    def stall(self) -> None:
        self._loop.call_soon_threadsafe(self._flowing.clear)

    def reset(self) -> None:
        def go() -> None:
            for w in list(self._writers):
                with suppress(Exception):
                    w.transport.abort()
            self._writers.clear()
            self._flowing.set()

        self._loop.call_soon_threadsafe(go)

    def down(self) -> None:
        """The database is gone: every connection closed, new ones refused until
        :meth:`up`."""
        self._refusing = True
        self.reset()

    def up(self) -> None:
        self._refusing = False

    def close(self) -> None:
        self.reset()
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


REDIS_SERVER = shutil.which("redis-server")


class PrivateRedis:
    """A redis-server of the test's own, without persistence, that can be killed -9."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)


@contextmanager
def private_redis(tmp: Path) -> Iterator[PrivateRedis]:
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed")
    r = PrivateRedis(tmp)
    r.start()
    try:
        yield r
    finally:
        if r.proc is not None and r.proc.poll() is None:
            r.kill()



def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to a running server; its JSON answer (urllib, no client)."""
    import json

    req = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def running_server(tmp: Path, *args: str, **env: str) -> Iterator[str]:
    """``randomchess serve`` on a free port of 127.0.0.1 with a fresh SQLite file; stopped on
    exit.  ``args`` are more ``serve`` options, ``env`` adds ``RANDOMCHESS_*`` settings; the
    database and log are named by port, so several servers can share ``tmp``."""
    port = free_port()
    db = tmp / f"games-{port}.sqlite3"
    log_path = tmp / f"server-{port}.log"
    full = {**os.environ, "RANDOMCHESS_ENGINE_MOVETIME_MS": "200",
            "RANDOMCHESS_CREATE_BURST": "1000", "RANDOMCHESS_CREATE_PER_MINUTE": "6000",
            "RANDOMCHESS_PREVIEW": "false", **env}
    log = open(log_path, "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "randomchess", "serve", "--port", str(port),
         "--db", f"sqlite:///{db}", *args],
        cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("the server did not start:\n" + log_path.read_text())
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
