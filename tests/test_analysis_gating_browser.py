"""Gating on the analysis board (PM-CRC, docs/rules.md D-31..D-36), in a real browser
(Playwright with Debian's chromium): a drag from an unmoved home-rank square opens the game
page's picker over that square; the queen gates (``Nc3/Q`` in the tree, the queen on the
square left), "none" makes the plain move, Escape makes none; the pieces in hand are shown
above and below the board at the position shown.  English and Spanish.  Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_support import (
    SLOW,
    BrowserSession,
    drag,
    launched_browser,
    running_server,
    shot,
    skip_without_browser,
    square_point,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

BOARD = "[data-testid=analysis-board]"
PIECES = "window.rcAnalysis.ground.state.boardState.pieces"
TEXTS = {
    "en": {"label": "Bring in from the hand", "hand": "In hand: Queen", "gated": "Nc3/Q",
           "plain": "Nf6", "letter": "Q"},
    "es": {"label": "Introducir desde la mano", "hand": "En la mano: Dama", "gated": "Cc3/D",
           "plain": "Cf6", "letter": "D"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("analysis-gating"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def session(browser: Browser, server: str) -> Iterator[BrowserSession]:
    s = BrowserSession(browser, server, {"viewport": {"width": 1200, "height": 900}})
    yield s
    s.close()
    assert not s.errors, f"JavaScript errors: {s.errors}"


def play(page: Page, orig: str, dest: str) -> None:
    """Drag ``orig`` to ``dest`` on the analysis board, off the squares' centres."""
    drag(page, orig, dest, at0=(0.3, 0.7), at1=(0.65, 0.35), board=BOARD)


def wait_ply(page: Page, ply: int) -> None:
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.ply === '{ply}'",
                           timeout=SLOW)


def role_on(page: Page, square: str) -> str | None:
    return page.evaluate(f"{PIECES}.get('{square}')?.role ?? null")  # type: ignore[no-any-return]


def over(page: Page, testid: str, square: str) -> None:
    """The picker's button ``testid`` sits on ``square``."""
    box = page.locator(f"[data-testid={testid}]").bounding_box()
    assert box is not None
    x, y = square_point(page, square, board=BOARD)
    assert box["x"] < x < box["x"] + box["width"] and box["y"] < y < box["y"] + box["height"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_gate_the_queen_none_and_escape_on_the_analysis_board(session: BrowserSession,
                                                              lang: str) -> None:
    text = TEXTS[lang]
    page = session.page(lang)
    page.goto("/#/analysis?variant=pmcrc&setup=911")  # RNBMKBNR, the queen in hand
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.fen?.includes('[Qq]')"
                           " && window.rcAnalysis && window.rcAnalysis.info", timeout=SLOW)
    white = page.locator("[data-testid=hand-white]")
    black = page.locator("[data-testid=hand-black]")
    assert white.get_attribute("title") == text["hand"]
    assert white.locator(".letter").text_content() == text["letter"]
    # White at the bottom: White's hand below the board, Black's above it.
    expect(page.locator("[data-testid=analysis-hand-bottom]").locator(white)).to_have_count(1)
    expect(page.locator("[data-testid=analysis-hand-top]").locator(black)).to_have_count(1)
    tree = page.locator("[data-testid=tree]")
    picker = page.locator("[data-testid=gate-choice]")
    # Escape: no move, the minister back on d1.
    play(page, "d1", "e3")
    picker.wait_for()
    page.keyboard.press("Escape")
    expect(picker).to_have_count(0)
    page.wait_for_function(f"{PIECES}.get('d1')?.role === 'm-piece'", timeout=SLOW)
    assert page.evaluate("window.rcAnalysis.tree.children.length") == 0
    # The queen enters on b1 as the knight leaves it.
    play(page, "b1", "c3")
    picker.wait_for()
    assert picker.get_attribute("aria-label") == text["label"]
    expect(picker.locator("button")).to_have_count(2)  # the queen, or none
    over(page, "gate-q", "b1")
    over(page, "gate-none", "b2")
    shot(page, f"analysis-gating-picker-{lang}")
    page.click("[data-testid=gate-q]")
    wait_ply(page, 1)
    assert page.evaluate("window.rcAnalysis.current.uci") == "b1c3q"
    expect(tree).to_contain_text(text["gated"])
    page.wait_for_function(f"{PIECES}.get('b1')?.role === 'q-piece'", timeout=SLOW)
    assert role_on(page, "c3") == "n-piece"
    expect(white).to_have_count(0)  # White's queen is in, Black's still waits
    expect(black).to_have_count(1)
    # Black's knight leaves g8 without its queen: "none" makes the plain move.
    play(page, "g8", "f6")
    picker.wait_for()
    page.click("[data-testid=gate-none]")
    wait_ply(page, 2)
    assert page.evaluate("window.rcAnalysis.current.uci") == "g8f6"
    assert text["plain"] in tree.inner_text() and f"{text['plain']}/" not in tree.inner_text()
    assert role_on(page, "g8") is None
    expect(black).to_have_count(1)
    # Back to the start: both queens in hand again at the position shown.
    page.keyboard.press("ArrowUp")
    wait_ply(page, 0)
    expect(white).to_have_count(1)
    assert role_on(page, "b1") == "n-piece"
    shot(page, f"analysis-gating-start-{lang}")
