"""The browser card table of ``ramsli serve`` (issue 11): lobby, table page, how-to-play, catalogs, hint.

Plain HTML, CSS and JavaScript shipped as package data in ``ramsli/server/web``
(no build step, nothing from the internet). The pages talk to the server
through the protocol of ``docs/protocol.md`` only; the extra endpoints this
module adds are described at the end of that page:

- ``GET /``: the lobby; ``GET /t/{table}/s/{token}``: the table of one seat (the
  invite link); ``GET /t/{table}/watch/{token}``: the spectator's table;
- ``GET /how-to-play?lang=de&table=ID``: the rules for players, with the
  table's own variant (R6, R8);
- ``GET /api/i18n/{lang}.json``: the Babel catalog of a language as JSON;
- ``POST /api/web/tables``: create a table as ``POST /api/tables`` does (``"hint": true``
  allows the "should I stay in?" hint at that table, a stored table option);
- ``POST /api/tables/{table}/pace``: the creator changes the bots' speed during play;
- ``GET /api/tables/{table}/hands/{n}.json?token=...``: a finished hand to read (public log
  and the token's own cards);
- ``GET /api/tables/{table}/hint?token=...``: that hint for the token's seat,
  from :func:`ramsli.lab.odds.estimate` (the ``lab`` extra).

Every page gets its language from ``?lang=`` (one of
:data:`ramsli.frontends.i18n.LANGS`), else the browser's ``Accept-Language``,
else English; the catalog is rendered into the page so it shows translated
text at once.

>>> page_lang("de", "")
'de'
>>> page_lang(None, "nl-BE,nl;q=0.9,en;q=0.8")
'nl'
>>> page_lang("xx", "")
'en'
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from babel.messages.mofile import read_mo
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ramsli.frontends.i18n import DOMAIN, LANGS, LOCALE_DIR
from ramsli.rules import PRESETS, Rules
from ramsli.server.hub import read_body
from ramsli.server.table import TableError

__all__ = ["router", "WEB_DIR", "page_lang", "catalog", "hint_allowed", "hint_query", "HINT_SECONDS"]

router = APIRouter()

#: where the HTML, CSS and JavaScript of the pages live (package data)
WEB_DIR = Path(__file__).resolve().parent / "web"
#: seconds of sampling behind one hint (the lab's odds estimate)
HINT_SECONDS = 1.0
#: hint computations running at once in the whole server (each on a thread, never the bots' pool)
HINT_CONCURRENCY = 2
#: finished hints kept, per (table, seat, hand, seq)
HINT_CACHE = 256

#: (table, seat) -> (key, future) of the hint being computed for that seat: one at a time per seat
_hint_running: dict[tuple[str, int], tuple[tuple, Any]] = {}
#: (table, seat, hand, seq) -> the answer (a seat asking again at the same position gets it at once)
_hint_done: dict[tuple, dict[str, Any]] = {}
_hint_slots: dict[Any, asyncio.Semaphore] = {}

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".html": "text/html; charset=utf-8",
}


def page_lang(query: str | None, accept: str | None) -> str:
    """The language of a page: ``query`` if it is one of ``LANGS``, else the first of
    ``LANGS`` in an ``Accept-Language`` header, else ``"en"``."""
    if query in LANGS:
        return query  # type: ignore[return-value]
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in LANGS:
            return code
    return "en"


@functools.lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, Any]:
    """The compiled catalog of ``lang`` as a JSON-ready dict (empty for English, the source language).

    Keys are msgids; plural entries map the singular msgid to ``[one, many]``; entries with a
    context are keyed ``context + "\\x04" + msgid`` (as gettext does).

    Raises:
        ValueError: for a language without a catalog.
    """
    if lang not in LANGS:
        raise ValueError(f"language {lang!r} is not available; allowed are {', '.join(LANGS)}")
    if lang == "en":
        return {}
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as f:
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


def _shell(kind: str, lang: str, title: str, page: dict[str, Any], status: int = 200) -> HTMLResponse:
    page = dict(page, lang=lang, kind=kind)
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel="stylesheet" href="/static/style.css">'
        '<link rel="icon" href="/static/icon.svg" type="image/svg+xml"></head>'
        f'<body class="page-{kind}">'
        f'<script type="application/json" id="ramsli-catalog">{_json_script(catalog(lang))}</script>'
        f'<script type="application/json" id="ramsli-page">{_json_script(page)}</script>'
        '<div id="app"></div><div id="toast" class="toast" role="status" aria-live="polite"></div>'
        '<script src="/static/common.js"></script><script src="/static/cards.js"></script>'
        f'<script src="/static/{kind}.js"></script></body></html>'
    )
    return HTMLResponse(body, status_code=status)


def _hub(request: Request) -> Any:
    return request.app.state.hub


def _lang(request: Request) -> str:
    return page_lang(request.query_params.get("lang"), request.headers.get("accept-language"))


def _presets() -> list[str]:
    return list(PRESETS)


@router.get("/static/{name}")
async def static(name: str) -> Response:
    """A file of :data:`WEB_DIR` (no sub-folders, no hidden files)."""
    path = WEB_DIR / name
    if "/" in name or name.startswith(".") or path.suffix not in _TYPES or not path.is_file():
        return JSONResponse({"error": "no_file", "message": f"no such file {name!r}"}, status_code=404)
    return Response(path.read_bytes(), media_type=_TYPES[path.suffix], headers={"Cache-Control": "no-cache"})


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The lobby: one-click table against bots, a table set up in full, invite links, your tables."""
    return _shell(
        "lobby",
        _lang(request),
        "Ramsli",
        {
            "presets": _presets(),
            "bots": ["easy", "medium", "hard", "expert", "tips", "montecarlo", "random"],
            "lab": _lab_available(),
        },
    )


def _error_page(request: Request, e: TableError) -> HTMLResponse:
    return _shell("error", _lang(request), "Ramsli", {"code": e.code}, status=404 if e.code == "no_table" else 403)


@router.get("/t/{table_id}/s/{token}", response_class=HTMLResponse)
async def seat_page(request: Request, table_id: str, token: str) -> HTMLResponse:
    """The table as one seat sees it (the seat's invite link): sit down, then play."""
    try:
        t = _hub(request).table(table_id)
        seat = t.seat_of_token(token)
        if seat is None:
            raise TableError("bad_token")
    except TableError as e:
        return _error_page(request, e)
    return _shell(
        "table",
        _lang(request),
        "Ramsli",
        {
            "table": t.id,
            "token": token,
            "role": "seat",
            "seat": f"p{seat.index + 1}",
            "taken": seat.taken,
            "name": seat.name,
            "hint": hint_allowed(request.app, t.id),
            "info": _public_info(t),
        },
    )


def _public_info(t: Any) -> dict[str, Any]:
    """What an invitee may know before sitting down: status, preset, options, session end, seats
    (names, bot or person); no tokens, no cards."""
    info = t.info()
    info.pop("spectate", None)
    return info


@router.get("/t/{table_id}/watch/{token}", response_class=HTMLResponse)
async def watch_page(request: Request, table_id: str, token: str) -> HTMLResponse:
    """The table as a spectator sees it (no hidden card at all, R7)."""
    try:
        t = _hub(request).table(table_id)
        if not secrets.compare_digest(token.encode(), t.spectator_token.encode()):  # constant time
            raise TableError("bad_token")
    except TableError as e:
        return _error_page(request, e)
    return _shell(
        "table",
        _lang(request),
        "Ramsli",
        {"table": t.id, "token": token, "role": "spectator", "seat": None, "hint": False},
    )


@router.get("/api/i18n/{lang}.json")
async def catalog_json(lang: str) -> JSONResponse:
    """The catalog of ``lang`` (see :func:`catalog`); ``404 no_lang`` for another language."""
    if lang not in LANGS:
        return JSONResponse({"error": "no_lang", "message": f"allowed are {', '.join(LANGS)}"}, status_code=404)
    return JSONResponse(catalog(lang))


# -- creating a table with the hint allowed -----------------------------------------------------


def hint_allowed(app: Any, table_id: str) -> bool:
    """True if the creator of ``table_id`` allowed the "should I stay in?" hint (the table's
    ``hint`` option, stored with its spec: it survives a restart); False for an unknown table."""
    t = app.state.hub.tables.get(table_id)
    return bool(t is not None and t.options.hint)


@router.post("/api/web/tables", status_code=201)
async def create_web_table(request: Request) -> Any:
    """``POST /api/tables`` plus ``"hint": bool`` (default false): the answer says ``"hint"`` too."""
    body = await read_body(request.stream())  # the same size cap as POST /api/tables
    if not isinstance(body, dict):
        raise TableError("bad_message", detail="give a table spec object")
    hint = body.get("hint", False)
    if not isinstance(hint, bool):
        raise TableError("bad_message", detail="hint must be true or false")
    answer = await _hub(request).create_table(body)  # ``hint`` is a stored table option
    if hint:
        _warm_up_lab()
    return dict(answer, hint=hint)


@router.post("/api/tables/{table_id}/pace")
async def set_bot_pace(request: Request, table_id: str) -> Any:
    """The creator changes the bots' speed during play: ``{"creator_token", "bot_pace_seconds"}``
    (seconds 0..60) answers ``{"bot_pace_seconds", "seq"}``; stored, so it survives a restart.
    Errors: ``403 bad_token`` (not the creator), ``422 bad_message``, ``404 no_table``."""
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        raise TableError("bad_message", detail="the request body is not JSON") from None
    if not isinstance(body, dict):
        raise TableError("bad_message", detail='give {"creator_token": ..., "bot_pace_seconds": ...}')
    t = _hub(request).table(table_id)
    await t.set_pace(body.get("creator_token"), body.get("bot_pace_seconds"))
    return {"bot_pace_seconds": t.options.bot_pace_seconds, "seq": t.seq}


@router.get("/api/tables/{table_id}/hands/{number}.json")
async def finished_hand(request: Request, table_id: str, number: int, token: str = "") -> Any:
    """A finished hand to read in the page (:meth:`~ramsli.server.table.Table.finished_hand`):
    public log plus the token's own cards. Errors: ``403 bad_token``, ``404 no_hand``."""
    t = _hub(request).table(table_id)
    seat = t.seat_of_token(token)
    if seat is None and not (
        isinstance(token, str) and secrets.compare_digest(token.encode(), t.spectator_token.encode())
    ):
        raise TableError("bad_token")
    # only the person sitting there sees the seat's own cards: an invite link (which the creator
    # holds for every seat) reads the hand as a spectator does (R7, D-16)
    return t.finished_hand(number, t.owner_of(token))


# -- the "should I stay in?" hint -------------------------------------------------------------


def _lab_available() -> bool:
    try:
        import numba  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def hint_query(obs: Any, seed: int = 0, time_s: float = HINT_SECONDS) -> dict[str, Any]:
    """The keyword arguments of :func:`ramsli.lab.odds.estimate` for the seat of ``obs`` (an
    :class:`~ramsli.hand.Observation` in the declare phase): its own cards and the turn-up only
    (R7), its place in the declaring order (R4.5), the declarations before it, the carry-in pot
    (the pot less this hand's antes, R5.4), the tips model and ``time_s`` seconds of sampling.

    >>> import random
    >>> from ramsli import Hand, Rules
    >>> obs = Hand.new(Rules(), [20, 20, 20], dealer=2, rng=random.Random(1)).observe(0)
    >>> q = hint_query(obs)
    >>> q["players"], q["seat"], q["before"], q["pot"], len(q["cards"].split())
    (3, 0, [], 0, 5)
    """
    players = len(obs.seated)
    return dict(
        cards=" ".join(str(c) for c in obs.cards),
        turn_up=str(obs.turn_up),
        players=players,
        seat=len(obs.declarations),
        before=[d for _a, d in obs.declarations],
        rules=obs.rules,
        bot="tips",
        time_s=time_s,
        seed=seed,
        pot=max(0, obs.pot - obs.rules.ante * players),
    )


_warm: dict[str, Any] = {}


def _warm_up_lab() -> None:
    """Compile the lab's kernel once, in the background, when the first hint table is made (the
    first compile takes half a minute; later estimates take :data:`HINT_SECONDS`)."""
    if _warm or not _lab_available():
        return

    def run() -> None:
        from ramsli.lab.odds import estimate

        try:
            estimate(cards="AS 9S KH 8D 7C", turn_up="TS", players=3, seat=0, time_s=0.05)
        except Exception:  # noqa: BLE001 - a failed warm-up only means a slower first hint
            pass

    _warm["thread"] = threading.Thread(target=run, name="ramsli-hint-warm-up", daemon=True)
    _warm["thread"].start()


@router.get("/api/tables/{table_id}/hint")
async def hint(request: Request, table_id: str, token: str = "") -> JSONResponse:
    """The lab's estimate for the token's seat while it is that seat's turn to declare (R4.5).

    Answers ``{"ev_diff": {"mean", "ci95"}, "ev_in", "ev_out", "p_trick", "samples", ...}``
    (counters of this hand; stay in when ``ev_diff`` is above zero), or an error:
    ``403 hint_off`` (the creator did not allow it), ``409 no_hint`` (not your turn to declare),
    ``501 no_lab`` (the optional extra ``lab`` is not installed; the message says how to add it),
    ``429 hint_busy`` (a hint for another position of this seat is still being computed).
    One computation at a time per seat; the answer is kept per (seat, hand, seq), so asking
    again at the same position costs nothing.
    """
    t = _hub(request).table(table_id)
    seat = t.seat_of_token(token)
    if seat is None:
        raise TableError("bad_token")
    if not hint_allowed(request.app, t.id):
        return JSONResponse(
            {"error": "hint_off", "message": "the creator of this table did not allow the hint"}, status_code=403
        )
    if not _lab_available():
        return JSONResponse(
            {"error": "no_lab", "message": "the hint needs the lab extra: pip install -e '.[lab]' (NumPy and Numba)"},
            status_code=501,
        )
    hand, _number = t.current_hand()
    if hand is None or t.status != "playing":
        return JSONResponse({"error": "no_hint", "message": "no hand is being declared"}, status_code=409)
    obs = hand.observe(seat.index)
    if not seat.taken or not t.owns(seat, token) or obs.phase.value != "declare" or obs.to_act != seat.index:
        # only the person sitting there, with the personal token (an invite token owns no cards, R7)
        return JSONResponse(
            {"error": "no_hint", "message": "the hint is for your own turn to declare"}, status_code=409
        )
    key = (t.id, seat.index, _number, t.seq)
    if key in _hint_done:
        return JSONResponse(_hint_done[key])
    running = _hint_running.get((t.id, seat.index))
    if running is not None and running[0] == key:
        answer, status = await asyncio.shield(running[1])  # the same question is being answered: wait for it
        return JSONResponse(answer, status_code=status)
    if running is not None:
        return JSONResponse(
            {"error": "hint_busy", "message": "a hint for this seat is being computed; ask again when it is done"},
            status_code=429,
        )
    fut = asyncio.get_running_loop().create_future()
    _hint_running[(t.id, seat.index)] = (key, fut)
    try:
        answer, status = await _compute_hint(obs)
    except Exception as e:
        fut.set_exception(e)
        fut.exception()  # retrieved: no "never retrieved" warning when nobody waited
        raise
    finally:
        _hint_running.pop((t.id, seat.index), None)
    fut.set_result((answer, status))
    if status == 200:
        if len(_hint_done) >= HINT_CACHE:
            _hint_done.pop(next(iter(_hint_done)))
        _hint_done[key] = answer
    return JSONResponse(answer, status_code=status)


async def _compute_hint(obs: Any) -> tuple[dict[str, Any], int]:
    """One hint computation on a thread (never the bots' pool), at most :data:`HINT_CONCURRENCY`
    at once in the server; returns (answer, HTTP status)."""
    from ramsli.lab.odds import OddsError, estimate

    loop = asyncio.get_running_loop()
    slots = _hint_slots.get(loop)
    if slots is None:
        _hint_slots.clear()
        slots = _hint_slots[loop] = asyncio.Semaphore(HINT_CONCURRENCY)
    query = hint_query(obs, seed=int(time.time()) % 100000)
    async with slots:
        try:
            res = await loop.run_in_executor(None, functools.partial(estimate, **query))
        except OddsError as e:
            return {"error": "no_hint", "message": str(e)}, 409
    keep = ("p_trick", "p_most", "ev_in", "ev_out", "ev_diff", "out_allowed", "samples", "accepted", "conditioning")
    return {k: res[k] for k in keep}, 200


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
        except TableError:
            rules = None
    if rules is None:
        try:
            rules = Rules.preset(preset)
        except ValueError:
            preset, rules = "traditional", Rules.preset("traditional")
    return _shell("howto", _lang(request), "Ramsli", {"preset": preset, "table": tid, "rules": rules.to_dict()})
