"""The levels' ladder: each level against the one below, per preset, at a mixed table and in a field.

    python bench/levels.py [--levels easy,medium,hard,expert] [--presets traditional,nap,...|all]
                           [--deals 300] [--mode mixed,field] [--players 5] [--jobs 2] [--seed 1]
                           [--out FILE.json]

Two ways to meet, both duplicate (every deal played in every rotation of the line-up, so that every
bot plays every seat's cards; :func:`ramsli.analysis.tournament.run_tournament`), one hand per deal
from equal stacks (20) and an empty pot:

- **mixed**: the levels at one table, the other seats ``random`` (``easy, medium, hard, expert,
  random`` with 5 players, as ``ramsli tournament --bots easy,medium,hard,expert,random --duplicate``);
  per level its counters a hand with the 95% interval over the deals, and per adjacent pair the
  **paired** difference per deal (the upper level's counters minus the lower's on the same deal);
- **field**: two adjacent levels alone, ``A, B, A, B, …`` around the table; the paired difference per
  deal (mean of A's seats minus mean of B's).

A pair is **apart** when its paired 95% interval excludes 0; at the mixed table the line also says
whether the two levels' own intervals overlap (they are wider than the paired one: the luck of the
deal is in both; more deals separate them). Prints one line per preset and mode, and the pairs that are not apart.
**Reference:** the level below, on the same deals.

Exits 1 if nothing was measured (no deal played, or a level that never acted); 2 for bad arguments.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # before Numba is imported: one core per process

import argparse
import json
import math
import statistics
import sys
import time
from typing import Any

from ramsli.analysis.tournament import run_tournament
from ramsli.bots.levels import level_spec
from ramsli.rules import PRESETS, Rules

Z = 1.96


def _ci(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width ``1.96 · sd / √n``."""
    if len(xs) < 2:
        return (xs[0] if xs else math.nan), math.inf
    return statistics.fmean(xs), Z * statistics.stdev(xs) / math.sqrt(len(xs))


def mixed(levels: list[str], preset: str, deals: int, players: int, seed: int, jobs: int) -> dict[str, Any]:
    """The levels at one table (the other seats ``random``): each level's counters a hand and each
    adjacent pair's paired difference per deal."""
    specs = levels + ["random"] * (players - len(levels))
    t0 = time.perf_counter()
    r = run_tournament(specs, Rules.preset(preset), deals, seed=seed, jobs=jobs, duplicate=True)
    rows = r.per_deal
    by_spec = {b.spec: b for b in r.bots}
    out: dict[str, Any] = {"preset": preset, "mode": "mixed", "deals": len(rows), "levels": {}, "pairs": []}
    for j, lv in enumerate(levels):
        m, h = _ci([row[j] for row in rows])
        b = by_spec[lv]
        out["levels"][lv] = {
            "mean": m,
            "ci95": h,
            "in_rate": b.in_rate,
            "median_ms": b.time_median_ms,
            "decisions": b.decisions,
        }
    for j in range(1, len(levels)):
        m, h = _ci([row[j] - row[j - 1] for row in rows])
        lo, hi = out["levels"][levels[j - 1]], out["levels"][levels[j]]
        own_apart = hi["mean"] - hi["ci95"] > lo["mean"] + lo["ci95"]
        out["pairs"].append(
            {
                "upper": levels[j],
                "lower": levels[j - 1],
                "gap": m,
                "ci95": h,
                "apart": m - h > 0,
                "own_apart": own_apart,
            }
        )
    out["seconds"] = time.perf_counter() - t0
    return out


def field(levels: list[str], preset: str, deals: int, players: int, seed: int, jobs: int) -> dict[str, Any]:
    """Each adjacent pair alone at the table, ``A, B, A, B, …``: the paired difference per deal."""
    out: dict[str, Any] = {"preset": preset, "mode": "field", "deals": deals, "pairs": []}
    t0 = time.perf_counter()
    for j in range(1, len(levels)):
        a, b = levels[j], levels[j - 1]
        specs = [a if k % 2 == 0 else b for k in range(players)]
        r = run_tournament(specs, Rules.preset(preset), deals, seed=seed, jobs=jobs, duplicate=True)
        d = [statistics.fmean(row[0::2]) - statistics.fmean(row[1::2]) for row in r.per_deal]
        m, h = _ci(d)
        out["pairs"].append({"upper": a, "lower": b, "gap": m, "ci95": h, "apart": m - h > 0, "deals": len(d)})
    out["seconds"] = time.perf_counter() - t0
    return out


def line(res: dict[str, Any]) -> str:
    """One printed line of a result."""
    parts = [f"[{res['preset']} {res['mode']}, {res['deals']} deals, {res['seconds']:.0f} s]"]
    if res["mode"] == "mixed":
        parts.append(
            " ".join(
                f"{lv} {v['mean']:+.3f}±{v['ci95']:.3f} (in {v['in_rate']:.0%}, {v['median_ms']:.1f} ms)"
                for lv, v in res["levels"].items()
            )
        )
    parts.append(
        " ".join(
            f"{p['upper']}−{p['lower']} {p['gap']:+.3f}±{p['ci95']:.3f}{'' if p['apart'] else ' (not apart)'}"
            f"{' (own intervals overlap)' if p['apart'] and not p.get('own_apart', True) else ''}"
            for p in res["pairs"]
        )
    )
    return " | ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--levels",
        default="easy,medium,hard,expert",
        help="bot specs or levels, weakest first, separated by commas (by semicolons when a spec has options: 'tips:eps=0.1;medium')",
    )
    ap.add_argument("--presets", default="all", help="presets of R6, comma-separated, or 'all'")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--mode", default="mixed,field", help="mixed, field or both")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="", help="write every result to FILE.json")
    a = ap.parse_args(argv)
    levels = [s.strip() for s in a.levels.split(";" if ";" in a.levels else ",") if s.strip()]
    presets = list(PRESETS) if a.presets == "all" else [p.strip() for p in a.presets.split(",")]
    modes = [m.strip() for m in a.mode.split(",")]
    if len(levels) < 2 or len(levels) > a.players or a.deals < 2 or not set(modes) <= {"mixed", "field"}:
        print("error: 2..players levels, deals >= 2, mode mixed and/or field", file=sys.stderr)
        return 2
    results: list[dict[str, Any]] = []
    for preset in presets:
        for mode in modes:
            res = (mixed if mode == "mixed" else field)(levels, preset, a.deals, a.players, a.seed, a.jobs)
            results.append(res)
            print(line(res), flush=True)
    resolved = {lv: level_spec(lv) for lv in levels}
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump({"levels": resolved, "seed": a.seed, "results": results}, f, indent=1)
    # a level that never decided anything (every decision forced) measured nothing about its play
    idle = [
        (res["preset"], lv)
        for res in results
        if res["mode"] == "mixed"
        for lv, v in res["levels"].items()
        if v["decisions"] == 0
    ]
    if not results or any(not r["deals"] for r in results) or idle:
        print(f"error: nothing was measured ({idle or 'no deal played'})", file=sys.stderr)
        return 1
    missed = [
        f"{r['preset']} {r['mode']} {p['upper']}−{p['lower']}" for r in results for p in r["pairs"] if not p["apart"]
    ]
    print("not apart: " + (", ".join(missed) if missed else "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
