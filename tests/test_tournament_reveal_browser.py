"""Issue 30 in a browser: the organiser creates an event whose setups are revealed in the hall
(exclusions and a preparation window chosen in the form), pairs round 1, is refused an input
that is not digits with the reason on the page, reveals the round with the hall's digits, and
the hall view shows the setup and the countdown to the games.  Skipped (loudly) without
chromium or the built bundle."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from web_support import launched_browser, running_server, skip_without_browser

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, expect

pytestmark = skip_without_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("reveal-web")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def test_a_round_revealed_from_the_event_page_and_shown_in_the_hall(
        browser: Browser, server: str) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    o = context.new_page()
    errors: list[str] = []
    o.on("pageerror", lambda e: errors.append(str(e)))
    try:
        o.goto("/#/tournament/new")
        o.fill("[data-testid=t-name]", "Hall Web 2026")
        o.fill("input[name=rounds]", "3")
        o.select_option("[data-testid=t-source]", "hall")
        o.fill("[data-testid=t-excluded]", "standard")
        o.select_option("[data-testid=t-prep]", "5")
        o.click("[data-testid=t-create]")
        o.click("[data-testid=t-to-event]")  # past the secret, shown once (issue 30)
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
        o.reload()
        o.wait_for_selector("[data-testid=t-awaits-reveal]")
        assert "518, 534" in (o.text_content("body") or "")
        assert o.locator("[data-testid=t-online]").count() == 0  # no games before the reveal
        o.fill("[data-testid=t-reveal-input]", "35x614")
        o.click("[data-testid=t-reveal]")
        flash = o.wait_for_selector("[data-testid=t-flash]")
        assert "0-9" in (flash.text_content() or "")
        o.fill("[data-testid=t-reveal-input]", "352 614")
        o.click("[data-testid=t-reveal]")
        o.wait_for_selector("[data-testid=t-revealed]")
        assert "352614" in (o.text_content("[data-testid=t-revealed]") or "")
        o.wait_for_selector("[data-testid=t-diagram]")
        event = o.request.get(f"/api/tournaments/{eid}").json()
        setup = event["round_list"][0]["boards"][0]["setup"]
        assert setup not in (518, 534)
        assert o.locator("[data-testid=t-reveal]").count() == 0  # revealed once
        o.goto(f"/#/tournament/{eid}/hall")
        countdown = o.locator("[data-testid=t-countdown]")
        expect(countdown).to_contain_text(re.compile(r"Preparation: .* [45]:\d\d"))
        assert str(setup) in (o.text_content(".hall-setup") or "")
        castling = o.text_content("[data-testid=t-hall-castling]") or ""
        assert "O-O: Kg1 Rf1" in castling and "O-O-O: Kc1 Rd1" in castling
        assert errors == []
    finally:
        context.close()
