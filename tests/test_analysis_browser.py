"""The analysis board and the review chart in a real browser (Playwright with Debian's
chromium) against ``randomchess serve`` on a free port.  Screenshots go to test-artifacts/.
Skipped, loudly, without /usr/bin/chromium or the built bundle."""

from __future__ import annotations

import contextlib
import json
import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from web_support import ARTIFACTS, launched_browser, running_server, skip_without_browser

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("analysis-web")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids; the
    # page under the real CSP is test_analysis_page_under_the_servers_csp's.
    ctx = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900},
                              bypass_csp=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def _api(server: str, method: str, path: str, body: Any = None) -> Any:
    req = urllib.request.Request(
        server + path, method=method, headers={"Content-Type": "application/json"},
        data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def _ply(page: Page) -> str:
    return str(page.get_attribute("[data-testid=analysis-board]", "data-ply"))


def _wait_ply(page: Page, ply: int) -> None:
    page.wait_for_function(
        f"document.querySelector('[data-testid=analysis-board]')?.dataset.ply === '{ply}'")


def _square_center(page: Page, square: str) -> tuple[float, float]:
    box = page.locator("[data-testid=analysis-board] cg-board").bounding_box()
    assert box is not None
    fen = str(page.get_attribute("[data-testid=analysis-board]", "data-fen"))
    size = len(fen.split()[0].split("/"))
    f, r = ord(square[0]) - ord("a"), int(square[1:]) - 1
    cell = box["width"] / size
    return box["x"] + (f + 0.5) * cell, box["y"] + (size - 1 - r + 0.5) * cell


def _drag(page: Page, orig: str, dest: str) -> None:
    x0, y0 = _square_center(page, orig)
    x1, y1 = _square_center(page, dest)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=5)
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()


def test_analysis_board_variations_keys_and_live_engine(page: Page) -> None:
    page.goto("/#/analysis")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           "?.dataset.fen && window.rcAnalysis")
    _drag(page, "e2", "e4")  # a real drag on the board
    _wait_ply(page, 1)
    page.evaluate("window.rcAnalysis.play('e7e5')")
    _wait_ply(page, 2)
    page.keyboard.press("ArrowLeft")
    _wait_ply(page, 1)
    page.evaluate("window.rcAnalysis.play('c7c5')")  # a side line to 1... e5
    _wait_ply(page, 2)
    tree = page.locator("[data-testid=tree]")
    assert tree.locator(".sideline").count() == 1
    assert "c5" in tree.locator(".sideline").inner_text()
    assert "e5" in tree.locator(".mainline").inner_text()
    # Click the main line's e5, step with the keys, delete the side line.
    tree.locator(".mainline > .node", has_text="e5").first.click()
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           ".dataset.fen.includes('4p3/4P3')")
    page.keyboard.press("ArrowUp")
    _wait_ply(page, 0)
    page.keyboard.press("ArrowDown")
    _wait_ply(page, 2)
    tree.locator(".sideline .node").first.click()
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           ".dataset.fen.includes('2p5/4P3')")
    page.click("[data-testid=delete-node]")
    _wait_ply(page, 1)
    assert tree.locator(".sideline").count() == 0
    # The engine: two lines in SAN, the bar and the depth update live, then stop.
    page.keyboard.press("ArrowRight")
    _wait_ply(page, 2)
    page.select_option("[data-testid=multipv]", "2")
    page.click("[data-testid=engine-toggle]")
    page.wait_for_function("Number(document.querySelector('[data-testid=depth]')"
                           "?.dataset.depth || 0) >= 3", timeout=60_000)
    assert page.locator("[data-testid=line-1]").count() == 1
    assert page.locator("[data-testid=line-2]").count() == 1
    assert page.text_content("[data-testid=eval]").strip()[0] in "+-#0"
    win = float(page.get_attribute("[data-testid=evalbar]", "data-win") or "0")
    assert 0 < win < 100
    page.screenshot(path=str(ARTIFACTS / "analysis-board.png"), full_page=True)
    page.click("[data-testid=engine-toggle]")
    assert page.get_attribute("[data-testid=engine-toggle]", "data-on") == "false"


def test_mrc_setup_number_and_pasted_pgn(page: Page) -> None:
    page.goto("/?lang=es#/analysis")
    page.wait_for_function("window.rcAnalysis && window.rcAnalysis.info")
    assert "Tablero de análisis" in page.inner_text("main")
    page.select_option("[data-testid=analysis-variant]", "mrc")
    page.fill("[data-testid=setup-number]", "8226")
    page.click("[data-testid=load]")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           ".dataset.files === '9'")
    page.fill("[data-testid=setup-number]", "")
    page.fill("[data-testid=paste]", "1. e4 e5 2. Cf3 Cc6 *")  # Spanish letters
    page.click("[data-testid=load]")
    page.wait_for_function("document.querySelectorAll('[data-testid=tree] .node').length === 4")
    assert "Cf3" in page.inner_text("[data-testid=tree]")


def test_review_chart_marks_the_blunder(page: Page, server: str) -> None:
    game = _api(server, "POST", "/api/games", {"variant": "chess", "opponent": "hotseat"})
    for move in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1h1", "d8g5"):
        _api(server, "POST", f"/api/games/{game['id']}/moves",
             {"move": move, "token": game["seat"]["token"]})
    page.goto(f"/#/analysis?game={game['id']}")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           "?.dataset.ply === '8'")
    page.click("[data-testid=request-review]")
    page.wait_for_selector("[data-testid=review-chart]", timeout=120_000)
    dot = page.locator("[data-testid=chart-mark-8]")
    assert dot.count() == 1 and "mark-blunder" in (dot.get_attribute("class") or "")
    assert page.text_content("[data-testid=glyph-8]") == "??"
    assert "%" in page.inner_text("[data-testid=accuracy-white]")
    # One blunder is "1 blunder" (issue 27: it was "1 blunders").
    assert re.search(r"\b1 blunder\b(?!s)", page.inner_text("[data-testid=accuracy-black]"))
    assert page.locator("[data-testid=mark-8]").count() == 1
    assert "randomchess" in page.inner_text("[data-testid=review-engine]")
    href = page.get_attribute("[data-testid=review-pgn]", "href") or ""
    with urllib.request.urlopen(server + href, timeout=30) as r:
        assert "Qg5 $4" in r.read().decode()
    page.screenshot(path=str(ARTIFACTS / "analysis-review.png"), full_page=True)
    # A click on the chart's left edge goes to the start; the review is stored.
    box = page.locator("[data-testid=review-chart]").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    _wait_ply(page, 0)
    stored = _api(server, "GET", f"/api/games/{game['id']}/review")
    assert stored["review"]["plies"][7]["judgement"] == "blunder"


def test_spanish_lines_scores_and_review(page: Page, server: str) -> None:
    """Issue 27: the engine's lines in Spanish letters (the page passed map's index as the
    language), Spanish decimal marks on the scores and the accuracy, Spanish plurals."""
    mate_in_one = "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"  # 1. Qd8#, in Spanish Dd8#
    page.goto(f"/?lang=es#/analysis?variant=chess&fen={urllib.parse.quote(mate_in_one)}")
    page.wait_for_function("window.rcAnalysis && window.rcAnalysis.info")
    page.click("[data-testid=engine-toggle]")
    line = page.locator("[data-testid=line-1] .pv")
    expect(line).to_contain_text("Dd8", timeout=60_000)
    assert "Q" not in line.inner_text()
    page.click("[data-testid=engine-toggle]")
    # A quiet position: the score in pawns with a decimal comma.
    page.fill("[data-testid=paste]", "1. e4 e5 2. Cf3 *")
    page.click("[data-testid=load]")
    page.wait_for_function("document.querySelectorAll('[data-testid=tree] .node').length === 3")
    page.click("[data-testid=engine-toggle]")
    expect(page.locator("[data-testid=eval]")).to_have_text(re.compile(r"^[+-]?\d+,\d\d$"),
                                                            timeout=60_000)
    expect(page.locator("[data-testid=line-1] .score")).to_have_text(
        re.compile(r"^[+-]?\d+,\d\d$"))
    page.click("[data-testid=engine-toggle]")
    # The review of a game with one black blunder, in Spanish.
    game = _api(server, "POST", "/api/games", {"variant": "chess", "opponent": "hotseat"})
    for move in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1h1", "d8g5"):
        _api(server, "POST", f"/api/games/{game['id']}/moves",
             {"move": move, "token": game["seat"]["token"]})
    page.goto(f"/?lang=es#/analysis?game={game['id']}")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           "?.dataset.ply === '8'")
    page.click("[data-testid=request-review]")
    page.wait_for_selector("[data-testid=review-chart]", timeout=120_000)
    black = page.inner_text("[data-testid=accuracy-black]")
    assert re.search(r"\b1 error grave\b", black), black
    assert "1 errores" not in black
    for side in ("white", "black"):
        text = page.inner_text(f"[data-testid=accuracy-{side}]")
        assert not re.search(r"\d\.\d", text), text  # a comma, never a point
    assert "Dg5" in page.inner_text("[data-testid=mark-8]")
    page.screenshot(path=str(ARTIFACTS / "analysis-review-es.png"), full_page=True)


def test_analysis_page_under_the_servers_csp(browser: Browser, server: str) -> None:
    """No CSP bypass: the page, its stylesheet and /ws/analysis work under the server's
    Content-Security-Policy (locator waits only, no string evaluation)."""
    ctx = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(str(e)))
    pg.on("console", lambda m: problems.append(m.text)
          if "Content Security Policy" in m.text else None)
    try:
        pg.goto("/#/analysis?variant=mrc&setup=8226")
        pg.locator("[data-testid=analysis-board][data-files='9']").wait_for()
        pg.click("[data-testid=engine-toggle]")
        pg.locator("[data-testid=line-1]").wait_for(timeout=60_000)
        assert pg.locator("[data-testid=line-1] .pv").inner_text().strip()
        pg.screenshot(path=str(ARTIFACTS / "analysis-mrc.png"), full_page=True)
        pg.click("[data-testid=engine-toggle]")
    finally:
        ctx.close()
    assert not problems, problems


def test_the_game_page_and_the_header_lead_to_the_analysis_board(page: Page,
                                                                  server: str) -> None:
    game = _api(server, "POST", "/api/games", {"variant": "chess960", "setup": 518,
                                              "opponent": "hotseat"})
    for move in ("e2e4", "e7e5", "g1f3"):
        _api(server, "POST", f"/api/games/{game['id']}/moves",
             {"move": move, "token": game["seat"]["token"]})
    page.goto(f"/#/game/{game['id']}")
    # A person clicks once the game is on the screen: its three moves on the game's board
    # (clicking while the page was still loading it once left the URL on the game page,
    # seen once in a full CI run on 2026-12-02).
    page.wait_for_function("document.querySelector('[data-testid=board]')?.dataset.ply === '3'")
    page.click("[data-testid=analyse-game]")
    _wait_ply(page, 3)  # the game's moves, on the analysis board
    assert f"analysis?game={game['id']}" in page.url
    # The header's link, in Spanish too.
    page.select_option("[data-testid=lang]", "es")
    link = page.locator("[data-testid=nav-analysis]")
    assert link.inner_text() == "Análisis"
    link.click()
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           "?.dataset.ply === '0'")


CAPA_CASTLE = "r4k3r/1P8/10/10/10/10/10/R4K3R w KQq - 0 1"


def _cell(page: Page, square: str) -> tuple[float, float]:
    """The centre of ``square``, a little off, from the board's box and its files and ranks."""
    box = page.locator("[data-testid=analysis-board] cg-board").bounding_box()
    assert box is not None
    files = int(str(page.get_attribute("[data-testid=analysis-board]", "data-files")))
    ranks = int(str(page.get_attribute("[data-testid=analysis-board]", "data-ranks")))
    f, r = ord(square[0]) - ord("a"), int(square[1:]) - 1
    w, h = box["width"] / files, box["height"] / ranks
    return box["x"] + (f + 0.4) * w, box["y"] + (ranks - 1 - r + 0.6) * h


def test_capablanca_castling_and_board_on_the_analysis_board(page: Page) -> None:
    """The analysis board takes board size, castling squares and promotion order from the
    variant metadata, not from the board's width (issue 12): on Capablanca Random's 10x8
    board the king castles by being dropped on i1 (the rook goes to h1), the board is drawn
    10 by 8, and a promotion picks the server's first choice."""
    from urllib.parse import quote

    page.goto(f"/#/analysis?variant=caparandom&fen={quote(CAPA_CASTLE)}")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           "?.dataset.fen && window.rcAnalysis && window.rcAnalysis.info")
    board = page.locator("[data-testid=analysis-board] cg-board").bounding_box()
    assert board is not None
    assert abs(board["width"] / board["height"] - 10 / 8) < 0.02, board
    # Each piece is one tenth of the board wide (the CSS grid follows the metadata).
    piece = page.locator("[data-testid=analysis-board] piece.white.k-piece").bounding_box()
    assert piece is not None and abs(piece["width"] - board["width"] / 10) < 2, piece
    dests = page.evaluate("[...window.rcAnalysis.ground.state.movable.dests.get('f1')]")
    assert "i1" in dests and "c1" in dests, dests
    x0, y0 = _cell(page, "f1")
    x1, y1 = _cell(page, "i1")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=5)
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()
    _wait_ply(page, 1)
    fen = str(page.get_attribute("[data-testid=analysis-board]", "data-fen"))
    assert fen.split()[0].split("/")[-1] == "R6RK1", fen
    assert page.evaluate("window.rcAnalysis.current.uci") == "f1j1"
    # Black replies, then the pawn promotes: the server's first choice is the queen.
    page.evaluate("window.rcAnalysis.play('f8e8')")
    _wait_ply(page, 2)
    x0, y0 = _cell(page, "b7")
    x1, y1 = _cell(page, "b8")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()
    _wait_ply(page, 3)
    assert page.evaluate("window.rcAnalysis.current.uci") == "b7b8q"


def test_a_live_game_between_people_offers_no_engine(page: Page, server: str) -> None:
    """Fair play (issue 28, item 9): while a friend game is played, its page offers no
    analysis board, and the analysis board opened by its address has the engine switched
    off with the reason; once the game has ended, both are there."""
    game = _api(server, "POST", "/api/games", {"variant": "chess960", "setup": 518,
                                              "opponent": "friend", "color": "white"})
    invite = game["invite_url"].rsplit("/", 1)[1]
    black = _api(server, "POST", f"/api/games/{game['id']}/join", {"invite": invite})
    _api(server, "POST", f"/api/games/{game['id']}/moves",
         {"move": "e2e4", "token": game["seat"]["token"]})
    page.goto(f"/#/game/{game['id']}")
    page.wait_for_function("document.querySelector('[data-testid=board]')?.dataset.ply === '1'")
    assert page.locator("[data-testid=analyse-game]").is_hidden()
    page.goto(f"/#/analysis?game={game['id']}")
    _wait_ply(page, 1)
    toggle = page.locator("[data-testid=engine-toggle]")
    assert toggle.is_disabled()
    assert "ends" in page.locator("body").inner_text()
    page.screenshot(path=str(ARTIFACTS / "analysis-live-game.png"), full_page=True)
    _api(server, "POST", f"/api/games/{game['id']}/resign", {"token": black["seat"]["token"]})
    page.goto(f"/#/game/{game['id']}")
    page.locator("[data-testid=analyse-game]").wait_for(state="visible")
    page.click("[data-testid=analyse-game]")
    _wait_ply(page, 1)
    page.locator("[data-testid=engine-toggle]").wait_for(state="visible")
    assert page.locator("[data-testid=engine-toggle]").is_enabled()


def test_load_form_takes_setup_zero_and_never_silently_drops_a_paste(page: Page) -> None:
    """Issue 37, item 3: Chess960 number 0 (BBQNNRKR) loads, and a PGN pasted with a number
    also typed is not silently replaced by the number: the page says to keep one and
    changes nothing."""
    page.goto("/#/analysis")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')?.dataset.fen")
    page.select_option("[data-testid=analysis-variant]", "chess960")
    page.fill("[data-testid=setup-number]", "0")
    page.click("[data-testid=load]")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           ".dataset.fen.startsWith('bbqnnrkr/')")
    page.fill("[data-testid=paste]", "1. e4 e5 2. Nf3 *")
    page.fill("[data-testid=setup-number]", "5")
    page.click("[data-testid=load]")
    expect(page.locator("[data-testid=analysis-message]")).to_contain_text("PGN")
    assert str(page.get_attribute("[data-testid=analysis-board]", "data-fen")).startswith(
        "bbqnnrkr/")
    assert _ply(page) == "0"
    # Clearing the number loads the paste.
    page.fill("[data-testid=setup-number]", "")
    page.click("[data-testid=load]")
    page.wait_for_function("document.querySelector('[data-testid=analysis-board]')"
                           ".dataset.fen.startsWith('rnbqkbnr/')")
    expect(page.locator("[data-testid=tree] .mainline")).to_contain_text("Nf3")
