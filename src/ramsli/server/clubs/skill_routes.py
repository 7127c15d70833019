"""The HTTP routes of skill counters by consent (issue 35 item 4, ``docs/skill.md``, ``docs/protocol.md``):
:data:`router`, over :class:`ramsli.server.clubs.skill.SkillService`.

- ``PUT /api/me/skill`` ``{"opt_in": bool}``: the logged-in player opts in (their finished hands
  are measured in the background) or out (what was stored is removed);
- ``GET /api/me/skill``: their figure and their hands, one by one (``403 skill_not_shared`` when
  they have not opted in);
- ``GET /api/players/{player}/skill``: a player's figure, to anyone, only if that player opted in
  (their hands one by one to themselves only);
- ``GET /api/skill/ratings``: the server-wide skill rating; ``GET /api/clubs/{club}/skill``: the
  club's (members only), from the hands at the club's tables.

No answer holds a card (R7): counters and counts only.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ramsli.server import deps
from ramsli.server.clubs.clubs import _clubs
from ramsli.server.players.accounts import current_player, require_player
from ramsli.server.protocol.schemas import SkillOptIn, body_of

__all__ = ["router"]

router = APIRouter()


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
