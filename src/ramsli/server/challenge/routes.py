"""The HTTP routes of the weekly challenge (issue 35 item 3, docs/challenge.md): :data:`router`,
over :class:`ramsli.server.challenge.service.Challenges`.

The server's challenge under ``/api/challenge``, a club's (its members only) under
``/api/clubs/{club}/challenge``, with the same routes:

- ``GET .../challenge``: this week — its deals and the reader's own status of each, the streak,
  the week before (no result of this week, no card);
- ``POST .../challenge/{week}/deals/{deal}/play`` (a logged-in player): the seat link of one's try
  (``409 challenge_tried`` for a second one, ``409 challenge_closed`` once the week has closed);
- ``GET .../challenge/{week}/ranking``: a closed week's ranking and one's own results
  (``409 challenge_not_closed`` before the close, D-21);
- ``GET .../challenge/{week}/deals/{deal}``: a closed week's field of one deal, public outcomes
  only (``409 challenge_not_tried`` / ``challenge_not_closed`` before the close, D-21).

A refusal is answered by its code in the request's language and changes nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ramsli.server import deps
from ramsli.server.players.accounts import current_player, require_player
from ramsli.server.protocol.schemas import NoBody, body_of, plain_number

__all__ = ["router"]

router = APIRouter()


def _number(text: str) -> int | str:
    """A deal's number from the path if it is plain ASCII digits (:func:`plain_number`), else the
    text itself (refused by the service as ``no_challenge_deal``)."""
    n = plain_number(text)
    return text if n is None else n


@router.get("/api/challenge")
async def challenge(request: Request) -> dict[str, Any]:
    """The server's challenge this week, as the reader sees it."""
    return await deps.challenges(request).state(None, await current_player(request))


@router.get("/api/clubs/{club_id}/challenge")
async def club_challenge(request: Request, club_id: str) -> dict[str, Any]:
    """A club's challenge this week (its members only)."""
    return await deps.challenges(request).state(club_id, await current_player(request))


async def _play(request: Request, club: str | None, week: str, deal: str) -> dict[str, Any]:
    await body_of(request, NoBody)
    player = await require_player(request)
    return await deps.challenges(request).play(club, player, week, _number(deal))


@router.post("/api/challenge/{week}/deals/{deal}/play")
async def play(request: Request, week: str, deal: str) -> dict[str, Any]:
    """Play a deal of the server's challenge: ``{"week", "deal", "table", "url"}``."""
    return await _play(request, None, week, deal)


@router.post("/api/clubs/{club_id}/challenge/{week}/deals/{deal}/play")
async def club_play(request: Request, club_id: str, week: str, deal: str) -> dict[str, Any]:
    """Play a deal of a club's challenge (a member)."""
    return await _play(request, club_id, week, deal)


@router.get("/api/challenge/{week}/ranking")
async def ranking(request: Request, week: str) -> dict[str, Any]:
    """A closed week's ranking of the server's challenge."""
    return await deps.challenges(request).ranking(None, await current_player(request), week)


@router.get("/api/clubs/{club_id}/challenge/{week}/ranking")
async def club_ranking(request: Request, club_id: str, week: str) -> dict[str, Any]:
    """A closed week's ranking of a club's challenge (its members only)."""
    return await deps.challenges(request).ranking(club_id, await current_player(request), week)


@router.get("/api/challenge/{week}/deals/{deal}")
async def field(request: Request, week: str, deal: str) -> dict[str, Any]:
    """A closed week's field of one deal of the server's challenge (no card)."""
    return await deps.challenges(request).field(None, await current_player(request), week, _number(deal))


@router.get("/api/clubs/{club_id}/challenge/{week}/deals/{deal}")
async def club_field(request: Request, club_id: str, week: str, deal: str) -> dict[str, Any]:
    """A closed week's field of one deal of a club's challenge (its members only; no card)."""
    return await deps.challenges(request).field(club_id, await current_player(request), week, _number(deal))
