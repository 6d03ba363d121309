"""The one door to the database for every route, as FastAPI dependencies.

A route that needs the database takes ``db: DB`` (``Annotated[Database, Depends(...)]``,
the FastAPI project template's style) and runs its blocking store calls through
:meth:`Database.run`: in a worker thread, no longer than the server's ``db_timeout_s``, and
a database that is down or too slow becomes the catalogue's typed 503 (``db.down`` /
``db.timeout``, with ``Retry-After``) whichever wing asked.  The game service takes the same
path (``GameService._db``).

The other shared per-request values (settings, the request's language) are here too; the
wings' own dependencies (the game service, the signed-in session) live in their wing
(``games/deps.py``, ``accounts/deps.py``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Annotated, Any, ParamSpec, TypeVar

import anyio
import anyio.to_thread
from fastapi import Depends, Request
from sqlalchemy.engine import Engine
from starlette.requests import HTTPConnection

from randomchess.db import DB_ERRORS
from randomchess.server.http.errors import ApiError, Lang, lang_of_scope
from randomchess.server.http.settings import Settings

log = logging.getLogger("randomchess.server.db")

T = TypeVar("T")


class Database:
    """Blocking database work, bounded: what every wing's routes await."""

    def __init__(self, engine: Engine, timeout_s: float) -> None:
        self.engine = engine
        self.timeout_s = timeout_s

    async def run(self, fn: Callable[..., T], *args: Any, bounded: bool = True) -> T:
        """``fn(*args)`` in a worker thread.  ``bounded`` (every request's call): no longer
        than ``timeout_s``, then 503 ``db.timeout``; a failing database is 503 ``db.down``.
        A call given up on is abandoned to its thread (the engine's own timeouts end it).
        Errors of the call itself (an :class:`ApiError`, a bug) pass through as they are."""
        if not bounded:
            return await anyio.to_thread.run_sync(partial(fn, *args))
        try:
            with anyio.fail_after(self.timeout_s):
                return await anyio.to_thread.run_sync(partial(fn, *args),
                                                      abandon_on_cancel=True)
        except TimeoutError:
            raise db_timeout(self.timeout_s) from None
        except DB_ERRORS as e:
            log.warning("database error: %s", e)
            raise ApiError(503, "db.down") from None


def db_timeout(seconds: float) -> ApiError:
    return ApiError(503, "db.timeout", seconds=seconds)


def database(conn: HTTPConnection) -> Database:
    """The app's database door, for a route or a WebSocket."""
    db: Database = conn.app.state.db
    return db


def settings(request: Request) -> Settings:
    s: Settings = request.app.state.settings
    return s


def language(request: Request) -> Lang:
    return lang_of_scope(request.scope)


DB = Annotated[Database, Depends(database)]
AppSettings = Annotated[Settings, Depends(settings)]
RequestLang = Annotated[Lang, Depends(language)]


P = ParamSpec("P")


def through_db(route: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    """A blocking route body run through :meth:`Database.run` (a route whose every step
    reads or writes the database, e.g. the tournament routes): bounded, 503 when the
    database fails.  The route must take ``request: Request``; FastAPI sees the route's own
    signature."""

    @functools.wraps(route)
    async def bounded(*args: P.args, **kwargs: P.kwargs) -> T:
        request = kwargs["request"]
        assert isinstance(request, Request)
        return await database(request).run(partial(route, *args, **kwargs))

    return bounded
