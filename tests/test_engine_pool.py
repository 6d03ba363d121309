"""The server's engine pool (issue 14): it survives a killed worker, and the time a move
waits in the queue counts against its budget, so the computer never flags for queueing."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path

from randomchess.position import Position
from randomchess.server.engines.pool import EnginePool
from server_support import client, database, new_game

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _worker_pids(pool: EnginePool) -> list[int]:
    return list(pool._executor._processes)  # type: ignore[attr-defined]


def _kill_workers(pool: EnginePool) -> None:
    for pid in _worker_pids(pool):
        os.kill(pid, signal.SIGKILL)


def test_a_killed_worker_is_replaced_and_the_waiting_move_resumes() -> None:
    async def scenario() -> None:
        pool = EnginePool(1)
        try:
            assert await pool.best_move("chess", START, [], 1, 100, None, 0) is not None
            assert pool.status() == "ok"
            thinking = asyncio.ensure_future(
                pool.best_move("chess", START, ["e2e4"], 8, 3000, None, 0))
            queued = asyncio.ensure_future(
                pool.best_move("chess", START, ["d2d4"], 8, 300, None, 0))
            await asyncio.sleep(0.5)
            _kill_workers(pool)
            # The pool notices from its executor's management thread, which a loaded machine
            # may run late: wait for it rather than for a fixed time.
            end = time.monotonic() + 20
            while pool.status() != "degraded" and pool.restarts == 0:
                assert time.monotonic() < end, "the pool never noticed its dead worker"
                await asyncio.sleep(0.05)
            pos = Position(START, "chess")
            pos.push_uci("e2e4")
            pos.parse_uci(str(await asyncio.wait_for(thinking, 30)))
            pos = Position(START, "chess")
            pos.push_uci("d2d4")
            pos.parse_uci(str(await asyncio.wait_for(queued, 30)))
            assert pool.status() == "ok" and pool.restarts == 1
            # And it goes on serving new requests.
            assert await pool.best_move("chess", START, [], 2, 100, None, 0) is not None
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_health_says_degraded_while_the_pool_is_rebuilt(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url) as c:
        g = new_game(c, variant="chess", opponent="computer", color="black", level=1)
        gid = g["id"]

        def wait_moves(n: int) -> list[str]:
            end = time.monotonic() + 30
            while len(moves := c.get(f"/api/games/{gid}").json()["moves"]) < n:
                assert time.monotonic() < end, f"the computer never played move {n}"
                time.sleep(0.05)
            return list(moves)

        first = wait_moves(1)  # the computer (White) has moved: its worker is up
        assert c.get("/api/health").json()["engine"] == "ok"
        pool = c.app.state.service.engine  # type: ignore[attr-defined]
        _kill_workers(pool)
        time.sleep(0.3)
        r = c.get("/api/health")
        assert r.status_code == 503 and r.json()["engine"] == "degraded"
        pos = Position(START, "chess")
        pos.push_uci(first[0])
        reply = pos.uci(pos.legal_moves()[0])
        r = c.post(f"/api/games/{gid}/moves", json={"move": reply, "token": g["seat"]["token"]})
        assert r.status_code == 200, r.text
        wait_moves(3)
        r = c.get("/api/health")
        assert r.status_code == 200 and r.json()["engine"] == "ok"


def test_queued_moves_spend_their_own_budget_and_never_flag() -> None:
    """Six clocked 4-second games on one worker, the human answering at once: the time each
    request waits behind the others is charged to its clock, as the server's clock does."""
    games, plies, clock_ms = 6, 5, 4000

    async def game(pool: EnginePool, seed: int) -> int:
        rng = random.Random(seed)
        pos = Position(START, "chess")
        moves: list[str] = []
        clocks = [clock_ms, clock_ms]
        lowest = clock_ms
        for _ in range(plies):
            # The human (White) answers at once; the computer plays Black.
            human = rng.choice(pos.legal_moves())
            moves.append(pos.uci(human))
            pos.push(human)
            t0 = time.monotonic()
            uci = await pool.best_move("chess", START, moves, 8, 1500, (clocks[0], clocks[1]), 0)
            spent = int((time.monotonic() - t0) * 1000)
            clocks[1] -= spent
            assert clocks[1] > 0, f"game {seed} flagged: {spent} ms on a move"
            lowest = min(lowest, clocks[1])
            assert uci is not None
            moves.append(uci)
            pos.push_uci(uci)
        return lowest

    async def scenario() -> list[int]:
        pool = EnginePool(1)
        try:
            await pool.best_move("chess", START, [], 1, 50, None, 0)  # the worker is up
            return list(await asyncio.gather(*(game(pool, i) for i in range(games))))
        finally:
            pool.shutdown()

    lowest = asyncio.run(scenario())
    assert min(lowest) > 0
