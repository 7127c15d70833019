"""Several server processes on one database: which process runs which table, and forwarding to it.

:mod:`~ramsli.server.cluster.ownership` (one owner per table: a lock file on SQLite, advisory
locks on PostgreSQL) and :mod:`~ramsli.server.cluster.proxy` (a request or WebSocket relayed to
the process that runs its table; the trusted reverse proxy's headers).
"""
