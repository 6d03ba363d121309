"""A Redis blip does not silence the boards (issue 28, item 1).

Measured before: with servers fanning WebSocket pushes out through Redis, ``kill -9`` of Redis
and an immediate restart left every socket open and answering pings but deaf: 20 of 20 pushes
missed at +30 s and +60 s, across two servers.  The hub's pub/sub listener died with its
connection and was never restarted, and ``publish`` succeeded against the new Redis, so not
even the local fallback ran.

Here two real ``randomchess serve`` processes share one game database and a private Redis
(started by the test on a free port and killed with SIGKILL); a spectator socket on server A
must see the moves made through server B, before the blip, right after it (the newest state,
whatever was missed while Redis was away) and after it.
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from server_support import post_json, private_redis, running_server


def _wait_state(ws: Any, moves: int, timeout_s: float) -> dict[str, Any] | None:
    """The first pushed state with at least ``moves`` moves, or None by the deadline."""
    deadline = time.monotonic() + timeout_s
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            return None
        if frame.get("type") == "state" and len(frame["game"]["moves"]) >= moves:
            game: dict[str, Any] = frame["game"]
            return game
    return None


def test_pushes_survive_a_redis_kill_and_restart(tmp_path: Path) -> None:
    with private_redis(tmp_path) as redis, ExitStack() as stack:
        shared = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        env = {"RANDOMCHESS_REDIS_URL": redis.url}
        a = stack.enter_context(running_server(tmp_path, "--no-web",
                                               "--db", shared, **env))
        b = stack.enter_context(running_server(tmp_path, "--no-web",
                                               "--db", shared, **env))
        game = post_json(f"{b}/api/games", {"variant": "chess", "opponent": "hotseat"})
        gid, token = game["id"], game["seat"]["token"]
        plies = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]

        def move(n: int) -> None:
            post_json(f"{b}/api/games/{gid}/moves", {"move": plies[n], "token": token})

        with connect(a.replace("http", "ws") + f"/ws/games/{gid}") as ws:
            assert _wait_state(ws, 0, 10) is not None
            move(0)
            assert _wait_state(ws, 1, 10) is not None  # through Redis, before the blip
            redis.kill()
            redis.start()
            move(1)  # made while the servers' subscriptions are being re-established
            seen = _wait_state(ws, 2, 15)
            assert seen is not None and seen["moves"] == plies[:2], "deaf after the blip"
            for n in range(2, 5):
                move(n)
                seen = _wait_state(ws, n + 1, 10)
                assert seen is not None and seen["moves"] == plies[:n + 1]
