"""The front end's files, served compressed and cached by content.

Every file is read once (again when its size or modification time changes), hashed
(SHA-256) and kept with its gzip and, when the ``brotli`` module is installed, brotli
encodings for text types.  The answer carries ``ETag`` (the hash) and honours
``If-None-Match`` with 304.  ``index.html`` is served with its references to ``/build/...``
rewritten to ``/build/<file>?v=<hash>``: a request naming the current hash is cached for a
year (``immutable``), anything else (the page itself, an old or missing ``v``) is
``no-cache``, revalidated by ETag.  A new build changes the hashes, so a browser never runs
a stale bundle with a fresh page.  Unknown paths outside ``/api`` and ``/ws`` answer the
page, so the single-page app owns its URLs (``/games/abc``).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from randomchess.server.http.errors import error_body, lang_of_scope

try:  # optional: brotli is a dependency, but gzip alone serves every browser
    import brotli as _brotli  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError:  # pragma: no cover
    _brotli = None

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml",
                 "application/xml")
_MIN_COMPRESS = 256  # bytes: smaller files are sent as they are
_BUILD_REF = re.compile(r'((?:src|href)=")(/build/[^"?#]+)(")')
_ETAG_LIST = re.compile(r'(?:W/)?"([^"]*)"')


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str
    digest: str  # hex SHA-256 of the identity body
    encoded: dict[str, bytes]  # "br" / "gzip" -> body
    stamp: tuple[int, ...]  # (size, mtime_ns) of the file read (and of the bundle's)

    @property
    def version(self) -> str:
        return self.digest[:16]

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


def _media_type(path: Path) -> str:
    if path.suffix in (".js", ".mjs"):
        return "application/javascript"
    if path.suffix == ".map":
        return "application/json"
    guess = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return f"{guess}; charset=utf-8" if guess.startswith("text/") else guess


def _encode(body: bytes, media_type: str) -> dict[str, bytes]:
    if len(body) < _MIN_COMPRESS or not media_type.startswith(_COMPRESSIBLE):
        return {}
    out = {"gzip": gzip.compress(body, compresslevel=9, mtime=0)}
    if _brotli is not None:
        out["br"] = _brotli.compress(body, quality=11)
    return {k: v for k, v in out.items() if len(v) < len(body)}


class FrontEndAssets:
    """An ASGI app serving ``root`` (the built front end) as described above."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._cache: dict[Path, Asset] = {}

    # ----------------------------------------------------------------- files
    def _file(self, rel: str) -> Path | None:
        if "\x00" in rel or "\\" in rel:
            return None
        try:
            path = (self.root / rel.lstrip("/")).resolve()
        except (OSError, ValueError):
            return None
        if not path.is_relative_to(self.root) or not path.is_file():
            return None
        return path

    def asset(self, path: Path) -> Asset:
        st = path.stat()
        stamp: tuple[int, ...] = (st.st_size, st.st_mtime_ns)
        if path.name == "index.html":  # its text names the bundle's hashes
            stamp += self._build_stamp()
        cached = self._cache.get(path)
        if cached is not None and cached.stamp == stamp:
            return cached
        body = path.read_bytes()
        media = _media_type(path)
        if path.name == "index.html":
            body = self._versioned_page(body)
        asset = Asset(body, media, hashlib.sha256(body).hexdigest(), _encode(body, media),
                      stamp)
        self._cache[path] = asset
        return asset

    def _build_stamp(self) -> tuple[int, ...]:
        build = self.root / "build"
        out: list[int] = []
        if build.is_dir():
            for entry in sorted(os.scandir(build), key=lambda e: e.name):
                st = entry.stat()
                out += [st.st_size, st.st_mtime_ns]
        return tuple(out)

    def _versioned_page(self, page: bytes) -> bytes:
        def ref(m: re.Match[str]) -> str:
            target = self._file(m.group(2))
            if target is None:
                return m.group(0)
            return f"{m.group(1)}{m.group(2)}?v={self.asset(target).version}{m.group(3)}"

        return _BUILD_REF.sub(ref, page.decode("utf-8")).encode("utf-8")

    def index(self) -> Asset | None:
        page = self._file("index.html")
        return None if page is None else self.asset(page)

    # ----------------------------------------------------------------- answers
    def response(self, asset: Asset, headers: Headers, immutable: bool,
                 head: bool = False) -> Response:
        out = {"ETag": asset.etag, "Cache-Control": IMMUTABLE if immutable else REVALIDATE,
               "Vary": "Accept-Encoding"}
        wanted = {m.group(1) for m in _ETAG_LIST.finditer(headers.get("if-none-match", ""))}
        if asset.version in wanted or headers.get("if-none-match", "").strip() == "*":
            return Response(status_code=304, headers=out)
        body = asset.body
        accepted = _accepted_encodings(headers.get("accept-encoding", ""))
        for coding in ("br", "gzip"):
            if coding in asset.encoded and coding in accepted:
                body = asset.encoded[coding]
                out["Content-Encoding"] = coding
                break
        response = Response(b"" if head else body, media_type=asset.media_type, headers=out)
        if head:
            response.headers["content-length"] = str(len(body))
        return response

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # an unknown WebSocket path
            await send({"type": "websocket.close", "code": 4404})
            return
        method = scope["method"]
        path: str = scope["path"]
        headers = Headers(scope=scope)
        if method not in ("GET", "HEAD"):
            response: Response = JSONResponse(error_body("http.method_not_allowed",
                                                         lang_of_scope(scope)),
                                              status_code=405, headers={"Allow": "GET, HEAD"})
        elif path.startswith(("/api/", "/ws/")) or path in ("/api", "/ws"):
            response = JSONResponse(error_body("http.not_found", lang_of_scope(scope)),
                                    status_code=404)
        else:
            target = None if path.endswith("/") else self._file(path)
            if target is not None:
                asset = self.asset(target)
                query = scope.get("query_string", b"").decode("latin-1")
                immutable = f"v={asset.version}" in query.split("&")
                response = self.response(asset, headers, immutable, method == "HEAD")
            else:
                page = self.index()
                if page is None:
                    response = JSONResponse(error_body("http.not_found", lang_of_scope(scope)),
                                            status_code=404)
                else:
                    response = self.response(page, headers, False, method == "HEAD")
        await response(scope, receive, send)


def _accepted_encodings(header: str) -> set[str]:
    out = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            out.add(name.strip().lower())
    return out


def static_ready(static: Path | None) -> bool:
    """True when ``static`` holds a built front end: ``index.html`` and the bundle."""
    return static is not None and (static / "index.html").is_file() and \
        (static / "build" / "app.js").is_file()

