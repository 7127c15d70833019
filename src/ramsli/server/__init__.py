"""The table server of ``ramsli serve``: friends at one table from their browsers, and the pub ledger.

A front end of the engine: it holds no rules. Its sub-packages, lowest first (an import never
points up: ``tests/test_layering.py``), and where each thing is made:

- :mod:`ramsli.server.protocol`: what is read and answered: the shape of every message
  (:mod:`~ramsli.server.protocol.schemas`), every refusal's text and the error answers
  (:mod:`~ramsli.server.protocol.messages`), the close codes
  (:mod:`~ramsli.server.protocol.closecodes`), the language of a request
  (:mod:`~ramsli.server.protocol.lang`);
- :mod:`ramsli.server.storage`: the database: tables and their event logs
  (:mod:`~ramsli.server.storage.eventstore`), the rows of players and clubs
  (:mod:`~ramsli.server.storage.directory`), the migrations;
- :mod:`ramsli.server.cluster`: which process runs which table
  (:mod:`~ramsli.server.cluster.ownership`), forwarding to it (:mod:`~ramsli.server.cluster.proxy`),
  the reverse proxy's path prefix (:mod:`~ramsli.server.cluster.prefix`);
- :mod:`ramsli.server.ops`: health, readiness and the admin's routes
  (:mod:`~ramsli.server.ops.routes`), metrics (:mod:`~ramsli.server.ops.metrics`), guards
  (:mod:`~ramsli.server.ops.guards`);
- :mod:`ramsli.server.players`: accounts and logins (:mod:`~ramsli.server.players.accounts`, routes
  in :mod:`~ramsli.server.players.routes`), session records (:mod:`~ramsli.server.players.records`),
  ratings (:mod:`~ramsli.server.players.ratings`);
- :mod:`ramsli.server.tables`: every table of the process (:mod:`~ramsli.server.tables.hub`), one
  table and its seats (:mod:`~ramsli.server.tables.table`), its stored events as typed records
  (:mod:`~ramsli.server.tables.events`), what each seat is sent (:mod:`~ramsli.server.tables.views`),
  every bot move (:mod:`~ramsli.server.tables.bot_driver`), every WebSocket message checked, applied
  and answered (:mod:`~ramsli.server.tables.dispatch`, over a
  :class:`~ramsli.server.tables.connection.Connection`), the typed results of the tables' calls
  (:mod:`~ramsli.server.tables.results`), chat and "Play again" (:mod:`~ramsli.server.tables.social`),
  open tables and quick play (:mod:`~ramsli.server.tables.lobby`), the HTTP routes and the
  WebSocket (:mod:`~ramsli.server.tables.routes`);
- :mod:`ramsli.server.web`: the shell of every page (:mod:`~ramsli.server.web.shell`), the facts the
  pages read (:mod:`~ramsli.server.web.facts`), the pages' routes and files
  (:mod:`~ramsli.server.web.routes`); :mod:`ramsli.server.coach`: the "should I stay in?" hint
  (:mod:`~ramsli.server.coach.hints`), the reviews and training (:mod:`~ramsli.server.coach.review`)
  and their routes (:mod:`~ramsli.server.coach.routes`);
- :mod:`ramsli.server.clubs` (:mod:`~ramsli.server.clubs.clubs`, :mod:`~ramsli.server.clubs.routes`)
  and :mod:`ramsli.server.ledger`: the pub ledger's books (:mod:`~ramsli.server.ledger.books`) and
  routes (:mod:`~ramsli.server.ledger.routes`);
- :mod:`ramsli.server.deps`: the services a route reaches, typed (FastAPI ``Depends``);
- :mod:`ramsli.server.app`: the FastAPI app, which wires the routes, middlewares and services.

The protocol is ``docs/protocol.md``; running, guarantees and the tree of these folders are
``docs/server.md``. Importing this package imports no web framework (the bot worker processes
import :mod:`ramsli.server.tables.bot_driver` only).
"""
