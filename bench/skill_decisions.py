"""Are the coach's values right where a player and the expert disagree? (docs/skill.md)

    python bench/skill_decisions.py [--kind declare|card] [--player tips] [--field medium] [--players 4]
                                    [--deals 300] [--no-equilibrium] [--declare-samples 400]
                                    [--play-samples 24] [--jobs 2] [--seed 99]

One seat holds ``--player``, the others ``--field`` (``traditional``, stacks 20, empty pot). At every
decision of that seat with a choice — its declaration (R4.5), or with ``--kind card`` each card (R4.10)
— where the player and the ``expert`` level disagree, two numbers:

- **the coach's view**: the value of the player's choice minus the expert's, as the skill counters
  take it (:func:`ramsli.coach.skill.skill_of_hand`'s values: for a declaration the equilibrium where
  the lab has solved the game, else the expert's rollouts; for a card the expert's searches);
- **the truth, replayed**: the hand played to its end with the player's choice and again with the
  expert's in its place (the same cards, the same bots with the same seeds; the seat's later
  decisions by the player), the difference of the seat's counters.

Their means over the disagreements (declarations by the player's choice, ``in`` or ``out``; cards by
tricks 1–2 and 3–5), each with its 95% interval: if the coach's view lies outside the truth's
interval, its values are biased for this player at this table, and the skill counters with them (by
the mean difference times the disagreements per hand). Exits 1 if no disagreement was found.
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
    player: str, field: str, players: int, seed: int, i: int, k: int, kind: str, force: tuple[int, Action] | None = None
) -> tuple[Hand, list[tuple[Observation, Action]]]:
    """Deal ``i`` with ``player`` in seat ``k``: the hand and the seat's decisions of ``kind`` with a choice
    (observation, action); ``force = (n, action)``: ``action`` in place of the seat's ``n``-th (0-based)."""
    rules = Rules.preset("traditional")
    deck, cut = deal_deck(rules, seed, i)
    bots = {s: make_bot(player if s == k else field, seed=hash((seed, i, s)) & 0xFFFFFFFF) for s in range(players)}
    hand = Hand.from_deck(rules, [rules.starting_stack] * players, i % players, deck, cut, pot=0)
    phase = Phase.DECLARE if kind == "declare" else Phase.PLAY
    made: list[tuple[Observation, Action]] = []
    while not hand.is_over:
        s = hand.to_act
        assert s is not None
        obs = hand.observe(s)
        action = bots[s].act(obs)  # the bot's own choice, drawn even when replaced (its random source in step)
        if s == k and obs.phase is phase and len(obs.legal) > 1:
            if force is not None and force[0] == len(made):
                action = force[1]
            made.append((obs, action))
        hand.apply(action)
    return hand, made


def one_deal(args: tuple) -> list[tuple[str, float, float]]:
    """``(group, coach's view, replayed truth)`` per disagreement in deal ``i``: the group is the player's
    declaration, or the card's tricks (``"tricks 1-2"``, ``"tricks 3-5"``)."""
    player, field, players, seed, i, settings, kind = args
    out = []
    for k in range(players):
        hand, made = _play(player, field, players, seed, i, k, kind)
        hh: HandHistory | None = None
        for n, (obs, mine) in enumerate(made):
            dseed = i * 7919 + k + 31 * n  # a declaration (n = 0): i · 7919 + k
            expert = make_bot("expert", seed=(dseed ^ _BASELINE_SALT) & 0x7FFF_FFFF_FFFF_FFFF).act(obs)
            if mine == expert:
                continue
            if hh is None:
                hh = HandHistory.from_hand(hand, [f"p{s + 1}" for s in range(players)], hand_number=i * players + k + 1)
            acts, _gap, stats, _src, _n = _values(obs, hh, settings, dseed, mine)
            other, _ = _play(player, field, players, seed, i, k, kind, force=(n, expert))
            truth = hand.stacks[k] - other.stacks[k]
            group = mine.kind if kind == "declare" else ("tricks 1-2" if len(obs.tricks) < 2 else "tricks 3-5")
            out.append((group, stats[acts.index(mine)][0] - stats[acts.index(expert)][0], float(truth)))
    return out


def _mci(xs: list[float]) -> tuple[float, float]:
    return statistics.fmean(xs), (Z * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kind", choices=("declare", "card"), default="declare", help="the decisions checked")
    ap.add_argument("--player", default="tips", help="the seat's bot spec")
    ap.add_argument("--field", default="medium", help="the other seats' bot spec")
    ap.add_argument("--players", type=int, default=4, help="seats, 2..6")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--no-equilibrium", action="store_true", help="value by the expert's rollouts (as the server)")
    ap.add_argument("--declare-samples", type=int, default=400, help="the coach's rollouts per declaration")
    ap.add_argument("--play-samples", type=int, default=24, help="the coach's samples per card")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--seed", type=int, default=99)
    a = ap.parse_args(argv)
    if not 2 <= a.players <= 6 or a.deals < 1:
        ap.error("--players: 2..6; --deals: at least 1")
    for spec in (a.player, a.field):  # known before any work (the bots' own message)
        try:
            make_bot(spec, seed=0)
        except ValueError as e:
            ap.error(str(e))
    settings = Settings(
        seed=a.seed,
        declare_samples=a.declare_samples,
        play_samples=a.play_samples,
        budget=30_000,
        equilibrium=not a.no_equilibrium,
    )
    args = [(a.player, a.field, a.players, a.seed, i, settings, a.kind) for i in range(a.deals)]
    rows: list[tuple[str, float, float]] = []
    with ProcessPoolExecutor(max(1, a.jobs)) as ex:
        for part in ex.map(one_deal, args, chunksize=4):
            rows.extend(part)
    hands = a.deals * a.players
    source = "the expert's" if a.no_equilibrium or a.kind == "card" else "the equilibrium's"
    print(
        f"{a.player} in one seat, {a.field} elsewhere, {a.players} players, {a.deals} deals ({hands} hands), "
        f"{'declarations' if a.kind == 'declare' else 'cards'}, {source} values:"
    )
    found: dict[str, Any] = {}
    for group in ("in", "out") if a.kind == "declare" else ("tricks 1-2", "tricks 3-5"):
        rs = [r for r in rows if r[0] == group]
        if not rs:
            continue
        (c, _), (t, tci), (d, dci) = _mci([r[1] for r in rs]), _mci([r[2] for r in rs]), _mci([r[2] - r[1] for r in rs])
        found[group] = len(rs)
        what = (
            f"{a.player} {group}, the expert not"
            if a.kind == "declare"
            else f"{a.player}'s card ≠ the expert's, {group}"
        )
        print(
            f"  {what}: {len(rs)} ({len(rs) / hands:.2f} a hand); the coach's view "
            f"{c:+.3f}, the truth replayed {t:+.3f} ± {tci:.3f}; truth − coach {d:+.3f} ± {dci:.3f} "
            f"({'biased' if abs(d) > dci else 'within'}; {d * len(rs) / hands:+.3f} counters a hand)"
        )
    if not found:
        print(f"{a.player} and the expert never disagreed: NOTHING MEASURED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
