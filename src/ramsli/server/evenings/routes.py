"""The HTTP routes of club evenings and tournaments (issue 34): :data:`router`, over
:class:`ramsli.server.evenings.service.Evenings`, one handler per action.

Each handler reads its body through its model first (:mod:`ramsli.server.protocol.schemas`),
then the login, then asks the service (:func:`ramsli.server.deps.evenings`); a refusal is answered by its code in the request's
language. Every action of the evening answers the evening's state as its reader sees it (as
``GET /api/evenings/{id}``).

- ``POST /api/evenings`` (``NewEvening``) -> ``201 {"id", "url", "commitment"}``;
- ``GET /api/evenings/{id}``: the state; ``GET /api/evenings/{id}/download.json``: the download;
  ``GET /api/evenings/{id}/me``: the reader's table link this round;
  ``GET /api/evenings/{id}/deals/{round}/{hand}``: a duplicate evening's field of one deal (D-21);
- ``POST /api/evenings/{id}/check-in``, ``DELETE /api/evenings/{id}/check-in``;
- the director's: ``POST .../rounds`` (``{"cards": [table numbers]}`` in a mixed evening),
  ``.../withdraw`` (``{"participant"}``), ``.../substitutes`` (``{"level"}``), ``.../reseat``
  (``{"a", "b"}``), ``.../pause`` (``{"table", "paused"}``), ``.../captain`` (``{"table",
  "participant"}``), ``.../close``, ``DELETE /api/evenings/{id}``;
- ``GET /api/clubs/{club}/evenings``: a club's evenings, for its members.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ramsli.server import deps
from ramsli.server.players.accounts import current_player, require_player
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.schemas import (
    Captain,
    NewEvening,
    NoBody,
    Participant,
    PauseTable,
    Reseat,
    StartRound,
    Substitute,
    body_of,
    plain_number,
)

__all__ = ["router"]

router = APIRouter()


@router.post("/api/evenings", status_code=201)
async def create_evening(request: Request) -> dict[str, Any]:
    """Make an evening (a logged-in player; a club's evening: its owner) -> ``{"id", "url", "commitment"}``."""
    body = await body_of(request, NewEvening)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.create(player, body)


@router.get("/api/evenings/{evening_id}")
async def evening_state(request: Request, evening_id: str) -> dict[str, Any]:
    """The evening as the reader may see it (members only: its club's members, or the TV screen's ``?key=``)."""
    evenings = deps.evenings(request)
    key = request.query_params.get("key", "")  # the TV screen's link
    return await evenings.state(evening_id, await current_player(request), request_lang(request), key)


@router.get("/api/evenings/{evening_id}/download.json")
async def evening_download(request: Request, evening_id: str) -> dict[str, Any]:
    """The evening's download: seeds, draws, results, standings, log (no card, no token)."""
    evenings = deps.evenings(request)
    return await evenings.download(evening_id, await current_player(request))


@router.get("/api/evenings/{evening_id}/deals/{round_no}/{hand}")
async def deal_field(request: Request, evening_id: str, round_no: str, hand: str) -> dict[str, Any]:
    """A duplicate evening's field of one deal (R7, D-21): the other tables' public outcomes, once
    the reader's own table has played it (``409 deal_not_played`` before)."""
    evenings = deps.evenings(request)
    r, k = plain_number(round_no), plain_number(hand)  # plain ASCII digits, else refused as no_deal
    return await evenings.field(
        evening_id,
        await current_player(request),
        round_no if r is None else r,
        hand if k is None else k,
    )


@router.get("/api/evenings/{evening_id}/me")
async def my_table(request: Request, evening_id: str) -> dict[str, Any]:
    """The reader's table this round: its seat, keeper or follow link (``404 no_evening_seat`` without one)."""
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.me(evening_id, player)


@router.post("/api/evenings/{evening_id}/check-in")
async def check_in(request: Request, evening_id: str) -> dict[str, Any]:
    """Check in (from the next round once the first started)."""
    await body_of(request, NoBody)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.check_in(evening_id, player, request_lang(request))


@router.delete("/api/evenings/{evening_id}/check-in")
async def check_out(request: Request, evening_id: str) -> dict[str, Any]:
    """Check out (a withdrawal once one's first round started)."""
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.check_out(evening_id, player, request_lang(request))


@router.post("/api/evenings/{evening_id}/rounds")
async def start_round(request: Request, evening_id: str) -> dict[str, Any]:
    """The director starts the next round: the draw, the tables, the seed opened."""
    body = await body_of(request, StartRound)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.start_round(evening_id, player, list(body.cards), request_lang(request))


@router.post("/api/evenings/{evening_id}/withdraw")
async def withdraw(request: Request, evening_id: str) -> dict[str, Any]:
    """The director withdraws a participant."""
    body = await body_of(request, Participant)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.withdraw(evening_id, player, body.participant, request_lang(request))


@router.post("/api/evenings/{evening_id}/substitutes")
async def substitute(request: Request, evening_id: str) -> dict[str, Any]:
    """The director adds a substitute bot of a level."""
    body = await body_of(request, Substitute)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.substitute(evening_id, player, body.level, request_lang(request))


@router.post("/api/evenings/{evening_id}/reseat")
async def reseat(request: Request, evening_id: str) -> dict[str, Any]:
    """The director swaps two participants' seats (this round before its first deal, or the next round's)."""
    body = await body_of(request, Reseat)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.reseat(evening_id, player, body.a, body.b, request_lang(request))


@router.post("/api/evenings/{evening_id}/pause")
async def pause(request: Request, evening_id: str) -> dict[str, Any]:
    """The director pauses a table of the round, or lets it go on."""
    body = await body_of(request, PauseTable)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.pause(evening_id, player, body.table, body.paused, request_lang(request))


@router.post("/api/evenings/{evening_id}/captain")
async def captain(request: Request, evening_id: str) -> dict[str, Any]:
    """The director names a real-card table's captain."""
    body = await body_of(request, Captain)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.captain(evening_id, player, body.table, body.participant, request_lang(request))


@router.post("/api/evenings/{evening_id}/close")
async def close(request: Request, evening_id: str) -> dict[str, Any]:
    """The director closes the evening (a weekly one makes the next)."""
    await body_of(request, NoBody)
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.close(evening_id, player, request_lang(request))


@router.delete("/api/evenings/{evening_id}")
async def delete(request: Request, evening_id: str) -> dict[str, Any]:
    """The director deletes the evening (not while its tables play)."""
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.delete(evening_id, player)


@router.get("/api/clubs/{club_id}/evenings")
async def club_evenings(request: Request, club_id: str) -> dict[str, Any]:
    """A club's evenings, upcoming and past (members only)."""
    player = await require_player(request)
    evenings = deps.evenings(request)
    return await evenings.club_evenings(club_id, player)
