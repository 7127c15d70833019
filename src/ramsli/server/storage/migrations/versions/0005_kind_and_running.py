"""What a stored row is, and the running tables found by an index.

- ``tables.kind``: ``table`` (a card table) or ``ledger`` (a pub ledger, whose spec says
  ``"kind": "ledger"``), indexed: the ledgers are found without reading every spec. Filled in here
  for the rows already stored (one pass over the specs that mention a ledger at all, each then
  read as JSON); a new row gets it from :meth:`~ramsli.server.storage.eventstore.EventStore.create_table`.
- ``ix_tables_running`` on ``(finished, closed)``: start-up finds the running tables (both NULL)
  without reading the finished ones.

Revision ID: 0005_kind_and_running
Revises: 0004_players_clubs
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0005_kind_and_running"
down_revision = "0004_players_clubs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="table"))
    conn = op.get_bind()
    maybe = conn.execute(sa.text("SELECT id, spec FROM tables WHERE spec LIKE '%ledger%'")).all()
    ledgers = []
    for table_id, spec in maybe:
        try:
            if json.loads(spec).get("kind") == "ledger":
                ledgers.append(table_id)
        except (TypeError, ValueError, AttributeError):
            continue  # a damaged spec stays a table (it is reported broken when read)
    for table_id in ledgers:
        conn.execute(sa.text("UPDATE tables SET kind = 'ledger' WHERE id = :id"), {"id": table_id})
    op.create_index("ix_tables_kind", "tables", ["kind"])
    op.create_index("ix_tables_running", "tables", ["finished", "closed"])


def downgrade() -> None:
    op.drop_index("ix_tables_running", "tables")
    op.drop_index("ix_tables_kind", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("kind")
