"""The live relay of a round's over-the-board games from a PGN file that an e-board program
(DGT LiveChess and the like) keeps rewriting while the games are played (issue 31).

:func:`watch` looks at the file every ``interval`` seconds and, when it changed, hands it to
:meth:`TournamentStore.relay_round`: games that continue are stored (spectators see them
through ``GET /api/tournaments/{id}/rounds/{r}/live``), games the rules refuse or that are
not the game relayed before are flagged in the event's log and never shown.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from randomchess.tournament.errors import GameEntryError
from randomchess.tournament.otb import RelayReport
from randomchess.tournament.store import TournamentStore


def _signature(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def relay_once(store: TournamentStore, event_id: str, rnd: int, path: Path) -> RelayReport:
    """Relay the file as it is now (a file that is not PGN yet: an empty report)."""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        return store.relay_round(event_id, rnd, text)
    except (OSError, GameEntryError) as e:
        if isinstance(e, GameEntryError) and e.kind != "not_pgn":
            raise
        return RelayReport(rnd)


def watch(store: TournamentStore, event_id: str, rnd: int, path: Path, *,
          interval: float = 1.0, stop: threading.Event | None = None,
          on_report: Callable[[RelayReport], None] | None = None) -> None:
    """Relay ``path`` whenever it changes until ``stop`` is set or every game of the round
    has its result."""
    stop = stop or threading.Event()
    last: tuple[int, int] | None = None
    while not stop.is_set():
        sig = _signature(path)
        if sig is not None and sig != last:
            last = sig
            report = relay_once(store, event_id, rnd, path)
            if on_report is not None:
                on_report(report)
        if store.load(event_id).round_complete(rnd):
            return
        stop.wait(interval)
