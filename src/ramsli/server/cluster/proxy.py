"""Behind a reverse proxy, and beside other server processes: prefixes, proxy headers, forwarding.

Two ASGI middlewares of the app (:func:`ramsli.server.app.create_app` puts them in order; the
path prefix is :mod:`ramsli.server.cluster.prefix`):

- :class:`ClientAddress`: the client's address and scheme from ``X-Forwarded-For`` and
  ``X-Forwarded-Proto``, but only from a trusted proxy (``--trusted-proxy``, addresses or
  networks; uvicorn's :class:`~uvicorn.middleware.proxy_headers.ProxyHeadersMiddleware` does
  the parsing), or from a peer process that proves itself with the cluster's forwarding secret
  (``X-Ramsli-Forward``). Anyone else's such headers are ignored.
- :class:`Forwarder`: with several processes on one PostgreSQL database, a request or
  WebSocket for a table (or ledger) another process runs is relayed to that process
  (:meth:`~ramsli.server.tables.hub.Hub.locate`); the client never notices. If nobody can run it this
  moment (its process just died and nobody has claimed it yet), an HTTP request gets ``503
  moved`` with ``Retry-After: 1`` and a WebSocket a ``reconnect`` message and close code 1012
  (:attr:`~ramsli.server.protocol.closecodes.CloseCode.RECONNECT`);
  the browser table reconnects by itself.

:class:`Peers` is what the forwarding and :func:`gather_from_peers` (a route asking every live
process) share: one HTTP client to the other processes and the WebSockets relayed now. The app
makes it at wiring time; a route takes it through :func:`ramsli.server.deps.peers`.

Also :func:`set_cookie`: a cookie built from the prefix (its ``Path``) and the scheme the client
used (``Secure`` behind TLS).

>>> resource_of("/t/k3Xb9q/s/TOKEN", ""), resource_of("/api/tables", ""), resource_of("/how-to-play", "table=k3")
('k3Xb9q', None, 'k3')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import httpx
from starlette._utils import get_route_path
from starlette.requests import Request
from starlette.responses import Response
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from ramsli.refusal import Refusal, Refused
from ramsli.server.cluster.prefix import current_prefix
from ramsli.server.protocol.closecodes import CloseCode
from ramsli.server.protocol.lang import page_lang
from ramsli.server.protocol.messages import error_body

__all__ = [
    "ClientAddress",
    "Forwarder",
    "Peers",
    "resource_of",
    "set_cookie",
    "client_ip",
    "FORWARD_HEADER",
    "gather_from_peers",
    "post_to_peer",
]

#: the header a process sends with the cluster's secret when it relays a request to a peer
FORWARD_HEADER = "x-ramsli-forward"
_FORWARD = FORWARD_HEADER.encode()
_HOP = {
    b"connection",
    b"keep-alive",
    b"proxy-authenticate",
    b"proxy-authorization",
    b"te",
    b"trailers",
    b"transfer-encoding",
    b"upgrade",
    b"host",
    b"content-length",
    _FORWARD,
    b"x-forwarded-for",
    b"x-forwarded-proto",
}

_log = logging.getLogger("ramsli.server")

#: path patterns naming one table or ledger (its id is the first group)
_RESOURCES = [
    re.compile(r"^/api/tables/([^/]+)"),
    re.compile(r"^/api/ledgers/([^/]+)"),
    re.compile(r"^/t/([^/]+)/"),
    re.compile(r"^/l/([^/]+)/"),
    re.compile(r"^/ws/([^/]+)$"),
]


def resource_of(path: str, query: str) -> str | None:
    """The table or ledger id a request path (without the prefix) is about, or None."""
    for pattern in _RESOURCES:
        m = pattern.match(path)
        if m:
            return m.group(1)
    if path == "/how-to-play" and query:
        table = parse_qs(query).get("table")
        if table and table[0]:
            return table[0]
    return None


def client_ip(scope: Any) -> str:
    """The client's address as the app sees it (after :class:`ClientAddress`), or ``"unknown"``."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class ClientAddress:
    """The client's address and scheme (see the module's notes). ``secret()`` returns the
    cluster's forwarding secret, or None with one process."""

    def __init__(self, app: Any, trusted: list[str] | None = None, secret: Any = None) -> None:
        self.app = app
        self.secret = secret or (lambda: None)
        self.trusted = [t.strip() for t in (trusted or []) if t.strip()]
        self.proxied = ProxyHeadersMiddleware(app, trusted_hosts=self.trusted) if self.trusted else None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == _FORWARD), None)
        if given is not None:
            headers = [(k, v) for k, v in scope["headers"] if k != _FORWARD]
            secret = self.secret()
            if secret and secrets.compare_digest(given, secret.encode()):  # a peer process relays it
                values = dict(headers)
                scope = dict(scope, headers=headers)
                scope["ramsli.forwarded"] = True
                forwarded_for = values.get(b"x-forwarded-for", b"").decode("latin-1").split(",")[-1].strip()
                if forwarded_for:
                    scope["client"] = (forwarded_for, 0)
                proto = values.get(b"x-forwarded-proto", b"").decode("latin-1").strip()
                if proto in ("http", "https"):
                    scope["scheme"] = proto.replace("http", "ws") if scope["type"] == "websocket" else proto
                await self.app(scope, receive, send)
                return
            scope = dict(scope, headers=headers)  # a forged one is dropped
        if self.proxied is not None:
            await self.proxied(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def set_cookie(
    response: Response, request: Request, name: str, value: str, max_age: int | None = None, http_only: bool = True
) -> None:
    """Set a cookie the way this server sets every cookie: ``Path`` the prefix (``/ramsli/`` or
    ``/``), ``SameSite=Lax``, ``HttpOnly`` unless ``http_only`` is false, and ``Secure`` when the
    client came over TLS (``https``, as the trusted proxy says)."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=(current_prefix() or "") + "/",
        secure=request.url.scheme == "https",
        httponly=http_only,
        samesite="lax",
    )


class Peers:
    """How this process reaches the other processes of a cluster (see the module's notes).

    Args:
        ws_max_size: the largest WebSocket frame a relayed connection takes from the peer (bytes).
        http: the HTTP client to the other processes (default: one made on first use).
    """

    def __init__(self, ws_max_size: int = 65536, http: httpx.AsyncClient | None = None) -> None:
        self.ws_max_size = ws_max_size
        #: WebSockets this process relays to another one now (the metrics count them)
        self.ws_forwarded = 0
        self._http = http

    @property
    def http(self) -> httpx.AsyncClient:
        """The one HTTP client to the other processes (made on first use; closed by :meth:`aclose`)."""
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=15.0)
        return self._http

    async def aclose(self) -> None:
        """Close the HTTP client, if one was made (at shutdown)."""
        if self._http is not None:
            await self._http.aclose()
            self._http = None


class Forwarder:
    """Relay requests for tables another process runs (see the module's notes), an ASGI middleware.

    Args:
        app: the ASGI app it wraps.
        peers: the :class:`Peers` it relays through.
        hub: answers the app's :class:`~ramsli.server.tables.hub.Hub`, or None before its
            start-up (nothing is relayed then).
        metrics: the app's :class:`~ramsli.server.ops.metrics.Metrics` (it counts the relays), or None.
    """

    def __init__(self, app: Any, peers: Peers, hub: Callable[[], Any], metrics: Any = None) -> None:
        self.app = app
        self.peers = peers
        self.hub = hub
        self.metrics = metrics

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        hub = self.hub()
        if scope["type"] not in ("http", "websocket") or hub is None:
            await self.app(scope, receive, send)
            return
        path = get_route_path(scope)
        query = scope.get("query_string", b"").decode("latin-1")
        table_id = resource_of(path, query)
        if table_id is None:
            await self.app(scope, receive, send)
            return
        where, peer = await hub.locate(table_id)  # one process: a finished table is read now
        if where in ("local", "unknown", "closed"):
            await self.app(scope, receive, send)
            return
        if where != "remote" or peer is None or scope.get("ramsli.forwarded"):  # never relayed twice
            await self._retry_later(scope, receive, send)
            return
        if self.metrics is not None:
            self.metrics.forwards.labels(scope["type"][:4]).inc()
        secret = hub.ownership.forward_secret or ""
        url = peer.address.rstrip("/") + path + (f"?{query}" if query else "")
        if scope["type"] == "http":
            ok = await _forward_http(scope, receive, send, url, secret, self.peers)
        else:
            ok = await _forward_ws(scope, receive, send, url, secret, self.peers)
        if not ok:
            hub.forget_owner(table_id)

    async def _retry_later(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            msg = await receive()
            if msg["type"] != "websocket.connect":
                return
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps({"type": "reconnect", "reason": "moved"})})
            await send(
                {"type": "websocket.close", "code": int(CloseCode.RECONNECT), "reason": CloseCode.RECONNECT.reason}
            )
            return
        headers = dict(scope["headers"])
        qs = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        lang = page_lang((qs.get("lang") or [None])[0], headers.get(b"accept-language", b"").decode("latin-1"))
        table_id = resource_of(get_route_path(scope), scope.get("query_string", b"").decode("latin-1")) or ""
        status, body = error_body(Refused(Refusal("moved", None, {"table": table_id[:40]})), lang)
        await Response(
            json.dumps(body), status_code=status, media_type="application/json", headers={"Retry-After": "1"}
        )(scope, receive, send)


def _forward_headers(scope: Any, secret: str) -> list[tuple[bytes, bytes]]:
    headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP and not k.startswith(b"sec-websocket")]
    proto = scope.get("scheme", "http").replace("ws", "http")
    headers += [
        (_FORWARD, secret.encode()),
        (b"x-forwarded-for", client_ip(scope).encode()),
        (b"x-forwarded-proto", proto.encode()),
    ]
    return headers


async def _forward_http(scope: Any, receive: Any, send: Any, url: str, secret: str, peers: Peers) -> bool:
    body = b""
    while True:
        msg = await receive()
        if msg["type"] == "http.disconnect":
            return True
        body += msg.get("body", b"")
        if not msg.get("more_body"):
            break
    try:
        r = await peers.http.request(scope["method"], url, content=body, headers=_forward_headers(scope, secret))
    except httpx.HTTPError as e:
        _log.warning("forwarding %s %s failed: %s", scope["method"], url.split("?")[0], e)
        status, err = error_body(Refused(Refusal("moved", None, {"table": ""})), "en")
        await Response(
            json.dumps(err), status_code=status, media_type="application/json", headers={"Retry-After": "1"}
        )(scope, receive, send)
        return False
    headers = [
        (k.encode("latin-1"), v.encode("latin-1"))
        for k, v in r.headers.multi_items()
        if k.lower().encode() not in _HOP and k.lower() != "content-encoding"
    ]
    content = r.content
    headers.append((b"content-length", str(len(content)).encode()))
    await send({"type": "http.response.start", "status": r.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": content})
    return True


async def _forward_ws(scope: Any, receive: Any, send: Any, url: str, secret: str, peers: Peers) -> bool:
    first = await receive()
    if first["type"] != "websocket.connect":
        return True
    ws_url = "ws" + url[len("http") :] if url.startswith("http") else url
    headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in _forward_headers(scope, secret)]
    try:
        upstream = await connect(
            ws_url,
            additional_headers=headers,
            max_size=peers.ws_max_size,
            open_timeout=5,
            ping_interval=20,
            ping_timeout=20,
        )
    except (OSError, TimeoutError, WebSocketException) as e:
        _log.warning("forwarding a WebSocket to %s failed: %s", ws_url.split("?")[0], e)
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": json.dumps({"type": "reconnect", "reason": "moved"})})
        await send({"type": "websocket.close", "code": int(CloseCode.RECONNECT), "reason": CloseCode.RECONNECT.reason})
        return False
    await send({"type": "websocket.accept"})
    peers.ws_forwarded += 1
    healthy = True

    async def client_to_upstream() -> None:
        while True:
            msg = await receive()
            if msg["type"] == "websocket.receive":
                data = msg.get("text") if msg.get("text") is not None else msg.get("bytes") or b""
                await upstream.send(data)
            elif msg["type"] == "websocket.disconnect":
                await upstream.close()
                return

    async def upstream_to_client() -> None:
        nonlocal healthy
        try:
            async for data in upstream:
                if isinstance(data, str):
                    await send({"type": "websocket.send", "text": data})
                else:
                    await send({"type": "websocket.send", "bytes": data})
        except ConnectionClosed:
            pass
        code = upstream.close_code
        if code is None or code in (1006, 1011, 1001):  # the owner went away: the client comes back
            healthy = code == 1001
            with contextlib.suppress(Exception):
                await send({"type": "websocket.send", "text": json.dumps({"type": "reconnect", "reason": "moved"})})
            code, reason = int(CloseCode.RECONNECT), CloseCode.RECONNECT.reason
        else:
            reason = upstream.close_reason or ""
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": code, "reason": reason})

    tasks = [
        asyncio.get_running_loop().create_task(client_to_upstream()),
        asyncio.get_running_loop().create_task(upstream_to_client()),
    ]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await upstream.close()
        peers.ws_forwarded -= 1
    return healthy


async def gather_from_peers(hub: Any, peers: Peers, path: str, headers: dict[str, str] | None = None) -> list[Any]:
    """``GET path`` on every other live process of ``hub``'s cluster (as a forwarded request,
    through ``peers``' client), each answer's JSON; a peer that does not answer within 5 seconds
    is left out (and logged). One process: ``[]``."""
    if hub is None or hub.ownership.solo:
        return []
    others = await hub.ownership.peers()
    client = peers.http
    sent = dict(headers or {}, **{FORWARD_HEADER: hub.ownership.forward_secret or ""})

    async def one(address: str) -> Any:
        try:
            r = await client.get(address.rstrip("/") + path, headers=sent, timeout=5.0)
            r.raise_for_status()
            return r.json()
        except (httpx.HTTPError, ValueError) as e:
            _log.warning("peer %s did not answer %s: %s", address, path, e)
            return None

    answers = await asyncio.gather(*(one(p.address) for p in others))
    return [a for a in answers if a is not None]


async def post_to_peer(
    scope: Any, peers: Peers, secret: str, address: str, path: str, body: dict[str, Any]
) -> tuple[int, Any] | None:
    """``POST path`` with the JSON ``body`` on the peer at ``address``, on behalf of the client of
    ``scope`` (its cookies, language and address go along, as a forwarded request's do, with the
    cluster's ``secret``): ``(status, the answer's JSON)``, or None if the peer did not answer (or
    not with JSON) within 10 seconds. Quick play joins another process's table this way."""
    headers = [(k, v) for k, v in _forward_headers(scope, secret) if k.lower() != b"content-type"]
    headers.append((b"content-type", b"application/json"))
    try:
        r = await peers.http.post(
            address.rstrip("/") + path, content=json.dumps(body).encode(), headers=headers, timeout=10.0
        )
        return r.status_code, r.json()
    except (httpx.HTTPError, ValueError) as e:
        _log.warning("peer %s did not answer POST %s: %s", address, path.split("?")[0], e)
        return None
