"""The server's engine service: one interface for computer moves, analysis and reviews, with
two implementations (docs/server.md, "Engine service"):

* :class:`~randomchess.server.engines.pool.EnginePool`, the embedded default: process pools
  beside the server, nothing to install or start;
* :class:`QueueEngineService` (``randomchess serve --redis URL --engine-workers 0``): every
  job goes through a `saq <https://github.com/tobymao/saq>`_ queue on Redis to
  ``randomchess worker`` processes on any host (:mod:`randomchess.server.engines.worker`).

Delivery on the queue: a job is acknowledged when it completes; a running job stamps its
heartbeat every half second, and a job whose heartbeat stops for ``HEARTBEAT_S`` (its worker
died) is swept and given to another worker.  A computer move carries a deadline taken from
the clock: a worker that gets it too late drops it, and a server that has no answer by then
aborts it and plays a short search of its own (:func:`engine_pool.fallback_move`), so the
computer moves in time.  The move is applied by the game service's version check, so it is
applied once whichever answer comes first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import statistics
import time
from collections import deque
from typing import Any, Protocol

from randomchess.server.engines.pool import (
    SERVER_OVERHEAD_MS,
    fallback_move,
    known_level,
    move_budget_ms,
)
from randomchess.server.http.errors import ApiError

log = logging.getLogger("randomchess.server")

HEARTBEAT_S = 2  # a running job silent this long is taken from its worker (saq heartbeat)
SWEEP_S = 1  # how often each worker looks for such jobs (seconds; saq's timers are whole)
FALLBACK_MS = 120  # the server's own search when a queued move misses its deadline
# Without a clock, a move may wait this long for a worker beyond its thinking time: long
# enough for a dead worker's move to be swept and run again.
UNCLOCKED_GRACE_MS = 6_000
REDELIVERY_MS = 5_000  # the same allowance with a clock, when the clock can pay for it
TRANSPORT_MS = 150  # what the hand-over to and from a worker may take
JOB_TTL_S = 120  # how long a finished job (and its result) stays in Redis
DEFAULT_QUEUE = "randomchess-engine"


class EngineService(Protocol):
    """What the game service and the analysis routes ask of engines."""

    mode: str  # "embedded" or "queue"

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    def status(self) -> str:
        """``ok``, ``degraded`` (this process's pool is being rebuilt: ``/api/health``
        answers 503), ``fallback`` (the queue is unreachable) or ``no-workers``."""
        ...

    async def health(self) -> dict[str, Any]: ...

    async def levels(self) -> dict[str, tuple[str, str]]:
        """For each variant an external engine plays: (engine name, its id name)."""
        ...

    async def engines(self) -> list[str]: ...

    async def best_move(self, variant: str, start_fen: str, moves: list[str], level: int,
                        movetime_ms: int, clocks: tuple[int, int] | None,
                        increment_ms: int, key: str | None = None) -> str | None: ...

    async def run_job(self, kind: str, *args: Any, key: str | None = None,
                      timeout_s: float | None = None) -> Any: ...


def move_deadline_ms(start_fen: str, moves: list[str], movetime_ms: int,
                     clocks: tuple[int, int] | None, increment_ms: int) -> tuple[int, int]:
    """(thinking budget, deadline from now) in ms for a computer move sent to the queue.

    The budget is the embedded pool's (the clock's time manager, or ``movetime_ms``).  The
    deadline adds the hand-over and, when the clock can pay for it, time for a dead worker's
    move to be run again; it always leaves the fallback search and the server's overhead
    on the clock."""
    if clocks is None:
        budget = move_budget_ms(movetime_ms, None, 0, 0, 1.0)
        return budget, budget + UNCLOCKED_GRACE_MS
    white = (start_fen.split()[1] == "w") == (len(moves) % 2 == 0)
    mine = clocks[0] if white else clocks[1]
    budget = move_budget_ms(movetime_ms, mine, increment_ms, 0, 1.0)
    spare = max(0, mine - budget - FALLBACK_MS - 2 * SERVER_OVERHEAD_MS)
    deadline = budget + TRANSPORT_MS + min(REDELIVERY_MS, spare // 4)
    return budget, max(1, min(deadline, mine - FALLBACK_MS - SERVER_OVERHEAD_MS))


class _Latency:
    """The last jobs' times from enqueue to result, for ``/api/health``."""

    def __init__(self) -> None:
        self.samples: deque[float] = deque(maxlen=200)
        self.fallbacks = 0
        self.done = 0

    def add(self, ms: float) -> None:
        self.samples.append(ms)
        self.done += 1

    def summary(self) -> dict[str, Any]:
        s = sorted(self.samples)
        if not s:
            return {"jobs": self.done, "p50_ms": None, "p95_ms": None,
                    "fallbacks": self.fallbacks}
        return {"jobs": self.done, "p50_ms": round(statistics.median(s), 1),
                "p95_ms": round(s[min(len(s) - 1, int(len(s) * 0.95))], 1),
                "fallbacks": self.fallbacks}


def worker_rows(info: dict[str, Any]) -> list[dict[str, Any]]:
    """The connected workers of a saq ``Queue.info()``, one flat row each."""
    rows = []
    for wid, w in sorted((info.get("workers") or {}).items()):
        meta = w.get("metadata") or {}
        stats = w.get("stats") or {}
        rows.append({"id": wid, "host": meta.get("host"), "pid": meta.get("pid"),
                     "concurrency": meta.get("concurrency"), "engines": meta.get("engines", []),
                     "levels": meta.get("levels", {}), "complete": stats.get("complete", 0),
                     "failed": stats.get("failed", 0), "retried": stats.get("retried", 0),
                     "uptime_s": round((stats.get("uptime") or 0) / 1000, 1)})
    return rows


class QueueEngineService:
    """Engine work sent to ``randomchess worker`` processes over a saq queue on Redis."""

    mode = "queue"

    def __init__(self, redis_url: str, queue_name: str = DEFAULT_QUEUE) -> None:
        self.redis_url = redis_url
        self.queue_name = queue_name
        self.queue: Any = None
        self._info: dict[str, Any] = {"workers": {}, "queued": 0, "active": 0}
        self._info_at = 0.0
        self._info_error: str | None = None
        self.latency = _Latency()
        self._tasks: list[asyncio.Task[Any]] = []

    async def start(self) -> None:
        from saq import Queue

        self.queue = Queue.from_url(self.redis_url, name=self.queue_name)
        await self.queue.connect()
        self._tasks = [asyncio.create_task(self._watch()), asyncio.create_task(self._hold())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.queue is not None:
            with contextlib.suppress(Exception):
                await self.queue.disconnect()

    def shutdown(self) -> None:  # the embedded pool's name for it; close() does the work
        return None

    async def _hold(self) -> None:
        """Keep the queue's one pub/sub subscription open, so waiting for a job's result
        never misses its notification while the subscription is being made."""
        while True:
            try:
                await self.queue.listen(["randomchess-hold"], lambda *_: False, timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("engine queue: pub/sub subscription lost; retrying")
                await asyncio.sleep(1.0)

    async def _watch(self) -> None:
        while True:
            await self._refresh()
            await asyncio.sleep(1.0)

    async def _refresh(self) -> dict[str, Any]:
        try:
            self._info = await self.queue.info()
            self._info_error = None
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._info_error = f"{type(exc).__name__}: {exc}"
        self._info_at = time.monotonic()
        return self._info

    def workers(self) -> list[dict[str, Any]]:
        return worker_rows(self._info)

    def status(self) -> str:
        if self._info_error is not None:
            return "fallback"  # the queue is unreachable: computer moves use the fallback
        return "ok" if self._info.get("workers") else "no-workers"

    async def health(self) -> dict[str, Any]:
        if time.monotonic() - self._info_at > 2.0:
            await self._refresh()
        return {"mode": self.mode, "status": self.status(), "queue": self.queue_name,
                "workers": self.workers(), "queued": self._info.get("queued", 0),
                "active": self._info.get("active", 0), "latency": self.latency.summary(),
                "error": self._info_error}

    async def levels(self) -> dict[str, tuple[str, str]]:
        """What the connected workers' external engines play (the union of them)."""
        if not self._info.get("workers"):
            await self._refresh()
        out: dict[str, tuple[str, str]] = {}
        for row in self.workers():
            for variant, pair in (row.get("levels") or {}).items():
                out.setdefault(variant, (pair[0], pair[1]))
        return out

    async def engines(self) -> list[str]:
        names = ["randomchess"]
        for row in self.workers():
            names += [n for n in row["engines"] if n not in names]
        return names

    # ----------------------------------------------------------------- jobs
    async def _submit(self, function: str, kwargs: dict[str, Any], key: str | None,
                      timeout_s: float, retries: int) -> Any:
        """Enqueue (or join the job already queued under ``key``) and wait for it: the
        job, finished, or None when ``timeout_s`` passed first (the job is then aborted)."""
        from saq import Job
        from saq.job import TERMINAL_STATUSES

        job = Job(function=function, kwargs=kwargs, timeout=int(timeout_s) + 2,
                  heartbeat=HEARTBEAT_S, retries=retries, ttl=JOB_TTL_S)
        if key:
            job.key = key
            done = await self.queue.job(key)
            if done is not None and done.status == "complete":
                return done  # the same job has run already (saq only merges queued ones)
        queued = await self.queue.enqueue(job)
        if queued is None:  # the same job is queued or done already: wait for that one
            log.info("engine job %s joined (already queued)", key)
        end = time.monotonic() + timeout_s
        while True:
            current = await self.queue.job(job.key)
            if current is not None and current.status in TERMINAL_STATUSES:
                return current
            left = end - time.monotonic()
            if left <= 0:
                if current is not None:
                    with contextlib.suppress(Exception):
                        await self.queue.abort(current, "deadline passed")
                return None

            def done(_key: str, status: Any) -> bool:
                return status in TERMINAL_STATUSES

            with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                await self.queue.listen([job.key], done, timeout=min(left, 0.25))

    async def best_move(self, variant: str, start_fen: str, moves: list[str], level: int,
                        movetime_ms: int, clocks: tuple[int, int] | None,
                        increment_ms: int, key: str | None = None) -> str | None:
        level = known_level(level)
        asked = time.time()
        budget, deadline = move_deadline_ms(start_fen, moves, movetime_ms, clocks,
                                            increment_ms)
        wtime, btime = clocks if clocks is not None else (None, None)
        kwargs = {"variant": variant, "start_fen": start_fen, "moves": moves, "level": level,
                  "movetime_ms": movetime_ms, "wtime": wtime, "btime": btime,
                  "inc": increment_ms, "sent_at": asked, "deadline": asked + deadline / 1000}
        job = None
        try:
            # Bounded even when Redis hangs rather than refuses: the fallback must have time.
            async with asyncio.timeout(deadline / 1000 + 0.5):
                job = await self._submit("move", kwargs, key, deadline / 1000, retries=3)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("engine queue failed; the server plays the move itself")
        result = job.result if job is not None and job.status == "complete" else None
        if isinstance(result, dict) and not result.get("dropped"):
            self.latency.add((time.time() - asked) * 1000)
            log.info("computer move %s (level %d) by worker %s in %d ms", key, level,
                     result.get("worker"), (time.time() - asked) * 1000)
            uci = result.get("uci")
            return None if uci is None else str(uci)
        self.latency.fallbacks += 1
        log.warning("computer move %s: no worker answered within %d ms (budget %d); "
                    "a %d ms search of the server plays it", key, deadline, budget,
                    FALLBACK_MS)
        return await asyncio.to_thread(fallback_move, variant, start_fen, moves, level,
                                       FALLBACK_MS)

    async def run_job(self, kind: str, *args: Any, key: str | None = None,
                      timeout_s: float | None = None) -> Any:
        if not self._info.get("workers"):
            await self._refresh()
            if not self._info.get("workers"):
                raise ApiError(503, "engine.no_worker")
        asked = time.time()
        wait = timeout_s if timeout_s is not None else 60.0
        try:
            async with asyncio.timeout(wait + 5):
                job = await self._submit(kind, {"args": list(args)}, key, wait, retries=3)
        except TimeoutError:
            job = None
        except Exception as exc:  # redis.exceptions.RedisError and OSError: Redis is down
            if isinstance(exc, ApiError):
                raise
            log.warning("engine queue: %s", exc)
            raise ApiError(503, "engine.queue_down") from None
        if job is None:
            raise ApiError(503, "engine.timeout", seconds=wait)
        if job.status != "complete":
            raise ApiError(503, "engine.worker_failed", job=job.status,
                           error=str(job.error or '').strip().splitlines()[-1:])
        self.latency.add((time.time() - asked) * 1000)
        return job.result


def create_engine_service(engine_workers: int, redis_url: str | None,
                          queue_name: str = DEFAULT_QUEUE) -> EngineService:
    """The embedded pool, or the queue when ``engine_workers`` is 0 and Redis is given."""
    if engine_workers == 0:
        if not redis_url:
            raise ValueError("engine_workers 0 sends engine work to `randomchess worker` "
                             "processes: it needs a Redis URL (--redis)")
        return QueueEngineService(redis_url, queue_name)
    from randomchess.server.engines.pool import EnginePool

    return EnginePool(engine_workers)
