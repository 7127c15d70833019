"""Finished tables: ``tables.finished``, when the table's session ended (seconds since the epoch).

A finished table is not replayed at start-up; it is read from the database when someone asks for
it (its page, score sheet, download). NULL: still running, or finished but not yet seen so (the
next start-up replays it once and fills it in).

Revision ID: 0003_finished
Revises: 0002_hosting
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_finished"
down_revision = "0002_hosting"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("finished", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("finished")
