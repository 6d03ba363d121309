"""The browser draws boards, castling, promotion choices and piece letters from the server's
variant metadata (``GET /api/variants``, issue 12), so Capablanca chess and Capablanca Random
Chess (10x8) play in the browser with no variant named in the front end.

Playwright drives Debian's chromium against ``randomchess serve`` on a free port; screenshots
go to ``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_support import (
    SLOW,
    board_attr,
    drag,
    game_state,
    launched_browser,
    new_game,
    running_server,
    shot,
    skip_without_browser,
    wait_board,
    wait_ply,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
VARIANT_FILE = Path(__file__).resolve().parent / "data" / "variant_files" / "crc_copy.toml"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("variants")
    with running_server(tmp, RANDOMCHESS_ENGINE_MOVETIME_MS="50") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def errors() -> list[str]:
    return []


def open_page(browser: Browser, server: str, errors: list[str], lang: str = "en") -> Page:
    # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids.
    ctx = browser.new_context(base_url=server, bypass_csp=True, **DESKTOP)
    ctx.add_init_script(f"localStorage.setItem('rc-lang', '{lang}')")
    pg = ctx.new_page()
    pg.set_default_timeout(SLOW)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    return pg


@pytest.fixture
def page(browser: Browser, server: str, errors: list[str]) -> Iterator[Page]:
    pg = open_page(browser, server, errors)
    yield pg
    pg.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def api(server: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{server}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def square_box(page: Page, square: str) -> tuple[float, float]:
    """Width and height of one square of the drawn board, from cg-board's box and the FEN."""
    box = page.locator("[data-testid=board] cg-board").bounding_box()
    assert box is not None
    files, ranks = int(board_attr(page, "files")), int(board_attr(page, "ranks"))
    return box["width"] / files, box["height"] / ranks


def test_home_page_offers_the_variants_the_server_serves(page: Page, server: str) -> None:
    """The variant menu is the server's list of variants, Capablanca's two entries included,
    named in both languages; the computer is offered for those its engine plays."""
    variants = api(server, "GET", "/api/variants")
    served = [v["key"] for v in variants]
    page.goto("/")
    # The menu is filled from /api/variants after the page loads: wait for it, not a moment.
    expect(page.locator("[data-testid=variant] option")).to_have_count(len(served))
    options = page.eval_on_selector_all("[data-testid=variant] option",
                                        "els => els.map(e => e.value)")
    assert options == served
    assert {"capablanca", "caparandom", "pmrc"} <= set(options)
    # On one screen the page's own draw is the setup played (against a friend or the
    # computer a numbered variant's is drawn verifiably at the start: below).
    page.check("input[name=opponent][value=hotseat]")
    for v in variants:
        page.select_option("[data-testid=variant]", v["key"])
        computer = page.locator("input[name=opponent][value=computer]")
        assert computer.is_disabled() == (not v["engine"]), v["key"]
        expect(page.locator("[data-testid=no-engine]")).to_be_visible(visible=not v["engine"])
        # "Draw again" only where the page draws itself (numbered or none at all).
        if v["setup"]["random"]:
            expect(page.locator("[data-testid=redraw]")).to_be_visible(
                visible=bool(v["setup"]["count"]))
    page.select_option("[data-testid=variant]", "capablanca")
    expect(page.locator("[data-testid=preview-rank]")).to_have_text("RNABQKBCNR")
    # The preview diagram is 10 files wide.
    assert page.locator("[data-testid=setup-preview] .diagram .sq").count() == 80
    page.select_option("[data-testid=variant]", "caparandom")
    # Capablanca Random's arrays have no numbers: the server draws one, no number field.
    expect(page.locator("[data-testid=server-draws]")).to_be_visible()
    assert page.locator("input[name=setup][value=number]").is_disabled()
    # A numbered variant's random setup against a friend: drawn when the friend joins, from
    # the server's committed seed and the friend's value (issue 32): nothing to preview.
    page.select_option("[data-testid=variant]", "chess960")
    page.check("input[name=opponent][value=friend]")
    expect(page.locator("[data-testid=fair-draws]")).to_contain_text("your friend joins")
    expect(page.locator("[data-testid=redraw]")).to_be_hidden()
    assert page.locator("[data-testid=preview-number]").count() == 0


def test_capablanca_against_the_computer_on_a_10x8_board(page: Page) -> None:
    """A Capablanca game against the computer: a 10x8 board whose squares are square, the
    archbishop and chancellor drawn with their images, a move dragged at an off-centre point,
    and the computer's answer."""
    new_game(page, "capablanca", "computer", color="white", level=1)
    assert board_attr(page, "files") == "10" and board_attr(page, "ranks") == "8"
    assert game_state(page)["fen"].startswith("rnabqkbcnr/pppppppppp/10/")
    w, h = square_box(page, "a1")
    assert abs(w - h) < 1.0, (w, h)
    piece = page.locator("cg-board piece.white.a-piece").bounding_box()
    assert piece is not None and abs(piece["width"] - w) < 1.0
    for role in ("a", "c"):
        image = page.eval_on_selector(
            f"cg-board piece.white.{role}-piece", "el => getComputedStyle(el).backgroundImage")
        assert f"/pieces/w{role.upper()}.svg" in image
    assert page.locator("cg-board piece").count() == 40
    # The board's coordinates name ten files.
    files = page.eval_on_selector_all("[data-testid=board] coords.bottom coord",
                                      "els => els.map(e => e.textContent)")
    assert files[:10] == list("abcdefghij"), files
    drag(page, "e2", "e4", at0=(0.2, 0.85), at1=(0.8, 0.15))
    wait_ply(page, 2)  # our move and the computer's answer
    s = game_state(page)
    assert s["moves"][0] == "e2e4"
    assert len(s["moves"]) == 2 and s["moves"][1][1] in "78"
    expect(page.locator("[data-testid=moves]")).to_contain_text("e4")
    shot(page, "capablanca-vs-computer")
    # Both images served.
    for name in ("wA", "wC", "bA", "bC"):
        res = page.request.get(f"/pieces/{name}.svg")
        assert res.ok and b"<svg" in res.body()


CASTLE_AND_PROMOTE = "r4k3r/1P8/10/10/10/10/10/R4K3R w KQq - 0 1"


def test_capablanca_random_castling_preview_and_move(page: Page) -> None:
    """Castling in Capablanca Random Chess: the king lands on i1 and the rook on h1 (c1/d1 on
    the a side), as the metadata says; the button shows it and the board draws it."""
    new_game(page, "caparandom", "hotseat", fen=CASTLE_AND_PROMOTE)
    short = page.locator("[data-testid='castle-O-O']")
    long = page.locator("[data-testid='castle-O-O-O']")
    expect(short).to_be_enabled()
    title = short.get_attribute("title") or ""
    assert "i1" in title and "h1" in title, title
    long_title = long.get_attribute("title") or ""
    assert "c1" in long_title and "d1" in long_title, long_title
    short.click()
    wait_ply(page, 1)
    s = game_state(page)
    assert s["moves"] == ["f1j1"]
    assert s["fen"].split()[0].split("/")[-1] == "R6RK1"
    # The board drew the server's placement: king on i1, rook on h1.
    assert board_attr(page, "fen").split()[0].split("/")[-1] == "R6RK1"


def test_capablanca_promotion_choices_in_the_servers_order(page: Page) -> None:
    """The promotion menu lists the variant's promotion set, chancellor and archbishop
    included, in the order the server gives."""
    new_game(page, "caparandom", "hotseat", fen=CASTLE_AND_PROMOTE)
    info = next(v for v in json.loads(page.request.get("/api/variants").text())
                if v["key"] == "caparandom")
    drag(page, "b7", "b8", at0=(0.7, 0.3), at1=(0.3, 0.7))
    page.wait_for_selector("[data-testid^=promo-]")
    offered = page.eval_on_selector_all(
        "[data-testid^=promo-]", "els => els.map(e => e.dataset.testid.slice(6))")
    assert offered == info["promotions"] == ["q", "c", "a", "r", "b", "n"]
    page.click("[data-testid=promo-c]")
    wait_ply(page, 1)
    assert game_state(page)["moves"] == ["b7b8c"]
    assert board_attr(page, "fen").split("/")[0].startswith("rC")


def test_capablanca_letters_in_spanish(browser: Browser, server: str, errors: list[str]) -> None:
    """Spanish letters of the new pieces come from the metadata: the archbishop is Z
    (arzobispo) and the chancellor E (canciller), not A (alfil) and C (caballo)."""
    new = api(server, "POST", "/api/games", {"variant": "capablanca", "opponent": "hotseat"})
    token = new["seat"]["token"]
    for uci in ("c1d3", "i8h6", "h1g3"):  # archbishop, knight, chancellor
        api(server, "POST", f"/api/games/{new['id']}/moves", {"move": uci, "token": token})
    assert api(server, "GET", f"/api/games/{new['id']}")["san"] == ["Ad3", "Nh6", "Cg3"]
    pg = open_page(browser, server, errors, lang="es")
    try:
        pg.goto(f"/#/game/{new['id']}")
        wait_board(pg)
        wait_ply(pg, 3)
        text = pg.text_content("[data-testid=moves]") or ""
        assert "Zd3" in text and "Ch6" in text and "Eg3" in text, text
        # A move typed with Spanish letters is understood: the archbishop back (Z).
        pg.evaluate(f"localStorage.setItem('rc-seat-{new['id']}', "
                    f"JSON.stringify({{color: 'both', token: '{token}', opponent: 'hotseat'}}))")
        pg.reload()
        wait_board(pg)
        pg.fill("[data-testid=san-input]", "Cf5")  # the knight (caballo) h6-f5
        pg.press("[data-testid=san-input]", "Enter")
        wait_ply(pg, 4)
        assert game_state(pg)["moves"][-1] == "h6f5"
        pg.fill("[data-testid=san-input]", "Zf4")  # archbishop d3-f4 (knight jump)
        pg.press("[data-testid=san-input]", "Enter")
        wait_ply(pg, 5)
        assert game_state(pg)["moves"][-1] == "d3f4"
    finally:
        pg.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_every_random_variant_starts_from_the_home_form_with_a_random_setup(
        page: Page, server: str) -> None:
    """Issue 12: "random" works for every variant whose metadata says its setups are random,
    numbered or not (the server draws Capablanca Random's, Pseudo-MRC's, Chess8400's and
    PMRC's arrays); the board drawn has the variant's size and its start array."""
    from randomchess.variants import get_variant

    for v in api(server, "GET", "/api/variants"):
        if not v["setup"]["random"]:
            continue
        new_game(page, v["key"], "hotseat")
        state = game_state(page)
        assert state["variant"] == v["key"] and state["ply"] == 0
        rows = state["start_fen"].split()[0].split("[")[0].split("/")  # no hand (PM-CRC)
        m = v["setup"]["margin"]  # IFRC: the home ranks inside the empty edges
        white = rows[-1 - m].strip("0123456789")
        if v["setup"]["symmetry"] == "independent":
            white = f"{white}/{rows[m].upper()}"
        assert get_variant(v["key"]).is_setup(white), (v["key"], white)
        assert (board_attr(page, "files"), board_attr(page, "ranks")) == (
            str(v["files"]), str(v["ranks"]))
        assert board_attr(page, "fen") == state["start_fen"]


def _cards(page: Page) -> list[dict[str, Any]]:
    return page.eval_on_selector_all("[data-testid=setup-card]", """cards => cards.map(c => ({
        number: Number(c.querySelector('[data-testid=card-number]').textContent),
        rank: c.querySelector('[data-testid=card-rank]').textContent,
        squares: c.querySelectorAll('.diagram .sq').length,
        castling: c.querySelector('[data-testid=card-castling]').textContent}))""")


def test_shuffler_takes_its_facts_from_the_served_metadata(page: Page, server: str) -> None:
    """The shuffler offers the numbered variants the server serves and draws 8x8 and 9x9
    cards as startpos.py does: rank, diagram of the variant's board, castling squares.  With
    the metadata changed in flight (castling files, the standard array's number) the page
    follows it: it keeps no table of its own (issue 12)."""
    from randomchess.startpos import SetupPool, draw_seeded

    variants = api(server, "GET", "/api/variants")
    page.goto("/#/shuffler")
    numbered = [v["key"] for v in variants if v["setup"]["count"]]
    expect(page.locator("[data-testid=sh-variant] option")).to_have_count(len(numbered))
    options = page.eval_on_selector_all("[data-testid=sh-variant] option",
                                        "els => els.map(e => e.value)")
    assert options == numbered
    for key, files, ranks, castling in (("chess960", 8, 8, "O-O Kg1 Rf1 · O-O-O Kc1 Rd1"),
                                        ("mrc", 9, 9, "O-O-Og Kg1 Rf1 · O-O-Oc Kc1 Rd1")):
        page.select_option("[data-testid=sh-variant]", key)
        assert page.locator("[data-testid=sh-bishops]").is_disabled() == (key != "mrc")
        page.fill("[data-testid=sh-count]", "2")
        page.fill("[data-testid=sh-seed]", "cards")
        page.click("[data-testid=sh-draw]")
        # The draw is asynchronous: wait for this variant's cards, not the previous ones.
        page.locator(f"[data-testid=setup-card][data-variant='{key}']").nth(1).wait_for()
        want = draw_seeded(SetupPool(key), "cards", 2)
        cards = _cards(page)
        assert [c["number"] for c in cards] == [s.number for s in want]
        assert [c["rank"] for c in cards] == [s.rank for s in want]
        assert all(c["squares"] == files * ranks for c in cards)
        assert all(c["castling"] == f"Castling: {castling}" for c in cards), cards

    # The same page with metadata that says otherwise.
    edited = json.loads(json.dumps(variants))
    mrc = next(v for v in edited if v["key"] == "mrc")
    mrc["castling_far_side"].update(king_file="h", rook_file="g")
    chess960 = next(v for v in edited if v["key"] == "chess960")
    chess960["setup"]["standard_number"] = 635
    other = page.context.new_page()
    other.route("**/api/variants", lambda route: route.fulfill(json=edited))
    other.goto("/#/shuffler")
    other.select_option("[data-testid=sh-variant]", "mrc")
    other.fill("[data-testid=sh-seed]", "cards")
    other.click("[data-testid=sh-draw]")
    other.locator("[data-testid=card-number]").first.wait_for()
    assert _cards(other)[0]["castling"] == "Castling: O-O-Og Kh1 Rg1 · O-O-Oc Kc1 Rd1"
    other.select_option("[data-testid=sh-variant]", "chess960")
    other.check("[data-testid=sh-exclude]")
    other.fill("[data-testid=sh-count]", "3")
    other.fill("[data-testid=sh-seed]", "42")
    other.click("[data-testid=sh-draw]")
    other.locator("[data-testid=setup-card][data-variant='chess960']").nth(2).wait_for()
    # docs/shuffler.md §7's seed-42 draw starts with 635; excluded, the pool and tag differ.
    got = [c["number"] for c in _cards(other)]
    assert 635 not in got and got != [635, 930, 895]
    other.close()


CRC_CASTLING = "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1"


def test_crc_description_and_castling_by_dropping_the_king_on_its_rook(
        page: Page, browser: Browser, server: str, errors: list[str]) -> None:
    """Contemporary Random Chess (issue 35): the home page says its castling squares are
    inferred (in both languages), and in a hot-seat game the king dropped on its rook castles
    onto b/c (White, a-side) and g/f (Black, h-side), as the metadata says (RULES.md D-18)."""
    page.goto("/")
    page.select_option("[data-testid=variant]", "crc")
    about = page.locator("[data-testid=variant-about]")
    expect(about).to_contain_text("inferred")
    page.check("input[name=opponent][value=hotseat]")  # the page's own draw, previewed
    expect(page.locator("[data-testid=preview-number]")).to_have_text(re.compile(r"^\d+$"))
    pg = open_page(browser, server, errors, lang="es")
    try:
        pg.goto("/")
        pg.select_option("[data-testid=variant]", "crc")
        expect(pg.locator("[data-testid=variant-about]")).to_contain_text("se deducen")
        expect(pg.locator("[data-testid=variant] option[value=crc]")).to_have_text(
            "Ajedrez Aleatorio Contemporáneo (8x8)")
    finally:
        pg.context.close()
    new_game(page, "crc", "hotseat", fen=CRC_CASTLING)
    title = page.locator("[data-testid='castle-O-Ob']").get_attribute("title") or ""
    assert "b1" in title and "c1" in title, title
    drag(page, "d1", "a1", at0=(0.3, 0.7), at1=(0.75, 0.25))
    wait_ply(page, 1)
    drag(page, "d8", "h8", at0=(0.7, 0.3), at1=(0.25, 0.8))
    wait_ply(page, 2)
    s = game_state(page)
    assert s["moves"] == ["d1a1", "d8h8"]
    rows = s["fen"].split()[0].split("/")
    assert (rows[0], rows[-1]) == ("r4rk1", "1KR4R")
    assert board_attr(page, "fen").split()[0] == s["fen"].split()[0]
    expect(page.locator("[data-testid=moves]")).to_contain_text("O-Ob")
    expect(page.locator("[data-testid=moves]")).to_contain_text("O-Og")


def test_ifrc_board_and_castling_on_the_second_rank(page: Page) -> None:
    """International Fischer Random Chess (issue 35): a 10x10 board with the armies inside
    empty edges, and the king dropped on its rook castles on the 2nd rank onto h2/g2."""
    new_game(page, "ifrc", "hotseat", number=518)
    assert (board_attr(page, "files"), board_attr(page, "ranks")) == ("10", "10")
    state = game_state(page)
    assert state["start_fen"].startswith("10/1rnbqkbnr1/1pppppppp1/")
    fen = "10/1r3k2r1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1R3K2R1/10 w KQkq - 0 1"
    new_game(page, "ifrc", "hotseat", fen=fen)
    drag(page, "f2", "i2", at0=(0.35, 0.6), at1=(0.7, 0.35))
    wait_ply(page, 1)
    s = game_state(page)
    assert s["moves"] == ["f2i2"]
    assert s["fen"].split()[0].split("/")[-2] == "1R4RK2"
    assert board_attr(page, "fen").split()[0] == s["fen"].split()[0]
    expect(page.locator("[data-testid=moves]")).to_contain_text("O-O")


def test_double960_by_its_pair_of_numbers(page: Page) -> None:
    """Double Fischer Random (issue 35): the home page takes the pair 518/123 (White's and
    Black's Scharnagl numbers), refuses a number out of range, and the game starts from the
    two arrays."""
    page.goto("/")
    page.select_option("[data-testid=variant]", "double960")
    page.check("input[name=setup][value=number]")
    page.fill("[data-testid=setup-number]", "518/960")
    expect(page.locator("form .error")).to_contain_text("518/123")
    preview = new_game(page, "double960", "hotseat", number="518/123")  # type: ignore[arg-type]
    assert preview == ("518/123", "RNBQKBNR/NQRNBKRB")
    s = game_state(page)
    assert s["start_fen"] == "nqrnbkrb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert s["number"] == 518 * 960 + 123
    expect(page.locator("[data-testid=seat]")).to_contain_text("#518/123")


def test_double_mrc_by_its_pair_of_mrc_numbers(page: Page) -> None:
    """Double Modern Random Chess (issue 35): the pair of MRC-Ids, 0 to 15,119 each, Black's
    read from its own side; 8226/8226 is Modern Chess."""
    page.goto("/")
    page.select_option("[data-testid=variant]", "double-mrc")
    page.check("input[name=setup][value=number]")
    page.fill("[data-testid=setup-number]", "8226/15120")
    expect(page.locator("form .error")).to_contain_text("0 to 15119 each, as 8226/123")
    preview = new_game(page, "double-mrc", "hotseat", number="8226/8226")  # type: ignore[arg-type]
    assert preview == ("8226/8226", "RNBMKQBNR/RNBQKMBNR")
    s = game_state(page)
    assert s["start_fen"] == ("rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w IAia - 0 1 "
                              "ABCDEFGHIabcdefghi")
    assert s["number"] == 8226 * 15120 + 8226
    expect(page.locator("[data-testid=seat]")).to_contain_text("#8226/8226")


def test_a_variant_from_a_file_is_named_in_the_page_language(
        browser: Browser, tmp_path: Path, errors: list[str]) -> None:
    """A variants file's display_name (issue 35) is the name in the home page's menu, in
    English and in Spanish."""
    with running_server(tmp_path, RANDOMCHESS_VARIANTS_FILE=str(VARIANT_FILE)) as url:
        for lang, name in (("en", "CRC from a file"),
                           ("es", "Ajedrez Aleatorio Contemporáneo (archivo)")):
            pg = open_page(browser, url, errors, lang)
            pg.goto("/")
            option = pg.locator("[data-testid=variant] option[value=crc-copy]")
            expect(option).to_have_text(name)
            pg.select_option("[data-testid=variant]", "crc-copy")
            expect(pg.locator("[data-testid=variant-about]")).to_contain_text(
                "variants file" if lang == "en" else "archivo de variantes")
            pg.context.close()
    assert not errors, f"JavaScript errors: {errors}"
