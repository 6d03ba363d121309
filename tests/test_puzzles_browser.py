"""The puzzle page (issue 33) in a real browser (Playwright with Debian's chromium) against
``randomchess serve``: solving by moving on the board, failing, retrying, the hint and the
solution played out, in English and Spanish.  The puzzles are the shipped starter set's.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from randomchess.position import Position
from randomchess.puzzles.model import Puzzle, shipped_puzzles
from web_support import (
    ARTIFACTS,
    drag,
    launched_browser,
    running_server,
    skip_without_browser,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

TEXT = {
    "en": {"solved": "Solved!", "wrong": "That is not the move", "title": "Puzzle",
           "white": "White to move", "black": "Black to move", "hint": "Move the piece on",
           "signin": "Sign in to get a puzzle rating"},
    "es": {"solved": "¡Resuelto!", "wrong": "Esa no es la jugada", "title": "Problema",
           "white": "Juegan las blancas", "black": "Juegan las negras",
           "hint": "Mueve la pieza de", "signin": "Inicia sesión"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("puzzles-web")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def _page(browser: Browser, server: str, lang: str) -> tuple[Page, list[str], object]:
    ctx = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900},
                              bypass_csp=True)
    ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    return pg, errors, ctx


@pytest.fixture(params=["en", "es"])
def lang_page(request: pytest.FixtureRequest, browser: Browser,
              server: str) -> Iterator[tuple[str, Page]]:
    pg, errors, ctx = _page(browser, server, request.param)
    yield request.param, pg
    ctx.close()  # type: ignore[attr-defined]
    assert not errors, f"JavaScript errors: {errors}"


def _pick(variant: str) -> Puzzle:
    """A shipped puzzle of two or more solver moves where there is one (else the first)."""
    puzzles = shipped_puzzles(variant)
    longer = [p for p in puzzles if len(p.moves) >= 3]
    return (longer or puzzles)[0]


def _wrong_move(p: Puzzle) -> str:
    pos = p.position()
    right = pos.parse_uci(p.moves[0])
    for move in pos.legal_moves():
        if move == right or move.promotion or pos.is_castling(move) or pos.is_adjustment(move):
            continue
        pos.push(move)
        mates = pos.is_checkmate()
        pos.pop()
        if not mates:
            return pos.uci(move)
    raise AssertionError("no wrong move to try")


def _open(page: Page, p: Puzzle) -> None:
    page.goto(f"/#/puzzles?id={p.id}")
    page.wait_for_function(
        "(() => { const b = document.querySelector('[data-testid=board]');"
        " const g = b && b.querySelector('cg-board');"
        " return b && b.dataset.fen && b.dataset.status === 'play' && b.dataset.ply === '0'"
        " && g && g.getBoundingClientRect().width > 0; })()")


def _wait(page: Page, ply: int, status: str) -> None:
    page.wait_for_function(
        "(() => { const b = document.querySelector('[data-testid=board]');"
        f" return b && b.dataset.ply === '{ply}' && b.dataset.status === '{status}'; }})()")


def _play(page: Page, p: Puzzle, uci: str) -> None:
    """Move ``uci`` on the board as a person does: drag (castling: the king onto its rook;
    an adjustment: the bishop onto its partner), then choose the promotion piece."""
    pos = p.position()
    for done in page.evaluate("window.rcPuzzle.line"):
        pos.push_uci(done)
    move = pos.parse_uci(uci)
    g = pos.geometry
    drag(page, g.name(move.from_square), g.name(move.to_square))
    if move.promotion:
        page.click(f"[data-testid=promote-{uci[-1]}]")


def _solve(page: Page, p: Puzzle) -> None:
    for i in range(0, len(p.moves), 2):
        _play(page, p, p.moves[i])
        last = i == len(p.moves) - 1
        _wait(page, i + 1 if last else i + 2, "solved" if last else "play")


def _fen(page: Page) -> str:
    return str(page.get_attribute("[data-testid=board]", "data-fen"))


@pytest.mark.parametrize("variant", ["chess960", "mrc"])
def test_solve(lang_page: tuple[str, Page], variant: str) -> None:
    lang, page = lang_page
    p = _pick(variant)
    _open(page, p)
    words = TEXT[lang]
    expect(page.locator("aside h2")).to_have_text(words["title"])
    turn = "white" if p.position().turn == 0 else "black"
    expect(page.get_by_test_id("puzzle-message")).to_contain_text(words[turn])
    expect(page.get_by_test_id("puzzle-rating")).to_contain_text(words["signin"])
    # the board shows the puzzle's position, from the solver's side
    assert _fen(page).split()[0] == p.fen.split()[0]
    assert f"orientation-{turn}" in (page.get_attribute("[data-testid=board]", "class") or "")
    _solve(page, p)
    expect(page.get_by_test_id("puzzle-message")).to_have_text(words["solved"])
    # the themes are all shown now, and the solution in SAN
    expect(page.locator("[data-testid=puzzle-themes] li[data-theme]")).to_have_count(
        len(p.themes))
    expect(page.locator("[data-testid=puzzle-solution] span.san")).to_have_count(len(p.moves))
    end = p.position()
    for m in p.moves:
        end.push_uci(m)
    assert _fen(page).split()[0] == end.fen().split()[0]
    page.screenshot(path=str(ARTIFACTS / f"puzzle-solved-{variant}-{lang}.png"), full_page=True)


def test_fail_retry_hint_and_solution(lang_page: tuple[str, Page]) -> None:
    lang, page = lang_page
    words = TEXT[lang]
    p = _pick("chess960")
    _open(page, p)
    page.get_by_test_id("puzzle-hint").click()
    square = Position(p.fen, p.variant).geometry.name(
        p.position().parse_uci(p.moves[0]).from_square)
    expect(page.get_by_test_id("puzzle-message")).to_have_text(
        f"{words['hint']} {square}.")
    wrong = _wrong_move(p)
    _play(page, p, wrong)
    _wait(page, 1, "wrong")
    expect(page.get_by_test_id("puzzle-message")).to_contain_text(words["wrong"])
    # the answer is not given away: no solution and no mate theme until solved or shown
    expect(page.locator("[data-testid=puzzle-solution] span.san")).to_have_count(0)
    expect(page.locator("[data-testid=puzzle-themes] li[data-theme^=mate]")).to_have_count(0)
    page.screenshot(path=str(ARTIFACTS / f"puzzle-wrong-{lang}.png"), full_page=True)
    # retry: back to the start, and this time solved
    page.get_by_test_id("puzzle-retry").click()
    _wait(page, 0, "play")
    assert _fen(page).split()[0] == p.fen.split()[0]
    _solve(page, p)
    expect(page.get_by_test_id("puzzle-message")).to_have_text(words["solved"])
    # another try, given up: the solution is played out move by move from the start
    page.get_by_test_id("puzzle-retry").click()
    _wait(page, 0, "play")
    page.get_by_test_id("puzzle-show").click()
    _wait(page, len(p.moves), "shown")
    expect(page.locator("[data-testid=puzzle-solution] span.san")).to_have_count(len(p.moves))


def test_next_puzzle_and_the_header_link(lang_page: tuple[str, Page]) -> None:
    _, page = lang_page
    page.goto("/#/")
    page.get_by_test_id("nav-puzzles").click()
    page.wait_for_function("window.rcPuzzle && window.rcPuzzle.puzzle")
    first = page.evaluate("window.rcPuzzle.puzzle.id")
    page.get_by_test_id("puzzle-next").click()
    page.wait_for_function(f"window.rcPuzzle.puzzle && window.rcPuzzle.puzzle.id !== '{first}'"
                           " && window.rcPuzzle.status === 'play'")
    page.select_option("[data-testid=puzzle-variant]", "mrc")
    page.wait_for_function("window.rcPuzzle.puzzle && window.rcPuzzle.puzzle.variant === 'mrc'"
                           " && window.rcPuzzle.status === 'play'")
    # the 9x9 board: nine ranks in the FEN it shows
    page.wait_for_function("(document.querySelector('[data-testid=board]')?.dataset.fen || '')"
                           ".split(' ')[0].split('/').length === 9")


def test_a_signed_in_solver_sees_the_puzzle_rating_move(lang_page: tuple[str, Page]) -> None:
    lang, page = lang_page
    page.goto("/#/")
    csrf = page.request.get("/api/account/csrf").json()["csrf"]
    r = page.request.post("/api/account/signup", headers={"X-CSRF-Token": csrf},
                          data={"name": f"solver_{lang}", "password": "correct horse battery"})
    assert r.status == 201, r.text()
    p = _pick("mrc")
    _open(page, p)
    mine = "Your puzzle rating: 1500?" if lang == "en" else "Tu puntuación en problemas: 1500?"
    expect(page.get_by_test_id("puzzle-rating")).to_have_text(mine)
    _solve(page, p)
    text = page.get_by_test_id("puzzle-rating").inner_text()
    rating = int(text.split(":")[1].split("?")[0])
    assert rating > 1500 and f"(+{rating - 1500})" in text
