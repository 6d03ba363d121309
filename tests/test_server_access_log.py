"""The access log line is uvicorn's own, written for less (server/http/access_log.py, issue
36), and ``randomchess serve`` uses it."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter as UvicornAccessFormatter

from randomchess.server.http.access_log import LOG_CONFIG, AccessFormatter

FORMAT = LOGGING_CONFIG["formatters"]["access"]["fmt"]


def _record(level: int, *args: Any) -> logging.LogRecord:
    return logging.LogRecord("uvicorn.access", level, __file__, 1,
                             '%s - "%s %s HTTP/%s" %d', args, None)


@pytest.mark.parametrize("colours", [False, True])
@pytest.mark.parametrize("args", [
    ("127.0.0.1:5000", "POST", "/api/games/abc/moves", "1.1", 200),
    ("[::1]:80", "GET", "/invite/...", "1.0", 404),
    ("10.0.0.1:1", "GET", "/?q=%20x", "1.1", 599),  # a code with no phrase
    ("10.0.0.1:1", "DELETE", "/", "2", 503),
])
@pytest.mark.parametrize("level", [logging.INFO, logging.WARNING, 5])
def test_the_line_is_uvicorns(colours: bool, args: tuple[Any, ...], level: int) -> None:
    ours = AccessFormatter(FORMAT, use_colors=colours)
    theirs = UvicornAccessFormatter(FORMAT, use_colors=colours)
    assert ours.direct is not colours
    assert ours.format(_record(level, *args)) == theirs.format(_record(level, *args))


def test_another_template_is_uvicorns_way() -> None:
    fmt = "%(asctime)s %(client_addr)s %(status_code)s"
    ours = AccessFormatter(fmt, use_colors=False)
    assert not ours.direct
    record = _record(logging.INFO, "1.2.3.4:5", "GET", "/", "1.1", 200)
    assert ours.format(record).endswith(" 1.2.3.4:5 200 OK")


def test_serve_logs_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from click.testing import CliRunner

    from randomchess.cli.serve import serve_command

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: seen.update(k))
    for name in ("RANDOMCHESS_DB_URL", "RANDOMCHESS_REDIS_URL", "RANDOMCHESS_STATIC_DIR"):
        monkeypatch.setenv(name, "")  # so that what serve sets is undone after the test
        monkeypatch.delenv(name)
    result = CliRunner().invoke(serve_command, ["--no-web", "--db", "sqlite:///x.sqlite3"])
    assert result.exit_code == 0, result.output
    assert seen["log_config"] is LOG_CONFIG
    formatter = LOG_CONFIG["formatters"]["access"]
    assert formatter["()"] == "randomchess.server.http.access_log.AccessFormatter"
    assert formatter["fmt"] == FORMAT
    assert {k: v for k, v in LOG_CONFIG.items() if k != "formatters"} == \
        {k: v for k, v in LOGGING_CONFIG.items() if k != "formatters"}
