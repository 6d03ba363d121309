"""Levels 9, 10 and maximum, played by the external engine (issue 14)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from randomchess import Position, get_variant
from randomchess.analysis import AnalysisError, EngineConfig, EngineUnavailableError
from randomchess.analysis.levels import MAXIMUM, close_players, engine_for, external_move
from randomchess.analysis.match import random_setup

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
