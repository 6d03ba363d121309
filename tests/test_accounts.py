"""Accounts (issue 18): every security promise of docs/accounts.md, seats held by accounts,
rated games and the history filters.  SQLite here; tests/test_accounts_migration.py runs the
schema on PostgreSQL too."""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from randomchess.accounts.ratings import Rating, rate_game
from randomchess.server.accounts import store as accounts_module
from randomchess.server.accounts.routes import CSRF_COOKIE, SESSION_COOKIE
from randomchess.server.accounts.store import SEATS, SESSIONS, USERS
from server_support import client, database, new_game, play

PASSWORD = "correct horse battery"


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with database("sqlite", tmp_path) as url, client(url) as c:
        yield c


@pytest.fixture(params=["sqlite", "postgresql"])
def cdb(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The queries with joins and aggregates, on both databases."""
    with database(request.param, tmp_path) as url, client(url) as c:
        yield c


class Browser:
    """One browser's cookies on the shared test client (one app, one event loop)."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.cookies = httpx.Cookies()

    @property
    def jar(self) -> dict[str, str]:
        return {ck.name: ck.value for ck in self.cookies.jar if ck.value is not None}

    def plant(self, name: str, value: str) -> None:
        """Set a cookie as if another site or person had put it in this browser."""
        with contextlib.suppress(KeyError):
            self.cookies.delete(name)
        self.cookies.set(name, value, domain="testserver.local")

    def request(self, method: str, url: str, csrf: bool = True, **kw: Any) -> Any:
        self.c.cookies = httpx.Cookies(self.cookies)
        headers = kw.pop("headers", {})
        if csrf and CSRF_COOKIE in self.jar:
            headers.setdefault("X-CSRF-Token", self.jar[CSRF_COOKIE])
        r = self.c.request(method, url, headers=headers, **kw)
        self.cookies = httpx.Cookies(self.c.cookies)
        self.c.cookies = httpx.Cookies()
        return r

    def post(self, url: str, **kw: Any) -> Any:
        return self.request("POST", url, **kw)

    def get(self, url: str, **kw: Any) -> Any:
        return self.request("GET", url, **kw)

    def csrf(self) -> str:
        r = self.get("/api/account/csrf")
        assert r.status_code == 200
        token: str = r.json()["csrf"]
        return token

    def sign_up(self, name: str, password: str = PASSWORD) -> Any:
        self.csrf()
        return self.post("/api/account/signup", json={"name": name, "password": password})

    def log_in(self, name: str, password: str = PASSWORD) -> Any:
        if CSRF_COOKIE not in self.jar:
            self.csrf()
        return self.post("/api/account/login", json={"name": name, "password": password})


def user(c: TestClient, name: str) -> Browser:
    b = Browser(c)
    r = b.sign_up(name)
    assert r.status_code == 201, r.text
    return b


def db(c: TestClient) -> Any:
    return c.app.state.players.accounts.engine  # type: ignore[attr-defined]


# --------------------------------------------------------------------- passwords
def test_password_stored_as_argon2id(c: TestClient) -> None:
    user(c, "alice")
    with db(c).connect() as conn:
        stored = conn.execute(select(USERS.c.password_hash)).scalar()
    assert stored.startswith("$argon2id$")
    assert PASSWORD not in stored


def test_sign_up_checks_name_password_and_duplicates(c: TestClient) -> None:
    b = Browser(c)
    b.csrf()
    for body in ({"name": "ab", "password": PASSWORD}, {"name": "bad name", "password": PASSWORD},
                 {"name": "carol", "password": "short"}):
        assert b.post("/api/account/signup", json=body).status_code == 422
    assert b.post("/api/account/signup", json={"name": "Carol", "password": PASSWORD}
                  ).status_code == 201
    other = Browser(c)
    other.csrf()
    r = other.post("/api/account/signup", json={"name": "carol", "password": PASSWORD})
    assert r.status_code == 409  # names are unique without regard to case


def test_log_in_log_out_and_me(c: TestClient) -> None:
    a = user(c, "alice")
    assert a.get("/api/account/me").json()["name"] == "alice"
    assert a.post("/api/account/logout").status_code == 204
    assert a.get("/api/account/me").status_code == 401
    assert a.log_in("ALICE").status_code == 200  # any case
    assert a.get("/api/account/me").json()["name"] == "alice"


def test_session_answers_200_with_or_without_an_account(c: TestClient) -> None:
    """Issue 32: a page asks who is logged in without a 401 in the browser's console."""
    anon = Browser(c)
    r = anon.get("/api/account/session")
    assert r.status_code == 200 and r.json() == {"account": None}
    a = user(c, "alice")
    account = a.get("/api/account/session").json()["account"]
    assert account == a.get("/api/account/me").json()
    assert a.post("/api/account/logout").status_code == 204
    assert a.get("/api/account/session").json() == {"account": None}


def test_no_enumeration_unknown_name_and_wrong_password_alike(
        c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    user(c, "alice")
    calls: list[str] = []
    real = accounts_module._verify

    def spy(stored: str, password: str) -> bool:
        calls.append(stored)
        return real(stored, password)

    monkeypatch.setattr(accounts_module, "_verify", spy)
    b = Browser(c)
    wrong = b.log_in("alice", "not the password")
    unknown = b.log_in("nobody-here", "not the password")
    assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json())
    assert wrong.status_code == 401
    # Both paths pay one Argon2 verification (the unknown name against a dummy hash).
    assert len(calls) == 2 and all(h.startswith("$argon2id$") for h in calls)


# --------------------------------------------------------------------- sessions
def test_session_cookie_flags(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url) as http:
        r = http.get("/api/account/csrf")
        http.headers["X-CSRF-Token"] = r.json()["csrf"]
        r = http.post("/api/account/signup", json={"name": "alice", "password": PASSWORD})
        cookies = r.headers.get_list("set-cookie")
        session = next(h for h in cookies if h.startswith(SESSION_COOKIE + "="))
        assert "HttpOnly" in session and "SameSite=lax" in session
        assert "Secure" not in session  # plain http (tests, localhost)
        csrf = next(h for h in cookies if h.startswith(CSRF_COOKIE + "="))
        assert "HttpOnly" not in csrf  # the page's script reads it
        secure = TestClient(http.app, base_url="https://testserver")
        secure.cookies.set(CSRF_COOKIE, "t")
        r = secure.post("/api/account/login", json={"name": "alice", "password": PASSWORD},
                        headers={"X-CSRF-Token": "t"})
        assert r.status_code == 200
        session = next(h for h in r.headers.get_list("set-cookie")
                       if h.startswith(SESSION_COOKIE + "="))
        assert "Secure" in session and "HttpOnly" in session


def test_session_tokens_stored_hashed(c: TestClient) -> None:
    a = user(c, "alice")
    token = a.jar[SESSION_COOKIE]
    with db(c).connect() as conn:
        stored = conn.execute(select(SESSIONS.c.token_hash)).scalars().all()
    assert len(stored) == 1 and token not in stored[0] and len(stored[0]) == 64


def test_no_session_fixation(c: TestClient) -> None:
    user(c, "alice")
    b = Browser(c)
    b.csrf()
    planted = secrets.token_urlsafe(32)  # an attacker's cookie set in the victim's browser
    b.plant(SESSION_COOKIE, planted)
    assert b.log_in("alice").status_code == 200
    first = b.jar[SESSION_COOKIE]
    assert first != planted
    attacker = Browser(c)
    attacker.plant(SESSION_COOKIE, planted)
    assert attacker.get("/api/account/me").status_code == 401
    # Logging in again rotates the id; the previous one is dead.
    assert b.log_in("alice").status_code == 200
    assert b.jar[SESSION_COOKIE] != first
    stale = Browser(c)
    stale.plant(SESSION_COOKIE, first)
    assert stale.get("/api/account/me").status_code == 401
    assert b.get("/api/account/me").status_code == 200


def test_expired_sessions_refused_and_swept(c: TestClient) -> None:
    a = user(c, "alice")
    old = accounts_module.now_ms() - accounts_module.SESSION_MS - 1
    with db(c).begin() as conn:
        conn.execute(SESSIONS.update().values(created_at=old))
    assert a.get("/api/account/me").status_code == 401  # 30 days are over
    assert Browser(c).log_in("alice").status_code == 200
    with db(c).connect() as conn:
        ages = conn.execute(select(SESSIONS.c.created_at)).scalars().all()
    assert len(ages) == 1 and ages[0] > old  # the expired row is gone


def test_log_out_everywhere(c: TestClient) -> None:
    a1 = user(c, "alice")
    a2 = Browser(c)
    assert a2.log_in("alice").status_code == 200
    assert a1.post("/api/account/logout-everywhere").status_code == 204
    assert a1.get("/api/account/me").status_code == 401
    assert a2.get("/api/account/me").status_code == 401


def test_change_password_ends_other_sessions(c: TestClient) -> None:
    a1 = user(c, "alice")
    a2 = Browser(c)
    a2.log_in("alice")
    r = a1.post("/api/account/password", json={"old": "wrong password", "new": "n" * 12})
    assert r.status_code == 403
    r = a1.post("/api/account/password", json={"old": PASSWORD, "new": "new password!"})
    assert r.status_code == 200
    assert a1.get("/api/account/me").status_code == 200  # this browser got a new session
    assert a2.get("/api/account/me").status_code == 401
    assert Browser(c).log_in("alice").status_code == 401
    assert Browser(c).log_in("alice", "new password!").status_code == 200


# --------------------------------------------------------------------- CSRF
def test_csrf_required_on_every_cookie_authenticated_change(c: TestClient) -> None:
    a = user(c, "alice")
    game = new_game(c)
    changes: list[tuple[str, dict[str, Any] | None]] = [
        ("/api/account/logout", None), ("/api/account/logout-everywhere", None),
        ("/api/account/password", {"old": PASSWORD, "new": "another password"}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/games", {"variant": "chess", "opponent": "hotseat"}),
        (f"/api/games/{game['id']}/claim".replace("/api/games", "/api/account/games"),
         {"token": game["seat"]["token"]}),
        (f"/api/account/games/{game['id']}/seat", None),
    ]
    for url, body in changes:
        for header in (None, "wrong", a.jar[SESSION_COOKIE]):
            headers = {} if header is None else {"X-CSRF-Token": header}
            r = a.post(url, json=body, csrf=False, headers=headers)
            assert r.status_code == 403, (url, header, r.text)
            assert "CSRF" in r.json()["detail"]
    assert a.get("/api/account/me").status_code == 200  # nothing happened


def test_login_and_signup_need_the_double_submit_token(c: TestClient) -> None:
    user(c, "alice")
    b = Browser(c)
    b.csrf()
    body = {"name": "alice", "password": PASSWORD}
    assert b.post("/api/account/login", json=body, csrf=False).status_code == 403
    assert b.post("/api/account/login", json=body, csrf=False,
                  headers={"X-CSRF-Token": "forged"}).status_code == 403
    body = {"name": "mallory", "password": PASSWORD}
    assert b.post("/api/account/signup", json=body, csrf=False).status_code == 403
    assert b.post("/api/account/login", json={"name": "alice", "password": PASSWORD}
                  ).status_code == 200


def test_seat_token_api_unchanged_with_a_session_cookie(c: TestClient) -> None:
    # The existing API is authenticated by the seat token in the body, never by a cookie:
    # it works without CSRF header, logged in or not, exactly as before.
    a = user(c, "alice")
    r = a.post("/api/games", json={"variant": "chess", "opponent": "hotseat"}, csrf=False)
    assert r.status_code == 201
    game = r.json()
    r = a.post(f"/api/games/{game['id']}/moves", csrf=False,
               json={"move": "e2e4", "token": game["seat"]["token"]})
    assert r.status_code == 200 and r.json()["moves"] == ["e2e4"]
    anonymous = new_game(c)
    assert play(c, anonymous, "d2d4")["moves"] == ["d2d4"]


# --------------------------------------------------------------------- rate limits
def test_login_rate_limit_per_address(c: TestClient) -> None:
    user(c, "alice")
    c.app.state.players.login_per_address = (3, 60_000)  # type: ignore[attr-defined]
    b = Browser(c)
    codes = [b.log_in("alice", f"guess number {i}").status_code for i in range(3)]
    assert codes == [401, 401, 401]
    assert b.log_in("alice").status_code == 429  # even the right password, now
    assert b.log_in("someone-else", "x" * 10).status_code == 429


def test_sign_up_rate_limit(c: TestClient) -> None:
    c.app.state.players.signup_per_address = (2, 60_000)  # type: ignore[attr-defined]
    b = Browser(c)
    assert b.sign_up("user1").status_code == 201
    assert b.sign_up("user2").status_code == 201
    assert b.sign_up("user3").status_code == 429


def test_login_rate_limit_holds_across_workers_through_redis(tmp_path: Path) -> None:
    import redis

    try:
        redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_timeout=2).ping()
    except Exception:
        pytest.skip("Redis NOT REACHABLE at 127.0.0.1:6379: shared rate limit test SKIPPED")
    name = "w" + secrets.token_hex(6)
    with database("sqlite", tmp_path) as url:
        with client(url, redis_url="redis://127.0.0.1:6379/0") as one:
            # The per-address counters in Redis outlive a run: only the per-name one, with
            # a fresh name, is measured here.
            one.app.state.players.signup_per_address = (10**6, 60_000)  # type: ignore[attr-defined]
            user(one, name)
        # Two workers on the same database and Redis, one after the other and together.
        with client(url, redis_url="redis://127.0.0.1:6379/0") as w1, \
                client(url, redis_url="redis://127.0.0.1:6379/0") as w2:
            for w in (w1, w2):
                w.app.state.players.login_per_name = (4, 60_000)  # type: ignore[attr-defined]
                w.app.state.players.login_per_address = (10**6, 60_000)  # type: ignore[attr-defined]
            codes = []
            for i in range(6):
                b = Browser(w1 if i % 2 else w2)
                codes.append(b.log_in(name, f"wrong {i}").status_code)
            assert codes == [401, 401, 401, 401, 429, 429]
        # A worker counting alone would have allowed 4 on each: the count was shared.
    redis.Redis.from_url("redis://127.0.0.1:6379/0").delete(
        f"randomchess:rate:account:login-name:{name}")


# --------------------------------------------------------------------- secrets
def test_no_password_or_token_in_logs_or_pages(c: TestClient,
                                               caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    a = user(c, "alice")
    a.post("/api/account/logout")
    r = a.log_in("alice")
    session = a.jar[SESSION_COOKIE]
    pages = [r.text, a.get("/api/account/me").text, a.get("/api/players/alice").text,
             a.get("/api/account/games").text]
    created = a.post("/api/account/games", json={"variant": "chess", "opponent": "hotseat"})
    seat = created.json()["seat"]["token"]
    pages.append(c.get(f"/api/games/{created.json()['id']}").text)
    pages.append(c.get(f"/api/games/{created.json()['id']}/ratings").text)
    a.log_in("alice", "a wrong password here")
    logged = "\n".join(rec.getMessage() for rec in caplog.records)
    for secret in (PASSWORD, "a wrong password here", session, seat):
        assert secret not in logged
    for page in pages:
        assert PASSWORD not in page and session not in page and "$argon2" not in page
    assert seat not in pages[-1] and seat not in pages[-2]


# --------------------------------------------------------------------- authorisation
def test_seats_between_accounts(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    r = a.post("/api/account/games", json={"variant": "chess", "opponent": "friend"})
    assert r.status_code == 201
    game = r.json()
    # Bob holds no seat: no fresh token for him, and Alice's games are not his.
    assert b.post(f"/api/account/games/{game['id']}/seat").status_code == 403
    assert b.get("/api/account/games").json()["games"] == []
    assert [g["id"] for g in a.get("/api/account/games").json()["games"]] == [game["id"]]
    # A token that is not a seat's claims nothing; Alice's own token cannot move her seat
    # to Bob's account.
    r = b.post(f"/api/account/games/{game['id']}/claim", json={"token": "guess"})
    assert r.status_code == 403
    r = b.post(f"/api/account/games/{game['id']}/claim", json={"token": game["seat"]["token"]})
    assert r.status_code == 409
    # The invited seat is Bob's once he joins and claims it.
    invite = game["invite_url"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
    r = b.post(f"/api/account/games/{game['id']}/claim", json={"token": joined["seat"]["token"]})
    assert r.status_code == 200 and r.json()["colors"] == [joined["seat"]["color"]]
    assert b.get("/api/account/games").json()["games"][0]["opponent"] == "alice"


def test_game_follows_the_account_to_another_browser(c: TestClient) -> None:
    a = user(c, "alice")
    game = a.post("/api/account/games", json={"variant": "chess", "opponent": "hotseat"}).json()
    elsewhere = Browser(c)
    assert elsewhere.log_in("alice").status_code == 200
    r = elsewhere.post(f"/api/account/games/{game['id']}/seat")
    assert r.status_code == 200 and r.json()["seat"]["color"] == "both"
    fresh = r.json()["seat"]["token"]
    assert play(c, game, "e2e4", token=fresh)["moves"] == ["e2e4"]
    old = c.post(f"/api/games/{game['id']}/moves",
                 json={"move": "e7e5", "token": game["seat"]["token"]})
    assert old.status_code == 403  # the seat moved to the new browser


def test_claim_an_anonymous_game(c: TestClient) -> None:
    game = new_game(c, opponent="computer", level=1, color="white")
    a = user(c, "alice")
    r = a.post(f"/api/account/games/{game['id']}/claim", json={"token": game["seat"]["token"]})
    assert r.status_code == 200 and r.json()["colors"] == ["white"]
    listed = a.get("/api/account/games").json()["games"]
    assert [(g["id"], g["color"], g["rated"]) for g in listed] == [(game["id"], "white", False)]


def test_delete_account_keeps_games_anonymised(cdb: TestClient) -> None:
    c = cdb
    a, b = user(c, "alice"), user(c, "bob")
    game = rated_game(c, a, b)
    assert c.post(f"/api/games/{game['id']}/resign",
                  json={"token": game["white"]}).status_code == 200
    wait_rated(c, game["id"])
    seek = {"variant": "chess", "clock": {"minutes": 3, "increment": 0}}
    assert a.post("/api/lobby/seeks", json=seek).status_code == 201
    assert a.post("/api/lobby/challenges", json={**seek, "name": "bob"}).status_code == 201
    assert b.post("/api/lobby/challenges", json={**seek, "name": "alice"}).status_code == 201
    assert len(b.get("/api/lobby/seeks").json()["seeks"]) == 3
    assert a.post("/api/account/delete", json={"password": "wrong password"}).status_code == 403
    assert a.post("/api/account/delete", json={"password": PASSWORD}).status_code == 204
    assert Browser(c).log_in("alice").status_code == 401
    assert c.get("/api/players/alice").status_code == 404
    assert c.get(f"/api/games/{game['id']}").status_code == 200  # the game stays
    with db(c).connect() as conn:
        seats = conn.execute(select(SEATS.c.color, SEATS.c.user_id)
                             .where(SEATS.c.game_id == game["id"])).all()
        names = conn.execute(select(USERS.c.name)).scalars().all()
    assert names == ["bob"]
    assert b.get("/api/lobby/seeks").json()["seeks"] == []  # their seeks and challenges too
    held = dict(seats)
    assert held[game["alice_color"]] is None and held[game["bob_color"]] is not None
    changes = c.get(f"/api/games/{game['id']}/ratings").json()["changes"]
    assert sorted(str(ch["player"]) for ch in changes) == ["None", "bob"]
    assert b.get("/api/account/games").json()["games"][0]["opponent"] is None


# --------------------------------------------------------------------- rated games
def rated_game(c: TestClient, a: Browser, b: Browser, clock: tuple[float, float] = (3, 2),
               variant: str = "chess", setup: Any = "random") -> dict[str, Any]:
    """A rated friend game between ``a`` (White) and ``b``: both seats claimed."""
    r = a.post("/api/account/games", json={
        "variant": variant, "opponent": "friend", "color": "white", "rated": True,
        "setup": setup, "clock": {"minutes": clock[0], "increment": clock[1]}})
    assert r.status_code == 201, r.text
    game = r.json()
    invite = game["invite_url"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
    assert b.post(f"/api/account/games/{game['id']}/claim",
                  json={"token": joined["seat"]["token"]}).status_code == 200
    return {"id": game["id"], "white": game["seat"]["token"], "black": joined["seat"]["token"],
            "speed": game["speed"], "alice_color": "white", "bob_color": "black"}


def wait_rated(c: TestClient, game_id: str) -> list[dict[str, Any]]:
    for _ in range(200):
        changes: list[dict[str, Any]] = c.get(f"/api/games/{game_id}/ratings").json()["changes"]
        if changes:
            return changes
        time.sleep(0.02)
    raise AssertionError("the game was not rated")


def test_rated_game_changes_ratings_once(cdb: TestClient) -> None:
    c = cdb
    a, b = user(c, "alice"), user(c, "bob")
    game = rated_game(c, a, b)
    assert game["speed"] == "blitz"  # 3 + 2: 180 + 80 = 260 s
    # Fool's mate: Black wins.
    board = {"id": game["id"], "seat": {"token": game["white"]}}
    play(c, board, "f2f3")
    # During the game each seat's rating stands beside its name (issue 32).
    first = {"rating": 1500, "provisional": True}
    assert c.get(f"/api/games/{game['id']}/ratings").json()["ratings"] == {
        "white": first, "black": first}
    play(c, board, "e7e5", token=game["black"])
    play(c, board, "g2g4")
    state = play(c, board, "d8h4", token=game["black"])
    assert state["result"] == "0-1"
    changes = {ch["color"]: ch for ch in wait_rated(c, game["id"])}
    white, black = rate_game(Rating(), Rating(), "0-1")
    assert changes["white"]["player"] == "alice" and changes["black"]["player"] == "bob"
    assert (changes["white"]["before"], changes["white"]["after"]) == (1500, round(white.rating))
    assert (changes["black"]["before"], changes["black"]["after"]) == (1500, round(black.rating))
    assert changes["black"]["change"] > 0 > changes["white"]["change"]
    bob = c.get("/api/players/bob").json()["ratings"]
    assert bob == [{"variant": "chess", "speed": "blitz", "rating": round(black.rating),
                    "rd": round(black.rd), "games": 1, "provisional": True}]
    # Rating the game again (a second worker, a replay of the hook) changes nothing.
    accounts = c.app.state.players.accounts  # type: ignore[attr-defined]
    assert not accounts.rate_ended_game(game["id"], "chess", "0-1")
    assert c.get("/api/players/bob").json()["ratings"][0]["games"] == 1
    # A second game in another speed class has its own rating; the blitz one builds on.
    game2 = rated_game(c, a, b, clock=(10, 0))
    assert game2["speed"] == "rapid"
    assert c.get(f"/api/games/{game2['id']}/ratings").json()["ratings"] == {
        "white": {"rating": 1500, "provisional": True},
        "black": {"rating": 1500, "provisional": True}}
    game3 = rated_game(c, a, b)  # blitz: the ratings the first game left
    assert c.get(f"/api/games/{game3['id']}/ratings").json()["ratings"] == {
        "white": {"rating": round(white.rating), "provisional": True},
        "black": {"rating": round(black.rating), "provisional": True}}
    c.post(f"/api/games/{game2['id']}/resign", json={"token": game2["black"]})
    wait_rated(c, game2["id"])
    speeds = {r["speed"]: r for r in c.get("/api/players/alice").json()["ratings"]}
    assert set(speeds) == {"blitz", "rapid"}
    assert speeds["blitz"]["rating"] == round(white.rating)
    assert speeds["rapid"]["rating"] > 1500


def test_computer_and_hot_seat_games_are_never_rated(c: TestClient) -> None:
    a = user(c, "alice")
    clock = {"minutes": 3, "increment": 0}
    for opponent in ("computer", "hotseat"):
        r = a.post("/api/account/games", json={"variant": "chess", "opponent": opponent,
                                               "rated": True, "clock": clock})
        assert r.status_code == 422
    r = a.post("/api/account/games", json={"variant": "chess", "opponent": "friend",
                                           "rated": True})
    assert r.status_code == 422  # no clock, no speed class
    # A computer game held by the account and ended is not rated either.
    r = a.post("/api/account/games", json={"variant": "chess", "opponent": "computer",
                                           "level": 1, "color": "white", "clock": clock})
    game = r.json()
    assert c.post(f"/api/games/{game['id']}/resign",
                  json={"token": game["seat"]["token"]}).status_code == 200
    accounts = c.app.state.players.accounts  # type: ignore[attr-defined]
    assert not accounts.rate_ended_game(game["id"], "chess", "0-1")
    assert c.get(f"/api/games/{game['id']}/ratings").json() == \
        {"rated": False, "speed": "blitz", "fresh_setup": False, "changes": [],
         "players": {"white": "alice", "black": None},
         "ratings": {"white": None, "black": None}}  # no ratings by the names: casual
    assert a.get("/api/account/me").json()["ratings"] == []


def test_casual_game_between_accounts_is_not_rated(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    r = a.post("/api/account/games", json={"variant": "chess960", "opponent": "friend",
                                           "clock": {"minutes": 5, "increment": 0}})
    game = r.json()
    invite = game["invite_url"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
    b.post(f"/api/account/games/{game['id']}/claim", json={"token": joined["seat"]["token"]})
    c.post(f"/api/games/{game['id']}/resign", json={"token": joined["seat"]["token"]})
    time.sleep(0.2)
    assert c.get(f"/api/games/{game['id']}/ratings").json()["changes"] == []
    assert c.get("/api/players/bob").json()["ratings"] == []


def test_claiming_a_rated_game_after_its_end_is_refused(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    r = a.post("/api/account/games", json={
        "variant": "chess", "opponent": "friend", "color": "white", "rated": True,
        "clock": {"minutes": 3, "increment": 0}})
    game = r.json()
    invite = game["invite_url"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{game['id']}/join", json={"invite": invite}).json()
    c.post(f"/api/games/{game['id']}/resign", json={"token": game["seat"]["token"]})
    r = b.post(f"/api/account/games/{game['id']}/claim", json={"token": joined["seat"]["token"]})
    assert r.status_code == 409


# --------------------------------------------------------------------- history
def test_history_filters_against_independent_counts(cdb: TestClient) -> None:
    c = cdb
    a, b, d = user(c, "alice"), user(c, "bob"), user(c, "dora")
    played: list[dict[str, Any]] = []  # what the test itself knows of each game
    plan = [(b, "chess960", 518, (3, 0), "1-0"), (b, "chess960", 7, (10, 0), "0-1"),
            (d, "chess960", 518, (3, 0), "1/2-1/2"), (d, "chess", "random", (1, 0), "1-0"),
            (b, "mrc", 3, (3, 2), "0-1")]
    for opp, variant, setup, clock, result in plan:
        game = rated_game(c, a, opp, clock=clock, variant=variant, setup=setup)
        if result == "1-0":
            c.post(f"/api/games/{game['id']}/resign", json={"token": game["black"]})
        elif result == "0-1":
            c.post(f"/api/games/{game['id']}/resign", json={"token": game["white"]})
        else:
            c.post(f"/api/games/{game['id']}/draw-offer", json={"token": game["white"]})
            c.post(f"/api/games/{game['id']}/draw-accept", json={"token": game["black"]})
        assert c.get(f"/api/games/{game['id']}").json()["result"] == result
        played.append({"id": game["id"], "opponent": "bob" if opp is b else "dora",
                       "variant": variant, "number": setup if isinstance(setup, int) else None,
                       "speed": game["speed"], "result": result})

    def ids(**query: Any) -> set[str]:
        r = a.get("/api/account/games", params=query)
        assert r.status_code == 200, r.text
        return {g["id"] for g in r.json()["games"]}

    outcome = {"1-0": "win", "0-1": "loss", "1/2-1/2": "draw"}  # Alice is White throughout
    assert ids() == {g["id"] for g in played}
    for key, values in (("variant", {"chess960", "chess", "mrc"}),
                        ("speed", {"bullet", "blitz", "rapid"}),
                        ("opponent", {"bob", "dora"}), ("number", {518, 7, 3})):
        for value in values:
            assert ids(**{key: value}) == {g["id"] for g in played if g[key] == value}, key
    for result in ("win", "loss", "draw"):
        assert ids(result=result) == {g["id"] for g in played
                                      if outcome[g["result"]] == result}
    assert ids(variant="chess960", number=518, opponent="bob") == \
        {g["id"] for g in played if (g["variant"], g["number"], g["opponent"])
         == ("chess960", 518, "bob")}
    # Bob sees the same games from Black's side.
    r = b.get("/api/account/games", params={"result": "win"})
    assert {g["id"] for g in r.json()["games"]} == \
        {g["id"] for g in played if g["opponent"] == "bob" and g["result"] == "0-1"}


def test_your_turn_results_by_colour_and_rating_history(cdb: TestClient) -> None:
    c = cdb
    a, b = user(c, "alice"), user(c, "bob")
    g1 = rated_game(c, a, b)  # Alice White: her move
    g2 = rated_game(c, b, a)  # Bob White: not hers until he moves
    assert a.get("/api/account/turn").json()["games"] == [g1["id"]]
    assert b.get("/api/account/turn").json()["games"] == [g2["id"]]
    play(c, {"id": g2["id"], "seat": {"token": g2["white"]}}, "e2e4")
    assert set(a.get("/api/account/turn").json()["games"]) == {g1["id"], g2["id"]}
    assert b.get("/api/account/turn").json()["games"] == []
    c.post(f"/api/games/{g1['id']}/resign", json={"token": g1["black"]})  # Alice wins as White
    wait_rated(c, g1["id"])
    after_g1 = c.get("/api/players/alice").json()["ratings"][0]["rating"]
    c.post(f"/api/games/{g2['id']}/draw-offer", json={"token": g2["white"]})
    c.post(f"/api/games/{g2['id']}/draw-accept", json={"token": g2["black"]})  # drawn as Black
    wait_rated(c, g2["id"])
    assert a.get("/api/account/turn").json()["games"] == []  # ended games are in no list
    profile = c.get("/api/players/alice").json()
    assert profile["by_colour"] == {"white": {"wins": 1, "draws": 0, "losses": 0},
                                    "black": {"wins": 0, "draws": 1, "losses": 0}}
    history = profile["history"]
    assert [h["game"] for h in history] == [g1["id"], g2["id"]]  # in the order rated
    assert history[0]["rating"] == after_g1
    assert history[1]["rating"] == profile["ratings"][0]["rating"]


def test_account_games_share_the_creation_limit(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url, create_burst=2,
                                                    create_per_minute=0.01) as c:
        a = user(c, "alice")
        body = {"variant": "chess", "opponent": "hotseat"}
        assert a.post("/api/account/games", json=body).status_code == 201
        assert c.post("/api/games", json=body).status_code == 201
        assert a.post("/api/account/games", json=body).status_code == 429


def test_an_idle_ratings_deviation_grows_with_time_as_on_lichess(c: TestClient) -> None:
    """Issue 29 / docs/accounts.md: a rating idle for a year shows, and is rated with, the
    deviation lichess gives it (step 6 over 0.21436 rating periods a day, ratings.after_idle);
    it used to keep the RD of its last game for ever."""
    from sqlalchemy import text as sql

    from randomchess.accounts.ratings import after_idle, update

    a, b = user(c, "alice"), user(c, "bob")
    game = rated_game(c, a, b)
    c.post(f"/api/games/{game['id']}/resign", json={"token": game["black"]})
    wait_rated(c, game["id"])
    accounts = c.app.state.players.accounts  # type: ignore[attr-defined]
    with db(c).connect() as conn:
        uid = conn.execute(sql("SELECT id FROM users WHERE name = 'alice'")).scalar_one()
    fresh = accounts.rating_of(uid, "chess", "blitz")
    shown = c.get("/api/players/alice").json()["ratings"][0]
    assert shown["rd"] == round(fresh.rd)  # no time has passed
    year_ms = 365 * 86_400_000
    with db(c).begin() as conn:
        conn.execute(sql("UPDATE ratings SET updated_at = updated_at - :y"), {"y": year_ms})
    idle = after_idle(fresh, 365)
    assert idle.rd > fresh.rd + 1
    shown = c.get("/api/players/alice").json()["ratings"][0]
    assert shown["rd"] == round(idle.rd) and shown["rating"] == round(fresh.rating)
    with db(c).connect() as conn:
        bob_id = conn.execute(sql("SELECT id FROM users WHERE name = 'bob'")).scalar_one()
    bob = accounts.rating_of(bob_id, "chess", "blitz")
    # The next rated game starts from the grown deviation: a bigger swing than without it.
    game2 = rated_game(c, a, b)
    c.post(f"/api/games/{game2['id']}/resign", json={"token": game2["white"]})
    changes = {ch["color"]: ch for ch in wait_rated(c, game2["id"])}
    expected = update(idle, [(bob, 0.0)])
    assert changes["white"]["after"] == round(expected.rating)
    without = update(fresh, [(bob, 0.0)])
    assert abs(expected.rating - fresh.rating) > abs(without.rating - fresh.rating)
