"""Who moves when no person does: every bot move of a server table is made here.

A :class:`BotDriver` runs one task per table. It waits until the table needs a move nobody
will make in time and makes it (:class:`JobKind`):

- ``bot``: a seat a bot plays for good (a bot seat, or a human seat nobody took), after the
  table's ``bot_pace_seconds``;
- ``proxy``: a person's seat while they are away, once ``grace_seconds`` have passed, or at
  once when they left the table or the creator handed the seat to the bot (the
  :data:`~ramsli.server.tables.table.FILL_BOT` plays it until they are back);
- ``timer``: a person's move when ``turn_seconds`` run out;
- ``recheck``: nothing to play yet, but a grace period ends now (the views say ``bot_playing``);
- ``deal``: the next hand, as soon as every connected person closed the last hand's summary,
  at most ``hand_pause_seconds`` after the last one ended (:meth:`Table.deal_due`);
- ``start``: a table made by "Play again" starts, bots in the seats of the people who did not
  come, :data:`~ramsli.server.tables.table.REMATCH_WAIT_SECONDS` after its first person sat down.

A table an evening's director paused (:meth:`Table.set_paused
<ramsli.server.tables.table.Table.set_paused>`) has no job at all until it goes on.

Bots see only their seat's :class:`~ramsli.hand.Observation` (R7). Cheap bots
(:data:`FAST_BOTS`) decide on the event loop; slower ones (``montecarlo``, ``expert``) in a pool
of worker processes (:func:`bot_pool`), each decision by a fresh bot seeded for it and capped at
:data:`BOT_MOVE_SECONDS`. The move goes to the table like a person's
(:meth:`Table.act <ramsli.server.tables.table.Table.act>`): checked once, committed, applied.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from enum import StrEnum
from typing import Any

from ramsli import Action
from ramsli.bots import make_bot
from ramsli.bots.levels import level_spec
from ramsli.hand import Observation, seat_name
from ramsli.refusal import Refused
from ramsli.server.tables.events import ActBy
from ramsli.server.tables.table import FILL_BOT, SeatState, Table, TableStatus

__all__ = [
    "BotDriver",
    "JobKind",
    "FAST_BOTS",
    "BOT_MOVE_SECONDS",
    "REFUSED_WAIT_SECONDS",
    "bot_pool",
    "shutdown_bot_pool",
    "safe_act",
]

#: bots cheap enough to run on the event loop, also as a level's bot (``easy``); others run in worker
#: processes (see :func:`bot_pool`)
FAST_BOTS = ("random", "tips", "rules")
#: seconds one decision of a slow bot may take; past it the seat plays a seeded ``tips`` decision
BOT_MOVE_SECONDS = 10.0
#: seconds a bot whose move the table refused without changing (this process may not write it now:
#: draining, handed over) waits for the table to change before it tries again
REFUSED_WAIT_SECONDS = 1.0

_log = logging.getLogger("ramsli.server")


class JobKind(StrEnum):
    """What the driver does next (see the module's notes); the ``by`` of an ``act`` event for
    the three that move."""

    BOT = "bot"
    PROXY = "proxy"
    TIMER = "timer"
    RECHECK = "recheck"
    DEAL = "deal"
    START = "start"


#: the ``by`` of the ``act`` event of each job that moves
_BY: dict[JobKind, ActBy] = {JobKind.BOT: "bot", JobKind.PROXY: "proxy", JobKind.TIMER: "timer"}


_POOL: ProcessPoolExecutor | None = None


def bot_pool() -> ProcessPoolExecutor:
    """The process pool where slow bots think (one worker per core but one, at least one).

    Threads would not do: a thinking bot holds the GIL and every table's event loop waits.
    """
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(
            max_workers=max(1, (os.cpu_count() or 2) - 1),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_watch_parent,
            initargs=(os.getpid(),),
        )
        atexit.register(shutdown_bot_pool)
    return _POOL


def shutdown_bot_pool() -> None:
    """Stop the bot worker processes (at server shutdown)."""
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=True, cancel_futures=True)
        _POOL = None


def _watch_parent(parent: int) -> None:
    """In a worker process: exit as soon as the server is gone (also after a SIGKILL of it)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _decide(spec: str, seed: int, obs: Observation) -> Action:
    """In a worker process: a fresh bot of ``spec`` seeded for this one decision chooses (R7: obs only)."""
    return safe_act(make_bot(spec, seed=seed), obs)


def safe_act(player: Any, obs: Observation) -> Action:
    """The bot's choice of a legal action; a failing bot, or one choosing an illegal action,
    plays the first legal action instead."""
    try:
        a = player.act(obs)
        for legal in obs.legal:
            if legal == a:
                return legal
    except Exception:  # noqa: BLE001 - a broken bot must not stop the table
        pass
    return obs.legal[0]


class BotDriver:
    """The task that plays bots, proxies and timers and deals the next hands of one table.

    Args:
        table: the table it drives.

    Attributes:
        players: seat -> the bot playing that seat for good (made on its first move, seeded
            from the table's test seed or the OS CSPRNG).
        proxies: seat -> the bot playing that seat while its person is away.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.players: dict[int, Any] = {}
        self.proxies: dict[int, Any] = {}
        #: a duplicate table's bots: seat -> the hand its bot was made for (a fresh bot each hand)
        self._bot_hand: dict[int, int] = {}
        self.closed = False
        self.task: asyncio.Task[None] | None = None
        #: called with (bot spec, seconds) after every bot decision (the server's metrics), or None
        self.on_decision: Callable[[str, float], None] | None = None

    def start(self) -> None:
        """Start the driver's task on the running event loop."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._drive())

    async def stop(self) -> None:
        """Stop the task (the table keeps its state; nothing in flight is committed half)."""
        self.closed = True
        self.table.changed.set()
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping: its end does not matter
                pass
            self.task = None

    def _controller(self, s: SeatState, now: float) -> tuple[float, JobKind] | None:
        """When and how the seat to act will be played without a person: (delay, job) or None."""
        t = self.table
        pace = t.options.bot_pace_seconds
        if s.bot_controlled:
            return max(0.0, t.turn_since + pace - now), JobKind.BOT
        due = t.bot_due(s)
        if due is not None:
            if now >= due:
                return max(0.0, max(t.turn_since, due) + pace - now), JobKind.PROXY
            return due - now, JobKind.RECHECK
        timer = t.timer_due()
        if timer is not None:
            return max(0.0, timer - now), JobKind.TIMER
        return None

    def next_job(self, now: float) -> tuple[float, JobKind] | None:
        """The next job and its delay in seconds from ``now`` (``time.monotonic()``), or None
        while nothing is due (a person's turn without a timer, or the session not playing)."""
        t = self.table
        start = t.start_due()
        if start is not None:
            return max(0.0, start - now), JobKind.START
        if t.status is not TableStatus.PLAYING or t.session is None or t.paused:
            return None  # a paused table: nothing acts until it goes on (Table.set_paused)
        if t.session.hand is None:
            job: tuple[float, JobKind] | None = (max(0.0, t.deal_due() - now), JobKind.DEAL)
        else:
            to_act = t.session.hand.to_act
            job = None if to_act is None else self._controller(t.seats[to_act], now)
        # an away seat's grace period that ends before then: every view says so at that moment
        ends = [d for s in t.seats if (d := t.bot_due(s)) is not None and d > now]
        if ends and (job is None or min(ends) - now < job[0]):
            return min(ends) - now, JobKind.RECHECK
        return job

    async def _drive(self) -> None:
        t = self.table
        while not self.closed:
            t.changed.clear()
            job = self.next_job(time.monotonic())
            if job is None:
                await t.changed.wait()
                continue
            delay, kind = job
            if delay > 0:
                try:
                    async with asyncio.timeout(delay):  # not wait_for: in 3.11 it can swallow a cancel
                        await t.changed.wait()
                    continue  # something changed: look again
                except TimeoutError:
                    pass
            if kind is JobKind.RECHECK:
                t.broadcast()  # the seat's bot_playing flag flips now
                continue
            try:
                await self._run(kind)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - logged; the driver keeps the table going
                _log.exception("table %s: %s failed", t.id, kind)
                await asyncio.sleep(1.0)

    def _duplicate_seed(self, seat: int, number: int, dealer: int, salt: str) -> int | None:
        """A duplicate evening's table (issue 35): the seed of the bot at ``seat`` in hand
        ``number``, the same at every table of the section for the same duplicate seat (the seat
        relative to the dealer); None at any other table."""
        t = self.table
        bot_seed = (t.duplicate or {}).get("bot_seed")
        if not bot_seed:
            return None
        rel = (seat - dealer) % len(t.seats)
        return random.Random(f"{bot_seed}:{salt}:{number}:{rel}").randrange(2**32)

    def _new_bot(self, spec: str, seat: int, salt: str) -> Any:
        t = self.table
        seed = random.Random(f"{t.seed}:{salt}:{seat}").randrange(2**32) if t.seed is not None else secrets.randbits(32)
        return make_bot(spec, seed=seed)

    async def _run(self, kind: JobKind) -> None:
        t = self.table
        if kind is JobKind.DEAL:
            await t.deal_next()
            return
        if kind is JobKind.START:
            try:
                await t.start(t.creator_token)
            except Refused:
                pass  # started meanwhile
            return
        hand = t.session.hand if t.session is not None else None
        if hand is None or hand.to_act is None:
            return
        seat = t.seats[hand.to_act]
        seq = t.seq
        if kind is JobKind.BOT:
            spec = seat.bot_spec
            number = t.session.hands_played + 1 if t.session is not None else 0
            dup = self._duplicate_seed(seat.index, number, hand.dealer, "bot")
            if dup is not None and self._bot_hand.get(seat.index) != number:
                self.players[seat.index] = make_bot(spec, seed=dup)  # the same bot and seed at every table
                self._bot_hand[seat.index] = number
            if seat.index not in self.players:
                self.players[seat.index] = self._new_bot(spec, seat.index, "bot")
            player = self.players[seat.index]
        else:
            spec = FILL_BOT
            if seat.index not in self.proxies:
                self.proxies[seat.index] = self._new_bot(FILL_BOT, seat.index, "proxy")
            player = self.proxies[seat.index]
        obs = hand.observe(seat.index)
        started = time.perf_counter()
        if level_spec(spec).split(":")[0] in FAST_BOTS:  # the level easy is the tips player with slips
            action = safe_act(player, obs)
        else:
            action = await self._think(spec, seat.index, seq, player, obs)
        if self.on_decision is not None:
            self.on_decision(spec, time.perf_counter() - started)
        try:
            await t.act(seat.index, action, seq, by=_BY[kind])
        except Refused:
            # The table moved on meanwhile (the player came back and acted: look again at once), or
            # this process may not write it now (draining, handed over: the refusal comes before
            # any await). Then wait for a change, at most REFUSED_WAIT_SECONDS, rather than try again
            # at once: a bot at pace 0 would otherwise hold the event loop in a busy loop.
            if t.seq == seq:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(REFUSED_WAIT_SECONDS):
                        await t.changed.wait()

    async def _think(self, spec: str, seat: int, seq: int, player: Any, obs: Observation) -> Action:
        """A slow bot's decision in the worker pool, capped at :data:`BOT_MOVE_SECONDS`."""
        t = self.table
        hand = t.session.hand if t.session is not None else None
        dup = (
            None
            if hand is None or t.session is None
            else self._duplicate_seed(seat, t.session.hands_played + 1, hand.dealer, f"decide:{len(hand.history)}")
        )
        seed = (
            dup
            if dup is not None
            else random.Random(f"{t.seed}:decide:{seat}:{seq}").randrange(2**32)
            if t.seed is not None
            else secrets.randbits(32)
        )
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(BOT_MOVE_SECONDS):
                return await loop.run_in_executor(bot_pool(), _decide, spec, seed, obs)
        except TimeoutError:  # too slow: a seeded tips decision instead (same seed, same move)
            _log.warning(
                "table %s: bot %s at %s took over %g s; played a rules move instead",
                t.id,
                spec,
                seat_name(seat),
                BOT_MOVE_SECONDS,
            )
            return safe_act(make_bot(FILL_BOT, seed=seed), obs)
        except Exception:  # noqa: BLE001 - a broken pool: think in a thread instead
            shutdown_bot_pool()
            return await loop.run_in_executor(None, safe_act, player, obs)
