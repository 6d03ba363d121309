"""The ASGI application: ``create_app`` wires settings, the game service, the routes, the
error format, the body-size guard and the front end's static files."""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from randomchess.db import DB_ERRORS
from randomchess.server.accounts.routes import install_accounts
from randomchess.server.engines.routes import router as analysis_router
from randomchess.server.games.commit import router as setup_draw_router
from randomchess.server.games.contract import ERROR_RESPONSES
from randomchess.server.games.explorer_routes import install_explorer
from randomchess.server.games.fast_moves import MoveFastPath, answer, move_of, replaying
from randomchess.server.games.play_routes import router as play_router
from randomchess.server.games.routes import router
from randomchess.server.games.service import GameService
from randomchess.server.games.setups_routes import router as setups_router
from randomchess.server.games.variants_routes import router as variants_router
from randomchess.server.http.assets import FrontEndAssets
from randomchess.server.http.errors import ApiError, error_body, lang_of_scope
from randomchess.server.http.guards import MAX_JSON_DEPTH, too_deep
from randomchess.server.http.settings import Settings
from randomchess.server.puzzles.routes import install_puzzles
from randomchess.server.tournaments.routes import install_tournaments

log = logging.getLogger("randomchess.server")

_NO_FRONT_END = """<!doctype html><meta charset="utf-8"><title>randomchess</title>
<h1>randomchess server</h1><p>The web front end is not installed.
The API is documented at <a href="/docs">/docs</a>.</p>"""


class RedactInvites(logging.Filter):
    """Keep invitation codes out of the access log (seat tokens never travel in URLs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) and \
                args[2].startswith("/invite/"):
            parts = args[2].split("/")
            record.args = (*args[:2], "/".join([*parts[:3], "..."]), *args[3:])
        return True


# The loop time by which a request's body must have been received whole (BodyLimit).
BODY_DEADLINE = "randomchess.body_deadline"


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, whether announced by
    Content-Length or streamed, and bodies not received whole within ``timeout_s`` seconds
    of the request's start with 408 and a closed connection (slow clients holding
    connections open: uvicorn's own timeouts cover only idle keep-alive connections)."""

    def __init__(self, app: ASGIApp, limit: int, timeout_s: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _too_large(scope, receive, send)
                    return
        # Bodies here are small: read the whole body first, so a streamed oversized body
        # is refused before the app sees a byte of it.
        body = bytearray()
        # From the request's start: the move route's door (App) may have waited already.
        deadline = scope.get(BODY_DEADLINE) or \
            asyncio.get_running_loop().time() + self.timeout_s
        try:
            async with asyncio.timeout_at(deadline):
                more = True
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        await self.app(scope, _replay(message), send)
                        return
                    body += message.get("body", b"")
                    more = message.get("more_body", False)
                    if len(body) > self.limit:
                        await _too_large(scope, receive, send)
                        return
        except TimeoutError:
            await JSONResponse(
                error_body("request.body_timeout", lang_of_scope(scope),
                           seconds=self.timeout_s),
                status_code=408, headers={"Connection": "close"})(scope, receive, send)
            return
        if too_deep(body):  # before the JSON parser recurses into it
            await JSONResponse(error_body("request.too_deep", lang_of_scope(scope),
                                          levels=MAX_JSON_DEPTH),
                               status_code=422)(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _replay(message: Message) -> Receive:
    async def receive() -> Message:
        return message

    return receive


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse(error_body("request.too_large", lang_of_scope(scope)),
                            status_code=413)
    await response(scope, receive, send)


# The page and its bundle load only from this origin: no inline script or style, no
# framing by another site.  WebSocket connections to the same origin are 'self' (CSP 3).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
# FastAPI's /docs and /redoc pages load Swagger UI / ReDoc from their CDN with inline script.
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
            "https://fonts.googleapis.com; "
            "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
            "font-src 'self' https://fonts.gstatic.com; worker-src 'self' blob:; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
_DOCS_PATHS = ("/docs", "/redoc")
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    # Invitation URLs hold the (single-use) code: never send them on as a Referer.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers without CSP 2
    (b"cross-origin-opener-policy", b"same-origin"),
)


def security_headers(hsts_seconds: int, docs: bool) -> tuple[tuple[bytes, bytes], ...]:
    """The security headers of an API answer (or, with ``docs``, of a docs page)."""
    # Strict-Transport-Security when the site is served over TLS (behind a proxy too)
    extra: tuple[tuple[bytes, bytes], ...] = () if not hsts_seconds else (
        (b"strict-transport-security", f"max-age={hsts_seconds}".encode()),)
    return (*SECURITY_HEADERS, *extra,
            (b"content-security-policy", (DOCS_CSP if docs else CSP).encode()))


class SecurityHeaders:
    """Add the security headers to every HTTP answer (docs/server.md, security)."""

    def __init__(self, app: ASGIApp, hsts_seconds: int = 0) -> None:
        self.app = app
        # Built once: the headers of an API answer and of a docs page.
        self.sets = {docs: security_headers(hsts_seconds, docs) for docs in (False, True)}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ours = self.sets[scope["path"].startswith(_DOCS_PATHS)]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [h for h in ours if h[0] not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _load_variants(path: Path) -> None:
    """Register the variants of ``path`` (settings.variants_file); on problems log each one
    and go on without them (the server starts with the built-in variants)."""
    import os

    from randomchess.variant_file import ENV_VARIABLE, VariantFileError, load_variant_file

    try:
        loaded = load_variant_file(path)
    except VariantFileError as exc:
        for problem in exc.problems:
            log.error("variants file refused: %s", problem)
        return
    os.environ[ENV_VARIABLE] = str(path)  # the spawned engine processes load it too
    log.info("variants from %s: %s", path, ", ".join(v.key for v in loaded))


class App(FastAPI):
    """The FastAPI app, with the move route's door (server/games/fast_moves.py) also in
    front of the middleware stack: a move is the request the server answers most, and the
    layers it went through before its door (Starlette's error middleware, the security
    headers' and the body limit's wrappers) showed in the profile (issue 36).  The door
    does their part itself: a body announced over the limit, not sent whole before the
    deadline, nested too deep or not a move goes on to the stack, which answers it as
    before (the body limit keeps the request's deadline).  Off (``move_door`` None) behind
    trusted proxies: their middleware must see the request first."""

    # (body limit, body timeout, the security headers of an API answer)
    move_door: tuple[int, float, tuple[tuple[bytes, bytes], ...]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        door = self.move_door
        game_id = move_of(scope) if door is not None else None
        if game_id is None or door is None:
            await super().__call__(scope, receive, send)
            return
        limit, timeout_s, headers = door
        lengths = [v for k, v in scope["headers"] if k == b"content-length"]
        if len(lengths) != 1 or not lengths[0].isdigit() or int(lengths[0]) > limit:
            await super().__call__(scope, receive, send)  # BodyLimit's 413, or a stream
            return
        deadline = scope[BODY_DEADLINE] = asyncio.get_running_loop().time() + timeout_s
        try:
            async with asyncio.timeout_at(deadline):
                message = await receive()
        except TimeoutError:  # BodyLimit answers it: its deadline has passed too
            await super().__call__(scope, receive, send)
            return
        if message["type"] == "http.request" and not too_deep(message.get("body", b"")):
            scope["app"] = self
            if await answer(game_id, message, scope, receive, send, headers):
                return
        await super().__call__(scope, replaying(message, receive), send)


def create_app(db_url: str | None = None, settings: Settings | None = None,
               **overrides: Any) -> FastAPI:
    """The server app.  ``db_url`` (SQLAlchemy URL) and ``overrides`` (any
    :class:`Settings` field) take precedence over ``RANDOMCHESS_*`` variables."""
    if settings is None:
        settings = Settings.from_env(db_url=db_url)
    if overrides:
        settings = settings.with_changes(**overrides)  # here None means None (no front end)
    if settings.variants_file is not None:
        _load_variants(settings.variants_file)
    service = GameService(settings)
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactInvites) for f in access.filters):
        access.addFilter(RedactInvites())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    app = App(title="randomchess", version=_version(), lifespan=lifespan,
              responses=ERROR_RESPONSES, **telemetry_off(),
              summary="Play Chess960 and Modern Random Chess against the computer "
                      "or a friend")
    app.state.service = service
    app.state.db = service.db  # the one bounded door to the database (http/deps.py)
    app.state.settings = settings
    static = settings.static_dir
    index = static / "index.html" if static is not None else None
    app.state.index_html = index if index is not None and index.is_file() else None

    install_error_handlers(app)
    app.include_router(router)
    app.include_router(variants_router)
    app.include_router(play_router)  # abort and rematch (issue 11)
    app.include_router(analysis_router)
    install_tournaments(app)  # routes, and online results recorded as games end
    app.include_router(setups_router)  # setup evaluations (issue 17)
    app.include_router(setup_draw_router)  # setups both players can verify (issue 32)
    install_explorer(app)  # the opening explorer, and its count of games as they end
    install_puzzles(app)  # puzzles (issue 33)
    install_accounts(app)
    mount_front_end(app, static)
    app.add_middleware(MoveFastPath)  # innermost: the hot route's own door (fast_moves.py)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes,
                       timeout_s=settings.body_timeout_s)
    app.add_middleware(SecurityHeaders, hsts_seconds=settings.hsts_seconds)
    if settings.forwarded_allow_ips:
        # The client address (rate limits) and scheme from X-Forwarded-For / -Proto, only
        # when the connection comes from one of these proxies (uvicorn's own middleware).
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
    else:
        app.move_door = (settings.max_body_bytes, settings.body_timeout_s,
                         security_headers(settings.hsts_seconds, docs=False))
    return app


def telemetry_off() -> dict[str, Any]:
    """FastAPI's own OpenTelemetry (FastAPI >= 0.16x) turned off unless the OpenTelemetry
    SDK is installed: only the SDK configures a provider, and without one FastAPI still asked
    the API's global providers (reading the environment) on every request, about 4 % of the
    server's CPU under load (docs/server.md, issue 36).  ``{}``: FastAPI's defaults."""
    if importlib.util.find_spec("fastapi.telemetry") is None or \
            importlib.util.find_spec("opentelemetry.sdk") is not None:
        return {}
    return {"telemetry": {"tracing": False, "metrics": False, "logs": False}}


# Every error body is the catalogue's (http/errors.py): code, detail in the request's
# language, detail_en and detail_es.
async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    headers = {"Retry-After": "1"} if exc.status == 503 else None
    return JSONResponse(dict(exc.body(lang_of_scope(request.scope))),
                        status_code=exc.status, headers=headers)


async def _database_down(request: Request, exc: Exception) -> JSONResponse:
    """A database failure that escaped the bounded door (http/deps.py) is still the
    catalogue's 503, never a plain-text 500."""
    log.warning("database error outside the bounded door: %s", exc)
    return JSONResponse(dict(error_body("db.down", lang_of_scope(request.scope))),
                        status_code=503, headers={"Retry-After": "1"})


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
        for e in exc.errors()
    ]
    # pydantic's messages are English; the Spanish text names the fields.
    reason = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
    fields = ", ".join(".".join(map(str, e["loc"])) for e in errors)
    body = error_body("request.invalid", lang_of_scope(request.scope),
                      reason=reason or "invalid request", fields=fields or "-")
    return JSONResponse({**body, "errors": errors}, status_code=422)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals: an unknown route (404), a wrong method (405)."""
    assert isinstance(exc, StarletteHTTPException)
    lang = lang_of_scope(request.scope)
    if exc.status_code == 404:
        body = error_body("http.not_found", lang)
    elif exc.status_code == 405:
        body = error_body("http.method_not_allowed", lang)
    else:
        body = error_body("http.error", lang, reason=str(exc.detail),
                          http_status=exc.status_code)
    return JSONResponse(dict(body), status_code=exc.status_code, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    for db_error in DB_ERRORS:
        app.add_exception_handler(db_error, _database_down)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)


def _version() -> str:
    try:
        return importlib.metadata.version("randomchess")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - not installed
        return "0+unknown"


def mount_front_end(app: FastAPI, static: Path | None) -> None:
    """Serve the front end from ``static`` at ``/`` when it holds an ``index.html``;
    otherwise ``/`` is a short page pointing at the API docs."""
    if static is not None and (static / "index.html").is_file():
        app.mount("/", FrontEndAssets(static), name="front-end")
        return

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home() -> str:
        return _NO_FRONT_END
