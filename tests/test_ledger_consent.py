"""Ratings by consent (issue 38.11, docs/ledger.md, docs/clubs.md): a club member keeps a ledger
naming two other members and ends it; their server-wide ratings do not change until each of them
confirms the session from their own login; then it is rated. In-process over ASGI."""

from __future__ import annotations

import asyncio

from clubworld import World, club_of_two

#: two hands of three players (R4.9: the tricks of those in add up to 5)
HANDS = [{"active": [0, 1, 2], "tricks": {"0": 3, "1": 1, "2": 1}}, {"active": [0, 1], "tricks": {"0": 4, "1": 1}}]


async def _rating(w: World, pid: str):
    r = (await w.directory.ratings("server")).get(pid)
    return None if r is None else (r["mu"], r["sigma"], r["sessions"])


def test_a_ledger_naming_members_is_rated_only_once_each_confirmed(sqlite_url):
    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            cy = w.client()
            await cy.register("Cy")
            invite = await ann.ok("POST", f"/api/clubs/{club}/invites")
            await cy.ok("POST", "/api/clubs/join", {"token": invite["token"]})
            ids = {m["name"]: m["player"] for m in (await ann.ok("GET", f"/api/clubs/{club}"))["members"]}
            made = await ann.ok(
                "POST",
                "/api/ledgers",
                {"names": ["x", "y", "z"], "club": club, "players": [ids["Ann"], ids["Bo"], ids["Cy"]]},
            )
            lid, tok = made["ledger"], made["token"]
            before = {n: await _rating(w, ids[n]) for n in ("Bo", "Cy")}
            status, answer = await bo.call("POST", f"/api/ledgers/{lid}/confirm")
            assert (status, answer["error"]) == (409, "confirm_not_over"), (
                answer
            )  # a result is confirmed, not a promise
            for hand in HANDS:
                await ann.ok("POST", f"/api/ledgers/{lid}/hands?token={tok}", hand)
            state = await ann.ok("POST", f"/api/ledgers/{lid}/end?token={tok}")
            consent = state["consent"]
            assert consent["waiting"] == ["Bo", "Cy"] and consent["rated"] is False and consent["you"] == "confirmed"
            assert [x["confirmed"] for x in consent["named"]] == [True, False, False]  # the keeper's own seat
            record = await w.directory.record(lid)
            assert not record["rated"] and record["data"]["unrated"] == {
                "reason": "unconfirmed",
                "waiting": ["Bo", "Cy"],
            }
            assert {n: await _rating(w, ids[n]) for n in ("Bo", "Cy")} == before  # nobody played, nothing moved
            assert await _rating(w, ids["Ann"]) is None
            # each named member is asked, on their account page, and nobody else is
            for who, asked in ((bo, [lid]), (cy, [lid]), (ann, [])):
                assert [x["ledger"] for x in await who.ok("GET", "/api/me/confirmations")] == asked
            dan = w.client("de")
            await dan.register("Dan")
            status, answer = await dan.call("POST", f"/api/ledgers/{lid}/confirm")
            assert (status, answer["error"]) == (403, "not_named") and answer["message"].startswith("Du sitzt")
            status, answer = await w.client().call("POST", f"/api/ledgers/{lid}/confirm")
            assert status == 401
            # Bo confirms: still unrated, Cy is waited for
            got = await bo.ok("POST", f"/api/ledgers/{lid}/confirm")
            assert got["waiting"] == ["Cy"] and got["you"] == "confirmed" and got["rated"] is False
            assert await _rating(w, ids["Bo"]) == before["Bo"] and not (await w.directory.record(lid))["rated"]
            # the keeper corrects a hand after the end: Bo's confirmation was of the old books
            await ann.ok(
                "PUT", f"/api/ledgers/{lid}/hands/2?token={tok}", {"active": [0, 1], "tricks": {"0": 3, "1": 2}}
            )
            assert (await ann.ok("GET", f"/api/ledgers/{lid}?token={tok}"))["consent"]["waiting"] == ["Bo", "Cy"]
            await bo.ok("POST", f"/api/ledgers/{lid}/confirm")
            got = await cy.ok("POST", f"/api/ledgers/{lid}/confirm")
            assert got["waiting"] == [] and got["rated"] is True
            assert (await w.directory.record(lid))["rated"]
            after = {n: await _rating(w, ids[n]) for n in ("Ann", "Bo", "Cy")}
            assert all(after[n] is not None and after[n][2] == 1 for n in after), after  # rated once, now
            assert await cy.ok("GET", "/api/me/confirmations") == []
            # confirming again changes nothing
            await bo.ok("POST", f"/api/ledgers/{lid}/confirm")
            assert {n: await _rating(w, ids[n]) for n in ("Ann", "Bo", "Cy")} == after

    asyncio.run(go())


def test_the_time_to_confirm_runs_out_and_the_session_stays_unrated(sqlite_url, monkeypatch):
    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            ids = {m["name"]: m["player"] for m in (await ann.ok("GET", f"/api/clubs/{club}"))["members"]}
            made = await ann.ok(
                "POST", "/api/ledgers", {"names": ["x", "y"], "club": club, "players": [ids["Ann"], ids["Bo"]]}
            )
            lid, tok = made["ledger"], made["token"]
            await ann.ok(
                "POST", f"/api/ledgers/{lid}/hands?token={tok}", {"active": [0, 1], "tricks": {"0": 3, "1": 2}}
            )
            await ann.ok("POST", f"/api/ledgers/{lid}/end?token={tok}")
            import ramsli.server.ledger.routes as routes

            real = routes.time.time
            monkeypatch.setattr(routes.time, "time", lambda: real() + 8 * 24 * 3600)
            status, answer = await bo.call("POST", f"/api/ledgers/{lid}/confirm")
            assert (status, answer["error"]) == (409, "confirm_closed") and "7 days" in answer["message"]
            assert not (await w.directory.record(lid))["rated"] and await _rating(w, ids["Bo"]) is None
            assert await bo.ok("GET", "/api/me/confirmations") == []

    asyncio.run(go())


def test_migration_0007_counts_the_seats_linked_before_as_confirmed(tmp_path):
    """Migration ``0007_ledger_consent``: a database at ``0006`` with a club ledger's linked seat
    upgrades with the seat confirmed when it was linked (its records and ratings stay as they
    were), and goes down and up again."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config
    from sqlalchemy.ext.asyncio import create_async_engine

    from ramsli.server.storage.eventstore import MIGRATIONS

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite'}"

    def to(sync_conn, revision: str, down: bool = False) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = sync_conn
        (command.downgrade if down else command.upgrade)(cfg, revision)

    async def go():
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(to, "0006_evenings")
            await conn.execute(
                sa.text("INSERT INTO players (id, kind, name, listed, created) VALUES ('p1', 'person', 'Ann', 0, 1.0)")
            )
            await conn.execute(
                sa.text("INSERT INTO tables (id, created, spec, kind) VALUES ('Lx', 5.0, '{}', 'ledger')")
            )
            await conn.execute(
                sa.text(
                    "INSERT INTO seat_links (table_id, seat, player_id, linked, claimed) VALUES ('Lx', 1, 'p1', 7.0, 0)"
                )
            )
            await conn.run_sync(to, "head")
            rows = (await conn.execute(sa.text("SELECT seat, player_id, confirmed FROM seat_links"))).all()
            assert [tuple(r) for r in rows] == [(1, "p1", 7.0)]
            await conn.run_sync(to, "0006_evenings", True)
            cols = await conn.run_sync(lambda c: [x["name"] for x in sa.inspect(c).get_columns("seat_links")])
            assert "confirmed" not in cols
            await conn.run_sync(to, "head")
        await engine.dispose()

    asyncio.run(go())
