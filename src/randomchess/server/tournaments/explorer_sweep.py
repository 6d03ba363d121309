"""The events' over-the-board games in the opening explorer (issue 33): every ``SWEEP_S``
seconds the server counts the finished games arbiters entered, and takes corrected ones
back out first (randomchess/tournament/explorer_feed.py), whichever process stored them."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from randomchess.explorer.store import ExplorerStore
from randomchess.tournament import explorer_feed
from randomchess.tournament.store import TournamentStore

log = logging.getLogger("randomchess.server.tournaments")

SWEEP_S = 30.0


async def sweep_forever(app: Any) -> None:
    store: TournamentStore = app.state.tournaments
    explorer = ExplorerStore(store.engine)
    while True:
        try:
            await app.state.db.run(explorer_feed.sync, store, explorer, bounded=False)
        except Exception:  # the next sweep tries again
            log.exception("counting the events' over-the-board games in the explorer failed")
        await asyncio.sleep(SWEEP_S)
