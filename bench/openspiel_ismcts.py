"""OpenSpiel's ISMCTS against ramsli's bots: an outside yardstick.

OpenSpiel's ``ISMCTSBot`` (open_spiel.python.algorithms.ismcts, random-rollout
evaluator, UCT c = 2) plays through :class:`ramsli.rl.openspiel_game.ISMCTSRamsliBot`,
registered as the ramsli bot ``"ismcts"``: it sees only its seat's observation
(R7), rebuilds an OpenSpiel state consistent with it and searches with a fresh
deal of the hidden cards every simulation.

Tournament: :func:`ramsli.analysis.tournament.run_tournament` in duplicate mode (every
deal is played in every rotation of the bots around the table; the same deals
for every lineup for a given seed), one hand per deal from equal stacks and an
empty pot. Result per bot: counters per hand, mean over deals ± the 95%
confidence interval (1.96 · sd / sqrt(deals)), and the median time per decision.

Budgets: ISMCTS is given a fixed number of simulations per decision
(``--sims``, default 100). With ``--match-time`` the script first measures the
median decision time of ``montecarlo`` (its default budget) and then picks the
ISMCTS simulation count whose median decision time comes closest to it (the
bots of this project are compiled with Numba; OpenSpiel's ISMCTS on a Python
game is not, so equal time means very few simulations).

``--bot`` names the ramsli bot whose time is matched (default ``montecarlo``)
and ``--factor`` gives ISMCTS that many times its median (the
``expert`` against ISMCTS at 10× its time). With ``--paired`` the verdict
compares, deal by deal, ISMCTS with the mean of the other seats at the same
table (a paired difference with its 95% interval).

Run::

    /work/venv/bin/python bench/openspiel_ismcts.py --deals 12 --jobs 2
    /work/venv/bin/python bench/openspiel_ismcts.py --deals 12 --match-time
    /work/venv/bin/python bench/openspiel_ismcts.py --players 5 --match-time --bot expert --factor 10 \
        --opponents expert --paired --deals 60
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from ramsli.analysis.tournament import run_tournament
from ramsli.rl.encoding import rules_from_text
from ramsli.rl.openspiel_game import register_ismcts_bot

console = Console()


def _run(specs: list[str], rules, deals: int, seed: int, jobs: int, label: str):
    with Progress(console=console, transient=True) as prog:
        task = prog.add_task(label, total=deals)
        return run_tournament(
            specs, rules, deals=deals, seed=seed, jobs=jobs, duplicate=True, progress=lambda k: prog.advance(task, k)
        )


def _median_ms(spec: str, others: list[str], rules, deals: int, seed: int) -> float:
    res = run_tournament([spec] + others, rules, deals=deals, seed=seed, duplicate=True)
    return res.bots[0].time_median_ms


def calibrate(
    rules, players: int, seed: int, bot: str = "montecarlo", factor: float = 1.0
) -> tuple[int, float, list[tuple[int, float]]]:
    """The ISMCTS simulation count whose median decision time is closest to ``factor`` × ``bot``'s
    median (both measured against ``rules`` bots on a few deals, in this process)."""
    others = ["rules"] * (players - 1)
    target = factor * _median_ms(bot, others, rules, 4, seed)
    tried = []
    for sims in (2, 3, 4, 6, 8, 16, 32, 64, 128, 256, 512, 1024):
        ms = _median_ms(f"ismcts:sims={sims}", others, rules, 2, seed)
        tried.append((sims, ms))
        if ms > 2 * target:
            break
    best = min(tried, key=lambda t: abs(t[1] - target))
    return best[0], target, tried


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=12, help="deals per lineup (each played in every rotation)")
    ap.add_argument("--players", type=int, default=3, help="seats, 2..6 (R2.1)")
    ap.add_argument("--preset", default="traditional", help="rules preset (R6)")
    ap.add_argument("--rules", default="", help="rule options key=value;key=value (R8)")
    ap.add_argument("--sims", type=int, default=100, help="ISMCTS simulations per decision")
    ap.add_argument(
        "--match-time",
        action="store_true",
        help="choose --sims so that ISMCTS takes about --factor times --bot's median time per decision",
    )
    ap.add_argument("--bot", default="montecarlo", help="the bot whose median decision time --match-time matches")
    ap.add_argument("--factor", type=float, default=1.0, help="ISMCTS's time as a multiple of --bot's median")
    ap.add_argument(
        "--paired",
        action="store_true",
        help="judge by the per-deal paired difference ISMCTS - mean of the others (95%% interval)",
    )
    ap.add_argument(
        "--opponents",
        default="random,rules,montecarlo",
        help="comma list of ramsli bots; each fills all other seats in its own lineup",
    )
    ap.add_argument("--seed", type=int, default=2024, help="tournament seed (same seed, same deals)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = ap.parse_args()

    register_ismcts_bot()
    rules = rules_from_text(args.preset, args.rules, args.players)
    sims = args.sims
    if args.match_time:
        sims, target, tried = calibrate(rules, args.players, args.seed, args.bot, args.factor)
        console.print(
            f"{args.factor:g} × {args.bot}'s median decision time = {target:.1f} ms; ISMCTS sims→ms "
            + ", ".join(f"{s}→{ms:.1f}" for s, ms in tried)
            + f"; chosen sims={sims}"
        )
    ismcts = f"ismcts:sims={sims}"
    table = Table(
        title=f"OpenSpiel ISMCTS ({sims} simulations/decision) vs ramsli bots — duplicate, "
        f"{args.deals} deals × {args.players} rotations, preset {args.preset}, seed {args.seed}"
    )
    for col in ("lineup", "bot", "hands", "counters/hand ± 95% CI", "in %", "median ms/decision"):
        table.add_column(col, justify="right" if col not in ("lineup", "bot") else "left")
    t0 = time.perf_counter()
    lineups = [[ismcts] + [opp.strip()] * (args.players - 1) for opp in args.opponents.split(",") if opp.strip()]
    summary = []
    for specs in lineups:
        name = f"ismcts vs {specs[1]}"
        res = _run(specs, rules, args.deals, args.seed, args.jobs, name)
        for b in res.bots:
            table.add_row(
                name,
                b.label,
                str(b.hands),
                f"{b.mean:+.2f} ± {b.ci95:.2f}",
                f"{100 * b.in_rate:.0f}",
                f"{b.time_median_ms:.1f}",
            )
        others = [b.mean for b in res.bots[1:]]
        d = [row[0] - statistics.fmean(row[1:]) for row in res.per_deal]
        dci = 1.96 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
        summary.append(
            (
                name,
                res.bots[0].mean,
                res.bots[0].ci95,
                statistics.fmean(others),
                statistics.fmean(d),
                dci,
                statistics.median(b.time_median_ms for b in res.bots[1:]),
            )
        )
        table.add_section()
    console.print(table)
    for name, m, ci, o, dm, dci, oms in summary:
        if args.paired:
            verdict = "ISMCTS ahead" if dm - dci > 0 else ("ISMCTS behind" if dm + dci < 0 else "no clear difference")
            console.print(
                f"{name}: ISMCTS {m:+.2f} ± {ci:.2f}, opponents {o:+.2f}; paired ISMCTS − opponents "
                f"{dm:+.3f} ± {dci:.3f} counters/hand: {verdict} (opponents' median {oms:.1f} ms)"
            )
            continue
        verdict = "ISMCTS ahead" if m - ci > o else ("ISMCTS behind" if m + ci < o else "no clear difference")
        console.print(f"{name}: ISMCTS {m:+.2f} ± {ci:.2f} counters/hand, opponents {o:+.2f} on average: {verdict}")
    console.print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
