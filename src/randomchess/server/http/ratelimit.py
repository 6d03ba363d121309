"""The server's one rate-limit mechanism: token buckets per key (docs/server.md, security).

A bucket holds at most ``burst`` tokens and refills at ``per_ms`` tokens a millisecond; each
attempt takes one token, and an attempt finding less than one is refused.  So ``burst``
attempts may come at once and ``per_ms`` is the sustained rate.  Every limit of the server
uses it: game creation (``create_burst`` at once, ``create_per_minute`` sustained), and the
account limits (log in, sign up, password change and deletion), given as "``n`` attempts per
window": a bucket of ``n`` tokens that refills ``n`` in a window.

With ``redis_url`` set the buckets live in Redis, updated atomically by one Lua script using
Redis's own clock (the workers' clocks may differ), so all workers and hosts sharing that Redis
count a client once.  If Redis fails, the process's own buckets decide and the failure is
logged.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("randomchess.server")

PREFIX = "randomchess:rate:"
_MAX_LOCAL_KEYS = 100_000  # idle clients are forgotten rather than kept forever

_BUCKET_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, last = tonumber(b[1]) or burst, tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / math.max(rate, 1e-9)) + 1000)
return ok
"""


@dataclass(frozen=True)
class Rule:
    """A bucket's size (``burst``) and refill rate (tokens per millisecond)."""

    burst: float
    per_ms: float

    @classmethod
    def per_minute(cls, per_minute: float, burst: int) -> Rule:
        return cls(float(burst), per_minute / 60_000)

    @classmethod
    def per_window(cls, attempts: int, window_ms: int) -> Rule:
        """``attempts`` at once, and ``attempts`` more over each ``window_ms``."""
        return cls(float(attempts), attempts / window_ms)


class TokenBuckets:
    """Buckets by key, in this process or (``redis_url``) in Redis under ``PREFIX + key``."""

    def __init__(self, redis_url: str | None = None) -> None:
        self._local: dict[str, tuple[float, int]] = {}
        self._redis: Any = None
        self._script: Any = None
        if redis_url:
            import redis.asyncio as aioredis

            self._redis = aioredis.from_url(redis_url, socket_timeout=2,
                                            socket_connect_timeout=2)
            self._script = self._redis.register_script(_BUCKET_LUA)

    @property
    def shared(self) -> bool:
        return self._script is not None

    def take_here(self, key: str, rule: Rule, now: int) -> bool:
        """Take a token from this process's bucket ``key`` at ``now`` (epoch ms)."""
        tokens, last = self._local.get(key, (rule.burst, now))
        tokens = min(rule.burst, tokens + max(0, now - last) * rule.per_ms)
        if len(self._local) > _MAX_LOCAL_KEYS:
            self._local.clear()
        if tokens < 1:
            self._local[key] = (tokens, now)
            return False
        self._local[key] = (tokens - 1, now)
        return True

    async def take(self, key: str, rule: Rule, now: int) -> bool:
        """Take a token from bucket ``key``: in Redis when configured (``now`` is then only
        used if Redis fails), else in this process."""
        if self._script is not None:
            try:
                ok = await self._script(keys=[PREFIX + key],
                                        args=[repr(rule.per_ms), repr(rule.burst)])
                return bool(ok)
            except Exception:
                log.exception("redis rate limit failed; counting in this process")
        return self.take_here(key, rule, now)

    async def close(self) -> None:
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()


class RateLimiter:
    """One rule for every client (the creation limit): ``burst`` at once, ``per_minute``
    sustained, counted in this process."""

    def __init__(self, per_minute: float, burst: int, redis_url: str | None = None,
                 name: str = "create") -> None:
        self.rule = Rule.per_minute(per_minute, burst)
        self.name = name
        self.buckets = TokenBuckets(redis_url)

    @property
    def rate(self) -> float:
        return self.rule.per_ms

    @property
    def burst(self) -> float:
        return self.rule.burst

    def allow_now(self, client: str, now: int) -> bool:
        return self.buckets.take_here(f"{self.name}:{client}", self.rule, now)

    async def allow(self, client: str, now: int) -> bool:
        return await self.buckets.take(f"{self.name}:{client}", self.rule, now)

    async def close(self) -> None:
        await self.buckets.close()


class SharedRateLimiter(RateLimiter):
    """:class:`RateLimiter` with its buckets in Redis (``randomchess:rate:create:<client>``)."""

    def __init__(self, per_minute: float, burst: int, redis_url: str) -> None:
        super().__init__(per_minute, burst, redis_url)
