"""HTTP API of the game server: every route, every refusal, on the embedded SQLite store."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from randomchess.server.games.live import hash_secret
from server_support import client, new_game, play

STATE_FIELDS = {"id", "variant", "number", "start_fen", "fen", "moves", "san", "status",
                "result", "termination", "clocks", "to_move", "legal_moves"}


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(f"sqlite:///{tmp_path_factory.mktemp('api') / 'g.sqlite3'}") as c:
        yield c


def state(c: TestClient, gid: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}")
    assert r.status_code == 200
    out: dict[str, Any] = r.json()
    return out


# ------------------------------------------------------------------------------ creating
def test_create_hotseat_and_state_fields(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=518)
    assert set(g) == {"id", "seat"}
    assert g["seat"]["color"] == "both"
    assert len(g["seat"]["token"]) >= 43  # 32 random bytes, >= 128 bits required
    s = state(c, g["id"])
    assert set(s) >= STATE_FIELDS
    assert s["number"] == 518 and s["variant"] == "chess960"
    assert s["start_fen"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    assert s["fen"] == s["start_fen"] and s["moves"] == [] and s["san"] == []
    assert s["status"] == "playing" and s["result"] is None and s["to_move"] == "white"
    assert len(s["legal_moves"]) == 20 and "g1f3" in s["legal_moves"]
    assert s["clocks"] is None


@pytest.mark.parametrize(("variant", "setup", "number"), [
    ("chess960", "random", None), ("mrc", "random", None), ("mrc", 8226, 8226),
    ("Modern Random Chess", "17", 17), ("chess", "random", None), ("modern", "random", None),
])
def test_setups(c: TestClient, variant: str, setup: Any, number: int | None) -> None:
    s = state(c, new_game(c, variant=variant, setup=setup)["id"])
    if number is not None:
        assert s["number"] == number
    if s["variant"] in ("chess960", "mrc"):
        assert isinstance(s["number"], int)
    assert s["legal_moves"]


def test_setup_from_fen_finds_the_number(c: TestClient) -> None:
    fen = "bnqrknrb/pppppppp/8/8/8/8/PPPPPPPP/BNQRKNRB w KQkq - 0 1"
    s = state(c, new_game(c, variant="chess960", setup=fen)["id"])
    assert s["number"] is not None and s["start_fen"].split()[0] == fen.split()[0]
    mid = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    s = state(c, new_game(c, variant="chess", setup=mid)["id"])
    assert s["number"] is None and s["fen"].split()[0] == mid.split()[0]


@pytest.mark.parametrize("body", [
    {"variant": "shogi"},
    {"variant": "chess960", "setup": 960},
    {"variant": "chess960", "setup": -1},
    {"variant": "chess", "setup": 5},
    {"variant": "chess", "setup": "not a fen"},
    {"variant": "chess", "setup": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},  # stalemate: no move
    {"variant": "chess", "opponent": "robot"},
    {"variant": "chess", "opponent": "computer", "level": 12},
    {"variant": "chess", "opponent": "computer", "level": 0},
    {"variant": "chess", "color": "green"},
    {"variant": "chess", "clock": {"minutes": 0, "increment": 0}},
    {"variant": "chess", "clock": {"minutes": 5}},
    {"variant": "chess", "colour": "white"},
    {},
])
def test_create_refuses_bad_requests(c: TestClient, body: dict[str, Any]) -> None:
    r = c.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]


def test_malformed_json_oversized_and_wrong_types(c: TestClient) -> None:
    r = c.post("/api/games", content=b'{"variant": ', headers={"content-type": "application/json"})
    assert r.status_code == 422 and "JSON" in r.json()["detail"]
    r = c.post("/api/games", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 422
    big = b'{"variant": "' + b"x" * 20_000 + b'"}'
    r = c.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["detail"] == "request body too large"

    def chunks() -> Iterator[bytes]:  # streamed, no Content-Length
        yield b'{"variant": "'
        for _ in range(40):
            yield b"x" * 1000
        yield b'"}'

    r = c.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_rate_limit_on_creation(tmp_path: Path) -> None:
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}", create_burst=3,
                create_per_minute=1) as rc:
        codes = [rc.post("/api/games", json={"variant": "chess"}).status_code
                 for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        r = rc.post("/api/games", json={"variant": "chess"})
        assert "too many" in r.json()["detail"]
        # Other routes are not limited.
        assert rc.get("/api/health").status_code == 200


def test_unknown_game(c: TestClient) -> None:
    assert c.get("/api/games/nope").status_code == 404
    assert c.get("/api/games/" + "x" * 100).status_code == 404
    r = c.post("/api/games/nope/moves", json={"move": "e2e4", "token": "t"})
    assert r.status_code == 404
    assert c.get("/api/games/nope/pgn").status_code == 404


# ------------------------------------------------------------------------------ moves
def test_moves_in_uci_and_san_both_languages(c: TestClient) -> None:
    g = new_game(c, variant="chess")
    s = play(c, g, "e2e4", "e5", "Cf3", "Nc6", "Ab5")
    assert s["moves"] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    assert s["san"] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert s["to_move"] == "black" and s["status"] == "playing"
    assert s["fen"].startswith("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2")


def test_illegal_wrong_turn_wrong_token_change_nothing(c: TestClient) -> None:
    g = new_game(c, variant="chess", opponent="friend", color="white")
    gid, tok = g["id"], g["seat"]["token"]
    before = state(c, gid)
    for body, code, words in [
        ({"move": "e2e5", "token": tok}, 409, "illegal"),
        ({"move": "Qh5", "token": tok}, 409, "illegal"),
        ({"move": "xyz", "token": tok}, 409, "illegal"),
        ({"move": "e2e4", "token": tok + "x"}, 403, "wrong token"),
        ({"move": "e2e4", "token": hash_secret(tok)}, 403, "wrong token"),
        ({"move": "e2e4"}, 422, "token"),
        ({"move": "", "token": tok}, 422, "move"),
        ({"move": "e2e4", "token": tok, "promote": "q"}, 422, "promote"),
    ]:
        r = c.post(f"/api/games/{gid}/moves", json=body)
        assert r.status_code == code, (body, r.text)
        assert words in r.json()["detail"]
    assert state(c, gid) == before
    play(c, g, "e2e4")
    r = c.post(f"/api/games/{gid}/moves", json={"move": "e7e5", "token": tok})
    assert r.status_code == 409 and "not your turn" in r.json()["detail"]


def test_friend_invite_spectators_cannot_move(c: TestClient) -> None:
    g = new_game(c, variant="mrc", opponent="friend", color="black")
    assert g["seat"]["color"] == "black" and g["invite_url"].startswith("http://testserver/")
    gid = g["id"]
    assert state(c, gid)["status"] == "waiting"
    path = g["invite_url"].removeprefix("http://testserver")
    # Nobody holds White's seat yet: no token moves it.
    r = c.post(f"/api/games/{gid}/moves", json={"move": "e2e3", "token": "spectator"})
    assert r.status_code == 403
    assert c.get(path[:-2] + "zz").status_code == 403  # wrong invitation
    # A GET only describes the game (issue 11: link previews must not take the seat).
    r = c.get(path, headers={"accept": "application/json"})
    assert r.status_code == 200 and "seat" not in r.json()
    r = c.post(f"/api/games/{gid}/join", json={"invite": path.rsplit("/", 1)[1]})
    assert r.status_code == 200
    seat = r.json()["seat"]
    assert seat["color"] == "white" and len(seat["token"]) >= 43
    assert c.get(path).status_code == 409  # used once
    assert c.post(f"/api/games/{gid}/join",
                  json={"invite": path.rsplit("/", 1)[1]}).status_code == 409
    s = state(c, gid)
    assert s["status"] == "playing" and s["invite_open"] is False
    play(c, g, "e2e3", token=seat["token"])
    r = c.post(f"/api/games/{gid}/moves", json={"move": "e8e7", "token": seat["token"]})
    assert r.status_code == 409  # White's token cannot move Black
    r = c.post(f"/api/games/{gid}/resign", json={"token": "spectator"})
    assert r.status_code == 403


def test_join_route(c: TestClient) -> None:
    g = new_game(c, variant="chess", opponent="friend", color="white")
    invite = g["invite_url"].rsplit("/", 1)[1]
    r = c.post(f"/api/games/{g['id']}/join", json={"invite": "bad"})
    assert r.status_code == 403
    r = c.post(f"/api/games/{g['id']}/join", json={"invite": invite})
    assert r.status_code == 200 and r.json()["seat"]["color"] == "black"
    assert r.json()["id"] == g["id"]


def test_checkmate_ends_the_game(c: TestClient) -> None:
    g = new_game(c, variant="chess")
    s = play(c, g, "f3", "e5", "g4", "Qh4#")
    assert s["status"] == "ended" and s["result"] == "0-1"
    assert s["termination"] == "checkmate" and s["winner"] == "black"
    assert s["legal_moves"] == [] and s["san"][-1] == "Qh4#"
    r = c.post(f"/api/games/{g['id']}/moves", json={"move": "a3", "token": g["seat"]["token"]})
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_promotion_to_minister_and_adjustment_in_mrc(c: TestClient) -> None:
    fen = "4k4/M8/9/9/9/9/9/1p7/4K4 b - - 0 1"
    g = new_game(c, variant="mrc", setup=fen)
    s = play(c, g, "b2b1m")
    assert s["san"] == ["b1=M+"] or s["san"][0].startswith("b1=M")
    assert s["moves"] == ["b2b1m"]


# ------------------------------------------------------------------------------ actions
def test_resign(c: TestClient) -> None:
    g = new_game(c, variant="chess", opponent="friend", color="black")
    r = c.post(f"/api/games/{g['id']}/resign", json={"token": g["seat"]["token"]})
    assert r.status_code == 200
    s = r.json()
    assert (s["status"], s["result"], s["termination"]) == ("ended", "1-0", "resignation")
    r = c.post(f"/api/games/{g['id']}/resign", json={"token": g["seat"]["token"]})
    assert r.status_code == 409


def _friend_pair(c: TestClient) -> tuple[dict[str, Any], str, str]:
    g = new_game(c, variant="chess", opponent="friend", color="white")
    r = c.post(f"/api/games/{g['id']}/join",
               json={"invite": g["invite_url"].rsplit("/", 1)[1]})
    return g, g["seat"]["token"], r.json()["seat"]["token"]


def test_draw_offer_accept_decline(c: TestClient) -> None:
    g, white, black = _friend_pair(c)
    gid = g["id"]
    assert c.post(f"/api/games/{gid}/draw-accept", json={"token": black}).status_code == 409
    s = c.post(f"/api/games/{gid}/draw-offer", json={"token": white}).json()
    assert s["draw_offer"] == "white"
    assert c.post(f"/api/games/{gid}/draw-offer", json={"token": white}).status_code == 409
    assert c.post(f"/api/games/{gid}/draw-accept", json={"token": white}).status_code == 409
    s = c.post(f"/api/games/{gid}/draw-decline", json={"token": black}).json()
    assert s["draw_offer"] is None and s["status"] == "playing"
    c.post(f"/api/games/{gid}/draw-offer", json={"token": white})
    play(c, g, "e4", token=white)  # the offerer's own move keeps the offer
    assert state(c, gid)["draw_offer"] == "white"
    play(c, g, "e5", token=black)  # the opponent's move declines it
    assert state(c, gid)["draw_offer"] is None
    c.post(f"/api/games/{gid}/draw-offer", json={"token": black})
    s = c.post(f"/api/games/{gid}/draw-accept", json={"token": white}).json()
    assert (s["status"], s["result"], s["termination"]) == ("ended", "1/2-1/2", "agreement")


def test_draw_claims_threefold_now_and_with_a_move(c: TestClient) -> None:
    g = new_game(c, variant="chess")
    tok = g["seat"]["token"]
    gid = g["id"]
    r = c.post(f"/api/games/{gid}/draw-claim", json={"token": tok})
    assert r.status_code == 409 and "no draw to claim" in r.json()["detail"]
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    s = play(c, g, *shuffle, *shuffle[:3])
    assert s["claimable"] == []
    # Ng8 would repeat the start position a third time: claim with the move (FIDE 9.2.1).
    r = c.post(f"/api/games/{gid}/draw-claim", json={"token": tok, "move": "b8c6"})
    assert r.status_code == 409  # that move repeats nothing; nothing changed
    assert len(state(c, gid)["moves"]) == 7
    r = c.post(f"/api/games/{gid}/draw-claim", json={"token": tok, "move": "Ng8"})
    s = r.json()
    assert r.status_code == 200, s
    assert (s["result"], s["termination"]) == ("1/2-1/2", "threefold repetition")
    assert len(s["moves"]) == 8

    g = new_game(c, variant="chess")
    s = play(c, g, *shuffle, *shuffle)
    assert s["claimable"] == ["threefold repetition"] and s["status"] == "playing"
    s = c.post(f"/api/games/{g['id']}/draw-claim", json={"token": g["seat"]["token"]}).json()
    assert s["termination"] == "threefold repetition"


def test_fifty_move_claim(c: TestClient) -> None:
    g = new_game(c, variant="chess", setup="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    tok = g["seat"]["token"]
    r = c.post(f"/api/games/{g['id']}/draw-claim", json={"token": tok})
    assert r.status_code == 409
    s = c.post(f"/api/games/{g['id']}/draw-claim", json={"token": tok, "move": "Ra2"}).json()
    assert s["termination"] == "fifty-move rule"


def test_takebacks(c: TestClient) -> None:
    g = new_game(c, variant="chess")  # hot seat: immediate
    tok = g["seat"]["token"]
    assert c.post(f"/api/games/{g['id']}/takeback-offer",
                  json={"token": tok}).status_code == 409
    play(c, g, "e4", "e5")
    s = c.post(f"/api/games/{g['id']}/takeback-offer", json={"token": tok}).json()
    assert s["moves"] == ["e2e4"] and s["to_move"] == "black"

    g, white, black = _friend_pair(c)
    gid = g["id"]
    play(c, g, "d4", token=white)
    play(c, g, "d5", token=black)
    s = c.post(f"/api/games/{gid}/takeback-offer", json={"token": white}).json()
    assert s["takeback_offer"] == "white" and len(s["moves"]) == 2
    s = c.post(f"/api/games/{gid}/takeback-decline", json={"token": black}).json()
    assert s["takeback_offer"] is None and len(s["moves"]) == 2
    c.post(f"/api/games/{gid}/takeback-offer", json={"token": black})
    assert c.post(f"/api/games/{gid}/takeback-accept",
                  json={"token": black}).status_code == 409
    s = c.post(f"/api/games/{gid}/takeback-accept", json={"token": white}).json()
    assert s["moves"] == ["d2d4"] and s["san"] == ["d4"] and s["to_move"] == "black"


def test_computer_replies_and_takeback(c: TestClient) -> None:
    g = new_game(c, variant="mrc", opponent="computer", color="white", level=1)
    assert g["seat"]["color"] == "white"
    s = state(c, g["id"])
    assert s["players"] == {"white": "human", "black": "computer"}
    play(c, g, s["legal_moves"][0])
    s = _wait(c, g["id"], lambda s: len(s["moves"]) == 2)
    assert s["to_move"] == "white"
    # Playing for the computer is refused.
    r = c.post(f"/api/games/{g['id']}/moves",
               json={"move": s["legal_moves"][0], "token": "x"})
    assert r.status_code == 403
    # Issue 28: the first two plies cannot be taken back once both sides have moved (a
    # lost game could be taken back to ply 0 and aborted).
    r = c.post(f"/api/games/{g['id']}/takeback-offer", json={"token": g["seat"]["token"]})
    assert r.status_code == 409 and r.json()["code"] == "takeback.too_early"
    s = c.post(f"/api/games/{g['id']}/draw-offer", json={"token": g["seat"]["token"]}).json()
    assert s["status"] == "playing" and s["draw_offer"] is None  # declined at once


def test_computer_as_white_moves_first(c: TestClient) -> None:
    g = new_game(c, variant="chess960", opponent="computer", color="black", level=2)
    s = _wait(c, g["id"], lambda s: len(s["moves"]) == 1)
    assert s["to_move"] == "black" and s["level"] == 2


def _wait(c: TestClient, gid: str, ok: Any, timeout: float = 20) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        s = state(c, gid)
        if ok(s) or time.monotonic() > end:
            assert ok(s), s
            return s
        time.sleep(0.05)


# ------------------------------------------------------------------------------ others
def test_pgn(c: TestClient) -> None:
    g = new_game(c, variant="chess960", setup=1, clock={"minutes": 5, "increment": 2})
    play(c, g, "e4", "e5", "d4")
    r = c.get(f"/api/games/{g['id']}/pgn")
    assert r.status_code == 200 and r.headers["content-type"].startswith(
        "application/x-chess-pgn")
    text = r.text
    for tag in ('[Variant "Chess960"]', '[SetUp "1"]', '[SetupNumber "1"]', '[Result "*"]',
                '[TimeControl "300+2"]', '[FEN "'):
        assert tag in text
    # randomchess.pgn writes python-chess's layout: a black move after a comment is numbered.
    assert "1. e4 { [%clk 0:05:00] } 1... e5 { [%clk 0:05:00] } 2. d4 { [%clk" in text


def test_pgn_names_an_anonymous_player_anonymous(c: TestClient) -> None:
    # Issue 37 (polish): as lichess does, not "White" / "Black" (a colour is not a name).
    g = new_game(c, variant="chess")
    text = c.get(f"/api/games/{g['id']}/pgn").text
    assert '[White "Anonymous"]' in text and '[Black "Anonymous"]' in text


def test_openapi_and_docs(c: TestClient) -> None:
    spec = c.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/moves",
                 "/api/games/{game_id}/pgn", "/api/games/{game_id}/resign",
                 "/api/games/{game_id}/draw-offer", "/api/games/{game_id}/draw-accept",
                 "/api/games/{game_id}/draw-claim", "/api/games/{game_id}/takeback-offer",
                 "/api/games/{game_id}/takeback-accept", "/api/games/{game_id}/join"):
        assert path in spec["paths"], path
    assert c.get("/docs").status_code == 200
    assert "/docs" in c.get("/").text  # no front end installed here


def test_front_end_hook(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>board</title>")
    (static / "app.js").write_text("console.log(1)")
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}", static_dir=static) as fc:
        assert "board" in fc.get("/").text
        assert fc.get("/app.js").text == "console.log(1)"
        assert "board" in fc.get("/games/abc").text  # single-page app fallback
        assert fc.get("/api/games/nope").status_code == 404
        g = new_game(fc, variant="chess", opponent="friend")
        path = g["invite_url"].removeprefix("http://testserver")
        assert "board" in fc.get(path, headers={"accept": "text/html"}).text
        assert fc.get(path, headers={"accept": "application/json"}).json()["invite_open"]


def test_concurrent_moves_exactly_one_wins(c: TestClient) -> None:
    for _ in range(5):
        g = new_game(c, variant="chess")
        barrier = threading.Barrier(2)
        codes: list[int] = []

        def send(move: str, g: dict[str, Any] = g, barrier: threading.Barrier = barrier,
                 codes: list[int] = codes) -> None:
            barrier.wait()
            r = c.post(f"/api/games/{g['id']}/moves",
                       json={"move": move, "token": g["seat"]["token"]})
            codes.append(r.status_code)

        threads = [threading.Thread(target=send, args=(m,)) for m in ("e2e4", "d2d4")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) == [200, 409]
        assert len(state(c, g["id"])["moves"]) == 1


def test_pgn_of_a_finished_game_comes_from_the_core_writer(c: TestClient) -> None:
    g = new_game(c, variant="mrc", setup=8226, opponent="friend", color="white")
    play(c, g, "e2e4")
    c.post(f"/api/games/{g['id']}/resign", json={"token": g["seat"]["token"]})
    text = c.get(f"/api/games/{g['id']}/pgn").text
    for tag in ('[Variant "Modern Random Chess"]', '[SetupNumber "8226"]', '[MRCId "8226"]',
                '[Result "0-1"]', '[Termination "normal"]'):
        assert tag in text, tag
    assert text.rstrip().endswith("1. e4 0-1")


def test_automatic_draws_setting(tmp_path: Path) -> None:
    """RULES.md D-22: with the server switch on, threefold ends the game without a claim."""
    with client(f"sqlite:///{tmp_path / 'g.sqlite3'}", automatic_draws=True) as ac:
        g = new_game(ac, variant="chess")
        s = play(ac, g, *["Nf3", "Nf6", "Ng1", "Ng8"] * 2)
        assert (s["status"], s["result"], s["termination"]) == \
            ("ended", "1/2-1/2", "threefold repetition")


def test_a_dead_start_position_is_over_at_once(c: TestClient) -> None:
    g = new_game(c, variant="chess", setup="4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    s = state(c, g["id"])
    assert (s["status"], s["termination"], s["legal_moves"]) == ("ended", "dead position", [])
