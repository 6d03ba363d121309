"""A login flood cannot touch game play (issue 28, item 5).

Measured before: 40 failed logins from 40 addresses made every game read wait 12.8 to 21 s and
answer 503, and the server's memory grew from 118 to 2,447 MB: Argon2id (64 MiB each) ran in
the same 40-thread pool as every database read.  Password hashing now has its own small pool
and a bounded queue: logins beyond it are refused at once with a typed 503
(``account.busy``), and game reads are served throughout.

A real ``randomchess serve`` process is flooded over loopback with 100 concurrent wrong
passwords while a player keeps reading a game.  The bound on a read is the server's database
timeout (2 s here): a read that waited behind the flood would be answered 503.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from server_support import running_server

FLOOD = 100


def _call(url: str, method: str = "GET", body: dict[str, Any] | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


CSRF = {"X-CSRF-Token": "flood-test", "Cookie": "rc_csrf=flood-test"}


def test_a_flood_of_wrong_passwords_leaves_game_reads_served(tmp_path: Path) -> None:
    env = {"RANDOMCHESS_DB_TIMEOUT_S": "2.0", "RANDOMCHESS_LOGIN_PER_MINUTE": "100000",
           "RANDOMCHESS_ACCOUNT_ATTEMPTS_PER_15MIN": "100000",
           "RANDOMCHESS_SIGNUP_PER_HOUR": "100"}
    with running_server(tmp_path, "--no-web", **env) as url:
        status, _ = _call(f"{url}/api/account/signup", "POST",
                          {"name": "ana", "password": "right-password"}, CSRF)
        assert status == 201
        status, game = _call(f"{url}/api/games", "POST",
                             {"variant": "chess960", "opponent": "hotseat"})
        assert status == 201, game
        flooding = threading.Event()
        logins: list[tuple[int, str]] = []

        def wrong_login(i: int) -> None:
            flooding.set()
            status, out = _call(f"{url}/api/account/login", "POST",
                                {"name": "ana", "password": f"wrong-{i}"}, CSRF)
            logins.append((status, str(out.get("code"))))

        reads: list[int] = []
        with ThreadPoolExecutor(FLOOD) as pool:
            futures = [pool.submit(wrong_login, i) for i in range(FLOOD)]
            flooding.wait(10)
            while not all(f.done() for f in futures) or len(reads) < 5:
                reads.append(_call(f"{url}/api/games/{game['id']}")[0])
            for f in futures:
                f.result()
        answers = Counter(logins)
        assert set(answers) <= {(401, "account.wrong_login"), (503, "account.busy")}, answers
        assert answers[(401, "account.wrong_login")] >= 1  # the pool did its work
        assert Counter(reads) == Counter({200: len(reads)}), Counter(reads)
        # and the right password still works once the flood is over
        status, _ = _call(f"{url}/api/account/login", "POST",
                          {"name": "ana", "password": "right-password"}, CSRF)
        assert status == 200
