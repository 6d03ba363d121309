"""The home page's new-game form draws a random setup both players can verify (issue 32,
docs/shuffler.md §10), in a real browser, in English and Spanish: against the computer the
page opens a draw (the server's commitment) and sends its own random value with the game's
creation; against a friend the server commits when the link is made and the friend's browser
adds its value at the join.  The form previews no setup for these (it is not drawn yet) and
sends no number; the game's PGN carries the commitment tags, and ``randomchess draw
verify-game`` recomputes the setup from them.  A number the player chose stays that number,
with no commitment."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from click.testing import CliRunner

from randomchess.cli import main
from test_setup_commit_games_browser import HEX64, game_id, revealed
from web_support import (
    SLOW,
    BrowserSession,
    launched_browser,
    running_server,
    shot,
    skip_without_browser,
    wait_board,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, Request, expect

pytestmark = skip_without_browser
NOTE = {"en": {"computer": "your browser adds a random value",
               "friend": "your friend joins"},
        "es": {"computer": "tu navegador añade un valor aleatorio",
               "friend": "cuando tu amigo se une"}}
JOIN = {"en": "drawn as you join", "es": "se sortea al unirte"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(Path(tmp_path_factory.mktemp("home-commit"))) as url:
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


def click(page: Page, selector: str) -> None:
    """A click off the centre of the element (the pages must not depend on the centre)."""
    target = page.locator(selector)
    target.wait_for(state="visible")
    box = target.bounding_box()
    assert box is not None
    target.click(position={"x": box["width"] * 0.3, "y": box["height"] * 0.7})


def fill_form(page: Page, opponent: str, number: int | None = None) -> list[dict[str, Any]]:
    """The home form: Chess960 against `opponent`, White, no clock, a random setup (or the
    chosen `number`); returns the list the bodies of POST /api/games will be added to."""
    sent: list[dict[str, Any]] = []

    def keep(r: Request) -> None:
        if r.method == "POST" and r.url.endswith("/api/games"):
            sent.append(r.post_data_json)

    page.on("request", keep)
    page.goto("/")
    page.select_option("[data-testid=variant]", "chess960")
    if number is not None:
        page.check("input[name=setup][value=number]")
        page.fill("[data-testid=setup-number]", str(number))
    page.check(f"input[name=opponent][value={opponent}]")
    if opponent == "computer":
        page.fill("input[name=level]", "1")
    page.check("input[name=color][value=white]")
    page.fill("input[name=minutes]", "0")
    return sent


def start(page: Page) -> None:
    click(page, "[data-testid=start]")
    page.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
    wait_board(page)


def verified_pgn(page: Page, seed: str, client: str, commitment: str) -> None:
    """The game's PGN carries the commitment tags, and `randomchess draw verify-game`
    recomputes the game's setup from them, the commitment matching."""
    gid = game_id(page)
    text = page.request.get(f"/api/games/{gid}/pgn").text()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    tags = game.headers
    assert (tags["SetupCommit"], tags["SetupServerSeed"], tags["SetupClientValue"]) == (
        commitment, seed, client)
    number = page.request.get(f"/api/games/{gid}").json()["number"]
    assert tags["SetupNumber"] == str(number)
    r = CliRunner().invoke(main, [
        "draw", "verify-game", "--server-seed", tags["SetupServerSeed"],
        "--client-value", tags["SetupClientValue"], "--variant", "chess960",
        "--commitment", tags["SetupCommit"]])
    assert r.exit_code == 0, r.output
    assert re.search(rf"(^|\s){number} ", r.output) and "commitment matches" in r.output


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_computer_game_from_the_home_form_has_a_verifiable_setup(
        session: BrowserSession, lang: str) -> None:
    page = session.page(lang)
    draws: list[dict[str, Any]] = []
    page.on("response", lambda r: draws.append(r.json())
            if r.url.endswith("/api/setup-draws") and r.status == 201 else None)
    sent = fill_form(page, "computer")
    # Nothing to preview: the setup does not exist until the game starts.
    expect(page.locator("[data-testid=fair-draws]")).to_contain_text(NOTE[lang]["computer"])
    expect(page.locator("[data-testid=redraw]")).to_be_hidden()
    assert page.locator("[data-testid=preview-number]").count() == 0
    shot(page, f"home-commit-computer-form-{lang}")
    start(page)
    # The draw was opened (the commitment) before the page sent its value with the game.
    assert len(draws) == 1 and HEX64.match(draws[0]["commitment"])
    assert len(sent) == 1
    body = sent[0]
    assert body["setup"] == "random" and body["setup_draw"]["id"] == draws[0]["id"]
    assert re.fullmatch(r"[0-9a-f]{32}", body["setup_draw"]["client_value"])
    seed, client = revealed(page, draws[0]["commitment"])
    assert client == body["setup_draw"]["client_value"]
    verified_pgn(page, seed, client, draws[0]["commitment"])
    shot(page, f"home-commit-computer-game-{lang}")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_friend_game_from_the_home_form_is_drawn_at_the_join(
        session: BrowserSession, lang: str) -> None:
    white, black = session.page(lang), session.page(lang)
    sent = fill_form(white, "friend")
    expect(white.locator("[data-testid=fair-draws]")).to_contain_text(NOTE[lang]["friend"])
    expect(white.locator("[data-testid=redraw]")).to_be_hidden()
    start(white)
    assert [b["setup"] for b in sent] == ["random"] and "setup_draw" not in sent[0]
    # The creator's page shows the commitment while the setup waits for the friend.
    box = white.locator("[data-testid=setup-draw]")
    expect(box).to_have_attribute("data-state", "pending", timeout=SLOW)
    commitment = white.locator("[data-testid=sd-commit]").inner_text()
    assert HEX64.match(commitment)
    black.goto(white.input_value("[data-testid=invite-url]"))
    hint = black.locator("[data-testid=join-setup-commit]")
    expect(hint).to_contain_text(JOIN[lang])
    expect(hint.locator("code")).to_have_text(commitment)
    click(black, "[data-testid=join]")
    black.wait_for_url(re.compile(r"#/game/"))
    wait_board(black)
    values = revealed(black, commitment)
    assert revealed(white, commitment) == values  # the creator's page follows the join
    verified_pgn(white, *values, commitment)
    shot(white, f"home-commit-friend-revealed-{lang}")


@pytest.mark.parametrize("opponent", ["computer", "friend"])
def test_a_chosen_number_stays_that_number_without_a_commitment(
        session: BrowserSession, opponent: str) -> None:
    page = session.page()
    sent = fill_form(page, opponent, number=518)
    expect(page.locator("[data-testid=preview-number]")).to_have_text("518")
    start(page)
    assert len(sent) == 1 and sent[0]["setup"] == 518 and "setup_draw" not in sent[0]
    gid = game_id(page)
    assert page.request.get(f"/api/games/{gid}/setup-draw").json()["committed"] is False
    assert "SetupCommit" not in page.request.get(f"/api/games/{gid}/pgn").text()
