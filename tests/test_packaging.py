"""Packaging (issue 13): ``randomchess --version``, ``randomchess serve`` refusing to start
without the built front end, and the build backend that puts the front end into every wheel
and sdist (build_support/backend.py).  CI (.ci/check_package.sh) builds the sdist and the
wheel, installs the wheel into a clean venv and checks the board renders in chromium.

Issue 36: the backend compiles the hot modules with mypyc into the wheel (a platform wheel)
when it can and falls back to the pure wheel with the reason; CI checks the installed wheel
runs compiled and agrees with pure Python.  The tests here check the decisions and the
layout without compiling."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import time
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from randomchess.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_version() -> None:
    r = CliRunner().invoke(main, ["--version"])
    assert r.exit_code == 0
    assert r.output.strip() == f"randomchess, version {version('randomchess')}"


def test_serve_refuses_to_start_without_the_front_end(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html>")  # a page, but no bundle
    r = CliRunner().invoke(main, ["serve", "--port", "1"],
                           env={"RANDOMCHESS_STATIC_DIR": str(tmp_path),
                                "RANDOMCHESS_DB_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}"})
    assert r.exit_code == 1
    assert "web front end is not built" in r.output and "make web" in r.output
    assert "--no-web" in r.output


def _backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch | None = None) -> ModuleType:
    """The build backend, pointed at a copy of the tree's layout in ``tmp_path``."""
    if monkeypatch is not None:
        monkeypatch.syspath_prepend(str(ROOT / "build_support"))  # as backend-path does
    elif str(ROOT / "build_support") not in sys.path:
        sys.path.insert(0, str(ROOT / "build_support"))
    spec = importlib.util.spec_from_file_location(
        "rc_backend", ROOT / "build_support" / "backend.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.ROOT = tmp_path
    mod.WEB = tmp_path / "web"
    mod.BUILD = tmp_path / "src" / "randomchess" / "web" / "static" / "build"
    mod.BUNDLE = (mod.BUILD / "app.js", mod.BUILD / "app.css")
    (mod.WEB / "src").mkdir(parents=True)
    (mod.WEB / "src" / "main.js").write_text("import './style.css';\n")
    (mod.WEB / "package.json").write_text("{}")
    return mod


def test_build_without_npm_or_bundle_stops_with_the_way_to_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # no npm
    monkeypatch.delenv("RANDOMCHESS_BUILD_WITHOUT_WEB", raising=False)
    with pytest.raises(RuntimeError, match="make web"):
        backend.ensure_front_end()
    monkeypatch.setenv("RANDOMCHESS_BUILD_WITHOUT_WEB", "1")
    backend.ensure_front_end()  # the explicit escape hatch


def test_build_runs_npm_when_the_bundle_is_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend(tmp_path)
    backend.BUILD.mkdir(parents=True)
    for p in backend.BUNDLE:
        p.write_text("built")
        os.utime(p, (time.time() - 100, time.time() - 100))  # older than web/src
    (backend.WEB / "node_modules").mkdir()
    (backend.WEB / "node_modules" / ".package-lock.json").write_text("{}")
    # A stand-in npm that records its arguments and "builds" the bundle.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path}/npm.log\n"
                   f"/usr/bin/touch {backend.BUNDLE[0]} {backend.BUNDLE[1]}\n")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert "newer than the bundle" in backend._stale()
    backend.ensure_front_end()
    assert (tmp_path / "npm.log").read_text().split("\n")[0] == "run --silent build"
    assert backend._stale() is None
    backend.ensure_front_end()  # up to date: npm is not run again
    assert len((tmp_path / "npm.log").read_text().splitlines()) == 1


def test_sdist_manifest_carries_the_web_sources_and_the_bundle() -> None:
    manifest = (ROOT / "MANIFEST.in").read_text().splitlines()
    assert "graft web" in manifest and "prune web/node_modules" in manifest
    assert "graft src/randomchess/web/static" in manifest
    assert "include build_support/backend.py" in manifest


def test_a_wheel_is_compiled_only_with_a_compiler_and_mypy_is_then_a_build_requirement(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend(tmp_path, monkeypatch)
    monkeypatch.delenv("RANDOMCHESS_PURE_WHEEL", raising=False)
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    why = backend._pure_wheel_reason()
    assert why is not None and "no C compiler" in why and "no-such-cc" in why
    assert not any(r.startswith("mypy") for r in backend.get_requires_for_build_wheel())
    monkeypatch.setattr(backend.native, "compiler_problem", lambda: None)
    assert backend._pure_wheel_reason() is None
    assert backend.MYPY in backend.get_requires_for_build_wheel()
    monkeypatch.setenv("RANDOMCHESS_PURE_WHEEL", "1")  # a py3-none-any wheel on purpose
    assert backend._pure_wheel_reason() == "RANDOMCHESS_PURE_WHEEL=1"
    assert backend.MYPY not in backend.get_requires_for_build_wheel()


def test_a_failed_compile_falls_back_to_the_pure_wheel_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    backend = _backend(tmp_path, monkeypatch)
    monkeypatch.delenv("RANDOMCHESS_PURE_WHEEL", raising=False)
    monkeypatch.delenv(backend.COMPILE, raising=False)
    monkeypatch.setattr(backend, "ensure_front_end", lambda: None)
    monkeypatch.setattr(backend.native, "compiler_problem", lambda: None)
    builds: list[str | None] = []

    def setuptools_build(*args: object) -> str:
        builds.append(os.environ.get(backend.COMPILE))
        if os.environ.get(backend.COMPILE) == "1":
            raise SystemExit("error: command 'gcc' failed with exit code 1")
        return "randomchess-0.1.0-py3-none-any.whl"

    monkeypatch.setattr(backend._setuptools, "build_wheel", setuptools_build)
    assert backend.build_wheel(str(tmp_path)) == "randomchess-0.1.0-py3-none-any.whl"
    assert builds == ["1", None]  # compiled first, then pure; the flag is not left behind
    out = capsys.readouterr().out
    assert "the mypyc build failed (error: command 'gcc' failed" in out
    assert "PURE-PYTHON wheel" in out and "python3-dev" in out
    # Compiled: one build, with setup.py's flag set only while it runs.
    builds.clear()
    monkeypatch.setattr(backend._setuptools, "build_wheel",
                        lambda *a: builds.append(os.environ.get(backend.COMPILE)) or "w.whl")
    assert backend.build_wheel(str(tmp_path)) == "w.whl"
    assert builds == ["1"] and backend.COMPILE not in os.environ


def test_the_compiled_modules_go_under_compiled_beside_their_sources(tmp_path: Path) -> None:
    if str(ROOT / "build_support") not in sys.path:
        sys.path.insert(0, str(ROOT / "build_support"))
    import native
    from setuptools import Distribution

    cmd = native.BuildCompiled(Distribution({"name": "randomchess"}))
    cmd.initialize_options()
    cmd.build_lib = str(tmp_path / "lib")
    cmd.finalize_options()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    package = tmp_path / "lib" / "randomchess"
    assert cmd.get_ext_fullpath("randomchess.engine.search") == str(
        package / "_compiled" / "engine" / f"search{suffix}")
    assert cmd.get_ext_fullpath("randomchess.native__mypyc") == str(
        package / "_compiled" / f"native__mypyc{suffix}")
    assert cmd.parallel  # compiled in parallel
