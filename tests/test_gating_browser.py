"""Gating on the board (PM-CRC, docs/rules.md D-31..D-36), in a real browser: after a move
from an unmoved home-rank square the picker over that square offers the queen from the hand
or none; castling offers the king's and the rook's square; Escape cancels and makes no move;
English and Spanish.  Screenshots go to ``test-artifacts/``."""

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
    moves_text,
    new_game,
    running_server,
    shot,
    skip_without_browser,
    square_point,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

PIECES = "window.rcGame.ground.state.boardState.pieces"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("gating"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def session(browser: Browser, server: str) -> Iterator[BrowserSession]:
    s = BrowserSession(browser, server, {"viewport": {"width": 1200, "height": 860}})
    yield s
    s.close()
    assert not s.errors, f"JavaScript errors: {s.errors}"


def role_on(page: Page, square: str) -> str | None:
    return page.evaluate(f"{PIECES}.get('{square}')?.role ?? null")  # type: ignore[no-any-return]


def over(page: Page, testid: str, square: str) -> None:
    """The picker's button ``testid`` sits on ``square``."""
    box = page.locator(f"[data-testid={testid}]").bounding_box()
    assert box is not None
    x, y = square_point(page, square)
    assert box["x"] < x < box["x"] + box["width"] and box["y"] < y < box["y"] + box["height"]


def test_gate_the_queen_by_mouse_then_move_without_a_gate(session: BrowserSession) -> None:
    page = session.page()
    new_game(page, "pmcrc", "hotseat", number=911)  # RNBMKBNR, the queen in hand
    hand = page.locator("[data-testid=hand-white]")
    assert hand.get_attribute("title") == "In hand: Queen"
    drag(page, "b1", "c3")
    picker = page.locator("[data-testid=gate-choice]")
    picker.wait_for()
    assert picker.get_attribute("aria-label") == "Bring in from the hand"
    expect(picker.locator("button")).to_have_count(2)  # the queen, or none
    over(page, "gate-q", "b1")
    over(page, "gate-none", "b2")
    shot(page, "gating-picker")
    page.click("[data-testid=gate-q]")
    wait_ply(page, 1)
    assert "Nc3/Q" in moves_text(page)
    page.wait_for_function(f"{PIECES}.get('b1')?.role === 'q-piece'", timeout=SLOW)
    assert role_on(page, "c3") == "n-piece"
    expect(hand).to_have_count(0)  # White's queen has entered, Black's still waits
    expect(page.locator("[data-testid=hand-black]")).to_have_count(1)
    # Black's knight leaves g8 without its queen: "none" makes the plain move.
    drag(page, "g8", "f6")
    page.locator("[data-testid=gate-choice]").wait_for()
    page.click("[data-testid=gate-none]")
    wait_ply(page, 2)
    assert "Nf6" in moves_text(page) and "Nf6/Q" not in moves_text(page)
    assert role_on(page, "g8") is None
    # White has gated: its next move from an unmoved square asks nothing.
    drag(page, "g1", "h3")
    wait_ply(page, 3)
    assert page.locator("[data-testid=gate-choice]").count() == 0
    assert page.evaluate("window.rcGame.state.moves") == ["b1c3q", "g8f6", "g1h3"]


def test_escape_cancels_and_spanish_names(session: BrowserSession) -> None:
    page = session.page("es")
    new_game(page, "pmcrc", "hotseat", number=911)
    drag(page, "d1", "e3")
    picker = page.locator("[data-testid=gate-choice]")
    picker.wait_for()
    assert picker.get_attribute("aria-label") == "Introducir desde la mano"
    assert page.locator("[data-testid=gate-q]").get_attribute("title") == "Dama en d1"
    assert page.locator("[data-testid=gate-q] .letter").text_content() == "D"
    page.keyboard.press("Escape")
    expect(picker).to_have_count(0)
    page.wait_for_function(f"{PIECES}.get('d1')?.role === 'm-piece'", timeout=SLOW)
    assert page.evaluate("window.rcGame.state.moves.length") == 0
    drag(page, "d1", "e3")
    page.click("[data-testid=gate-q]")
    wait_ply(page, 1)
    assert "Me3/D" in moves_text(page)


def test_castling_gates_on_the_kings_or_the_rooks_square(session: BrowserSession) -> None:
    page = session.page()
    new_game(page, "pmcrc", "hotseat", fen="1k6/8/8/8/8/8/8/R3K2R[Qq] w KQ - 0 1")
    drag(page, "e1", "h1")  # the king dropped on its rook: O-Og
    picker = page.locator("[data-testid=gate-choice]")
    picker.wait_for()
    expect(picker.locator("button")).to_have_count(3)  # on e1, on h1, none
    page.click("[data-testid=gate-q-h1]")
    wait_ply(page, 1)
    assert "O-Og/Qh1" in moves_text(page)
    page.wait_for_function(f"{PIECES}.get('h1')?.role === 'q-piece'", timeout=SLOW)
    assert role_on(page, "g1") == "k-piece" and role_on(page, "f1") == "r-piece"
