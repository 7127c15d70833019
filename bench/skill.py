"""Validation of the skill counters on bots with known gaps (docs/skill.md, docs/benchmarks.md).

    python bench/skill.py [--pairs easy/medium,medium/hard,hard/expert,expert/expert:eps=0.1,expert/expert:eps=0.05]
                          [--design field|lineup] [--field medium] [--players 4] [--deals 40] [--true-deals 400]
                          [--jobs 1] [--scheduler tcp://HOST:PORT]
                          [--declare-samples 200] [--play-samples 24] [--budget 30000] [--baseline expert]
                          [--seed 1] [--out FILE.json]

For each pair ``A/B`` two runs on ``traditional`` (stacks 20, empty pot), in one of two designs:

- ``--design field`` (the default): one seat holds A or B, every other seat a bot of the **field**
  (``--field``, the same bots with the same seeds in A's and B's hands); every deal is played with A and
  with B in every seat. The gap is then A's counters minus B's **in the same seat against the same
  opponents** — what the skill counters estimate (each counts the seat's own decisions only);
- ``--design lineup``: every seat holds A or B, ``A, B, A, B, …``, in every rotation. The gap then also
  holds what each gives the others: a slip of A's that pays the table pays B's seats more than A's
  (an A faces more B's than a B does), which a seat's own skill counters do not count.

The runs:

1. **the true gap**: ``--true-deals`` duplicate deals of the bots alone (no valuation: cheap, on local
   processes or a Dask cluster with ``--scheduler``, :func:`ramsli.analysis.tournament.run_tournament`),
   per deal ``D = A's mean net − B's mean net`` over its rotations; the gap is the mean of ``D`` with its
   95% interval;
2. **the measures**: ``--deals`` other duplicate deals, every hand of every seat valued by
   :func:`ramsli.coach.skill.skill_of_hand` (the coach's values at ``--declare-samples`` /
   ``--play-samples`` / ``--budget``; the baseline the ``expert`` level). Per hand of each player:
   the raw net counters, the net less the deal's value, the skill counters; per deal: the duplicate
   net difference and the duplicate matchpoint difference (each seat's cards: every result scored
   against the other rotations' results at that seat, 1 a result beaten, ½ a tie, out of the others).

For each measure, the hands each player must play before the measure separates A from B at 95%:
``n = (1.96 · sd / gap)²`` with ``gap`` the true gap (raw net, net less the deal's value, duplicate net:
unbiased estimates of it) or the measure's own mean difference (skill counters, also shown at the true
gap; duplicate matchpoints, in their own units) and ``sd`` that of one
hand of A minus one hand of B (``√(sd_A² + sd_B²)``; per-hand measures in plain play) or of a deal's
difference times the hands a player plays per deal (duplicate measures). Also: whether the skill
estimate of the gap lies within the true gap's 95% interval, and the skill counters' cost (ms of CPU
per hand and seat valued).

Exits 1 if nothing was measured: a pair without hands, every skill value 0, or a gap not estimated
(``--pairs easy/easy --baseline tips`` shows it: the tips player agrees with itself at every decision).
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
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ramsli.analysis.tournament import deal_deck, run_tournament
from ramsli.bots.base import make_bot
from ramsli.coach.review import Settings
from ramsli.coach.skill import hands_needed, skill_of_hand
from ramsli.hand import Hand
from ramsli.rules import Rules

PAIRS = "easy/medium,medium/hard,hard/expert,expert/expert:eps=0.1,expert/expert:eps=0.05"
Z = 1.96


def lineup(a: str, b: str, players: int) -> list[str]:
    """``A, B, A, B, …`` around the table (bot index j at seat ``(j + r) mod players`` in rotation r)."""
    return [a if j % 2 == 0 else b for j in range(players)]


def _value(hand: Hand, seat: int, settings: Settings, baseline: str, number: int) -> tuple[Any, float]:
    t0 = time.process_time()
    hs = skill_of_hand(hand, seat, settings, baseline=baseline, hand_number=number)
    return hs, time.process_time() - t0


def _play(hand: Hand, bots: dict[int, Any]) -> Hand:
    while not hand.is_over:
        s = hand.to_act
        assert s is not None
        hand.apply(bots[s].act(hand.observe(s)))
    return hand


def play_and_value(args: tuple) -> dict[str, Any]:
    """One deal of the measures' run: every rotation (line-up) or every seat for A and for B (field)
    played, A's and B's seats valued. Returns per hand ``(who, rotation, seat, net, corrected, skill,
    decisions)`` with ``who`` 0 for A, 1 for B, and the CPU seconds the valuations took."""
    a, b, players, seed, i, settings, baseline, field = args
    rules = Rules.preset("traditional")
    deck, cut = deal_deck(rules, seed, i)
    dealer = i % players
    rows = []
    cpu = 0.0
    if field:
        for who, x in enumerate((a, b)):
            for k in range(players):  # x in seat k, the field elsewhere: the same bots, seeds and cards for A and B
                bots = {
                    s: make_bot(x if s == k else field, seed=hash((seed, i, s)) & 0xFFFFFFFF) for s in range(players)
                }
                hand = _play(Hand.from_deck(rules, [rules.starting_stack] * players, dealer, deck, cut, pot=0), bots)
                hs, t = _value(hand, k, settings, baseline, i * players + k + 1)
                cpu += t
                rows.append((who, k, k, hs.net, hs.corrected, hs.skill, len(hs.decisions)))
        return {"deal": i, "rows": rows, "cpu": cpu}
    specs = lineup(a, b, players)
    for r in range(players):
        seat_of = [(j + r) % players for j in range(players)]
        bot_at = {seat_of[j]: j for j in range(players)}
        bots = {seat_of[j]: make_bot(specs[j], seed=hash((seed, i, r, j)) & 0xFFFFFFFF) for j in range(players)}
        hand = _play(Hand.from_deck(rules, [rules.starting_stack] * players, dealer, deck, cut, pot=0), bots)
        for seat in range(players):
            hs, t = _value(hand, seat, settings, baseline, i * players + r + 1)
            cpu += t
            j = bot_at[seat]
            rows.append((j % 2, r, seat, hs.net, hs.corrected, hs.skill, len(hs.decisions)))
    return {"deal": i, "rows": rows, "cpu": cpu}


def matchpoints(rows: list[tuple], players: int) -> tuple[float, float]:
    """A's and B's mean matchpoints in one deal: each seat's results scored against the other rotations'."""
    mp: dict[int, list[float]] = {0: [], 1: []}
    for seat in range(players):
        at = [(who, net) for who, _r, s, net, *_ in rows if s == seat]
        for k, (who, net) in enumerate(at):
            others = [n for m, (_w, n) in enumerate(at) if m != k]
            score = sum(1.0 if net > o else 0.5 if net == o else 0.0 for o in others) / len(others)
            mp[who].append(score)
    return statistics.fmean(mp[0]), statistics.fmean(mp[1])


def _msd(xs: list[float]) -> tuple[float, float]:
    return (statistics.fmean(xs), statistics.stdev(xs)) if len(xs) > 1 else (math.nan, math.nan)


def true_gap(
    a: str, b: str, players: int, deals: int, seed: int, jobs: int, scheduler: str | None, field: str = ""
) -> dict[str, Any]:
    """The duplicate net gap A − B over ``deals`` deals of the bots alone (blocks of 10,000 deals): in the
    line-up ``A, B, A, B, …``, or with ``field`` A's and B's results in one seat against the field, on the
    same deals (every rotation: every seat), the field's bots seeded alike in both."""
    d: list[float] = []
    done = 0
    block = 0
    while done < deals:
        n = min(10_000, deals - done)

        def run(specs: list[str], n: int = n, block: int = block) -> list[list[float]]:
            res = run_tournament(
                specs,
                Rules.preset("traditional"),
                n,
                seed=seed + 7919 * block,
                jobs=jobs,
                duplicate=True,
                scheduler=scheduler,
            )
            return res.per_deal

        if field:
            rows_a, rows_b = run([a] + [field] * (players - 1)), run([b] + [field] * (players - 1))
            d.extend(ra[0] - rb[0] for ra, rb in zip(rows_a, rows_b, strict=True))
        else:
            d.extend(statistics.fmean(row[0::2]) - statistics.fmean(row[1::2]) for row in run(lineup(a, b, players)))
        done += n
        block += 1
    mean, sd = _msd(d)
    return {"deals": len(d), "gap": mean, "ci95": Z * sd / math.sqrt(len(d)), "sd_deal": sd}


def measure(
    a: str,
    b: str,
    players: int,
    deals: int,
    seed: int,
    jobs: int,
    settings: Settings,
    baseline: str = "expert",
    field: str = "",
) -> dict[str, Any]:
    """The measures' run for one pair (see the module text); ``field`` as in :func:`true_gap`."""
    args = [(a, b, players, seed, i, settings, baseline, field) for i in range(deals)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            results = list(ex.map(play_and_value, args))
    else:
        results = [play_and_value(x) for x in args]
    per: dict[str, dict[int, list[float]]] = {k: {0: [], 1: []} for k in ("net", "corrected", "skill")}
    dup_net, dup_mp = [], []
    by_deal: dict[str, list[float]] = {k: [] for k in per}  # per deal: A's mean − B's mean of each measure
    valued = cpu = 0.0
    decisions = 0
    for res in results:
        rows = res["rows"]
        for who, _r, _s, net, corrected, skill, nd in rows:
            per["net"][who].append(net)
            per["corrected"][who].append(corrected)
            per["skill"][who].append(skill)
            decisions += nd
        valued += len(rows)
        cpu += res["cpu"]
        for k, col in (("net", 3), ("corrected", 4), ("skill", 5)):
            by_deal[k].append(
                statistics.fmean(r[col] for r in rows if r[0] == 0)
                - statistics.fmean(r[col] for r in rows if r[0] == 1)
            )
        dup_net.append(by_deal["net"][-1])
        ma, mb = matchpoints(rows, players)
        dup_mp.append(ma - mb)
    # hands each of A and B plays per deal: one per seat (field), or per rotation half the seats (line-up)
    hands_per_deal = players if field else players * (players // 2)
    out: dict[str, Any] = {"deals": deals, "hands_each": deals * hands_per_deal, "decisions": decisions}
    for k, by in per.items():
        (ma, sa), (mb, sb) = _msd(by[0]), _msd(by[1])
        gap = ma - mb
        sd = math.sqrt(sa * sa + sb * sb)
        out[k] = {
            "gap": gap,
            # the hands of one deal share cards (and a seat's cards come back in every rotation): the
            # interval of the gap is the deals' (clustered), not the hands' as if independent
            "ci95": Z * _msd(by_deal[k])[1] / math.sqrt(len(by_deal[k])),
            "sd_hand": sd,
            "hands_needed": hands_needed(sd, gap),
            "nonzero": sum(1 for x in by[0] + by[1] if x != 0),
        }
    for k, xs in (("dup_net", dup_net), ("dup_mp", dup_mp)):
        m, s = _msd(xs)
        out[k] = {
            "gap": m,
            "ci95": Z * s / math.sqrt(len(xs)),
            "sd_deal": s,
            "hands_needed": hands_needed(s, m) * hands_per_deal,
        }
    out["cpu_ms_per_hand"] = 1000 * cpu / max(1.0, valued)
    out["per_deal"] = {**by_deal, "dup_mp": dup_mp}  # for a later look (the JSON output)
    return out


def _n(x: float) -> str:
    return "∞" if not math.isfinite(x) else f"{x:,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", default=PAIRS, help="A/B pairs of bot specs, comma-separated")
    ap.add_argument(
        "--design",
        choices=("field", "lineup"),
        default="field",
        help="A or B in one seat against the field (default), or A, B, A, B … around the table",
    )
    ap.add_argument("--field", default="medium", help="the other seats' bot in the field design")
    ap.add_argument("--players", type=int, default=4, help="seats (even for the line-up: A, B, A, B …)")
    ap.add_argument("--deals", type=int, default=40, help="duplicate deals valued per pair")
    ap.add_argument("--true-deals", type=int, default=400, help="duplicate deals of the bots alone per pair")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--scheduler", default=None, help="a Dask scheduler for the true gap (tcp://HOST:PORT)")
    ap.add_argument("--declare-samples", type=int, default=200, help="the coach's rollouts per declaration")
    ap.add_argument("--play-samples", type=int, default=24, help="the coach's samples per card")
    ap.add_argument("--budget", type=int, default=30000, help="the coach's search nodes per card decision")
    ap.add_argument("--equilibrium-samples", type=int, default=2000, help="the coach's deals per declaration")
    ap.add_argument("--baseline", default="expert", help="the bot the choices are measured against")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="", help="also write the results as JSON here")
    a = ap.parse_args(argv)
    if not 2 <= a.players <= 6 or (a.design == "lineup" and a.players % 2):
        ap.error("--players: 2..6, an even number for the line-up")
    field = a.field if a.design == "field" else ""
    for pair in a.pairs.split(","):  # every bot named is known before any work (the bots' own message)
        if pair.count("/") != 1:
            ap.error(f"--pairs: {pair!r} is not A/B (two bot specs)")
        for spec in [*pair.split("/"), *([field] if field else []), a.baseline]:
            try:
                make_bot(spec, seed=0)
            except ValueError as e:
                ap.error(str(e))
    settings = Settings(
        seed=a.seed,
        declare_samples=a.declare_samples,
        play_samples=a.play_samples,
        budget=a.budget,
        equilibrium_samples=a.equilibrium_samples,
    )
    results = []
    ok = True
    for pair in a.pairs.split(","):
        spec_a, _, spec_b = pair.partition("/")
        t0 = time.perf_counter()
        tg = true_gap(spec_a, spec_b, a.players, a.true_deals, a.seed + 1_000_003, a.jobs, a.scheduler, field)
        t1 = time.perf_counter()
        m = measure(spec_a, spec_b, a.players, a.deals, a.seed, a.jobs, settings, a.baseline, field)
        t2 = time.perf_counter()
        for k in ("net", "corrected", "skill"):  # against the true gap too (the small run's own gap is noisy)
            m[k]["hands_needed_true"] = hands_needed(m[k]["sd_hand"], tg["gap"])
        per_deal = a.players if field else a.players * (a.players // 2)
        m["dup_net"]["hands_needed_true"] = hands_needed(m["dup_net"]["sd_deal"], tg["gap"]) * per_deal
        sk = m["skill"]
        lo, hi = tg["gap"] - tg["ci95"], tg["gap"] + tg["ci95"]
        within = lo <= sk["gap"] <= hi
        consistent = abs(sk["gap"] - tg["gap"]) <= math.hypot(sk["ci95"], tg["ci95"])
        row = {"pair": pair, "true": tg, **m, "within": within, "consistent": consistent}
        row["seconds"] = {"true": round(t1 - t0, 1), "measures": round(t2 - t1, 1)}
        results.append(row)
        print(
            f"{pair}: true gap {tg['gap']:+.3f} ± {tg['ci95']:.3f} ({tg['deals']} deals) | "
            f"skill {sk['gap']:+.3f} ± {sk['ci95']:.3f} ({m['hands_each']} hands each) within={within} "
            f"consistent={consistent} | hands needed (at the true gap): net {_n(m['net']['hands_needed_true'])}, "
            f"net−deal {_n(m['corrected']['hands_needed_true'])}, dup net {_n(m['dup_net']['hands_needed_true'])}; "
            f"(at its own gap) skill {_n(sk['hands_needed'])}, dup mp {_n(m['dup_mp']['hands_needed'])} | "
            f"{m['cpu_ms_per_hand']:.0f} ms CPU per hand valued | {row['seconds']}",
            flush=True,
        )
        if m["hands_each"] == 0 or sk["nonzero"] == 0 or not math.isfinite(sk["gap"]) or not math.isfinite(tg["gap"]):
            print(f"{pair}: NOTHING MEASURED (no hands, every skill value 0, or no gap)", file=sys.stderr)
            ok = False
    print()
    print(
        "| pair | true gap: dup. net (deals) | skill gap (hands each) | in the true interval "
        "| hands needed: raw net | net − deal value | dup. net | dup. matchpoints | skill | skill at the true gap "
        "| raw net / skill |"
    )
    print("| --- | ---: | ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        net_n, sk_n = r["net"]["hands_needed_true"], r["skill"]["hands_needed"]
        ratio = net_n / sk_n if sk_n and math.isfinite(sk_n) else math.nan
        print(
            f"| {r['pair']} | {r['true']['gap']:+.3f} ± {r['true']['ci95']:.3f} ({r['true']['deals']}) "
            f"| {r['skill']['gap']:+.3f} ± {r['skill']['ci95']:.3f} ({r['hands_each']}) "
            f"| {'yes' if r['within'] else 'no'}{' (consistent)' if not r['within'] and r['consistent'] else ''} "
            f"| {_n(net_n)} | {_n(r['corrected']['hands_needed_true'])} | {_n(r['dup_net']['hands_needed_true'])} "
            f"| {_n(r['dup_mp']['hands_needed'])} | {_n(sk_n)} | {_n(r['skill']['hands_needed_true'])} "
            f"| {ratio:,.0f}× |"
        )
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"settings": vars(a), "pairs": results}, f, indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
