"""Retake the README's phone screenshots (docs/img/lobby-phone.png, docs/img/analysis-phone.png;
issue 37's done-when): ``randomchess serve`` on a free port with a fresh SQLite file, three
accounts posting seeks, then a 390x844 phone (touch, device pixel ratio 2) showing the lobby
and the analysis board with a Chess960 game loaded from a PGN.

    python build_support/readme_shots.py [--out docs/img]

Needs Playwright and Debian's chromium (``/usr/bin/chromium``, as the browser tests) and the
built web bundle (``make web``).  Look at the pictures before committing them.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("RANDOMCHESS_CHROMIUM", "/usr/bin/chromium")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "has_touch": True, "is_mobile": True}
PASSWORD = "a long enough password"
# (account, variant, minutes, increment, days per move or None)
SEEKS = [("alice", "chess960", 5, 3, None), ("carmen", "mrc", 10, 5, None),
         ("dmitri", "chess960", 0, 0, 3)]
PGN = """[Event "Casual game"]
[White "Ana"]
[Black "Ben"]
[Result "*"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. c4 c5 2. Nd3 Nd6 3. b3 b6 *
"""


@contextmanager
def server(tmp: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"),
           "RANDOMCHESS_CREATE_BURST": "1000", "RANDOMCHESS_CREATE_PER_MINUTE": "6000"}
    with open(tmp / "server.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "randomchess", "serve", "--port", str(port),
             "--db", f"sqlite:///{tmp / 'games.sqlite3'}"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/api/health", timeout=1):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start:\n"
                                         + (tmp / "server.log").read_text()) from None
                    time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            proc.wait(10)


def sign_up(page: Page, name: str) -> None:
    page.goto("/#/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", PASSWORD)
    page.fill("[data-testid=password-again]", PASSWORD)
    page.click("[data-testid=signup]")
    expect(page.locator("[data-testid=logged-in]")).to_contain_text(name)


def post_seeks(browser: Browser, url: str) -> None:
    for name, variant, minutes, increment, days in SEEKS:
        ctx = browser.new_context(base_url=url)
        page = ctx.new_page()
        sign_up(page, name)
        page.goto("/#/lobby")
        page.select_option("[data-testid=seek-variant]", variant)
        if days is not None:
            page.select_option("[data-testid=seek-days]", str(days))
        else:
            page.fill("[data-testid=seek-minutes]", str(minutes))
            page.fill("[data-testid=seek-increment]", str(increment))
        page.click("[data-testid=seek-post]")
        expect(page.locator("[data-testid=seek]", has_text=name)).to_have_count(1)
        ctx.close()  # the seek stays open (it belongs to the account, not the page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp)) as url, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        post_seeks(browser, url)
        ctx = browser.new_context(base_url=url, **PHONE)  # type: ignore[arg-type]
        page = ctx.new_page()
        sign_up(page, "reader")
        page.goto("/#/lobby")
        expect(page.locator("[data-testid=seek]")).to_have_count(len(SEEKS))
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(out / "lobby-phone.png"), full_page=True)
        page.goto("/#/analysis")
        page.fill("[data-testid=paste]", PGN)
        page.click("[data-testid=load]")
        expect(page.locator("[data-testid=analysis-board] cg-board piece")).to_have_count(32)
        expect(page.locator("body")).to_contain_text("Nd6")
        page.get_by_text("b6", exact=True).last.tap()  # the game's last position
        expect(page.locator("[data-testid=analysis-board] cg-board piece")).to_have_count(32)
        page.wait_for_function("() => !!document.querySelector("
                               "'[data-testid=analysis-board] square.last-move')")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "analysis-phone.png"), full_page=True)
        browser.close()
    print(f"wrote {out / 'lobby-phone.png'} and {out / 'analysis-phone.png'}")


if __name__ == "__main__":
    main()
