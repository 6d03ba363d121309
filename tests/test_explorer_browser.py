"""The opening explorer in a real browser (issue 33): its panel on the analysis board follows
the moves played, a click on a move plays it, the source, speed and rating filters change the
counts, in English and Spanish, and its own page (#/explorer) on a phone.  Playwright with
Debian's chromium against ``randomchess serve``; screenshots go to test-artifacts/."""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine

from randomchess.analysis.own import OwnEngine
from randomchess.explorer.evaluate import evaluate_tree
from randomchess.explorer.importer import import_pgn
from randomchess.explorer.store import ExplorerStore
from web_support import (
    ARTIFACTS,
    launched_browser,
    running_server,
    sized_page,
    skip_without_browser,
)

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser


def _game(moves: str, result: str, tc: str | None = None, elo: int | None = None) -> str:
    tags = ['[Variant "Chess960"]', f'[Result "{result}"]', f'[White "W {moves[3:6]}"]',
            '[Black "Bee"]', '[Date "2026.10.01"]']
    if tc:
        tags.append(f'[TimeControl "{tc}"]')
    if elo:
        tags += [f'[WhiteElo "{elo}"]', f'[BlackElo "{elo}"]']
    return "\n".join(tags) + f"\n\n{moves} {result}\n\n"


CLUB = "".join([
    _game("1. e4 e5 2. Nf3", "1-0", "180+2", 1600),
    _game("1. e4 e5 2. Bc4", "1-0", "180+2", 1600),
    _game("1. e4 c5", "0-1", "600+0", 2200),
    _game("1. d4 d5", "1/2-1/2"),
])
MASTERS = _game("1. c4 e5", "1-0")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("explorer-web")
    with running_server(tmp) as url:
        port = url.rsplit(":", 1)[1]
        engine = create_engine(f"sqlite:///{tmp / f'games-{port}.sqlite3'}")
        store = ExplorerStore(engine)
        for name, text in (("club", CLUB), ("masters", MASTERS)):
            pgn = tmp / f"{name}.pgn"
            pgn.write_text(text, encoding="utf-8")
            assert import_pgn(store, pgn, name).counted == text.count("[Variant")
        engine.dispose()
        # and one game of this server's, counted as it ends: 1. e4 e5, then White resigns
        game = _post(url, "/api/games", {"variant": "chess960", "setup": 518,
                                          "opponent": "hotseat"})
        token = game["seat"]["token"]
        for move in ("e2e4", "e7e5"):
            _post(url, f"/api/games/{game['id']}/moves", {"move": move, "token": token})
        _post(url, f"/api/games/{game['id']}/resign", {"token": token})
        deadline = time.monotonic() + 30
        while _get(url, "/api/explorer/chess960/518?source=server")["games"] != 1:
            assert time.monotonic() < deadline, "the server game was not counted"
            time.sleep(0.1)
        # the engine's evaluations of the start's children (randomchess explorer evaluate)
        engine = create_engine(f"sqlite:///{tmp / f'games-{port}.sqlite3'}")
        assert evaluate_tree(ExplorerStore(engine), OwnEngine(hash_mb=4), "chess960", 518,
                             depth=1, plies=1) == 4  # the start, after e4, d4, c4
        engine.dispose()
        yield url


def _post(url: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url + path, method="POST", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def _get(url: str, path: str) -> Any:
    with urllib.request.urlopen(url + path, timeout=60) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


@pytest.fixture
def pages(browser: Browser, server: str) -> Iterator[list[Page]]:
    made: list[Page] = []
    errors: list[str] = []
    yield made
    for pg in made:
        pg.context.close()
    assert not errors, errors


def _open(pages: list[Page], browser: Browser, server: str, size: str, lang: str,
          path: str) -> Page:
    pg = sized_page(browser, server, size, lang)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pages.append(pg)
    pg.goto(path)
    return pg


def _games(pg: Page, uci: str) -> str | None:
    row = pg.locator(f"[data-testid=explorer-move-{uci}]")
    return row.get_attribute("data-games") if row.count() else None


def _wait_total(pg: Page, total: int) -> None:
    expect(pg.locator("[data-testid=explorer]")).to_have_attribute("data-games", str(total))
    expect(pg.locator("[data-testid=explorer]")).to_have_attribute("data-ready", "yes")


def test_the_panel_follows_the_board_and_a_click_plays_the_move(
        pages: list[Page], browser: Browser, server: str) -> None:
    pg = _open(pages, browser, server, "desktop", "en", "/#/analysis?variant=chess960&setup=518")
    _wait_total(pg, 6)
    assert _games(pg, "e2e4") == "4" and _games(pg, "d2d4") == "1" and _games(pg, "c2c4") == "1"
    expect(pg.locator("[data-testid=explorer] h3")).to_have_text("Opening explorer")
    expect(pg.locator("[data-testid=explorer-move-e2e4] td").nth(1)).to_contain_text("4 games")
    ev = _get(server, "/api/explorer/chess960/518")["moves"][0]["evaluation"]
    cell = pg.locator("[data-testid=explorer-eval-e2e4]")
    expect(cell).to_have_text(re.compile(r"^[+-]?\d+\.\d$"))  # pawns, White's view
    assert abs(float(cell.text_content() or "") - ev["cp"] / 100) <= 0.051
    # the games behind e4: the server's game first (the latest), with a link to its page
    pg.click("[data-testid=explorer-games-e2e4]")
    items = pg.locator("[data-testid=explorer-game]")
    expect(items).to_have_count(4)
    expect(items.first).to_contain_text("Games on this server")
    expect(items.first.locator("[data-testid=explorer-game-link]")).to_have_attribute(
        "href", re.compile(r"^#/game/[0-9a-zA-Z_-]+$"))
    expect(items.nth(1)).to_contain_text("W e4 (2200) \u2013 Bee (2200) · 0-1 · 2026.10.01 · club")
    assert items.nth(1).locator("a").count() == 0  # an imported game has no page here
    # a click on e4 plays it on the board, and the panel moves on with it
    pg.click("[data-testid=explorer-play-e2e4]")
    expect(pg.locator("[data-testid=analysis-board]")).to_have_attribute("data-ply", "1")
    _wait_total(pg, 4)
    expect(items).to_have_count(0)
    assert _games(pg, "e7e5") == "3" and _games(pg, "c7c5") == "1"
    assert _games(pg, "e2e4") is None
    # a move played on the board (here through the page's controller) moves it on too
    pg.evaluate("window.rcAnalysis.play('e7e5')")
    _wait_total(pg, 2)
    assert _games(pg, "g1f3") == "1" and _games(pg, "f1c4") == "1"
    expect(pg.locator("[data-testid=explorer-play-g1f3]")).to_have_text("Nf3")
    bar = pg.locator("[data-testid=explorer-bar-g1f3] .w")
    assert bar.get_attribute("data-value") == "100"
    pg.screenshot(path=str(ARTIFACTS / "explorer-panel-en.png"), full_page=True)


def test_the_filters_change_the_counts(pages: list[Page], browser: Browser,
                                       server: str) -> None:
    pg = _open(pages, browser, server, "desktop", "en", "/#/analysis?variant=chess960&setup=518")
    _wait_total(pg, 6)
    pg.select_option("[data-testid=explorer-source]", "club")
    _wait_total(pg, 4)
    assert _games(pg, "c2c4") is None and _games(pg, "e2e4") == "3"
    pg.select_option("[data-testid=explorer-speed]", "blitz")
    _wait_total(pg, 2)
    assert _games(pg, "e2e4") == "2" and _games(pg, "d2d4") is None
    pg.select_option("[data-testid=explorer-speed]", "")
    pg.fill("[data-testid=explorer-min]", "2000")
    pg.press("[data-testid=explorer-min]", "Enter")
    _wait_total(pg, 1)
    expect(pg.locator("[data-testid=explorer-move-e2e4] td").nth(3)).to_have_text("2200")
    pg.fill("[data-testid=explorer-min]", "")
    pg.press("[data-testid=explorer-min]", "Enter")
    pg.select_option("[data-testid=explorer-source]", "masters")
    _wait_total(pg, 1)
    assert _games(pg, "c2c4") == "1" and _games(pg, "e2e4") is None
    pg.select_option("[data-testid=explorer-source]", "server")
    _wait_total(pg, 1)
    assert _games(pg, "e2e4") == "1"
    pg.fill("[data-testid=explorer-min]", "3000")
    pg.press("[data-testid=explorer-min]", "Enter")
    _wait_total(pg, 0)
    expect(pg.locator("[data-testid=explorer-status]")).to_contain_text("No game has reached")


def test_in_spanish_on_its_own_page_on_a_phone(pages: list[Page], browser: Browser,
                                              server: str) -> None:
    pg = _open(pages, browser, server, "phone", "es", "/#/explorer?variant=chess960&setup=518")
    _wait_total(pg, 6)
    expect(pg.locator("aside h2")).to_contain_text("Explorador de aperturas")
    expect(pg.locator("[data-testid=explorer] h3")).to_have_count(0)  # the page's title says it
    expect(pg.locator("[data-testid=explorer-status]")).to_have_text(
        "6 partidas llegaron a esta posición")
    expect(pg.locator("[data-testid=explorer-source] option").first).to_have_text(
        "Todos los orígenes")
    pg.locator("[data-testid=explorer-play-e2e4]").tap()
    _wait_total(pg, 4)
    pg.evaluate("window.rcAnalysis.play('e7e5')")
    _wait_total(pg, 2)
    expect(pg.locator("[data-testid=explorer-play-g1f3]")).to_have_text("Cf3")
    # nothing wider than the phone's screen
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = pg.locator("[data-testid=explorer-moves]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    pg.screenshot(path=str(ARTIFACTS / "explorer-phone-es.png"), full_page=True)
    assert Path(ARTIFACTS / "explorer-phone-es.png").exists()
    # the setup's statistics page leads here
    pg.goto("/#/stats/chess960/518")
    pg.locator("[data-testid=stats-explorer]").tap()
    _wait_total(pg, 6)
    assert "/#/explorer?variant=chess960&setup=518" in pg.url
