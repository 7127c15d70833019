"""``ramsli simulate``: self-play of many hands or whole sessions.

Prints in-rate and bete rate by seat position relative to the dealer, the pot
size distribution, how often the pot is split or carried over, session length
and counters per hand by bot. Uses the batch kernel when every bot is
``random`` or ``tips``, else the engine with the bots. With neither ``--hands``
nor ``--sessions`` it plays :data:`DEFAULT_HANDS` hands. Exit status 2 for bad input.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ramsli.analysis.cluster import ClusterError
from ramsli.commands import fail as _fail
from ramsli.commands import setup_errors
from ramsli.commands.cluster_opts import SchedulerOption, check_scheduler, interrupted
from ramsli.frontends.text import refusal_text
from ramsli.lab.limits import MAX_HANDS, MAX_SESSIONS, LimitError, check_count, check_jobs, check_writable, out_targets
from ramsli.rules import PRESETS, Rules, RulesError

__all__ = ["register", "simulate_cmd", "DEFAULT_HANDS"]

#: hands played when neither --hands nor --sessions is given
DEFAULT_HANDS = 10_000


def simulate_cmd(
    hands: Annotated[
        int | None,
        typer.Option(
            "--hands",
            "-n",
            metavar="N",
            help="Independent hands to play "
            "(each from fresh stacks and an empty pot), 1..1,000,000,000. Default: "
            f"{DEFAULT_HANDS:,} when --sessions is not given.",
            show_default=False,
        ),
    ] = None,
    sessions: Annotated[
        int | None,
        typer.Option(
            "--sessions",
            metavar="N",
            help="Whole sessions to play "
            "instead of --hands, 1..10,000,000 (R3: carry-over, bust, ends; "
            "capped at 10000 hands each).",
            show_default=False,
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="One bot per seat, comma-separated (e.g. "
            "'tips,tips,random'); a single name fills every seat (--players, or the "
            "option players, or 5). The kernel plays random (also as beginner) and tips "
            "(also as rules and easy); other bots use the engine.",
        ),
    ] = "random",
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-P",
            help="Seats, 2..6 (R2.1); must equal the "
            "number of --bots when several are named. Default: the number "
            "of --bots, else the option players, else 5.",
        ),
    ] = None,
    preset: Annotated[
        str, typer.Option("--preset", "-p", help=f"Preset of R6 ({', '.join(PRESETS)}).")
    ] = "traditional",
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule", "-r", metavar="KEY=VALUE", help="Change one option (R8); repeatable, e.g. --rule bete=10."
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed (>= 0): the same seed gives the same hands.")] = 0,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", help="Worker processes for the engine path, 1..64 (the kernel uses all cores by itself)."
        ),
    ] = 1,
    engine: Annotated[
        bool, typer.Option("--engine", help="Play through the engine even when the kernel could.")
    ] = False,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            help="Write the summary: FILE.json (JSON), FILE.csv "
            "(CSV), or FILE without a suffix (both FILE.json and FILE.csv). "
            "The folder must exist.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    scheduler: SchedulerOption = None,
    kernel: Annotated[
        str,
        typer.Option(
            "--kernel",
            help="How random and tips play: auto (the fast kernel; while it compiles, once after an "
            "install, the same hands in plain Python meanwhile), kernel (wait for the compile), python "
            "(never the kernel). The results are the same.",
        ),
    ] = "auto",
) -> None:
    """Self-play many hands or sessions and summarise them (in-rate, bete rate, pots, counters)."""
    from ramsli.lab.simulate import simulate, write_out  # the lab's kernel: optional extra 'lab' (NumPy, Numba)

    try:
        rules = Rules.preset(preset).with_assignments(rule or [])
    except RulesError as e:
        _fail(refusal_text(e))
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    errors: list[str] = []
    count = players if players is not None else rules.players
    n = count if count is not None else (5 if len(specs) == 1 else len(specs))
    errors += setup_errors(rules, n, f"--players {players}" if players is not None else "--bots")
    if not errors and len(specs) == 1:
        specs = specs * n  # a single bot fills every seat
    elif not errors and len(specs) != n:
        src = f"--players {players}" if players is not None else f"option players={rules.players}"
        errors.append(
            f"--bots names {len(specs)} bots but {src}: name one bot per seat, or a single bot to fill every seat (R2.1)"
        )
    if hands is not None and sessions is not None:
        errors.append("give one of --hands N or --sessions N, not both")
    elif hands is None and sessions is None:
        hands = DEFAULT_HANDS
    checks: list[Callable[[], None]] = []
    if hands is not None:
        checks.append(functools.partial(check_count, hands, "--hands", MAX_HANDS))
    if sessions is not None:
        checks.append(functools.partial(check_count, sessions, "--sessions", MAX_SESSIONS, "sessions"))
    checks.append(functools.partial(check_jobs, jobs))
    for check in checks:
        try:
            check()
        except LimitError as e:
            errors.append(refusal_text(e))
    hands, sessions = hands or 0, sessions or 0
    if seed < 0:
        errors.append(f"--seed {seed}: allowed is a whole number >= 0")
    targets = []
    if out is not None:
        try:
            targets = out_targets(out)
            for t in targets:
                check_writable(t, "--out")
        except LimitError as e:
            errors.append(refusal_text(e))
    errors += check_scheduler(scheduler, jobs)
    if kernel not in ("auto", "kernel", "python"):
        errors.append(f"--kernel {kernel!r}: allowed are auto, kernel, python")
    if errors:
        _fail(errors)
    console = Console(stderr=True)
    total = hands or sessions
    try:
        with Progress(
            TextColumn("[bold]simulate"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=quiet,
            transient=True,
        ) as prog:
            task = prog.add_task("play", total=total)
            try:
                res = simulate(
                    rules,
                    specs,
                    hands=hands,
                    sessions=sessions,
                    seed=seed,
                    jobs=jobs,
                    progress=lambda d, t: prog.update(task, completed=d),
                    use_kernel=False if engine else None,
                    note=lambda m: prog.console.print(m),
                    scheduler=scheduler,
                    kernel=kernel,
                )
            except (ValueError, ClusterError) as e:
                _fail(refusal_text(e))
    except KeyboardInterrupt:
        interrupted(scheduler)
    show(res)
    for t in targets:
        try:
            write_out(res, str(t))
        except OSError as e:
            _fail(f"--out: cannot write {str(t)!r}: {e.strerror or e}", usage=False)
        typer.echo(f"wrote {t}")


def show(res: dict) -> None:
    """Print the summary with Rich tables."""
    con = Console()
    speed = f", {res['hands_per_s']:,.0f} hands/s" if res.get("hands_per_s") else ""
    how = {
        "python": " (in plain Python: it compiles in the background)",
        "python+compiled": " (in plain Python until it had compiled)",
    }
    con.print(
        f"[bold]{res['hands']:,} hands[/] of {res['players']} players by the {res['engine']}"
        f"{how.get(res.get('kernel_mode') or '', '')} in {res['elapsed_s']:.2f} s{speed}; seed {res['seed']}"
    )
    t = Table(title="By position (1 = dealer's left)")
    for c in ("position", "in-rate", "bete when in", "bete per hand"):
        t.add_column(c, justify="right")
    for p in res["positions"]:
        t.add_row(
            f"{p['position']} {p['label'] if p['label'] in ('dealer', 'dealer' + chr(39) + 's left') else ''}",
            f"{p['in_rate']:.1%}",
            f"{p['bete_rate_when_in']:.1%}",
            f"{p['bete_rate']:.1%}",
        )
    con.print(t)
    b = Table(title="Counters per hand by bot (95% CI)")
    b.add_column("bot")
    b.add_column("seats")
    b.add_column("counters/hand", justify="right")
    for r in res["bots_summary"]:
        b.add_row(r["bot"], " ".join(r["seats"]), f"{r['counters_per_hand']:+.3f} ± {r['ci95']:.3f}")
    con.print(b)
    for line in outcome_lines(res):
        con.print(line, highlight=False, markup=False)
    if "sessions" in res:
        s = res["sessions"]
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(s["end_reasons"].items()))
        con.print(
            f"sessions: {s['count']}, hands per session mean {s['mean_hands']:.1f}, median "
            f"{s['median_hands']:.0f}, 90% {s['p90_hands']:.0f}, max {s['max_hands']}; ends: {reasons}"
        )


def outcome_lines(res: dict) -> list[str]:
    """The summary's lines about pots and how the hands ended, each saying what it counts, with
    the rule ids: the pot of a hand played out (R5.1; antes and carry-over, R5.4), the hands played
    out, tied (R5.2), won by walkover (R4.6) and thrown in (D-10), and how often a hand left
    counters in the pot for the next (R5.4). ``res`` is :func:`ramsli.lab.simulate.simulate`'s.

    >>> res = {"mode": "hands", "players": 5, "rules": {"ante": 1, "dealer_forced": True, "compulsory": False},
    ...        "pot": {"played_hands": 806, "mean": 5.0, "p50": 5, "p90": 5, "p99": 5}, "split_rate": 0.127,
    ...        "walkover_rate": 0.194, "thrown_in_rate": 0.0, "carry_over_rate": 0.459}
    >>> print("\\n".join(outcome_lines(res)))  # doctest: +NORMALIZE_WHITESPACE
    Pot of a hand played out (tricks played, R5.1): always 5 counters; here every hand starts with an
      empty pot, so its pot is the 5 antes (R4.1); whole sessions (--sessions) carry pots over (R5.4)
    How the hands ended: played out 80.6% (of all hands; tied for most tricks, the pot shared: 12.7%,
      R5.2); walkover 19.4% (one player in takes the pot, R4.6); thrown in 0.0% (everyone out, the pot
      carries over, D-10; never with dealer_forced on, R4.5)
    Hands that left counters in the pot for the next hand (a bete, R5.3; a tie's remainder, R5.2; a
      thrown-in hand's pot, D-10): 45.9%; here the next hand starts afresh all the same
    """
    pot, rules = res["pot"], res.get("rules", {})
    hands_mode = res.get("mode") == "hands"
    played = 1.0 - res["walkover_rate"] - res["thrown_in_rate"]
    what = "Pot of a hand played out (tricks played, R5.1)"
    if not pot.get("played_hands"):
        first = f"{what}: no hand was played out"
    elif pot["p50"] == pot["p99"] and pot["mean"] == pot["p50"]:
        first = f"{what}: always {pot['p50']} counters"
    else:
        first = (
            f"{what}: mean {pot['mean']:.2f} counters, median {pot['p50']}, 90% of them at most {pot['p90']}, "
            f"99% at most {pot['p99']}"
        )
    if hands_mode:
        antes = res["players"] * rules.get("ante", 1)
        first += (
            f"; here every hand starts with an empty pot, so its pot is the {antes} antes (R4.1); whole sessions "
            "(--sessions) carry pots over (R5.4)"
        )
    else:
        first += " (the antes and what the hand before left, R5.4)"
    thrown = f"thrown in {res['thrown_in_rate']:.1%} (everyone out, the pot carries over, D-10"
    if rules.get("compulsory"):
        thrown += "; never under compulsory play, R4.5)"
    elif rules.get("dealer_forced", True):
        thrown += "; never with dealer_forced on, R4.5)"
    else:
        thrown += ")"
    second = (
        f"How the hands ended: played out {played:.1%} (of all hands; tied for most tricks, the pot shared: "
        f"{res['split_rate']:.1%}, R5.2); walkover {res['walkover_rate']:.1%} (one player in takes the pot, R4.6); "
        f"{thrown}"
    )
    third = (
        "Hands that left counters in the pot for the next hand (a bete, R5.3; a tie's remainder, R5.2; a "
        f"thrown-in hand's pot, D-10): {res['carry_over_rate']:.1%}"
    )
    if hands_mode:
        third += "; here the next hand starts afresh all the same"
    return [first, second, third]


def register(app: typer.Typer) -> None:
    """Add ``simulate`` to the ``ramsli`` app."""
    app.command(
        "simulate",
        help="Self-play many hands or whole sessions and summarise them (default: "
        f"{DEFAULT_HANDS:,} hands of random bots, 5 players, traditional).",
    )(simulate_cmd)
