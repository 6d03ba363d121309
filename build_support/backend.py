"""The build backend: setuptools, plus the web front end in every wheel and sdist.

``pip install .``, ``python -m build`` and ``pip wheel .`` call this backend.  Before a wheel
or an sdist is made it checks that the built front end (``src/randomchess/web/static/build``,
made by ``web/build.mjs``) is there and newer than its sources; when it is missing or stale
and npm is on the PATH it runs ``npm ci`` (once) and ``npm run build`` in ``web/``.  Without
npm a missing bundle stops the build with the way to get one: a wheel without the front end
would install a server that cannot show its page.  ``RANDOMCHESS_BUILD_WITHOUT_WEB=1`` builds
without it anyway (the library, the engine and the API still work; ``randomchess serve``
then says the page is missing).  An sdist carries the built bundle and ``web/``, so a wheel
built from it needs no Node.  Editable installs (``pip install -e .``, the Makefile's set-up)
skip the check: ``make web`` builds the bundle beside them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401 - the backend's other hooks, unchanged
    build_editable,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
BUILD = ROOT / "src" / "randomchess" / "web" / "static" / "build"
BUNDLE = (BUILD / "app.js", BUILD / "app.css")


def _sources() -> list[Path]:
    if not WEB.is_dir():
        return []
    out = [WEB / "build.mjs", WEB / "package.json", WEB / "package-lock.json"]
    out += [p for p in (WEB / "src").rglob("*") if p.is_file()]
    return [p for p in out if p.exists()]


def _stale() -> str | None:
    """Why the bundle must be (re)built, or None when it is there and up to date."""
    missing = [p for p in BUNDLE if not p.is_file()]
    if missing:
        return f"{missing[0].relative_to(ROOT)} is missing"
    built = min(p.stat().st_mtime for p in BUNDLE)
    newer = [p for p in _sources() if p.stat().st_mtime > built]
    if newer:
        return f"{newer[0].relative_to(ROOT)} is newer than the bundle"
    return None


def ensure_front_end() -> None:
    why = _stale()
    if why is None:
        return
    npm = shutil.which("npm")
    if npm is None or not (WEB / "package.json").is_file():
        if not any(not p.is_file() for p in BUNDLE):
            print(f"randomchess build: {why}, but npm is not installed: packaging the "
                  "bundle as it is")
            return
        if os.environ.get("RANDOMCHESS_BUILD_WITHOUT_WEB") == "1":
            print("randomchess build: WITHOUT the web front end (RANDOMCHESS_BUILD_WITHOUT_WEB=1)")
            return
        raise RuntimeError(
            f"randomchess: the web front end is not built ({why}) and npm is not installed. "
            "Install Node.js >= 20 with npm and run `make web` (or `cd web && npm ci && "
            "npm run build`), or install from a released wheel or sdist, which carry it. "
            "RANDOMCHESS_BUILD_WITHOUT_WEB=1 builds without the front end.")
    print(f"randomchess build: {why}: building the web front end with npm")
    if not (WEB / "node_modules" / ".package-lock.json").is_file():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WEB,
                       check=True)
    subprocess.run([npm, "run", "--silent", "build"], cwd=WEB, check=True)
    still = _stale()
    if still is not None:
        raise RuntimeError(f"randomchess: the web build ran but {still}")


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    ensure_front_end()
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    ensure_front_end()
    return _setuptools.build_sdist(sdist_directory, config_settings)
