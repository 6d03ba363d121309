"""Issue 30 in a real browser: events belong to accounts (the organiser signed in on a second
browser keeps the controls; a co-arbiter added by name gets them), the list of events and
"my events", the organiser secret of an anonymous event shown once with a copy button, a
refresh that keeps an opened section and a half-typed field, the verification in words and a
missing event's hall view.  English and Spanish where the page's words are new.  Skipped
(loudly) without chromium or the built bundle."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from web_support import ARTIFACTS, SLOW, launched_browser, running_server, skip_without_browser

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = skip_without_browser
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tournament-accounts")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def _context(browser: Browser, server: str, **kw: Any) -> BrowserContext:
    # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids.
    return browser.new_context(base_url=server, viewport={"width": 1200, "height": 900},
                               bypass_csp=True, **kw)


def _sign_in(ctx: BrowserContext, name: str, new: bool) -> None:
    token = ctx.request.get("/api/account/csrf").json()["csrf"]
    r = ctx.request.post(f"/api/account/{'signup' if new else 'login'}",
                         data={"name": name, "password": PASSWORD},
                         headers={"X-CSRF-Token": token})
    assert r.ok, r.text()


def _create(page: Page, name: str, rounds: int = 1) -> None:
    if not page.url.endswith("#/tournament/new"):
        page.goto("/#/tournament/new")
    page.fill("[data-testid=t-name]", name)
    page.fill("input[name=rounds]", str(rounds))
    page.click("[data-testid=t-create]")


def _event_id(page: Page) -> str:
    page.wait_for_url(re.compile(r"#/tournament/[0-9a-f]+$"))
    return page.url.rsplit("/", 1)[1]


def _refreshes(page: Page) -> int:
    return int(page.get_attribute("main", "data-refreshes") or 0)


def _wait_refresh(page: Page, after: int) -> None:
    page.wait_for_function(
        f"Number(document.querySelector('main').dataset.refreshes) > {after}", timeout=SLOW)


def test_an_account_runs_its_event_from_a_second_browser_with_a_co_arbiter(
        browser: Browser, server: str) -> None:
    desk, laptop, colleague, public = (_context(browser, server) for _ in range(4))
    try:
        _sign_in(desk, "ana", new=True)
        _sign_in(colleague, "bea", new=True)
        _sign_in(laptop, "ana", new=False)
        o = desk.new_page()
        o.goto("/#/tournament/new")
        o.wait_for_function("(document.querySelector('[data-testid=t-owner-hint]')"
                            "?.textContent ?? '').includes('ana')")
        _create(o, "Ana Open 2026")
        eid = _event_id(o)
        o.wait_for_selector("[data-testid=t-organiser]")
        assert o.locator("[data-testid=t-secret-box]").count() == 0  # signed in: no secret
        assert "ana" in (o.text_content("[data-testid=t-staff]") or "")
        # The same account on another browser: no secret there, the controls all the same.
        second = laptop.new_page()
        second.goto(f"/#/tournament/{eid}")
        second.wait_for_selector("[data-testid=t-organiser]")
        assert second.evaluate(f"localStorage.getItem('rc-tournament-{eid}')") is None
        assert second.text_content("[data-testid=t-role]") == "You organise this event."
        second.click("[data-testid=t-section-arbiters] summary")
        second.fill("[data-testid=t-arbiter-name]", "bea")
        second.click("[data-testid=t-add-arbiter]")
        second.wait_for_selector("[data-testid=t-arbiter-list] li")
        assert "bea" in (second.text_content("[data-testid=t-staff]") or "")
        # The co-arbiter, by her own account, on her own browser.
        c = colleague.new_page()
        c.goto(f"/#/tournament/{eid}")
        c.wait_for_selector("[data-testid=t-organiser]")
        assert c.text_content("[data-testid=t-role]") == "You are a co-arbiter of this event."
        assert c.locator("[data-testid=t-section-arbiters]").count() == 0
        for name in ("Ann", "Bob"):
            count = c.locator("[data-testid=t-players] li").count()
            c.fill("[data-testid=t-player-name]", name)
            c.click("[data-testid=t-add]")
            c.wait_for_function("document.querySelectorAll('[data-testid=t-players] li')"
                                f".length === {count + 1}")
        c.click("[data-testid=t-start]")
        c.wait_for_selector("[data-testid=t-pair]")
        # A spectator sees the page without controls, and may paste a secret.
        p = public.new_page()
        p.goto(f"/#/tournament/{eid}")
        p.wait_for_selector("[data-testid=t-section-secret]")
        assert p.locator("[data-testid=t-organiser]").count() == 0
        # The list of events from the header, and "my events" on the account page.
        p.click("[data-testid=nav-events]")
        p.wait_for_selector("[data-testid=t-running] a")
        assert "Ana Open 2026" in (p.text_content("[data-testid=t-running]") or "")
        assert "ana" in (p.text_content(f"[data-event='{eid}']") or "")
        p.select_option("[data-testid=lang]", "es")
        p.wait_for_selector("text=En curso")
        assert p.text_content("[data-testid=nav-events]") == "Torneos"
        p.screenshot(path=str(ARTIFACTS / "tournament-list-es.png"), full_page=True)
        for page, role in ((second, "organiser"), (c, "co-arbiter")):
            page.goto("/#/account")
            page.wait_for_selector("[data-testid=t-my-events] a")
            row = page.text_content(f"[data-testid=t-my-events] [data-event='{eid}']") or ""
            assert "Ana Open 2026" in row and role in row
    finally:
        for ctx in (desk, laptop, colleague, public):
            ctx.close()


def test_a_refresh_keeps_the_opened_section_and_the_half_typed_fields(
        browser: Browser, server: str) -> None:
    ctx = _context(browser, server)
    try:
        _sign_in(ctx, "cid", new=True)
        o = ctx.new_page()
        _create(o, "Refresh Open")
        _event_id(o)
        o.wait_for_selector("[data-testid=t-organiser]")
        for name in ("Ann", "Bob"):
            o.fill("[data-testid=t-player-name]", name)
            o.click("[data-testid=t-add]")
            o.wait_for_selector(f"[data-testid=t-players] li:has-text('{name}')",
                                state="attached")
        o.click("[data-testid=t-section-players] summary")
        o.click("[data-testid=t-section-arbiters] summary")
        o.fill("[data-testid=t-player-name]", "Carl Ma")  # half typed...
        o.fill("[data-testid=t-arbiter-name]", "som")
        o.click("[data-testid=t-title]")  # ...and the organiser looks elsewhere
        before = _refreshes(o)
        _wait_refresh(o, before)
        _wait_refresh(o, before + 1)  # a second one, to be sure the page was redrawn
        assert o.get_attribute("[data-testid=t-section-players]", "open") is not None
        assert o.get_attribute("[data-testid=t-section-arbiters]", "open") is not None
        assert o.input_value("[data-testid=t-player-name]") == "Carl Ma"
        assert o.input_value("[data-testid=t-arbiter-name]") == "som"
        # Typing while a refresh comes: the text, the focus and the caret stay.
        o.click("[data-testid=t-player-name]")
        o.keyboard.press("End")
        before = _refreshes(o)
        _wait_refresh(o, before)
        o.keyboard.type("rtin")
        assert o.input_value("[data-testid=t-player-name]") == "Carl Martin"
        o.click("[data-testid=t-add]")
        o.wait_for_selector("[data-testid=t-players] li:has-text('Carl Martin')")
        assert o.input_value("[data-testid=t-player-name]") == ""  # entered: the draft goes
        assert o.get_attribute("[data-testid=t-section-players]", "open") is not None
    finally:
        ctx.close()


def test_an_anonymous_event_shows_its_secret_once_with_a_copy_button(
        browser: Browser, server: str) -> None:
    ctx = _context(browser, server, permissions=["clipboard-read", "clipboard-write"])
    other = _context(browser, server)
    try:
        o = ctx.new_page()
        o.goto("/#/tournament/new")
        o.select_option("[data-testid=lang]", "es")
        o.wait_for_function("(document.querySelector('[data-testid=t-owner-hint]')"
                            "?.textContent ?? '').includes('clave de organizador')")
        _create(o, "Copa Anónima")
        o.wait_for_selector("[data-testid=t-secret-box]")
        secret = o.input_value("[data-testid=t-secret]")
        assert len(secret) >= 24
        assert "solo se muestra una vez" in (o.text_content("[data-testid=t-secret-box]") or "")
        o.screenshot(path=str(ARTIFACTS / "tournament-secret-es.png"))
        o.click("[data-testid=t-copy-secret]")
        o.wait_for_function("(document.querySelector('[data-testid=t-copied]')?.textContent ?? '') "
                            "=== 'Copiada.'")
        assert o.evaluate("navigator.clipboard.readText()") == secret
        o.click("[data-testid=t-to-event]")
        eid = _event_id(o)
        o.wait_for_selector("[data-testid=t-organiser]")
        assert o.locator("[data-testid=t-secret-box]").count() == 0  # once only
        o.goto(f"/#/tournament/{eid}")
        o.wait_for_selector("[data-testid=t-organiser]")
        assert o.locator(f"text={secret}").count() == 0
        # Another device: the secret, pasted, gives the organiser's controls there too.
        p = other.new_page()
        p.goto(f"/#/tournament/{eid}")
        p.click("[data-testid=t-section-secret] summary")
        p.fill("[data-testid=t-secret-input]", "not the secret")
        p.click("[data-testid=t-use-secret]")
        p.wait_for_selector("[data-testid=t-flash]")
        assert p.locator("[data-testid=t-organiser]").count() == 0
        p.fill("[data-testid=t-secret-input]", secret)
        p.click("[data-testid=t-use-secret]")
        p.wait_for_selector("[data-testid=t-organiser]")
    finally:
        ctx.close()
        other.close()


def _closed_event(page: Page) -> str:
    r = page.request.post("/api/tournaments", data={"name": "Verified Cup", "rounds": 1})
    out = r.json()
    eid, auth = out["id"], {"X-Organiser-Secret": out["organiser_secret"]}
    for name in ("Ann", "Bob"):
        assert page.request.post(f"/api/tournaments/{eid}/players", data={"name": name},
                                 headers=auth).ok
    for step in ("start", "pair"):
        assert page.request.post(f"/api/tournaments/{eid}/{step}", headers=auth).ok
    assert page.request.post(f"/api/tournaments/{eid}/results", headers=auth,
                             data={"round": 1, "board": 1, "result": "1/2"}).ok
    assert page.request.post(f"/api/tournaments/{eid}/close", headers=auth).ok
    return str(eid)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_verification_is_a_page_in_words(browser: Browser, server: str, lang: str) -> None:
    ctx = _context(browser, server)
    try:
        page = ctx.new_page()
        eid = _closed_event(page)
        page.goto(f"/?lang={lang}#/tournament/{eid}")
        page.click("[data-testid=t-verify]")
        page.wait_for_url(re.compile(r"/verify$"))
        page.wait_for_selector("[data-testid=t-verify-result]")
        said = page.text_content("[data-testid=t-verify-result]") or ""
        assert said.startswith("Verified:" if lang == "en" else "Verificado:")
        assert page.locator("[data-testid=t-verify-rounds] tr").count() == 1
        assert "{" not in (page.text_content("main") or "")  # no raw JSON on the page
        page.screenshot(path=str(ARTIFACTS / f"tournament-verify-{lang}.png"))
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_missing_events_hall_view_says_so(browser: Browser, server: str, lang: str) -> None:
    ctx = _context(browser, server)
    try:
        page = ctx.new_page()
        page.goto(f"/?lang={lang}#/tournament/0123456789/hall")
        page.wait_for_selector("[data-testid=t-missing]")
        text = page.text_content("[data-testid=t-missing]") or ""
        assert "0123456789" in text
        assert text.startswith("There is no event" if lang == "en" else "No hay ningún torneo")
    finally:
        ctx.close()
