"""A client of the table protocol (``docs/protocol.md``): bring your own bot to a remote table.

- :class:`TableClient` (asyncio) and :class:`SyncTableClient` (for scripts): join by an invite
  link, sit, receive every view as a :class:`TableView`, act, reconnect with the seat's token after
  a drop, keep to the server's rate limit, stop cleanly;
- :func:`observation_from_view`: a view as the engine's :class:`~ramsli.hand.Observation`, the
  same object the engine's bots get (R7: it holds no hidden card);
- :func:`play_bot`: a registered bot playing a seat until the session ends (``ramsli bot URL``);
- :class:`ClientRefused`: the server's refusal, with its record; :class:`ConnectionLost`.
"""

from ramsli.client.bot import BotRun, default_name, guarded_bot, play_bot
from ramsli.client.core import (
    FATAL_CODES,
    RATE_LIMIT,
    ClientRefused,
    ConnectionLost,
    Invite,
    SyncTableClient,
    TableClient,
    TableView,
    TokenBucket,
    error_code,
)
from ramsli.client.observation import ViewError, observation_from_view, settlement_from_record

__all__ = [
    "FATAL_CODES",
    "error_code",
    "RATE_LIMIT",
    "BotRun",
    "ClientRefused",
    "ConnectionLost",
    "Invite",
    "SyncTableClient",
    "TableClient",
    "TableView",
    "TokenBucket",
    "ViewError",
    "default_name",
    "guarded_bot",
    "observation_from_view",
    "play_bot",
    "settlement_from_record",
]
