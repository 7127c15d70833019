"""What one seat can infer about the cards it cannot see (R7, R4.10, D-14).

This is the one place for these inferences; the bots (:mod:`ramsli.bots.tracking`,
on their compact card codes) and the RL adapters (:mod:`ramsli.rl.encoding`,
:mod:`ramsli.rl.openspiel_game`) all call it. Only public information is read:
the seat's own cards, the turn-up, the jokers turned aside and every card
played with the seat that played it. So nothing here can reveal a hidden card.

The strict play rules (R4.10) turn plays into certainties (the seeds' tip
"strict overtrump helps you count"):

- a seat that does not follow suit is **void** in the led suit (R4.10.1);
- a seat void in a side suit that does not trump holds **no trump** (R4.10.2);
- a seat that trumps a side-suit lead below the highest trump in the trick
  holds no higher trump: its **trump cap** (R4.10.3, both ``overtrump``
  settings);
- under ``overtrump = "always"`` (D-14), a seat that follows a trump lead below
  the highest trump in the trick holds no higher trump either.

Jokers count as trumps (D-2). :func:`sample_hidden` deals the unseen cards to
the other seats at random, respecting all of that, from a seeded
:class:`random.Random`.

>>> from ramsli import Hand, Rules
>>> from ramsli.cards import parse_cards
>>> from ramsli.hand import Action
>>> h = Hand.from_cards(Rules(), [20] * 3, 0, [parse_cards("AS KS QS JS TS"), parse_cards("9H 8H 7H AH KH"),
...     parse_cards("AD KD QD JD TD")], parse_cards("7C")[0])
>>> for a in ("p2 in", "p3 in", "p1 in", "p2 pl AH", "p3 pl AD"):
...     h.apply(Action.parse(a))
>>> inf = infer(h.observe(0))
>>> sorted(inf.voids[2]), inf.allows(2, parse_cards("QH")[0]), len(inf.unseen)
(['C', 'H'], False, 24)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ramsli.cards import Card, make_deck
from ramsli.hand import Observation, Phase

__all__ = [
    "Inference",
    "infer",
    "revealed_voids",
    "trump_caps",
    "unseen_cards",
    "hidden_counts",
    "voids_and_caps",
    "sample_hidden",
    "NO_CAP",
]

#: the cap of a seat with no known trump cap (higher than every trump rank, 16 = big joker)
NO_CAP = 99

T = TypeVar("T", bound=Hashable)


def _all_plays(view: Any) -> list[Sequence[tuple[int, Card]]]:
    """The plays of every trick seen so far, completed tricks first, then the one in progress."""
    tricks: list[Sequence[tuple[int, Card]]] = [t.plays for t in view.tricks]
    if view.current:
        tricks.append(tuple(view.current))
    return tricks


def voids_and_caps(view: Any) -> tuple[dict[int, set[str]], dict[int, int]]:
    """``(revealed_voids(view), trump_caps(view))`` in one pass over the plays (R4.10, D-14).

    See :func:`revealed_voids` and :func:`trump_caps`; the rules are listed in
    the module docstring.
    """
    voids: dict[int, set[str]] = {}
    caps: dict[int, int] = {}
    trump = view.trump
    if trump is None:
        return voids, caps
    always = getattr(getattr(view, "rules", None), "overtrump", "always") == "always"
    for plays in _all_plays(view):
        lead = plays[0][1]
        led = trump if lead.suit is None else lead.suit
        high = lead.rank if led == trump else 0  # highest trump in the trick so far (0: none)
        for seat, card in plays[1:]:
            suit = trump if card.suit is None else card.suit
            if suit != led:
                v = voids.setdefault(seat, set())
                v.add(led)  # R4.10.1: did not follow suit
                if suit != trump:
                    v.add(trump)  # R4.10.2: void in the led suit and did not trump (or: no trump to a trump lead)
            if suit == trump:
                if high and card.rank < high and (always or led != trump):
                    caps[seat] = min(caps.get(seat, NO_CAP), high)  # R4.10.3, D-14: could not overtrump
                if card.rank > high:
                    high = card.rank
    return voids, caps


def revealed_voids(view: Any) -> dict[int, set[str]]:
    """Suits each seat is known to be void in, from its plays (R4.10.1, R4.10.2).

    A seat that did not follow the led suit holds none of it; one that also did
    not trump holds no trump either (the trump suit letter stands for the trumps,
    jokers included, D-2). Public plays only, so every seat knows this (R7).

    Args:
        view: an :class:`~ramsli.hand.Observation` (or anything with ``trump``,
            ``tricks`` and ``current``, e.g. :class:`ramsli.rl.encoding.DealView`).

    Returns:
        seat -> set of suit letters; seats with no known void are absent; empty
        while there is no trump (during the deal).
    """
    return voids_and_caps(view)[0]


def trump_caps(view: Any) -> dict[int, int]:
    """Per seat, the highest trump rank it can still hold, from its plays (R4.10.3, D-14).

    A seat that played a trump lower than the highest trump already in the trick,
    where it had to overtrump if able (a trumped side-suit lead, or with
    ``overtrump = "always"`` also a trump lead), held no higher trump. The cap is
    that highest trump's rank (jokers 15 little, 16 big). Public plays only (R7).

    Args:
        view: as for :func:`revealed_voids`; ``view.rules.overtrump`` is read if
            present (default ``"always"``).

    Returns:
        seat -> rank; seats without a cap are absent.
    """
    return voids_and_caps(view)[1]


def unseen_cards(view: Any, deck: Sequence[Card] | None = None) -> list[Card]:
    """The cards of the deck that ``view.seat`` has not seen (R7), in deck order.

    Those are the other seats' unplayed cards, folded hands and the stock: the
    deck minus the seat's own cards, the turn-up (if dealt), the jokers turned
    aside and every card played.

    Args:
        view: an :class:`~ramsli.hand.Observation` (or a
            :class:`ramsli.rl.encoding.DealView`, then ``deck`` is needed).
        deck: the deck in use; default ``make_deck(view.rules.deck, view.rules.jokers)``.
    """
    if deck is None:
        deck = make_deck(view.rules.deck, view.rules.jokers)
    seen = set(view.cards)  # cards are interned: one object per card
    seen.update(view.turned_aside)
    if view.turn_up is not None:
        seen.add(view.turn_up)
    for t in view.tricks:
        seen.update(c for _, c in t.plays)
    seen.update(c for _, c in view.current)
    return [c for c in deck if c not in seen]


def hidden_counts(obs: Observation) -> dict[int, int]:
    """How many hidden cards each other seat holds that matter (R7): every seated
    seat's unplayed cards while declaring (R4.5), afterwards only the active seats'
    (folded hands are out of play). The observer is not included.

    >>> import random
    >>> from ramsli import Hand, Rules
    >>> hidden_counts(Hand.new(Rules(), [20] * 3, dealer=0, rng=random.Random(1)).observe(1))
    {0: 5, 2: 5}
    """
    seats = obs.seated if obs.phase is Phase.DECLARE else obs.active
    return {s: obs.cards_left[s] for s in seats if s != obs.seat}


@dataclass(frozen=True)
class Inference:
    """What seat ``seat`` knows about the cards it cannot see (see :func:`infer`).

    Attributes:
        seat: the observing seat.
        trump: the trump suit letter (None while dealing: no inference then).
        voids: seat -> suit letters it is known void in (R4.10.1-2).
        caps: seat -> the highest trump rank it can still hold (R4.10.3, D-14).
        unseen: the cards the seat has not seen, in deck order (R7).
        need: seat -> hidden cards it holds that a sample must deal it.
    """

    seat: int
    trump: str | None
    voids: Mapping[int, frozenset[str]]
    caps: Mapping[int, int]
    unseen: tuple[Card, ...]
    need: Mapping[int, int]

    def allows(self, seat: int, card: Card) -> bool:
        """True if ``seat`` may hold ``card`` as far as the observer knows (its voids and cap)."""
        trump = self.trump
        if trump is None:
            return True
        suit = trump if card.suit is None else card.suit
        if suit in self.voids.get(seat, ()):
            return False
        return not (suit == trump and card.rank > self.caps.get(seat, NO_CAP))

    @property
    def constrained(self) -> tuple[int, ...]:
        """Seats of :attr:`need` with a known void or trump cap, ascending."""
        return tuple(s for s in sorted(self.need) if self.voids.get(s) or s in self.caps)

    def sample(self, rng: random.Random, tries: int = 20, relax: bool = False) -> dict[int, list[Card]] | None:
        """Deal :attr:`unseen` at random to the seats of :attr:`need`, respecting voids and caps
        (:func:`sample_hidden` with this inference's constraints)."""
        return sample_hidden(self.unseen, self.need, rng, self.allows, self.constrained, tries, relax)


def infer(view: Any, deck: Sequence[Card] | None = None, need: Mapping[int, int] | None = None) -> Inference:
    """Everything ``view.seat`` knows about hidden cards (R7, R4.10, D-14); a pure function of ``view``.

    Args:
        view: an :class:`~ramsli.hand.Observation` (or a :class:`ramsli.rl.encoding.DealView`
            with ``deck`` and ``need`` given).
        deck: the deck in use (default: from ``view.rules``).
        need: hidden cards per other seat to deal in samples (default :func:`hidden_counts`).
    """
    voids, caps = voids_and_caps(view)
    return Inference(
        seat=view.seat,
        trump=view.trump,
        voids={s: frozenset(v) for s, v in voids.items()},
        caps=caps,
        unseen=tuple(unseen_cards(view, deck)),
        need=dict(hidden_counts(view) if need is None else need),
    )


def sample_hidden(
    pool: Sequence[T],
    need: Mapping[int, int],
    rng: random.Random,
    allows: Callable[[int, T], bool] | None = None,
    constrained: Collection[int] = (),
    tries: int = 20,
    relax: bool = False,
) -> dict[int, list[T]] | None:
    """Deal ``need[s]`` items of ``pool`` to every seat ``s`` at random (R7 sampling).

    The seats of ``constrained`` get only items ``allows(seat, item)`` accepts
    (their voids and trump caps); they are dealt first (ascending), then the
    others (ascending). Each attempt shuffles a copy of ``pool`` with ``rng``
    (one ``rng.shuffle`` per attempt, so a seed gives the same deal for any item
    type of the same pool order). Items are cards or any stand-in for them
    (e.g. the bots' card codes).

    Args:
        pool: the unseen cards, e.g. :attr:`Inference.unseen` (not changed).
        need: seat -> number of items to deal it (0 allowed).
        rng: the random source (seeded for reproducible samples).
        allows: ``allows(seat, item)``; None: no constraints.
        constrained: the seats ``allows`` applies to (others take any item).
        tries: attempts at a constrained deal (a greedy deal can dead-end).
        relax: if no attempt succeeds, deal once more ignoring the constraints
            instead of returning None.

    Returns:
        seat -> items dealt, or None if ``pool`` holds fewer items than ``need``
        asks for, or (without ``relax``) no attempt met the constraints.

    >>> sample_hidden([1, 2, 3, 4], {0: 2, 1: 2}, random.Random(0), lambda s, c: c % 2 == s, [0, 1])
    {0: [2, 4], 1: [3, 1]}
    """
    cons = {s for s in constrained if s in need} if allows is not None else set()
    seats = sorted(need, key=lambda s: (s not in cons, s))
    if sum(need.values()) > len(pool):
        return None
    for _ in range(tries if cons else 1):
        cards = list(pool)
        rng.shuffle(cards)
        out: dict[int, list[T]] = {}
        ok = True
        for s in seats:
            n = need[s]
            if not n:
                out[s] = []
                continue
            if s in cons:
                take = [c for c in cards if allows(s, c)][:n]  # type: ignore[misc]
                if len(take) < n:
                    ok = False
                    break
                taken = set(take)
                cards = [c for c in cards if c not in taken]
            else:
                take = cards[:n]
                cards = cards[n:]
            out[s] = take
        if ok:
            return out
    if not relax:
        return None
    cards = list(pool)
    rng.shuffle(cards)
    out = {}
    for s in seats:
        out[s] = cards[: need[s]]
        cards = cards[need[s] :]
    return out
