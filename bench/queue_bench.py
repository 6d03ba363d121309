"""Engine jobs per second on the Redis queue with 1 and 2 worker processes, the scaling
ratio, and the queue's own overhead per job, in one run (issue 17).

    python bench/queue_bench.py [--redis redis://127.0.0.1:6379] [--jobs 24] [--depth 4]

The jobs are analysis jobs of our engine at a fixed depth on the same positions each time
(fixed work per job, unlike movetime-bound moves).  The same jobs are also run one after
the other in this process, without a queue, as the baseline.  The overhead is the round
trip of an empty job (``ping``: enqueue, a worker takes it, the result comes back) and of
one that also crosses to the worker's search process (``ping_pool``), sequentially.
Workers are started and stopped by the benchmark, on a queue of their own.  On a 2-core
machine shared with other work the 2-worker figure is bounded by the free cores: read the
load average printed with it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from analysis_bench import positions
from randomchess.server.engines.routes import analyse_job
from randomchess.server.engines.service import QueueEngineService


def start_workers(redis: str, queue: str, n: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-m", "randomchess", "worker", "--redis", redis,
                              "--queue", queue], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL) for _ in range(n)]


def stop_workers(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()


async def wait_workers(service: QueueEngineService, n: int) -> None:
    end = time.monotonic() + 90
    while True:
        await service._refresh()
        if len(service.workers()) >= n:
            return
        if time.monotonic() > end:
            raise SystemExit(f"only {len(service.workers())} of {n} workers registered")
        await asyncio.sleep(0.3)


async def run(args: argparse.Namespace) -> None:
    jobs = [(p.variant.key, p.fen(), [], "randomchess", args.depth, 60_000, 1)
            for p in positions(args.variant, args.jobs)]
    t0 = time.perf_counter()
    for job in jobs:
        analyse_job(*job)
    baseline = len(jobs) / (time.perf_counter() - t0)
    print(f"{len(jobs)} analysis jobs, {args.variant}, depth {args.depth}")
    print(f"  in this process, no queue:     {baseline:6.2f} jobs/s")
    rates: dict[int, float] = {}
    overhead: dict[str, list[float]] = {}
    for n in (1, 2):
        queue = f"bench-{secrets.token_hex(4)}"
        procs = start_workers(args.redis, queue, n)
        service = QueueEngineService(args.redis, queue)
        await service.start()
        try:
            await wait_workers(service, n)
            # One job per worker first: every search process is warm.
            await asyncio.gather(*(service.run_job("analyse", *jobs[0]) for _ in range(n)))
            t0 = time.perf_counter()
            results = await asyncio.gather(*(service.run_job("analyse", *job,
                                                             timeout_s=600) for job in jobs))
            elapsed = time.perf_counter() - t0
            assert all(r.get("lines") for r in results)
            rates[n] = len(jobs) / elapsed
            load = os.getloadavg()[0]
            print(f"  {n} worker process(es):        {rates[n]:6.2f} jobs/s  "
                  f"(load average {load:.1f})")
            if n == 1:
                for kind in ("ping", "ping_pool"):
                    times: list[float] = []
                    for _ in range(args.pings):
                        t1 = time.perf_counter()
                        await service.run_job(kind)
                        times.append((time.perf_counter() - t1) * 1000)
                    overhead[kind] = times
        finally:
            await service.close()
            stop_workers(procs)
    print(f"  scaling 2 workers / 1 worker:  {rates[2] / rates[1]:6.2f}x")
    print(f"  queue vs in-process (1 worker): {rates[1] / baseline:6.2f}x")
    for kind, times in overhead.items():
        s = sorted(times)
        print(f"  overhead per job, {kind:9}: mean {statistics.mean(s):5.1f} ms, "
              f"p50 {statistics.median(s):5.1f} ms, p95 {s[int(len(s) * 0.95)]:5.1f} ms "
              f"({len(s)} sequential jobs)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--redis", default="redis://127.0.0.1:6379")
    ap.add_argument("--jobs", type=int, default=24)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--variant", default="chess960")
    ap.add_argument("--pings", type=int, default=100)
    args: Any = ap.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
