"""Issue 32 in a real browser: the setup preview. Two players of a timed friend game see the
same preview (the setup's number, its castling squares, its brief, the same countdown), the
board locked; each presses Ready, and the game starts at once for both, on a desktop and on a
phone, in English and in Spanish. The lobby's seek form shows the rule against
setup-shopping.

Playwright drives Debian's chromium against ``randomchess serve`` with the preview on (the
product's default; the other browser suites turn it off). Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from web_support import (
    SIZES,
    BrowserSession,
    drag,
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

DESKTOP = {"viewport": SIZES["desktop"]}
PHONE = {"viewport": SIZES["phone"], "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
WORDS = {
    "en": {"title": "Setup preview", "clocks": "Clocks start in", "number": "Setup #518",
           "waiting": "waiting for your opponent", "their": "opponent is ready",
           "casual": "Casual game", "rule": "counts as a loss",
           "evaluation": "Evaluation: +0.35 (Stockfish, depth 14)",
           "bounds": "Setup preview (seconds): from 0 to 600."},
    "es": {"title": "Vista previa de la posición", "clocks": "Los relojes empiezan en",
           "number": "Posición n.º 518", "waiting": "esperando a tu rival",
           "their": "rival está listo", "casual": "Partida amistosa",
           "rule": "cuenta como derrota",
           "evaluation": "Evaluación: +0,35 (Stockfish, profundidad 14)",
           "bounds": "Vista previa de la posición (segundos): de 0 a 600."},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("preview"), RANDOMCHESS_PREVIEW="true",
                        RANDOMCHESS_SIGNUP_PER_HOUR="100") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def session(browser: Browser, server: str) -> Iterator[BrowserSession]:
    s = BrowserSession(browser, server, DESKTOP)
    yield s
    s.close()
    assert not s.errors, f"JavaScript errors: {s.errors}"


def friends(session: BrowserSession, lang: str, variant: str = "chess960", number: int = 518,
            **options: Any) -> tuple[Page, Page]:
    """White creates a 3+2 friend game (chess960 #518, a 20 s preview); Black joins."""
    white = session.page(lang, **options)
    black = session.page(lang, **options)
    new_game(white, variant, "friend", color="white", number=number, minutes=3, increment=2)
    black.goto(white.input_value("[data-testid=invite-url]"))
    black.click("[data-testid=join]")
    black.wait_for_url(re.compile(r"#/game/"))
    wait_board(black)
    return white, black


def on_screen(page: Page, selector: str) -> bool:
    """The element is visible inside the viewport as it stands (no scrolling)."""
    return bool(page.evaluate(
        """sel => { const el = document.querySelector(sel); if (!el) return false;
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 &&
            r.bottom <= window.innerHeight && r.right <= window.innerWidth; }""", selector))


def seconds(page: Page) -> int:
    value = page.get_attribute("[data-testid=setup-preview-countdown]", "data-seconds")
    assert value is not None
    return int(value)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_both_players_see_the_same_preview_press_ready_and_play(
        session: BrowserSession, size: str, lang: str) -> None:
    words = WORDS[lang]
    white, black = friends(session, lang, **(PHONE if size == "phone" else DESKTOP))
    for pg in (white, black):
        box = pg.locator("[data-testid=setup-preview]")
        expect(box).to_be_visible()
        expect(box).to_contain_text(words["title"])
        expect(pg.locator("[data-testid=setup-preview-countdown]")).to_contain_text(words["clocks"])
        expect(pg.locator("[data-testid=setup-preview-number]")).to_have_text(words["number"])
        # Chess960 #518 is the classical array: O-O puts the king on g1, the rook on f1.
        expect(pg.locator("[data-testid=setup-preview-castling]")).to_contain_text("g1")
        expect(box.locator("[data-testid=card-brief]")).to_have_attribute("data-ready", "yes")
        # The shipped evaluation of #518 (Stockfish, depth 14: +35 cp), said explicitly.
        expect(pg.locator("[data-testid=setup-preview-evaluation]")).to_have_text(
            re.compile("^" + re.escape(words["evaluation"])))
        expect(pg.get_by_test_id("game-brief")).to_be_hidden()  # the folded one waits
        expect(pg.locator("[data-testid=setup-preview-rule]")).to_contain_text(words["casual"])
        assert pg.locator("[data-testid=san-input]").is_hidden()  # nothing to type yet
        # The countdown and Ready stay on screen, on a phone too.
        assert on_screen(pg, "[data-testid=setup-preview-countdown]")
        assert on_screen(pg, "[data-testid=setup-preview-ready]")
    # One shared countdown: both pages read the same second (or the next one over).
    assert abs(seconds(white) - seconds(black)) <= 1
    assert 10 <= seconds(white) <= 20
    shot(white, f"preview-{size}-{lang}")
    # The board is locked: a drag does nothing.
    drag(white, "e2", "e4")
    white.wait_for_timeout(300)  # the drag's (absent) effect would be immediate
    assert white.get_attribute("[data-testid=board]", "data-ply") == "0"
    # White is ready; Black is told, and the countdown goes on.
    white.click("[data-testid=setup-preview-ready]")
    expect(white.locator("[data-testid=setup-preview-who]")).to_contain_text(words["waiting"])
    expect(white.locator("[data-testid=setup-preview-ready]")).to_be_hidden()
    expect(black.locator("[data-testid=setup-preview-who]")).to_contain_text(words["their"])
    expect(black.locator("[data-testid=setup-preview]")).to_be_visible()
    shot(black, f"preview-ready-{size}-{lang}")
    # Both ready: the game starts at once for both, long before the countdown's end.
    black.click("[data-testid=setup-preview-ready]")
    for pg in (white, black):
        expect(pg.locator("[data-testid=setup-preview]")).to_be_hidden(timeout=5000)
    drag(white, "e2", "e4")
    wait_ply(black, 1)
    drag(black, "e7", "e5")
    wait_ply(white, 2)
    expect(white.locator("[data-testid=clock-white]")).not_to_have_text("3:00")  # running


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_seek_form_shows_the_rule_against_setup_shopping(session: BrowserSession,
                                                             lang: str) -> None:
    page = session.page(lang)
    name = f"prev{lang}"
    page.goto("/#/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", "a long enough password")
    page.fill("[data-testid=password-again]", "a long enough password")
    page.click("[data-testid=signup]")
    expect(page.locator("[data-testid=logged-in]")).to_contain_text(name)
    page.goto("/#/lobby")
    expect(page.locator("[data-testid=seek-rule]")).to_contain_text(WORDS[lang]["rule"])
    page.fill("[data-testid=seek-preview]", "45")
    page.click("[data-testid=seek-post]")
    mode = page.locator("tr.own [data-testid=seek-mode]")  # not the other language's seek
    expect(mode).to_contain_text("45 s")
    assert WORDS[lang]["rule"] in (mode.get_attribute("title") or "")
    shot(page, f"preview-seek-{lang}")


def test_the_preview_says_nothing_of_an_evaluation_the_package_does_not_ship(
        session: BrowserSession) -> None:
    """Capablanca Random Chess has numbered setups but no shipped evaluations: the preview
    shows the brief and no evaluation line at all."""
    white, black = friends(session, "en", variant="crc", number=0)
    for pg in (white, black):
        box = pg.locator("[data-testid=setup-preview]")
        expect(box).to_be_visible()
        expect(box.locator("[data-testid=card-brief]")).to_have_attribute("data-ready", "yes")
        # The line is removed when the brief's answer has no evaluation (its callback ran
        # before data-ready was read).
        assert pg.locator("[data-testid=setup-preview-evaluation]").count() == 0
        assert "Evaluation" not in (box.text_content() or "")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_home_form_starts_a_computer_game_with_a_preview(session: BrowserSession,
                                                             lang: str) -> None:
    """Issue 32's last web item: the home form asks for a setup preview against the computer
    (the API's ``preview``), says its bounds before anything is sent, and the game opens on
    the countdown with the computer already ready; Ready starts it at once."""
    words = WORDS[lang]
    page = session.page(lang)
    page.goto("/")
    page.select_option("[data-testid=variant]", "chess960")
    page.check("input[name=setup][value=number]")
    page.fill("[data-testid=setup-number]", "518")
    page.check("input[name=opponent][value=computer]")
    page.fill("input[name=level]", "1")
    page.check("input[name=color][value=white]")
    page.click("[data-testid=preset-unlimited]")
    field = page.get_by_test_id("preview-field")
    expect(field).to_be_hidden()  # an untimed game has no preview
    page.click("[data-testid='preset-3+2']")
    expect(field).to_be_visible()
    expect(page.get_by_test_id("preview-hint")).to_contain_text(words["bounds"])
    # Out of the server's bounds: said in the page's language, nothing sent.
    page.fill("[data-testid=preview-seconds]", "700")
    page.click("[data-testid=start]")
    expect(page.locator("form.home p.error")).to_have_text(words["bounds"])
    assert "#/game/" not in page.url
    page.fill("[data-testid=preview-seconds]", "40")
    page.click("[data-testid=start]")
    page.wait_for_url(re.compile(r"#/game/"))
    wait_board(page)
    expect(page.locator("[data-testid=setup-preview]")).to_be_visible()
    expect(page.locator("[data-testid=setup-preview-countdown]")).to_contain_text(words["clocks"])
    expect(page.locator("[data-testid=setup-preview-number]")).to_have_text(words["number"])
    assert 20 <= seconds(page) <= 40
    # The computer is ready at once; the countdown waits for the player.
    expect(page.locator("[data-testid=setup-preview-who]")).to_contain_text(words["their"])
    shot(page, f"preview-computer-{lang}")
    page.click("[data-testid=setup-preview-ready]")
    expect(page.locator("[data-testid=setup-preview]")).to_be_hidden(timeout=5000)
    drag(page, "e2", "e4")
    wait_ply(page, 2)  # the computer answers
