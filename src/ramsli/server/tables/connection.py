"""One client connection to a table, whatever carries it: :class:`Connection`.

:class:`Connection` is the one kind of connection the tables, the dispatcher
(:mod:`ramsli.server.tables.dispatch`) and the hub know. As it is, it keeps what it was sent in
:attr:`Connection.sent` (the in-process tests and bots use it so); a transport is a subclass
that overrides :meth:`Connection.deliver` and :meth:`Connection.close`: the one the server runs
is :class:`WebSocketConnection` (a Starlette WebSocket with its own writer task).

Close codes are :class:`~ramsli.server.protocol.closecodes.CloseCode`.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ramsli.server.ops.metrics import Metrics
from ramsli.server.protocol.closecodes import CloseCode
from ramsli.server.protocol.messages import error_frame

if TYPE_CHECKING:
    from ramsli.server.tables.table import SeatState, Table

__all__ = ["Connection", "WebSocketConnection", "RATE_LIMIT", "QUEUE_LIMIT"]

#: client messages accepted per connection within one second
RATE_LIMIT = 20
#: messages a :class:`WebSocketConnection` queues for a slow client before it closes it
QUEUE_LIMIT = 256


class Connection:
    """One client connection as the server sees it.

    Subclasses deliver messages (:meth:`deliver`, never blocking) and close the transport
    (:meth:`close`). This class itself records what it was sent in :attr:`sent`.

    Attributes:
        lang: language of its error messages (``en``, ``de``, ``nl``, ``it``), from its ``hello``.
        table: the table after ``hello``, else None. seat: its seat, or None (spectator).
        role: ``seat``, ``invite`` (an invite token that owns no seat) or ``spectator`` after
            ``hello``, else None.
        closed_with: ``(close code, reason)`` once closed, else None.
        sent: every message delivered (this class only).
    """

    def __init__(self, lang: str = "en", metrics: Metrics | None = None) -> None:
        self.lang = lang
        self.metrics = metrics
        self.table: Table | None = None
        self.seat: SeatState | None = None
        self.role: str | None = None
        self.closed_with: tuple[int, str] | None = None
        self.sent: list[dict[str, Any]] = []
        self._tokens = float(RATE_LIMIT)
        self._last: float | None = None

    def deliver(self, msg: dict[str, Any]) -> None:
        """Queue one message for the client (never blocks)."""
        self.sent.append(msg)

    def close(self, code: int, reason: str) -> None:
        """Close the transport with a WebSocket close code (:class:`CloseCode`) and its reason."""
        self.closed_with = (int(code), reason)

    def close_with(self, code: CloseCode, reason: str | None = None) -> None:
        """Close with ``code`` and its :attr:`~CloseCode.reason` (or ``reason``)."""
        self.close(code, code.reason if reason is None else reason)

    def refuse(self, error: Exception, seq: int | None = None) -> dict[str, Any]:
        """Deliver the ``error`` message of a refusal in the connection's language
        (:func:`~ramsli.server.protocol.messages.error_frame`, which builds the whole frame: a
        dropped intent's ``action`` and ``intent_seq`` too); ``seq`` is the table's current ``seq``.
        Returns the message as delivered."""
        reader = self.seat.index if self.seat is not None else None
        msg = error_frame(error, self.lang, seq=seq, reader=reader)
        if self.metrics is not None:
            self.metrics.refused(msg["refusal"]["code"], "ws")
        self.deliver(msg)
        return msg

    def reconnect(self, reason: str, after_ms: int = 500) -> None:
        """Tell the client to connect again (``{"type": "reconnect", "reason", "after_ms"}``, then
        close code :attr:`CloseCode.RECONNECT`): the table goes on in another process, or here
        after a restart. ``reason``: ``draining``, ``moved``."""
        self.deliver({"type": "reconnect", "reason": reason, "after_ms": after_ms})
        self.close(CloseCode.RECONNECT, reason)

    def flooding(self, now: float) -> bool:
        """True if this message is over the limit: a token bucket of :data:`RATE_LIMIT` messages,
        refilled at :data:`RATE_LIMIT` a second (``now`` in seconds, monotonic). A burst of up to
        :data:`RATE_LIMIT` messages passes at once; after that one message per 1/RATE_LIMIT s.

        >>> c = Connection()
        >>> [c.flooding(0.0) for _ in range(RATE_LIMIT)].count(False), c.flooding(0.0)
        (20, True)
        """
        if self._last is not None:
            self._tokens = min(float(RATE_LIMIT), self._tokens + max(0.0, now - self._last) * RATE_LIMIT)
        self._last = now
        if self._tokens < 1.0:
            return True
        self._tokens -= 1.0
        return False


class WebSocketConnection(Connection):
    """A :class:`Connection` over a Starlette WebSocket, with its own writer task.

    Messages are queued and written in order by one task, so a slow client never blocks a
    table; a client more than :data:`QUEUE_LIMIT` messages behind is closed
    (:attr:`CloseCode.TOO_SLOW`). Until its ``hello`` names a language, its messages are in
    ``lang`` (the handshake's ``?lang=``, else ``Accept-Language``).
    """

    def __init__(self, ws: WebSocket, lang: str, metrics: Metrics | None = None) -> None:
        super().__init__(lang, metrics)
        self.ws = ws
        self.queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=QUEUE_LIMIT)
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def deliver(self, msg: dict[str, Any]) -> None:
        if self.closed_with is not None:  # closing: nothing more is sent
            return
        try:
            self.queue.put_nowait(json.dumps(msg, separators=(",", ":")))
        except asyncio.QueueFull:
            self.close_with(CloseCode.TOO_SLOW)

    def close(self, code: int, reason: str) -> None:
        """Queue the close frame after what is queued; a client too slow to read what is queued
        (the queue full) loses it, is closed next, and its seat is away at once (its grace
        period starts now, not when the client next writes)."""
        if self.closed_with is not None:
            return
        self.closed_with = (int(code), reason)
        if self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(("close", int(code), reason))
        if int(code) == CloseCode.TOO_SLOW and self.table is not None:
            # after the broadcast that found the queue full, not inside it
            asyncio.get_running_loop().call_soon(self.table.detach, self.seat, self)

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
