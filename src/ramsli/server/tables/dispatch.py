"""Where a WebSocket message is read, checked, applied and answered: every client message of
``/ws/{table}`` goes through :func:`receive`, in this order (``docs/protocol.md``):

1. **read**: text only, at most :data:`~ramsli.server.protocol.schemas.MAX_MESSAGE` bytes (a
   bigger one is refused as ``too_big`` before anything else), then JSON
   (:func:`~ramsli.server.protocol.schemas.load_message`);
2. **rate limit**: a token bucket per connection
   (:meth:`~ramsli.server.tables.connection.Connection.flooding`, :data:`RATE_LIMIT`); a dropped
   ``act`` is named in its error (``rate_limited_act``), anything else is ``rate_limited``;
3. **schema**: the message's model (:func:`~ramsli.server.protocol.schemas.client_message`);
4. **who may send it**: the one check of :data:`ROUTES` — ``ping`` anyone; ``hello`` only a
   connection that has not said it (``hello_twice``); every other message only the person at
   the connection's own seat: ``no_hello`` before ``hello``, ``spectator`` or ``not_sitting``
   (an invite link that owns no seat, R7) for a reader, ``replaced`` for a connection a newer
   one replaced, and for ``act`` ``pending_seat`` while a take-over waits for the next deal;
5. **apply**: one handler per message type (:func:`on_ping`, :func:`on_hello`, :func:`on_act`,
   :func:`on_chat`, :func:`on_react`, :func:`on_ready`, :func:`on_leave`), each calling the
   table (:class:`~ramsli.server.tables.table.Table`), which asks the engine;
6. **answer**: a refusal is an ``error`` frame to this connection only, in its language
   (:meth:`~ramsli.server.tables.connection.Connection.refuse`), with the table's ``seq`` for
   ``act`` and the seat check of ``act``; what a table does is broadcast by the table itself
   after it is stored. A database that fails is a ``storage`` error; the socket stays open.

:func:`serve` is the WebSocket's reading loop (``hello`` within :data:`HELLO_SECONDS`, binary
frames refused, the connection forgotten when it closes). Nothing here reads a card (R7).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, MutableSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ramsli.i18n import LANGS
from ramsli.refusal import Refusal, Refused
from ramsli.seats import seat_name
from ramsli.server.protocol.closecodes import CloseCode
from ramsli.server.protocol.messages import PROTOCOL_VERSION, BadMessage, DroppedIntent, ProtocolRefusal
from ramsli.server.protocol.schemas import (
    MAX_MESSAGE,
    Act,
    Chat,
    Hello,
    Leave,
    Model,
    Ping,
    React,
    Ready,
    client_message,
    load_message,
)
from ramsli.server.storage.eventstore import storage_reason
from ramsli.server.tables import views
from ramsli.server.tables.connection import RATE_LIMIT, Connection, WebSocketConnection
from ramsli.server.tables.table import SeatState, Table, TableStatus

if TYPE_CHECKING:
    from ramsli.server.tables.hub import Hub

__all__ = [
    "HELLO_SECONDS",
    "RATE_LIMIT",
    "May",
    "Route",
    "At",
    "ROUTES",
    "receive",
    "disconnect",
    "serve",
    "on_ping",
    "on_hello",
    "on_act",
    "on_chat",
    "on_react",
    "on_ready",
    "on_leave",
]

#: seconds a new connection has to say hello
HELLO_SECONDS = 10.0

_log = logging.getLogger("ramsli.server")


class May(enum.Enum):
    """Who may send a message type."""

    #: any connection, before or after ``hello``
    ANYONE = "anyone"
    #: a connection that has not said ``hello`` yet
    NEW = "new"
    #: the person at the connection's own seat (not a spectator, not an invite link, not replaced)
    SEAT = "seat"


@dataclass(frozen=True)
class At:
    """Where a message is applied: the hub, the connection, the ``/ws/{table}`` path's table id
    (None in-process), and for a :attr:`May.SEAT` message the table and the sender's seat."""

    hub: Hub
    conn: Connection
    table_id: str | None
    table: Table | None = None
    seat: SeatState | None = None

    @property
    def here(self) -> tuple[Table, SeatState]:
        """The table and seat of a :attr:`May.SEAT` message (the seat check passed)."""
        assert self.table is not None and self.seat is not None
        return self.table, self.seat


Handler = Callable[[At, Any], Awaitable[None]]


@dataclass(frozen=True)
class Route:
    """How one message type is handled: its handler, who may send it, whether the seat must be
    taken already (not a take-over waiting for the next deal), and whether its refusals carry the
    table's ``seq`` (``act``: the client compares it with its own)."""

    handler: Handler
    may: May
    taken: bool = False
    with_seq: bool = False


# -- the handlers, one per message type ----------------------------------------------------


async def on_ping(at: At, msg: Ping) -> None:
    """``ping``: answered ``pong``."""
    at.conn.deliver({"type": "pong"})


async def on_hello(at: At, msg: Hello) -> None:
    """``hello``: the connection's language, then its table and token: a seat's own token plays
    the seat (``welcome`` as ``seat``, with the protocol's version), a spectator token or an invite link that owns no seat
    reads as a spectator (R7). A table another process runs (or nobody, this moment) answers
    ``reconnect``; an unknown, broken or closed table and a wrong token are refused and closed
    (:class:`~ramsli.server.protocol.closecodes.CloseCode`). A newer connection for a seat
    replaces the older one, which is told (``replaced``) and closed."""
    hub, conn, table_id = at.hub, at.conn, at.table_id
    if msg.lang.strip().lower() in LANGS:  # case-insensitive, as ?lang= and Accept-Language
        conn.lang = msg.lang.strip().lower()
    if table_id is not None and msg.table is not None and msg.table != table_id:
        conn.refuse(ProtocolRefusal(Refusal("hello_table", None, {"table": str(msg.table)[:40]}), "bad_message"))
        return
    tid = table_id if table_id is not None else msg.table
    t = hub.tables.get(tid) if tid is not None else None
    if t is None and isinstance(tid, str) and tid not in hub.broken:
        where, _peer = await hub.locate(tid)  # it runs elsewhere, or nowhere this moment
        if where in ("remote", "nobody"):
            conn.reconnect("moved", after_ms=random.randint(200, 800))
            return
        t = hub.tables.get(tid)
    if t is None:
        code = "table_broken" if tid is not None and tid in hub.broken else "no_table"
        if tid is not None and tid in hub.closed:
            code = "table_closed"
        conn.refuse(Refused(Refusal(code, None, {"table": str(tid)[:40]})))
        conn.close_with(CloseCode.NO_TABLE, code)
        return
    seat = t.seat_of_token(msg.token)
    if seat is None and not t.is_spectator(msg.token):
        conn.refuse(Refused(Refusal("bad_token")))
        conn.close_with(CloseCode.BAD_TOKEN)
        return
    invite = seat is not None and not t.owns(seat, msg.token)
    if invite:
        seat = None  # an invite token that owns no seat: a spectator's view, no cards, no acts (R7)
    conn.table = t
    conn.seat = seat
    conn.role = "seat" if seat is not None else ("invite" if invite else "spectator")
    conn.deliver(
        {
            "type": "welcome",
            "table": t.id,
            "role": "seat" if seat is not None else "spectator",
            "seat": None if seat is None else seat_name(seat.index),
            "protocol": PROTOCOL_VERSION,
        }
    )
    old = t.attach(seat, conn)
    if seat is None:
        conn.deliver(views.view(t, None))
    if isinstance(old, Connection) and old is not conn:
        old.refuse(Refused(Refusal("replaced")))
        old.close_with(CloseCode.REPLACED)


async def on_act(at: At, msg: Act) -> None:
    """``act``: the seat's intent (:meth:`~ramsli.server.tables.table.Table.intent`; the engine
    refuses what is not legal, with its rule). A failure to store it is a ``storage`` error."""
    t, seat = at.here
    try:
        await t.intent(seat.index, msg.action, msg.seq)
    except Refused:
        raise
    except Exception:  # noqa: BLE001 - logged; the client is told ``storage``
        _log.exception("table %s: an intent was not stored", t.id)
        raise Refused(Refusal("storage")) from None


async def on_chat(at: At, msg: Chat) -> None:
    """``chat``: a line of text (:meth:`~ramsli.server.tables.table.Table.say`)."""
    t, seat = at.here
    await t.say(seat, text=msg.text)


async def on_react(at: At, msg: React) -> None:
    """``react``: a reaction or a short phrase (:meth:`~ramsli.server.tables.table.Table.say`)."""
    t, seat = at.here
    await t.say(seat, code=msg.code)


async def on_ready(at: At, msg: Ready) -> None:
    """``ready``: the person closed the summary of hand ``msg.hand``
    (:meth:`~ramsli.server.tables.table.Table.set_ready`)."""
    t, seat = at.here
    t.set_ready(seat, msg.hand)


async def on_leave(at: At, msg: Leave) -> None:
    """``leave``: during play, a bot plays the seat at once and the connection is told (``left``)
    and closed (:attr:`CloseCode.LEFT`); otherwise there is nothing to leave."""
    t, seat = at.here
    if t.status is not TableStatus.PLAYING or not seat.taken:
        return  # nothing to leave: the page simply goes
    t.leave(seat)
    at.conn.refuse(Refused(Refusal("left")))
    at.conn.close_with(CloseCode.LEFT)


#: every client message type: its handler and who may send it
ROUTES: dict[type[Model], Route] = {
    Ping: Route(on_ping, May.ANYONE),
    Hello: Route(on_hello, May.NEW),
    Act: Route(on_act, May.SEAT, taken=True, with_seq=True),
    Chat: Route(on_chat, May.SEAT),
    React: Route(on_react, May.SEAT),
    Ready: Route(on_ready, May.SEAT),
    Leave: Route(on_leave, May.SEAT),
}


# -- the checks, in order ------------------------------------------------------------------


async def receive(hub: Hub, conn: Connection, raw: Any, table_id: str | None = None) -> None:
    """Handle one client message ``raw`` (text) of ``conn`` at ``hub``; ``table_id`` is the
    WebSocket path's table (None in-process: the ``hello`` names it). Every refusal is an
    ``error`` to ``conn`` only; a refused message changes nothing."""
    if not isinstance(raw, str):
        conn.refuse(Refused(Refusal("bad_json")))
        return
    bad: Refused | None = None
    try:
        value = load_message(raw)
    except Refused as e:
        if e.refusal.code == "too_big":  # ignored before anything else, the bucket untouched
            conn.refuse(e)
            return
        value, bad = None, e
    if conn.flooding(time.monotonic()):
        _flooded(conn, value)
        return
    if bad is not None:
        conn.refuse(bad)
        return
    t = conn.table
    try:
        msg = client_message(value)
    except BadMessage as e:
        conn.refuse(e, seq=t.seq if t is not None else None)
        return
    except Refused as e:
        conn.refuse(e)
        return
    route = ROUTES[type(msg)]
    at = _may(hub, conn, route, table_id)
    if at is None:
        return
    try:
        await route.handler(at, msg)
    except Refused as e:
        conn.refuse(e, seq=at.table.seq if route.with_seq and at.table is not None else None)
    except (DBAPIError, sqlite3.Error) as e:  # read-only, full, gone: said, the socket stays open
        where = conn.table.id if conn.table is not None else table_id
        _log.error("table %s: a %s message was not stored: %s", where, getattr(msg, "type", "?"), storage_reason(e))
        conn.refuse(Refused(Refusal("storage")), seq=conn.table.seq if conn.table is not None else None)


def _may(hub: Hub, conn: Connection, route: Route, table_id: str | None) -> At | None:
    """The one check of who may send a message of ``route`` on ``conn``: where to apply it, or
    None after refusing it."""
    if route.may is May.ANYONE:
        return At(hub, conn, table_id)
    t = conn.table
    if route.may is May.NEW:
        if t is not None:  # refused before anything of it is taken (its language too)
            conn.refuse(ProtocolRefusal(Refusal("hello_twice"), "bad_message"))
            return None
        return At(hub, conn, table_id)
    if t is None:
        conn.refuse(Refused(Refusal("no_hello")))
        return None
    seq = t.seq if route.with_seq else None
    seat = conn.seat
    if seat is None:  # a reader: spectators and invite links never act nor talk (R7)
        conn.refuse(Refused(Refusal("not_sitting" if conn.role == "invite" else "spectator")), seq=seq)
        return None
    if seat.conn is not conn:
        conn.refuse(Refused(Refusal("replaced")))
        return None
    if route.taken and not seat.taken:  # a take-over waits for the next deal; a bot plays this hand
        conn.refuse(Refused(Refusal("pending_seat", None, {"seat": seat.index})), seq=seq)
        return None
    return At(hub, conn, table_id, t, seat)


def _flooded(conn: Connection, value: Any) -> None:
    if isinstance(value, dict) and value.get("type") == "act":
        # never drop an intent without saying which: the client may send it again
        conn.refuse(DroppedIntent(value.get("action"), value.get("seq"), RATE_LIMIT))
    else:
        conn.refuse(Refused(Refusal("rate_limited", None, {"limit": RATE_LIMIT})))


def disconnect(conn: Connection) -> None:
    """The transport of ``conn`` closed: its table forgets it (its seat is away from now on)."""
    if conn.table is not None:
        conn.table.detach(conn.seat, conn)


# -- the WebSocket -------------------------------------------------------------------------


async def serve(
    websocket: WebSocket,
    hub: Hub,
    table_id: str,
    conn: WebSocketConnection,
    conns: MutableSet[WebSocketConnection],
) -> None:
    """Read ``websocket`` (accepted, carried by ``conn``) until it closes: each text frame to
    :func:`receive`; a binary frame is refused (``too_big`` over the limit, else ``bad_json``);
    no ``hello`` within :data:`HELLO_SECONDS` is refused and closed (:attr:`CloseCode.NO_HELLO`).
    ``conns`` holds the open connections (the metrics count them by role)."""
    conns.add(conn)
    hello_by = asyncio.get_running_loop().time() + HELLO_SECONDS  # from the accept, not from each frame
    try:
        while conn.closed_with is None:
            timeout = max(0.0, hello_by - asyncio.get_running_loop().time()) if conn.table is None else None
            try:
                frame = await asyncio.wait_for(websocket.receive(), timeout)
            except TimeoutError:
                conn.refuse(Refused(Refusal("no_hello")))
                conn.close_with(CloseCode.NO_HELLO)
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
            await receive(hub, conn, text, table_id)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        conns.discard(conn)
        disconnect(conn)
        if conn.closed_with is None:
            conn.closed_with = (1000, "gone")
            conn.writer.cancel()
        else:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(conn.writer, 2.0)
        if websocket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()
