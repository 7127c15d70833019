"""Players, logins, clubs, memberships, invites, seasons, open tables, seat links, session records, ratings.

Revision ID: 0004_players_clubs
Revises: 0003_finished

Adds tables only: the ``tables`` and ``events`` of revision 0001 (card tables and pub ledgers) are
left exactly as they are, so a database of the previous release upgrades without losing a table
or a ledger. A table or ledger without a row in ``table_links`` is private and linked to no club,
which is what every table was before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_players_clubs"
down_revision = "0003_finished"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("name_key", sa.String(256), nullable=True, unique=True),
        sa.Column("password", sa.Text, nullable=True),
        sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
    )
    op.create_table(
        "logins",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("agent", sa.String(120), nullable=False, server_default=""),
    )
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(24), sa.ForeignKey("players.id"), nullable=True),
    )
    op.create_table(
        "memberships",
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        "club_invites",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=False, index=True),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(24), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("revoked", sa.Float, nullable=True),
        sa.Column("uses", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "seasons",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=False, index=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("starts", sa.String(10), nullable=False),
        sa.Column("ends", sa.String(10), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "table_links",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=True, index=True),
        sa.Column("creator_id", sa.String(24), sa.ForeignKey("players.id"), nullable=True),
    )
    op.create_table(
        "seat_links",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("linked", sa.Float, nullable=False),
        sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "session_records",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=True, index=True),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("scope", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("sessions", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "ratings",
        "session_records",
        "seat_links",
        "table_links",
        "seasons",
        "club_invites",
        "memberships",
        "clubs",
        "logins",
        "players",
    ):
        op.drop_table(name)
