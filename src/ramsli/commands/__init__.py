"""Commands of the ``ramsli`` CLI, one module each, named after its command (``tips.py`` is
``ramsli tips``, ``review.py`` is ``ramsli review``), each with ``register(app: typer.Typer)``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer.main import get_current_context

from ramsli.errors import TableError
from ramsli.frontends.i18n import language, sentence_case, translation
from ramsli.frontends.text import refusal_text
from ramsli.frontends.usage import error_line, usage_head
from ramsli.rules import Rules
from ramsli.server.storage.urls import scrub  # a database URL's password is never printed
from ramsli.session import check_setup

__all__ = ["fail", "show_errors", "setup_errors", "error_sentence"]


def error_sentence(line: str) -> str:
    """An error line as a sentence, as every ``ramsli`` error reads: its first letter upper case
    when it opens with a word (the research commands pass on the English text of an exception, which
    starts lower case: "unknown bot 'x'", "give one of …", "cannot write …"). A line that opens
    with what the user gave or a name keeps it as written: an option (``--hands 0: …``), a path
    (``policy.json: …``), ``key=value``, a quoted name.

    >>> error_sentence("unknown bot 'x'; allowed are random"), error_sentence("--hands 0: allowed is 1..9")
    ("Unknown bot 'x'; allowed are random", '--hands 0: allowed is 1..9')
    >>> error_sentence("policy.json: not a policy file"), error_sentence("hands=0: allowed is a whole number")
    ('policy.json: not a policy file', 'hands=0: allowed is a whole number')
    """
    word, space, _rest = line.partition(" ")
    return sentence_case(line) if space and word.isalpha() else line  # a word: letters, then a space


def show_errors(errors: Sequence[str], *, usage: bool = True) -> None:
    """Print errors on stderr in the one look of every ``ramsli`` error, Click's own usage errors
    included (``--lang xx``, ``--hands abc``; :func:`ramsli.cli._plain_errors`): the command's
    ``Usage:`` line and ``Try 'ramsli CMD --help' for help.`` (when ``usage`` and a command is
    running), a blank line, then ``Error: …``, one line per error, each a sentence
    (:func:`error_sentence`); the words around the errors in the command's language
    (:mod:`ramsli.frontends.usage`: ``Aufruf:``, ``Fehler:``). Plain lines, so that a long message is never wrapped or cut and a
    script can grep it."""
    ctx = _running_command()
    tr = translation(language())  # the words around the errors in the command's language
    if usage and ctx is not None:
        typer.echo(f"{usage_head(ctx, tr)}\n", err=True)
    for line in errors:
        typer.echo(error_line(scrub(error_sentence(line)), tr), err=True)


def _running_command() -> Any:
    """The Click context of the command running, or None (outside a command). Typer carries its
    own copy of Click, so its context is asked of Typer (``typer.main``), not of ``click``."""
    return get_current_context(silent=True)


def fail(errors: str | list[str], *, usage: bool = True) -> NoReturn:
    """Print each error as Click prints a usage error (:func:`show_errors`: ``Usage:``, ``Try …
    --help``, ``Error: …``) on stderr and exit with status 2 (bad input).

    Args:
        errors: one message or several (every bad option gets its own line).
        usage: show the usage and the ``--help`` hint (off for an error in what was read, not
            in how the command was called).

    Raises:
        typer.Exit: always, with code 2.
    """
    show_errors([errors] if isinstance(errors, str) else errors, usage=usage)
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

    >>> from ramsli.frontends.i18n import set_language
    >>> set_language("en") and setup_errors(Rules(players=3), 4, "--players 4")
    ['--players 4: The option players=3 does not match the 4 players given (R2.1)']
    >>> setup_errors(Rules(ante=30), 5, "--players 5")
    ['The ante 30 is more than the starting stack 20: nobody could pay it (R3.5)']
    >>> setup_errors(Rules(), 3, "--bots")
    []
    """
    try:
        check_setup(rules, n_players)
    except TableError as e:
        return [refusal_text(e) if e.field == "ante" else f"{option}: {refusal_text(e)}"]
    return []
