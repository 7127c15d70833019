"""The table server of ``ramsli serve``: friends at one table from their browsers, and the pub ledger.

A front end of the engine: it holds no rules. Where each thing is made:

- :mod:`ramsli.server.table`: one table: seats, tokens, the events that change it, replay;
- :mod:`ramsli.server.views`: what each seat is sent (every field of a ``view``);
- :mod:`ramsli.server.bot_driver`: every bot move (bots, proxies for away players, turn timers)
  and the next deal;
- :mod:`ramsli.server.hints`: the "should I stay in?" hint;
- :mod:`ramsli.server.schemas`: the shape of every message read (one Pydantic model each);
- :mod:`ramsli.server.messages`: every refusal's text and the error answers, in en, de, nl, it;
- :mod:`ramsli.server.hub`: every table and every WebSocket message;
- :mod:`ramsli.server.app`: the FastAPI app: the tables' HTTP API and one WebSocket per seat;
- :mod:`ramsli.server.pages`: the browser table's pages, files and catalogs;
- :mod:`ramsli.server.ledger`: the pub ledger's API and pages;
- :mod:`ramsli.server.storage`: the database (tables and their event logs).

The protocol is ``docs/protocol.md``; running and guarantees are ``docs/server.md``.
Importing this package imports no web framework (the bot worker processes import
:mod:`ramsli.server.bot_driver` only).
"""
