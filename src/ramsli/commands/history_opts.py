"""The arguments shared by the commands that read a played hand or session: ``ramsli review`` and
``ramsli skill`` (the history or session folder, ``--seat``, ``--lang``, ``--seed``), declared
once as ``Annotated`` aliases so that both commands say them the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ramsli.i18n import Lang, choices_text

__all__ = ["HistoryPath", "SeatOption", "LangOption", "SeedOption"]

#: the hand history (``.toml``) or session folder a command reads (positional)
HistoryPath = Annotated[
    Path,
    typer.Argument(
        metavar="HISTORY.toml|SESSION_DIR",
        help="A hand history (.toml), or a session folder (with session.toml, or saved by 'ramsli play').",
        show_default=False,
    ),
]

#: ``--seat p2``: only that seat (R2.2 names ``p1``..``p6``); None for every seat whose cards are recorded
SeatOption = Annotated[
    str | None,
    typer.Option("--seat", help="Only this seat (p1..p6); default every seat whose cards are recorded."),
]

#: ``--lang``: the language of the output; None for the locale's (:func:`ramsli.i18n.detect_language`)
LangOption = Annotated[
    Lang | None,
    typer.Option("--lang", help=f"Language: {choices_text()}; default from the locale (LANGUAGE, LC_ALL, LANG)."),
]

#: ``--seed``: the seed of the coach's samples (0 to 2**62); the same seed gives the same answer
SeedOption = Annotated[
    int,
    typer.Option("--seed", min=0, max=2**62, help="Seed of the coach's samples: the same seed, the same result."),
]
