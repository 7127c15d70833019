"""A database written by the release before players and clubs upgrades without losing a table or a
ledger (migration ``0004_players_clubs``), on SQLite and on PostgreSQL.

The old database is made as that release made it: the schema of migration ``0001`` (the release's
head) and rows of a card table in the middle of a session and of a pub ledger with booked hands,
written by today's code exactly as they are stored (the ``tables`` and ``events`` rows are unchanged
since). Opening it with today's server applies the new migration; the table is restored to the same
view (R3.4: the same stacks, pot and cards) and the ledger to the same books, and the new rows work.
"""

from __future__ import annotations

import asyncio
import json

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import create_async_engine

from ramsli.server.storage.eventstore import MIGRATIONS, events_t, tables_t
from ramsli.server.tables.views import view

from clubworld import World
from helpers import scaled, stable_view

#: the head of the migrations in the release before this one
OLD_HEAD = "0001"
NEW_TABLES = {
    "players",
    "logins",
    "clubs",
    "memberships",
    "club_invites",
    "seasons",
    "table_links",
    "seat_links",
    "session_records",
    "ratings",
    "evenings",
    "evening_log",
}


def _upgrade_to(sync_conn, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, revision)


def _names(sync_conn) -> set[str]:
    return set(sa.inspect(sync_conn).get_table_names())


def test_a_database_of_the_last_release_upgrades_without_losing_a_table_or_a_ledger(db_url, tmp_path):
    async def go():
        # rows as the last release wrote them: a table in the middle of a hand, a ledger with two hands
        scratch = f"sqlite+aiosqlite:///{tmp_path / 'scratch.sqlite'}"
        async with World(scratch) as w:
            c = w.client()
            seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
            made = await c.ok(
                "POST",
                "/api/tables",
                {"seats": seats, "rules": ["end=hands:5"], "seed": 12, "grace_seconds": 3600, "bot_pace_seconds": 0},
            )
            tid = made["table"]
            for i, name in enumerate(("Ann", "Bo")):
                await c.ok("POST", f"/api/tables/{tid}/sit", {"token": made["seats"][i]["token"], "name": name})
            await c.ok("POST", f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})
            t = w.hub.tables[tid]
            deadline = asyncio.get_running_loop().time() + scaled(30)
            while t.session.hand is None or t.session.hand.to_act == 2:  # the bot acts where it is to act
                assert asyncio.get_running_loop().time() < deadline, "the bot did not act"
                await asyncio.sleep(0.02)
            ledger = await c.ok("POST", "/api/ledgers", {"names": ["Cy", "Di", "Ed"], "first_dealer": 2})
            for hand in (
                {"active": [0, 1], "tricks": {"0": 3, "1": 2}},
                {"active": [1, 2], "tricks": {"1": 1, "2": 4}},
            ):
                await c.ok("POST", f"/api/ledgers/{ledger['ledger']}/hands?token={ledger['token']}", hand)
            books = await c.ok("GET", f"/api/ledgers/{ledger['ledger']}?token={ledger['token']}")
            await w.app.state.hub.close()  # no bot moves any more
            views = [stable_view(view(t, i)) for i in range(3)] + [stable_view(view(t, None))]
            seq = t.seq
            rows = await w.app.state.hub.store.load()
        assert {r["id"] for r in rows} == {tid, ledger["ledger"]}

        # the old database: schema 0001, those rows
        engine = create_async_engine(db_url)
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade_to, OLD_HEAD)
            for r in rows:
                await conn.execute(
                    tables_t.insert().values(id=r["id"], created=r["created"], spec=json.dumps(r["spec"]))
                )
                if r["events"]:
                    await conn.execute(
                        events_t.insert(),
                        [{"table_id": r["id"], "seq": s, "kind": k, "data": json.dumps(d)} for s, k, d in r["events"]],
                    )
        async with engine.connect() as conn:
            assert (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).scalar() == OLD_HEAD
            assert not (NEW_TABLES & await conn.run_sync(_names))
        await engine.dispose()

        # today's server opens it: upgraded, nothing lost
        async with World(db_url) as w:
            r = w.hub.tables[tid]
            await w.app.state.hub.close()
            assert r.seq == seq
            assert [stable_view(view(r, i)) for i in range(3)] + [stable_view(view(r, None))] == views
            c = w.client()
            assert await c.ok("GET", f"/api/ledgers/{ledger['ledger']}?token={ledger['token']}") == books
            # private, as every table was: listed to nobody, to the admin token
            assert await c.ok("GET", "/api/tables") == []
            # and the new rows work: a player, a club, a club's ledger
            await c.register("Ann")
            club = (await c.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            assert (await c.ok("GET", f"/api/clubs/{club}"))["members"][0]["name"] == "Ann"
            async with w.app.state.hub.store.engine.connect() as conn:
                assert (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).scalar() == "0009_skill"
                kinds = dict((await conn.execute(sa.text("SELECT id, kind FROM tables"))).all())
                assert kinds[ledger["ledger"]] == "ledger" and kinds[tid] == "table"  # filled in by 0005
                assert NEW_TABLES <= await conn.run_sync(_names)

    asyncio.run(go())


def test_the_migration_goes_down_and_up_again(sqlite_url):
    """``0004_players_clubs`` can be undone to ``0001`` (the new tables only) and applied again."""

    async def go():
        engine = create_async_engine(sqlite_url)
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade_to, "head")
            assert NEW_TABLES <= await conn.run_sync(_names)

            def down(sync_conn):
                cfg = Config()
                cfg.set_main_option("script_location", str(MIGRATIONS))
                cfg.attributes["connection"] = sync_conn
                command.downgrade(cfg, OLD_HEAD)

            await conn.run_sync(down)
            names = await conn.run_sync(_names)
            assert not (NEW_TABLES & names) and {"tables", "events"} <= names
            await conn.run_sync(_upgrade_to, "head")
            assert NEW_TABLES <= await conn.run_sync(_names)
        await engine.dispose()

    asyncio.run(go())


def test_0009_adds_the_skill_switch_to_players_that_logins_point_at(tmp_path):
    """Migration ``0009_skill`` on a SQLite database of release ``0008`` with a player and a login
    pointing at it, foreign keys on (as the server opens it): the upgrade keeps both rows and the new
    switch is off. A batch copy of ``players`` failed here with "FOREIGN KEY constraint failed"."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")

    @sa.event.listens_for(engine, "connect")
    def _fk(dbapi_conn, _record):
        dbapi_conn.execute("PRAGMA foreign_keys=ON")

    with engine.begin() as conn:
        _upgrade_to(conn, "0008_challenge")
        conn.execute(
            sa.text(
                "INSERT INTO players (id, kind, name, name_key, listed, created) VALUES ('p1', 'person', 'Ann', 'ann', 0, 1)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO logins (id, digest, player_id, created, last_seen, expires) VALUES ('l1', 'd', 'p1', 1, 1, 2)"
            )
        )
    with engine.begin() as conn:
        _upgrade_to(conn, "0009_skill")
        assert conn.execute(sa.text("SELECT id, skill_opt_in FROM players")).all() == [("p1", 0)]
        assert conn.execute(sa.text("SELECT player_id FROM logins")).all() == [("p1",)]
    engine.dispose()
