"""Ratings by consent (issue 38.11): ``seat_links.confirmed``.

- ``seat_links.confirmed``: when the member named at a seat of a club's ledger confirmed the
  session from their own login (seconds since the epoch; NULL: not yet). A ledger session is rated
  only when every named member confirmed, within 7 days of its end.

Adds one nullable column; every seat linked before this release counts as confirmed when it was
linked, so a database of the previous release keeps every record and rating as it was.

Revision ID: 0007_ledger_consent
Revises: 0006_evenings
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_ledger_consent"
down_revision = "0006_evenings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_links") as batch:
        batch.add_column(sa.Column("confirmed", sa.Float, nullable=True))
    op.execute("UPDATE seat_links SET confirmed = linked")


def downgrade() -> None:
    with op.batch_alter_table("seat_links") as batch:
        batch.drop_column("confirmed")
