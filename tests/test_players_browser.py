"""The players' pages in a real browser (issue 18): the header's lobby and account links on a
phone, the rating change on the game page after a rated game, the correspondence deadline on
the clock, and the rating chart and statistics pages.  Skipped, loudly, like
tests/test_web_browser.py when chromium or the bundle is missing."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_support import launched_browser, running_server, shot, skip_without_browser, wait_board

with contextlib.suppress(ImportError):  # skipped below without it
    from playwright.sync_api import Browser, Page, expect

pytestmark = skip_without_browser

PASSWORD = "a long enough password"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Many sign-ups from one address (127.0.0.1): the sign-up limit is raised for the tests.
    with running_server(Path(tmp_path_factory.mktemp("players")),
                        RANDOMCHESS_SIGNUP_PER_HOUR="1000") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as b:
        yield b


class Player:
    """An account on the real server, driven over HTTP (its own cookie jar)."""

    def __init__(self, server: str, name: str) -> None:
        self.name = name
        self.http = httpx.Client(base_url=server, timeout=10)
        self.http.get("/api/account/csrf")
        r = self.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text

    def post(self, url: str, **kw: Any) -> httpx.Response:
        headers = {"X-CSRF-Token": self.http.cookies.get("rc_csrf") or ""}
        return self.http.post(url, headers=headers, **kw)

    def cookies(self) -> list[dict[str, Any]]:
        host = httpx.URL(str(self.http.base_url)).host
        return [{"name": k, "value": v, "domain": host, "path": "/"}
                for k, v in self.http.cookies.items()]


def rated_game(a: Player, b: Player, **extra: Any) -> dict[str, Any]:
    """A rated friend game, ``a`` White and ``b`` Black, both seats held by the accounts."""
    body = {"variant": "chess", "opponent": "friend", "color": "white", "rated": True,
            "clock": {"minutes": 3, "increment": 2}, **extra}
    r = a.post("/api/account/games", json=body)
    assert r.status_code == 201, r.text
    game = r.json()
    invite = game["invite_url"].rsplit("/", 1)[1]
    joined = b.http.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
    r = b.post(f"/api/account/games/{game['id']}/claim", json={"token": joined["seat"]["token"]})
    assert r.status_code == 200, r.text
    return {"id": game["id"], "white": game["seat"]["token"], "black": joined["seat"]["token"]}


def open_seat(page: Page, game_id: str, color: str, token: str) -> None:
    page.goto("/#/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"rc-seat-{game_id}", json.dumps({"color": color, "token": token,
                                                     "opponent": "friend"})])
    page.goto(f"/#/game/{game_id}")
    wait_board(page)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_header_links_fit_a_phone(browser: Browser, server: str, lang: str) -> None:
    ctx = browser.new_context(base_url=server, **PHONE)
    page = ctx.new_page()
    try:
        page.goto(f"/?lang={lang}#/")
        names = {"en": ("Lobby", "Account"), "es": ("Sala", "Cuenta")}[lang]
        for testid, name in zip(("nav-lobby", "nav-account"), names, strict=True):
            link = page.locator(f"[data-testid={testid}]")
            expect(link).to_have_text(name)
            box = link.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        header = page.locator("header.top").bounding_box()
        assert header is not None and header["width"] <= 390
        shot(page, f"header-phone-{lang}")
        page.click("[data-testid=nav-lobby]")
        expect(page.locator("[data-testid=lobby]")).to_be_visible()
        page.click("[data-testid=nav-account]")
        expect(page.locator("[data-testid=account]")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_rating_change_shown_after_a_rated_game(browser: Browser, server: str,
                                                lang: str) -> None:
    a, b = Player(server, f"white-{lang}"), Player(server, f"black-{lang}")
    game = rated_game(a, b)
    ctx = browser.new_context(base_url=server, viewport={"width": 1000, "height": 800},
                              bypass_csp=True)
    page = ctx.new_page()
    try:
        open_seat(page, game["id"], "white", game["white"])
        page.goto(f"/?lang={lang}#/game/{game['id']}")
        wait_board(page)
        expect(page.locator("[data-testid=rating-changes]")).to_be_hidden()
        r = b.http.post(f"/api/games/{game['id']}/resign", json={"token": game["black"]})
        assert r.status_code == 200, r.text
        changes = b.http.get(f"/api/games/{game['id']}/ratings").json()
        box = page.locator("[data-testid=rating-changes]")
        heading = {"en": "Rating changes", "es": "Cambios de puntuación"}[lang]
        expect(box).to_contain_text(heading, timeout=20_000)
        white = page.locator("[data-testid=rating-change-white]")
        black = page.locator("[data-testid=rating-change-black]")
        expect(white).to_contain_text(f"white-{lang}: 1500 → ")
        changes = b.http.get(f"/api/games/{game['id']}/ratings").json()["changes"]
        by = {c["color"]: c for c in changes}
        assert by["white"]["change"] > 0 > by["black"]["change"]
        expect(white).to_contain_text(f"(+{by['white']['change']})")
        expect(black).to_contain_text(f"(-{-by['black']['change']})")
        expect(black).to_contain_text(f"black-{lang}: 1500 → {by['black']['after']}")
        shot(page, f"rating-change-{lang}")
    finally:
        ctx.close()


def test_casual_game_shows_no_rating_change(browser: Browser, server: str) -> None:
    a, b = Player(server, "casual-a"), Player(server, "casual-b")
    game = rated_game(a, b, rated=False)
    ctx = browser.new_context(base_url=server, bypass_csp=True)
    page = ctx.new_page()
    try:
        open_seat(page, game["id"], "white", game["white"])
        b.http.post(f"/api/games/{game['id']}/resign", json={"token": game["black"]})
        expect(page.locator("[data-testid=result]")).to_be_visible()
        box = page.locator("[data-testid=rating-changes]")
        expect(box).to_have_attribute("data-rated", "false")  # the page asked: casual
        expect(box).to_be_hidden()
    finally:
        ctx.close()


def test_correspondence_per_game_seek_through_the_pages(browser: Browser, server: str) -> None:
    """Alice posts a correspondence seek (3 days per move) with a new random setup per game;
    Bob sees it live and accepts; the game page shows the days and the deadline, and after
    the game the rematch offers only a new setup."""
    from test_lobby_browser import sign_up

    contexts = [browser.new_context(base_url=server, viewport={"width": 1000, "height": 800},
                                    bypass_csp=True) for _ in range(2)]
    alice, bob = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for p in (alice, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        sign_up(alice, "corr-alice")
        sign_up(bob, "corr-bob")
        alice.goto("/#/lobby")
        bob.goto("/#/lobby")
        alice.select_option("[data-testid=seek-days]", "3")
        alice.select_option("[data-testid=seek-setup]", "new-per-game")
        alice.click("[data-testid=seek-post]")
        offer = bob.locator("[data-testid=seek]", has_text="corr-alice")
        expect(offer).to_contain_text("3 d/move")
        expect(offer).to_contain_text("new setup per game")
        offer.locator("[data-testid=seek-accept]").click()
        bob.wait_for_url(re.compile(r"#/game/"))
        alice.wait_for_url(re.compile(r"#/game/"))
        game_id = re.search(r"#/game/([^/?]+)", bob.url).group(1)  # type: ignore[union-attr]
        wait_board(bob)
        expect(bob.locator("[data-testid=seat]")).to_contain_text("3 days per move")
        deadline = bob.locator("[data-testid=deadline-white]")
        expect(deadline).to_contain_text("Move by")
        state = httpx.get(f"{server}/api/games/{game_id}").json()
        assert deadline.get_attribute("data-deadline") == str(state["clocks"]["deadline"])
        expect(bob.locator("[data-testid=clock-white]")).to_have_text(re.compile(r"^2d 23h$"))
        expect(bob.locator("[data-testid=clock-black]")).to_have_text("3d 00h")
        # The account names are on the player lines, and White's "your turn" list has the
        # game with its deadline.
        names = httpx.get(f"{server}/api/games/{game_id}/ratings").json()["players"]
        assert set(names.values()) == {"corr-alice", "corr-bob"}
        for color in ("white", "black"):
            expect(bob.locator(f"[data-testid=player-{color}]")).to_contain_text(names[color])
        expect(bob.locator("[data-testid=player-white], [data-testid=player-black]")
               .filter(has_text="corr-bob")).to_contain_text("(You)")
        shot(bob, "correspondence-game")
        bob.click("[data-testid=profile-white]")
        expect(bob.locator("[data-testid=profile-name]")).to_contain_text(names["white"])
        bob.go_back()
        wait_board(bob)
        white_page = alice if names["white"] == "corr-alice" else bob
        white_page.goto("/#/account")
        # The variant's name, not its key (issue 27).
        expect(white_page.locator("[data-testid=your-turn]")).to_contain_text("Chess960 #")
        expect(white_page.locator("[data-testid=turn-deadline]")).to_contain_text("move by")
        white_page.goto(f"/#/game/{game_id}")
        wait_board(white_page)
        bob.goto(f"/?lang=es#/game/{game_id}")
        wait_board(bob)
        expect(bob.locator("[data-testid=deadline-white]")).to_contain_text("Juega antes del")
        expect(bob.locator("[data-testid=seat]")).to_contain_text("3 días por jugada")
        # Two moves, then Bob resigns; the rematch draws a new setup: "same" is not offered.
        seats = {}
        for p in (alice, bob):
            seat = json.loads(p.evaluate(f"localStorage.getItem('rc-seat-{game_id}')"))
            seats[seat["color"]] = seat["token"]
        for move, color in (("e2e4", "white"), ("e7e5", "black")):
            r = httpx.post(f"{server}/api/games/{game_id}/moves",
                           json={"move": move, "token": seats[color]})
            assert r.status_code == 200, r.text
        expect(bob.locator("[data-testid=board]")).to_have_attribute("data-ply", "2")
        bob.click("[data-testid=resign]")
        bob.click("[data-testid=confirm-yes]")
        expect(bob.locator("[data-testid=result]")).to_be_visible()
        expect(bob.locator("[data-testid=rating-changes]")).to_have_attribute("data-rated",
                                                                           "true")
        bob.click("[data-testid=rematch]")
        expect(bob.locator("[data-testid=rematch-new]")).to_be_visible()
        expect(bob.locator("[data-testid=rematch-same]")).to_have_count(0)
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()


def finish(p: Player, game: dict[str, Any], loser: str | None) -> None:
    """End the game: ``loser`` resigns, or (None) both agree a draw; wait until rated."""
    if loser is None:
        p.http.post(f"/api/games/{game['id']}/draw-offer", json={"token": game["white"]})
        p.http.post(f"/api/games/{game['id']}/draw-accept", json={"token": game["black"]})
    else:
        p.http.post(f"/api/games/{game['id']}/resign", json={"token": game[loser]})
    for _ in range(200):
        if p.http.get(f"/api/games/{game['id']}/ratings").json()["changes"]:
            return
        time.sleep(0.05)
    raise AssertionError("not rated")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_profile_chart_and_statistics_per_variant_and_speed(browser: Browser, server: str,
                                                             lang: str) -> None:
    a, b = Player(server, f"chart-a-{lang}"), Player(server, f"chart-b-{lang}")
    # Blitz Chess960: win, loss, win, draw for Alice (White in the first three); one MRC bullet.
    for loser, colour in (("black", "white"), ("white", "white"), ("black", "white"),
                          (None, "black")):
        white, black = (a, b) if colour == "white" else (b, a)
        finish(a, rated_game(white, black, variant="chess960"), loser)
    finish(a, rated_game(a, b, variant="mrc", clock={"minutes": 1, "increment": 0}), "white")
    profile = a.http.get(f"/api/players/{a.name}").json()
    blitz = [p["rating"] for p in profile["history"] if p["variant"] == "chess960"]
    ctx = browser.new_context(base_url=server, viewport={"width": 900, "height": 900})
    ctx.add_cookies(a.cookies())  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        page.goto("/#/account")
        page.select_option("[data-testid=lang]", lang)  # kept in this browser
        page.click("[data-testid=to-profile]")
        expect(page.locator("[data-testid=profile-name]")).to_contain_text(a.name)
        pair = page.locator("[data-testid=profile-pair]")
        page.select_option("[data-testid=profile-pair]", "chess960/blitz")
        points = page.locator("[data-testid=rating-chart] [data-testid=chart-point]")
        expect(points).to_have_count(4)
        assert [int(p.get_attribute("data-rating") or 0) for p in points.all()] == blitz
        expect(page.locator("[data-testid=rating-now]")).to_contain_text(str(blitz[-1]))
        # All: 4 games, 2 wins, 1 draw, 1 loss, 62%; as White 3 games (2 wins, 1 loss).
        cells = {"en": ("Both colours", "As White", "As Black"),
                 "es": ("Ambos colores", "Con blancas", "Con negras")}[lang]
        expect(page.locator("[data-testid=stats-all]")).to_have_text(
            re.compile(rf"{cells[0]}\s*4\s*2\s*1\s*1\s*63%"))
        expect(page.locator("[data-testid=stats-white]")).to_have_text(
            re.compile(rf"{cells[1]}\s*3\s*2\s*0\s*1\s*67%"))
        expect(page.locator("[data-testid=stats-black]")).to_have_text(
            re.compile(rf"{cells[2]}\s*1\s*0\s*1\s*0\s*50%"))
        shot(page, f"profile-chart-{lang}")
        pair.select_option("mrc/bullet")
        expect(points).to_have_count(1)
        expect(page.locator("[data-testid=stats-all]")).to_have_text(
            re.compile(rf"{cells[0]}\s*1\s*0\s*0\s*1\s*0%"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 900
    finally:
        ctx.close()


def test_correspondence_game_from_the_home_page(browser: Browser, server: str) -> None:
    ctx = browser.new_context(base_url=server, bypass_csp=True)
    page = ctx.new_page()
    try:
        page.goto("/#/")
        page.check("input[name=opponent][value=hotseat]")
        page.select_option("[data-testid=days]", "7")
        page.click("[data-testid=start]")
        page.wait_for_url(re.compile(r"#/game/"))
        wait_board(page)
        expect(page.locator("[data-testid=seat]")).to_contain_text("7 days per move")
        expect(page.locator("[data-testid=deadline-white]")).to_contain_text("Move by")
        expect(page.locator("[data-testid=clock-black]")).to_have_text("7d 00h")
        game_id = re.search(r"#/game/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
        state = httpx.get(f"{server}/api/games/{game_id}").json()
        assert state["clocks"]["days"] == 7 and state["clocks"]["running"] == "white"
    finally:
        ctx.close()


def test_setup_statistics_page_from_the_game_page_and_the_shuffler(browser: Browser,
                                                                   server: str) -> None:
    http = httpx.Client(base_url=server, timeout=10)
    # Two setups nobody has played yet on this server: the module's other tests play random
    # Chess960 setups, so fixed numbers would sometimes have games already.
    unplayed = (n for n in range(612, 960)
                if http.get(f"/api/setups/chess960/{n}/stats").json()["games"] == 0)
    played, empty = next(unplayed), next(unplayed)
    ends = [("e2e4", "black"), ("e2e4", "white"), ("d2d4", "black")]
    ids = []
    for first, loser in ends:
        g = http.post("/api/games", json={"variant": "chess960", "setup": played,
                                          "opponent": "hotseat"}).json()
        token = g["seat"]["token"]
        assert http.post(f"/api/games/{g['id']}/moves",
                         json={"move": first, "token": token}).status_code == 200
        if loser == "white":
            http.post(f"/api/games/{g['id']}/moves", json={"move": "a7a6", "token": token})
        assert http.post(f"/api/games/{g['id']}/resign",
                         json={"token": token}).status_code == 200
        ids.append(g["id"])
    expected = http.get(f"/api/setups/chess960/{played}/stats").json()
    assert expected["games"] == 3
    ctx = browser.new_context(base_url=server, bypass_csp=True)
    page = ctx.new_page()
    try:
        page.goto(f"/#/game/{ids[0]}")
        wait_board(page)
        page.click("[data-testid=setup-stats-link]")
        expect(page.locator("[data-testid=stats-title]")).to_contain_text(f"#{played}")
        expect(page.locator("[data-testid=stats-games]")).to_have_text("3 finished games")
        w, d, b = expected["white_wins"], expected["draws"], expected["black_wins"]
        expect(page.locator("[data-testid=stats-results]")).to_have_text(
            f"White wins {w} · draws {d} · Black wins {b}")
        expect(page.locator("[data-testid=stats-score]")).to_contain_text(
            f"{round(expected['white_score'] * 100)}%")
        first = page.locator("[data-testid=stats-first-moves] li")
        expect(first).to_have_count(len(expected["first_moves"]))
        expect(first.first).to_have_text(
            f"{expected['first_moves'][0]['san']} ({expected['first_moves'][0]['games']})")
        expect(page.locator("[data-testid=stats-recent] li")).to_have_count(3)
        # Each latest game is named by its players, result, length and date (issue 37:
        # bare ids before), newest first, linked to the game.
        newest = page.locator("[data-testid=stats-game]").first
        assert newest.get_attribute("data-id") == ids[-1]
        expect(newest).to_contain_text("anonymous \u2013 anonymous")
        expect(newest).to_contain_text("White wins — ")  # ids[-1]: Black resigned
        expect(newest).to_contain_text("1 move")
        assert newest.locator("a").get_attribute("href") == f"/#/game/{ids[-1]}"
        second = page.locator("[data-testid=stats-game]").nth(1)
        expect(second).to_contain_text("Black wins — ")
        expect(second).to_contain_text("1 move")
        shot(page, "setup-stats")
        # Search another number: nothing played there yet; a bad number is refused.
        page.fill("[data-testid=stats-number]", str(empty))
        page.click("[data-testid=stats-go]")
        expect(page.locator("[data-testid=stats-none]")).to_be_visible()
        page.goto("/#/stats/chess960/960")
        expect(page.locator("[data-testid=stats-error]")).to_contain_text("959")
        page.goto(f"/?lang=es#/stats/chess960/{played}")
        expect(page.locator("[data-testid=stats-games]")).to_have_text("3 partidas terminadas")
        # The shuffler's cards link to their setup's page.
        page.goto("/#/shuffler")
        page.click("[data-testid=sh-draw]")
        card = page.locator("[data-testid=setup-card]").first
        number = card.locator("[data-testid=card-number]").inner_text()
        card.locator("[data-testid=card-stats]").click()
        expect(page.locator("[data-testid=stats-title]")).to_contain_text(f"#{number}")
    finally:
        ctx.close()


def test_account_games_filtered_on_the_page(browser: Browser, server: str) -> None:
    a, b, d = (Player(server, f"filter-{n}") for n in ("a", "b", "d"))
    finish(a, rated_game(a, b, variant="chess960", setup=100), "black")  # a wins, #100
    finish(a, rated_game(a, b, variant="chess960", setup=200), "white")  # a loses
    finish(a, rated_game(a, d, variant="mrc"), None)  # a draws d, MRC
    every = a.http.get("/api/account/games").json()["games"]
    assert len(every) == 3
    ctx = browser.new_context(base_url=server)
    ctx.add_cookies(a.cookies())  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        page.goto("/#/account")
        rows = page.locator("[data-testid=game-row]")
        expect(rows).to_have_count(3)
        page.select_option("[data-testid=filter-result]", "win")
        page.click("[data-testid=filter-go]")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("#100")
        page.select_option("[data-testid=filter-result]", "")
        page.fill("[data-testid=filter-opponent]", "FILTER-D")  # any case
        page.click("[data-testid=filter-go]")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Modern Random Chess")  # its name (issue 27)
        page.fill("[data-testid=filter-opponent]", "")
        page.fill("[data-testid=filter-number]", "200")
        page.click("[data-testid=filter-go]")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("0-1")
        page.fill("[data-testid=filter-number]", "300")
        page.click("[data-testid=filter-go]")
        expect(page.locator("[data-testid=no-games]")).to_be_visible()
        page.fill("[data-testid=filter-number]", "")
        page.select_option("[data-testid=filter-variant]", "chess960")
        page.select_option("[data-testid=filter-speed]", "blitz")
        page.click("[data-testid=filter-go]")
        expect(rows).to_have_count(2)
    finally:
        ctx.close()


def test_tournament_rated_round_claimed_from_the_personal_link(browser: Browser,
                                                               server: str) -> None:
    http = httpx.Client(base_url=server, timeout=10)
    r = http.post("/api/tournaments", json={"name": "Link Open", "rounds": 1,
                                            "variant": "chess960", "time_control": "300+3"})
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for name in ("Ann", "Ben"):
        http.post(f"/api/tournaments/{eid}/players", json={"name": name}, headers=auth)
    http.post(f"/api/tournaments/{eid}/start", headers=auth)
    http.post(f"/api/tournaments/{eid}/pair", headers=auth)
    [g] = http.post(f"/api/tournaments/{eid}/rounds/1/online", headers=auth,
                    json={"rated": True}).json()["games"]
    ann, ben = Player(server, "link-ann"), Player(server, "link-ben")
    ctx = browser.new_context(base_url=server, bypass_csp=True)
    ctx.add_cookies(ann.cookies())  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        page.goto(g["white"]["link"])  # the personal link: the seat, then the game
        wait_board(page)
        page.click("[data-testid=claim-seat]")
        expect(page.locator("[data-testid=player-white]")).to_contain_text("link-ann (You)")
        expect(page.locator("[data-testid=claim-seat]")).to_have_count(0)
        invite = g["black"]["link"].rsplit("/", 1)[1]
        black = ben.http.post(f"/api/games/{g['game_id']}/join",
                              json={"invite": invite}).json()["seat"]["token"]
        assert ben.post(f"/api/account/games/{g['game_id']}/claim",
                        json={"token": black}).status_code == 200
        white = json.loads(page.evaluate(f"localStorage.getItem('rc-seat-{g['game_id']}')"))
        for move, token in (("e2e4", white["token"]), ("e7e5", black)):
            assert httpx.post(f"{server}/api/games/{g['game_id']}/moves",
                              json={"move": move, "token": token}).status_code == 200
        ben.http.post(f"/api/games/{g['game_id']}/resign", json={"token": black})
        expect(page.locator("[data-testid=rating-change-white]")).to_contain_text(
            "link-ann: 1500 → ", timeout=20_000)
        expect(page.locator("[data-testid=rating-change-black]")).to_contain_text("(-")
    finally:
        ctx.close()


def test_no_claim_offered_without_an_account(browser: Browser, server: str) -> None:
    g = httpx.post(f"{server}/api/games", json={"variant": "chess", "opponent": "friend",
                                                "color": "white"}).json()
    ctx = browser.new_context(base_url=server, bypass_csp=True)
    page = ctx.new_page()
    try:
        open_seat(page, g["id"], "white", g["seat"]["token"])
        expect(page.locator("[data-testid=player-white]")).to_contain_text("You")
        expect(page.locator("div.game")).to_have_attribute("data-claim", "no")  # decided
        expect(page.locator("[data-testid=claim-seat]")).to_have_count(0)
    finally:
        ctx.close()


def test_challenge_and_quick_pairing_through_the_lobby_page(browser: Browser,
                                                            server: str) -> None:
    from test_lobby_browser import sign_up

    contexts = [browser.new_context(base_url=server, bypass_csp=True) for _ in range(3)]
    alice, bob, dora = (ctx.new_page() for ctx in contexts)
    try:
        for page, name in ((alice, "chal-alice"), (bob, "chal-bob"), (dora, "chal-dora")):
            sign_up(page, name)
            page.goto("/#/lobby")
        alice.fill("[data-testid=seek-opponent]", "CHAL-BOB")
        alice.click("[data-testid=seek-post]")
        offer = bob.locator("[data-testid=seek]", has_text="chal-alice")
        expect(offer).to_contain_text("challenge: chal-alice")
        expect(alice.locator("[data-testid=seek]", has_text="chal-alice")).to_be_visible()
        expect(dora.locator("[data-testid=seek]", has_text="chal-alice")).to_have_count(0)
        offer.locator("[data-testid=seek-accept]").click()
        bob.wait_for_url(re.compile(r"#/game/"))
        alice.wait_for_url(re.compile(r"#/game/"))
        # Quick pairing: Dora finds nothing and waits with a seek; Alice, back in the lobby
        # with another blitz clock, is paired with her, and both land in the game.
        dora.select_option("[data-testid=seek-variant]", "mrc")
        dora.click("[data-testid=quick-pair]")
        alice.goto("/#/lobby")
        expect(alice.locator("[data-testid=seek]", has_text="chal-dora")).to_be_visible()
        alice.select_option("[data-testid=seek-variant]", "mrc")
        alice.fill("[data-testid=seek-minutes]", "4")
        alice.click("[data-testid=quick-pair]")
        alice.wait_for_url(re.compile(r"#/game/"))
        dora.wait_for_url(re.compile(r"#/game/"))
        game_id = re.search(r"#/game/([^/?]+)", alice.url).group(1)  # type: ignore[union-attr]
        assert game_id in dora.url
        state = httpx.get(f"{server}/api/games/{game_id}").json()
        assert state["variant"] == "mrc"
    finally:
        for ctx in contexts:
            ctx.close()


def test_players_pages_fit_a_phone(browser: Browser, server: str) -> None:
    a = Player(server, "phone-player")
    ctx = browser.new_context(base_url=server, **PHONE)
    ctx.add_cookies(a.cookies())  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        for route, ready in (("/#/lobby", "seek-form"), ("/#/account", "games-filter"),
                             (f"/#/players/{a.name}", "profile-name"),
                             ("/#/stats/mrc/8226", "stats-title")):
            page.goto(route)
            page.locator(f"[data-testid={ready}]").wait_for()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (route, width)
        shot(page, "stats-phone")
    finally:
        ctx.close()


def test_organiser_opens_a_rated_round_from_the_tournament_page(browser: Browser,
                                                                server: str) -> None:
    http = httpx.Client(base_url=server, timeout=10)
    r = http.post("/api/tournaments", json={"name": "Box Open", "rounds": 1,
                                            "variant": "chess960", "time_control": "600+5"})
    eid, secret = r.json()["id"], r.json()["organiser_secret"]
    auth = {"X-Organiser-Secret": secret}
    for name in ("Ann", "Ben"):
        http.post(f"/api/tournaments/{eid}/players", json={"name": name}, headers=auth)
    http.post(f"/api/tournaments/{eid}/start", headers=auth)
    http.post(f"/api/tournaments/{eid}/pair", headers=auth)
    ctx = browser.new_context(base_url=server)
    page = ctx.new_page()
    try:
        page.goto("/#/")
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rc-tournament-{eid}", secret])
        page.goto(f"/#/tournament/{eid}")
        page.check("[data-testid=t-online-rated]")
        page.click("[data-testid=t-online]")
        link = page.locator("[data-testid=t-link-1-white]")
        expect(link).to_be_visible()
        game_id = (link.get_attribute("href") or "").split("/")[-2]
        terms = http.get(f"/api/games/{game_id}/ratings").json()
        assert (terms["rated"], terms["speed"]) == (True, "rapid")
    finally:
        ctx.close()
