"""Which server process runs which table: exactly one at a time, owned through the database.

A table (or a pub ledger) lives in the memory of one process, which alone commits its events.
Two kinds of ownership:

- :class:`SingleProcess` (SQLite, the default, and the in-process tests): this process owns
  every table. :meth:`SingleProcess.start` takes an exclusive lock on a file beside the SQLite
  database (``server.sqlite.lock``), so a second ``ramsli serve`` on the same file is refused with
  a clear message instead of corrupting it; the operating system frees the lock when the process
  ends, however it ends.
- :class:`PostgresOwnership` (several ``ramsli serve`` processes on one PostgreSQL database): a
  process owns a table while it holds a session-level **advisory lock** on the table's key
  (:func:`lock_key`) on its one dedicated connection. When the process dies, PostgreSQL ends
  that connection and frees every lock itself; the other processes see the table's lock gone
  (:meth:`PostgresOwnership.orphans`, a query on ``pg_locks``) and one of them claims it and
  replays its events. The ``owners`` row of a table only says which process holds it and
  where that process listens (``processes``), so a peer can forward a client there; the lock
  is the truth. A second safety net is the event log's primary key ``(table_id, seq)``: an
  event is never written twice, whoever tries.

Changes that every process must hear travel by PostgreSQL ``LISTEN/NOTIFY`` on the channel
:data:`CHANNEL`: ``{"kind": "released", "tables": [...]}`` (a draining process let its tables
go: claim them now) and ``{"kind": "close", "table": id}`` (an admin closed a table: its owner
lets it go for good).

>>> lock_key("k3Xb9q") == lock_key("k3Xb9q") and 0 <= lock_key("k3Xb9q") < 2**63
True
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from ramsli.server.storage.eventstore import StoreError, sqlite_path
from ramsli.server.storage.urls import masked

__all__ = [
    "Ownership",
    "SingleProcess",
    "PostgresOwnership",
    "OwnershipLost",
    "Peer",
    "CHANNEL",
    "lock_key",
    "ownership_for",
]

#: the LISTEN/NOTIFY channel of the server processes
CHANNEL = "ramsli"
#: the largest NOTIFY payload sent, bytes (PostgreSQL allows 8000)
NOTIFY_MAX = 7000

_log = logging.getLogger("ramsli.server")


def lock_key(name: str) -> int:
    """The advisory-lock key (a positive 63-bit integer) of a table id or a process id."""
    digest = hashlib.blake2b(f"ramsli:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class OwnershipLost(RuntimeError):
    """The connection that holds this process's locks is gone: it owns no table any more."""


class Peer:
    """Another live server process: its id and the address it is forwarded to (``http://host:port``)."""

    def __init__(self, process: str, address: str) -> None:
        self.process = process
        self.address = address

    def __repr__(self) -> str:
        return f"Peer({self.process!r}, {self.address!r})"


class Ownership:
    """What the hub asks of an ownership (the base class is :class:`SingleProcess`'s behaviour).

    Attributes:
        process_id: this process's id (random, 12 characters).
        address: where peers forward requests to this process (``http://host:port``).
        solo: True if this process owns every table (no peers, nothing to forward).
        forward_secret: the value peers send in ``X-Ramsli-Forward`` (None when solo).
        alive: False while the locks are lost (readiness fails, nothing is served).
        on_notify: called with each notification's payload (a dict).
        on_lost: called once when the locks are lost.
    """

    solo = True

    def __init__(self, address: str = "") -> None:
        self.process_id = secrets.token_hex(6)
        self.address = address
        self.forward_secret: str | None = None
        self.alive = True
        self.on_notify: Callable[[dict[str, Any]], Coroutine[Any, Any, None]] | None = None
        self.on_lost: Callable[[], Awaitable[None]] | None = None

    async def start(self) -> None:
        """Begin (take the locks this kind of ownership needs)."""

    async def close(self) -> None:
        """Let everything go (at shutdown)."""

    async def claim(self, table_id: str) -> bool:
        """Try to become the owner of ``table_id``; True if this process owns it now."""
        return True

    async def note_created(self, table_id: str) -> None:
        """Record the owner of a table claimed before its ``tables`` row existed."""

    async def release(self, table_id: str) -> None:
        """Stop owning ``table_id`` (after its last commit)."""

    async def owner_of(self, table_id: str) -> Peer | None:
        """The live process that owns ``table_id``, or None if none does (or it is this one)."""
        return None

    async def orphans(self) -> list[str]:
        """Ids of running tables (and ledgers: neither closed nor marked finished) no live process owns."""
        return []

    async def peers(self) -> list[Peer]:
        """The other live processes."""
        return []

    async def notify(self, payload: dict[str, Any]) -> None:
        """Tell every process (``LISTEN/NOTIFY``); a no-op for a single process."""


class SingleProcess(Ownership):
    """This process owns every table. With ``database`` an SQLite URL, :meth:`start` locks the
    file ``<database>.lock`` so that a second process on the same database is refused.

    Raises (from :meth:`start`):
        StoreError: another process holds the lock (the message names the file and its process id).
    """

    def __init__(self, database: str | None = None, address: str = "") -> None:
        super().__init__(address)
        self.database = database
        self._lock_file: Any = None

    async def start(self) -> None:
        path = sqlite_path(self.database) if self.database else None
        if path is not None and self._lock_file is None:
            self._lock(path)

    def _lock(self, path: Path) -> None:
        lock_path = path.with_name(path.name + ".lock")
        f = open(lock_path, "a+")  # held open for the life of the process
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            raise StoreError(
                f"the SQLite database {path} is in use by another ramsli serve (process {holder}); "
                "SQLite serves one process: stop that one, or use PostgreSQL (--database "
                "postgresql+asyncpg://...) to run several"
            ) from None
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self._lock_file = f

    async def close(self) -> None:
        if self._lock_file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_file.fileno(), fcntl.LOCK_UN)
            self._lock_file.close()
            self._lock_file = None


_HELD = """EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND ((l.classid::bigint << 32) | l.objid::bigint) = {key})"""


class PostgresOwnership(Ownership):
    """Ownership of tables through PostgreSQL advisory locks (see the module's notes).

    Args:
        url: the database (``postgresql+asyncpg://...``).
        address: where peers forward to this process (``http://host:port``).
        keepalive_seconds: how soon PostgreSQL notices a vanished machine (TCP keepalives on
            the lock connection: idle seconds before the first probe; three probes a second apart).
        heartbeat_seconds: how often the lock connection is checked from this side.

    The connection's ``application_name`` is ``ramsli <process id>``: ``pg_stat_activity``
    shows which connection holds a process's tables.
    """

    solo = False

    def __init__(self, url: str, address: str, keepalive_seconds: int = 5, heartbeat_seconds: float = 2.0) -> None:
        super().__init__(address)
        self.url = url
        self.dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
        self.keepalive_seconds = keepalive_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self.held: set[str] = set()
        self.conn: Any = None
        self._q = asyncio.Lock()
        self._heartbeat: asyncio.Task[None] | None = None
        self._closing = False

    # -- the one connection -----------------------------------------------------------------

    async def start(self) -> None:
        import asyncpg

        try:
            self.conn = await asyncpg.connect(
                self.dsn,
                server_settings={
                    "application_name": f"ramsli {self.process_id}",
                    "tcp_keepalives_idle": str(self.keepalive_seconds),
                    "tcp_keepalives_interval": "1",
                    "tcp_keepalives_count": "3",
                },
                timeout=10,
            )
        except Exception as e:  # noqa: BLE001 - any driver error becomes one clear message
            raise StoreError(f"cannot open the lock connection to {masked(self.url)!r}: {e}") from None
        self.alive = True
        self.held.clear()
        self.conn.add_termination_listener(self._terminated)
        await self.conn.add_listener(CHANNEL, self._notified)
        now = time.time()
        key = lock_key("process:" + self.process_id)
        async with self._q:
            await self.conn.execute("SELECT pg_advisory_lock($1)", key)
            await self.conn.execute(
                "INSERT INTO processes (id, address, lock_key, started, seen) VALUES ($1, $2, $3, $4, $4) "
                "ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address, seen = EXCLUDED.seen",
                self.process_id,
                self.address,
                key,
                now,
            )
            await self.conn.execute(
                "INSERT INTO settings (name, value) VALUES ('forward_secret', $1) ON CONFLICT (name) DO NOTHING",
                secrets.token_urlsafe(24),
            )
            self.forward_secret = await self.conn.fetchval("SELECT value FROM settings WHERE name = 'forward_secret'")
        await self._forget_dead()
        if self._heartbeat is None or self._heartbeat.done():
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def close(self) -> None:
        self._closing = True
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._heartbeat
        if self.conn is not None and not self.conn.is_closed():
            with contextlib.suppress(Exception):
                async with self._q:
                    await self.conn.execute("DELETE FROM owners WHERE process = $1", self.process_id)
                    await self.conn.execute("DELETE FROM processes WHERE id = $1", self.process_id)
            with contextlib.suppress(Exception):
                await self.conn.close(timeout=5)
        self.held.clear()

    def _terminated(self, _conn: Any) -> None:
        if not self._closing:
            asyncio.get_running_loop().create_task(self._lose("the lock connection ended"))

    async def _lose(self, why: str) -> None:
        if not self.alive or self._closing:
            return
        self.alive = False
        self.held.clear()
        _log.error("process %s lost its table locks: %s", self.process_id, why)
        if self.on_lost is not None:
            await self.on_lost()

    async def _beat(self) -> None:
        """Check the lock connection every ``heartbeat_seconds``; after losing it, reconnect."""
        while not self._closing:
            await asyncio.sleep(self.heartbeat_seconds)
            if self.alive:
                try:
                    async with self._q:
                        await self.conn.execute(
                            "UPDATE processes SET seen = $2 WHERE id = $1",
                            self.process_id,
                            time.time(),
                            timeout=max(1.0, self.heartbeat_seconds * 2),
                        )
                except Exception as e:  # noqa: BLE001 - any failure means the locks may be gone
                    with contextlib.suppress(Exception):
                        self.conn.terminate()
                    await self._lose(f"{type(e).__name__}: {e}")
                    continue
                with contextlib.suppress(Exception):
                    await self._forget_dead()
            else:
                with contextlib.suppress(Exception):
                    await self.start()  # a new connection, no tables yet: the claim loop takes some
                    _log.warning("process %s has its lock connection again", self.process_id)

    async def _forget_dead(self) -> None:
        """Remove the rows of processes whose lock is gone (they died)."""
        async with self._q:
            await self.conn.execute(
                "DELETE FROM owners o WHERE NOT " + _HELD.format(key="o.lock_key"),
            )
            await self.conn.execute(
                "DELETE FROM processes p WHERE p.id <> $1 AND NOT " + _HELD.format(key="p.lock_key"),
                self.process_id,
            )

    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            data = json.loads(payload)
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("from") == self.process_id or self.on_notify is None:
            return
        asyncio.get_running_loop().create_task(self.on_notify(data))

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        if not self.alive or self.conn is None:
            raise OwnershipLost("the lock connection is gone")
        async with self._q:
            result: list[Any] = await self.conn.fetch(sql, *args)
            return result

    # -- tables -----------------------------------------------------------------------------

    async def claim(self, table_id: str) -> bool:
        if table_id in self.held:
            return True
        key = lock_key(table_id)
        rows = await self._fetch("SELECT pg_try_advisory_lock($1) AS got", key)
        if not rows[0]["got"]:
            return False
        self.held.add(table_id)
        try:
            await self._fetch(
                "INSERT INTO owners (table_id, process, lock_key, since) "
                "SELECT $1::varchar, $2::varchar, $3::bigint, $4::float8 WHERE EXISTS (SELECT 1 FROM tables WHERE id = $1) "
                "ON CONFLICT (table_id) DO UPDATE SET process = EXCLUDED.process, since = EXCLUDED.since",
                table_id,
                self.process_id,
                key,
                time.time(),
            )
        except OwnershipLost:
            raise
        except Exception:  # noqa: BLE001 - the row is only a hint; the lock is held
            _log.exception("table %s: its owners row was not written", table_id)
        return True

    async def note_created(self, table_id: str) -> None:
        """Write the ``owners`` row of a table claimed before its ``tables`` row existed."""
        if table_id in self.held:
            await self._fetch(
                "INSERT INTO owners (table_id, process, lock_key, since) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (table_id) DO UPDATE SET process = EXCLUDED.process, since = EXCLUDED.since",
                table_id,
                self.process_id,
                lock_key(table_id),
                time.time(),
            )

    async def release(self, table_id: str) -> None:
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        with contextlib.suppress(OwnershipLost):
            await self._fetch("DELETE FROM owners WHERE table_id = $1 AND process = $2", table_id, self.process_id)
            await self._fetch("SELECT pg_advisory_unlock($1)", lock_key(table_id))

    async def owner_of(self, table_id: str) -> Peer | None:
        rows = await self._fetch(
            "SELECT o.process, p.address FROM owners o JOIN processes p ON p.id = o.process "
            "WHERE o.table_id = $1 AND o.process <> $2 AND " + _HELD.format(key="o.lock_key"),
            table_id,
            self.process_id,
        )
        return Peer(rows[0]["process"], rows[0]["address"]) if rows else None

    async def orphans(self) -> list[str]:
        rows = await self._fetch(
            "SELECT t.id FROM tables t LEFT JOIN owners o ON o.table_id = t.id "
            "WHERE t.closed IS NULL AND t.finished IS NULL AND (o.table_id IS NULL OR NOT "
            + _HELD.format(key="o.lock_key")
            + ") "
            "ORDER BY t.created"
        )
        return [r["id"] for r in rows if r["id"] not in self.held]

    async def peers(self) -> list[Peer]:
        rows = await self._fetch(
            "SELECT p.id, p.address FROM processes p WHERE p.id <> $1 AND " + _HELD.format(key="p.lock_key"),
            self.process_id,
        )
        return [Peer(r["id"], r["address"]) for r in rows]

    async def notify(self, payload: dict[str, Any]) -> None:
        body = dict(payload, **{"from": self.process_id})
        tables = body.get("tables")
        if isinstance(tables, list) and len(json.dumps(body)) > NOTIFY_MAX:  # split a long list
            half = len(tables) // 2
            await self.notify(dict(payload, tables=tables[:half]))
            await self.notify(dict(payload, tables=tables[half:]))
            return
        with contextlib.suppress(OwnershipLost):
            await self._fetch("SELECT pg_notify($1, $2)", CHANNEL, json.dumps(body))


def ownership_for(database: str, address: str = "") -> Ownership:
    """The ownership a server on ``database`` uses: :class:`PostgresOwnership` for PostgreSQL,
    :class:`SingleProcess` (with its file lock) for SQLite."""
    if database.startswith("postgresql"):
        return PostgresOwnership(database, address)
    return SingleProcess(database, address)
