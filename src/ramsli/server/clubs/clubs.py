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

Endpoints: ``POST /api/clubs``, ``GET /api/clubs/{club}``, ``POST|GET /api/clubs/{club}/invites``,
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
import secrets
import time
from collections.abc import Iterable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from ramsli.refusal import N_, Refusal, Refused, register
from ramsli.seats import seat_name
from ramsli.server.players import records as rec
from ramsli.server.players.accounts import FORMER_PLAYER, Player, require_player
from ramsli.server.players.ratings import Rating, conservative, default_rating, load_calibration, rate, replay, shown
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.messages import STATUS
from ramsli.server.protocol.schemas import ClaimSeat, CreateClub, JoinClub, NewSeason, NoBody, body_of
from ramsli.server.storage.directory import SERVER_SCOPE, Directory, bot_key, bot_player_id
from ramsli.server.tables.table import Table, TableStatus
from ramsli.server.tables.views import rules_summary
from ramsli.server.web.shell import shell
from ramsli.session import forbidden_name_char, name_is_blank

__all__ = [
    "router",
    "Clubs",
    "season_window",
    "current_season",
    "default_season",
    "check_season",
    "check_club_name",
    "CLUB_NAME_MAX",
]

router = APIRouter()

#: the longest club or season name, characters
CLUB_NAME_MAX = 48

register(
    {
        "no_club": N_("there is no club {club}"),
        "not_member": N_("only members of this club see it; ask a member for an invite link"),
        "not_owner": N_("only the club's owner may do this"),
        "no_invite": N_("this invite link is not known; ask the club for a new one"),
        "invite_revoked": N_("this invite link was revoked; ask the club for a new one"),
        "already_member": N_("you are already a member of {club}"),
        "bad_club_name": N_("a club or season name is 1 to {max} characters of text without control characters"),
        "bad_date": N_("{field} must be a date written YYYY-MM-DD"),
        "season_order": N_("a season ends on or after the day it starts"),
        "season_overlap": N_("the season overlaps the season {name}; seasons of a club do not overlap"),
        "no_season": N_("this club has no season {season}"),
        "no_record": N_("this club has no finished session {table}"),
        "claim_not_seat": N_("this is not the token you sat down with at table {table}"),
        "seat_claimed": N_("seat {seat} of this table is already linked to a player"),
        "already_seated": N_("you already sit at seat {seat} of this table"),
        "owner_leaves": N_("the owner cannot leave a club with other members"),
    }
)
STATUS.update(
    {
        "no_club": 404,
        "not_member": 403,
        "not_owner": 403,
        "no_invite": 404,
        "invite_revoked": 410,
        "already_member": 409,
        "bad_club_name": 422,
        "bad_date": 422,
        "season_order": 422,
        "season_overlap": 409,
        "no_season": 404,
        "no_record": 404,
        "claim_not_seat": 403,
        "seat_claimed": 409,
        "already_seated": 409,
        "owner_leaves": 409,
    }
)


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


def check_season(body: NewSeason, others: Iterable[dict[str, Any]] = ()) -> dict[str, str]:
    """A season as stored: ``{"name", "starts", "ends"}``.

    Raises:
        Refused: ``bad_club_name``, ``bad_date`` (naming the field), ``season_order``,
            ``season_overlap`` (another season of the club shares a day with it).

    >>> check_season(NewSeason(name="Winter", starts="2026-10-01", ends="2027-03-31"))
    {'name': 'Winter', 'starts': '2026-10-01', 'ends': '2027-03-31'}
    """
    name = check_club_name(body.name)
    starts, ends = _date("starts", body.starts), _date("ends", body.ends)
    if ends < starts:
        raise Refused(Refusal("season_order"))
    for o in others:
        if not (ends < dt.date.fromisoformat(o["starts"]) or starts > dt.date.fromisoformat(o["ends"])):
            raise Refused(Refusal("season_overlap", None, {"name": o["name"]}))
    return {"name": name, "starts": starts.isoformat(), "ends": ends.isoformat()}


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
        """Store the record of card table ``t``'s finished session if it counts (a club's table, or
        every seat a player or a bot with a person among them); returns True if stored."""
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
        if club is None and not rec.is_rated(owners):
            return False
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
        session if it counts (a club's ledger, or every seat a player); True if stored."""
        if not b.book.is_over:
            return False
        link = await self.directory.table_link(b.id)
        club = link["club_id"] if link else None
        seats = await self.directory.seat_links(b.id)
        owners = [rec.SeatOwner(player=seats.get(i)) for i in range(len(b.book.names))]
        if club is None and not rec.is_rated(owners):
            return False
        old = await self.directory.record(b.id)
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
        await self._store(b.id, "ledger", club, data)
        return True

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
    clubs: Clubs = request.app.state.clubs
    return clubs


# -- the API ----------------------------------------------------------------------------------------


@router.post("/api/clubs", status_code=201)
async def create_club(request: Request) -> dict[str, Any]:
    """Make a club: ``{"name", "season": {"name", "starts", "ends"}}`` (the season optional:
    a year from today) -> ``201 {"club", "season"}``; the player is its owner."""
    body = await body_of(request, CreateClub)
    player = await require_player(request)
    name = check_club_name(body.name)
    now = time.time()
    season = check_season(body.season) if body.season is not None else default_season(now)
    cid = await _clubs(request).directory.create_club(name, player.id, season, now)
    return {"club": {"id": cid, "name": name}, "season": season}


@router.get("/api/clubs/{club_id}")
async def club_info(request: Request, club_id: str) -> dict[str, Any]:
    """A club for its members: name, your role, members, seasons (the one that runs now
    marked), the club's ratings, its ledgers (follow links; the keeper link for its keeper) and
    its card tables (spectator links)."""
    player = await require_player(request)
    clubs = _clubs(request)
    club, m = await clubs.member_of(club_id, player)
    d = clubs.directory
    members = await d.members(club["id"])
    seasons = await d.seasons(club["id"])
    now = time.time()
    cur = current_season(seasons, now)
    links = {k: v for k, v in (await d.table_links()).items() if v["club_id"] == club["id"]}
    done = {r["table_id"]: r for r in await d.records(club=club["id"])}
    tables, ledgers = [], []
    books = getattr(request.app.state, "ledgers", None) or {}
    for tid, link in links.items():
        t = clubs.hub.tables.get(tid)
        if t is not None:
            tables.append(
                {
                    "table": tid,
                    "status": str(t.status),
                    "preset": t.preset,
                    "seats": [s.name for s in t.seats],
                    "spectate": f"/t/{tid}/watch/{t.spectator_token}",
                    "record": tid in done,
                }
            )
        elif tid in books:
            b = books[tid]
            entry = {
                "ledger": tid,
                "names": b.book.names,
                "over": b.book.is_over,
                "hands": len(b.book.hands),
                "follow": f"/l/{tid}/follow/{b.spec['follow_token']}",
                "record": tid in done,
            }
            if link["creator_id"] == player.id:
                entry["keep"] = f"/l/{tid}/{b.spec['token']}"
            ledgers.append(entry)
    return {
        "club": {"id": club["id"], "name": club["name"], "created": club["created"]},
        "role": m["role"],
        "you": player.id,
        "members": [{"player": x["id"], "name": x["name"], "role": x["role"], "joined": x["joined"]} for x in members],
        "seasons": [{**s, "current": cur is not None and s["id"] == cur["id"]} for s in seasons],
        "current": cur["id"] if cur else None,
        "ratings": await clubs.ratings_list(club["id"]),
        "tables": tables,
        "ledgers": ledgers,
    }


async def _owner(request: Request, club_id: str) -> tuple[Clubs, dict[str, Any], Player]:
    player = await require_player(request)
    clubs = _clubs(request)
    club, m = await clubs.member_of(club_id, player)
    if m["role"] != "owner":
        raise Refused(Refusal("not_owner"))
    return clubs, club, player


@router.post("/api/clubs/{club_id}/invites", status_code=201)
async def new_invite(request: Request, club_id: str) -> dict[str, Any]:
    """The owner makes an invite link: ``201 {"invite", "token", "link"}`` (the token is shown
    only now; the server keeps its hash)."""
    await body_of(request, NoBody)
    clubs, club, player = await _owner(request, club_id)
    token = secrets.token_urlsafe(18)
    iid = await clubs.directory.create_invite(club["id"], token, player.id, time.time())
    return {"invite": iid, "token": token, "link": f"/c/join/{token}"}


@router.get("/api/clubs/{club_id}/invites")
async def invites(request: Request, club_id: str) -> list[dict[str, Any]]:
    """The owner's list of invites: ``[{"invite", "created", "revoked", "uses"}]`` (no tokens)."""
    clubs, club, _player = await _owner(request, club_id)
    return [
        {"invite": i["id"], "created": i["created"], "revoked": i["revoked"], "uses": i["uses"]}
        for i in await clubs.directory.invites(club["id"])
    ]


@router.delete("/api/clubs/{club_id}/invites/{invite_id}")
async def revoke_invite(request: Request, club_id: str, invite_id: str) -> dict[str, Any]:
    """The owner revokes an invite link: whoever opens it afterwards is refused (``invite_revoked``)."""
    clubs, club, _player = await _owner(request, club_id)
    if not await clubs.directory.revoke_invite(club["id"], invite_id, time.time()):
        raise Refused(Refusal("no_invite"))
    return {"invite": invite_id, "revoked": True}


async def _invite(clubs: Clubs, token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    inv = await clubs.directory.invite(token)
    if inv is None:
        raise Refused(Refusal("no_invite"))
    if inv["revoked"] is not None:
        raise Refused(Refusal("invite_revoked"))
    club = await clubs.directory.club(inv["club_id"])
    if club is None:
        raise Refused(Refusal("no_invite"))
    return inv, club


@router.get("/api/invites/{token}")
async def invite_info(request: Request, token: str) -> dict[str, Any]:
    """What an invite link leads to: ``{"club": {"id", "name"}}``; ``404 no_invite``, ``410 invite_revoked``."""
    _inv, club = await _invite(_clubs(request), token)
    return {"club": {"id": club["id"], "name": club["name"]}}


@router.post("/api/clubs/join")
async def join_club(request: Request) -> dict[str, Any]:
    """Join a club through its invite link: ``{"token"}`` -> ``{"club"}``.
    Refusals: ``no_invite``, ``invite_revoked``, ``already_member``, ``not_logged_in``."""
    body = await body_of(request, JoinClub)
    player = await require_player(request)
    clubs = _clubs(request)
    inv, club = await _invite(clubs, body.token)
    if await clubs.directory.membership(club["id"], player.id) is not None:
        raise Refused(Refusal("already_member", None, {"club": club["name"]}))
    await clubs.directory.join(club["id"], player.id, inv["id"], time.time())
    return {"club": {"id": club["id"], "name": club["name"]}}


@router.delete("/api/clubs/{club_id}/members/me")
async def leave_club(request: Request, club_id: str) -> dict[str, Any]:
    """Leave a club (the sessions played stay in its seasons); the owner leaves only an empty club."""
    player = await require_player(request)
    clubs = _clubs(request)
    club, m = await clubs.member_of(club_id, player)
    if m["role"] == "owner" and len(await clubs.directory.members(club["id"])) > 1:
        raise Refused(Refusal("owner_leaves"))
    await clubs.directory.leave(club["id"], player.id)
    return {"club": club["id"], "left": True}


@router.post("/api/clubs/{club_id}/seasons", status_code=201)
async def new_season(request: Request, club_id: str) -> dict[str, Any]:
    """The owner adds a season: ``{"name", "starts", "ends"}`` (``YYYY-MM-DD``, UTC days, not
    overlapping another season) -> ``201 {"season"}``."""
    body = await body_of(request, NewSeason)
    clubs, club, _player = await _owner(request, club_id)
    season = check_season(body, await clubs.directory.seasons(club["id"]))
    sid = await clubs.directory.create_season(club["id"], season["name"], season["starts"], season["ends"], time.time())
    return {"season": {"id": sid, **season}}


@router.get("/api/clubs/{club_id}/seasons/{season_id}")
async def season(request: Request, club_id: str, season_id: str) -> dict[str, Any]:
    """The season table (members only): ``{"club", "season", "rows", "sessions", "running"}``
    (:func:`ramsli.server.players.records.season_table`); ``season_id`` ``current`` is the season that runs now."""
    player = await require_player(request)
    clubs = _clubs(request)
    club, _m = await clubs.member_of(club_id, player)
    seasons = await clubs.directory.seasons(club["id"])
    s = (
        current_season(seasons, time.time())
        if season_id == "current"
        else next((x for x in seasons if x["id"] == season_id), None)
    )
    if s is None:
        raise Refused(Refusal("no_season", None, {"season": season_id[:40]}))
    since, until = season_window(s)
    records = await clubs.directory.records(club=club["id"], since=since, until=until)
    ids = {x["id"] for x in await clubs.directory.members(club["id"])}
    ids |= {seat["player"] for r in records for seat in r["data"].get("seats", []) if seat.get("player")}
    table = rec.season_table(records, await clubs.names(ids))
    for sess in table["sessions"]:
        sess["sheet"] = f"/c/{club['id']}/s/{sess['record']}"
    return {"club": {"id": club["id"], "name": club["name"]}, "season": s, **table}


@router.get("/api/clubs/{club_id}/sessions/{table_id}")
async def score_sheet(request: Request, club_id: str, table_id: str) -> dict[str, Any]:
    """The score sheet of one of the club's finished sessions (members only): the record (seats
    with their numbers, every hand's public settlement; no card, R7) and the links to its hands
    (``.toml`` hand histories of a card table, as a spectator reads them; the follow page of a
    ledger)."""
    player = await require_player(request)
    clubs = _clubs(request)
    club, _m = await clubs.member_of(club_id, player)
    r = await clubs.directory.record(table_id)
    if r is None or r["club_id"] != club["id"]:
        raise Refused(Refusal("no_record", None, {"table": table_id[:40]}))
    data = r["data"]
    links: dict[str, Any] = {}
    if r["kind"] == "table":
        links["hands"] = [
            f"/api/clubs/{club['id']}/sessions/{table_id}/hands/{h['number']}.toml" for h in data["hands"]
        ]
        t = clubs.hub.tables.get(table_id)
        if t is not None:
            links["watch"] = f"/t/{table_id}/watch/{t.spectator_token}"
    else:
        b = (getattr(request.app.state, "ledgers", None) or {}).get(table_id)
        if b is not None:
            links["follow"] = f"/l/{table_id}/follow/{b.spec['follow_token']}"
    return {
        "club": {"id": club["id"], "name": club["name"]},
        "record": table_id,
        "kind": r["kind"],
        **data,
        "links": links,
    }


@router.get("/api/clubs/{club_id}/sessions/{table_id}/hands/{number}.toml")
async def club_hand(request: Request, club_id: str, table_id: str, number: int) -> PlainTextResponse:
    """A hand of one of the club's card-table sessions as a hand history (members only), exactly
    as a spectator downloads it: folded hands and the cut hidden (R7, D-16)."""
    player = await require_player(request)
    clubs = _clubs(request)
    club, _m = await clubs.member_of(club_id, player)
    r = await clubs.directory.record(table_id)
    if r is None or r["club_id"] != club["id"] or r["kind"] != "table":
        raise Refused(Refusal("no_record", None, {"table": table_id[:40]}))
    t = clubs.hub.table(table_id)
    text = clubs.hub.history(table_id, number, t.spectator_token)
    return PlainTextResponse(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="{table_id}-hand-{number:04d}.toml"'},
    )


@router.get("/api/ratings")
async def server_ratings(request: Request) -> dict[str, Any]:
    """The server-wide ratings: the players who opted in (``listed``) and the bots, best first."""
    clubs = _clubs(request)
    stored = await clubs.directory.ratings(SERVER_SCOPE)
    rows = await clubs.directory.players(stored)
    listed = [pid for pid, row in rows.items() if row["kind"] == "person" and row["listed"] and row["deleted"] is None]
    return {"ratings": await clubs.ratings_list(SERVER_SCOPE, only=listed)}


@router.post("/api/me/claim")
async def claim_seat(request: Request) -> dict[str, Any]:
    """Claim a guest seat for the logged-in player: ``{"table", "token"}`` with the personal token
    the seat was played with (``sit`` returned it) -> ``{"table", "seat"}``. A finished session's
    record is stored again and the ratings recomputed. Refusals: ``no_table``,
    ``claim_not_seat`` (not that seat's personal token), ``seat_claimed``, ``already_seated``."""
    body = await body_of(request, ClaimSeat)
    player = await require_player(request)
    clubs = _clubs(request)
    t = clubs.hub.table(body.table)
    seat = t.owner_of(body.token)
    if seat is None:
        raise Refused(Refusal("claim_not_seat", None, {"table": t.id}))
    links = await clubs.directory.seat_links(t.id)
    if seat.index in links:
        raise Refused(Refusal("seat_claimed", None, {"seat": seat.index}))
    mine = [s for s, pid in links.items() if pid == player.id]
    if mine:
        raise Refused(Refusal("already_seated", None, {"seat": mine[0]}))
    if not await clubs.directory.link_seat(t.id, seat.index, player.id, time.time(), claimed=True):
        raise Refused(Refusal("seat_claimed", None, {"seat": seat.index}))
    if t.status is TableStatus.OVER:
        await clubs.record_table(t)
    return {"table": t.id, "seat": seat_name(seat.index)}


# -- the pages ------------------------------------------------------------------------------------------


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request) -> HTMLResponse:
    """Log in or make a player; your logins, clubs, data, guest seats to claim, deleting the player."""
    return shell("account", request_lang(request), "Ramsli", {"former": FORMER_PLAYER})


@router.get("/ratings", response_class=HTMLResponse)
async def ratings_page(request: Request) -> HTMLResponse:
    """The server-wide ratings."""
    return shell("club", request_lang(request), "Ramsli", {"mode": "ratings"})


@router.get("/c/join/{token}", response_class=HTMLResponse)
async def join_page(request: Request, token: str) -> HTMLResponse:
    """An invite link: log in, then join the club."""
    return shell("club", request_lang(request), "Ramsli", {"mode": "join", "token": token})


@router.get("/c/{club_id}/s/{table_id}", response_class=HTMLResponse)
async def sheet_page(request: Request, club_id: str, table_id: str) -> HTMLResponse:
    """The score sheet of one of the club's sessions (members only; the page asks the API)."""
    return shell("club", request_lang(request), "Ramsli", {"mode": "sheet", "club": club_id, "record": table_id})


@router.get("/c/{club_id}", response_class=HTMLResponse)
async def club_page(request: Request, club_id: str) -> HTMLResponse:
    """A club: its season table and chart, sessions, members, ratings, invites (members only)."""
    return shell("club", request_lang(request), "Ramsli", {"mode": "club", "club": club_id})
