"""The promotion picker on the promotion square (issue 37), in a real browser: a column of the
promotable pieces laid over the board from the promotion square towards the centre, as
lichess shows it (not a centred dialog), on 8x8 and 9x9 (MRC: with the Minister), seen from
White's and from Black's side, with the mouse on a desktop and with taps on a phone; the
letters and names in Spanish; Escape, a click or a tap outside cancels and makes no move.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_support import (
    SIZES,
    SLOW,
    BrowserSession,
    board_attr,
    click_square,
    drag,
    launched_browser,
    moves_text,
    new_game,
    running_server,
    shot,
    skip_without_browser,
    square_point,
    tap_square,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

PHONE: dict[str, Any] = {"viewport": SIZES["phone"], "has_touch": True, "is_mobile": True}

# (variant, FEN, pawn's square, promotion square, the picker's letters top to bottom of the
# column as it is laid out from the promotion square)
WHITE_8 = ("chess960", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7", "a8", "qrbn")
BLACK_8 = ("chess960", "4k3/8/8/8/8/8/6p1/4K3 b - - 0 1", "g2", "g1", "qrbn")
WHITE_9 = ("mrc", "4k4/8P/9/9/9/9/9/9/4K4 w - - 0 1", "i8", "i9", "qmrbn")
BLACK_9 = ("mrc", "4k4/9/9/9/9/9/9/1p7/4K4 b - - 0 1", "b2", "b1", "qmrbn")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("promo"))) as url:
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


def column(square: str, n: int, height: int) -> list[str]:
    """The squares the picker covers: from the promotion square towards the centre."""
    rank = int(square[1:])
    # The last rank's square: towards rank 1 whichever side is at the bottom; the first's up.
    step = -1 if rank == height else 1
    return [f"{square[0]}{rank + i * step}" for i in range(n)]


def start(page: Page, case: tuple[str, str, str, str, str], *, flip: bool) -> None:
    variant, fen, *_ = case
    new_game(page, variant, "hotseat", fen=fen)
    if flip:
        page.click("[data-testid=flip]")
        page.wait_for_selector("[data-testid=board].orientation-black")


def assert_on_the_board(page: Page, case: tuple[str, str, str, str, str],
                        white_bottom: bool) -> None:
    """Each piece of the picker sits on its square of the column, in the variant's order."""
    _, fen, _, dest, letters = case
    height = len(fen.split()[0].split("/"))
    picker = page.locator("[data-testid=promotion-choice]")
    picker.wait_for()
    assert page.locator(".overlay .modal").count() == 0  # not the old centred dialog
    expect(picker.locator("button")).to_have_count(len(letters))
    for letter, square in zip(letters, column(dest, len(letters), height),
                              strict=True):
        box = picker.locator(f"[data-testid=promo-{letter}]").bounding_box()
        assert box is not None
        x, y = square_point(page, square)
        assert box["x"] < x < box["x"] + box["width"], (letter, square, box, x)
        assert box["y"] < y < box["y"] + box["height"], (letter, square, box, y)
    # The whole column is inside the window.
    view = page.viewport_size
    assert view is not None
    for b in picker.locator("button").all():
        box = b.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 0.5
        assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"] + 0.5


@pytest.mark.parametrize(("case", "flip", "pick"), [
    (WHITE_8, False, "n"),  # white promotes from White's side: down from the top edge
    (BLACK_8, True, "r"),  # black promotes from Black's side: down from the top edge
    (WHITE_9, True, "m"),  # 9x9 seen from Black's side: up from the bottom edge
    (BLACK_9, False, "m"),  # black's Minister from White's side: up from the bottom edge
], ids=["8x8-white", "8x8-black-flipped", "9x9-white-flipped", "9x9-black"])
def test_picker_on_the_square_with_the_mouse(session: BrowserSession, case: Any, flip: bool,
                                             pick: str) -> None:
    page = session.page()
    start(page, case, flip=flip)
    _, _, orig, dest, _ = case
    drag(page, orig, dest)
    assert_on_the_board(page, case, white_bottom=not flip)
    shot(page, f"promotion-picker-desktop-{case[0]}-{dest}{'-flipped' if flip else ''}")
    page.click(f"[data-testid=promo-{pick}]")
    wait_ply(page, 1)
    expect(page.locator("[data-testid=promotion-choice]")).to_have_count(0)
    assert f"{dest}={pick.upper()}" in moves_text(page)


@pytest.mark.parametrize(("case", "flip", "pick"), [
    (WHITE_8, False, "q"),
    (BLACK_8, True, "b"),
    (WHITE_9, False, "m"),
    (BLACK_9, True, "n"),
], ids=["8x8-white", "8x8-black-flipped", "9x9-white", "9x9-black-flipped"])
def test_picker_on_the_square_with_taps_on_a_phone(session: BrowserSession, case: Any,
                                                   flip: bool, pick: str) -> None:
    page = session.page(**PHONE)
    start(page, case, flip=flip)
    _, _, orig, dest, _ = case
    tap_square(page, orig)
    tap_square(page, dest)
    assert_on_the_board(page, case, white_bottom=not flip)
    shot(page, f"promotion-picker-phone-{case[0]}-{dest}{'-flipped' if flip else ''}")
    page.locator(f"[data-testid=promo-{pick}]").tap()
    wait_ply(page, 1)
    assert f"{dest}={pick.upper()}" in moves_text(page)
    # No page wider than the phone while or after picking.
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]


def assert_cancelled(page: Page, orig: str, dest: str, pawn: str) -> None:
    expect(page.locator("[data-testid=promotion-choice]")).to_have_count(0)
    pieces = "window.rcGame.ground.state.boardState.pieces"
    page.wait_for_function(f"{pieces}.get('{orig}')?.role === 'p-piece'", timeout=SLOW)
    assert page.evaluate(f"{pieces}.get('{dest}')") is None
    assert page.evaluate("window.rcGame.state.moves.length") == 0
    assert moves_text(page).strip() == ""
    assert pawn in board_attr(page, "fen")


def test_escape_or_a_click_outside_cancels(session: BrowserSession) -> None:
    page = session.page()
    start(page, WHITE_9, flip=False)
    drag(page, "i8", "i9")
    page.locator("[data-testid=promotion-choice]").wait_for()
    page.keyboard.press("Escape")
    assert_cancelled(page, "i8", "i9", "8P")
    # A click on another square of the board cancels too…
    drag(page, "i8", "i9")
    page.locator("[data-testid=promotion-choice]").wait_for()
    click_square(page, "a1")
    assert_cancelled(page, "i8", "i9", "8P")
    # …and so does a click beside the board; the pawn can still promote afterwards.
    drag(page, "i8", "i9")
    page.locator("[data-testid=promotion-choice]").wait_for()
    page.mouse.click(1190, 850)
    assert_cancelled(page, "i8", "i9", "8P")
    drag(page, "i8", "i9")
    page.click("[data-testid=promo-q]")
    wait_ply(page, 1)
    assert "i9=Q" in moves_text(page)


def test_a_tap_outside_cancels_on_a_phone(session: BrowserSession) -> None:
    page = session.page(**PHONE)
    start(page, BLACK_8, flip=False)
    tap_square(page, "g2")
    tap_square(page, "g1")
    page.locator("[data-testid=promotion-choice]").wait_for()
    tap_square(page, "c5")
    assert_cancelled(page, "g2", "g1", "6p1")


def test_spanish_letters_and_names(session: BrowserSession) -> None:
    page = session.page("es")
    start(page, WHITE_9, flip=False)
    drag(page, "i8", "i9")
    picker = page.locator("[data-testid=promotion-choice]")
    picker.wait_for()
    assert picker.get_attribute("aria-label") == "Coronar en"
    titles = [b.get_attribute("title") for b in picker.locator("button").all()]
    assert titles == ["Dama (D)", "Ministro (M)", "Torre (T)", "Alfil (A)", "Caballo (C)"]
    letters = [b.text_content() for b in picker.locator("button .letter").all()]
    assert letters == ["D", "M", "T", "A", "C"]
    shot(page, "promotion-picker-es")
    page.click("[data-testid=promo-r]")
    wait_ply(page, 1)
    assert "i9=T" in moves_text(page)
