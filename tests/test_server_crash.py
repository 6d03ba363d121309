"""Crash test: a real server process is killed with SIGKILL mid-game and started again.
No acknowledged move may be lost, every game resumes (the computer replies, clocks run) and
the time the server was down is not charged to anyone (docs/server.md, durability)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_support import database, free_port


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


class Server:
    def __init__(self, db_url: str, tmp: Path) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.groups: list[int] = []  # every start's process group, engine workers included

    def start(self) -> None:
        env = {**os.environ, "RANDOMCHESS_STATIC_DIR": "", "RANDOMCHESS_HEARTBEAT_S": "0.2",
               "RANDOMCHESS_ENGINE_MOVETIME_MS": "100", "RANDOMCHESS_CREATE_BURST": "100"}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "randomchess", "serve", "--port", str(self.port),
                 "--db", self.db_url], env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        self.groups.append(self.proc.pid)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, self.log.read_text()
            time.sleep(0.1)
        raise AssertionError("server did not start:\n" + self.log.read_text())

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def cleanup(self) -> None:
        # The engine workers of a killed server outlive it, as they would after a crash:
        # end them with the server that is still running.
        for group in self.groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()


def test_kill9_loses_no_acknowledged_move(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, tmp_path)
    try:
        _scenario(server)
    finally:
        server.cleanup()


def _scenario(server: Server) -> None:
    server.start()
    http = httpx.Client(base_url=server.base, timeout=10)
    # 1. A timed hot-seat game with some moves.
    timed = http.post("/api/games", json={"variant": "mrc", "setup": 8226, "opponent": "hotseat",
                                          "clock": {"minutes": 10, "increment": 0}}).json()
    for move in ("e2e4", "e8e6", "d2d3", "d8d6"):
        r = http.post(f"/api/games/{timed['id']}/moves",
                      json={"move": move, "token": timed["seat"]["token"]})
        assert r.status_code == 200
    before_kill = http.get(f"/api/games/{timed['id']}").json()
    assert before_kill["clocks"]["running"] == "white"
    # 2. A game against the computer, which is to reply when the server dies.
    vs = http.post("/api/games", json={"variant": "chess960", "setup": 518,
                                       "opponent": "computer", "color": "white",
                                       "level": 1}).json()
    # 3. A client hammering moves into a third game while the server is killed.
    busy = http.post("/api/games", json={"variant": "chess", "opponent": "hotseat"}).json()
    acked: list[list[str]] = [[]]
    stop = threading.Event()

    def hammer() -> None:
        rng = random.Random(7)
        with httpx.Client(base_url=server.base, timeout=5) as h:
            while not stop.is_set():
                try:
                    s = h.get(f"/api/games/{busy['id']}").json()
                    if not s["legal_moves"]:
                        return
                    r = h.post(f"/api/games/{busy['id']}/moves", json={
                        "move": rng.choice(s["legal_moves"]), "token": busy["seat"]["token"]})
                    if r.status_code == 200:
                        acked.append(r.json()["moves"])
                except (httpx.HTTPError, ValueError):
                    return

    thread = threading.Thread(target=hammer)
    thread.start()
    time.sleep(0.6)
    http.post(f"/api/games/{vs['id']}/moves", json={"move": "e2e4",
                                                    "token": vs["seat"]["token"]})
    server.kill9()
    killed_at = time.monotonic()
    stop.set()
    thread.join()
    assert len(acked) > 3, "the hammer acknowledged too few moves to mean anything"

    time.sleep(1.5)  # the outage
    server.start()
    down = time.monotonic() - killed_at
    http = httpx.Client(base_url=server.base, timeout=10)
    s = http.get(f"/api/games/{busy['id']}").json()
    last = acked[-1]
    assert s["moves"][: len(last)] == last, "an acknowledged move was lost"
    assert len(s["moves"]) <= len(last) + 1  # at most one committed but unacknowledged
    s = http.get(f"/api/games/{timed['id']}").json()
    assert s["moves"] == before_kill["moves"] and s["status"] == "playing"
    used = before_kill["clocks"]["white"] - s["clocks"]["white"]
    assert s["clocks"]["running"] == "white"
    assert 0 <= used < (down * 1000) - 800, (used, down)  # the outage was not charged
    # The computer game resumes: the reply comes after the restart.
    deadline = time.monotonic() + 20
    while True:
        g: dict[str, Any] = http.get(f"/api/games/{vs['id']}").json()
        if len(g["moves"]) == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert g["moves"][0] == "e2e4" and len(g["moves"]) == 2
    # And play goes on.
    r = http.post(f"/api/games/{timed['id']}/moves",
                  json={"move": "c2c3", "token": timed["seat"]["token"]})
    assert r.status_code == 200 and len(r.json()["moves"]) == 5
