"""Computer levels above our engine's 8, played by an external engine when one is installed
(issue 14, "stronger computer levels"): the building block for the server's engine pool.

Level 9 and 10 use the engine's own strength limit (``UCI_LimitStrength`` + ``UCI_Elo``, which
Stockfish 15 and Fairy-Stockfish 11 both offer); ``MAXIMUM`` is the engine at full strength.
The Elo figures are the engine's nominal setting, not a rating measured against our levels
(docs/analysis.md, "Stronger levels").  Bishop Adjustments at the root are searched as for
analysis (:mod:`randomchess.analysis.uci_engine`), so the move is always legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from randomchess.analysis.core import AnalysisError, Limit
from randomchess.analysis.engines import EngineConfig, EngineUnavailableError
from randomchess.analysis.uci_engine import UciEngine
from randomchess.position import Position
from randomchess.variants import get_variant


@dataclass(frozen=True)
class ExternalLevel:
    level: int
    elo: int | None  # None: full strength
    label: str


MAXIMUM = 11
EXTERNAL_LEVELS: dict[int, ExternalLevel] = {
    9: ExternalLevel(9, 1800, "engine limited to Elo 1800"),
    10: ExternalLevel(10, 2300, "engine limited to Elo 2300"),
    MAXIMUM: ExternalLevel(MAXIMUM, None, "maximum: the external engine at full strength"),
}

_players: dict[tuple[str, int], UciEngine] = {}


def engine_for(config: EngineConfig, variant_key: str) -> str | None:
    """The external engine that plays ``variant_key`` here (Stockfish first), or None."""
    for name in ("stockfish", "fairy-stockfish"):
        if name not in config.paths:
            continue
        try:
            engine = _player(config, name, MAXIMUM)
        except (EngineUnavailableError, AnalysisError):
            continue
        if engine.supports(variant_key):
            return name
    return None


def _player(config: EngineConfig, name: str, level: int) -> UciEngine:
    key = (name, level)
    engine = _players.get(key)
    if engine is None:
        spec = EXTERNAL_LEVELS[level]
        options = {} if spec.elo is None else {"UCI_LimitStrength": "true",
                                                "UCI_Elo": str(spec.elo)}
        path = config.paths[name]
        engine = _players[key] = UciEngine(name, [path], fairy="fairy" in name,
                                           options=options, hash_mb=32)
    return engine


def external_move(config: EngineConfig, variant_key: str, fen: str, moves: list[str],
                  level: int, movetime_ms: int) -> tuple[str, str]:
    """(UCI of the move, the engine's id name) for ``level`` (9, 10 or ``MAXIMUM``);
    ``EngineUnavailableError`` when no external engine plays the variant."""
    if level not in EXTERNAL_LEVELS:
        raise AnalysisError(f"no external level {level}")
    name = engine_for(config, variant_key)
    if name is None:
        raise EngineUnavailableError("absent", name="stockfish / fairy-stockfish")
    pos = Position(fen, get_variant(variant_key))
    for text in moves:
        pos.push_uci(text)
    engine = _player(config, name, level)
    lines = engine.analyse(pos, Limit(movetime=max(20, movetime_ms)))
    if not lines:
        raise AnalysisError("no legal move")
    move = pos.parse_uci(lines[0].pv[0])  # checked by the rules core
    return pos.uci(move), engine.id_name


def close_players() -> None:
    for engine in _players.values():
        engine.close()
    _players.clear()
