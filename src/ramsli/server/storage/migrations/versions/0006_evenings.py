"""Club evenings and tournaments (issue 34): ``evenings``, ``evening_log``, and ``seasons.best_of``.

- ``evenings``: one row per evening — its club (or none), its director (the player who made it),
  its spec as JSON (name, date, preset, format, rounds, ...), when it was made and when it starts
  (seconds since the epoch; ``starts`` indexed: a club's next evening), its status (``open``,
  ``running``, ``closed``; the log decides it, the column finds the running ones), and its secret
  as JSON (the round seeds not yet opened, the tables' creator and seat tokens): never sent.
- ``evening_log``: the evening's stored director and check-in actions, ``(evening, seq)`` unique,
  each with when (``at``), who (``by``, a player id or NULL) and its kind and data (JSON). An
  append is optimistic: two processes writing the same ``seq`` cannot both succeed.
- ``seasons.best_of``: a season scored as "best N of M evenings" (NULL: every session counts).
- ``clubs.calendar_key``: the key in the link of the club's calendar feed (made when first asked
  for; a calendar app fetches the feed without a login).

Adds tables and one nullable column only: a database of the previous release upgrades with every
table, ledger, club and record as it was.

Revision ID: 0006_evenings
Revises: 0005_kind_and_running
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_evenings"
down_revision = "0005_kind_and_running"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "evenings",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=True, index=True),
        sa.Column("director", sa.String(24), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("starts", sa.Float, nullable=False, index=True),
        sa.Column("status", sa.String(8), nullable=False, index=True),
        sa.Column("secret", sa.Text, nullable=False),
    )
    op.create_table(
        "evening_log",
        sa.Column("evening_id", sa.String(24), sa.ForeignKey("evenings.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("by", sa.String(24), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(sa.Column("best_of", sa.Integer, nullable=True))
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(sa.Column("calendar_key", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("calendar_key")
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("best_of")
    op.drop_table("evening_log")
    op.drop_table("evenings")
