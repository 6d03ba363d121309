"""The games row has one definition, the ``games`` table of ``randomchess.db.schema``
(issue 27 item 1): ``server/games/row.py`` (the store's record and changes types) is
generated from it by build_support/games_row.py, and the checked-in file must be what the
generator writes today."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
import typing
from pathlib import Path
from types import ModuleType

from sqlalchemy import BigInteger, Column, Integer, MetaData, String, Table

from randomchess.db import schema
from randomchess.server.games.contract import GameStatus
from randomchess.server.games.store import GameChanges, GameRecord

ROOT = Path(__file__).resolve().parents[1]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "games_row", ROOT / "build_support" / "games_row.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("games_row", module)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def test_checked_in_row_types_are_current() -> None:
    current = (ROOT / "src" / "randomchess" / "server" / "games" / "row.py").read_text(
        encoding="utf-8")
    assert current == GEN.render(), ("src/randomchess/server/games/row.py is out of date: "
                                     "run python build_support/games_row.py")


def test_the_record_is_the_table() -> None:
    assert [f.name for f in dataclasses.fields(GameRecord)] == \
        [c.name for c in schema.games.columns]
    assert set(typing.get_type_hints(GameChanges)) == \
        {c.name for c in schema.games.columns} - {"id", "created_at"}


def test_a_new_column_is_one_line_in_the_table() -> None:
    """What a column added to the table becomes in the generated types: a typed field with
    a default (it follows the NOT NULL ones) and a key of the changes."""
    table = Table("games", MetaData(),
                  Column("id", String(24), primary_key=True),
                  Column("status", String(8), nullable=False, info={"python": "GameStatus"}),
                  Column("created_at", BigInteger, nullable=False, info={"set_once": True}),
                  Column("rounds", Integer))
    text = GEN.render(table)
    namespace: dict[str, typing.Any] = {}
    exec(compile(text, "row.py", "exec"), namespace)
    row, changes = namespace["GameRow"], namespace["GameChanges"]
    assert [f.name for f in dataclasses.fields(row)] == ["id", "status", "created_at",
                                                         "rounds"]
    assert row("g", GameStatus.PLAYING, 1).rounds is None
    assert "    rounds: int | None = None\n" in text
    assert "    status: GameStatus\n" in text
    assert set(changes.__annotations__) == {"status", "rounds"}
