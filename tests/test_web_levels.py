"""The home form offers levels 9, 10 and maximum where the server has an external engine for
the variant (GET /api/levels), says who plays them, and the game page names the level."""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_support import SLOW, launched_browser, running_server, skip_without_browser

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, expect

HAVE = all(shutil.which(n) or Path(f"/usr/games/{n}").exists()
           for n in ("stockfish", "fairy-stockfish"))
pytestmark = [skip_without_browser, pytest.mark.skipif(
    not HAVE, reason="*** stockfish / fairy-stockfish not installed: the home form's "
    "external levels SKIPPED ***")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("levels"),
                        RANDOMCHESS_ENGINE_MOVETIME_MS="100") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.mark.parametrize(("lang", "maximum", "engine_word"), [
    ("en", "maximum", "played by"), ("es", "máximo", "juega")])
def test_the_home_form_offers_the_external_levels(browser: Browser, server: str, lang: str,
                                                  maximum: str, engine_word: str) -> None:
    context = browser.new_context(base_url=server, locale=lang)
    context.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    page = context.new_page()
    try:
        page.goto("/")
        page.select_option("[data-testid=variant]", "mrc")
        page.check("input[name=opponent][value=computer]")
        level = page.locator("[data-testid=level]")
        expect(level).to_have_attribute("max", "11", timeout=SLOW)
        level.fill("11")
        expect(page.locator("[data-testid=level-out]")).to_contain_text(maximum)
        expect(page.locator("[data-testid=level-out]")).to_contain_text(
            f"{engine_word} Fairy-Stockfish")
        level.fill("4")
        expect(page.locator("[data-testid=level-out]")).not_to_contain_text(engine_word)
        # Each level shows the rating the match runner measured, with how in its tooltip.
        rows = {r["level"]: r for r in page.request.get("/api/levels").json()["variants"]["mrc"]}
        out = page.locator("[data-testid=level-out]")
        expect(out).to_contain_text(f"≈{rows[4]['rating']} Elo")
        expect(out).to_have_attribute("title", re.compile(
            rf"Stockfish .*±{rows[4]['rating_margin']} .*{rows[4]['rating_games']} "))
        level.fill("1")
        expect(out).to_contain_text(f"≈{rows[1]['rating']} Elo")
        page.select_option("[data-testid=variant]", "chess960")
        expect(level).to_have_attribute("max", "11")
        level.fill("10")
        page.check("input[name=color][value=black]")
        page.click("[data-testid=start]")
        page.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
        expect(page.locator("[data-testid=player-white]")).to_contain_text("10",
                                                                           timeout=SLOW)
        # The game page names the computer's level with its measured rating.
        expect(page.locator("[data-testid=player-white]")).to_contain_text(
            f"≈{rows[10]['rating']} Elo")
        state = page.evaluate("fetch('/api/games/' + location.hash.split('/').pop())"
                              ".then(r => r.json())")
        assert state["level"] == 10
    finally:
        context.close()
