"""Issue 32 in a real browser: the organiser chooses the setup preview's length of an
event's online games on the creation form (Swiss and knock-out), in English and Spanish; a
length outside 0..600 s is explained on the form and creates nothing."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from web_support import (
    SIZES,
    BrowserSession,
    launched_browser,
    running_server,
    skip_without_browser,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

LABEL = {"en": "Setup preview of the online games",
         "es": "Vista previa de la posición en las partidas en línea"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("event-preview")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def session(browser: Browser, server: str) -> Iterator[BrowserSession]:
    s = BrowserSession(browser, server, {"viewport": SIZES["desktop"]})
    yield s
    s.close()
    assert not s.errors, f"JavaScript errors: {s.errors}"


def _event(page: Page, eid: str) -> dict[str, Any]:
    r = page.request.get(f"/api/tournaments/{eid}")
    assert r.ok
    out: dict[str, Any] = r.json()
    return out


def _count(page: Page) -> int:
    """The events listed by ``GET /api/tournaments`` (upcoming, running and finished)."""
    listed: dict[str, list[Any]] = page.request.get("/api/tournaments").json()
    return sum(len(v) for v in listed.values())


def _create(page: Page, name: str, system: str, preview: str) -> str:
    page.goto("/#/tournament/new")
    page.fill("[data-testid=t-name]", name)
    page.select_option("[data-testid=t-system]", system)
    page.fill("input[name=time_control]", "300+2")
    page.fill("[data-testid=t-preview]", preview)
    page.click("[data-testid=t-create]")
    page.click("[data-testid=t-to-event]")  # past the secret, shown once
    page.wait_for_url(re.compile(r"#/tournament/[0-9a-f]+$"))
    return page.url.rsplit("/", 1)[1]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_creation_form_sets_the_events_preview_length(session: BrowserSession,
                                                          lang: str) -> None:
    page = session.page(lang)
    page.goto("/#/tournament/new")
    expect(page.locator("label.field", has=page.locator("[data-testid=t-preview]"))) \
        .to_contain_text(LABEL[lang])
    # Out of range: explained on the form, nothing sent.
    before = _count(page)
    page.fill("[data-testid=t-name]", f"Too long {lang}")
    page.fill("[data-testid=t-preview]", "601")
    page.click("[data-testid=t-create]")
    expect(page.locator("form.tournament-new p.error")).to_contain_text(LABEL[lang])
    assert _count(page) == before
    # A Swiss with a 45 s preview, a knock-out with none, one by speed (empty).
    assert _event(page, _create(page, f"Swiss {lang}", "swiss", "45"))["preview"] == 45
    assert _event(page, _create(page, f"KO {lang}", "knockout", "0"))["preview"] == 0
    assert _event(page, _create(page, f"Default {lang}", "swiss", ""))["preview"] is None
