"""The setup brief (issue 33) where a game starts: folded on the game page before move 1 (and
gone once a move is played) and in an event's hall view, in English and Spanish.  Playwright
with Debian's chromium against ``randomchess serve``; skipped (loudly) without them."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from web_support import ARTIFACTS, launched_browser, running_server, skip_without_browser

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, expect

pytestmark = skip_without_browser

WORDS = {"en": ("Setup brief", "Undefended pawns"), "es": ("Claves de la posición",
                                                          "Peones sin defensa")}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("brief-web")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_game_page_shows_the_brief_until_the_first_move(browser: Browser, server: str,
                                                            lang: str) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    context.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        r = pg.request.post("/api/games", data={"variant": "chess960", "setup": 518,
                                                "opponent": "hotseat"})
        assert r.ok, r.text()
        game = r.json()
        pg.goto(f"/#/game/{game['id']}")
        title, undefended = WORDS[lang]
        brief = pg.locator("[data-testid=game-brief]")
        expect(brief).to_be_visible()
        expect(brief.locator("summary")).to_have_text(title)
        expect(brief.locator("[data-testid=card-brief]")).to_have_attribute("data-ready", "yes")
        expect(brief.locator("[data-testid=brief-white]")).to_be_hidden()  # folded: small
        brief.locator("summary").click()
        expect(brief.locator("[data-testid=brief-white]")).to_be_visible()
        expect(brief.locator("[data-testid=brief-white] dt").first).to_have_text(undefended)
        expect(brief.locator("[data-testid=brief-white] [data-side]")).to_have_count(2)
        pg.screenshot(path=str(ARTIFACTS / f"brief-game-{lang}.png"))
        r = pg.request.post(f"/api/games/{game['id']}/moves",
                            data={"move": "e2e4", "token": game["seat"]["token"]})
        assert r.ok, r.text()
        expect(pg.locator("[data-testid=board]")).to_have_attribute("data-ply", "1")
        expect(brief).to_be_hidden()
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_event_hall_shows_the_rounds_brief(browser: Browser, server: str,
                                               lang: str) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900})
    o = context.new_page()
    errors: list[str] = []
    o.on("pageerror", lambda e: errors.append(str(e)))
    try:
        o.goto(f"/?lang={lang}#/tournament/new")
        o.fill("[data-testid=t-name]", f"Brief Hall {lang}")
        o.fill("input[name=rounds]", "3")
        o.click("[data-testid=t-create]")
        o.click("[data-testid=t-to-event]")
        o.wait_for_url(re.compile(r"#/tournament/[0-9a-f]+$"))
        eid = o.url.rsplit("/", 1)[1]
        secret = o.evaluate(f"localStorage.getItem('rc-tournament-{eid}')")
        auth = {"X-Organiser-Secret": secret}
        for i, name in enumerate(["Ann", "Bob", "Cid", "Dan"]):
            r = o.request.post(f"/api/tournaments/{eid}/players",
                               data={"name": name, "rating": 2000 - i}, headers=auth)
            assert r.ok, r.text()
        assert o.request.post(f"/api/tournaments/{eid}/start", headers=auth).ok
        assert o.request.post(f"/api/tournaments/{eid}/pair", headers=auth).ok
        o.goto(f"/?lang={lang}#/tournament/{eid}/hall")
        title, undefended = WORDS[lang]
        box = o.locator("[data-testid=t-hall] [data-testid=card-brief]")
        expect(box).to_have_attribute("data-ready", "yes")
        expect(box.locator("h4").first).to_have_text(title)
        expect(box.locator("[data-testid=brief-black] dt").first).to_have_text(undefended)
        o.screenshot(path=str(ARTIFACTS / f"brief-hall-{lang}.png"), full_page=True)
        assert errors == []
    finally:
        context.close()
