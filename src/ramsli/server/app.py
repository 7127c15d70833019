"""The FastAPI app of ``ramsli serve``: HTTP endpoints and one WebSocket per seat (issue 10).

:func:`create_app` wires the routes of ``docs/protocol.md`` to a
:class:`~ramsli.server.hub.Hub`; at start-up it opens the database (applying
the Alembic migrations) and restores every table by replaying its events.

Run it with ``ramsli serve`` or ``uvicorn --factory ramsli.server.app:app_from_env``
(``RAMSLI_DATABASE``, ``RAMSLI_ALLOW_TEST_SEEDS=1``).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import secrets
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ramsli.server.hub import HELLO_SECONDS, MAX_MESSAGE, Conn, Hub, SpecError, read_body
from ramsli.server.ledger import router as ledger_router
from ramsli.server.messages import message
from ramsli.server.pages import page_lang
from ramsli.server.pages import router as pages_router
from ramsli.server.storage import EventStore
from ramsli.server.table import TableError, shutdown_bot_pool

__all__ = ["create_app", "app_from_env", "WebSocketConn", "WS_MAX_SIZE"]

#: frames larger than this are refused by the WebSocket layer itself (close 1009);
#: frames up to it but over MAX_MESSAGE get a ``too_big`` error
WS_MAX_SIZE = 65536

_STATUS = {
    "no_table": 404,
    "no_hand": 404,
    "bad_token": 403,
    "started": 409,
    "session_over": 409,
    "name_taken": 409,
    "seat_taken": 409,
    "bad_name": 422,
    "bot_name": 422,
    "bad_spec": 422,
    "bad_message": 422,
    "table_broken": 503,
}


def _err(code: str, lang: str = "en", **fields: Any) -> JSONResponse:
    return JSONResponse({"error": code, "message": message(lang, code, **fields)}, status_code=_STATUS.get(code, 400))


class WebSocketConn(Conn):
    """A :class:`~ramsli.server.hub.Conn` over a Starlette WebSocket, with its own writer task.

    Messages are queued and written in order by one task, so a slow client never
    blocks a table; a client more than 256 messages behind is closed.
    """

    def __init__(self, ws: WebSocket) -> None:
        super().__init__()
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


_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>ramsli</title>
<style>body{{font-family:sans-serif;max-width:46em;margin:2em auto;padding:0 1em}}code{{background:#eee}}</style>
<h1>ramsli table server</h1>
<p>The browser card table is coming in the next release. Today this server runs the tables, their
protocol (<code>docs/protocol.md</code>) and their storage; clients talk to it over <code>/ws/TABLE</code>.</p>
{body}
</html>"""


def create_app(
    database: str | None = None, allow_test_seeds: bool = False, allowed_bots: Sequence[str] = ()
) -> FastAPI:
    """The app. ``database`` is an SQLAlchemy async URL (default: SQLite in the data folder);
    ``allowed_bots``: the installed packages' bots a new table may seat (``--allow-bot``)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
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
    app.include_router(pages_router)  # the browser table (issue 11), before the routes below
    app.include_router(ledger_router)  # the pub ledger (issue 16, docs/ledger.md)

    def hub_of(request: Any) -> Hub:
        return request.app.state.hub

    async def body_of(request: Request) -> Any:
        return await read_body(request.stream())

    @app.exception_handler(TableError)
    async def _table_error(request: Request, e: TableError):
        return _err(
            e.code, page_lang(request.query_params.get("lang"), request.headers.get("accept-language")), **e.fields
        )

    @app.exception_handler(SpecError)
    async def _spec_error(request: Request, e: SpecError):
        return _err("bad_spec", detail=str(e))

    @app.post("/api/tables", status_code=201)
    async def create(request: Request):
        return await hub_of(request).create_table(await body_of(request))

    @app.get("/api/tables")
    async def list_tables(request: Request):
        hub = hub_of(request)
        return [
            {
                "table": t.id,
                "status": t.status,
                "spectate": f"/t/{t.id}/watch/{t.spectator_token}",
                "seats": [s["name"] for s in t.info()["seats"]],
            }
            for t in hub.tables.values()
        ] + [{"table": tid, "status": "broken", "reason": reason} for tid, reason in hub.broken.items()]

    @app.get("/api/tables/{table_id}")
    async def info(request: Request, table_id: str):
        return hub_of(request).table(table_id).info()

    @app.post("/api/tables/{table_id}/sit")
    async def sit(request: Request, table_id: str):
        body = await body_of(request)
        if not isinstance(body, dict):
            raise TableError("bad_message", detail='give {"token": ..., "name": ...}')
        return await hub_of(request).sit(table_id, body.get("token"), body.get("name"))

    @app.post("/api/tables/{table_id}/start")
    async def start(request: Request, table_id: str):
        body = await body_of(request)
        if not isinstance(body, dict):
            raise TableError("bad_message", detail='give {"creator_token": ...}')
        return await hub_of(request).start(table_id, body.get("creator_token"))

    @app.get("/api/tables/{table_id}/hands/{number}.toml")
    async def history(request: Request, table_id: str, number: int, token: str = ""):
        text = hub_of(request).history(table_id, number, token)
        return PlainTextResponse(
            text,
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="{table_id}-hand-{number:04d}.toml"'},
        )

    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request):
        rows = []
        for t in hub_of(request).tables.values():
            names = ", ".join(html.escape(s.name or "(open)") for s in t.seats)
            link = html.escape(f"/t/{t.id}/watch/{t.spectator_token}")
            rows.append(
                f"<li><code>{html.escape(t.id)}</code> {html.escape(t.status)}: {names} — "
                f'<a href="{link}">watch</a></li>'
            )
        body = ("<h2>Tables</h2><ul>" + "".join(rows) + "</ul>") if rows else "<p>No tables yet.</p>"
        body += (
            '<p>Create one with <code>POST /api/tables</code>, e.g. <code>curl -d \'{"seats": '
            '[{"kind":"human"},{"kind":"human"},{"kind":"bot","bot":"rules"}]}\' '
            "http://HOST:PORT/api/tables</code>; the answer holds an invite link per seat.</p>"
        )
        return _PAGE.format(body=body)

    @app.get("/t/{table_id}/s/{token}", response_class=HTMLResponse)
    async def invite(request: Request, table_id: str, token: str):
        t = hub_of(request).table(table_id)
        seat = t.seat_of_token(token)
        if seat is None:
            raise TableError("bad_token")
        body = (
            f"<p>This is the invite link of seat <b>p{seat.index + 1}</b> at table "
            f"<code>{html.escape(t.id)}</code> ({html.escape(t.rules_summary())}, {html.escape(t.status)}).</p>"
            "<p>To sit down, send your name: <code>POST /api/tables/"
            f'{html.escape(t.id)}/sit</code> with <code>{{"token": "…", "name": "…"}}</code>; '
            "then connect to the table's WebSocket. The page to play here in the browser is coming.</p>"
        )
        return _PAGE.format(body=body)

    @app.get("/t/{table_id}/watch/{token}", response_class=HTMLResponse)
    async def watch(request: Request, table_id: str, token: str):
        t = hub_of(request).table(table_id)
        if not secrets.compare_digest(token.encode(), t.spectator_token.encode()):
            raise TableError("bad_token")
        body = (
            f"<p>Spectator link of table <code>{html.escape(t.id)}</code> "
            f"({html.escape(t.rules_summary())}, {html.escape(t.status)}). The spectator view in the "
            "browser is coming; the WebSocket already serves it.</p>"
        )
        return _PAGE.format(body=body)

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str):
        await websocket.accept()
        hub: Hub = websocket.app.state.hub
        conn = WebSocketConn(websocket)
        try:
            while conn.closed_with is None:
                timeout = HELLO_SECONDS if conn.table is None else None
                try:
                    frame = await asyncio.wait_for(websocket.receive(), timeout)
                except TimeoutError:
                    conn.error("no_hello")
                    conn.close(4000, "no_hello")
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    data = frame.get("bytes") or b""
                    if len(data) > MAX_MESSAGE:
                        conn.error("too_big", limit=MAX_MESSAGE)
                    else:
                        conn.error("bad_json")
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
