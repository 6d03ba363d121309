"""The server's one rate-limit mechanism (issue 18): token buckets (server/ratelimit.py) for
game creation and for the account limits alike, in the process or in Redis."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest

from randomchess.server.http.ratelimit import PREFIX, RateLimiter, Rule, TokenBuckets
from server_support import client, database
from test_accounts import Browser, user


def test_a_bucket_allows_its_burst_then_refills_at_its_rate() -> None:
    b = TokenBuckets()
    rule = Rule.per_window(3, 60_000)  # 3 at once, 3 more per minute
    assert [b.take_here("k", rule, 0) for _ in range(4)] == [True, True, True, False]
    assert b.take_here("k", rule, 19_000) is False  # 0.95 of a token back
    assert b.take_here("k", rule, 20_000) is True  # one token per 20 s
    assert b.take_here("k", rule, 20_001) is False
    # Unlike a fixed window, the end of a window gives no fresh burst: after a minute's
    # wait only the refill is there (3 tokens), never more than the burst.
    assert [b.take_here("k", rule, 200_000) for _ in range(4)] == [True, True, True, False]
    assert b.take_here("other", rule, 0) is True  # keys are separate


def test_creation_and_accounts_use_the_same_buckets() -> None:
    limiter = RateLimiter(60, 2)
    assert isinstance(limiter.buckets, TokenBuckets)
    assert [limiter.allow_now("a", 0) for _ in range(3)] == [True, True, False]
    assert limiter.allow_now("a", 1000) is True  # 60 a minute: one a second


def test_account_limits_are_settings(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url, signup_per_hour=2,
                                                     login_per_minute=3) as c:
        players = c.app.state.players  # type: ignore[attr-defined]
        assert isinstance(players.limits, TokenBuckets)
        assert players.signup_per_address == (2, 3_600_000)
        assert players.login_per_address == (3, 60_000)
        b = Browser(c)
        assert [b.sign_up(f"user{i}").status_code for i in range(3)] == [201, 201, 429]
        guesser = Browser(c)
        codes = [guesser.log_in("user0", f"wrong guess {i}").status_code for i in range(4)]
        assert codes == [401, 401, 401, 429]  # brute force still limited


def test_login_brute_force_limited_in_redis_as_a_bucket(tmp_path: Path) -> None:
    import redis

    try:
        redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_timeout=2).ping()
    except Exception:
        pytest.skip("Redis NOT REACHABLE at 127.0.0.1:6379: shared bucket test SKIPPED")
    name = "b" + secrets.token_hex(6)
    r = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    with database("sqlite", tmp_path) as url, client(url, redis_url="redis://127.0.0.1:6379/0",
                                                     account_attempts_per_15min=3) as c:
        c.app.state.players.signup_per_address = (10**6, 60_000)  # type: ignore[attr-defined]
        c.app.state.players.login_per_address = (10**6, 60_000)  # type: ignore[attr-defined]
        user(c, name)
        codes = [Browser(c).log_in(name, f"wrong {i}").status_code for i in range(4)]
        assert codes == [401, 401, 401, 429]
        key = f"{PREFIX}account:login-name:{name}"
        # The bucket's hash, as the creation limit keeps its own: tokens and time.
        assert set(r.hgetall(key)) == {b"tokens", b"at"}
        assert float(r.hget(key, "tokens") or 9) < 1
    r.delete(f"{PREFIX}account:login-name:{name}")


def test_unreachable_redis_falls_back_for_account_buckets() -> None:
    async def run() -> list[bool]:
        b = TokenBuckets("redis://127.0.0.1:1")  # nothing listens there
        try:
            return [await b.take("x", Rule.per_window(2, 60_000), 0) for _ in range(3)]
        finally:
            await b.close()

    assert asyncio.run(run()) == [True, True, False]
