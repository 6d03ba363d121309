"""Health tells what players get (issue 28, item 4).

Measured before: in queue mode ``/api/health`` answered 503 for a whole Redis outage while
moves were served and the fallback search played (a load balancer following docs/server.md
would have taken the site down); with fan-out only it stayed 200 while every push was dead.

Now ``/api/health/live`` says only that the process answers, and ``/api/health`` answers 503
only when this process cannot serve players (its database is down, or its own engine pool is
being rebuilt); otherwise 200 with what players get: ``engine`` ``fallback`` while the queue
is unreachable (this server searches itself), ``pushes`` ``local-only`` while the Redis
subscription is down (``live`` again once it is back).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from server_support import client, database, private_redis


def _wait(c: TestClient, timeout_s: float = 20.0, **want: str) -> dict[str, Any]:
    """The health answer once it shows ``want`` (or the last one by the deadline)."""
    deadline = time.monotonic() + timeout_s
    while True:
        r = c.get("/api/health")
        body: dict[str, Any] = r.json()
        if all(body.get(k) == v for k, v in want.items()) or time.monotonic() > deadline:
            return {"status": r.status_code, **body}
        time.sleep(0.1)


def test_a_redis_outage_in_queue_mode_is_reported_as_what_players_get(tmp_path: Path) -> None:
    with private_redis(tmp_path) as redis, database("sqlite", tmp_path) as url, \
            client(url, engine_workers=0, redis_url=redis.url,
                   engine_queue="health-test") as c:
        assert c.get("/api/health/live").json() == {"live": True}
        up = c.get("/api/health").json()
        assert up["pushes"] == "live"
        redis.kill()
        down = _wait(c, pushes="local-only", engine="fallback")
        assert down["status"] == 200, down
        assert down["pushes"] == "local-only" and down["engine"] == "fallback"
        assert down["ok"] is False and down["database"] == "sqlite"
        # Moves are still served meanwhile.
        r = c.post("/api/games", json={"variant": "chess", "opponent": "hotseat"})
        assert r.status_code == 201
        assert c.get("/api/health/live").status_code == 200
        redis.start()
        back = _wait(c, pushes="live")
        assert back["status"] == 200 and back["pushes"] == "live", back


def test_without_redis_pushes_are_local_and_health_is_ok(tmp_path: Path) -> None:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        body = c.get("/api/health").json()
        assert body["ok"] is True and body["pushes"] == "local" and body["engine"] == "ok"
