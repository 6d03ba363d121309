"""Security headers on every answer, and the front end served compressed with cache headers
keyed by content hash (issue 13, Server 6), on a small front end made here."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_support import client

BUNDLE = "export const board = 'cg-wrap';\n" + "// padding to make it compressible\n" * 200
PAGE = """<!doctype html><html><head><link rel="stylesheet" href="/build/app.css">
<script type="module" src="/build/app.js"></script></head><body><div id="app"></div></body>
</html>"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    static = tmp_path / "static"
    (static / "build").mkdir(parents=True)
    (static / "index.html").write_text(PAGE)
    (static / "build" / "app.js").write_text(BUNDLE)
    (static / "build" / "app.css").write_text("cg-board { color: red; }\n" * 50)
    (static / "pieces").mkdir()
    (static / "pieces" / "wK.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    return static


@pytest.fixture
def c(tmp_path: Path, site: Path) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}", static_dir=site) as c:
        yield c


def _version(text: str, name: str) -> str:
    m = re.search(rf'/build/{re.escape(name)}\?v=([0-9a-f]+)"', text)
    assert m, text
    return m.group(1)


@pytest.mark.parametrize("path", ["/", "/api/health", "/api/games/nope", "/games/abc",
                                  "/build/app.js"])
def test_security_headers_on_every_answer(c: TestClient, path: str) -> None:
    r = c.get(path)
    csp = r.headers["content-security-policy"]
    for directive in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'",
                      "object-src 'none'", "base-uri 'none'"):
        assert directive in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"


def test_the_page_names_the_bundle_by_its_hash(c: TestClient, site: Path) -> None:
    r = c.get("/", headers={"accept-encoding": "identity"})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    v = _version(r.text, "app.js")
    assert v == hashlib.sha256(BUNDLE.encode()).hexdigest()[:16]
    assert _version(r.text, "app.css")
    # A new build changes the hash the page names.
    (site / "build" / "app.js").write_text(BUNDLE + "// v2\n")
    os.utime(site / "build" / "app.js", ns=(1, 2))
    assert _version(c.get("/").text, "app.js") != v


def test_the_bundle_is_compressed_and_cached_by_hash(c: TestClient) -> None:
    v = _version(c.get("/").text, "app.js")
    r = c.get(f"/build/app.js?v={v}", headers={"accept-encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert r.headers["content-type"].startswith("application/javascript")
    assert r.headers["vary"] == "Accept-Encoding"
    assert int(r.headers["content-length"]) < len(BUNDLE) // 5
    assert r.text == BUNDLE  # httpx decodes gzip
    raw = c.get(f"/build/app.js?v={v}", headers={"accept-encoding": "br, gzip;q=0.5"})
    assert raw.headers["content-encoding"] == "br"
    assert raw.text == BUNDLE  # httpx decodes brotli (the brotli module is installed)
    plain = c.get(f"/build/app.js?v={v}", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == BUNDLE
    # Revalidation by ETag; an old or missing version is not cached for good.
    etag = r.headers["etag"]
    again = c.get("/build/app.js", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    stale = c.get("/build/app.js?v=0000000000000000")
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"


def test_unknown_paths_are_the_page_and_traversal_is_refused(c: TestClient) -> None:
    page = c.get("/games/abc")
    assert page.status_code == 200 and 'id="app"' in page.text
    for path in ("/%00", "/build/%00.js", "/../../etc/passwd", "/build/..%2F..%2Fpyproject.toml",
                 "/%2e%2e/%2e%2e/etc/passwd"):
        r = c.get(path)
        assert r.status_code == 200 and 'id="app"' in r.text, path  # the page, no file
    assert c.get("/api/nothing").status_code == 404
    assert c.post("/build/app.js").status_code == 405
    assert c.get("/pieces/wK.svg").headers["content-type"].startswith("image/svg+xml")
