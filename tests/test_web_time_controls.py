"""Multi-period and delay clocks in a real browser (issue 34): a game started from the home
form with a PGN control shows the control in words and the moves to the next control, and a
clock in its simple delay stands still before it counts down."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from web_support import (
    SLOW,
    drag,
    launched_browser,
    running_server,
    skip_without_browser,
    wait_board,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tc")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def open_home(browser: Browser, server: str, lang: str) -> tuple[Page, list[str]]:
    ctx = browser.new_context(base_url=server, bypass_csp=True,
                              viewport={"width": 1280, "height": 800})
    ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/")
    return page, errors


def start(page: Page, control: str) -> None:
    page.select_option("[data-testid=variant]", "chess")
    page.check("input[name=opponent][value=hotseat]")
    page.fill("[data-testid=control]", control)
    page.click("[data-testid=start]")


def test_a_delay_clock_stands_still_then_counts_and_the_control_is_added(
        browser: Browser, server: str) -> None:
    page, errors = open_home(browser, server, "en")
    start(page, "2/60+3d:30+3d")
    page.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
    wait_board(page)
    expect(page.locator("[data-testid=time-control]")).to_have_text(
        "2 moves in 1 min, then 30 s, 3 s delay")
    expect(page.locator("[data-testid=to-control-white]")).to_have_text(
        "2 moves to the time control")
    drag(page, "e2", "e4", (0.3, 0.7))
    wait_ply(page, 1)
    expect(page.locator("[data-testid=to-control-white]")).to_have_text(
        "1 move to the time control")
    # Record every text White's clock shows from now on (the element is redrawn: look it up).
    page.evaluate("""() => {
      window.seen = [];
      const note = () => {
        const el = document.querySelector('[data-testid=clock-white]');
        if (el) window.seen.push(el.textContent);
      };
      new MutationObserver(note).observe(document.body,
        {childList: true, subtree: true, characterData: true});
    }""")
    drag(page, "e7", "e5", (0.7, 0.3))
    wait_ply(page, 2)  # White's clock runs, in its delay
    expect(page.locator("[data-testid=delay-white]")).to_be_visible()
    clock = page.locator("[data-testid=clock-white]")
    expect(clock).to_have_text("0:59", timeout=SLOW)  # after the delay it counts down
    seen = page.evaluate("window.seen")
    during = [text for text in seen if "+" in text]
    assert during and all(text.startswith("1:00") for text in during), seen
    drag(page, "g1", "f3", (0.6, 0.4))  # White's move 2: the control adds 30 s
    wait_ply(page, 3)
    expect(clock).to_have_text(re.compile(r"^1:2\d$"))
    expect(page.locator("[data-testid=to-control-white]")).to_have_count(0)
    pgn = page.evaluate("fetch(`/api/games/${window.rcGame.state.id}/pgn`).then(r => r.text())")
    assert '[TimeControl "2/60+3d:30+3d"]' in pgn
    assert errors == []


def test_a_bad_control_is_refused_in_spanish_and_nothing_starts(
        browser: Browser, server: str) -> None:
    page, errors = open_home(browser, server, "es")
    start(page, "300:40/60")
    expect(page.locator("form .error, [data-testid=form-error], .error").first).to_contain_text(
        "solo el último periodo")
    assert "#/game/" not in page.url
    page.fill("[data-testid=control]", "30/1500:300+5")
    page.click("[data-testid=start]")
    page.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
    expect(page.locator("[data-testid=time-control]")).to_have_text(
        "30 jugadas en 25 min, después 5 min, +5 s por jugada desde la jugada 31")
    assert errors == []
