"""The account and lobby pages are laid out as forms, not run-on lines (issue 37, item 2):
every field's label sits above its field, the open seeks are a table, and signing up is its
own form with a password confirmation whose rules (the server's: names 3-20 letters, digits,
'-' or '_'; passwords of MIN_PASSWORD+ characters) are stated before anything is sent.
Checked at a desktop and on a phone, in English and Spanish; screenshots in test-artifacts/."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from randomchess.server.accounts.store import MIN_PASSWORD, NAME_RE
from web_support import (
    ARTIFACTS,
    launched_browser,
    running_server,
    sized_page,
    skip_without_browser,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, expect

pytestmark = skip_without_browser

PASSWORD = "a long enough password"
SIZES = ["desktop", "phone"]

# Each label holding a typed field (not a checkbox): the label's words end above the field
# and the field lies inside the label's box.  Returns the labels that break this.
GLUED = """() => {
  const bad = [];
  for (const label of document.querySelectorAll('main form label')) {
    const field = label.querySelector(
      'input:not([type=checkbox]):not([type=radio]), select, textarea');
    if (!field) continue;
    const words = [...label.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
    if (!words) { bad.push(`${field.dataset.testid}: no words`); continue; }
    const range = document.createRange();
    range.selectNodeContents(words);
    const w = range.getBoundingClientRect(), f = field.getBoundingClientRect();
    const l = label.getBoundingClientRect();
    if (w.bottom > f.top + 1) bad.push(`${field.dataset.testid}: words beside the field`);
    if (f.left < l.left - 1 || f.right > l.right + 1) {
      bad.push(`${field.dataset.testid}: outside its label`);
    }
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("account-lobby")),
                        RANDOMCHESS_SIGNUP_PER_HOUR="100") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def test_the_name_rule_stated_is_the_servers() -> None:
    # The page states "3 to 20" and MIN_PASSWORD: the server's own rule must say the same.
    assert NAME_RE.pattern == r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}"
    assert MIN_PASSWORD == 8


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", SIZES)
def test_sign_up_has_its_own_form_rules_and_confirmation(browser: Browser, server: str,
                                                         size: str, lang: str) -> None:
    page = sized_page(browser, server, size, lang)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto("/#/account")
        form = page.locator("[data-testid=signup-form]")
        expect(form).to_be_visible()
        assert page.locator("[data-testid=login-form] [data-testid=signup]").count() == 0
        rules = page.locator("[data-testid=signup-rules]").inner_text()
        assert re.search(r"\b3\b.*\b20\b", rules), rules
        assert re.search(rf"\b{MIN_PASSWORD}\b", rules), rules
        assert page.evaluate(GLUED) == []
        page.screenshot(path=str(ARTIFACTS / f"signup-{size}-{lang}.png"), full_page=True)
        name = f"new-{size}-{lang}"
        error = page.locator("[data-testid=account-error]")
        # A bad name and a short password are explained before anything is sent.
        page.fill("[data-testid=signup-name]", "x")
        page.fill("[data-testid=signup-password]", PASSWORD)
        page.fill("[data-testid=password-again]", PASSWORD)
        page.click("[data-testid=signup]")
        expect(error).to_contain_text("20")
        page.fill("[data-testid=signup-name]", name)
        page.fill("[data-testid=signup-password]", "short")
        page.fill("[data-testid=password-again]", "short")
        page.click("[data-testid=signup]")
        expect(error).to_contain_text(str(MIN_PASSWORD))
        # A confirmation that differs is refused and nothing is created.
        page.fill("[data-testid=signup-password]", PASSWORD)
        page.fill("[data-testid=password-again]", PASSWORD + "!")
        page.click("[data-testid=signup]")
        expect(error).to_have_text(re.compile(r"match|coinciden"))
        assert page.request.get(f"/api/players/{name}").status == 404
        page.fill("[data-testid=password-again]", PASSWORD)
        page.click("[data-testid=signup]")
        expect(page.locator("[data-testid=logged-in]")).to_contain_text(name)
        # The account page's own forms: labels above fields.
        page.wait_for_selector("[data-testid=change-password]")
        assert page.evaluate(GLUED) == []
        page.screenshot(path=str(ARTIFACTS / f"account-{size}-{lang}.png"), full_page=True)
        # The lobby: the seek form's labels above their fields; the seeks a table.
        page.goto("/#/lobby")
        page.click("[data-testid=seek-post]")
        row = page.locator("[data-testid=seek]", has_text=name)
        expect(row).to_be_visible()
        assert page.evaluate(GLUED) == []
        assert page.evaluate("document.querySelector('[data-testid=seeks]').tagName") == "TABLE"
        assert row.evaluate("r => r.tagName") == "TR"
        assert row.locator("td").count() >= 5
        assert page.locator("[data-testid=seeks] th").count() >= 5
        page.screenshot(path=str(ARTIFACTS / f"lobby-{size}-{lang}.png"), full_page=True)
    finally:
        page.context.close()
    assert not errors, f"JavaScript errors: {errors}"
