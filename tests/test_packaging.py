"""Packaging (issue 13): ``randomchess --version``, ``randomchess serve`` refusing to start
without the built front end, and the build backend that puts the front end into every wheel
and sdist (build_support/backend.py).  CI (.ci/check_package.sh) builds the sdist and the
wheel, installs the wheel into a clean venv and checks the board renders in chromium."""

from __future__ import annotations

import importlib.util
import os
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


def _backend(tmp_path: Path) -> ModuleType:
    """The build backend, pointed at a copy of the tree's layout in ``tmp_path``."""
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
