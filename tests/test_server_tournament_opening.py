"""The server opens a hall round's online games by itself when the preparation window ends
(issue 30): asked for with the reveal, committed with it, armed again from the database when
a server starts (a restart during the countdown loses nothing), opened once even when two
server processes are armed for the round (the row's compare-and-set), and the players' links
kept for the event's staff.  A fast countdown: RANDOMCHESS_PREP_MINUTE_MS shortens the
window's minutes."""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from randomchess.db import make_engine, now_ms, schema
from randomchess.server.games.service import SeatHashes
from randomchess.tournament import openings
from server_support import client, database
from test_server_crash import Server

MINUTE_MS = 400  # a window of 5 "minutes" lasts 2 s


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("RANDOMCHESS_PREP_MINUTE_MS", str(MINUTE_MS))
    with database(request.param, tmp_path) as url:
        yield url


def _until(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        out = check()
        if out:
            return out
        assert time.monotonic() < deadline, "the condition never came true"
        time.sleep(0.05)


def _paired(c: TestClient, name: str) -> tuple[str, dict[str, str]]:
    r = c.post("/api/tournaments", json={"name": name, "rounds": 2, "setup_source": "hall",
                                         "prep_minutes": 5, "time_control": "300+2"})
    assert r.status_code == 201, r.text
    eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
    for i, player in enumerate(["Ann", "Bob", "Cid", "Dan"]):
        assert c.post(f"/api/tournaments/{eid}/players", json={"name": player,
                      "rating": 2000 - i}, headers=auth).status_code == 201
    assert c.post(f"/api/tournaments/{eid}/start", headers=auth).status_code == 200
    assert c.post(f"/api/tournaments/{eid}/pair", headers=auth).status_code == 200
    return eid, auth


def _reveal(c: TestClient, eid: str, auth: dict[str, str]) -> dict[str, Any]:
    r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal",
               json={"input": "352614", "online": True}, headers=auth)
    assert r.status_code == 200, r.text
    rnd: dict[str, Any] = r.json()["round_list"][0]
    links = r.json()["online"][0]["games"]  # the players' links, this once
    assert all(g["white"]["link"].startswith(f"/#/tournament/{eid}/seat/{g['game_id']}/")
               and g["black"]["link"].startswith(f"/#/tournament/{eid}/join/{g['game_id']}/")
               for g in links)
    assert len(links) == 2
    return rnd


def _games(c: TestClient, eid: str) -> list[str | None]:
    boards = c.get(f"/api/tournaments/{eid}").json()["round_list"][0]["boards"]
    return [b["game_id"] for b in boards]


def _opened(c: TestClient, eid: str) -> list[str] | None:
    ids = _games(c, eid)
    return [str(x) for x in ids] if all(ids) else None


def _games_in_db(url: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(schema.games)).scalar_one())
    finally:
        engine.dispose()


def test_the_games_open_when_the_countdown_ends(db_url: str) -> None:
    with client(db_url) as c:
        eid, auth = _paired(c, "Countdown Open")
        links = f"/api/tournaments/{eid}/rounds/1/online"
        rnd = _reveal(c, eid, auth)
        ends = rnd["reveal"]["window_ends"]
        assert ends == rnd["reveal"]["at"] + 5 * MINUTE_MS
        assert rnd["opens_at"] == ends
        assert all(b["game_id"] is None for b in rnd["boards"])  # clocks not yet: no games
        assert c.get(links, headers=auth).json()["games"] == []
        ids = _until(lambda: _opened(c, eid))
        assert now_ms() >= ends
        assert len(set(ids)) == 2
        event = c.get(f"/api/tournaments/{eid}").json()
        assert event["round_list"][0]["opens_at"] is None  # opened
        # The games to watch, for the staff only; no seat (shown once, at the reveal).
        assert c.get(links).status_code == 403
        out = c.get(links, headers=auth).json()
        assert out["state"] == "opened" and out["opens_at"] is None
        assert sorted(g["game_id"] for g in out["games"]) == sorted(ids)
        assert all(g["watch"] == f"/#/game/{g['game_id']}" for g in out["games"])
        game = c.get(f"/api/games/{ids[0]}").json()
        assert game["moves"] == [] and game["status"] != "ended"
        actions = [x.action for x in c.app.state.tournaments.load(eid).log]  # type: ignore[attr-defined]
        assert actions.count("online") == 2 and actions.count("online-due") == 1


def test_a_restart_during_the_countdown_still_opens_the_games(db_url: str) -> None:
    with client(db_url) as c:
        eid, auth = _paired(c, "Restart Open")
        ends = _reveal(c, eid, auth)["reveal"]["window_ends"]
    assert now_ms() < ends, "the first server outlived the countdown: no restart tested"
    assert _games_in_db(db_url) == 0
    with client(db_url) as c:  # armed again from the database at the start
        assert c.get(f"/api/tournaments/{eid}").json()["round_list"][0]["opens_at"] == ends
        ids = _until(lambda: _opened(c, eid))
        assert len(set(ids)) == 2
        assert sorted(g["game_id"] for g in c.get(f"/api/tournaments/{eid}/rounds/1/online",
                                                   headers=auth).json()["games"]) == sorted(ids)


def test_a_window_that_ended_while_the_server_was_down_opens_at_its_start(db_url: str) -> None:
    with client(db_url) as c:
        eid, auth = _paired(c, "Down Open")
        _reveal(c, eid, auth)
    engine = make_engine(db_url)  # the server stayed down past the window's end
    try:
        with engine.begin() as conn:
            conn.execute(schema.tournament_reveals.update().values(
                at=schema.tournament_reveals.c.at - 3_600_000))
            conn.execute(schema.tournament_openings.update().values(
                due_at=schema.tournament_openings.c.due_at - 3_600_000))
    finally:
        engine.dispose()
    with client(db_url) as c:
        assert len(set(_until(lambda: _opened(c, eid)))) == 2


def test_two_servers_armed_for_one_round_open_it_once(db_url: str) -> None:
    with client(db_url) as a:
        eid, auth = _paired(a, "Twice Open")
        ends = _reveal(a, eid, auth)["reveal"]["window_ends"]
        with client(db_url) as b:  # armed from the database; a by its own reveal
            assert now_ms() < ends
            _until(lambda: _opened(b, eid))
            _until(lambda: openings.of_event(
                b.app.state.tournaments.engine, eid)[1].state == "opened")  # type: ignore[attr-defined]
            assert _games_in_db(db_url) == 2  # one game a board: not two
            assert _opened(a, eid) == _opened(b, eid)


def test_the_claim_is_a_compare_and_set(db_url: str) -> None:
    with client(db_url) as c:
        eid, auth = _paired(c, "Claim Open")
        engine = c.app.state.tournaments.engine  # type: ignore[attr-defined]
        r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal", json={"input": "111222"},
                   headers=auth)
        assert r.status_code == 200 and r.json()["round_list"][0]["opens_at"] is None
        with engine.begin() as conn:
            conn.execute(schema.tournament_openings.insert().values(
                tournament_id=eid, round=1, state="waiting", due_at=now_ms() + 3_600_000,
                rated=False))
        now = now_ms()
        assert openings.claim(engine, eid, 1, now) is True
        assert openings.claim(engine, eid, 1, now) is False  # taken
        assert [o.round for o in openings.pending(engine, now)] == []
        later = now + openings.STALE_MS + 1  # its process died holding it: taken over once
        assert [o.round for o in openings.pending(engine, later)] == [1]
        assert openings.claim(engine, eid, 1, later) is True
        assert openings.claim(engine, eid, 1, later) is False
        openings.finish(engine, eid, 1, later)
        assert openings.claim(engine, eid, 1, later + 10 * openings.STALE_MS) is False


def test_online_rated_needs_a_clock_and_nothing_changes(db_url: str) -> None:
    with client(db_url) as c:
        r = c.post("/api/tournaments", json={"name": "No Clock", "rounds": 1,
                                             "setup_source": "hall", "prep_minutes": 5})
        eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
        for name in ("Ann", "Bob"):
            c.post(f"/api/tournaments/{eid}/players", json={"name": name}, headers=auth)
        c.post(f"/api/tournaments/{eid}/start", headers=auth)
        c.post(f"/api/tournaments/{eid}/pair", headers=auth)
        r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal",
                   json={"input": "123456", "online": True, "rated": True}, headers=auth)
        assert r.status_code == 422 and r.json()["code"] == "tournament.rated_needs_clock"
        assert c.get(f"/api/tournaments/{eid}").json()["round_list"][0]["awaits_reveal"]


def test_kill_9_during_the_countdown_loses_no_opening(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A real server process killed with SIGKILL during the countdown: the request to open
    the round, acknowledged with the reveal, survives, and the started-again server opens
    the games."""
    monkeypatch.setenv("RANDOMCHESS_PREP_MINUTE_MS", "3000")  # a window of 15 s
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path)
    try:
        server.start()
        http = httpx.Client(base_url=server.base, timeout=10)
        r = http.post("/api/tournaments", json={
            "name": "Kill Open", "rounds": 1, "setup_source": "hall", "prep_minutes": 5,
            "time_control": "300+2"})
        eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
        for name in ("Ann", "Bob"):
            http.post(f"/api/tournaments/{eid}/players", json={"name": name}, headers=auth)
        http.post(f"/api/tournaments/{eid}/start", headers=auth)
        http.post(f"/api/tournaments/{eid}/pair", headers=auth)
        r = http.post(f"/api/tournaments/{eid}/rounds/1/reveal",
                      json={"input": "352614", "online": True}, headers=auth)
        assert r.status_code == 200, r.text
        ends = r.json()["round_list"][0]["opens_at"]
        made = r.json()["online"][0]["games"][0]["game_id"]  # its link given to the players
        server.kill9()
        assert now_ms() < ends, "killed after the countdown: nothing tested"
        server.start()

        def opened() -> bool:
            board = http.get(f"/api/tournaments/{eid}").json()["round_list"][0]["boards"][0]
            return board["game_id"] is not None

        _until(opened, timeout=60)
        assert now_ms() >= ends
        links = http.get(f"/api/tournaments/{eid}/rounds/1/online", headers=auth).json()
        assert [g["game_id"] for g in links["games"]] == [made]
    finally:
        server.cleanup()


def _secrets(links: list[dict[str, Any]]) -> set[str]:
    """The seat secrets in players' links: White's token (…/seat/GAME/TOKEN) and Black's
    invitation (/invite/GAME/CODE)."""
    out = set()
    for g in links:
        for side in ("white", "black"):
            tail = g[side]["link"].rsplit("/", 2)
            if tail[-2] == g["game_id"]:
                out.add(tail[-1])
    return out


def _every_value(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [str(v) for table in schema.metadata.sorted_tables
                    for row in conn.execute(select(table)).all() for v in row
                    if v is not None]
    finally:
        engine.dispose()


def test_the_database_never_holds_a_seat_secret(db_url: str) -> None:
    """The players' links are made at the reveal and shown once, in its answer (the desk's
    organiser hands them out); the database keeps only their SHA-256 (docs/tournaments.md),
    and the games the server opens at the countdown's end are exactly those links' games."""
    with client(db_url) as c:
        eid, auth = _paired(c, "No Secret Kept")
        r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal",
                   json={"input": "352614", "online": True}, headers=auth)
        assert r.status_code == 200, r.text
        given = r.json().get("online") or []
        assert [o["round"] for o in given] == [1], "the reveal's answer has no links"
        links = given[0]["games"]
        assert len(links) == 2
        ids = _until(lambda: _opened(c, eid))
        assert sorted(ids) == sorted(g["game_id"] for g in links)
        # The staff's later view: the games to watch, no seat.
        later = c.get(f"/api/tournaments/{eid}/rounds/1/online", headers=auth).json()
        assert [g["watch"] for g in later["games"]] == [f"/#/game/{x}" for x in ids]
        secrets = _secrets(links)
        assert len(secrets) == 4
        found = [v for v in _every_value(db_url) if any(s in v for s in secrets)]
        assert found == [], f"seat secrets stored in clear: {found}"
        # The links the reveal gave are the games' seats.
        g = links[0]
        token = g["white"]["link"].rsplit("/", 1)[1]
        invite = g["black"]["link"].rsplit("/", 1)[1]
        joined = c.post(f"/api/games/{g['game_id']}/join", json={"invite": invite})
        assert joined.status_code == 200, joined.text
        moved = c.post(f"/api/games/{g['game_id']}/moves", json={"token": token,
                                                                  "move": "e2e4"})
        assert moved.status_code == 200, moved.text


def test_a_mini_match_opens_both_games_of_each_pairing(db_url: str) -> None:
    """A mini-match's second round replays the first's pairings, colours swapped, with its
    setups: the reveal of the first round makes both rounds' games (each player's two links
    shown at once); the first opens when the countdown ends, the second when it is paired."""
    with client(db_url) as c:
        r = c.post("/api/tournaments", json={
            "name": "Mini Open", "rounds": 2, "mini_match": True, "setup_source": "hall",
            "prep_minutes": 5, "time_control": "300+2"})
        assert r.status_code == 201, r.text
        eid, auth = r.json()["id"], {"X-Organiser-Secret": r.json()["organiser_secret"]}
        for name in ("Ann", "Bob", "Cid", "Dan"):
            c.post(f"/api/tournaments/{eid}/players", json={"name": name}, headers=auth)
        c.post(f"/api/tournaments/{eid}/start", headers=auth)
        c.post(f"/api/tournaments/{eid}/pair", headers=auth)
        r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal",
                   json={"input": "352614", "online": True}, headers=auth)
        assert r.status_code == 200, r.text
        first, second = r.json()["online"]
        assert (first["round"], second["round"]) == (1, 2)
        assert [(g["board"], g["white"]["number"], g["black"]["number"])
                for g in second["games"]] == [
            (g["board"], g["black"]["number"], g["white"]["number"]) for g in first["games"]]
        ids = _until(lambda: _opened(c, eid))
        assert ids == [g["game_id"] for g in first["games"]]
        for board in (1, 2):
            assert c.post(f"/api/tournaments/{eid}/results", json={
                "round": 1, "board": board, "result": "1/2"}, headers=auth).status_code == 200
        r = c.post(f"/api/tournaments/{eid}/pair", headers=auth)
        assert r.status_code == 200, r.text

        def second_opened() -> list[str] | None:
            boards = c.get(f"/api/tournaments/{eid}").json()["round_list"][1]["boards"]
            got = [b["game_id"] for b in boards]
            return [str(x) for x in got] if all(got) else None

        assert _until(second_opened) == [g["game_id"] for g in second["games"]]
        # The second game's seats are the links shown at the reveal: White is round 1's Black.
        g = second["games"][0]
        invite = g["black"]["link"].rsplit("/", 1)[1]
        token = g["white"]["link"].rsplit("/", 1)[1]
        assert c.post(f"/api/games/{g['game_id']}/join",
                      json={"invite": invite}).status_code == 200
        assert c.post(f"/api/games/{g['game_id']}/moves",
                      json={"token": token, "move": "e2e4"}).status_code == 200
        secrets = _secrets(first["games"] + second["games"])
        assert len(secrets) == 8
        assert not [v for v in _every_value(db_url) if any(s in v for s in secrets)]


def test_a_game_created_by_a_process_that_died_is_linked_not_made_twice(db_url: str) -> None:
    """A process that died between creating a board's game and linking it: the process that
    takes the round over links that game (the players' links lead to it) instead of failing
    on its id or making another."""
    with client(db_url) as c:
        eid, auth = _paired(c, "Half Open")
        r = c.post(f"/api/tournaments/{eid}/rounds/1/reveal",
                   json={"input": "352614", "online": True}, headers=auth)
        made = [g["game_id"] for g in r.json()["online"][0]["games"]]
        app: Any = c.app
        assert c.portal is not None
        c.portal.call(app.state.round_opener.stop)  # no timer of its own: the test drives it
        engine = app.state.tournaments.engine
        planned = openings.of_event(engine, eid)[1].games
        assert planned is not None and [g.game_id for g in planned] == made
        g = planned[0]
        c.portal.call(functools.partial(  # the dead process's half-done work
            app.state.service.create, "chess960", 518, "friend", None, "white", None,
            premade=SeatHashes(g.game_id, g.white_hash, g.invite_hash)))
        assert _games_in_db(db_url) == 1
        assert openings.claim(engine, eid, 1, now_ms())  # ... holding the claim
        assert not c.portal.call(app.state.round_opener.open, eid, 1)
        later = now_ms() + openings.STALE_MS + 1
        with engine.begin() as conn:  # its claim has gone stale, the window is over
            conn.execute(schema.tournament_openings.update().values(
                claimed_at=now_ms() - openings.STALE_MS - 1, due_at=now_ms() - 1))
            conn.execute(schema.tournament_reveals.update().values(
                at=schema.tournament_reveals.c.at - later))
        assert c.portal.call(app.state.round_opener.open, eid, 1)
        assert _opened(c, eid) == made
        assert _games_in_db(db_url) == 2


def test_the_command_line_reveal_opens_online_through_the_server(db_url: str) -> None:
    """``tournament reveal --online`` on the server's database: the links printed once (in
    the session's language), their hashes stored, and the server running on that database
    opens exactly those games when the window ends (it looks for such rounds every
    POLL_S)."""
    from click.testing import CliRunner

    from randomchess.cli import main

    def cli(*args: str, lang: str = "en") -> str:
        result = CliRunner().invoke(main, ["tournament", "--db", db_url, "--lang", lang, *args])
        assert result.exit_code == 0, (args, result.output, result.exception)
        return result.output

    cli("new", "Desk Open", "--rounds", "1", "--setups-from", "hall", "--prep", "5",
        "--time-control", "300+2")
    for name in ("Ann", "Bob", "Cid", "Dan"):
        cli("add-player", "Desk Open", name)
    cli("start", "Desk Open")
    cli("pair", "Desk Open")
    with client(db_url) as c:  # the server runs: told of nothing, it finds the round
        out = cli("reveal", "Desk Open", "1", "--input", "352614", "--online", "--site",
                  "https://chess.example/", lang="es")
        assert "El enlace personal de cada jugador, mostrado solo esta vez" in out
        links = re.findall(r"Ronda 1 tablero (\d), (Blancas|Negras) \w+: (\S+)", out)
        assert len(links) == 4
        secrets = {link.rsplit("/", 1)[1] for _, _, link in links}
        assert all(link.startswith("https://chess.example/#/tournament/")
                   for _, _, link in links)
        assert not [v for v in _every_value(db_url) if any(s in v for s in secrets)]
        made = sorted({link.rsplit("/", 2)[1] for _, _, link in links})
        eid = c.get("/api/tournaments").json()["running"][0]["id"]
        assert sorted(_until(lambda: _opened(c, eid))) == made
