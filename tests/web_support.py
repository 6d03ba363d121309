"""Shared helpers of the browser tests (tests/test_web_*.py): the real server on a free port,
Debian's chromium through Playwright, and pointer helpers that hit any point of a square."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

# The browser tests' server is the one the server tests start (re-exported for them).
from server_support import running_server as running_server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path(os.environ.get("RANDOMCHESS_CHROMIUM", "/usr/bin/chromium"))
BUNDLE = ROOT / "src" / "randomchess" / "web" / "static" / "build" / "app.js"
ARTIFACTS = ROOT / "test-artifacts"

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None  # type: ignore[assignment]

WHY_NOT = (
    "playwright is not installed (pip install -e '.[dev]')" if sync_playwright is None
    else f"{CHROMIUM} not found (apt-get install -y chromium)" if not CHROMIUM.exists()
    else f"the web bundle {BUNDLE.relative_to(ROOT)} is not built (make web)"
    if not BUNDLE.exists() else None
)
skip_without_browser = pytest.mark.skipif(
    WHY_NOT is not None, reason=f"*** BROWSER TESTS SKIPPED: {WHY_NOT} ***")
if WHY_NOT is not None:  # loud even without -ra
    print(f"\n*** BROWSER TESTS SKIPPED: {WHY_NOT} ***", file=sys.stderr)

# Generous: the machine running the suite may be busy.
SLOW = 30_000




# The window sizes the layout tests try (issue 37): a laptop, a small window, a tablet and a
# phone (with touch).
SIZES = {
    "desktop": {"width": 1366, "height": 768},
    "small": {"width": 900, "height": 700},
    "tablet": {"width": 1180, "height": 820},
    "phone": {"width": 390, "height": 844},
}


def sized_page(browser: Browser, server: str, size: str, lang: str) -> Page:
    """A page of a fresh context at one of :data:`SIZES` (the phone with touch), the
    interface in ``lang``."""
    phone = size == "phone"
    ctx = browser.new_context(base_url=server, viewport=SIZES[size], has_touch=phone,
                              is_mobile=phone, device_scale_factor=1)
    ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    return ctx.new_page()


@contextmanager
def launched_browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(exist_ok=True)
    assert sync_playwright is not None
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                  "--autoplay-policy=no-user-gesture-required"],
        )
        try:
            yield b
        finally:
            b.close()


def shot(page: Page, name: str) -> None:
    # Until the board's move animations are over (chessground marks moving pieces).
    page.wait_for_function("!document.querySelector('cg-board piece.anim, cg-board .fading')")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def board_attr(page: Page, name: str, board: str = "[data-testid=board]") -> str:
    return str(page.get_attribute(board, f"data-{name}"))


def wait_board(page: Page) -> None:
    """Until the game page shows the server's position on a laid-out board."""
    page.wait_for_function(
        "(() => { const b = document.querySelector('[data-testid=board]');"
        " const g = b && b.querySelector('cg-board');"
        " return b && b.dataset.fen && g && g.getBoundingClientRect().width > 0; })()",
        timeout=SLOW,
    )


def wait_ply(page: Page, ply: int, timeout: float = SLOW) -> None:
    page.wait_for_function(
        f"document.querySelector('[data-testid=board]')?.dataset.ply === '{ply}'",
        timeout=timeout,
    )


def square_point(page: Page, square: str, fx: float = 0.5, fy: float = 0.5,
                 board: str = "[data-testid=board]") -> tuple[float, float]:
    """The page point at fraction (fx, fy) of ``square`` (0,0 = its top-left corner on the
    screen), measured from the real position now of ``board`` (the game page's, or another
    board element with ``data-fen``, e.g. the analysis board's)."""
    box = page.locator(f"{board} cg-board").bounding_box()
    assert box is not None
    fen = board_attr(page, "fen", board)
    rows = fen.split()[0].split("/")
    height = len(rows)
    width = 0
    for part in re.findall(r"\d+|[^\d]", rows[0]):
        width += int(part) if part.isdigit() else 1
    white = "orientation-white" in (page.get_attribute(board, "class") or "")
    f, r = ord(square[0]) - ord("a"), int(square[1:]) - 1
    col, row = (f, height - 1 - r) if white else (width - 1 - f, r)
    cw, ch = box["width"] / width, box["height"] / height
    return box["x"] + (col + fx) * cw, box["y"] + (row + fy) * ch


def drag(page: Page, orig: str, dest: str, at0: tuple[float, float] = (0.5, 0.5),
         at1: tuple[float, float] = (0.5, 0.5), board: str = "[data-testid=board]") -> None:
    x0, y0 = square_point(page, orig, *at0, board=board)
    x1, y1 = square_point(page, dest, *at1, board=board)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=5)
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()


def click_square(page: Page, square: str, fx: float = 0.5, fy: float = 0.5) -> None:
    x, y = square_point(page, square, fx, fy)
    page.mouse.click(x, y)


def tap_square(page: Page, square: str, fx: float = 0.5, fy: float = 0.5) -> None:
    x, y = square_point(page, square, fx, fy)
    page.touchscreen.tap(x, y)


def new_game(page: Page, variant: str, opponent: str, *, color: str = "white",
             number: int | None = None, fen: str | None = None, level: int | None = None,
             minutes: float = 0, increment: float = 0) -> Any:
    """Fill the home form and start; returns the preview's (number, rank) and waits for the
    game page's first state."""
    page.goto("/")
    page.select_option("[data-testid=variant]", variant)
    if number is not None:
        page.check("input[name=setup][value=number]")
        page.fill("[data-testid=setup-number]", str(number))
    if fen is not None:
        page.check("input[name=setup][value=fen]")
        page.fill("[data-testid=setup-fen]", fen)
    page.check(f"input[name=opponent][value={opponent}]")
    if level is not None:
        page.fill("input[name=level]", str(level))
    if opponent != "hotseat":
        page.check(f"input[name=color][value={color}]")
    page.fill("input[name=minutes]", str(minutes))
    page.fill("input[name=increment]", str(increment))
    preview = (page.text_content("[data-testid=preview-number]")
               if page.locator("[data-testid=preview-number]").count() else None,
               page.text_content("[data-testid=preview-rank]")
               if page.locator("[data-testid=preview-rank]").count() else None)
    page.click("[data-testid=start]")
    page.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
    wait_board(page)
    return preview


def moves_text(page: Page) -> str:
    return page.text_content("[data-testid=moves]") or ""


def game_state(page: Page) -> Any:
    return page.evaluate("window.rcGame && window.rcGame.state")


class BrowserSession:
    """Browser contexts and their pages for one test; every page's JavaScript errors and
    console lines are kept, so a test can fail on any of them.  ``desktop``: the context
    options used unless a page asks for others (a phone's, say)."""

    def __init__(self, browser: Browser, server: str, desktop: dict[str, Any]) -> None:
        self.browser, self.server, self.desktop = browser, server, desktop
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.console: list[str] = []

    def page(self, lang: str = "en", **options: Any) -> Page:
        # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids
        # (the page under its CSP is tests/test_server_csp.py's).
        ctx = self.browser.new_context(base_url=self.server, bypass_csp=True,
                                       **{**self.desktop, **options})
        ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
        self.contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(SLOW)
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        pg.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        return pg

    def close(self) -> None:
        for c in self.contexts:
            c.close()
