"""A setup both players can verify beyond the lobby (issue 32, docs/shuffler.md §10): a
friend's game made from a link, a rematch on a new setup and a game against the computer.
The server commits before the other party's value exists; the joiner's (or the player's)
client value and the committed seed give the setup, recomputed here with hashlib and hmac;
the PGN carries the values; forged, late and replayed values are refused in English and
Spanish and change nothing."""

from __future__ import annotations

import hashlib
import io
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import select

from randomchess.cli import main
from randomchess.db import schema
from randomchess.startpos import setup_from_number
from server_support import client, database, play
from test_server_setup_commit import recompute

BLITZ = {"minutes": 3, "increment": 2}


@pytest.fixture(params=["sqlite", "postgresql"])
def c(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, client(url) as c:
        yield c


def friend_game(c: TestClient, variant: str = "chess960", **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"variant": variant, "opponent": "friend", "color": "white",
                                   "clock": BLITZ, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    out["invite"] = out["invite_url"].rsplit("/", 1)[1]
    return out


def join(c: TestClient, g: dict[str, Any], value: str | None, lang: str = "en") -> Any:
    body: dict[str, Any] = {"invite": g["invite"]}
    if value is not None:
        body["client_value"] = value
    return c.post(f"/api/games/{g['id']}/join", json=body, headers={"Accept-Language": lang})


def draw_of(c: TestClient, gid: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/setup-draw")
    assert r.status_code == 200
    out: dict[str, Any] = r.json()
    return out


def check_revealed(c: TestClient, gid: str, commitment: str, value: str | None,
                   variant: str = "chess960") -> dict[str, Any]:
    """The revealed draw matches the commitment, gives the game's setup, and the PGN
    carries it."""
    draw = draw_of(c, gid)
    assert draw["committed"] and draw["revealed"] and draw["commitment"] == commitment
    assert hashlib.sha256(bytes.fromhex(draw["server_seed"])).hexdigest() == commitment
    assert draw["client_value"] == value
    number = recompute(draw["server_seed"], value or "", variant)
    state = c.get(f"/api/games/{gid}").json()
    assert state["number"] == draw["number"] == number
    assert state["start_fen"] == setup_from_number(variant, number).fen
    text = c.get(f"/api/games/{gid}/pgn").text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert (game.headers["SetupCommit"], game.headers["SetupServerSeed"],
            game.headers["SetupClientValue"]) == (commitment, draw["server_seed"], value or "-")
    # `randomchess draw verify-game` recomputes it from the PGN's tags.
    r = CliRunner().invoke(main, [
        "draw", "verify-game", "--server-seed", game.headers["SetupServerSeed"],
        "--client-value", game.headers["SetupClientValue"], "--variant", variant,
        "--commitment", game.headers["SetupCommit"]])
    assert r.exit_code == 0, r.output
    assert re.search(rf"(^|\s){number} ", r.output) and "commitment matches" in r.output
    return draw


# ------------------------------------------------------------------ a friend's game by link
def test_a_friend_link_game_draws_its_setup_at_the_join(c: TestClient) -> None:
    g = friend_game(c)
    # Before the join: the commitment only, no setup number, nothing in the PGN.
    pending = draw_of(c, g["id"])
    assert pending["committed"] and not pending["revealed"]
    assert pending["server_seed"] is None and pending["number"] is None
    commitment = pending["commitment"]
    assert len(commitment) == 64
    assert c.get(f"/api/games/{g['id']}").json()["number"] is None
    assert "SetupCommit" not in c.get(f"/api/games/{g['id']}/pgn").text
    described = c.get(f"/invite/{g['id']}/{g['invite']}").json()
    assert described["setup_commit"] == commitment and described["number"] is None
    value = secrets.token_hex(16)
    r = join(c, g, value)
    assert r.status_code == 200, r.text
    check_revealed(c, g["id"], commitment, value)
    # The game is played on the drawn setup.
    play(c, g, next(iter(chess.Board(c.get(f"/api/games/{g['id']}").json()["fen"],
                                     chess960=True).legal_moves)).uci())
    assert c.get(f"/api/games/{g['id']}").json()["moves"]


def test_a_friend_link_game_without_a_client_value_and_in_mrc(c: TestClient) -> None:
    g = friend_game(c, "mrc")
    commitment = draw_of(c, g["id"])["commitment"]
    assert join(c, g, None).status_code == 200  # an old page: the server seed decides
    check_revealed(c, g["id"], commitment, None, "mrc")


def test_a_fixed_setup_or_an_unnumbered_variant_has_no_draw(c: TestClient) -> None:
    for g in (friend_game(c, setup=518), friend_game(c, "caparandom")):
        assert draw_of(c, g["id"])["committed"] is False
        assert join(c, g, secrets.token_hex(16)).status_code == 200  # ignored: no draw


@pytest.mark.parametrize("bad", ["0" * 31, "A" * 32, "g" * 32, "0" * 65])
def test_a_forged_value_at_the_join_is_refused_and_changes_nothing(c: TestClient,
                                                                   bad: str) -> None:
    g = friend_game(c)
    before = draw_of(c, g["id"])
    r = join(c, g, bad, "es")
    assert r.status_code == 422 and r.json()["code"] == "fairdraw.client_malformed"
    assert "hexadecimales" in r.json()["detail"]
    assert draw_of(c, g["id"]) == before
    assert c.get(f"/api/games/{g['id']}").json()["invite_open"]
    assert join(c, g, secrets.token_hex(16)).status_code == 200


def test_a_wrong_invite_claims_nothing_late_and_replayed_values_refused(c: TestClient) -> None:
    g = friend_game(c)
    commitment = draw_of(c, g["id"])["commitment"]
    value = secrets.token_hex(16)
    r = c.post(f"/api/games/{g['id']}/join", json={"invite": "x" * 22, "client_value": value})
    assert r.status_code == 403 and r.json()["code"] == "invite.wrong"
    assert not draw_of(c, g["id"])["revealed"]
    assert join(c, g, value).status_code == 200
    revealed = draw_of(c, g["id"])
    # Late (the setup is revealed): refused in both languages, nothing changes.
    for lang, words in (("en", "too late"), ("es", "demasiado tarde")):
        r = join(c, g, secrets.token_hex(16), lang)
        assert r.status_code == 409 and r.json()["code"] == "fairdraw.revealed"
        assert words in r.json()["detail"]
    assert join(c, g, None).json()["code"] == "invite.used"
    assert draw_of(c, g["id"]) == revealed
    # Replayed in another game: refused, and that game still waits for a value.
    other = friend_game(c)
    r = join(c, other, value)
    assert r.status_code == 409 and r.json()["code"] == "fairdraw.replayed"
    assert not draw_of(c, other["id"])["revealed"]
    assert c.get(f"/api/games/{other['id']}").json()["invite_open"]
    fresh = secrets.token_hex(16)
    assert join(c, other, fresh).status_code == 200
    check_revealed(c, other["id"], draw_of(c, other["id"])["commitment"], fresh)
    check_revealed(c, g["id"], commitment, value)


# ------------------------------------------------------------------ a rematch on a new setup
def _ended_friend_game(c: TestClient) -> tuple[dict[str, Any], str]:
    g = friend_game(c, setup=518)
    black = join(c, g, None).json()["seat"]["token"]
    r = c.post(f"/api/games/{g['id']}/resign", json={"token": black})
    assert r.status_code == 200, r.text
    return g, black


def test_a_rematch_on_a_new_setup_is_drawn_at_the_acceptance(c: TestClient) -> None:
    g, black = _ended_friend_game(c)
    r = c.post(f"/api/games/{g['id']}/rematch", json={"token": g["seat"]["token"],
                                                      "setup": "new"})
    assert r.status_code == 200, r.text
    new_id = r.json()["id"]
    pending = draw_of(c, new_id)
    assert pending["committed"] and not pending["revealed"]  # committed before the value
    value = secrets.token_hex(16)
    r = c.post(f"/api/games/{g['id']}/rematch-accept",
               json={"token": black, "client_value": value})
    assert r.status_code == 200 and r.json()["id"] == new_id, r.text
    check_revealed(c, new_id, pending["commitment"], value)
    # Late: the offer is gone and the draw revealed; nothing changes.
    r = c.post(f"/api/games/{g['id']}/rematch-accept",
               json={"token": black, "client_value": secrets.token_hex(16)})
    assert r.status_code == 409
    assert draw_of(c, new_id)["client_value"] == value


def test_a_rematch_acceptance_with_a_forged_or_replayed_value_changes_nothing(
        c: TestClient) -> None:
    used = secrets.token_hex(16)
    first = friend_game(c)
    assert join(c, first, used).status_code == 200
    g, black = _ended_friend_game(c)
    r = c.post(f"/api/games/{g['id']}/rematch", json={"token": g["seat"]["token"],
                                                      "setup": "new"})
    new_id = r.json()["id"]
    for bad, code in (("xyz", "fairdraw.client_malformed"), (used, "fairdraw.replayed")):
        r = c.post(f"/api/games/{g['id']}/rematch-accept",
                   json={"token": black, "client_value": bad})
        assert r.json()["code"] == code, r.text
        assert not draw_of(c, new_id)["revealed"]
    # The offer still stands: the other side's own Rematch accepts it, with its value.
    value = secrets.token_hex(16)
    r = c.post(f"/api/games/{g['id']}/rematch", json={"token": black, "client_value": value})
    assert r.status_code == 200 and r.json()["id"] == new_id, r.text
    check_revealed(c, new_id, draw_of(c, new_id)["commitment"], value)


def test_a_rematch_on_the_same_setup_has_no_draw(c: TestClient) -> None:
    g, _ = _ended_friend_game(c)
    r = c.post(f"/api/games/{g['id']}/rematch", json={"token": g["seat"]["token"],
                                                      "setup": "same"})
    assert draw_of(c, r.json()["id"])["committed"] is False


# ------------------------------------------------------------------ against the computer
def open_draw(c: TestClient, variant: str = "chess960") -> dict[str, Any]:
    r = c.post("/api/setup-draws", json={"variant": variant})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    assert len(out["commitment"]) == 64 and out["variant"] == variant
    return out


def computer_game(c: TestClient, draw: dict[str, Any] | None, value: str | None,
                  variant: str = "chess960", lang: str = "en", **body: Any) -> Any:
    json: dict[str, Any] = {"variant": variant, "opponent": "computer", "level": 1,
                            "color": "white", **body}
    if draw is not None:
        json["setup_draw"] = {"id": draw["id"], **({} if value is None else
                                                   {"client_value": value})}
    return c.post("/api/games", json=json, headers={"Accept-Language": lang})


def test_a_computer_game_takes_the_players_value(c: TestClient) -> None:
    for variant in ("chess960", "mrc"):
        d = open_draw(c, variant)
        value = secrets.token_hex(32)
        r = computer_game(c, d, value, variant)
        assert r.status_code == 201, r.text
        check_revealed(c, r.json()["id"], d["commitment"], value, variant)


def test_a_computer_game_refuses_forged_late_replayed_and_foreign_draws(c: TestClient) -> None:
    d = open_draw(c)
    value = secrets.token_hex(16)
    for lang, words in (("en", "hexadecimal"), ("es", "hexadecimales")):
        r = computer_game(c, d, "not hex", lang=lang)
        assert r.status_code == 422 and r.json()["code"] == "fairdraw.client_malformed"
        assert words in r.json()["detail"]
    r = computer_game(c, d, value, "mrc")
    assert r.status_code == 422 and r.json()["code"] == "fairdraw.other_variant"
    assert "mrc" in r.json()["detail"]
    r = computer_game(c, {"id": "~nosuchdraw"}, value, lang="es")
    assert r.status_code == 404 and r.json()["code"] == "fairdraw.unknown"
    assert "caducó" in r.json()["detail"]
    r = computer_game(c, d, value, setup=518)
    assert r.status_code == 422 and r.json()["code"] == "fairdraw.not_here"
    r = c.post("/api/games", json={"variant": "chess960", "opponent": "friend",
                                   "setup_draw": {"id": d["id"], "client_value": value}})
    assert r.status_code == 422 and r.json()["code"] == "fairdraw.not_here"
    # None of these used the draw: it is taken now, once.
    r = computer_game(c, d, value)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    check_revealed(c, gid, d["commitment"], value)
    r = computer_game(c, d, secrets.token_hex(16), lang="es")  # late: the draw is used
    assert r.status_code == 409 and r.json()["code"] == "fairdraw.revealed"
    assert "demasiado tarde" in r.json()["detail"]
    r = computer_game(c, open_draw(c), value)  # replayed in another draw
    assert r.status_code == 409 and r.json()["code"] == "fairdraw.replayed"
    # A friend's pending draw cannot be taken as one's own.
    g = friend_game(c)
    # The draw's id is never shown: read it from the database.
    with c.app.state.lobby.accounts.engine.connect() as conn:  # type: ignore[attr-defined]
        draw_id = conn.execute(select(schema.setup_commitments.c.seek_id).where(
            schema.setup_commitments.c.game_id == g["id"])).scalar_one()
    r = computer_game(c, {"id": draw_id}, secrets.token_hex(16))
    assert r.status_code == 404 and r.json()["code"] == "fairdraw.unknown"
    assert not draw_of(c, g["id"])["revealed"]


def test_opening_a_draw_needs_a_numbered_variant(c: TestClient) -> None:
    r = c.post("/api/setup-draws", json={"variant": "caparandom"},
               headers={"Accept-Language": "es"})
    assert r.status_code == 422 and r.json()["code"] == "fairdraw.not_numbered"
    assert "numeradas" in r.json()["detail"]
    assert c.post("/api/setup-draws", json={"variant": "nonsense"}).status_code == 422


def test_a_computer_rematch_on_a_new_setup_takes_the_players_draw(c: TestClient) -> None:
    r = computer_game(c, None, None, setup=518)
    g = r.json()
    assert c.post(f"/api/games/{g['id']}/resign",
                  json={"token": g["seat"]["token"]}).status_code == 200
    d, value = open_draw(c), secrets.token_hex(16)
    r = c.post(f"/api/games/{g['id']}/rematch", json={
        "token": g["seat"]["token"], "setup": "new",
        "setup_draw": {"id": d["id"], "client_value": value}})
    assert r.status_code == 200, r.text
    check_revealed(c, r.json()["id"], d["commitment"], value)


def test_a_pending_setup_survives_a_restart(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url:
        with client(url) as c1:
            g = friend_game(c1)
            commitment = draw_of(c1, g["id"])["commitment"]
        with client(url) as c2:
            value = secrets.token_hex(16)
            assert join(c2, g, value).status_code == 200
            check_revealed(c2, g["id"], commitment, value)
