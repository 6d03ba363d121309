"""A dead server process strands none of its games (issue 28, item 3).

Measured before: with processes A and B on one database, ``kill -9`` of A left a flag A was
timing standing (the row stayed ``playing`` 20 s after the clock reached zero; only a read
through B ended it), and a computer move A owed was never made until A restarted.  Timers
and engine requests were armed only by the process that made the last change.

Now every process sweeps the database each second for games whose flag is overdue and
computer moves that are owed and stale, and takes them over.  The two tests kill A with
SIGKILL and, without reading the game through B, watch the row itself (SQLite file shared by
both processes).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from server_support import post_json, running_server


def _row(db: Path, gid: str) -> tuple[str, str | None, int]:
    with sqlite3.connect(db) as conn:
        status, termination, moves = conn.execute(
            "SELECT status, termination, moves FROM games WHERE id = ?", (gid,)).fetchone()
    return str(status), termination, len(str(moves).split())


def _kill(url: str) -> None:
    """SIGKILL the server answering at ``url`` (its pid from /proc: the one listening)."""
    port = url.rsplit(":", 1)[1]
    out = os.popen(f"ss -Hltnp 'sport = :{port}'").read()
    pid = int(out.split("pid=")[1].split(",")[0])
    os.kill(pid, signal.SIGKILL)


def _wait(condition: Any, timeout_s: float) -> float | None:
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        if condition():
            return time.monotonic() - start
        time.sleep(0.05)
    return None


def test_a_flag_the_dead_process_was_timing_falls(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    with ExitStack() as stack:
        a = stack.enter_context(running_server(tmp_path, "--no-web", "--db", f"sqlite:///{db}"))
        stack.enter_context(running_server(tmp_path, "--no-web", "--db", f"sqlite:///{db}"))
        g = post_json(f"{a}/api/games", {"variant": "chess", "opponent": "hotseat",
                                     "clock": {"minutes": 0.05, "increment": 0}})  # 3 s
        token = g["seat"]["token"]
        for move in ("e2e4", "e7e5"):  # the clock runs from Black's first move
            post_json(f"{a}/api/games/{g['id']}/moves", {"move": move, "token": token})
        _kill(a)
        flag = time.monotonic() + 3.0  # White's 3 s run out then
        took = _wait(lambda: _row(db, g["id"])[0] == "ended", 20.0)
        assert took is not None, f"the flag never fell: {_row(db, g['id'])}"
        assert _row(db, g["id"])[1] == "time forfeit"
        assert time.monotonic() - flag < 5.0 + 1.0  # taken over within 5 s (1 s to spare)


def test_a_computer_move_the_dead_process_owed_is_made(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    with ExitStack() as stack:
        # A thinks long (so it can be killed while it owes the move); B is quick.
        a = stack.enter_context(running_server(tmp_path, "--no-web", "--db", f"sqlite:///{db}",
                                               RANDOMCHESS_ENGINE_MOVETIME_MS="20000"))
        stack.enter_context(running_server(tmp_path, "--no-web", "--db", f"sqlite:///{db}",
                                           RANDOMCHESS_ENGINE_MOVETIME_MS="300"))
        g = post_json(f"{a}/api/games", {"variant": "chess960", "opponent": "computer",
                                     "color": "white", "level": 8})
        post_json(f"{a}/api/games/{g['id']}/moves", {"move": "e2e4", "token": g["seat"]["token"]})
        _kill(a)  # A was thinking about Black's answer
        took = _wait(lambda: _row(db, g["id"])[2] == 2, 20.0)
        assert took is not None, f"the computer's move was never made: {_row(db, g['id'])}"


def test_a_computer_move_the_dead_process_owed_is_made_in_queue_mode(tmp_path: Path) -> None:
    """The same take-over when the engine runs in `randomchess worker` processes behind the
    Redis queue (``--engine-workers 0``): A's job for Black's answer is still running in a
    worker when A dies, so nobody would apply its answer; B re-asks the queue and applies its
    own, once (A's late answer would be dropped as stale)."""
    import secrets

    from test_engine_queue import REDIS, _need_redis, workers

    _need_redis()
    db = tmp_path / "shared.sqlite3"
    queue = f"takeover-{secrets.token_hex(4)}"
    common = ("--no-web", "--db", f"sqlite:///{db}", "--engine-workers", "0", "--redis", REDIS)
    with ExitStack() as stack:
        stack.enter_context(workers(2, queue, tmp_path))  # one busy with A's long think
        a = stack.enter_context(running_server(tmp_path, *common, RANDOMCHESS_ENGINE_QUEUE=queue,
                                               RANDOMCHESS_ENGINE_MOVETIME_MS="30000"))
        stack.enter_context(running_server(tmp_path, *common, RANDOMCHESS_ENGINE_QUEUE=queue,
                                           RANDOMCHESS_ENGINE_MOVETIME_MS="300"))
        g = post_json(f"{a}/api/games", {"variant": "chess960", "opponent": "computer",
                                     "color": "white", "level": 8})
        post_json(f"{a}/api/games/{g['id']}/moves", {"move": "e2e4", "token": g["seat"]["token"]})
        _kill(a)  # A's job is in a worker's hands; A would have applied its answer
        took = _wait(lambda: _row(db, g["id"])[2] >= 2, 30.0)
        assert took is not None, f"the computer's move was never made: {_row(db, g['id'])}"
        assert _row(db, g["id"])[2] == 2  # applied once: no second answer on top
        assert _row(db, g["id"])[0] == "playing"
