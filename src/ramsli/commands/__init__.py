"""Commands of the ``ramsli`` CLI, one module each, each with ``register(app: typer.Typer)``."""

from __future__ import annotations

from typing import NoReturn

import typer


def fail(errors: str | list[str]) -> NoReturn:
    """Print each error as ``error: …`` on stderr and exit with status 2 (bad input).

    Args:
        errors: one message or several (every bad option gets its own line).

    Raises:
        typer.Exit: always, with code 2.
    """
    for line in [errors] if isinstance(errors, str) else errors:
        typer.echo(f"error: {line}", err=True)
    raise typer.Exit(2)
