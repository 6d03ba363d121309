"""The game server (``randomchess serve``): HTTP + WebSocket API over durable storage.

Everything here is a front end of the rules core; see docs/server.md.
"""

from randomchess.server.app import create_app
from randomchess.server.settings import Settings

__all__ = ["Settings", "create_app"]
