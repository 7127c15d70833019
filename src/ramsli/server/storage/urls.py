"""Database URLs as they may be shown: the password is never printed or logged (issue 37.4).

A URL such as ``postgresql+asyncpg://ramsli:PASSWORD@db:5432/ramsli`` carries its password; every
message that names the database (``ramsli serve``'s banner and refusals, ``ramsli backup``, the
store's errors, the server's log lines) shows it through :func:`masked`, and the CLI's error lines
and the server's log handler pass their whole text through :func:`scrub` as a last net.

>>> masked("postgresql+asyncpg://ramsli:s3cr%40t@db:5432/ramsli")
'postgresql+asyncpg://ramsli:***@db:5432/ramsli'
>>> masked("postgresql+asyncpg://ramsli@127.0.0.1/ramsli?password=s3cret&ssl=require")
'postgresql+asyncpg://ramsli@127.0.0.1/ramsli?password=***&ssl=require'
>>> masked("sqlite+aiosqlite:////var/lib/ramsli/server.sqlite")
'sqlite+aiosqlite:////var/lib/ramsli/server.sqlite'
>>> scrub("cannot open database 'postgres://u:pw@h/d': refused")
"cannot open database 'postgres://u:***@h/d': refused"
"""

from __future__ import annotations

import logging
import re

__all__ = ["masked", "scrub", "MASK", "ScrubbingFormatter"]

#: what stands in for a password
MASK = "***"

# scheme://user:password@  (the password: anything up to the last @ before the host, no spaces or quotes)
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@'\"]*:)(?P<pw>[^\s'\"]*)(?P<at>@)")
# ?password=… or &password=… in a query (libpq and asyncpg take it there too)
_QUERY = re.compile(r"(?P<head>[?&](?:password|passwd|pwd)=)(?P<pw>[^&\s'\"#]*)", re.IGNORECASE)


def scrub(text: str) -> str:
    """``text`` with the password of every URL in it replaced by :data:`MASK` (the user part
    ``scheme://user:PASSWORD@`` and a ``password=`` query parameter); anything else unchanged."""
    if "://" not in text and "password" not in text.lower() and "pwd" not in text.lower():
        return text
    text = _USERINFO.sub(lambda m: m["head"] + MASK + m["at"], text)
    return _QUERY.sub(lambda m: m["head"] + MASK, text)


def masked(url: str) -> str:
    """``url`` to show to a person or a log: its password (if any) replaced by :data:`MASK`."""
    return scrub(url)


class ScrubbingFormatter(logging.Formatter):
    """A formatter that passes every formatted record (message, arguments and traceback) of the
    one it wraps through :func:`scrub`: no log line of the server carries a database password."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return scrub(self.inner.format(record))
