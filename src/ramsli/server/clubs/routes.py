"""The HTTP routes and pages of clubs, invites, seasons, score sheets and ratings (``docs/clubs.md``): :data:`router`, over :class:`ramsli.server.clubs.clubs.Clubs`."""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from ramsli.refusal import Refusal, Refused
from ramsli.server import deps
from ramsli.server.clubs.clubs import (
    Clubs,
    _clubs,
    check_club_name,
    check_season,
    current_season,
    default_season,
    season_window,
)
from ramsli.server.players import records as rec
from ramsli.server.players.accounts import FORMER_PLAYER, Player, current_player, require_player
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.schemas import ClaimSeat, CreateClub, JoinClub, NewSeason, NoBody, SkillOptIn, body_of
from ramsli.server.storage.directory import SERVER_SCOPE
from ramsli.server.tables.table import TableStatus
from ramsli.server.web.shell import shell

__all__ = ["router"]

router = APIRouter()


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
    its card tables (spectator links); ``next_evening``: the evening running now or the next one
    to come (``{"id", "name", "starts", "status", "url"}``; one that started up to 6 hours ago and
    is still open counts), or None (issue 34)."""
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
    books = deps.ledgers(request).books
    evenings = deps.evenings(request)
    for tid, link in links.items():
        t = clubs.hub.tables.get(tid)
        if t is not None:
            hidden = await evenings.hides(t) is not None  # a duplicate round still playing (D-21)
            tables.append(
                {
                    "table": tid,
                    "status": str(t.status),
                    "preset": t.preset,
                    "seats": [s.name for s in t.seats],
                    "spectate": None if hidden else f"/t/{tid}/watch/{t.spectator_token}",
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
    upcoming = await d.evenings(club=club["id"], status=("running",))
    upcoming += await d.evenings(club=club["id"], status=("open",), since=now - 6 * 3600)
    nxt = upcoming[0] if upcoming else None
    return {
        "club": {"id": club["id"], "name": club["name"], "created": club["created"]},
        "next_evening": None
        if nxt is None
        else {
            "id": nxt["id"],
            "name": nxt["spec"]["name"],
            "starts": nxt["spec"]["starts"],
            "status": nxt["status"],
            "url": f"/e/{nxt['id']}",
        },
        # the club's calendar feed for calendar apps (they fetch it without a login: the key is in the link)
        "calendar": f"/api/clubs/{club['id']}/evenings.ics?key={await d.calendar_key(club['id'])}",
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
    sid = await clubs.directory.create_season(
        club["id"], season["name"], season["starts"], season["ends"], time.time(), season.get("best_of")
    )
    return {"season": {"id": sid, **season}}


@router.get("/api/clubs/{club_id}/seasons/{season_id}")
async def season(request: Request, club_id: str, season_id: str) -> dict[str, Any]:
    """The season table (members only): ``{"club", "season", "rows", "sessions", "running"}``
    (:func:`ramsli.server.players.records.season_table`); ``season_id`` ``current`` is the season that runs now.
    Each row's ``skill``: the player's skill counters over the season's sessions
    (:func:`ramsli.server.clubs.skill.figure`) if they opted in, else None (issue 35 item 4)."""
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
    # "skill / hand" beside net counters: only for players who opted in (None: "—"; issue 35 item 4)
    skill = await deps.skill(request).column([r["table_id"] for r in records], [row["player"] for row in table["rows"]])
    for row in table["rows"]:
        row["skill"] = skill.get(row["player"])
    for sess in table["sessions"]:
        sess["sheet"] = f"/c/{club['id']}/s/{sess['record']}"
    out = {"club": {"id": club["id"], "name": club["name"]}, "season": s, **table}
    if s.get("best_of"):  # "best N of M evenings" (issue 34 item 6, docs/clubs.md)
        members = {x["id"]: x.get("name") for x in await clubs.directory.members(club["id"])}
        scores = await deps.evenings(request).season_scores(club["id"], since, until)
        out["best_of"] = {"n": s["best_of"], "rows": rec.best_of_table(scores, int(s["best_of"]), members)}
    return out


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
        if t is not None and await deps.evenings(request).hides(t) is not None:
            links["hands"] = []  # a duplicate round still playing: its deals are still to be played elsewhere (D-21)
        elif t is not None:
            links["watch"] = f"/t/{table_id}/watch/{t.spectator_token}"
    else:
        b = deps.ledgers(request).books.get(table_id)
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
    running = await deps.evenings(request).hides(t)
    if running is not None:  # a duplicate round still playing: no played card of its deals yet (D-21)
        raise Refused(Refusal("field_after_round", "D-21", {"round": running}))
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
    return {"table": t.id, "seat": f"p{seat.index + 1}"}


# -- the pages ------------------------------------------------------------------------------------------


# -- skill counters by consent (issue 35 item 4, docs/skill.md, ramsli.server.clubs.skill) ---------
# PUT /api/me/skill opts in or out; GET /api/me/skill, /api/players/{player}/skill (only if that
# player opted in), /api/skill/ratings and /api/clubs/{club}/skill. No answer holds a card (R7).


@router.put("/api/me/skill")
async def opt_in(request: Request) -> dict[str, Any]:
    """``{"opt_in": true}``: measure and show the player's skill counters (their finished tables'
    hands are looked for and queued in the background); ``false``: stop, and remove what was
    stored (``"removed"``: rows)."""
    body = await body_of(request, SkillOptIn)
    player = await require_player(request)
    n = await deps.skill(request).opt(player.id, body.opt_in)
    return {"opt_in": body.opt_in} if body.opt_in else {"opt_in": False, "removed": n}


@router.get("/api/me/skill")
async def my_skill(request: Request) -> dict[str, Any]:
    """The player's own skill: figure, hands one by one, hands still to measure (``pending``).
    Refusals: ``403 skill_not_shared`` (not opted in)."""
    player = await require_player(request)
    return await deps.skill(request).of_player(player.id, own=True)


@router.get("/api/players/{player_id}/skill")
async def player_skill(request: Request, player_id: str) -> dict[str, Any]:
    """A player's skill figure if they opted in (their hands too when it is the reader's own).
    Refusals: ``404 no_player``, ``403 skill_not_shared``."""
    reader = await current_player(request)
    return await deps.skill(request).of_player(player_id, own=reader is not None and reader.id == player_id)


@router.get("/api/skill/ratings")
async def skill_ratings(request: Request) -> dict[str, Any]:
    """The server-wide skill rating (:meth:`ramsli.server.clubs.skill.SkillService.ranking`)."""
    return await deps.skill(request).ranking()


@router.get("/api/clubs/{club_id}/skill")
async def club_skill(request: Request, club_id: str) -> dict[str, Any]:
    """The club's skill rating (members only; the members' hands at the club's tables).
    Refusals: ``no_club``, ``not_member``."""
    player = await require_player(request)
    clubs = _clubs(request)
    club, _m = await clubs.member_of(club_id, player)
    members = [m["id"] for m in await clubs.directory.members(club["id"])]
    out = await deps.skill(request).ranking(club["id"], members)
    return {"club": {"id": club["id"], "name": club["name"]}, **out}


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
