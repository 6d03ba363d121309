"""Server settings (docs/server.md): defaults, RANDOMCHESS_* variables, keyword overrides,
validated by pydantic-settings so a bad value stops the start with the variable's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from randomchess.server.http.settings import PACKAGE_STATIC_DIR, Settings


def test_defaults_variables_and_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RANDOMCHESS_DB_URL", "sqlite:////tmp/x.sqlite3")
    monkeypatch.setenv("RANDOMCHESS_ENGINE_WORKERS", "3")
    monkeypatch.setenv("RANDOMCHESS_DB_TIMEOUT_S", "2.5")
    monkeypatch.setenv("RANDOMCHESS_AUTOMATIC_DRAWS", "yes")
    s = Settings.from_env(engine_workers=None, redis_url="redis://127.0.0.1:6379")
    assert s.db_url == "sqlite:////tmp/x.sqlite3" and s.engine_workers == 3
    assert s.db_timeout_s == 2.5 and s.automatic_draws is True
    assert s.redis_url == "redis://127.0.0.1:6379"  # an override beats the environment
    assert s.static_dir == PACKAGE_STATIC_DIR and s.forwarded_allow_ips == ""


def test_empty_variables_mean_none_and_the_former_name_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RANDOMCHESS_STATIC_DIR", "")
    monkeypatch.setenv("RANDOMCHESS_REDIS_URL", "")
    monkeypatch.setenv("RANDOMCHESS_AUTO_THREEFOLD", "1")  # automatic_draws' former name
    s = Settings.from_env(db_url="sqlite:////tmp/y.sqlite3")
    assert s.static_dir is None and s.redis_url is None and s.automatic_draws is True
    monkeypatch.setenv("RANDOMCHESS_STATIC_DIR", "/srv/web")
    assert Settings.from_env(db_url="sqlite:////tmp/y.sqlite3").static_dir == Path("/srv/web")


@pytest.mark.parametrize(("name", "value"), [
    ("RANDOMCHESS_ENGINE_WORKERS", "many"), ("RANDOMCHESS_ENGINE_WORKERS", "0"),
    ("RANDOMCHESS_DB_TIMEOUT_S", "-1"), ("RANDOMCHESS_MAX_BODY_BYTES", "1e3x"),
    ("RANDOMCHESS_AUTOMATIC_DRAWS", "perhaps"), ("RANDOMCHESS_DEFAULT_LEVEL", "9"),
])
def test_bad_values_are_refused_naming_the_setting(monkeypatch: pytest.MonkeyPatch,
                                                   name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as e:
        Settings.from_env(db_url="sqlite:////tmp/z.sqlite3")
    assert name.removeprefix("RANDOMCHESS_").lower() in str(e.value).lower()


def test_with_changes_validates_and_keeps_the_rest() -> None:
    s = Settings.from_env(db_url="sqlite:////tmp/w.sqlite3")
    t = s.with_changes(static_dir=None, heartbeat_s=0.5)
    assert t.static_dir is None and t.heartbeat_s == 0.5 and t.db_url == s.db_url
    with pytest.raises(ValidationError):
        s.with_changes(heartbeat_s="soon")
    with pytest.raises(ValidationError):
        s.with_changes(no_such_setting=1)


def test_serve_names_a_bad_setting() -> None:
    from click.testing import CliRunner

    from randomchess.cli import main

    r = CliRunner().invoke(main, ["serve"], env={"RANDOMCHESS_DB_TIMEOUT_S": "soon"})
    assert r.exit_code == 1
    assert "bad server setting: RANDOMCHESS_DB_TIMEOUT_S" in r.output
