"""``ramsli dataset``: self-play hands for research, one ``ramsli-hh/1`` hand history per line of JSON.

Writes ``DIR/hands.jsonl`` (every seat's cards included) and the data card ``DIR/DATASET.md``
(:mod:`ramsli.analysis.dataset`). The same seed gives a byte-identical ``hands.jsonl``, whatever
``--jobs`` is. Exit status 2 for a bad bot, preset, rule, count, seed or folder (checked before any
hand is played); files of an earlier dataset in DIR are replaced only with ``--force``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ramsli.analysis.dataset import CARD_FILE, HANDS_FILE, write_dataset
from ramsli.bots.base import make_bot
from ramsli.commands import fail
from ramsli.commands.arena import bot_warnings, split_bot_list
from ramsli.commands.cluster_opts import interrupted
from ramsli.frontends.text import refusal_text
from ramsli.lab.limits import MAX_DEALS, LimitError, check_count, check_jobs
from ramsli.rules import PRESETS, Rules, RulesError

__all__ = ["register", "dataset"]


def dataset(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help=f"The dataset's folder (made if missing; its parent must exist): {HANDS_FILE} and {CARD_FILE}.",
            show_default=False,
        ),
    ],
    hands: Annotated[int, typer.Option("--hands", "-n", help="Hands to play, 1..1,000,000.")] = 1000,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="One bot per seat, comma-separated (2..6): built-in bots, levels, installed packages' bots; "
            "the deal passes to the left every hand, and the bots move one seat to the left every round.",
        ),
    ] = "easy,medium,hard,expert,random",
    preset: Annotated[
        str, typer.Option("--preset", "-p", help=f"Preset of R6 ({', '.join(PRESETS)}).")
    ] = "traditional",
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", metavar="KEY=VALUE", help="Change one option (R8); repeatable."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Dataset seed (>= 0): the same seed gives the same file, byte for byte.")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes, 1..64.")] = 1,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the files of an earlier dataset in the folder.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Write self-play hands as JSON lines (ramsli-hh/1, every seat's cards) with a data card."""
    specs = split_bot_list(bots)
    errors: list[str] = []
    for check in (lambda: check_count(hands, "--hands", MAX_DEALS, "hands"), lambda: check_jobs(jobs)):
        try:
            check()
        except LimitError as e:
            errors.append(refusal_text(e))
    if seed < 0:
        errors.append(f"--seed {seed}: allowed is a whole number >= 0")
    rules = None
    try:
        rules = Rules.preset(preset).with_assignments(list(rule or []))
    except RulesError as e:
        errors.append(refusal_text(e))
    bad = False
    for s in specs:
        try:
            make_bot(s, seed=0)
        except ValueError as e:
            errors.append(refusal_text(e))
            bad = True
            break
    if not bad and not 2 <= len(specs) <= 6:
        errors.append(f"--bots names {len(specs)} bots; a table seats 2..6 (R2.1), one bot per seat")
    elif not bad and rules is not None and rules.players is not None and rules.players != len(specs):
        errors.append(f"--bots names {len(specs)} bots but option players={rules.players}: one bot per seat (R2.1)")
    if out.exists() and not out.is_dir():
        errors.append(f"--out {str(out)!r} is a file; the dataset is a folder")
    elif not out.parent.is_dir():
        errors.append(f"--out {str(out)!r}: the folder {str(out.parent)!r} does not exist; create it first")
    elif not force:
        for name in (HANDS_FILE, CARD_FILE):
            if (out / name).exists():
                errors.append(f"--out {str(out)!r} holds a dataset already ({name}); give a new folder or --force")
                break
    if errors:
        fail(errors)
    for line in bot_warnings(specs):
        typer.echo(f"warning: {line}", err=True)
    try:
        with Progress(
            TextColumn("hands"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=quiet,
            transient=True,
        ) as prog:
            task = prog.add_task("hands", total=hands)
            summary = write_dataset(
                out,
                specs,
                hands,
                preset=preset,
                rules=list(rule or []),
                seed=seed,
                jobs=jobs,
                progress=lambda k: prog.advance(task, k),
                overwrite=force,
            )
    except KeyboardInterrupt:
        interrupted(None)
    except ValueError as e:
        fail(refusal_text(e))
    except OSError as e:
        fail(f"cannot write {e.filename or out}: {e.strerror or e}", usage=False)
    typer.echo(f"wrote {out / HANDS_FILE} ({summary.hands} hands, {summary.size} bytes, sha256 {summary.sha256})")
    typer.echo(f"wrote {out / CARD_FILE}")
    for b in summary.bots:
        if b.faults:
            typer.echo(f"warning: {b.label}: {b.faults} decisions were played by the tips player", err=True)


def register(app: typer.Typer) -> None:
    """Add ``ramsli dataset`` to the app."""
    app.command("dataset")(dataset)
