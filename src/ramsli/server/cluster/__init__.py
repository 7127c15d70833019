"""Several server processes on one database, behind a reverse proxy: which process runs which table,
forwarding to it, and the proxy's path prefix.

:mod:`~ramsli.server.cluster.ownership` (one owner per table: a lock file on SQLite, advisory
locks on PostgreSQL), :mod:`~ramsli.server.cluster.proxy` (a request or WebSocket relayed to
the process that runs its table; the trusted reverse proxy's headers) and
:mod:`~ramsli.server.cluster.prefix` (serving under ``--path-prefix`` behind that proxy).
"""
