"""Every HTTP route of the card tables, and their WebSocket (``docs/protocol.md``): :data:`router`.

Each route reads its body through its model (:mod:`ramsli.server.protocol.schemas`), takes its
services typed (:mod:`ramsli.server.deps`), calls the logic beside it (the
:class:`~ramsli.server.tables.hub.Hub`, :mod:`~ramsli.server.tables.lobby`,
:mod:`~ramsli.server.tables.social`) and turns the typed result into JSON here. A refusal is
raised and answered by the app's error handlers (:func:`ramsli.server.protocol.messages.error_body`).

- ``POST /api/tables``, ``POST /api/web/tables``: a new table (:func:`~ramsli.server.tables.lobby.create_table`);
- ``GET /api/tables``: the lobby's list (every live process's); ``GET /api/tables/{table}``: its info;
- ``POST /api/tables/{table}/sit``, ``/start``, ``/pace``, ``/join``, ``/bot-now``, ``/take``,
  ``/rematch``; ``POST /api/quick-play``;
- ``GET /api/tables/{table}/hands/{number}.toml`` and ``.json``: a finished hand;
- ``WS /ws/{table}``: one client's connection, read, checked, applied and answered by
  :mod:`ramsli.server.tables.dispatch`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import PlainTextResponse

from ramsli.refusal import Refusal, Refused
from ramsli.server import deps
from ramsli.server.cluster.proxy import gather_from_peers
from ramsli.server.deps import HubDep, MetricsDep, PeersDep
from ramsli.server.protocol.lang import page_lang
from ramsli.server.protocol.schemas import (
    BotNow,
    CreateTable,
    JoinTable,
    Pace,
    QuickPlay,
    Rematch,
    Sit,
    Start,
    Take,
    body_of,
)
from ramsli.server.tables import dispatch, lobby, social, views
from ramsli.server.tables.connection import WebSocketConnection
from ramsli.server.tables.results import PaceResult

__all__ = ["router"]

router = APIRouter()


@router.post("/api/tables", status_code=201)
async def create(request: Request) -> dict[str, Any]:
    """A new table (``open``: listed for anyone; ``club``: the club's table), :func:`ramsli.server.tables.lobby.create_table`."""
    return await lobby.create_table(request, await body_of(request, CreateTable))


@router.post("/api/web/tables", status_code=201)
async def create_web_table(request: Request) -> dict[str, Any]:
    """``POST /api/tables``, answered with ``"hint"`` too; a hint table starts the lab's warm-up."""
    return await lobby.create_web_table(request, await body_of(request, CreateTable))


@router.get("/api/tables")
async def list_tables(request: Request, hub: HubDep, peers: PeersDep) -> list[dict[str, Any]]:
    """The open tables of every live process; every table this process holds with the admin
    token (:func:`ramsli.server.tables.lobby.listing`)."""
    listed = await lobby.listing(request)
    if not hub.ownership.solo and not request.scope.get("ramsli.forwarded"):
        seen: set[Any] = {x["table"] for x in listed}
        auth = {"authorization": request.headers.get("authorization", "")}
        for answer in await gather_from_peers(hub, peers, "/api/tables", auth):
            for x in answer if isinstance(answer, list) else []:
                if isinstance(x, dict) and x.get("table") not in seen:
                    seen.add(x.get("table"))
                    listed.append(x)
    return listed


@router.get("/api/tables/{table_id}")
async def info(request: Request, hub: HubDep, table_id: str, token: str = "") -> dict[str, Any]:
    """The table's public info (:func:`ramsli.server.tables.views.info`); its ``spectate`` link
    only for ``?token=`` a token of the table (the creator's, a seat's, the spectator's) or at a
    table open to anyone in the lobby: the id alone is no key (issue 38.1)."""
    t = hub.table(table_id)
    return views.info(t, spectate=t.holds_table_token(token) or await lobby.is_open(request, t.id))


@router.post("/api/tables/{table_id}/sit")
async def sit(request: Request, table_id: str) -> dict[str, Any]:
    """A person (or a program) sits down (:func:`ramsli.server.tables.lobby.sit`)."""
    body = await body_of(request, Sit)
    return await lobby.sit(request, table_id, body)


@router.post("/api/tables/{table_id}/start")
async def start(request: Request, hub: HubDep, table_id: str) -> dict[str, Any]:
    """The creator starts the session (:meth:`ramsli.server.tables.hub.Hub.start`)."""
    body = await body_of(request, Start)
    return (await hub.start(table_id, body.creator_token)).to_json()


@router.post("/api/tables/{table_id}/pace")
async def set_bot_pace(request: Request, hub: HubDep, table_id: str) -> dict[str, Any]:
    """The creator changes the bots' speed during play: ``{"creator_token", "bot_pace_seconds"}``
    (seconds 0..60) answers ``{"bot_pace_seconds", "seq"}``; stored, so it survives a restart.
    Errors: ``403 bad_token`` (not the creator), ``422 bad_message``, ``404 no_table``."""
    body = await body_of(request, Pace)
    t = hub.table(table_id)
    await t.set_pace(body.creator_token, body.bot_pace_seconds)
    return PaceResult(t.options.bot_pace_seconds, t.seq).to_json()


@router.get("/api/tables/{table_id}/hands/{number}.toml")
async def history(hub: HubDep, table_id: str, number: int, token: str = "") -> PlainTextResponse:
    """A finished hand's history (TOML, :meth:`ramsli.server.tables.hub.Hub.history`), as a download."""
    text = hub.history(table_id, number, token)
    return PlainTextResponse(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="{table_id}-hand-{number:04d}.toml"'},
    )


@router.get("/api/tables/{table_id}/hands/{number}.json")
async def finished_hand(hub: HubDep, table_id: str, number: int, token: str = "") -> dict[str, Any]:
    """A finished hand to read in the page (:func:`ramsli.server.tables.views.finished_hand`): the
    public log plus the token's own cards. Errors: ``403 bad_token``, ``404 no_hand``."""
    t = hub.table(table_id)
    if t.seat_of_token(token) is None and not t.is_spectator(token):
        raise Refused(Refusal("bad_token"))
    # only the person sitting there sees the seat's own cards: an invite link (which the creator
    # holds for every seat) reads the hand as a spectator does (R7, D-16)
    return views.finished_hand(t, number, t.owner_of(token))


@router.post("/api/tables/{table_id}/join")
async def join(request: Request, hub: HubDep, table_id: str) -> dict[str, Any]:
    """Take a free seat at an open table (:func:`ramsli.server.tables.lobby.join`)."""
    body = await body_of(request, JoinTable)
    return await lobby.join(request, hub.table(table_id), body)


@router.post("/api/quick-play")
async def quick_play(request: Request) -> dict[str, Any]:
    """Quick play (:func:`ramsli.server.tables.lobby.quick_play`)."""
    body = await body_of(request, QuickPlay)
    return await lobby.quick_play(request, body)


@router.post("/api/tables/{table_id}/bot-now")
async def bot_now(request: Request, hub: HubDep, table_id: str) -> dict[str, Any]:
    """The creator hands an away seat to the bot at once: ``{"creator_token", "seat": "p2"}``
    answers ``{"seat", "bot_playing": true}``. Errors: ``403 bad_token``, ``404 no_seat``,
    ``409 not_away``, ``404 no_table``, ``422 bad_message``."""
    body = await body_of(request, BotNow)
    return social.bot_now(hub.table(table_id), body)


@router.post("/api/tables/{table_id}/take")
async def take(request: Request, hub: HubDep, table_id: str) -> dict[str, Any]:
    """A person takes over a bot's seat from the table: ``{"token", "seat": "p3", "name"}``
    answers as ``sit`` does, ``{"seat", "pending", "token"}`` (``token`` the personal token that
    plays the seat from the next hand). ``token``: the creator's or a seat's token, or the
    spectator token at a table open in the lobby; a seat kept by "Play again" only with its own
    invite token (issue 38.1). Errors: ``403 bad_token``, ``403 seat_kept``, ``404 no_seat``,
    ``409 not_a_bot_seat``, ``409 seat_left`` (R3.5), and those of ``sit``."""
    body = await body_of(request, Take)
    t = hub.table(table_id)
    return (await social.take(t, body, await lobby.is_open(request, t.id))).to_json()


@router.post("/api/tables/{table_id}/rematch")
async def play_again(request: Request, hub: HubDep, table_id: str) -> dict[str, Any]:
    """ "Play again" (:func:`ramsli.server.tables.social.rematch`). Errors: ``403 bad_token``,
    ``409 not_over``, ``404 no_table``."""
    body = await body_of(request, Rematch)
    return (await social.rematch(hub, hub.table(table_id), body.token, body.creator_token)).to_json()


@router.websocket("/ws/{table_id}")
async def ws(websocket: WebSocket, hub: HubDep, metrics: MetricsDep, table_id: str) -> None:
    """One client's WebSocket: read, checked, applied and answered by :mod:`ramsli.server.tables.dispatch`."""
    await websocket.accept()
    lang = page_lang(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    conn = WebSocketConnection(websocket, lang, metrics)
    await dispatch.serve(websocket, hub, table_id, conn, deps.ws_connections(websocket))
