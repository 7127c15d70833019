"""Alembic environment of the table server's database.

Run programmatically by :meth:`ramsli.server.storage.eventstore.EventStore.open`: the caller passes
an open synchronous connection in ``config.attributes["connection"]`` (inside
``AsyncConnection.run_sync``), so the same code serves SQLite and PostgreSQL.
Imported outside Alembic (e.g. by doctest collection) it does nothing.
"""

from alembic import context

from ramsli.server.storage.eventstore import metadata


def run_migrations() -> None:
    """Apply the migrations on the connection Alembic was given."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):
    run_migrations()
