"""``ramsli odds``: should I stay in with this hand?

Estimates P(at least one trick), P(most tricks) and the expected counters of
``in`` against ``out`` with 95% confidence intervals; see :mod:`ramsli.lab.odds`
for the exact definitions. Exit status 2 for bad input.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ramsli.analysis.cluster import ClusterError
from ramsli.commands import fail, setup_errors
from ramsli.commands.cluster_opts import SchedulerOption, check_scheduler, interrupted
from ramsli.frontends.text import refusal_text
from ramsli.lab.limits import LimitError, check_counters, check_positive_time, check_seed
from ramsli.rules import PRESETS, Rules, RulesError

__all__ = ["register", "odds_cmd", "DEFAULT_TIME", "QUICK_TIME"]

#: seconds of sampling without ``--time``
DEFAULT_TIME = 2.0
#: seconds of the quick answer in plain Python without ``--time``, while the kernel compiles (once
#: after an install): with the time to start, the first answer comes within 2 s on a quiet 2-core machine
QUICK_TIME = 1.0


def odds_cmd(
    cards: Annotated[str, typer.Argument(help="My five cards, e.g. 'AS 9S KH 8D 7C' (R1.6 notation).")],
    turn_up: Annotated[str, typer.Option("--turn-up", "-t", help="The turn-up (its suit is trump, R4.4), e.g. 10S.")],
    players: Annotated[
        int | None,
        typer.Option("--players", "-P", help="Players at the table, 2..6 (R2.1); default: the option players, else 5."),
    ] = None,
    seat: Annotated[
        int,
        typer.Option(
            "--seat",
            help="My place in the declaration order: 0 = the dealer's left "
            "(declares first) .. PLAYERS-1 = the dealer (declares last); R4.5.",
        ),
    ] = 0,
    before: Annotated[
        str,
        typer.Option(
            "--before",
            help="The SEAT declarations made before mine, in order, comma-separated, e.g. 'in,out' for seat 2.",
        ),
    ] = "",
    bot: Annotated[
        str,
        typer.Option(
            "--bot",
            help="Opponent model (and mine): tips (kernel, fast; also its "
            "names rules and easy), random (kernel), or any bot name (engine, slow).",
        ),
    ] = "tips",
    preset: Annotated[
        str, typer.Option("--preset", "-p", help=f"Preset of R6 ({', '.join(PRESETS)}).")
    ] = "traditional",
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule", "-r", metavar="KEY=VALUE", help="Change one option (R8), e.g. --rule bete=10; repeatable."
        ),
    ] = None,
    pot: Annotated[
        int, typer.Option("--pot", help="Carry-over pot before the antes (R5.4), counters, 0..1000000000.")
    ] = 0,
    time_s: Annotated[
        float | None,
        typer.Option(
            "--time",
            help="Time budget in seconds (a finite number > 0); default 2, and 1 for the quick answer in "
            "plain Python while the kernel compiles (once after an install).",
        ),
    ] = None,
    precision: Annotated[
        float,
        typer.Option(
            "--precision",
            help="Stop once the 95% CI half-width of in-out is "
            "at most this many counters (a finite number >= 0; 0: use the whole --time).",
        ),
    ] = 0.05,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed (>= 0).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    scheduler: SchedulerOption = None,
    kernel: Annotated[
        str,
        typer.Option(
            "--kernel",
            help="How tips and random play: auto (the fast kernel; while it compiles, once after an "
            "install, answer at once in plain Python on fewer samples), kernel (wait for the compile), "
            "python (never the kernel).",
        ),
    ] = "auto",
) -> None:
    """Estimate P(a trick), P(most tricks) and the counters of in vs out for one hand."""
    from ramsli.lab.odds import OddsError, estimate  # the lab's kernel: optional extra 'lab' (NumPy, Numba)

    try:
        rules = Rules.preset(preset).with_assignments(rule or [])
    except RulesError as e:
        fail([refusal_text(e)])
    if players is None:
        players = rules.players or 5
    errors = setup_errors(rules, players, f"--players {players}")  # R2.1, R3.5: the engine's set-up check
    for check in (
        lambda: check_counters(rules, pot),  # the ante is checked with the set-up (check_setup)
        lambda: check_positive_time(DEFAULT_TIME if time_s is None else time_s, "--time"),
        lambda: check_positive_time(precision, "--precision", allow_zero=True, unit="counters"),
        lambda: check_seed(seed),
    ):
        try:
            check()
        except LimitError as e:
            errors.append(refusal_text(e))
    errors += check_scheduler(scheduler)
    if kernel not in ("auto", "kernel", "python"):
        errors.append(f"--kernel {kernel!r}: allowed are auto, kernel, python")
    if errors:
        fail(errors)
    try:
        res = estimate(
            cards,
            turn_up,
            players,
            seat,
            before,
            rules,
            bot=bot,
            time_s=DEFAULT_TIME if time_s is None else time_s,
            quick_s=QUICK_TIME if time_s is None else None,
            precision=precision,
            seed=seed,
            pot=pot,
            note=lambda m: Console(stderr=True).print(m),
            scheduler=scheduler,
            kernel=kernel,
        )
    except (RulesError, OddsError, LimitError, ClusterError) as e:
        fail([refusal_text(e)])
    except KeyboardInterrupt:
        interrupted(scheduler)
    if as_json:
        typer.echo(json.dumps(res, indent=2))
        return
    con = Console()
    t = Table(
        title=f"{res['cards']}, turn-up {res['turn_up']}, {players} players, seat {seat}"
        f"{' after ' + ','.join(res['before']) if res['before'] else ''} vs {bot}"
    )
    t.add_column("estimate")
    t.add_column("value", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_row("P(at least one trick | in)", f"{res['p_trick']['mean']:.1%}", f"± {res['p_trick']['ci95']:.1%}")
    t.add_row("P(most tricks | in)", f"{res['p_most']['mean']:.1%}", f"± {res['p_most']['ci95']:.1%}")
    t.add_row("counters if in", f"{res['ev_in']['mean']:+.2f}", f"± {res['ev_in']['ci95']:.2f}")
    if res["out_allowed"]:
        t.add_row("counters if out", f"{res['ev_out']['mean']:+.2f}", f"± {res['ev_out']['ci95']:.2f}")
        t.add_row("in - out", f"{res['ev_diff']['mean']:+.2f}", f"± {res['ev_diff']['ci95']:.2f}")
    con.print(t)
    con.print(
        "counters: my stack after the hand minus before the ante (out = -ante, R5.5); "
        f"{res['accepted']:,} of {res['samples']:,} samples ({res['conditioning']} conditioning) "
        f"in {res['elapsed_s']:.2f} s"
    )
    if res["estimator"] == "python" and kernel == "auto":
        con.print(
            "a quick estimate: the samples were played in plain Python while the fast kernel compiles "
            "in the background (once); ask again in a moment for the full estimate"
        )
    if not res["out_allowed"]:
        con.print("out is not allowed here: the dealer must be in when everyone before is out (R4.5)")
    elif abs(res["ev_diff"]["mean"]) <= res["ev_diff"]["ci95"]:
        con.print(
            f"[bold]too close to call[/]: in and out differ by {res['ev_diff']['mean']:+.2f} ± "
            f"{res['ev_diff']['ci95']:.2f} counters, no measurable difference at this sample size"
        )
    elif res["ev_diff"]["mean"] > 0:
        con.print(f"[bold green]stay in[/] (in beats out by {res['ev_diff']['mean']:.2f} counters)")
    else:
        con.print(f"[bold red]fold[/] (out beats in by {-res['ev_diff']['mean']:.2f} counters)")


def register(app: typer.Typer) -> None:
    """Add ``odds`` to the ``ramsli`` app."""
    app.command("odds", help="Estimate the odds of one hand: P(a trick), P(most tricks), in vs out.")(odds_cmd)
