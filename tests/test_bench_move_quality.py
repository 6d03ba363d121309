"""bench/move_quality.py, the move-quality yardstick of issue 16: positions are taken only
where our engine was to move, a blunder is charged what Stockfish says it loses, and two
choice files are compared on the same positions."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from randomchess.analysis.engines import EngineConfig

ROOT = Path(__file__).resolve().parent.parent
needs_sf = pytest.mark.skipif(
    "stockfish" not in EngineConfig.detect().paths,
    reason="*** stockfish not installed (apt-get install stockfish): yardstick SKIPPED ***")

PGN = """[Event "m"]
[White "randomchess"]
[Black "stockfish"]
[Result "*"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. d4 d5 2. Nd3 Nd6 3. e3 e6 *

[Event "m"]
[White "stockfish"]
[Black "randomchess"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 *
"""


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("move_quality",
                                                  ROOT / "bench" / "move_quality.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["move_quality"] = module
    spec.loader.exec_module(module)
    return module


def test_positions_are_those_where_our_engine_was_to_move(tmp_path: Path) -> None:
    mq = _module()
    pgn = tmp_path / "games.pgn"
    pgn.write_text(PGN, encoding="utf-8")
    found = mq._positions([str(pgn)], 100, seed=1, min_ply=0)
    # Three of White's moves in the first game, three of Black's in the second.
    assert len(found) == 6
    sides = sorted(p["fen"].split()[1] for p in found)
    assert sides == ["b", "b", "b", "w", "w", "w"]
    assert {p["variant"] for p in found} == {"chess960", "chess"}
    assert all(p["pieces"] == 32 for p in found)


@needs_sf
def test_a_blunder_is_charged_and_versions_are_paired(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mq = _module()
    positions = [
        # Level positions: Bc4 and Bb5 are sound; Ng5 hangs the knight to ...Qxg5 and
        # d2d4 in the second walks into nothing (both sound there).
        {"fen": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
         "variant": "chess", "ply": 4, "pieces": 32},
        {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
         "variant": "chess", "ply": 0, "pieces": 32},
    ]
    good = {"moves": {positions[0]["fen"]: "f1c4", positions[1]["fen"]: "d2d4"}}
    bad = {"moves": {positions[0]["fen"]: "f3g5", positions[1]["fen"]: "d2d4"}}
    cache = tmp_path / "sf.json"
    mq.score(positions, [good, bad], ["good", "bad"], depth=8, cache_path=cache, worst=1)
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.split() and line.split()[0] in ("good", "bad")}
    assert int(rows["good"][1]) == int(rows["bad"][1]) == 2  # both positions scored
    assert float(rows["good"][2]) < 30  # the sound moves lose next to nothing
    assert float(rows["bad"][2]) > 100  # the hung knight, over two moves
    assert "paired: bad - good: +" in out
    assert "f3g5" in out  # the worst move of "bad" is listed
    assert json.loads(cache.read_text())  # Stockfish's verdicts are kept for the next run


def test_play_chooses_a_legal_move_in_every_position() -> None:
    mq = _module()
    from randomchess.position import Position

    positions = [{"fen": "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
                  "variant": "chess960"},
                 {"fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "variant": "chess"}]
    out = mq.play(positions, movetime=0, nodes=300, jobs=1)
    assert set(out["moves"]) == {p["fen"] for p in positions}
    for p in positions:
        pos = Position(p["fen"], p["variant"])
        assert pos.parse_uci(out["moves"][p["fen"]]) in pos.legal_moves()
