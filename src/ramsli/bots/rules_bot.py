"""The ``rules`` bot: a pub regular who follows every tip of the seeds (issue #4).

The seeds' "Tips and Strategy" (``seeds/rules-en.txt``) as a policy:

- stay in only with a realistic path to a trick: a side ace, a top trump, or
  trump length with a high court card; three low side cards with the 7 of
  trump is a fold (R4.5; :func:`ramsli.bots.fast.rule_declare`);
- count the players already in: three in and a mediocre hand is a fold; if
  only one player is in before you (R10's reading of "only the dealer"),
  folding may hand them a walkover, so a marginal hand stays in;
- lead trumps when in with strong trump length; hold a sole ace back for
  tricks 3–4 (:func:`ramsli.bots.fast.rule_play`);
- track the voids and trump caps revealed by the follow / trump / overtrump
  obligations (R4.10; :mod:`ramsli.bots.tracking`) to judge which cards are
  masters and which side suits an opponent can trump;
- announce General Rams only with the ace of trump, one more top trump and
  three side aces or kings (R4.7);
- with targets on (R4.8), announce the tricks it can count on (2 or more).

It is deterministic: ``seed`` is accepted for the common bot interface only.

>>> import random
>>> from ramsli import Hand, Rules
>>> from ramsli.bots.base import play_hand
>>> hand = Hand.new(Rules(), [20] * 5, dealer=0, rng=random.Random(3))
>>> play_hand(hand, {s: RulesBot() for s in range(5)})
>>> hand.is_over, hand.total()
(True, 100)
"""

from __future__ import annotations

import random

from ramsli.bots.base import only_choice, register_bot
from ramsli.bots.fast import (legal, rule_declare, rule_general_rams, rule_play, sure_tricks)
from ramsli.bots.tracking import Knowledge, infer
from ramsli.hand import Action, Observation, Phase, random_source

__all__ = ["RulesBot", "play_context"]


def bete_value(obs: Observation) -> int:
    """The bete in counters for this hand (R5.3)."""
    return obs.rules.bete_for(obs.pot)


def play_context(obs: Observation, k: Knowledge) -> tuple[int, bool, int]:
    """``(others, trumpless_after, void_risk)`` for :func:`ramsli.bots.fast.rule_play`:
    the mask of pool cards some other active player may still hold, whether all
    of them are known to hold no trump, and the side suits some of them are known
    void in while possibly holding trumps."""
    opp = [s for s in obs.active if s != obs.seat and obs.cards_left[s] > 0]
    others = 0
    for c in k.pool:
        if any(k.allows(s, c) for s in opp):
            others |= 1 << c
    trumpless = all((k.voids.get(s, 0) & 1) or k.cap.get(s, 99) < 2 for s in opp)
    risk = 0
    for s in opp:
        v = k.voids.get(s, 0)
        if not v & 1:
            risk |= v & ~1
    return others, trumpless, risk


class RulesBot:
    """The seeds' tips as a deterministic policy (see the module docstring).

    Args:
        seed: ignored (the bot is deterministic); accepted by every bot factory.
        rng: ignored likewise (instead of ``seed``).

    Raises:
        TypeError: if both ``seed`` and ``rng`` are given.
    """

    name = "rules"

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        random_source(seed, rng, "RulesBot")  # only checks that at most one is given
        self.seed = seed

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal`` (R4.5, R4.7, R4.8, R4.10).

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        legal_actions = obs.legal
        only = only_choice(obs)
        if only is not None:
            return only
        k = infer(obs)
        seat = obs.seat
        if obs.phase is Phase.DECLARE:
            n_to_come = len(obs.seated) - len(obs.declarations) - 1
            stay = rule_declare(k.own, k.visible_trumps, len(obs.active), n_to_come, len(obs.seated),
                                bete_value(obs), obs.pot)
            return Action.declare(seat, stay)
        if obs.phase is Phase.GENERAL_RAMS:
            if rule_general_rams(k.own, k.visible_trumps):
                return Action.general_rams(seat)
            return Action.pass_(seat)
        if obs.phase is Phase.TARGETS:
            sure = sure_tricks(k.own, k.visible_trumps)
            top = obs.rules.largest_target  # R4.8
            if sure >= 2:
                return Action.announce_target(seat, min(sure, top))
            return Action.pass_(seat)
        # play (R4.10)
        cur = k.codec.encs(c for _, c in obs.current)
        codes = legal(k.own, cur, k.always)
        others, trumpless, risk = play_context(obs, k)
        n_after = len(obs.active) - len(obs.current) - 1
        c = rule_play(k.own, codes, cur, n_after, len(obs.tricks), obs.tricks_won[seat], others, trumpless, risk)
        return Action.play(seat, k.codec.dec(c))


register_bot("rules", RulesBot)
