"""Compile the move generator and the engine with mypyc: the same Python, three times as fast.

    .venv/bin/python build_support/native.py          # build (the Makefile's set-up does it)
    .venv/bin/python build_support/native.py --clean  # remove the build: pure Python again

mypyc (part of mypy, MIT) turns the typed modules listed in ``MODULES`` into C extensions.
They are written to ``src/randomchess/_compiled/`` with ``stamp.json``, the SHA-256 of every
source it compiled.  ``randomchess.native`` puts that folder ahead of the ``.py`` files only
while every one of those sources is unchanged and the interpreter is the one built for, so an
edited module runs as the Python it is until the next build (``make`` rebuilds when a source
changes).  ``RANDOMCHESS_NATIVE=off`` runs pure Python anyway.  The source stays the one
truth: ruff and mypy check it, and tests/test_native.py plays the same searches and perfts
both ways and compares them.  Without a C compiler the build fails and the package runs as
pure Python; nothing else changes.

The wheel (build_support/backend.py, setup.py) compiles the same modules with the same
``BuildCompiled`` command into the wheel's ``randomchess/_compiled/``, stamp included, so an
installed platform wheel runs compiled (``randomchess.native.ACTIVE``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "randomchess"
OUT = PACKAGE / "_compiled"
# The hot path: geometry and pieces (tables), position (move generation, push/pop), FEN, SAN
# and PGN (issue 36: reading and writing games), the engine's evaluation and search, and the
# opening explorer's import (issue 33: the quick reader's loop over a game's moves, the tally).  Keep in step with the Makefile's NATIVE_SOURCES and
# tests/test_native.py's MODULES.
MODULES = (
    "geometry",
    "pieces",
    "fen",
    "position",
    "san",
    "pgn",
    "engine/evaluate",
    "engine/endgame",
    "engine/search",
    "explorer/counts",
    "explorer/reader",
)
GROUP = "randomchess.native"  # the shared library: randomchess/native__mypyc.*.so


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiler_problem() -> str | None:
    """Why this machine cannot compile the modules (no C compiler, no Python headers), or
    None.  A compiler that is there but fails still fails the build (the backend falls back)."""
    if os.name != "nt":  # on Windows setuptools finds MSVC itself
        cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
        if shutil.which(cc) is None:
            return f"no C compiler ({cc} is not on the PATH)"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.is_file():
        return f"no Python headers ({header} is missing; Debian: apt-get install python3-dev)"
    return None


def extensions(target_dir: Path) -> list[Any]:
    """The mypyc extensions: one shared library (``GROUP``) and a small one per module."""
    from mypyc.build import mypycify

    here = Path.cwd()
    os.chdir(SRC)  # mypycify names modules by their paths from here
    try:
        return list(mypycify([f"randomchess/{m}.py" for m in MODULES], group_name=GROUP,
                             target_dir=str(target_dir), opt_level="3"))
    finally:
        os.chdir(here)


def stamp() -> dict[str, Any]:
    """What ``randomchess.native`` checks before it uses the compiled modules."""
    import mypy.version

    return {
        "suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
        "python": sys.version.split()[0],
        "mypy": mypy.version.__version__,
        "sha256": {m: digest(PACKAGE / f"{m}.py") for m in MODULES},
    }


class BuildCompiled(build_ext):
    """``build_ext`` that writes every compiled module under ``randomchess/_compiled/`` (not
    beside its ``.py``, which stays the pure-Python fallback) and the stamp with them."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def get_ext_fullpath(self, ext_name: str) -> str:
        path = Path(super().get_ext_fullpath(ext_name))
        top = len(path.parts) - 1 - path.parts[::-1].index("randomchess")
        return str(Path(*path.parts[:top + 1], "_compiled", *path.parts[top + 1:]))

    def run(self) -> None:
        super().run()
        out = Path(self.get_ext_fullpath("randomchess.geometry")).parent
        (out / "stamp.json").write_text(json.dumps(stamp(), indent=1) + "\n")


def setup_options() -> dict[str, Any]:
    """setup()'s arguments for a platform wheel with the compiled modules (setup.py)."""
    return {"ext_modules": extensions(ROOT / "build" / "mypyc"),
            "cmdclass": {"build_ext": BuildCompiled}}


def build(jobs: int) -> None:
    from setuptools import setup

    with tempfile.TemporaryDirectory(prefix="randomchess-native-") as tmp:
        work = Path(tmp)
        setup(
            name="randomchess-native",
            ext_modules=extensions(work / "c"),
            cmdclass={"build_ext": BuildCompiled},
            script_args=["-q", "build_ext", "--build-lib", str(work / "lib"),
                         "--build-temp", str(work / "tmp"), "-j", str(jobs)],
        )
        if OUT.exists():
            shutil.rmtree(OUT)
        shutil.copytree(work / "lib" / "randomchess" / "_compiled", OUT)
    print(f"compiled {len(MODULES)} modules into {OUT.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.clean:
        shutil.rmtree(OUT, ignore_errors=True)
        print(f"removed {OUT.relative_to(ROOT)}")
        return
    build(args.jobs)


if __name__ == "__main__":
    main()
