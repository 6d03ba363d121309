"""``POST /api/games/{id}/moves`` without the framework's per-request machinery (issue 36).

A move is the request the server answers most, and under load most of its CPU went to the
layers around it: routing through every router, FastAPI's dependency solving, its body
parsing and validation, the response object (docs/server.md, benchmark).  This middleware,
innermost of the app's own (inside the body limit and the security headers), answers a well
formed move itself: the body is validated by the route's own model (``MoveIn``, in JSON mode),
the move is played by the same ``GameService.perform`` and the errors go through the app's
own exception handlers, so the answer is the route's byte for byte.  Anything else (another
route, a body that is not JSON or does not validate) goes on to the route unchanged, which
then answers it, its 422s included.  The route stays declared for the OpenAPI document.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from randomchess.db import now_ms
from randomchess.server.games.routes import MoveIn
from randomchess.server.games.service import GameService

_PATH = re.compile(r"/api/games/([^/]+)/moves")
_JSON = re.compile(rb"application/json\s*(;.*)?", re.IGNORECASE | re.DOTALL)


class MoveFastPath:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = _match(scope)
        if match is None:
            await self.app(scope, receive, send)
            return
        message = await receive()
        body = None
        if message["type"] == "http.request" and not message.get("more_body", False):
            try:
                body = MoveIn.model_validate_json(message.get("body", b""))
            except ValidationError:
                body = None
        if body is None:  # the route answers it (its 422 and all)
            await self.app(scope, _replay(message, receive), send)
            return
        service: GameService = scope["app"].state.service
        try:
            live = await service.perform(match, "move", body.token, body.move, lag=body.lag)
            payload = live.state_json(now_ms()).encode()
        except Exception as exc:
            handler = _handler(scope["app"], exc)
            if handler is None:
                raise
            response = await handler(Request(scope, receive), exc)
            await response(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(payload)).encode()),
                                (b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": payload})


def _match(scope: Scope) -> str | None:
    """The game id of a JSON ``POST /api/games/{id}/moves``, else None."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root):]
    match = _PATH.fullmatch(path)
    if match is None:
        return None
    types = [v for k, v in scope["headers"] if k == b"content-type"]
    if len(types) != 1 or _JSON.fullmatch(types[0]) is None:
        return None
    return match.group(1)


def _handler(app: Any, exc: Exception) -> Any:
    """The app's handler of ``exc`` (as Starlette's exception middleware looks it up)."""
    handlers = app.exception_handlers
    for cls in type(exc).__mro__:
        if cls in handlers:
            return handlers[cls]
    return None


def _replay(first: Message, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return first
        return await receive()

    return replay
