"""The one-host deployment recipe of docs/server.md: ``deploy/one-host.sh`` starts two
server processes on PostgreSQL with Redis and two engine workers; a computer game is played
through it, then ``stop`` ends every process it started."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from server_support import free_port, pg_database
from test_engine_queue import REDIS, _need_redis

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "one-host.sh"


def _call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_the_one_host_script_starts_a_working_site_and_stops_it(tmp_path: Path) -> None:
    _need_redis()
    with pg_database() as db:
        port = free_port()
        env = {**os.environ, "RC_DB": db, "RC_REDIS": REDIS, "RC_PORT": str(port),
               "RC_SERVER_WORKERS": "2", "RC_ENGINE_WORKERS": "2",
               "RC_QUEUE": f"test-{secrets.token_hex(4)}", "RC_RUN": str(tmp_path / "run"),
               "RC_BIN": str(Path(sys.executable).parent / "randomchess")}
        started = subprocess.run([str(SCRIPT), "start"], env=env, capture_output=True,
                                 text=True, timeout=120)
        try:
            assert started.returncode == 0, started.stdout + started.stderr
            pids = [int(p.read_text()) for p in (tmp_path / "run").glob("*.pid")]
            assert len(pids) == 3  # the server and two engine workers
            base = f"http://127.0.0.1:{port}"
            # The workers announce themselves once started: on a busy machine that can come
            # a moment after the server answers (CI once saw 0 of 2 at the first look).
            deadline = time.monotonic() + 30
            while True:
                health = _call(f"{base}/api/health")
                if len(health["engine_service"]["workers"]) == 2 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert health["database"] == "postgresql"
            assert health["engine_service"]["mode"] == "queue"
            assert len(health["engine_service"]["workers"]) == 2
            game = _call(f"{base}/api/games", {"variant": "mrc", "opponent": "computer",
                                               "color": "black", "level": 2})
            end = time.monotonic() + 30
            while not _call(f"{base}/api/games/{game['id']}")["moves"]:
                assert time.monotonic() < end, "the computer never moved"
                time.sleep(0.1)
            status = subprocess.run([str(SCRIPT), "status"], env=env, capture_output=True,
                                    text=True, timeout=60)
            assert "2 worker(s)" in status.stdout, status.stdout + status.stderr
        finally:
            stopped = subprocess.run([str(SCRIPT), "stop"], env=env, capture_output=True,
                                     text=True, timeout=60)
        assert stopped.returncode == 0, stopped.stderr
        time.sleep(0.5)
        for pid in pids:
            assert not Path(f"/proc/{pid}").exists() or \
                "zombie" in Path(f"/proc/{pid}/status").read_text().lower(), pid
