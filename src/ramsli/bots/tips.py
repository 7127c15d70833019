"""The ``tips`` bot: the seeds' "Tips and Strategy" played as written (RULES.md R10).

One tips player. ``make_bot("tips")`` builds it; ``make_bot("rules")`` builds the
same player (``rules`` is an alias of ``tips``). The lab's
batch kernel (:mod:`ramsli.lab.kernel`, policy ``TIPS``) plays the same
functions; see "What the kernel plays" below. ``docs/tips-player.md`` maps each
tip, with its seed line, to the function here that plays it and to the test
that checks it.

Words: a *trump* is a card of the trump suit or a joker (R1.3, D-2); the
*live trumps* are the trump ranks that may still be in some hand, highest first
(:func:`live_trumps`); a *top trump* is a trump of rank K or higher (K, A,
jokers) or one of the two highest live trumps (the Q when the K is turned up);
a *side ace/king* is an A/K of another suit; a *sure trick* is a held trump
with no live trump above it missing from the hand (:func:`sure_tricks`).

Declaration (R4.5; :func:`declare_in`) — "stay in only with a realistic path to a trick":

1. a sure trick: in, whatever was declared before (the bete cannot be lost);
2. three or more players in before and a hand that is not *strong* (top trumps
   + side aces ≥ 2, or three trumps or more): out ("count the 'in'
   declarations ... with a mediocre hand, folding is the safer play");
3. a *path* — a top trump, a side ace, a trump with a side king ("trump plus
   second-rank court"), or two trumps the highest at least J — in;
4. exactly one player in before, in any seat (R10's reading of "if only the
   dealer is in before you"), and a *marginal* hand — a side king or queen, or
   two trumps: in (folding may hand that player a walkover);
5. otherwise out ("three low non-trumps and a 7 of trump is a fold").

The dealer forced in (R4.5) is in.

General Rams (R4.7; :func:`announce_gr`): only the tip's five-card shape —
the ace of trump, exactly one more trump which is a top trump, and three side
aces or kings. Jokers are trumps (R1.3, D-2) but not the ace of trump, so
X1 X2 AH AD AC is outside the shape; AS KS 7S AH AD is too.

Target (R4.8; :func:`choose_target`, not a tip): top trumps + side aces if 2
or more, capped at the largest target offered, else none.

Play (R4.10; :func:`choose_play`). Leading: with a top trump and three
trumps, or two top trumps, lead the highest trump ("lead trumps when you are
in with strong trump length"), unless every opponent still playing is known to
hold no trump; lead a side ace if holding two or more, from trick 3 on, or
when every opponent still playing is known to hold no trump; otherwise the
lowest side card that is not a sole ace ("hold back a sole Ace for the middle
of the round"); else the sole ace if holding no trump; else the highest trump.
Following: the lowest legal card that beats the trick so far; if none beats
it, the lowest legal card, side cards before trumps. Ties: the first in hand
order. The void tracking of the overtrump tip ("a player who discards when
trump is led is out of trump") is :func:`ramsli.bots.tracking.infer`.

What the kernel plays: the kernel sees only the seat's hand and the current
trick, so it plays ``TipsBot(tracking=False)``: no void/cap tracking (every
opponent may hold trumps), and live trumps from the hand alone (the trump
ranks A..2, plus both jokers if the seat holds a joker; the turn-up is not
discounted). ``tests/test_lab_kernel.py`` proves kernel == that bot on random
deals; with ``tracking=True`` (the default, and what ``tips``/``rules`` play)
the bot also uses the turn-up, the jokers of the pack and the tracked voids.

Variant bits (for ``ramsli tips``, :mod:`ramsli.lab.tips`): ``VAR_ACE_EARLY``
leads a sole ace at once; ``VAR_NO_TRUMP_LEAD`` never leads trumps for
strength; ``VAR_TIGHT`` declares in only with a sure trick, two of (top
trumps, side aces), or a top trump and three trumps.

It is deterministic: ``seed`` is accepted for the common bot interface only.

>>> import random
>>> from ramsli import Hand, Rules
>>> from ramsli.bots.base import play_hand
>>> hand = Hand.new(Rules(), [20] * 5, dealer=0, rng=random.Random(3))
>>> play_hand(hand, {s: TipsBot() for s in range(5)})
>>> hand.is_over, hand.total()
(True, 100)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ramsli.bots.base import Slips, register_bot
from ramsli.bots.tracking import infer
from ramsli.cards import Card
from ramsli.hand import Action, Observation, Phase, random_source
from ramsli.seats import seat_name

__all__ = [
    "TipsBot",
    "declare_in",
    "announce_gr",
    "choose_target",
    "choose_play",
    "live_trumps",
    "sure_tricks",
    "blind_live_trumps",
    "VAR_ACE_EARLY",
    "VAR_NO_TRUMP_LEAD",
    "VAR_TIGHT",
]

VAR_ACE_EARLY = 1
VAR_NO_TRUMP_LEAD = 2
VAR_TIGHT = 4


def _trump(c: Card, trump: str) -> bool:
    return c.suit is None or c.suit == trump


def blind_live_trumps(cards: Sequence[Card]) -> tuple[int, ...]:
    """The live trump ranks a seat assumes from its own cards alone (the kernel's view), highest first:
    A..2 (ranks 14..2), with both jokers (16, 15) in front if ``cards`` hold a joker (R1.3).

    >>> blind_live_trumps([Card.parse("AS")])[:2]
    (14, 13)
    >>> blind_live_trumps([Card.parse("X2")])[:3]
    (16, 15, 14)
    """
    if any(c.suit is None for c in cards):
        return _LIVE_JOKERS
    return _LIVE_PLAIN


_LIVE_PLAIN = tuple(range(14, 1, -1))
_LIVE_JOKERS = (16, 15) + _LIVE_PLAIN


def live_trumps(obs: Observation) -> tuple[int, ...]:
    """The trump ranks that may still be in some hand as ``obs.seat`` sees it, highest first: the
    pack's trumps (jokers only with option ``jokers``, R1.3) minus the turn-up, the jokers turned
    aside (R4.4, D-9) and the trumps already played. Ranks: 2..14, little joker 15, big joker 16.

    >>> import random
    >>> from ramsli import Hand, Rules
    >>> hand = Hand.new(Rules(), [20] * 3, dealer=0, rng=random.Random(1))
    >>> obs = hand.observe(1)
    >>> obs.turn_up.rank in live_trumps(obs), len(live_trumps(obs))
    (False, 7)
    """
    k = infer(obs)
    return _live_from_mask(k.visible_trumps | (k.played & ((1 << 32) - 1)))


def _live_from_mask(visible: int) -> tuple[int, ...]:
    return tuple(r for r in range(16, 1, -1) if not (visible >> r) & 1)


def _top(c: Card, trump: str, live: Sequence[int]) -> bool:
    """True if ``c`` is a top trump: rank K or higher, or one of the two highest live trumps."""
    return _trump(c, trump) and (c.rank >= 13 or c.rank in live[:2])


def sure_tricks(cards: Sequence[Card], trump: str, live: Sequence[int]) -> int:
    """How many tricks the held trumps win for certain: the length of the unbroken run of the
    highest ``live`` trump ranks that ``cards`` hold (each wins any trick it is played to, R4.11).

    >>> sure_tricks([Card.parse(c) for c in "AS KS 7H".split()], "S", tuple(range(14, 1, -1)))
    2
    >>> sure_tricks([Card.parse("KS")], "S", tuple(range(14, 1, -1)))
    0
    """
    held = {c.rank for c in cards if _trump(c, trump)}
    n = 0
    for r in live:
        if r not in held:
            break
        n += 1
    return n


def declare_in(
    cards: Sequence[Card], trump: str, ins_before: int, variant: int = 0, live: Sequence[int] | None = None
) -> bool:
    """The tips player's declaration: True for ``in`` (R4.5; the steps of the module docstring).

    Args:
        cards: the seat's five cards.
        trump: the trump suit letter.
        ins_before: players who declared ``in`` before this seat.
        variant: variant bits (``VAR_TIGHT``).
        live: live trump ranks (:func:`live_trumps`); None: :func:`blind_live_trumps`.

    >>> hand = [Card.parse(c) for c in "9S KH 8D 7C 9C".split()]
    >>> [declare_in(hand, "S", n) for n in range(4)]
    [True, True, True, False]
    """
    if live is None:
        live = blind_live_trumps(cards)
    nt = top = aces = kings = queens = hi = 0
    for c in cards:
        if _trump(c, trump):
            nt += 1
            top += _top(c, trump, live)
            hi = max(hi, c.rank)
        elif c.rank == 14:
            aces += 1
        elif c.rank == 13:
            kings += 1
        elif c.rank == 12:
            queens += 1
    sure = sure_tricks(cards, trump, live) >= 1
    strong = top + aces >= 2 or nt >= 3
    if variant & VAR_TIGHT:
        return sure or top + aces >= 2 or (top >= 1 and nt >= 3)
    if sure:
        return True
    if ins_before >= 3 and not strong:
        return False
    path = top >= 1 or aces >= 1 or (nt >= 1 and kings >= 1) or (nt >= 2 and hi >= 11)
    if path:
        return True
    return ins_before == 1 and (kings + queens >= 1 or nt >= 2)


def announce_gr(cards: Sequence[Card], trump: str, live: Sequence[int] | None = None) -> bool:
    """The tips player's General Rams (R4.7): only the tip's shape — five cards: the ace of trump,
    exactly one more trump which is a top trump (K, a joker, or the Q when the K is not live),
    three side aces or kings. ``live``: as for :func:`declare_in`.

    >>> announce_gr([Card.parse(c) for c in "AS KS AH KD AC".split()], "S")
    True
    >>> announce_gr([Card.parse(c) for c in "AS KS 7S AH AD".split()], "S")
    False
    """
    if len(cards) != 5:
        return False
    if live is None:
        live = blind_live_trumps(cards)
    trumps = [c for c in cards if _trump(c, trump)]
    side_ak = sum(1 for c in cards if not _trump(c, trump) and c.rank >= 13)
    trump_ace = any(c.suit == trump and c.rank == 14 for c in trumps)
    return trump_ace and len(trumps) == 2 and all(_top(c, trump, live) for c in trumps) and side_ak == 3


def choose_target(cards: Sequence[Card], trump: str, max_t: int) -> int:
    """The tips player's target (R4.8; not a tip): 0 for none, else 2..max_t."""
    est = sum(1 for c in cards if (c.rank >= 13 if _trump(c, trump) else c.rank == 14))
    return 0 if est < 2 else min(est, max_t)


def _beats(c: Card, best: Card, led: str, trump: str) -> bool:
    """True if ``c`` beats ``best`` in a trick led in ``led`` (R4.11; a copy of
    :func:`ramsli.hand.trick_winner`'s test, checked by ``tests/test_rule_copies.py``)."""
    if _trump(c, trump):
        return not _trump(best, trump) or c.rank > best.rank
    return not _trump(best, trump) and c.suit == led and c.rank > best.rank


def choose_play(
    cards: Sequence[Card],
    current: Sequence[Card],
    trump: str,
    trick_no: int,
    legal: Sequence[Card],
    variant: int = 0,
    trumpless_opponents: bool = False,
    live: Sequence[int] | None = None,
) -> Card:
    """The tips player's card (R4.10): one of ``legal``.

    Args:
        cards: the seat's cards in hand order.
        current: the cards played to this trick so far.
        trump: the trump suit letter.
        trick_no: 0-based trick number (0..4).
        legal: the legal cards (R4.10).
        variant: ``VAR_ACE_EARLY`` / ``VAR_NO_TRUMP_LEAD`` bits.
        trumpless_opponents: every other active player still holding cards is known to hold no
            trump (tracked voids, R4.10); the kernel passes False.
        live: live trump ranks (:func:`live_trumps`); None: :func:`blind_live_trumps` of ``cards``.

    >>> h = [Card.parse(c) for c in "AH 8D 9C 7S 8S".split()]
    >>> str(choose_play(h, [], "S", 0, h))
    '8D'
    """
    hand = list(cards)
    if not current:
        nt = sum(1 for c in hand if _trump(c, trump))
        if live is None:
            live = blind_live_trumps(hand)
        top = sum(1 for c in hand if _top(c, trump, live))
        aces = sum(1 for c in hand if not _trump(c, trump) and c.rank == 14)
        trumps = [c for c in hand if _trump(c, trump)]
        if (
            not variant & VAR_NO_TRUMP_LEAD
            and not trumpless_opponents
            and top >= 1
            and (nt >= 3 or (nt >= 2 and top >= 2))
        ):
            return _first_max(trumps)
        if aces >= 1 and (aces >= 2 or variant & VAR_ACE_EARLY or trick_no >= 2 or trumpless_opponents):
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


def trumpless_opponents(obs: Observation) -> bool:
    """True if every other active player still holding cards is known to hold no trump, from the
    voids and trump caps the play rules reveal (R4.10; :func:`ramsli.inference.voids_and_caps`):
    the overtrump tip's "a player who discards when trump is led is out of trump"."""
    k = infer(obs)
    opp = [s for s in obs.active if s != obs.seat and obs.cards_left[s] > 0]
    return bool(opp) and all((k.voids.get(s, 0) & 1) or k.cap.get(s, 99) < 2 for s in opp)


class TipsBot:
    """The tips player (see the module docstring); deterministic, sees only its seat (R7).

    Args:
        seed: the seed of the slips' random source (``eps`` above 0); the tips use no randomness.
        variant: ``VAR_ACE_EARLY`` / ``VAR_NO_TRUMP_LEAD`` / ``VAR_TIGHT`` bits (see the module text).
        tracking: True (default): use the turn-up, the pack's jokers and the voids revealed by play;
            False: the seat's own cards and the current trick only (what the lab's kernel plays).
        rng: instead of ``seed``, the random source itself.
        eps: slips: at a decision with more than one legal action, with this probability (0..1) a
            uniformly random legal action (:class:`~ramsli.bots.base.Slips`; the level ``easy``
            uses it); 0 (default): deterministic.

    Raises:
        TypeError: if both ``seed`` and ``rng`` are given.
        ValueError: for ``eps`` outside 0..1.
    """

    name = "tips"
    #: bounds of the numeric options in a bot spec (``tips:variant=1``)
    OPTION_RANGES = {"variant": (0, 7), "eps": (0, 1)}

    def __init__(
        self,
        seed: int | None = None,
        variant: int = 0,
        tracking: bool = True,
        eps: float = 0.0,
        *,
        rng: random.Random | None = None,
    ) -> None:
        source = random_source(seed, rng, "TipsBot")  # also checks that at most one is given
        if not 0 <= eps <= 1:
            raise ValueError(f"eps={eps!r}: allowed is 0..1")
        self.seed = seed
        self.variant = int(variant)
        self.tracking = bool(tracking)
        self.eps = float(eps)
        self._slips = Slips(self.eps, source)

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal`` (R4.5, R4.7, R4.8, R4.10).

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        if not obs.legal:
            raise ValueError(f"seat {seat_name(obs.seat)} has no legal action: it is not its turn")
        slip = self._slips.slip(obs)
        if slip is not None:
            return slip
        seat, trump, cards = obs.seat, obs.trump, obs.cards
        if obs.phase is Phase.DECLARE:
            if len(obs.legal) == 1:
                return obs.legal[0]
            ins = sum(1 for _, d in obs.declarations if d == "in")
            live = live_trumps(obs) if self.tracking else None
            return Action.declare(seat, declare_in(cards, trump, ins, self.variant, live))
        if obs.phase is Phase.GENERAL_RAMS:
            live = live_trumps(obs) if self.tracking else None
            return Action.general_rams(seat) if announce_gr(cards, trump, live) else Action.pass_(seat)
        if obs.phase is Phase.TARGETS:
            t = choose_target(cards, trump, obs.rules.largest_target)  # R4.8
            return Action.announce_target(seat, t) if t else Action.pass_(seat)
        legal = [a.card for a in obs.legal if a.card is not None]  # the play phase: every legal action is a play
        if len(legal) == 1:
            return obs.legal[0]
        current = [c for _, c in obs.current]
        none = self.tracking and not current and trumpless_opponents(obs)
        live = live_trumps(obs) if self.tracking and not current else None
        card = choose_play(cards, current, trump, len(obs.tricks), legal, self.variant, none, live)
        return Action.play(seat, card)


register_bot("tips", TipsBot)
register_bot("rules", TipsBot)  # an alias of this player: the same decisions
