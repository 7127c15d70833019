"""``ramsli tips``: the seeds' "Tips and Strategy" in numbers (issue #6).

Writes a Markdown report with PNG charts that puts a number on every claim of
the Tips section and says where the seeds are right and where not. Exit status 2
for bad input.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

__all__ = ["register", "tips_cmd"]


def tips_cmd(
    out: Annotated[str, typer.Option("--out", "-o", help="Markdown file to write; charts go to tips/ beside it.")]
    = "docs/tips.md",
    hands: Annotated[int, typer.Option("--hands", "-n", help="Hands per simulated claim.")] = 200_000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed (>= 0).")] = 0,
    odds_time: Annotated[float, typer.Option("--odds-time", help="Seconds per single-hand odds estimate.")] = 1.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Measure every claim of the seeds' Tips section and write a Markdown report with charts."""
    from ramsli.lab.tips import build_report

    if hands < 100 or seed < 0 or odds_time <= 0 or not out.endswith(".md"):
        typer.echo("error: --hands must be >= 100, --seed >= 0, --odds-time > 0 and --out a .md file", err=True)
        raise typer.Exit(2)
    with Progress(TextColumn("[bold]tips"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), disable=quiet, transient=True) as prog:
        task = prog.add_task("claims", total=8)
        build_report(out, hands=hands, seed=seed, odds_time=odds_time,
                     progress=lambda d, t: prog.update(task, completed=d))
    typer.echo(f"wrote {out}")


def register(app: typer.Typer) -> None:
    """Add ``tips`` to the ``ramsli`` app."""
    app.command("tips", help="The seeds' Tips and Strategy in numbers: a Markdown report with charts (issue #6).")(
        tips_cmd)
