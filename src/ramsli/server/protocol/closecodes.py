"""The WebSocket close codes of ``/ws/{table}`` (``docs/protocol.md``, *The WebSocket*).

One enum for the server, the Python client and the page (sent to the page with its facts, never
copied by hand). Codes 4000–4999 are the application's own (RFC 6455, 7.4.2); 1008 and 1012 are
the standard ones the server uses.

>>> CloseCode.REPLACED.value, CloseCode.REPLACED.reason
(4001, 'replaced')
>>> CloseCode(4003).reason
'bad_token'
>>> sorted(c.reason for c in CloseCode if c.final)
['bad_token', 'no_table', 'replaced']
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["CloseCode"]


class CloseCode(IntEnum):
    """Why the server closed a WebSocket; :attr:`reason` is the close frame's reason text.

    ``final``: the page and :mod:`ramsli.client` do not reconnect after it (the link is not
    valid, or another window took the seat, or the table is closed for good).
    """

    #: no ``hello`` within the time allowed after opening
    NO_HELLO = 4000
    #: a newer connection took this seat (the newer wins)
    REPLACED = 4001
    #: the person left the table (``leave``); a bot plays their seat
    LEFT = 4002
    #: the token is not valid for this table
    BAD_TOKEN = 4003
    #: no such table on this server, or an admin closed it for good
    NO_TABLE = 4004
    #: the client reads too slowly (its queue of frames is full)
    TOO_SLOW = 1008
    #: the table moved to another process or this process stops: reconnect
    RECONNECT = 1012

    @property
    def reason(self) -> str:
        """The close frame's reason: the code's name in lower case (``"bad_token"``), ``"moved"``
        for :attr:`RECONNECT`, ``"too slow"`` for :attr:`TOO_SLOW`, ``"table_closed"`` is
        :attr:`NO_TABLE`'s when an admin closed it (the reason then says which)."""
        return _REASONS.get(self, self.name.lower())

    @property
    def final(self) -> bool:
        """True if a client must not reconnect after this code."""
        return self.value in _FINAL


_REASONS = {CloseCode.TOO_SLOW: "too slow", CloseCode.RECONNECT: "moved"}
#: the codes after which a client does not reconnect: replaced, bad link, no table
_FINAL = frozenset({4001, 4003, 4004})
