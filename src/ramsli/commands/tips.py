"""``ramsli tips``: the original rules' "Tips and Strategy" in numbers.

Writes a Markdown report with PNG charts that puts a number on every claim of
the Tips section of the original rule texts and says where the tips are right,
where not, and where the numbers cannot tell. Default: ``tips.md`` in the
current folder, charts in ``tips/`` beside it. Exit status 2 for bad input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ramsli.commands import fail
from ramsli.lab.limits import MAX_TIPS_HANDS, LimitError, check_count, check_writable

__all__ = ["register", "tips_cmd"]


def tips_cmd(
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE.md",
            help="Markdown file to write; the charts "
            "go to a folder tips/ beside it. Default: tips.md in the current folder.",
        ),
    ] = "tips.md",
    hands: Annotated[int, typer.Option("--hands", "-n", help="Hands per simulated claim, 100..1,000,000.")] = 200_000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed (>= 0): the same seed gives the same report.")] = 0,
    odds_time: Annotated[float, typer.Option("--odds-time", help="Seconds per single-hand odds estimate (> 0).")] = 1.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    force: Annotated[bool, typer.Option("--force", "-f", help="Overwrite the report file if it exists.")] = False,
) -> None:
    """Measure every claim of the original rules' Tips section and write a Markdown report with charts."""
    from ramsli.lab.tips import build_report  # the lab's kernel and charts: optional extra 'lab'

    errors = []
    try:
        check_count(hands, "--hands", MAX_TIPS_HANDS, minimum=100)
    except LimitError as e:
        errors.append(str(e))
    if seed < 0:
        errors.append(f"--seed {seed}: allowed is a whole number >= 0")
    if not odds_time > 0 or odds_time == float("inf"):
        errors.append(f"--odds-time {odds_time}: allowed is a finite number of seconds > 0")
    outp = Path(out)
    if outp.suffix.lower() != ".md":
        errors.append(f"--out {out!r}: the report is Markdown; allowed is FILE.md")
    else:
        try:
            check_writable(outp, "--out")
        except LimitError as e:
            errors.append(str(e))
        else:
            if outp.exists() and not force:  # never overwrite a report silently
                errors.append(f"--out {out!r} exists; give --force to overwrite it, or another --out FILE.md")
    if errors:
        fail(errors)
    with Progress(
        TextColumn("[bold]tips"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=quiet,
        transient=True,
    ) as prog:
        task = prog.add_task("claims", total=8)
        try:
            build_report(
                out,
                hands=hands,
                seed=seed,
                odds_time=odds_time,
                progress=lambda d, t: prog.update(task, completed=d),
                note=lambda m: prog.console.print(m),
            )
        except OSError as e:
            fail(f"--out: cannot write {e.filename or out}: {e.strerror or e}", usage=False)
    typer.echo(f"wrote {outp.resolve()} (charts in {(outp.parent / 'tips').resolve()}/)")


def register(app: typer.Typer) -> None:
    """Add ``tips`` to the ``ramsli`` app."""
    app.command(
        "tips",
        help="The original rules' Tips and Strategy in numbers: a Markdown report with charts "
        "(default: tips.md and tips/ in the current folder).",
    )(tips_cmd)
