"""``ramsli arena``: duplicate matches between any set of bots, each rated with OpenSkill.

The bots are built-in bots, levels (``easy`` … ``expert``) and installed packages' bots
(``docs/bots.md``); ``--list-bots`` lists them with their options. One match is one duplicate set
(``--set-deals`` deals, each in every rotation of the bots at the table); its ranking by final
counters updates every bot's OpenSkill rating (Plackett–Luce): μ, σ and the conservative rating
μ − 3σ, by which the table is sorted (:mod:`ramsli.analysis.arena`). ``--out`` writes JSON
(``FILE.json``), Markdown (``FILE.md``) or both (``FILE`` without a suffix). Exit status 2 for a bad
bot, preset, rule, count, seed or output file (checked before any deal is played).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ramsli.analysis.arena import ArenaResult, run_arena
from ramsli.analysis.cluster import ClusterError
from ramsli.bots.base import bot_names, describe_bot, make_bot
from ramsli.commands import fail
from ramsli.commands.cluster_opts import SchedulerOption, check_scheduler, interrupted
from ramsli.frontends.text import refusal_text
from ramsli.lab.limits import MAX_DEALS, LimitError, atomic_output, check_count, check_jobs, check_writable
from ramsli.rules import PRESETS, Rules, RulesError

__all__ = ["register", "arena", "split_bot_list", "arena_targets", "write_arena", "bot_warnings", "list_bots"]


def split_bot_list(text: str) -> list[str]:
    """The bot specs of a ``--bots`` list: comma-separated, where a piece ``key=value`` without a colon
    belongs to the spec before it (``montecarlo:samples=8,ms=20`` is one spec).

    >>> split_bot_list("easy, montecarlo:samples=8,ms=20 ,random")
    ['easy', 'montecarlo:samples=8,ms=20', 'random']
    """
    merged: list[str] = []
    for s in (s.strip() for s in text.replace(";", ",").split(",")):
        if not s:
            continue
        if "=" in s and ":" not in s and merged:
            merged[-1] += "," + s
        else:
            merged.append(s)
    return merged


def arena_targets(out: Path) -> list[Path]:
    """The files ``--out`` stands for: ``X.json``, ``X.md``, or ``X`` → both.

    Raises:
        LimitError: for a folder, another suffix, or an existing file named without a suffix.
    """
    if str(out).endswith("/") or out.is_dir():
        raise LimitError(f"--out {str(out)!r} is a folder: give FILE.json, FILE.md, or FILE for both")
    suffix = out.suffix.lower()
    if suffix in (".json", ".md"):
        return [out]
    if suffix == "":
        if out.exists():
            raise LimitError(
                f"--out {str(out)!r} exists and is not a folder: a name without a suffix stands for both "
                "NAME.json and NAME.md; give FILE.json or FILE.md, or a new name"
            )
        return [out.with_name(out.name + ".json"), out.with_name(out.name + ".md")]
    raise LimitError(f"--out {str(out)!r}: unknown suffix {out.suffix!r}; allowed are FILE.json, FILE.md, or FILE")


def write_arena(res: ArenaResult, out: Path) -> list[Path]:
    """Write ``res`` as JSON and/or Markdown (:func:`arena_targets`); returns the files written.

    Raises:
        LimitError: as :func:`arena_targets`; OSError: if a file cannot be written.
    """
    targets = arena_targets(out)
    for p in targets:
        with atomic_output(p) as f:
            f.write(json.dumps(res.to_dict(), indent=2) + "\n" if p.suffix.lower() == ".json" else res.to_markdown())
    return targets


def bot_warnings(specs: list[str]) -> list[str]:
    """One line per named bot of an installed package that cannot be used (it plays the tips moves)."""
    out = []
    for name in dict.fromkeys(s.partition(":")[0].strip() for s in specs):
        try:
            info = describe_bot(name)
        except ValueError:
            continue
        if info.error:
            out.append(f"bot {name!r} ({info.origin}) cannot be used: {info.error}; its seats play the tips moves")
    return out


def list_bots() -> None:
    """Print every bot name with its kind, origin and options (``--list-bots``)."""
    table = Table(title="bots")
    for col in ("name", "kind", "from", "options", "about"):
        table.add_column(col)
    for name in bot_names():
        try:
            info = describe_bot(name)
        except (ValueError, ModuleNotFoundError) as e:  # a bot of a missing extra
            table.add_row(name, "", "", "", f"not available: {e}")
            continue
        about = f"cannot be used: {info.error}" if info.error else info.summary.replace("``", "")
        if info.kind == "level":
            about = f"plays as {info.plays_as}"
        table.add_row(name, info.kind, info.origin, ", ".join(o.text() for o in info.options), about)
    Console(highlight=False, width=max(Console().width, 140)).print(table)


def arena(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="The bots, comma-separated: built-in bots, levels (beginner,easy,medium,hard,expert), installed "
            "packages' bots; options after a colon ('montecarlo:samples=40', quote it). A spec given twice "
            "is rated twice (spec#1, spec#2).",
        ),
    ] = "easy,medium,hard,expert,random",
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Deals in all, 1..1,000,000 (a multiple of --set-deals).")
    ] = 200,
    presets: Annotated[
        str,
        typer.Option(
            "--presets", "-p", help=f"Presets of R6 in rotation, comma-separated, one per match ({', '.join(PRESETS)})."
        ),
    ] = "traditional",
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", metavar="KEY=VALUE", help="Change one option (R8) in every preset; repeatable."),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-P",
            help="Seats at the table, 2..6 (default: every bot when there are at most 6, else 5); with "
            "more bots than seats each match draws who sits.",
            show_default=False,
        ),
    ] = None,
    set_deals: Annotated[
        int, typer.Option("--set-deals", help="Deals in one match, each played in every rotation of the bots.")
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Arena seed (>= 0): the same seed gives the same ratings.")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes, 1..64.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Write the ratings: FILE.json (JSON), FILE.md (a Markdown table), or FILE without a suffix "
            "(both). The folder must exist.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    list_only: Annotated[
        bool, typer.Option("--list-bots", help="List the bots ramsli knows (with their options) and exit.")
    ] = False,
    scheduler: SchedulerOption = None,
    remote: Annotated[
        list[str] | None,
        typer.Option(
            "--remote",
            metavar="LABEL",
            help="An entrant played by a program elsewhere: this process hosts its seat and prints the invite "
            "link to give to `ramsli bot LINK --bot NAME`; repeatable. Keeps --jobs 1, no --scheduler.",
        ),
    ] = None,
    remote_host: Annotated[
        str, typer.Option("--remote-host", help="Address the remote seats listen on (0.0.0.0: every interface).")
    ] = "127.0.0.1",
    remote_port: Annotated[int, typer.Option("--remote-port", help="Port of the first remote seat (0: any free).")] = 0,
    remote_wait: Annotated[
        float, typer.Option("--remote-wait", help="Seconds to wait for every remote seat's program to connect.")
    ] = 600.0,
    remote_seconds: Annotated[
        float,
        typer.Option(
            "--remote-seconds", help="Seconds a remote program has per decision; then the tips move (a fault)."
        ),
    ] = 60.0,
) -> None:
    """Rate bots against each other: duplicate matches, OpenSkill ratings (μ, σ, μ − 3σ)."""
    if list_only:
        list_bots()
        return
    specs = split_bot_list(bots)
    remotes = [r.strip() for r in remote or [] if r.strip()]
    preset_list = [p.strip() for p in presets.split(",") if p.strip()]
    errors: list[str] = []
    for check in (lambda: check_count(deals, "--deals", MAX_DEALS, "deals"), lambda: check_jobs(jobs)):
        try:
            check()
        except LimitError as e:
            errors.append(refusal_text(e))
    if seed < 0:
        errors.append(f"--seed {seed}: allowed is a whole number >= 0")
    if set_deals < 1:
        errors.append(f"--set-deals {set_deals}: allowed is a whole number >= 1")
    elif deals % set_deals:
        errors.append(f"--deals {deals} is not a multiple of --set-deals {set_deals}: every match is a whole set")
    if not preset_list:
        errors.append(f"--presets {presets!r} names no preset; allowed are {', '.join(PRESETS)}")
    for name in preset_list:
        try:
            Rules.preset(name).with_assignments(list(rule or []))
        except RulesError as e:
            errors.append(refusal_text(e))
            break
    for s in specs:
        try:
            make_bot(s, seed=0)
        except ValueError as e:
            errors.append(refusal_text(e))
            break
    else:
        k = len(specs) + len(remotes)
        if k < 2:
            errors.append(
                f"--bots {bots!r} names {len(specs)} bot{'s' if len(specs) != 1 else ''}; the arena needs 2 or more"
            )
        elif players is not None and not 2 <= players <= min(6, k):
            errors.append(
                f"--players {players}: allowed are 2..{min(6, k)} (a table seats 2..6, R2.1, one seat per bot)"
            )
    if remotes and (jobs != 1 or scheduler):
        errors.append(
            "--remote: a seat played from elsewhere keeps the arena in this process: --jobs 1, no --scheduler"
        )
    if len(set(remotes)) != len(remotes) or set(remotes) & set(specs):
        errors.append(f"--remote {', '.join(remotes)}: every entrant needs a label of its own")
    if out is not None:
        try:
            for path in arena_targets(out):
                check_writable(path, "--out")
        except LimitError as e:
            errors.append(refusal_text(e))
    errors += check_scheduler(scheduler, jobs)
    if errors:
        fail(errors)
    for line in bot_warnings(specs):
        typer.echo(f"warning: {line}", err=True)
    console = Console(stderr=True)
    entrants: list[Any] = list(specs)
    hosts: list[Any] = []
    if remotes:
        from ramsli.client.host import RemoteEntrant, SeatHost

        for i, label in enumerate(remotes):
            port = remote_port + i if remote_port else 0
            try:
                host = SeatHost(remote_host, port, table=f"arena-{i + 1}", decision_seconds=remote_seconds).start()
            except (OSError, RuntimeError, SystemExit) as e:
                for h in hosts:
                    h.stop()
                fail(f"--remote {label}: cannot listen on {remote_host}:{port}: {e}")
            hosts.append(host)
            entrants.append(RemoteEntrant(label, host))
            typer.echo(f"remote seat {label}: ramsli bot {host.link} --bot NAME", err=True)
        for label, host in zip(remotes, hosts, strict=True):
            if not host.wait_for_client(remote_wait):
                for h in hosts:
                    h.stop()
                fail(f"--remote {label}: no program connected within {remote_wait:g} seconds")
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
            task = prog.add_task("deals", total=deals)
            res = run_arena(
                entrants,
                deals,
                presets=preset_list,
                rules=list(rule or []),
                players=players,
                set_deals=set_deals,
                seed=seed,
                jobs=jobs,
                scheduler=scheduler,
                progress=lambda k: prog.advance(task, k),
            )
    except KeyboardInterrupt:
        interrupted(scheduler)
    except ClusterError as e:
        fail(refusal_text(e))
    except (ValueError, RulesError) as e:
        fail(refusal_text(e))
    finally:
        for host in hosts:
            if "res" in locals():
                host.finish(
                    [
                        {"place": i, "seat": "p1", "name": e.label, "stack": round(e.rating, 2)}
                        for i, e in enumerate(res.ranked(), 1)
                    ]
                )
            host.stop()
    table = Table(
        title=f"{res.matches} matches ({res.deals} deals × {res.players} rotations), presets "
        f"{', '.join(res.presets)}, seed {seed}; rating = μ − 3σ (OpenSkill Plackett–Luce)"
    )
    for col in ("#", "bot", "rating", "μ", "σ", "matches", "counters/hand", "95% CI", "first", "faults"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for i, ent in enumerate(res.ranked(), 1):
        table.add_row(
            str(i),
            ent.label,
            f"{ent.rating:.2f}",
            f"{ent.mu:.2f}",
            f"{ent.sigma:.2f}",
            str(ent.matches),
            f"{ent.mean:+.3f}",
            f"±{ent.ci95:.3f}",
            str(ent.firsts),
            str(ent.faults),
        )
    Console(highlight=False, width=max(Console().width, 120)).print(table)
    for ent in res.ranked():
        if ent.faults:
            typer.echo(f"warning: {ent.label}: {ent.faults} decisions taken by the tips player: {ent.error}", err=True)
    if out is not None:
        try:
            for path in write_arena(res, out):
                typer.echo(f"wrote {path}")
        except OSError as e:
            fail(f"cannot write {e.filename or ''}: {e.strerror or e}", usage=False)


def register(app: typer.Typer) -> None:
    """Add ``ramsli arena`` to the app."""
    app.command("arena")(arena)
