"""The HTTP routes of an evening's prints and feeds (issue 34, items 1, 5 and 6): :data:`router`.

- ``GET /api/evenings/{id}/sheets.pdf``: the table lists and score sheets (:func:`~ramsli.server.evenings.prints.sheets_pdf`,
  labels in the request's language);
- ``GET /api/evenings/{id}/standings.csv``: the standings (:func:`~ramsli.server.evenings.prints.standings_csv`);
- ``GET /api/evenings/{id}/qr.svg``: the QR code of the standing link ``/e/{id}`` (:func:`~ramsli.server.evenings.prints.qr_svg`);
- ``GET /api/clubs/{club}/evenings.ics``: the club's evenings as a calendar (:func:`~ramsli.server.evenings.prints.ics_feed`).

The routes read the evening through an :class:`EveningSource` (the evenings' service): it decides
who may read what and refuses the rest (a :class:`~ramsli.refusal.Refused`, answered in the
request's language by the app's handlers), so these routes add no rule of their own. The PDF is
made in a worker thread: it does not hold up the tables' event loop.
"""

from __future__ import annotations

import asyncio
import re
from typing import Annotated, Any, Protocol

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from ramsli.server import deps
from ramsli.server.evenings.prints import ics_feed, qr_svg, sheets_pdf, standings_csv
from ramsli.server.protocol.lang import request_lang

__all__ = ["router", "EveningSource", "source", "SourceDep"]

router = APIRouter()


class EveningSource(Protocol):
    """What the routes of this module need of the evenings' service."""

    async def state_for(self, request: Request, evening_id: str) -> dict[str, Any]:
        """The evening ``evening_id`` as the reader of ``request`` may see it (the shape of ``GET
        /api/evenings/{id}``: no card, no secret, no seat token). Raises ``Refused`` (an unknown
        evening, a members-only evening and a reader who is no member, ...)."""
        ...

    async def calendar_for(self, request: Request, club_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The club (``{"id", "name"}``) and its evenings for its calendar feed (read with the feed's
        ``?key=`` or by a logged-in member), each with at least
        ``id, name, starts`` (ISO 8601 with offset, optionally ``[Zone/Name]``) and ``preset``/``summary``,
        ``format``, ``rounds``, ``hands_per_round``, ``recurring`` (``"weekly"`` or None), ``series``
        (optional: the id shared by a weekly series). Raises ``Refused``."""
        ...


def source(conn: HTTPConnection) -> EveningSource:
    """The app's evenings' service (:func:`ramsli.server.deps.evenings`)."""
    found: EveningSource = deps.evenings(conn)
    return found


SourceDep = Annotated[EveningSource, Depends(source)]


def _file_id(text: str) -> str:
    """An id as it may stand in a file name (letters, digits, ``-``, ``_``; at most 40)."""
    return re.sub(r"[^A-Za-z0-9_-]", "", text)[:40] or "evening"


def _base(request: Request) -> str:
    """The server's address as the reader reached it (with the path prefix), no trailing slash."""
    return str(request.base_url).rstrip("/")


_PRIVATE = {"Cache-Control": "private, no-store"}


@router.get("/api/evenings/{evening_id}/sheets.pdf")
async def evening_sheets(request: Request, evening_id: str, evenings: SourceDep) -> Response:
    """The evening's table lists and real-card score sheets as a PDF (``?lang=`` or the browser's language)."""
    state = await evenings.state_for(request, evening_id)
    pdf = await asyncio.to_thread(sheets_pdf, state, request_lang(request))
    name = _file_id(str(state.get("id", evening_id)))
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="ramsli-evening-{name}.pdf"', **_PRIVATE},
    )


@router.get("/api/evenings/{evening_id}/standings.csv")
async def evening_standings_csv(request: Request, evening_id: str, evenings: SourceDep) -> Response:
    """The evening's standings as CSV (a download)."""
    state = await evenings.state_for(request, evening_id)
    name = _file_id(str(state.get("id", evening_id)))
    return Response(
        standings_csv(state),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="ramsli-evening-{name}-standings.csv"', **_PRIVATE},
    )


@router.get("/api/evenings/{evening_id}/qr.svg")
async def evening_qr(request: Request, evening_id: str, evenings: SourceDep) -> Response:
    """The QR code of the evening's standing link (``BASE/e/ID``) as SVG."""
    state = await evenings.state_for(request, evening_id)
    url = f"{_base(request)}/e/{state.get('id', evening_id)}"
    return Response(qr_svg(url), media_type="image/svg+xml", headers=_PRIVATE)


@router.get("/api/clubs/{club_id}/evenings.ics")
async def club_calendar(request: Request, club_id: str, evenings: SourceDep) -> Response:
    """The club's evenings as an iCalendar feed (``text/calendar``; a weekly series as ``RRULE``)."""
    club, items = await evenings.calendar_for(request, club_id)
    body = ics_feed(club, items, _base(request), lang=request_lang(request))
    name = _file_id(str(club.get("id", club_id)))
    return Response(
        body,
        media_type="text/calendar; charset=utf-8",
        headers={
            "Content-Disposition": f'inline; filename="ramsli-club-{name}.ics"',
            "Cache-Control": "private, max-age=300",
        },
    )
