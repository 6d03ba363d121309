"""Issue 30's whole arbiter's workflow in real browsers: an organiser signed in (English), a
co-arbiter on a second device (Spanish) and two players online.  A 9-player, 5-round Swiss
whose setups are revealed in the hall, 518 and 534 excluded, a preparation window: each round
is paired and revealed with the hall's digits (the organiser and the co-arbiter in turn), and
the page shows the players' links at once (made at the reveal, shown this once; the database
keeps only their hashes); board 1's two players open theirs during the countdown and wait,
the server opens the games by itself when it ends (the pages follow without a reload), they
resign or agree a draw (the other boards' results are entered), the results come from the
games, the organiser closes the event, the public verification page re-derives every round,
the shuffler page (Spanish) re-derives a hall round, and the test re-derives every setup
with the document's own implementation (docs/shuffler.md §8).  The hall view during the
countdown is photographed in English and Spanish (test-artifacts/reveal-*.png; with
RANDOMCHESS_DOCS_SHOTS=1 into docs/img, the README's pictures).  A fast countdown: a
"minute" of the window is two seconds here (RANDOMCHESS_PREP_MINUTE_MS)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from web_support import (
    ARTIFACTS,
    ROOT,
    SLOW,
    BrowserSession,
    launched_browser,
    running_server,
    skip_without_browser,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = skip_without_browser
PASSWORD = "correct horse battery"
DOCS = ROOT / "docs" / "shuffler.md"
IMG = ROOT / "docs" / "img" if os.environ.get("RANDOMCHESS_DOCS_SHOTS") == "1" else ARTIFACTS
EVENT = "Hall Night 2026"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("hall-scenario"),
                        RANDOMCHESS_PREP_MINUTE_MS="2000") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


def _sign_up(ctx: BrowserContext, name: str) -> None:
    token = ctx.request.get("/api/account/csrf").json()["csrf"]
    r = ctx.request.post("/api/account/signup", data={"name": name, "password": PASSWORD},
                         headers={"X-CSRF-Token": token})
    assert r.ok, r.text()


def _state(page: Page, eid: str) -> dict[str, Any]:
    r = page.request.get(f"/api/tournaments/{eid}")
    assert r.ok
    out: dict[str, Any] = r.json()
    return out


def _reveal(staff: Page, hall: Page, eid: str, digits: str, lang: str, opens: str,
            white: Page, black: Page, photo: bool) -> None:
    """Reveal the pending round from ``staff``'s page, the games to open online: the page
    shows the players' links at once, and board 1's (``white``, ``black``) open theirs during
    the countdown (a page that waits); the hall view on ``hall`` counts down (``photo``: its
    picture for the README); when it ends the server opens the games, the players' pages go
    to them and the staff page follows, without a reload."""
    staff.evaluate("window.__sameDocument = true")
    staff.fill("[data-testid=t-reveal-input]", digits)
    staff.check("[data-testid=t-reveal-online]")
    staff.click("[data-testid=t-reveal]")
    expect(staff.locator("[data-testid=t-opens]")).to_contain_text(re.compile(opens + r" 0:\d\d"))
    staff.wait_for_selector("[data-testid=t-links]")  # at once: made at the reveal
    rnd = len(_state(staff, eid)["round_list"])
    boards = _state(staff, eid)["round_list"][rnd - 1]["boards"]
    assert all(b["game_id"] is None for b in boards)  # not open yet
    games = [b for b in boards if b["black"] is not None]
    assert staff.locator("[data-testid=t-links] li a").count() == 2 * len(games)
    white.goto(staff.get_attribute("[data-testid=t-link-1-white]", "href") or "")
    black.goto(staff.get_attribute("[data-testid=t-link-1-black]", "href") or "")
    hall.goto(f"/?lang={lang}#/tournament/{eid}/hall")
    countdown = hall.locator("[data-testid=t-countdown]")
    expect(countdown).to_contain_text(re.compile(r"0:0[1-9]"))
    if photo:
        hall.locator("[data-testid=t-hall]").screenshot(path=str(IMG / f"reveal-{lang}.png"))
    for pg in (white, black):  # the games open when the countdown ends: the pages wait
        expect(pg.locator("[data-testid=t-seat-wait]")).to_be_visible()
    white.wait_for_url(re.compile(r"#/game/"), timeout=SLOW)
    black.wait_for_selector("[data-testid=join]", timeout=SLOW)
    expect(staff.locator("[data-testid=t-opens]")).to_have_count(0, timeout=SLOW)
    assert staff.evaluate("window.__sameDocument") is True  # no reload
    expect(staff.locator(f"[data-testid=t-round-{rnd}] a[href^='#/game/']").first).to_be_visible()
    expect(countdown).not_to_contain_text(re.compile(r"0:0[1-9]"))


def _play(staff: Page, rnd: int, white: Page, black: Page, finish: str) -> None:
    """Board 1's two players, on their links' pages (Black accepts the invitation), play two
    moves each way and finish: ``resign`` (Black resigns) or ``draw``."""
    black.click("[data-testid=join]")
    for pg in (white, black):
        pg.wait_for_url(re.compile(r"#/game/"))
        pg.wait_for_selector("[data-testid=board]")
    for ply, (pg, san) in enumerate(((white, "e4"), (black, "e5"), (white, "d4"),
                                     (black, "d5")), start=1):
        pg.fill("[data-testid=san-input]", san)
        pg.press("[data-testid=san-input]", "Enter")
        pg.wait_for_function("document.querySelector('[data-testid=board]').dataset.ply === "
                             f"'{ply}'")
    if finish == "resign":
        black.click("[data-testid=resign]")
        black.click("[data-testid=confirm-yes]")
    else:
        white.click("[data-testid=draw-offer]")
        black.click("[data-testid=draw-accept]")
    want = "1-0" if finish == "resign" else "1/2"
    staff.wait_for_function(f"(document.querySelector('[data-testid=t-result-{rnd}-1]')"
                            f"?.textContent || '').startsWith('{want}')", timeout=SLOW)


def _results(ctx: BrowserContext, eid: str, rnd: int, boards: list[int]) -> None:
    """The over-the-board boards' results, entered by the signed-in organiser (the API with
    the session's CSRF token, as the page sends it)."""
    token = ctx.request.get("/api/account/csrf").json()["csrf"]
    for board, result in zip(boards, ("1-0", "0-1", "1/2"), strict=False):
        r = ctx.request.post(f"/api/tournaments/{eid}/results", headers={"X-CSRF-Token": token},
                             data={"round": rnd, "board": board, "result": result})
        assert r.ok, r.text()


HALL = {1: "352 614", 2: "615243", 3: "111 222", 4: "654321", 5: "314159"}
PLAYERS = ("Ann", "Bob", "Cid", "Dan", "Eva", "Fer", "Gil", "Hal", "Ivo")


def test_reveal_countdown_games_results_close_verify(browser: Browser, server: str) -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    s = BrowserSession(browser, server, {"viewport": {"width": 1200, "height": 900}})
    try:
        o, arb = s.page("en"), s.page("es")  # the organiser; the co-arbiter's own device
        white, black, hall, public = s.page("en"), s.page("es"), s.page("en"), s.page("en")
        _sign_up(o.context, "olga")
        _sign_up(arb.context, "bea")
        o.goto("/#/tournament/new")
        o.wait_for_function("document.querySelector('[data-testid=t-owner-hint]')"
                            ".textContent.includes('olga')")
        o.fill("[data-testid=t-name]", EVENT)
        o.select_option("[data-testid=t-system]", "swiss")
        o.fill("input[name=rounds]", "5")
        o.fill("input[name=time_control]", "600+5")
        o.select_option("[data-testid=t-source]", "hall")
        o.fill("[data-testid=t-excluded]", "standard")
        o.select_option("[data-testid=t-prep]", "5")
        o.click("[data-testid=t-create]")
        o.wait_for_url(re.compile(r"#/tournament/[0-9a-f]+$"))
        eid = o.url.rsplit("/", 1)[1]
        commitment = o.text_content("[data-testid=t-commitment]") or ""
        o.click("[data-testid=t-section-arbiters] summary")
        o.fill("[data-testid=t-arbiter-name]", "bea")
        o.click("[data-testid=t-add-arbiter]")
        o.wait_for_selector("[data-testid=t-arbiter-list] li")
        # The co-arbiter, in Spanish on her own device: the nine players and the start.
        arb.goto(f"/#/tournament/{eid}")
        expect(arb.locator("[data-testid=t-role]")).to_contain_text("coárbitro")
        for i, name in enumerate(PLAYERS):
            arb.fill("[data-testid=t-player-name]", name)
            arb.fill("[data-testid=t-player-rating]", str(2200 - 40 * i))
            arb.click("[data-testid=t-add]")
            arb.wait_for_function("document.querySelectorAll('[data-testid=t-players] li')"
                                  f".length === {i + 1}")
        arb.click("[data-testid=t-start]")
        expect(arb.locator("[data-testid=t-status]")).to_have_text("en juego")
        # Five rounds: the organiser (English) reveals the odd ones, the co-arbiter (Spanish)
        # the even ones; board 1 is played online, the others' results are entered.
        o.reload()
        for rnd in range(1, 6):
            staff, lang = (o, "en") if rnd % 2 else (arb, "es")
            opens = ("The server opens the games online in" if lang == "en"
                     else "El servidor abre las partidas en línea dentro de")
            staff.click("[data-testid=t-pair]")
            staff.wait_for_selector(f"[data-testid=t-round-{rnd}]")
            staff.wait_for_selector("[data-testid=t-reveal-input]")
            _reveal(staff, hall, eid, HALL[rnd], lang, opens, white, black, photo=rnd <= 2)
            _play(staff, rnd, white, black, "resign" if rnd % 2 else "draw")
            boards = _state(o, eid)["round_list"][rnd - 1]["boards"]
            _results(o.context, eid, rnd, [b["board"] for b in boards[1:] if b["black"]])
            assert _state(o, eid)["completed_rounds"] == rnd
        # Close, and verify: the public page in words, the document's recipe in the test.
        o.wait_for_selector("[data-testid=t-close]")
        o.click("[data-testid=t-close]")
        o.wait_for_selector("[data-testid=t-salt]")
        salt_hex = o.text_content("[data-testid=t-salt]") or ""
        state = _state(o, eid)
        assert state["status"] == "closed" and state["completed_rounds"] == 5
        assert [r["boards"][0]["result"] for r in state["round_list"]] == [
            "1-0", "1/2-1/2", "1-0", "1/2-1/2", "1-0"]
        assert all(r["boards"][0]["game_id"] for r in state["round_list"])  # played online
        assert sum(x["points"] for x in state["standings"]) == 5 * 4 + 5  # 4 games, 1 bye
        public.goto(f"/#/tournament/{eid}/verify")
        expect(public.locator("[data-testid=t-verify-result]")).to_contain_text("Verified")
        assert public.locator("[data-testid=t-verify-rounds] tr").count() == 5
        scope: dict[str, Any] = {}
        block = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)[0]
        exec(compile(block, str(DOCS), "exec"), scope)
        salt = bytes.fromhex(salt_hex)
        assert scope["commitment"](salt, EVENT) == commitment
        numbers, tag = scope["pool"]("chess960", "any", (518, 534))
        for r in state["round_list"]:
            key = scope["round_key"](salt, EVENT, r["round"], r["reveal"]["input"], tag)
            assert key.hex() == r["reveal"]["key"]
            drawn = scope["hall_number"](key, 0, numbers, tag)
            assert all(b["setup"] == drawn for b in r["boards"] if b["black"])
        # The shuffler page, in Spanish, re-derives round 2 from what the event published.
        black.goto("/#/shuffler")
        black.click("details.round summary")
        black.fill("[data-testid=sh-salt]", salt_hex)
        black.fill("[data-testid=sh-event]", EVENT)
        black.fill("[data-testid=sh-round]", "2")
        black.fill("[data-testid=sh-hall-digits]", HALL[2])
        black.fill("[data-testid=sh-hall-excluded]", "standard")
        black.click("[data-testid=sh-hall-derive]")
        expect(black.locator("[data-testid=sh-hall-key]")).to_have_text(
            state["round_list"][1]["reveal"]["key"])
        expect(black.locator("[data-testid=card-number]")).to_have_text(
            str(state["round_list"][1]["boards"][0]["setup"]))
        assert "Clave de la ronda" in (black.text_content("[data-testid=sh-hall]") or "")
        black.fill("[data-testid=sh-hall-digits]", "61524x")
        black.click("[data-testid=sh-hall-derive]")
        expect(black.locator(".shuffler p.error")).to_contain_text("0-9")
        black.screenshot(path=str(ARTIFACTS / "shuffler-hall-es.png"), full_page=True)
        assert not s.errors, s.errors
    finally:
        s.close()
