"""What a seat can infer from its :class:`~ramsli.hand.Observation` (R7, R4.10).

:func:`infer` turns an observation into a :class:`Knowledge`: the cards the
seat has not seen (its pool of hidden cards), and for every other seat the
voids and trump caps that the strict play rules reveal (the seeds' tip
"strict overtrump helps you count"):

- a player who does not follow suit is void in the led suit (R4.10.1);
- a player void in a side suit who does not trump holds no trump (R4.10.2);
- a player who trumps a side-suit lead below the highest trump in the trick
  holds no higher trump (R4.10.3, both ``overtrump`` settings);
- under ``overtrump = "always"`` (D-14), a player who follows a trump lead below
  the highest trump in the trick holds no higher trump.

:func:`sample_deal` deals the pool to the other seats consistently with it.
Only the observation is read, so nothing here can see a hidden card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ramsli.bots.fast import Codec, codec, mask_of
from ramsli.cards import make_deck
from ramsli.hand import Observation, Phase

__all__ = ["Knowledge", "infer", "sample_deal", "declaration_context"]


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
        cap: seat -> it holds no trump with a code above this (99: unknown).
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
        return not (code < 32 and code > self.cap.get(seat, 99))


def infer(obs: Observation) -> Knowledge:
    """Everything ``obs.seat`` knows about hidden cards (R7, R4.10). Pure function of ``obs``."""
    cd = codec(obs.trump)
    rules = obs.rules
    always = rules.overtrump == "always"
    deck = make_deck(rules.deck, rules.jokers)
    seen = set(c.index for c in obs.cards)
    seen.add(obs.turn_up.index)
    for c in obs.turned_aside:
        seen.add(c.index)
    played = 0
    voids: dict[int, int] = {}
    cap: dict[int, int] = {}
    tricks = [t.plays for t in obs.tricks]
    if obs.current:
        tricks.append(obs.current)
    for plays in tricks:
        lead = cd.enc(plays[0][1])
        seen.add(plays[0][1].index)
        played |= 1 << lead
        led = lead >> 5
        high = lead if lead < 32 else 0
        for seat, card in plays[1:]:
            seen.add(card.index)
            c = cd.enc(card)
            played |= 1 << c
            e = c >> 5
            if e != led:
                voids[seat] = voids.get(seat, 0) | (1 << led)
                if led != 0 and e != 0:
                    voids[seat] |= 1  # void in the side suit and did not trump: no trump (R4.10.2)
                if led != 0 and e == 0 and high and c < high:
                    cap[seat] = min(cap.get(seat, 99), high)  # could not overtrump (R4.10.3)
            elif led == 0 and always and c < high:
                cap[seat] = min(cap.get(seat, 99), high)  # D-14: followed a trump lead without overtrumping
            if c < 32 and c > high:
                high = c
    pool = [cd.enc(c) for c in deck if c.index not in seen]
    if obs.phase is Phase.DECLARE:
        need = {s: obs.cards_left[s] for s in obs.seated if s != obs.seat}
    else:
        need = {s: obs.cards_left[s] for s in obs.active if s != obs.seat}
    vis = mask_of(cd.enc(c) for c in (obs.turn_up, *obs.turned_aside) if cd.enc(c) < 32)
    in_deck = mask_of(cd.enc(c) for c in deck if cd.enc(c) < 32)
    vis |= ((1 << 17) - 4) & ~in_deck  # trump ranks not in this deck count as out of play
    return Knowledge(cd, always, cd.encs(obs.cards), pool, need, voids, cap, vis, played)


def sample_deal(k: Knowledge, rng: random.Random, tries: int = 20) -> dict[int, list[int]] | None:
    """Deal the pool at random to the seats of ``k.need``, respecting voids and caps.

    The most constrained seats are dealt first; a deal that cannot be completed
    is retried up to ``tries`` times, then the constraints are dropped (returns a
    plain random deal), so it only returns None if the pool is too small.
    """
    seats = sorted(k.need, key=lambda s: (bin(k.voids.get(s, 0)).count("1") == 0 and k.cap.get(s, 99) == 99, s))
    constrained = any(k.voids.get(s, 0) or k.cap.get(s, 99) != 99 for s in seats)
    pool = k.pool
    total = sum(k.need.values())
    if total > len(pool):
        return None
    for _ in range(tries if constrained else 1):
        cards = pool[:]
        rng.shuffle(cards)
        out: dict[int, list[int]] = {}
        ok = True
        for s in seats:
            n = k.need[s]
            if not n:
                out[s] = []
                continue
            if k.voids.get(s, 0) or k.cap.get(s, 99) != 99:
                take = [c for c in cards if k.allows(s, c)][:n]
                if len(take) < n:
                    ok = False
                    break
                ts = set(take)
                cards = [c for c in cards if c not in ts]
            else:
                take = cards[:n]
                cards = cards[n:]
            out[s] = take
        if ok:
            return out
    cards = pool[:]
    rng.shuffle(cards)
    out = {}
    for s in seats:
        out[s] = cards[:k.need[s]]
        cards = cards[k.need[s]:]
    return out


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
