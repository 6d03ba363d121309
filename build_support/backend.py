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

A wheel is a platform wheel with the hot modules compiled by mypyc (build_support/native.py,
as black and mypy ship theirs) when the machine has a C compiler and the Python headers: the
backend then asks for mypy as a build requirement and setup.py adds the extensions.  Without
them, or when the compiled build fails, it says so and builds the pure-Python wheel (correct,
the engine about three times slower).  ``RANDOMCHESS_PURE_WHEEL=1`` builds the pure wheel
on purpose (``py3-none-any``, for any platform).
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
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

import native  # build_support/native.py: backend-path puts it on sys.path

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


COMPILE = "RANDOMCHESS_COMPILE_WHEEL"  # read by setup.py
MYPY = "mypy>=1.10"  # mypyc, as in the dev dependencies


def _pure_wheel_reason() -> str | None:
    """Why the wheel will be pure Python, or None: it will be compiled."""
    if os.environ.get("RANDOMCHESS_PURE_WHEEL") == "1":
        return "RANDOMCHESS_PURE_WHEEL=1"
    return native.compiler_problem()


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    return requires if _pure_wheel_reason() else [*requires, MYPY]


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    ensure_front_end()
    why = _pure_wheel_reason()
    if why is None:
        try:
            import mypyc.build  # noqa: F401
        except ImportError:
            why = f"mypyc is not installed ({MYPY} in the build environment)"
    if why is None:
        print("randomchess build: compiling the move generator and the engine with mypyc "
              "(a platform wheel)")
        os.environ[COMPILE] = "1"
        try:
            return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
        except (Exception, SystemExit) as exc:  # setuptools reports a failed compile as exit
            why = f"the mypyc build failed ({str(exc)[:200]}...; see above)"
        finally:
            del os.environ[COMPILE]
    print(f"randomchess build: {why}: building the PURE-PYTHON wheel, which runs the engine "
          "about three times slower. Install a C compiler and the Python headers (Debian: "
          "apt-get install build-essential python3-dev) for the compiled one.", flush=True)
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    ensure_front_end()
    return _setuptools.build_sdist(sdist_directory, config_settings)
