"""Issue 29: an event whose next round has no legal pairing (a dead end) can be closed after
its last complete round, with the arbiter's reason, through the API and from the event page
(the CLI's ``close --early``: tests/test_tournament_fide.py)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from web_support import launched_browser, running_server, skip_without_browser

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, expect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("early-close")) as url:
        yield url


def dead_end(http: httpx.Client) -> tuple[str, dict[str, str]]:
    """Four players, four rounds planned, three played all drawn: round 4 has no pairing."""
    r = http.post("/api/tournaments", json={"name": "Four", "rounds": 4})
    assert r.status_code == 201, r.text
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for i, rating in enumerate((1990, 1980, 1970, 1960)):
        assert http.post(f"/api/tournaments/{eid}/players",
                         json={"name": f"P{i + 1}", "rating": rating}, headers=auth).is_success
    assert http.post(f"/api/tournaments/{eid}/start", headers=auth).is_success
    for rnd in (1, 2, 3):
        assert http.post(f"/api/tournaments/{eid}/pair", headers=auth).is_success
        for board in (1, 2):
            assert http.post(f"/api/tournaments/{eid}/results", headers=auth, json={
                "round": rnd, "board": board, "result": "1/2-1/2"}).is_success
    r = http.post(f"/api/tournaments/{eid}/pair", headers=auth)
    assert r.status_code == 409 or r.status_code == 422, r.text
    return eid, auth


def test_the_api_closes_a_dead_end_event_early_with_a_reason(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        eid, auth = dead_end(http)
        r = http.post(f"/api/tournaments/{eid}/close", headers=auth)
        assert r.status_code in (409, 422) and "--early" in r.json()["detail"]
        r = http.post(f"/api/tournaments/{eid}/close", headers=auth, json={"early": " "})
        assert r.status_code in (409, 422)  # a reason, not blanks
        r = http.post(f"/api/tournaments/{eid}/close", json={"early": "x"})
        assert r.status_code == 403  # organiser only
        assert http.get(f"/api/tournaments/{eid}").json()["status"] == "running"
        r = http.post(f"/api/tournaments/{eid}/close", headers=auth,
                      json={"early": "no legal pairing for round 4"})
        assert r.status_code == 200, r.text
        ev: dict[str, Any] = r.json()
        assert ev["status"] == "closed" and ev["rounds"] == 3 and ev["salt"]
        verified = http.get(f"/api/tournaments/{eid}/verify").json()
        assert verified["verified"] is True and len(verified["rounds"]) == 3


@skip_without_browser
def test_the_page_closes_a_dead_end_event_early(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        eid, auth = dead_end(http)
    with launched_browser() as browser:
        _close_from_the_page(browser, server, eid, auth["X-Organiser-Secret"])


def _close_from_the_page(browser: Browser, server: str, eid: str, secret: str) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1000, "height": 800})
    page = context.new_page()
    try:
        page.goto("/")
        page.evaluate(f"localStorage.setItem('rc-tournament-{eid}', {secret!r})")
        page.goto(f"/?lang=es#/tournament/{eid}")
        early = page.locator("[data-testid=t-close-early]")
        expect(early).to_have_text("Cerrar tras esta ronda")
        assert page.locator("[data-testid=t-close]").count() == 0  # rounds remain
        # The arbiter's result menus are a headed column of the pairings (issue 37): every
        # row has as many cells as the header.
        table = page.locator("[data-testid=t-round-3]")
        heads = table.locator("thead th").count()
        assert heads == 7 and table.locator("thead th").last.text_content() == "Anotar o corregir"
        for row in table.locator("tbody tr").all():
            assert row.locator("td").count() == heads
        early.click()  # no reason yet: refused, in Spanish
        expect(page.locator("[data-testid=t-flash]")).to_contain_text(re.compile("motivo"))
        page.fill("[data-testid=t-early-reason]", "no hay emparejamiento válido")
        early.click(position={"x": 12, "y": 9})
        expect(page.locator("[data-testid=t-status]")).to_have_text(re.compile("cerrado",
                                                                               re.I))
        expect(page.locator("[data-testid=t-salt]")).to_be_visible()
    finally:
        context.close()
