"""The server's path prefix: ``ramsli serve --path-prefix /ramsli`` behind a proxy.

:class:`PathPrefix` (an ASGI middleware, the app's outermost) serves the app under the prefix,
whether the proxy strips the prefix or passes it on: every path is seen as ``/ramsli/...`` with
``root_path`` ``/ramsli`` (the ASGI convention Starlette routes by), and the pages build their
links, static files and WebSocket address from :func:`current_prefix`. ``/ramsli`` itself
redirects to ``/ramsli/``.

A guard that looks at a request before the routes do (the CSRF guard, the create limit, the
access log) asks :func:`route_of` which route the request is for, never compares the raw path:
under a prefix the raw path is ``/ramsli/api/login``, and the guard must see ``/api/login``
(issue 38.3).

>>> normalize_prefix("ramsli/"), normalize_prefix("/"), normalize_prefix("/a/b")
('/ramsli', '', '/a/b')
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Iterator
from typing import Any

from starlette._utils import get_route_path
from starlette.responses import Response
from starlette.routing import WebSocketRoute, compile_path

__all__ = ["PathPrefix", "current_prefix", "normalize_prefix", "route_of"]

_PREFIX: contextvars.ContextVar[str] = contextvars.ContextVar("ramsli_prefix", default="")


def current_prefix() -> str:
    """The path prefix of the request being answered (``""`` or e.g. ``/ramsli``, no trailing slash)."""
    return _PREFIX.get()


def normalize_prefix(prefix: str | None) -> str:
    """``/name`` without a trailing slash, or ``""`` for none."""
    p = (prefix or "").strip().strip("/")
    return f"/{p}" if p else ""


def route_of(scope: Any) -> str | None:
    """The path template of the app's route a request or WebSocket ``scope`` is for (``/api/login``,
    ``/l/{ledger_id}/{token}``), matched as the router matches it: the path after the prefix
    (``root_path``), whatever the prefix, against each route's pattern. None if no route takes
    the path (or before the app set ``scope["app"]``). A route that takes the path but not the
    method counts too (the router answers it ``405``)."""
    app = scope.get("app")
    routes = getattr(getattr(app, "router", None), "routes", None) or []
    path = get_route_path(scope)
    kind = "websocket" if scope.get("type") == "websocket" else "http"
    partial: str | None = None
    for template, pattern, methods in _leaves(routes, ""):
        if (methods is None) != (kind == "websocket") or not pattern.match(path):
            continue
        if methods is None or scope.get("method") in methods:
            return template
        partial = partial or template
    return partial


def _leaves(routes: Any, head: str) -> Iterator[tuple[str, re.Pattern[str], set[str] | None]]:
    """(path template, compiled pattern, methods or None for a WebSocket) of every route in
    ``routes``, the routes of included routers too (FastAPI keeps an included router as one entry)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            context = getattr(route, "include_context", None)
            yield from _leaves(inner.routes, head + (getattr(context, "prefix", "") or ""))
            continue
        template = getattr(route, "path", None)
        if not isinstance(template, str) or getattr(route, "path_regex", None) is None:
            continue
        pattern: re.Pattern[str] = compile_path(head + template)[0] if head else route.path_regex
        methods: set[str] = set(getattr(route, "methods", None) or ())
        yield head + template, pattern, (None if isinstance(route, WebSocketRoute) else methods)


class PathPrefix:
    """Serve the app under ``prefix`` (see the module's notes)."""

    def __init__(self, app: Any, prefix: str = "") -> None:
        self.app = app
        self.prefix = normalize_prefix(prefix)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        token = _PREFIX.set(self.prefix)
        try:
            if self.prefix:
                path = scope["path"]
                if scope["type"] == "http" and path == self.prefix:
                    qs = scope.get("query_string", b"").decode("latin-1")
                    target = self.prefix + "/" + (f"?{qs}" if qs else "")
                    await Response(status_code=308, headers={"Location": target})(scope, receive, send)
                    return
                if not (path == self.prefix or path.startswith(self.prefix + "/")):
                    path = self.prefix + path  # the proxy stripped it
                scope = dict(scope, path=path, raw_path=path.encode(), root_path=self.prefix)
            await self.app(scope, receive, send)
        finally:
            _PREFIX.reset(token)
