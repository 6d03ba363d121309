"""The engine service on the Redis job queue (issue 17): `randomchess worker` processes on
localhost take computer moves, analysis and reviews from the server; a worker killed with
``kill -9`` mid-job is replaced by another within a few seconds, each computer move is
applied exactly once, a review is stored once, and a server whose workers miss a move's
deadline plays a short search of its own so the computer never flags.  The embedded default
(no Redis) needs none of it."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from randomchess.cli import main
from randomchess.position import Position
from randomchess.server.engines.service import move_deadline_ms
from randomchess.server.engines.worker import EngineWorker
from randomchess.server.http.settings import Settings
from server_support import client, database, new_game

REDIS = os.environ.get("RANDOMCHESS_TEST_REDIS", "redis://127.0.0.1:6379")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def redis_reachable() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping())
    except Exception:
        return False


def _need_redis() -> None:
    if not redis_reachable():
        msg = f"REDIS NOT REACHABLE at {REDIS}: engine queue tests SKIPPED"
        warnings.warn(msg, stacklevel=2)
        print(f"\n*** {msg} ***")
        pytest.skip(msg)


def _queue_info(queue: str) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        from saq import Queue

        q = Queue.from_url(REDIS, name=queue)
        await q.connect()
        try:
            return dict(await q.info())
        finally:
            await q.disconnect()

    return asyncio.run(read())


def _active_jobs(queue: str) -> list[Any]:
    async def read() -> list[Any]:
        from saq import Queue
        from saq.job import Status

        q = Queue.from_url(REDIS, name=queue)
        await q.connect()
        try:
            return [j async for j in q.iter_jobs(statuses=[Status.ACTIVE])]
        finally:
            await q.disconnect()

    return asyncio.run(read())


def _job(queue: str, key: str) -> Any:
    async def read() -> Any:
        from saq import Queue

        q = Queue.from_url(REDIS, name=queue)
        await q.connect()
        try:
            return await q.job(key)
        finally:
            await q.disconnect()

    return asyncio.run(read())


@contextmanager
def workers(n: int, queue: str, tmp: Path, concurrency: int = 1) -> Iterator[list[Any]]:
    """``n`` worker processes on ``queue``, up and registered; killed afterwards."""
    procs = []
    for i in range(n):
        log = open(tmp / f"worker{i}.log", "w")  # noqa: SIM115 - closed with the process
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "randomchess", "worker", "--redis", REDIS, "--queue",
             queue, "--concurrency", str(concurrency)],
            stdout=log, stderr=subprocess.STDOUT))
    try:
        end = time.monotonic() + 60
        while len(_queue_info(queue)["workers"]) < n:
            dead = [p for p in procs if p.poll() is not None]
            assert not dead, (tmp / "worker0.log").read_text()
            assert time.monotonic() < end, "the workers never registered"
            time.sleep(0.2)
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _wait_moves(c: Any, gid: str, n: int, timeout: float = 40) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = c.get(f"/api/games/{gid}").json()
        if len(state["moves"]) >= n or state["status"] == "ended":
            return state
        assert time.monotonic() < end, f"the computer never played ply {n}: {state}"
        time.sleep(0.05)


# --------------------------------------------------------------------- no Redis at all
def test_the_embedded_default_needs_no_redis_and_no_queue(tmp_path: Path) -> None:
    """No Redis, no worker: the computer moves in-process and saq is never imported."""
    script = f"""
import sys, time
sys.path.insert(0, {str(Path(__file__).parent)!r})
from server_support import client, new_game
with client("sqlite:///{tmp_path / 'g.sqlite3'}") as c:
    g = new_game(c, variant="chess960", opponent="computer", color="black", level=2)
    end = time.time() + 30
    while not c.get("/api/games/" + g["id"]).json()["moves"]:
        assert time.time() < end
        time.sleep(0.05)
    health = c.get("/api/health").json()
    assert health["engine"] == "ok", health
    assert health["engine_service"]["mode"] == "embedded", health
    r = c.post("/api/analysis", json={{"variant": "chess", "depth": 2}})
    assert r.status_code == 200, r.text
print("saq" in sys.modules)
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RANDOMCHESS_")}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_engine_workers_zero_needs_redis() -> None:
    with pytest.raises(ValidationError, match="needs redis_url"):
        Settings(engine_workers=0, redis_url=None)
    assert Settings(engine_workers=0, redis_url=REDIS).engine_workers == 0
    result = CliRunner().invoke(main, ["serve", "--engine-workers", "0", "--no-web"])
    assert result.exit_code != 0 and "needs redis_url" in result.output


def test_a_move_deadline_leaves_the_fallback_on_the_clock() -> None:
    for mine in (300, 1_000, 5_000, 60_000, 600_000):
        budget, deadline = move_deadline_ms(START, [], 1500, (mine, mine), 0)
        assert budget <= deadline < mine - 120, (mine, budget, deadline)
    budget, deadline = move_deadline_ms(START, [], 1500, None, 0)
    assert budget == 1500 and deadline > budget + 3000  # room to run it again


def test_a_worker_drops_a_move_whose_deadline_has_passed() -> None:
    worker = EngineWorker(1)
    try:
        out = asyncio.run(worker.move({}, variant="chess", start_fen=START, moves=[],
                                      level=1, movetime_ms=100, wtime=None, btime=None,
                                      inc=0, sent_at=time.time() - 5,
                                      deadline=time.time() - 1))
        assert out["dropped"] is True
    finally:
        worker.close()


# --------------------------------------------------------------------- on the queue
def test_a_worker_killed_mid_move_is_replaced_and_each_move_is_applied_once(
        tmp_path: Path) -> None:
    _need_redis()
    queue = f"test-{secrets.token_hex(4)}"
    with workers(2, queue, tmp_path) as procs, database("sqlite", tmp_path) as url, \
            client(url, engine_workers=0, redis_url=REDIS, engine_queue=queue,
                   engine_movetime_ms=2500) as c:
        health = c.get("/api/health").json()
        assert health["engine_service"]["mode"] == "queue"
        assert len(health["engine_service"]["workers"]) == 2
        g = new_game(c, variant="chess", opponent="computer", color="black", level=8)
        gid = g["id"]
        key = f"move:{gid}:0"
        end = time.monotonic() + 20
        while (job := _job(queue, key)) is None or job.status != "active":
            assert time.monotonic() < end, "the move was never started"
            time.sleep(0.05)
        victim = job.worker_id
        pid = int(victim.rsplit("-", 1)[1])
        assert pid in [p.pid for p in procs]
        time.sleep(0.3)  # mid-search
        killed = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        state = _wait_moves(c, gid, 1)
        took = time.monotonic() - killed
        assert len(state["moves"]) == 1 and state["version"] == 1, state
        job = _job(queue, key)
        assert job.status == "complete" and job.attempts == 2, job
        assert job.worker_id != victim and job.result["worker"] != victim
        assert took < 10, f"the move took {took:.1f} s after the kill"
        # The game goes on, each reply applied once.
        pos = Position(START, "chess")
        pos.push_uci(state["moves"][0])
        for ply in (3, 5):
            reply = pos.uci(pos.legal_moves()[0])
            r = c.post(f"/api/games/{gid}/moves",
                       json={"move": reply, "token": g["seat"]["token"]})
            assert r.status_code == 200, r.text
            state = _wait_moves(c, gid, ply)
            assert len(state["moves"]) == ply and state["version"] == ply, state
            pos = Position(START, "chess")
            for m in state["moves"]:
                pos.push_uci(m)
        # The dead worker is gone from the list, the live one has done the work.
        end = time.monotonic() + 10
        while len(c.get("/api/health").json()["engine_service"]["workers"]) != 1:
            assert time.monotonic() < end, "the dead worker is still listed"
            time.sleep(0.3)
        result = CliRunner().invoke(main, ["workers", "--redis", REDIS, "--queue", queue,
                                           "--json"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        assert len(report["workers"]) == 1 and report["queued"] == 0
        assert report["recent_jobs"] >= 3 and report["latency_p50_ms"] is not None
        text = CliRunner().invoke(main, ["workers", "--redis", REDIS, "--queue", queue])
        assert "1 worker(s)" in text.output and "latency" in text.output
        log = "".join(p.read_text() for p in tmp_path.glob("worker*.log"))
        assert "took over job" in log and f"ran move job {key}" in log


def test_without_workers_a_clocked_move_falls_back_in_time(tmp_path: Path) -> None:
    """Nobody takes the job: at its deadline the server aborts it and searches itself."""
    _need_redis()
    queue = f"test-{secrets.token_hex(4)}"
    with database("sqlite", tmp_path) as url, \
            client(url, engine_workers=0, redis_url=REDIS, engine_queue=queue) as c:
        health = c.get("/api/health")
        assert health.status_code == 200
        assert health.json()["engine"] == "no-workers"
        g = new_game(c, variant="chess", opponent="computer", color="white", level=6,
                     clock={"minutes": 0.05, "increment": 0})  # 3 s each
        token = g["seat"]["token"]
        r = c.post(f"/api/games/{g['id']}/moves", json={"move": "e2e4", "token": token})
        assert r.status_code == 200
        state = _wait_moves(c, g["id"], 2, timeout=10)
        assert len(state["moves"]) == 2 and state["status"] == "playing", state
        latency = c.get("/api/health").json()["engine_service"]["latency"]
        assert latency["fallbacks"] == 1
        # No worker: analysis is a clear 503, not a hang.
        r = c.post("/api/analysis", json={"variant": "chess", "depth": 2})
        assert r.status_code == 503 and "no engine worker" in r.json()["detail"]


def test_analysis_and_a_review_run_on_the_workers_and_the_review_is_stored_once(
        tmp_path: Path) -> None:
    """Analysis and the analysis board's stream run on the workers; a review whose worker
    is killed mid-job is finished by the other one and stored once."""
    _need_redis()
    queue = f"test-{secrets.token_hex(4)}"
    with workers(2, queue, tmp_path) as procs, database("sqlite", tmp_path) as url, \
            client(url, engine_workers=0, redis_url=REDIS, engine_queue=queue) as c:
        r = c.post("/api/analysis", json={"variant": "mrc", "setup": 8226, "depth": 3,
                                          "multipv": 2})
        assert r.status_code == 200, r.text
        assert len(r.json()["lines"]) == 2
        engines = c.get("/api/analysis/engines").json()["engines"]
        assert engines[0] == "randomchess"
        with c.websocket_connect("/ws/analysis") as ws:
            ws.send_json({"type": "analyse", "position": {"variant": "chess960",
                                                          "setup": 518, "depth": 3}})
            depths = []
            while (msg := ws.receive_json())["type"] == "lines":
                depths.append(msg["depth"])
            assert msg["type"] == "done" and depths == [1, 2, 3], (msg, depths)
        g = new_game(c, variant="chess")
        moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1h1",
                 "f8e7"]
        for m in moves:
            assert c.post(f"/api/games/{g['id']}/moves",
                          json={"move": m, "token": g["seat"]["token"]}).status_code == 200
        body = {"depth": 7, "movetime": 500}
        review: dict[str, Any] = {}

        def post_review() -> None:
            review["first"] = c.post(f"/api/games/{g['id']}/review", json=body)

        import threading

        poster = threading.Thread(target=post_review)
        poster.start()
        end = time.monotonic() + 20
        while True:
            active = [j for j in _active_jobs(queue) if j.function == "review"]
            if active:
                break
            assert time.monotonic() < end, "the review never started"
            time.sleep(0.05)
        victim = active[0].worker_id
        time.sleep(0.5)
        os.kill(int(victim.rsplit("-", 1)[1]), signal.SIGKILL)
        poster.join(60)

        def logs() -> str:
            return "".join(p.read_text() for p in tmp_path.glob("worker*.log"))

        assert review["first"].status_code in (200, 202), review["first"].text + logs()
        end = time.monotonic() + 60
        while (r := c.get(f"/api/games/{g['id']}/review")).status_code == 202:
            assert time.monotonic() < end, logs()
            time.sleep(0.2)
        assert r.status_code == 200, r.text + logs()
        stored = r.json()
        assert len(stored["review"]["plies"]) == len(moves)
        again = c.post(f"/api/games/{g['id']}/review", json=body)
        assert again.status_code == 200
        # Asked again: the finished job's result, identical, is not stored again.
        assert again.json()["created_at"] == stored["created_at"]
        log = logs()
        assert log.count("ran review job") == 1, log  # the killed worker never finished it
        assert "took over job saq:job:" in log and "review:" in log
        assert sum(p.poll() is None for p in procs) == 1
