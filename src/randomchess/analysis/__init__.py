"""Analysis: engine evaluations of positions (multi-PV lines) and whole-game reviews, with
the project's own engine or an external UCI engine (Stockfish, Fairy-Stockfish).

Above the engine in the layers, below the server and the command line."""

from randomchess.analysis.core import Analyser, AnalysisError, Limit, Line, Result, Score
from randomchess.analysis.engines import EngineConfig, EngineUnavailableError
from randomchess.analysis.own import OwnEngine
from randomchess.analysis.uci_client import EngineError, UciClient

__all__ = [
    "Analyser",
    "AnalysisError",
    "EngineConfig",
    "EngineError",
    "EngineUnavailableError",
    "Limit",
    "Line",
    "OwnEngine",
    "Result",
    "Score",
    "UciClient",
]
