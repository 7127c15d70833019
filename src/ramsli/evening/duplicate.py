"""Duplicate evenings (issue 35): the same deals at every table of a section, scored against the field.

A **section** is the round's tables of one size (a split of 6, 5 has two sections). Every table of
a section plays the same **deals** in the same order: for hand k the same deck, cut and dealer
seat. A seat's **duplicate seat** on a deal is its seat index relative to that deal's dealer
(``(seat - dealer) mod N``: 0 the dealer, 1 the dealer's left, …), so duplicate seat s got the
same five cards at every table of the section.

**Scoring a deal.** Each duplicate seat's result (its ``net``: counters after the hand minus
counters before it, the ante included) is compared with everyone who held that duplicate seat on
that deal at the other tables of the section (the **field**, T tables):

- **matchpoints**: 2 per table beaten (a larger net), 1 per table tied, out of ``2 (T - 1)``;
  as a percentage ``100 * mp / (2 (T - 1))``. A section of one table has no field: 50 %.
- **counters against the field**: the net minus the mean net of that duplicate seat over the
  section's tables (the field's mean includes the seat itself).

A table whose hand k was dealt to fewer seats (a seat left as bust, R3.5 ``leave``) did not play
that deal and is not in its field; nor is a table that ended before hand k.

**Standings.** Participants are ranked by (1) the mean matchpoint percentage over the deals they
played, (2) the counters against the field summed over those deals, (3) the number of **tops**
(deals on which they beat every other table: all the matchpoints), (4) the lot
(:func:`ramsli.evening.scoring.lot_key`). A participant's line (:class:`~ramsli.evening.scoring.Standing`)
carries the mean in ``score``, the counters in ``net_vs_mean``, the tops in ``firsts`` and each
round's mean in ``rounds``. The tables' own counters (R5) are unchanged: duplicate scoring only
compares them. ``docs/evenings.md`` ("Duplicate") has a worked example.

>>> [(str(mp), mx) for mp, mx in matchpoints([3, -1, 3])]
[('3', 4), ('0', 4), ('3', 4)]
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ramsli.cards import Card, make_deck
from ramsli.evening.scoring import Standing, lot_key
from ramsli.fairness import SALT_BYTES, DealCommitment, dealt_order, deck_digest

__all__ = [
    "DUPLICATE_MODES",
    "DealSeat",
    "DealTable",
    "DealResult",
    "SeatScore",
    "DealPlan",
    "new_deals",
    "deck_key",
    "duplicate_seat",
    "matchpoints",
    "score_deal",
    "duplicate_standings",
]

#: the table modes a duplicate evening allows: only online tables deal the same cards everywhere
DUPLICATE_MODES = ("online",)


@dataclass(frozen=True, slots=True)
class DealPlan:
    """One deal of a section (hand k): dealt alike at every table of the section (server-side only,
    never sent: it holds every card).

    Attributes:
        deck: the shuffled deck, top first (R4.2).
        cut: the cut point (1..size - 1): the deal's, not a player's.
        dealer: the dealer's seat index (0..N-1).
        salts: one salt per position in dealt order (lower-case hex), shared by the section's
            tables, so that their commitments (``docs/fairness.md``) are equal position by position.
    """

    deck: tuple[Card, ...]
    cut: int
    dealer: int
    salts: tuple[str, ...]

    def to_data(self) -> dict[str, Any]:
        """As the server stores it: ``{"deck": [card text], "cut", "dealer", "salts"}``."""
        return {"deck": [str(c) for c in self.deck], "cut": self.cut, "dealer": self.dealer, "salts": list(self.salts)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> DealPlan:
        """The plan from :meth:`to_data`'s shape (ValueError/KeyError/TypeError when malformed)."""
        return cls(
            tuple(Card.parse(str(c)) for c in data["deck"]),
            int(data["cut"]),
            int(data["dealer"]),
            tuple(str(s) for s in data["salts"]),
        )

    @property
    def key(self) -> str:
        """:func:`deck_key` of this deal."""
        return DealCommitment.build(dealt_order(self.deck, self.cut), self.salts).digest


def new_deals(deck: str, jokers: bool, size: int, hands: int, rng: random.Random | None = None) -> list[DealPlan]:
    """The deals of one section for one round: ``hands`` deals for tables of ``size`` seats, each
    a fresh shuffle and cut from ``rng`` (default: the operating system's CSPRNG,
    ``secrets.SystemRandom``) and fresh salts; the first dealer drawn from ``rng``, then the deal
    passes to the left (R3.2) so everyone deals equally often.

    Args:
        deck, jokers: the rules' deck (R1, ``Rules.deck``, ``Rules.jokers``).

    >>> plans = new_deals("piquet32", False, 4, 8, random.Random(1))
    >>> len(plans), [p.dealer for p in plans][:5] == [(plans[0].dealer + k) % 4 for k in range(5)]
    (8, True)
    >>> len(plans[0].deck), len(plans[0].salts), 1 <= plans[0].cut <= 31
    (32, 32, True)
    """
    rng = rng if rng is not None else secrets.SystemRandom()
    first = rng.randrange(size)
    out = []
    for k in range(hands):
        cards = list(make_deck(deck, jokers))
        rng.shuffle(cards)
        cut = rng.randrange(1, len(cards))
        salts = tuple(secrets.token_hex(SALT_BYTES) for _ in cards)
        out.append(DealPlan(tuple(cards), cut, (first + k) % size, salts))
    return out


def deck_key(commitments: Sequence[str]) -> str:
    """A deal's key: the SHA-256 (hex) of its per-position commitments concatenated
    (:func:`ramsli.fairness.deck_digest`, the ``ramsli-deal/1`` digest). The tables of a section
    share the salts of a deal, so equal keys mean the same cards in the same positions — and the
    key reveals no card.

    >>> deck_key([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    True
    """
    return deck_digest(commitments)


def duplicate_seat(seat: int, dealer: int, size: int) -> int:
    """The duplicate seat of ``seat`` on a deal dealt by ``dealer`` at a table of ``size``: 0 the
    dealer, 1 the dealer's left (R2.2: clockwise), …

    >>> [duplicate_seat(s, 3, 5) for s in range(5)]
    [2, 3, 4, 0, 1]
    """
    return (seat - dealer) % size


@dataclass(frozen=True, slots=True)
class DealSeat:
    """One seat's public outcome of a deal at one table (R7, D-21: no card).

    Attributes:
        participant: the participant's id.
        seat: the duplicate seat (0 the dealer, :func:`duplicate_seat`).
        net: counters after the hand minus counters before it (the ante included).
        declared: ``"in"`` or ``"out"`` (R4.5).
        announced: ``"general-rams"``, ``"target:N"`` or ``""`` (R4.7, R4.8).
        tricks: tricks won.
        won, paid: counters received and paid in the settlement (R5; the ante not in ``paid``).
    """

    participant: str
    seat: int
    net: int
    declared: str = "in"
    announced: str = ""
    tricks: int = 0
    won: int = 0
    paid: int = 0

    def to_data(self) -> dict[str, Any]:
        """As the download and the field view write it."""
        return {
            "participant": self.participant,
            "seat": self.seat,
            "net": self.net,
            "declared": self.declared,
            "announced": self.announced,
            "tricks": self.tricks,
            "won": self.won,
            "paid": self.paid,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> DealSeat:
        """The seat from :meth:`to_data`'s shape (ValueError/KeyError/TypeError when malformed)."""
        return cls(
            participant=_str(data["participant"]),
            seat=_int(data["seat"]),
            net=_int(data["net"]),
            declared=_str(data.get("declared", "in")),
            announced=_str(data.get("announced", "")),
            tricks=_int(data.get("tricks", 0)),
            won=_int(data.get("won", 0)),
            paid=_int(data.get("paid", 0)),
        )


@dataclass(frozen=True, slots=True)
class DealTable:
    """One table's outcome of a deal: its seats in duplicate-seat order (``seats[s].seat == s``),
    and the deal's key at that table (:func:`deck_key`; ``""`` unknown)."""

    table: int
    seats: tuple[DealSeat, ...]
    key: str = ""


@dataclass(frozen=True, slots=True)
class DealResult:
    """Deal ``hand`` of round ``round`` in the section of tables of ``size``: every table of the
    section that played it."""

    round: int
    size: int
    hand: int
    tables: tuple[DealTable, ...]


@dataclass(frozen=True, slots=True)
class SeatScore:
    """A duplicate seat's score on a deal: ``mp`` of ``max`` matchpoints, ``pct`` (0..100; 50 with
    no field), ``vs_field`` (net minus the field's mean), exact fractions."""

    participant: str
    mp: Fraction
    max: int
    pct: Fraction
    vs_field: Fraction


def matchpoints(nets: Sequence[int]) -> list[tuple[Fraction, int]]:
    """Each table's matchpoints for one duplicate seat: 2 per other table with a smaller net, 1 per
    other table with the same net, out of ``2 * (len(nets) - 1)``.

    >>> [(int(mp), mx) for mp, mx in matchpoints([5, 5, -2, 9])]
    [(3, 6), (3, 6), (0, 6), (6, 6)]
    """
    top = 2 * (len(nets) - 1)
    return [(Fraction(2 * sum(1 for v in nets if v < x) + sum(1 for v in nets if v == x) - 1), top) for x in nets]


def score_deal(deal: DealResult) -> dict[tuple[int, int], SeatScore]:
    """The scores of one deal: (table, duplicate seat) -> :class:`SeatScore`.

    Raises:
        ValueError: a table whose seats are not in duplicate-seat order, or of another size.

    >>> d = DealResult(1, 3, 1, (
    ...     DealTable(1, (DealSeat("a", 0, 4), DealSeat("b", 1, -1), DealSeat("c", 2, -3))),
    ...     DealTable(2, (DealSeat("d", 0, -1), DealSeat("e", 1, 2), DealSeat("f", 2, -1))),
    ... ))
    >>> s = score_deal(d)
    >>> [(s[t, 0].participant, int(s[t, 0].pct), str(s[t, 0].vs_field)) for t in (1, 2)]
    [('a', 100, '5/2'), ('d', 0, '-5/2')]
    """
    for t in deal.tables:
        if len(t.seats) != deal.size or any(s.seat != i for i, s in enumerate(t.seats)):
            raise ValueError(f"round {deal.round}, deal {deal.hand}, table {t.table}: seats not in duplicate order")
    out: dict[tuple[int, int], SeatScore] = {}
    for s in range(deal.size):
        nets = [t.seats[s].net for t in deal.tables]
        mean = Fraction(sum(nets), len(nets)) if nets else Fraction(0)
        for t, (mp, top) in zip(deal.tables, matchpoints(nets)):
            pct = Fraction(50) if top == 0 else 100 * mp / top
            out[t.table, s] = SeatScore(t.seats[s].participant, mp, top, pct, t.seats[s].net - mean)
    return out


@dataclass
class _Tally:
    pct: Fraction = Fraction(0)
    deals: int = 0
    vs_field: Fraction = Fraction(0)
    tops: int = 0


def duplicate_standings(
    participants: Sequence[str], deals: Sequence[DealResult], seed_for_lot: str, rounds: int
) -> list[Standing]:
    """The standings of a duplicate evening (see the module's notes) after ``deals``.

    Args:
        participants: everyone to list (a participant without a deal scores 0 and ranks after
            those with deals, by the lot).
        seed_for_lot: the evening's commitment (the last tie-break).
        rounds: the evening's rounds (the length of each line's ``rounds``).

    >>> d = DealResult(1, 3, 1, (
    ...     DealTable(1, (DealSeat("a", 0, 4), DealSeat("b", 1, -1), DealSeat("c", 2, -3))),
    ...     DealTable(2, (DealSeat("d", 0, -1), DealSeat("e", 1, 2), DealSeat("f", 2, -1))),
    ... ))
    >>> [(s.rank, s.participant, s.score) for s in duplicate_standings("abcdef", [d], "c0", 1)][:3]
    [(1, 'a', 100.0), (2, 'e', 100.0), (3, 'f', 100.0)]
    """
    tally: dict[str, _Tally] = {p: _Tally() for p in participants}
    per_round: dict[str, dict[int, list[Fraction]]] = {p: {} for p in participants}
    for deal in deals:
        for sc in score_deal(deal).values():
            t = tally.setdefault(sc.participant, _Tally())
            t.pct += sc.pct
            t.deals += 1
            t.vs_field += sc.vs_field
            t.tops += sc.max > 0 and sc.mp == sc.max
            per_round.setdefault(sc.participant, {}).setdefault(deal.round, []).append(sc.pct)

    def mean(t: _Tally) -> Fraction:
        return t.pct / t.deals if t.deals else Fraction(0)

    order = sorted(
        tally,
        key=lambda p: (
            tally[p].deals == 0,
            -mean(tally[p]),
            -tally[p].vs_field,
            -tally[p].tops,
            lot_key(seed_for_lot, p),
        ),
    )
    out = []
    for rank, p in enumerate(order, 1):
        t = tally[p]
        by_round = per_round.get(p, {})
        out.append(
            Standing(
                rank=rank,
                participant=p,
                score=float(mean(t)),
                net_vs_mean=float(t.vs_field),
                firsts=t.tops,
                rounds=tuple(
                    float(sum(by_round[r], Fraction(0)) / len(by_round[r])) if r in by_round else None
                    for r in range(1, rounds + 1)
                ),
                note="",
            )
        )
    return out


def _int(x: object) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"{x!r} is not a whole number")
    return x


def _str(x: object) -> str:
    if not isinstance(x, str):
        raise TypeError(f"{x!r} is not text")
    return x
