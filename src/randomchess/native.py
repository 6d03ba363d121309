"""Whether the compiled modules are in use, and where they are (build_support/native.py).

The hot modules (geometry, pieces, fen, position, san, pgn and the engine's evaluate, endgame
and search) can be compiled by mypyc into ``randomchess/_compiled/``.  The package and
:mod:`randomchess.engine` put that folder ahead of their own on their ``__path__`` only when
its ``stamp.json`` matches the running interpreter and the SHA-256 of every source it was
built from, so a stale build never shadows an edited module.  ``RANDOMCHESS_NATIVE=off``
turns them off.  Standard library only: this runs before the rules core is imported.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def status(package: Path = PACKAGE) -> tuple[Path | None, str]:
    """The folder of compiled modules to use (``None``: pure Python) and why."""
    if os.environ.get("RANDOMCHESS_NATIVE", "auto").strip().lower() in ("off", "0", "no"):
        return None, "pure Python (RANDOMCHESS_NATIVE=off)"
    folder = package / "_compiled"
    try:
        stamp = json.loads((folder / "stamp.json").read_text())
        suffix = stamp["suffix"]
        sources: dict[str, str] = stamp["sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, "pure Python (not compiled: make native)"
    if suffix not in importlib.machinery.EXTENSION_SUFFIXES:
        return None, f"pure Python (compiled for another interpreter: {suffix})"
    for module, digest in sources.items():
        try:
            now = hashlib.sha256((package / f"{module}.py").read_bytes()).hexdigest()
        except OSError:
            now = ""
        if now != digest:
            return None, f"pure Python (randomchess/{module}.py changed since it was compiled)"
    return folder, "compiled (mypyc)"


FOLDER, STATUS = status()
ACTIVE = FOLDER is not None


def prepend(path: list[str], sub: str = "") -> list[str]:
    """A package's ``__path__`` with the compiled modules' folder first when they are used."""
    if FOLDER is None:
        return path
    return [str(FOLDER / sub), *path]
