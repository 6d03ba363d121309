"""The opening explorer's evaluations as a background job (issue 33: "a background job on the
engine workers adds evaluations"): with the setting ``explorer_evals``, each game that ends
here sends its first plies' positions that lack an evaluation as deep to an ``explorer_eval``
job, in the server's analysis pool or on a queue worker, and the explorer shows them."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from randomchess.db import schema
from randomchess.server.engines.jobs import explorer_eval_job
from server_support import client, database, new_game, play
from test_engine_queue import REDIS, _need_redis, workers

SCHOLAR = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
BLUNDER = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR b KQkq - 1 2"


def test_the_job_evaluates_the_asked_plies_from_whites_point_of_view() -> None:
    # 1.e4 e5 2.Qf3 Nc6 3.Qxf7+?? : after the queen is lost Black is far ahead, whoever moves.
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    moves = ["e2e4", "e7e5", "d1f3", "b8c6", "f3f7", "e8f7"]
    out = explorer_eval_job("chess960", start, moves, [0, 5, 6], 6, 2000)
    assert "error" not in out, out
    by_ply = {ply: (cp, mate) for ply, cp, mate in out["evals"]}
    assert sorted(by_ply) == [0, 5, 6]
    assert abs(by_ply[0][0] or 0) < 150  # the start: about level
    for ply in (5, 6):  # Black to move after 3.Qxf7+, White after 3...Kxf7: both White's view
        cp, mate = by_ply[ply]
        assert mate is None and cp is not None and cp < -500, (ply, cp)
    assert out["engine"]


def _wait_for_evaluation(c: TestClient, number: int, move: str) -> dict[str, Any]:
    deadline = time.monotonic() + 180
    while True:
        answer = c.get(f"/api/explorer/chess960/{number}").json()
        row = next((m for m in answer["moves"] if m["uci"] == move), None)
        if row is not None and row["evaluation"] is not None:
            return row
        assert time.monotonic() < deadline, f"no evaluation of {move} in 180 s: {answer}"
        time.sleep(0.2)


def test_an_ended_game_is_evaluated_in_the_analysis_pool(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(
            url, explorer_evals=True, explorer_eval_depth=4, explorer_eval_plies=6) as c:
        game = new_game(c, variant="chess960", setup=518)
        assert play(c, game, *SCHOLAR)["status"] == "ended"
        row = _wait_for_evaluation(c, 518, "e2e4")
        assert row["evaluation"]["depth"] == 4
        # 5...Nf6?? (ply 6 is the position after it): White mates at once.
        after = c.get("/api/explorer/chess960/518", params={
            "fen": "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"}).json()
        assert [m["uci"] for m in after["moves"]] == ["h5f7"]
        # Ply 6 is within explorer_eval_plies; the mate after Qxf7# is not evaluated (no
        # moves), the position before it is: Nf6 leads to a mate in 1 for White.
        five = c.get("/api/explorer/chess960/518", params={
            "fen": "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"}).json()
        nf6 = next(m for m in five["moves"] if m["uci"] == "g8f6")
        assert nf6["evaluation"] is not None and nf6["evaluation"]["mate"] == 1
        # The start and the positions after plies 1-6: seven evaluations, no more.
        with c.app.state.service.store.engine.connect() as conn:  # type: ignore[attr-defined]
            deadline = time.monotonic() + 120
            while (n := conn.execute(select(func.count()).select_from(
                    schema.explorer_evals)).scalar_one()) < 7:
                assert time.monotonic() < deadline, n
                time.sleep(0.1)
                conn.rollback()
            assert n == 7


def test_an_ended_game_is_evaluated_on_a_queue_worker(tmp_path: Path) -> None:
    _need_redis()
    queue = f"test-{secrets.token_hex(4)}"
    with workers(1, queue, tmp_path), database("sqlite", tmp_path) as url, \
            client(url, engine_workers=0, redis_url=REDIS, engine_queue=queue,
                   explorer_evals=True, explorer_eval_depth=3, explorer_eval_plies=4) as c:
        game = new_game(c, variant="chess960", setup=518)
        assert play(c, game, *SCHOLAR)["status"] == "ended"
        row = _wait_for_evaluation(c, 518, "e2e4")
        # engine_workers=0: no analysis pool in the server, so the worker evaluated it.
        assert row["evaluation"]["depth"] == 3
