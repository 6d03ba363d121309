"""Check an installed compiled wheel (issue 36): run with the installed package's Python,
outside the source tree.

    python tests/wheel_check.py

It asserts that ``randomchess.native`` uses the compiled modules, that every hot module is
imported from ``randomchess/_compiled/`` as an extension, and that they count, evaluate and
search exactly as the installed pure Python does (``tests/native_fingerprint.py`` here and
in a ``RANDOMCHESS_NATIVE=off`` process).  CI's packaging check (.ci/check_package.sh) and
cibuildwheel's ``test-command`` (pyproject.toml) run it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from native_fingerprint import fingerprint
from randomchess import native

MODULES = ("geometry", "pieces", "fen", "position", "san", "pgn", "engine.evaluate",
           "engine.endgame", "engine.search", "explorer.counts", "explorer.reader")


def main() -> None:
    assert native.ACTIVE, f"the installed wheel runs {native.STATUS}"
    for name in MODULES:
        path = importlib.import_module(f"randomchess.{name}").__file__ or ""
        assert "_compiled" in path, path
        assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), path
    started = time.perf_counter()
    compiled = fingerprint()
    compiled_s = time.perf_counter() - started
    started = time.perf_counter()
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("native_fingerprint.py"))],
                         env={**os.environ, "RANDOMCHESS_NATIVE": "off"}, capture_output=True,
                         text=True, check=True).stdout
    pure_s = time.perf_counter() - started
    pure = json.loads(out)
    assert compiled.pop("compiled") is True and pure.pop("compiled") is False
    for key in pure:  # perft, evaluate, see, fens, search (move, score, depth, nodes)
        assert compiled[key] == pure[key], f"the compiled and the pure-Python {key} differ"
    nodes = sum(s[3] for s in compiled["search"])
    print(f"installed wheel: {native.STATUS} from {native.FOLDER}; the same perft "
          f"{compiled['perft']}, {len(compiled['evaluate'])} evaluations and "
          f"{len(compiled['search'])} searches ({nodes} nodes) as pure Python; "
          f"{compiled_s:.2f} s compiled, {pure_s:.2f} s pure (process included)")


if __name__ == "__main__":
    main()
