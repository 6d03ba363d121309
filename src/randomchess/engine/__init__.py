"""The engine: search, evaluation, playing levels and its UCI server.

Only the standard library and the rules core are used here.  The command-line front ends
are :mod:`randomchess.cli.uci` and :mod:`randomchess.cli.play`; engine matches and the
levels' calibration (which run engines through the UCI client) are in
:mod:`randomchess.analysis`.
"""

from randomchess import native

__path__ = native.prepend(__path__, "engine")  # the compiled search, when fresh

from randomchess.engine.evaluate import evaluate
from randomchess.engine.search import LEVELS, Info, Level, Limits, Result, Searcher

__all__ = ["LEVELS", "Info", "Level", "Limits", "Result", "Searcher", "evaluate"]
