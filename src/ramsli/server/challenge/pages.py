"""The challenge's page (issue 35 item 3, docs/challenge.md): :data:`router`.

The shell of :func:`ramsli.server.web.shell.shell` with the script ``web/static/challenge.js``;
every fact it shows it asks the challenge's JSON API (:mod:`ramsli.server.challenge.routes`) in the
page's language, so a refusal (members only, not yet closed) is the API's, translated. No page
holds a card (R7): the API's answers have none.

- ``GET /challenge``: the server's weekly challenge — this week's deals with "Play", the streak,
  the week before: one's own results, the ranking and each deal's field;
- ``GET /c/{club_id}/challenge``: a club's challenge, the same for its members.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ramsli.i18n import translation
from ramsli.refusal import N_
from ramsli.server.protocol.lang import request_lang
from ramsli.server.web.shell import shell

__all__ = ["router", "TITLE"]

router = APIRouter()

#: the page's title (translated for the page's language)
TITLE = N_("Ramsli — the weekly challenge")
#: the longest club id a page passes on to its script (the API answers a longer one ``no_club``)
ID_MAX = 40


def _page(request: Request, club: str | None) -> HTMLResponse:
    lang = request_lang(request)
    return shell("challenge", lang, translation(lang).gettext(TITLE), {"club": club})


@router.get("/challenge", response_class=HTMLResponse)
async def challenge_page(request: Request) -> HTMLResponse:
    """The server's weekly challenge."""
    return _page(request, None)


@router.get("/c/{club_id}/challenge", response_class=HTMLResponse)
async def club_challenge_page(request: Request, club_id: str) -> HTMLResponse:
    """A club's weekly challenge (the API refuses those who are not members)."""
    return _page(request, club_id[:ID_MAX])
