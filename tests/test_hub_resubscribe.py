"""A worker whose own Redis subscription is still down keeps publishing (issue 28, item 1).

Found behind a flaky ``test_server_redis_blip``: after a Redis restart each worker subscribes
again on its own back-off (0.05 s doubling to 2 s).  Worker A is back and has re-synchronised
its sockets; worker B, still waiting to subscribe again, takes a move and publishes it.  B's
publisher sent to Redis only while B itself was subscribed, so the move reached B's own sockets
and nobody else's: A's spectators stayed one move behind until the next move.  Redis was up all
along, so the publish must go out whatever the state of the publisher's own subscription.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from randomchess.server.games.hub import Hub
from server_support import private_redis


class _Socket:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


async def _until(cond: object, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if callable(cond) and cond():
            return True
        await asyncio.sleep(0.01)
    return False


async def _scenario(url: str) -> list[str]:
    a, b = Hub(url), Hub(url)
    await a.start()
    await b.start()
    try:
        watcher = _Socket()
        a.add("g1", watcher)  # type: ignore[arg-type]
        b.publish_state_soon("g1", '{"moves":[]}')
        assert await _until(lambda: len(watcher.texts) == 1, 10), "no fan-out at all"
        # B's subscription is lost and not yet made again (its listener is in its back-off);
        # Redis itself answers.
        b._tasks[0].cancel()
        b._subscribed.clear()
        b.publish_state_soon("g1", '{"moves":["e2e4"]}')
        await _until(lambda: len(watcher.texts) == 2, 5)
        return watcher.texts
    finally:
        await a.stop()
        await b.stop()


def test_a_worker_publishes_while_its_own_subscription_is_down(tmp_path: Path) -> None:
    with private_redis(tmp_path) as redis:
        texts = asyncio.run(_scenario(redis.url))
    assert len(texts) == 2 and "e2e4" in texts[1], texts
