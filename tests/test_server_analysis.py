"""Analysis and review routes: POST /api/analysis, WS /ws/analysis, game reviews stored by
migration 0003 and their annotated PGN."""

from __future__ import annotations

from pathlib import Path

import chess.pgn
import pytest
from sqlalchemy import create_engine, inspect

from randomchess.db import migrate
from randomchess.pgn import parse_game
from server_support import client, database, new_game, play

SCHOLAR_MOVES = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> object:
    with database(request.param, tmp_path) as url:
        yield url


def test_migration_0003_creates_the_reviews_table(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    migrate(engine)
    names = inspect(engine).get_table_names()
    assert "game_reviews" in names and "games" in names
    cols = {c["name"] for c in inspect(engine).get_columns("game_reviews")}
    assert {"game_id", "engine", "review", "moves"} <= cols
    engine.dispose()


def test_analysis_endpoint_multipv_and_errors(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url) as c:
        r = c.post("/api/analysis", json={"variant": "chess", "moves": SCHOLAR_MOVES,
                                          "depth": 3, "multipv": 2})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["lines"][0]["san"][0] == "Qxf7#"
        assert body["lines"][0]["score"] == {"cp": None, "mate": 1}
        assert len(body["lines"]) == 2 and body["turn"] == "white"
        # A setup number of MRC, with its Bishop Adjustments among the moves searched.
        r = c.post("/api/analysis", json={"variant": "mrc", "setup": 1, "depth": 2})
        assert r.status_code == 200, r.text
        assert r.json()["lines"][0]["pv"]
        assert c.post("/api/analysis", json={"moves": ["e2e5"], "depth": 2}).status_code == 422
        assert c.post("/api/analysis", json={"fen": "nonsense"}).status_code == 422
        assert c.post("/api/analysis", json={"depth": 99}).status_code == 422
        missing = c.post("/api/analysis", json={"engine": "nosuchengine", "depth": 2})
        assert missing.status_code == 409 and "Unknown engine" in missing.json()["detail"]
        assert "randomchess" in c.get("/api/analysis/engines").json()["engines"]


def test_analysis_socket_streams_depth_by_depth_and_stops(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url) as c, \
            c.websocket_connect("/ws/analysis") as ws:
        ws.send_json({"type": "analyse", "position": {"variant": "chess", "depth": 3,
                                                      "multipv": 2}})
        depths = []
        while True:
            msg = ws.receive_json()
            if msg["type"] == "done":
                break
            assert msg["type"] == "lines", msg
            depths.append(msg["depth"])
            assert 1 <= len(msg["lines"]) <= 2
        assert depths == [1, 2, 3]
        ws.send_json({"type": "analyse", "position": {"variant": "chess", "depth": 12}})
        first = ws.receive_json()
        assert first["type"] == "lines"
        ws.send_json({"type": "stop"})
        while (msg := ws.receive_json())["type"] == "lines":
            pass
        assert msg["type"] == "stopped"
        ws.send_json({"type": "bogus"})
        assert ws.receive_json()["status"] == 422


def test_review_is_stored_with_the_game_and_in_its_pgn(db_url: str) -> None:
    with client(db_url) as c:
        game = new_game(c)
        play(c, game, "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Qg5")
        assert c.get(f"/api/games/{game['id']}/review").status_code == 404
        r = c.post(f"/api/games/{game['id']}/review", json={"depth": 3})
        assert r.status_code == 200, r.text
        review = r.json()["review"]
        qg5 = review["plies"][7]
        assert qg5["san"] == "Qg5" and qg5["judgement"] == "blunder" and qg5["best_san"]
        assert review["counts"]["black"]["blunder"] == 1
        again = c.get(f"/api/games/{game['id']}/review").json()
        assert again["review"] == review and again["moves"][-1] == "d8g5"
        pgn = c.get(f"/api/games/{game['id']}/review.pgn").text
        assert "Qg5 $4" in pgn and "[%eval" in pgn
        assert parse_game(pgn).error is None
        import io

        pc = chess.pgn.read_game(io.StringIO(pgn))
        assert pc is not None and chess.pgn.NAG_BLUNDER in list(pc.mainline())[7].nags
        # A second review replaces the first (one per game).
        play(c, game, "Nxg5")
        r = c.post(f"/api/games/{game['id']}/review", json={"depth": 2})
        assert r.status_code == 200 and len(r.json()["review"]["plies"]) == 9
        assert c.post("/api/games/nosuch/review", json={}).status_code == 404


def test_the_games_own_pgn_carries_its_review(db_url: str) -> None:
    """Issue 14: a reviewed game's evaluations and marks appear in its PGN (the download of
    the game page), not only in review.pgn; moves played after the review follow
    unannotated; ``?review=false`` gives the plain game."""
    with client(db_url) as c:
        game = new_game(c)
        play(c, game, "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Qg5")
        plain = c.get(f"/api/games/{game['id']}/pgn").text
        assert "[%eval" not in plain and "Annotator" not in plain
        assert c.post(f"/api/games/{game['id']}/review", json={"depth": 3}).status_code == 200
        pgn = c.get(f"/api/games/{game['id']}/pgn").text
        assert "[%eval" in pgn and "Qg5 $4" in pgn and '[Annotator "' in pgn
        assert parse_game(pgn).error is None
        play(c, game, "Nxg5")  # after the review
        later = c.get(f"/api/games/{game['id']}/pgn").text
        parsed = parse_game(later)
        assert parsed.error is None and len(parsed.moves) == 9
        assert "Qg5 $4" in later and parsed.moves[8].san == "Nxg5" and not parsed.moves[8].comment
        es = c.get(f"/api/games/{game['id']}/pgn", params={"lang": "es"}).text
        assert "[%eval" in es and es != later
        assert "[%eval" not in c.get(f"/api/games/{game['id']}/pgn",
                                     params={"review": "false"}).text
        assert c.get(f"/api/games/{game['id']}/pgn", params={"lang": "xx"}).status_code == 422


def test_board_helpers_position_and_pasted_pgn(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url) as c:
        r = c.post("/api/analysis/position", json={"variant": "chess", "moves": ["e2e4"]})
        assert r.status_code == 200 and r.json()["san"] == ["e4"]
        assert "e7e5" in r.json()["legal_moves"] and r.json()["to_move"] == "black"
        mrc = c.post("/api/analysis/position", json={"variant": "mrc", "setup": 2}).json()
        assert len(mrc["fen"].split()[0].split("/")) == 9
        assert c.post("/api/analysis/position",
                      json={"moves": ["e2e5"]}).status_code == 422
        pgn = c.post("/api/analysis/pgn", json={"pgn": "1. e4 e5 2. Nf3 *"}).json()
        assert pgn["moves"] == ["e2e4", "e7e5", "g1f3"] and pgn["san"][-1] == "Nf3"
        bad = c.post("/api/analysis/pgn", json={"pgn": "1. e4 e4 *"})
        assert bad.status_code == 422 and "e4" in bad.json()["detail"]


def test_a_killed_analysis_worker_answers_503_once_then_the_pool_is_rebuilt(
        tmp_path: Path) -> None:
    import os
    import signal

    from randomchess.server.engines import jobs

    with database("sqlite", tmp_path) as url, client(url) as c:
        body = {"variant": "chess", "depth": 2}
        assert c.post("/api/analysis", json=body).status_code == 200
        executor = jobs.pool._executor
        assert executor is not None
        for pid in list(executor._processes):
            os.kill(pid, signal.SIGKILL)
        r = c.post("/api/analysis", json=body)
        assert r.status_code == 503 and "worker" in r.json()["detail"]
        again = c.post("/api/analysis", json=body)
        assert again.status_code == 200 and again.json()["lines"]


def test_a_long_review_answers_202_and_is_polled(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from randomchess.server.engines import routes as analysis_api

    monkeypatch.setattr(analysis_api, "REVIEW_WAIT_S", 0.0)
    with database("sqlite", tmp_path) as url, client(url) as c:
        game = new_game(c)
        play(c, game, "e4", "e5", "Qh5", "Ke7", "Qxe5#")
        r = c.post(f"/api/games/{game['id']}/review", json={"depth": 3})
        assert r.status_code == 202 and r.json() == {"status": "running"}
        deadline = time.monotonic() + 60
        while (g := c.get(f"/api/games/{game['id']}/review")).status_code == 202:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert g.status_code == 200
        plies = g.json()["review"]["plies"]
        assert len(plies) == 5 and plies[3]["judgement"] == "blunder"  # 2... Ke7??
        assert plies[4]["score"] is None  # mate on the board: no engine score
