"""Computer levels 9, 10 and maximum on the server (issue 14): offered where Stockfish or
Fairy-Stockfish plays the variant, said by ``GET /api/levels``, refused clearly elsewhere,
and played through the engine service."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from randomchess.analysis import EngineConfig
from randomchess.analysis import levels as levels_mod
from randomchess.position import Position
from randomchess.server.engines import pool as engine_pool
from server_support import client, database, new_game

HAVE = {n: bool(shutil.which(n) or Path(f"/usr/games/{n}").exists())
        for n in ("stockfish", "fairy-stockfish")}
SKIP = pytest.mark.skipif(not all(HAVE.values()), reason="*** stockfish / fairy-stockfish "
                          "not installed: external computer levels SKIPPED ***")


def test_without_external_engines_levels_stop_at_8(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_pool, "_config", EngineConfig(paths={}))
    with database("sqlite", tmp_path) as url, client(url) as c:
        table = c.get("/api/levels").json()
        assert table["maximum"] == 11
        for key in ("chess", "chess960", "mrc", "modern"):
            assert [row["level"] for row in table["variants"][key]] == list(range(1, 9))
            assert {row["engine"] for row in table["variants"][key]} == {"randomchess"}
        r = c.post("/api/games", json={"variant": "chess960", "opponent": "computer",
                                       "level": 9})
        assert r.status_code == 422
        assert "Stockfish" in r.json()["detail"] and "1..8" in r.json()["detail"]
        r = c.post("/api/games", json={"variant": "chess960", "opponent": "computer",
                                       "level": 12})
        assert r.status_code == 422


@SKIP
def test_levels_name_the_external_engine_of_each_variant(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url) as c:
        table = c.get("/api/levels").json()["variants"]
        for key, engine in (("chess960", "Stockfish"), ("mrc", "Fairy-Stockfish")):
            rows = {row["level"]: row for row in table[key]}
            assert sorted(rows) == list(range(1, 12))
            assert rows[11]["name"] == "maximum" and rows[11]["elo"] is None
            assert rows[9]["elo"] == 1800 and rows[10]["elo"] == 2300
            assert rows[9]["engine"].startswith(engine), rows[9]
            assert rows[4]["engine"] == "randomchess"


def test_every_level_carries_its_measured_rating(tmp_path: Path) -> None:
    from randomchess.analysis.calibration import level_ratings

    measured = level_ratings()
    with database("sqlite", tmp_path) as url, client(url) as c:
        table = c.get("/api/levels").json()
        assert table["ratings"]["variant"] == "chess960"
        assert table["ratings"]["scale"] == "Stockfish UCI_Elo"
        for key in ("chess960", "mrc"):
            for row in table["variants"][key]:
                r = measured[row["level"]]
                assert (row["rating"], row["rating_margin"], row["rating_games"]) == (
                    r.rating, r.margin, r.games), row


@SKIP
@pytest.mark.parametrize(("variant", "level"), [("chess960", 9), ("mrc", 11)])
def test_an_external_level_plays_legal_moves_on_the_server(tmp_path: Path, variant: str,
                                                           level: int) -> None:
    with database("sqlite", tmp_path) as url, client(url, engine_movetime_ms=200) as c:
        g = new_game(c, variant=variant, opponent="computer", color="black", level=level)
        gid = g["id"]
        end = time.monotonic() + 30
        while not (state := c.get(f"/api/games/{gid}").json())["moves"]:
            assert time.monotonic() < end, "the external level never moved"
            time.sleep(0.05)
        assert state["level"] == level
        pos = Position(state["start_fen"], variant)
        pos.push_uci(state["moves"][0])  # legal by the rules core
        reply = pos.uci(pos.legal_moves()[0])
        r = c.post(f"/api/games/{gid}/moves", json={"move": reply, "token": g["seat"]["token"]})
        assert r.status_code == 200, r.text
        end = time.monotonic() + 30
        while len(c.get(f"/api/games/{gid}").json()["moves"]) < 3:
            assert time.monotonic() < end, "the external level stopped after one move"
            time.sleep(0.05)


def test_external_engines_are_read_once_per_process() -> None:
    levels_mod._found.clear()
    assert levels_mod.external_engines(EngineConfig(paths={})) == {}
    assert levels_mod.levels_by_variant({})["mrc"] == list(range(1, 9))
    table = levels_mod.level_table({"mrc": ("fairy-stockfish", "Fairy-Stockfish 11")})
    assert [r["level"] for r in table["variants"]["mrc"]][-3:] == [9, 10, 11]  # type: ignore[index]


def test_an_external_level_in_a_variant_the_computer_does_not_play_is_refused(
        tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, client(url) as c:
        from randomchess import get_variant

        fen = get_variant("chess8400").default_fen
        r = c.post("/api/games", json={"variant": "chess8400", "setup": fen,
                                       "opponent": "computer", "level": 9})
        assert r.status_code == 422 and "does not play" in r.json()["detail"], r.text
