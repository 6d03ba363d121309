"""The web front end in a real browser (issue 7): Playwright drives Debian's chromium against
a server started here (``randomchess serve`` on a free port, SQLite in a temporary folder).

The scenarios are the issue's: an MRC game against the computer with a dragged move, castling
by king onto rook where the king moves one square (Chess960), a Bishop Adjustment, promotion to
the Minister, a friend game in two browser contexts with a spectator, and Spanish letters.
Screenshots go to ``test-artifacts/``.  Without ``/usr/bin/chromium`` (``apt-get install -y
chromium``) or the built bundle (``make web``) every test here is skipped, and says so.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from randomchess.startpos import (
    SetupPool,
    commitment,
    draw_seeded,
    mrc_number,
    round_setups,
)

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path(os.environ.get("RANDOMCHESS_CHROMIUM", "/usr/bin/chromium"))
BUNDLE = ROOT / "src" / "randomchess" / "web" / "static" / "build" / "app.js"
ARTIFACTS = ROOT / "test-artifacts"

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None

_WHY_NOT = (
    "playwright is not installed (pip install -e '.[dev]')" if sync_playwright is None
    else f"{CHROMIUM} not found (apt-get install -y chromium)" if not CHROMIUM.exists()
    else f"the web bundle {BUNDLE.relative_to(ROOT)} is not built (make web)"
    if not BUNDLE.exists() else None
)
pytestmark = pytest.mark.skipif(
    _WHY_NOT is not None, reason=f"*** BROWSER TESTS SKIPPED: {_WHY_NOT} ***"
)
if _WHY_NOT is not None:  # loud even without -ra
    print(f"\n*** BROWSER TESTS SKIPPED: {_WHY_NOT} ***", file=sys.stderr)


# ------------------------------------------------------------------------------ fixtures
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (``randomchess serve``) on a free port with a fresh SQLite file."""
    port = _free_port()
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    env = {**os.environ, "RANDOMCHESS_ENGINE_MOVETIME_MS": "200",
           "RANDOMCHESS_CREATE_BURST": "100", "RANDOMCHESS_CREATE_PER_MINUTE": "600"}
    log = open(db.with_suffix(".log"), "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "randomchess", "serve", "--port", str(port),
         "--db", f"sqlite:///{db}"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("the server did not start:\n" + db.with_suffix(".log").read_text())
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids (the
    # page under its CSP is tests/test_server_csp.py's).
    ctx = browser.new_context(base_url=server, viewport={"width": 1200, "height": 860},
                              bypass_csp=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


# ------------------------------------------------------------------------------ helpers
def shot(page: Page, name: str) -> None:
    page.wait_for_timeout(250)  # let the board's move animation finish
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def board_attr(page: Page, name: str) -> str:
    return str(page.get_attribute("[data-testid=board]", f"data-{name}"))


def wait_board(page: Page) -> None:
    """Until the game page shows the server's position on a laid-out board."""
    page.wait_for_function(
        "(() => { const b = document.querySelector('[data-testid=board]');"
        " const g = b && b.querySelector('cg-board');"
        " return b && b.dataset.fen && g && g.getBoundingClientRect().width > 0; })()"
    )


def wait_ply(page: Page, ply: int, timeout: float = 20_000) -> None:
    page.wait_for_function(
        f"document.querySelector('[data-testid=board]')?.dataset.ply === '{ply}'",
        timeout=timeout,
    )


def rank_of(fen: str, rank: int) -> str:
    rows = fen.split()[0].split("/")
    return rows[len(rows) - rank]


def square_center(page: Page, square: str) -> tuple[float, float]:
    box = page.locator("[data-testid=board] cg-board").bounding_box()
    assert box is not None
    fen = board_attr(page, "fen")
    size = len(fen.split()[0].split("/"))
    white = "orientation-white" in (page.get_attribute("[data-testid=board]", "class") or "")
    f, r = ord(square[0]) - ord("a"), int(square[1:]) - 1
    col, row = (f, size - 1 - r) if white else (size - 1 - f, r)
    cell = box["width"] / size
    return box["x"] + (col + 0.5) * cell, box["y"] + (row + 0.5) * cell


def drag(page: Page, orig: str, dest: str) -> None:
    x0, y0 = square_center(page, orig)
    x1, y1 = square_center(page, dest)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=5)
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()


def new_game(page: Page, variant: str, opponent: str, *, color: str = "white",
             number: int | None = None, fen: str | None = None, level: int | None = None) -> Any:
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
    preview = (page.text_content("[data-testid=preview-number]")
               if page.locator("[data-testid=preview-number]").count() else None,
               page.text_content("[data-testid=preview-rank]")
               if page.locator("[data-testid=preview-rank]").count() else None)
    page.click("[data-testid=start]")
    page.wait_for_url(re.compile(r"#/game/"))
    wait_board(page)
    return preview


def moves_text(page: Page) -> str:
    return page.text_content("[data-testid=moves]") or ""


# ------------------------------------------------------------------------------ scenarios
def test_mrc_game_against_the_computer_with_a_dragged_move(page: Page) -> None:
    number, rank = new_game(page, "mrc", "computer", color="white", level=1)
    assert number is not None and rank is not None and len(rank) == 9
    expect(page.locator("cg-board piece")).to_have_count(36)
    assert rank_of(board_attr(page, "fen"), 1) == rank  # the previewed setup is the one played
    shot(page, "mrc-computer-start")
    drag(page, "e2", "e4")
    wait_ply(page, 2)  # our move, then the computer's reply
    assert moves_text(page).strip().startswith("e4")
    shot(page, "mrc-computer-after-reply")


def test_chess960_castling_by_king_onto_rook_where_the_king_moves_one_square(
        page: Page) -> None:
    # King f1, h-side rook h1: O-O takes the king one square (to g1) and the rook to f1.
    fen = "rnbbqk1r/pppppppp/8/8/8/8/PPPPPPPP/RNBBQK1R w HAha - 0 1"
    new_game(page, "chess960", "hotseat", fen=fen)
    assert page.locator("[data-testid='castle-O-O']").is_enabled()
    drag(page, "f1", "h1")
    preview = page.locator("[data-testid=castle-preview]")
    preview.wait_for()
    assert "g1" in preview.text_content() and "f1" in preview.text_content()
    # The board shows where king and rook will land before the move is confirmed.
    # (expect retries: the board is redrawn for the preview after the drop)
    expect(page.locator("cg-board piece.k-piece.white")).to_have_count(1)
    shot(page, "chess960-castle-preview")
    page.click("[data-testid=confirm-yes]")
    wait_ply(page, 1)
    assert rank_of(board_attr(page, "fen"), 1) == "RNBBQRK1"
    assert "O-O" in moves_text(page)
    shot(page, "chess960-castled")


def test_mrc_bishop_adjustment_with_same_coloured_bishops(page: Page) -> None:
    number = mrc_number("RBKNQBNMR")  # both bishops light (RULES.md §4.10)
    _, rank = new_game(page, "mrc", "hotseat", number=number)
    assert rank == "RBKNQBNMR"
    expect(page.locator("[data-testid=adjust-controls] button")).to_have_count(4)
    drag(page, "f1", "e1")  # the bishop dropped on its neighbour, the queen
    dialog = page.locator("[data-testid=adjust-preview]")
    dialog.wait_for()
    assert "f1" in dialog.text_content() and "e1" in dialog.text_content()
    assert "once per game" in page.text_content(".modal")  # the rule is explained
    shot(page, "mrc-adjustment-confirm")
    page.click("[data-testid=confirm-yes]")
    wait_ply(page, 1)
    assert rank_of(board_attr(page, "fen"), 1) == "RBKNBQNMR"
    assert "B=Q" in moves_text(page)
    shot(page, "mrc-adjusted")


def test_promotion_to_the_minister(page: Page) -> None:
    new_game(page, "mrc", "hotseat", fen="4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1")
    drag(page, "a8", "a9")
    page.locator("[data-testid=promo-m]").wait_for()
    expect(page.locator("[data-testid^=promo-]")).to_have_count(5)  # Q M R B N
    shot(page, "promotion-chooser")
    page.click("[data-testid=promo-m]")
    wait_ply(page, 1)
    assert rank_of(board_attr(page, "fen"), 9).startswith("M")
    assert "a9=M" in moves_text(page)
    shot(page, "promoted-to-minister")


def test_friend_game_in_two_contexts_and_a_spectator(browser: Browser, server: str) -> None:
    contexts = [browser.new_context(base_url=server, viewport={"width": 1000, "height": 800},
                                    bypass_csp=True)
                for _ in range(3)]
    white, black, spectator = (c.new_page() for c in contexts)
    try:
        new_game(white, "chess960", "friend", color="white")
        invite = white.input_value("[data-testid=invite-url]")
        assert "/invite/" in invite
        game_id = re.search(r"#/game/([^/?]+)", white.url).group(1)  # type: ignore[union-attr]

        black.goto(invite)
        black.wait_for_url(re.compile(r"#/game/"))
        wait_board(black)
        assert "Black" in black.text_content("[data-testid=seat]")

        drag(white, "e2", "e4")
        wait_ply(black, 1)  # the move appears on the other side
        assert "e4" in moves_text(black)
        drag(black, "e7", "e5")
        wait_ply(white, 2)
        assert "e5" in moves_text(white)

        spectator.goto(f"/#/game/{game_id}")
        wait_board(spectator)
        wait_ply(spectator, 2)
        assert "watching" in spectator.text_content("[data-testid=seat]")
        fen = board_attr(spectator, "fen")
        drag(spectator, "d2", "d4")  # White to move, but a spectator has no seat
        spectator.wait_for_timeout(500)
        assert board_attr(spectator, "fen") == fen
        assert board_attr(white, "ply") == "2"
        shot(white, "friend-white")
        shot(black, "friend-black")
        shot(spectator, "friend-spectator")
    finally:
        for c in contexts:
            c.close()


def test_spanish_letters(page: Page) -> None:
    page.goto("/")
    page.select_option("[data-testid=lang]", "es")
    page.select_option("[data-testid=variant]", "chess")
    assert page.text_content("[data-testid=preview-rank]") == "TCADRACT"
    page.check("input[name=opponent][value=hotseat]")
    page.click("[data-testid=start]")
    wait_board(page)
    drag(page, "g1", "f3")
    wait_ply(page, 1)
    assert "Cf3" in moves_text(page)
    page.fill("[data-testid=san-input]", "Cc6")  # typed with Spanish letters
    page.press("[data-testid=san-input]", "Enter")
    wait_ply(page, 2)
    assert "Cc6" in moves_text(page)
    shot(page, "spanish")


def test_shuffler_page_agrees_with_startpos(page: Page) -> None:
    """Not one of the issue's scenarios: the browser's shuffler (web/src/setups.js) is an
    independent implementation of docs/shuffler.md and must give the same setups."""
    page.goto("/#/shuffler")
    page.select_option("[data-testid=sh-variant]", "mrc")
    page.fill("[data-testid=sh-count]", "3")
    page.fill("[data-testid=sh-seed]", "abc")
    page.click("[data-testid=sh-draw]")
    page.locator("[data-testid=card-number]").nth(2).wait_for()
    got = [int(t) for t in page.locator("[data-testid=card-number]").all_text_contents()]
    assert got == [s.number for s in draw_seeded(SetupPool("mrc"), "abc", 3)]

    salt = bytes(range(32))
    page.select_option("[data-testid=sh-variant]", "chess960")
    page.check("[data-testid=sh-exclude]")
    page.click("details.round summary")
    page.fill("[data-testid=sh-salt]", salt.hex())
    page.fill("[data-testid=sh-event]", "Open 2025")
    page.fill("[data-testid=sh-round]", "2")
    page.fill("[data-testid=sh-boards]", "3")
    page.check("[data-testid=sh-per-board]")
    page.click("[data-testid=sh-derive]")
    page.locator("[data-testid=card-number]").nth(2).wait_for()
    got = [int(t) for t in page.locator("[data-testid=card-number]").all_text_contents()]
    pool = SetupPool("chess960", "any", True)
    assert got == [s.number for s in round_setups(salt, "Open 2025", 2, 3, pool, True)]
    assert page.text_content("[data-testid=sh-commitment]") == commitment(salt, "Open 2025")
    shot(page, "shuffler")

