"""The server's database: one SQLAlchemy metadata, the tables' event store, the directory, migrations.

:mod:`~ramsli.server.storage.eventstore` keeps tables and their event logs (committed before they
are applied, R3.4); :mod:`~ramsli.server.storage.directory` the rows of players, logins, clubs,
seasons, links, records and ratings; ``migrations/`` the Alembic migrations applied at start-up.
SQLite and PostgreSQL alike. Nothing here checks a request.
"""
