"""The real front end under the server's Content-Security-Policy in chromium (issue 13,
Server 6): the home page, the shuffler and a game's board render with no CSP violation and
no console error; the bundle is served gzip-compressed and cached by its hash.  Needs
/usr/bin/chromium and the built bundle (make web); skipped, loudly, without them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from served_app_check import CHROMIUM, check_browser, check_http
from server_support import running_server

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / "src" / "randomchess" / "web" / "static" / "build" / "app.js"

try:
    import playwright  # noqa: F401
    _WHY_NOT = None if Path(CHROMIUM).exists() else f"{CHROMIUM} not found"
except ImportError:  # pragma: no cover
    _WHY_NOT = "playwright is not installed"
if _WHY_NOT is None and not BUNDLE.exists():
    _WHY_NOT = "the web bundle is not built (make web)"
pytestmark = pytest.mark.skipif(_WHY_NOT is not None,
                                reason=f"*** CSP BROWSER TEST SKIPPED: {_WHY_NOT} ***")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("csp"),
                        RANDOMCHESS_ENGINE_MOVETIME_MS="100") as url:
        yield url


def test_page_and_bundle_headers(server: str) -> None:
    assert check_http(server) == []


def test_front_end_has_no_csp_violation_in_chromium(server: str) -> None:
    assert check_browser(server) == []


def test_the_crosstable_export_keeps_its_style_under_the_csp(server: str) -> None:
    """Issue 30: the HTML crosstable opened from the server was drawn unstyled (the site's
    policy forbids inline style); it now carries a policy allowing its one sheet by hash."""
    import json
    import urllib.request

    from playwright.sync_api import sync_playwright

    req = urllib.request.Request(
        server + "/api/tournaments", method="POST",
        data=json.dumps({"name": "Styled Open", "rounds": 1}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        eid = json.loads(r.read())["id"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page()
            blocked: list[str] = []
            page.on("console", lambda m: blocked.append(m.text) if m.type == "error" else None)
            answer = page.goto(f"{server}/api/tournaments/{eid}/export.html?lang=es")
            assert answer is not None and answer.ok
            assert "style-src 'sha256-" in answer.headers["content-security-policy"]
            style = page.eval_on_selector("table", "t => getComputedStyle(t).borderCollapse")
            font = page.eval_on_selector("body", "b => getComputedStyle(b).fontFamily")
            assert (style, font) == ("collapse", "sans-serif")
            assert blocked == []
        finally:
            browser.close()
