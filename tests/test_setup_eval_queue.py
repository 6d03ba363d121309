"""The setup-evaluation batch spread over the engine workers of the Redis queue (issue 17):
``randomchess setups evaluate --redis URL`` gives each setup to a worker, stores each score
as it comes (so it resumes like the local run), and the scores are the local run's."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from click.testing import CliRunner

from randomchess.cli import main
from test_engine_queue import REDIS, _need_redis, workers


def _export(db: str, tmp: Path, name: str) -> dict[int, list[object]]:
    out = tmp / name
    r = CliRunner().invoke(main, ["setups", "export", "--variant", "mrc", "--db", db, "-o",
                                  str(out), "--partial"])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    items = data.get("items") or data.get("evaluations") or data.get("setups")
    assert items, data.keys()
    return {int(row[0]): row for row in items}


def test_setups_are_spread_over_the_workers_stored_and_equal_to_a_local_run(
        tmp_path: Path) -> None:
    _need_redis()
    queue = f"test-{secrets.token_hex(4)}"
    db = f"sqlite:///{tmp_path / 'queued.db'}"
    args = ["setups", "evaluate", "--variant", "mrc", "--depth", "2", "--engine",
            "randomchess", "--db", db, "-q"]
    with workers(2, queue, tmp_path):
        r = CliRunner().invoke(main, [*args, "--to", "5", "-j", "4", "--redis", REDIS,
                                      "--queue", queue])
        assert r.exit_code == 0, r.output
        assert "6 setup(s) evaluated now, 6/15120" in r.output
        again = CliRunner().invoke(main, [*args, "--to", "7", "-j", "4", "--redis", REDIS,
                                          "--queue", queue])
        assert again.exit_code == 0, again.output
        assert "2 setup(s) evaluated now, 8/15120" in again.output  # resumed: 6 and 7
    log = "".join(p.read_text() for p in tmp_path.glob("worker*.log"))
    ran = [line for line in log.splitlines() if "ran setup job" in line]
    assert len(ran) == 8
    assert len({line.split(" worker ")[1].split()[0] for line in ran}) == 2, ran
    local = f"sqlite:///{tmp_path / 'local.db'}"
    r = CliRunner().invoke(main, [*args[:-3], "--db", local, "-q", "--to", "7"])
    assert r.exit_code == 0, r.output
    assert _export(db, tmp_path, "q.json") == _export(local, tmp_path, "l.json")


def test_without_workers_the_queued_batch_says_so(tmp_path: Path) -> None:
    _need_redis()
    r = CliRunner().invoke(main, ["setups", "evaluate", "--variant", "chess960", "--depth",
                                  "1", "--engine", "randomchess", "--db",
                                  f"sqlite:///{tmp_path / 'e.db'}", "-q", "--to", "1",
                                  "--redis", REDIS, "--queue",
                                  f"test-{secrets.token_hex(4)}"])
    assert r.exit_code != 0 and "no engine worker is connected" in r.output, r.output
