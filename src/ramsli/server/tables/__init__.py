"""The card tables: the registry, one table and its events, the views, the bots, the lobby.

Where a table's things are made: :mod:`~ramsli.server.tables.table` (seats, the events that change
a table, replay), :mod:`~ramsli.server.tables.views` (what each seat is sent, built from
``observe()`` only: R7, D-16), :mod:`~ramsli.server.tables.bot_driver` (every bot move and the
next deal), :mod:`~ramsli.server.tables.hub` (the registry of every table and its driver),
:mod:`~ramsli.server.tables.dispatch` (every WebSocket message: read, checked, applied, answered),
:mod:`~ramsli.server.tables.connection` (one client connection), :mod:`~ramsli.server.tables.results`
(what the calls return), :mod:`~ramsli.server.tables.routes` (the HTTP routes and the WebSocket),
:mod:`~ramsli.server.tables.social` (chat, leave, take over, "Play again") and
:mod:`~ramsli.server.tables.lobby` (open tables, quick play). The tables hold no rules: legality,
settlement and session ends come from the engine.
"""
