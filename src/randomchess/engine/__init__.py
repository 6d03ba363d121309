"""The engine: search, evaluation, playing levels and the UCI protocol.

Only the standard library and the rules core are used here; the command-line front end
(``randomchess uci``, ``play``, ``match``) lives in :mod:`randomchess.cli.engine`.
"""

from randomchess import native

__path__ = native.prepend(__path__, "engine")  # the compiled search, when fresh

from randomchess.engine.evaluate import evaluate
from randomchess.engine.search import LEVELS, Info, Level, Limits, Result, Searcher

__all__ = ["LEVELS", "Info", "Level", "Limits", "Result", "Searcher", "evaluate"]
