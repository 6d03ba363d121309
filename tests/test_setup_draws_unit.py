"""Unit tests of the draws that are no seek's (issue 32, server/games/commit.py): a friend
game's draw bound at once and pending until its value; a computer game's draw opened first,
taken once, lapsing after an hour; what the setup-draw answer and the PGN show of each."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, insert, update

from randomchess.db import make_engine, migrate, now_ms, schema
from randomchess.fairdraw import game_commitment, game_setup
from randomchess.server.games import commit
from randomchess.server.http.errors import ApiError


class FakeAccounts:
    """What commit.py needs of the accounts' store: an engine and its one writer."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn


@pytest.fixture
def accounts(tmp_path: Path) -> FakeAccounts:
    engine = make_engine(f"sqlite:///{tmp_path / 'draws.sqlite3'}")
    migrate(engine)
    return FakeAccounts(engine)


def game(accounts: FakeAccounts) -> str:
    """A games row for a draw to be bound to (the foreign key)."""
    gid = secrets.token_urlsafe(9)
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    now = now_ms()
    with accounts._write() as conn:
        conn.execute(insert(schema.games).values(
            id=gid, variant="chess960", number=None, start_fen=fen, fen=fen, moves="", san="",
            clock_log="", status="waiting", opponent="friend", version=0, created_at=now,
            updated_at=now))
    return gid


def test_a_friend_games_draw_is_pending_until_its_value(accounts: FakeAccounts) -> None:
    gid = game(accounts)
    draw_id, commitment = commit.open_draw(accounts, "chess960", gid)
    assert draw_id.startswith(commit.DRAW_PREFIX) and len(draw_id) <= 16
    pending = commit.pending_of_game(accounts, gid)
    assert pending is not None and pending["commitment"] == commitment
    shown: dict[str, Any] | None = commit.draw_of_game(accounts, gid)
    assert shown is not None and shown["revealed"] is False and "server_seed" not in shown
    assert commit.pgn_tags(shown) == {}  # nothing in the PGN before the value
    assert commit.open_row(accounts, draw_id) is None  # not a computer game's draw
    value = secrets.token_hex(16)
    row = commit.claim(accounts, draw_id, value)
    assert row is not None and game_commitment(bytes.fromhex(row["server_seed"])) == commitment
    assert commit.pending_of_game(accounts, gid) is None
    shown = commit.draw_of_game(accounts, gid)
    assert shown is not None and shown["revealed"] is True
    assert shown["number"] == game_setup(bytes.fromhex(row["server_seed"]), value,
                                         "chess960").number == commit.drawn_number(row, value)
    assert commit.pgn_tags(shown)["SetupClientValue"] == value
    with pytest.raises(ApiError) as e:  # late
        commit.claim(accounts, draw_id, secrets.token_hex(16))
    assert e.value.code == "fairdraw.revealed"
    commit.unclaim_draw(accounts, draw_id)  # a refused join gives it back
    assert commit.pending_of_game(accounts, gid) is not None


def test_a_computer_games_draw_is_taken_once_and_lapses(accounts: FakeAccounts) -> None:
    draw_id, _ = commit.open_draw(accounts, "mrc")
    row = commit.open_row(accounts, draw_id)
    assert row is not None and row["variant"] == "mrc" and row["game_id"] is None
    assert commit.open_row(accounts, "nosuchdraw") is None  # a seek's id is never one
    value = secrets.token_hex(16)
    assert commit.claim(accounts, draw_id, value) is not None
    commit.bind_game(accounts, draw_id, game(accounts))
    used = commit.open_row(accounts, draw_id)
    assert used is not None and used["claimed_at"] is not None  # claim() refuses it: late
    other, _ = commit.open_draw(accounts, "mrc")
    with pytest.raises(ApiError) as e:  # the same value again
        commit.claim(accounts, other, value)
    assert e.value.code == "fairdraw.replayed"
    # An hour later an unused draw is gone, and the next draw opened deletes it.
    with accounts._write() as conn:
        conn.execute(update(schema.setup_commitments)
                     .where(schema.setup_commitments.c.seek_id == other)
                     .values(created_at=now_ms() - commit.DRAW_TTL_MS - 1))
    assert commit.open_row(accounts, other) is None
    commit.open_draw(accounts, "mrc")
    with accounts.engine.connect() as conn:
        ids = {r.seek_id for r in conn.execute(schema.setup_commitments.select())}
    assert other not in ids and draw_id in ids  # a used draw stays with its game
