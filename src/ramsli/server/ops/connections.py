"""Slow and greedy clients, below the app: HTTP/1.1 connections of ``ramsli serve`` (issue 38.9).

uvicorn's h11 protocol (:func:`guarded_h11`, ``uvicorn.Config(http=...)``) with three limits
(:class:`ConnectionLimits`; ``docs/deploy.md``, *Opened to a pub's network without a proxy*):

- **the request head**: a connection must send a whole request line and headers within
  ``header_seconds`` of its first byte (of its opening, for the first request); otherwise it is
  answered ``408`` and closed. uvicorn itself has no such time-out: half a request head kept a
  connection open for as long as the client liked (a few hundred such connections hold every
  file descriptor);
- **idle connections**: between two requests a keep-alive connection stays open
  ``idle_seconds`` (uvicorn's ``timeout_keep_alive``, set by ``ramsli serve``);
- **open connections per address**: at most ``per_address`` connections (WebSockets included)
  from one client address at once; a request on one more is answered ``429 too_many_connections``
  with ``Retry-After`` and ``Connection: close`` (in the request's language, every security
  header; a WebSocket handshake gets a plain ``429``). Not limited: this machine itself
  (:data:`THIS_MACHINE`: a reverse proxy on the same machine, the operator's own tools and
  benchmarks), the trusted proxies (``--trusted-proxy``: every client arrives from them) and
  requests relayed by another ramsli process of the cluster (its forwarding secret).

The counts live in one :class:`ConnectionLimits` per server; the limits hold on the event loop's
thread only (asyncio protocols), so no lock is needed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ramsli.refusal import Refusal
from ramsli.server.cluster.proxy import FORWARD_HEADER
from ramsli.server.ops.guards import SecurityHeaders, _refuse

__all__ = [
    "ConnectionLimits",
    "guarded_h11",
    "HEADER_SECONDS",
    "IDLE_SECONDS",
    "PER_ADDRESS",
    "RETRY_SECONDS",
    "THIS_MACHINE",
]

#: seconds a client has to send a whole request head (``ramsli serve --header-timeout``)
HEADER_SECONDS = 10.0
#: seconds a keep-alive connection stays open between two requests (``--idle-timeout``)
IDLE_SECONDS = 5.0
#: open connections at once from one client address (``--max-connections-per-address``): a
#: browser holds a table's WebSocket and up to six HTTP connections; a pub's guests behind one
#: address of a router (NAT) share it
PER_ADDRESS = 100
#: the addresses never limited: this machine (a reverse proxy beside the server connects from it)
THIS_MACHINE = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
#: ``Retry-After`` of a refused connection, seconds
RETRY_SECONDS = 10

_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_WS_REFUSED = b"HTTP/1.1 429 Too Many Requests\r\ncontent-length: 0\r\nretry-after: %d\r\nconnection: close\r\n\r\n"
_FORWARD = FORWARD_HEADER.encode()


class ConnectionLimits:
    """The connection limits of one server and its open connections per address.

    Args:
        header_seconds: seconds to send a whole request head (> 0).
        per_address: open connections per client address (0: no limit).
        exempt: addresses or networks not limited besides :data:`THIS_MACHINE` (the trusted
            proxies; ``*`` for all).
        secret: ``() -> str | None``, the cluster's forwarding secret (a request carrying it is a
            peer process relaying its clients: not limited).

    Raises:
        ValueError: for a time-out not above 0 or a negative limit.

    >>> lim = ConnectionLimits(per_address=2, exempt=["10.0.0.0/8"])
    >>> [lim.admit("203.0.113.7") for _ in range(3)], lim.open
    ([True, True, False], {'203.0.113.7': 2})
    >>> lim.release("203.0.113.7"); lim.admit("203.0.113.7")
    True
    >>> lim.limited("10.1.2.3"), lim.limited("127.0.0.1"), lim.limited("203.0.113.7")
    (False, False, True)
    """

    def __init__(
        self,
        header_seconds: float = HEADER_SECONDS,
        per_address: int = PER_ADDRESS,
        exempt: Sequence[str] = (),
        secret: Callable[[], str | None] | None = None,
    ) -> None:
        if not header_seconds > 0:
            raise ValueError(f"the header time-out must be above 0 seconds, not {header_seconds}")
        if per_address < 0:
            raise ValueError(f"the connections per address must be 0 (no limit) or more, not {per_address}")
        self.header_seconds = header_seconds
        self.per_address = per_address
        self.everyone = any(e.strip() == "*" for e in exempt)
        self.exempt: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.named: set[str] = set()  # a trusted "address" that is no IP (a Unix socket's name)
        for e in (x.strip() for x in exempt):
            if e and e != "*":
                try:
                    self.exempt.append(ipaddress.ip_network(e, strict=False))
                except ValueError:
                    self.named.add(e)
        self.secret = secret or (lambda: None)
        #: address -> its connections open now (those let in: a refused one is not counted)
        self.open: dict[str, int] = {}

    def limited(self, address: str) -> bool:
        """Whether connections from ``address`` are counted against :attr:`per_address`."""
        if self.per_address <= 0 or self.everyone or address in THIS_MACHINE or address in self.named:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True  # (a Unix socket, say: one count for all)
        return not any(ip in net for net in self.exempt)

    def admit(self, address: str) -> bool:
        """Count one more connection from ``address`` if it is under the limit (True), else False."""
        n = self.open.get(address, 0)
        if n >= self.per_address:
            return False
        self.open[address] = n + 1
        return True

    def release(self, address: str) -> None:
        """One connection from ``address`` closed."""
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)

    def relayed(self, headers: Sequence[tuple[bytes, bytes]]) -> bool:
        """Whether a request head carries the cluster's forwarding secret (a peer process relays it)."""
        secret = self.secret()
        given = next((v for k, v in headers if k.lower() == _FORWARD), None)
        if not secret or given is None:
            return False
        return secrets.compare_digest(given, secret.encode())


def _over_limit(app: Any, limits: ConnectionLimits) -> Any:
    """The app of a connection over the limit: a request a peer process relays goes on to ``app``;
    any other is refused ``429 too_many_connections`` and the connection closed."""

    async def refuse(scope: Any, receive: Any, send: Any) -> None:
        refusal = Refusal("too_many_connections", None, {"limit": limits.per_address, "seconds": RETRY_SECONDS})
        extra = [(b"retry-after", str(RETRY_SECONDS).encode()), (b"connection", b"close")]
        await _refuse(scope, send, refusal, extra)

    refusing = SecurityHeaders(refuse)

    async def over(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not limits.relayed(scope["headers"]):
            await refusing(scope, receive, send)
        else:
            await app(scope, receive, send)

    return over


def guarded_h11(limits: ConnectionLimits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the request-head time-out and the per-address limit of
    ``limits`` (see the module's notes): ``uvicorn.Config(app, http=guarded_h11(limits), ...)``;
    the WebSockets it upgrades to stay counted until they close."""

    class Guarded(H11Protocol):
        _counted: str | None = None
        _over = False
        _head_timer: asyncio.TimerHandle | None = None

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            ws = self.ws_protocol_class
            if ws is not None:
                self.ws_protocol_class = _counted_ws(ws, limits)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "unknown"
            if limits.limited(address):
                if limits.admit(address):
                    self._counted = address
                else:
                    self._over = True  # refused at its first request (unless a peer relays it)
                    self.app = _over_limit(self.app, limits)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted is not None:
                limits.release(self._counted)
                self._counted = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.is_closing():
                self._disarm()
            elif self.conn.their_state is h11.IDLE:
                self._arm()  # a request head has begun (or is awaited): its time runs
            else:
                self._disarm()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            if self._over and not limits.relayed(self.headers):
                self.transport.write(_WS_REFUSED % RETRY_SECONDS)
                self.transport.close()
                return
            address, self._counted = self._counted, None  # handed to the WebSocket
            super().handle_websocket_upgrade(event)
            protocol = self.transport.get_protocol()
            if address is not None:
                if isinstance(protocol, _CountedWS):
                    protocol.counted = address
                else:  # (no WebSocket class of ours: never left counted)
                    limits.release(address)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
                self._arm()  # a pipelined request head is partly here

        def _arm(self) -> None:
            if self._head_timer is None and not self.transport.is_closing():
                self._head_timer = self.loop.call_later(limits.header_seconds, self._head_timeout)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timeout(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                if self.cycle is None or self.cycle.response_complete:
                    self.transport.write(_TIMEOUT)
                self.transport.close()

    return Guarded


class _CountedWS:
    """Marker of the WebSocket protocols made by :func:`_counted_ws`."""

    counted: str | None = None


def _counted_ws(base: type[asyncio.Protocol], limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's WebSocket protocol) releasing its address's count when it closes, and
    refusing a handshake over the limit that was not counted."""

    def connection_lost(self: Any, exc: Exception | None) -> None:
        if self.counted is not None:
            limits.release(self.counted)
            self.counted = None
        base.connection_lost(self, exc)

    return type(f"Counted{base.__name__}", (_CountedWS, base), {"connection_lost": connection_lost})
