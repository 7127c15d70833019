"""Every HTTP route of the pages of ``ramsli serve``: lobby, table page, how-to-play, their files and catalogs.

Plain HTML, CSS and JavaScript shipped as package data in ``ramsli/server/web/static``
(no build step, nothing from the internet). The pages talk to the server
through the protocol of ``docs/protocol.md`` only. This module serves (:data:`router`):

- ``GET /``: the lobby; ``GET /t/{table}/s/{token}``: the table of one seat (the
  invite link); ``GET /t/{table}/watch/{token}``: the spectator's table;
- ``GET /how-to-play?lang=de&table=ID``: the rules for players, with the
  table's own variant (R6, R8);
- ``GET /t/{table}/review?token=&hand=N&seat=p2``: the coach's review of a finished hand (or,
  without ``hand``, of one's session), opened from the score sheet; the training page ``/train``
  is in :mod:`ramsli.server.coach.routes`;
- ``GET /static/{name}``: a file of the pages; ``GET /api/i18n/{lang}.json``: the Babel catalog
  of a language as JSON;
- the app on the phone: ``GET /manifest.webmanifest`` (the web app manifest), ``GET /sw.js``
  (the service worker, scope ``/``: static files from its cache, ``/api`` and ``/ws`` never
  touched; its text is :func:`ramsli.server.web.shell.service_worker_source`) and
  ``GET /offline?lang=de`` (what a page without a network shows).

The table API the pages call is in :mod:`ramsli.server.tables.routes`, the hint in
:mod:`ramsli.server.coach.routes`, the pub ledger's pages in :mod:`ramsli.server.ledger.routes`.
Every page is made by :func:`ramsli.server.web.shell.shell`, in the language of the request
(:func:`ramsli.server.protocol.lang.request_lang`), with that language's catalog rendered in so
that it shows translated text at once.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ramsli.bots.levels import LEVELS
from ramsli.i18n import LANGS, choices_text
from ramsli.refusal import Refusal, Refused
from ramsli.rules import PRESETS, Rules
from ramsli.seats import seat_name
from ramsli.server import deps
from ramsli.server.deps import HubDep
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.messages import STATUS, render
from ramsli.server.tables import views
from ramsli.server.tables.lobby import is_open
from ramsli.server.tables.table import Table
from ramsli.server.web.shell import STATIC_TYPES, WEB_DIR, catalog, service_worker_source, shell

__all__ = ["router", "LOBBY_BOTS"]

router = APIRouter()


def _presets() -> list[str]:
    return list(PRESETS)


@router.get("/static/{name}")
async def static(name: str) -> Response:
    """A file of :data:`WEB_DIR` (no sub-folders, no hidden files)."""
    path = WEB_DIR / name
    if "/" in name or name.startswith(".") or path.suffix not in STATIC_TYPES or not path.is_file():
        raise Refused(Refusal("no_file", None, {"name": name[:80]}))
    return Response(path.read_bytes(), media_type=STATIC_TYPES[path.suffix], headers={"Cache-Control": "no-cache"})


@router.get("/manifest.webmanifest")
async def manifest() -> Response:
    """The web app manifest: name, start page, icons (192 and 512 px PNG), standalone display."""
    data = (WEB_DIR / "manifest.webmanifest").read_bytes()
    return Response(data, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker (``web/sw.js``), served from the root so that its scope is every page, with
    its facts written in (:func:`service_worker_source`)."""
    data = service_worker_source().encode()
    return Response(
        data,
        media_type=STATIC_TYPES[".js"],
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/offline", response_class=HTMLResponse)
async def offline(request: Request) -> HTMLResponse:
    """The page the service worker shows when there is no network (it keeps one per language)."""
    return shell("offline", request_lang(request), "Ramsli", {})


#: the bots a seat of the lobby's set-up form offers, weakest first: the beginner (``random``) and each
#: level of :data:`ramsli.bots.levels.LEVELS` once (``tips`` is ``easy`` under another name, so it is not
#: offered beside it)
LOBBY_BOTS: list[str] = ["random", *LEVELS]


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The lobby: one-click table against bots, a table set up in full, invite links, your tables."""
    return shell(
        "lobby",
        request_lang(request),
        "Ramsli",
        {
            "presets": _presets(),
            "bots": LOBBY_BOTS,
        },
    )


def _error_page(request: Request, e: Refused) -> HTMLResponse:
    """The error page of a refused page link, with the refusal's status (404 ``no_table``,
    ``no_hand``; 403 ``bad_token``) and its message in the page's language (``web/error.js``)."""
    code, lang = e.refusal.code, request_lang(request)
    page = {"code": code, "message": render(e.refusal, lang)}
    return shell("error", lang, "Ramsli", page, status=STATUS.get(code, 403))


@router.get("/t/{table_id}/s/{token}", response_class=HTMLResponse)
async def seat_page(request: Request, hub: HubDep, table_id: str, token: str) -> HTMLResponse:
    """The table as one seat sees it (the seat's invite link): sit down, then play."""
    try:
        t = hub.table(table_id)
        seat = t.seat_of_token(token)
        if seat is None:
            raise Refused(Refusal("bad_token"))
    except Refused as e:
        return _error_page(request, e)
    # a person taking the seat over at the next deal opens the table with their own token, no form
    taking = seat.pending is not None and t.owns(seat, token)
    return shell(
        "table",
        request_lang(request),
        "Ramsli",
        {
            "table": t.id,
            "token": token,
            "role": "seat",
            "seat": seat_name(seat.index),
            "taken": seat.taken or taking,
            "name": seat.pending if taking else seat.name,
            "hint": t.options.hint,
            "info": _public_info(t),
        },
    )


def _public_info(t: Table) -> dict[str, Any]:
    """What an invitee may know before sitting down: status, preset, options, session end, seats
    (names, bot or person); no tokens, no cards."""
    return views.info(t)


@router.get("/t/{table_id}/watch/{token}", response_class=HTMLResponse)
async def watch_page(request: Request, hub: HubDep, table_id: str, token: str) -> HTMLResponse:
    """The table as a spectator sees it (no hidden card at all, R7)."""
    try:
        t = hub.table(table_id)
        if not t.is_spectator(token):  # constant time
            raise Refused(Refusal("bad_token"))
    except Refused as e:
        return _error_page(request, e)
    return shell(
        "table",
        request_lang(request),
        "Ramsli",
        {
            "table": t.id,
            "token": token,
            "role": "spectator",
            "seat": None,
            "hint": False,
            # a watcher takes a bot's seat from the table only at a table open in the lobby (issue 38.1)
            "can_take": await is_open(request, t.id),
        },
    )


@router.get("/t/{table_id}/review", response_class=HTMLResponse)
async def review_page(
    request: Request, hub: HubDep, table_id: str, token: str = "", hand: int | None = None
) -> HTMLResponse:
    """The coach's review page of a table (``web/review.js``): one finished hand (``?hand=N``, the
    seat ``?seat=p2``, by default the token's own) or, without ``hand``, the session review of the
    token's own seat; a ``hand`` that is not a finished hand of the table is ``404 no_hand``. The page itself holds no card: it asks ``/api/tables/{table}/hands/{n}/review``
    and ``/api/tables/{table}/review`` (:mod:`ramsli.server.coach.routes`), which decide what the token may see."""
    try:
        t = hub.table(table_id)
        if t.seat_of_token(token) is None and not t.is_spectator(token):
            raise Refused(Refusal("bad_token"))
        s = t.session
        if hand is not None and hand not in (e.number for e in (s.results if s is not None else ())):
            raise Refused(Refusal("no_hand", None, {"number": hand}))  # -1, 0, huge, not finished yet
    except Refused as e:
        return _error_page(request, e)
    own = t.owner_of(token)
    return shell(
        "review",
        request_lang(request),
        "Ramsli",
        {
            "table": t.id,
            "token": token,
            "hand": hand,
            "seat": request.query_params.get("seat"),
            "mine": None if own is None else seat_name(own.index),
            "names": [x.name or seat_name(x.index) for x in t.seats],
            "hands": [e.number for e in s.results] if s is not None else [],
            "preset": t.preset,
        },
    )


@router.get("/api/i18n/{lang}.json")
async def catalog_json(lang: str) -> JSONResponse:
    """The catalog of ``lang`` (see :func:`catalog`); ``404 no_lang`` for another language."""
    if lang not in LANGS:
        raise Refused(Refusal("no_lang", None, {"lang": lang[:20], "allowed": choices_text()}))
    return JSONResponse(catalog(lang))


# -- how to play ---------------------------------------------------------------------------


@router.get("/how-to-play", response_class=HTMLResponse)
async def how_to_play(request: Request) -> HTMLResponse:
    """The rules written for players, in the page's language, for a table's variant
    (``?table=ID``: "rules of this table") or a preset (``?preset=NAME``, default ``traditional``,
    the default rules; opened without a table the page offers every preset of ``PRESETS``, R6)."""
    rules, preset, tid = None, request.query_params.get("preset") or "traditional", None
    table_id = request.query_params.get("table")
    if table_id:
        try:
            t = deps.hub(request).table(table_id)
            rules, preset, tid = t.rules, t.preset, t.id
        except Refused:
            rules = None
    if rules is None:
        try:
            rules = Rules.preset(preset)
        except ValueError:
            preset, rules = "traditional", Rules.preset("traditional")
    return shell(
        "howto",
        request_lang(request),
        "Ramsli",
        {"preset": preset, "table": tid, "rules": rules.to_dict(), "presets": list(PRESETS)},
    )
