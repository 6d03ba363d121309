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
    """The door as the app's innermost middleware (inside the body limit, the security
    headers and, when configured, the trusted proxies' addresses)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = move_of(scope)
        if match is None:
            await self.app(scope, receive, send)
            return
        message = await receive()
        if not await answer(match, message, scope, receive, send):
            await self.app(scope, replaying(message, receive), send)  # the route answers it


async def answer(game_id: str, message: Message, scope: Scope, receive: Receive,
                 send: Send, headers: tuple[tuple[bytes, bytes], ...] = ()) -> bool:
    """Answer the move of ``message`` (a request's first body message) as the route would,
    with ``headers`` after the answer's own; False, sending nothing, if the body is not one
    whole message or does not validate (the route answers it then, its 422 included)."""
    if message["type"] != "http.request" or message.get("more_body", False):
        return False
    try:
        body = MoveIn.model_validate_json(message.get("body", b""))
    except ValidationError:
        return False
    app = scope["app"]
    service: GameService = app.state.service
    try:
        live = await service.perform(game_id, "move", body.token, body.move, lag=body.lag)
        payload = live.state_json(now_ms()).encode()
    except Exception as exc:
        handler = _handler(app, exc)
        if handler is None:
            raise
        response = await handler(Request(scope, receive), exc)
        await response(scope, receive, _with(send, headers) if headers else send)
        return True
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(payload)).encode()),
                            (b"content-type", b"application/json"), *headers]})
    await send({"type": "http.response.body", "body": payload})
    return True


def _with(send: Send, headers: tuple[tuple[bytes, bytes], ...]) -> Send:
    """``send`` adding ``headers`` to the answer's head where it has none of that name."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            own = list(message.get("headers", ()))
            present = {name.lower() for name, _ in own}
            message = {**message, "headers": own + [h for h in headers if h[0] not in present]}
        await send(message)

    return sending


def move_of(scope: Scope) -> str | None:
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


def replaying(first: Message, receive: Receive) -> Receive:
    """``receive`` giving ``first`` (already received) first."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return first
        return await receive()

    return replay
