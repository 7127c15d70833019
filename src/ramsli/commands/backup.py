"""``ramsli backup``: copy the server's database while ``ramsli serve`` keeps running.

SQLite (the default database, or ``--database sqlite+aiosqlite:///PATH``): SQLite's online
backup, a consistent copy that is itself an SQLite database (checked with ``PRAGMA
integrity_check``); restore by stopping the server and putting the copy in place. PostgreSQL:
``pg_dump --format=custom`` (``pg_dump`` must be installed; restore with ``pg_restore``).
Exit status 2 for a database that cannot be read, a destination that exists, or a missing
``pg_dump``: one line naming it. ``docs/deploy.md`` has the schedule and the restore.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ramsli.commands import fail
from ramsli.frontends.text import refusal_text

__all__ = ["register", "backup"]


def backup(
    dest: Annotated[Path, typer.Argument(metavar="FILE", help="The copy to make (must not exist).")],
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            envvar="RAMSLI_DATABASE",
            help="The server's database (as given to ramsli serve); default: server.sqlite in your data folder.",
        ),
    ] = None,
) -> None:
    """Back up the table server's database (SQLite online backup, or pg_dump) while it runs."""
    from ramsli.server.storage.eventstore import StoreError, default_url
    from ramsli.server.storage.eventstore import backup as copy

    try:
        typer.echo(copy(database or default_url(), dest))
    except StoreError as e:
        fail(refusal_text(e))


def register(app: typer.Typer) -> None:
    """Add ``backup`` to the ``ramsli`` command."""
    app.command("backup")(backup)
