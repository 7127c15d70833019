"""The weekly challenge's rows (issue 35 item 3, migration ``0008_challenge``).

- ``challenge_weeks``: one row per challenge (``scope``: ``server`` or a club's id) and week
  (``2026-W49``): when it was made, its table size and preset, its secret (the deals: every card,
  their salts and the bots' seeds, :class:`ramsli.evening.duplicate.DealPlan` data — never sent),
  its lot key, and when its results were settled after the close (NULL before).
- ``challenge_tries``: one row per player and deal of a week: the table it is played at, the
  seat's personal token (sent to that player only), when it started, when its hand was found
  over (NULL while it plays) and its public outcome (JSON of a
  :class:`~ramsli.evening.duplicate.DealTable`'s seats: no card), and ``void`` when the week closed
  before its hand ended (it does not count). ``(scope, week, deal, player)`` is the primary key:
  a second try cannot be stored.

Every method is one committed transaction on the store's engine (SQLite and PostgreSQL alike);
nothing here checks a request (:mod:`ramsli.server.challenge.service` does).
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ramsli.server.storage.eventstore import metadata

__all__ = ["ChallengeRows", "TryTaken", "challenge_weeks_t", "challenge_tries_t"]

challenge_weeks_t = sa.Table(
    "challenge_weeks",
    metadata,
    sa.Column("scope", sa.String(24), primary_key=True),
    sa.Column("week", sa.String(8), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("key", sa.String(64), nullable=False),
    sa.Column("secret", sa.Text, nullable=False),
    sa.Column("settled", sa.Float, nullable=True),
)
challenge_tries_t = sa.Table(
    "challenge_tries",
    metadata,
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
    sa.Index("ix_challenge_tries_player", "player_id", "scope"),
)


class TryTaken(Exception):
    """A try of that player at that deal is stored already (a second try)."""


def _try(r: Any) -> dict[str, Any]:
    d = dict(r._mapping)
    d["outcome"] = None if d["outcome"] is None else json.loads(d["outcome"])
    return d


class ChallengeRows:
    """The challenge's rows on an open store's engine (``EventStore.engine``); every method commits."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def week(self, scope: str, week: str) -> dict[str, Any] | None:
        """The week's row (``secret`` decoded), or None."""
        async with self.engine.connect() as conn:
            r = (
                await conn.execute(
                    sa.select(challenge_weeks_t).where(
                        challenge_weeks_t.c.scope == scope, challenge_weeks_t.c.week == week
                    )
                )
            ).first()
        if r is None:
            return None
        d = dict(r._mapping)
        d["secret"] = json.loads(d["secret"])
        return d

    async def add_week(self, scope: str, week: str, row: dict[str, Any]) -> bool:
        """Store a new week (``{"created", "size", "preset", "key", "secret"}``); False (nothing
        written) if another request or process stored it first."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    challenge_weeks_t.insert().values(
                        scope=scope,
                        week=week,
                        created=row["created"],
                        size=row["size"],
                        preset=row["preset"],
                        key=row["key"],
                        secret=json.dumps(row["secret"]),
                    )
                )
        except sa.exc.IntegrityError:
            return False
        return True

    async def settle_week(self, scope: str, week: str, now: float) -> None:
        """Note that the week's results are settled (every try finished or void)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                challenge_weeks_t.update()
                .where(challenge_weeks_t.c.scope == scope, challenge_weeks_t.c.week == week)
                .values(settled=now)
            )

    async def add_try(
        self, scope: str, week: str, deal: int, player: str, table_id: str, token: str, now: float
    ) -> None:
        """Store a new try.

        Raises:
            TryTaken: that player has a try at that deal already.
        """
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    challenge_tries_t.insert().values(
                        scope=scope,
                        week=week,
                        deal=deal,
                        player_id=player,
                        table_id=table_id,
                        token=token,
                        started=now,
                    )
                )
        except sa.exc.IntegrityError:
            raise TryTaken from None

    async def tries(
        self, scope: str, week: str, player: str | None = None, deal: int | None = None
    ) -> list[dict[str, Any]]:
        """The week's tries (of ``player``, of ``deal`` only when given), by deal and start."""
        q = sa.select(challenge_tries_t).where(challenge_tries_t.c.scope == scope, challenge_tries_t.c.week == week)
        if player is not None:
            q = q.where(challenge_tries_t.c.player_id == player)
        if deal is not None:
            q = q.where(challenge_tries_t.c.deal == deal)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q.order_by(challenge_tries_t.c.deal, challenge_tries_t.c.started))).all()
        return [_try(r) for r in rows]

    async def finish_try(
        self, scope: str, week: str, deal: int, player: str, now: float, outcome: dict[str, Any] | None
    ) -> None:
        """Note a try's end: its public ``outcome``, or None for a void try (the week closed first)."""
        values: dict[str, Any] = {"finished": now}
        if outcome is None:
            values["void"] = True
        else:
            values["outcome"] = json.dumps(outcome)
        async with self.engine.begin() as conn:
            await conn.execute(
                challenge_tries_t.update()
                .where(
                    challenge_tries_t.c.scope == scope,
                    challenge_tries_t.c.week == week,
                    challenge_tries_t.c.deal == deal,
                    challenge_tries_t.c.player_id == player,
                    challenge_tries_t.c.finished.is_(None),
                )
                .values(**values)
            )

    async def of_player(self, player: str) -> list[dict[str, Any]]:
        """Every try of ``player`` in every challenge (``GET /api/me/data``), without the seat's
        token: ``{"scope", "week", "deal", "table_id", "started", "finished", "void", "outcome"}``,
        by week and deal."""
        c = challenge_tries_t.c
        q = (
            sa.select(c.scope, c.week, c.deal, c.table_id, c.started, c.finished, c.void, c.outcome)
            .where(c.player_id == player)
            .order_by(c.week, c.scope, c.deal)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [_try(r) for r in rows]

    async def forget_player(self, player: str, now: float) -> None:
        """A deleted player's tries (``DELETE /api/me``): the seat tokens are removed and a try still
        playing is void; the finished ones stay (the field and ranking show them as "a player")."""
        c = challenge_tries_t.c
        async with self.engine.begin() as conn:
            await conn.execute(
                challenge_tries_t.update()
                .where(c.player_id == player, c.finished.is_(None))
                .values(finished=now, void=True)
            )
            await conn.execute(challenge_tries_t.update().where(c.player_id == player).values(token=""))

    async def weeks_played(self, scope: str, player: str) -> set[str]:
        """The weeks in which ``player`` has a counted try (finished, not void)."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(challenge_tries_t.c.week)
                    .where(
                        challenge_tries_t.c.scope == scope,
                        challenge_tries_t.c.player_id == player,
                        challenge_tries_t.c.outcome.is_not(None),
                    )
                    .distinct()
                )
            ).all()
        return {r.week for r in rows}
