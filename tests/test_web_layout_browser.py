"""Every page around the game fits its window (issue 37, item 1): at a desktop (1366x768 and
900x700), a tablet (1180x820) and a phone (390x844, touch), in English and Spanish, the
document is no wider than the window and every control (input, select, textarea, button, link)
lies inside it.  Screenshots go to test-artifacts/layout-<page>-<size>-<lang>.png."""

from __future__ import annotations

import contextlib
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_support import (
    ARTIFACTS,
    SIZES,
    launched_browser,
    running_server,
    sized_page,
    skip_without_browser,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser


# What each page shows once drawn (a selector to wait for).
PAGES = {
    "analysis": ("/#/analysis", "[data-testid=load]"),
    "signup": ("/#/account", "[data-testid=signup]"),
    "shuffler": ("/#/shuffler", "main button"),
    "statistics": ("/#/stats/chess960/518", "main h1, main h2"),
    "tournament-new": ("/#/tournament/new", "[data-testid=t-create]"),
    "tournament": ("/#/tournament/{eid}", "[data-testid=t-commitment]"),
    "tournaments": ("/#/tournaments", "[data-testid=t-upcoming]"),
    # Then, signed up: the lobby with a seek of one's own, and the account page.
    "lobby": ("/#/lobby", "[data-testid=seek]"),
    "account": ("/#/account", "[data-testid=change-password]"),
}

# Every control and whether it is inside the window horizontally (a hidden one is not drawn).
OUTSIDE = """w => {
  const out = [];
  for (const el of document.querySelectorAll('input, select, textarea, button, a[href], label')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('cg-board, cg-container')) continue;
    if (r.left < -0.5 || r.right > w + 0.5) {
      const what = el.dataset.testid || el.name || el.textContent.trim().slice(0, 20);
      out.push(`${el.tagName.toLowerCase()}[${what}] ${r.left | 0}..${r.right | 0}`);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("layout")),
                        RANDOMCHESS_SIGNUP_PER_HOUR="100") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture(scope="module")
def event(server: str) -> str:
    req = urllib.request.Request(
        server + "/api/tournaments", method="POST",
        headers={"Content-Type": "application/json"},
        data=json.dumps({"name": "Layout Open 2026", "rounds": 3}).encode())
    with urllib.request.urlopen(req, timeout=60) as r:
        return str(json.loads(r.read())["id"])


def _open(browser: Browser, server: str, size: str, lang: str) -> tuple[Page, list[str]]:
    page = sized_page(browser, server, size, lang)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def _sign_up_and_seek(page: Page, name: str) -> None:
    page.goto("/#/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", "a long enough password")
    page.fill("[data-testid=password-again]", "a long enough password")
    page.click("[data-testid=signup]")
    page.wait_for_selector("[data-testid=logged-in]")
    page.goto("/#/lobby")
    page.click("[data-testid=seek-post]")


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_fits_the_window(browser: Browser, server: str, event: str, size: str,
                                    lang: str) -> None:
    page, errors = _open(browser, server, size, lang)
    problems: list[str] = []
    try:
        for name, (path, ready) in PAGES.items():
            if name == "lobby":
                _sign_up_and_seek(page, f"lay-{size}-{lang}")
            page.goto(path.format(eid=event))
            page.wait_for_selector(ready, timeout=30_000)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(ARTIFACTS / f"layout-{name}-{size}-{lang}.png"),
                            full_page=True)
            doc = page.evaluate("document.documentElement.scrollWidth")
            # The window's width as set (a phone widens its layout viewport to a too-wide
            # page, so the page's own innerWidth would hide the fault).
            win = SIZES[size]["width"]
            if doc > win:
                problems.append(f"{name}: document {doc} px wide in a {win} px window")
            problems += [f"{name}: {c} outside 0..{win}" for c in page.evaluate(OUTSIDE, win)]
    finally:
        page.context.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_phone_header_takes_two_short_lines(browser: Browser, server: str,
                                                lang: str) -> None:
    """Issue 37, item 4: on a 390 px phone the header took three lines (about 70 px) above
    the board; now the brand and the language share one line and the links the next, all in
    the window."""
    page, errors = _open(browser, server, "phone", lang)
    try:
        page.goto("/#/analysis")
        page.wait_for_selector("[data-testid=load]")
        box = page.locator("header.top").bounding_box()
        assert box is not None
        tops = page.evaluate("[...document.querySelectorAll('header.top nav a')]"
                             ".map(a => Math.round(a.getBoundingClientRect().top))")
        assert len(set(tops)) == 1, f"the links wrap: {tops}"
        assert box["height"] <= 60, f"the header is {box['height']} px tall"
        assert page.evaluate(OUTSIDE, 390) == []
        page.locator("header.top").screenshot(path=str(ARTIFACTS / f"header-phone-{lang}.png"))
    finally:
        page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_correspondence_deadline_under_the_bottom_clock_is_in_the_window(
        browser: Browser, server: str, lang: str) -> None:
    """Issue 37, item 4: at 1366x768 the deadline under the bottom clock of a correspondence
    game was cut off by the window's bottom edge; the board now leaves it room."""
    page, errors = _open(browser, server, "desktop", lang)
    try:
        page.goto("/")
        page.select_option("[data-testid=variant]", "chess")
        page.check("input[name=opponent][value=hotseat]")
        page.select_option("[data-testid=days]", "1")
        page.click("[data-testid=start]")
        page.wait_for_url("**/#/game/**")
        deadline = page.locator("[data-testid=deadline-white]")
        deadline.wait_for()
        page.wait_for_function("document.querySelector('cg-board')"
                               "?.getBoundingClientRect().width > 0")
        # The page redraws the players' lines as the state arrives: measure in one step.
        bottom, board = page.evaluate(
            "[document.querySelector('[data-testid=deadline-white]').getBoundingClientRect()"
            ".bottom, document.querySelector('cg-board').getBoundingClientRect().height]")
        page.screenshot(path=str(ARTIFACTS / f"deadline-desktop-{lang}.png"))
        assert bottom <= SIZES["desktop"]["height"], bottom
        assert board >= 500, board  # still a big board
    finally:
        page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def _post(server: str, path: str, body: object, secret: str) -> dict[str, object]:
    req = urllib.request.Request(
        server + path, method="POST", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Organiser-Secret": secret})
    with urllib.request.urlopen(req, timeout=60) as r:
        out: dict[str, object] = json.loads(r.read())
        return out


@pytest.mark.parametrize(("lang", "words"), [("en", "bye"), ("es", "descanso")])
def test_a_bye_reads_in_words(browser: Browser, server: str, lang: str, words: str) -> None:
    """Issue 37 (polish): a pairing-allocated bye read "bye U" (TRF's letter); now words."""
    created = _post(server, "/api/tournaments", {"name": f"Bye Open {lang}", "rounds": 2}, "")
    eid, secret = str(created["id"]), str(created["organiser_secret"])
    for name, rating in (("Ann", 2000), ("Bob", 1900), ("Cid", 1800)):
        _post(server, f"/api/tournaments/{eid}/players", {"name": name, "rating": rating},
              secret)
    _post(server, f"/api/tournaments/{eid}/start", {}, secret)
    _post(server, f"/api/tournaments/{eid}/pair", {}, secret)
    page, errors = _open(browser, server, "desktop", lang)
    try:
        page.goto(f"/#/tournament/{eid}")
        page.wait_for_selector("[data-testid=t-round-1]")
        cells = page.locator("[data-testid=t-round-1] td[data-testid^=t-result-]")
        texts = [cells.nth(i).inner_text().strip() for i in range(cells.count())]
        assert words in texts, texts
        assert not any(re.search(r"\b[UHFZ]\b", t) for t in texts), texts
    finally:
        page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_the_organiser_panel_shows_only_what_is_left_to_do(browser: Browser,
                                                           server: str) -> None:
    """Issue 37 (polish): "Play this round online" is hidden once every result of the round
    is in, and after the close there is no empty "Organiser" box."""
    created = _post(server, "/api/tournaments", {"name": "Panel Open", "rounds": 1}, "")
    eid, secret = str(created["id"]), str(created["organiser_secret"])
    for name in ("Ann", "Bob"):
        _post(server, f"/api/tournaments/{eid}/players", {"name": name}, secret)
    _post(server, f"/api/tournaments/{eid}/start", {}, secret)
    _post(server, f"/api/tournaments/{eid}/pair", {}, secret)
    page, errors = _open(browser, server, "desktop", "en")
    page.context.add_init_script(f"localStorage.setItem('rc-tournament-{eid}', '{secret}')")
    try:
        page.goto(f"/#/tournament/{eid}")
        expect(page.locator("[data-testid=t-online]")).to_be_visible()
        _post(server, f"/api/tournaments/{eid}/results",
              {"round": 1, "board": 1, "result": "1-0"}, secret)
        page.reload()
        expect(page.locator("[data-testid=t-close]")).to_be_visible()
        expect(page.locator("[data-testid=t-online]")).to_have_count(0)
        _post(server, f"/api/tournaments/{eid}/close", {}, secret)
        page.reload()
        page.wait_for_selector("[data-testid=t-round-1]")
        expect(page.locator("[data-testid=t-organiser]")).to_have_count(0)
    finally:
        page.context.close()
    assert not errors, f"JavaScript errors: {errors}"
