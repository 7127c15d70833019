"""The pages of ``ramsli serve``: lobby, table page, how-to-play, their files and catalogs.

Plain HTML, CSS and JavaScript shipped as package data in ``ramsli/server/web``
(no build step, nothing from the internet). The pages talk to the server
through the protocol of ``docs/protocol.md`` only. This module serves:

- ``GET /``: the lobby; ``GET /t/{table}/s/{token}``: the table of one seat (the
  invite link); ``GET /t/{table}/watch/{token}``: the spectator's table;
- ``GET /how-to-play?lang=de&table=ID``: the rules for players, with the
  table's own variant (R6, R8);
- ``GET /t/{table}/review?token=&hand=N&seat=p2``: the coach's review of a finished hand (or,
  without ``hand``, of one's session), opened from the score sheet; the training page ``/train``
  is in :mod:`ramsli.server.coach.review`;
- ``GET /static/{name}``: a file of the pages; ``GET /api/i18n/{lang}.json``: the Babel catalog
  of a language as JSON;
- the app on the phone: ``GET /manifest.webmanifest`` (the web app manifest), ``GET /sw.js``
  (the service worker, scope ``/``: static files from its cache, ``/api`` and ``/ws`` never
  touched) and ``GET /offline?lang=de`` (what a page without a network shows).

The table API the pages call is in :mod:`ramsli.server.app`, the hint in
:mod:`ramsli.server.coach.hints`, the pub ledger's pages in :mod:`ramsli.server.ledger.books`.

Every page, and every error answer of the HTTP API, gets its language from ``?lang=`` (one of
:data:`ramsli.i18n.LANGS`), else the browser's ``Accept-Language``, else English
(:func:`page_lang`, :func:`request_lang`); the catalog is rendered into the page so it shows
translated text at once.

>>> page_lang("de", "")
'de'
>>> page_lang(None, "nl-BE,nl;q=0.9,en;q=0.8")
'nl'
>>> page_lang("xx", "")
'en'
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path
from typing import Any

from babel.messages.mofile import read_mo
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ramsli.bots.levels import LEVELS
from ramsli.i18n import LANGS, SOURCE, catalog_path, choices_text, language
from ramsli.refusal import Refusal, Refused
from ramsli.rules import PRESETS, Rules
from ramsli.server import deps
from ramsli.server.coach import hints
from ramsli.server.ops.prefix import current_prefix
from ramsli.server.protocol.messages import STATUS, render
from ramsli.server.tables import views
from ramsli.server.tables.table import Table
from ramsli.server.web.facts import page_facts

__all__ = [
    "router",
    "WEB_DIR",
    "MODULE_PAGES",
    "page_lang",
    "request_lang",
    "catalog",
    "shell",
    "service_worker_source",
]

router = APIRouter()

#: where the HTML, CSS and JavaScript of the pages live (package data)
WEB_DIR = Path(__file__).resolve().parent / "static"
#: the pages whose ``{kind}.js`` is an ES module (it imports ``{kind}-*.js``); the others are classic scripts
MODULE_PAGES = frozenset({"table"})

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".html": "text/html; charset=utf-8",
}


def page_lang(query: str | None, accept: str | None) -> str:
    """The language of a page: ``query`` if it is one of ``LANGS`` (in any case), else the one of ``LANGS`` an
    ``Accept-Language`` header weighs highest (``q``, default 1; ``q=0`` is "not this one"; ties
    in the header's order), else ``"en"``.

    >>> page_lang(None, "en;q=0.1, de;q=0.9"), page_lang(None, "de;q=0, it"), page_lang("NL", None)
    ('de', 'it', 'nl')
    """
    code = (query or "").strip().lower()  # language codes are case-insensitive (?lang=DE)
    if code in LANGS:
        return code
    best, best_q = "en", 0.0
    for part in (accept or "").split(",")[:40]:
        tag, *params = part.split(";")
        code = tag.strip().split("-")[0].lower()
        q = 1.0
        for p in params:
            name, _, value = p.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if code in LANGS and q > best_q and q <= 1.0:
            best, best_q = code, q
    return best


@functools.lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, Any]:
    """The compiled catalog of ``lang`` as a JSON-ready dict (empty for English, the source language).

    Keys are msgids; plural entries map the singular msgid to ``[one, many]``; entries with a
    context are keyed ``context + "\\x04" + msgid`` (as gettext does).

    Raises:
        ValueError: for a language without a catalog.
    """
    language(lang)
    if lang == SOURCE:
        return {}
    with open(catalog_path(lang, ".mo"), "rb") as f:
        cat = read_mo(f)
    out: dict[str, Any] = {}
    for m in cat:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, (tuple, list)) else m.id
        if m.context:
            key = m.context + "\x04" + key
        out[key] = list(m.string) if isinstance(m.string, (tuple, list)) else m.string
    return out


def _json_script(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def shell(kind: str, lang: str, title: str, page: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A page: the shell that loads ``web/common.js``, ``web/cards.js`` and ``web/{kind}.js`` (as an
    ES module for :data:`MODULE_PAGES`), with the catalog of ``lang`` and the page's data ``page``
    rendered in, the server's facts (:func:`ramsli.server.web.facts.page_facts`) as its ``facts``.
    Its links start with the server's path prefix (:func:`ramsli.server.ops.prefix.current_prefix`),
    given to the scripts as ``base``."""
    base = current_prefix()
    page = dict(page, lang=lang, kind=kind, base=base, facts=page_facts())
    module = ' type="module"' if kind in MODULE_PAGES else ""
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel="stylesheet" href="{base}/static/style.css">'
        f'<link rel="icon" href="{base}/static/icon.svg" type="image/svg+xml">'
        f'<link rel="manifest" href="{base}/manifest.webmanifest"><meta name="theme-color" content="#1f6b43">'
        f'<link rel="apple-touch-icon" href="{base}/static/icon-192.png"></head>'
        f'<body class="page-{kind}">'
        f'<script type="application/json" id="ramsli-catalog">{_json_script(catalog(lang))}</script>'
        f'<script type="application/json" id="ramsli-page">{_json_script(page)}</script>'
        '<div id="app"></div><div id="toast" class="toast" role="status" aria-live="polite"></div>'
        f'<script src="{base}/static/common.js"></script><script src="{base}/static/cards.js"></script>'
        f'<script{module} src="{base}/static/{kind}.js"></script></body></html>'
    )
    return HTMLResponse(body, status_code=status)


def _hub(request: Request) -> Any:
    return deps.hub(request)


def request_lang(request: Request) -> str:
    """The language a request asks for: ``?lang=``, else ``Accept-Language``, else ``en``."""
    return page_lang(request.query_params.get("lang"), request.headers.get("accept-language"))


def _presets() -> list[str]:
    return list(PRESETS)


@router.get("/static/{name}")
async def static(name: str) -> Response:
    """A file of :data:`WEB_DIR` (no sub-folders, no hidden files)."""
    path = WEB_DIR / name
    if "/" in name or name.startswith(".") or path.suffix not in _TYPES or not path.is_file():
        raise Refused(Refusal("no_file", None, {"name": name[:80]}))
    return Response(path.read_bytes(), media_type=_TYPES[path.suffix], headers={"Cache-Control": "no-cache"})


@router.get("/manifest.webmanifest")
async def manifest() -> Response:
    """The web app manifest: name, start page, icons (192 and 512 px PNG), standalone display."""
    data = (WEB_DIR / "manifest.webmanifest").read_bytes()
    return Response(data, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})


#: the placeholder in ``web/sw.js`` that :func:`service_worker_source` replaces with the worker's facts
SW_FACTS = "/* the server's facts */ null"


def service_worker_source() -> str:
    """The text of ``web/sw.js`` with its facts in place of :data:`SW_FACTS`: ``{"languages": [...],
    "modules": [...]}``, the codes of the languages (an offline page is kept for each) and the
    ``{kind}-*.js`` modules of :data:`MODULE_PAGES` (cached with the other static files).

    Raises:
        RuntimeError: if ``sw.js`` lost its placeholder.
    """
    text = (WEB_DIR / "sw.js").read_text(encoding="utf-8")
    if SW_FACTS not in text:
        raise RuntimeError(f"web/static/sw.js has no {SW_FACTS!r} to replace")
    modules = sorted(f.name for kind in sorted(MODULE_PAGES) for f in WEB_DIR.glob(f"{kind}-*.js"))
    facts = {"languages": [lang["code"] for lang in page_facts()["languages"]], "modules": modules}
    return text.replace(SW_FACTS, json.dumps(facts), 1)


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker (``web/sw.js``), served from the root so that its scope is every page, with
    its facts written in (:func:`service_worker_source`)."""
    data = service_worker_source().encode()
    return Response(
        data,
        media_type=_TYPES[".js"],
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/offline", response_class=HTMLResponse)
async def offline(request: Request) -> HTMLResponse:
    """The page the service worker shows when there is no network (it keeps one per language)."""
    return shell("offline", request_lang(request), "Ramsli", {})


#: the bots a seat of the lobby's set-up form offers, weakest first: the beginner (``random``) and each
#: level of :data:`ramsli.bots.levels.LEVELS` once (``tips`` is ``easy`` and ``montecarlo`` is ``hard``
#: under another name, so they are not offered beside them)
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
async def seat_page(request: Request, table_id: str, token: str) -> HTMLResponse:
    """The table as one seat sees it (the seat's invite link): sit down, then play."""
    try:
        t = _hub(request).table(table_id)
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
            "seat": f"p{seat.index + 1}",
            "taken": seat.taken or taking,
            "name": seat.pending if taking else seat.name,
            "hint": hints.hint_allowed(_hub(request), t.id),
            "info": _public_info(t),
        },
    )


def _public_info(t: Table) -> dict[str, Any]:
    """What an invitee may know before sitting down: status, preset, options, session end, seats
    (names, bot or person); no tokens, no cards."""
    info = views.info(t)
    info.pop("spectate", None)
    return info


@router.get("/t/{table_id}/watch/{token}", response_class=HTMLResponse)
async def watch_page(request: Request, table_id: str, token: str) -> HTMLResponse:
    """The table as a spectator sees it (no hidden card at all, R7)."""
    try:
        t = _hub(request).table(table_id)
        if not t.is_spectator(token):  # constant time
            raise Refused(Refusal("bad_token"))
    except Refused as e:
        return _error_page(request, e)
    return shell(
        "table",
        request_lang(request),
        "Ramsli",
        {"table": t.id, "token": token, "role": "spectator", "seat": None, "hint": False},
    )


@router.get("/t/{table_id}/review", response_class=HTMLResponse)
async def review_page(request: Request, table_id: str, token: str = "", hand: int | None = None) -> HTMLResponse:
    """The coach's review page of a table (``web/review.js``): one finished hand (``?hand=N``, the
    seat ``?seat=p2``, by default the token's own) or, without ``hand``, the session review of the
    token's own seat; a ``hand`` that is not a finished hand of the table is ``404 no_hand``. The page itself holds no card: it asks ``/api/tables/{table}/hands/{n}/review``
    and ``/api/tables/{table}/review`` (:mod:`ramsli.server.coach.review`), which decide what the token may see."""
    try:
        t = _hub(request).table(table_id)
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
            "mine": None if own is None else f"p{own.index + 1}",
            "names": [x.name or f"p{x.index + 1}" for x in t.seats],
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
    (``?table=ID``) or a preset (``?preset=NAME``, default ``traditional``)."""
    rules, preset, tid = None, request.query_params.get("preset") or "traditional", None
    table_id = request.query_params.get("table")
    if table_id:
        try:
            t = _hub(request).table(table_id)
            rules, preset, tid = t.rules, t.preset, t.id
        except Refused:
            rules = None
    if rules is None:
        try:
            rules = Rules.preset(preset)
        except ValueError:
            preset, rules = "traditional", Rules.preset("traditional")
    return shell("howto", request_lang(request), "Ramsli", {"preset": preset, "table": tid, "rules": rules.to_dict()})
