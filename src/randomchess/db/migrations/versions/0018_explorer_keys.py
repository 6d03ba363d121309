"""The explorer keyed by a position hash, with speed classes and rating bands (issue 33).

``explorer_moves.position`` becomes the position's 64-bit key in hex (explorer/counts.py)
instead of its FEN, which the import spent half its time writing; every count is kept apart
by the game's speed class and rating band (filters), with the sum of the players' mean
ratings (the average rating of a move).  ``explorer_games`` and ``explorer_links`` keep the
games behind the counts (players, result, date; a link per position and move), for the list
of games behind a move; ``explorer_evals`` the engine's evaluations of positions.  The rows
of 0014 are carried over, their keys
recomputed from their FENs, with no speed ("") and no band (-1).  A downgrade cannot turn a
hash back into a FEN: it empties the counts and marks every import as not started.

Revision ID: 0018
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision: str | None = "0020"
branch_labels = None
depends_on = None


def _new_table(name: str) -> None:
    op.create_table(
        name,
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("position", sa.String(16), primary_key=True),
        sa.Column("source", sa.String(40), primary_key=True),
        sa.Column("speed", sa.String(16), primary_key=True),
        sa.Column("band", sa.Integer, primary_key=True),
        sa.Column("move", sa.String(12), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("white_wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("black_wins", sa.Integer, nullable=False),
        sa.Column("rating_sum", sa.BigInteger, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
    )


def upgrade() -> None:
    from randomchess.explorer.counts import position_key
    from randomchess.position import Position

    _new_table("explorer_moves_0018")
    bind = op.get_bind()
    old = sa.table("explorer_moves", *(sa.column(c) for c in (
        "variant", "number", "position", "source", "move", "games", "white_wins", "draws",
        "black_wins")))
    new = sa.table("explorer_moves_0018", *(sa.column(c) for c in (
        "variant", "number", "position", "source", "speed", "band", "move", "games",
        "white_wins", "draws", "black_wins", "rating_sum", "rated")))
    summed: dict[tuple[str, int, str, str, str], list[int]] = {}
    keys: dict[tuple[str, str], str] = {}
    for r in bind.execute(sa.select(old)).mappings():
        fields = r["position"].split(" ")
        fen = " ".join([*fields[:4], "0", "1", *fields[4:]])
        k = keys.get((r["variant"], fen))
        if k is None:
            k = keys[(r["variant"], fen)] = position_key(Position(fen, r["variant"]))
        row = summed.setdefault((r["variant"], r["number"], k, r["source"], r["move"]),
                                [0, 0, 0, 0])
        for i, c in enumerate(("games", "white_wins", "draws", "black_wins")):
            row[i] += r[c]
    rows = [{"variant": v, "number": n, "position": p, "source": s, "speed": "", "band": -1,
             "move": m, "games": c[0], "white_wins": c[1], "draws": c[2], "black_wins": c[3],
             "rating_sum": 0, "rated": 0} for (v, n, p, s, m), c in summed.items()]
    if rows:
        bind.execute(new.insert(), rows)
    op.drop_table("explorer_moves")
    op.rename_table("explorer_moves_0018", "explorer_moves")
    op.create_table(
        "explorer_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("white", sa.String(100), nullable=False),
        sa.Column("black", sa.String(100), nullable=False),
        sa.Column("white_elo", sa.Integer),
        sa.Column("black_elo", sa.Integer),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("event", sa.String(100), nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("band", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(24)),
    )
    op.create_table(
        "explorer_links",
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("position", sa.String(16), primary_key=True),
        sa.Column("move", sa.String(12), primary_key=True),
        sa.Column("game", sa.Integer, sa.ForeignKey("explorer_games.id", ondelete="CASCADE"),
                  primary_key=True),
    )
    op.create_table(
        "explorer_evals",
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("position", sa.String(16), primary_key=True),
        sa.Column("cp", sa.Integer),
        sa.Column("mate", sa.Integer),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("engine", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("explorer_evals")
    op.drop_table("explorer_links")
    op.drop_table("explorer_games")
    op.drop_table("explorer_moves")
    op.create_table(
        "explorer_moves",
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("position", sa.String(160), primary_key=True),
        sa.Column("source", sa.String(40), primary_key=True),
        sa.Column("move", sa.String(12), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("white_wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("black_wins", sa.Integer, nullable=False),
    )
    op.execute("DELETE FROM explorer_imports")
