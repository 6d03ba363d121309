"""Issue 34 in the lobby page: a seek and a quick pairing take any clock the API takes (a PGN
TimeControl: multi-period, delays), the form explains the limits in the page's language before
anything is sent, refuses a sandclock there, and two players quick-paired on a classical
control meet in a game that runs the seeker's multi-period clock."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_lobby_browser import PASSWORD
from web_support import SLOW, launched_browser, running_server, shot, skip_without_browser

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("lobby-controls"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def sign_up(page: Page, name: str) -> None:
    """As test_lobby_browser's, waiting as long as a loaded machine needs (a password hash
    is slow by design)."""
    page.goto("/#/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", PASSWORD)
    page.fill("[data-testid=password-again]", PASSWORD)
    page.click("[data-testid=signup]")
    expect(page.locator("[data-testid=logged-in]")).to_contain_text(name, timeout=SLOW)


def test_a_multi_period_seek_and_a_quick_pairing_from_the_page(
        browser: Browser, server: str) -> None:
    contexts = [browser.new_context(base_url=server, viewport={"width": 1000, "height": 900})
                for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (alice, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        sign_up(alice, "ana")
        sign_up(bob, "beto")
        alice.goto("/?lang=es#/lobby")
        # The limits, in Spanish, before anything is sent (the server's: 600 min, 600 s).
        expect(alice.locator("[data-testid=seek-control-hint]")).to_contain_text(
            "como mucho 600 minutos", timeout=SLOW)
        posted: list[str] = []
        alice.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
        for bad, text in (("*60", "no tiene un reloj que funcione en línea"),
                          ("40/5400+30:1800x", "No se puede leer"),
                          ("36060+5", "fuera de rango")):
            alice.fill("[data-testid=seek-control]", bad)
            for button in ("seek-post", "quick-pair"):
                alice.evaluate("document.querySelector('[data-testid=account-error]')"
                               ".textContent = ''")
                alice.click(f"[data-testid={button}]")
                expect(alice.locator("[data-testid=account-error]")).to_contain_text(
                    text, timeout=SLOW)
        assert [u for u in posted if "/api/lobby" in u] == []
        # A multi-period quick pairing: nobody to pair with, so it is an open seek.
        alice.fill("[data-testid=seek-control]", "40/5400+30:1800+30")
        alice.click("[data-testid=quick-pair]")
        bob.goto("/#/lobby")
        offer = bob.locator("[data-testid=seek]", has_text="ana")
        expect(offer).to_contain_text("40/5400+30:1800+30", timeout=SLOW)
        shot(bob, "lobby-multi-period-seek")
        # Bob's quick pairing at another classical clock meets it.
        bob.fill("[data-testid=seek-control]", "5400+30")
        bob.click("[data-testid=quick-pair]")
        bob.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
        alice.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
        game_id = bob.url.rsplit("/", 1)[1]
        state = bob.request.get(f"/api/games/{game_id}").json()
        assert state["clocks"]["control"] == "40/5400+30:1800+30"
        assert state["clocks"]["white"] == 5_400_000
        # A seek typed in the same field, posted as it is written.
        bob.goto("/#/lobby")
        bob.fill("[data-testid=seek-control]", "300+3d")
        bob.click("[data-testid=seek-post]")
        expect(bob.locator("[data-testid=seek]", has_text="beto")).to_contain_text("300+3d",
                                                                                  timeout=SLOW)
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()
