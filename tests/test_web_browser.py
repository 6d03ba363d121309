"""The web front end in a real browser (issue 7): Playwright drives Debian's chromium against
a server started here (``randomchess serve`` on a free port, SQLite in a temporary folder).

The scenarios are the issue's: an MRC game against the computer with a dragged move, castling
by king onto rook where the king moves one square (Chess960), a Bishop Adjustment, promotion to
the Minister, a friend game in two browser contexts with a spectator, and Spanish letters.
Screenshots go to ``test-artifacts/``.  Without ``/usr/bin/chromium`` (``apt-get install -y
chromium``) or the built bundle (``make web``) every test here is skipped, and says so.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from randomchess.startpos import (
    SetupPool,
    commitment,
    draw_seeded,
    mrc_number,
    round_setups,
)
from web_support import (
    board_attr,
    drag,
    launched_browser,
    moves_text,
    new_game,
    running_server,
    shot,
    skip_without_browser,
    square_point,
    wait_board,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser


# ------------------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (``randomchess serve``) on a free port with a fresh SQLite file."""
    with running_server(Path(tmp_path_factory.mktemp("web"))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids (the
    # page under its CSP is tests/test_server_csp.py's).
    ctx = browser.new_context(base_url=server, viewport={"width": 1200, "height": 860},
                              bypass_csp=True)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def rank_of(fen: str, rank: int) -> str:
    rows = fen.split()[0].split("/")
    return rows[len(rows) - rank]


# ------------------------------------------------------------------------------ scenarios
def test_mrc_game_against_the_computer_with_a_dragged_move(page: Page) -> None:
    # A random setup against the computer is drawn verifiably as the game starts (issue 32):
    # the home form previews none; the game's draw is committed and its setup numbered.
    assert new_game(page, "mrc", "computer", color="white", level=1) == (None, None)
    expect(page.locator("cg-board piece")).to_have_count(36)
    gid = page.url.rsplit("/", 1)[-1]
    assert page.request.get(f"/api/games/{gid}/setup-draw").json()["committed"] is True
    rank = rank_of(board_attr(page, "fen"), 1)
    assert len(rank) == 9 and mrc_number(rank) == page.evaluate("window.rcGame.state.number")
    shot(page, "mrc-computer-start")
    drag(page, "e2", "e4")
    wait_ply(page, 2)  # our move, then the computer's reply
    assert moves_text(page).strip().startswith("e4")
    shot(page, "mrc-computer-after-reply")


def test_chess960_castling_by_king_onto_rook_where_the_king_moves_one_square(
        page: Page) -> None:
    # King f1, h-side rook h1: O-O takes the king one square (to g1) and the rook to f1.
    fen = "rnbbqk1r/pppppppp/8/8/8/8/PPPPPPPP/RNBBQK1R w HAha - 0 1"
    new_game(page, "chess960", "hotseat", fen=fen)
    assert page.locator("[data-testid='castle-O-O']").is_enabled()
    # Issue 11: one gesture, no confirmation dialog; where king and rook will land is marked
    # while the king is held.
    x0, y0 = square_point(page, "f1")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 5, y0 - 5, steps=2)
    page.wait_for_function(
        "window.rcGame.ground.state.drawable.autoShapes.some(s => s.orig === 'g1')")
    shapes = page.evaluate("window.rcGame.ground.state.drawable.autoShapes")
    assert {"orig": "h1", "dest": "f1"} in [{"orig": s["orig"], "dest": s.get("dest")}
                                            for s in shapes]
    shot(page, "chess960-castle-preview")
    x1, y1 = square_point(page, "h1")
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()
    wait_ply(page, 1)
    assert page.locator(".modal").count() == 0
    assert rank_of(board_attr(page, "fen"), 1) == "RNBBQRK1"
    assert "O-O" in moves_text(page)
    shot(page, "chess960-castled")


def test_mrc_bishop_adjustment_with_same_coloured_bishops(page: Page) -> None:
    number = mrc_number("RBKNQBNMR")  # both bishops light (RULES.md §4.10)
    _, rank = new_game(page, "mrc", "hotseat", number=number)
    assert rank == "RBKNQBNMR"
    expect(page.locator("[data-testid=adjust-controls] button")).to_have_count(4)
    drag(page, "f1", "e1")  # the bishop dropped on its neighbour, the queen
    dialog = page.locator("[data-testid=adjust-preview]")
    dialog.wait_for()
    assert "f1" in dialog.text_content() and "e1" in dialog.text_content()
    assert "once per game" in page.text_content(".modal")  # the rule is explained
    shot(page, "mrc-adjustment-confirm")
    page.click("[data-testid=confirm-yes]")
    wait_ply(page, 1)
    assert rank_of(board_attr(page, "fen"), 1) == "RBKNBQNMR"
    assert "B=Q" in moves_text(page)
    shot(page, "mrc-adjusted")


def test_promotion_to_the_minister(page: Page) -> None:
    new_game(page, "mrc", "hotseat", fen="4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1")
    drag(page, "a8", "a9")
    page.locator("[data-testid=promo-m]").wait_for()
    expect(page.locator("[data-testid^=promo-]")).to_have_count(5)  # Q M R B N
    shot(page, "promotion-chooser")
    page.click("[data-testid=promo-m]")
    wait_ply(page, 1)
    assert rank_of(board_attr(page, "fen"), 9).startswith("M")
    assert "a9=M" in moves_text(page)
    shot(page, "promoted-to-minister")


def test_friend_game_in_two_contexts_and_a_spectator(browser: Browser, server: str) -> None:
    contexts = [browser.new_context(base_url=server, viewport={"width": 1000, "height": 800},
                                    bypass_csp=True)
                for _ in range(3)]
    white, black, spectator = (c.new_page() for c in contexts)
    try:
        new_game(white, "chess960", "friend", color="white")
        invite = white.input_value("[data-testid=invite-url]")
        assert "/invite/" in invite
        game_id = re.search(r"#/game/([^/?]+)", white.url).group(1)  # type: ignore[union-attr]

        black.goto(invite)
        black.click("[data-testid=join]")  # issue 11: opening the link claims nothing
        black.wait_for_url(re.compile(r"#/game/"))
        wait_board(black)
        assert "Black" in black.text_content("[data-testid=seat]")

        drag(white, "e2", "e4")
        wait_ply(black, 1)  # the move appears on the other side
        assert "e4" in moves_text(black)
        drag(black, "e7", "e5")
        wait_ply(white, 2)
        assert "e5" in moves_text(white)

        spectator.goto(f"/#/game/{game_id}")
        wait_board(spectator)
        wait_ply(spectator, 2)
        assert "watching" in spectator.text_content("[data-testid=seat]")
        fen = board_attr(spectator, "fen")
        drag(spectator, "d2", "d4")  # White to move, but a spectator has no seat
        spectator.wait_for_timeout(500)
        assert board_attr(spectator, "fen") == fen
        assert board_attr(white, "ply") == "2"
        shot(white, "friend-white")
        shot(black, "friend-black")
        shot(spectator, "friend-spectator")
    finally:
        for c in contexts:
            c.close()


def test_spanish_letters(page: Page) -> None:
    page.goto("/")
    page.select_option("[data-testid=lang]", "es")
    page.select_option("[data-testid=variant]", "chess")
    assert page.text_content("[data-testid=preview-rank]") == "TCADRACT"
    page.check("input[name=opponent][value=hotseat]")
    page.click("[data-testid=start]")
    wait_board(page)
    drag(page, "g1", "f3")
    wait_ply(page, 1)
    assert "Cf3" in moves_text(page)
    page.fill("[data-testid=san-input]", "Cc6")  # typed with Spanish letters
    page.press("[data-testid=san-input]", "Enter")
    wait_ply(page, 2)
    assert "Cc6" in moves_text(page)
    shot(page, "spanish")


def test_shuffler_page_agrees_with_startpos(page: Page) -> None:
    """Not one of the issue's scenarios: the browser's shuffler (web/src/setups.js) is an
    independent implementation of docs/shuffler.md and must give the same setups."""
    page.goto("/#/shuffler")
    page.select_option("[data-testid=sh-variant]", "mrc")
    page.fill("[data-testid=sh-count]", "3")
    page.fill("[data-testid=sh-seed]", "abc")
    page.click("[data-testid=sh-draw]")
    page.locator("[data-testid=card-number]").nth(2).wait_for()
    got = [int(t) for t in page.locator("[data-testid=card-number]").all_text_contents()]
    assert got == [s.number for s in draw_seeded(SetupPool("mrc"), "abc", 3)]

    salt = bytes(range(32))
    page.select_option("[data-testid=sh-variant]", "chess960")
    page.check("[data-testid=sh-exclude]")
    page.click("details.round summary")
    page.fill("[data-testid=sh-salt]", salt.hex())
    page.fill("[data-testid=sh-event]", "Open 2025")
    page.fill("[data-testid=sh-round]", "2")
    page.fill("[data-testid=sh-boards]", "3")
    page.check("[data-testid=sh-per-board]")
    page.click("[data-testid=sh-derive]")
    # The derivation is asynchronous: wait for the Chess960 cards, not the MRC ones above.
    page.locator("[data-testid=setup-card][data-variant='chess960']").nth(2).wait_for()
    got = [int(t) for t in page.locator("[data-testid=card-number]").all_text_contents()]
    pool = SetupPool("chess960", "any", True)
    assert got == [s.number for s in round_setups(salt, "Open 2025", 2, 3, pool, True)]
    assert page.text_content("[data-testid=sh-commitment]") == commitment(salt, "Open 2025")
    shot(page, "shuffler")


def test_shuffler_checks_a_published_commitment_and_refuses_control_characters(
        page: Page) -> None:
    """Issue 37: a player pastes the organiser's published commitment and the page says
    whether the revealed salt and event give it (no comparing 64 hex digits by eye); an
    event name with a control character is refused, as the CLI and startpos refuse it."""
    salt = bytes(range(32))
    page.goto("/#/shuffler")
    page.click("details.round summary")
    page.fill("[data-testid=sh-salt]", salt.hex())
    page.fill("[data-testid=sh-event]", "Open 2025")
    check = page.locator("[data-testid=sh-check]")
    page.fill("[data-testid=sh-published]", commitment(salt, "Open 2025").upper())
    expect(check).to_have_attribute("data-match", "yes")
    page.fill("[data-testid=sh-published]", commitment(salt, "Open 2026"))
    expect(check).to_have_attribute("data-match", "no")
    page.fill("[data-testid=sh-event]", "Open\t2025")
    page.click("[data-testid=sh-derive]")
    expect(page.locator(".shuffler p.error")).to_contain_text("control")
    assert page.text_content("[data-testid=sh-commitment]") == ""
    assert page.locator("[data-testid=setup-card]").count() == 0



def _closed_band_event(page: Page, name: str, source: str) -> dict[str, Any]:
    """An event with an evaluation band of 0.3 pawns (a hall event: 518 and 534 also out),
    one round of two boards played and closed over the API: what it published, salt
    included."""
    api = page.request
    r = api.post("/api/tournaments", data={
        "name": name, "rounds": 1, "setup_source": source, "eval_band": 0.3,
        "excluded": "standard" if source == "hall" else "", "setup_policy": "board"})
    assert r.ok, r.text()
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for player in ("Ann", "Bob", "Cid", "Dan"):
        assert api.post(f"/api/tournaments/{eid}/players", data={"name": player},
                        headers=auth).ok
    assert api.post(f"/api/tournaments/{eid}/start", headers=auth).ok
    assert api.post(f"/api/tournaments/{eid}/pair", headers=auth).ok
    if source == "hall":
        assert api.post(f"/api/tournaments/{eid}/rounds/1/reveal", data={"input": "352614"},
                        headers=auth).ok
    for board in (1, 2):
        assert api.post(f"/api/tournaments/{eid}/results", data={
            "round": 1, "board": board, "result": "1/2"}, headers=auth).ok
    assert api.post(f"/api/tournaments/{eid}/close", headers=auth).ok
    out: dict[str, Any] = api.get(f"/api/tournaments/{eid}").json()
    return out


def test_shuffler_re_derives_events_with_an_evaluation_band(page: Page) -> None:
    """Issue 30: the shuffler page re-derives an event whose pool an evaluation band narrows
    (setups from the salt alone, and revealed in the hall), with the setups outside the band
    computed in the page from this server's evaluation set, its digest checked against the
    event's; another digest is refused."""
    hall = _closed_band_event(page, "Band Hall 2026", "hall")
    salt_only = _closed_band_event(page, "Band Salt 2026", "salt")
    page.goto("/#/shuffler")
    page.click("details.round summary")
    page.fill("[data-testid=sh-band]", "0.3")
    page.fill("[data-testid=sh-band-digest]", hall["eval_digest"][:12])
    page.fill("[data-testid=sh-boards]", "2")
    page.check("[data-testid=sh-per-board]")
    for ev in (hall, salt_only):
        want = [b["setup"] for b in ev["round_list"][0]["boards"]]
        page.fill("[data-testid=sh-salt]", ev["salt"])
        page.fill("[data-testid=sh-event]", ev["name"])
        page.evaluate("document.querySelector('[data-testid=sh-cards]').replaceChildren()")
        if ev is hall:
            page.fill("[data-testid=sh-hall-digits]", "352614")
            page.fill("[data-testid=sh-hall-excluded]", "standard")
            page.click("[data-testid=sh-hall-derive]")
            expect(page.locator("[data-testid=sh-hall-key]")).to_have_text(
                ev["round_list"][0]["reveal"]["key"])
        else:  # the plain round
            page.click("[data-testid=sh-derive]")
        expect(page.locator("[data-testid=card-number]")).to_have_count(2)
        got = [int(x) for x in page.locator("[data-testid=card-number]").all_text_contents()]
        assert got == want, ev["name"]
        expect(page.locator("[data-testid=sh-band-out]")).to_contain_text("598")
    page.fill("[data-testid=sh-band-digest]", "0123456789ab")
    page.click("[data-testid=sh-derive]")
    expect(page.locator(".shuffler p.error")).to_contain_text("not the event")
    assert page.locator("[data-testid=setup-card]").count() == 0
