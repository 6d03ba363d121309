"""A setup both players can verify beyond the lobby, in a real browser (issue 32,
docs/shuffler.md §10): a friend's game from a link (the creator's page shows the
commitment and hides the provisional pieces until the friend's browser joins with its own
random value), a rematch on a new setup (the accepting browser's value) and a rematch against
the computer on a new setup (the player's own browser opens the draw and sends its value).
Each game's revealed values recompute its setup (hashlib and hmac) and match the commitment
shown before the value existed."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_setup_commit_browser import recompute
from web_support import (
    SLOW,
    BrowserSession,
    game_state,
    launched_browser,
    new_game,
    running_server,
    shot,
    skip_without_browser,
    wait_board,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser
HEX64 = re.compile(r"^[0-9a-f]{64}$")
WORDS = {"en": {"pending": "drawn when your friend joins", "join": "drawn as you join"},
         "es": {"pending": "se sortea cuando tu amigo se une", "join": "se sortea al unirte"}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("commit-games"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def session(browser: Browser, server: str) -> Iterator[BrowserSession]:
    s = BrowserSession(browser, server, {"viewport": {"width": 1100, "height": 900}})
    yield s
    s.close()
    assert not s.errors, f"JavaScript errors: {s.errors}"


def game_id(page: Page) -> str:
    m = re.search(r"#/game/([^/?]+)", page.url)
    assert m is not None
    return m.group(1)


def revealed(page: Page, commitment: str | None = None) -> tuple[str, str]:
    """The game page's revealed draw (seed, client value), checked against the commitment
    and the game's setup number."""
    box = page.locator("[data-testid=setup-draw]")
    expect(box).to_have_attribute("data-state", "revealed", timeout=SLOW)
    box.evaluate("d => { d.open = true; }")
    seed = page.locator("[data-testid=sd-seed]").inner_text()
    client = page.locator("[data-testid=sd-client]").inner_text()
    shown = page.locator("[data-testid=sd-commit]").inner_text()
    assert HEX64.match(shown) and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == shown
    if commitment is not None:
        assert shown == commitment
    assert re.fullmatch(r"[0-9a-f]{32}", client)  # a browser's own random value
    page.wait_for_function("window.rcGame.state && window.rcGame.state.number !== null")
    assert recompute(seed, client) == game_state(page)["number"]
    return seed, client


def pieces_shown(page: Page) -> bool:
    return bool(page.evaluate(
        "() => [...document.querySelectorAll('cg-board piece')].some(p => "
        "getComputedStyle(p).visibility !== 'hidden')"))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_friend_link_game_is_drawn_when_the_friend_joins(session: BrowserSession,
                                                           lang: str) -> None:
    white, black = session.page(lang), session.page(lang)
    white.goto("/")
    # The game as any client makes it: a random Chess960 setup, the creator's seat saved.
    made: dict[str, Any] = white.evaluate("""async () => {
        const r = await fetch('/api/games', {method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({variant: 'chess960', opponent: 'friend', color: 'white',
                                clock: {minutes: 5, increment: 3}})});
        const out = await r.json();
        localStorage.setItem('rc-seat-' + out.id, JSON.stringify(
          {...out.seat, opponent: 'friend', invite_url: out.invite_url}));
        return out; }""")
    white.goto(f"/#/game/{made['id']}")
    wait_board(white)
    box = white.locator("[data-testid=setup-draw]")
    expect(box).to_have_attribute("data-state", "pending", timeout=SLOW)
    expect(white.locator("[data-testid=sd-pending]")).to_contain_text(WORDS[lang]["pending"])
    commitment = white.locator("[data-testid=sd-commit]").inner_text()
    assert HEX64.match(commitment)
    assert white.locator("[data-testid=sd-seed]").count() == 0  # the seed stays secret
    white.wait_for_function("document.querySelector('cg-board piece')")
    assert not pieces_shown(white)  # the provisional start is not shown
    shot(white, f"setup-commit-friend-pending-{lang}")
    black.goto(made["invite_url"])
    hint = black.locator("[data-testid=join-setup-commit]")
    expect(hint).to_contain_text(WORDS[lang]["join"])
    expect(hint.locator("code")).to_have_text(commitment)
    black.click("[data-testid=join]")
    black.wait_for_url(re.compile(r"#/game/"))
    wait_board(black)
    values = revealed(black, commitment)
    assert revealed(white, commitment) == values  # the creator's page follows the join
    assert pieces_shown(white) and pieces_shown(black)
    assert game_state(white)["start_fen"] == game_state(black)["start_fen"]
    # The creator's board now shows the drawn setup, not the provisional one.
    white.wait_for_function("document.querySelector('[data-testid=board]').dataset.fen === "
                            "window.rcGame.state.fen")
    shot(white, f"setup-commit-friend-revealed-{lang}")
    # The game page's link: the shuffler page recomputes it and checks the commitment.
    black.click("[data-testid=sd-verify]")
    expect(black.locator("[data-testid=vg-check]")).to_have_attribute("data-match", "yes",
                                                                      timeout=SLOW)
    expect(black.locator("[data-testid=card-number]")).to_have_text(
        str(recompute(*values)), timeout=SLOW)


def test_a_rematch_on_a_new_setup_is_drawn_by_the_accepting_browser(
        session: BrowserSession) -> None:
    white, black = session.page(), session.page()
    new_game(white, "chess960", "friend", color="white", number=518)
    black.goto(white.input_value("[data-testid=invite-url]"))
    black.click("[data-testid=join]")
    black.wait_for_url(re.compile(r"#/game/"))
    wait_board(black)
    first = game_id(white)
    white.wait_for_function("window.rcGame.state && window.rcGame.state.invite_open === false")
    white.click("[data-testid=abort]")
    expect(black.locator("[data-testid=rematch]")).to_be_visible(timeout=SLOW)
    black.click("[data-testid=rematch]")
    black.click("[data-testid=rematch-new]")
    expect(white.locator("[data-testid=rematch-accept]")).to_be_visible(timeout=SLOW)
    white.click("[data-testid=rematch-accept]")
    for pg in (white, black):
        pg.wait_for_function(f"!location.hash.includes('{first}')")
        wait_board(pg)
    assert game_id(white) == game_id(black)
    values = revealed(white)
    assert revealed(black) == values
    pgn = white.request.get(f"/api/games/{game_id(white)}/pgn").text()
    assert f'[SetupServerSeed "{values[0]}"]' in pgn
    assert f'[SetupClientValue "{values[1]}"]' in pgn


def test_a_rematch_against_the_computer_on_a_new_setup_uses_the_players_value(
        session: BrowserSession) -> None:
    page = session.page("es")
    draws: list[dict[str, Any]] = []
    page.on("response", lambda r: draws.append(r.json())
            if r.url.endswith("/api/setup-draws") and r.status == 201 else None)
    new_game(page, "chess960", "computer", color="white", level=1, number=518)
    first = game_id(page)
    page.click("[data-testid=abort]")
    page.click("[data-testid=rematch]")
    page.click("[data-testid=rematch-new]")
    page.wait_for_function(f"!location.hash.includes('{first}')")
    wait_board(page)
    assert len(draws) == 1  # the page opened the draw (the commitment) before its value
    revealed(page, draws[0]["commitment"])
    body = json.dumps(page.request.get(f"/api/games/{game_id(page)}/setup-draw").json())
    assert draws[0]["commitment"] in body
