"""bench/tune_eval.py, the evaluation fit of issue 16: the games it plays are legal Chess960
games that the labeller reads, the labels are quiet positions with Stockfish's score, and a
fit writes per-square corrections the evaluation loads."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import chess
import chess.pgn
import pytest

from randomchess.analysis.engines import EngineConfig
from randomchess.engine.evaluate import SQUARE_TABLES_FILE
from randomchess.engine.tuning import current_weights, predict
from randomchess.pieces import KIND_BY_LETTER
from randomchess.position import Position

ROOT = Path(__file__).resolve().parent.parent
needs_sf = pytest.mark.skipif(
    "stockfish" not in EngineConfig.detect().paths,
    reason="*** stockfish not installed (apt-get install stockfish): tune_eval SKIPPED ***")


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tune_eval", ROOT / "bench" / "tune_eval.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["tune_eval"] = module
    spec.loader.exec_module(module)
    return module


@needs_sf
def test_games_then_labels(tmp_path: Path) -> None:
    tune = _load()
    pgn = tmp_path / "games.pgn"
    tune.games(pgn, 2, seed=5, jobs=1)
    played = 0
    with open(pgn, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            assert not game.errors
            assert game.headers["Variant"] == "Chess960"
            board = game.board()
            assert board.chess960
            for move in game.mainline_moves():
                assert move in board.legal_moves
                board.push(move)
            assert board.is_game_over(claim_draw=True) or board.ply() >= 240
            played += 1
    assert played == 2
    labels = tmp_path / "labels.txt"
    tune.label(str(pgn), labels, depth=4, jobs=1)
    lines = labels.read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        fen, cp = line.rsplit(";", 1)
        board = chess.Board(fen, chess960=True)
        assert not board.is_check()
        assert abs(int(cp)) <= 2000


def test_the_fit_writes_square_tables_the_evaluation_reads(tmp_path: Path) -> None:
    """Two positions that differ only in where White's knight stands, Stockfish (here: the
    label) preferring f3 to a3: the fitted corrections move f3 up and a3 down, and the file
    has the layout evaluate.square_tables expects."""
    tune = _load()
    data = tmp_path / "labels.txt"
    lines = []
    for _ in range(20):
        lines.append("r3k3/pppp4/8/8/8/5N2/PPPP4/R3K3 w - - 0 1;150")
        lines.append("r3k3/pppp4/8/8/8/N7/PPPP4/R3K3 w - - 0 1;-50")
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "squares.json"
    tune.fit(data, holdout=0.1, steps=1500, ridge=1e-8, free_prefixes=["sq:"], squares=out,
             jobs=1)
    tables = json.loads(out.read_text(encoding="utf-8"))["boards"]["8x8"]
    assert set(tables) == {"P", "N", "B", "R", "Q", "K"} <= set(KIND_BY_LETTER)
    knight = tables["N"]
    assert all(len(knight[ph]) == 64 for ph in ("mg", "eg"))
    # The fitted corrections, put in place of the shipped ones, make the evaluation prefer
    # f3 by about what the labels say (200 cp); the shipped ones say much less.
    weights = current_weights()
    before = predict(Position(lines[0].split(";")[0], "chess960"), weights) - predict(
        Position(lines[1].split(";")[0], "chess960"), weights)
    for letter, phases in tables.items():
        for ph, values in phases.items():
            for sq, value in enumerate(values):
                weights[f"sq:{KIND_BY_LETTER[letter]}:{ph}:{sq}"] = value
    after = predict(Position(lines[0].split(";")[0], "chess960"), weights) - predict(
        Position(lines[1].split(";")[0], "chess960"), weights)
    assert abs(after - 200) < 40 < abs(before - 200)
    assert SQUARE_TABLES_FILE.endswith(".json")


def test_the_fit_keeps_the_features_for_the_next_fit(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """--features writes the positions' features once; a second fit reads them instead of
    the labels (here: gone) and fits the same numbers."""
    tune = _load()
    data = tmp_path / "labels.txt"
    data.write_text("r3k3/pppp4/8/8/8/5N2/PPPP4/R3K3 w - - 0 1;150\n"
                    "r3k3/pppp4/8/8/8/N7/PPPP4/R3K3 w - - 0 1;-50\n" * 5, encoding="utf-8")
    cache = tmp_path / "features.npz"
    tune.fit(data, holdout=0.2, steps=50, ridge=1e-8, jobs=1, features=cache)
    first = capsys.readouterr().out
    assert cache.exists()
    data.unlink()
    tune.fit(data, holdout=0.2, steps=50, ridge=1e-8, jobs=1, features=cache)
    assert capsys.readouterr().out == first
