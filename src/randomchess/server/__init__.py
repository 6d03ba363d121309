"""The game server (``randomchess serve``): HTTP + WebSocket API over durable storage.

Everything here is a front end of the rules core; see docs/server.md.  The wings, each a
package, import only downwards:

* ``http``: settings, the error catalogue, guards on raw input, rate limits, the front end's
  assets, the database dependency (``http/deps.py``) and, on top of everything, the app
  (``http/app.py``) that wires the wings together;
* ``engines``: the engine service (pool of processes or saq queue), its worker, the analysis
  and review jobs and the analysis routes;
* ``games``: the game service, its store, the live game, the WebSocket hub and the game,
  play, variant and setup routes;
* ``accounts``: accounts, sessions, ratings and the lobby;
* ``tournaments``: the tournament routes over :mod:`randomchess.tournament`.

The database itself (one schema, the engine, the migrations) is :mod:`randomchess.db`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from randomchess.server.http.app import create_app
    from randomchess.server.http.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so that importing one wing does not import the whole app.
    if name == "create_app":
        from randomchess.server.http.app import create_app
        return create_app
    if name == "Settings":
        from randomchess.server.http.settings import Settings
        return Settings
    raise AttributeError(name)
