"""The table server's database: tables and their event logs.

One row per table (``tables``: id, creation time, the table spec as JSON — rules,
seats with their tokens, options — and when an admin closed it) and one row per accepted event (``events``:
``(table_id, seq)``, kind, data as JSON). The events of a table, in ``seq`` order,
are everything needed to rebuild it exactly through the engine: ``sit`` (a person
takes a seat), ``start`` (the first dealer), ``deal`` (the deck as dealt, the cut,
stacks, pot, dealer) and ``act`` (one action). The deck order and the cut are
stored here, on the server, and never sent to a client (R7, D-16).

The same code runs on SQLite (``sqlite+aiosqlite:///path``, the default: a file
in the user's data folder) and PostgreSQL (``postgresql+asyncpg://...``). The
schema is made by Alembic migrations shipped in the package
(``ramsli/server/storage/migrations``) and applied by :meth:`EventStore.open`.

Several ``ramsli serve`` processes on one PostgreSQL database share three more tables
(:mod:`ramsli.server.cluster.ownership`): ``owners`` (which process runs a table now), ``processes``
(the live processes and their addresses) and ``settings`` (the cluster's forwarding secret).
:func:`backup` copies a database while the server runs (SQLite's online backup, ``pg_dump``).

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
import logging
import os
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from ramsli.server.storage.urls import masked, scrub

__all__ = [
    "EventStore",
    "StoreError",
    "check_writable",
    "storage_reason",
    "metadata",
    "default_url",
    "MIGRATIONS",
    "check_database",
    "check_header",
    "check_file",
    "FileCheck",
    "sqlite_path",
    "backup",
]

#: where the Alembic scripts are (package data)
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

#: the PostgreSQL advisory lock held while the migrations run (processes starting together wait)
MIGRATION_LOCK = 0x52414D534C49  # "RAMSLI"

metadata = sa.MetaData()
tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("closed", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("kind", sa.String(16), nullable=False, server_default="table"),
    sa.Index("ix_tables_kind", "kind"),
    sa.Index("ix_tables_running", "finished", "closed"),
)
events_t = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)
owners_t = sa.Table(
    "owners",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("process", sa.String(40), nullable=False),
    sa.Column("lock_key", sa.BigInteger, nullable=False),
    sa.Column("since", sa.Float, nullable=False),
)
processes_t = sa.Table(
    "processes",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("address", sa.String(300), nullable=False),
    sa.Column("lock_key", sa.BigInteger, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("seen", sa.Float, nullable=False),
)
settings_t = sa.Table(
    "settings",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)


class StoreError(RuntimeError):
    """The database could not be opened or written (the message says which URL and why; a
    password in it is masked, :func:`ramsli.server.storage.urls.scrub`)."""

    def __init__(self, message: str) -> None:
        super().__init__(scrub(message))


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
        #: called with (seconds, events) after every committed batch of :meth:`append` (the metrics)
        self.commit_observers: list[Callable[[float, int], None]] = []

    @property
    def is_sqlite(self) -> bool:
        """True for an SQLite database (one server process), False for PostgreSQL."""
        return self.url.startswith("sqlite")

    @classmethod
    async def open(cls, url: str | None = None) -> EventStore:
        """Connect to ``url`` (default :func:`default_url`) and apply the migrations.

        Raises:
            StoreError: if the URL is not a supported database or cannot be reached.
        """
        url = url or default_url()
        if not (url.startswith("sqlite+aiosqlite://") or url.startswith("postgresql+asyncpg://")):
            raise StoreError(
                f"database URL {masked(url)!r} is not supported; allowed are "
                "sqlite+aiosqlite:///PATH and postgresql+asyncpg://USER@HOST:PORT/DB"
            )
        try:
            if url.startswith("sqlite"):
                # one connection: writes queue in the pool instead of in SQLite's busy-wait backoff
                engine = create_async_engine(url, pool_size=1, max_overflow=0)

                # the pragmas of every SQLite connection
                @sa.event.listens_for(engine.sync_engine, "connect")
                def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                    cur = dbapi_conn.cursor()
                    cur.execute("PRAGMA journal_mode=WAL")
                    cur.execute("PRAGMA synchronous=NORMAL")
                    cur.execute("PRAGMA foreign_keys=ON")
                    cur.close()
            else:
                engine = create_async_engine(url, pool_size=5, max_overflow=10)
            async with engine.begin() as conn:
                if not url.startswith("sqlite"):  # several processes starting at once migrate one by one
                    await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                await conn.run_sync(_upgrade)
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - any driver error becomes one clear message
            first = str(e).splitlines()[0] if str(e) else ""  # one line, not the driver's help links
            raise StoreError(f"cannot open database {masked(url)!r}: {type(e).__name__}: {first}") from None
        return cls(engine, url)

    async def close(self) -> None:
        """Finish the writes under way and close every connection."""
        if self._writer is not None:
            await self._queue.put(None)
            await self._writer
            self._writer = None
        await self.engine.dispose()

    async def create_table(self, table_id: str, spec: dict[str, Any], created: float) -> None:
        """Store a new table with its spec (JSON-ready data; ``created``: seconds since the epoch).
        A spec with ``"kind": "ledger"`` is stored as a pub ledger (:meth:`ledger_ids`)."""
        kind = "ledger" if spec.get("kind") == "ledger" else "table"
        async with self.engine.begin() as conn:
            await conn.execute(tables_t.insert().values(id=table_id, created=created, spec=json.dumps(spec), kind=kind))

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
                started = time.perf_counter()
                async with self.engine.begin() as conn:
                    await conn.execute(events_t.insert(), [row for row, _ in batch])
                self._observe(time.perf_counter() - started, len(batch))
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

    def _observe(self, seconds: float, count: int) -> None:
        for observe in self.commit_observers:
            try:
                observe(seconds, count)
            except Exception:  # noqa: BLE001 - a metric must never fail a commit
                pass

    async def load(self, ids: Iterable[str] | None = None, running: bool = False) -> list[dict[str, Any]]:
        """Every table (or those of ``ids``; with ``running``, only those neither closed nor marked
        finished, :meth:`mark_finished`): ``{"id", "created", "spec", "events": [(seq, kind,
        data), ...]}`` in creation order, ``"closed"`` (seconds since the epoch) for a table an
        admin closed and ``"finished"`` for one whose session is over.

        A table whose stored spec or events are not JSON any more gets ``"error"`` (a one-line
        reason) instead of failing the whole load.
        """
        wanted = None if ids is None else list(ids)
        tq = sa.select(tables_t).order_by(tables_t.c.created, tables_t.c.id)
        eq = sa.select(events_t).order_by(events_t.c.table_id, events_t.c.seq)
        if wanted is not None:
            if not wanted:
                return []
            tq = tq.where(tables_t.c.id.in_(wanted))
            eq = eq.where(events_t.c.table_id.in_(wanted))
        if running:
            live = sa.select(tables_t.c.id).where(tables_t.c.closed.is_(None), tables_t.c.finished.is_(None))
            tq = tq.where(tables_t.c.closed.is_(None), tables_t.c.finished.is_(None))
            eq = eq.where(events_t.c.table_id.in_(live))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(tq)).all()
            evs = (await conn.execute(eq)).all()
        by_table: dict[str, list[Any]] = {}
        errors: dict[str, str] = {}
        for e in evs:
            try:
                by_table.setdefault(e.table_id, []).append((e.seq, e.kind, json.loads(e.data)))
            except (TypeError, ValueError):
                errors.setdefault(e.table_id, f"event {e.seq} is not JSON")
        out = []
        for r in rows:
            row: dict[str, Any] = {"id": r.id, "created": r.created, "spec": None, "events": by_table.get(r.id, [])}
            if r.closed is not None:
                row["closed"] = r.closed
            if r.finished is not None:
                row["finished"] = r.finished
            try:
                row["spec"] = json.loads(r.spec)
            except (TypeError, ValueError):
                errors.setdefault(r.id, "its spec is not JSON")
            if r.id in errors:
                row["error"] = errors[r.id]
            out.append(row)
        return out

    async def load_one(self, table_id: str) -> dict[str, Any] | None:
        """The table ``table_id`` as :meth:`load` gives it, or None if there is none.

        A table whose rows sit on a damaged part of the file (SQLite: "database disk image is
        malformed") gets ``"error"`` as a damaged event does, so that it is marked broken and
        answered ``table_broken``; any other database error (locked, gone) is raised.
        """
        try:
            rows = await self.load([table_id])
        except sa.exc.DBAPIError as e:
            if not damaged(e):
                raise
            reason = f"the database cannot read it: {storage_reason(e)}"
            return {"id": table_id, "created": None, "spec": None, "events": [], "error": reason}
        return rows[0] if rows else None

    async def index(self, limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
        """Stored tables without their events: ``{"id", "created", "closed", "finished", "kind",
        "events"}`` (``kind``: ``table`` or ``ledger``; ``events``: how many are stored; times in
        seconds since the epoch), in creation order; ``limit`` rows (None: all) after skipping
        ``offset``. The events are counted for the rows of the page only (by the primary key)."""
        n = (
            sa.select(sa.func.count())
            .select_from(events_t)
            .where(events_t.c.table_id == tables_t.c.id)
            .scalar_subquery()
        )
        q = (
            sa.select(
                tables_t.c.id, tables_t.c.created, tables_t.c.closed, tables_t.c.finished, tables_t.c.kind, n.label("n")
            )
            .order_by(tables_t.c.created, tables_t.c.id)
            .offset(offset)
        )
        if limit is not None:
            q = q.limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [
            {
                "id": r.id,
                "created": r.created,
                "closed": r.closed,
                "finished": r.finished,
                "kind": r.kind,
                "events": r.n,
            }
            for r in rows
        ]

    async def count(self) -> int:
        """How many tables and ledgers are stored (one ``count(*)``)."""
        async with self.engine.connect() as conn:
            return int((await conn.execute(sa.select(sa.func.count()).select_from(tables_t))).scalar_one())

    async def ledger_ids(self) -> list[str]:
        """The ids of the pub ledgers no admin closed, in creation order (by the index on ``kind``:
        no card table is read)."""
        q = (
            sa.select(tables_t.c.id)
            .where(tables_t.c.kind == "ledger", tables_t.c.closed.is_(None))
            .order_by(tables_t.c.created, tables_t.c.id)
        )
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(q)).all()]

    async def status(self, table_id: str) -> dict[str, Any] | None:
        """``{"closed": seconds or None}`` of a stored table, or None if there is no such table
        (one cheap query: no spec, no events)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(tables_t.c.closed).where(tables_t.c.id == table_id))).first()
        return None if row is None else {"closed": row.closed}

    async def mark_closed(self, table_id: str, when: float) -> bool:
        """Record that an admin closed ``table_id`` at ``when`` (seconds since the epoch); it is never
        restored again. Returns False if there is no such open table."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                tables_t.update().where(tables_t.c.id == table_id, tables_t.c.closed.is_(None)).values(closed=when)
            )
        return bool(done.rowcount)

    async def mark_finished(self, table_ids: Iterable[str], when: float) -> int:
        """Record that the sessions of ``table_ids`` ended (``when``: seconds since the epoch): ``load(running=True)``
        leaves them out and they are read on demand. Returns how many rows
        were marked (a table already marked keeps its time)."""
        ids = list(table_ids)
        done = 0
        async with self.engine.begin() as conn:
            for i in range(0, len(ids), 500):
                result = await conn.execute(
                    tables_t.update()
                    .where(tables_t.c.id.in_(ids[i : i + 500]), tables_t.c.finished.is_(None))
                    .values(finished=when)
                )
                done += result.rowcount or 0
        return done

    async def ping(self) -> None:
        """One round trip to the database (``SELECT 1``); raises the driver's error if it is unreachable."""
        async with self.engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))


#: the first 16 bytes of every SQLite database file
SQLITE_MAGIC = b"SQLite format 3\x00"


def check_header(path: Path) -> str | None:
    """Why the SQLite file at ``path`` cannot be a sound database, from its 100-byte header and
    its size alone (no page but the first is read: the cost does not grow with the file), or None.

    Found: not an SQLite file (text, a damaged header), an impossible page size, a file shorter
    than the page count its header gives (truncated; not checked while a write-ahead log is
    pending, whose pages SQLite adds when it opens the file). A damaged page elsewhere is found
    by :func:`check_file` (``ramsli serve`` runs it in the background) and by ``ramsli backup``.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "x.sqlite"
    >>> _ = p.write_text("not a database")
    >>> check_header(p)
    'is not an SQLite database (its first bytes are not an SQLite header)'
    """
    try:
        with path.open("rb") as f:
            head = f.read(100)
            size = os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        return None  # SQLite makes a new database
    except OSError as e:
        return f"cannot be read: {e.strerror or e}"
    if size == 0:
        return None
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return "is not an SQLite database (its first bytes are not an SQLite header)"
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return f"has a damaged header (page size {page_size})"
    pages = int.from_bytes(head[28:32], "big")
    counted = pages > 0 and head[24:28] == head[92:96]  # the header's page count is valid
    wal = path.with_name(path.name + "-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    if counted and not pending and size < pages * page_size:
        return f"is truncated ({size} bytes; its header says {pages} pages of {page_size} bytes)"
    return None


class FileCheck:
    """SQLite's ``PRAGMA quick_check`` of the whole file at ``path`` (reads every page: seconds to
    a minute for a large file), on a read-only connection of its own: :meth:`run` in a thread
    (at the lowest CPU priority of that thread), :meth:`stop` from any other to give it up.

    The check runs as one SQLite call that holds no Python lock meanwhile (no progress callback),
    so the server's event loop never waits for the low-priority thread.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._stopped = False

    def run(self) -> list[str] | None:
        """``[]`` for a sound file, else SQLite's findings (at most 20 lines), or None when
        :meth:`stop` gave it up first."""
        try:  # Linux: a thread's own nice value; the server's event loop keeps its priority
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except (AttributeError, OSError):
            pass
        with self._lock:
            if self._stopped:
                return None
            try:
                conn = self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
            except sqlite3.Error as e:
                return [f"cannot be opened: {e}"]
        try:
            rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check(20)").fetchall()]
        except sqlite3.Error as e:
            return None if self._stopped else [str(e)]
        finally:
            with self._lock:
                self._conn = None
            conn.close()
        return [] if rows == ["ok"] else rows

    def stop(self) -> None:
        """Give the check up (``sqlite3.Connection.interrupt``); :meth:`run` then returns None."""
        with self._lock:
            self._stopped = True
            if self._conn is not None:
                self._conn.interrupt()


def check_file(path: Path) -> list[str] | None:
    """:class:`FileCheck` of ``path``, run here: ``[]`` for a sound file, else SQLite's findings."""
    return FileCheck(path).run()


def check_writable(path: Path) -> str | None:
    """Why the SQLite file at ``path`` cannot be written, or None: a write transaction is begun
    and rolled back (``BEGIN IMMEDIATE``, a table made and dropped unseen), so a file or a folder
    that is read-only (permissions, ``chattr +i``, a read-only mount) is found before the server
    takes a table, not at its first move. A file that does not exist yet is checked by its folder.

    >>> import tempfile
    >>> check_writable(Path(tempfile.mkdtemp()) / "new.sqlite") is None
    True
    """
    if not path.exists():
        folder = path.parent if str(path.parent) else Path(".")
        return None if os.access(folder, os.W_OK | os.X_OK) else f"cannot be made: its folder {folder} is not writable"
    try:
        conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
    except sqlite3.Error as e:
        return f"cannot be opened: {e}"
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE ramsli_write_check (x INTEGER)")
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.Error as e:
        return f"cannot be written ({e}); the server must be able to store every move"
    finally:
        conn.close()
    return None


async def check_database(url: str | None = None) -> int:
    """Open the database at ``url`` and read every running table once (finished ones are read
    when asked for); returns the number of running tables. ``ramsli serve`` calls it before it
    listens. Nothing here grows with the finished history: an SQLite file is checked by its
    header (:func:`check_header`), its schema (the migrations read it) and the pages of the
    running tables; the whole file is checked after the server is up (:func:`check_file`).

    An SQLite file must also take a write (:func:`check_writable`); a file of zero bytes starts as
    an empty database with a warning in the log (a host who lost the file sees it).

    Raises:
        StoreError: a one-line reason naming the database, e.g. for a damaged or truncated
            SQLite file, a file that is not a database, or one that cannot be written.
    """
    url = url or default_url()
    path = sqlite_path(url)
    if path is not None:
        reason = check_header(path)
        if reason is not None:
            raise StoreError(f"database {masked(url)!r} {reason}")
        if path.is_file() and path.stat().st_size == 0:
            logging.getLogger("ramsli.server").warning("the database file %s is empty: starting with no tables", path)
        reason = check_writable(path)
        if reason is not None:
            raise StoreError(f"database {masked(url)!r} {reason}")
    store = await EventStore.open(url)
    try:
        return len(await store.load(running=True))
    except StoreError:
        raise
    except Exception as e:  # noqa: BLE001 - any driver error becomes one clear message
        raise StoreError(
            f"database {masked(url)!r} cannot be read: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
        ) from None
    finally:
        await store.close()


def damaged(error: BaseException) -> bool:
    """True for a database error that says the file is damaged (SQLite's ``SQLITE_CORRUPT`` and
    ``SQLITE_NOTADB``: a :class:`sqlite3.DatabaseError` that is not an operational one), False
    for a locked, read-only, full or unreachable database, which may pass.

    >>> damaged(sqlite3.DatabaseError("database disk image is malformed"))
    True
    >>> damaged(sqlite3.OperationalError("database is locked"))
    False
    """
    inner = getattr(error, "orig", None) or error
    return isinstance(inner, sqlite3.DatabaseError) and not isinstance(
        inner, (sqlite3.OperationalError, sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.ProgrammingError)
    )


def storage_reason(error: BaseException) -> str:
    """One line of a database error, for the log: its type and its first line (the driver's
    message, not its help links nor the statement with its data).

    >>> storage_reason(sqlite3.OperationalError("attempt to write a readonly database"))
    'OperationalError: attempt to write a readonly database'
    """
    inner = getattr(error, "orig", None) or error
    text = str(inner).splitlines()[0][:200] if str(inner) else ""
    return f"{type(inner).__name__}: {text}"


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (``sqlite+aiosqlite:///PATH``), None for another database or an
    in-memory one.

    >>> sqlite_path("sqlite+aiosqlite:////srv/ramsli/server.sqlite")
    PosixPath('/srv/ramsli/server.sqlite')
    >>> sqlite_path("postgresql+asyncpg://ramsli@db/ramsli") is None
    True
    """
    if not url.startswith("sqlite"):
        return None
    rest = url.split("://", 1)[1] if "://" in url else ""
    path = rest[1:] if rest.startswith("/") else rest
    path = path.split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return Path(path)


def backup(url: str, dest: Path) -> str:
    """Copy the database at ``url`` to the file ``dest`` while servers keep running; returns what
    was made, in one line.

    SQLite: the online backup of :meth:`sqlite3.Connection.backup` (a consistent copy that is
    itself an SQLite file; the server may write meanwhile). PostgreSQL: ``pg_dump
    --format=custom`` (restore with ``pg_restore``); ``pg_dump`` must be on ``PATH``.

    Raises:
        StoreError: the source cannot be read, ``dest`` exists, or ``pg_dump`` is missing or fails.
    """
    if dest.exists():
        raise StoreError(f"{dest} exists already; a backup never overwrites a file")
    path = sqlite_path(url)
    if url.startswith("sqlite"):
        if path is None or not path.is_file():
            raise StoreError(f"database {masked(url)!r} is not an SQLite file")
        try:
            src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                out = sqlite3.connect(dest)
                try:
                    src.backup(out)
                finally:
                    out.close()
            finally:
                src.close()
            check = sqlite3.connect(dest)
            try:
                ok = check.execute("PRAGMA integrity_check").fetchone()[0]
                tables = check.execute("SELECT count(*) FROM tables").fetchone()[0]
            finally:
                check.close()
        except sqlite3.Error as e:
            dest.unlink(missing_ok=True)
            raise StoreError(f"cannot back up {masked(url)!r}: {e}") from None
        if ok != "ok":
            dest.unlink(missing_ok=True)
            raise StoreError(f"the backup of {masked(url)!r} does not check: {ok}")
        return f"{dest}: SQLite, {tables} tables and ledgers, {dest.stat().st_size} bytes"
    if not url.startswith("postgresql"):
        raise StoreError(f"database URL {masked(url)!r} is not supported")
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise StoreError("pg_dump is not installed here (Debian: apt-get install postgresql-client)")
    dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    done = subprocess.run(
        [pg_dump, "--format=custom", "--no-owner", "--file", str(dest), dsn],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=False,
    )
    if done.returncode != 0:
        dest.unlink(missing_ok=True)
        first = (done.stderr.strip().splitlines() or ["no output"])[0]
        raise StoreError(f"pg_dump failed for {masked(url)!r}: {first}")
    return f"{dest}: pg_dump custom format, {dest.stat().st_size} bytes (restore with pg_restore)"
