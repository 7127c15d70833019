"""Deals anyone can check: the deck committed before the first declaration, opened card by card.

When a server table deals a hand it commits to every card of the deck in **dealt order** (the
shuffled deck after the cut, R4.2: position 0 is the first card dealt, then the rest of the
deal, any jokers turned aside, the turn-up and the stock, R4.3, R4.4, D-9): one
:func:`commitment` per position, the SHA-256 of a fresh random salt, the position and the card,
and one :func:`deck_digest` over all of them. A seat is sent the commitments at the deal and the
salt of a position (an :class:`Opening`) exactly when it may know that position's card (R7): its
own five cards, the turn-up and the jokers turned aside at the deal, every card when it is
played. A folded hand, another seat's unplayed card and the stock are never opened (D-16), so
their salts never leave the server and their commitments say nothing about them.

The byte format (``docs/fairness.md``; new deals use scheme :data:`SCHEME`, ``ramsli-deal/2``;
``ramsli-deal/1`` deals are still read and checked)::

    message    = salt ":" position ":" card        (ASCII text)
    salt       = 32 to 128 lower-case hex digits  (the server makes 32: 16 random bytes)
    position   = the 0-based position in dealt order, in decimal
    card       = the card as R1.6 writes it: TH, AS, X1
    commitment = lower-case hex of SHA-256(message)
    ramsli-deal/1:
    digest     = lower-case hex of SHA-256(commitment 0 + commitment 1 + ...)  (the hex texts, concatenated)
    ramsli-deal/2: the deal bound to its hand (a :class:`DealBinding`)
    header     = "ramsli-deal/2" LF "table=" table LF "hand=" number LF "dealer=" seat LF
                 "seated=" seat "," seat ... LF        (seats as the protocol writes them: p1..p6)
    digest     = lower-case hex of SHA-256(header + commitment 0 + commitment 1 + ...)

A ``ramsli-deal/2`` digest names the table, the hand's number, its dealer and the seats dealt in
it, so that one hand's commitments shown again at another hand or table do not check there.

>>> salt = "00" * 16
>>> c = commitment(salt, 0, "AS")
>>> c == hashlib.sha256(b"00000000000000000000000000000000:0:AS").hexdigest()
True
>>> Opening(0, Card.parse("AS"), salt).matches(c)
True

This module does no I/O and draws no random numbers: the server makes the salts
(``secrets.token_bytes``) and passes them in. :func:`check_deal` checks a hand's openings as
``ramsli verify`` does.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ramsli.cards import Card, CardError, make_deck
from ramsli.hand import Hand
from ramsli.refusal import Refusal
from ramsli.seats import parse_seat, seat_name

__all__ = [
    "SCHEME",
    "SCHEME_V1",
    "SCHEMES",
    "SALT_BYTES",
    "MIN_SALT_HEX",
    "MAX_SALT_HEX",
    "commitment",
    "deck_digest",
    "DealBinding",
    "dealt_order",
    "Places",
    "places",
    "hand_places",
    "Opening",
    "DealCommitment",
    "DealProof",
    "ProofError",
    "known_cards",
    "openings_for",
    "check_deal",
    "MALFORMED",
]

#: the name and version of the byte format of new deals (``docs/fairness.md``): the digest binds
#: the table, the hand's number, its dealer and its seats (:class:`DealBinding`)
SCHEME = "ramsli-deal/2"
#: the first version: the digest covers the commitments only (still read and checked)
SCHEME_V1 = "ramsli-deal/1"
#: every scheme this module reads
SCHEMES = (SCHEME_V1, SCHEME)
#: bytes of a fresh salt as the server makes them (``secrets.token_bytes``)
SALT_BYTES = 16
#: the fewest hex digits a salt may have (16 bytes)
MIN_SALT_HEX = 2 * SALT_BYTES
#: the most hex digits a salt may have (64 bytes); any number in between, odd ones too
MAX_SALT_HEX = 128

_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_SALT = re.compile(rf"^[0-9a-f]{{{MIN_SALT_HEX},{MAX_SALT_HEX}}}$")
#: a table id a digest can bind: ASCII letters, digits, ``-`` and ``_`` (the server's ids are 8
#: letters and digits)
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_SEAT_ID = re.compile(r"^p[1-6]$")

#: the codes of a proof that cannot be read at all (``ramsli verify`` exit status 2); every other
#: finding of :func:`check_deal` is a mismatch (exit status 1)
MALFORMED = frozenset(
    {
        "fair_scheme",
        "fair_length",
        "fair_bad_commitment",
        "fair_bad_digest",
        "fair_bad_opening",
        "fair_position_twice",
        "fair_bad_seat",
        "fair_bad_binding",
        "fair_no_proof",
    }
)


def commitment(salt: str, position: int, card: Card | str) -> str:
    """The commitment to ``card`` at ``position``: lower-case hex SHA-256 of the ASCII text
    ``salt:position:card`` (``docs/fairness.md``).

    Args:
        salt: lower-case hex digits (:data:`MIN_SALT_HEX` or more).
        position: 0-based position in dealt order.
        card: a card, or its text as R1.6 writes it (``TH``).

    >>> commitment("ab" * 16, 3, "TH")[:16]
    '7a4e686fcd77c390'
    """
    return hashlib.sha256(f"{salt}:{position}:{card}".encode("ascii")).hexdigest()


def deck_digest(commitments: Iterable[str], binding: DealBinding | None = None) -> str:
    """The digest of a deal: lower-case hex SHA-256 of the commitments' hex texts concatenated in
    position order (``ramsli-deal/1``, ``binding`` None), or of ``binding``'s
    :meth:`~DealBinding.header` followed by them (``ramsli-deal/2``).

    >>> deck_digest([]) == hashlib.sha256(b"").hexdigest()
    True
    >>> b = DealBinding("k3v9q2", 3, 0, (0, 1, 2))
    >>> deck_digest([], b) == hashlib.sha256(b"ramsli-deal/2\\ntable=k3v9q2\\nhand=3\\ndealer=p1\\nseated=p1,p2,p3\\n").hexdigest()
    True
    """
    head = "" if binding is None else binding.header()
    return hashlib.sha256((head + "".join(commitments)).encode("ascii")).hexdigest()


@dataclass(frozen=True)
class DealBinding:
    """What a ``ramsli-deal/2`` digest binds the deal to (``docs/fairness.md``): one hand of one
    table, so that its commitments shown at another hand or table do not check there.

    Attributes:
        table: the table's id (1 to 64 ASCII letters, digits, ``-``, ``_``).
        hand: the hand's number in its session, 1-based (R3).
        dealer: the dealer's seat, 0-based (R3.2); written ``p1``..``p6``.
        seated: the seats dealt in this hand, 0-based, in seat order (R3.5); written ``p1,p3``.

    Raises:
        ValueError: for a table id, number, dealer or seats outside these forms, or a dealer
            not seated.

    >>> DealBinding("k3v9q2", 3, 0, (0, 1, 2)).header()
    'ramsli-deal/2\\ntable=k3v9q2\\nhand=3\\ndealer=p1\\nseated=p1,p2,p3\\n'
    """

    table: str
    hand: int
    dealer: int
    seated: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.table, str) or not _TABLE_ID.match(self.table):
            raise ValueError(f"a table id is 1 to 64 ASCII letters, digits, - and _, not {self.table!r}")
        if type(self.hand) is not int or self.hand < 1:
            raise ValueError(f"a hand's number is an int of 1 or more, not {self.hand!r}")
        seated = tuple(self.seated)
        if (
            len(seated) < 2
            or any(type(x) is not int or not 0 <= x < 6 for x in seated)
            or list(seated) != sorted(set(seated))
        ):
            raise ValueError(f"the seats dealt are two to six distinct seats 0..5 in order, not {self.seated!r}")
        if self.dealer not in seated:
            raise ValueError(f"the dealer {self.dealer!r} is not seated (R3.2, R3.5)")
        object.__setattr__(self, "seated", seated)

    def header(self) -> str:
        """The text hashed before the commitments: four ``key=value`` lines after the scheme's
        name, each ending in LF (ASCII)."""
        seats = ",".join(seat_name(x) for x in self.seated)
        return f"{SCHEME}\ntable={self.table}\nhand={self.hand}\ndealer={seat_name(self.dealer)}\nseated={seats}\n"

    def to_data(self) -> dict[str, Any]:
        """``{"table", "hand", "dealer": "p1", "seated": ["p1", ...]}``, as in ``[fairness]`` and a view."""
        return {
            "table": self.table,
            "hand": self.hand,
            "dealer": seat_name(self.dealer),
            "seated": [seat_name(x) for x in self.seated],
        }


def dealt_order(deck: Sequence[Card], cut: int) -> list[Card]:
    """The cards in the order they are dealt: the shuffled ``deck`` (top first) cut at ``cut``
    (the lower packet on top, R4.2), as :func:`ramsli.hand.deal_cards` deals them.

    >>> [str(c) for c in dealt_order([Card.parse(x) for x in ("AS", "KS", "QS")], 1)]
    ['KS', 'QS', 'AS']
    """
    return list(deck[cut:]) + list(deck[:cut])


@dataclass(frozen=True)
class Places:
    """Which position of the dealt order goes where (R4.3, R4.4, D-9).

    Attributes:
        seats: seat -> the positions of its five cards, in the order dealt (its ``dealt`` cards).
        aside: the positions of the jokers turned aside before the turn-up.
        turn_up: the turn-up's position.
        size: the number of cards in the deck (positions ``0 .. size - 1``).
    """

    seats: Mapping[int, tuple[int, ...]]
    aside: tuple[int, ...]
    turn_up: int
    size: int

    @property
    def stock(self) -> tuple[int, ...]:
        """The positions of the undealt stock (never opened, R4.4, D-16)."""
        return tuple(range(self.turn_up + 1, self.size))

    def owner(self, position: int) -> int | None:
        """The seat dealt ``position``, or None (turned aside, turn-up or stock)."""
        for s, ps in self.seats.items():
            if position in ps:
                return s
        return None


def places(order: Sequence[int], first_batch: int, size: int, n_aside: int = 0) -> Places:
    """Where each position goes when the seats ``order`` (the dealer's left first, the dealer last)
    are dealt ``first_batch`` cards, then ``5 - first_batch`` (R4.3, D-19), ``n_aside`` jokers are
    turned aside (D-9) and the next card is turned up (R4.4).

    Raises:
        ValueError: if the deck of ``size`` cards is too small for the deal.

    >>> p = places([1, 2, 0], 3, 32)
    >>> p.seats[1], p.seats[0], p.turn_up
    ((0, 1, 2, 9, 10), (6, 7, 8, 13, 14), 15)
    """
    seats: dict[int, list[int]] = {s: [] for s in order}
    pos = 0
    for batch in (first_batch, 5 - first_batch):
        for s in order:
            seats[s].extend(range(pos, pos + batch))
            pos += batch
    aside = tuple(range(pos, pos + n_aside))
    turn_up = pos + n_aside
    if turn_up >= size:
        raise ValueError(f"a deck of {size} cards is too small to deal {len(order)} seats and turn up a card (R4.4)")
    return Places({s: tuple(v) for s, v in seats.items()}, aside, turn_up, size)


def hand_places(hand: Hand) -> Places:
    """The :class:`Places` of ``hand``: its seats in dealing order, the rules' batches and deck,
    its jokers turned aside (public, D-9)."""
    size = len(make_deck(hand.rules.deck, hand.rules.jokers))
    return places(hand.order, hand.rules.first_batch, size, len(hand.turned_aside))


@dataclass(frozen=True)
class Opening:
    """The salt of one position, sent when its card may be known: the card can then be checked
    against the position's commitment.

    Attributes:
        position: 0-based position in dealt order.
        card: the card the game has at that position.
        salt: the position's salt (lower-case hex).
    """

    position: int
    card: Card
    salt: str

    def matches(self, committed: str) -> bool:
        """True if this opening's :func:`commitment` is ``committed``."""
        return commitment(self.salt, self.position, self.card) == committed

    def to_data(self) -> dict[str, Any]:
        """``{"position", "card", "salt"}`` as sent in a view and written in a history."""
        return {"position": self.position, "card": str(self.card), "salt": self.salt}


@dataclass(frozen=True)
class DealCommitment:
    """A dealt hand's commitments with the salts behind them (the server's side; the salts are
    stored in the deal's event and never sent but as :class:`Opening` s).

    Attributes:
        cards: the deck in dealt order, as committed.
        salts: one salt per position (lower-case hex).
        commitments: one :func:`commitment` per position.
        digest: :func:`deck_digest` of the commitments (and of ``binding``).
        binding: the hand the digest is bound to (``ramsli-deal/2``), or None (``ramsli-deal/1``,
            a deal stored before deals were bound).
    """

    cards: tuple[Card, ...]
    salts: tuple[str, ...]
    commitments: tuple[str, ...]
    digest: str
    binding: DealBinding | None = None

    @property
    def scheme(self) -> str:
        """:data:`SCHEME` for a bound deal, :data:`SCHEME_V1` for one without a binding."""
        return SCHEME_V1 if self.binding is None else SCHEME

    @classmethod
    def build(cls, cards: Sequence[Card], salts: Sequence[str], binding: DealBinding | None = None) -> DealCommitment:
        """Commit to ``cards`` (dealt order) with one salt per position, the digest bound to
        ``binding`` (``ramsli-deal/2``; None: ``ramsli-deal/1``, for deals stored before).

        Raises:
            ValueError: if the numbers of cards and salts differ or a salt is not
                :data:`MIN_SALT_HEX` to :data:`MAX_SALT_HEX` lower-case hex digits.
        """
        if len(cards) != len(salts):
            raise ValueError(f"{len(salts)} salts for {len(cards)} cards: one salt per position")
        for s in salts:
            if not isinstance(s, str) or not _SALT.match(s):
                raise ValueError(f"a salt is {MIN_SALT_HEX} to {MAX_SALT_HEX} lower-case hex digits, not {s!r}")
        commits = tuple(commitment(s, i, c) for i, (s, c) in enumerate(zip(salts, cards)))
        return cls(tuple(cards), tuple(salts), commits, deck_digest(commits, binding), binding)

    def opening(self, position: int, card: Card) -> Opening:
        """The opening of ``position`` for ``card``, the card the game has there (a card changed
        after the commitment does not match it)."""
        return Opening(position, card, self.salts[position])


def known_cards(hand: Hand, seat: int | None) -> list[tuple[int, Card]]:
    """The ``(position, card)`` pairs ``seat`` may know now (None: a spectator; R7): its own five
    dealt cards (when ``seat`` is given), the jokers turned aside and the turn-up (D-9, R4.4), and
    every card played so far, each at the position the deal gives it. The card is the one the
    hand has (its ``dealt`` cards, its played cards), so a card changed after the commitment is
    opened as it is and does not match. Never a folded hand, another seat's unplayed card or the
    stock (D-16). Sorted by position.
    """
    pl = hand_places(hand)
    out: dict[int, Card] = {}
    if seat is not None and seat in pl.seats:
        for p, c in zip(pl.seats[seat], hand.dealt[seat]):
            if c is not None:
                out[p] = c
    for p, c in zip(pl.aside, hand.turned_aside):
        out[p] = c
    out[pl.turn_up] = hand.turn_up
    for a in hand.history:
        if a.kind == "pl" and a.card is not None and a.card in hand.dealt[a.seat]:
            out[pl.seats[a.seat][hand.dealt[a.seat].index(a.card)]] = a.card
    return sorted(out.items())


def openings_for(deal: DealCommitment, hand: Hand, seat: int | None) -> list[Opening]:
    """The openings ``seat`` (None: a spectator) is sent now: one per :func:`known_cards` pair."""
    return [deal.opening(p, c) for p, c in known_cards(hand, seat)]


class ProofError(ValueError):
    """A ``[fairness]`` table (or its JSON) that cannot be read; ``refusal`` says why (a code of
    :data:`MALFORMED`)."""

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        super().__init__(refusal.text())


@dataclass(frozen=True)
class DealProof:
    """What a reader of one hand can check: the commitments sent at the deal and the openings it
    was sent (the ``[fairness]`` table of a hand history, ``docs/hand-history.md``).

    Attributes:
        commitments: one per deck position, in dealt order.
        digest: :func:`deck_digest` of them (and of ``binding``), as the server stored it before
            the deal was shown.
        openings: the reader's openings, by position.
        seat: the reader whose own cards are opened, or None (a spectator's download).
        binding: the table, hand, dealer and seats the digest binds (``ramsli-deal/2``), or None
            (``ramsli-deal/1``).
    """

    commitments: tuple[str, ...]
    digest: str
    openings: tuple[Opening, ...]
    seat: int | None = None
    binding: DealBinding | None = None

    @property
    def scheme(self) -> str:
        """:data:`SCHEME` (``ramsli-deal/2``) with a binding, else :data:`SCHEME_V1`."""
        return SCHEME_V1 if self.binding is None else SCHEME

    @classmethod
    def of(cls, deal: DealCommitment, hand: Hand, seat: int | None) -> DealProof:
        """The proof of ``hand`` for ``seat`` (None: a spectator)."""
        return cls(deal.commitments, deal.digest, tuple(openings_for(deal, hand, seat)), seat, deal.binding)

    def to_data(self) -> dict[str, Any]:
        """The ``[fairness]`` table as plain data (TOML- and JSON-ready), keys in the order written:
        ``scheme``, ``seat`` (a seat's download), for ``ramsli-deal/2`` ``table``, ``hand``,
        ``dealer`` and ``seated`` (:meth:`DealBinding.to_data`), then ``digest``,
        ``commitments``, ``openings``."""
        out: dict[str, Any] = {"scheme": self.scheme}
        if self.seat is not None:
            out["seat"] = seat_name(self.seat)
        if self.binding is not None:
            out.update(self.binding.to_data())
        out["digest"] = self.digest
        out["commitments"] = list(self.commitments)
        out["openings"] = [o.to_data() for o in self.openings]
        return out

    @classmethod
    def from_data(cls, data: Any, deck: Sequence[Card], n_seats: int) -> DealProof:
        """Read a ``[fairness]`` table for a hand of ``deck`` (the rules' deck) and ``n_seats`` seat slots.

        Raises:
            ProofError: a key missing or unknown, a scheme not in :data:`SCHEMES`, a
                ``ramsli-deal/2`` binding (``table``, ``hand``, ``dealer``, ``seated``) missing or
                malformed, a commitment list whose length is not the deck's, a value that is not
                hex, an opening that is not ``{position, card, salt}`` of this deck, a position
                opened twice (codes in :data:`MALFORMED`).
        """

        def bad(code: str, **fields: Any) -> ProofError:
            return ProofError(Refusal(code, None, fields))

        def bad_opening(index: int, problem: str) -> ProofError:
            return bad("fair_bad_opening", index=index + 1, problem=problem)

        if not isinstance(data, dict):
            raise bad("fair_bad_opening", index=0, problem="[fairness] is not a table")
        if data.get("scheme") not in SCHEMES:
            if "scheme" not in data:
                raise bad("fair_bad_opening", index=0, problem="missing key 'scheme' in [fairness]")
            raise bad("fair_scheme", given=str(data["scheme"])[:40], scheme=", ".join(SCHEMES))
        bound = data["scheme"] == SCHEME
        keys = {"scheme", "seat", "digest", "commitments", "openings"} | (set(_BOUND) if bound else set())
        for k in data:
            if k not in keys:
                raise bad("fair_bad_opening", index=0, problem=f"unknown key {k!r} in [fairness]")
        for k in ("scheme", "digest", "commitments", "openings", *(_BOUND if bound else ())):
            if k not in data:
                raise bad("fair_bad_opening", index=0, problem=f"missing key {k!r} in [fairness]")
        binding = _binding_from_data(data, n_seats) if bound else None
        seat: int | None = None
        if "seat" in data:
            given = data["seat"]
            if not isinstance(given, str) or not re.fullmatch(r"p[1-6]", given) or int(given[1:]) > n_seats:
                raise bad("fair_bad_seat", given=str(given)[:10])
            seat = parse_seat(given, n_seats)
        commits = data["commitments"]
        if not isinstance(commits, list):
            raise bad("fair_length", given=0, deck=_deck_name(deck), size=len(deck))
        if len(commits) != len(deck):
            raise bad("fair_length", given=len(commits), deck=_deck_name(deck), size=len(deck))
        for i, c in enumerate(commits):
            if not isinstance(c, str) or not _HEX64.match(c):
                raise bad("fair_bad_commitment", position=i)
        if not isinstance(data["digest"], str) or not _HEX64.match(data["digest"]):
            raise bad("fair_bad_digest")
        raw = data["openings"]
        if not isinstance(raw, list):
            raise bad_opening(0, "openings must be a list of { position, card, salt }")
        in_deck = set(deck)
        opened: list[Opening] = []
        seen: set[int] = set()
        for i, o in enumerate(raw):
            if not isinstance(o, dict) or set(o) != {"position", "card", "salt"}:
                raise bad_opening(i, 'an opening is { position = N, card = "AS", salt = "..." }')
            p = o["position"]
            if type(p) is not int or not 0 <= p < len(deck):
                raise bad_opening(i, f"position {p!r} is not 0..{len(deck) - 1}")
            if p in seen:
                raise bad("fair_position_twice", position=p)
            seen.add(p)
            try:
                card = Card.parse(o["card"]) if isinstance(o["card"], str) else None
            except CardError:
                card = None
            if card is None or str(card) != o["card"] or card not in in_deck:
                raise bad_opening(i, f"{str(o['card'])[:10]!r} is not a card of the {_deck_name(deck)} deck (R1.6)")
            salt = o["salt"]
            if not isinstance(salt, str) or not _SALT.match(salt):
                raise bad_opening(i, f"the salt is not {MIN_SALT_HEX} to {MAX_SALT_HEX} lower-case hex digits")
            opened.append(Opening(p, card, salt))
        return cls(tuple(commits), data["digest"], tuple(opened), seat, binding)


#: the keys of a ``ramsli-deal/2`` binding in ``[fairness]`` (:meth:`DealBinding.to_data`)
_BOUND = ("table", "hand", "dealer", "seated")


def _binding_from_data(data: Mapping[str, Any], n_seats: int) -> DealBinding:
    """The :class:`DealBinding` of a ``ramsli-deal/2`` ``[fairness]`` table (its keys present).

    Raises:
        ProofError: ``fair_bad_binding`` naming the key whose value is not of its form.
    """

    def bad(key: str, value: Any) -> ProofError:
        return ProofError(Refusal("fair_bad_binding", None, {"key": key, "given": str(value)[:40]}))

    table, number, dealer, seated = (data[k] for k in _BOUND)
    if not isinstance(table, str) or not _TABLE_ID.match(table):
        raise bad("table", table)
    if type(number) is not int or number < 1:
        raise bad("hand", number)

    def seat(value: Any, key: str) -> int:
        if not isinstance(value, str) or not _SEAT_ID.match(value) or int(value[1:]) > n_seats:
            raise bad(key, value)
        return int(value[1:]) - 1

    if not isinstance(seated, list):
        raise bad("seated", seated)
    seats = tuple(seat(x, "seated") for x in seated)
    by = seat(dealer, "dealer")
    try:
        return DealBinding(table, number, by, seats)
    except ValueError:
        raise bad("seated", ",".join(map(str, seated))) from None


def _deck_name(deck: Sequence[Card]) -> str:
    n = len(deck)
    return {32: "piquet32", 34: "piquet32 + jokers", 52: "full52", 54: "full52 + jokers"}.get(n, f"{n}-card")


def check_deal(proof: DealProof, hand: Hand, number: int | None = None, table: str | None = None) -> list[Refusal]:
    """Check a reader's proof against the hand as recorded (``ramsli verify``): the digest is the
    commitments' (``ramsli-deal/2``: and the binding's); a bound digest names this hand (its
    dealer, its seats, and ``number`` and ``table`` when given); every opening matches its
    commitment; every card the reader may know of the hand (:func:`known_cards` for
    ``proof.seat``: its own cards, the turn-up, the jokers turned aside, every played card) is
    opened at the position the deal gives it and as that card; no card is opened at two positions
    (one deck) and nothing else is opened (R7, D-16).

    Args:
        proof: the commitments and openings (:meth:`DealProof.from_data` checked their form).
        hand: the hand as recorded (e.g. ``HandHistory.replay()``; unknown cards ``??`` are None).
        number: the hand's number as recorded (a history's ``hand``), or None (not checked).
        table: the table the reader played at, or None (not checked).

    Returns:
        every problem found, each a :class:`~ramsli.refusal.Refusal` (codes ``fair_digest``,
        ``fair_other_table``, ``fair_other_hand``, ``fair_other_dealer``, ``fair_other_seats``,
        ``fair_mismatch``, ``fair_wrong_place``, ``fair_not_opened``, ``fair_card_twice``,
        ``fair_not_known``, or ``fair_length`` for a proof of another deck); ``[]`` when the
        deal checks.
    """
    pl = hand_places(hand)
    if len(proof.commitments) != pl.size:
        deck = make_deck(hand.rules.deck, hand.rules.jokers)
        return [
            Refusal("fair_length", None, {"given": len(proof.commitments), "deck": _deck_name(deck), "size": pl.size})
        ]
    found: list[Refusal] = []
    if deck_digest(proof.commitments, proof.binding) != proof.digest:
        found.append(Refusal("fair_digest"))
    b = proof.binding
    if b is not None:  # ramsli-deal/2: the digest names this very hand
        if table is not None and b.table != table:
            found.append(Refusal("fair_other_table", None, {"bound": b.table, "table": table}))
        if number is not None and b.hand != number:
            found.append(Refusal("fair_other_hand", None, {"bound": b.hand, "hand": number}))
        if b.dealer != hand.dealer:
            found.append(
                Refusal("fair_other_dealer", "R3.2", {"bound": seat_name(b.dealer), "dealer": seat_name(hand.dealer)})
            )
        if b.seated != tuple(hand.seated):
            found.append(
                Refusal(
                    "fair_other_seats",
                    "R3.5",
                    {"bound": " ".join(map(seat_name, b.seated)), "seated": " ".join(map(seat_name, hand.seated))},
                )
            )
    by_pos = {o.position: o for o in proof.openings}
    at: dict[Card, int] = {}
    for o in proof.openings:
        if not o.matches(proof.commitments[o.position]):
            found.append(Refusal("fair_mismatch", None, {"position": o.position, "card": str(o.card)}))
        if o.card in at:
            found.append(
                Refusal("fair_card_twice", None, {"card": str(o.card), "position": at[o.card], "other": o.position})
            )
        else:
            at[o.card] = o.position
    expected = dict(known_cards(hand, proof.seat))
    for p, c in expected.items():
        there = by_pos.get(p)
        if there is None:
            found.append(Refusal("fair_not_opened", None, {"card": str(c), "position": p}))
        elif there.card != c:
            found.append(
                Refusal("fair_wrong_place", None, {"position": p, "expected": str(c), "card": str(there.card)})
            )
    for p, extra in sorted(by_pos.items()):
        if p not in expected:
            found.append(Refusal("fair_not_known", None, {"position": p, "card": str(extra.card)}))
    return found
