"""``ramsli solve``: a declaration equilibrium, its exploitability, and the player's question.

Four modes (see :mod:`ramsli.lab.solve` for the game, abstraction and algorithm):

- ``ramsli solve --preset P --players N --iterations T --out FILE.json``: solve and write the policy;
- ``ramsli solve --exploit POLICY``: the counters per hand a best-responding seat gains against
  POLICY (a policy file, ``tips``, ``equilibrium`` = the shipped policy, or a bot name), 95% CI;
- ``ramsli solve --ask "CARDS" --turn-up C --position K --ins-before M``: in or out, and how big
  the mistake of the other choice is, by the equilibrium policy;
- ``ramsli solve --report docs/solve.md``: run the measurements and write the report with its plots.

Exit status 2 for bad input.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from ramsli.analysis.cluster import ClusterError
from ramsli.cards import CardError, make_deck, parse_cards
from ramsli.commands import fail, setup_errors
from ramsli.commands.cluster_opts import SchedulerOption, check_scheduler, interrupted
from ramsli.frontends.text import refusal_text
from ramsli.lab.equilibrium import PolicyError, default_policy, load_policy, save_policy
from ramsli.lab.limits import LimitError, check_jobs, check_positive_time, check_seed, check_writable
from ramsli.rules import PRESETS, Rules, RulesError

__all__ = ["register", "solve_cmd"]


def _rules(preset: str, rule: list[str] | None) -> Rules:
    try:
        return Rules.preset(preset).with_assignments(rule or [])
    except RulesError as e:
        fail(refusal_text(e))


def solve_cmd(
    preset: Annotated[
        str, typer.Option("--preset", "-p", help=f"Preset of R6 ({', '.join(PRESETS)}).")
    ] = "traditional",
    players: Annotated[
        int | None, typer.Option("--players", "-P", help="Seats, 2..6 (R2.1); default: the option players, else 5.")
    ] = None,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", metavar="KEY=VALUE", help="Change one option (R8); repeatable."),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option("--iterations", "-i", help="CFR+ iterations (>= 1); default 1000 unless --time is given."),
    ] = None,
    time_s: Annotated[
        float | None,
        typer.Option(
            "--time", help="Solve for this many seconds instead of a number of iterations (not reproducible)."
        ),
    ] = None,
    deals: Annotated[
        int, typer.Option("--deals", help="Deals in the solver's sample (a multiple of --batch).")
    ] = 200_000,
    batch: Annotated[int, typer.Option("--batch", help="Deals per CFR+ iteration.")] = 20_000,
    pot: Annotated[int, typer.Option("--pot", help="Carry-in pot before the antes (R5.4), counters.")] = 0,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed (>= 0): the same seed gives the same policy.")] = 0,
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", help="Write the policy here (JSON; default solve-PRESET-NPLAYERS.json)."),
    ] = None,
    checkpoint: Annotated[
        str | None,
        typer.Option("--checkpoint", help="Checkpoint file (.npz), written every 100 iterations and at the end."),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the solve saved in --checkpoint (same "
            "options); gives the same policy as an uninterrupted run.",
        ),
    ] = False,
    exploit: Annotated[
        str | None,
        typer.Option(
            "--exploit",
            metavar="POLICY",
            help="Measure POLICY "
            "instead of solving: a policy file, tips, equilibrium (the "
            "shipped policy) or a bot name (slow).",
        ),
    ] = None,
    br_deals: Annotated[
        int | None,
        typer.Option(
            "--br-deals",
            help="Fresh deals the best response is fitted on; default 200,000 (a bot: 3,000).",
            show_default=False,
        ),
    ] = None,
    eval_deals: Annotated[
        int | None,
        typer.Option(
            "--eval-deals", help="Fresh deals it is measured on; default 100,000 (a bot: 2,000).", show_default=False
        ),
    ] = None,
    fine: Annotated[
        bool,
        typer.Option(
            "--fine-responder",
            help="With --exploit: the best response sees finer "
            "buckets than the policy (voids, second trump), a check of the "
            "abstraction.",
        ),
    ] = False,
    ask: Annotated[
        str | None,
        typer.Option(
            "--ask",
            metavar="CARDS",
            help="Answer for this hand: in or "
            "out, and the size of the mistake (with --position and "
            "--ins-before or --before).",
        ),
    ] = None,
    turn_up: Annotated[
        str | None,
        typer.Option(
            "--turn-up",
            "-t",
            help="The turn-up for --ask; without "
            "it every trump suit is answered (lowest card of the "
            "suit not in hand turned up).",
        ),
    ] = None,
    position: Annotated[
        int,
        typer.Option(
            "--position",
            help="For --ask: place in the declaration order, 1 = the dealer's left .. PLAYERS = the dealer.",
        ),
    ] = 1,
    ins_before: Annotated[
        int | None,
        typer.Option("--ins-before", help="For --ask: how many before you declared in (every order is answered)."),
    ] = None,
    before: Annotated[
        str | None, typer.Option("--before", help="For --ask: the declarations before you, e.g. in,out.")
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            help="For --ask: deals sampled for this very hand (the "
            "others' cards at random, weighted by the declarations before); 0: "
            "the bucket's answer only.",
        ),
    ] = 20_000,
    policy: Annotated[
        str, typer.Option("--policy", help="For --ask: a policy file, or default (shipped).")
    ] = "default",
    report: Annotated[
        str | None,
        typer.Option(
            "--report",
            metavar="FILE.md",
            help="Run the measurements of the report and write it (plots beside it in a folder named like it).",
        ),
    ] = None,
    policies: Annotated[
        str | None,
        typer.Option(
            "--policies",
            metavar="DIR",
            help="With --report: also "
            "write each computed policy there as PRESET-N.json (the "
            "shipped ones: src/ramsli/lab/policies).",
        ),
    ] = None,
    duplicate_deals: Annotated[
        int,
        typer.Option(
            "--duplicate-deals", help="With --report: deals of the equilibrium bot's duplicate matches (0: none)."
        ),
    ] = 0,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", help="Local worker processes dealing the tables (the kernel uses every core by itself)."
        ),
    ] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    scheduler: SchedulerOption = None,
) -> None:
    """Solve the declaration stage, measure a policy's exploitability, or ask the equilibrium about a hand."""
    from ramsli.lab import solve as SV  # the lab's kernel: optional extra 'lab' (NumPy, Numba)

    rules = _rules(preset, rule)
    n = players if players is not None else (rules.players or 5)
    errors = setup_errors(rules, n, f"--players {n}")  # R2.1, R3.5: the engine's set-up check
    checks: list[Callable[[], None]] = [functools.partial(check_seed, seed), functools.partial(check_jobs, jobs)]
    if time_s is not None:
        checks.append(functools.partial(check_positive_time, time_s, "--time"))
    for check in checks:
        try:
            check()
        except LimitError as e:
            errors.append(refusal_text(e))
    modes = [m for m, v in (("--exploit", exploit), ("--ask", ask), ("--report", report)) if v is not None]
    if len(modes) > 1:
        errors.append(f"give one of {', '.join(modes)}, not several")
    if iterations is not None and time_s is not None:
        errors.append("give one of --iterations or --time, not both")
    errors += check_scheduler(scheduler, jobs)
    if errors:
        fail(errors)
    if ask is not None:
        if samples < 0:
            fail(f"--samples {samples}: allowed is a whole number >= 0")
        _ask(SV, rules, n, ask, turn_up, position, ins_before, before, policy, as_json, samples, seed)
        return
    if report is not None:
        from ramsli.lab.solve_report import write_report

        try:
            command = " ".join(
                ["ramsli solve --report", report]
                + (["--policies", policies] if policies else [])
                + ([f"--duplicate-deals {duplicate_deals}"] if duplicate_deals else [])
                + ([f"--seed {seed}"] if seed else [])
            )
            write_report(
                report,
                seed=seed,
                scheduler=scheduler,
                quiet=quiet,
                policies_dir=policies,
                duplicate_deals=duplicate_deals,
                command=command,
            )
        except (SV.SolveError, ClusterError, OSError) as e:
            fail(refusal_text(e))
        except KeyboardInterrupt:
            interrupted(scheduler)
        typer.echo(f"wrote {report}")
        return
    console = Console(stderr=True)
    try:
        SV.check_game(rules, n)
        with (
            SV.make_runner(scheduler, jobs) as runner,
            Progress(
                TextColumn("[bold]solve {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                disable=quiet,
                transient=True,
            ) as prog,
        ):
            tasks: dict[str, TaskID] = {}

            def progress(phase: str, done: int, total: int) -> None:
                if phase not in tasks:
                    tasks[phase] = prog.add_task("dealing" if phase == "deal" else "iterations", total=total or None)
                prog.update(tasks[phase], completed=done)

            if exploit is not None:
                asks_bot = (
                    exploit not in ("tips", "equilibrium")
                    and not exploit.endswith(".json")
                    and "/" not in exploit
                    and not Path(exploit).exists()
                )  # a path is a policy file
                if br_deals is None:
                    br_deals = 3_000 if asks_bot else 200_000
                if eval_deals is None:
                    eval_deals = 2_000 if asks_bot else 100_000
                if asks_bot:
                    console.print(
                        f"{exploit} is asked through the engine at every declaration of every deal: "
                        f"{br_deals:,} + {eval_deals:,} deals (slow; --br-deals, --eval-deals)"
                    )
                res = SV.exploit(
                    exploit,
                    rules,
                    n,
                    seed=seed,
                    br_deals=br_deals,
                    eval_deals=eval_deals,
                    pot=pot,
                    runner=runner,
                    progress=progress,
                    fine=fine,
                )
            else:
                path = out or f"solve-{preset}-{n}.json"
                try:
                    check_writable(path, "--out")
                except LimitError as e:
                    fail(refusal_text(e))
                if iterations is None and time_s is None:
                    iterations = 1000
                sol = SV.solve(
                    rules,
                    n,
                    iterations=iterations,
                    time_s=time_s,
                    seed=seed,
                    deals=deals,
                    batch=batch,
                    pot=pot,
                    checkpoint=checkpoint,
                    resume=resume,
                    runner=runner,
                    progress=progress,
                )
    except (SV.SolveError, ClusterError, ValueError) as e:
        fail(refusal_text(e))
    except KeyboardInterrupt:
        interrupted(scheduler)
    if exploit is not None:
        if as_json:
            typer.echo(json.dumps(res, indent=2))
            return
        _show_exploit(res)
        return
    try:
        save_policy(sol.policy, path)
    except OSError as e:
        fail(f"--out: cannot write {path!r}: {e.strerror or e}", usage=False)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "out": path,
                    "iterations": sol.iterations,
                    "seconds": sol.seconds,
                    "players": n,
                    "rules": rules.diff(),
                },
                indent=2,
            )
        )
        return
    typer.echo(
        f"wrote {path}: the declaration policy of {n} players, {preset}"
        f"{' ' + ' '.join(rule) if rule else ''}, after {sol.iterations} CFR+ iterations over "
        f"{deals:,} deals ({sol.seconds:.1f} s); measure it with  ramsli solve --exploit {path}"
        f" --players {n} --preset {preset}"
    )


def _show_exploit(res: dict) -> None:
    con = Console()
    e = res["exploitability"]
    con.print(
        f"[bold]{res['policy']}[/] at {res['players']} players: a best-responding seat gains "
        f"[bold]{e['mean']:+.4f} ± {e['ci95']:.4f}[/] counters per hand (95% CI), averaged over the "
        f"positions; best response within the {'finer buckets' if res['responder'] == 'fine' else 'abstraction'}"
        f", fitted on {res['br_deals']:,} deals and "
        f"measured on {res['eval_deals']:,} others"
    )
    t = Table(title="By position (1 = dealer's left)")
    for c in ("position", "gain of a best response", "95% CI", "value of the policy"):
        t.add_column(c, justify="right")
    for d, (p, v) in enumerate(zip(res["per_position"], res["value"])):
        t.add_row(str(d + 1), f"{p['mean']:+.4f}", f"± {p['ci95']:.4f}", f"{v:+.3f}")
    con.print(t)
    if e["mean"] + e["ci95"] < 0:
        con.print(
            "the best response loses on fresh deals: fitted on too few deals to beat the policy (it is "
            "then no sign of strength); give more --br-deals"
        )


def _ask(
    SV: ModuleType,
    rules: Rules,
    n: int,
    cards: str,
    turn_up: str | None,
    position: int,
    ins_before: int | None,
    before: str | None,
    policy: str,
    as_json: bool,
    samples: int = 0,
    seed: int = 0,
) -> None:
    try:
        pol = default_policy(rules, n) if policy == "default" else load_policy(policy)
    except PolicyError as e:
        fail(refusal_text(e))
    if pol is None:
        fail(
            f"no shipped policy for these rules at {n} players: solve one (ramsli solve --out FILE) and give "
            "--policy FILE"
        )
    if turn_up is not None:
        turn_ups = [turn_up]
    else:
        try:
            mine = set(parse_cards(cards))
        except CardError as e:
            fail(f"--ask: {e}")
        deck = [c for c in make_deck(pol.rules.deck, False) if c not in mine]
        turn_ups = [str(min((c for c in deck if c.suit == s), key=lambda c: c.rank)) for s in "SHDC"]
    results = []
    for tu in turn_ups:
        try:
            results.append(
                SV.ask(
                    pol,
                    cards,
                    tu,
                    position,
                    before=None if before is None else [b for b in before.split(",") if b.strip()],
                    ins_before=ins_before if before is None else None,
                    samples=samples,
                    seed=seed,
                )
            )
        except SV.SolveError as e:
            fail(refusal_text(e))
    if as_json:
        typer.echo(json.dumps(results, indent=2))
        return
    con = Console()
    for res in results:
        con.print(
            f"[bold]{res['cards']}[/], turn-up {res['turn_up']}, position {res['position']} of "
            f"{res['players']} (its bucket: "
            + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in dict(res["features"]).items())
            + ")"
        )
        for a in res["answers"]:
            who = ",".join(a["before"]) or "first to speak"
            if a["forced_in"]:
                con.print(f"  after {who}: in (the dealer is forced in, R4.5)")
                continue
            p = a["p_in"]
            verdict = "in" if p >= 0.5 else "out"
            mix = "" if p in (0.0, 1.0) else f" (the equilibrium mixes: in {p:.0%} of the time)"
            size = (
                ""
                if a["mistake"] is None
                else (f"; the other choice costs {a['mistake']:.2f} counters per such hand against the equilibrium")
            )
            con.print(f"  after {who}: the equilibrium, by the bucket: [bold]{verdict}[/]{mix}{size}")
            hand = a.get("hand")
            if hand is not None and hand["effective"] > 0:
                better = "in" if hand["mean"] > 0 else "out"
                con.print(
                    f"    this very hand: in - out = {hand['mean']:+.2f} ± {hand['ci95']:.2f} counters against "
                    f"the equilibrium ({hand['samples']:,} deals, {hand['effective']:,.0f} effective): "
                    + (
                        "too close to call"
                        if abs(hand["mean"]) <= hand["ci95"]
                        else f"[bold]{better}[/] is better by {abs(hand['mean']):.2f}"
                        + (
                            ""
                            if better == verdict
                            else " (for these exact cards trust this line: the bucket's answer is an average "
                            "over the hands like it)"
                        )
                    )
                )
    con.print(
        "the equilibrium answers by the hand's bucket (trumps, their effective ranks, side aces and kings); "
        "see docs/solve.md"
    )


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the ``ramsli`` app."""
    app.command(
        "solve",
        help="Solve the in/out question: a declaration equilibrium, its exploitability, and answers for one hand.",
    )(solve_cmd)
