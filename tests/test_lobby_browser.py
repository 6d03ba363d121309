"""The lobby in a real browser (issue 18): two players sign up, one posts a seek, the other
sees it live and accepts, and both land in the same game, whose moves reach the other side.
Skipped, loudly, like tests/test_web_browser.py when chromium or the bundle is missing."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_support import (
    drag,
    launched_browser,
    running_server,
    shot,
    skip_without_browser,
    wait_board,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("lobby"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


PASSWORD = "a long enough password"


def sign_up(page: Page, name: str) -> None:
    page.goto("/#/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", PASSWORD)
    page.fill("[data-testid=password-again]", PASSWORD)
    page.click("[data-testid=signup]")
    expect(page.locator("[data-testid=logged-in]")).to_contain_text(name)


def seat(page: Page, game_id: str) -> dict[str, str]:
    raw = page.evaluate(f"localStorage.getItem('rc-seat-{game_id}')")
    out: dict[str, str] = json.loads(raw)
    return out


def test_two_players_meet_in_the_lobby(browser: Browser, server: str) -> None:
    contexts = [browser.new_context(base_url=server, viewport={"width": 1000, "height": 800},
                                    bypass_csp=True)
                for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (alice, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        sign_up(alice, "alice")
        sign_up(bob, "bob")
        # The session cookie is HttpOnly: the page's script cannot read it.
        assert "rc_session" not in alice.evaluate("document.cookie")
        alice.goto("/#/lobby")
        bob.goto("/#/lobby")
        alice.select_option("[data-testid=seek-variant]", "chess")
        alice.fill("[data-testid=seek-minutes]", "3")
        alice.fill("[data-testid=seek-increment]", "2")
        alice.click("[data-testid=seek-post]")
        offer = bob.locator("[data-testid=seek]", has_text="alice")
        expect(offer).to_contain_text("3+2")  # pushed live over /ws/lobby
        shot(bob, "lobby-bob")
        offer.locator("[data-testid=seek-accept]").click()
        bob.wait_for_url(re.compile(r"#/game/"))
        alice.wait_for_url(re.compile(r"#/game/"))  # the seeker follows on her own
        game_id = re.search(r"#/game/([^/?]+)", bob.url).group(1)  # type: ignore[union-attr]
        assert game_id in alice.url
        wait_board(alice)
        wait_board(bob)
        seats = {seat(alice, game_id)["color"]: alice, seat(bob, game_id)["color"]: bob}
        assert set(seats) == {"white", "black"}
        drag(seats["white"], "e2", "e4")
        wait_ply(seats["black"], 1)
        drag(seats["black"], "e7", "e5")
        wait_ply(seats["white"], 2)
        shot(alice, "lobby-game-alice")
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()


def test_account_and_lobby_pages_under_the_csp(browser: Browser, server: str) -> None:
    # The contexts above bypass the CSP (wait_for_function evaluates strings); here the
    # pages run under it, the lobby's WebSocket included.
    ctx = browser.new_context(base_url=server)
    page = ctx.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text)
            if "Content Security Policy" in m.text else None)
    try:
        sign_up(page, "carol")
        page.goto("/#/lobby")
        page.click("[data-testid=seek-post]")
        expect(page.locator("[data-testid=seek]", has_text="carol")).to_be_visible()
        page.goto("/?lang=es#/account")
        expect(page.locator("[data-testid=logged-in]")).to_contain_text("Has entrado como carol")
        page.fill("[data-testid=old-password]", PASSWORD)
        page.fill("[data-testid=new-password]", "the new password")
        page.click("[data-testid=change-password]")
        expect(page.locator("[data-testid=account-error]")).to_contain_text("Contraseña cambiada")
        # Deleting asks in a dialog with its own password field (issue 32).
        page.click("[data-testid=delete-account]")
        page.fill("[data-testid=delete-password]", "the new password")
        page.click("[data-testid=delete-confirm]")
        page.locator("[data-testid=login]").wait_for()  # logged out: the forms again
        page.fill("[data-testid=name]", "carol")
        page.fill("[data-testid=password]", "the new password")
        page.click("[data-testid=login]")
        # The server's reason in the page's language (its detail_es: code account.wrong_login).
        expect(page.locator("[data-testid=account-error]")).to_contain_text(
            "nombre o contraseña incorrectos")
        assert violations == []
    finally:
        ctx.close()
