"""The table server's database: tables and their event logs.

One row per table (``tables``: id, creation time, the table spec as JSON — rules,
seats with their tokens, options) and one row per accepted event (``events``:
``(table_id, seq)``, kind, data as JSON). The events of a table, in ``seq`` order,
are everything needed to rebuild it exactly through the engine: ``sit`` (a person
takes a seat), ``start`` (the first dealer), ``deal`` (the deck as dealt, the cut,
stacks, pot, dealer) and ``act`` (one action). The deck order and the cut are
stored here, on the server, and never sent to a client (R7, D-16).

The same code runs on SQLite (``sqlite+aiosqlite:///path``, the default: a file
in the user's data folder) and PostgreSQL (``postgresql+asyncpg://...``). The
schema is made by Alembic migrations shipped in the package
(``ramsli/server/migrations``) and applied by :meth:`EventStore.open`.

>>> import asyncio, tempfile, os
>>> async def demo(url):
...     store = await EventStore.open(url)
...     await store.create_table("t1", {"rules": {}}, 0.0)
...     await store.append("t1", 1, "sit", {"seat": 0, "name": "Ann"})
...     rows = await store.load()
...     await store.close()
...     return rows[0]["id"], rows[0]["events"]
>>> d = tempfile.mkdtemp()
>>> asyncio.run(demo(f"sqlite+aiosqlite:///{d}/t.sqlite"))
('t1', [(1, 'sit', {'seat': 0, 'name': 'Ann'})])
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

__all__ = ["EventStore", "StoreError", "metadata", "default_url", "MIGRATIONS", "check_database"]

#: where the Alembic scripts are (package data)
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

metadata = sa.MetaData()
tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
)
events_t = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)


class StoreError(RuntimeError):
    """The database could not be opened or written (the message says which URL and why)."""


def default_url() -> str:
    """The default database: ``server.sqlite`` in ``platformdirs.user_data_dir("ramsli")``."""
    folder = Path(platformdirs.user_data_dir("ramsli"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'server.sqlite'}"


def _upgrade(sync_conn: Any) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")


class EventStore:
    """An open database of tables and events. Create with :meth:`open`.

    Every write is its own committed transaction: when :meth:`append` returns,
    the event survives a crash of the server process (SQLite in WAL mode with
    ``synchronous=NORMAL``, or PostgreSQL).
    """

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str | None = None) -> EventStore:
        """Connect to ``url`` (default :func:`default_url`) and apply the migrations.

        Raises:
            StoreError: if the URL is not a supported database or cannot be reached.
        """
        url = url or default_url()
        if not (url.startswith("sqlite+aiosqlite://") or url.startswith("postgresql+asyncpg://")):
            raise StoreError(
                f"database URL {url!r} is not supported; allowed are "
                "sqlite+aiosqlite:///PATH and postgresql+asyncpg://USER@HOST:PORT/DB"
            )
        try:
            if url.startswith("sqlite"):
                # one connection: writes queue in the pool instead of in SQLite's busy-wait backoff
                engine = create_async_engine(url, pool_size=1, max_overflow=0)

                @sa.event.listens_for(engine.sync_engine, "connect")
                def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised on every SQLite connect
                    cur = dbapi_conn.cursor()
                    cur.execute("PRAGMA journal_mode=WAL")
                    cur.execute("PRAGMA synchronous=NORMAL")
                    cur.execute("PRAGMA foreign_keys=ON")
                    cur.close()
            else:
                engine = create_async_engine(url, pool_size=5, max_overflow=10)
            async with engine.begin() as conn:
                await conn.run_sync(_upgrade)
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - any driver error becomes one clear message
            first = str(e).splitlines()[0] if str(e) else ""  # one line, not the driver's help links
            raise StoreError(f"cannot open database {url!r}: {type(e).__name__}: {first}") from None
        return cls(engine, url)

    async def close(self) -> None:
        """Finish the writes under way and close every connection."""
        if self._writer is not None:
            await self._queue.put(None)
            await self._writer
            self._writer = None
        await self.engine.dispose()

    async def create_table(self, table_id: str, spec: dict[str, Any], created: float) -> None:
        """Store a new table with its spec (JSON-ready data)."""
        async with self.engine.begin() as conn:
            await conn.execute(tables_t.insert().values(id=table_id, created=created, spec=json.dumps(spec)))

    async def append(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Commit one event; returns once it is committed. ``seq`` must be the table's next number.

        Events of many tables arriving together are committed in one transaction (group
        commit); each caller still returns only after its own event is committed.

        Raises:
            sqlalchemy.exc.IntegrityError: if event ``seq`` already exists (never written twice).
        """
        if self._writer is None or self._writer.done():
            self._queue = asyncio.Queue()
            self._writer = asyncio.get_running_loop().create_task(self._write())
        fut = asyncio.get_running_loop().create_future()
        row = {"table_id": table_id, "seq": seq, "kind": kind, "data": json.dumps(data)}
        await self._queue.put((row, fut))
        await fut

    async def _write(self) -> None:
        """The one writer: drain the queue, commit the batch, tell every waiter."""
        queue = self._queue
        while True:
            item = await queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while not queue.empty() and len(batch) < 500:
                nxt = queue.get_nowait()
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(events_t.insert(), [row for row, _ in batch])
                for _, fut in batch:
                    if not fut.done():
                        fut.set_result(None)
            except Exception:  # noqa: BLE001 - one bad event must not fail the others: one by one
                for row, fut in batch:
                    try:
                        async with self.engine.begin() as conn:
                            await conn.execute(events_t.insert(), [row])
                        if not fut.done():
                            fut.set_result(None)
                    except Exception as e:  # noqa: BLE001
                        if not fut.done():
                            fut.set_exception(e)
            if stop:
                return

    async def load(self) -> list[dict[str, Any]]:
        """Every table: ``{"id", "created", "spec", "events": [(seq, kind, data), ...]}`` in creation order.

        A table whose stored spec or events are not JSON any more gets ``"error"`` (a one-line
        reason) instead of failing the whole load.
        """
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(tables_t).order_by(tables_t.c.created, tables_t.c.id))).all()
            evs = (await conn.execute(sa.select(events_t).order_by(events_t.c.table_id, events_t.c.seq))).all()
        by_table: dict[str, list] = {}
        errors: dict[str, str] = {}
        for e in evs:
            try:
                by_table.setdefault(e.table_id, []).append((e.seq, e.kind, json.loads(e.data)))
            except (TypeError, ValueError):
                errors.setdefault(e.table_id, f"event {e.seq} is not JSON")
        out = []
        for r in rows:
            row: dict[str, Any] = {"id": r.id, "created": r.created, "spec": None, "events": by_table.get(r.id, [])}
            try:
                row["spec"] = json.loads(r.spec)
            except (TypeError, ValueError):
                errors.setdefault(r.id, "its spec is not JSON")
            if r.id in errors:
                row["error"] = errors[r.id]
            out.append(row)
        return out


async def check_database(url: str | None = None) -> int:
    """Open the database at ``url``, check it (SQLite: ``PRAGMA quick_check``) and read every
    table once; returns the number of tables. ``ramsli serve`` calls it before it listens.

    Raises:
        StoreError: a one-line reason naming the database, e.g. for a damaged or truncated
            SQLite file or a file that is not a database.
    """
    url = url or default_url()
    store = await EventStore.open(url)
    try:
        if url.startswith("sqlite"):
            async with store.engine.connect() as conn:
                result = [row[0] for row in (await conn.execute(sa.text("PRAGMA quick_check"))).all()]
            if result != ["ok"]:
                raise StoreError(f"database {url!r} is damaged: {'; '.join(map(str, result))[:200]}")
        return len(await store.load())
    except StoreError:
        raise
    except Exception as e:  # noqa: BLE001 - any driver error becomes one clear message
        raise StoreError(
            f"database {url!r} cannot be read: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
        ) from None
    finally:
        await store.close()
