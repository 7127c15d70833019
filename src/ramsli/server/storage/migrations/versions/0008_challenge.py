"""The weekly challenge (issue 35 item 3): ``challenge_weeks`` and ``challenge_tries``.

- ``challenge_weeks``: per challenge (``scope``: ``server`` or a club's id) and ISO week, the
  deals (a secret: every card, salts, bots' seeds; never sent), table size, preset, lot key, and
  when its results were settled.
- ``challenge_tries``: per player and deal of a week, the table, the seat's personal token, when
  it started and ended, its public outcome (no card) or ``void``; one row per (scope, week, deal,
  player): a second try cannot be stored.

Adds tables only: a database of the previous release upgrades with everything as it was.

Revision ID: 0008_challenge
Revises: 0007_ledger_consent
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_challenge"
down_revision = "0007_ledger_consent"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_weeks",
        sa.Column("scope", sa.String(24), primary_key=True),
        sa.Column("week", sa.String(8), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("settled", sa.Float, nullable=True),
    )
    op.create_table(
        "challenge_tries",
        sa.Column("scope", sa.String(24), primary_key=True),
        sa.Column("week", sa.String(8), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("void", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("outcome", sa.Text, nullable=True),
    )
    op.create_index("ix_challenge_tries_player", "challenge_tries", ["player_id", "scope"])


def downgrade() -> None:
    op.drop_index("ix_challenge_tries_player", table_name="challenge_tries")
    op.drop_table("challenge_tries")
    op.drop_table("challenge_weeks")
