"""One schema, one door (issue 27, part 1): every table is declared once in
``randomchess.db.schema`` on one ``MetaData``, and the Alembic migrations build exactly it.

Alembic's autogenerate comparison (what ``alembic revision --autogenerate`` would propose)
must find **no** difference between a database migrated to head and the schema, on SQLite
and on PostgreSQL.  Before this package existed Alembic was given only the games table's
``MetaData`` and would have proposed dropping the accounts, tournament, review and
evaluation tables.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from randomchess.db import make_engine, metadata, migrate
from server_support import database

SRC = Path(__file__).resolve().parents[1] / "src" / "randomchess"


def _differences(url: str) -> list[Any]:
    engine = make_engine(url)
    try:
        migrate(engine)
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True,
                                                         "compare_server_default": True})
            return list(compare_metadata(ctx, metadata))
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migrations_build_exactly_the_schema(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        assert _differences(url) == []


def test_the_comparison_sees_a_table_the_migrations_lack(tmp_path: Path) -> None:
    """The check above can fail: a table declared but never migrated is reported."""
    from sqlalchemy import Column, Integer, Table

    extra = Table("not_migrated", metadata, Column("id", Integer, primary_key=True))
    try:
        diffs = _differences(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    finally:
        metadata.remove(extra)
    assert [d[0] for d in diffs] == ["add_table"]
    assert diffs[0][1].name == "not_migrated"


def test_every_table_of_the_database_is_in_the_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'all.sqlite3'}"
    engine = make_engine(url)
    try:
        migrate(engine)
        names = set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()
    assert names == set(metadata.tables)
    assert {"games", "users", "tournaments", "game_reviews", "setup_evaluations"} <= names


def test_no_module_outside_the_db_package_declares_a_table() -> None:
    """One ``MetaData`` and one declaration of each table: no ``Table(``, ``MetaData(`` or
    declarative base anywhere else in the package."""
    offenders = []
    for path in SRC.rglob("*.py"):
        if "db" in path.relative_to(SRC).parts[:1] or "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        uses_sqlalchemy = any(
            isinstance(n, ast.ImportFrom) and (n.module or "").startswith("sqlalchemy")
            for n in ast.walk(tree))
        if not uses_sqlalchemy:
            continue  # rich's Table is a table too
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                    getattr(node.func, "id", "")
                if name in {"Table", "MetaData"}:
                    offenders.append(f"{path.relative_to(SRC)}:{node.lineno} {name}(")
            if isinstance(node, ast.ClassDef) and any(
                    getattr(b, "id", "") == "DeclarativeBase" for b in node.bases):
                offenders.append(f"{path.relative_to(SRC)}:{node.lineno} DeclarativeBase")
    assert offenders == []
