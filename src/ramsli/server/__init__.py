"""The table server of ``ramsli serve``: friends at one table from their browsers, and the pub ledger.

A front end of the engine: it holds no rules. Where each thing is made:

- :mod:`ramsli.server.tables.table`: one table: seats, tokens, the events that change it, replay;
- :mod:`ramsli.server.tables.views`: what each seat is sent (every field of a ``view``);
- :mod:`ramsli.server.tables.bot_driver`: every bot move (bots, proxies for away players, turn timers)
  and the next deal;
- :mod:`ramsli.server.coach.hints`: the "should I stay in?" hint;
- :mod:`ramsli.server.protocol.schemas`: the shape of every message read (one Pydantic model each);
- :mod:`ramsli.server.protocol.messages`: every refusal's text and the error answers, in en, de, nl, it;
- :mod:`ramsli.server.tables.hub`: every table of the process (the registry);
- :mod:`ramsli.server.tables.dispatch`: every WebSocket message, checked, applied and answered;
- :mod:`ramsli.server.tables.routes`: the tables' HTTP API and one WebSocket per seat;
- :mod:`ramsli.server.app`: the FastAPI app, which wires the routes, middlewares and services;
- :mod:`ramsli.server.web.pages`: the browser table's pages, files and catalogs;
- :mod:`ramsli.server.ledger.books`: the pub ledger's API and pages;
- :mod:`ramsli.server.storage.eventstore`: the database (tables and their event logs).

The protocol is ``docs/protocol.md``; running and guarantees are ``docs/server.md``.
Importing this package imports no web framework (the bot worker processes import
:mod:`ramsli.server.tables.bot_driver` only).
"""
