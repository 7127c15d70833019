"""Hardening for the open internet: response headers, request limits, ``HEAD``, request logs.

ASGI middlewares of the app (:func:`ramsli.server.app.create_app` puts them in order):

- :class:`SecurityHeaders`: on every response a Content-Security-Policy (:data:`CSP`: scripts,
  styles, images and connections from this server only, no inline script or style, no frames),
  ``Referrer-Policy: no-referrer`` (tokens are in the links), ``X-Content-Type-Options:
  nosniff``, ``X-Frame-Options: DENY``, and ``Strict-Transport-Security`` when the client came
  over TLS;
- :class:`BodyLimit`: a request body over :data:`~ramsli.server.protocol.schemas.MAX_BODY` bytes is
  refused on every route (``422 bad_message`` / ``body_too_big``, the same answer as the
  capped reader's), by its ``Content-Length`` before a byte is read, and a body without one
  (chunked) is read first and refused as soon as it passes the limit, before the route runs; a
  body that does not come whole within ``seconds`` is answered ``408 body_slow``;
- :class:`HeadAsGet`: ``HEAD`` is answered wherever ``GET`` is, with the ``GET``'s status and
  headers and no body (uptime monitors send ``HEAD /``);
- :class:`CreateLimit`: each client address (after the trusted proxy's headers) may create at
  most ``limit`` tables and ledgers a minute (a token bucket: a burst of ``limit``, then one every
  ``60/limit`` s); over it, ``429 too_many_new`` with ``Retry-After``;
- :class:`CoachLimit`: likewise for the coach's routes (the hint, the reviews, the training;
  ``coach_limit`` a minute per address; ``429 coach_flood`` with ``Retry-After``);
- :class:`AccessLog`: one log line per request and WebSocket (method, path with every token
  replaced by ``…``, under a path prefix too, status, milliseconds, client), on the
  ``ramsli.access`` logger.

The guards that pick requests by their path (:class:`CreateLimit`) match the route
(:func:`ramsli.server.cluster.prefix.route_of`), never the raw path.

:func:`configure_logging` sets up the process's logs: plain text, or JSON lines
(``ramsli serve --log-format json``; :class:`JsonFormatter`).

>>> redact("/t/k3Xb9q/s/9f8e7d6c5b4a?lang=de&token=abc")
'/t/k3Xb9q/s/…?lang=de&token=…'
>>> redact("/ramsli/l/Lab/keeper-token", "/ramsli"), redact("/e/Ev/tv?key=k&lang=de")
('/ramsli/l/Lab/…', '/e/Ev/tv?key=…&lang=de')
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import sys
import time
from typing import Any
from urllib.parse import parse_qs

from ramsli.refusal import Refusal, Refused
from ramsli.server.cluster.prefix import route_of
from ramsli.server.cluster.proxy import client_ip
from ramsli.server.protocol.lang import page_lang
from ramsli.server.protocol.messages import BadMessage, error_body
from ramsli.server.protocol.schemas import MAX_BODY
from ramsli.server.storage.urls import ScrubbingFormatter

__all__ = [
    "CSP",
    "SecurityHeaders",
    "BodyLimit",
    "BODY_SECONDS",
    "HeadAsGet",
    "AddressLimit",
    "CreateLimit",
    "CoachLimit",
    "COACH_PATHS",
    "AccessLog",
    "JsonFormatter",
    "configure_logging",
    "redact",
    "CREATE_PATHS",
]

#: the Content-Security-Policy of every response (the pages load only this server's files)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
#: seconds a request body must come whole within (``ramsli serve --header-timeout``: the head's time)
BODY_SECONDS = 10.0
#: (method, path) of the requests that create a table or a ledger (limited per address)
CREATE_PATHS = {
    ("POST", "/api/tables"),
    ("POST", "/api/web/tables"),
    ("POST", "/api/ledgers"),
    ("POST", "/api/quick-play"),  # it may open a new table
    ("POST", "/api/challenge/{week}/deals/{deal}/play"),  # a challenge try's table
    ("POST", "/api/clubs/{club_id}/challenge/{week}/deals/{deal}/play"),
}

#: the coach's routes (limited per address: :class:`CoachLimit`)
COACH_PATHS = re.compile(r"^/api/(?:train/(?:position|answer)|tables/[^/]+/(?:hint|review|hands/[^/]+/review))/?$")

_SECURITY = [
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]
_HSTS = (b"strict-transport-security", b"max-age=31536000")


def _lang(scope: Any) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    accept = dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1")
    return page_lang((query.get("lang") or [None])[0], accept)


async def _refuse(scope: Any, send: Any, refusal: Refusal, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    error = BadMessage(refusal) if refusal.code == "body_too_big" else Refused(refusal)
    status, body = error_body(error, _lang(scope))
    raw = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())] + (extra or [])
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": raw})


class SecurityHeaders:
    """Add the security headers to every HTTP response (replacing any the app set)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = list(_SECURITY) + ([_HSTS] if scope.get("scheme") == "https" else [])
        names = {k for k, _ in added}

        async def sending(msg: Any) -> None:
            if msg["type"] == "http.response.start":
                headers = [(k, v) for k, v in msg.get("headers", []) if k.lower() not in names] + added
                msg = dict(msg, headers=headers)
            await send(msg)

        await self.app(scope, receive, sending)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes on every route, and bodies that do not come whole
    within ``seconds`` (see the module's notes).

    Every body is read here first, before the route runs (bodies are small: none is streamed to a
    route): a ``Content-Length`` over the limit is refused before a byte is read, a body without one
    (``Transfer-Encoding: chunked``) as soon as it passes the limit — ``422 body_too_big`` JSON,
    never a ``500`` — and a body still coming after ``seconds`` is answered ``408 body_slow`` and
    its connection closed (a client that sends a byte now and then holds nothing). A client gone
    before its body came is not answered. A body within the limits is handed to the route as it
    came."""

    def __init__(self, app: Any, limit: int = MAX_BODY, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = Refusal("body_too_big", None, {"limit": self.limit})
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > self.limit:
            await _refuse(scope, send, refusal)
            return
        held: list[Any] = []
        seen = 0
        try:
            async with asyncio.timeout(self.seconds):
                while True:  # at most the limit is read and held
                    msg = await receive()
                    held.append(msg)
                    if msg["type"] == "http.disconnect":
                        return  # the client is gone: nobody to answer
                    if msg["type"] != "http.request":
                        break
                    seen += len(msg.get("body", b""))
                    if seen > self.limit:  # the rest is never read nor held
                        await _refuse(scope, send, refusal)
                        return
                    if not msg.get("more_body", False):
                        break
        except TimeoutError:
            slow = Refusal("body_slow", None, {"seconds": _whole(self.seconds)})
            await _refuse(scope, send, slow, [(b"connection", b"close")])
            return

        async def replaying() -> Any:
            return held.pop(0) if held else await receive()

        await self.app(scope, replaying, send)


def _whole(seconds: float) -> int | float:
    return int(seconds) if float(seconds).is_integer() else seconds


class HeadAsGet:
    """Answer ``HEAD`` as ``GET`` without the body."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def sending(msg: Any) -> None:
            if msg["type"] == "http.response.body":
                msg = {"type": "http.response.body", "body": b"", "more_body": msg.get("more_body", False)}
            await send(msg)

        await self.app(dict(scope, method="GET"), receive, sending)


class AddressLimit:
    """A token bucket per client address (after the trusted proxy's headers): a burst of
    ``limit`` requests, then one every ``60/limit`` s; the requests it counts are those
    :meth:`counts` picks, refused over the limit with ``429`` ``code`` (fields ``limit``,
    ``seconds``) and ``Retry-After``. ``limit`` 0 or less turns it off. Subclasses name the
    requests and the code."""

    code = "too_many_new"

    def __init__(self, app: Any, limit: int = 30) -> None:
        self.app = app
        self.limit = limit
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def counts(self, scope: Any) -> bool:
        """Whether this request is counted (and limited)."""
        raise NotImplementedError

    def allow(self, address: str, now: float) -> float:
        """0.0 if ``address`` may make one more now (and counts it), else the seconds to wait."""
        rate = self.limit / 60.0
        tokens, when = self.buckets.get(address, (float(self.limit), now))
        tokens = min(float(self.limit), tokens + (now - when) * rate)
        if tokens < 1.0:
            self.buckets[address] = (tokens, now)
            return (1.0 - tokens) / rate
        self.buckets[address] = (tokens - 1.0, now)
        if len(self.buckets) > 10000:  # forget the addresses whose bucket is full again
            full = [a for a, (t, w) in self.buckets.items() if t + (now - w) * rate >= self.limit]
            for a in full:
                del self.buckets[a]
        return 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.limit > 0 and self.counts(scope):
            wait = self.allow(client_ip(scope), time.monotonic())
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                refusal = Refusal(self.code, None, {"limit": self.limit, "seconds": seconds})
                await _refuse(scope, send, refusal, [(b"retry-after", str(seconds).encode())])
                return
        await self.app(scope, receive, send)


class CreateLimit(AddressLimit):
    """At most ``limit`` new tables and ledgers a minute per client address (:data:`CREATE_PATHS`;
    see the module's notes); ``429 too_many_new``."""

    code = "too_many_new"

    def counts(self, scope: Any) -> bool:
        return (scope["method"], route_of(scope)) in CREATE_PATHS


class CoachLimit(AddressLimit):
    """At most ``limit`` requests a minute per client address to the coach's routes
    (:data:`COACH_PATHS`: the hint, the reviews, the training), on top of the coach's own bounded
    queues; ``429 coach_flood``. A review page asks again every 0.6 s while a review runs (100 a
    minute), so the default of ``ramsli serve --coach-limit`` (300) leaves room for a few pages."""

    code = "coach_flood"

    def counts(self, scope: Any) -> bool:
        route = route_of(scope)
        return route is not None and COACH_PATHS.match(route) is not None


_TOKEN_AFTER = re.compile(r"(/(?:s|watch|follow|join|invites)/)[^/?#]+")  # seat, spectator, club invite
_LEDGER = re.compile(r"^(/l/[^/]+/)(?!follow/)[^/?#]+")  # the ledger keeper's token
#: a seat's or the creator's token, the key of an evening's TV screen or of a club's calendar
_QUERY_TOKEN = re.compile(r"((?:^|[?&])(?:token|creator_token|key)=)[^&#]*")


def redact(path: str, prefix: str = "") -> str:
    """A request path (with its query) with every token replaced by ``…``: a seat's, a
    spectator's, a ledger keeper's or follower's, a club invite's, and ``?token=``,
    ``?creator_token=``, ``?key=`` (the TV screen's and the calendar's keys). ``prefix`` is the
    server's path prefix (``/ramsli``): the path is read after it, as the routes read it (issue 38.8)."""
    base, _, query = path.partition("?")
    head = ""
    if prefix and (base == prefix or base.startswith(prefix + "/")):
        head, base = prefix, base[len(prefix) :]
    base = _TOKEN_AFTER.sub(r"\1…", base)
    base = head + _LEDGER.sub(r"\1…", base)
    if query:
        query = _QUERY_TOKEN.sub(r"\1…", query)
        return f"{base}?{query}"
    return base


class AccessLog:
    """One ``ramsli.access`` log line per request and per WebSocket (see the module's notes)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.log = logging.getLogger("ramsli.access")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket") or not self.log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0

        async def sending(msg: Any) -> None:
            nonlocal status
            if msg["type"] == "http.response.start":
                status = msg["status"]
            elif msg["type"] == "websocket.accept":
                status = 101
            elif msg["type"] == "websocket.close" and not status:
                status = 403
            await send(msg)

        try:
            await self.app(scope, receive, sending)
        finally:
            qs = scope.get("query_string", b"").decode("latin-1")
            path = redact(scope.get("path", "") + (f"?{qs}" if qs else ""), scope.get("root_path", ""))
            fields = {
                "method": scope.get("method", "WS"),
                "path": path,
                "status": status or 500,
                "ms": round((time.perf_counter() - started) * 1000, 1),
                "client": client_ip(scope),
            }
            self.log.info(
                "%s %s %s %.1f ms", fields["method"], path, fields["status"], fields["ms"], extra={"fields": fields}
            )


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line: ``time`` (ISO 8601, UTC), ``level``, ``logger``,
    ``message``, the record's ``fields`` (a dict given as ``extra={"fields": ...}``) and the
    exception, if any."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update({k: v for k, v in fields.items() if k not in out})
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure_logging(fmt: str = "text", level: int = logging.INFO) -> None:
    """The process's logs on standard error: ``text`` (warnings and errors, as a terminal wants
    them) or ``json`` (one JSON line per record, every request included: :class:`AccessLog`)."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(ScrubbingFormatter(JsonFormatter()))
    else:
        handler.setFormatter(ScrubbingFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s")))
        level = logging.WARNING
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers = []
        lg.propagate = True
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)  # AccessLog writes the requests
