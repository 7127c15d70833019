"""The pub ledger: the books of a table that plays with real cards (``docs/ledger.md``).

:mod:`~ramsli.server.ledger.books` holds the books and :mod:`~ramsli.server.ledger.routes` serves
its API and pages; the books are kept by the engine's
:class:`ramsli.ledger.PubLedger` (R3, R5) and stored as events of the event store.
"""
