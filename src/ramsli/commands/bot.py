"""``ramsli bot URL --bot expert [--name N]``: seat a registered bot at a remote table.

The URL is a seat's invite link (``https://host/t/TABLE/s/TOKEN``, also behind a path prefix) or
the personal link of a seat the bot sat at before. The bot is any name ``ramsli play --bots``
knows: a built-in bot or level, or an installed package's bot (``docs/bots.md``). It sits down
(the table shows the seat as "bot (external)") and plays through :func:`ramsli.client.play_bot`
until the session is over, printing a line per finished hand; when someone presses "Play again"
within ``--again-wait`` seconds of the end, it takes its seat at the next session's table and
plays on, as a person's seat does; a dropped connection is
reconnected with the seat's personal token; Ctrl-C closes the connection and stops (the seat
shows as away; the table's grace period and its stand-in bot take over, ``docs/protocol.md``).

Exit status: 0 the session ended; 1 the server refused (its code and message are printed) or
the connection ended for good; 2 a bad link or bot spec; 130 stopped with Ctrl-C.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated

import typer

from ramsli.client import ClientRefused, ConnectionLost, Invite, play_bot
from ramsli.client.bot import AGAIN_SECONDS, guarded_bot
from ramsli.commands import fail
from ramsli.frontends.text import refusal_text
from ramsli.i18n import choices_text

__all__ = ["register", "bot"]


def bot(
    url: Annotated[str, typer.Argument(help="The seat's invite link: https://HOST/t/TABLE/s/TOKEN.")],
    spec: Annotated[
        str, typer.Option("--bot", "-b", help="The bot: a built-in bot or level, or an installed package's bot.")
    ] = "expert",
    name: Annotated[str | None, typer.Option("--name", help="The name at the table (default: 'Expert bot').")] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Seed of the bot's choices (hand n: seed + n).")
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help=f"Language of the server's messages: {choices_text()}.")] = "en",
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log the connection's events.")] = False,
    again_wait: Annotated[
        float,
        typer.Option(
            "--again-wait",
            min=0,
            help="Seconds to wait after a session's end for someone to press Play again; the bot then "
            "takes its seat at the next session's table. 0: stop when the session ends.",
        ),
    ] = AGAIN_SECONDS,
) -> None:
    """Seat a bot at a remote table through its invite link and play until the session ends."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        invite = Invite.parse(url)
    except ValueError as e:  # not a table link
        fail(refusal_text(e))
    try:
        guarded_bot(spec, seed)
    except ValueError as e:  # a bad bot spec (BotSpecError): its message lists what is allowed
        fail(refusal_text(e))
    try:
        run = asyncio.run(
            play_bot(invite, spec, name, seed=seed, lang=lang, progress=typer.echo, again_seconds=again_wait)
        )
    except KeyboardInterrupt:
        typer.echo("stopped; the connection is closed", err=True)
        raise typer.Exit(130) from None
    except ClientRefused as e:
        typer.echo(f"ramsli bot: the server refused: {e.code} ({e.refusal.code}): {e.message}", err=True)
        raise typer.Exit(1) from None
    except (ConnectionLost, OSError) as e:
        typer.echo(f"ramsli bot: {e}", err=True)
        raise typer.Exit(1) from None
    typer.echo(
        f"{run.name} ({run.bot}) played {run.decisions} decisions in {run.hands} hands"
        f" of {len(run.tables)} session{'s' if len(run.tables) != 1 else ''}"
        f" ({run.faults} taken by tips, {len(run.refused)} refused, {run.connections} connections)"
    )


def register(app: typer.Typer) -> None:
    """Add ``ramsli bot`` to the app."""
    app.command("bot")(bot)
