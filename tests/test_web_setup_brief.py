"""The setup brief on the shuffler's cards (issue 33), in English and Spanish: the facts
the page shows are the rules core's for the drawn setup."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from randomchess.brief import SideBrief, setup_brief
from randomchess.startpos import SetupPool, draw_seeded, setup_from_number
from web_support import launched_browser, running_server, shot, skip_without_browser

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page

pytestmark = skip_without_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("shuffler-brief"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def _page(browser: Browser, server: str, lang: str) -> Page:
    ctx = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    return ctx.new_page()


def _drawn_brief(page: Page, variant: str, seed: str) -> tuple[int, Page]:
    page.goto("/#/shuffler")
    page.select_option("[data-testid=sh-variant]", variant)
    page.fill("[data-testid=sh-seed]", seed)
    page.click("[data-testid=sh-draw]")
    page.locator("[data-testid=card-brief][data-ready=yes]").wait_for()
    return draw_seeded(SetupPool(variant), seed, 1)[0].number, page


def _shown(page: Page, color: str, fact: str) -> str:
    return page.text_content(f"[data-testid=brief-{color}] [data-fact={fact}]") or ""


def _check_side(page: Page, side: SideBrief, none: str) -> None:
    assert _shown(page, side.color, "undefended") == (", ".join(side.undefended_pawns) or none)
    assert _shown(page, side.color, "kingOnly") == (", ".join(side.king_only_pawns) or none)
    moves = page.locator(f"[data-testid=brief-{side.color}] [data-fact=castling] li")
    assert moves.evaluate_all("els => els.map(e => [e.dataset.side, Number(e.dataset.moves)])") \
        == [[c.side, c.moves] for c in side.castling]
    diagonals = _shown(page, side.color, "diagonals")
    for d in side.diagonals:
        assert d.target in diagonals and d.opened_by[0] in diagonals


def test_the_brief_in_english(browser: Browser, server: str) -> None:
    page = _page(browser, server, "en")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    number, page = _drawn_brief(page, "chess960", "brief-en")
    brief = setup_brief(setup_from_number("chess960", number))
    assert page.text_content("[data-testid=card-number]") == str(number)
    box = page.locator("[data-testid=card-brief]")
    assert "Setup brief" in (box.text_content() or "")
    assert "Pawns defended only by the king" in (box.text_content() or "")
    for side in (brief.white, brief.black):
        _check_side(page, side, "none")
    assert page.text_content("[data-testid=brief-stats]") == \
        "No games from this setup on this server yet."
    shot(page, "shuffler-brief")
    assert errors == []


def test_the_brief_in_spanish_for_mrc(browser: Browser, server: str) -> None:
    page = _page(browser, server, "es")
    number, page = _drawn_brief(page, "mrc", "brief-es")
    brief = setup_brief(setup_from_number("mrc", number))
    box = page.locator("[data-testid=card-brief]")
    text = box.text_content() or ""
    assert "Claves de la posición" in text and "Jugadas para enrocar" in text
    assert "Piezas en las líneas del rey" in text and "Setup brief" not in text
    for side in (brief.white, brief.black):
        _check_side(page, side, "ninguno")
    # The king's lines in Spanish letters: R is the king (rey), T the rook (torre), D the queen.
    shown = page.locator("[data-testid=brief-white] [data-fact=lines] li").all_text_contents()
    es = str.maketrans("KQRBNkqrbn", "RDTACrdtac")
    assert [line.split(": ", 1)[1] for line in shown] == [
        " ".join(p.translate(es) + sq for sq, p in k.pieces) or "ninguno"
        for k in brief.white.king_lines]
    assert shown[2].startswith("columna (")
    assert "Aún no hay partidas" in (page.text_content("[data-testid=brief-stats]") or "")
    shot(page, "shuffler-brief-es")
