"""Commands of the ``ramsli`` CLI, one module each, each with ``register(app: typer.Typer)``."""

from __future__ import annotations

from typing import NoReturn

import typer

from ramsli.errors import TableError
from ramsli.frontends.text import refusal_text
from ramsli.rules import Rules
from ramsli.session import check_setup

__all__ = ["fail", "setup_errors"]


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


def setup_errors(rules: Rules, n_players: int, option: str) -> list[str]:
    """The engine's one set-up check (:func:`ramsli.session.check_setup`: 2..6 players and the
    ``players`` option, R2.1; an ante the starting stack can pay, R3.5) as error lines for
    :func:`fail`: the refusal rendered by its code (:func:`~ramsli.frontends.text.refusal_text`),
    after the option that gave the number of players; ``[]`` when the set-up is fine. The CLI,
    the server and the lab give the same refusal for the same set-up.

    Args:
        rules: the rules in force.
        n_players: how many players (seats) the command would seat.
        option: how the command names where that number came from (``"--players 4"``,
            ``"--bots"``); an ante refusal names its option itself.

    >>> setup_errors(Rules(players=3), 4, "--players 4")
    ['--players 4: the option players=3 does not match the 4 players given (R2.1)']
    >>> setup_errors(Rules(ante=30), 5, "--players 5")
    ['the ante 30 is more than the starting stack 20: nobody could pay it (R3.5)']
    >>> setup_errors(Rules(), 3, "--bots")
    []
    """
    try:
        check_setup(rules, n_players)
    except TableError as e:
        return [refusal_text(e) if e.field == "ante" else f"{option}: {refusal_text(e)}"]
    return []
