"""The tie-break edition of an event is stored with it (issue 29, item 4): new events follow
FIDE's regulations in force from 1 March 2026 unless the organiser keeps the 2023/2024 text;
events that existed before the column keep the 2023 text they were computed with."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from randomchess.db import make_engine, migrate
from randomchess.db.engine import MIGRATIONS
from randomchess.tournament.errors import TournamentError
from randomchess.tournament.store import TournamentStore
from server_support import client


def test_existing_events_keep_the_2023_text_and_new_ones_follow_2026(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
        conn.execute(text(
            "INSERT INTO tournaments (id, name, variant, system, rounds, time_control, "
            "tiebreaks, setup_policy, mini_match, exclude_standard, bishops, no_repeat, "
            "initial_colour, salt, commitment, status, version, created_at) VALUES "
            "('old1', 'Old Open', 'chess960', 'swiss', 5, '', 'BH-C1,BH,SB', 'round', false, "
            "false, 'any', false, 'white', :salt, :c, 'registration', 0, 0)"),
            {"salt": b"\0" * 32, "c": "0" * 64})
    migrate(engine)
    store = TournamentStore(engine)
    assert store.load("old1").event.tiebreak_edition == "2023"
    assert store.create("New Open", rounds=5).event.tiebreak_edition == "2026"
    kept = store.create("Kept Open", rounds=5, tiebreak_edition="2023").event
    assert store.load(kept.id).event.tiebreak_edition == "2023"
    with pytest.raises(TournamentError, match="edition"):
        store.create("Bad Open", rounds=5, tiebreak_edition="1999")
    engine.dispose()


def test_the_api_takes_and_shows_the_edition(tmp_path: Path) -> None:
    with client(f"sqlite:///{tmp_path / 'games.sqlite3'}") as c:
        r = c.post("/api/tournaments", json={"name": "A", "rounds": 3,
                                             "tiebreak_edition": "2023"})
        assert r.status_code == 201, r.text
        assert c.get(f"/api/tournaments/{r.json()['id']}").json()["tiebreak_edition"] == "2023"
        r = c.post("/api/tournaments", json={"name": "B", "rounds": 3})
        assert c.get(f"/api/tournaments/{r.json()['id']}").json()["tiebreak_edition"] == "2026"
        bad = c.post("/api/tournaments", json={"name": "C", "rounds": 3,
                                               "tiebreak_edition": "1999"})
        assert bad.status_code == 422


def test_the_command_line_sets_the_edition(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from randomchess.cli import main

    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    runner = CliRunner()
    out = runner.invoke(main, ["tournament", "--db", db, "new", "Club", "--rounds", "3",
                               "--tiebreak-edition", "2023"])
    assert out.exit_code == 0, out.output
    assert "tiebreak-edition=2023" in out.output
    out = runner.invoke(main, ["tournament", "--db", db, "new", "Club 2", "--rounds", "3"])
    assert "tiebreak-edition=2026" in out.output
    bad = runner.invoke(main, ["tournament", "--db", db, "new", "Club 3", "--rounds", "3",
                               "--tiebreak-edition", "1999"])
    assert bad.exit_code != 0
