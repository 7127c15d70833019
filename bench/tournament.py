"""Bot strength and speed: a duplicate tournament on `traditional`.

    python bench/tournament.py [--deals 20000] [--jobs 2] [--bots montecarlo,rules,rules,random,random]
                               [--preset traditional] [--seed 1] [--out bench-tournament.json]

Every deal is played once per rotation of the bots (5 hands per deal with 5
bots). Prints counters per hand with 95% confidence intervals, in-rate, bete
rate, pot win rate and decision times (median, p95) per bot, and says whether
montecarlo finished above rules and rules above random with non-overlapping
intervals. Timing numbers depend on the machine; strength numbers do not
(same seed, same results).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from ramsli.analysis.tournament import run_tournament
from ramsli.rules import Rules


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20000, help="deals (each played in every rotation)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--bots", default="montecarlo,rules,rules,random,random", help="one bot per seat")
    ap.add_argument("--preset", default="traditional", help="rules preset (R6)")
    ap.add_argument("--seed", type=int, default=1, help="tournament seed")
    ap.add_argument("--out", default="", help="also write the summary as JSON here")
    a = ap.parse_args(argv)
    specs = a.bots.split(",")
    done = [0]
    t0 = time.perf_counter()

    def progress(k: int) -> None:
        done[0] += k
        el = time.perf_counter() - t0
        print(
            f"\r{done[0]}/{a.deals} deals, {el:.0f} s, eta {el / done[0] * (a.deals - done[0]):.0f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )

    res = run_tournament(
        specs, Rules.preset(a.preset), a.deals, seed=a.seed, jobs=a.jobs, duplicate=True, progress=progress
    )
    print(file=sys.stderr)
    print(
        f"{res.deals} deals x {len(specs)} rotations = {res.hands} hands, preset {a.preset}, seed {a.seed}, "
        f"{res.seconds:.0f} s with {a.jobs} jobs"
    )
    print(
        f"{'bot':14} {'counters/hand':>14} {'95% CI':>8} {'in':>6} {'bete':>6} {'bete|in':>8} {'pot':>6} "
        f"{'med ms':>8} {'p95 ms':>8}"
    )
    for b in res.bots:
        print(
            f"{b.label:14} {b.mean:+14.3f} {b.ci95:8.3f} {b.in_rate:6.1%} {b.bete_rate:6.1%} "
            f"{b.bete_when_in:8.1%} {b.pot_rate:6.1%} {b.time_median_ms:8.2f} {b.time_p95_ms:8.2f}"
        )
    by = {b.spec.split(":")[0]: [] for b in res.bots}
    for b in res.bots:
        by[b.spec.split(":")[0]].append(b)

    def above(x: str, y: str) -> str:
        if x not in by or y not in by:
            return "n/a"
        lo = min(b.mean - b.ci95 for b in by[x])
        hi = max(b.mean + b.ci95 for b in by[y])
        return "yes" if lo > hi else "no"

    print(f"montecarlo above rules (non-overlapping 95% CIs): {above('montecarlo', 'rules')}")
    print(f"rules above random (non-overlapping 95% CIs): {above('rules', 'random')}")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(res.to_dict(), f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
