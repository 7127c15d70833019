"""Speed of the batch kernel against the engine and OpenSpiel (a benchmark, not a test).

Prints, in one run: kernel hands/s of random play (5 players, traditional) on one thread and on
every thread (``NUMBA_NUM_THREADS``, else the CPUs), as the median of ``--rounds`` interleaved
rounds, with the CPU seconds per million hands (user time of the process: less sensitive to other
work on the machine than the wall clock) and the machine's load average; the scaling from one
thread to all; the tips policy; the reference engine's hands/s (random play, one core), OpenSpiel
``oh_hell`` (5 players, 32 cards, 5 tricks) random play through pyspiel's Python API, the ratios,
and the time ``ramsli odds`` takes to get in-out to ±0.1 counters against the tips model.

    .venv/bin/python bench/kernel.py [--hands 4000000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine as _engine_bench

from ramsli.lab import kernel as K
from ramsli.lab.odds import estimate
from ramsli.rules import Rules


def kernel_rate(hands: int, policy: int, threads: int | None = None) -> tuple[float, float]:
    """(hands/s wall clock, CPU seconds per million hands) of one kernel batch on ``threads`` threads."""
    r = Rules()
    K.set_threads(threads or ALL)
    K.play_batch(r, 5, 1000, seed=1, policy=policy)  # JIT / cache load
    t, c = time.perf_counter(), time.process_time()
    K.play_batch(r, 5, hands, seed=2, policy=policy)
    dt, cpu = time.perf_counter() - t, time.process_time() - c
    K.set_threads(ALL)
    if dt <= 0 or cpu <= 0:
        raise SystemExit("the kernel measured nothing: give more --hands")
    return hands / dt, cpu / hands * 1e6


ALL = K.threads()


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
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the 1-thread and all-thread runs")
    a = ap.parse_args()
    threads = ALL
    load0 = os.getloadavg()
    one, many = [], []
    for _ in range(a.rounds):  # interleaved, so that a change of load hits both alike
        one.append(kernel_rate(a.hands // 2, K.RANDOM, threads=1))
        many.append(kernel_rate(a.hands, K.RANDOM))
    k_one = statistics.median(x[0] for x in one)
    k_all = statistics.median(x[0] for x in many)
    cpu_one = statistics.median(x[1] for x in one)
    cpu_all = statistics.median(x[1] for x in many)
    k_tips = kernel_rate(a.hands // 2, K.TIPS)[0]
    eng = engine_rate(a.seconds)
    osp = openspiel_rate(a.seconds)
    print(f"load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after {os.getloadavg()[0]:.2f}")
    print(
        f"kernel, random play, 5 players, traditional, {threads} threads: {k_all:,.0f} hands/s "
        f"(median of {a.rounds}; {cpu_all:.2f} CPU s per million hands)"
    )
    print(
        f"kernel, random play, 1 thread:                          {k_one:,.0f} hands/s "
        f"({cpu_one:.2f} CPU s per million hands)"
    )
    print(f"scaling {threads} threads / 1 thread: {k_all / k_one:.2f}x (aim >= 1.8 with 2 threads)")
    print(f"kernel, tips policy, {threads} threads:                      {k_tips:,.0f} hands/s")
    print(f"engine (Hand.new + legal_actions + apply), 1 core:      {eng:,.0f} hands/s")
    if osp:
        print(f"OpenSpiel oh_hell (5 players, 32 cards, 5 tricks), pyspiel Python API: {osp:,.0f} hands/s")
    print(f"ratio kernel / engine:    {k_all / eng:,.0f}x")
    if osp:
        print(f"ratio kernel / OpenSpiel: {k_all / osp:,.0f}x;  engine / OpenSpiel: {eng / osp:.2f}x")
    print(f"aim >= 2,000,000 hands/s: {'reached' if k_all >= 2e6 else 'NOT reached'}")
    worst, rows = odds_time(0.1)
    print("ramsli odds to ±0.1 counters (in - out) against tips:")
    for k, (dt, m, h, acc, smp, cond) in rows.items():
        print(f"  {k}: {dt:.2f} s, in-out {m:+.2f} ± {h:.2f} ({acc:,} of {smp:,} samples, {cond})")
    print(f"worst {worst:.2f} s (aim: within 2 s): {'reached' if worst <= 2 else 'NOT reached'}")


if __name__ == "__main__":
    main()
