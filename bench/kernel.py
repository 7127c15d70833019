"""Speed of the batch kernel against the engine and OpenSpiel (issue #6; a benchmark, not a test).

Prints, in one run: kernel hands/s of random play (5 players, traditional, all cores), the
reference engine's hands/s (random play, one core), OpenSpiel ``oh_hell`` (5 players, 32 cards,
5 tricks) random play through pyspiel's Python API, the ratios, and the time ``ramsli odds``
takes to get in-out to ±0.1 counters against the tips model.

    /work/venv/bin/python bench/kernel.py [--hands 4000000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine as _engine_bench

from ramsli.lab import kernel as K
from ramsli.lab.odds import estimate
from ramsli.rules import Rules


def kernel_rate(hands: int, policy: int, threads: int | None = None) -> float:
    r = Rules()
    if threads:
        numba.set_num_threads(threads)
    K.play_batch(r, 5, 1000, seed=1, policy=policy)  # JIT / cache load
    t = time.perf_counter()
    K.play_batch(r, 5, hands, seed=2, policy=policy)
    dt = time.perf_counter() - t
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return hands / dt


def engine_rate(seconds: float = 3.0) -> float:
    """The reference engine's hands/s of random play (the loop of bench/engine.py)."""
    return _engine_bench.ramsli_rate(seconds, 5, "traditional")


def openspiel_rate(seconds: float = 3.0) -> float | None:
    """OpenSpiel oh_hell hands/s at random through pyspiel (the loop of bench/engine.py)."""
    return _engine_bench.oh_hell_rate(seconds, 5)


def odds_time(precision: float = 0.1) -> tuple[float, dict]:
    estimate("AS 9S KH 8D 7C", "TS", 5, 2, "in,out", time_s=0.1)  # JIT / cache load
    out = {}
    worst = 0.0
    for cards, seat, before in (
        ("AS 9S KH 8D 7C", 2, "in,out"),
        ("AH 9D 8C 9C 7S", 3, "in,in,in"),
        ("9H 8D 8C 9C 7S", 0, ""),
        ("KS 8D 8C 9C 9H", 4, "in,out,in,out"),
    ):
        t = time.perf_counter()
        r = estimate(cards, "TS", 5, seat, before, time_s=30, precision=precision, seed=3)
        dt = time.perf_counter() - t
        worst = max(worst, dt)
        out[f"{cards} seat {seat} after {before or '-'}"] = (
            dt,
            r["ev_diff"]["mean"],
            r["ev_diff"]["ci95"],
            r["accepted"],
            r["samples"],
            r["conditioning"],
        )
    return worst, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4_000_000, help="kernel hands per measurement")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds for the engine and OpenSpiel runs")
    a = ap.parse_args()
    threads = numba.config.NUMBA_NUM_THREADS
    k_all = kernel_rate(a.hands, K.RANDOM)
    k_one = kernel_rate(a.hands // 2, K.RANDOM, threads=1)
    k_tips = kernel_rate(a.hands // 2, K.TIPS)
    eng = engine_rate(a.seconds)
    osp = openspiel_rate(a.seconds)
    print(f"kernel, random play, 5 players, traditional, {threads} threads: {k_all:,.0f} hands/s")
    print(f"kernel, random play, 1 thread:                          {k_one:,.0f} hands/s")
    print(f"kernel, tips policy, {threads} threads:                      {k_tips:,.0f} hands/s")
    print(f"engine (Hand.new + legal_actions + apply), 1 core:      {eng:,.0f} hands/s")
    if osp:
        print(f"OpenSpiel oh_hell (5 players, 32 cards, 5 tricks), pyspiel Python API: {osp:,.0f} hands/s")
    print(f"ratio kernel / engine:    {k_all / eng:,.0f}x")
    if osp:
        print(f"ratio kernel / OpenSpiel: {k_all / osp:,.0f}x;  engine / OpenSpiel: {eng / osp:.2f}x")
    print(f"aim >= 1,000,000 hands/s: {'reached' if k_all >= 1e6 else 'NOT reached'}")
    worst, rows = odds_time(0.1)
    print("ramsli odds to ±0.1 counters (in - out) against tips:")
    for k, (dt, m, h, acc, smp, cond) in rows.items():
        print(f"  {k}: {dt:.2f} s, in-out {m:+.2f} ± {h:.2f} ({acc:,} of {smp:,} samples, {cond})")
    print(f"worst {worst:.2f} s (aim: within 2 s): {'reached' if worst <= 2 else 'NOT reached'}")


if __name__ == "__main__":
    main()
