"""Setup evaluations (the batch of ``randomchess setups evaluate``) and a tournament's
evaluation band.

Revision ID: 0005
Revises: 0004 (0004_accounts)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "setup_evaluations",
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("engine", sa.String(40), primary_key=True),
        sa.Column("depth", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("cp", sa.Integer, nullable=True),
        sa.Column("mate", sa.Integer, nullable=True),
        sa.Column("best", sa.String(16), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    with op.batch_alter_table("tournaments") as batch:
        # Only setups whose evaluation lies within ±eval_band centipawns are drawn, from the
        # evaluation set whose digest is eval_digest (both NULL: no band).
        batch.add_column(sa.Column("eval_band", sa.Integer, nullable=True))
        batch.add_column(sa.Column("eval_digest", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("eval_digest")
        batch.drop_column("eval_band")
    op.drop_table("setup_evaluations")
