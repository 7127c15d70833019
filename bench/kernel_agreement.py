"""Kernel/engine agreement on many seeded deals (a benchmark-size check, not a test).

Plays at least 100,000 deals through both the batch kernel and the reference engine — every
preset of R6 plus option combinations of R8, 2..6 players, random and tips policies, short
stacks, carry-in pots and seats that have left — and compares every trick winner and every
settlement (stacks after, carry-over, betes, declarations, targets, General Rams), plus whole
sessions. Exit status 1 on any mismatch.

    /work/venv/bin/python bench/kernel_agreement.py [--deals 100000] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import time

from ramsli.lab import kernel as K
from ramsli.lab.reference import check_agreement, check_session_agreement
from ramsli.rules import PRESETS, Rules

EXTRA = [
    Rules(general_rams=True, targets=True),
    Rules(general_rams=True, bete="pot", general_rams_penalty="triple-pot"),
    Rules(dealer_forced=False),
    Rules(batches="2+3", overtrump="when-trumping", jokers=True, deck="full52"),
    Rules(targets=True, target_bonus="t", ante=2, bete=0),
    Rules(compulsory=True, general_rams=True, targets=True, jokers=True),
    Rules(dealer_forced=False, targets=True, overtrump="when-trumping", bete=10, ante=0),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rules = [Rules.preset(p) for p in PRESETS] + EXTRA
    combos = [(r, n, pol) for r in rules for n in (2, 3, 4, 5, 6) for pol in ("random", "tips", "mixed")]
    per = -(-a.deals // len(combos))
    t = time.perf_counter()
    total = 0
    for i, (r, n, pol) in enumerate(combos):
        policy = K.RANDOM if pol == "random" else K.TIPS if pol == "tips" else [K.TIPS, K.RANDOM] * 3
        if isinstance(policy, list):
            policy = policy[:n]
        done, bad = check_agreement(r, n, per, seed=a.seed * 1000 + i, policy=policy)
        total += done
        if bad:
            print(f"MISMATCH {r.diff()} {n} players {pol}: {bad[0]}")
            return 1
    sess = 0
    for i, r in enumerate([Rules(), Rules(bust="leave"), Rules(end=["win-at:30"], general_rams=True, targets=True)]):
        for pol in (K.RANDOM, K.TIPS):
            bad = check_session_agreement(r, 5, 100, seed=a.seed + i, policy=pol)
            sess += 100
            if bad:
                print(f"SESSION MISMATCH {r.diff()}: {bad[0]}")
                return 1
    print(
        f"{total:,} deals ({len(combos)} rule/players/policy combinations) and {sess} sessions: "
        f"kernel and engine agree on every trick winner and settlement ({time.perf_counter() - t:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
