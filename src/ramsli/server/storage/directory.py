"""The server's directory of people: players, logins, clubs, seasons, table links, session records, ratings.

The rows live in the same database as the tables and their events
(:class:`~ramsli.server.storage.eventstore.EventStore`), made by the Alembic migration
``0004_players_clubs``; every method here is one committed transaction on the store's engine, so
it works alike on SQLite and PostgreSQL. Nothing here checks a request: :mod:`ramsli.server.players.accounts`,
:mod:`ramsli.server.clubs.clubs` and :mod:`ramsli.server.tables.lobby` decide what may be done and refuse the rest.

The rows:

- ``players``: a person (``kind`` ``person``: a name, its :func:`~ramsli.session.name_key`, an
  argon2id hash, ``listed`` = opted in to the server-wide ratings) or a bot (``kind`` ``bot``: one
  per bot level or spec, :func:`bot_key`). A deleted person keeps a row without name or hash, so
  past seats stay linked to "a former player" and other players' ratings stay what they were.
- ``logins``: one per logged-in browser (only a SHA-256 of its cookie is kept), with its expiry.
- ``clubs``, ``memberships`` (``owner`` or ``member``), ``club_invites`` (hashed link tokens,
  revocable), ``seasons`` (a name, first and last day, ISO dates).
- ``table_links``: a card table's or ledger's ``open`` flag, club and creating player;
  ``seat_links``: which player sat at which seat.
- ``session_records``: one finished session (a table or a ledger) summed up
  (:mod:`ramsli.server.players.records`); ``ratings``: each player's OpenSkill rating per scope
  (``server`` or a club id).
- ``evenings`` and ``evening_log`` (migration ``0006_evenings``): a club evening or tournament —
  its spec, status and secret (seeds not yet opened, the tables' tokens: never sent) — and its
  log of director and check-in actions, appended optimistically by ``seq``
  (:mod:`ramsli.server.evenings`); ``seasons.best_of``: a season scored as "best N of M evenings".
- ``seat_links.confirmed`` (migration ``0007_ledger_consent``): when the member named at a seat of
  a club's ledger confirmed the session (NULL: not yet); a ledger session is rated only when every
  named member confirmed (issue 38.11, :mod:`ramsli.server.ledger.routes`).
- ``players.skill_opt_in`` (migration ``0009_skill``): the person chose to have their skill
  counters measured and shown (issue 35 item 4; the rows: :mod:`ramsli.server.storage.skill`).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from ramsli.bots.levels import LEVELS
from ramsli.server.storage.eventstore import events_t, metadata, settings_t, tables_t

__all__ = [
    "Directory",
    "NameTaken",
    "bot_key",
    "bot_player_id",
    "digest_of",
    "new_id",
    "SERVER_SCOPE",
    "players_t",
    "logins_t",
    "clubs_t",
    "memberships_t",
    "invites_t",
    "seasons_t",
    "table_links_t",
    "seat_links_t",
    "records_t",
    "ratings_t",
    "evenings_t",
    "evening_log_t",
]

#: the scope of the server-wide ratings (a club's scope is its id)
SERVER_SCOPE = "server"

players_t = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("name_key", sa.String(256), nullable=True, unique=True),
    sa.Column("password", sa.Text, nullable=True),
    sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("deleted", sa.Float, nullable=True),
    sa.Column("skill_opt_in", sa.Boolean, nullable=False, server_default=sa.false()),
)
logins_t = sa.Table(
    "logins",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Column("agent", sa.String(120), nullable=False, server_default=""),
)
clubs_t = sa.Table(
    "clubs",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("created_by", sa.String(24), sa.ForeignKey("players.id"), nullable=True),
    sa.Column("calendar_key", sa.String(32), nullable=True),
)
memberships_t = sa.Table(
    "memberships",
    metadata,
    sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), primary_key=True),
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("role", sa.String(8), nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
)
invites_t = sa.Table(
    "club_invites",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=False, index=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("created_by", sa.String(24), sa.ForeignKey("players.id"), nullable=True),
    sa.Column("revoked", sa.Float, nullable=True),
    sa.Column("uses", sa.Integer, nullable=False, server_default="0"),
)
seasons_t = sa.Table(
    "seasons",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=False, index=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("starts", sa.String(10), nullable=False),
    sa.Column("ends", sa.String(10), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("best_of", sa.Integer, nullable=True),
)
table_links_t = sa.Table(
    "table_links",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=True, index=True),
    sa.Column("creator_id", sa.String(24), sa.ForeignKey("players.id"), nullable=True),
)
seat_links_t = sa.Table(
    "seat_links",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("linked", sa.Float, nullable=False),
    sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("confirmed", sa.Float, nullable=True),
)
records_t = sa.Table(
    "session_records",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=True, index=True),
    sa.Column("finished", sa.Float, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("data", sa.Text, nullable=False),
)
ratings_t = sa.Table(
    "ratings",
    metadata,
    sa.Column("scope", sa.String(24), primary_key=True),
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("sessions", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
evenings_t = sa.Table(
    "evenings",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("club_id", sa.String(24), sa.ForeignKey("clubs.id"), nullable=True, index=True),
    sa.Column("director", sa.String(24), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("starts", sa.Float, nullable=False, index=True),
    sa.Column("status", sa.String(8), nullable=False, index=True),
    sa.Column("secret", sa.Text, nullable=False),
)
evening_log_t = sa.Table(
    "evening_log",
    metadata,
    sa.Column("evening_id", sa.String(24), sa.ForeignKey("evenings.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("by", sa.String(24), nullable=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)


class NameTaken(Exception):
    """A player with a name that looks the same (the same :func:`~ramsli.session.name_key`) exists."""


def new_id(n: int = 9) -> str:
    """A fresh random id (``secrets.token_urlsafe``, without ``-`` and ``_``): 12 characters for ``n`` 9."""
    return secrets.token_urlsafe(n).replace("-", "x").replace("_", "y")


def digest_of(token: str) -> str:
    """The SHA-256 (hex) under which a login's or an invite's token is kept; the token itself is not
    stored. A row is found by its digest (an index lookup): a digest gives away nothing of the token.

    >>> len(digest_of("abc")), digest_of("abc") == digest_of("abc")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bot_key(spec: str) -> str:
    """The player a bot seat is rated as: its level when the spec is a level or stands for one
    (``montecarlo:samples=6,eps=0.1`` is ``hard``; ``rules`` is read as its other name ``tips``), else
    the spec itself. Each level is one player whatever the table.

    >>> bot_key("rules:eps=0.35"), bot_key("montecarlo:samples=6,eps=0.1"), bot_key("hard"), bot_key("random")
    ('easy', 'hard', 'hard', 'random')
    >>> bot_key("rules"), bot_key("montecarlo:samples=6")  # without the slips: not a level
    ('tips', 'montecarlo:samples=6')
    >>> bot_key("montecarlo")  # the default budget is not a level: a player of its own
    'montecarlo'
    """
    s = " ".join(spec.split())
    name, colon, opts = s.partition(":")
    if name == "rules":
        s = "tips" + (":" + opts if colon else "")
    if s in LEVELS:
        return s
    for level, level_spec in LEVELS.items():
        if level_spec == s:
            return level
    return s


def bot_player_id(key: str) -> str:
    """The id of the bot player ``key`` (:func:`bot_key`): ``bot-`` and 16 hex digits of its hash.

    >>> bot_player_id("easy").startswith("bot-"), len(bot_player_id("easy"))
    (True, 20)
    """
    return "bot-" + hashlib.sha256(key.encode()).hexdigest()[:16]


def _row(r: Any) -> dict[str, Any]:
    return dict(r._mapping)


class Directory:
    """The directory on an open store's engine (``EventStore.engine``); every method commits."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # -- players --------------------------------------------------------------------------------

    async def create_player(self, name: str, key: str, password_hash: str, now: float) -> dict[str, Any]:
        """A new person. Raises :class:`NameTaken` if ``key`` is another player's name key."""
        pid = new_id()
        row = {
            "id": pid,
            "kind": "person",
            "name": name,
            "name_key": key,
            "password": password_hash,
            "listed": False,
            "created": now,
            "deleted": None,
            "skill_opt_in": False,
        }
        try:
            async with self.engine.begin() as conn:
                taken = (await conn.execute(sa.select(players_t.c.id).where(players_t.c.name_key == key))).first()
                if taken is not None:
                    raise NameTaken(name)
                await conn.execute(players_t.insert().values(**row))
        except sa.exc.IntegrityError:  # the same name made at the same moment
            raise NameTaken(name) from None
        return row

    async def player(self, pid: str) -> dict[str, Any] | None:
        """The player ``pid`` (a person, deleted or not, or a bot), or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(players_t).where(players_t.c.id == pid))).first()
        return None if r is None else _row(r)

    async def players(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The players among ``ids``, by id."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(players_t).where(players_t.c.id.in_(wanted)))).all()
        return {r.id: _row(r) for r in rows}

    async def player_by_key(self, key: str) -> dict[str, Any] | None:
        """The person whose name key is ``key``, or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(players_t).where(players_t.c.name_key == key))).first()
        return None if r is None else _row(r)

    async def update_player(self, pid: str, **values: Any) -> None:
        """Set ``listed``, ``skill_opt_in`` or ``password`` of a player."""
        async with self.engine.begin() as conn:
            await conn.execute(players_t.update().where(players_t.c.id == pid).values(**values))

    async def bot_player(self, key: str, now: float) -> str:
        """The id of the bot player ``key`` (:func:`bot_key`), made on first use."""
        pid = bot_player_id(key)
        async with self.engine.begin() as conn:
            r = (await conn.execute(sa.select(players_t.c.id).where(players_t.c.id == pid))).first()
            if r is None:
                try:
                    async with conn.begin_nested():
                        await conn.execute(
                            players_t.insert().values(
                                id=pid,
                                kind="bot",
                                name=key[:64],
                                name_key=None,
                                password=None,
                                listed=True,
                                created=now,
                            )
                        )
                except sa.exc.IntegrityError:  # made at the same moment by another request
                    pass
        return pid

    async def delete_player(self, pid: str, now: float) -> None:
        """Delete a person: name, name key and hash are removed (the row stays, without them, so past
        seats and others' ratings stay as they were); every login and membership is ended; a club the
        player owned alone passes to its longest member; the player's name in session records is
        replaced by None (shown as "a former player")."""
        async with self.engine.begin() as conn:
            await conn.execute(
                players_t.update()
                .where(players_t.c.id == pid)
                .values(name=None, name_key=None, password=None, listed=False, deleted=now)
            )
            await conn.execute(logins_t.delete().where(logins_t.c.player_id == pid))
            owned = (
                await conn.execute(
                    sa.select(memberships_t.c.club_id).where(
                        memberships_t.c.player_id == pid, memberships_t.c.role == "owner"
                    )
                )
            ).all()
            await conn.execute(memberships_t.delete().where(memberships_t.c.player_id == pid))
            for (club_id,) in owned:
                owners = (
                    await conn.execute(
                        sa.select(memberships_t.c.player_id).where(
                            memberships_t.c.club_id == club_id, memberships_t.c.role == "owner"
                        )
                    )
                ).first()
                if owners is None:
                    heir = (
                        await conn.execute(
                            sa.select(memberships_t.c.player_id)
                            .where(memberships_t.c.club_id == club_id)
                            .order_by(memberships_t.c.joined, memberships_t.c.player_id)
                        )
                    ).first()
                    if heir is not None:
                        await conn.execute(
                            memberships_t.update()
                            .where(memberships_t.c.club_id == club_id, memberships_t.c.player_id == heir[0])
                            .values(role="owner")
                        )
            linked = (
                await conn.execute(sa.select(seat_links_t.c.table_id).where(seat_links_t.c.player_id == pid))
            ).all()
            for (table_id,) in {tuple(x) for x in linked}:
                r = (await conn.execute(sa.select(records_t.c.data).where(records_t.c.table_id == table_id))).first()
                if r is None:
                    continue
                data = json.loads(r[0])
                for seat in data.get("seats", []):
                    if seat.get("player") == pid:
                        seat["name"] = None
                await conn.execute(
                    records_t.update().where(records_t.c.table_id == table_id).values(data=json.dumps(data))
                )

    # -- logins ----------------------------------------------------------------------------------

    async def create_login(self, pid: str, token: str, agent: str, now: float, expires: float) -> str:
        """A new login of ``pid`` for the cookie ``token`` (kept as its hash); returns the login's id."""
        lid = new_id(6)
        async with self.engine.begin() as conn:
            await conn.execute(
                logins_t.insert().values(
                    id=lid,
                    digest=digest_of(token),
                    player_id=pid,
                    created=now,
                    last_seen=now,
                    expires=expires,
                    agent=agent[:120],
                )
            )
        return lid

    async def login(self, cookie: str) -> dict[str, Any] | None:
        """The login of the cookie value ``cookie``, or None (looked up by its SHA-256 digest)."""
        wanted = digest_of(cookie)
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(logins_t).where(logins_t.c.digest == wanted))).first()
        return None if r is None else _row(r)

    async def touch_login(self, lid: str, now: float) -> None:
        """Note that login ``lid`` was used at ``now``."""
        async with self.engine.begin() as conn:
            await conn.execute(logins_t.update().where(logins_t.c.id == lid).values(last_seen=now))

    async def logins_of(self, pid: str) -> list[dict[str, Any]]:
        """Every login of ``pid``, newest first."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(logins_t).where(logins_t.c.player_id == pid).order_by(logins_t.c.created.desc())
                )
            ).all()
        return [_row(r) for r in rows]

    async def end_logins(self, pid: str, ids: Iterable[str] | None = None, keep: str | None = None) -> int:
        """End logins of ``pid``: those in ``ids`` (all when None) except ``keep``; returns how many."""
        q = logins_t.delete().where(logins_t.c.player_id == pid)
        if ids is not None:
            q = q.where(logins_t.c.id.in_(list(ids)))
        if keep is not None:
            q = q.where(logins_t.c.id != keep)
        async with self.engine.begin() as conn:
            return (await conn.execute(q)).rowcount or 0

    # -- clubs -----------------------------------------------------------------------------------

    async def create_club(self, name: str, owner: str, season: dict[str, str], now: float) -> str:
        """A new club owned by ``owner``, with its first season (``{"name", "starts", "ends"}``)."""
        cid = new_id()
        async with self.engine.begin() as conn:
            await conn.execute(clubs_t.insert().values(id=cid, name=name, created=now, created_by=owner))
            await conn.execute(memberships_t.insert().values(club_id=cid, player_id=owner, role="owner", joined=now))
            await conn.execute(seasons_t.insert().values(id=new_id(), club_id=cid, created=now, **season))
        return cid

    async def club(self, cid: str) -> dict[str, Any] | None:
        """The club ``cid``, or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(clubs_t).where(clubs_t.c.id == cid))).first()
        if r is None:
            return None
        row = _row(r)
        row.pop("calendar_key", None)  # a key of its own link: only calendar_key() gives it
        return row

    async def membership(self, cid: str, pid: str) -> dict[str, Any] | None:
        """``pid``'s membership of ``cid`` (``role``, ``joined``), or None."""
        async with self.engine.connect() as conn:
            r = (
                await conn.execute(
                    sa.select(memberships_t).where(memberships_t.c.club_id == cid, memberships_t.c.player_id == pid)
                )
            ).first()
        return None if r is None else _row(r)

    async def members(self, cid: str) -> list[dict[str, Any]]:
        """The members of ``cid`` with their names: ``{"id", "name", "role", "joined"}``, in joining order."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(players_t.c.id, players_t.c.name, memberships_t.c.role, memberships_t.c.joined)
                    .join(players_t, players_t.c.id == memberships_t.c.player_id)
                    .where(memberships_t.c.club_id == cid)
                    .order_by(memberships_t.c.joined, players_t.c.id)
                )
            ).all()
        return [_row(r) for r in rows]

    async def clubs_of(self, pid: str) -> list[dict[str, Any]]:
        """The clubs ``pid`` belongs to: ``{"id", "name", "role"}``."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(clubs_t.c.id, clubs_t.c.name, memberships_t.c.role)
                    .join(memberships_t, memberships_t.c.club_id == clubs_t.c.id)
                    .where(memberships_t.c.player_id == pid)
                    .order_by(clubs_t.c.name, clubs_t.c.id)
                )
            ).all()
        return [_row(r) for r in rows]

    async def create_invite(self, cid: str, token: str, by: str, now: float) -> str:
        """A new invite link of ``cid`` (its token kept as a hash); returns the invite's id."""
        iid = new_id(6)
        async with self.engine.begin() as conn:
            await conn.execute(
                invites_t.insert().values(
                    id=iid, club_id=cid, digest=digest_of(token), created=now, created_by=by, revoked=None
                )
            )
        return iid

    async def invite(self, link: str) -> dict[str, Any] | None:
        """The invite whose link token is ``link``, or None (looked up by its SHA-256 digest)."""
        wanted = digest_of(link)
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(invites_t).where(invites_t.c.digest == wanted))).first()
        return None if r is None else _row(r)

    async def invites(self, cid: str) -> list[dict[str, Any]]:
        """The invites of ``cid`` (no tokens: only their hashes are kept), newest first."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(invites_t).where(invites_t.c.club_id == cid).order_by(invites_t.c.created.desc())
                )
            ).all()
        return [{k: v for k, v in _row(r).items() if k != "digest"} for r in rows]

    async def revoke_invite(self, cid: str, iid: str, now: float) -> bool:
        """Revoke invite ``iid`` of ``cid``; False if there is no such invite."""
        async with self.engine.begin() as conn:
            res = await conn.execute(
                invites_t.update()
                .where(invites_t.c.club_id == cid, invites_t.c.id == iid, invites_t.c.revoked.is_(None))
                .values(revoked=now)
            )
            if res.rowcount:
                return True
            r = (
                await conn.execute(sa.select(invites_t.c.id).where(invites_t.c.club_id == cid, invites_t.c.id == iid))
            ).first()
        return r is not None

    async def join(self, cid: str, pid: str, iid: str, now: float) -> None:
        """``pid`` joins ``cid`` through invite ``iid`` (a member already: nothing changes)."""
        async with self.engine.begin() as conn:
            r = (
                await conn.execute(
                    sa.select(memberships_t.c.role).where(
                        memberships_t.c.club_id == cid, memberships_t.c.player_id == pid
                    )
                )
            ).first()
            if r is None:
                await conn.execute(memberships_t.insert().values(club_id=cid, player_id=pid, role="member", joined=now))
                await conn.execute(invites_t.update().where(invites_t.c.id == iid).values(uses=invites_t.c.uses + 1))

    async def leave(self, cid: str, pid: str) -> None:
        """``pid`` leaves ``cid`` (their sessions stay in the club's seasons)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                memberships_t.delete().where(memberships_t.c.club_id == cid, memberships_t.c.player_id == pid)
            )

    async def create_season(
        self, cid: str, name: str, starts: str, ends: str, now: float, best_of: int | None = None
    ) -> str:
        """A new season of ``cid`` (``best_of``: scored as "best N of M evenings", or None); returns its id."""
        sid = new_id()
        async with self.engine.begin() as conn:
            await conn.execute(
                seasons_t.insert().values(
                    id=sid, club_id=cid, name=name, starts=starts, ends=ends, created=now, best_of=best_of
                )
            )
        return sid

    async def calendar_key(self, cid: str) -> str:
        """The key of club ``cid``'s calendar feed link, made (random) when first asked for."""
        async with self.engine.begin() as conn:
            key = (await conn.execute(sa.select(clubs_t.c.calendar_key).where(clubs_t.c.id == cid))).scalar()
            if key is None:
                key = secrets.token_urlsafe(18)
                await conn.execute(
                    clubs_t.update()
                    .where(clubs_t.c.id == cid, clubs_t.c.calendar_key.is_(None))
                    .values(calendar_key=key)
                )
                key = (await conn.execute(sa.select(clubs_t.c.calendar_key).where(clubs_t.c.id == cid))).scalar()
        return str(key)

    async def seasons(self, cid: str) -> list[dict[str, Any]]:
        """The seasons of ``cid``, latest first: ``{"id", "name", "starts", "ends"}``."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(seasons_t).where(seasons_t.c.club_id == cid).order_by(seasons_t.c.starts.desc())
                )
            ).all()
        return [_row(r) for r in rows]

    # -- tables and seats ------------------------------------------------------------------------

    async def link_table(self, table_id: str, open_: bool, club: str | None, creator: str | None) -> None:
        """Record a new table's or ledger's ``open`` flag, club and creating player."""
        async with self.engine.begin() as conn:
            await conn.execute(
                table_links_t.insert().values(table_id=table_id, open=open_, club_id=club, creator_id=creator)
            )

    async def table_link(self, table_id: str) -> dict[str, Any] | None:
        """The link row of ``table_id`` (``open``, ``club_id``, ``creator_id``), or None (a private table)."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(table_links_t).where(table_links_t.c.table_id == table_id))).first()
        return None if r is None else _row(r)

    async def table_links(self, open_only: bool = False, ids: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        """Every table link by table id (only ``open`` ones if asked; with ``ids``, only those
        tables' links, read by the primary key 500 ids a query: the tables in play, not the history)."""
        q = sa.select(table_links_t)
        if open_only:
            q = q.where(table_links_t.c.open.is_(True))
        wanted = None if ids is None else list(ids)
        rows: list[Any] = []
        async with self.engine.connect() as conn:
            if wanted is None:
                rows = list((await conn.execute(q)).all())
            for i in range(0, len(wanted or []), 500):
                part = (wanted or [])[i : i + 500]
                rows += (await conn.execute(q.where(table_links_t.c.table_id.in_(part)))).all()
        return {r.table_id: _row(r) for r in rows}

    async def open_tables(self) -> list[dict[str, Any]]:
        """The open tables of every process (the shared database): card tables linked ``open``,
        neither closed nor finished, oldest first, each ``{"id", "preset", "humans", "sits",
        "started"}`` (``humans``: its human seats; ``sits``: its stored ``sit`` events, so how
        full it is as its owner last wrote it; ``started``: a ``start`` event is stored). Quick
        play (:func:`ramsli.server.tables.lobby.quick_play`) chooses from these across processes;
        the owner of the chosen table decides whether a seat is still free."""
        sits = (
            sa.select(sa.func.count())
            .where(events_t.c.table_id == tables_t.c.id, events_t.c.kind == "sit")
            .scalar_subquery()
        )
        started = sa.exists().where(events_t.c.table_id == tables_t.c.id, events_t.c.kind == "start")
        q = (
            sa.select(tables_t.c.id, tables_t.c.spec, sits.label("sits"), started.label("started"))
            .join(table_links_t, table_links_t.c.table_id == tables_t.c.id)
            .where(
                table_links_t.c.open.is_(True),
                tables_t.c.closed.is_(None),
                tables_t.c.finished.is_(None),
                tables_t.c.kind == "table",
            )
            .order_by(tables_t.c.created, tables_t.c.id)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        out = []
        for r in rows:
            spec = json.loads(r.spec)
            out.append(
                {
                    "id": r.id,
                    "preset": spec.get("preset", "traditional"),
                    "humans": sum(1 for seat in spec.get("seats", []) if seat.get("kind") == "human"),
                    "sits": int(r.sits),
                    "started": bool(r.started),
                }
            )
        return out

    @asynccontextmanager
    async def quick_play_guard(self, preset: str) -> AsyncIterator[None]:
        """Quick play of ``preset`` one at a time across every process on this database: a row
        lock (``SELECT … FOR UPDATE`` on the ``settings`` row ``quick-play:PRESET``, made if
        missing) held until the block ends; a process that dies holding it loses its
        connection, and PostgreSQL frees the lock. SQLite: nothing to take here, since one
        process alone opens an SQLite file (:class:`~ramsli.server.cluster.ownership.SingleProcess`)
        and quick play holds that process's own lock; a write lock on the file would stall the
        very writes (the sit) the block makes."""
        if self.engine.dialect.name == "sqlite":
            yield
            return
        name = ("quick-play:" + preset)[:64]
        async with self.engine.begin() as conn:
            await conn.execute(pg_insert(settings_t).values(name=name, value="").on_conflict_do_nothing())
        async with self.engine.begin() as conn:
            await conn.execute(sa.select(settings_t.c.value).where(settings_t.c.name == name).with_for_update())
            yield

    async def link_seat(
        self, table_id: str, seat: int, pid: str, now: float, claimed: bool = False, confirmed: float | None = None
    ) -> bool:
        """Link ``seat`` of ``table_id`` to player ``pid`` (``confirmed``: when the player confirmed
        a ledger session, or None); False (nothing changed) if it is linked already."""
        try:
            async with self.engine.begin() as conn:
                r = (
                    await conn.execute(
                        sa.select(seat_links_t.c.player_id).where(
                            seat_links_t.c.table_id == table_id, seat_links_t.c.seat == seat
                        )
                    )
                ).first()
                if r is not None:
                    return False
                await conn.execute(
                    seat_links_t.insert().values(
                        table_id=table_id, seat=seat, player_id=pid, linked=now, claimed=claimed, confirmed=confirmed
                    )
                )
        except sa.exc.IntegrityError:
            return False
        return True

    async def seat_links(self, table_id: str) -> dict[int, str]:
        """Seat -> player id of ``table_id``."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(seat_links_t).where(seat_links_t.c.table_id == table_id))).all()
        return {r.seat: r.player_id for r in rows}

    async def seat_confirmations(self, table_id: str) -> dict[int, float | None]:
        """Seat -> when its linked player confirmed the session of ``table_id`` (None: not yet)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(seat_links_t).where(seat_links_t.c.table_id == table_id))).all()
        return {r.seat: r.confirmed for r in rows}

    async def confirm_seat(self, table_id: str, pid: str, now: float) -> int | None:
        """Player ``pid`` confirms the session of ``table_id``: their seat's ``confirmed`` becomes
        ``now`` unless it is set already. Returns the seat, or None if ``pid`` has no seat there."""
        async with self.engine.begin() as conn:
            r = (
                await conn.execute(
                    sa.select(seat_links_t).where(seat_links_t.c.table_id == table_id, seat_links_t.c.player_id == pid)
                )
            ).first()
            if r is None:
                return None
            if r.confirmed is None:
                await conn.execute(
                    seat_links_t.update()
                    .where(seat_links_t.c.table_id == table_id, seat_links_t.c.seat == r.seat)
                    .values(confirmed=now)
                )
            return int(r.seat)

    async def unconfirm_seats(self, table_id: str, keep: str | None) -> int:
        """Every confirmation of ``table_id``'s session but player ``keep``'s is withdrawn (its
        books changed after they confirmed them); returns how many."""
        q = seat_links_t.update().where(seat_links_t.c.table_id == table_id, seat_links_t.c.confirmed.is_not(None))
        if keep is not None:
            q = q.where(seat_links_t.c.player_id != keep)
        async with self.engine.begin() as conn:
            return int((await conn.execute(q.values(confirmed=None))).rowcount or 0)

    async def seats_of(self, pid: str) -> list[dict[str, Any]]:
        """Every seat ``pid`` is linked to: ``{"table_id", "seat", "linked", "claimed", "confirmed"}``."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(seat_links_t).where(seat_links_t.c.player_id == pid).order_by(seat_links_t.c.linked)
                )
            ).all()
        return [_row(r) for r in rows]

    # -- session records and ratings -----------------------------------------------------------

    async def put_record(
        self, table_id: str, kind: str, club: str | None, finished: float, rated: bool, data: Any
    ) -> bool:
        """Store the record of a finished session (replacing an older one of the same table);
        True if it is new."""
        values = {"kind": kind, "club_id": club, "finished": finished, "rated": rated, "data": json.dumps(data)}
        async with self.engine.begin() as conn:
            r = (await conn.execute(sa.select(records_t.c.table_id).where(records_t.c.table_id == table_id))).first()
            if r is None:
                await conn.execute(records_t.insert().values(table_id=table_id, **values))
                return True
            await conn.execute(records_t.update().where(records_t.c.table_id == table_id).values(**values))
            return False

    async def records(
        self, club: str | None = None, rated: bool | None = None, since: float | None = None, until: float | None = None
    ) -> list[dict[str, Any]]:
        """Session records in the order they finished (``data`` decoded): of a club, rated ones, between times."""
        q = sa.select(records_t)
        if club is not None:
            q = q.where(records_t.c.club_id == club)
        if rated is not None:
            q = q.where(records_t.c.rated.is_(rated))
        if since is not None:
            q = q.where(records_t.c.finished >= since)
        if until is not None:
            q = q.where(records_t.c.finished < until)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q.order_by(records_t.c.finished, records_t.c.table_id))).all()
        out = []
        for r in rows:
            d = _row(r)
            d["data"] = json.loads(d["data"])
            out.append(d)
        return out

    async def record(self, table_id: str) -> dict[str, Any] | None:
        """The record of ``table_id`` (``data`` decoded), or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(records_t).where(records_t.c.table_id == table_id))).first()
        if r is None:
            return None
        d = _row(r)
        d["data"] = json.loads(d["data"])
        return d

    async def ratings(self, scope: str) -> dict[str, dict[str, Any]]:
        """Player id -> ``{"mu", "sigma", "sessions", "updated"}`` in ``scope``."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(ratings_t).where(ratings_t.c.scope == scope))).all()
        return {r.player_id: {"mu": r.mu, "sigma": r.sigma, "sessions": r.sessions, "updated": r.updated} for r in rows}

    async def ratings_of(self, pid: str) -> dict[str, dict[str, Any]]:
        """Scope -> ``pid``'s rating there."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(ratings_t).where(ratings_t.c.player_id == pid))).all()
        return {r.scope: {"mu": r.mu, "sigma": r.sigma, "sessions": r.sessions, "updated": r.updated} for r in rows}

    async def put_ratings(self, rows: dict[tuple[str, str], dict[str, Any]], replace: bool = False) -> None:
        """Write ratings (``(scope, player id) -> {"mu", "sigma", "sessions"}``); ``replace`` first
        removes every stored rating (a full recomputation)."""
        now = time.time()
        async with self.engine.begin() as conn:
            if replace:
                await conn.execute(ratings_t.delete())
            else:
                for scope, pid in rows:
                    await conn.execute(
                        ratings_t.delete().where(ratings_t.c.scope == scope, ratings_t.c.player_id == pid)
                    )
            if rows:
                await conn.execute(
                    ratings_t.insert(),
                    [
                        {
                            "scope": scope,
                            "player_id": pid,
                            "mu": v["mu"],
                            "sigma": v["sigma"],
                            "sessions": v["sessions"],
                            "updated": now,
                        }
                        for (scope, pid), v in rows.items()
                    ],
                )

    # -- evenings (issue 34) ----------------------------------------------------------------------

    @staticmethod
    def _evening(r: Any, secret: bool) -> dict[str, Any]:
        d = _row(r)
        d["spec"] = json.loads(d["spec"])
        if secret:
            d["secret"] = json.loads(d["secret"])
        else:
            d.pop("secret", None)
        return d

    async def create_evening(
        self,
        eid: str,
        club: str | None,
        director: str,
        spec: dict[str, Any],
        starts: float,
        now: float,
        secret: dict[str, Any],
        first: dict[str, Any],
    ) -> None:
        """A new evening ``eid`` (status ``open``) with its first log entry ``first`` (``{"at",
        "by", "kind", "data"}``, stored as ``seq`` 1), in one transaction."""
        async with self.engine.begin() as conn:
            await conn.execute(
                evenings_t.insert().values(
                    id=eid,
                    club_id=club,
                    director=director,
                    spec=json.dumps(spec),
                    created=now,
                    starts=starts,
                    status="open",
                    secret=json.dumps(secret),
                )
            )
            await conn.execute(
                evening_log_t.insert().values(
                    evening_id=eid,
                    seq=1,
                    at=first["at"],
                    by=first["by"],
                    kind=first["kind"],
                    data=json.dumps(first["data"]),
                )
            )

    async def evening(self, eid: str, secret: bool = False) -> dict[str, Any] | None:
        """The evening ``eid`` (``spec`` decoded; ``secret`` decoded only when asked), or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(evenings_t).where(evenings_t.c.id == eid))).first()
        return None if r is None else self._evening(r, secret)

    async def evenings(
        self,
        club: str | None = None,
        status: Iterable[str] | None = None,
        since: float | None = None,
    ) -> list[dict[str, Any]]:
        """Evenings by the time they start (earliest first), without their secrets: of ``club``,
        with a ``status`` among those given, starting at ``since`` or later."""
        q = sa.select(evenings_t)
        if club is not None:
            q = q.where(evenings_t.c.club_id == club)
        if status is not None:
            q = q.where(evenings_t.c.status.in_(list(status)))
        if since is not None:
            q = q.where(evenings_t.c.starts >= since)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q.order_by(evenings_t.c.starts, evenings_t.c.id))).all()
        return [self._evening(r, False) for r in rows]

    async def evening_log(self, eid: str, after: int = 0) -> list[dict[str, Any]]:
        """The log entries of ``eid`` numbered after ``after``, in order: ``{"seq", "at", "by",
        "kind", "data"}`` (``data`` decoded)."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(evening_log_t)
                    .where(evening_log_t.c.evening_id == eid, evening_log_t.c.seq > after)
                    .order_by(evening_log_t.c.seq)
                )
            ).all()
        return [{"seq": r.seq, "at": r.at, "by": r.by, "kind": r.kind, "data": json.loads(r.data)} for r in rows]

    async def append_evening_log(
        self,
        eid: str,
        entry: dict[str, Any],
        status: str | None = None,
        secret: dict[str, Any] | None = None,
    ) -> bool:
        """Append log entry ``entry`` (``{"seq", "at", "by", "kind", "data"}``) of ``eid`` and, in
        the same transaction, set its ``status`` and ``secret`` when given. False (nothing
        written) if an entry of that ``seq`` exists already: another request or process wrote
        first (the caller reads the log again)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    evening_log_t.insert().values(
                        evening_id=eid,
                        seq=entry["seq"],
                        at=entry["at"],
                        by=entry["by"],
                        kind=entry["kind"],
                        data=json.dumps(entry["data"]),
                    )
                )
                values: dict[str, Any] = {}
                if status is not None:
                    values["status"] = status
                if secret is not None:
                    values["secret"] = json.dumps(secret)
                if values:
                    await conn.execute(evenings_t.update().where(evenings_t.c.id == eid).values(**values))
        except sa.exc.IntegrityError:
            return False
        return True

    async def set_evening_secret(self, eid: str, secret: dict[str, Any]) -> None:
        """Replace the secret of ``eid`` (seeds, the tables' tokens)."""
        async with self.engine.begin() as conn:
            await conn.execute(evenings_t.update().where(evenings_t.c.id == eid).values(secret=json.dumps(secret)))

    async def delete_evening(self, eid: str) -> None:
        """Delete evening ``eid`` and its log (its tables, ledgers and records stay)."""
        async with self.engine.begin() as conn:
            await conn.execute(evening_log_t.delete().where(evening_log_t.c.evening_id == eid))
            await conn.execute(evenings_t.delete().where(evenings_t.c.id == eid))

    async def records_of(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The records of the tables and ledgers ``ids`` that have one, by id (``data`` decoded)."""
        wanted = sorted(set(ids))
        out: dict[str, dict[str, Any]] = {}
        async with self.engine.connect() as conn:
            for i in range(0, len(wanted), 500):
                rows = (
                    await conn.execute(sa.select(records_t).where(records_t.c.table_id.in_(wanted[i : i + 500])))
                ).all()
                for r in rows:
                    d = _row(r)
                    d["data"] = json.loads(d["data"])
                    out[d["table_id"]] = d
        return out

    async def set_table_spec(self, table_id: str, spec: dict[str, Any]) -> None:
        """Replace the stored spec of table or ledger ``table_id`` (an evening's ledger gets a new
        keeper token when its captain changes)."""
        async with self.engine.begin() as conn:
            await conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(spec=json.dumps(spec)))
