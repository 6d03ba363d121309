"""Does a running server's web app work in a real browser under its Content-Security-Policy?

Used by tests/test_server_csp.py and by CI on the server installed from the built wheel
(``.ci/run``): ``python tests/served_app_check.py http://127.0.0.1:PORT``.  It checks that the
page is served with its CSP, the bundle compressed and cached by hash, then opens the home
page, the shuffler and a game in headless chromium (Playwright), waits for the board's
pieces, and fails on any CSP violation, page error or console error.
"""

from __future__ import annotations

import json
import os
import re
import sys
import urllib.request
from typing import Any

CHROMIUM = os.environ.get("RANDOMCHESS_CHROMIUM", "/usr/bin/chromium")

# Collects securitypolicyviolation events from the first script on the page onwards.
_WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));
"""


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()


def check_http(base: str) -> list[str]:
    """The page and its bundle over plain HTTP: headers, hashing, compression."""
    problems = []
    status, headers, body = _get(base + "/")
    page = body.decode()
    if status != 200 or 'id="app"' not in page:
        problems.append(f"/ answered {status} without the app's page")
    if "frame-ancestors 'none'" not in headers.get("content-security-policy", ""):
        problems.append("/ has no Content-Security-Policy with frame-ancestors")
    m = re.search(r'src="(/build/app\.js\?v=[0-9a-f]+)"', page)
    if m is None:
        problems.append("the page does not name the bundle by its hash")
        return problems
    status, headers, body = _get(base + m.group(1), {"Accept-Encoding": "gzip"})
    if headers.get("content-encoding") != "gzip":
        problems.append("the bundle is not served gzip-compressed")
    if "immutable" not in headers.get("cache-control", ""):
        problems.append("the hashed bundle is not cached as immutable")
    import gzip

    if b"cg-board" not in gzip.decompress(body):
        problems.append("the bundle does not hold the board code (cg-board)")
    return problems


def _hotseat_game(base: str) -> tuple[str, str]:
    req = urllib.request.Request(
        base + "/api/games", method="POST",
        data=json.dumps({"variant": "mrc", "opponent": "hotseat"}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out["id"], out["seat"]["token"]


def check_browser(base: str, screenshot: str | None = None) -> list[str]:
    """The home page, the shuffler and a game's board in chromium, with no CSP violation."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    gid, _ = _hotseat_game(base)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-dev-shm-usage",
                                          "--disable-gpu"])
        try:
            ctx = browser.new_context(base_url=base, viewport={"width": 1200, "height": 860})
            ctx.add_init_script(_WATCH_CSP)
            page = ctx.new_page()
            console: list[str] = []
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}")
                    if m.type == "error" or "Content Security Policy" in m.text else None)
            page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
            for route, ready in (("/", "#app main"), ("/#/shuffler", "#app main"),
                                 (f"/#/game/{gid}", "cg-board piece")):
                page.goto(route)
                try:
                    page.wait_for_selector(ready, timeout=15_000)
                except Exception as e:
                    problems.append(f"{route}: {ready!r} never appeared ({e})")
                    continue
                if ready == "cg-board piece":  # (no wait_for_function: CSP forbids eval)
                    pieces = page.locator("cg-board piece")
                    for _ in range(150):
                        if pieces.count() == 36:  # MRC: 18 pieces a side
                            break
                        page.wait_for_timeout(100)
                    else:
                        problems.append(f"{route}: {pieces.count()} pieces, not 36")
                    if screenshot:
                        page.screenshot(path=screenshot)
                page.wait_for_timeout(300)  # let late style or script loads report
                problems += [f"{route}: CSP {v}" for v in page.evaluate("window.__csp")]
            problems += console
        finally:
            browser.close()
    return problems


def main() -> int:
    base = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    problems = check_http(base) + check_browser(base, os.environ.get("SCREENSHOT"))
    for problem in problems:
        print("PROBLEM:", problem, file=sys.stderr)
    if not problems:
        print(f"ok: {base} serves the app; the board renders in chromium with no CSP "
              "violation")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
