"""The edition of FIDE's tie-break regulations an event's tiebreaks follow (issue 29): the
text in force from 1 March 2026 (``2026``, the default of new events) or the 2023/2024 text
(``2023``).  Events that exist when this migration runs were computed under the 2023 text
and keep it, so no published standings change.

Revision ID: 0007
Revises: 0006 (0006_correspondence)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("tiebreak_edition", sa.String(8), nullable=False,
                                   server_default="2026"))
    op.execute("UPDATE tournaments SET tiebreak_edition = '2023'")


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("tiebreak_edition")
