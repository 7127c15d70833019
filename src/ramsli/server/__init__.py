"""The table server of ``ramsli serve`` (issue 10): friends at one table from their browsers.

A front end of the engine: it holds no rules. Modules:
:mod:`ramsli.server.storage` (SQLAlchemy + Alembic: tables and their event logs),
:mod:`ramsli.server.table` (one table: seats, tokens, the engine's session, per-seat views, bots),
:mod:`ramsli.server.hub` (every table and every client message; hostile input refused there),
:mod:`ramsli.server.messages` (error texts in en, de, nl, it) and
:mod:`ramsli.server.app` (the FastAPI app: HTTP endpoints and one WebSocket per seat).
The protocol is ``docs/protocol.md``; running and guarantees are ``docs/server.md``.
Importing this package imports no web framework (the bot worker processes import
:mod:`ramsli.server.table` only).
"""
