"""The FastAPI app of ``ramsli serve``: the card tables' HTTP API and one WebSocket per seat.

:func:`create_app` wires the routes of ``docs/protocol.md`` to a
:class:`~ramsli.server.hub.Hub` and includes the pages (:mod:`ramsli.server.pages`), the hint
(:mod:`ramsli.server.hints`) and the pub ledger (:mod:`ramsli.server.ledger`); at start-up it
opens the database (applying the Alembic migrations) and restores every table by replaying its
events. Every request body is read through the one capped reader and parsed by its model
(:mod:`ramsli.server.schemas`) before anything else; every refusal is answered by its code in
the language the request asks for (``?lang=``, else ``Accept-Language``;
:func:`ramsli.server.messages.error_body`).

Run it with ``ramsli serve`` or ``uvicorn --factory ramsli.server.app:app_from_env``
(``RAMSLI_DATABASE``, ``RAMSLI_ALLOW_TEST_SEEDS=1``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Sequence
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ramsli.errors import SessionError
from ramsli.errors import TableError as EngineTableError
from ramsli.ledger import LedgerError
from ramsli.refusal import Refusal, Refused
from ramsli.server import hints, views
from ramsli.server.bot_driver import shutdown_bot_pool
from ramsli.server.hub import HELLO_SECONDS, Conn, Hub
from ramsli.server.ledger import router as ledger_router
from ramsli.server.messages import BadMessage, error_body
from ramsli.server.pages import page_lang, request_lang
from ramsli.server.pages import router as pages_router
from ramsli.server.schemas import MAX_MESSAGE, CreateTable, Pace, Sit, Start, body_of, refusal_of
from ramsli.server.storage import EventStore

__all__ = ["create_app", "app_from_env", "WebSocketConn", "WS_MAX_SIZE"]

#: frames larger than this are refused by the WebSocket layer itself (close 1009);
#: frames up to it but over MAX_MESSAGE get a ``too_big`` error
WS_MAX_SIZE = 65536


class WebSocketConn(Conn):
    """A :class:`~ramsli.server.hub.Conn` over a Starlette WebSocket, with its own writer task.

    Messages are queued and written in order by one task, so a slow client never
    blocks a table; a client more than 256 messages behind is closed. Until its ``hello``
    names a language, its messages are in the language of the handshake (``?lang=``, else
    ``Accept-Language``).
    """

    def __init__(self, ws: WebSocket) -> None:
        super().__init__(page_lang(ws.query_params.get("lang"), ws.headers.get("accept-language")))
        self.ws = ws
        self.queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=256)
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def deliver(self, msg: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(json.dumps(msg, separators=(",", ":")))
        except asyncio.QueueFull:
            self.close(1008, "too slow")

    def close(self, code: int, reason: str) -> None:
        if self.closed_with is None:
            self.closed_with = (code, reason)
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(("close", code, reason))

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    await self.ws.close(code=item[1], reason=item[2])
                    return
                await self.ws.send_text(item)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        except asyncio.CancelledError:
            return
        except Exception:  # noqa: BLE001 - e.g. the transport closed under us
            return


def _answer(request: Request, error: Exception) -> JSONResponse:
    status, body = error_body(error, request_lang(request))
    return JSONResponse(body, status_code=status)


def create_app(
    database: str | None = None, allow_test_seeds: bool = False, allowed_bots: Sequence[str] = ()
) -> FastAPI:
    """The app. ``database`` is an SQLAlchemy async URL (default: SQLite in the data folder);
    ``allowed_bots``: the installed packages' bots a new table may seat (``--allow-bot``)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await EventStore.open(database)
        hub = Hub(store, allow_test_seeds=allow_test_seeds, allowed_bots=app.state.allowed_bots)
        await hub.restore()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.close()
            await store.close()
            shutdown_bot_pool()

    app = FastAPI(title="ramsli", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.allowed_bots = frozenset(allowed_bots)
    app.include_router(pages_router)
    app.include_router(hints.router)
    app.include_router(ledger_router)

    def hub_of(request: Request) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    async def refused(request: Request, e: Exception) -> JSONResponse:
        return _answer(request, e)

    for kind in (Refused, LedgerError, EngineTableError, SessionError):
        app.add_exception_handler(kind, refused)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        error = dict(e.errors()[0])
        error["loc"] = tuple(error.get("loc", ()))[1:]  # ("path", "number") -> "number"
        return _answer(request, BadMessage(refusal_of(error)))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, e: StarletteHTTPException) -> JSONResponse:
        if e.status_code == 405:
            refusal = Refusal("no_method", None, {"path": request.url.path[:80], "method": request.method})
        else:
            refusal = Refusal("no_page", None, {"path": request.url.path[:80]})
        status, body = error_body(Refused(refusal), request_lang(request))
        return JSONResponse(body, status_code=e.status_code if e.status_code in (404, 405) else status)

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        return await hub_of(request).create_table(await body_of(request, CreateTable))

    @app.post("/api/web/tables", status_code=201)
    async def create_web_table(request: Request) -> dict[str, Any]:
        """``POST /api/tables``, answered with ``"hint"`` too; a hint table starts the lab's warm-up."""
        spec = await body_of(request, CreateTable)
        answer = await hub_of(request).create_table(spec)  # ``hint`` is a stored table option
        if spec.hint:
            hints.warm_up_lab()
        return dict(answer, hint=spec.hint)

    @app.get("/api/tables")
    async def list_tables(request: Request) -> list[dict[str, Any]]:
        hub = hub_of(request)
        return [
            {
                "table": t.id,
                "status": t.status,
                "spectate": f"/t/{t.id}/watch/{t.spectator_token}",
                "seats": [s.name for s in t.seats],
            }
            for t in hub.tables.values()
        ] + [{"table": tid, "status": "broken", "reason": reason} for tid, reason in hub.broken.items()]

    @app.get("/api/tables/{table_id}")
    async def info(request: Request, table_id: str) -> dict[str, Any]:
        return views.info(hub_of(request).table(table_id))

    @app.post("/api/tables/{table_id}/sit")
    async def sit(request: Request, table_id: str) -> dict[str, Any]:
        body = await body_of(request, Sit)
        return await hub_of(request).sit(table_id, body.token, body.name, body.client)

    @app.post("/api/tables/{table_id}/start")
    async def start(request: Request, table_id: str) -> dict[str, Any]:
        body = await body_of(request, Start)
        return await hub_of(request).start(table_id, body.creator_token)

    @app.post("/api/tables/{table_id}/pace")
    async def set_bot_pace(request: Request, table_id: str) -> dict[str, Any]:
        """The creator changes the bots' speed during play: ``{"creator_token", "bot_pace_seconds"}``
        (seconds 0..60) answers ``{"bot_pace_seconds", "seq"}``; stored, so it survives a restart.
        Errors: ``403 bad_token`` (not the creator), ``422 bad_message``, ``404 no_table``."""
        body = await body_of(request, Pace)
        t = hub_of(request).table(table_id)
        await t.set_pace(body.creator_token, body.bot_pace_seconds)
        return {"bot_pace_seconds": t.options.bot_pace_seconds, "seq": t.seq}

    @app.get("/api/tables/{table_id}/hands/{number}.toml")
    async def history(request: Request, table_id: str, number: int, token: str = "") -> PlainTextResponse:
        text = hub_of(request).history(table_id, number, token)
        return PlainTextResponse(
            text,
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="{table_id}-hand-{number:04d}.toml"'},
        )

    @app.get("/api/tables/{table_id}/hands/{number}.json")
    async def finished_hand(request: Request, table_id: str, number: int, token: str = "") -> dict[str, Any]:
        """A finished hand to read in the page (:func:`ramsli.server.views.finished_hand`): the
        public log plus the token's own cards. Errors: ``403 bad_token``, ``404 no_hand``."""
        t = hub_of(request).table(table_id)
        if t.seat_of_token(token) is None and not t.is_spectator(token):
            raise Refused(Refusal("bad_token"))
        # only the person sitting there sees the seat's own cards: an invite link (which the creator
        # holds for every seat) reads the hand as a spectator does (R7, D-16)
        return views.finished_hand(t, number, t.owner_of(token))

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        hub: Hub = websocket.app.state.hub
        conn = WebSocketConn(websocket)
        try:
            while conn.closed_with is None:
                timeout = HELLO_SECONDS if conn.table is None else None
                try:
                    frame = await asyncio.wait_for(websocket.receive(), timeout)
                except TimeoutError:
                    conn.refuse(Refused(Refusal("no_hello")))
                    conn.close(4000, "no_hello")
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    data = frame.get("bytes") or b""
                    if len(data) > MAX_MESSAGE:
                        conn.refuse(Refused(Refusal("too_big", None, {"limit": MAX_MESSAGE})))
                    else:
                        conn.refuse(Refused(Refusal("bad_json")))
                    continue
                await hub.receive(conn, text, table_id)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.disconnect(conn)
            if conn.closed_with is None:
                conn.closed_with = (1000, "gone")
                conn.writer.cancel()
            else:
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                    await asyncio.wait_for(conn.writer, 2.0)
            if websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    return app


def app_from_env() -> FastAPI:
    """The app configured from ``RAMSLI_DATABASE``, ``RAMSLI_ALLOW_TEST_SEEDS`` and ``RAMSLI_ALLOW_BOTS``
    (installed packages' bots, comma-separated) (for ``uvicorn --factory``)."""
    return create_app(
        os.environ.get("RAMSLI_DATABASE") or None,
        allow_test_seeds=os.environ.get("RAMSLI_ALLOW_TEST_SEEDS") == "1",
        allowed_bots=[b.strip() for b in os.environ.get("RAMSLI_ALLOW_BOTS", "").split(",") if b.strip()],
    )
