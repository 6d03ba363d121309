"""Issue 32 in a real browser: a connection you can trust, and the defects found by playing
the game page as a new user would, each reproduced here first.

- going offline shows "reconnecting" within 5 s, the clocks marked and frozen, and the game
  goes on when the browser is back;
- a declined rematch leaves the offerer on the finished game with a "declined" notice;
- Back closes an open dialog (no resigning the game left);
- deleting an account asks in a dialog of its own with its own password field;
- on a phone, offers are on screen with a sound, and the offerer is told "sent"/"declined";
- a challenge has a Decline button; ratings stand beside the names of a rated game;
- no 401 in the console on an anonymous page load.

Playwright drives Debian's chromium against ``randomchess serve``; English and Spanish where
strings changed. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from web_support import (
    SIZES,
    SLOW,
    BrowserSession,
    drag,
    game_state,
    launched_browser,
    new_game,
    running_server,
    shot,
    skip_without_browser,
    wait_board,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

PASSWORD = "a long enough password"
DESKTOP = {"viewport": SIZES["desktop"]}
PHONE = {"viewport": SIZES["phone"], "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
WORDS = {  # what each notice must say, per language
    "en": {"reconnecting": "reconnecting", "sent": "sent", "declined": "declined"},
    "es": {"reconnecting": "reconectando", "sent": "enviad", "declined": "rechaz"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("fair"), RANDOMCHESS_SIGNUP_PER_HOUR="100") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


class Session(BrowserSession):
    """A browser session on this module's server, desktop-sized unless asked otherwise."""

    def __init__(self, browser: Browser, server: str) -> None:
        super().__init__(browser, server, DESKTOP)


@pytest.fixture
def session(browser: Browser, server: str) -> Iterator[Session]:
    s = Session(browser, server)
    yield s
    s.close()
    assert not s.errors, f"JavaScript errors: {s.errors}"


def friends(session: Session, lang: str = "en", minutes: float = 0,
            **options: Any) -> tuple[Page, Page]:
    """White creates a friend game (chess960 #518) in one context; Black joins in another."""
    white = session.page(lang, **options)
    black = session.page(lang, **options)
    new_game(white, "chess960", "friend", color="white", number=518, minutes=minutes)
    black.goto(white.input_value("[data-testid=invite-url]"))
    black.click("[data-testid=join]")
    black.wait_for_url(re.compile(r"#/game/"))
    wait_board(black)
    white.wait_for_function("window.rcGame.state && window.rcGame.state.invite_open === false")
    return white, black


def game_id(page: Page) -> str:
    m = re.search(r"#/game/([^/?]+)", page.url)
    assert m is not None
    return m.group(1)


def server_state(server: str, gid: str) -> Any:
    with urllib.request.urlopen(f"{server}/api/games/{gid}", timeout=30) as r:
        return json.loads(r.read())


def sign_up(page: Page, name: str) -> None:
    page.goto("/#/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", PASSWORD)
    page.fill("[data-testid=password-again]", PASSWORD)
    page.click("[data-testid=signup]")
    expect(page.locator("[data-testid=logged-in]")).to_contain_text(name)


def on_screen(page: Page, selector: str) -> bool:
    """The element is visible inside the viewport as it stands (no scrolling)."""
    return bool(page.evaluate(
        """sel => { const el = document.querySelector(sel); if (!el) return false;
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 &&
            r.bottom <= window.innerHeight && r.right <= window.innerWidth; }""", selector))


# ------------------------------------------------------------------------------ connection
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_going_offline_shows_reconnecting_and_the_game_continues(session: Session,
                                                                  size: str, lang: str) -> None:
    white, black = friends(session, lang, minutes=5, **(PHONE if size == "phone" else DESKTOP))
    drag(white, "e2", "e4")
    wait_ply(black, 1)
    drag(black, "e7", "e5")
    wait_ply(white, 2)  # White's clock runs on the server
    connection = black.locator("[data-testid=connection]")
    clocks = [black.locator(f"[data-testid=clock-{c}]") for c in ("white", "black")]
    expect(connection).to_be_hidden()
    black.context.set_offline(True)
    went = time.monotonic()
    expect(connection).to_be_visible(timeout=5000)
    expect(connection).to_contain_text(WORDS[lang]["reconnecting"])
    assert on_screen(black, "[data-testid=connection]")  # not below a phone's board
    for clock in clocks:
        expect(clock).to_have_class(re.compile(r"unsynced"))
        assert clock.get_attribute("data-synced") == "false"
    frozen = [c.text_content() for c in clocks]
    drag(white, "g1", "f3")  # a move made while Black is offline
    wait_ply(white, 3)
    shot(black, f"fair-offline-{size}-{lang}")
    # The offline period itself (~10 s): nothing arrives, nothing runs on Black's screen.
    black.wait_for_timeout(max(0, 10_000 - (time.monotonic() - went) * 1000))
    assert [c.text_content() for c in clocks] == frozen
    assert black.get_attribute("[data-testid=board]", "data-ply") == "2"
    expect(connection).to_be_visible()
    black.context.set_offline(False)
    expect(connection).to_be_hidden(timeout=SLOW)
    wait_ply(black, 3)
    for clock in clocks:
        expect(clock).not_to_have_class(re.compile(r"unsynced"))
    drag(black, "g8", "f6")
    wait_ply(white, 4)


# ------------------------------------------------------------------------------ rematch
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_declined_rematch_leaves_the_offerer_on_the_finished_game(session: Session,
                                                                     lang: str) -> None:
    white, black = friends(session, lang)
    first = game_id(white)
    white.click("[data-testid=abort]")
    expect(black.locator("[data-testid=result]")).to_be_visible()
    white.click("[data-testid=rematch]")
    white.click("[data-testid=rematch-same]")
    offer = white.locator("[data-testid=offer-box]")
    expect(offer).to_contain_text(WORDS[lang]["sent"])
    black.click("[data-testid=rematch-decline]")
    expect(offer).to_contain_text(WORDS[lang]["declined"])
    assert game_id(white) == first
    expect(white.locator("[data-testid=result]")).to_be_visible()
    expect(white.locator("[data-testid=waiting-room]")).to_be_hidden()
    expect(white.locator("[data-testid=rematch]")).to_be_enabled()
    shot(white, f"fair-rematch-declined-{lang}")
    # Offered again and accepted: both reach the new game.
    white.click("[data-testid=rematch]")
    white.click("[data-testid=rematch-same]")
    black.click("[data-testid=rematch-accept]")
    for pg in (white, black):
        pg.wait_for_function(f"!location.hash.includes('{first}')")
        wait_board(pg)
    assert game_id(white) == game_id(black)
    expect(white.locator("[data-testid=seat]")).to_contain_text(
        "Black" if lang == "en" else "Negras")


# ------------------------------------------------------------------------------ dialogs
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_back_closes_the_resign_dialog(session: Session, server: str, size: str,
                                       lang: str) -> None:
    page = session.page(lang, **(PHONE if size == "phone" else DESKTOP))
    page.goto("/")
    new_game(page, "chess960", "hotseat", number=518)
    gid = game_id(page)
    drag(page, "e2", "e4")
    wait_ply(page, 1)
    drag(page, "e7", "e5")
    wait_ply(page, 2)
    page.click("[data-testid=resign]")
    expect(page.locator("[role=dialog]")).to_be_visible()
    page.go_back()
    page.wait_for_function(f"!location.hash.includes('{gid}')")
    expect(page.locator("[role=dialog]")).to_have_count(0)
    expect(page.locator(".overlay")).to_have_count(0)
    assert server_state(server, gid)["status"] == "playing"


# ------------------------------------------------------------------------------ account
@pytest.mark.parametrize("lang", ["en", "es"])
def test_deleting_an_account_asks_for_its_password_in_a_dialog(session: Session, server: str,
                                                               lang: str) -> None:
    page = session.page(lang)
    name = f"leaver-{lang}"
    sign_up(page, name)
    page.fill("[data-testid=old-password]", PASSWORD)  # the change-password box is not it
    page.click("[data-testid=delete-account]")
    dialog = page.locator("[role=dialog]")
    expect(dialog).to_be_visible()
    field = dialog.locator("[data-testid=delete-password]")
    expect(field).to_be_visible()
    assert field.input_value() == ""
    shot(page, f"fair-delete-dialog-{lang}")
    dialog.locator("[data-testid=confirm-no]").click()
    expect(dialog).to_have_count(0)
    assert page.request.get(f"/api/players/{name}").status == 200
    page.click("[data-testid=delete-account]")
    page.fill("[data-testid=delete-password]", "a wrong password")
    page.click("[data-testid=delete-confirm]")
    expect(page.locator("[data-testid=account-error]")).not_to_be_empty()
    assert page.request.get(f"/api/players/{name}").status == 200
    page.click("[data-testid=delete-account]")
    page.fill("[data-testid=delete-password]", PASSWORD)
    page.click("[data-testid=delete-confirm]")
    expect(page.locator("[data-testid=signup-form]")).to_be_visible()
    assert page.request.get(f"/api/players/{name}").status == 404


# ------------------------------------------------------------------------------ offers
@pytest.mark.parametrize("lang", ["en", "es"])
def test_offers_on_a_phone_are_on_screen_with_a_sound_and_notices(session: Session,
                                                                  lang: str) -> None:
    white, black = friends(session, lang, **PHONE)
    drag(white, "e2", "e4")
    wait_ply(black, 1)
    drag(black, "e7", "e5")
    wait_ply(white, 2)
    notice = white.locator("[data-testid=offer-box]")
    for kind in ("draw", "takeback"):
        white.click(f"[data-testid={kind}-offer]")
        expect(notice).to_contain_text(WORDS[lang]["sent"])
        assert on_screen(white, "[data-testid=offer-box]")
        expect(black.locator(f"[data-testid={kind}-accept]")).to_be_visible()
        assert on_screen(black, "[data-testid=offer-box]")
        assert on_screen(black, f"[data-testid={kind}-accept]")
        assert on_screen(black, f"[data-testid={kind}-decline]")
        black.wait_for_function("window.rcGame.sounds.log.includes('offer')")
        black.evaluate("window.rcGame.sounds.log.length = 0")
        shot(black, f"fair-phone-{kind}-offer-{lang}")
        black.click(f"[data-testid={kind}-decline]")
        expect(notice).to_contain_text(WORDS[lang]["declined"])
        assert on_screen(white, "[data-testid=offer-box]")
    assert game_state(white)["status"] == "playing"


# ------------------------------------------------------------------------------ accounts
def test_no_401_in_the_console_on_anonymous_page_loads(session: Session) -> None:
    page = session.page()
    for where in ("/", "/#/lobby", "/#/account"):
        page.goto(where)
        page.wait_for_load_state("networkidle")
    new_game(page, "chess960", "hotseat", number=518)
    page.wait_for_function("document.querySelector('.game')?.dataset.claim === 'no'")
    page.wait_for_load_state("networkidle")
    bad = [m for m in session.console if "401" in m or "Unauthorized" in m]
    assert not bad, bad


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_challenge_can_be_declined(session: Session, lang: str) -> None:
    alice, bob = session.page(lang), session.page(lang)
    sign_up(alice, f"chal-a-{lang}")
    sign_up(bob, f"chal-b-{lang}")
    alice.goto("/#/lobby")
    bob.goto("/#/lobby")
    alice.fill("[data-testid=seek-opponent]", f"chal-b-{lang}")
    alice.click("[data-testid=seek-post]")
    row = bob.locator("[data-testid=seek]", has_text=f"chal-a-{lang}")
    decline = row.locator("[data-testid=challenge-decline]")
    expect(decline).to_be_visible()
    shot(bob, f"fair-challenge-{lang}")
    decline.click()
    expect(row).to_have_count(0)
    expect(alice.locator("[data-testid=seek]", has_text=f"chal-a-{lang}")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_ratings_beside_the_names_during_a_rated_game(session: Session, size: str,
                                                      lang: str) -> None:
    options = PHONE if size == "phone" else DESKTOP
    alice, bob = session.page(lang, **options), session.page(lang, **options)
    a, b = f"rated-a-{size[0]}{lang}", f"rated-b-{size[0]}{lang}"
    sign_up(alice, a)
    sign_up(bob, b)
    alice.goto("/#/lobby")
    bob.goto("/#/lobby")
    alice.click("[data-testid=seek-post]")  # rated by default
    bob.locator("[data-testid=seek]", has_text=a).locator(
        "[data-testid=seek-accept]").click()
    for pg in (alice, bob):
        pg.wait_for_url(re.compile(r"#/game/"))
        wait_board(pg)
    for pg in (alice, bob):
        for colour in ("white", "black"):
            expect(pg.locator(f"[data-testid=rating-{colour}]")).to_have_text(
                re.compile(r"^\d{3,4}\??$"))
            expect(pg.locator(f"[data-testid=rating-{colour}]")).to_be_visible()
    shot(alice, f"fair-rated-names-{size}-{lang}")

