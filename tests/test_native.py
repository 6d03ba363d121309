"""The modules compiled with mypyc (build_support/native.py, randomchess.native).

The set-up (``make``) compiles geometry, pieces, fen, position, san, pgn, the engine's
evaluate, endgame and search, and the opening explorer's counts and quick reader; the whole
suite then runs against the compiled build.  These tests check that it is in use, that it
plays, counts, writes and reads SAN and PGN exactly as the pure-Python source does, and that
a stale build never shadows an edited source.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from native_fingerprint import fingerprint
from randomchess import native

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("geometry", "pieces", "fen", "position", "san", "pgn", "engine.evaluate",
           "engine.endgame", "engine.search", "explorer.counts", "explorer.reader")
PURE = os.environ.get("RANDOMCHESS_NATIVE", "").lower() in ("off", "0", "no")


@pytest.mark.skipif(PURE, reason="RANDOMCHESS_NATIVE=off asks for pure Python")
def test_the_compiled_modules_are_the_ones_imported() -> None:
    assert native.ACTIVE, f"{native.STATUS}: run `make native`"
    for name in MODULES:
        module = sys.modules.get(f"randomchess.{name}") or __import__(
            f"randomchess.{name}", fromlist=["_"])
        path = str(module.__file__)
        assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), path
        assert "_compiled" in path


def test_compiled_and_pure_python_search_count_and_evaluate_alike() -> None:
    here = fingerprint()
    env = {**os.environ, "RANDOMCHESS_NATIVE": "off"}
    out = subprocess.run([sys.executable, "tests/native_fingerprint.py"], cwd=ROOT,
                         env=env, capture_output=True, text=True, check=True).stdout
    pure = json.loads(out)
    assert pure.pop("compiled") is False
    assert here.pop("compiled") is native.ACTIVE
    assert pure["fens"] == here["fens"]
    assert pure["perft"] == here["perft"]
    assert pure["see"] == here["see"]
    assert pure["evaluate"] == here["evaluate"]
    assert pure["search"] == here["search"]  # same move, score, depth and node count
    assert here["perft"][0] == 97862  # kiwipete, depth 3


def _package_copy(tmp_path: Path) -> Path:
    """A package folder with a stamp for its sources (the status check reads nothing else)."""
    package = tmp_path / "randomchess"
    (package / "engine").mkdir(parents=True)
    (package / "_compiled").mkdir()
    sha = {}
    for module in ("position", "engine/search"):
        src = ROOT / "src" / "randomchess" / f"{module}.py"
        shutil.copy(src, package / f"{module}.py")
        sha[module] = hashlib.sha256(src.read_bytes()).hexdigest()
    stamp = {"suffix": importlib.machinery.EXTENSION_SUFFIXES[0], "sha256": sha}
    (package / "_compiled" / "stamp.json").write_text(json.dumps(stamp))
    return package


def test_a_stale_build_never_shadows_an_edited_source(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RANDOMCHESS_NATIVE", raising=False)
    package = _package_copy(tmp_path)
    folder, why = native.status(package)
    assert folder == package / "_compiled", why
    with open(package / "engine" / "search.py", "a") as f:
        f.write("# an edit\n")
    folder, why = native.status(package)
    assert folder is None
    assert "engine/search.py changed" in why


def test_no_build_another_interpreter_or_off_mean_pure_python(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RANDOMCHESS_NATIVE", raising=False)
    package = _package_copy(tmp_path)
    monkeypatch.setenv("RANDOMCHESS_NATIVE", "off")
    assert native.status(package) == (None, "pure Python (RANDOMCHESS_NATIVE=off)")
    monkeypatch.delenv("RANDOMCHESS_NATIVE")
    stamp = package / "_compiled" / "stamp.json"
    data = json.loads(stamp.read_text())
    stamp.write_text(json.dumps({**data, "suffix": ".cpython-27-x86_64-linux-gnu.so"}))
    folder, why = native.status(package)
    assert folder is None and "another interpreter" in why
    stamp.unlink()
    folder, why = native.status(package)
    assert folder is None and "not compiled" in why
    assert native.prepend(["x"]) == ([str(native.FOLDER), "x"] if native.ACTIVE else ["x"])
