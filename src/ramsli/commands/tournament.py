"""``ramsli tournament``: bots against bots, optionally with duplicate deals.

Prints a table per bot: counters per hand with a 95% confidence interval,
in-rate, bete rate, pot win rate, decision time median and 95th percentile.
``--out`` writes JSON (``FILE.json``), CSV (``FILE.csv``) or both (``FILE`` without a
suffix: ``FILE.json`` and ``FILE.csv``); a folder or another suffix is refused.
``--plot`` writes a PNG chart (matplotlib, Agg; the extra 'lab'). Output folders, bot names and
matplotlib (for ``--plot``) are checked before any deal is played. Exit status 2 for a bad bot, preset, rule, count, seed or output file.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ramsli.analysis.cluster import ClusterError
from ramsli.analysis.tournament import TournamentResult, run_tournament
from ramsli.bots.base import make_bot
from ramsli.commands import fail, setup_errors
from ramsli.commands.cluster_opts import SchedulerOption, check_scheduler, interrupted
from ramsli.csvcells import DictWriter as SafeDictWriter
from ramsli.frontends.text import refusal_text
from ramsli.lab.limits import MAX_DEALS, LimitError, atomic_output, check_count, check_jobs, check_writable, out_targets
from ramsli.rules import PRESETS, Rules, RulesError

__all__ = ["register", "tournament", "write_outputs", "plot_result"]

CSV_FIELDS = [
    "label",
    "spec",
    "plays_as",
    "hands",
    "mean",
    "ci95",
    "in_rate",
    "bete_rate",
    "bete_when_in",
    "pot_rate",
    "decisions",
    "time_median_ms",
    "time_p95_ms",
    "time_max_ms",
]


def write_outputs(res: TournamentResult, out: Path) -> list[Path]:
    """Write ``res`` as JSON (``X.json``), CSV (``X.csv``) or both (``X`` without a suffix).

    Returns:
        the files written.

    Raises:
        LimitError: (a ``ValueError``) for a folder or a suffix other than .json/.csv.
        OSError: if a file cannot be written.
    """
    targets = out_targets(out)
    for p in targets:
        if p.suffix.lower() == ".json":
            with atomic_output(p) as f:  # complete or not there: no empty file on a full disk
                f.write(json.dumps(res.to_dict(), indent=2) + "\n")
        else:
            with atomic_output(p, newline="") as f:
                w = SafeDictWriter(f, fieldnames=CSV_FIELDS)  # cells made safe (issue 38.10)
                w.writeheader()
                for b in res.to_dict()["bots"]:
                    w.writerow({k: b[k] for k in CSV_FIELDS})
    return targets


def plot_result(res: TournamentResult, path: Path) -> None:
    """A PNG chart: counters per hand with 95% intervals, and in / bete / pot rates per bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [b.label for b in res.bots]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax1.bar(labels, [b.mean for b in res.bots], yerr=[b.ci95 for b in res.bots], capsize=5, color="#4c72b0")
    ax1.axhline(0, color="black", linewidth=0.8)
    ax1.set_ylabel("counters per hand (95% CI)")
    ax1.set_title(f"{res.deals} deals{' (duplicate)' if res.duplicate else ''}, {res.hands} hands")
    x = range(len(labels))
    w = 0.27
    ax2.bar([i - w for i in x], [b.in_rate for b in res.bots], w, label="in")
    ax2.bar(list(x), [b.bete_rate for b in res.bots], w, label="bete")
    ax2.bar([i + w for i in x], [b.pot_rate for b in res.bots], w, label="pot won")
    ax2.set_xticks(list(x), labels)
    ax2.set_ylabel("share of hands")
    ax2.legend()
    for ax in (ax1, ax2):
        ax.tick_params(axis="x", labelrotation=20)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def tournament(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="One bot per seat, comma-separated, e.g. "
            "montecarlo,rules,rules,random,random, or levels beginner,easy,medium,hard,expert; "
            "options after a colon, e.g. "
            "'montecarlo:samples=40' (quote it).",
        ),
    ] = "montecarlo,rules,rules,random,random",
    preset: Annotated[
        str, typer.Option("--preset", "-p", help=f"Preset of R6 ({', '.join(PRESETS)}).")
    ] = "traditional",
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule", "-r", metavar="KEY=VALUE", help="Change one option (R8), e.g. --rule bete=10; repeatable."
        ),
    ] = None,
    hands: Annotated[
        int,
        typer.Option(
            "--hands",
            "-n",
            help="Deals to play, 1..1,000,000 (in duplicate each deal is played once per rotation of the bots).",
        ),
    ] = 200,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Tournament seed (>= 0): the same seed gives the same results.")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes, 1..64.")] = 1,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="Play every deal in every rotation of the bots, so that luck cancels out.",
        ),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Write the results: FILE.json (JSON), "
            "FILE.csv (CSV), or FILE without a suffix (both FILE.json and "
            "FILE.csv). The folder must exist.",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Write a PNG chart of the results to FILE.png (the folder must exist)."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    scheduler: SchedulerOption = None,
) -> None:
    """Play bots against each other and report counters per hand with 95% confidence intervals."""
    specs = [s.strip() for s in bots.replace(";", ",").split(",") if s.strip()]
    # bot options use commas too ("montecarlo:samples=8,ms=20"): re-join pieces that are options
    merged: list[str] = []
    for s in specs:
        if "=" in s and ":" not in s and merged:
            merged[-1] += "," + s
        else:
            merged.append(s)
    specs = merged
    try:
        rules = Rules.preset(preset).with_assignments(list(rule or []))
    except RulesError as e:
        fail(refusal_text(e))
    errors = []
    for check in (lambda: check_count(hands, "--hands", MAX_DEALS, "deals"), lambda: check_jobs(jobs)):
        try:
            check()
        except LimitError as e:
            errors.append(refusal_text(e))
    if seed < 0:
        errors.append(f"--seed {seed}: allowed is a whole number >= 0")
    bad_bots = []
    for s in specs:  # names and options first: "--bots foo" is an unknown bot, not a count of seats
        try:
            make_bot(s, seed=0)
        except ValueError as e:
            bad_bots.append(refusal_text(e))  # the bots' message names the bot and lists the allowed names
    if bad_bots:
        errors.append(bad_bots[0])  # the first is enough (each message lists the allowed names)
    elif not specs:
        errors.append(f"--bots {bots!r} names no bot; a table seats 2..6 (R2.1), one bot per seat, e.g. rules,random")
    else:
        errors += setup_errors(rules, len(specs), "--bots")  # one bot per seat: R2.1, R3.5
    try:
        if out is not None:
            for p in out_targets(out):
                check_writable(p, "--out")
    except LimitError as e:
        errors.append(refusal_text(e))
    if plot is not None:
        if importlib.util.find_spec("matplotlib") is None:
            errors.append("--plot needs matplotlib: install the extra 'lab' (pip install -e '.[lab]' in a checkout)")
        elif plot.suffix.lower() != ".png":
            errors.append(f"--plot {str(plot)!r}: the chart is a PNG file; allowed is FILE.png")
        else:
            try:
                check_writable(plot, "--plot")
            except LimitError as e:
                errors.append(refusal_text(e))
    errors += check_scheduler(scheduler, jobs)
    if errors:
        fail(errors)
    console = Console(stderr=True)
    try:
        with Progress(
            TextColumn("deals"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=quiet,
            transient=True,
        ) as prog:
            task = prog.add_task("deals", total=hands)
            res = run_tournament(
                specs,
                rules,
                hands,
                seed=seed,
                jobs=jobs,
                duplicate=duplicate,
                progress=lambda k: prog.advance(task, k),
                scheduler=scheduler,
            )
    except KeyboardInterrupt:
        interrupted(scheduler)
    except ClusterError as e:
        fail(refusal_text(e))
    except ValueError as e:
        fail(refusal_text(e))
    table = Table(
        title=f"{res.deals} deals, {res.hands} hands{' (duplicate)' if res.duplicate else ''}, "
        f"preset {preset}, seed {seed}"
    )
    for col in ("bot", "counters/hand", "95% CI", "in", "bete", "pot won", "decisions", "median ms", "p95 ms"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in sorted(res.bots, key=lambda b: -b.mean):
        table.add_row(
            b.label,
            f"{b.mean:+.3f}",
            f"±{b.ci95:.3f}",
            f"{b.in_rate:.1%}",
            f"{b.bete_rate:.1%}",
            f"{b.pot_rate:.1%}",
            str(b.decisions),
            f"{b.time_median_ms:.2f}",
            f"{b.time_p95_ms:.2f}",
        )
    Console(highlight=False, width=max(Console().width, 120)).print(table)
    try:
        if out is not None:
            for p in write_outputs(res, out):
                typer.echo(f"wrote {p}")
        if plot is not None:
            plot_result(res, plot)
            typer.echo(f"wrote {plot}")
    except OSError as e:
        fail(f"cannot write {e.filename or ''}: {e.strerror or e}", usage=False)


def register(app: typer.Typer) -> None:
    """Add ``ramsli tournament`` to the app."""
    app.command("tournament")(tournament)
