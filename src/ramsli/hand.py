"""One hand of Ramsli, from ante to settlement (RULES.md R4 and R5).

:class:`Hand` is the state machine: it takes the ante (R4.1), deals from a
shuffled and cut deck (R4.2–R4.4), then accepts :class:`Action` objects —
declarations (R4.5), General Rams (R4.7), targets (R4.8) and card plays
(R4.9–R4.11) — until the hand is over and a :class:`~ramsli.settlement.Settlement`
(R5) is attached. At every point it says whose turn it is and which actions are
legal, and gives each seat a hidden-card-free :class:`Observation` (R7).

>>> import random
>>> from ramsli import Hand, Rules
>>> hand = Hand.new(Rules(), stacks=[20] * 5, dealer=0, rng=random.Random(7))
>>> hand.phase
<Phase.DECLARE: 'declare'>
>>> hand.to_act
1
>>> while not hand.is_over:
...     hand.apply(hand.legal_actions()[0])
>>> sum(hand.stacks) + hand.pot
100

Where the rules live: R4.1 :meth:`Hand.from_cards` (ante), R4.2–R4.4
:func:`deal_cards`, R4.5 :meth:`Hand.apply` (declarations), R4.6 and D-10
``_declarations_over``, R4.7 ``_announce_gr``,
R4.8 ``_announce_target``, R4.9 ``_start_play``, R4.10 :func:`legal_plays`,
R4.11 :func:`trick_winner`, R4.12 :meth:`Hand.apply`, R5 :mod:`ramsli.settlement`.
"""

from __future__ import annotations

import enum
import functools
import itertools
import math
import operator
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

from ramsli.cards import SUITS, Card, CardError, make_deck
from ramsli.errors import IllegalActionError, TableError
from ramsli.refusal import Refusal
from ramsli.rules import Rules
from ramsli.seats import MAX_SEATS, left_of, order_from_dealer, parse_seat, seat_name
from ramsli.settlement import Settlement, settle

__all__ = [
    "Phase",
    "Action",
    "ActionKind",
    "Declaration",
    "Hand",
    "Trick",
    "Observation",
    "legal_plays",
    "trick_winner",
    "deal_cards",
    "seat_name",
    "parse_seat",
    "left_of",
    "order_from_dealer",
    "random_source",
    "check_table",
    "MAX_SEATS",
]


class Phase(enum.Enum):
    """Where a hand stands (R4)."""

    DECLARE = "declare"  #: R4.5: seats declare in or out
    GENERAL_RAMS = "general-rams"  #: R4.7: active players may announce General Rams
    TARGETS = "targets"  #: R4.8: active players may announce a trick target
    PLAY = "play"  #: R4.9–R4.11: five tricks
    OVER = "over"  #: settled (R5); see Hand.settlement


# Enum members read on the hot path (legal_actions, apply, is_over) are module globals: on
# Python 3.11 every ``Phase.PLAY`` goes through the slot of ``EnumType.__getattr__``
# (about 250 ns, more than the rest of ``is_over``); a global is one cached lookup. The
# same objects, so ``is`` holds (bench/engine.py, docs/benchmarks.md).
_DECLARE, _GENERAL_RAMS, _TARGETS, _PLAYING, _OVER = (
    Phase.DECLARE,
    Phase.GENERAL_RAMS,
    Phase.TARGETS,
    Phase.PLAY,
    Phase.OVER,
)


def random_source(
    seed: int | None = None, rng: random.Random | None = None, where: str = "this call", required: bool = False
) -> random.Random:
    """The random source of a call that takes ``seed=`` or ``rng=``: ``rng`` itself, or
    ``random.Random(seed)``. The same seed gives the same source, so the same deals and choices.

    Args:
        seed: a seed (an int, or anything ``random.Random`` takes).
        rng: a ready random source (``random.Random``, or any object with its methods).
        where: the caller's name, for the error message.
        required: if True, one of the two must be given; else neither gives an unseeded source.

    Raises:
        TypeError: if both are given, or neither while ``required``.

    >>> random_source(seed=7).random() == random.Random(7).random()
    True
    """
    if rng is not None:
        if seed is not None:
            raise TypeError(f"{where}: give either seed= or rng=, not both")
        return rng
    if seed is None and required:
        raise TypeError(f"{where}: give a seed= (e.g. seed=1) or a random source rng=random.Random(1)")
    return random.Random(seed)


class ActionKind(enum.StrEnum):
    """The kind of an :class:`Action`; the value is its text in hand histories.

    A ``str``: ``ActionKind.PLAY == "pl"``, so ``action.kind == "pl"`` holds; its ``repr``
    is that text too.

    >>> ActionKind("t") is ActionKind.TARGET, [str(k) for k in ActionKind]
    (True, ['in', 'out', 'gr', 'pass', 't', 'pl'])
    """

    IN = "in"  #: declare in (R4.5)
    OUT = "out"  #: declare out (R4.5)
    GENERAL_RAMS = "gr"  #: announce General Rams (R4.7)
    PASS = "pass"  #: no announcement for the current question (R4.7, R4.8)
    TARGET = "t"  #: announce a trick target (R4.8)
    PLAY = "pl"  #: play a card (R4.10)

    __repr__ = str.__repr__


class Declaration(enum.StrEnum):
    """A declaration ``in`` or ``out`` (R4.5), as held by ``Hand.declarations`` and
    ``Observation.declarations`` (pairs ``(seat, Declaration)``).

    It is a ``str`` equal to its text (``Declaration.IN == "in"``) and its truth value is
    "stays in": ``bool(Declaration.OUT)`` is False, so both ``d == "in"`` and ``if d:``
    read a declaration. Its ``repr`` is the text.

    >>> Declaration.OUT == "out", bool(Declaration.OUT), bool(Declaration.IN)
    (True, False, True)
    """

    IN = "in"  #: plays the hand
    OUT = "out"  #: folds, pays nothing more, wins nothing (R5.5)

    __repr__ = str.__repr__

    def __bool__(self) -> bool:
        return self is _DECLARED_IN


class Action:
    """One action of one seat. Actions are interned: compare with ``==`` or ``is``.

    Kinds and their text (as in hand histories):

    - ``"in"`` / ``"out"``: declarations (R4.5), e.g. ``"p3 in"``;
    - ``"gr"``: announce General Rams (R4.7), e.g. ``"p2 gr"``;
    - ``"pass"``: decline the current General Rams or target question (R4.7, R4.8);
    - ``"t"``: announce trick target ``target`` 2..5 (R4.8), e.g. ``"p4 t3"``;
    - ``"pl"``: play ``card`` (R4.10), e.g. ``"p2 pl AS"``.

    Attributes:
        seat: 0-based seat index (``p1`` is 0).
        kind: an :class:`ActionKind` (a ``str``): one of ``"in" "out" "gr" "pass" "t" "pl"``.
        card: the card played (``"pl"`` only), else None.
        target: the target 2..5 (``"t"`` only), else None.

    ``Action(text)`` parses the text (as :meth:`parse`), so the ``repr`` evaluates back;
    ``Action(seat, kind, card=None, target=None)`` checks its arguments. Both return the
    interned action.

    Raises:
        ValueError: for text that is not an action, a seat outside 0..5, an unknown kind,
            a play without a card, or a target outside 2..5.

    >>> Action.parse("p3 pl 10h")
    Action('p3 pl TH')
    >>> Action.play(2, Card.parse("TH")) is Action.parse("p3 pl TH") is Action("p3 pl TH") is Action(2, "pl", Card("TH"))
    True
    """

    __slots__ = ("seat", "kind", "card", "target", "_text")
    #: the kinds' texts, in :class:`ActionKind` order (kept for callers; derived from the enum)
    KINDS: tuple[str, ...] = tuple(ActionKind)
    _PLAY: list[list[Action]] = []
    _SIMPLE: dict[tuple[int, str], Action] = {}

    seat: int
    kind: ActionKind
    card: Card | None
    target: int | None
    _text: str

    def __new__(
        cls, seat: int | str, kind: str | None = None, card: Card | None = None, target: int | None = None
    ) -> Action:
        if kind is None and card is None and target is None and isinstance(seat, str):
            return Action.parse(seat)  # Action('p2 in'), the repr's form
        if type(seat) is not int or not 0 <= seat < MAX_SEATS:
            raise ValueError(f"seat {seat!r} is not a seat index 0..{MAX_SEATS - 1} (p1..p{MAX_SEATS}, R2.2)")
        if not isinstance(kind, str) or kind not in Action.KINDS:
            raise ValueError(f"action kind {kind!r} is unknown; allowed are {', '.join(Action.KINDS)}")
        kind = ActionKind(kind)
        if (kind == "pl") != isinstance(card, Card):
            raise ValueError("a play ('pl') needs a Card and no other action has one (R4.10)")
        if (kind == "t") != (type(target) is int and 2 <= target <= 5):
            raise ValueError(f"a target announcement ('t') needs a target 2..5, got {target!r} (R4.8)")
        if Action._PLAY:  # built: hand out the interned action
            if card is not None:  # a play: checked above
                return Action._PLAY[seat][card.index]
            return Action._SIMPLE[(seat, f"t{target}" if kind == "t" else str(kind))]
        self = object.__new__(cls)
        setattr_ = object.__setattr__  # interned and shared by every hand: read-only after this
        setattr_(self, "seat", seat)
        setattr_(self, "kind", kind)
        setattr_(self, "card", card)
        setattr_(self, "target", target)
        if kind == "pl":
            setattr_(self, "_text", f"{seat_name(seat)} pl {card}")
        elif kind == "t":
            setattr_(self, "_text", f"{seat_name(seat)} t{target}")
        else:
            setattr_(self, "_text", f"{seat_name(seat)} {kind}")
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an Action is immutable (interned and shared): cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Action is immutable (interned and shared): cannot delete {name!r}")

    @staticmethod
    def play(seat: int, card: Card) -> Action:
        """The interned action "seat plays card" (R4.10).

        Raises:
            ValueError: for a seat outside 0..5 or a card that is not a :class:`Card`.
        """
        if type(seat) is not int or not 0 <= seat < MAX_SEATS or not isinstance(card, Card):
            raise ValueError(
                f"no play action for seat {seat!r} and card {card!r}: seats are 0..{MAX_SEATS - 1}, "
                "cards are Card objects (R1.6, R2.2)"
            )
        return Action._PLAY[seat][card.index]

    @staticmethod
    def _simple(seat: int, key: str) -> Action:
        a = Action._SIMPLE.get((seat, key)) if type(seat) is int else None
        if a is None:
            raise ValueError(
                f"no action {key!r} for seat {seat!r}: seats are 0..{MAX_SEATS - 1} (p1..p{MAX_SEATS}), "
                "targets 2..5 (R2.2, R4.8)"
            )
        return a

    @staticmethod
    def declare(seat: int, stay_in: bool) -> Action:
        """The interned declaration ``in`` or ``out`` of a seat (R4.5).

        Raises:
            ValueError: for a seat outside 0..5.
        """
        return Action._simple(seat, "in" if stay_in else "out")

    @staticmethod
    def general_rams(seat: int) -> Action:
        """The interned General Rams announcement of a seat (R4.7).

        Raises:
            ValueError: for a seat outside 0..5.
        """
        return Action._simple(seat, "gr")

    @staticmethod
    def pass_(seat: int) -> Action:
        """The interned "no announcement" of a seat for the current question (R4.7, R4.8).

        Raises:
            ValueError: for a seat outside 0..5.
        """
        return Action._simple(seat, "pass")

    @staticmethod
    def announce_target(seat: int, target: int) -> Action:
        """The interned target announcement ``t2``..``t5`` of a seat (R4.8).

        Raises:
            ValueError: for a seat outside 0..5 or a target outside 2..5.
        """
        if type(target) is not int or not 2 <= target <= 5:
            raise ValueError(f"target {target!r} is not allowed: targets are 2, 3, 4, 5 (R4.8)")
        return Action._simple(seat, f"t{target}")

    @staticmethod
    def parse(text: str, n_seats: int = MAX_SEATS) -> Action:
        """Parse an action string: ``"p3 in"``, ``"p1 out"``, ``"p2 gr"``, ``"p2 pass"``,
        ``"p4 t3"``, ``"p2 pl AS"``.

        Raises:
            ValueError: if the text is not an action (the message lists the forms);
                :class:`~ramsli.cards.CardError` (a ValueError) for a malformed card.
        """
        parts = text.split()
        forms = "'pN in', 'pN out', 'pN gr', 'pN pass', 'pN t2'..'pN t5', 'pN pl CARD'"
        if len(parts) < 2:
            raise ValueError(f"{text!r} is not an action; allowed forms are {forms}")
        seat = parse_seat(parts[0], n_seats)
        verb = parts[1].lower()
        if verb == "pl" and len(parts) == 3:
            return Action.play(seat, Card.parse(parts[2]))
        if len(parts) == 2:
            a = Action._SIMPLE.get((seat, verb))
            if a is not None:
                return a
        raise ValueError(f"{text!r} is not an action; allowed forms are {forms}")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    def __reduce__(self) -> tuple[Callable[[str], Action], tuple[str]]:
        return (Action.parse, (self._text,))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self


def _build_actions() -> None:
    plays = [[Action(s, "pl", card=Card.from_index(i)) for i in range(54)] for s in range(MAX_SEATS)]
    for s in range(MAX_SEATS):
        for k in ("in", "out", "gr", "pass"):
            Action._SIMPLE[(s, k)] = Action(s, k)
        for t in (2, 3, 4, 5):
            Action._SIMPLE[(s, f"t{t}")] = Action(s, "t", target=t)
    Action._PLAY.extend(plays)  # last: from now on the constructor returns interned actions


_build_actions()
_PLAY_TABLE = Action._PLAY  # seat -> card index -> the interned play (a hot-path global)
_IN = [Action._SIMPLE[(s, "in")] for s in range(MAX_SEATS)]
_OUT = [Action._SIMPLE[(s, "out")] for s in range(MAX_SEATS)]
# hot-path globals (see _PLAYING): an Action's kind is always an ActionKind member, so
# ``action.kind is _KIND_IN`` is ``action.kind == "in"`` without the str-subclass compare
_KIND_IN, _KIND_OUT, _KIND_PLAY = ActionKind.IN, ActionKind.OUT, ActionKind.PLAY
_DECLARED_IN, _DECLARED_OUT = Declaration.IN, Declaration.OUT


#: the caches of a new hand (Hand._next_active, Hand._strength): shared and never changed in place,
#: the hand only replaces them (no allocation per hand). Hand._legal is None while not yet worked
#: out: None stays None through pickle and every copy, where an empty list marker compared by
#: identity came back as a new list that said "no legal action" (issue 37.6).
_NO_NEXT: dict[int, int] = {}
_NO_STRENGTH: dict[Card, int] = {}
#: the active seats in order from the dealer's left -> seat -> the next active seat (R4.9); one dict
#: per order met, shared by every hand with it (Hand._next_active, never changed in place)
_NEXT_ACTIVE: dict[tuple[int, ...], dict[int, int]] = {}


def _next_active_of(active: Sequence[int]) -> dict[int, int]:
    """The shared table active seat -> the next active seat (R4.9: play passes to the left among
    the active seats) of ``active``, in order from the dealer's left; built once per order met."""
    key = tuple(active)
    nxt = _NEXT_ACTIVE.get(key)
    if nxt is None:
        nxt = _NEXT_ACTIVE[key] = {s: active[(i + 1) % len(active)] for i, s in enumerate(active)}
    return nxt


#: ``tuple.__new__``: builds a named tuple (a Trick) in one C call, without the Python-level
#: ``__new__`` that calling the class runs; only for values already checked
_new_tuple = tuple.__new__


class Trick(NamedTuple):
    """One trick (R4.9–R4.11), an immutable named tuple.

    Attributes:
        leader: seat that led.
        plays: ``(seat, card)`` pairs in the order played.
        winner: the trick winner (R4.11), or None while the trick is incomplete.
    """

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None = None


def effective_suit(card: Card, trump: str) -> str:
    """The suit a card counts as: jokers belong to the trump suit (R1.3, D-2)."""
    return trump if card.suit is None else card.suit


#: trump suit -> led suit -> card -> its strength in a trick (R4.11): 100 + rank for a trump (the
#: jokers included, D-2), the rank for a card of the led suit, 0 for any other card (it cannot
#: win). The highest strength wins; a hand in play keeps its trick's best so far, and the highest
#: trump so far (R4.10.3) is that strength - 100 when it is above 100.
_STRENGTH: dict[str, dict[str, dict[Card, int]]] = {
    t: {
        led: {
            c: 100 + c.rank if c.suit is None or c.suit == t else c.rank if c.suit == led else 0
            for c in map(Card.from_index, range(54))
        }
        for led in SUITS
    }
    for t in SUITS
}


def legal_plays(
    cards: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: str, overtrump: str = "always"
) -> list[Card]:
    """The cards of ``cards`` that may be played to ``trick`` (R4.10).

    Args:
        cards: the player's cards.
        trick: the ``(seat, card)`` plays so far in this trick, in order (empty: a lead).
        trump: the trump suit letter.
        overtrump: option ``overtrump``: ``"always"`` (D-14) or ``"when-trumping"``.

    Returns:
        the legal cards, in the order of ``cards``; never empty if ``cards`` is not.

    >>> from ramsli.cards import parse_cards
    >>> [str(c) for c in legal_plays(parse_cards("9H KS 7S"), [(0, Card.parse("AS"))], "D")]
    ['KS', '7S']
    """
    if not trick:
        return list(cards)  # R4.10: the leader plays any card
    lead = trick[0][1]
    led = trump if lead.suit is None else lead.suit
    # highest trump so far in the trick (0: none)
    high = 0
    for _, c in trick:
        if c.suit is None or c.suit == trump:
            if c.rank > high:
                high = c.rank
    if led == trump:
        follow = [c for c in cards if c.suit is None or c.suit == trump]
        if not follow:
            return list(cards)  # R4.10.4: void in trump (the led suit)
        if overtrump == "always":  # R4.10.3 with D-14
            over = [c for c in follow if c.rank > high]
            if over:
                return over
        return follow  # R4.10.1
    follow = [c for c in cards if c.suit == led]
    if follow:
        return follow  # R4.10.1
    trumps = [c for c in cards if c.suit is None or c.suit == trump]
    if not trumps:
        return list(cards)  # R4.10.4
    if high:
        over = [c for c in trumps if c.rank > high]
        if over:
            return over  # R4.10.3
    return trumps  # R4.10.2


def trick_winner(trick: Sequence[tuple[int, Card]], trump: str) -> int:
    """The seat that wins a complete trick (R4.11): the highest trump if any
    trump was played, otherwise the highest card of the led suit.

    Raises:
        ValueError: for an empty trick.
    """
    if not trick:
        raise ValueError("an empty trick has no winner (R4.11)")
    best_seat, best = trick[0]
    led = trump if best.suit is None else best.suit
    best_trump = best.suit is None or best.suit == trump
    for seat, c in trick[1:]:
        is_trump = c.suit is None or c.suit == trump
        if is_trump:
            if not best_trump or c.rank > best.rank:
                best_seat, best, best_trump = seat, c, True
        elif not best_trump and c.suit == led and c.rank > best.rank:
            best_seat, best = seat, c
    return best_seat


def deal_cards(
    deck: Sequence[Card], cut: int, order: Sequence[int], first_batch: int, n_seats: int
) -> tuple[list[list[Card]], Card, list[Card], list[Card]]:
    """Cut and deal (R4.2–R4.4, D-19: dealer's left first, dealer last in each round, from the top).

    Args:
        deck: the shuffled deck, top card first.
        cut: the cut point 1..len(deck)-1: the top ``cut`` cards are lifted and the
            lower packet is put on top (R4.2).
        order: seated seats from the dealer's left, dealer last (R4.3).
        first_batch: cards per seat in the first round, 3 or 2 (option ``batches``).
        n_seats: number of seat slots (hands of unseated seats stay empty).

    Returns:
        ``(hands, turn_up, turned_aside, stock)``: five cards per seated seat, the
        trump turn-up, jokers turned aside before it (D-9), and the rest of the stock.

    Raises:
        ValueError: for a cut outside 1..len(deck)-1 or too few cards.

    >>> from ramsli.cards import piquet_deck
    >>> hands, turn_up, aside, stock = deal_cards(piquet_deck(), 2, (1, 0), 3, 2)
    >>> [str(c) for c in hands[1]], str(turn_up), len(stock)
    (['QS', 'JS', 'TS', 'AH', 'KH'], 'TH', 21)
    """
    if not 1 <= cut <= len(deck) - 1:
        raise ValueError(f"cut {cut} must leave at least one card in each packet: 1..{len(deck) - 1} (R4.2)")
    dealt, turn_up, aside, stock = _deal(deck, cut, tuple(order), first_batch, n_seats)
    return list(map(list, dealt)), turn_up, aside, stock


def _no_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    return ()  # the hand of a seat slot not seated (R3.5)


#: (order, first batch, seat slots) -> per seat slot a function taking the cut deck to that seat's
#: five cards (an ``operator.itemgetter`` of their positions); filled as tables are met
_DEAL_PLANS: dict[tuple[tuple[int, ...], int, int], tuple[Callable[[Sequence[Card]], tuple[Card, ...]], ...]] = {}


def _deal(
    deck: Sequence[Card], cut: int, order: tuple[int, ...], first_batch: int, n_seats: int
) -> tuple[tuple[tuple[Card, ...], ...], Card, list[Card], list[Card]]:
    """:func:`deal_cards` with the hands as tuples, for a cut already checked."""
    cards = [*deck[cut:], *deck[:cut]]  # R4.2: the lower packet goes on top
    plan = _DEAL_PLANS.get((order, first_batch, n_seats))
    if plan is None:  # R4.3, D-19: in each round one batch per seat, the dealer's left first
        where: list[list[int]] = [[] for _ in range(n_seats)]
        pos = 0
        for batch in (first_batch, 5 - first_batch):
            for seat in order:
                where[seat].extend(range(pos, pos + batch))
                pos += batch
        plan = tuple(operator.itemgetter(*w) if w else _no_cards for w in where)
        _DEAL_PLANS[(order, first_batch, n_seats)] = plan
    pos = 5 * len(order)
    if pos >= len(cards):
        raise ValueError("not enough cards for a turn-up (R4.4)")
    dealt = tuple(map(operator.call, plan, itertools.repeat(cards)))  # each seat's itemgetter applied to the deck
    aside: list[Card] = []
    while pos < len(cards) and cards[pos].suit is None:  # D-9: jokers turned aside
        aside.append(cards[pos])
        pos += 1
    if pos >= len(cards):
        raise ValueError("not enough cards for a turn-up (R4.4)")
    return dealt, cards[pos], aside, cards[pos + 1 :]


@dataclass(frozen=True)
class Observation:
    """What one seat may know at one moment (R7): no hidden card is in it.

    Attributes:
        seat: the observing seat (0-based).
        phase: the hand's phase.
        rules: the rules in force.
        seated: seats taking part in this hand, clockwise from seat 0.
        dealer: the dealer's seat.
        to_act: the seat to act, or None when the hand is over.
        cards: the observer's own unplayed cards.
        turn_up: the turn-up (trump card, R4.4).
        turned_aside: jokers turned aside before the turn-up (D-9).
        trump: the trump suit letter.
        declarations: ``(seat, Declaration)`` in the order made (R4.5); a
            :class:`Declaration` equals ``"in"`` or ``"out"`` and is truthy for ``in``.
        active: seats that are in so far.
        general_rams: the General Rams announcer, or None (R4.7).
        targets: ``(seat, target)`` announcements (R4.8).
        tricks: completed tricks with their winners.
        current: ``(seat, card)`` plays of the trick in progress.
        leader: the seat leading the trick in progress, or None.
        tricks_won: tricks won per seat index (length = number of seat slots).
        cards_left: unplayed cards per seat index (a count; contents hidden).
        stacks: counters per seat index.
        pot: counters in the pot.
        legal: the observer's legal actions if it is its turn, else ``()``.
        settlement: the settlement once the hand is over (R5), else None.
    """

    seat: int
    phase: Phase
    rules: Rules
    seated: tuple[int, ...]
    dealer: int
    to_act: int | None
    cards: tuple[Card, ...]
    turn_up: Card
    turned_aside: tuple[Card, ...]
    trump: str
    declarations: tuple[tuple[int, Declaration], ...]
    active: tuple[int, ...]
    general_rams: int | None
    targets: tuple[tuple[int, int], ...]
    tricks: tuple[Trick, ...]
    current: tuple[tuple[int, Card], ...]
    leader: int | None
    tricks_won: tuple[int, ...]
    cards_left: tuple[int, ...]
    stacks: tuple[int, ...]
    pot: int
    legal: tuple[Action, ...]
    settlement: Settlement | None

    @functools.cached_property
    def order(self) -> tuple[int, ...]:
        """The seated seats from the dealer's left, the dealer last (R4.3, R4.5, R4.9), as
        :attr:`Hand.order`; computed by :func:`order_from_dealer`."""
        return order_from_dealer(self.dealer, self.seated, len(self.stacks))

    @property
    def last_trick(self) -> Trick | None:
        """The most recently completed trick (with its winner, R4.11), or None before the first."""
        return self.tricks[-1] if self.tricks else None

    @property
    def trick_complete(self) -> bool:
        """True while the last card played completed a trick: from the trick's last card
        until the next card is led (or for good, after the fifth trick). See
        :attr:`Hand.trick_complete`."""
        return bool(self.tricks) and not self.current


class Hand:
    """The state of one hand, ante to settlement (R4, R5).

    Create one with :meth:`new` (shuffles and cuts with a seeded RNG, or ``seed=``),
    :meth:`from_deck` (a given deck order and cut) or :meth:`from_cards` (given
    hands and turn-up, as a hand history records them). Then :meth:`apply`
    legal actions until :attr:`is_over`.

    Telling when a trick is complete: after each :meth:`apply`, :attr:`trick_complete`
    is True if that card completed a trick; :attr:`last_trick` is then that trick, with
    its ``winner`` (R4.11), who leads the next (R4.9). An :class:`Observation` has the
    same two properties.

    >>> hand = Hand.new(Rules(compulsory=True), [20] * 2, dealer=0, seed=3)
    >>> hand.apply(hand.legal_actions()[0]); hand.trick_complete
    False
    >>> hand.apply(hand.legal_actions()[0]); hand.trick_complete, hand.last_trick.winner in (0, 1)
    (True, True)
    >>> hand.observe(0).trick_complete, hand.observe(0).last_trick == hand.last_trick
    (True, True)

    Public attributes (read them, do not assign):
        rules (Rules); dealer (int); seated (tuple of seats in the hand, clockwise);
        order (seated seats from the dealer's left, dealer last);
        stacks (list of int, counters per seat slot, after the ante);
        start_stacks (stacks before the ante); carry_in (pot before the ante);
        pot (int); hands (list of lists of Card per seat, unplayed; ``None`` stands
        for an unknown card ``??`` of a replayed history); dealt (the five cards
        dealt per seat); turn_up (Card); turned_aside (list of jokers, D-9);
        trump (suit letter); cut (int or None); phase (Phase);
        to_act (seat or None); declarations (list of (seat, :class:`Declaration`), truthy for in);
        active (list of seats in, in seat order from the dealer's left);
        general_rams (announcer seat or None); targets (dict seat -> target);
        tricks (list of Trick); current (list of (seat, card)); leader;
        tricks_won (list of int per seat slot); history (list of Action applied);
        settlement (Settlement or None).
    """

    # The hand's whole state, one annotated attribute per slot. A new attribute goes here, into
    # ``__slots__``, :meth:`_setup`, :meth:`copy` and (unless it is the stock or a cache)
    # :meth:`fingerprint`; tests/test_api_types.py walks ``__slots__`` to prove all four agree.
    __slots__ = (
        "rules",
        "n_seats",
        "dealer",
        "seated",
        "order",
        "stacks",
        "start_stacks",
        "carry_in",
        "pot",
        "hands",
        "dealt",
        "turn_up",
        "turned_aside",
        "trump",
        "cut",
        "stock",
        "phase",
        "is_over",
        "to_act",
        "declarations",
        "active",
        "general_rams",
        "targets",
        "_ask",
        "tricks",
        "current",
        "leader",
        "tricks_won",
        "history",
        "settlement",
        "_thrown_in",
        "_legal",
        "_next_active",
        "_unknown",
        "_led",
        "_strength",
        "_top",
        "_top_seat",
    )

    rules: Rules  #: the rules in force
    n_seats: int  #: seat slots at the table (2..6), seated or not
    dealer: int  #: the dealer's seat (R3.2)
    seated: tuple[int, ...]  #: seats taking part, clockwise from seat 0 (R3.5)
    order: tuple[int, ...]  #: seated seats from the dealer's left, the dealer last (R4.3)
    stacks: list[int]  #: counters per seat slot, after the ante
    start_stacks: tuple[int, ...]  #: counters per seat slot before the ante
    carry_in: int  #: the pot before the ante (R5.4)
    pot: int  #: counters in the pot
    hands: list[list[Card | None]]  #: unplayed cards per seat slot (None: an unknown card ``??``)
    dealt: tuple[tuple[Card | None, ...], ...]  #: the five cards dealt per seat slot
    turn_up: Card  #: the trump card (R4.4)
    turned_aside: list[Card]  #: jokers turned aside before the turn-up (D-9)
    trump: str  #: the trump suit letter (R4.4)
    cut: int | None  #: the cut point (R4.2), None when not recorded
    stock: list[Card] | None  #: the undealt stock (never seen nor played, R4.4), None when unknown
    phase: Phase  #: where the hand stands
    #: True once the hand is settled (R5): ``phase`` is ``Phase.OVER`` (an attribute, not a
    #: property: it is read before every action)
    is_over: bool
    to_act: int | None  #: the seat to act, None once the hand is over
    declarations: list[tuple[int, Declaration]]  #: ``(seat, Declaration)`` in the order made (R4.5)
    active: list[int]  #: seats in, in order from the dealer's left
    general_rams: int | None  #: the General Rams announcer (R4.7)
    targets: dict[int, int]  #: seat -> announced trick target (R4.8)
    _ask: list[int]  #: seats still to be asked the current question (R4.7, R4.8)
    tricks: list[Trick]  #: completed tricks with their winners (R4.11)
    current: list[tuple[int, Card]]  #: ``(seat, card)`` plays of the trick in progress
    leader: int | None  #: the seat leading the trick in progress
    tricks_won: list[int]  #: tricks won per seat slot
    history: list[Action]  #: every action applied, in order
    settlement: Settlement | None  #: the settlement once the hand is over (R5)
    _thrown_in: bool  #: everyone declared out with ``dealer_forced`` off (D-10)
    #: cache: the legal plays of the seat to act, None until legal_actions, why_illegal or apply
    #: first needs them after a card is played
    _legal: list[Action] | None
    _next_active: dict[int, int]  #: cache: active seat -> the next active seat (R4.9)
    _unknown: bool  #: cache: some dealt card is unknown (``None``)
    _led: str  #: cache: the led suit of the trick in progress (R4.10)
    _strength: dict[Card, int]  #: cache: card -> strength in this trick, a table of ``_STRENGTH``
    _top: int  #: cache: the best strength in the trick so far (0 before its lead)
    _top_seat: int  #: cache: the seat that played it (R4.11), -1 before the lead

    # -- construction -----------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        rng: random.Random | None = None,
        pot: int = 0,
        seated: Sequence[int] | None = None,
        *,
        seed: int | None = None,
        cut: int | None = None,
    ) -> Hand:
        """Take the ante, shuffle with ``rng`` (or ``random.Random(seed)``), cut at a random
        point or at the cutter's ``cut``, deal (R4.1–R4.4).

        Args:
            rules: the rules in force.
            stacks: counters per seat slot before the ante (2..6 slots).
            dealer: the dealer's seat.
            rng: the random source (seed it for determinism); or give ``seed`` instead.
            pot: the carry-over pot before the ante (R5.4).
            seated: seats taking part (default: all); others have left (R3.5).
            seed: instead of ``rng``, a seed: the same seed deals the same hand.
            cut: the cut point the cutter chose (R4.2), 1..deck size - 1: the top ``cut`` cards are
                lifted; None: a random point. The random point is drawn from ``rng`` either way, so
                a chosen cut changes this deal only, never the shuffles that follow.

        Raises:
            ValueError: for fewer than two seated players, a dealer not seated, a
                seated stack that cannot pay the ante (R3.5 is the session's job), or a
                ``cut`` that is not a whole number 1..deck size - 1 (R4.2).
            TypeError: unless exactly one of ``rng`` and ``seed`` is given.

        >>> Hand.new(Rules(), [20] * 3, 0, seed=4).dealt == Hand.new(Rules(), [20] * 3, 0, random.Random(4)).dealt
        True
        >>> Hand.new(Rules(), [20] * 3, 0, seed=4, cut=31).cut
        31
        """
        if seed is not None or rng is None:
            rng = random_source(seed, rng, "Hand.new", required=True)
        deck = list(make_deck(rules.deck, rules.jokers))
        size = len(deck)
        rnd = rng.random
        floor = math.floor
        # R4.2 shuffle: Fisher-Yates on the seeded source, j = int(rnd() * (i + 1)) for i from the
        # last position down to 1. Written as floor(rnd() * float(i + 1)) with the floats made
        # once (_SHUFFLE_STEPS): the same j (the product is >= 0 and exact either way), and on
        # Python 3.11 math.floor of a float is a cheaper call than int().
        for i, k in _SHUFFLE_STEPS[size]:
            j = floor(rnd() * k)
            deck[i], deck[j] = deck[j], deck[i]
        random_cut = 1 + floor(rnd() * (size - 1))  # R4.2: 1..len-1
        if cut is None:
            cut = random_cut
        elif type(cut) is not int or not 1 <= cut <= size - 1:
            raise ValueError(f"cut {cut!r} must leave at least one card in each packet: 1..{size - 1} (R4.2)")
        n = len(stacks)
        seated_t = _seated_tuple(n, seated)
        _check_table(rules, stacks, dealer, seated_t, pot)
        order = _order(dealer, seated_t, n)
        dealt, turn_up, aside, stock = _deal(deck, cut, order, rules.first_batch, n)
        return cls._setup(rules, stacks, dealer, seated_t, order, dealt, turn_up, aside, pot, cut, stock, unknown=False)

    @classmethod
    def from_deck(
        cls,
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        deck: Sequence[Card],
        cut: int,
        pot: int = 0,
        seated: Sequence[int] | None = None,
    ) -> Hand:
        """Take the ante and deal from a given shuffled ``deck`` (top first) cut at ``cut`` (R4.1–R4.4).

        Raises:
            ValueError: as :meth:`new`, or for a deck that is not the rules' deck or a bad cut.
        """
        n = len(stacks)
        seated_t = _seated_tuple(n, seated)
        _check_table(rules, stacks, dealer, seated_t, pot)
        expected = sorted(c.index for c in make_deck(rules.deck, rules.jokers))
        if any(not isinstance(c, Card) for c in deck) or sorted(c.index for c in deck) != expected:
            raise ValueError(
                f"the deck must be exactly the {rules.deck} deck{' with jokers' if rules.jokers else ''} (R1)"
            )
        order = _order(dealer, seated_t, n)
        hands, turn_up, aside, stock = deal_cards(deck, cut, order, rules.first_batch, n)
        return cls.from_cards(
            rules, stacks, dealer, hands, turn_up, aside, pot=pot, seated=seated_t, cut=cut, stock=stock
        )

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        hands: Sequence[Sequence[Card | None]],
        turn_up: Card,
        turned_aside: Iterable[Card] = (),
        pot: int = 0,
        seated: Sequence[int] | None = None,
        cut: int | None = None,
        stock: Sequence[Card] | None = None,
    ) -> Hand:
        """Take the ante (R4.1) and set up a hand with the given dealt cards.

        Args:
            hands: per seat slot, the five dealt cards (``None`` for an unknown
                card ``??``); empty for seats not seated.
            turn_up: the turn-up; its suit is trump (R4.4). Must not be a joker (D-9).
            turned_aside: jokers turned aside before it (D-9).
            other args: as :meth:`new`.

        Raises:
            ValueError: for a seated seat without five cards, a card dealt twice, a card
                not in the rules' deck, a joker turn-up, fewer than two seated players,
                a dealer not seated, or a seated stack below the ante.
        """
        n = len(stacks)
        seated_t = _seated_tuple(n, seated)
        _check_table(rules, stacks, dealer, seated_t, pot)
        if len(hands) != n:
            raise ValueError(f"hands for {len(hands)} seats given, {n} seat slots")
        full = make_deck(rules.deck, rules.jokers)
        if cut is not None and (type(cut) is not int or not 1 <= cut <= len(full) - 1):
            raise ValueError(f"cut {cut!r} must leave at least one card in each packet: 1..{len(full) - 1} (R4.2)")
        deck_set = {c.index for c in full}
        seen: set[int] = set()
        aside = list(turned_aside)
        for s in range(n):
            h = hands[s]
            if s in seated_t and len(h) != 5:
                raise ValueError(f"{seat_name(s)} must be dealt 5 cards, got {len(h)} (R4.3)")
            if s not in seated_t and len(h) != 0:
                raise ValueError(f"{seat_name(s)} is not seated and must be dealt no cards (R3.5)")
        if not all(c is None or isinstance(c, Card) for h in hands for c in h):
            raise ValueError("hands must hold Card objects (or None for an unknown card ??) (R1.6)")
        if not isinstance(turn_up, Card) or turn_up.suit is None:
            raise ValueError("the turn-up must be a suited card; jokers are turned aside (R4.4, D-9)")
        for c in [x for h in hands for x in h] + [turn_up] + aside:
            if c is None:
                continue
            if c.index not in deck_set:
                raise ValueError(
                    f"card {c} is not in the {rules.deck} deck{' with jokers' if rules.jokers else ''} (R1)"
                )
            if c.index in seen:
                raise ValueError(f"card {c} is dealt twice (R1)")
            seen.add(c.index)
        if any(not c.is_joker for c in aside):
            raise ValueError("only jokers are turned aside before the turn-up (D-9)")
        return cls._setup(
            rules,
            stacks,
            dealer,
            seated_t,
            _order(dealer, seated_t, n),
            tuple(map(tuple, hands)),
            turn_up,
            aside,
            pot,
            cut,
            None if stock is None else list(stock),
        )

    @classmethod
    def _setup(
        cls,
        rules: Rules,
        stacks: Sequence[int],
        dealer: int,
        seated_t: tuple[int, ...],
        order: tuple[int, ...],
        dealt: tuple[tuple[Card | None, ...], ...],
        turn_up: Card,
        aside: list[Card],
        pot: int,
        cut: int | None,
        stock: list[Card] | None,
        unknown: bool | None = None,
    ) -> Hand:
        """Build the state from already validated inputs and take the ante (R4.1); the hand owns
        ``aside`` and ``stock`` from now on."""
        n = len(stacks)
        self = object.__new__(cls)
        self.rules = rules
        self.n_seats = n
        self.dealer = dealer
        self.seated = seated_t
        self.order = order
        self._legal = None
        self._next_active = _NO_NEXT
        self._led = ""  # set by each lead
        self._strength = _NO_STRENGTH
        self._top = 0
        self._top_seat = -1
        self.is_over = False
        self._unknown = any(None in h for h in dealt) if unknown is None else unknown
        self.start_stacks = tuple(stacks)
        after = list(stacks)
        ante = rules.ante
        for s in seated_t:  # R4.1 ante
            after[s] -= ante
        self.stacks = after
        self.carry_in = pot
        self.pot = pot + ante * len(seated_t)
        self.hands = list(map(list, dealt))
        self.dealt = dealt
        self.turn_up = turn_up
        self.turned_aside = aside
        if turn_up.suit is None:  # refused by from_cards and deal_cards already (D-9)
            raise ValueError("the turn-up must be a suited card; jokers are turned aside (R4.4, D-9)")
        self.trump = turn_up.suit
        self.cut = cut
        self.stock = stock
        self.declarations = []
        self.active = []
        self.general_rams = None
        self.targets = {}
        self._ask = []
        self.tricks = []
        self.current = []
        self.leader = None
        self.tricks_won = [0] * n
        self.history = []
        self.settlement = None
        self._thrown_in = False
        if rules.compulsory:  # R4.5 Compulsory Ramsli: everyone is in
            self.active = list(self.order)
            self._after_declarations()
        else:
            self.phase = _DECLARE
            self.to_act = self.order[0]
        return self

    # -- queries ------------------------------------------------------------

    @property
    def last_trick(self) -> Trick | None:
        """The most recently completed trick (a :class:`Trick` with its winner, R4.11), or
        None before the first trick is complete."""
        return self.tricks[-1] if self.tricks else None

    @property
    def trick_complete(self) -> bool:
        """True while the last card played completed a trick (R4.9): from that card until
        the next lead, and after the fifth trick. Check it after :meth:`apply` to show
        :attr:`last_trick` and its winner."""
        return bool(self.tricks) and not self.current

    @property
    def thrown_in(self) -> bool:
        """True if everyone declared out with ``dealer_forced`` off (D-10)."""
        return self._thrown_in

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (empty when the hand is over).

        Never empty while the hand is running (R4.5 dealer forced, R4.10).
        """
        seat = self.to_act
        if seat is None:
            return []  # the hand is over
        ph = self.phase
        if ph is _PLAYING:
            legal = self._legal
            if legal is None:  # not asked since the last card was played
                held = self.hands[seat]
                if self._unknown and None in held:
                    return []  # unknown cards (??) of a replayed history cannot be played
                # no None in held now: this is the hot path, so no cast() call
                cards: list[Card] = held  # type: ignore[assignment]
                table = _PLAY_TABLE[seat]  # card index -> this seat's interned play
                # Plain loops with append, no comprehensions: on Python 3.11 a comprehension is a
                # function call of its own, which costs more than the five cards it goes over.
                # Suits are compared by identity: a hand's trump and every card's suit are the
                # four interned SUITS. tests/test_rule_copies.py holds this to legal_plays.
                legal = []
                if not self.current:  # R4.10: the leader plays any card
                    for c in cards:
                        legal.append(table[c.index])
                else:
                    led = self._led
                    trump = self.trump
                    high = self._top - 100  # the highest trump in the trick, when > 0 (_STRENGTH)
                    if led is not trump:
                        for c in cards:
                            if c.suit is led:
                                legal.append(table[c.index])  # R4.10.1: follow suit
                    elif self.rules.overtrump != "always":  # a trump lead, "when-trumping" (D-14)
                        high = 0
                    if not legal:  # a trump lead, or void in the led suit
                        over = []
                        for c in cards:
                            if c.suit is trump or c.suit is None:  # a trump: jokers are (D-2)
                                legal.append(table[c.index])  # R4.10.1 on a trump lead, else R4.10.2
                                if c.rank > high:
                                    over.append(table[c.index])
                        if not legal:  # R4.10.4: neither the led suit nor a trump
                            for c in cards:
                                legal.append(table[c.index])
                        elif high > 0 and over:
                            legal = over  # R4.10.3: overtrump when able
                self._legal = legal
            return legal[:]  # the caller's own list; the cache stays as it is
        if ph is _DECLARE:
            if self.rules.dealer_forced and seat == self.dealer and not self.active:  # _dealer_forced(), inlined
                return [_IN[seat]]
            return [_IN[seat], _OUT[seat]]
        if ph is _GENERAL_RAMS:
            return [Action._SIMPLE[(seat, "gr")], Action._SIMPLE[(seat, "pass")]]
        if ph is _TARGETS:  # R4.8: pass, or one of the targets offered
            return [Action._SIMPLE[(seat, "pass")]] + [
                Action._SIMPLE[(seat, f"t{t}")] for t in self.rules.targets_offered
            ]
        return []

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play now (R4.10); empty outside the play phase."""
        seat = self.to_act
        if self.phase is not Phase.PLAY or seat is None:
            return []
        cards = self.hands[seat]
        if None in cards:
            return []  # unknown cards (??) of a replayed history cannot be played
        return legal_plays(cast("list[Card]", cards), self.current, self.trump, self.rules.overtrump)

    def why_illegal(self, action: Action) -> Refusal | None:
        """Why ``action`` may not be applied now, as a :class:`~ramsli.refusal.Refusal` (its
        ``code``, the rule id and the fields of its message); None if it is legal (R4.12).

        The codes: ``not_an_action``, ``hand_over`` (R5), ``not_seated`` (R3.5),
        ``not_your_turn``, ``declare_first`` and ``dealer_forced`` (R4.5),
        ``general_rams_or_pass`` (R4.7), ``target_range``, ``target_5_not_offered`` and
        ``target_or_pass`` (R4.8), ``play_a_card`` (R4.9), ``not_a_card`` (R1.6),
        ``cards_unknown`` (R7), ``not_held``, ``must_follow``, ``must_trump`` and
        ``must_overtrump`` (R4.10). The state is not changed.

        >>> hand = Hand.new(Rules(), [20] * 3, dealer=0, seed=1)
        >>> hand.why_illegal(Action("p1 in"))
        Refusal('not_your_turn', 'R4.5', {'seat': 0, 'to_act': 1})
        >>> str(hand.why_illegal(Action("p2 pl AS")))
        'declare in or out first (R4.5)'
        >>> hand.why_illegal(Action("p2 in")) is None
        True
        """
        if not isinstance(action, Action):
            return Refusal("not_an_action", "R4.12", {"given": repr(action)[:40]})
        ph = self.phase
        if ph is _PLAYING and action.seat == self.to_act:
            # A play of legal_actions() is legal: look it up among the seat's legal plays, worked
            # out once per card played and shared with apply, so that checking an action and then
            # applying it works out the legal plays once.
            if self._legal is None:
                self.legal_actions()
            if action in (self._legal or ()):  # still None with unknown cards (??) held
                return None
        if ph is Phase.OVER:
            return Refusal("hand_over", "R5")
        if action.seat != self.to_act:
            if action.seat not in self.seated:
                return Refusal("not_seated", "R3.5", {"seat": action.seat})
            return Refusal("not_your_turn", _phase_rule(ph), {"seat": action.seat, "to_act": self.to_act})
        k = action.kind
        if ph is Phase.DECLARE:
            if k not in ("in", "out"):
                return Refusal("declare_first", "R4.5")
            if k == "out" and self._dealer_forced():
                return Refusal("dealer_forced", "R4.5")
            return None
        if ph is Phase.GENERAL_RAMS:
            if k not in ("gr", "pass"):
                return Refusal("general_rams_or_pass", "R4.7")
            return None
        if ph is Phase.TARGETS:
            if k == "t":
                if type(action.target) is not int or not 2 <= action.target <= 5:
                    return Refusal("target_range", "R4.8", {"target": str(action.target)})
                if action.target > self.rules.largest_target:
                    return Refusal("target_5_not_offered", "R4.8")
                return None
            if k != "pass":
                return Refusal("target_or_pass", "R4.8")
            return None
        # play phase
        if k != "pl":
            return Refusal("play_a_card", "R4.9")
        cards = self.hands[action.seat]
        card = action.card
        if not isinstance(card, Card):
            return Refusal("not_a_card", "R1.6", {"given": repr(card)[:40]})
        if None in cards:
            return Refusal("cards_unknown", "R7", {"seat": action.seat})
        if card not in cards:
            return Refusal("not_held", "R4.10", {"seat": action.seat, "card": card})
        known: list[Card] = [c for c in cards if c is not None]
        if card in legal_plays(known, self.current, self.trump, self.rules.overtrump):
            return None
        return self._play_refusal(known, card)

    def _play_refusal(self, cards: Sequence[Card], card: Card) -> Refusal:
        """Which obligation of R4.10 a held, unplayable ``card`` breaks (the trick is not empty)."""
        trump = self.trump
        led = effective_suit(self.current[0][1], trump)
        if any(effective_suit(c, trump) == led for c in cards):
            if led == trump and effective_suit(card, trump) == trump:
                return Refusal("must_overtrump", "R4.10", {"trump": trump})  # R4.10.3 on a trump lead (D-14)
            return Refusal("must_follow", "R4.10", {"suit": led})  # R4.10.1
        if effective_suit(card, trump) == trump:
            return Refusal("must_overtrump", "R4.10", {"trump": trump})  # R4.10.3
        return Refusal("must_trump", "R4.10", {"suit": led, "trump": trump})  # R4.10.2

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` may be applied now."""
        return self.why_illegal(action) is None

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know now (R7): its own cards, never another seat's
        unplayed or folded cards nor the stock (D-16).

        Raises:
            ValueError: for a seat index outside the table.
        """
        if not 0 <= seat < self.n_seats:
            raise ValueError(f"seat {seat} outside 0..{self.n_seats - 1}")
        return Observation(
            seat=seat,
            phase=self.phase,
            rules=self.rules,
            seated=self.seated,
            dealer=self.dealer,
            to_act=self.to_act,
            cards=tuple(c for c in self.hands[seat] if c is not None),
            turn_up=self.turn_up,
            turned_aside=tuple(self.turned_aside),
            trump=self.trump,
            declarations=tuple(self.declarations),
            active=tuple(self.active),
            general_rams=self.general_rams,
            targets=tuple(sorted(self.targets.items(), key=lambda kv: self.order.index(kv[0]))),
            tricks=tuple(self.tricks),
            current=tuple(self.current),
            leader=self.leader,
            tricks_won=tuple(self.tricks_won),
            cards_left=tuple(
                len(h) if s in self.active or self.phase is Phase.DECLARE else 0 for s, h in enumerate(self.hands)
            ),
            stacks=tuple(self.stacks),
            pot=self.pot,
            legal=tuple(self.legal_actions()) if self.to_act == seat else (),
            settlement=self.settlement,
        )

    def total(self) -> int:
        """Counters on the table: all stacks plus the pot (R3.4)."""
        return sum(self.stacks) + self.pot

    # -- transitions ----------------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Apply one action (an :class:`Action` or its text, e.g. ``"p2 pl AS"``).

        Raises:
            IllegalActionError: if the action is not legal now (R4.12); its ``refusal`` is
                :meth:`why_illegal`'s record (text that is no action: ``not_an_action``), its
                message and ``.rule`` name the rule broken; the hand is left exactly as it was.
        """
        if type(action) is not Action:
            if isinstance(action, str):
                text = action
                try:
                    action = Action.parse(text, self.n_seats)
                except ValueError:
                    raise IllegalActionError(
                        text[:40], Refusal("not_an_action", "R4.12", {"given": text[:40]})
                    ) from None
            elif not isinstance(action, Action):
                raise IllegalActionError(
                    repr(action)[:40], Refusal("not_an_action", "R4.12", {"given": repr(action)[:40]})
                )
        ph = self.phase
        if ph is _PLAYING:
            # Legal: a play of legal_actions() of this very state, worked out once per card played
            # (every play empties that cache). Anything else goes to why_illegal, which refuses it
            # with its reason.
            legal: list[Action] | tuple[()] | None = self._legal
            if legal is None:
                self.legal_actions()
                legal = self._legal or ()  # still None with unknown cards (??) held
            if action not in legal:
                why = self.why_illegal(action)
                if why is not None:
                    raise IllegalActionError(str(action), why)
            # The play itself, written here rather than in a method: it runs for nearly every
            # action, and a call costs as much as half of it.
            seat = action.seat
            card: Card = action.card  # type: ignore[assignment]  # every play has a card
            held = self.hands[seat]
            i = 0
            while held[i] is not card:  # found by identity: Card defines __lt__, so == on two cards
                i += 1  # runs Python's slot lookup (list.remove would, once per card before it)
            del held[i]
            self.history.append(action)
            self._legal = None  # the next seat's legal plays are not known yet
            cur = self.current
            if cur:  # R4.11: the trick's best card so far, by its strength
                strength = self._strength[card]
                if strength > self._top:
                    self._top = strength
                    self._top_seat = seat
            else:  # a lead (R4.9): its suit is the led suit, a joker leads trump (D-2)
                led = self._led = self.trump if card.suit is None else card.suit
                self._strength = _STRENGTH[self.trump][led]
                self._top = self._strength[card]
                self._top_seat = seat
            cur.append((seat, card))
            if len(cur) < len(self.active):
                self.to_act = self._next_active[seat]
                return
            # the trick is complete: its best card wins it (R4.11) and its winner leads next (R4.9)
            winner = self._top_seat
            tricks = self.tricks
            # Trick(...) would run the named tuple's Python-level __new__; tuple.__new__ is one C call
            tricks.append(_new_tuple(Trick, (cur[0][0], tuple(cur), winner)))  # the first to play led
            self.tricks_won[winner] += 1
            self.current = []
            if len(tricks) == 5:
                self._finish()
            else:
                self.leader = winner
                self.to_act = winner
            return
        if ph is _DECLARE:  # R4.5, written here for the same reason as the play
            seat = action.seat
            stay = action.kind is _KIND_IN
            # legal: the seat to act declares in, or out unless it is the dealer forced in
            if seat != self.to_act or not (stay or (action.kind is _KIND_OUT and not self._dealer_forced())):
                why = self.why_illegal(action)
                if why is not None:
                    raise IllegalActionError(str(action), why)
            declarations = self.declarations
            declarations.append((seat, _DECLARED_IN if stay else _DECLARED_OUT))
            self.history.append(action)
            if stay:
                self.active.append(seat)
            if seat != self.dealer:
                # the seats declare in order from the dealer's left: after k declarations, order[k]
                self.to_act = self.order[len(declarations)]
            else:
                self._declarations_over()
            return
        why = self.why_illegal(action)
        if why is not None:
            raise IllegalActionError(str(action), why)
        if ph is _GENERAL_RAMS:
            self._announce_gr(action)
        else:
            self._announce_target(action)

    def _forget_legal_plays(self) -> None:
        """Drop the cached legal plays of the seat to act, so that they are worked out again from
        the cards held; for code that changes the held cards directly (a test's tampering)."""
        self._legal = None

    def _dealer_forced(self) -> bool:
        # R4.5 dealer forced: all before the dealer declared out (so nobody is active yet)
        return self.rules.dealer_forced and self.to_act == self.dealer and not self.active

    def _declarations_over(self) -> None:
        """After the dealer's declaration (R4.5): R4.6 walkover, D-10 thrown in, or on to R4.7."""
        if len(self.active) == 0:  # D-10: thrown in, the pot carries over
            self._thrown_in = True
            self._finish()
        elif len(self.active) == 1:  # R4.6 walkover
            self._finish()
        else:
            self._after_declarations()

    def _after_declarations(self) -> None:
        """R4.7 then R4.8 then R4.9: the questions before the first lead."""
        if self.rules.general_rams:
            self.phase = _GENERAL_RAMS
            self._ask = list(self.active)
            self.to_act = self._ask.pop(0)
        elif self.rules.targets:
            self._begin_targets()
        else:
            self._start_play()

    def _announce_gr(self, action: Action) -> None:
        """R4.7: the first General Rams announcement ends the asking (D-11)."""
        self.history.append(action)
        if action.kind == "gr":
            self.general_rams = action.seat
            self._ask = []
        if self._ask:
            self.to_act = self._ask.pop(0)
        elif self.rules.targets:
            self._begin_targets()
        else:
            self._start_play()

    def _begin_targets(self) -> None:
        self._ask = [s for s in self.active if s != self.general_rams]  # R4.8: the announcer names no target
        if not self._ask:
            self._start_play()
            return
        self.phase = _TARGETS
        self.to_act = self._ask.pop(0)

    def _announce_target(self, action: Action) -> None:
        """R4.8 targets, D-13."""
        self.history.append(action)
        if action.target is not None:  # a target announcement ("t"), not a pass
            self.targets[action.seat] = action.target
        if self._ask:
            self.to_act = self._ask.pop(0)
        else:
            self._start_play()

    def _start_play(self) -> None:
        """R4.9: the first active player to the dealer's left leads (D-12)."""
        self.phase = _PLAYING
        act = self.active
        self._next_active = _next_active_of(act)
        self.leader = act[0]
        self.to_act = self.leader

    def _finish(self) -> None:
        """Settle (R5) and close the hand."""
        self.phase = _OVER
        self.is_over = True
        self.to_act = None
        self.leader = None if not self.tricks or len(self.tricks) == 5 else self.leader
        # positional arguments: a call by keyword costs more, and this is one per hand
        settlement = self.settlement = settle(
            self.rules,
            self.order,
            self.active,
            self.tricks_won,
            self.stacks,
            self.pot,
            self.general_rams,
            self.targets,
            self._thrown_in,
        )
        self.stacks = list(settlement.stacks_after)
        self.pot = settlement.carry_over

    # -- helpers ----------------------------------------------------------------

    def copy(self) -> Hand:
        """A cheap independent copy (for search): mutating one never changes the other.

        Every container of the state (stacks, hands, declarations, targets, tricks, history, …)
        is copied; immutable values (the rules, tuples, cards, the settlement) and the caches,
        which the hand only ever replaces, are shared.

        >>> hand = Hand.new(Rules(), [20] * 3, dealer=0, seed=2)
        >>> other = hand.copy()
        >>> other.apply(other.legal_actions()[0])
        >>> len(hand.history), len(other.history), hand.stacks == other.stacks
        (0, 1, True)
        """
        new = object.__new__(Hand)
        new.rules = self.rules
        new.n_seats = self.n_seats
        new.dealer = self.dealer
        new.seated = self.seated
        new.order = self.order
        new.stacks = self.stacks[:]
        new.start_stacks = self.start_stacks
        new.carry_in = self.carry_in
        new.pot = self.pot
        new.hands = [h[:] for h in self.hands]
        new.dealt = self.dealt
        new.turn_up = self.turn_up
        new.turned_aside = self.turned_aside[:]
        new.trump = self.trump
        new.cut = self.cut
        new.stock = None if self.stock is None else self.stock[:]
        new.phase = self.phase
        new.is_over = self.is_over
        new.to_act = self.to_act
        new.declarations = self.declarations[:]
        new.active = self.active[:]
        new.general_rams = self.general_rams
        new.targets = self.targets.copy()
        new._ask = self._ask[:]
        new.tricks = self.tricks[:]
        new.current = self.current[:]
        new.leader = self.leader
        new.tricks_won = self.tricks_won[:]
        new.history = self.history[:]
        new.settlement = self.settlement
        new._thrown_in = self._thrown_in
        new._legal = self._legal
        new._next_active = self._next_active
        new._unknown = self._unknown
        new._led = self._led
        new._strength = self._strength
        new._top = self._top
        new._top_seat = self._top_seat
        return new

    __copy__ = copy

    def fingerprint(self) -> tuple[object, ...]:
        """The whole state that matters for equality, as a tuple of immutable values: every
        attribute except the undealt stock (never seen nor played, R4.4, and not recorded by a
        hand history) and the caches. Equal fingerprints mean equal states (for tests, e.g. that
        a refused action changed nothing, R4.12).

        >>> hand = Hand.new(Rules(), [20] * 3, dealer=0, seed=2)
        >>> before = hand.fingerprint()
        >>> hand.why_illegal(Action("p1 in")).code, hand.fingerprint() == before
        ('not_your_turn', True)
        """
        return (
            self.rules,
            self.n_seats,
            self.dealer,
            self.seated,
            self.order,
            tuple(self.stacks),
            self.start_stacks,
            self.carry_in,
            self.pot,
            tuple(map(tuple, self.hands)),
            self.dealt,
            self.turn_up,
            tuple(self.turned_aside),
            self.trump,
            self.cut,
            self.phase,
            self.is_over,
            self.to_act,
            tuple(self.declarations),
            tuple(self.active),
            self.general_rams,
            tuple(sorted(self.targets.items())),
            tuple(self._ask),
            tuple(self.tricks),
            tuple(self.current),
            self.leader,
            tuple(self.tricks_won),
            tuple(self.history),
            self.settlement,
            self._thrown_in,
        )

    def __deepcopy__(self, memo: dict[int, object]) -> Hand:
        return self.copy()

    #: the slots :meth:`__getstate__` leaves out: caches that :meth:`__setstate__` works out again
    _REBUILT = frozenset({"_legal", "_next_active", "_strength"})

    def __getstate__(self) -> dict[str, object]:
        """The state pickle stores: every slot but the caches of :attr:`_REBUILT`, by name.

        :meth:`__setstate__` rebuilds those caches, so that a pickled hand (and anything that
        pickles one, e.g. OpenSpiel's ``serialize_game_and_state`` of a
        :class:`~ramsli.rl.openspiel_game.RamsliState`) has the same legal actions and
        observations as the hand it came from (R4.10, R7).
        """
        return {name: getattr(self, name) for name in Hand.__slots__ if name not in Hand._REBUILT}

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore a state of :meth:`__getstate__` and rebuild the caches: the legal plays are
        worked out afresh, the trump and led suit are the interned :data:`~ramsli.cards.SUITS`
        again (the play compares suits by identity), the next active seat (R4.9) and the trick's
        strengths (R4.11) are the shared tables.

        Raises:
            ValueError: if ``state`` misses a slot or has a name that is not one.
        """
        names = set(state)
        wanted = set(Hand.__slots__) - Hand._REBUILT
        if names != wanted:
            missing, unknown = sorted(wanted - names), sorted(names - wanted)
            raise ValueError(f"not a Hand state: missing {missing}, unknown {unknown}")
        for name, value in state.items():
            setattr(self, name, value)
        suits = {str(s): s for s in SUITS}
        self.trump = suits[str(self.trump)]
        self._led = suits.get(str(self._led), "")
        self._legal = None
        self._strength = _STRENGTH[self.trump][self._led] if self._led else _NO_STRENGTH
        self._next_active = _next_active_of(self.active) if self.phase is _PLAYING or self.tricks else _NO_NEXT

    def __repr__(self) -> str:
        return (
            f"<Hand phase={self.phase.value} to_act={None if self.to_act is None else seat_name(self.to_act)}"
            f" trump={self.trump} pot={self.pot} tricks={len(self.tricks)}>"
        )


#: deck size -> the steps (i, float(i + 1)) of its Fisher-Yates shuffle, i from size - 1 down to 1
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, float], ...]] = {
    size: tuple((i, float(i + 1)) for i in range(size - 1, 0, -1)) for size in (32, 34, 52, 54)
}
#: seat slots n -> all n seated, ``(0, .., n - 1)``: the usual ``seated`` of a new hand
_ALL_SEATED: tuple[tuple[int, ...], ...] = tuple(tuple(range(n)) for n in range(MAX_SEATS + 1))
#: seat slots n -> every valid ``seated`` (sorted, distinct, at least two seats of 0..n - 1; R2.1, R3.5)
_SEATINGS: tuple[frozenset[tuple[int, ...]], ...] = tuple(
    frozenset(t for k in range(2, n + 1) for t in itertools.combinations(range(n), k)) for n in range(MAX_SEATS + 1)
)
#: (dealer, seated, seat slots) -> :func:`order_from_dealer` of them, for tables already checked
_ORDERS: dict[tuple[int, tuple[int, ...], int], tuple[int, ...]] = {}


def _seated_tuple(n: int, seated: Sequence[int] | None) -> tuple[int, ...]:
    """The seats taking part as a sorted tuple: all ``n`` seat slots when ``seated`` is None."""
    if seated is None:
        return _ALL_SEATED[n] if n <= MAX_SEATS else tuple(range(n))
    return tuple(sorted(seated))


def _order(dealer: int, seated_t: tuple[int, ...], n: int) -> tuple[int, ...]:
    """:func:`order_from_dealer` of a checked table, computed once per table met."""
    order = _ORDERS.get((dealer, seated_t, n))
    if order is None:
        order = _ORDERS[(dealer, seated_t, n)] = order_from_dealer(dealer, seated_t, n)
    return order


def _check_table(rules: Rules, stacks: Sequence[int], dealer: int, seated_t: tuple[int, ...], pot: int = 0) -> None:
    """Validate the table of a new hand (R2.1, R3.2, R3.3, R3.5, R5.4); see :func:`check_table`."""
    n = len(stacks)
    # Fast path, taken by nearly every hand: these tests imply every check below (a stack of
    # ante or more is >= 0). Anything else goes through the checks, which name what is wrong.
    if (
        type(rules) is Rules
        and type(pot) is int
        and pot >= 0
        and 2 <= n <= MAX_SEATS
        and seated_t in _SEATINGS[n]
        and type(dealer) is int
        and dealer in seated_t
    ):
        ante = rules.ante
        for x in stacks:
            if type(x) is not int or x < ante:
                break
        else:
            return
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, not {type(rules).__name__} (R8)")
    if type(pot) is not int or pot < 0:
        raise TableError(Refusal("pot_invalid", "R5.4", {"given": repr(pot)[:40]}), "pot")
    n = len(stacks)
    if not 2 <= n <= MAX_SEATS:
        raise TableError(Refusal("seat_count", "R2.1", {"count": n, "most": MAX_SEATS}), "stacks")
    if len(seated_t) < 2 or any(not 0 <= s < n for s in seated_t) or len(set(seated_t)) != len(seated_t):
        raise TableError(Refusal("seated_invalid", "R3.5"), "seated")
    if dealer not in seated_t:
        if type(dealer) is int and 0 <= dealer < n:
            raise TableError(Refusal("dealer_not_seated", "R3.2", {"seat": dealer}), "dealer")
        raise TableError(Refusal("dealer_invalid", "R3.2", {"given": repr(dealer)[:40]}), "dealer")
    for s in range(n):
        if type(stacks[s]) is not int or stacks[s] < 0:
            raise TableError(Refusal("stack_invalid", "R3.3", {"seat": s, "given": repr(stacks[s])[:40]}), "stacks", s)
    for s in seated_t:
        if stacks[s] < rules.ante:
            refusal = Refusal("cannot_pay_ante", "R3.5", {"seat": s, "stack": stacks[s], "ante": rules.ante})
            raise TableError(refusal, "stacks", s)


def check_table(
    rules: Rules, stacks: Sequence[int], dealer: int, seated: Sequence[int] | None = None, pot: int = 0
) -> None:
    """Check the table of a new hand as :meth:`Hand.new`, :meth:`Hand.from_deck` and
    :meth:`Hand.from_cards` do, without dealing: 2..6 seat slots (R2.1), at least two
    distinct seated seats (R2.1, R3.5), a seated dealer (R3.2), stacks that are whole
    numbers of counters >= 0 (R3.3), every seated stack able to pay the ante (R3.5) and a
    carry-over pot that is a whole number >= 0 (R5.4). A hand history calls it to check
    its table before its deal.

    Args:
        rules: the rules in force; stacks: counters per seat slot before the ante;
        dealer: the dealer's seat; seated: seats taking part (default: all);
        pot: the carry-over pot before the ante, counters.

    Raises:
        TableError: naming the input (``field``: ``"stacks"``, ``"pot"``, ``"dealer"``,
            ``"seated"``) and, where one applies, the seat slot (``index``).
        TypeError: if ``rules`` is not a :class:`~ramsli.rules.Rules`.

    >>> check_table(Rules(), [20, 0, 20], dealer=0)
    Traceback (most recent call last):
    ...
    ramsli.errors.TableError: p2 has 0 counters and cannot pay the ante of 1 (R3.5)
    """
    n = len(stacks)
    _check_table(rules, stacks, dealer, tuple(range(n)) if seated is None else tuple(sorted(seated)), pot)


def _phase_rule(ph: Phase) -> str:
    return {Phase.DECLARE: "R4.5", Phase.GENERAL_RAMS: "R4.7", Phase.TARGETS: "R4.8", Phase.PLAY: "R4.10"}.get(
        ph, "R4.12"
    )


# re-exported for convenience
__all__ += ["CardError", "effective_suit"]
