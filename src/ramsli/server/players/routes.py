"""The HTTP routes of players and logins (``docs/clubs.md``): :data:`router`, over :mod:`ramsli.server.players.accounts`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ramsli.refusal import Refusal, Refused
from ramsli.server import deps
from ramsli.server.players.accounts import (
    COOKIE,
    _accounts,
    _address,
    _logged_in,
    clear_cookies,
    csrf_of,
    current_player,
    require_player,
)
from ramsli.server.players.ratings import Rating, shown
from ramsli.server.protocol.schemas import Login, MeSettings, NewPassword, NewPlayer, Password, body_of
from ramsli.server.storage.directory import SERVER_SCOPE

__all__ = ["router"]

router = APIRouter()


@router.post("/api/players", status_code=201)
async def new_player(request: Request) -> JSONResponse:
    """Make a player and log in: ``{"name", "password", "listed"}`` -> ``201 {"player", "csrf"}``.

    Refusals: ``bad_name``, ``bot_name``, ``player_name_taken`` (R2.2), ``password_short``,
    ``password_long``, ``signup_flood``, ``json_only``."""
    body = await body_of(request, NewPlayer)
    accounts = _accounts(request)
    row = await accounts.register(body.name, body.password, _address(request), body.listed)
    token, _lid = await accounts.start_login(row["id"], request.headers.get("user-agent", ""))
    return _logged_in(request, row, token, 201)


@router.post("/api/login")
async def login(request: Request) -> JSONResponse:
    """Log in: ``{"name", "password"}`` -> ``{"player", "csrf"}`` and the cookies.

    Refusals: ``login_failed`` (an unknown name and a wrong password alike), ``login_flood``,
    ``json_only``."""
    body = await body_of(request, Login)
    accounts = _accounts(request)
    row = await accounts.authenticate(body.name, body.password, _address(request))
    token, _lid = await accounts.start_login(row["id"], request.headers.get("user-agent", ""))
    return _logged_in(request, row, token)


@router.post("/api/logout")
async def logout(request: Request) -> JSONResponse:
    """End this browser's login (a guest's logout changes nothing); the cookies are removed."""
    token = request.cookies.get(COOKIE)
    if token:
        login_row = await _accounts(request).directory.login(token)
        if login_row is not None:
            await _accounts(request).directory.end_logins(login_row["player_id"], [login_row["id"]])
    response = JSONResponse({"player": None})
    clear_cookies(response)
    return response


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    """The logged-in player (``{"player": null}`` for a guest): ``{"player", "csrf", "clubs",
    "skill_opt_in", "ratings"}``; ``401 login_unknown`` / ``login_expired`` for a bad cookie (removed)."""
    player = await current_player(request)
    if player is None:
        return {"player": None}
    d = _accounts(request).directory
    ratings = await d.ratings_of(player.id)
    return {
        "player": player.public(),
        "csrf": csrf_of(request.cookies[COOKIE]),
        "clubs": await d.clubs_of(player.id),
        "skill_opt_in": bool((await d.player(player.id) or {}).get("skill_opt_in")),
        "rating": shown(Rating(**{k: ratings[SERVER_SCOPE][k] for k in ("mu", "sigma", "sessions")}))
        if SERVER_SCOPE in ratings
        else None,
    }


@router.put("/api/me")
async def settings(request: Request) -> dict[str, Any]:
    """``{"listed": true}``: show (or hide) the player in the server-wide ratings."""
    body = await body_of(request, MeSettings)
    player = await require_player(request)
    await _accounts(request).directory.update_player(player.id, listed=body.listed)
    return {"player": {"id": player.id, "name": player.name, "listed": body.listed}}


@router.post("/api/me/password")
async def change_password(request: Request) -> dict[str, Any]:
    """``{"password", "new_password"}``: a new password; every other login of the player ends.
    Refusals: ``wrong_password``, ``password_short``, ``password_long``, ``login_flood``."""
    body = await body_of(request, NewPassword)
    player = await require_player(request)
    accounts = _accounts(request)
    accounts.check_password(body.new_password)
    await accounts.confirm(player, body.password, _address(request))
    await accounts.directory.update_player(player.id, password=await accounts._hash(body.new_password))
    ended = await accounts.directory.end_logins(player.id, keep=player.login)
    return {"ended": ended}


@router.get("/api/me/logins")
async def my_logins(request: Request) -> list[dict[str, Any]]:
    """The player's logins: ``[{"login", "created", "last_seen", "expires", "agent", "current"}]``."""
    player = await require_player(request)
    return [
        {
            "login": r["id"],
            "created": r["created"],
            "last_seen": r["last_seen"],
            "expires": r["expires"],
            "agent": r["agent"],
            "current": r["id"] == player.login,
        }
        for r in await _accounts(request).directory.logins_of(player.id)
    ]


@router.delete("/api/me/logins/{login_id}")
async def end_login(request: Request, login_id: str) -> JSONResponse:
    """End one login of the player (from any device); ``404 no_login`` for another's or none."""
    player = await require_player(request)
    n = await _accounts(request).directory.end_logins(player.id, [login_id])
    if not n:
        raise Refused(Refusal("no_login", None, {"login": login_id[:24]}))
    response = JSONResponse({"ended": n})
    if login_id == player.login:
        clear_cookies(response)
    return response


@router.post("/api/me/logins/end-others")
async def end_other_logins(request: Request) -> dict[str, Any]:
    """End every login of the player but this one."""
    player = await require_player(request)
    return {"ended": await _accounts(request).directory.end_logins(player.id, keep=player.login)}


@router.get("/api/me/data")
async def my_data(request: Request) -> JSONResponse:
    """Everything the server keeps about the player, as a JSON download: the player (no hash), their
    logins (no token), clubs and memberships, seats they were linked to, the records of sessions
    they played (their seats' numbers), their ratings, their weekly challenge tries (no token), and
    their skill counters' choice and rows."""
    player = await require_player(request)
    d = _accounts(request).directory
    row = await d.player(player.id)
    assert row is not None
    seats = await d.seats_of(player.id)
    records = []
    for table_id in dict.fromkeys(s["table_id"] for s in seats):
        rec = await d.record(table_id)
        if rec is not None:
            mine = [s for s in rec["data"].get("seats", []) if s.get("player") == player.id]
            records.append(
                {
                    "table": table_id,
                    "kind": rec["kind"],
                    "club": rec["club_id"],
                    "finished": rec["finished"],
                    "seats": mine,
                }
            )
    data = {
        "format": "ramsli-player-data/1",
        "player": {"id": row["id"], "name": row["name"], "listed": bool(row["listed"]), "created": row["created"]},
        "logins": [{k: v for k, v in r.items() if k != "digest"} for r in await d.logins_of(player.id)],
        "clubs": await d.clubs_of(player.id),
        "seats": seats,
        "sessions": records,
        "ratings": await d.ratings_of(player.id),
        "challenge_tries": await deps.challenges(request).rows.of_player(player.id),
        "skill": {  # skill counters by consent (docs/skill.md): the choice and every stored hand (no card)
            "opt_in": bool(row.get("skill_opt_in")),
            "hands": await deps.skill(request).rows.of_player(player.id),
        },
    }
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="ramsli-player-{player.id}.json"'})


@router.delete("/api/me")
async def delete_me(request: Request) -> JSONResponse:
    """Delete the player: ``{"password"}`` confirms it. Name and hash are removed, every login and
    membership ends, past seats show as "a former player", challenge tries lose their seat token
    (one still playing is void) and show as "a player"; the cookies are removed.
    Refusals: ``wrong_password``, ``login_flood``."""
    body = await body_of(request, Password)
    player = await require_player(request)
    accounts = _accounts(request)
    await accounts.confirm(player, body.password, _address(request))
    await accounts.directory.delete_player(player.id, accounts.clock())
    await deps.challenges(request).rows.forget_player(player.id, accounts.clock())
    await deps.skill(request).opt(player.id, False)  # their skill counters go too
    response = JSONResponse({"deleted": True})
    clear_cookies(response)
    return response
