"""Are the coach's declaration values right where a player and the expert disagree? (docs/skill.md)

    python bench/skill_declarations.py [--player tips] [--field medium] [--players 4] [--deals 300]
                                       [--no-equilibrium] [--declare-samples 400] [--jobs 2] [--seed 99]

One seat holds ``--player``, the others ``--field`` (``traditional``, stacks 20, empty pot). At every
declaration (R4.5) of that seat with a choice where the player and the ``expert`` level disagree, two
numbers:

- **the coach's view**: the value of the player's declaration minus the expert's, as the skill counters
  take it (:func:`ramsli.coach.skill.skill_of_hand`'s values: the equilibrium where the lab has solved
  the game, else the expert's rollouts);
- **the truth, replayed**: the hand played to its end with the player's declaration and again with the
  expert's (the same cards, the same bots with the same seeds; the player's own cards afterwards by the
  player), the difference of the seat's counters.

Their means over the disagreements, by the player's declaration (``in`` or ``out``), each with its
95% interval: if the coach's view lies outside the truth's interval, its declaration values are biased
for this player at this table, and the skill counters with them (by the mean difference times the
disagreements per hand). Exits 1 if no disagreement was found.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # before Numba is imported: one core per process

import argparse
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ramsli.analysis.tournament import deal_deck
from ramsli.bots.base import make_bot
from ramsli.coach.review import Settings
from ramsli.coach.skill import _BASELINE_SALT, _values
from ramsli.hand import Action, Hand, Observation, Phase
from ramsli.history import HandHistory
from ramsli.rules import Rules

Z = 1.96


def _play(
    player: str, field: str, players: int, seed: int, i: int, k: int, force: Action | None = None
) -> tuple[Hand, Observation | None]:
    """Deal ``i`` with ``player`` in seat ``k``; ``force``: the seat's declaration instead of its own."""
    rules = Rules.preset("traditional")
    deck, cut = deal_deck(rules, seed, i)
    bots = {s: make_bot(player if s == k else field, seed=hash((seed, i, s)) & 0xFFFFFFFF) for s in range(players)}
    hand = Hand.from_deck(rules, [rules.starting_stack] * players, i % players, deck, cut, pot=0)
    first: Observation | None = None
    while not hand.is_over:
        s = hand.to_act
        assert s is not None
        obs = hand.observe(s)
        if s == k and obs.phase is Phase.DECLARE and first is None:
            first = obs
            hand.apply(force if force is not None else bots[s].act(obs))
        else:
            hand.apply(bots[s].act(obs))
    return hand, first


def one_deal(args: tuple) -> list[tuple[str, float, float]]:
    """``(player's declaration, coach's view, replayed truth)`` per disagreement in deal ``i``."""
    player, field, players, seed, i, settings = args
    out = []
    for k in range(players):
        hand, obs = _play(player, field, players, seed, i, k)
        if obs is None or len(obs.legal) < 2:
            continue
        mine = make_bot(player, seed=hash((seed, i, k)) & 0xFFFFFFFF).act(obs)  # what the seat declared
        dseed = i * 7919 + k
        expert = make_bot("expert", seed=(dseed ^ _BASELINE_SALT) & 0x7FFF_FFFF_FFFF_FFFF).act(obs)
        if mine == expert:
            continue
        hh = HandHistory.from_hand(hand, [f"p{s + 1}" for s in range(players)], hand_number=i * players + k + 1)
        acts, _gap, stats, _src, _n = _values(obs, hh, settings, dseed, mine)
        other, _ = _play(player, field, players, seed, i, k, force=expert)
        truth = hand.stacks[k] - other.stacks[k]
        out.append((mine.kind, stats[acts.index(mine)][0] - stats[acts.index(expert)][0], float(truth)))
    return out


def _mci(xs: list[float]) -> tuple[float, float]:
    return statistics.fmean(xs), (Z * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--player", default="tips", help="the seat's bot spec")
    ap.add_argument("--field", default="medium", help="the other seats' bot spec")
    ap.add_argument("--players", type=int, default=4, help="seats, 2..6")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--no-equilibrium", action="store_true", help="value by the expert's rollouts (as the server)")
    ap.add_argument("--declare-samples", type=int, default=400, help="the coach's rollouts per declaration")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--seed", type=int, default=99)
    a = ap.parse_args(argv)
    if not 2 <= a.players <= 6 or a.deals < 1:
        ap.error("--players: 2..6; --deals: at least 1")
    settings = Settings(seed=a.seed, declare_samples=a.declare_samples, equilibrium=not a.no_equilibrium)
    args = [(a.player, a.field, a.players, a.seed, i, settings) for i in range(a.deals)]
    rows: list[tuple[str, float, float]] = []
    with ProcessPoolExecutor(max(1, a.jobs)) as ex:
        for part in ex.map(one_deal, args, chunksize=4):
            rows.extend(part)
    hands = a.deals * a.players
    print(
        f"{a.player} in one seat, {a.field} elsewhere, {a.players} players, {a.deals} deals ({hands} hands), "
        f"{'the expert' if a.no_equilibrium else 'the equilibrium'}'s values:"
    )
    found: dict[str, Any] = {}
    for kind in ("in", "out"):
        rs = [r for r in rows if r[0] == kind]
        if not rs:
            continue
        (c, _), (t, tci), (d, dci) = _mci([r[1] for r in rs]), _mci([r[2] for r in rs]), _mci([r[2] - r[1] for r in rs])
        found[kind] = len(rs)
        print(
            f"  {a.player} {kind}, the expert not: {len(rs)} hands ({len(rs) / hands:.0%}); the coach's view "
            f"{c:+.3f}, the truth replayed {t:+.3f} ± {tci:.3f}; truth − coach {d:+.3f} ± {dci:.3f} "
            f"({'biased' if abs(d) > dci else 'within'}; {d * len(rs) / hands:+.3f} counters a hand)"
        )
    if not found:
        print(f"{a.player} and the expert never disagreed: NOTHING MEASURED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
