"""Tables open to anyone, the lobby's list, quick play, and the links of tables and seats to players and clubs.

Tables are **private** by default: only whoever holds a link (an invite, the spectator link) finds
one. The creator may make a table **open to anyone** (``"open": true`` in ``POST /api/tables``):
``GET /api/tables`` lists it with its variant (R6, R8), its free seats and its pace, and anyone
takes a free seat with one click (``POST /api/tables/{table}/join``: the first human seat nobody
took; during the session a takeover from the next hand, as an invite link's) or watches it (its
spectator link is listed). An open table that has no free seat left before its start starts
itself. **Quick play** (``POST /api/quick-play``) seats a person at the fullest open table of the
preset they chose that has a free seat, or opens a new one for them (five seats, ten hands) and
makes them its creator.

``GET /api/tables`` lists open tables only; with the server's admin token
(``Authorization: Bearer TOKEN``, ``ramsli serve --admin-token``) it lists every table, its
spectator link and the broken ones.

Made here too, around the hub's own requests: a table made by a logged-in player remembers its
creator; one made with ``"club"`` is the club's (its creator must be a member); a logged-in
player who sits down is linked to the seat (the seat takes the player's name, R2.2) and may not
sit at two seats of one table.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import Request

from ramsli.bots.base import bot_names
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules, RulesError
from ramsli.seats import seat_name
from ramsli.server import deps
from ramsli.server.cluster.proxy import post_to_peer
from ramsli.server.ops.routes import check_admin
from ramsli.server.players.accounts import Player, current_player
from ramsli.server.protocol.messages import SpecError, rules_refusal
from ramsli.server.protocol.schemas import CreateTable, JoinTable, QuickPlay, SeatSpec, Sit
from ramsli.server.storage.directory import Directory
from ramsli.server.tables.hub import Hub
from ramsli.server.tables.table import SeatState, Table, TableStatus
from ramsli.session import check_name

__all__ = [
    "create_table",
    "join",
    "quick_play",
    "sit",
    "listing",
    "free_seats",
    "is_admin",
    "QUICK_SEATS",
    "QUICK_RULES",
]

#: seats of a table quick play opens
QUICK_SEATS = 5
#: the rule options of a table quick play opens (R3.6: ten hands)
QUICK_RULES = ("end=hands:10",)

_locks: dict[str, asyncio.Lock] = {}


def _lock(table_id: str) -> asyncio.Lock:
    lock = _locks.get(table_id)
    if lock is None:
        lock = _locks[table_id] = asyncio.Lock()
    return lock


def _hub(request: Request) -> Hub:
    return deps.hub(request)


def _directory(request: Request) -> Directory:
    return deps.directory(request)


def is_admin(request: Request) -> bool:
    """True if ``request`` carries the server's admin token (``Authorization: Bearer TOKEN``), False
    without an ``Authorization`` header.

    Raises:
        Refused: ``no_admin`` (no token is set on this server), ``admin_token`` (a wrong token);
            :func:`ramsli.server.ops.routes.check_admin`.
    """
    if not request.headers.get("authorization", ""):
        return False
    check_admin(request)
    return True


async def is_open(request: Request, table_id: str) -> bool:
    """True if table ``table_id`` is open to anyone (listed in the lobby: ``"open": true`` when it
    was made, or made by quick play); a private table's spectator link is for its token holders
    only (issue 38.1)."""
    link = await _directory(request).table_link(table_id)
    return bool(link is not None and link["open"])


def free_seats(t: Table) -> list[SeatState]:
    """The seats of ``t`` a stranger may take: human seats nobody sat down at (a bot plays one
    during the session until a person takes it over from the next hand)."""
    if t.status is TableStatus.OVER:
        return []
    return [s for s in t.seats if s.kind == "human" and not s.taken and s.pending is None and s.personal is None]


async def create_table(request: Request, spec: CreateTable) -> dict[str, Any]:
    """Make a table from its checked body (:meth:`~ramsli.server.tables.hub.Hub.create_table`) and
    remember its ``open`` flag, its club and its creating player.

    Raises:
        Refused: ``not_logged_in`` (a club's table needs a member), ``no_club``, ``not_member``;
            the hub's refusals (nothing is stored).
    """
    player = await current_player(request)
    club = None
    if spec.club is not None:
        if player is None:
            raise Refused(Refusal("not_logged_in"))
        c, _m = await deps.clubs(request).member_of(spec.club, player)
        club = c["id"]
    created = await _hub(request).create_table(spec)
    if spec.open or club is not None or player is not None:
        await _directory(request).link_table(created.table, spec.open, club, player.id if player else None)
    made = created.to_json()
    made["open"] = spec.open
    made["club"] = club
    return made


async def _sit(
    request: Request, player: Player | None, t: Table, token: str, name: Any, client: str = "person"
) -> dict[str, Any]:
    """Sit down through the hub (``client="bot"``: a program, shown as "bot (external)"); a
    logged-in player is linked to the seat under their own name."""
    hub = _hub(request)
    if player is None:
        return (await hub.sit(t.id, token, name, client)).to_json()
    d = _directory(request)
    seat = t.seat_of_token(token)
    links = await d.seat_links(t.id)
    if seat is not None:
        mine = [s for s, pid in links.items() if pid == player.id and s != seat.index]
        if mine:
            raise Refused(Refusal("already_seated", None, {"seat": mine[0]}))
    sat = await hub.sit(t.id, token, player.name, client)
    if links.get(sat.seat) is None:
        await d.link_seat(t.id, sat.seat, player.id, time.time())
    answer = sat.to_json()
    answer["player"] = player.public()
    return answer


async def sit(request: Request, table_id: str, body: Sit) -> dict[str, Any]:
    """``POST /api/tables/{table}/sit``: :meth:`~ramsli.server.tables.hub.Hub.sit`; with a login the seat
    takes the player's name and is linked to the player.

    Raises:
        Refused: the hub's refusals, ``already_seated``, a refused login cookie.
    """
    player = await current_player(request)
    t = _hub(request).table(table_id)
    return await _sit(request, player, t, body.token, body.name, body.client)


async def _join(request: Request, player: Player | None, t: Table, name: Any) -> dict[str, Any]:
    """Take the first free seat of open table ``t``; start it if no seat is left free before the start."""
    link = await _directory(request).table_link(t.id)
    if link is None or not link["open"]:
        raise Refused(Refusal("not_open", None, {"table": t.id}))
    if player is None:
        name = check_name(name, bot_names())
    async with _lock(t.id):
        if player is not None:
            links = await _directory(request).seat_links(t.id)
            mine = [s for s, pid in links.items() if pid == player.id]
            if mine and t.seats[mine[0]].personal is not None:  # the player's own seat: its link again
                s = t.seats[mine[0]]
                return {
                    "seat": seat_name(s.index),
                    "pending": s.pending is not None,
                    "token": s.personal,
                    "table": t.id,
                }
        answer: dict[str, Any] | None = None
        for s in free_seats(t):
            try:
                answer = await _sit(request, player, t, s.token, name)
                break
            except Refused as e:
                if e.refusal.code != "seat_taken":
                    raise
        if answer is None:
            if t.status is TableStatus.OVER:
                raise Refused(Refusal("session_over", "R3.6"))
            raise Refused(Refusal("no_free_seat", None, {"table": t.id}))
        if t.status is TableStatus.WAITING and not free_seats(t):
            await _hub(request).start(t.id, t.creator_token)  # a full open table starts itself
    answer["table"] = t.id
    return answer


def _page(answer: dict[str, Any]) -> dict[str, Any]:
    answer["page"] = f"/t/{answer['table']}/s/{answer['token']}"
    return answer


async def join(request: Request, t: Table, body: JoinTable) -> dict[str, Any]:
    """``POST /api/tables/{table}/join``: take a free seat at open table ``t``: ``{"name"}`` (a
    logged-in player's own name is used) -> ``{"table", "seat", "pending", "token", "page"}``;
    ``token`` is the seat's personal token.

    Raises:
        Refused: ``not_open`` (a private table), ``no_free_seat``, ``session_over``, ``bad_name``,
            ``bot_name``, ``name_taken`` (R2.2).
    """
    player = await current_player(request)
    return _page(await _join(request, player, t, body.name))


async def quick_play(request: Request, body: QuickPlay) -> dict[str, Any]:
    """``POST /api/quick-play``: ``{"preset", "name"}`` -> a seat at the fullest open table of
    ``preset`` with a free seat (before one whose session runs), or a new open table of
    :data:`QUICK_SEATS` seats and :data:`QUICK_RULES` with the person at ``p1`` as its creator
    (``creator_token`` in the answer). Answers as :func:`join` and ``"opened"``.

    Raises:
        Refused: the preset's (R6), the name's (R2.2).
    """
    player = await current_player(request)
    try:
        Rules.preset(body.preset)
    except RulesError as e:
        raise SpecError(rules_refusal(e)) from None
    name = player.name if player is not None else check_name(body.name, bot_names())
    # quick plays at the same moment fill one table: one at a time in this process, and with
    # several processes one at a time across them (a row lock in the shared database)
    async with _lock("quick-play:" + body.preset), _directory(request).quick_play_guard(body.preset):
        return await _quick_seat(request, player, body.preset, name)


#: refusals of a table quick play tried that send it on to the next table
_NEXT_TABLE = ("no_free_seat", "session_over", "name_taken", "not_open", "no_table", "table_closed", "moved")


async def _quick_seat(request: Request, player: Player | None, preset: str, name: str) -> dict[str, Any]:
    """The seat of :func:`quick_play` (under its locks): the fullest open table of ``preset``, or a new one.

    One process: its tables in memory. Several processes: the open tables of the shared
    database (:meth:`~ramsli.server.storage.directory.Directory.open_tables`), whichever process
    runs them; a table run elsewhere is joined through its process (:func:`_join_elsewhere`)."""
    hub = _hub(request)
    ranked: list[tuple[bool, int, str]] = []  # (playing already, minus people seated, id)
    if hub.ownership.solo:
        links = await _directory(request).table_links(open_only=True, ids=list(hub.tables))
        for t in hub.tables.values():
            if t.id in links and t.preset == preset and free_seats(t):
                ranked.append((t.status is not TableStatus.WAITING, -sum(s.taken for s in t.seats), t.id))
    else:
        for row in await _directory(request).open_tables():
            if row["preset"] != preset:
                continue
            here = hub.tables.get(row["id"])
            if here is not None:  # run here: exactly how full it is
                if free_seats(here):
                    ranked.append((here.status is not TableStatus.WAITING, -sum(s.taken for s in here.seats), here.id))
            elif row["sits"] < row["humans"]:  # run elsewhere: as full as its stored sits say
                ranked.append((row["started"], -row["sits"], row["id"]))
    for _playing, _taken, table_id in sorted(ranked):
        try:
            answer = await _join_anywhere(request, player, table_id, name)
        except Refused as e:
            if e.refusal.code not in _NEXT_TABLE:
                raise
            continue
        if answer is not None:
            return dict(answer, opened=False)
    spec = CreateTable(preset=preset, rules=list(QUICK_RULES), seats=[SeatSpec(kind="human")] * QUICK_SEATS, open=True)
    made = await create_table(request, spec)
    t = hub.table(made["table"])
    answer = _page(await _join(request, player, t, name))
    return dict(answer, opened=True, creator_token=made["creator_token"], spectate=made["spectate"])


async def _join_anywhere(request: Request, player: Player | None, table_id: str, name: str) -> dict[str, Any] | None:
    """Join open table ``table_id`` wherever it runs: here (claimed now if nobody ran it), or
    through its process. None if it cannot be reached this moment.

    Raises:
        Refused: :func:`join`'s refusals, the owner's included.
    """
    hub = _hub(request)
    where, peer = await hub.locate(table_id)
    if where == "local" and table_id in hub.tables:
        return _page(await _join(request, player, hub.tables[table_id], name))
    if where != "remote" or peer is None:
        return None
    return await _join_elsewhere(request, table_id, peer.address, name)


async def _join_elsewhere(request: Request, table_id: str, address: str, name: str) -> dict[str, Any] | None:
    """``POST /api/tables/{table}/join`` on the process at ``address`` that runs the table, for
    this request's client (its login cookie goes along); its answer, or None if it did not answer.

    Raises:
        Refused: the owner's refusal, as it gave it.
    """
    hub = _hub(request)
    got = await post_to_peer(
        request.scope,
        deps.peers(request),
        hub.ownership.forward_secret or "",
        address,
        f"/api/tables/{table_id}/join",
        {"name": name},
    )
    if got is None:
        hub.forget_owner(table_id)
        return None
    status, answer = got
    if not isinstance(answer, dict):
        return None
    if status != 200:
        try:
            refusal = Refusal.from_dict(answer)
        except ValueError:
            return None
        raise Refused(refusal)
    return answer


async def listing(request: Request) -> list[dict[str, Any]]:
    """``GET /api/tables``: the open tables (waiting or playing) for anyone — ``{"table",
    "status", "rules", "seats", "free", "pace", "spectate", "club"}``, those waiting first, the
    fullest first; with the admin token every table (``{"table", "status", "spectate",
    "seats", "open"}`` and the broken ones).

    Raises:
        Refused: ``no_admin``, ``admin_token`` (:func:`is_admin`).
    """
    hub = _hub(request)
    admin = is_admin(request)
    d = _directory(request)
    if admin:
        links = await d.table_links(ids=list(hub.tables))
        return [
            {
                "table": t.id,
                "status": t.status,
                "spectate": f"/t/{t.id}/watch/{t.spectator_token}",
                "seats": [s.name for s in t.seats],
                "open": bool(links.get(t.id, {}).get("open")),
            }
            for t in hub.tables.values()
        ] + [{"table": tid, "status": "broken", "reason": reason} for tid, reason in hub.broken.items()]
    links = await d.table_links(open_only=True, ids=list(hub.tables))
    clubs = {}
    for link in links.values():
        if link["club_id"] and link["club_id"] not in clubs:
            c = await d.club(link["club_id"])
            clubs[link["club_id"]] = c["name"] if c else None
    out: list[dict[str, Any]] = []
    for t in hub.tables.values():
        if t.id not in links or t.status is TableStatus.OVER:
            continue
        club = links[t.id]["club_id"]
        out.append(
            {
                "table": t.id,
                "status": str(t.status),
                "rules": t.rules_view,
                "seats": [
                    {"seat": seat_name(s.index), "name": s.name, "kind": s.kind, "bot": s.bot, "taken": s.taken}
                    for s in t.seats
                ],
                "free": len(free_seats(t)),
                "pace": {"bot_pace_seconds": t.options.bot_pace_seconds, "turn_seconds": t.options.turn_seconds},
                "spectate": f"/t/{t.id}/watch/{t.spectator_token}",
                "club": None if club is None else {"id": club, "name": clubs.get(club)},
            }
        )
    out.sort(key=lambda x: (x["status"] != "waiting", -sum(s["taken"] for s in x["seats"]), x["table"]))
    return out


async def create_web_table(request: Request, spec: CreateTable) -> dict[str, Any]:
    """``POST /api/web/tables``: :func:`create_table`, answered with ``"hint"``; a table that allows the
    hint calls the hub's ``on_hint_table`` (the app's: the lab's warm-up,
    :func:`ramsli.server.coach.hints.warm_up_lab`)."""
    answer = await create_table(request, spec)
    hub = deps.hub(request)
    if spec.hint and hub.on_hint_table is not None:
        hub.on_hint_table()
    return dict(answer, hint=spec.hint)
