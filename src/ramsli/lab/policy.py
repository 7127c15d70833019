"""The ``tips`` policy: the seeds' "Tips and Strategy" as fixed rules (issue #6, RULES.md R10).

This is the policy the batch kernel (:mod:`ramsli.lab.kernel`, policy ``TIPS``)
plays; :class:`TipsBot` plays exactly the same choices through the engine's
:class:`~ramsli.hand.Observation` (the agreement tests check every action).
It is deterministic and sees only what its seat may see (R7). The bot registry
finds it by name (``make_bot("tips")``, :data:`ramsli.bots.base.BOT_MODULES`)
without the bots importing the lab.

Words: a *trump* is a card of the trump suit or a joker (D-2); a *top trump* is
a trump of rank K or higher (K, A, jokers); a *side ace/king* is an A/K of
another suit.

Declaration (R4.5) — "stay in only with a realistic path to a trick":

- *path*: a top trump, or a side ace, or a trump with a side king ("trump plus
  second-rank court"), or two trumps with the highest at least J.
- *strong*: top trumps + side aces ≥ 2, or three trumps or more.
- with three or more players already in and a hand that is not strong: out
  ("count the in declarations");
- else with a path: in;
- else with exactly one player in before (R10's reading of "only the dealer
  is in before you") and a trump or a side king: in (do not hand a walkover);
- else out. The dealer forced in (R4.5) is in.

General Rams (R4.7): announce only with the ace of trump, at least two top
trumps, and every other card a side ace or king (the seeds' shape).

Target (R4.8): t = top trumps + side aces if that is 2 or more (capped at the
largest target offered), else pass.

Play (R4.10): leading — with a top trump and three trumps, or two trumps of
which two top trumps, lead the highest trump ("lead trumps with strong trump
length"); else lead a side ace if holding two or more, or from trick 3 on (a
sole ace is held back for tricks 3–4); else the lowest side card that is not a
sole ace; else the sole ace if holding no trump; else the highest trump.
Following — play the lowest legal card that beats the trick so far; if none
beats it, the lowest legal card, side cards before trumps. Ties: the first in
hand order. Variant bits: ``VAR_ACE_EARLY`` leads a sole ace at once;
``VAR_NO_TRUMP_LEAD`` never leads trumps for strength; ``VAR_TIGHT`` declares in only with
two of (top trumps, side aces) or a top trump and three trumps.
"""

from __future__ import annotations

import random
from typing import Sequence

from ramsli.cards import Card
from ramsli.hand import Action, Observation, Phase, random_source

__all__ = ["TipsBot", "declare_in", "announce_gr", "choose_target", "choose_play",
           "VAR_ACE_EARLY", "VAR_NO_TRUMP_LEAD", "VAR_TIGHT"]

VAR_ACE_EARLY = 1
VAR_NO_TRUMP_LEAD = 2
VAR_TIGHT = 4


def _trump(c: Card, trump: str) -> bool:
    return c.suit is None or c.suit == trump


def declare_in(cards: Sequence[Card], trump: str, ins_before: int, variant: int = 0) -> bool:
    """The tips policy's declaration: True for ``in`` (R4.5)."""
    nt = top = aces = kings = hi = 0
    for c in cards:
        if _trump(c, trump):
            nt += 1
            top += c.rank >= 13
            hi = max(hi, c.rank)
        elif c.rank == 14:
            aces += 1
        elif c.rank == 13:
            kings += 1
    path = top >= 1 or aces >= 1 or (nt >= 1 and kings >= 1) or (nt >= 2 and hi >= 11)
    strong = top + aces >= 2 or nt >= 3
    if variant & VAR_TIGHT:
        return top + aces >= 2 or (top >= 1 and nt >= 3)
    if ins_before >= 3 and not strong:
        return False
    if path:
        return True
    return ins_before == 1 and (nt >= 1 or kings >= 1)


def announce_gr(cards: Sequence[Card], trump: str) -> bool:
    """The tips policy's General Rams announcement (R4.7): the seeds' shape."""
    top = sum(1 for c in cards if _trump(c, trump) and c.rank >= 13)
    side_ak = sum(1 for c in cards if not _trump(c, trump) and c.rank >= 13)
    trump_ace = any(c.suit == trump and c.rank == 14 for c in cards)
    return trump_ace and top >= 2 and top + side_ak >= 5


def choose_target(cards: Sequence[Card], trump: str, max_t: int) -> int:
    """The tips policy's target (R4.8): 0 for none, else 2..max_t."""
    est = sum(1 for c in cards if (c.rank >= 13 if _trump(c, trump) else c.rank == 14))
    return 0 if est < 2 else min(est, max_t)


def _beats(c: Card, best: Card, led: str, trump: str) -> bool:
    """True if ``c`` beats ``best`` in a trick led in ``led`` (R4.11; a copy of
    :func:`ramsli.hand.trick_winner`'s test, checked by ``tests/test_rule_copies.py``)."""
    if _trump(c, trump):
        return not _trump(best, trump) or c.rank > best.rank
    return not _trump(best, trump) and c.suit == led and c.rank > best.rank


def choose_play(cards: Sequence[Card], current: Sequence[Card], trump: str, trick_no: int,
                legal: Sequence[Card], variant: int = 0) -> Card:
    """The tips policy's card (R4.10): one of ``legal``; ``cards`` in hand order; ``trick_no`` 0..4."""
    hand = list(cards)
    if not current:
        nt = sum(1 for c in hand if _trump(c, trump))
        top = sum(1 for c in hand if _trump(c, trump) and c.rank >= 13)
        aces = sum(1 for c in hand if not _trump(c, trump) and c.rank == 14)
        trumps = [c for c in hand if _trump(c, trump)]
        if not variant & VAR_NO_TRUMP_LEAD and top >= 1 and (nt >= 3 or (nt >= 2 and top >= 2)):
            return _first_max(trumps)
        if aces >= 1 and (aces >= 2 or variant & VAR_ACE_EARLY or trick_no >= 2):
            return next(c for c in hand if not _trump(c, trump) and c.rank == 14)
        side = [c for c in hand if not _trump(c, trump) and not (aces == 1 and c.rank == 14)]
        if side:
            return _first_min(side)
        if aces == 1 and nt == 0:
            return next(c for c in hand if c.rank == 14)
        return _first_max(trumps)
    led = trump if current[0].suit is None else current[0].suit
    best = current[0]
    for c in current[1:]:
        if _beats(c, best, led, trump):
            best = c
    winners = [c for c in legal if _beats(c, best, led, trump)]
    if winners:
        return _first_min(winners)
    low = legal[0]
    for c in legal[1:]:
        ct, lt = _trump(c, trump), _trump(low, trump)
        if ct < lt or (ct == lt and c.rank < low.rank):
            low = c
    return low


def _first_min(cards: Sequence[Card]) -> Card:
    best = cards[0]
    for c in cards[1:]:
        if c.rank < best.rank:
            best = c
    return best


def _first_max(cards: Sequence[Card]) -> Card:
    best = cards[0]
    for c in cards[1:]:
        if c.rank > best.rank:
            best = c
    return best


class TipsBot:
    """The ``tips`` bot: the kernel's tips policy through the engine (deterministic; ``seed`` unused).

    Args:
        seed: accepted for the bot registry; the policy uses no randomness.
        rng: ignored likewise (instead of ``seed``); giving both raises TypeError.
        variant: ``VAR_ACE_EARLY`` / ``VAR_NO_TRUMP_LEAD`` bits (see the module text).
    """

    name = "tips"

    def __init__(self, seed: int | None = None, variant: int = 0, *, rng: random.Random | None = None) -> None:
        random_source(seed, rng, "TipsBot")  # only checks that at most one is given
        self.variant = int(variant)

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal``, chosen by the tips policy.

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        if not obs.legal:
            raise ValueError(f"seat p{obs.seat + 1} has no legal action: it is not its turn")
        seat, trump, cards = obs.seat, obs.trump, obs.cards
        if obs.phase is Phase.DECLARE:
            if len(obs.legal) == 1:
                return obs.legal[0]
            ins = sum(1 for _, d in obs.declarations if d == "in")
            return Action.declare(seat, declare_in(cards, trump, ins, self.variant))
        if obs.phase is Phase.GENERAL_RAMS:
            return Action.general_rams(seat) if announce_gr(cards, trump) else Action.pass_(seat)
        if obs.phase is Phase.TARGETS:
            t = choose_target(cards, trump, obs.rules.largest_target)  # R4.8
            return Action.announce_target(seat, t) if t else Action.pass_(seat)
        legal = [a.card for a in obs.legal]
        card = choose_play(cards, [c for _, c in obs.current], trump, len(obs.tricks), legal, self.variant)
        return Action.play(seat, card)
