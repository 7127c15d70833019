"""What a seat can infer from its :class:`~ramsli.hand.Observation`, on the bots' card codes (R7, R4.10).

The inferences themselves live in :mod:`ramsli.inference` (the one place for
them: revealed voids, trump caps including D-14, the unseen cards and the
sampling of hidden cards); this module only translates them to the codes of
:mod:`ramsli.bots.fast` for the bots' inner loops.

:func:`infer` turns an observation into a :class:`Knowledge`: the cards the
seat has not seen (its pool of hidden cards), and for every other seat the
voids and trump caps that the strict play rules reveal.
:func:`sample_deal` deals the pool to the other seats consistently with it
(:func:`ramsli.inference.sample_hidden`). Only the observation is read, so
nothing here can see a hidden card.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field

from ramsli.bots.fast import Codec, codec, mask_of
from ramsli.cards import make_deck
from ramsli.hand import Observation
from ramsli.inference import NO_CAP, hidden_counts, sample_hidden, unseen_cards, voids_and_caps

__all__ = ["Knowledge", "infer", "sample_deal", "declaration_context"]

#: per trump suit: suit letter -> the ``eff`` of :mod:`ramsli.bots.fast` (0 trump, 1..3 side suits)
_EFF = {t: {t: 0, **{s: 1 + i for i, s in enumerate(codec(t).side)}} for t in "SHDC"}


@dataclass
class Knowledge:
    """Inferences of one seat (codes of :mod:`ramsli.bots.fast`).

    Attributes:
        codec: the card <-> code mapping for this hand's trump.
        always: option ``overtrump == "always"``.
        own: the seat's unplayed codes.
        pool: codes the seat has not seen: other seats' unplayed cards, folded
            hands and the stock (R7).
        need: seat -> number of hidden cards it holds that matter (all seated seats
            while declaring; active seats afterwards).
        voids: seat -> bit mask of suits (eff 0..3, 0 = trump) it is known void in.
        cap: seat -> it holds no trump with a code above this (absent: unknown).
        visible_trumps: mask of trump codes out of play (turn-up, jokers turned aside, and
            ranks not in the deck, e.g. the jokers without option ``jokers``).
        played: mask of codes already played.
    """

    codec: Codec
    always: bool
    own: list[int]
    pool: list[int]
    need: dict[int, int]
    voids: dict[int, int] = field(default_factory=dict)
    cap: dict[int, int] = field(default_factory=dict)
    visible_trumps: int = 0
    played: int = 0

    def allows(self, seat: int, code: int) -> bool:
        """True if ``seat`` may hold ``code`` as far as this seat knows."""
        if (self.voids.get(seat, 0) >> (code >> 5)) & 1:
            return False
        return not (code < 32 and code > self.cap.get(seat, NO_CAP))


def infer(obs: Observation) -> Knowledge:
    """Everything ``obs.seat`` knows about hidden cards (R7, R4.10), on codes.

    A pure function of ``obs``: what :func:`ramsli.inference.infer` finds,
    translated to the codes of ``ramsli.bots.fast`` (void suits become bit
    masks, 0 = trump; trump caps are ranks, which are the trump codes).
    """
    cd = codec(obs.trump)
    rules = obs.rules
    deck = make_deck(rules.deck, rules.jokers)
    void_suits, caps = voids_and_caps(obs)
    eff = _EFF[obs.trump]
    voids: dict[int, int] = {}
    for seat, suits in void_suits.items():
        m = 0
        for suit in suits:
            m |= 1 << eff[suit]
        voids[seat] = m
    played = 0
    for plays in [t.plays for t in obs.tricks] + [obs.current]:
        for _, c in plays:
            played |= 1 << cd.enc(c)
    vis = mask_of(cd.enc(c) for c in (obs.turn_up, *obs.turned_aside) if cd.enc(c) < 32)
    vis |= _absent_trumps(rules.deck, rules.jokers, obs.trump)
    return Knowledge(
        cd,
        rules.overtrump == "always",
        cd.encs(obs.cards),
        cd.encs(unseen_cards(obs, deck)),
        hidden_counts(obs),
        voids,
        caps,
        vis,
        played,
    )


@functools.cache
def _absent_trumps(deck: str, jokers: bool, trump: str) -> int:
    """Mask of the trump codes 2..16 not in this deck: they count as out of play."""
    cd = codec(trump)
    in_deck = mask_of(cd.enc(c) for c in make_deck(deck, jokers) if cd.enc(c) < 32)
    return ((1 << 17) - 4) & ~in_deck


def sample_deal(k: Knowledge, rng: random.Random, tries: int = 20) -> dict[int, list[int]] | None:
    """Deal the pool at random to the seats of ``k.need``, respecting voids and caps.

    :func:`ramsli.inference.sample_hidden` on codes: the most constrained seats
    are dealt first; a deal that cannot be completed is retried up to ``tries``
    times, then the constraints are dropped (returns a plain random deal), so it
    only returns None if the pool is too small.
    """
    constrained = [s for s in k.need if k.voids.get(s, 0) or k.cap.get(s, NO_CAP) != NO_CAP]
    return sample_hidden(k.pool, k.need, rng, k.allows, constrained, tries, relax=True)


def declaration_context(obs: Observation) -> list[tuple[int, bool, int, int, bool]]:
    """Each declaration made so far as ``(seat, in, n_in_before, n_to_come, forced)`` (R4.5).

    ``forced`` marks the dealer's ``in`` when everyone before was out and
    ``dealer_forced`` is on: it says nothing about the cards.
    """
    n = len(obs.stacks)
    seated_order = [(obs.dealer + k) % n for k in range(1, n + 1) if (obs.dealer + k) % n in obs.seated]
    out = []
    n_in = 0
    for i, (s, d) in enumerate(obs.declarations):
        stay = d == "in"
        to_come = len(seated_order) - i - 1
        forced = stay and obs.rules.dealer_forced and to_come == 0 and n_in == 0
        out.append((s, stay, n_in, to_come, forced))
        if stay:
            n_in += 1
    return out
