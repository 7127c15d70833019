"""Clubs of ``ramsli serve``: members, invite links, seasons, the season table, session records and ratings.

A logged-in player (:mod:`ramsli.server.players.accounts`) makes a **club** (a name) and is its owner;
the owner makes invite links (``/c/join/TOKEN``; only a hash of the token is kept; revocable) and
players who open one join. A **club table** (a card table made with ``"club"``,
:mod:`ramsli.server.tables.lobby`) and a **club ledger** (a pub ledger made with ``"club"`` and the
members at its seats, :mod:`ramsli.server.ledger.books`) both count for the club.

When a session ends, its **record** is stored (:func:`ramsli.server.players.records.summarize`): a club's
sessions, and every session between players (and bots) that can be rated. A club's **seasons**
(a name, a first and a last day, UTC; one runs now: its days hold today) each have a **season
table** from the records of the club's sessions that ended within it: per member sessions,
hands, net counters, counters per hand, in %, bete %, pots won and placement points, and each
member's running total session by session (``docs/clubs.md``). Only members read a club's
pages; none of them holds a card (R7, D-16): the score sheets hold what the settlement made
public (who was in, tricks, stacks), the hand histories are the spectator's.

**Ratings** (:mod:`ramsli.server.players.ratings`): a rated record updates the server-wide ratings and,
for a club's session, the club's ratings. A guest seat claimed afterwards (``POST
/api/me/claim`` with the personal token it was played with) or a ledger hand corrected after
the end stores the record again and recomputes the ratings from the first session on.

**Ratings by consent** (issue 38.11): a club's ledger names members at its seats, but its keeper
alone books the hands; so its session is rated only when each named member has confirmed it from
their own login (``POST /api/ledgers/{ledger}/confirm``, within :data:`CONFIRM_WINDOW_SECONDS` of
its end; the keeper's own seat is confirmed when the ledger is made). Until then its record is
stored unrated (``"unrated": {"reason": "unconfirmed", "waiting": [names]}``); the last
confirmation stores it again, rated.

Endpoints (served by :mod:`ramsli.server.clubs.routes`): ``POST /api/clubs``, ``GET /api/clubs/{club}``, ``POST|GET /api/clubs/{club}/invites``,
``DELETE /api/clubs/{club}/invites/{invite}``, ``GET /api/invites/{token}``, ``POST
/api/clubs/join``, ``DELETE /api/clubs/{club}/members/me``, ``POST /api/clubs/{club}/seasons``,
``GET /api/clubs/{club}/seasons/{season}``, ``GET /api/clubs/{club}/sessions/{table}``, ``GET
/api/clubs/{club}/sessions/{table}/hands/{n}.toml``, ``GET /api/ratings``, ``POST
/api/me/claim``; pages ``/account``, ``/c/{club}``, ``/c/{club}/s/{table}``, ``/c/join/{token}``,
``/ratings``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import Request

from ramsli.refusal import Refusal, Refused
from ramsli.seats import seat_name
from ramsli.server import deps
from ramsli.server.players import records as rec
from ramsli.server.players.accounts import Player
from ramsli.server.players.ratings import Rating, conservative, default_rating, load_calibration, rate, replay, shown
from ramsli.server.protocol.schemas import NewSeason
from ramsli.server.storage.directory import SERVER_SCOPE, Directory, bot_key, bot_player_id
from ramsli.server.tables.table import Table, TableStatus
from ramsli.server.tables.views import rules_summary
from ramsli.session import forbidden_name_char, name_is_blank

__all__ = [
    "Clubs",
    "season_window",
    "current_season",
    "default_season",
    "check_season",
    "check_club_name",
    "CLUB_NAME_MAX",
]

#: the longest club or season name, characters
CLUB_NAME_MAX = 48
#: how long after a ledger session's end its named members may confirm it, seconds (7 days;
#: ratings by consent, issue 38.11): a session confirmed by all within it is rated then
CONFIRM_WINDOW_SECONDS = 7 * 24 * 3600


def check_club_name(name: str) -> str:
    """A club's or season's name, stripped: 1..:data:`CLUB_NAME_MAX` characters of text without
    control or invisible characters (the seat-name characters of R2.2).

    Raises:
        Refused: ``bad_club_name``.

    >>> check_club_name("  Zur Linde ")
    'Zur Linde'
    """
    if name_is_blank(name) or len(name.strip()) > CLUB_NAME_MAX or forbidden_name_char(name) is not None:
        raise Refused(Refusal("bad_club_name", None, {"max": CLUB_NAME_MAX}))
    return name.strip()


def _date(field: str, text: str) -> dt.date:
    try:
        if len(text) != 10:
            raise ValueError(text)
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Refused(Refusal("bad_date", None, {"field": field})) from None


def check_season(body: NewSeason, others: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """A season as stored: ``{"name", "starts", "ends"}``, and ``"best_of"`` (N of "best N of M
    evenings", :func:`ramsli.server.players.records.best_of_table`) when the body sets it.

    Raises:
        Refused: ``bad_club_name``, ``bad_date`` (naming the field), ``season_order``,
            ``season_overlap`` (another season of the club shares a day with it).

    >>> check_season(NewSeason(name="Winter", starts="2026-10-01", ends="2027-03-31"))
    {'name': 'Winter', 'starts': '2026-10-01', 'ends': '2027-03-31'}
    >>> check_season(NewSeason(name="Winter", starts="2026-10-01", ends="2027-03-31", best_of=8))["best_of"]
    8
    """
    name = check_club_name(body.name)
    starts, ends = _date("starts", body.starts), _date("ends", body.ends)
    if ends < starts:
        raise Refused(Refusal("season_order"))
    for o in others:
        if not (ends < dt.date.fromisoformat(o["starts"]) or starts > dt.date.fromisoformat(o["ends"])):
            raise Refused(Refusal("season_overlap", None, {"name": o["name"]}))
    season: dict[str, Any] = {"name": name, "starts": starts.isoformat(), "ends": ends.isoformat()}
    if body.best_of is not None:
        season["best_of"] = body.best_of
    return season


def season_window(season: dict[str, Any]) -> tuple[float, float]:
    """The seconds (since the epoch) a season spans: from its first day's midnight (UTC) to the
    midnight after its last day.

    >>> season_window({"starts": "1970-01-02", "ends": "1970-01-02"})
    (86400.0, 172800.0)
    """
    start = dt.datetime.fromisoformat(season["starts"]).replace(tzinfo=dt.UTC)
    end = dt.datetime.fromisoformat(season["ends"]).replace(tzinfo=dt.UTC) + dt.timedelta(days=1)
    return start.timestamp(), end.timestamp()


def current_season(seasons: Iterable[dict[str, Any]], now: float) -> dict[str, Any] | None:
    """The season that runs at ``now`` (seconds since the epoch), or None."""
    for s in seasons:
        a, b = season_window(s)
        if a <= now < b:
            return s
    return None


def default_season(now: float) -> dict[str, str]:
    """A new club's first season: from today (UTC) for a year, named after its years (``2026/27``)."""
    today = dt.datetime.fromtimestamp(now, dt.UTC).date()
    try:
        last = today.replace(year=today.year + 1) - dt.timedelta(days=1)
    except ValueError:  # 29 February
        last = today + dt.timedelta(days=364)
    return {"name": f"{today.year}/{(today.year + 1) % 100:02d}", "starts": today.isoformat(), "ends": last.isoformat()}


class Clubs:
    """Clubs, records and ratings of one server process.

    Args:
        directory: the :class:`~ramsli.server.storage.directory.Directory`.
        hub: the :class:`~ramsli.server.tables.hub.Hub` (its tables' sessions are recorded when they end).
        calibration: an arena result file for the bots' first ratings (default: the bundled one).

    Attributes:
        start_ratings: player id -> first rating (the calibrated bots).
    """

    def __init__(self, directory: Directory, hub: Any, calibration: str | None = None) -> None:
        self.directory = directory
        self.hub = hub
        self.start_ratings = {bot_player_id(k): r for k, r in load_calibration(calibration).items()}
        self.lock = asyncio.Lock()  # records and ratings change one at a time
        self.tasks: set[asyncio.Task[None]] = set()
        self.log = logging.getLogger("ramsli.server")

    # -- hooks ------------------------------------------------------------------------------------

    def watch(self, t: Table) -> None:
        """Record ``t``'s session when it ends (a listener of its events)."""

        def changed(table: Table, kind: str) -> None:
            if kind == "act" and table.status is TableStatus.OVER:
                task = asyncio.get_running_loop().create_task(self._record_safely(table))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

        t.listeners.append(changed)

    async def _record_safely(self, t: Table) -> None:
        try:
            await self.record_table(t)
        except Exception:  # a record that fails is made again at the next start (reconcile)
            self.log.exception("table %s: its session record was not stored", t.id)

    async def settle(self) -> None:
        """Wait for the records under way (tests, shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def reconcile(self, ledgers: Iterable[Any] = ()) -> int:
        """Store the record of every finished table and ledger that should have one and has not
        (a session that ended while its record was not yet written); returns how many."""
        over = [t for t in list(self.hub.tables.values()) if t.status is TableStatus.OVER]
        books = [b for b in ledgers if b.book.is_over]
        if not over and not books:  # the usual start-up: no record, no link is read
            return 0
        done = {r["table_id"] for r in await self.directory.records()}
        links = await self.directory.table_links()
        n = 0
        for t in over:
            if t.id not in done:
                n += bool(await self.record_table(t, links.get(t.id)))
        for b in books:
            if b.id not in done and b.id in links:
                n += bool(await self.record_ledger(b))
        return n

    # -- records -----------------------------------------------------------------------------------

    async def record_table(self, t: Table, link: dict[str, Any] | None = None) -> bool:
        """Store the record of card table ``t``'s finished session if it counts (a club's table, an
        evening's table, or every seat a player or a bot with a person among them); returns True
        if stored."""
        if t.session is None or not t.session.is_over:
            return False
        link = link if link is not None else await self.directory.table_link(t.id)
        club = link["club_id"] if link else None
        seats = await self.directory.seat_links(t.id)
        owners = []
        for s in t.seats:
            if not s.taken:
                owners.append(rec.SeatOwner(bot=bot_key(s.bot_spec)))
            else:
                owners.append(rec.SeatOwner(player=seats.get(s.index), from_hand=s.since_hand or 1))
        if club is None and not rec.is_rated(owners) and not t.evening:
            return False  # an evening's table always counts: its round's result is its record
        names = [s.name or seat_name(s.index) for s in t.seats]
        dealers = [e.hand.dealer if e.hand is not None else 0 for e in t.session.results]
        data = rec.summarize(
            "table",
            t.session,
            names,
            dealers,
            owners,
            preset=t.preset,
            summary=rules_summary(t.preset, t.rules),
            finished=time.time(),
        )
        await self._store(t.id, "table", club, data)
        return True

    async def record_ledger(self, b: Any) -> bool:
        """Store (or store again, after a correction) the record of pub ledger ``b``'s finished
        session if it counts (a club's ledger, an evening's ledger, or every seat a player); True
        if stored."""
        if not b.book.is_over:
            return False
        link = await self.directory.table_link(b.id)
        club = link["club_id"] if link else None
        seats = await self.directory.seat_links(b.id)
        owners = [rec.SeatOwner(player=seats.get(i)) for i in range(len(b.book.names))]
        if club is None and not rec.is_rated(owners) and not b.spec.get("evening"):
            return False  # an evening's ledger always counts: its round's result is its record
        old = await self.directory.record(b.id)
        waiting = [] if b.spec.get("evening") else await self.unconfirmed(b)
        data = rec.summarize(
            "ledger",
            b.book.session,
            b.book.names,
            b.book.dealers,
            owners,
            preset=b.spec.get("preset") or "traditional",
            summary=rules_summary(b.spec.get("preset") or "traditional", b.book.rules),
            finished=old["finished"] if old is not None else time.time(),
        )
        if waiting and data["rated"]:  # ratings by consent (issue 38.11): unrated until all confirmed
            data["rated"] = False
            data["unrated"] = {"reason": "unconfirmed", "waiting": waiting}
        await self._store(b.id, "ledger", club, data)
        return True

    async def unconfirmed(self, b: Any) -> list[str]:
        """The names of the members named in ledger ``b`` who have not confirmed its session
        (issue 38.11): a rated ledger session needs each named member's confirmation from their
        own login; the keeper's own seat is confirmed when the ledger is made."""
        confirmed = await self.directory.seat_confirmations(b.id)
        return [b.book.names[i] for i in sorted(confirmed) if confirmed[i] is None]

    async def consent(self, b: Any, player: Player | None = None) -> dict[str, Any] | None:
        """What the ledger page says about ratings by consent (issue 38.11), or None for a ledger
        that names no member: ``{"named": [{"seat", "name", "confirmed"}], "waiting": [names],
        "over", "rated", "closes", "you"}`` — ``rated`` whether the stored record is rated (None
        before the end), ``closes`` until when a named member may confirm (seconds since the
        epoch; None before the end), ``you`` ``"confirm"``, ``"confirmed"`` or None for
        ``player`` (the reader's login)."""
        confirmed = await self.directory.seat_confirmations(b.id)
        if not confirmed or b.spec.get("evening"):
            return None
        links = await self.directory.seat_links(b.id)
        r = await self.directory.record(b.id) if b.book.is_over else None
        mine = next((i for i, pid in links.items() if player is not None and pid == player.id), None)
        return {
            "named": [
                {"seat": seat_name(i), "name": b.book.names[i], "confirmed": confirmed[i] is not None}
                for i in sorted(confirmed)
            ],
            "waiting": [b.book.names[i] for i in sorted(confirmed) if confirmed[i] is None],
            "over": b.book.is_over,
            "rated": None if r is None else bool(r["rated"]),
            "closes": None if r is None else r["finished"] + CONFIRM_WINDOW_SECONDS,
            "you": None if mine is None else ("confirm" if confirmed[mine] is None else "confirmed"),
        }

    async def confirm_ledger(self, b: Any, player: Player, now: float) -> None:
        """``player`` confirms the finished session of ledger ``b`` (issue 38.11); once every named
        member has, its record is stored again, rated, and the ratings recomputed.

        Raises:
            Refused: ``confirm_not_over`` (the session still runs), ``confirm_closed`` (more than
                :data:`CONFIRM_WINDOW_SECONDS` after its end), ``not_named`` (``player`` has no
                seat in it).
        """
        if not b.book.is_over:
            raise Refused(Refusal("confirm_not_over"))
        r = await self.directory.record(b.id)
        if r is not None and now > r["finished"] + CONFIRM_WINDOW_SECONDS:
            raise Refused(Refusal("confirm_closed", None, {"days": CONFIRM_WINDOW_SECONDS // 86400}))
        if await self.directory.confirm_seat(b.id, player.id, now) is None:
            raise Refused(Refusal("not_named"))
        await self.record_ledger(b)

    async def to_confirm(self, player: Player, books: Mapping[str, Any], now: float) -> list[dict[str, Any]]:
        """The ledger sessions waiting for ``player``'s confirmation (issue 38.11), for the account
        page: ``[{"ledger", "club", "names", "standings", "hands", "closes"}]``, oldest first;
        finished sessions whose time to confirm has not run out."""
        out = []
        for s in await self.directory.seats_of(player.id):
            b = books.get(s["table_id"])
            if b is None or s.get("confirmed") is not None or not b.book.is_over or b.spec.get("evening"):
                continue
            r = await self.directory.record(b.id)
            if r is None or now > r["finished"] + CONFIRM_WINDOW_SECONDS:
                continue
            out.append(
                {
                    "ledger": b.id,
                    "club": r["club_id"],
                    "names": list(b.book.names),
                    "standings": b.book.standings(),
                    "hands": len(b.book.hands),
                    "closes": r["finished"] + CONFIRM_WINDOW_SECONDS,
                }
            )
        return out

    async def _store(self, table_id: str, kind: str, club: str | None, data: dict[str, Any]) -> None:
        """Store a record, then bring the ratings up to date with it."""
        async with self.lock:
            for s in data["seats"]:
                if s["bot"] is not None:
                    await self.directory.bot_player(s["bot"], time.time())
            new = await self.directory.put_record(table_id, kind, club, data["finished"], data["rated"], data)
            if not data["rated"] and new:
                return
            latest = await self.directory.records(rated=True)
            if new and latest and latest[-1]["table_id"] == table_id:
                await self._rate_one(club, data)
            else:
                await self._recompute()

    @staticmethod
    def _standings(data: dict[str, Any]) -> list[tuple[str, int]]:
        return [
            (s["player"] if s["player"] is not None else bot_player_id(s["bot"]), s["place"]) for s in data["seats"]
        ]

    async def _rate_one(self, club: str | None, data: dict[str, Any]) -> None:
        standings = self._standings(data)
        scopes = [SERVER_SCOPE] + ([club] if club else [])
        out: dict[tuple[str, str], dict[str, Any]] = {}
        for scope in scopes:
            stored = await self.directory.ratings(scope)
            before = {
                pid: Rating(stored[pid]["mu"], stored[pid]["sigma"], stored[pid]["sessions"])
                if pid in stored
                else self.start_ratings.get(pid, default_rating())
                for pid, _ in standings
            }
            for pid, r in rate(before, standings).items():
                out[(scope, pid)] = {"mu": r.mu, "sigma": r.sigma, "sessions": r.sessions}
        await self.directory.put_ratings(out)

    async def _recompute(self) -> None:
        rated = await self.directory.records(rated=True)
        sessions = [
            ([SERVER_SCOPE] + ([r["club_id"]] if r["club_id"] else []), self._standings(r["data"])) for r in rated
        ]
        result = replay(sessions, self.start_ratings)
        await self.directory.put_ratings(
            {k: {"mu": r.mu, "sigma": r.sigma, "sessions": r.sessions} for k, r in result.items()}, replace=True
        )

    async def recompute_ratings(self) -> None:
        """Compute every rating again from the first rated session on."""
        async with self.lock:
            await self._recompute()

    # -- reading -----------------------------------------------------------------------------------

    async def member_of(self, club_id: str, player: Player) -> tuple[dict[str, Any], dict[str, Any]]:
        """The club and ``player``'s membership of it.

        Raises:
            Refused: ``no_club``, ``not_member``.
        """
        club = await self.directory.club(club_id) if isinstance(club_id, str) else None
        if club is None:
            raise Refused(Refusal("no_club", None, {"club": str(club_id)[:40]}))
        m = await self.directory.membership(club["id"], player.id)
        if m is None:
            raise Refused(Refusal("not_member"))
        return club, m

    async def names(self, ids: Iterable[str]) -> dict[str, str | None]:
        """Player id -> name (None for a deleted player)."""
        return {pid: row["name"] for pid, row in (await self.directory.players(ids)).items()}

    async def ratings_list(self, scope: str, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The ratings of ``scope`` as the pages show them, best first (by μ − 3σ): ``{"player", "name",
        "bot", "rating", "uncertainty", "order", "sessions"}``; ``only``: these players and every bot."""
        stored = await self.directory.ratings(scope)
        rows = await self.directory.players(stored)
        keep = None if only is None else set(only)
        out = []
        for pid, v in stored.items():
            row = rows.get(pid)
            if row is None:
                continue
            bot = row["kind"] == "bot"
            if keep is not None and not bot and pid not in keep:
                continue
            r = Rating(v["mu"], v["sigma"], v["sessions"])
            out.append({"player": pid, "name": row["name"], "bot": bot, **shown(r), "_order": conservative(r)})
        out.sort(key=lambda x: (-x.pop("_order"), x["name"] or ""))
        return out


def _clubs(request: Request) -> Clubs:
    clubs = deps.clubs(request)
    return clubs
