"""Skill counters by consent (issue 35 item 4): ``players.skill_opt_in`` and ``skill_hands``.

- ``players.skill_opt_in``: the person chose to have their skill counters measured and shown
  (false by default; a database of the previous release keeps everyone out).
- ``skill_hands``: per player, table and hand, the skill counters of the seat the player played
  (:class:`ramsli.coach.skill.HandSkill`: skill, deal value, net, decisions valued): counters and
  counts only, never a card (R7).

Adds one column with a default and one table: a database of the previous release upgrades with
everything as it was.

Revision ID: 0009_skill
Revises: 0008_challenge
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_skill"
down_revision = "0008_challenge"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (SQLite and PostgreSQL): a batch copy of ``players`` would drop the table that
    # other tables' foreign keys point at, which SQLite refuses once players have rows
    op.add_column("players", sa.Column("skill_opt_in", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "skill_hands",
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("club_id", sa.String(24), nullable=True),
        sa.Column("measured", sa.Float, nullable=False),
        sa.Column("skill", sa.Float, nullable=False),
        sa.Column("deal_value", sa.Float, nullable=False),
        sa.Column("net", sa.Integer, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
    )
    op.create_index("ix_skill_hands_table", "skill_hands", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_skill_hands_table", table_name="skill_hands")
    op.drop_table("skill_hands")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("skill_opt_in")
