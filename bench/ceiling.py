"""How much better than ``montecarlo`` can any bot be? Two ceilings, in counters per hand.

    python bench/ceiling.py play    [--deals 300] --a "montecarlo|cheat" --b montecarlo [--against montecarlo]
    python bench/ceiling.py play    [--deals 300] --specs "montecarlo;expert;expert:plays=0" [--against montecarlo]
                                    [--minutes M] [--save per_deal.json]
    python bench/ceiling.py declare [--deals 6000] [--against montecarlo] [--policies "montecarlo;expert;tips"]

Both use **common random numbers**: the same deal (R4.2–R4.4, from ``--seed``), the same seeded
opponents (``--against`` in every other seat), every rotation of the seat under test (5 players).

``play``
    The seat under test plays the hand twice, once as bot ``--a`` and once as ``--b``; the result is
    the mean of its counters as ``a`` minus as ``b``, per deal (over the rotations), ± 1.96·sd/√deals.
    A spec ``X|Y`` declares (and announces, R4.5–R4.8) like bot ``X`` and plays cards like bot ``Y``.
    With ``--specs A;B;C…`` the seat plays every deal and rotation once per spec, and each spec after
    the first is reported against the first and against the second (all on the same deals);
    ``--minutes`` stops such a run after that many minutes (reporting deals 0 … n−1 played so far),
    ``--save`` writes every deal's counters per spec as JSON.
    ``Y = cheat`` plays by an exact max^n search of the **true** remaining cards of every seat
    (:class:`ramsli.bots.solver.Solver`): it breaks R7 on purpose and exists only here, as the ceiling
    of what card play can gain — no fair bot plays better than perfect information.
``declare``
    Off-policy evaluation of declaration policies. In each hand one seat (rotating through the
    positions) is asked for its declaration (R4.5) by every bot in ``--policies`` (nothing is applied),
    then it is made to declare ``in`` and the hand is played out with ``--against`` everywhere. Since
    ``out`` is worth exactly 0 from then on (R5.5), ``policy says in × (counters of in)`` is an unbiased,
    paired estimate of each policy's value at that seat. It also fits a best response on the
    expert's estimate (:meth:`ramsli.bots.expert.ExpertBot.declare_value`), the tips' strength and the
    position (least squares, two-fold cross-fitted, so it is judged on hands it was not fitted on):
    what a better declaration rule could gain with these inputs.

Not a test: it prints figures for ``docs/benchmarks.md``. Same seed, same figures.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool

import numpy as np

from ramsli.analysis.tournament import deal_deck
from ramsli.bots.base import make_bot
from ramsli.bots.expert import ExpertBot
from ramsli.bots.fast import declare_strength
from ramsli.bots.montecarlo import Payoff
from ramsli.bots.solver import Solver
from ramsli.bots.tracking import infer
from ramsli.hand import Action, Hand, Observation, Phase
from ramsli.rules import Rules

PLAYERS = 5
_CFG: dict = {}


def cheat_play(hand: Hand, obs: Observation) -> Action:
    """The card with the best exact max^n value on the TRUE remaining cards (reads hidden cards: a ceiling)."""
    k = infer(obs)
    pay = Payoff(obs)
    act_t = tuple(obs.active)
    mi = act_t.index(obs.seat)
    cur = tuple(k.codec.enc(c) for _, c in obs.current)
    tricks = tuple(obs.tricks_won[s] for s in act_t)
    hands = [k.codec.encs(hand.hands[s]) for s in act_t]
    solver = Solver(len(act_t), lambda tr: pay.values(act_t, tr, obs.general_rams, obs.targets), k.always)
    vals = solver.root(hands, act_t.index(obs.leader), cur, tricks)
    return Action.play(obs.seat, k.codec.dec(max(vals, key=lambda c: vals[c][mi])))


class _Seat:
    """Declarations by one bot, card play by another (or by :func:`cheat_play`)."""

    def __init__(self, spec: str, seed: int) -> None:
        decl, _, play = spec.partition("|")
        self.decl = make_bot(decl, seed=seed)
        self.play = None if (play or decl) == "cheat" else make_bot(play or decl, seed=seed + 1)

    def act(self, obs: Observation, hand: Hand) -> Action:
        if obs.phase is not Phase.PLAY:
            return self.decl.act(obs)
        if self.play is None:
            return obs.legal[0] if len(obs.legal) == 1 else cheat_play(hand, obs)
        return self.play.act(obs)


def _hand(i: int) -> tuple[Rules, Hand]:
    rules = Rules.preset(_CFG["preset"])
    deck, cut = deal_deck(rules, _CFG["seed"], i)
    return rules, Hand.from_deck(rules, [rules.starting_stack] * PLAYERS, i % PLAYERS, deck, cut, pot=0)


def _opponents(i: int, r: int, me: int) -> dict:
    return {
        s: make_bot(_CFG["against"], seed=hash((_CFG["seed"], i, r, s)) & 0xFFFFFFFF) for s in range(PLAYERS) if s != me
    }


def _play_once(i: int, r: int, spec: str) -> int:
    rules, hand = _hand(i)
    bots = _opponents(i, r, r)
    me = _Seat(spec, hash((_CFG["seed"], i, r, -1)) & 0xFFFFFFF)
    while not hand.is_over:
        s = hand.to_act
        obs = hand.observe(s)
        hand.apply(me.act(obs, hand) if s == r else bots[s].act(obs))
    return hand.stacks[r] - rules.starting_stack


def _play_deal(i: int) -> float:
    return statistics.fmean(_play_once(i, r, _CFG["a"]) - _play_once(i, r, _CFG["b"]) for r in range(PLAYERS))


def _play_deal_specs(i: int) -> list[float]:
    """The seat's mean counters over the rotations of deal ``i``, once per spec of ``--specs``."""
    return [statistics.fmean(_play_once(i, r, spec) for r in range(PLAYERS)) for spec in _CFG["specs"]]


def _report_specs(rows: list[list[float]], specs: list[str], a: argparse.Namespace, final: bool) -> None:
    x = np.array(rows)
    out = sys.stdout if final else sys.stderr
    head = f"{a.preset}, {PLAYERS} players, against {a.against}, {len(x)} deals × {PLAYERS} rotations (seed {a.seed})"
    print(head if final else f"{len(x)}/{a.deals} deals", file=out, flush=True)
    for j in range(1, len(specs)):
        m, c = _ci(x[:, j] - x[:, 0])
        line = f"  [{specs[j]}] − [{specs[0]}] = {m:+.3f} ± {c:.3f}"
        if j >= 2:
            m2, c2 = _ci(x[:, j] - x[:, 1])
            line += f";  − [{specs[1]}] = {m2:+.3f} ± {c2:.3f}"
        print(line, file=out, flush=True)


def _declare_deal(i: int) -> dict:
    rules, hand = _hand(i)
    order = hand.observe(0).order
    probe = order[(i // PLAYERS) % PLAYERS]
    bots = _opponents(i, 0, probe)
    bots[probe] = make_bot(_CFG["against"], seed=hash((_CFG["seed"], i, -2)) & 0xFFFFFFFF)
    rec: dict = {}
    while not hand.is_over:
        s = hand.to_act
        obs = hand.observe(s)
        if s == probe and obs.phase is Phase.DECLARE and not rec:
            k = infer(obs)
            forced = len(obs.legal) == 1
            rec = {
                "forced": forced,
                "pos": order.index(s),
                "nin": len(obs.active),
                "strength": declare_strength(k.own, k.visible_trumps)[1],
                "ev": 0.0 if forced else ExpertBot(seed=i).declare_value(obs),
            }
            rec["says_in"] = {
                p: True if forced else make_bot(p, seed=i).act(obs).kind == "in" for p in _CFG["policies"]
            }
            action = next(a for a in obs.legal if a.kind == "in")
        else:
            action = bots[s].act(obs)
        hand.apply(action)
    rec["value_in"] = hand.stacks[probe] - rules.starting_stack + rules.ante  # relative to out (R5.5)
    return rec


def _ci(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(len(x)))


def _design(recs: list[dict]) -> np.ndarray:
    ev = np.array([r["ev"] for r in recs])
    cols = [np.ones(len(recs)), ev, np.clip(ev, -3, 3) ** 2, np.array([r["strength"] for r in recs])]
    for p in range(PLAYERS):
        cols.append(np.array([r["pos"] == p for r in recs], float))
    for n in range(1, PLAYERS):
        sel = np.array([r["nin"] == n for r in recs], float)
        cols += [sel, sel * ev]
    return np.stack(cols, 1)


def report_declare(recs: list[dict], policies: list[str]) -> None:
    recs = [r for r in recs if not r["forced"]]
    v = np.array([r["value_in"] for r in recs], float)
    says = {p: np.array([r["says_in"][p] for r in recs], float) for p in policies}
    says["always in"] = np.ones(len(recs))
    for m in (0.0, 0.5):
        says[f"expert estimate > {m}"] = np.array([r["ev"] > m for r in recs], float)
    x = _design(recs)
    fold = np.arange(len(recs)) % 2
    pred = np.zeros(len(recs))
    for f in (0, 1):
        beta = np.linalg.lstsq(x[fold != f], v[fold != f], rcond=None)[0]
        pred[fold == f] = x[fold == f] @ beta
    says["fitted best response (cross-fitted)"] = (pred > 0).astype(float)
    base = says[policies[0]] * v
    second = says[policies[1]] * v if len(policies) > 1 else base
    print(
        f"{len(recs)} declarations that were a choice (forced dealers left out); "
        f"value of in: {v.mean():+.3f} counters on average"
    )
    print(
        f"  {'policy':40} {'in':>6}  {'counters/decision':>18}  {'− ' + policies[0]:>18}"
        + (f"  {'− ' + policies[1]:>18}" if len(policies) > 1 else "")
    )
    for name, d in says.items():
        m, c = _ci(d * v)
        dm, dc = _ci(d * v - base)
        line = f"  {name:40} {d.mean():6.1%}  {m:+8.3f} ± {c:.3f}    {dm:+8.3f} ± {dc:.3f}"
        if len(policies) > 1:
            sm, sc = _ci(d * v - second)
            line += f"    {sm:+8.3f} ± {sc:.3f}"
        print(line)
    print("  calibration of the expert's estimate (bins of the estimate: mean value of in ± 95%):")
    ev = np.array([r["ev"] for r in recs])
    edges = [-99, -2, -1, -0.5, 0, 0.5, 1, 2, 99]
    for lo, hi in zip(edges, edges[1:]):
        sel = (ev >= lo) & (ev < hi)
        if sel.sum() > 1:
            m, c = _ci(v[sel])
            print(f"    estimate in [{lo:+}, {hi:+}): {int(sel.sum()):5d} hands, value of in {m:+.2f} ± {c:.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("play", "declare"))
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--a", default="montecarlo|cheat", help="play: the spec under test (X|Y: declare X, play Y)")
    ap.add_argument("--b", default="montecarlo", help="play: the spec it is compared with")
    ap.add_argument("--specs", default="", help="play: instead of --a/--b, specs separated by ';' (first: base)")
    ap.add_argument("--save", default="", help="play --specs: also write the per-deal counters of each spec (JSON)")
    ap.add_argument("--against", default="montecarlo", help="the bot in every other seat")
    ap.add_argument(
        "--policies",
        default="montecarlo;expert;tips",
        help="declare: the bots asked, ';' between them (first: the base; a spec may hold commas)",
    )
    ap.add_argument("--preset", default="traditional")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=0, help="play --specs: stop after this many minutes (0: never)")
    a = ap.parse_args(argv)
    _CFG.update(
        preset=a.preset,
        seed=a.seed,
        against=a.against,
        a=a.a,
        b=a.b,
        policies=a.policies.split(";"),
        specs=[x for x in a.specs.split(";") if x],
    )
    t0 = time.perf_counter()
    with Pool(a.jobs, initializer=_CFG.update, initargs=(dict(_CFG),)) as pool:
        if a.what == "play" and _CFG["specs"]:
            rows = []
            for x in pool.imap(_play_deal_specs, range(a.deals), chunksize=4):
                rows.append(x)
                if len(rows) % 50 == 0 and len(rows) < a.deals:
                    _report_specs(rows, _CFG["specs"], a, final=False)
                if a.minutes and time.perf_counter() - t0 > 60 * a.minutes:
                    print(f"stopped after {a.minutes:g} minutes: deals 0..{len(rows) - 1}", file=sys.stderr)
                    pool.terminate()
                    break
            _report_specs(rows, _CFG["specs"], a, final=True)
            if a.save:
                with open(a.save, "w", encoding="utf-8") as f:
                    json.dump(
                        {
                            "preset": a.preset,
                            "seed": a.seed,
                            "against": a.against,
                            "specs": _CFG["specs"],
                            "per_deal": rows,
                        },
                        f,
                    )
        elif a.what == "play":
            d = []
            for x in pool.imap(_play_deal, range(a.deals), chunksize=4):
                d.append(x)
                if len(d) % 50 == 0 and len(d) > 1:
                    pm, pc = _ci(np.array(d))
                    print(
                        f"{len(d)}/{a.deals} deals, {time.perf_counter() - t0:.0f} s: {pm:+.3f} ± {pc:.3f}",
                        file=sys.stderr,
                        flush=True,
                    )
            m, c = _ci(np.array(d))
            print(
                f"{a.preset}, {PLAYERS} players, against {a.against}: [{a.a}] − [{a.b}] = {m:+.3f} ± {c:.3f} "
                f"counters/hand over {a.deals} deals × {PLAYERS} rotations (seed {a.seed})"
            )
        else:
            recs = []
            for r in pool.imap(_declare_deal, range(a.deals), chunksize=10):
                recs.append(r)
                if len(recs) % 200 == 0:
                    print(f"{len(recs)}/{a.deals} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
            report_declare(recs, _CFG["policies"])
    print(f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
