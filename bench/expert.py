"""The expert against another bot, paired in duplicate, and its decision times.

    python bench/expert.py [--deals 400] [--jobs 2] [--bot expert] [--against montecarlo]
                           [--players 5] [--preset traditional] [--seed 13] [--seats 1]

Lineup: ``--seats`` copies of ``--bot`` and the other seats ``--against``; every
deal is played in every rotation (duplicate, :func:`ramsli.analysis.tournament.run_tournament`).
Reports each bot's counters per hand with 95% intervals, and the **paired
difference** per deal (mean of the ``--bot`` seats minus mean of the others,
averaged over the rotations of the deal), mean ± 1.96·sd/sqrt(deals): both sit
at the same table on the same cards, so the difference is what one gains by
swapping one for the other. Decision times of ``--bot``: median, p99 (over all
its decisions, forced ones included, as the tournament records them), max.
Timing depends on the machine and its load; strength numbers do not (same
seed, same results).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

from ramsli.analysis import tournament as T
from ramsli.rules import Rules


def paired(per_deal: list[list[float]], k: int) -> tuple[float, float]:
    """Mean and 95% half-width of (mean of the first ``k`` bots − mean of the rest) per deal."""
    d = [statistics.fmean(row[:k]) - statistics.fmean(row[k:]) for row in per_deal]
    sd = statistics.stdev(d) if len(d) > 1 else 0.0
    return statistics.fmean(d), 1.96 * sd / math.sqrt(len(d))


def times_of(specs: list[str], rules: Rules, deals: int, seed: int, k: int) -> tuple[list[float], list[float]]:
    """Decision times of the first ``k`` seats' bot over ``deals`` duplicate deals, in this process:
    ``(wall seconds, CPU seconds of this process)`` per decision, forced ones included. The CPU time
    depends much less on what else loads the machine than the wall time."""
    from ramsli.bots.base import make_bot
    from ramsli.hand import Hand

    wall: list[float] = []
    cpu: list[float] = []
    n = len(specs)
    for i in range(deals):
        deck, cut = T.deal_deck(rules, seed, i)
        for r in range(n):
            seat_of = [(j + r) % n for j in range(n)]
            bots = {seat_of[j]: make_bot(specs[j], seed=hash((seed, i, r, j)) & 0xFFFFFFFF) for j in range(n)}
            mine = {seat_of[j] for j in range(k)}
            hand = Hand.from_deck(rules, [rules.starting_stack] * n, i % n, deck, cut, pot=0)
            while not hand.is_over:
                s = hand.to_act
                obs = hand.observe(s)
                t0, c0 = time.perf_counter(), time.process_time()
                a = bots[s].act(obs)
                if s in mine:
                    wall.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                hand.apply(a)
    return wall, cpu


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--against", default="montecarlo")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seats", type=int, default=1, help="seats of --bot (the rest play --against)")
    ap.add_argument("--preset", default="traditional")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument(
        "--timing-deals",
        type=int,
        default=0,
        help="also time --bot alone in this process over this many deals (median, p99)",
    )
    a = ap.parse_args(argv)
    specs = [a.bot] * a.seats + [a.against] * (a.players - a.seats)
    rules = Rules.preset(a.preset)
    print(
        f"load before: {os.getloadavg()[0]:.2f} (1-min), preset {a.preset}, {a.players} players, "
        f"lineup {', '.join(specs)}",
        flush=True,
    )
    t0 = time.perf_counter()
    if a.deals:
        res = T.run_tournament(specs, rules, a.deals, seed=a.seed, jobs=a.jobs, duplicate=True)
        for b in res.bots:
            print(
                f"  {b.label:36} {b.mean:+.3f} ± {b.ci95:.3f}  in {b.in_rate:5.1%}  bete {b.bete_rate:5.1%}  "
                f"med {b.time_median_ms:6.2f} ms  p95 {b.time_p95_ms:6.1f} ms  max {b.time_max_ms:6.0f} ms"
            )
        m, ci = paired(res.per_deal, a.seats)
        print(
            f"paired: {a.bot} − {a.against} = {m:+.3f} ± {ci:.3f} counters/hand over {res.deals} deals "
            f"({res.hands} hands), {res.seconds:.0f} s",
            flush=True,
        )
    if a.timing_deals:
        l0 = os.getloadavg()[0]
        wall, cpu = times_of(specs, rules, a.timing_deals, a.seed + 1, a.seats)
        print(
            f"timing {a.bot}: {len(wall)} decisions; wall median {_pct(wall, 0.5):.1f} ms, "
            f"p99 {_pct(wall, 0.99):.1f} ms, "
            f"max {_pct(wall, 1):.0f} ms; CPU median {_pct(cpu, 0.5):.1f} ms, p99 {_pct(cpu, 0.99):.1f} ms, "
            f"max {_pct(cpu, 1):.0f} ms; load {l0:.1f} → {os.getloadavg()[0]:.1f}"
        )
    print(f"load after: {os.getloadavg()[0]:.2f}, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
