"""Password work in a pool of its own (issue 28): Argon2id hashing and verification (64 MiB
and tens of milliseconds of CPU each) never run in the threads that serve the database, so a
flood of log-ins cannot make game reads wait.  At most ``workers`` hashes run at once and
``queue`` more wait; any further one is refused at once with a typed 503 (``account.busy``,
``Retry-After``), which bounds the memory too (``workers`` x 64 MiB)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from randomchess.server.accounts.store import AccountError

T = TypeVar("T")


class PasswordPool:
    def __init__(self, workers: int = 0, queue: int = 16) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) // 2)
        self.limit = self.workers + queue
        self.pending = 0  # running or waiting; one event loop per process touches it
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="argon2")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.pending >= self.limit:
            raise AccountError(503, "account.busy")
        self.pending += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, partial(fn, *args))
        finally:
            self.pending -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
