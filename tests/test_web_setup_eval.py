"""The shuffler page shows setup evaluations (issue 17): the drawn setup's score and its place
by balance, and the variant's most and least balanced setups, in English and Spanish, as the
shipped evaluation set has them."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from randomchess.analysis.setup_eval import shipped
from randomchess.startpos import SetupPool, draw_seeded
from web_support import launched_browser, running_server, shot, skip_without_browser

with contextlib.suppress(ImportError):
    from playwright.sync_api import Browser, Page

pytestmark = skip_without_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("shuffler-eval"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def _page(browser: Browser, server: str, lang: str) -> Page:
    # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids.
    ctx = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900},
                              bypass_csp=True)
    ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    return ctx.new_page()


def _score(cp: int, comma: bool = False) -> str:
    text = ("+" if cp >= 0 else "\u2212") + f"{abs(cp) / 100:.2f}"
    return text.replace(".", ",") if comma else text


def test_a_drawn_setup_shows_its_evaluation_and_the_extremes(browser: Browser,
                                                               server: str) -> None:
    page = _page(browser, server, "en")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/#/shuffler")
    page.select_option("[data-testid=sh-variant]", "chess960")
    page.fill("[data-testid=sh-seed]", "evaluation")
    page.click("[data-testid=sh-draw]")
    number = draw_seeded(SetupPool("chess960"), "evaluation", 1)[0].number
    evals = shipped("chess960")
    assert evals is not None
    e = evals.items[number]
    line = page.locator("[data-testid=card-evaluation]")
    line.wait_for()
    page.wait_for_function(
        "(document.querySelector('[data-testid=card-evaluation]')?.textContent ?? '').length > 0")
    text = line.text_content() or ""
    assert text.startswith(f"Evaluation: {_score(e.centipawns)} (Stockfish, depth 14)"), text
    assert f"balance rank {evals.balance_rank(number)} of 960" in text
    # The panel: the five most balanced, the five least; a click draws that setup's card.
    most = page.locator("[data-testid=sh-most] button")
    most.first.wait_for()
    ranked = evals.ranked()
    assert [int(x) for x in most.evaluate_all("els => els.map(b => b.dataset.number)")] == \
        [x.number for x in ranked[:5]]
    least = page.locator("[data-testid=sh-least] button")
    assert int(least.first.get_attribute("data-number") or -1) == ranked[-1].number
    least.first.click()
    page.wait_for_function(
        f"(document.querySelector('[data-testid=card-number]')?.textContent ?? '') === "
        f"'{ranked[-1].number}'")
    shot(page, "shuffler-evaluation")
    # MRC: Fairy-Stockfish's set, with the Bishop Adjustment at the root.
    page.select_option("[data-testid=sh-variant]", "mrc")
    page.wait_for_function(
        "(document.querySelector('[data-testid=sh-balance]')?.textContent ?? '').includes('Fairy')")
    assert errors == []


def test_the_evaluation_in_spanish(browser: Browser, server: str) -> None:
    page = _page(browser, server, "es")
    page.goto("/#/shuffler")
    page.select_option("[data-testid=sh-variant]", "mrc")
    page.fill("[data-testid=sh-seed]", "abc")
    page.click("[data-testid=sh-draw]")
    number = draw_seeded(SetupPool("mrc"), "abc", 1)[0].number
    evals = shipped("mrc")
    assert evals is not None
    page.wait_for_function(
        "(document.querySelector('[data-testid=card-evaluation]') || {}).textContent > ''")
    text = page.text_content("[data-testid=card-evaluation]") or ""
    assert text.startswith(f"Evaluación: {_score(evals.items[number].centipawns, True)} "
                           "(Fairy-Stockfish, profundidad 8)"), text
    assert "por equilibrio" in text
    shot(page, "shuffler-evaluation-es")
