"""Migration 0018 (issue 33): the explorer's rows of 0014, keyed by FEN, are carried over
keyed by the position hash (rows that meet on one key summed), with no speed and no band, on
SQLite and PostgreSQL; the new tables come; a downgrade empties the counts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine

from randomchess.db.engine import MIGRATIONS
from randomchess.explorer.counts import position_key
from randomchess.explorer.store import ExplorerStore
from randomchess.position import Position
from server_support import database

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    with database(request.param, tmp_path) as url:
        e = create_engine(url)
        yield e
        e.dispose()


def _alembic(engine: Engine, action: str, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        getattr(command, action)(cfg, revision)


def _old_key(fen: str) -> str:
    fields = fen.split(" ")
    return " ".join(fields[:4] + fields[6:])


def test_0018_rekeys_the_counts_of_0014(engine: Engine) -> None:
    _alembic(engine, "upgrade", "0014")
    rows = [
        ("chess960", 518, _old_key(START), "server", "e2e4", 3, 1, 1, 1),
        ("chess960", 518, _old_key(START), "club", "e2e4", 2, 2, 0, 0),
        ("chess960", 518, _old_key(START), "server", "d2d4", 1, 0, 0, 1),
        ("chess960", 518, _old_key(E4), "server", "e7e5", 2, 1, 0, 1),
    ]
    with engine.begin() as conn:
        for r in rows:
            conn.execute(text(
                "INSERT INTO explorer_moves (variant, number, position, source, move, games, "
                "white_wins, draws, black_wins) VALUES (:v, :n, :p, :s, :m, :g, :w, :d, :b)"),
                dict(zip("vnpsmgwdb", r, strict=True)))
    _alembic(engine, "upgrade", "0018")
    assert {"explorer_games", "explorer_links"} <= set(inspect(engine).get_table_names())
    store = ExplorerStore(engine)
    start = position_key(Position(START, "chess960"))
    got = {m["move"]: (m["games"], m["white_wins"], m["draws"], m["black_wins"],
                       m["average_rating"])
           for m in store.moves("chess960", 518, start)}
    assert got == {"e2e4": (5, 3, 1, 1, None), "d2d4": (1, 0, 0, 1, None)}
    assert [m["games"] for m in store.moves("chess960", 518, start, ["club"])] == [2]
    after = store.moves("chess960", 518, position_key(Position(E4, "chess960")))
    assert [(m["move"], m["games"]) for m in after] == [("e7e5", 2)]
    with engine.connect() as conn:
        assert set(conn.execute(text("SELECT DISTINCT speed, band FROM explorer_moves"))) == \
            {("", -1)}
    _alembic(engine, "downgrade", "0014")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM explorer_moves")).scalar() == 0


def _table_sql(engine: Engine, name: str) -> str:
    with engine.connect() as conn:
        return str(conn.execute(text("SELECT sql FROM sqlite_master WHERE type = 'table' "
                                     "AND name = :n"), {"n": name}).scalar())


def test_0027_makes_the_count_tables_without_rowid_on_sqlite_keeping_the_rows(
        engine: Engine) -> None:
    """SQLite: ``explorer_moves`` and ``explorer_links`` become WITHOUT ROWID tables (the
    primary key is the table: one B-tree written per row instead of two; issue 33), their
    rows kept, and back on a downgrade; PostgreSQL's tables stay as they are."""
    _alembic(engine, "upgrade", "0026")
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO explorer_moves (variant, number, position, source, speed, band, move, "
            "games, white_wins, draws, black_wins, rating_sum, rated) VALUES "
            "('chess960', 518, '00000000000000ff', 'server', '', -1, 'e2e4', 3, 1, 1, 1, 0, 0)"))
        gid = conn.execute(text(
            "INSERT INTO explorer_games (source, variant, number, white, black, result, date, "
            "event, speed, band) VALUES ('server', 'chess960', 518, 'a', 'b', '1-0', '', '', "
            "'', -1) RETURNING id")).scalar()
        conn.execute(text("INSERT INTO explorer_links VALUES "
                          "('chess960', 518, '00000000000000ff', 'e2e4', :g)"), {"g": gid})
    rows = {}
    with engine.connect() as conn:
        for name in ("explorer_moves", "explorer_links"):
            rows[name] = conn.execute(text(f"SELECT * FROM {name}")).all()
    sqlite = engine.dialect.name == "sqlite"
    for revision, without in (("0027", sqlite), ("0026", False), ("0027", sqlite)):
        _alembic(engine, "upgrade" if revision == "0027" else "downgrade", revision)
        with engine.connect() as conn:
            for name in ("explorer_moves", "explorer_links"):
                assert conn.execute(text(f"SELECT * FROM {name}")).all() == rows[name]
        if sqlite:
            for name in ("explorer_moves", "explorer_links"):
                assert _table_sql(engine, name).rstrip().endswith("WITHOUT ROWID") == without
    if sqlite:
        with engine.connect() as conn:  # the link still cascades from its game
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            conn.execute(text("DELETE FROM explorer_games"))
            assert conn.execute(text("SELECT COUNT(*) FROM explorer_links")).scalar() == 0
            conn.commit()
