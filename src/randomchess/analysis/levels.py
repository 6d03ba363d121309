"""Computer levels above our engine's 8, played by an external engine when one is installed
(issue 14, "stronger computer levels"): the building block for the server's engine pool.

Level 9 and 10 use the engine's own strength limit (``UCI_LimitStrength`` + ``UCI_Elo``, which
Stockfish 15 and Fairy-Stockfish 11 both offer); ``MAXIMUM`` is the engine at full strength.
The Elo figures are the engine's nominal setting, not a rating measured against our levels
(docs/analysis.md, "Stronger levels").  Bishop Adjustments at the root are searched as for
analysis (:mod:`randomchess.analysis.uci_client`), so the move is always legal.

The level plays the engine's ``bestmove``, not the first move of the best line it printed:
with ``UCI_LimitStrength`` only ``bestmove`` is the weaker move the strength limit picked.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from randomchess.analysis.calibration import conditions, level_ratings
from randomchess.analysis.core import AnalysisError, Limit, StartTracker
from randomchess.analysis.engines import EngineConfig, EngineUnavailableError
from randomchess.analysis.uci_client import UciClient
from randomchess.errors import RandomChessError
from randomchess.position import Move, Position
from randomchess.variants import get_variant

log = logging.getLogger("randomchess.engine")


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

_players: dict[tuple[str, int], UciClient] = {}
_started = StartTracker()  # a new game for each player before another setup


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


def _player(config: EngineConfig, name: str, level: int) -> UciClient:
    key = (name, level)
    engine = _players.get(key)
    if engine is None:
        spec = EXTERNAL_LEVELS[level]
        options = {} if spec.elo is None else {"UCI_LimitStrength": "true",
                                                "UCI_Elo": str(spec.elo)}
        path = config.paths[name]
        engine = _players[key] = UciClient(name, [path], fairy="fairy" in name,
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
    _started.enter((name, level), engine, fen)
    lines = engine.analyse(pos, Limit(movetime=max(20, movetime_ms)))
    if not lines:  # not even a line starting with a legal move: the caller's level 8 plays
        raise AnalysisError(f"{engine.id_name} gave no move legal here")
    return pos.uci(_chosen(pos, lines[0].pv[0], engine.root_bestmove)), engine.id_name


def _chosen(pos: Position, best_line: str, bestmove: str | None) -> Move:
    """The move played: a Bishop Adjustment whose line ranked first, else the engine's own
    ``bestmove`` if the rules core accepts it, else the first move of its best line with a
    legal first move (``best_line``, checked when the line was read)."""
    first = pos.parse_uci(best_line)
    if pos.is_adjustment(first) or bestmove is None or bestmove == best_line:
        return first
    try:
        return pos.parse_uci(bestmove)
    except (RandomChessError, ValueError):
        log.warning("the engine's move %s is not legal in %s; its line's %s is played",
                    bestmove, pos.fen(), best_line)
        return first


def close_players() -> None:
    for engine in _players.values():
        engine.close()
    _players.clear()
    _started.clear()


# --------------------------------------------------------------------- which levels exist
OWN_LEVELS = tuple(range(1, 9))
LEVEL_NAMES = {MAXIMUM: "maximum"}
_found: dict[tuple[tuple[str, str], ...], dict[str, tuple[str, str]]] = {}


def external_engines(config: EngineConfig) -> dict[str, tuple[str, str]]:
    """For each variant an external engine plays here: (engine name, its UCI ``id name``),
    Stockfish first.  Each engine is started once to read its variants, then closed; the
    answer is kept for the process (engines are not installed while a server runs)."""
    from randomchess.variants import VARIANTS

    key = tuple(sorted(config.paths.items()))
    found = _found.get(key)
    if found is not None:
        return found
    found = {}
    for name in ("stockfish", "fairy-stockfish"):
        path = config.paths.get(name)
        if path is None:
            continue
        try:
            engine = UciClient(name, [path], fairy="fairy" in name, hash_mb=1)
        except (EngineUnavailableError, AnalysisError):
            continue
        try:
            for v in VARIANTS.values():
                if v.engine and v.key not in found and engine.supports(v.key):
                    found[v.key] = (name, engine.id_name)
        finally:
            engine.close()
    _found[key] = found
    return found


def levels_by_variant(engines: dict[str, tuple[str, str]]) -> dict[str, list[int]]:
    """The computer levels each variant offers: 1..8 always, 9, 10 and ``MAXIMUM`` where an
    external engine plays it (``engines`` as :func:`external_engines` gives)."""
    from randomchess.variants import VARIANTS

    return {v.key: [*OWN_LEVELS, *(EXTERNAL_LEVELS if v.key in engines else ())]
            for v in VARIANTS.values() if v.engine}


def level_table(engines: dict[str, tuple[str, str]]) -> dict[str, object]:
    """``GET /api/levels``: the levels of each variant, who plays each level there, and its
    rating as measured by the match runner (:mod:`randomchess.analysis.calibration`; measured
    in Chess960 against Stockfish's ``UCI_Elo``, so on the 9x9 boards only indicative)."""

    ratings = level_ratings()
    variants: dict[str, object] = {}
    for key, levels in levels_by_variant(engines).items():
        rows = []
        for level in levels:
            spec = EXTERNAL_LEVELS.get(level)
            if spec is None:
                row: dict[str, object] = {"level": level, "name": str(level),
                                          "engine": "randomchess", "elo": None,
                                          "label": f"randomchess level {level}"}
            else:
                name, id_name = engines[key]
                row = {"level": level, "name": LEVEL_NAMES.get(level, str(level)),
                       "engine": id_name, "engine_key": name, "elo": spec.elo,
                       "label": spec.label}
            measured = ratings.get(level)
            row["rating"] = measured.rating if measured else None
            row["rating_margin"] = measured.margin if measured else None
            row["rating_games"] = measured.games if measured else 0
            rows.append(row)
        variants[key] = rows
    info = conditions()
    return {"maximum": MAXIMUM, "variants": variants,
            "ratings": {"variant": info["variant"], "scale": "Stockfish UCI_Elo",
                        "level_movetime_ms": info["level_movetime_ms"],
                        "measured": info["date"], "engine_commit": info["engine_commit"]}}
