"""Finished tables stay in the database (issue 28, item 5): start-up replays only the running
tables; a finished one is marked ``tables.finished`` right after the event that ends its session
is committed (one of an older database the first time a start-up sees it over), and from then on
is read from the database when someone asks for it (its page, info, score sheet, hand history, a
WebSocket), exactly as it was (R3.4). Start-up reads nothing that grows with the finished history:
the ledgers and the running tables are found by indexes, an SQLite file is checked whole only
after the server is up. On PostgreSQL with several processes a
takeover leaves finished tables alone too, and any process reads one on demand.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

import pytest
import sqlalchemy as sa

from ramsli.server.cluster.ownership import ownership_for
from ramsli.server.storage.eventstore import EventStore, StoreError, tables_t
from ramsli.server.tables.connection import Connection as Conn
from ramsli.server.tables.hub import Hub
from ramsli.server.tables.views import view

from helpers import SEATS3, http_get, post_json, scaled, seat_table


async def _finished(store: EventStore) -> dict[str, float | None]:
    async with store.engine.connect() as conn:
        rows = (await conn.execute(sa.select(tables_t.c.id, tables_t.c.finished))).all()
    return {r.id: r.finished for r in rows}


def test_a_finished_table_is_not_replayed_at_start_up_but_read_on_demand(db_url):
    async def go():
        store = await EventStore.open(db_url)
        hub = Hub(store, allow_test_seeds=True)
        _made, t, _people = await seat_table(hub, seats=[{"kind": "bot", "bot": "rules"}] * 3, rules=["end=hands:1"])
        _made, running, _ = await seat_table(hub, seats=SEATS3, start=False)
        for _ in range(int(scaled(400))):
            if t.status == "over":
                break
            await asyncio.sleep(0.05)
        assert t.status == "over"
        before = view(t, None)
        await hub.close()  # waits for the mark under way
        ended = await _finished(store)
        assert ended[t.id] is not None and ended[running.id] is None  # marked when its session ended
        async with store.engine.begin() as conn:  # a table finished before marks were made at run time
            await conn.execute(tables_t.update().where(tables_t.c.id == t.id).values(finished=None))
        await store.close()

        store = await EventStore.open(db_url)
        hub = Hub(store, ownership=ownership_for(db_url))
        await hub.ownership.start()
        assert await hub.restore() == 1  # only the running table
        assert set(hub.tables) == {running.id}
        marks = await _finished(store)
        assert marks[t.id] is not None and marks[running.id] is None
        assert await hub.locate(t.id) == ("local", None)  # read now, from the log
        again = hub.tables[t.id]
        assert view(again, None) == before and again.seq == t.seq
        assert again.session.total() == again.session.bank  # R3.4
        c = Conn()
        await hub.receive(c, json.dumps({"type": "hello", "token": again.spectator_token}), t.id)
        assert c.sent[-1]["type"] == "view" and c.sent[-1]["status"] == "over"
        assert await hub.locate("nosuch") == ("unknown", None)
        await hub.close()
        await hub.ownership.close()
        await store.close()

        store = await EventStore.open(db_url)  # the next start-up does not replay it either
        hub = Hub(store, ownership=ownership_for(db_url))
        await hub.ownership.start()
        assert await hub.restore() == 1 and t.id not in hub.tables
        assert (await _finished(store))[t.id] == marks[t.id]  # marked once
        await hub.close()
        await hub.ownership.close()
        await store.close()

    asyncio.run(go())


def test_a_restarted_server_serves_a_finished_tables_pages_from_the_database(server_factory, sqlite_url):
    server = server_factory(sqlite_url)
    st, made = post_json(
        server.http,
        "/api/tables",
        {"rules": ["end=hands:1"], "seats": [{"kind": "bot", "bot": "rules"}] * 3, "bot_pace_seconds": 0},
    )
    assert st == 201
    tid, watch = made["table"], made["spectate"]
    assert post_json(server.http, f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})[0] == 200
    for _ in range(int(scaled(400))):
        info = json.loads(http_get(server.http, f"/api/tables/{tid}")[1])
        if info["status"] == "over":
            break
        asyncio.run(asyncio.sleep(0.05))
    assert info["status"] == "over"
    token = watch.rstrip("/").rsplit("/", 1)[1]
    history = http_get(server.http, f"/api/tables/{tid}/hands/1.toml?token={token}")
    assert history[0] == 200
    server.stop()
    server.start()
    path = sqlite_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        (finished,) = db.execute("SELECT finished FROM tables WHERE id = ?", (tid,)).fetchone()
    assert finished is not None
    listed = json.loads(http_get(server.http, "/api/tables")[1])
    assert tid not in [x["table"] for x in listed]  # not in memory after the start
    assert json.loads(http_get(server.http, f"/api/tables/{tid}")[1]) == info  # read on demand, as it was
    assert http_get(server.http, f"/api/tables/{tid}/hands/1.toml?token={token}") == history
    assert http_get(server.http, watch)[0] == 200


def test_the_ledgers_are_found_by_their_kind_not_by_reading_every_spec(db_url):
    async def go():
        store = await EventStore.open(db_url)
        await store.create_table("t1", {"kind": "table-ish", "rules": {}}, 1.0)
        await store.create_table("l1", {"kind": "ledger", "names": ["A", "B"]}, 2.0)
        await store.create_table("l2", {"kind": "ledger", "names": ["C", "D"]}, 3.0)
        await store.mark_closed("l2", 4.0)
        assert await store.ledger_ids() == ["l1"]  # the open ledgers only, no card table
        assert [r["kind"] for r in await store.index()] == ["table", "ledger", "ledger"]
        assert [r["id"] for r in await store.index(limit=1, offset=1)] == ["l1"] and await store.count() == 3
        if store.is_sqlite:  # the ledgers and the running tables are found by an index, not a scan
            async with store.engine.connect() as conn:
                for q in (
                    "SELECT id FROM tables WHERE kind = 'ledger' AND closed IS NULL",
                    "SELECT id FROM tables WHERE finished IS NULL AND closed IS NULL",
                ):
                    plan = " ".join(str(r[-1]) for r in (await conn.execute(sa.text("EXPLAIN QUERY PLAN " + q))).all())
                    assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, plan
        await store.close()

    asyncio.run(go())


def test_start_up_checks_the_header_and_the_whole_file_is_checked_after_it(tmp_path, caplog):
    from types import SimpleNamespace

    from ramsli.server.app import _check_in_background
    from ramsli.server.storage.eventstore import FileCheck, check_database, check_file, check_header

    path = tmp_path / "s.sqlite"
    url = f"sqlite+aiosqlite:///{path}"

    async def make():
        store = await EventStore.open(url)
        for i in range(300):  # enough events for pages beyond the schema's
            await store.create_table(f"t{i}", {"rules": {}, "pad": "x" * 200}, float(i))
        await store.close()

    asyncio.run(make())
    assert check_header(path) is None and check_file(path) == []
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 4 * page
    (tmp_path / "short.sqlite").write_bytes(bytes(data[: 2 * page]))
    assert "truncated" in (check_header(tmp_path / "short.sqlite") or "")
    data[-page:] = bytes(random.Random(5).randrange(256) for _ in range(page))  # a damaged page, not the header
    path.write_bytes(bytes(data))
    assert check_header(path) is None  # start-up does not read that page: it starts
    found = check_file(path)
    assert found, "the damaged page was not found"
    app = SimpleNamespace(state=SimpleNamespace())
    with caplog.at_level("ERROR", logger="ramsli.server"):
        asyncio.run(_check_in_background(app, FileCheck(path)))
    assert app.state.database_damaged and any("is damaged" in r.getMessage() for r in caplog.records)
    given_up = FileCheck(path)
    given_up.stop()
    assert given_up.run() is None  # stopped (shutdown): nothing found, nothing said
    with pytest.raises(StoreError) as e:
        asyncio.run(check_database(f"sqlite+aiosqlite:///{tmp_path / 'short.sqlite'}"))
    assert "truncated" in str(e.value)


def _immutable(path, on: bool) -> bool:
    """``chattr +i`` (``-i``) on ``path``: True if the file system and the user allow it."""
    import shutil
    import subprocess

    if shutil.which("chattr") is None:
        return False
    return subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True).returncode == 0


def test_start_up_refuses_a_database_that_cannot_be_written(tmp_path):
    """A database file that cannot be written (made immutable; read-only permissions do the same
    for anyone but root) is refused at start-up with one line naming it, before a table is
    served: the server started, said ready, and failed at the first write."""
    from ramsli.server.storage.eventstore import check_database, check_writable

    path = tmp_path / "s.sqlite"
    url = f"sqlite+aiosqlite:///{path}"

    async def make():
        store = await EventStore.open(url)
        await store.create_table("t1", {"rules": {}}, 1.0)
        await store.close()

    asyncio.run(make())
    assert check_writable(path) is None and asyncio.run(check_database(url)) == 1  # t1 runs
    if not _immutable(path, True):
        path.chmod(0o444)
        if check_writable(path) is None:  # root without chattr: nothing here makes it read-only
            pytest.skip("cannot make a file read-only here (root without chattr +i)")
    try:
        with pytest.raises(StoreError) as e:
            asyncio.run(check_database(url))
        text = str(e.value)
        assert "\n" not in text and str(path) in text and "cannot be written" in text and "readonly" in text
    finally:
        _immutable(path, False)
        path.chmod(0o644)
    assert asyncio.run(check_database(url)) == 1


def test_start_up_warns_of_an_empty_database_file(tmp_path, caplog):
    """A zero-byte database file starts as an empty database, with a warning naming it (it started
    without a word, and a host who had lost the file's contents did not see it); a file that does
    not exist yet starts quietly."""
    from ramsli.server.storage.eventstore import check_database

    path = tmp_path / "empty.sqlite"
    path.write_bytes(b"")
    with caplog.at_level("WARNING", logger="ramsli.server"):
        assert asyncio.run(check_database(f"sqlite+aiosqlite:///{path}")) == 0
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert said == [f"the database file {path} is empty: starting with no tables"]
    caplog.clear()
    with caplog.at_level("WARNING", logger="ramsli.server"):
        assert asyncio.run(check_database(f"sqlite+aiosqlite:///{tmp_path / 'new.sqlite'}")) == 0
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


def _leaf_pages(data: bytes, page_size: int, page: int) -> list[int]:
    """The leaf pages of the SQLite table b-tree whose root is ``page`` (1-based)."""
    base = (page - 1) * page_size
    head = base + (100 if page == 1 else 0)
    kind = data[head]
    if kind == 0x0D:
        return [page]
    assert kind == 0x05, f"page {page} is not a table b-tree page ({kind:#x})"
    cells = int.from_bytes(data[head + 3 : head + 5], "big")
    children = [int.from_bytes(data[head + 8 : head + 12], "big")]
    for i in range(cells):
        ptr = int.from_bytes(data[head + 12 + 2 * i : head + 14 + 2 * i], "big")
        children.append(int.from_bytes(data[base + ptr : base + ptr + 4], "big"))
    return [leaf for child in children for leaf in _leaf_pages(data, page_size, child)]


def test_a_finished_table_on_a_damaged_page_is_table_broken_everywhere(sqlite_url, caplog):
    """A finished table whose event rows sit on a damaged page of the SQLite file is marked broken
    when it is first asked for and answered ``503 table_broken`` in the request's language on every
    route (its info, a hand's history, the watch and review pages, a rematch, the WebSocket), as a
    damaged event's JSON is; the log says it once, without a traceback. (Every request was a plain
    500 with a traceback, "database disk image is malformed", and the table never broken.)"""
    from httpx import ASGITransport, AsyncClient

    from ramsli.refusal import Refusal
    from ramsli.server.app import attach_hub, create_app
    from ramsli.server.protocol.messages import render

    path = sqlite_url.split(":///", 1)[1]

    async def make():
        store = await EventStore.open(sqlite_url)
        hub = Hub(store, allow_test_seeds=True)
        made, t, _people = await seat_table(hub, seats=[{"kind": "bot", "bot": "rules"}] * 3, rules=["end=hands:2"])
        for _ in range(int(scaled(400))):
            if t.status == "over":
                break
            await asyncio.sleep(0.05)
        assert t.status == "over"
        await hub.close()
        await store.close()
        return made, t.id, t.spectator_token

    made, tid, watch = asyncio.run(make())
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()
    data = bytearray(open(path, "rb").read())
    page_size = int.from_bytes(data[16:18], "big")
    leaves = _leaf_pages(bytes(data), page_size, root)
    hit = [p for p in leaves if tid.encode() in data[(p - 1) * page_size : p * page_size]]
    assert hit, "no leaf page of events holds the table's events"
    data[(hit[0] - 1) * page_size] = 0x63  # the page-type byte: garbage
    open(path, "wb").write(bytes(data))

    async def go():
        store = await EventStore.open(sqlite_url)
        hub = Hub(store, ownership=ownership_for(sqlite_url))
        await hub.ownership.start()
        assert await hub.restore() == 0  # start-up does not read it: the server starts
        app = create_app(sqlite_url)
        attach_hub(app, hub)
        hub.restored = True
        german = render(Refusal("table_broken", None, {"table": tid}), "de")
        transport = ASGITransport(app=app, client=("203.0.113.9", 4711))
        async with AsyncClient(transport=transport, base_url="http://testserver") as client:
            with caplog.at_level("ERROR", logger="ramsli.server"):
                for method, url, body in [
                    ("GET", f"/api/tables/{tid}?lang=de", None),
                    ("GET", f"/api/tables/{tid}/hands/1.json?token={watch}&lang=de", None),
                    ("POST", f"/api/tables/{tid}/rematch?lang=de", {"token": made["creator_token"]}),
                ]:
                    r = await client.request(method, url, json=body)
                    assert r.status_code == 503, (url, r.text[:300])
                    assert r.json()["code"] == "table_broken" and r.json()["message"] == german, r.json()
                for url in (f"/t/{tid}/watch/{watch}?lang=de", f"/t/{tid}/review?token={watch}&lang=de"):
                    r = await client.get(url)
                    assert r.status_code == 503 and '"code": "table_broken"' in r.text, (url, r.status_code)
                c = Conn()
                await hub.receive(c, json.dumps({"type": "hello", "token": watch, "lang": "de"}), tid)
                assert c.sent[-1]["code"] == "table_broken" and c.sent[-1]["message"] == german, c.sent
        assert tid in hub.broken and "malformed" in hub.broken[tid]
        assert not any(r.exc_info for r in caplog.records)
        said = [r.getMessage() for r in caplog.records if tid in r.getMessage()]
        assert len(said) == 1 and "broken" in said[0], said
        await hub.close()
        await hub.ownership.close()
        await store.close()

    asyncio.run(go())
