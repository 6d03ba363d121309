"""A setup both players can verify, in a real browser (issue 32, docs/shuffler.md §10): a seek
shows its commitment in the lobby, the accepting browser sends its own random value, both
players' game pages show the commitment, the revealed server seed and the client value, and
the shuffler page's "Verify a game's setup" recomputes the game's setup and checks the
commitment (English and Spanish)."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_lobby_browser import PASSWORD
from web_support import (
    SLOW,
    BrowserSession,
    launched_browser,
    running_server,
    shot,
    skip_without_browser,
    wait_board,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser
HEX64 = re.compile(r"^[0-9a-f]{64}$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("commit"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def sign_up(page: Page, name: str) -> None:
    page.goto("/#/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", PASSWORD)
    page.fill("[data-testid=password-again]", PASSWORD)
    page.click("[data-testid=signup]")
    expect(page.locator("[data-testid=logged-in]")).to_contain_text(name, timeout=SLOW)


def recompute(seed: str, client: str) -> int:
    """docs/shuffler.md §10 for Chess960, with hashlib and hmac only."""
    message = b"randomchess-game-v1\0chess960:any:-\0" + client.encode()
    counter = 0
    while True:
        block = hmac.new(bytes.fromhex(seed), message + b"\0" + str(counter).encode(),
                         hashlib.sha256).digest()
        x = int.from_bytes(block, "big")
        if x < 2**256 - 2**256 % 960:
            return x % 960
        counter += 1


TEXT = {"en": ("A setup both players can verify", "Verify a game's setup", "Matches"),
        "es": ("Una posición que ambos jugadores pueden verificar",
               "Verificar la posición de una partida", "Coincide")}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_seek_taken_in_the_browser_is_verifiable(browser: Browser, server: str,
                                                   lang: str) -> None:
    s = BrowserSession(browser, server, {"viewport": {"width": 1100, "height": 900}})
    box_title, verify_title, matches = TEXT[lang]
    try:
        alice, bob = s.page(lang), s.page(lang)
        sign_up(alice, f"alice{lang}")
        sign_up(bob, f"bob{lang}")
        alice.goto("/#/lobby")
        bob.goto("/#/lobby")
        alice.select_option("[data-testid=seek-variant]", "chess960")
        alice.click("[data-testid=seek-post]")
        offer = bob.locator("[data-testid=seek]", has_text=f"alice{lang}")
        shown = offer.locator("[data-testid=seek-commit]")
        expect(shown).to_be_visible(timeout=SLOW)
        commit = str(shown.get_attribute("data-commit"))
        assert HEX64.match(commit)
        shot(bob, f"setup-commit-lobby-{lang}")
        offer.locator("[data-testid=seek-accept]").click()
        bob.wait_for_url(re.compile(r"#/game/"))
        alice.wait_for_url(re.compile(r"#/game/"))
        game_id = re.search(r"#/game/([^/?]+)", bob.url).group(1)  # type: ignore[union-attr]
        with urllib.request.urlopen(f"{server}/api/games/{game_id}") as r:
            number = json.load(r)["number"]
        values = {}
        for page in (alice, bob):
            wait_board(page)
            box = page.locator("[data-testid=setup-draw]")
            expect(box.locator("summary")).to_have_text(box_title, timeout=SLOW)
            box.locator("summary").click()
            expect(page.locator("[data-testid=sd-commit]")).to_have_text(commit, timeout=SLOW)
            values[page is bob] = (page.locator("[data-testid=sd-seed]").inner_text(),
                                   page.locator("[data-testid=sd-client]").inner_text())
        assert values[True] == values[False]  # both players see the same values
        seed, client = values[True]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commit
        assert re.fullmatch(r"[0-9a-f]{32}", client)  # the accepting browser's own value
        assert recompute(seed, client) == number
        shot(bob, f"setup-commit-game-{lang}")
        # The game page's link opens the shuffler page's check, filled in and recomputed.
        bob.click("[data-testid=sd-verify]")
        form = bob.locator("[data-testid=verify-game]")
        expect(form.locator("summary")).to_have_text(verify_title, timeout=SLOW)
        expect(bob.locator("[data-testid=vg-check]")).to_contain_text(matches, timeout=SLOW)
        assert bob.locator("[data-testid=vg-check]").get_attribute("data-match") == "yes"
        expect(bob.locator("[data-testid=card-number]")).to_have_text(str(number), timeout=SLOW)
        shot(bob, f"setup-commit-verify-{lang}")
        # By hand on a fresh shuffler page: an altered commitment is said not to match.
        page = s.page(lang)
        page.goto("/#/shuffler")
        page.locator("[data-testid=verify-game] summary").click()
        page.fill("[data-testid=vg-seed]", seed)
        page.fill("[data-testid=vg-client]", client)
        page.fill("[data-testid=vg-commit]", ("0" if commit[0] != "0" else "1") + commit[1:])
        page.click("[data-testid=vg-verify]")
        expect(page.locator("[data-testid=vg-check]")).to_have_attribute("data-match", "no",
                                                                         timeout=SLOW)
        expect(page.locator("[data-testid=card-number]")).to_have_text(str(number), timeout=SLOW)
        page.fill("[data-testid=vg-client]", "XYZ")
        page.click("[data-testid=vg-verify]")
        expect(page.locator("p.error")).to_contain_text(
            "hexadecimal" if lang == "en" else "hexadecimales", timeout=SLOW)
        assert s.errors == []
        assert [c for c in s.console if c.startswith("error")] == []
    finally:
        s.close()
