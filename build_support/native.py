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
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "randomchess"
OUT = PACKAGE / "_compiled"
# The hot path: geometry and pieces (tables), position (move generation, push/pop) and the
# engine's evaluation and search.  Keep in step with the Makefile's NATIVE_SOURCES and
# tests/test_native.py's MODULES.
MODULES = (
    "geometry",
    "pieces",
    "position",
    "engine/evaluate",
    "engine/endgame",
    "engine/search",
)
GROUP = "randomchess.native"  # the shared library: randomchess/native__mypyc.*.so


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(jobs: int) -> None:
    import mypy.version
    from mypyc.build import mypycify
    from setuptools import setup

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    with tempfile.TemporaryDirectory(prefix="randomchess-native-") as tmp:
        work = Path(tmp)
        here = Path.cwd()
        os.chdir(SRC)  # mypycify names modules by their paths from here
        try:
            extensions = mypycify(
                [f"randomchess/{m}.py" for m in MODULES],
                group_name=GROUP,
                target_dir=str(work / "c"),
                opt_level="3",
            )
            setup(
                name="randomchess-native",
                ext_modules=extensions,
                script_args=["-q", "build_ext", "--build-lib", str(work / "lib"),
                             "--build-temp", str(work / "tmp"), "-j", str(jobs)],
            )
        finally:
            os.chdir(here)
        built = work / "lib" / "randomchess"
        if OUT.exists():
            shutil.rmtree(OUT)
        for so in built.rglob(f"*{suffix}"):
            target = OUT / so.relative_to(built)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(so, target)
    stamp = {
        "suffix": suffix,
        "python": sys.version.split()[0],
        "mypy": mypy.version.__version__,
        "sha256": {m: digest(PACKAGE / f"{m}.py") for m in MODULES},
    }
    (OUT / "stamp.json").write_text(json.dumps(stamp, indent=1) + "\n")
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
