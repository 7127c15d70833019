"""The server's path prefix: ``ramsli serve --path-prefix /ramsli`` behind a proxy.

:class:`PathPrefix` (an ASGI middleware, the app's outermost) serves the app under the prefix,
whether the proxy strips the prefix or passes it on: every path is seen as ``/ramsli/...`` with
``root_path`` ``/ramsli`` (the ASGI convention Starlette routes by), and the pages build their
links, static files and WebSocket address from :func:`current_prefix`. ``/ramsli`` itself
redirects to ``/ramsli/``.

>>> normalize_prefix("ramsli/"), normalize_prefix("/"), normalize_prefix("/a/b")
('/ramsli', '', '/a/b')
"""

from __future__ import annotations

import contextvars
from typing import Any

from starlette.responses import Response

__all__ = ["PathPrefix", "current_prefix", "normalize_prefix"]

_PREFIX: contextvars.ContextVar[str] = contextvars.ContextVar("ramsli_prefix", default="")


def current_prefix() -> str:
    """The path prefix of the request being answered (``""`` or e.g. ``/ramsli``, no trailing slash)."""
    return _PREFIX.get()


def normalize_prefix(prefix: str | None) -> str:
    """``/name`` without a trailing slash, or ``""`` for none."""
    p = (prefix or "").strip().strip("/")
    return f"/{p}" if p else ""


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
