"""Hosting: tables an admin closed, and several server processes on one database.

``tables.closed``: when an admin closed a table (it is never restored again). ``owners``: which
process runs a table now (the process holds a PostgreSQL advisory lock on ``lock_key``; the row
only says where to find it). ``processes``: the live server processes and the address their peers
forward to. ``settings``: the cluster's values (the forwarding secret).

Revision ID: 0002_hosting
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_hosting"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("closed", sa.Float, nullable=True))
    op.create_table(
        "owners",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("process", sa.String(40), nullable=False),
        sa.Column("lock_key", sa.BigInteger, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "processes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("address", sa.String(300), nullable=False),
        sa.Column("lock_key", sa.BigInteger, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_table(
        "settings",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("settings")
    op.drop_table("processes")
    op.drop_table("owners")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("closed")
