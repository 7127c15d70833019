"""Skill counters on the server, by consent (issue 35 item 4; ``docs/skill.md``, *On the server*).

A person chooses on their account page to have their **skill counters** measured and shown
(``PUT /api/me/skill``; off by default, ``players.skill_opt_in``). Off: nothing is measured for
them, what was stored is removed, and every skill figure asked for them is refused
(``403 skill_not_shared``).

**Measured in the background.** When a card table's session ends, every seat linked to a person
who opted in (``seat_links``) has each finished hand it played measured
(:func:`ramsli.coach.skill.skill_of_hand` from that seat's own hand history, R7) in the coach's
worker process (:attr:`ramsli.server.coach.review.CoachService.executor`, never on the event loop),
one hand at a time from a bounded queue (:data:`MAX_QUEUE`; a hand that does not fit is found
again by the next scan), with quick settings (:data:`SKILL_SETTINGS`, under a second a hand;
``RAMSLI_SKILL_SETTINGS`` as ``RAMSLI_COACH_SETTINGS``). A hand in which a bot acted for the
person (away, or their time ran out) is left out: its decisions were not theirs. Bot seats and
persons without consent: nothing. At start (:meth:`SkillService.reconcile`) and when a person opts
in, the finished tables of the opted-in persons are looked through again and every hand without a
row is queued: restart-safe.

**Stored** (:mod:`ramsli.server.storage.skill`): per player and hand the skill counters, the deal's
value, the net counters and the decisions valued — counters and counts, no card (R7).

**Shown**: a player's figure (:meth:`SkillService.figure`: hands measured, skill counters per hand
with its 95 % interval, net counters per hand beside it) to anyone only if that player opted in;
their hand by hand list to themselves only; a column of the season table and of an evening's
standings (:meth:`SkillService.column`); the **skill rating** (:meth:`SkillService.ranking`),
server-wide or of a club, of the opted-in players with at least :data:`MIN_HANDS` hands measured,
ordered by the lower end of their interval (a player with few hands is not placed high by luck).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ramsli.coach import Settings
from ramsli.coach.skill import SkillSummary, skill_of_hand
from ramsli.history import HandHistory
from ramsli.refusal import Refusal, Refused
from ramsli.server.coach.review import CoachService, own_history, server_settings
from ramsli.server.storage.directory import Directory
from ramsli.server.storage.skill import SkillRows, summary_of
from ramsli.server.tables.table import Table, TableStatus

__all__ = [
    "SkillService",
    "SKILL_SETTINGS",
    "MAX_QUEUE",
    "MIN_HANDS",
    "figure",
    "skill_settings",
    "measure_task",
]

#: the coach's settings of a hand's skill on the server: the expert's values (no equilibrium),
#: 400 rollouts a declaration, 48 samples a card — a median 0.08 s of CPU a seat's hand of four,
#: p95 0.54 s (docs/skill.md, "On the server")
SKILL_SETTINGS = Settings(equilibrium=False, declare_samples=400, play_samples=48)
#: hands waiting to be measured at most; more are left for the next scan
MAX_QUEUE = 5000
#: hands measured a player needs to be placed in a skill rating
MIN_HANDS = 20
#: hands a figure shown to others (another player's page, a season or evening column) sums at
#: least: one hand's skill would tell of its cards (R7, docs/skill.md "Who may see what"); fewer: the
#: count only
MIN_SHOWN = 5


def skill_settings(text: str | None = None) -> Settings:
    """:data:`SKILL_SETTINGS`, or the settings of ``text`` (default ``RAMSLI_SKILL_SETTINGS``) read as
    :func:`~ramsli.server.coach.review.server_settings` reads them when given.

    Raises:
        ValueError: for an unknown key or a value out of range.
    """
    text = os.environ.get("RAMSLI_SKILL_SETTINGS", "") if text is None else text
    return server_settings(text) if text.strip() else SKILL_SETTINGS


def measure_task(toml: str, seat: int, settings: Settings) -> dict[str, Any]:
    """In the coach's process: the skill of ``seat`` in the hand history ``toml`` (the seat's own:
    the others' folded hands hidden, R7) as the numbers a row keeps — no card."""
    hs = skill_of_hand(HandHistory.from_toml(toml), seat, settings)
    return {
        "cards_known": hs.cards_known,
        "skill": float(hs.skill),
        "deal_value": float(hs.deal_value),
        "net": int(hs.net),
        "decisions": len(hs.decisions),
    }


def _r(x: float, nd: int = 2) -> float | None:
    return round(x, nd) if math.isfinite(x) else None


def figure(s: SkillSummary, least: int = 0) -> dict[str, Any]:
    """What the pages show of a summary: ``{"hands", "decisions", "skill": {"mean", "ci95", "low",
    "high"}, "net": {"mean", "ci95"}}`` in counters per hand (None where too few hands: no
    interval under two hands; every figure None under ``least`` hands, R7).

    >>> figure(SkillSummary(hands=1, skill_sum=2.0, skill_sq=4.0), least=5)["skill"]["mean"] is None
    True
    """
    mean, ci = s.mean, s.ci95
    net = s.net()
    if s.hands < least:
        mean = ci = math.nan
        net = (math.nan, math.nan, math.nan)
    return {
        "hands": s.hands,
        "decisions": s.decisions,
        "skill": {
            "mean": _r(mean),
            "ci95": _r(ci),
            "low": _r(mean - ci),
            "high": _r(mean + ci),
        },
        "net": {"mean": _r(net[0]), "ci95": _r(net[2])},
    }


@dataclass(frozen=True)
class _Item:
    table: str
    hand: int
    seat: int
    player: str
    club: str | None


class SkillService:
    """The skill counters of one server (see the module text). The app makes one at start-up.

    Args:
        directory: the players, seats and records; rows: the ``skill_hands`` rows.
        hub: the tables (finished tables are measured from it).
        coach: the coach service whose worker process measures.
        settings: the coach's settings of a hand (default :func:`skill_settings`).

    Attributes:
        measured, failed, left_out: hands stored, hands whose measure failed, hands left for the next scan.
    """

    def __init__(
        self, directory: Directory, rows: SkillRows, hub: Any, coach: CoachService, settings: Settings | None = None
    ) -> None:
        self.directory = directory
        self.rows = rows
        self.hub = hub
        self.coach = coach
        self.settings = settings or skill_settings()
        self.queue: asyncio.Queue[_Item] | None = None
        self.queued: set[tuple[str, int, str]] = set()
        self.busy = False
        self.worker: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[Any]] = set()
        self.measured = self.failed = self.left_out = 0
        self.log = logging.getLogger("ramsli.server")

    # -- when a table ends ------------------------------------------------------------------------

    def watch(self, t: Table) -> None:
        """Queue the hands of ``t``'s opted-in persons when its session ends (a listener of its events)."""

        def changed(table: Table, kind: str) -> None:
            if kind == "act" and table.status is TableStatus.OVER:
                task = asyncio.get_running_loop().create_task(self._scan_safely(table))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

        t.listeners.append(changed)

    async def _scan_safely(self, t: Table) -> None:
        try:
            await self.scan(t)
        except Exception:  # found again at the next start (reconcile)
            self.log.exception("table %s: its hands' skill was not queued", t.id)

    async def scan(self, t: Table, only: str | None = None) -> int:
        """Queue every finished hand of ``t`` (over) played by an opted-in person (``only``: that
        player) that has no row yet and in which no bot acted for them; returns how many were queued."""
        s = t.session
        if s is None or not s.is_over or t.status is not TableStatus.OVER:
            return 0
        links = await self.directory.seat_links(t.id)
        if only is not None:
            links = {i: p for i, p in links.items() if p == only}
        if not links:
            return 0
        people = await self.directory.players(links.values())
        opted = {pid for pid, row in people.items() if row.get("skill_opt_in") and row["deleted"] is None}
        if not opted:
            return 0
        link = await self.directory.table_link(t.id)
        club = link["club_id"] if link else None
        done = await self.rows.measured(t.id)
        n = 0
        for seat, pid in sorted(links.items()):
            if pid not in opted or seat >= len(t.seats):
                continue
            since = t.seats[seat].since_hand or 1
            for e in s.results:
                if e.hand is None or e.number < since or seat not in e.hand.seated or (pid, e.number) in done:
                    continue
                if self._stood_in(t, e.number, seat):
                    continue
                n += self._put(_Item(t.id, e.number, seat, pid, club))
        return n

    @staticmethod
    def _stood_in(t: Table, number: int, seat: int) -> bool:
        """True if a bot acted for ``seat``'s person in hand ``number`` (away, or their time ran out)."""
        s = t.session
        hand = s.results[number - 1].hand if s is not None else None
        if hand is None:
            return True
        moves = t.acted_by.get(number, [])
        return any(a.seat == seat and by in ("proxy", "timer", "bot") for a, by in zip(hand.history, moves))

    def _put(self, item: _Item) -> bool:
        key = (item.table, item.hand, item.player)
        if key in self.queued:
            return False
        if self.queue is None:
            self.queue = asyncio.Queue(MAX_QUEUE)
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.left_out += 1
            return False
        self.queued.add(key)
        if self.worker is None or self.worker.done():
            self.worker = asyncio.get_running_loop().create_task(self._work())
        return True

    async def _work(self) -> None:
        assert self.queue is not None
        loop = asyncio.get_running_loop()
        while True:
            item = await self.queue.get()
            self.busy = True
            try:
                await self._measure(loop, item)
            except Exception:
                self.failed += 1
                self.log.exception("table %s hand %d: its skill was not measured", item.table, item.hand)
            finally:
                self.queued.discard((item.table, item.hand, item.player))
                self.busy = False
                self.queue.task_done()

    async def _measure(self, loop: asyncio.AbstractEventLoop, item: _Item) -> None:
        t = await self._table(item.table)
        if t is None:
            return
        toml = own_history(t, item.hand, item.seat).to_toml()
        got = await loop.run_in_executor(self.coach.executor, measure_task, toml, item.seat, self.settings)
        row = await self.directory.player(item.player)
        if row is None or not row.get("skill_opt_in") or not got["cards_known"]:
            return  # opted out meanwhile: nothing kept
        await self.rows.put(
            {
                "player_id": item.player,
                "table_id": item.table,
                "hand": item.hand,
                "seat": item.seat,
                "club_id": item.club,
                "measured": time.time(),
                **{k: got[k] for k in ("skill", "deal_value", "net", "decisions")},
            }
        )
        self.measured += 1

    def pending(self) -> int:
        """Hands waiting or being measured."""
        return len(self.queued)

    async def settle(self) -> None:
        """Wait for the scans under way, at a table's end, at start or after an opt-in (not for
        the measures: those run on)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop measuring (at shutdown): what was not measured is found again at the next start."""
        await self.settle()
        if self.worker is not None:
            self.worker.cancel()
            await asyncio.gather(self.worker, return_exceptions=True)
            self.worker = None

    async def reconcile(self) -> None:
        """At start: look, in the background (finished tables may have to be read from the
        database and replayed), for every finished hand of an opted-in person without a row, and
        queue it."""
        for pid in await self.rows.opted_in():
            self._background(self.rescan(pid))

    def _background(self, coro: Any) -> None:
        async def safely() -> None:
            try:
                await coro
            except Exception:  # found again at the next start
                self.log.exception("skill counters: a scan failed")

        task = asyncio.get_running_loop().create_task(safely())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def rescan(self, pid: str) -> int:
        """Queue the unmeasured hands of ``pid``'s finished tables (at start, or when they opt in)."""
        n = 0
        have: dict[str, int] = {}
        for r in await self.rows.of_player(pid):
            have[r["table_id"]] = have.get(r["table_id"], 0) + 1
        for table_id in dict.fromkeys(s["table_id"] for s in await self.directory.seats_of(pid)):
            rec = await self.directory.record(table_id)
            if rec is None or rec["kind"] != "table":
                continue  # not finished (or a pub ledger: no decisions to value)
            dealt = sum(int(x["hands"]) for x in rec["data"].get("seats", []) if x.get("player") == pid)
            if have.get(table_id, 0) >= dealt:
                continue  # every hand measured: the table is not read again
            t = await self._table(table_id)
            if t is not None and t.status is TableStatus.OVER:
                n += await self.scan(t, only=pid)
        return n

    async def _table(self, table_id: str) -> Table | None:
        """The finished table ``table_id``, read from the database if start-up left it there
        (:meth:`~ramsli.server.tables.hub.Hub.locate`); None if another process runs it or it is gone."""
        found: Table | None = self.hub.tables.get(table_id)
        if found is not None:
            return found
        try:
            where, _peer = await self.hub.locate(table_id)
        except Exception:  # noqa: BLE001 - the store is busy or gone: the next scan tries again
            return None
        found = self.hub.tables.get(table_id) if where == "local" else None
        return found

    async def opt(self, pid: str, on: bool) -> int:
        """``pid`` opts in (their finished tables are looked through in the background and their
        hands queued) or out (their rows are removed). Returns the rows removed (0 for in)."""
        await self.directory.update_player(pid, skill_opt_in=on)
        if on:
            self._background(self.rescan(pid))
            return 0
        return await self.rows.forget(pid)

    # -- reading ---------------------------------------------------------------------------------

    async def shared(self, pid: str) -> dict[str, Any]:
        """The player ``pid`` if they opted in.

        Raises:
            Refused: ``no_player`` (unknown, deleted or a bot), ``skill_not_shared`` (not opted in).
        """
        row = await self.directory.player(pid) if isinstance(pid, str) else None
        if row is None or row["kind"] != "person" or row["deleted"] is not None:
            raise Refused(Refusal("no_player", None, {"player": str(pid)[:40]}))
        if not row.get("skill_opt_in"):
            raise Refused(Refusal("skill_not_shared", None, {"name": row["name"]}))
        return row

    async def of_player(self, pid: str, own: bool, club: str | None = None) -> dict[str, Any]:
        """A player's skill (refused unless they opted in, :meth:`shared`): ``{"player", "name",
        "min_hands", "pending", "figure"}`` (to others the count only under :data:`MIN_SHOWN` hands) and, for ``own`` (the reader is that player), ``"hands"``:
        ``[{"table", "hand", "club", "skill", "deal_value", "net", "decisions", "measured"}]`` in order."""
        row = await self.shared(pid)
        rows = await self.rows.of_player(pid, club)
        out: dict[str, Any] = {
            "player": pid,
            "name": row["name"],
            "min_hands": MIN_HANDS,
            "figure": figure(summary_of(rows), 0 if own else MIN_SHOWN),
        }
        if own:
            out["pending"] = sum(1 for k in self.queued if k[2] == pid)
            out["hands"] = [
                {
                    "table": r["table_id"],
                    "hand": r["hand"],
                    "club": r["club_id"],
                    "skill": round(r["skill"], 3),
                    "deal_value": round(r["deal_value"], 3),
                    "net": r["net"],
                    "decisions": r["decisions"],
                    "measured": r["measured"],
                }
                for r in rows
            ]
        return out

    async def column(self, tables: Sequence[str], players: Iterable[str]) -> dict[str, dict[str, Any] | None]:
        """The "skill / hand" column of a season table or an evening's standings: player id ->
        :func:`figure` over their hands at ``tables`` (the count only under :data:`MIN_SHOWN` hands),
        or None for a player who did not opt in."""
        wanted = list(dict.fromkeys(players))
        people = await self.directory.players(wanted)
        rows = await self.rows.of_tables(tables)
        out: dict[str, dict[str, Any] | None] = {}
        for pid in wanted:
            p = people.get(pid)
            if p is None or not p.get("skill_opt_in") or p["deleted"] is not None:
                out[pid] = None
                continue
            out[pid] = figure(summary_of(r for r in rows if r["player_id"] == pid), MIN_SHOWN)
        return out

    async def ranking(self, club: str | None = None, members: Iterable[str] | None = None) -> dict[str, Any]:
        """The skill rating: the opted-in players (of ``members`` when given; their hands at the
        club's tables when ``club``) with at least :data:`MIN_HANDS` hands measured, ordered by the
        lower end of the 95 % interval of their skill counters per hand (then the mean, then the name).

        Returns:
            ``{"order": "low", "min_hands", "rows": [{"rank", "player", "name"} + figure], "fewer"}``;
            ``fewer``: opted-in players not listed yet (fewer hands).
        """
        opted = set(await self.rows.opted_in())
        if members is not None:
            opted &= set(members)
        people = await self.directory.players(opted)
        by: dict[str, list[dict[str, Any]]] = {pid: [] for pid in opted}
        for r in await self.rows.all(club):
            if r["player_id"] in by:
                by[r["player_id"]].append(r)
        listed, fewer = [], 0
        for pid, rows in by.items():
            f = figure(summary_of(rows))
            if f["hands"] < MIN_HANDS:
                fewer += 1
                continue
            listed.append({"player": pid, "name": people[pid]["name"], **f})
        listed.sort(key=lambda x: (-x["skill"]["low"], -x["skill"]["mean"], x["name"] or "", x["player"]))
        for k, x in enumerate(listed, 1):
            x["rank"] = k
        return {"order": "low", "min_hands": MIN_HANDS, "rows": listed, "fewer": fewer}
