"""The play page in a real browser (issue 11): the defects found by playing it as a new user
would, each reproduced here first, then what a lichess player expects around a game.

Playwright drives Debian's chromium against ``randomchess serve`` started on a free port.
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from randomchess import Position, get_variant
from web_support import (
    SLOW,
    click_square,
    drag,
    game_state,
    launched_browser,
    new_game,
    running_server,
    shot,
    skip_without_browser,
    tap_square,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = skip_without_browser

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}


# ------------------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The computer answers at once (issue 11's board lock showed at level 1).
    tmp = tmp_path_factory.mktemp("play")
    with running_server(tmp, RANDOMCHESS_ENGINE_MOVETIME_MS="30") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


class Session:
    """A browser context with its pages; any JavaScript error fails the test."""

    def __init__(self, browser: Browser, server: str) -> None:
        self.browser, self.server = browser, server
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(self, lang: str = "en", **options: Any) -> Page:
        ctx = self.browser.new_context(base_url=self.server, **{**DESKTOP, **options})
        ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
        self.contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(SLOW)
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        return pg

    def close(self) -> None:
        for c in self.contexts:
            c.close()


@pytest.fixture
def session(browser: Browser, server: str) -> Iterator[Session]:
    s = Session(browser, server)
    yield s
    s.close()
    assert not s.errors, f"JavaScript errors: {s.errors}"


@pytest.fixture
def page(session: Session) -> Page:
    return session.page()


def last_move(page: Page) -> str | None:
    s = game_state(page)
    return s["moves"][-1] if s and s["moves"] else None


_VALUE = {"p": 1, "n": 3, "b": 3, "m": 6, "r": 5, "q": 9, "k": 0}




def choose_move(variant: str, fen: str, legal: list[str]) -> str:
    """A plain move (no castling, adjustment or promotion) that does not allow mate in one,
    capturing when it can: enough to keep a game against level 1 going for 40 plies."""
    v = get_variant(variant)
    pos = Position(fen, v)
    best, best_score = None, -1e9
    for m in pos.legal_moves():
        uci = pos.uci(m)
        if uci not in legal or m.promotion or pos.is_castling(m) or pos.is_adjustment(m):
            continue
        score = 10.0 if pos.is_capture(m) else 0.0
        pos.push(m)
        replies = pos.legal_moves()
        for r in replies:
            pos.push(r)
            mate = pos.is_checkmate()
            pos.pop()
            if mate:
                score -= 1000
                break
        if not replies:
            score += 500 if pos.is_check() else -200  # mate is good, stalemate is not
        pos.pop()
        score += (hash(uci) % 7) / 10  # vary the game a little
        if score > best_score:
            best, best_score = uci, score
    assert best is not None, f"no plain move in {fen}"
    return best


# ------------------------------------------------------------------------------ defect 1
def test_board_never_locks_in_a_40_ply_game_against_an_instant_computer(page: Page) -> None:
    """Issue 11 defect 1: a POST answer that arrives after the pushed states of the move and
    the computer's instant reply used to be dropped with the board still locked.  Every POST
    answer is delayed here so that it always arrives last."""
    page.add_init_script("""(() => {
      const real = window.fetch;
      window.fetch = async (url, opts) => {
        const res = await real(url, opts);
        if (opts && opts.method === 'POST' && /\\/moves$/.test(String(url))) {
          await new Promise(r => setTimeout(r, 350));
        }
        return res;
      };
    })()""")
    new_game(page, "chess960", "computer", color="white", level=1)
    ply = 0
    while ply < 40:
        page.wait_for_function(
            "(() => { const s = window.rcGame.state; const g = window.rcGame.ground.state;"
            " return s && s.to_move === 'white' && g.movable.color === 'white'"
            " && g.movable.dests && g.movable.dests.size > 0; })()",
            timeout=15_000)
        s = game_state(page)
        assert s["status"] != "ended", f"the game ended after {ply} plies: {s['termination']}"
        ply = len(s["moves"])
        uci = choose_move("chess960", s["fen"], s["legal_moves"])
        click_square(page, uci[:2])
        click_square(page, uci[2:4])
        wait_ply(page, ply + 2, timeout=15_000)  # our move and the computer's reply
        ply += 2
    assert len(game_state(page)["moves"]) >= 40
    shot(page, "play-40-plies")


# ------------------------------------------------------------------------------ defect 2
@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("variant", ["chess960", "mrc"])
@pytest.mark.parametrize("minutes", [0, 10])
def test_drops_and_taps_at_off_centre_points(session: Session, device: str, variant: str,
                                             minutes: int) -> None:
    """Issue 11 defect 2: the board's cached bounds were 19 px too high (29 px with a clock) on
    8x8, so points in the lower part of a square landed one rank lower."""
    phone = device == "phone"
    page = session.page(**(PHONE if phone else DESKTOP))
    number = 518 if variant == "chess960" else 8226
    new_game(page, variant, "hotseat", number=number, minutes=minutes)
    if minutes:
        expect(page.locator("[data-testid=clock-white]")).to_have_text(re.compile(r"10:00"))
    if phone:
        tap_square(page, "e2", 0.5, 0.85)
        tap_square(page, "e4", 0.3, 0.9)
    else:
        drag(page, "e2", "e4", at0=(0.2, 0.85), at1=(0.5, 0.9))
    wait_ply(page, 1)
    assert last_move(page) == "e2e4"
    # Black's pawns stand on the 7th rank on 8x8, the 8th on 9x9.
    orig, dest = ("d7", "d5") if variant == "chess960" else ("d8", "d6")
    if phone:
        tap_square(page, orig, 0.8, 0.1)
        tap_square(page, dest, 0.5, 0.1)
    else:
        drag(page, orig, dest, at0=(0.5, 0.12), at1=(0.85, 0.1))
    wait_ply(page, 2)
    assert last_move(page) == orig + dest
    if minutes and variant == "chess960":
        shot(page, f"play-{device}-clock")
