"""The weekly challenge on the server (issue 35 item 3): :class:`Challenges` does every challenge action.

A **challenge** is the server's (scope ``server``) or a club's (scope: the club's id; its members
only). Its **week** (:mod:`ramsli.evening.challenge`: Monday 00:00 to the next Monday 00:00 in the
server's zone) is made on first use: :data:`Challenges.deals` deals for tables of
:data:`Challenges.size` from the OS CSPRNG (:func:`ramsli.evening.duplicate.new_deals`) and one bot
seed per deal, stored as the week's secret (never sent).

- **Play** a deal (a logged-in player; a club's: a member): a table of one hand is made through
  the hub (``end=hands:1``), the player at seat 0 and :data:`Challenges.level` bots at the others;
  its spec's ``duplicate`` is the deal (:meth:`ramsli.server.tables.table.Table.duplicate_deal`)
  and the deal's bot seed, so the bots choose alike for everyone who acts alike. The try is stored
  before the table starts; a second try of the same deal is refused (``challenge_tried``), a try
  still playing answers its own table's link again. The table is not linked to a club or to the
  player: it is not listed, not watched, not recorded and not rated.
- **A try ends** when its table's session is over: its public outcome (per seat the declaration,
  announcement, tricks, counters won and paid, net: :func:`ramsli.server.evenings.duplicate.table_outcomes`,
  no card) is stored the next time the challenge is read.
- **The close**: the first read after the week's end settles it — every try whose hand is over is
  stored, every other one is void — and from then on the week's ranking and each deal's field
  are shown (R7, D-21; never before: ``challenge_not_closed``, ``challenge_not_tried``).

Every refusal changes nothing. The clock (:attr:`Challenges.clock`, seconds since the epoch) is
the tests' seam.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
import secrets
import time
import zoneinfo
from collections.abc import Callable, Mapping
from typing import Any

from ramsli.bots.levels import LEVELS
from ramsli.evening.challenge import (
    DEALS,
    Ranked,
    Week,
    player_seat,
    score_tries,
    streak,
    week_by_id,
    week_of,
    week_ranking,
)
from ramsli.evening.duplicate import DealPlan, DealSeat, DealTable, new_deals
from ramsli.evening.scoring import lot_key
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules
from ramsli.server.evenings.duplicate import table_outcomes
from ramsli.server.evenings.log import TablePlan
from ramsli.server.players.accounts import Player
from ramsli.server.protocol.schemas import CreateTable, SeatSpec
from ramsli.server.storage.challenges import ChallengeRows, TryTaken
from ramsli.server.storage.directory import SERVER_SCOPE, Directory
from ramsli.server.tables.hub import Hub
from ramsli.server.tables.table import Table
from ramsli.session import name_key

__all__ = ["Challenges", "BOT_NAMES", "RANKING_SHOWN"]

_log = logging.getLogger("ramsli.server")

#: the lines of a week's ranking an answer shows (the reader's own line comes besides)
RANKING_SHOWN = 100
#: the settled weeks whose ranking is kept in memory
KEEP_WEEKS = 32
#: the names of the bots at a challenge table (seat 1, 2, ...)
BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5")


def _local_zone() -> dt.tzinfo:
    """The process's local time zone with its clock changes: ``TZ`` (an IANA name), else the
    system's ``/etc/localtime``, else UTC (a fixed offset would put the weeks of summer an hour off)."""
    name = os.environ.get("TZ", "").lstrip(":")
    if name:
        with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo(name)
    with contextlib.suppress(OSError, ValueError), open("/etc/localtime", "rb") as f:
        return zoneinfo.ZoneInfo.from_file(f, key="localtime")
    return dt.UTC


class Challenges:
    """The weekly challenges of one server.

    Args:
        directory: the players and clubs (membership, names).
        hub: the tables.
        rows: the challenge's rows.
        clock: seconds since the epoch (default ``time.time``; the tests' faked clock).
        zone: the server's time zone (default the process's local zone; ``RAMSLI_CHALLENGE_ZONE``).

    Attributes:
        deals: deals a week (default :data:`ramsli.evening.challenge.DEALS`, 12).
        size: seats at a challenge table (4: the player and 3 bots).
        preset: the rules (``traditional``).
        level: the bots' level (:data:`ramsli.bots.levels.LEVELS`, ``hard``).
        options: the tables' timings (``CreateTable`` fields: grace, bot pace, pause).
    """

    def __init__(
        self,
        directory: Directory,
        hub: Hub,
        rows: ChallengeRows,
        clock: Callable[[], float] = time.time,
        zone: dt.tzinfo | None = None,
    ) -> None:
        self.directory = directory
        self.hub = hub
        self.rows = rows
        self.clock = clock
        self.zone = zone if zone is not None else _local_zone()
        self.deals = DEALS
        self.size = 4
        self.preset = "traditional"
        self.level = "hard"
        self.options: dict[str, Any] = {"grace_seconds": 3600.0, "bot_pace_seconds": 0.8, "hand_pause_seconds": 8.0}
        self.tasks: set[asyncio.Task[None]] = set()
        #: (scope, week) -> a settled week's scores and ranking (:meth:`_week_scores`)
        self._kept: dict[tuple[str, str], tuple[dict[int, Any], list[Ranked]]] = {}
        #: (scope, week, deal, player) -> [the lock of that player's Play of that deal, its requests]
        self._playing: dict[tuple[str, str, int, str], list[Any]] = {}
        hub.watchers.append(self.watch)

    # -- who may, which week --------------------------------------------------------------------

    async def scope_of(self, club: str | None, player: Player | None) -> str:
        """The scope of the server's challenge (``club`` None) or of a club's, for ``player``.

        Raises:
            Refused: ``no_club``, ``not_logged_in`` / ``not_member`` (a club's: members only).
        """
        if club is None:
            return SERVER_SCOPE
        if await self.directory.club(club) is None:
            raise Refused(Refusal("no_club", None, {"club": str(club)[:40]}))
        if player is None:
            raise Refused(Refusal("not_logged_in"))
        if await self.directory.membership(club, player.id) is None:
            raise Refused(Refusal("not_member"))
        return club

    def current(self) -> Week:
        """This week (the clock, in the server's zone)."""
        return week_of(self.clock(), self.zone)

    def _week(self, week_id: Any) -> Week:
        try:
            w = week_by_id(week_id, self.zone)
        except ValueError:
            w = None
        now = self.current()
        if w is None or w.starts > now.starts:
            raise Refused(Refusal("no_challenge_week", None, {"week": str(week_id)[:16], "current": now.id}))
        return w

    async def _row(self, scope: str, w: Week, make: bool) -> dict[str, Any] | None:
        """The week's row; made first (its deals drawn) when ``make`` and there is none."""
        row = await self.rows.week(scope, w.id)
        if row is not None or not make:
            return row
        rules = Rules.preset(self.preset)
        plans = new_deals(rules.deck, rules.jokers, self.size, self.deals)
        secret = {"deals": [p.to_data() for p in plans], "bot_seeds": [secrets.token_hex(16) for _ in plans]}
        made = {
            "created": self.clock(),
            "size": self.size,
            "preset": self.preset,
            "key": secrets.token_hex(16),
            "secret": secret,
        }
        await self.rows.add_week(scope, w.id, made)  # False: another request made it first
        return await self.rows.week(scope, w.id)

    # -- tries ---------------------------------------------------------------------------------

    @staticmethod
    def _outcome_of(t: Table, player: str) -> dict[str, Any] | None:
        """The public outcome of challenge table ``t`` (``player`` at seat 0) if its hand is over,
        else None: ``{"key", "seats": [DealSeat data]}``, no card."""
        s = t.session
        if s is None or not s.results:
            return None
        seats = (player, *(f"bot:{i}" for i in range(1, len(t.seats))))
        plan = TablePlan(1, "", "challenge", "online", t.id, None, 1, seats)
        commitments = {e.number: d.commitments for e in s.results if (d := t.deals.get(e.number)) is not None}
        found = table_outcomes(s.results[:1], commitments, plan).get(1)
        if found is None:
            return None
        return {"key": found.key, "seats": [x.to_data() for x in found.seats]}

    async def _outcome(self, tr: Mapping[str, Any]) -> dict[str, Any] | None:
        """The public outcome of try ``tr`` if its hand is over (its table served here, else
        replayed from its stored events), else None."""
        t = self.hub.tables.get(tr["table_id"])
        if t is None:
            stored = await self.hub.database.load_one(tr["table_id"])
            if stored is None or stored.get("error") or stored.get("spec") is None:
                return None
            try:
                t = Table.replay(tr["table_id"], stored["spec"], stored["events"], self.hub.store)
            except ValueError:
                _log.exception("challenge table %s does not replay", tr["table_id"])
                return None
        return self._outcome_of(t, tr["player_id"])

    def watch(self, t: Table) -> None:
        """Store a challenge table's outcome as soon as its hand is over (a listener of its events;
        a table of another kind is left alone)."""
        ref = t.spec.get("challenge")
        if not isinstance(ref, dict):
            return

        def changed(table: Table, kind: str) -> None:
            if kind == "act" and table.session is not None and table.session.results:
                task = asyncio.get_running_loop().create_task(self._finish(table, ref))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

        t.listeners.append(changed)

    async def _finish(self, t: Table, ref: Mapping[str, Any]) -> None:
        try:
            w = week_by_id(ref["week"], self.zone)
            row = await self.rows.week(str(ref["scope"]), w.id)
            if row is None or row["settled"] is not None:
                return  # settled at the close: a hand that ended after it stays void
            outcome = self._outcome_of(t, str(ref["player"]))
            if outcome is not None:
                await self.rows.finish_try(
                    str(ref["scope"]), w.id, int(ref["deal"]), str(ref["player"]), self.clock(), outcome
                )
        except Exception:  # noqa: BLE001 - the next read stores it; a listener must not fail the table
            _log.exception("challenge table %s: its outcome was not stored", t.id)

    async def settle(self) -> None:
        """Wait for the outcomes being stored (tests, shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def _table_closed(self, table_id: str) -> bool:
        """True if an admin closed the table ``table_id`` (``POST /admin/tables/{id}/close``): its
        hand can never end."""
        if table_id in self.hub.closed:
            return True
        if table_id in self.hub.tables:
            return False
        status = await self.hub.database.status(table_id)
        return status is not None and status["closed"] is not None

    async def _settle(self, scope: str, row: dict[str, Any], w: Week, player: str | None) -> list[dict[str, Any]]:
        """The week's tries (``player``'s only when given), each finished try's outcome stored;
        once the week has closed, the first call settles all of them (void if still playing). A
        try whose table an admin closed before its hand ended is void at once."""
        closing = w.closed(self.clock()) and row["settled"] is None
        tries = await self.rows.tries(scope, w.id, None if closing else player)
        changed = False
        for tr in tries:
            if tr["finished"] is not None:
                continue
            outcome = await self._outcome(tr)
            if outcome is None and not closing and not await self._table_closed(tr["table_id"]):
                continue  # still playing (a table an admin closed never ends: its try is void)
            await self.rows.finish_try(scope, w.id, tr["deal"], tr["player_id"], self.clock(), outcome)
            changed = True
        if closing:
            await self.rows.settle_week(scope, w.id, self.clock())
            row["settled"] = self.clock()
        if changed:
            tries = await self.rows.tries(scope, w.id, None if closing else player)
        if closing and player is not None:
            tries = [tr for tr in tries if tr["player_id"] == player]
        return tries

    async def play(self, club: str | None, player: Player, week_id: Any, deal: Any) -> dict[str, Any]:
        """``player`` plays deal ``deal`` of week ``week_id``: ``{"week", "deal", "table", "url"}``,
        the seat link of the try's table (a new one, or the try still playing). Requests of the
        same player for the same deal at the same moment are served one after the other (one table
        is made; every one of them answers its link); a request of another process that stored
        its try first is answered that try's link too.

        Raises:
            Refused: ``no_club``, ``not_member``, ``no_challenge_week`` (also a past week nobody
                opened), ``challenge_closed`` (the week has closed), ``no_challenge_deal``,
                ``challenge_tried`` (a second try, or a try whose table an admin closed: void).
        """
        scope = await self.scope_of(club, player)
        w = self._week(week_id)
        now = self.current()
        if w.id != now.id:
            if await self._row(scope, w, False) is None:
                raise Refused(Refusal("no_challenge_week", None, {"week": w.id, "current": now.id}))
            raise Refused(Refusal("challenge_closed", None, {"week": w.id, "current": now.id}))
        row = await self._row(scope, w, True)
        assert row is not None
        plans = row["secret"]["deals"]
        if not isinstance(deal, int) or not 1 <= deal <= len(plans):
            raise Refused(
                Refusal("no_challenge_deal", None, {"week": w.id, "deal": str(deal)[:8], "deals": len(plans)})
            )
        key = (scope, w.id, deal, player.id)
        held = self._playing.setdefault(key, [asyncio.Lock(), 0])
        held[1] += 1
        try:
            async with held[0]:
                return await self._play(scope, row, w, deal, player)
        finally:
            held[1] -= 1
            if held[1] == 0:
                self._playing.pop(key, None)

    @staticmethod
    def _link(w: Week, deal: int, tr: Mapping[str, Any]) -> dict[str, Any]:
        """The answer of Play for try ``tr`` still playing, or ``challenge_tried`` once it is over."""
        if tr["finished"] is not None:
            raise Refused(Refusal("challenge_tried", None, {"week": w.id, "deal": deal}))
        return {"week": w.id, "deal": deal, "table": tr["table_id"], "url": f"/t/{tr['table_id']}/s/{tr['token']}"}

    async def _play(self, scope: str, row: dict[str, Any], w: Week, deal: int, player: Player) -> dict[str, Any]:
        """:meth:`play` once the week and deal are checked (one request of a player and deal at a time)."""
        plans = row["secret"]["deals"]
        mine = {tr["deal"]: tr for tr in await self._settle(scope, row, w, player.id)}
        tr = mine.get(deal)
        if tr is not None:
            return self._link(w, deal, tr)
        size = int(row["size"])
        body = CreateTable(
            preset=str(row["preset"]),
            rules=["end=hands:1"],
            seats=[SeatSpec(kind="human"), *(SeatSpec(kind="bot", bot=LEVELS[self.level]) for _ in range(size - 1))],
            **self.options,
        )
        rules, preset, seat_specs, opts, _seed = self.hub.parse_spec(body)
        spec = Table.new_spec(rules, preset, seat_specs, opts, None)
        spec["duplicate"] = {"deals": [plans[deal - 1]], "bot_seed": row["secret"]["bot_seeds"][deal - 1]}
        spec["challenge"] = {"scope": scope, "week": w.id, "deal": deal, "player": player.id}
        t = await self.hub.add_table(spec)
        sat = await self.hub.sit(t.id, spec["seats"][0]["token"], player.name)
        for i in range(1, size):  # the bots' names, as the field shows them (never the player's)
            name = BOT_NAMES[i - 1]
            t.seats[i].name = name + "'" if name_key(name) == name_key(player.name) else name
        try:
            await self.rows.add_try(scope, w.id, deal, player.id, t.id, sat.token, self.clock())
        except TryTaken:  # another process stored the same player's try first: that one plays
            await self.hub.close_table(t.id)
            tr = next((x for x in await self.rows.tries(scope, w.id, player.id, deal)), None)
            if tr is None:
                raise Refused(Refusal("challenge_tried", None, {"week": w.id, "deal": deal})) from None
            return self._link(w, deal, tr)
        await self.hub.start(t.id, spec["creator_token"])
        return {"week": w.id, "deal": deal, "table": t.id, "url": f"/t/{t.id}/s/{sat.token}"}

    # -- reading -------------------------------------------------------------------------------

    @staticmethod
    def _week_json(w: Week) -> dict[str, Any]:
        return {"id": w.id, "starts": w.start.isoformat(), "ends": w.end.isoformat()}

    async def state(self, club: str | None, player: Player | None) -> dict[str, Any]:
        """The challenge as ``player`` sees it now: ``{"scope", "club", "week", "deals": [{"deal",
        "status": "open" | "playing" | "played" | "void", "url"}], "streak", "last"}`` — ``url`` the
        seat link of one's own try still playing, ``last`` the week before (its results are shown
        by :meth:`ranking` and :meth:`field`), ``streak`` the player's consecutive weeks. No result
        of this week, no card (R7, D-21).

        Raises:
            Refused: ``no_club``, ``not_logged_in`` / ``not_member`` (a club's).
        """
        scope = await self.scope_of(club, player)
        w = self.current()
        row = await self._row(scope, w, True)
        assert row is not None
        mine: dict[int, dict[str, Any]] = {}
        if player is not None:
            mine = {tr["deal"]: tr for tr in await self._settle(scope, row, w, player.id)}
        deals = []
        for k in range(1, len(row["secret"]["deals"]) + 1):
            tr = mine.get(k)
            status = "open"
            url = None
            if tr is not None:
                if tr["finished"] is None:
                    status, url = "playing", f"/t/{tr['table_id']}/s/{tr['token']}"
                else:
                    status = "void" if tr["void"] else "played"
            deals.append({"deal": k, "status": status, "url": url})
        last = w.before()
        had_last = await self.rows.week(scope, last.id) is not None
        return {
            "scope": scope,
            "club": club,
            "week": self._week_json(w),
            "deals": deals,
            "streak": streak(await self.rows.weeks_played(scope, player.id), w) if player is not None else 0,
            "last": self._week_json(last) if had_last else None,
            "bots": self.level,
            "preset": row["preset"],
            "size": row["size"],
        }

    async def _closed(self, club: str | None, player: Player | None, week_id: Any) -> tuple[str, Week, dict[str, Any]]:
        """A closed week's scope, week and row (settled).

        Raises:
            Refused: ``no_club``, ``not_member``, ``no_challenge_week``, ``challenge_not_closed``.
        """
        scope = await self.scope_of(club, player)
        w = self._week(week_id)
        row = await self._row(scope, w, False)
        if row is None:
            raise Refused(Refusal("no_challenge_week", None, {"week": w.id, "current": self.current().id}))
        if not w.closed(self.clock()):
            raise Refused(Refusal("challenge_not_closed", "D-21", {"week": w.id}))
        if row["settled"] is None:  # the first read after the close settles the week
            await self._settle(scope, row, w, None)
        return scope, w, row

    async def _names(self, scope: str, ids: list[str], me: str | None) -> dict[str, tuple[str | None, str | None]]:
        """Player id -> (the id and the name shown). In the server's challenge a player who has not
        opted in to being listed (``listed``, as for the server-wide ratings) is shown to others as
        neither (``None, None``: "a player"); a club's members see each other by name. A deleted
        player is "a player" to everyone."""
        found = await self.directory.players(ids)
        out: dict[str, tuple[str | None, str | None]] = {}
        for pid in ids:
            p = found.get(pid) or {}
            if (scope == SERVER_SCOPE and pid != me and not p.get("listed")) or p.get("deleted") is not None or not p:
                out[pid] = (None, None)
            else:
                out[pid] = (pid, p.get("name"))
        return out

    @staticmethod
    def _deal_tries(row: Mapping[str, Any], tries: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
        by_deal: dict[int, list[dict[str, Any]]] = {}
        for tr in tries:
            if tr["outcome"] is not None:
                by_deal.setdefault(tr["deal"], []).append(tr)
        return by_deal

    @staticmethod
    def _deal_table(n: int, tr: Mapping[str, Any]) -> DealTable:
        return DealTable(n, tuple(DealSeat.from_data(s) for s in tr["outcome"]["seats"]), tr["outcome"]["key"])

    def _scores(self, row: Mapping[str, Any], tries: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
        size = int(row["size"])
        out = {}
        for k, trs in self._deal_tries(row, tries).items():
            dealer = DealPlan.from_data(row["secret"]["deals"][k - 1]).dealer
            out[k] = score_tries(k, size, dealer, [self._deal_table(i, tr) for i, tr in enumerate(trs, 1)])
        return out

    async def _week_scores(self, scope: str, w: Week, row: Mapping[str, Any]) -> tuple[dict[int, Any], list[Ranked]]:
        """A settled week's scores per deal and its ranking, kept once computed (a settled week
        never changes: no try can start after its close, and every other one is finished or void)."""
        key = (scope, w.id)
        kept = self._kept.get(key)
        if kept is None:
            scores = self._scores(row, await self.rows.tries(scope, w.id))
            kept = (scores, week_ranking(len(row["secret"]["deals"]), scores, str(row["key"])))
            if len(self._kept) >= KEEP_WEEKS:
                self._kept.pop(next(iter(self._kept)))
            self._kept[key] = kept
        return kept

    async def ranking(self, club: str | None, player: Player | None, week_id: Any) -> dict[str, Any]:
        """A closed week's ranking: ``{"week", "deals", "players" (how many are ranked), "ranking":
        [{"rank", "id", "name", "score" (mean matchpoint %, a deal not played 0), "vs_field", "tops",
        "played", "you"}], "yours", "mine": [{"deal", "pct", "vs_field"}]}`` — the first
        :data:`RANKING_SHOWN` lines, the reader's own line (``yours``, also when further down; None
        without one) and the reader's own results per deal (``mine``).

        Raises:
            Refused: ``no_club``, ``not_member``, ``no_challenge_week``, ``challenge_not_closed`` (D-21).
        """
        scope, w, row = await self._closed(club, player, week_id)
        scores, ranked = await self._week_scores(scope, w, row)
        me = player.id if player is not None else None
        own = next((r for r in ranked if r.participant == me), None)
        shown = ranked[:RANKING_SHOWN]
        names = await self._names(scope, [r.participant for r in shown] + ([me] if own is not None and me else []), me)
        mine = []
        for k in sorted(scores):
            s = scores[k].get(me or "")
            if s is not None:
                mine.append({"deal": k, "pct": round(float(s.pct), 2), "vs_field": round(float(s.vs_field), 2)})

        def line(r: Ranked) -> dict[str, Any]:
            return {
                "rank": r.rank,
                "id": names[r.participant][0],
                "name": names[r.participant][1],
                "score": round(float(r.score), 2),
                "vs_field": round(float(r.vs_field), 2),
                "tops": r.tops,
                "played": r.played,
                "you": r.participant == me,
            }

        return {
            "week": self._week_json(w),
            "deals": len(row["secret"]["deals"]),
            "players": len(ranked),
            "ranking": [line(r) for r in shown],
            "yours": line(own) if own is not None else None,
            "mine": mine,
        }

    async def field(self, club: str | None, player: Player | None, week_id: Any, deal: Any) -> dict[str, Any]:
        """Deal ``deal``'s field of a closed week (R7, D-21): ``{"week", "deal", "seat" (the
        challenger's duplicate seat), "tries": [{"id", "name", "you", "mp", "max", "pct",
        "vs_field", "deal_key", "seats": [{"seat", "declared", "announced", "tricks", "won",
        "paid", "net"}]}]}`` — per try and seat the public outcome only, never a card.

        Raises:
            Refused: ``no_club``, ``not_member``, ``no_challenge_week``, ``no_challenge_deal``,
                ``challenge_not_tried`` (before the close, without one's own try) and
                ``challenge_not_closed`` (before the close), both D-21.
        """
        scope = await self.scope_of(club, player)
        w = self._week(week_id)
        row = await self._row(scope, w, False)
        n = len(row["secret"]["deals"]) if row is not None else self.deals
        if not isinstance(deal, int) or not 1 <= deal <= n:
            raise Refused(Refusal("no_challenge_deal", None, {"week": w.id, "deal": str(deal)[:8], "deals": n}))
        if not w.closed(self.clock()):
            mine = await self._settle(scope, row, w, player.id) if row is not None and player is not None else []
            if not any(tr["deal"] == deal and tr["finished"] is not None for tr in mine):
                raise Refused(Refusal("challenge_not_tried", "D-21", {"week": w.id, "deal": deal}))
            raise Refused(Refusal("challenge_not_closed", "D-21", {"week": w.id}))
        scope, w, row = await self._closed(club, player, week_id)
        tries = [tr for tr in await self.rows.tries(scope, w.id, deal=deal) if tr["outcome"] is not None]
        size = int(row["size"])
        dealer = DealPlan.from_data(row["secret"]["deals"][deal - 1]).dealer
        tables = [self._deal_table(i, tr) for i, tr in enumerate(tries, 1)]
        scores = score_tries(deal, size, dealer, tables) if tables else {}
        me = player.id if player is not None else None
        names = await self._names(scope, [tr["player_id"] for tr in tries], me)
        out = []
        for tr, table in zip(tries, tables):
            s = scores[tr["player_id"]]
            out.append(
                {
                    "id": names[tr["player_id"]][0],
                    "name": names[tr["player_id"]][1],
                    "you": tr["player_id"] == me,
                    "mp": float(s.mp),
                    "max": s.max,
                    "pct": round(float(s.pct), 2),
                    "vs_field": round(float(s.vs_field), 2),
                    "deal_key": table.key,
                    "seats": [
                        {k: v for k, v in x.to_data().items() if k != "participant"}
                        | {"name": names[tr["player_id"]][1] if x.participant == tr["player_id"] else _bot(x)}
                        for x in table.seats
                    ],
                }
            )
        order = sorted(
            range(len(out)),
            key=lambda i: (-out[i]["pct"], -out[i]["vs_field"], lot_key(str(row["key"]), tries[i]["player_id"])),
        )
        out = [out[i] for i in order]
        return {"week": self._week_json(w), "deal": deal, "seat": player_seat(dealer, size), "tries": out}


def _bot(seat: DealSeat) -> str:
    """A bot seat's name at a challenge table (its participant is ``bot:N``, N its table seat)."""
    n = int(seat.participant.partition(":")[2] or 0)
    return BOT_NAMES[n - 1] if 1 <= n <= len(BOT_NAMES) else seat.participant
