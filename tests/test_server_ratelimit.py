"""The creation rate limit (issue 13, Server 4): X-Forwarded-For is believed only from the
configured proxy addresses (``forwarded_allow_ips``, as uvicorn's ``--forwarded-allow-ips``;
none by default), and with Redis configured the limit is one bucket per client shared by
every worker process."""

from __future__ import annotations

import os
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from server_support import client, running_server

REDIS_URL = os.environ.get("RANDOMCHESS_TEST_REDIS", "redis://127.0.0.1:6379")
BODY = b'{"variant": "chess", "opponent": "hotseat"}'


def _redis_reachable() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping())
    except Exception:
        return False


@contextmanager
def _serve(tmp: Path, **env: str) -> Iterator[str]:
    """``randomchess serve`` (real uvicorn) on a free port, creation burst 3."""
    with running_server(tmp, "--no-web", RANDOMCHESS_CREATE_BURST="3",
                        RANDOMCHESS_CREATE_PER_MINUTE="0.01", **env) as url:
        yield url


def _create(url: str, forwarded_for: str) -> int:
    req = urllib.request.Request(f"{url}/api/games", data=BODY, method="POST", headers={
        "Content-Type": "application/json", "X-Forwarded-For": forwarded_for})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_forwarded_for_from_a_direct_client_does_not_bypass_the_limit(tmp_path: Path) -> None:
    with _serve(tmp_path) as url:
        codes = [_create(url, f"198.51.100.{i}") for i in range(6)]  # a new "client" each
    assert codes == [201, 201, 201, 429, 429, 429]


def test_forwarded_for_from_a_configured_proxy_names_the_client(tmp_path: Path) -> None:
    with _serve(tmp_path, RANDOMCHESS_FORWARDED_ALLOW_IPS="127.0.0.1") as url:
        assert [_create(url, f"198.51.100.{i}") for i in range(6)] == [201] * 6
        # One client behind the proxy is limited as one client; a client cannot prepend
        # addresses of its own: the proxy's right-most entry is the one believed.
        same = [_create(url, "203.0.113.7") for _ in range(4)]
        forged = _create(url, "192.0.2.99, 203.0.113.7")
    assert same == [201, 201, 201, 429] and forged == 429


@pytest.mark.skipif(not _redis_reachable(), reason=f"*** REDIS NOT REACHABLE at {REDIS_URL} ***")
def test_the_limit_is_shared_by_two_app_instances_through_redis(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    addr = f"198.51.100.{secrets.randbelow(250)}-{secrets.token_hex(4)}"  # this run only
    limits = {"create_burst": 3, "create_per_minute": 0.01, "forwarded_allow_ips": "testclient"}
    with client(db, redis_url=REDIS_URL, **limits) as a, \
            client(db, redis_url=REDIS_URL, **limits) as b:
        def create(c: object) -> int:
            r = c.post("/api/games", json={"variant": "chess", "opponent": "hotseat"},  # type: ignore[attr-defined]
                       headers={"X-Forwarded-For": addr})
            return int(r.status_code)

        assert [create(a), create(b), create(a), create(b), create(a)] == \
            [201, 201, 201, 429, 429]
    # Without Redis each process counts alone (the case the shared limit fixes).
    with client(db, **limits) as a, client(db, **limits) as b:
        assert [create(a), create(b), create(a), create(b)] == [201] * 4


def test_unreachable_redis_falls_back_to_the_process_bucket() -> None:
    import asyncio

    from randomchess.server.games.service import SharedRateLimiter

    async def run() -> list[bool]:
        limiter = SharedRateLimiter(0.01, 2, "redis://127.0.0.1:1")  # nothing listens there
        try:
            return [await limiter.allow("198.51.100.1", 0) for _ in range(3)]
        finally:
            await limiter.close()

    assert asyncio.run(run()) == [True, True, False]
