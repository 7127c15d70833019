"""The evenings of one server: :class:`Evenings` does every evening action (issue 34).

An evening lives in two rows of the directory (:mod:`ramsli.server.storage.directory`): the
``evenings`` row (spec, status, and the secret: the round seeds, the tables' creator and seat
tokens — never sent) and its log (:mod:`ramsli.server.evenings.log`), which is the evening: its
state is the fold of the log (:mod:`ramsli.server.evenings.state`), read again from the
database before every action (the entries after the last one applied), so several requests or
processes see one evening. Every action checks everything first, then appends one entry; an
entry two writers both number alike is stored once (``evening_busy`` for the other). A refusal
changes nothing.

- **Create** (a logged-in player; a club's evening only by its owner): the spec is checked as a
  table would be, the seeds (:func:`ramsli.evening.draw.seed_chain`, one per round) go to the
  secret, the commitment to the log.
- **Check in / out** (a logged-in person; a members-only evening: a member): from the next round
  once the first started; checking out after one's first round is a withdrawal (a seat still
  playing is played by the table's away bot). The director withdraws anyone and adds substitute
  bots (a level of :data:`ramsli.bots.levels.LEVELS`).
- **Start a round** (the director): the draw (:func:`~ramsli.server.evenings.state.plan_round`)
  with the round's seed, which the ``start_round`` entry opens; each online table is made
  through the hub with ``end=hands:H`` (everyone deals equally often,
  :func:`ramsli.evening.scoring.hands_for`), the evening's club, grace and turn time, each
  person seated under their name and linked to the seat, then started; each real-card table is a
  club-style pub ledger (the names at the seats, the first seat its captain, who keeps it through
  ``/me``).
- **Results** are the tables' session records (every evening table and ledger gets one,
  :meth:`ramsli.server.clubs.clubs.Clubs.record_table`): a round is done when each of its tables
  has one; the standings are :mod:`ramsli.evening.scoring`'s. A club's evening counts in the
  club's season table and ratings like any club session.
- **Pause** a table (nothing moves at it: :meth:`ramsli.server.tables.table.Table.set_paused`; set
  again after a restart from the log), **re-seat** two participants (a swap in the round: real-card
  tables before their first hand, or between rounds for the next draw), change a **captain** (the
  ledger's keeper link changes), **close** (a weekly evening makes the next one), **delete**
  (not while tables play).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hmac
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fastapi import Request

from ramsli.bots.levels import LEVELS
from ramsli.errors import TableError as EngineTableError
from ramsli.evening.draw import commitment, seed_chain
from ramsli.evening.duplicate import DealResult, DealTable
from ramsli.evening.scoring import TableResult, hands_for, rounds_total, table_result
from ramsli.ledger import PubLedger
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules, RulesError
from ramsli.server.evenings import prints, views
from ramsli.server.evenings.duplicate import deal_results, field_json, plan_sections, table_outcomes
from ramsli.server.evenings.log import (
    Captain,
    CheckIn,
    CheckOut,
    Close,
    Create,
    Entry,
    Pause,
    Record,
    Reseat,
    StartRound,
    Substitute,
    TablePlan,
    Withdraw,
    parse_entry,
)
from ramsli.server.evenings.state import BEST, Evening, RoundState, plan_round, results_by_round
from ramsli.server.ledger.books import KIND as LEDGER_KIND
from ramsli.server.ledger.books import LedgerBook, LedgerBooks
from ramsli.server.players.accounts import Player, current_player
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.messages import SpecError, rules_refusal
from ramsli.server.protocol.schemas import CreateTable, NewEvening, SeatSpec
from ramsli.server.storage.directory import Directory, new_id
from ramsli.server.tables.hub import Hub
from ramsli.server.tables.table import Table
from ramsli.session import forbidden_name_char, name_is_blank

if TYPE_CHECKING:
    from ramsli.server.clubs.skill import SkillService

__all__ = ["Evenings", "parse_starts", "check_evening_name", "NAME_MAX", "WEEK", "MAX_PARTICIPANTS", "YEARS"]

#: the most participants (people and bots, withdrawn ones counted) one evening takes: 40 tables of 5
#: (``bench/event.py`` measures an evening of this size)
MAX_PARTICIPANTS = 200
#: the years an evening may start in
YEARS = range(2000, 2201)

#: the longest evening name, characters
NAME_MAX = 48
#: a weekly evening's next one starts this much later
WEEK = dt.timedelta(days=7)

_log = logging.getLogger("ramsli.server")


def check_evening_name(name: str) -> str:
    """An evening's name, stripped: 1..:data:`NAME_MAX` characters of text without control or
    invisible characters (R2.2's name characters).

    Raises:
        Refused: ``bad_evening_name``.

    >>> check_evening_name("  Thursday at the Linde ")
    'Thursday at the Linde'
    """
    if name_is_blank(name) or len(name.strip()) > NAME_MAX or forbidden_name_char(name) is not None:
        raise Refused(Refusal("bad_evening_name", None, {"max": NAME_MAX}))
    return name.strip()


def parse_starts(text: str) -> dt.datetime:
    """When an evening starts: a date and time with its offset, and optionally its time zone
    (``2026-12-10T20:00+01:00[Europe/Berlin]``: :func:`ramsli.server.evenings.prints.parse_starts`).

    Raises:
        Refused: ``bad_starts`` (no date and time, no offset, an unknown zone, a year outside :data:`YEARS`).

    >>> parse_starts("2026-12-10T20:00+01:00").isoformat()
    '2026-12-10T20:00:00+01:00'
    """
    try:
        when, _zone = prints.parse_starts(text)
    except ValueError:
        raise Refused(Refusal("bad_starts", None, {"field": "starts"})) from None
    if len(text.strip()) < 16 or when.year not in YEARS or (when + WEEK).year not in YEARS:
        raise Refused(Refusal("bad_starts", None, {"field": "starts"}))
    return when


def real_card_tables(tables: Sequence[Sequence[str]], ev: Evening, asked: Sequence[int]) -> set[int]:
    """The tables of a mixed evening's round that play with real cards: those the director asked
    for, as many as asked. A table asked for that the draw gave a substitute bot (a bot cannot hold
    real cards) is replaced by the highest-numbered table without a bot not asked for; so the
    director asks before the draw and never learns it from a refusal.

    Raises:
        Refused: ``bot_at_cards``: fewer tables without a bot than asked for.
    """
    free = [n for n in range(1, len(tables) + 1) if all(ev.people[pid].kind != "bot" for pid in tables[n - 1])]
    wanted = sorted(set(asked))
    if len(free) < len(wanted):
        raise _refuse("bot_at_cards", asked=len(wanted), free=len(free))
    real = {n for n in wanted if n in free}
    spare = [n for n in reversed(free) if n not in real]
    while len(real) < len(wanted):
        real.add(spare.pop(0))
    return real


def _zone_of(starts: str) -> str:
    """The ``[Zone/Name]`` suffix of a valid start (:func:`parse_starts`), or ``""``."""
    zone = prints.parse_starts(starts)[1]
    return f"[{zone}]" if zone else ""


def _refuse(code: str, **fields: Any) -> Refused:
    return Refused(Refusal(code, None, fields))


class Evenings:
    """Every evening of the server: their actions and what their readers see.

    Args:
        directory: the players' and clubs' database, where evenings and their logs live.
        hub: the :class:`~ramsli.server.tables.hub.Hub` (online tables are made, seated,
            started and paused through it; it calls :meth:`watch` for every table it serves).
        ledgers: the server's pub ledgers (:class:`~ramsli.server.ledger.books.LedgerBooks`).

    Attributes:
        cache: evening id -> its fold (brought up to date from the log before each use).
        paused: the ids of the online tables an evening's director paused (set again on each
            table the hub serves, also after a restart).
    """

    def __init__(self, directory: Directory, hub: Hub, ledgers: LedgerBooks) -> None:
        self.directory = directory
        self.hub = hub
        self.ledgers = ledgers
        self.cache: dict[str, Evening] = {}
        self.paused: set[str] = set()
        self._locks: dict[str, asyncio.Lock] = {}
        self._bot_hands: dict[str, dict[int, int]] = {}
        #: table id -> (hands finished, public outcomes) of a duplicate evening's finished table
        self._outcomes_kept: dict[str, tuple[int, dict[int, DealTable]]] = {}
        #: the skill counters by consent (the standings' "skill / hand"), set by the app; None: no column
        self.skill: SkillService | None = None
        hub.watchers.append(self.watch)

    # -- start-up and the hub's tables ----------------------------------------------------------

    def watch(self, t: Table) -> None:
        """A table the hub serves (new, restored or read again): paused if its evening paused it."""
        if t.id in self.paused:
            t.paused = True

    async def load(self) -> int:
        """Read the running evenings and note their paused tables (call before the hub restores
        its tables, so none of them moves before it is paused again); returns how many evenings."""
        rows = await self.directory.evenings(status=("running",))
        for row in rows:
            try:
                ev = await self.get(row["id"])
            except Exception:  # noqa: BLE001 - one damaged evening must not stop the server
                _log.exception("evening %s does not load", row["id"])
                continue
            for r in ev.rounds:
                for n, paused in r.paused.items():
                    plan = r.table(n)
                    if paused and plan is not None and plan.table is not None:
                        self.paused.add(plan.table)
        for tid in self.paused:
            t = self.hub.tables.get(tid)
            if t is not None:
                t.set_paused(True)
        return len(rows)

    # -- reading ------------------------------------------------------------------------------

    def _lock(self, eid: str) -> asyncio.Lock:
        lock = self._locks.get(eid)
        if lock is None:
            lock = self._locks[eid] = asyncio.Lock()
        return lock

    async def get(self, eid: Any) -> Evening:
        """Evening ``eid``, up to date with its log.

        Raises:
            Refused: ``no_evening``.
        """
        row = await self.directory.evening(eid) if isinstance(eid, str) else None
        if row is None:
            if isinstance(eid, str):
                self.cache.pop(eid, None)
            raise _refuse("no_evening", evening=str(eid)[:40])
        ev = self.cache.get(eid)
        if ev is None or ev.created != row["created"]:
            ev = Evening(eid, row["club_id"], row["director"], row["created"])
        try:
            for r in await self.directory.evening_log(eid, after=ev.seq):
                entry = parse_entry(r)
                if entry.seq <= ev.seq:  # another reader applied it to the cached fold while this one waited
                    continue
                ev.apply(entry)
        except Exception:
            self.cache.pop(eid, None)
            raise
        self.cache[eid] = ev
        return ev

    async def is_director(self, ev: Evening, player: Player | None) -> bool:
        """True if ``player`` directs ``ev``: made it, or owns its club."""
        if player is None:
            return False
        if player.id == ev.director:
            return True
        if ev.club is not None:
            m = await self.directory.membership(ev.club, player.id)
            return m is not None and m["role"] == "owner"
        return False

    async def _director(self, ev: Evening, player: Player) -> None:
        if not await self.is_director(ev, player):
            raise _refuse("not_director")

    async def may_read(self, ev: Evening, player: Player | None) -> None:
        """Refuse a reader of a members-only evening who is not a member of its club.

        Raises:
            Refused: ``not_logged_in``, ``not_member``.
        """
        if not ev.spec.get("members_only") or ev.club is None:
            return
        if player is None:
            raise _refuse("not_logged_in")
        if await self.is_director(ev, player):
            return
        if await self.directory.membership(ev.club, player.id) is None:
            raise _refuse("not_member")

    async def results(
        self, ev: Evening
    ) -> tuple[dict[tuple[int, int], TableResult | None], dict[tuple[int, int], int]]:
        """Each table's result from its session record (None while it plays), and the hands
        played at each table that has finished."""
        ids = [x for r in ev.rounds for x in r.ids()]
        recs = await self.directory.records_of(ids) if ids else {}
        out: dict[tuple[int, int], TableResult | None] = {}
        hands: dict[tuple[int, int], int] = {}
        for r in ev.rounds:
            for plan in r.tables:
                key = (r.round, plan.number)
                rec = recs.get(plan.table or plan.ledger or "")
                seats = rec["data"].get("seats", []) if rec is not None else []
                if rec is None or len(seats) != len(plan.seats):
                    out[key] = None
                    continue
                bot_hands = await self._bot_hands_of(plan.table) if plan.table is not None else {}
                out[key] = table_result(
                    r.round,
                    plan.number,
                    plan.kind,
                    [
                        (
                            pid,
                            int(seats[i]["net"]),
                            0 if pid in ev.people and ev.people[pid].kind == "bot" else bot_hands.get(i, 0),
                        )
                        for i, pid in enumerate(plan.seats)
                    ],
                )
                hands[key] = len(rec["data"].get("hands", []))
        return out, hands

    async def _bot_hands_of(self, table_id: str) -> dict[int, int]:
        """Seat -> the hands of finished table ``table_id`` in which a bot moved for its person
        (the away bot or the turn timer), from the table's stored events."""
        found = self._bot_hands.get(table_id)
        if found is None:
            row = await self.hub.database.load_one(table_id)
            seen: set[tuple[int, int]] = set()
            hand = 0
            for _seq, kind, data in row["events"] if row is not None else []:
                if kind == "deal":
                    hand = int(data.get("number", hand + 1))
                elif kind == "act" and data.get("by") in ("proxy", "timer"):
                    seen.add((int(str(data["action"]).split()[0][1:]) - 1, hand))
            found = {}
            for seat, _hand in seen:
                found[seat] = found.get(seat, 0) + 1
            self._bot_hands[table_id] = found
        return found

    @staticmethod
    def running(ev: Evening, results: Mapping[tuple[int, int], TableResult | None]) -> RoundState | None:
        """The round still being played (a table of it has no result), or None."""
        cur = ev.current
        if cur is not None and any(results.get((cur.round, t.number)) is None for t in cur.tables):
            return cur
        return None

    def _live(
        self,
        ev: Evening,
        results: Mapping[tuple[int, int], TableResult | None],
        hands: Mapping[tuple[int, int], int],
    ) -> dict[tuple[int, int], dict[str, Any]]:
        out: dict[tuple[int, int], dict[str, Any]] = {}
        books = self.ledgers.books
        for r in ev.rounds:
            for plan in r.tables:
                key = (r.round, plan.number)
                played = hands.get(key)
                if played is None and plan.table is not None:
                    t = self.hub.tables.get(plan.table)
                    played = t.session.hands_played if t is not None and t.session is not None else 0
                elif played is None and plan.ledger is not None:
                    b = books.get(plan.ledger)
                    played = len(b.book.hands) if b is not None else 0
                status = (
                    "done" if results.get(key) is not None else ("paused" if r.paused.get(plan.number) else "playing")
                )
                out[key] = {"hands_played": played or 0, "status": status}
        return out

    async def _names(self, ev: Evening) -> dict[str, str | None]:
        names: dict[str, str | None] = dict(ev.names())
        missing = views.named_ids(ev) - set(names)
        for pid, row in (await self.directory.players(missing)).items():
            names[pid] = row["name"]
        return names

    async def state(self, eid: Any, player: Player | None, lang: str, key: str = "") -> dict[str, Any]:
        """The evening as ``player`` (None: nobody logged in) may see it
        (:func:`ramsli.server.evenings.views.state`).

        Raises:
            Refused: ``no_evening``, ``not_logged_in``, ``not_member``.
        """
        ev = await self.get(eid)
        screen = str((await self._secret(ev.id)).get("screen") or "")
        if not (key and screen and hmac.compare_digest(key.encode(), screen.encode())):
            await self.may_read(ev, player)  # the TV screen's key reads without a login
        out = await self._state(ev, player, lang)
        if self.skill is not None and out.get("standings"):
            # "skill / hand" beside the standings: opted-in people, their hands at the evening's
            # online tables (None for everyone else; issue 35 item 4, docs/skill.md)
            tables = [x for r in ev.rounds for x in r.ids()]
            col = await self.skill.column(tables, [st["id"] for st in out["standings"]])
            for st in out["standings"]:
                st["skill"] = col.get(st["id"])
        if out.get("may", {}).get("direct") and screen:
            out["screen"] = f"/e/{ev.id}/tv?key={screen}"  # the TV's link, for the director only
        return out

    async def _state(self, ev: Evening, player: Player | None, lang: str) -> dict[str, Any]:
        results, hands = await self.results(ev)
        names = await self._names(ev)
        club = await self.directory.club(ev.club) if ev.club is not None else None
        direct = await self.is_director(ev, player)
        me: dict[str, Any] | None = None
        check_in = False
        if player is not None:
            p = ev.people.get(player.id)
            cur = ev.current
            plan = cur.where(player.id) if cur is not None else None
            me = {
                "id": player.id,
                "checked_in": p is not None and p.checked_in and p.withdrawn_from is None,
                "director": direct,
                "table": None
                if plan is None or cur is None
                else {
                    "round": cur.round,
                    "number": plan.number,
                    "name": plan.name,
                    "mode": plan.mode,
                    "captain": plan.captain == player.id,
                },
            }
            check_in = not ev.closed and not me["checked_in"]
            if check_in and ev.spec.get("members_only") and ev.club is not None and not direct:
                check_in = await self.directory.membership(ev.club, player.id) is not None
        deals = await self._deals(ev, results)
        return views.state(
            ev,
            deals=deals,
            club=club,
            director_name=names.get(ev.director),
            results=results,
            live=self._live(ev, results, hands),
            names=names,
            me=me,
            may={"check_in": check_in, "direct": direct},
            lang=lang,
        )

    async def download(self, eid: Any, player: Player | None) -> dict[str, Any]:
        """The evening's download (:func:`ramsli.server.evenings.views.download`).

        Raises:
            Refused: ``no_evening``, ``not_logged_in``, ``not_member``.
        """
        ev = await self.get(eid)
        await self.may_read(ev, player)
        results, _hands = await self.results(ev)
        return views.download(ev, results, await self._deals(ev, results))

    async def me(self, eid: Any, player: Player) -> dict[str, Any]:
        """The reader's table of the evening's last round: ``{"round", "table", "name", "mode",
        "captain", "url"}`` — the seat link of an online table, the keeper link of a real-card
        table's captain, else its follow link. The director also gets ``"keep"``: the keeper
        link of each real-card table of the round.

        Raises:
            Refused: ``no_evening``, ``not_member``, ``no_evening_seat`` (no table this round).
        """
        ev = await self.get(eid)
        await self.may_read(ev, player)
        cur = ev.current
        plan = cur.where(player.id) if cur is not None else None
        direct = await self.is_director(ev, player)
        books = (await self.ledgers.load(self.hub)) if cur is not None else {}
        keep = []
        if direct and cur is not None:
            for t in cur.tables:
                b = books.get(t.ledger or "")
                if b is not None:
                    keep.append({"table": t.number, "name": t.name, "url": f"/l/{b.id}/{b.spec['token']}"})
        if plan is None or cur is None:
            if not direct:
                raise _refuse("no_evening_seat", round=ev.round)
            return {
                "round": ev.round,
                "table": None,
                "name": None,
                "mode": None,
                "captain": False,
                "url": None,
                "keep": keep,
            }
        url: str | None = None
        if plan.table is not None:
            secret = await self._secret(ev.id)
            token = secret.get("tables", {}).get(plan.table, {}).get("seats", {}).get(player.id)
            url = None if token is None else f"/t/{plan.table}/s/{token}"
        else:
            b = books.get(plan.ledger or "")
            if b is not None:
                url = (
                    f"/l/{b.id}/{b.spec['token']}"
                    if plan.captain == player.id
                    else f"/l/{b.id}/follow/{b.spec['follow_token']}"
                )
        answer = {
            "round": cur.round,
            "table": plan.number,
            "name": plan.name,
            "mode": plan.mode,
            "captain": plan.captain == player.id,
            "url": url,
        }
        if direct:
            answer["keep"] = keep
        return answer

    # -- duplicate evenings (issue 35) ------------------------------------------------------------

    async def _table_outcomes(self, plan: TablePlan) -> tuple[int, dict[int, DealTable]]:
        """Online table ``plan``'s finished hands and their public outcomes
        (:func:`ramsli.server.evenings.duplicate.table_outcomes`): from the table if this process
        serves it, else replayed from its stored events (another process serves it, or it is
        over); kept once its session is over."""
        if plan.table is None:
            return 0, {}
        kept = self._outcomes_kept.get(plan.table)
        if kept is not None:
            return kept
        t = self.hub.tables.get(plan.table)
        if t is None:
            row = await self.hub.database.load_one(plan.table)
            if row is None or row.get("error") or row.get("spec") is None:
                return 0, {}
            try:
                t = Table.replay(plan.table, row["spec"], row["events"], self.hub.store)
            except ValueError:
                _log.exception("evening table %s does not replay", plan.table)
                return 0, {}
        s = t.session
        if s is None:
            return 0, {}
        commitments = {}
        for e in s.results:
            deal = t.deals.get(e.number)
            if deal is not None:
                commitments[e.number] = deal.commitments
        found = len(s.results), table_outcomes(s.results, commitments, plan)
        if s.is_over:
            self._outcomes_kept[plan.table] = found
        return found

    async def _deals(self, ev: Evening, results: Mapping[tuple[int, int], TableResult | None]) -> list[DealResult]:
        """A duplicate evening's deals of the rounds every table has finished (none before: a
        standing must not tell a player how another table did on a deal they have still to play,
        D-21); [] for the other formats."""
        if ev.fmt != "duplicate":
            return []
        done = [r.round for r in ev.rounds if all(results.get((r.round, t.number)) is not None for t in r.tables)]
        outcomes: dict[tuple[int, int], dict[int, DealTable]] = {}
        for r in ev.rounds:
            if r.round in done:
                for plan in r.tables:
                    outcomes[r.round, plan.number] = (await self._table_outcomes(plan))[1]
        return deal_results(ev, outcomes, done)

    async def hides(self, t: Table) -> int | None:
        """The round of table ``t`` if it is a duplicate evening's table whose round still plays
        (R7, D-21: then no one may watch it or read its hands through its club, who may yet play
        the same deals at another table), else None."""
        ref = t.evening or {}
        if not t.duplicate or not isinstance(ref.get("id"), str):
            return None
        try:
            ev = await self.get(ref["id"])
        except Refused:
            return None
        number = ref.get("round")
        rnd = ev.rounds[number - 1] if isinstance(number, int) and 1 <= number <= ev.round else None
        if rnd is None:
            return None
        results, _hands = await self.results(ev)
        return rnd.round if any(results.get((rnd.round, p.number)) is None for p in rnd.tables) else None

    async def field(self, eid: Any, player: Player | None, round_no: Any, hand: Any) -> dict[str, Any]:
        """The field of deal ``hand`` of round ``round_no`` of a duplicate evening, as ``player``
        may see it (R7, D-21): a player seated in the round sees their own section once their own
        table has played that deal (the other tables that have played it too); anyone else, every
        section once every table of the round has finished. Per table and duplicate seat the public
        outcome only (:func:`ramsli.server.evenings.duplicate.field_json`): never a card.

        Returns:
            ``{"evening", "round", "hand", "sections": [field_json]}``.

        Raises:
            Refused: ``no_evening``, ``not_logged_in``/``not_member`` (members only),
                ``not_duplicate``, ``no_deal``, ``deal_not_played``, ``field_after_round``.
        """
        ev = await self.get(eid)
        await self.may_read(ev, player)
        if ev.fmt != "duplicate":
            raise _refuse("not_duplicate")
        ok = isinstance(round_no, int) and isinstance(hand, int) and 1 <= round_no <= ev.round and hand >= 1
        rnd = ev.rounds[round_no - 1] if ok else None
        if rnd is None:
            raise _refuse("no_deal", round=str(round_no)[:8], hand=str(hand)[:8])
        mine = rnd.where(player.id) if player is not None else None
        sizes = sorted({len(t.seats) for t in rnd.tables}, reverse=True)
        if mine is not None:
            sizes = [len(mine.seats)]
        sections = [[t for t in rnd.tables if len(t.seats) == size] for size in sizes]
        if hand > max(t.hands for sec in sections for t in sec):
            raise _refuse("no_deal", round=rnd.round, hand=hand)
        if mine is None:
            results, _hands = await self.results(ev)
            if any(results.get((rnd.round, t.number)) is None for t in rnd.tables):
                raise Refused(Refusal("field_after_round", "D-21", {"round": rnd.round}))
        else:
            played, _own = await self._table_outcomes(mine)
            if played < hand:
                raise Refused(Refusal("deal_not_played", "D-21", {"round": rnd.round, "hand": hand}))
        names = ev.names()
        out = []
        for sec in sections:
            outcomes = {}
            for plan in sec:
                found = (await self._table_outcomes(plan))[1].get(hand)
                if found is not None:
                    outcomes[plan.number] = found
            out.append(field_json(ev, rnd.round, hand, sec, outcomes, names))
        return {"evening": ev.id, "round": rnd.round, "hand": hand, "sections": out}

    async def state_for(self, request: Request, evening_id: str) -> dict[str, Any]:
        """:meth:`state` for the reader of ``request`` in its language (the prints' and feeds' routes)."""
        return await self.state(evening_id, await current_player(request), request_lang(request))

    async def calendar_for(self, request: Request, club_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """:meth:`calendar` with the request's ``?key=`` and logged-in player (the club's ``.ics``)."""
        return await self.calendar(club_id, request.query_params.get("key", ""), await current_player(request))

    async def season_scores(self, club_id: str, since: float, until: float) -> list[dict[str, Any]]:
        """Every participant's score of each closed evening of club ``club_id`` that started within
        ``[since, until)`` (seconds since the epoch): ``{"evening", "participant", "score"}`` rows for
        :func:`ramsli.server.players.records.best_of_table` (a season's "best N of M evenings")."""
        rows: list[dict[str, Any]] = []
        for e in await self.directory.evenings(club=club_id, status=("closed",), since=since):
            if e["starts"] >= until:
                continue
            ev = await self.get(e["id"])
            results, _hands = await self.results(ev)
            for st in views.download(ev, results, await self._deals(ev, results))["standings"]:
                rows.append({"evening": ev.id, "participant": st["participant"], "score": float(st["score"])})
        return rows

    async def calendar(
        self, club_id: str, key: str, player: Player | None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The club and its evenings for its calendar feed (:func:`ramsli.server.evenings.prints.ics_feed`):
        read with the feed's key (a calendar app has no login) or by a logged-in member.

        Raises:
            Refused: ``no_club``, ``not_member`` (a wrong key and no member logged in).
        """
        club = await self.directory.club(club_id) if isinstance(club_id, str) else None
        if club is None:
            raise _refuse("no_club", club=str(club_id)[:40])
        good = await self.directory.calendar_key(club["id"])
        if not (key and hmac.compare_digest(key.encode(), good.encode())):
            if player is None or await self.directory.membership(club["id"], player.id) is None:
                raise _refuse("not_member")
        items = []
        for e in await self.directory.evenings(club=club["id"]):
            s = e["spec"]
            items.append(
                {
                    "id": e["id"],
                    "name": s.get("name"),
                    "starts": s.get("starts"),
                    "preset": s.get("preset"),
                    "format": s.get("format"),
                    "rounds": s.get("rounds"),
                    "hands_per_round": s.get("hands_per_round"),
                    "recurring": s.get("recurring"),
                    "series": s.get("series") or e["id"],  # a series is named by its first evening
                    "status": e["status"],
                }
            )
        return {"id": club["id"], "name": club["name"]}, items

    async def club_evenings(self, club_id: str, player: Player) -> dict[str, Any]:
        """A club's evenings for its members: ``{"club", "upcoming", "past"}``, each ``{"id",
        "name", "starts", "status", "format", "mode", "url"}`` (upcoming: earliest first; past:
        latest first).

        Raises:
            Refused: ``no_club``, ``not_member``.
        """
        club = await self.directory.club(club_id) if isinstance(club_id, str) else None
        if club is None:
            raise _refuse("no_club", club=str(club_id)[:40])
        if await self.directory.membership(club["id"], player.id) is None:
            raise _refuse("not_member")

        def short(e: dict[str, Any]) -> dict[str, Any]:
            s = e["spec"]
            return {
                "id": e["id"],
                "name": s.get("name"),
                "starts": s.get("starts"),
                "status": e["status"],
                "format": s.get("format"),
                "mode": s.get("mode"),
                "url": f"/e/{e['id']}",
            }

        rows = await self.directory.evenings(club=club["id"])
        return {
            "club": {"id": club["id"], "name": club["name"]},
            "upcoming": [short(e) for e in rows if e["status"] != "closed"],
            "past": [short(e) for e in reversed(rows) if e["status"] == "closed"],
        }

    # -- writing --------------------------------------------------------------------------------

    async def _secret(self, eid: str) -> dict[str, Any]:
        row = await self.directory.evening(eid, secret=True)
        return dict(row["secret"]) if row is not None else {}

    async def _append(
        self,
        ev: Evening,
        by: str | None,
        record: Record,
        status: str | None = None,
        secret: dict[str, Any] | None = None,
    ) -> Entry:
        """Store ``record`` as the evening's next entry, then apply it.

        Raises:
            Refused: ``evening_busy`` (another writer stored that entry first; nothing was stored).
        """
        entry = Entry(ev.seq + 1, time.time(), by, record)
        if not await self.directory.append_evening_log(ev.id, entry.to_row(), status, secret):
            self.cache.pop(ev.id, None)
            raise _refuse("evening_busy")
        if entry.seq > ev.seq:  # else a reader (not locked) read it from the log while this one waited
            ev.apply(entry)
        return entry

    def _check_spec(self, body: NewEvening) -> None:
        """The evening's tables can be made: the preset and options (R6, R8, within play), the
        timings; ``end`` is the round's, not an option."""
        if any(r.partition("=")[0].strip().lower() == "end" for r in body.rules):
            raise _refuse("evening_end_rule")
        hands = hands_for(BEST, body.hands_per_round)
        self.hub.parse_spec(self._table_body(body.model_dump(), [SeatSpec(kind="human")] * BEST, hands))
        try:
            PubLedger(
                Rules.preset(body.preset).with_assignments([*body.rules, f"end=hands:{hands}"]),
                [f"Player {i}" for i in range(1, BEST + 1)],
                0,
            )
        except RulesError as e:
            raise SpecError(rules_refusal(e)) from None
        except EngineTableError as e:
            raise SpecError(e.refusal) from None

    @staticmethod
    def _table_body(spec: Mapping[str, Any], seats: list[SeatSpec], hands: int) -> CreateTable:
        return CreateTable(
            preset=spec["preset"],
            rules=[*spec["rules"], f"end=hands:{hands}"],
            seats=seats,
            grace_seconds=spec["grace_seconds"],
            turn_seconds=spec["turn_seconds"],
            bot_pace_seconds=spec["bot_pace_seconds"],
            hand_pause_seconds=spec["hand_pause_seconds"],
        )

    async def create(self, player: Player, body: NewEvening) -> dict[str, Any]:
        """Make an evening: ``{"id", "url", "commitment"}``; ``player`` directs it.

        Raises:
            Refused: ``bad_evening_name``, ``bad_starts``, ``duplicate_online_only``, ``no_club``,
                ``not_member``, ``not_owner``, ``members_need_club``, ``recurring_needs_club``,
                ``evening_end_rule``; SpecError, BadMessage: the preset, the options, the timings.
        """
        name = check_evening_name(body.name)
        when = parse_starts(body.starts)
        if body.format == "duplicate" and body.mode != "online":
            raise _refuse("duplicate_online_only", mode=body.mode)
        club: str | None = None
        if body.club is not None:
            row = await self.directory.club(body.club)
            if row is None:
                raise _refuse("no_club", club=body.club[:40])
            m = await self.directory.membership(row["id"], player.id)
            if m is None:
                raise _refuse("not_member")
            if m["role"] != "owner":
                raise _refuse("not_owner")
            club = row["id"]
        if body.members_only and club is None:
            raise _refuse("members_need_club")
        if body.recurring is not None and club is None:
            raise _refuse("recurring_needs_club")
        self._check_spec(body)
        final = body.format == "final"
        spec = {
            "name": name,
            "starts": when.isoformat(timespec="minutes") + _zone_of(body.starts),
            "club": club,
            "preset": body.preset,
            "rules": list(body.rules),
            "mode": body.mode,
            "members_only": body.members_only,
            "format": body.format,
            "rounds": body.rounds,
            "rounds_total": rounds_total(body.format, body.rounds),
            "best": BEST,
            "hands_per_round": body.hands_per_round,
            "final_size": (body.final_size or BEST) if final else None,
            "small_final": body.small_final if final else False,
            "recurring": body.recurring,
            "turn_seconds": body.turn_seconds,
            "grace_seconds": body.grace_seconds,
            "bot_pace_seconds": body.bot_pace_seconds,
            "hand_pause_seconds": body.hand_pause_seconds,
        }
        eid, commit = await self._new(spec, when, club, player.id)
        return {"id": eid, "url": f"/e/{eid}", "commitment": commit}

    async def _new(self, spec: dict[str, Any], when: dt.datetime, club: str | None, director: str) -> tuple[str, str]:
        """Store a new evening of ``spec`` with fresh seeds; returns its id and commitment."""
        seeds = seed_chain(int(spec["rounds_total"]))
        commit = commitment(seeds)
        eid = new_id()
        now = time.time()
        first = {"at": now, "by": director, "kind": Create.KIND.value, "data": Create(spec, commit).to_data()}
        await self.directory.create_evening(
            eid,
            club,
            director,
            spec,
            when.timestamp(),
            now,
            # screen: the key of the TV screen's link (a pub's TV reads a members-only evening without a login)
            {"seeds": seeds, "tables": {}, "screen": secrets.token_urlsafe(18)},
            first,
        )
        return eid, commit

    async def check_in(self, eid: Any, player: Player, lang: str) -> dict[str, Any]:
        """``player`` checks in: from round 1, or from the next round once the first started.

        Raises:
            Refused: ``no_evening``, ``not_member`` (members only), ``evening_closed``,
                ``already_checked_in``, ``in_other_evening``, ``evening_busy``.
        """
        async with self._lock(str(eid)):
            ev = await self.get(eid)
            await self.may_read(ev, player)
            if ev.closed:
                raise _refuse("evening_closed")
            p = ev.people.get(player.id)
            if p is not None and p.checked_in and p.withdrawn_from is None:
                raise _refuse("already_checked_in")
            if p is None and len(ev.people) >= MAX_PARTICIPANTS:
                raise _refuse("evening_full", max=MAX_PARTICIPANTS)
            for row in await self.directory.evenings(status=("running",)):
                if row["id"] != ev.id and await self._plays_in(row["id"], player.id):
                    other = await self.get(row["id"])
                    raise _refuse("in_other_evening", name=other.spec.get("name", ""))
            await self._append(ev, player.id, CheckIn(player.id, player.name, ev.round + 1))
            return await self._state(ev, player, lang)

    async def _seated_elsewhere(self, eid: str, pids: list[str]) -> tuple[str, str] | None:
        """(the other evening's name, the person) for the first of ``pids`` who sits at a table of
        another evening's round still being played, or None."""
        want = set(pids)
        for row in await self.directory.evenings(status=("running",)):
            if row["id"] == eid:
                continue
            other = await self.get(row["id"])
            results, _hands = await self.results(other)
            cur = self.running(other, results)
            if cur is None:
                continue
            for plan in cur.tables:
                if results.get((cur.round, plan.number)) is None:
                    for pid in plan.seats:
                        if pid in want:
                            return str(other.spec.get("name", "")), pid
        return None

    async def _plays_in(self, eid: str, pid: str) -> bool:
        """True if ``pid`` is checked in (not withdrawn) to running evening ``eid`` and it has a
        round still to play or in play (an evening whose last round has finished holds nobody)."""
        ev = await self.get(eid)
        p = ev.people.get(pid)
        if ev.closed or p is None or not p.checked_in or p.withdrawn_from is not None:
            return False
        if ev.round < ev.rounds_total:
            return True
        results, _hands = await self.results(ev)
        return self.running(ev, results) is not None

    async def check_out(self, eid: Any, player: Player, lang: str) -> dict[str, Any]:
        """``player`` checks out (before their first round) or withdraws (after it).

        Raises:
            Refused: ``no_evening``, ``evening_closed``, ``not_checked_in``, ``evening_busy``.
        """
        async with self._lock(str(eid)):
            ev = await self.get(eid)
            if ev.closed:
                raise _refuse("evening_closed")
            p = ev.people.get(player.id)
            if p is None or not p.checked_in or p.withdrawn_from is not None:
                raise _refuse("not_checked_in")
            await self._leave(ev, player.id, player.id)
            return await self._state(ev, player, lang)

    async def _leave(self, ev: Evening, pid: str, by: str) -> None:
        """Check ``pid`` out before their first round, else withdraw them from the next round on
        and hand a seat of theirs still playing to the table's away bot."""
        p = ev.people[pid]
        if p.from_round > ev.round:
            await self._append(ev, by, CheckOut(pid))
            return
        await self._append(ev, by, Withdraw(pid, ev.round + 1))
        cur = ev.current
        plan = cur.where(pid) if cur is not None else None
        if plan is not None and plan.table is not None and p.kind == "person":
            t = self.hub.tables.get(plan.table)
            if t is not None:
                t.leave(t.seats[plan.seats.index(pid)])

    async def withdraw(self, eid: Any, player: Player, participant: str, lang: str) -> dict[str, Any]:
        """The director withdraws ``participant`` (a check-out before their first round).

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``no_participant``.
        """
        async with self._lock(str(eid)):
            ev = await self._directed(eid, player)
            p = ev.people.get(participant)
            if p is None or not p.checked_in or p.withdrawn_from is not None:
                raise _refuse("no_participant", participant=participant[:40])
            await self._leave(ev, participant, player.id)
            return await self._state(ev, player, lang)

    async def substitute(self, eid: Any, player: Player, level: str, lang: str) -> dict[str, Any]:
        """The director adds a substitute bot of ``level`` (``bot:LEVEL:K``, "Bot K (LEVEL)"),
        drawn from the next round on.

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``bad_level``, ``cards_no_bots``,
                ``evening_full`` (:data:`MAX_PARTICIPANTS`).
        """
        async with self._lock(str(eid)):
            ev = await self._directed(eid, player)
            if level not in LEVELS:
                raise _refuse("bad_level", level=level[:20], levels=", ".join(LEVELS))
            if ev.spec.get("mode") == "cards":
                raise _refuse("cards_no_bots")
            if len(ev.people) >= MAX_PARTICIPANTS:
                raise _refuse("evening_full", max=MAX_PARTICIPANTS)
            k = 1 + sum(1 for p in ev.people.values() if p.kind == "bot")
            pid = f"bot:{level}:{k}"
            await self._append(ev, player.id, Substitute(pid, f"Bot {k} ({level})", level, ev.round + 1))
            return await self._state(ev, player, lang)

    async def _directed(self, eid: Any, player: Player) -> Evening:
        """The evening ``eid``, open, for an action of its director.

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``.
        """
        ev = await self.get(eid)
        await self._director(ev, player)
        if ev.closed:
            raise _refuse("evening_closed")
        return ev

    async def _between_rounds(
        self, eid: Any, player: Player
    ) -> tuple[Evening, dict[tuple[int, int], TableResult | None]]:
        """The evening ``eid`` and its tables' results, for a director's action that needs every
        round played out (start the next round, close).

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``round_running``.
        """
        ev = await self._directed(eid, player)
        results, _hands = await self.results(ev)
        cur = self.running(ev, results)
        if cur is not None:
            raise _refuse("round_running", round=cur.round)
        return ev, results

    async def start_round(self, eid: Any, player: Player, cards: list[int], lang: str) -> dict[str, Any]:
        """The director starts the next round (see the module's notes); ``cards``: the real-card
        tables of a mixed evening.

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``round_running``,
                ``no_more_rounds``, ``too_few``, ``cards_only_mixed``, ``no_evening_table``,
                ``bot_at_cards``, ``playing_elsewhere``, ``evening_busy``; the hub's (nothing is kept of a refused round).
        """
        async with self._lock(str(eid)):
            ev, results = await self._between_rounds(eid, player)
            if ev.round >= ev.rounds_total:
                raise _refuse("no_more_rounds", rounds=ev.rounds_total)
            mode = str(ev.spec.get("mode"))
            if mode != "mixed" and cards:
                raise _refuse("cards_only_mixed", mode=mode)
            secret = await self._secret(ev.id)
            seed = secret["seeds"][ev.round]
            draw = plan_round(ev, seed, results_by_round(results))
            for n in cards:
                if not 1 <= n <= len(draw.tables):
                    raise _refuse("no_evening_table", table=n)
            real = set(range(1, len(draw.tables) + 1)) if mode == "cards" else real_card_tables(draw.tables, ev, cards)
            busy = await self._seated_elsewhere(ev.id, [p for p in draw.participants if ev.people[p].kind == "person"])
            if busy:  # a person plays one table at a time: the director withdraws them or waits
                other, pid = busy
                raise _refuse("playing_elsewhere", name=ev.people[pid].name, evening=other)
            made: list[str] = []
            tokens: dict[str, dict[str, Any]] = {}
            plans: list[TablePlan] = []
            # a duplicate evening: each section's deals, from the OS CSPRNG (never the opened seed chain)
            dup = plan_sections(ev.spec, [len(t) for t in draw.tables]) if ev.fmt == "duplicate" else None
            if dup is not None:
                secret.setdefault("duplicate", {})[str(draw.round)] = dup
            try:
                for n, seats in enumerate(draw.tables, 1):
                    hands = hands_for(len(seats), int(ev.spec["hands_per_round"]))
                    ref = {"id": ev.id, "round": draw.round, "table": n, "name": draw.names[n - 1]}
                    kind = draw.kinds[n - 1]
                    if n in real:
                        lid = await self._make_ledger(ev, seats, hands, ref)
                        made.append(lid)
                        plans.append(TablePlan(n, draw.names[n - 1], kind, "cards", None, lid, hands, seats, seats[0]))
                    else:
                        section = None if dup is None else dup[str(len(seats))]
                        tid, toks = await self._make_table(ev, seats, hands, ref, made, section)
                        tokens[tid] = toks
                        plans.append(TablePlan(n, draw.names[n - 1], kind, "online", tid, None, hands, seats))
                secret.setdefault("tables", {}).update(tokens)
                record = StartRound(
                    round=draw.round,
                    kind=draw.kind,
                    participants=draw.participants,
                    byes=draw.byes,
                    sizes=draw.sizes,
                    order=draw.order,
                    drawn=draw.drawn,
                    swaps=draw.swaps,
                    tables=tuple(plans),
                    seed=seed,
                )
                await self._append(ev, player.id, record, status="running", secret=secret)
            except BaseException:
                for tid in made:  # nothing of a refused round stays in play
                    try:
                        await self.hub.close_table(tid)
                    except Exception:  # noqa: BLE001 - the refusal is what the director reads
                        _log.exception("evening %s: table %s of a refused round was not closed", ev.id, tid)
                raise
            for tid, toks in tokens.items():
                await self.hub.start(tid, toks["creator"])
            return await self._state(ev, player, lang)

    async def _make_table(
        self,
        ev: Evening,
        seats: tuple[str, ...],
        hands: int,
        ref: dict[str, Any],
        made: list[str],
        duplicate: dict[str, Any] | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """An online table of the round: made through the hub (its seats people or bots), linked
        to the evening's club, each person seated under their name and linked to the seat; a
        duplicate evening's table gets its section's deals (``spec["duplicate"]``).
        Returns its id and its tokens (creator, each person's personal token)."""
        specs = [
            SeatSpec(kind="bot", bot=LEVELS[ev.people[pid].level or "easy"])
            if ev.people[pid].kind == "bot"
            else SeatSpec(kind="human")
            for pid in seats
        ]
        rules, preset, seat_specs, opts, _seed = self.hub.parse_spec(self._table_body(ev.spec, specs, hands))
        spec = Table.new_spec(rules, preset, seat_specs, opts, None)
        spec["evening"] = ref
        if duplicate is not None:
            spec["duplicate"] = duplicate
        t = await self.hub.add_table(spec)
        made.append(t.id)
        await self.directory.link_table(t.id, False, ev.club, ev.director)
        toks: dict[str, Any] = {"creator": spec["creator_token"], "seats": {}}
        now = time.time()
        for i, pid in enumerate(seats):
            p = ev.people[pid]
            if (
                p.kind != "person"
            ):  # a substitute plays under its evening name ("Bot 2 (hard)"), as every result shows it
                t.seats[i].name = p.name
                continue
            sat = await self.hub.sit(t.id, spec["seats"][i]["token"], p.name)
            await self.directory.link_seat(t.id, i, pid, now)
            toks["seats"][pid] = sat.token
        return t.id, toks

    async def _make_ledger(self, ev: Evening, seats: tuple[str, ...], hands: int, ref: dict[str, Any]) -> str:
        """A real-card table of the round: a club-style pub ledger with the people's names at its
        seats (each linked to the seat), the first seat dealing first; returns its id."""
        try:
            rules = Rules.preset(str(ev.spec["preset"])).with_assignments([*ev.spec["rules"], f"end=hands:{hands}"])
            names = [ev.people[pid].name for pid in seats]
            PubLedger(rules, names, 0)  # the names (R2.1, R2.2)
        except RulesError as e:
            raise SpecError(rules_refusal(e)) from None
        except EngineTableError as e:
            raise SpecError(e.refusal) from None
        spec = {
            "kind": LEDGER_KIND,
            "preset": ev.spec["preset"],
            "rules": rules.to_dict(),
            "names": names,
            "first_dealer": 0,
            "cents": False,
            "token": secrets.token_urlsafe(16),
            "follow_token": secrets.token_urlsafe(16),
            "evening": ref,
        }
        books = await self.ledgers.load(self.hub)
        lid = "L" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        now = time.time()
        await self.hub.store.create_table(lid, spec, now)
        books[lid] = LedgerBook(lid, spec, now)
        await self.directory.link_table(lid, False, ev.club, ev.director)
        for i, pid in enumerate(seats):
            await self.directory.link_seat(lid, i, pid, now)
        return lid

    async def _current_table(self, ev: Evening, number: int) -> tuple[RoundState, TablePlan, bool]:
        """Table ``number`` of the last round, and whether it has its result.

        Raises:
            Refused: ``no_evening_table``.
        """
        cur = ev.current
        plan = cur.table(number) if cur is not None else None
        if cur is None or plan is None:
            raise _refuse("no_evening_table", table=number)
        results, _hands = await self.results(ev)
        return cur, plan, results.get((cur.round, number)) is not None

    async def pause(self, eid: Any, player: Player, number: int, paused: bool, lang: str) -> dict[str, Any]:
        """The director pauses table ``number`` of the round or lets it go on.

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``no_evening_table``, ``table_done``.
        """
        async with self._lock(str(eid)):
            ev = await self._directed(eid, player)
            cur, plan, done = await self._current_table(ev, number)
            if done:
                raise _refuse("table_done", table=number)
            await self._append(ev, player.id, Pause(cur.round, number, paused))
            if plan.table is not None:
                if paused:
                    self.paused.add(plan.table)
                else:
                    self.paused.discard(plan.table)
                t = self.hub.tables.get(plan.table)
                if t is not None:
                    t.set_paused(paused)
            return await self._state(ev, player, lang)

    async def captain(self, eid: Any, player: Player, number: int, participant: str, lang: str) -> dict[str, Any]:
        """The director makes ``participant`` the captain of real-card table ``number``: the
        ledger's keeper link changes (the old captain's link keeps it no more).

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``no_evening_table``,
                ``not_cards_table``, ``table_done``, ``not_at_table``.
        """
        async with self._lock(str(eid)):
            ev = await self._directed(eid, player)
            cur, plan, done = await self._current_table(ev, number)
            if plan.mode != "cards" or plan.ledger is None:
                raise _refuse("not_cards_table", table=number)
            if done:
                raise _refuse("table_done", table=number)
            if participant not in plan.seats:
                raise _refuse("not_at_table", participant=participant[:40], table=number)
            books = await self.ledgers.load(self.hub)
            b = books.get(plan.ledger)
            await self._append(ev, player.id, Captain(cur.round, number, participant))
            if b is not None:
                spec = dict(b.spec, token=secrets.token_urlsafe(16))
                await self.directory.set_table_spec(b.id, spec)
                b.spec = spec
            return await self._state(ev, player, lang)

    async def reseat(self, eid: Any, player: Player, a: str, b: str, lang: str) -> dict[str, Any]:
        """The director swaps the seats of ``a`` and ``b``: in the running round (real-card tables
        before their first hand: each gets a new ledger with the names swapped), else in the next
        round's draw.

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``reseat_same``,
                ``no_participant``, ``reseat_dealt``, ``no_more_rounds``.
        """
        async with self._lock(str(eid)):
            ev = await self._directed(eid, player)
            if a == b:
                raise _refuse("reseat_same")
            results, _hands = await self.results(ev)
            cur = self.running(ev, results)
            if cur is None:
                for pid in (a, b):
                    p = ev.people.get(pid)
                    if p is None or not p.checked_in or p.withdrawn_from is not None:
                        raise _refuse("no_participant", participant=pid[:40])
                if ev.round >= ev.rounds_total:
                    raise _refuse("no_more_rounds", rounds=ev.rounds_total)
                await self._append(ev, player.id, Reseat(ev.round + 1, a, b))
                return await self._state(ev, player, lang)
            plans: list[TablePlan] = []
            for pid in (a, b):
                plan = cur.where(pid)
                if plan is None:
                    raise _refuse("no_participant", participant=pid[:40])
                if plan not in plans:
                    plans.append(plan)
            books = await self.ledgers.load(self.hub)
            for plan in plans:
                book = books.get(plan.ledger or "")
                if plan.mode != "cards" or book is None or book.book.hands:
                    raise _refuse("reseat_dealt", table=plan.number)
            swap = {a: b, b: a}
            new: list[tuple[int, str]] = []
            for plan in plans:
                seats = tuple(swap.get(pid, pid) for pid in plan.seats)
                ref = {"id": ev.id, "round": cur.round, "table": plan.number, "name": plan.name}
                new.append((plan.number, await self._make_ledger(ev, seats, plan.hands, ref)))
            try:
                await self._append(ev, player.id, Reseat(cur.round, a, b, tuple(new)))
            except BaseException:
                for _n, lid in new:
                    await self.hub.close_table(lid)
                raise
            for plan in plans:
                if plan.ledger is not None:
                    await self.hub.close_table(plan.ledger)
            return await self._state(ev, player, lang)

    async def close(self, eid: Any, player: Player, lang: str) -> dict[str, Any]:
        """The director closes the evening; a weekly one makes the next (a week later, new seeds).

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_closed``, ``round_running``.
        """
        async with self._lock(str(eid)):
            ev, results = await self._between_rounds(eid, player)
            nxt: str | None = None
            if ev.spec.get("recurring") == "weekly":
                when = parse_starts(str(ev.spec["starts"])) + WEEK  # the same wall-clock time in its zone
                starts = when.isoformat(timespec="minutes") + _zone_of(str(ev.spec["starts"]))
                spec = dict(ev.spec, starts=starts, series=ev.spec.get("series") or ev.id)
                nxt, _commit = await self._new(spec, when, ev.club, ev.director)
            try:
                await self._append(ev, player.id, Close(nxt), status="closed")
            except BaseException:
                if nxt is not None:
                    await self.directory.delete_evening(nxt)
                raise
            return await self._state(ev, player, lang)

    async def delete(self, eid: Any, player: Player) -> dict[str, Any]:
        """The director deletes the evening (its tables, ledgers and records stay).

        Raises:
            Refused: ``no_evening``, ``not_director``, ``evening_playing``.
        """
        async with self._lock(str(eid)):
            ev = await self.get(eid)
            await self._director(ev, player)
            results, _hands = await self.results(ev)
            if self.running(ev, results) is not None:
                raise _refuse("evening_playing")
            await self.directory.delete_evening(ev.id)
            self.cache.pop(ev.id, None)
            return {"id": ev.id, "deleted": True}
