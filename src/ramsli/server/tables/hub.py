"""The registry of one server process's tables, without HTTP: :class:`Hub`.

:class:`Hub` owns the :class:`~ramsli.server.storage.eventstore.EventStore`, the live
:class:`~ramsli.server.tables.table.Table` objects and their
:class:`~ramsli.server.tables.bot_driver.BotDriver`: it creates, seats, starts and finds tables
(:meth:`Hub.create_table`, :meth:`Hub.sit`, :meth:`Hub.start`, :meth:`Hub.table`,
:meth:`Hub.history`), which the HTTP routes (:mod:`ramsli.server.tables.routes`) and the
in-process tests call. Every WebSocket message is checked, applied and answered in
:mod:`ramsli.server.tables.dispatch` (:meth:`Hub.receive` hands it there).

Which process runs a table is :mod:`ramsli.server.cluster.ownership`'s: with one process (SQLite) the hub
runs every table; with several on one PostgreSQL database it runs the tables it owns
(:meth:`Hub.claim`), lets them go when it drains or loses its locks (:meth:`Hub.let_go`), tells
their clients to reconnect (a ``reconnect`` message, then close code
:attr:`~ramsli.server.protocol.closecodes.CloseCode.RECONNECT`) and takes over the
tables of a process that died (:meth:`Hub.claim_orphans`, every :data:`CLAIM_SECONDS`). Every
event goes through :class:`FencedStore`: a table this process does not own (any more) commits
nothing (``moved``), and a write that collides with another process's (the log's primary key)
makes the table reload from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import random
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy.exc import IntegrityError

from ramsli.bots import make_bot
from ramsli.bots.base import bot_factory, package_bots
from ramsli.errors import TableError as EngineTableError
from ramsli.history import HandHistory
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules, RulesError, check_play_limits
from ramsli.seats import seat_name
from ramsli.server.cluster.ownership import Ownership, OwnershipLost, Peer, SingleProcess
from ramsli.server.ops.metrics import Metrics
from ramsli.server.protocol.closecodes import CloseCode
from ramsli.server.protocol.messages import SpecError, rules_refusal
from ramsli.server.protocol.schemas import MAX_MESSAGE, CreateTable, validate
from ramsli.server.tables import dispatch
from ramsli.server.tables.bot_driver import BotDriver
from ramsli.server.tables.connection import RATE_LIMIT, Connection
from ramsli.server.tables.results import CreateResult, SeatLink, SitResult, StartResult
from ramsli.server.tables.table import Table, TableOptions, TableStatus
from ramsli.session import check_setup

__all__ = [
    "Hub",
    "FencedStore",
    "RATE_LIMIT",
    "MAX_MESSAGE",
    "SpecError",
    "CLAIM_SECONDS",
]

#: seconds between two looks for tables no live process runs (several processes only)
CLAIM_SECONDS = 1.0
#: seconds the owner of a remote table is remembered before it is looked up again
OWNER_CACHE_SECONDS = 5.0


def _bot_spec(i: int, spec: str, allowed: frozenset[str] = frozenset()) -> str:
    """A seat's bot spec as a client may give it, or a :class:`SpecError` naming the seat. A bot of
    an installed package (``docs/bots.md``) is seated only if the operator allowed it (``allowed``,
    ``ramsli serve --allow-bot NAME``); it is not even imported otherwise."""
    name, _, opts = spec.partition(":")
    package = package_bots().get(name.strip())
    if package is not None and name.strip() not in allowed:  # the operator's list
        refusal = Refusal("bot_not_allowed", None, {"seat": i, "bot": name.strip(), "origin": package.origin})
        raise SpecError(refusal)
    try:
        files = getattr(bot_factory(name.strip()), "FILE_OPTIONS", ())
    except ValueError:  # a level name, or unknown: make_bot below says which
        files = ()
    named = {part.partition("=")[0].strip() for part in opts.split(",") if part.strip()}
    if named & set(files):  # a path on the server's disk: never opened for a client
        option = sorted(named & set(files))[0]
        raise SpecError(Refusal("bot_file", None, {"seat": i, "option": option}))
    try:
        make_bot(spec, seed=0)
    except ValueError as e:
        raise SpecError(Refusal("bad_bot", None, {"seat": i, "detail": str(e)})) from None
    return spec


class FencedStore:
    """The hub's :class:`~ramsli.server.storage.eventstore.EventStore` as its tables and ledgers write to it.

    Everything but :meth:`append` is the store's own. :meth:`append` commits an event only for a
    table this process may write now (it runs it, and is neither letting it go nor draining),
    counts the commits in flight per table (so a table is let go only after its last commit),
    and measures each commit.

    Raises (from :meth:`append`):
        Refused: ``moved`` (the table is not this process's to write; nothing was written).
    """

    def __init__(self, hub: Hub, store: Any) -> None:
        self._hub = hub
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def append(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        hub = self._hub
        if not hub.may_write(table_id):
            raise Refused(Refusal("moved", None, {"table": table_id}))
        hub.inflight[table_id] = hub.inflight.get(table_id, 0) + 1
        started = time.perf_counter()
        try:
            await self._store.append(table_id, seq, kind, data)
        except IntegrityError:
            if hub.ownership.solo:
                raise
            # another process wrote this seq: this copy of the table is stale; load it again
            hub.reload_soon(table_id)
            raise Refused(Refusal("moved", None, {"table": table_id})) from None
        finally:
            left = hub.inflight.get(table_id, 1) - 1
            if left:
                hub.inflight[table_id] = left
            else:
                hub.inflight.pop(table_id, None)
                async with hub._quiet:
                    hub._quiet.notify_all()
        if hub.metrics is not None:
            hub.metrics.events.labels(kind[:16]).inc()
            hub.metrics.observe_commit(time.perf_counter() - started)


class Hub:
    """All tables of one server process.

    Args:
        store: an open :class:`~ramsli.server.storage.eventstore.EventStore`.
        allow_test_seeds: accept a ``seed`` when a table is created (tests only); such
            a table says ``test_seeded`` in every view. Otherwise shuffles use
            ``secrets.SystemRandom``.
        allowed_bots: the names of installed packages' bots (``docs/bots.md``) a new table may
            seat (``ramsli serve --allow-bot NAME``); the built-in bots are always allowed.
        ownership: which tables this process runs (:mod:`ramsli.server.cluster.ownership`; default
            :class:`~ramsli.server.cluster.ownership.SingleProcess`: all of them).
        metrics: where events, commits, bot decisions and refusals are counted, or None.

    Attributes:
        store: the :class:`FencedStore` every table and ledger writes through; ``database``: the
            store itself. tables, drivers: the tables this process runs and their drivers.
        broken: tables that did not replay: id -> reason (listed as unavailable, never served).
        ledgers: the pub ledgers this process runs (several processes only; one process runs all).
        closed: ids of tables an admin closed. draining: True once :meth:`drain` began.
    """

    def __init__(
        self,
        store: Any,
        allow_test_seeds: bool = False,
        allowed_bots: Iterable[str] = (),
        ownership: Ownership | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.database = store
        self.ownership: Ownership = ownership if ownership is not None else SingleProcess()
        self.metrics = metrics
        self.store = FencedStore(self, store)
        self.allow_test_seeds = allow_test_seeds
        self.allowed_bots: frozenset[str] = frozenset(allowed_bots)
        self.tables: dict[str, Table] = {}
        self.drivers: dict[str, BotDriver] = {}
        self.broken: dict[str, str] = {}
        #: functions ``f(table)`` called for every table this hub serves (new or restored)
        self.watchers: list[Callable[[Table], None]] = []
        self.ledgers: set[str] = set()
        self.closed: set[str] = set()
        self.draining = False
        self.restored = False
        #: table id -> commits in flight (see :class:`FencedStore`)
        self.inflight: dict[str, int] = {}
        #: called with (ledger id, stored row or None) when this process starts or stops running a
        #: pub ledger (the app keeps the ledgers' books)
        self.ledger_hook: Callable[[str, dict[str, Any] | None], None] | None = None
        self.claim_seconds = CLAIM_SECONDS
        #: called when a table that allows the hint is made (the app makes the lab's kernel ready with it)
        self.on_hint_table: Callable[[], object] | None = None
        self._letting_go: set[str] = set()
        self._quiet = asyncio.Condition()  # notified whenever a table's last commit in flight ends
        self._fence_all = False
        self._claiming: dict[str, tuple[asyncio.Lock, int]] = {}  # id -> (its lock, claims waiting)
        self._solo_ledgers: set[str] = set()  # one process: ids of pub ledgers (not read on demand)
        self._reading: dict[str, asyncio.Lock] = {}  # id -> the lock of its read on demand (one process)
        self._owners: dict[str, tuple[float, Peer]] = {}
        self._claim_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._background: set[asyncio.Task[Any]] = set()
        self._marking: set[asyncio.Task[Any]] = set()  # marks of finished tables under way
        self.ownership.on_notify = self._notified
        self.ownership.on_lost = self._lost

    # -- lifecycle --------------------------------------------------------------------

    def _serve(self, t: Table) -> None:
        self.tables[t.id] = t
        for watch in self.watchers:
            watch(t)
        t.listeners.append(self._session_ended)
        driver = self.drivers[t.id] = BotDriver(t)
        if self.metrics is not None and hasattr(driver, "on_decision"):
            driver.on_decision = self.metrics.observe_bot
        driver.start()

    def _load(self, row: dict[str, Any], finished: list[str] | None = None) -> None:
        """Run one stored table (or ledger) from its row: replayed, its driver started; a table
        that does not replay is put in :attr:`broken` with its reason and logged once. With
        ``finished`` (start-up and takeovers), a table whose session is over is not run: its id
        goes to ``finished`` (the caller marks it in the database; it is read on demand)."""
        if row.get("closed") is not None:
            self.closed.add(row["id"])
            return
        if self.runs(row["id"]):
            return
        if row["spec"] is not None and row["spec"].get("kind") == "ledger":  # ramsli.server.ledger.books keeps it
            if not self.ownership.solo:
                self.ledgers.add(row["id"])
                if self.ledger_hook is not None:
                    self.ledger_hook(row["id"], row)
            else:
                self._solo_ledgers.add(row["id"])
            return
        try:
            if row.get("error"):
                raise ValueError(f"table {row['id']}: {row['error']}")
            t = Table.replay(row["id"], row["spec"], row["events"], self.store)
            t.created = row.get("created")
        except Exception as e:  # noqa: BLE001 - one damaged table must not stop the server
            reason = str(e).splitlines()[0][:300] if str(e) else type(e).__name__
            self.broken[row["id"]] = reason
            logging.getLogger("ramsli.server").error("table %s is broken and not served: %s", row["id"], reason)
            return
        if finished is not None and t.status == TableStatus.OVER:
            finished.append(t.id)
            return
        self._serve(t)

    def _session_ended(self, t: Table, kind: str) -> None:
        """A listener of every table served: right after the event that ends its session is
        committed, mark the table finished in the database (in the background; :meth:`close` waits
        for it), so that no start-up replays it. Should the mark be lost (a crash in between), the
        next start-up replays the table once and marks it (:meth:`restore`)."""
        if kind in ("act", "start") and t.status is TableStatus.OVER:
            task = asyncio.get_running_loop().create_task(self._mark_ended(t.id))
            self._marking.add(task)
            task.add_done_callback(self._marking.discard)

    async def _mark_ended(self, table_id: str) -> None:
        try:
            await self._mark_finished([table_id])
        except Exception as e:  # noqa: BLE001 - a lost mark costs the next start-up one replay only
            logging.getLogger("ramsli.server").warning("table %s was not marked finished: %s", table_id, e)

    async def _mark_finished(self, ids: list[str]) -> None:
        if ids:
            await self.database.mark_finished(ids, time.time())

    async def _on_demand(self, table_id: str) -> str:
        """Read ``table_id`` from the database and run it here (one process: a finished table,
        which start-up leaves in the database). Returns ``local``, ``unknown`` or ``closed``."""
        if table_id in self._solo_ledgers:
            return "unknown"  # a pub ledger: ramsli.server.ledger.books runs it
        lock = self._reading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                if not self.runs(table_id) and table_id not in self.closed:
                    row = await self.database.load_one(table_id)
                    if row is None:
                        return "unknown"
                    self._load(row)
        finally:
            if not lock.locked():
                self._reading.pop(table_id, None)
        if table_id in self.closed:
            return "closed"
        return "local" if self.runs(table_id) else "unknown"

    async def restore(self) -> int:
        """Rebuild the running tables by replaying their events; start their drivers. Returns the
        number of tables this process runs. A table whose session is over is not kept: it is
        marked finished in the database and read when someone asks for it (:meth:`locate`).

        One process (SQLite) runs every table. With several, this process claims the tables no
        live process runs (:meth:`claim_orphans`) and from then on looks again every
        :attr:`claim_seconds`. A table that does not replay (a damaged row, an event the engine
        refuses, a bot spec no longer allowed) is put in :attr:`broken` with its reason, logged
        once, and the other tables start normally.
        """
        if self.ownership.solo:
            finished: list[str] = []
            for row in await self.database.load(running=True):
                self._load(row, finished)
            await self._mark_finished(finished)
        else:
            await self.claim_orphans(share=False)
            self._claim_task = asyncio.get_running_loop().create_task(self._claim_loop())
        self.restored = True
        return len(self.tables)

    async def close(self) -> None:
        """Stop every table's driver and the claim loop (the database keeps everything)."""
        if self._claim_task is not None:
            self._claim_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._claim_task
            self._claim_task = None
        for driver in list(self.drivers.values()):
            await driver.stop()
        if self._marking:  # the marks under way end first (each logs its own failure)
            await asyncio.gather(*self._marking, return_exceptions=True)
        for task in list(self._background):
            task.cancel()

    # -- ownership: which process runs which table -------------------------------------------

    def may_write(self, table_id: str) -> bool:
        """True if this process may commit an event of ``table_id`` now (see :class:`FencedStore`)."""
        if self._fence_all or table_id in self._letting_go:
            return False
        if self.ownership.solo:
            return True
        return self.ownership.alive and (table_id in self.tables or table_id in self.ledgers)

    def runs(self, table_id: str) -> bool:
        """True if this process runs ``table_id`` (a table, a broken table or a ledger)."""
        return table_id in self.tables or table_id in self.broken or table_id in self.ledgers

    async def claim(self, table_id: str, on_demand: bool = True) -> str:
        """Run ``table_id`` here if no live process does: take its lock, replay its events, start
        its driver. Returns ``local`` (runs here now), ``taken`` (another process runs it),
        ``unknown`` (no such table), ``closed`` (an admin closed it), ``finished`` (not
        ``on_demand``, a takeover: its session is over, so it is marked finished in the database
        and left there, read when someone asks for it) or ``nobody`` (this process takes no
        tables now: draining, or its locks are lost)."""
        if self.runs(table_id):
            return "local"
        if self.ownership.solo:
            return await self._on_demand(table_id)
        if table_id in self.closed:
            return "closed"
        if self.draining or not self.ownership.alive:
            return "nobody"
        lock, users = self._claiming.get(table_id, (asyncio.Lock(), 0))
        self._claiming[table_id] = (lock, users + 1)
        async with lock:
            try:
                if self.runs(table_id):
                    return "local"
                status = await self.database.status(table_id)
                if status is None:
                    return "unknown"
                if status["closed"] is not None:
                    self.closed.add(table_id)
                    return "closed"
                if not await self.ownership.claim(table_id):
                    return "taken"
                row = await self.database.load_one(table_id)
                if row is None or row.get("closed") is not None:
                    await self.ownership.release(table_id)
                    return "unknown" if row is None else "closed"
                self._owners.pop(table_id, None)
                finished: list[str] | None = None if on_demand else []
                self._load(row, finished)
                if finished:
                    await self._mark_finished(finished)
                    await self.ownership.release(table_id)
                    return "finished"
                if self.metrics is not None:
                    self.metrics.claims.inc()
                logging.getLogger("ramsli.server").info(
                    "table %s now runs in process %s (seq %s)",
                    table_id,
                    self.ownership.process_id,
                    self.tables[table_id].seq if table_id in self.tables else "-",
                )
                return "local"
            except OwnershipLost:
                return "nobody"
            finally:
                lock_now, left = self._claiming[table_id]
                if left <= 1:
                    del self._claiming[table_id]
                else:
                    self._claiming[table_id] = (lock_now, left - 1)

    async def locate(self, table_id: str) -> tuple[str, Peer | None]:
        """Where ``table_id`` runs, for a request that reached this process: ``("local", None)``
        (here, claimed now if nobody ran it; one process: a finished table read from the database
        now), ``("remote", peer)`` (forward to ``peer``),
        ``("unknown", None)``, ``("closed", None)`` or ``("nobody", None)`` (nobody can serve it
        this moment: the client tries again)."""
        if self.runs(table_id):
            return "local", None
        if table_id in self.closed:
            return "closed", None
        if self.ownership.solo:
            return await self._on_demand(table_id), None
        cached = self._owners.get(table_id)
        if cached is not None and time.monotonic() - cached[0] < OWNER_CACHE_SECONDS:
            return "remote", cached[1]
        state = await self.claim(table_id)
        if state in ("local", "unknown", "closed"):
            return state, None
        try:
            for _ in range(5):  # "taken" but its owners row not yet written: ask again shortly
                peer = await self.ownership.owner_of(table_id)
                if peer is not None:
                    self._owners[table_id] = (time.monotonic(), peer)
                    return "remote", peer
                await asyncio.sleep(0.05)
        except OwnershipLost:
            pass
        return "nobody", None

    def forget_owner(self, table_id: str) -> None:
        """Forget where ``table_id`` ran (a forward to it failed): the next request looks again."""
        self._owners.pop(table_id, None)

    async def claim_orphans(self, share: bool = True) -> int:
        """Claim tables no live process runs (a process died or let them go); with ``share``, at
        most this process's share of them (their number over the live processes, rounded up), so
        that survivors split a dead process's tables. Returns how many were claimed."""
        if self.ownership.solo or self.draining or not self.ownership.alive:
            return 0
        try:
            ids = await self.ownership.orphans()
            if not ids:
                return 0
            if share:
                live = max(1, len(await self.ownership.peers()) + 1)
                random.shuffle(ids)
                ids = ids[: math.ceil(len(ids) / live)]
        except OwnershipLost:
            return 0
        claimed = 0
        for table_id in ids:
            if self.draining:
                break
            if await self.claim(table_id, on_demand=False) == "local":
                claimed += 1
        return claimed

    async def _claim_loop(self) -> None:
        log = logging.getLogger("ramsli.server")
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.claim_seconds * random.uniform(0.75, 1.25)):
                    await self._wake.wait()
            self._wake.clear()
            try:
                await self.claim_orphans()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("looking for tables to claim failed")

    async def let_go(self, table_id: str, reason: str = "moved", release: bool = True) -> None:
        """Stop running ``table_id`` here: no new commit, the commits in flight finish, the driver
        stops, every client is told (``reconnect``; for ``closed`` a ``table_closed`` error and
        close code 4004), then the lock is released (``release``) so another process claims it."""
        self._letting_go.add(table_id)
        try:
            async with self._quiet:
                await self._quiet.wait_for(lambda: not self.inflight.get(table_id))
            t = self.tables.pop(table_id, None)
            driver = self.drivers.pop(table_id, None)
            if driver is not None:
                await driver.stop()
            if t is not None:
                conns = [s.conn for s in t.seats if s.conn is not None] + list(t.spectators)
                for conn in conns:
                    if not isinstance(conn, Connection):
                        continue
                    if reason == "closed":
                        conn.refuse(Refused(Refusal("table_closed", None, {"table": table_id})))
                        conn.close_with(CloseCode.NO_TABLE, "table_closed")
                    else:
                        conn.reconnect(reason, after_ms=random.randint(200, 800))
            self.broken.pop(table_id, None)
            if table_id in self.ledgers or (reason == "closed" and self.ledger_hook is not None):
                self.ledgers.discard(table_id)
                if self.ledger_hook is not None:
                    self.ledger_hook(table_id, None)
            if release:
                await self.ownership.release(table_id)
            if self.metrics is not None:
                self.metrics.releases.inc()
        finally:
            self._letting_go.discard(table_id)

    def reload_soon(self, table_id: str) -> None:
        """Let ``table_id`` go now and claim it again from the log (its copy here is stale)."""

        async def reload() -> None:
            await self.let_go(table_id, "moved")
            await self.claim(table_id)

        self._spawn(reload())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> list[str]:
        """SIGTERM: take no new table, let every table go after its commits in flight (their
        clients are told to reconnect; several processes: the others claim them at once, told by
        ``NOTIFY``). Returns the ids let go."""
        if self.draining:
            return []
        self.draining = True
        ids = list(self.tables) + [i for i in self.broken if i not in self.tables] + sorted(self.ledgers)
        await asyncio.gather(*(self.let_go(i, "draining") for i in ids), return_exceptions=True)
        self._fence_all = True  # pub ledgers of one process too: nothing is written from now on
        async with self._quiet:
            await self._quiet.wait_for(lambda: not self.inflight)
        if ids and not self.ownership.solo:
            await self.ownership.notify({"kind": "released", "tables": ids})
        return ids

    async def close_table(self, table_id: str) -> bool:
        """An admin closes ``table_id`` (a table or a ledger) for good: recorded in the database
        (it is never restored again), its clients get ``table_closed``. The process that runs it
        is told by ``NOTIFY``. Returns False if it was closed already.

        Raises:
            Refused: ``no_table``.
        """
        status = await self.database.status(table_id)
        if status is None:
            raise Refused(Refusal("no_table", None, {"table": table_id[:40]}))
        if status["closed"] is not None:
            self.closed.add(table_id)
            return False
        await self.database.mark_closed(table_id, time.time())
        self.closed.add(table_id)
        if self.runs(table_id) or self.ownership.solo:
            await self.let_go(table_id, "closed")
        else:
            await self.ownership.notify({"kind": "close", "table": table_id})
        return True

    async def _notified(self, data: dict[str, Any]) -> None:
        kind = data.get("kind")
        if kind == "released":
            self._wake.set()
        elif kind == "close" and isinstance(data.get("table"), str):
            table_id = data["table"]
            self.closed.add(table_id)
            self._owners.pop(table_id, None)
            if self.runs(table_id):
                await self.let_go(table_id, "closed")

    async def _lost(self) -> None:
        """The locks are gone: run nothing any more (another process claims the tables)."""
        ids = list(self.tables) + [i for i in self.broken if i not in self.tables] + sorted(self.ledgers)
        await asyncio.gather(*(self.let_go(i, "moved", release=False) for i in ids), return_exceptions=True)

    def live(self) -> dict[str, Any]:
        """What the metrics read at scrape time: tables by status, ledgers, draining."""
        by: dict[str, int] = {}
        for t in self.tables.values():
            by[str(t.status)] = by.get(str(t.status), 0) + 1
        by["broken"] = len(self.broken)
        return {"tables": by, "ledgers": len(self.ledgers), "draining": int(self.draining)}

    # -- HTTP requests ------------------------------------------------------------------

    def parse_spec(
        self, body: CreateTable | dict[str, Any]
    ) -> tuple[Rules, str, list[dict[str, Any]], TableOptions, int | None]:
        """Check a create-table request (``docs/protocol.md``): its shape
        (:class:`~ramsli.server.protocol.schemas.CreateTable`), the rules (R6, R8, within play), the
        set-up (:func:`ramsli.session.check_setup`: 2..6 seats, the ``players`` option, the
        ante, R2.1, R3.5), each bot spec and the seed.

        Returns:
            (rules, preset, seats as ``{"kind", "bot"}``, options, seed).

        Raises:
            BadMessage: a field missing, unknown or of the wrong type (named).
            SpecError: the first thing that cannot be made, and what is allowed.
        """
        spec = body if isinstance(body, CreateTable) else validate(CreateTable, body)
        try:
            rules = Rules.preset(spec.preset).with_assignments(spec.rules)
            check_play_limits(rules)  # counters and session ends within play (R3.3, R3.6)
        except RulesError as e:
            raise SpecError(rules_refusal(e)) from None
        try:
            check_setup(rules, len(spec.seats))
        except EngineTableError as e:
            raise SpecError(e.refusal) from None
        seats: list[dict[str, Any]] = []
        for i, s in enumerate(spec.seats):
            if s.kind == "bot":
                seats.append(
                    {"kind": "bot", "bot": _bot_spec(i, s.bot if s.bot is not None else "rules", self.allowed_bots)}
                )
            else:
                seats.append({"kind": "human", "bot": None})
        if spec.seed is not None and not self.allow_test_seeds:
            raise SpecError(Refusal("seed_off"))
        opts = TableOptions(
            grace_seconds=spec.grace_seconds,
            turn_seconds=spec.turn_seconds,
            bot_pace_seconds=spec.bot_pace_seconds,
            hand_pause_seconds=spec.hand_pause_seconds,
            hint=spec.hint,
        )
        return rules, spec.preset, seats, opts, spec.seed

    async def create_table(self, body: CreateTable | dict[str, Any]) -> CreateResult:
        """Create a table from a request body; returns its links (``docs/protocol.md``).

        Raises:
            BadMessage, SpecError: for a bad request (nothing is stored).
        """
        body = body if isinstance(body, CreateTable) else validate(CreateTable, body)
        rules, preset, seats, opts, seed = self.parse_spec(body)
        if self.draining:
            raise Refused(Refusal("draining"))
        if body.test_tamper and (seed is None or not self.allow_test_seeds):
            raise SpecError(Refusal("tamper_off"))
        spec = Table.new_spec(rules, preset, seats, opts, seed)
        if body.test_tamper:
            spec["test_tamper"] = True
        table_id = (await self.add_table(spec)).id
        return CreateResult(
            table=table_id,
            creator_token=spec["creator_token"],
            seats=tuple(SeatLink(i, s["kind"], s["bot"], s["token"]) for i, s in enumerate(spec["seats"])),
            spectator_token=spec["spectator_token"],
        )

    async def add_table(self, spec: dict[str, Any]) -> Table:
        """Store a new table of ``spec`` (:meth:`Table.new_spec`, already checked) under a fresh
        random id and serve it (its bot driver started); returns it."""
        if self.draining:
            raise Refused(Refusal("draining"))
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        if not self.ownership.solo:  # owned before its row exists: no other process claims it first
            try:
                if not await self.ownership.claim(table_id):
                    raise Refused(Refusal("storage"))
            except OwnershipLost:
                raise Refused(Refusal("draining")) from None
        created = time.time()
        await self.database.create_table(table_id, spec, created)
        if not self.ownership.solo:
            with contextlib.suppress(OwnershipLost):
                await self.ownership.note_created(table_id)
        t = Table(table_id, spec, self.store)
        t.created = created
        self._serve(t)
        return t

    def table(self, table_id: Any) -> Table:
        """The table ``table_id``.

        Raises:
            Refused: ``no_table``, ``table_broken``, ``table_closed``.
        """
        t = self.tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            if isinstance(table_id, str) and table_id in self.broken:
                raise Refused(Refusal("table_broken", None, {"table": table_id}))
            if isinstance(table_id, str) and table_id in self.closed:
                raise Refused(Refusal("table_closed", None, {"table": table_id}))
            raise Refused(Refusal("no_table", None, {"table": str(table_id)[:40]}))
        return t

    async def sit(self, table_id: Any, token: Any, name: Any, client: str = "person") -> SitResult:
        """A person (``client="bot"``: a program) sits down (see :meth:`Table.sit`); the result's
        ``token`` is the seat's personal token: the only one that acts for the seat from now on."""
        t = self.table(table_id)
        seat = await t.sit(token, name, client)
        return SitResult(seat.index, seat.pending is not None, seat.personal or seat.token)

    async def start(self, table_id: Any, creator_token: Any) -> StartResult:
        """The creator starts the session (see :meth:`Table.start`)."""
        t = self.table(table_id)
        await t.start(creator_token)
        return StartResult(t.status, t.seq)

    def history(self, table_id: Any, number: int, token: Any) -> str:
        """The hand history (TOML) of finished hand ``number``, folded hands and the cut hidden (R7, D-16);
        a seat's own token also shows that seat's own cards (when it sat there in that hand). It
        carries the deal's commitments and the openings of exactly the cards shown
        (``[fairness]``, ``docs/fairness.md``), so ``ramsli verify`` can check it.

        Raises:
            Refused: ``no_table``, ``bad_token`` (not a token of this table), ``no_hand``.
        """
        t = self.table(table_id)
        if t.seat_of_token(token) is None and not t.is_spectator(token) and not t.is_creator(token):
            raise Refused(Refusal("bad_token"))
        s = t.session
        entry = s.results[number - 1] if s is not None and 1 <= number <= len(s.results) else None
        if entry is None or entry.hand is None:
            raise Refused(Refusal("no_hand", None, {"number": number}))
        names = [seat.name or seat_name(seat.index) for seat in t.seats]
        hh = HandHistory.from_hand(entry.hand, names, entry.number, hide_folded=True)
        hh = dataclasses.replace(hh, cut=None)  # the cut is never shown (R7, D-16)
        own = t.owner_of(token)  # an invite link (the creator holds them all) owns no cards (R7, D-16)
        if own is not None and t.own_cards_shown(own, number):  # a seat's own download shows its own cards
            cards = list(hh.cards)
            cards[own.index] = tuple(entry.hand.dealt[own.index])
            hh = dataclasses.replace(hh, cards=tuple(cards))
        # the deal's commitments and this reader's openings: its own cards only as above (R7, D-16)
        hh = dataclasses.replace(hh, fairness=t.proof(number, own))
        return hh.to_toml()

    # -- WebSocket messages -------------------------------------------------------------

    async def receive(self, conn: Connection, raw: Any, table_id: str | None = None) -> None:
        """One client message of ``conn`` at this hub: :func:`ramsli.server.tables.dispatch.receive`
        (where every WebSocket message is checked, applied and answered)."""
        await dispatch.receive(self, conn, raw, table_id)

    def disconnect(self, conn: Connection) -> None:
        """The transport of ``conn`` closed (:func:`ramsli.server.tables.dispatch.disconnect`)."""
        dispatch.disconnect(conn)
