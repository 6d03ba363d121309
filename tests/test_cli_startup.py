"""The arbiter's commands start fast (issue 29, "The arbiter's CLI"): a command imports only
what it uses, and a database at the newest revision is not handed to Alembic again.

CPU per command is measured by bench/cli_bench.py (not a timed test); these tests check the
causes: which modules a command loads, and when the migrations run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from randomchess.db import engine as db_engine
from randomchess.db import make_engine, migrate

SRC = Path(__file__).resolve().parents[1] / "src"

# Loaded by none of new/add-player/start/pair/result/standings/show: the migrations' tool
# (unless the database is behind), the PostgreSQL driver on SQLite, the server and its
# settings, the engine and the analysis, the PGN reader.
HEAVY = ("alembic", "psycopg", "pydantic", "pydantic_settings", "fastapi",
         "randomchess.server", "randomchess.engine", "randomchess.analysis",
         "randomchess.pgn", "randomchess.game")


def _modules_after(db: str, *commands: list[str], env: dict[str, str] | None = None) -> list[
        list[str]]:
    """Run each command in one fresh interpreter; the modules loaded after the last one."""
    script = (
        "import json, sys\n"
        "from randomchess.cli import main\n"
        f"for words in {list(commands)!r}:\n"
        "    try:\n"
        "        main(words, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(SRC),
                                           **(env or {})})
    return [json.loads(done.stdout.splitlines()[-1])]


def _loaded(modules: list[str], prefix: str) -> bool:
    return any(m == prefix or m.startswith(prefix + ".") for m in modules)


def test_head_revision_is_alembics_head() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(db_engine.MIGRATIONS))
    assert db_engine.head_revision() == ScriptDirectory.from_config(cfg).get_current_head()


def test_a_database_at_head_is_only_read(tmp_path: Path) -> None:
    """Alembic runs for a new database and for one behind the newest revision; a database
    at the newest revision costs one SELECT (and no Alembic import)."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    engine = make_engine(url)
    try:
        assert db_engine.current_revision(engine) is None
        migrate(engine)
        assert db_engine.current_revision(engine) == db_engine.head_revision()
    finally:
        engine.dispose()
    script = ("import sys\n"
              "from randomchess.db import make_engine, migrate\n"
              f"migrate(make_engine({url!r}))\n"
              "print('alembic' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": str(SRC)}).stdout
    assert out.split() == ["False"]
    # A database behind: Alembic upgrades it (the check is per database version).  The
    # newest migration is undone (whichever it is), so the test holds as migrations are added.
    engine = make_engine(url)
    try:
        schema_at_head = _schema(engine)
        _downgrade_one(engine)
        assert db_engine.current_revision(engine) != db_engine.head_revision()
        assert _schema(engine) != schema_at_head
        migrate(engine)
        assert db_engine.current_revision(engine) == db_engine.head_revision()
        assert _schema(engine) == schema_at_head
    finally:
        engine.dispose()


def _schema(engine: Any) -> dict[str, list[str]]:
    """Every table's columns, as SQLite lists them, and whether it is WITHOUT ROWID (a
    migration may change only that: 0027)."""
    with engine.connect() as conn:
        tables = [(r[0], "WITHOUT ROWID" in (r[1] or "").upper()) for r in conn.execute(text(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"))]
        return {t: sorted(r[1] for r in conn.execute(text(f"PRAGMA table_info({t})")))
                + (["(without rowid)"] if bare else []) for t, bare in tables}


def _downgrade_one(engine: Any) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(db_engine.MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "-1")


def test_the_arbiters_commands_load_no_heavy_module(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    t = ["tournament", "--db", db]
    setup = [[*t, "new", "Fast", "--rounds", "3"],
             *[[*t, "add-player", "Fast", f"P{i}", "--rating", str(2000 - i)]
               for i in range(4)],
             [*t, "start", "Fast"]]
    _modules_after(db, *setup)  # the database is created (Alembic runs here)
    for command in (["pair", "Fast"], ["result", "Fast", "1", "1", "1-0"],
                    ["result", "Fast", "1", "2", "1/2"], ["standings", "Fast"],
                    ["show", "Fast"], ["list"]):
        (modules,) = _modules_after(db, [*t, *command])
        assert "randomchess.cli.tournament" in modules
        heavy = [h for h in HEAVY if _loaded(modules, h)]
        assert heavy == [], (command, heavy)
        if command[0] == "result":
            assert not _loaded(modules, "rich"), "result prints one line: no rich"


def test_the_default_database_is_the_servers(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's default database (randomchess.db, without the server's settings)
    is the server's default file."""
    from randomchess.server.http.settings import default_db_url as servers

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert db_engine.default_db_url() == servers()
    assert str(tmp_path) in servers()


def test_the_command_groups_load_on_demand() -> None:
    from click.testing import CliRunner

    from randomchess.cli import main

    out = CliRunner().invoke(main, ["--help"]).output
    for name in ("analyse", "draw", "perft", "pgn", "serve", "setups", "tournament", "uci",
                 "worker", "workers", "play", "match", "demo"):
        assert f"  {name} " in out
    assert CliRunner().invoke(main, ["nosuch"]).exit_code == 2
