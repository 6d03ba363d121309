"""The setup preview before the clocks run (issue 32): ``games.preview_ms`` (its length),
``games.preview_until`` (the epoch ms it ends, so a restarted server re-arms it) and
``games.preview_ready`` (who declared ready); ``seeks.preview_s``, the length a seek asked for.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision: str | None = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("preview_ms", sa.Integer, nullable=True))
        batch.add_column(sa.Column("preview_until", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("preview_ready", sa.String(5), nullable=True))
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("preview_s", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("preview_s")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("preview_ready")
        batch.drop_column("preview_until")
        batch.drop_column("preview_ms")
