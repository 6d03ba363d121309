"""A setup both players can verify, on the server (issue 32, docs/shuffler.md §10): the seek
shows the commitment, the joiner's client value and the committed seed give the game's setup
(recomputed here with hashlib and hmac), the PGN carries the values and python-chess reads
it; forged, late and replayed values are refused and change nothing; the commitment is in the
database and survives a restart."""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from fastapi.testclient import TestClient

from server_support import client, database, play
from test_accounts import Browser, user
from test_lobby import BLITZ, listed, seek

COUNT = {"chess960": 960, "mrc": 15120}


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, client(url) as c:
        yield c


def recompute(server_seed: str, client_value: str, variant: str) -> int:
    """docs/shuffler.md §10 from the text alone: pool = every number, tag <variant>:any:-."""
    message = b"randomchess-game-v1\0" + f"{variant}:any:-".encode() + b"\0" + \
        client_value.encode()
    n = COUNT[variant]
    counter = 0
    while True:
        block = hmac.new(bytes.fromhex(server_seed), message + b"\0" + str(counter).encode(),
                         hashlib.sha256).digest()
        x = int.from_bytes(block, "big")
        if x < 2**256 - 2**256 % n:
            return x % n
        counter += 1


def shown(b: Browser, sid: str) -> dict[str, Any]:
    [s] = [s for s in b.get("/api/lobby/seeks").json()["seeks"] if s["id"] == sid]
    return s


def accept(b: Browser, sid: str, value: str | None = None, **kw: Any) -> Any:
    body = None if value is None else {"client_value": value}
    return b.post(f"/api/lobby/seeks/{sid}/accept", json=body, **kw)


def test_seek_commits_and_the_game_recomputes(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    sid = seek(a, rated=True)
    commit = shown(b, sid)["setup_commit"]
    assert len(commit) == 64 and int(commit, 16) >= 0
    assert shown(a, sid)["setup_commit"] == commit and shown(Browser(c), sid)["setup_commit"]
    assert shown(a, seek(a, setup=518))["setup_commit"] is None  # a fixed setup: no draw
    assert shown(a, seek(a, variant="caparandom"))["setup_commit"] is None  # not numbered
    value = secrets.token_hex(16)
    r = accept(b, sid, value)
    assert r.status_code == 200, r.text
    gid = r.json()["id"]
    draw = c.get(f"/api/games/{gid}/setup-draw").json()
    assert draw["commitment"] == commit and draw["client_value"] == value
    assert hashlib.sha256(bytes.fromhex(draw["server_seed"])).hexdigest() == commit
    assert draw["recipe"] == "randomchess-game-v1" and draw["pool"] == "chess960:any:-"
    state = c.get(f"/api/games/{gid}").json()
    assert state["number"] == draw["number"] == recompute(draw["server_seed"], value, "chess960")
    # The PGN carries the three values, and python-chess reads it and its setup.
    token = r.json()["seat"]["token"]
    mine = r.json()["seat"]["color"]
    other = a.post(f"/api/account/games/{gid}/seat").json()["seat"]["token"]
    white = token if mine == "white" else other
    play(c, {"id": gid, "seat": {"token": white}}, "a2a3")
    text = c.get(f"/api/games/{gid}/pgn").text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    h = game.headers
    assert (h["SetupCommit"], h["SetupServerSeed"], h["SetupClientValue"]) == \
        (commit, draw["server_seed"], value)
    assert int(h["SetupNumber"]) == draw["number"]
    board = game.board()
    assert board.chess960 and board.board_fen() == state["start_fen"].split()[0]
    assert [m.uci() for m in game.mainline_moves()] == ["a2a3"]


def test_a_challenge_in_mrc_and_no_client_value(c: TestClient) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    r = a.post("/api/lobby/challenges", json={"name": "bob", "variant": "mrc", "clock": BLITZ,
                                               "setup": "new-per-game"})
    cid = r.json()["id"]
    commit = shown(b, cid)["setup_commit"]
    r = accept(b, cid)  # an old page, or an API user: no client value
    assert r.status_code == 200, r.text
    draw = c.get(f"/api/games/{r.json()['id']}/setup-draw").json()
    assert draw["client_value"] is None and draw["commitment"] == commit
    assert draw["number"] == recompute(draw["server_seed"], "", "mrc")
    assert c.get(f"/api/games/{r.json()['id']}").json()["number"] == draw["number"]
    assert "[SetupClientValue \"-\"]" in c.get(f"/api/games/{r.json()['id']}/pgn").text


@pytest.mark.parametrize("bad", ["0" * 31, "0" * 65, "A" * 32, "g" * 32, "é" * 32,
                                 "00112233445566778899aabbccddeef "])
def test_malformed_client_value_refused_and_nothing_changes(c: TestClient, bad: str) -> None:
    a, b = user(c, "alice"), user(c, "bob")
    sid = seek(a)
    r = accept(b, sid, bad, headers={"Accept-Language": "es"})
    assert r.status_code == 422 and r.json()["code"] == "fairdraw.client_malformed"
    assert "hexadecimales" in r.json()["detail"] and "hexadecimal" in r.json()["detail_en"]
    assert sid in listed(b)
    assert accept(b, sid, "0" * 32).status_code == 200  # the seek was left as it was


def test_late_twice_and_replayed_values_refused(c: TestClient) -> None:
    a, b, d = user(c, "alice"), user(c, "bob"), user(c, "dora")
    sid = seek(a)
    value = secrets.token_hex(16)
    r = accept(b, sid, value)
    assert r.status_code == 200
    gid = r.json()["id"]
    before = c.get(f"/api/games/{gid}/setup-draw").json()
    # Twice, or late: the setup has been revealed; another player's value changes nothing.
    for who, v in ((b, value), (d, secrets.token_hex(16))):
        r = accept(who, sid, v)
        assert r.status_code == 409 and r.json()["code"] == "fairdraw.revealed", r.text
        assert r.json()["detail_es"].startswith("esta posición inicial ya se sorteó")
    assert accept(d, sid).status_code == 404  # no value: the seek is simply gone
    assert c.get(f"/api/games/{gid}/setup-draw").json() == before
    # A replay of that value for another seek's commitment is refused; the seek stays open.
    other = seek(a)
    r = accept(d, other, value)
    assert r.status_code == 409 and r.json()["code"] == "fairdraw.replayed"
    assert other in listed(d)
    r = d.post("/api/lobby/quick", json={"variant": "chess960", "clock": BLITZ,
                                          "rated": False, "client_value": value})
    assert r.status_code == 409 and r.json()["code"] == "fairdraw.replayed"
    assert other in listed(d)
    fresh = secrets.token_hex(32)  # 64 digits is the longest value
    r = d.post("/api/lobby/quick", json={"variant": "chess960", "clock": BLITZ,
                                          "rated": False, "client_value": fresh})
    assert r.status_code == 200 and r.json()["paired"], r.text
    draw = c.get(f"/api/games/{r.json()['id']}/setup-draw").json()
    assert draw["client_value"] == fresh
    assert draw["number"] == recompute(draw["server_seed"], fresh, "chess960")
    assert c.get("/api/games/" + r.json()["id"] + "/setup-draw").status_code == 200


def test_games_without_a_committed_draw(c: TestClient) -> None:
    r = c.post("/api/games", json={"variant": "chess960", "opponent": "friend", "setup": 518})
    gid = r.json()["id"]
    r = c.get(f"/api/games/{gid}/setup-draw")
    assert r.status_code == 200 and r.json()["committed"] is False
    assert r.json()["server_seed"] is None
    assert "SetupCommit" not in c.get(f"/api/games/{gid}/pgn").text
    assert c.get("/api/games/AAAAAAAAAAAA/setup-draw").status_code == 404
    assert c.get("/api/games/no such game/setup-draw").status_code == 404


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_commitment_survives_a_restart(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        with client(url) as c1:
            a = user(c1, "alice")
            user(c1, "bob")
            sid = seek(a)
            commit = shown(a, sid)["setup_commit"]
        with client(url) as c2:
            b = Browser(c2)
            assert b.log_in("bob").status_code == 200
            assert shown(b, sid)["setup_commit"] == commit
            value = secrets.token_hex(16)
            r = accept(b, sid, value)
            assert r.status_code == 200, r.text
            draw = c2.get(f"/api/games/{r.json()['id']}/setup-draw").json()
            assert draw["commitment"] == commit
            assert hashlib.sha256(bytes.fromhex(draw["server_seed"])).hexdigest() == commit
            assert draw["number"] == recompute(draw["server_seed"], value, "chess960")
            # The recorded values themselves (the database's row) give the game's setup.
            from sqlalchemy import select

            from randomchess.db import schema
            engine = c2.app.state.lobby.accounts.engine  # type: ignore[attr-defined]
            with engine.connect() as conn:
                row = conn.execute(select(schema.setup_commitments).where(
                    schema.setup_commitments.c.game_id == r.json()["id"])).one()
            assert (row.seek_id, row.commitment, row.client_value) == (sid, commit, value)
            state = c2.get(f"/api/games/{r.json()['id']}").json()
            assert state["number"] == recompute(row.server_seed, row.client_value, "chess960")


def test_the_lobby_socket_shows_the_commitment(c: TestClient) -> None:
    import httpx

    a, b = user(c, "alice"), user(c, "bob")
    c.cookies = httpx.Cookies(b.cookies)
    with c.websocket_connect("/ws/lobby") as ws:
        c.cookies = httpx.Cookies()
        assert ws.receive_json()["seeks"] == []
        sid = seek(a, variant="mrc")
        [added] = ws.receive_json()["added"]
        assert added["id"] == sid and added["setup_commit"] == shown(b, sid)["setup_commit"]
        before = json.dumps(added) + json.dumps(b.get("/api/lobby/seeks").json())
        r = accept(b, sid, secrets.token_hex(16))
        assert ws.receive_json()["started"] == {"seek": sid, "game": r.json()["id"]}
    seed = c.get(f"/api/games/{r.json()['id']}/setup-draw").json()["server_seed"]
    assert seed not in before  # the seed stayed secret until the game had started
