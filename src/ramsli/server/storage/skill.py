"""The skill counters' rows (issue 35 item 4, migration ``0009_skill``): ``skill_hands``.

One row per player, table and hand: the skill counters of the seat that player played in that hand
(:class:`ramsli.coach.skill.HandSkill`, measured in the background by
:class:`ramsli.server.clubs.skill.SkillService`): ``skill`` (counters the decisions gained
against the expert, luck taken out), ``deal_value`` (the dealt position's expected counters),
``net`` (the counters the hand brought), ``decisions`` (decisions valued), the seat (0-based), the
table's club (None for a table of no club) and when it was measured. Counters and counts only:
never a card (R7). A player's summary (:class:`~ramsli.coach.skill.SkillSummary`) is computed from
their rows (:func:`summary_of`), so it is never out of step with them.

Every method is one committed transaction on the store's engine (SQLite and PostgreSQL alike);
nothing here checks a request or a consent (:mod:`ramsli.server.clubs.skill` does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ramsli.coach.skill import SkillSummary
from ramsli.server.storage.directory import players_t
from ramsli.server.storage.eventstore import metadata

__all__ = ["SkillRows", "skill_hands_t", "summary_of", "FIELDS"]

#: the measured numbers of a row (besides player, table, hand, seat, club, measured)
FIELDS = ("skill", "deal_value", "net", "decisions")

skill_hands_t = sa.Table(
    "skill_hands",
    metadata,
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
    sa.Index("ix_skill_hands_table", "table_id"),
)


def summary_of(rows: Iterable[dict[str, Any]]) -> SkillSummary:
    """The :class:`~ramsli.coach.skill.SkillSummary` of stored rows (sums of skill, net and
    ``net − deal_value`` and their squares; hands and decisions counted).

    >>> s = summary_of([{"skill": 1.0, "deal_value": 0.5, "net": 2, "decisions": 3},
    ...                 {"skill": -1.0, "deal_value": -0.5, "net": -1, "decisions": 2}])
    >>> s.hands, s.decisions, s.mean, s.net()[0], s.corrected()[0]
    (2, 5, 0.0, 0.5, 0.5)
    """
    hands = decisions = 0
    sk = sk2 = n = n2 = c = c2 = 0.0
    for r in rows:
        hands += 1
        decisions += int(r["decisions"])
        s, net, corr = float(r["skill"]), float(r["net"]), float(r["net"]) - float(r["deal_value"])
        sk, sk2, n, n2, c, c2 = sk + s, sk2 + s * s, n + net, n2 + net * net, c + corr, c2 + corr * corr
    return SkillSummary(hands, decisions, sk, sk2, n, n2, c, c2)


class SkillRows:
    """The ``skill_hands`` rows on an open store's engine (``EventStore.engine``); every method commits."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def put(self, row: dict[str, Any]) -> bool:
        """Store one hand's measure (``player_id, table_id, hand, seat, club_id, measured`` and
        :data:`FIELDS`); False (nothing changed) if that player's hand of that table is stored already."""
        async with self.engine.begin() as conn:
            key = (
                (skill_hands_t.c.player_id == row["player_id"])
                & (skill_hands_t.c.table_id == row["table_id"])
                & (skill_hands_t.c.hand == row["hand"])
            )
            if (await conn.execute(sa.select(skill_hands_t.c.hand).where(key))).first() is not None:
                return False
            await conn.execute(skill_hands_t.insert().values(**row))
        return True

    async def of_player(self, pid: str, club: str | None = None) -> list[dict[str, Any]]:
        """``pid``'s rows (of one club's tables when ``club``), oldest measured first."""
        q = sa.select(skill_hands_t).where(skill_hands_t.c.player_id == pid)
        if club is not None:
            q = q.where(skill_hands_t.c.club_id == club)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q.order_by(skill_hands_t.c.measured, skill_hands_t.c.table_id))).all()
        return [dict(r._mapping) for r in rows]

    async def of_tables(self, tables: Sequence[str]) -> list[dict[str, Any]]:
        """The rows of these tables (every player's)."""
        if not tables:
            return []
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(sa.select(skill_hands_t).where(skill_hands_t.c.table_id.in_(list(tables))))
            ).all()
        return [dict(r._mapping) for r in rows]

    async def all(self, club: str | None = None) -> list[dict[str, Any]]:
        """Every row (of one club's tables when ``club``)."""
        q = sa.select(skill_hands_t)
        if club is not None:
            q = q.where(skill_hands_t.c.club_id == club)
        async with self.engine.connect() as conn:
            return [dict(r._mapping) for r in (await conn.execute(q)).all()]

    async def measured(self, table_id: str) -> set[tuple[str, int]]:
        """``(player, hand)`` of every row of ``table_id``."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(skill_hands_t.c.player_id, skill_hands_t.c.hand).where(
                        skill_hands_t.c.table_id == table_id
                    )
                )
            ).all()
        return {(r.player_id, r.hand) for r in rows}

    async def forget(self, pid: str) -> int:
        """Remove every row of ``pid`` (the player opted out or was deleted); how many."""
        async with self.engine.begin() as conn:
            r = await conn.execute(skill_hands_t.delete().where(skill_hands_t.c.player_id == pid))
        return int(r.rowcount or 0)

    async def opted_in(self) -> list[str]:
        """The ids of the persons (not deleted) who opted in to skill counters."""
        q = sa.select(players_t.c.id).where(
            players_t.c.skill_opt_in.is_(True) & players_t.c.deleted.is_(None) & (players_t.c.kind == "person")
        )
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(q.order_by(players_t.c.id))).all()]
