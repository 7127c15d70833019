"""The pages of the club evenings (issue 34, docs/evenings.md): :data:`router`.

Each page is the shell of :func:`ramsli.server.web.shell.shell` with the ES module
``web/static/evening.js`` (it imports ``evening-*.js``), told which page it is by ``mode``; every
fact it shows it asks the evenings' JSON API (:mod:`ramsli.server.evenings.routes`) in the page's
language, so a refusal (no such evening, members only, not the director) is the API's, translated.
No page holds a card (R7): the API's state has none.

- ``GET /e/{evening_id}``: the standing link, for everyone: the evening, who is coming, check in,
  your table, the rounds, the standings, the seed commitment and the audit trail, the QR code;
- ``GET /e/{evening_id}/director``: check-ins, substitutes, withdrawals, re-seats, rounds, pauses,
  captains, closing;
- ``GET /e/{evening_id}/tv``: the pub's TV screen (big type, no controls, updates every 5 s);
- ``GET /e/{evening_id}/print``: table lists and score sheets for paper (print CSS; the PDF is
  ``/api/evenings/{evening_id}/sheets.pdf``);
- ``GET /evenings/new?club=ID``: the form of a new evening.

>>> sorted(TITLES)
['director', 'evening', 'new', 'print', 'tv']
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ramsli.bots.levels import LEVELS
from ramsli.i18n import translation
from ramsli.refusal import N_
from ramsli.rules import PRESETS
from ramsli.server.protocol.lang import request_lang
from ramsli.server.web.shell import shell

__all__ = ["router", "TITLES", "page"]

router = APIRouter()

#: each page's title (the page's mode -> the English text, translated for the page's language)
TITLES: dict[str, str] = {
    "evening": N_("Ramsli — an evening"),
    "director": N_("Ramsli — the director's page"),
    "tv": N_("Ramsli — the evening on the screen"),
    "print": N_("Ramsli — table lists and score sheets"),
    "new": N_("Ramsli — a new evening"),
}

#: the longest evening id a page passes on to its script (the API answers a longer one ``no_evening``)
ID_MAX = 40


def page(request: Request, mode: str, data: dict[str, Any]) -> HTMLResponse:
    """The shell of the evening page ``mode`` (a key of :data:`TITLES`) in the request's language,
    its title translated, ``data`` and ``mode`` in the page's data.

    Raises:
        KeyError: for a mode without a title.
    """
    lang = request_lang(request)
    title = translation(lang).gettext(TITLES[mode])
    return shell("evening", lang, title, dict(data, mode=mode))


@router.get("/e/{evening_id}", response_class=HTMLResponse)
async def evening_page(request: Request, evening_id: str) -> HTMLResponse:
    """The evening's standing link: what everyone sees, check in, your table, results."""
    return page(request, "evening", {"evening": evening_id[:ID_MAX]})


@router.get("/e/{evening_id}/director", response_class=HTMLResponse)
async def director_page(request: Request, evening_id: str) -> HTMLResponse:
    """The director's page (the API refuses everyone else's actions)."""
    return page(request, "director", {"evening": evening_id[:ID_MAX], "levels": list(LEVELS)})


@router.get("/e/{evening_id}/tv", response_class=HTMLResponse)
async def tv_page(request: Request, evening_id: str) -> HTMLResponse:
    """The pub's TV screen: rounds, tables still playing, standings, the next draw; no controls."""
    return page(request, "tv", {"evening": evening_id[:ID_MAX]})


@router.get("/e/{evening_id}/print", response_class=HTMLResponse)
async def print_page(request: Request, evening_id: str) -> HTMLResponse:
    """Table lists and score sheets for paper, and the link to the server's PDF."""
    return page(request, "print", {"evening": evening_id[:ID_MAX]})


@router.get("/evenings/new", response_class=HTMLResponse)
async def new_evening_page(request: Request) -> HTMLResponse:
    """The form of a new evening (``?club=ID``: a club's evening, for its owner)."""
    club = request.query_params.get("club")
    return page(request, "new", {"presets": list(PRESETS), "club": club[:ID_MAX] if club else None})
