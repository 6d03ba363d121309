"""Levels 9, 10 and maximum, played by the external engine (issue 14)."""

from __future__ import annotations

import logging
import random
import shutil
from pathlib import Path

import pytest

from randomchess import Position, get_variant
from randomchess.analysis import AnalysisError, EngineConfig, EngineUnavailableError
from randomchess.analysis.levels import MAXIMUM, close_players, engine_for, external_move
from randomchess.analysis.match import random_setup
from randomchess.game import Game
from randomchess.server.engines import pool

HAVE = any(shutil.which(n) or Path(f"/usr/games/{n}").exists()
           for n in ("stockfish", "fairy-stockfish"))


def test_no_external_engine_is_a_clear_error() -> None:
    with pytest.raises(EngineUnavailableError) as err:
        external_move(EngineConfig(paths={}), "chess", Position().fen(), [], 9, 50)
    assert "no está instalado" in err.value.message("es")
    with pytest.raises(AnalysisError):
        external_move(EngineConfig(paths={}), "chess", Position().fen(), [], 4, 50)


@pytest.mark.skipif(not HAVE, reason="*** stockfish / fairy-stockfish not installed: "
                    "external levels SKIPPED ***")
@pytest.mark.parametrize("variant", ["chess960", "mrc"])
def test_external_levels_play_legal_moves_and_name_the_engine(variant: str) -> None:
    config = EngineConfig.detect()
    v = get_variant(variant)
    name = engine_for(config, variant)
    assert name == ("stockfish" if variant == "chess960" else "fairy-stockfish")
    fen = random_setup(v, random.Random(3), adjustment=True if v.has_adjustment else None)
    pos = Position(fen, v)
    moves: list[str] = []
    try:
        for ply in range(6):
            level = (9, 10, MAXIMUM)[ply % 3]
            uci, engine = external_move(config, variant, fen, moves, level, 30)
            assert "Stockfish" in engine
            pos.push_uci(uci)  # legal by the rules core
            moves.append(uci)
    finally:
        close_players()


def _fake_engine(tmp_path: Path, name: str, variants: str, answer: list[str]) -> str:
    """A UCI engine that plays ``variants`` and answers every ``go`` with ``answer``,
    whatever ``searchmoves`` it is given."""
    fake = tmp_path / name
    echo = "; ".join(f"echo '{line}'" for line in answer)
    fake.write_text(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n"
        f"    uci) echo 'id name {name}'\n"
        f"         echo 'option name UCI_Variant type combo default chess{variants}'\n"
        "         echo uciok;;\n"
        "    isready) echo readyok;;\n"
        f"    go*) {echo};;\n"
        "  esac\ndone\n")
    fake.chmod(0o755)
    return str(fake)


def test_a_strength_limited_engine_plays_its_own_choice_not_its_best_line(
        tmp_path: Path) -> None:
    """With ``UCI_LimitStrength`` Stockfish and Fairy-Stockfish print the best line they
    found and then play a weaker move they pick (``bestmove``): that move is the level's."""
    fake = _fake_engine(tmp_path, "limited", "", [
        "info depth 5 score cp 40 pv e2e4 e7e5", "bestmove d2d4 ponder d7d5"])
    config = EngineConfig(paths={"stockfish": fake})
    try:
        for level in (9, 10, MAXIMUM):
            assert external_move(config, "chess", Position().fen(), [], level, 50) == \
                ("d2d4", "limited")
    finally:
        close_players()


# O-Og puts the king f1 on g1 and the rook h1 on f1: only h1 is left empty to gate on
# (docs/rules.md D-33); Fairy-Stockfish 11.1 also gates on f1 (f1h1q), deleting the rook.
CASTLING_ONTO_GATE = "1k6/8/8/8/8/8/8/R4K1R[Qq] w KQ - 0 1"


def test_an_engine_move_the_rules_refuse_gives_way_to_its_best_legal_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    fake = _fake_engine(tmp_path, "fsf-11", " var pmcrc", [
        "info depth 1 score cp 20 pv h1h2", "info depth 2 score cp 90 pv f1h1q b8c7",
        "bestmove f1h1q"])
    config = EngineConfig(paths={"fairy-stockfish": fake})
    caplog.set_level(logging.WARNING, "randomchess.engine")
    try:
        uci, _name = external_move(config, "pmcrc", CASTLING_ONTO_GATE, [], 11, 50)
    finally:
        close_players()
    assert uci == "h1h2"
    assert any("f1h1q" in r.getMessage() and "h1h2" in r.getMessage() for r in caplog.records)


def test_an_engine_with_only_refused_moves_leaves_the_move_to_level_8(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    fake = _fake_engine(tmp_path, "fsf-11", " var pmcrc", [
        "info depth 1 score cp 90 pv f1h1q b8c7", "bestmove f1h1q"])
    monkeypatch.setattr(pool, "_config", EngineConfig(paths={"fairy-stockfish": fake}))
    caplog.set_level(logging.WARNING, "randomchess.engine")
    game = Game(CASTLING_ONTO_GATE, "pmcrc")
    moves: list[str] = []
    try:
        while not game.is_over and len(moves) < 4:  # level 11 plays both sides
            uci = pool.think("pmcrc", CASTLING_ONTO_GATE, moves, MAXIMUM, 100, None, None,
                             0, 0)
            assert uci is not None and uci != "f1h1q", (moves, caplog.text)
            game.push_uci(uci)  # legal by the rules core
            moves.append(uci)
    finally:
        close_players()
    assert len(moves) >= 3  # here level 8 mates in 3 moves at most (h1h7q b8c8 h1a8)
    assert sum("our level 8 plays instead" in r.getMessage()
               for r in caplog.records) == len(moves)
