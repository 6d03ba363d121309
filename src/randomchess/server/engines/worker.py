"""``randomchess worker``: an engine worker that takes jobs from the server's saq queue on
Redis (docs/server.md, "Engine service").

Each worker is one saq ``Worker`` (asyncio) in front of a pool of ``concurrency`` spawned
processes that do the searching, so its event loop stays free to stamp the running jobs'
heartbeats and to sweep: every half second it gives the jobs of dead workers (no heartbeat
for ``HEARTBEAT_S``) to the queue again.  Its metadata (host, pid, concurrency, engines and
the variants their levels 9, 10 and maximum play) is what ``/api/health`` and
``randomchess workers`` show.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import socket
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from randomchess.server.engines.service import DEFAULT_QUEUE, SWEEP_S

log = logging.getLogger("randomchess.worker")


def _watch_parent(parent: int) -> None:
    """In each search process: end when the worker that started it is gone (``kill -9``
    leaves no one to shut the pool down)."""
    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()


def _move(variant: str, start_fen: str, moves: list[str], level: int, movetime_ms: int,
          wtime: int | None, btime: int | None, inc: int, sent_at: float,
          deadline: float) -> str | None:
    from randomchess.server.engines.pool import think

    return think(variant, start_fen, moves, level, movetime_ms, wtime, btime, inc, inc,
                 sent_at=sent_at, deadline=deadline)


def _job(kind: str, args: list[Any]) -> Any:
    from randomchess.server.engines.jobs import JOBS

    return JOBS[kind](*args)


_analysers: dict[tuple[str, str], Any] = {}


def _setup(choice: str, variant: str, number: int, depth: int) -> dict[str, Any]:
    """One setup of ``randomchess setups evaluate --redis``: its evaluation, and the name of
    the engine that made it (the batch refuses another engine's score)."""
    from randomchess.analysis.setup_eval import evaluate_setup
    from randomchess.server.engines.pool import engine_config

    analyser = _analysers.get((choice, variant))
    if analyser is None:
        analyser = _analysers[(choice, variant)] = engine_config().open(choice, variant)
    result = evaluate_setup(analyser, variant, number, depth).as_dict()
    return {**result, "engine": str(getattr(analyser, "name", "randomchess"))}


def _ping() -> str:
    return "pong"


def _warm() -> None:

    time.sleep(0.2)  # so that each process of the pool gets one


class EngineWorker:
    """The process pool and the saq job functions of one worker."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = max(1, concurrency)
        self._ctx = multiprocessing.get_context("spawn")
        self._executor = self._new_executor()
        self.id = f"{socket.gethostname()}-{os.getpid()}"

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.concurrency, mp_context=self._ctx,
                                   initializer=_watch_parent, initargs=(os.getpid(),))

    async def _run(self, ctx: dict[str, Any], fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in the pool, stamping the job's heartbeat meanwhile; a broken pool
        is rebuilt and the job fails, to be retried (saq ``retries``)."""
        job = ctx.get("job")
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            future = loop.run_in_executor(self._executor, fn, *args)
        except BrokenProcessPool:
            self._executor = self._new_executor()
            future = loop.run_in_executor(self._executor, fn, *args)
        try:
            while True:
                try:
                    result = await asyncio.wait_for(asyncio.shield(future), 0.5)
                    break
                except TimeoutError:
                    if job is not None:
                        await job.update()  # the heartbeat
        except BrokenProcessPool:
            log.error("worker %s: a search process died; the pool is rebuilt", self.id)
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            raise
        if job is not None:
            log.info("worker %s ran %s job %s (attempt %d) in %d ms", self.id, job.function,
                     job.key, job.attempts, (time.monotonic() - started) * 1000)
        return result

    async def move(self, ctx: dict[str, Any], *, variant: str, start_fen: str,
                   moves: list[str], level: int, movetime_ms: int, wtime: int | None,
                   btime: int | None, inc: int, sent_at: float,
                   deadline: float) -> dict[str, Any]:
        if time.time() >= deadline - 0.05:
            log.warning("worker %s: dropped a computer move past its deadline", self.id)
            return {"dropped": True, "worker": self.id}
        uci = await self._run(ctx, _move, variant, start_fen, moves, level, movetime_ms,
                              wtime, btime, inc, sent_at, deadline)
        return {"uci": uci, "worker": self.id}

    async def analyse(self, ctx: dict[str, Any], *, args: list[Any]) -> Any:
        return await self._run(ctx, _job, "analyse", args)

    async def review(self, ctx: dict[str, Any], *, args: list[Any]) -> Any:
        return await self._run(ctx, _job, "review", args)

    async def puzzles(self, ctx: dict[str, Any], *, args: list[Any]) -> Any:
        """Puzzles mined from one game, or from self-play (issue 33)."""
        return await self._run(ctx, _job, "puzzles", args)

    async def explorer_eval(self, ctx: dict[str, Any], *, args: list[Any]) -> Any:
        """The evaluations of an ended game's positions for the opening explorer."""
        return await self._run(ctx, _job, "explorer_eval", args)

    async def setup(self, ctx: dict[str, Any], *, args: list[Any]) -> Any:
        """One setup of the setup-evaluation batch."""
        return await self._run(ctx, _setup, *args)

    async def ping(self, ctx: dict[str, Any], *, args: list[Any] | None = None) -> Any:
        """An empty job: what the queue itself costs (bench/queue_bench.py)."""
        return {"pong": True, "worker": self.id}

    async def ping_pool(self, ctx: dict[str, Any], *, args: list[Any] | None = None) -> Any:
        """An empty job that also crosses to a search process and back."""
        return {"pong": await self._run(ctx, _ping), "worker": self.id}

    async def warm_up(self) -> None:
        """Start every search process now, not on the first job (a spawn and its imports
        take a second or more)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, _warm)
                               for _ in range(self.concurrency)))

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def worker_metadata(worker: EngineWorker) -> dict[str, Any]:
    from randomchess.analysis.levels import external_engines
    from randomchess.server.engines.pool import engine_config

    config = engine_config()
    return {"host": socket.gethostname(), "pid": os.getpid(),
            "concurrency": worker.concurrency, "engines": config.available(),
            "levels": {k: list(v) for k, v in external_engines(config).items()}}


def sweeping_queue(redis_url: str, queue_name: str, worker_id: str) -> Any:
    """saq's Redis queue whose sweep holds its lock for one sweep interval and waits only
    0.2 s for a silent worker to confirm an abort (saq's default waits 5 s), so a dead
    worker's job is running again about ``HEARTBEAT_S`` + 1 s after the death."""
    from saq.queue.redis import RedisQueue

    class SweepingQueue(RedisQueue):
        async def sweep(self, lock: int = 60, abort: float = 5.0) -> list[str]:
            swept = await super().sweep(lock=SWEEP_S, abort=0.2)
            for job_id in swept:
                log.warning("worker %s: took over job %s from a silent worker", worker_id,
                            job_id)
            return swept

    return SweepingQueue.from_url(redis_url, name=queue_name)


async def run_worker(redis_url: str, concurrency: int = 1,
                     queue_name: str = DEFAULT_QUEUE) -> None:
    """Serve engine jobs until SIGINT/SIGTERM."""
    from saq import Worker

    engine = EngineWorker(concurrency)
    meta = await asyncio.to_thread(worker_metadata, engine)
    await engine.warm_up()
    queue = sweeping_queue(redis_url, queue_name, engine.id)
    await queue.connect()
    functions: Any = [("move", engine.move), ("analyse", engine.analyse),
                      ("review", engine.review), ("setup", engine.setup),
                      ("puzzles", engine.puzzles),
                      ("explorer_eval", engine.explorer_eval),
                      ("ping", engine.ping),
                      ("ping_pool", engine.ping_pool)]
    worker: Any = Worker(
        queue, functions=functions, id=engine.id, concurrency=engine.concurrency,
        timers={"sweep": SWEEP_S, "worker_info": 1, "abort": 1, "schedule": 1},
        metadata=meta, shutdown_grace_period_s=5)
    log.info("engine worker %s on %s queue %r: concurrency %d, engines %s", engine.id,
             redis_url.split("@")[-1], queue_name, engine.concurrency,
             ", ".join(meta["engines"]))
    try:
        await worker.start()
    finally:
        engine.close()
        await queue.disconnect()


async def queue_report(redis_url: str, queue_name: str = DEFAULT_QUEUE,
                       recent: int = 500) -> dict[str, Any]:
    """What ``randomchess workers`` prints: connected workers, queue depth, and the latency
    (enqueue to result) and queue wait of the jobs finished in the last ``JOB_TTL_S``."""
    from saq import Queue
    from saq.job import Status

    from randomchess.server.engines.service import worker_rows

    queue = Queue.from_url(redis_url, name=queue_name)
    await queue.connect()
    try:
        info = await queue.info()
        total: list[int] = []
        waits: list[int] = []
        async for job in queue.iter_jobs(statuses=[Status.COMPLETE]):
            if job.completed and job.queued:
                total.append(job.completed - job.queued)
                if job.started:
                    waits.append(job.started - job.queued)
            if len(total) >= recent:
                break
    finally:
        await queue.disconnect()

    def pct(values: list[int], q: float) -> int | None:
        if not values:
            return None
        s = sorted(values)
        return s[min(len(s) - 1, int(len(s) * q))]

    return {"queue": queue_name, "workers": worker_rows(dict(info)),
            "queued": info["queued"], "active": info["active"],
            "recent_jobs": len(total), "latency_p50_ms": pct(total, 0.5),
            "latency_p95_ms": pct(total, 0.95), "queue_wait_p50_ms": pct(waits, 0.5)}
