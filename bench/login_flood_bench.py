"""Game reads while passwords are being checked (issue 28, item 5): p50/p99 of
``GET /api/games/{id}`` on a quiet server, then under a flood of concurrent wrong logins.

A real ``randomchess serve`` (SQLite, loopback) is started; a reader thread reads one game
in a loop while ``--flood`` threads send wrong passwords for ``--seconds``.  The figures
printed are the read latencies (ms) both ways, their ratio, the answers to the logins (401
checked, 503 ``account.busy`` refused at once by the bounded password queue) and the
server's peak resident memory.  A benchmark, not a test: it prints, it asserts nothing.

    .venv/bin/python bench/login_flood_bench.py --flood 40 --seconds 10
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_support import running_server

CSRF = {"X-CSRF-Token": "bench", "Cookie": "rc_csrf=bench"}


def call(url: str, method: str = "GET", body: dict[str, Any] | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def reads(url: str, until: threading.Event, out: list[tuple[float, int]]) -> None:
    while not until.is_set():
        t0 = time.perf_counter()
        status, _ = call(url)
        out.append(((time.perf_counter() - t0) * 1000, status))


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def peak_rss_mb(port_log: Path) -> str:
    """The serve process's peak resident memory, read from /proc (Linux)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if b"serve" in cmd and any(str(port_log).encode() in c for c in cmd):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        return f"{int(line.split()[1]) / 1024:.0f} MB"
        except OSError:
            continue
    return "?"


def measure(url: str, game: str, seconds: float, flood: int) -> tuple[list[float], Counter[Any],
                                                                        Counter[Any]]:
    done = threading.Event()
    got: list[tuple[float, int]] = []
    reader = threading.Thread(target=reads, args=(f"{url}/api/games/{game}", done, got))
    logins: Counter[Any] = Counter()
    reader.start()
    end = time.monotonic() + seconds
    if flood:
        def wrong(i: int) -> None:
            while time.monotonic() < end:
                status, out = call(f"{url}/api/account/login", "POST",
                                   {"name": "ana", "password": f"wrong-{i}"}, CSRF)
                logins[(status, out.get("code"))] += 1

        with ThreadPoolExecutor(flood) as pool:
            list(pool.map(wrong, range(flood)))
    else:
        time.sleep(seconds)
    done.set()
    reader.join()
    return [ms for ms, _ in got], Counter(s for _, s in got), logins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flood", type=int, default=40, help="concurrent wrong logins")
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    env = {"RANDOMCHESS_LOGIN_PER_MINUTE": "1000000",
           "RANDOMCHESS_ACCOUNT_ATTEMPTS_PER_15MIN": "1000000",
           "RANDOMCHESS_SIGNUP_PER_HOUR": "100"}
    with tempfile.TemporaryDirectory() as tmp, \
            running_server(Path(tmp), "--no-web", **env) as url:
        assert call(f"{url}/api/account/signup", "POST",
                    {"name": "ana", "password": "right-password"}, CSRF)[0] == 201
        status, game = call(f"{url}/api/games", "POST",
                            {"variant": "chess960", "opponent": "hotseat"})
        assert status == 201, game
        quiet, quiet_codes, _ = measure(url, game["id"], args.seconds, 0)
        loud, loud_codes, logins = measure(url, game["id"], args.seconds, args.flood)
        rss = peak_rss_mb(Path(tmp))
    load = os.getloadavg()
    print(f"game reads, ms (loadavg {load[0]:.1f}; {os.cpu_count()} cores)")
    print(f"{'':24}{'reads':>8}{'p50':>9}{'p99':>9}{'max':>9}  answers")
    for label, ms, codes in (("quiet", quiet, quiet_codes),
                             (f"{args.flood} wrong logins", loud, loud_codes)):
        print(f"{label:24}{len(ms):8d}{pct(ms, 50):9.1f}{pct(ms, 99):9.1f}{max(ms):9.1f}  "
              f"{dict(codes)}")
    print(f"p99 under the flood / quiet p99: {pct(loud, 99) / pct(quiet, 99):.1f}x")
    print(f"logins answered: {dict(logins)}  (401 checked, 503 account.busy refused at once)")
    print(f"server peak RSS: {rss}")


if __name__ == "__main__":
    main()
