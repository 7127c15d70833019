"""Compact card codes and the pub-regular policy on them (for the bots' inner loops).

Search and rollouts never touch :class:`~ramsli.hand.Hand`: cards become small
ints for one hand, with the trump suit mapped to suit 0 so that trick rules are
a few integer comparisons.

Card code (one hand, one trump): ``eff * 32 + rank`` where ``eff`` is 0 for the
trump suit and the jokers (R1.3, D-2) and 1..3 for the side suits, and ``rank``
is 2..14 (jokers 15 little, 16 big). So ``code < 32`` means trump, ``code >> 5``
is the suit a card counts as, and within one suit a higher code is a higher
card. :func:`legal`, :func:`beats` and :func:`winner_index` are copies of
:func:`ramsli.hand.legal_plays` and :func:`ramsli.hand.trick_winner` (R4.10,
R4.11) for speed; ``tests/test_rule_copies.py`` checks that they agree on
random positions, and ``docs/rules-map.md`` lists every copy of these rules.

The policy functions (:func:`rule_declare`, :func:`rule_play`,
:func:`rule_general_rams`, :func:`sure_tricks`) are the ``montecarlo`` bot's
model of the other seats: how they declare (to weigh sampled deals) and how
they play in rollouts, written on codes for speed; they are no bot of their own
(the tips player is :mod:`ramsli.bots.tips`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ramsli.cards import Card

__all__ = [
    "Codec",
    "legal",
    "winner_index",
    "beats",
    "rule_declare",
    "declare_need",
    "rule_play",
    "declare_strength",
    "SUIT_MASK",
    "mask_of",
]

TRUMP_TOP = 16  # big joker rank

#: bit mask of all codes of suit eff (eff 0..3)
SUIT_MASK = tuple(((1 << 32) - 1) << (32 * e) for e in range(4))


class Codec:
    """The card <-> code mapping for one trump suit (see the module docstring).

    Args:
        trump: the trump suit letter ``"S" "H" "D" "C"``.
    """

    __slots__ = ("trump", "side", "_enc", "_dec")

    def __init__(self, trump: str) -> None:
        self.trump = trump
        self.side = [s for s in "SHDC" if s != trump]
        enc: dict[int, int] = {}
        dec: dict[int, Card] = {}
        for i in range(54):
            c = Card.from_index(i)
            if c.suit is None or c.suit == trump:
                code = c.rank
            else:
                code = (1 + self.side.index(c.suit)) * 32 + c.rank
            enc[i] = code
            dec[code] = c
        self._enc = enc
        self._dec = dec

    def enc(self, card: Card) -> int:
        """The code of ``card``."""
        return self._enc[card.index]

    def encs(self, cards: Iterable[Card]) -> list[int]:
        """Codes of several cards, in the same order."""
        e = self._enc
        return [e[c.index] for c in cards]

    def dec(self, code: int) -> Card:
        """The card of ``code``."""
        return self._dec[code]


_CODECS = {t: Codec(t) for t in "SHDC"}


def codec(trump: str) -> Codec:
    """The shared :class:`Codec` of a trump suit."""
    return _CODECS[trump]


def mask_of(codes: Iterable[int]) -> int:
    """Bit mask with bit ``code`` set for every code."""
    m = 0
    for c in codes:
        m |= 1 << c
    return m


def legal(hand: Sequence[int], cur: Sequence[int], always: bool) -> list[int]:
    """The codes of ``hand`` that may be played to the trick ``cur`` (R4.10).

    Args:
        hand: the player's codes.
        cur: codes played to the trick so far, in order (empty: a lead).
        always: option ``overtrump == "always"`` (D-14).
    """
    if not cur:
        return list(hand)
    led = cur[0] >> 5
    high = 0
    for c in cur:
        if c < 32 and c > high:
            high = c
    if led == 0:
        follow = [c for c in hand if c < 32]
        if not follow:
            return list(hand)
        if always:
            over = [c for c in follow if c > high]
            if over:
                return over
        return follow
    follow = [c for c in hand if c >> 5 == led]
    if follow:
        return follow
    trumps = [c for c in hand if c < 32]
    if not trumps:
        return list(hand)
    if high:
        over = [c for c in trumps if c > high]
        if over:
            return over
    return trumps


def beats(c: int, best: int) -> bool:
    """True if ``c`` played later beats ``best``, the card winning the trick so far (R4.11)."""
    if c < 32:
        return best >= 32 or c > best
    return best >= 32 and (c >> 5) == (best >> 5) and c > best


def winner_index(cur: Sequence[int]) -> int:
    """Index in ``cur`` of the card that wins the trick (R4.11)."""
    b = cur[0]
    bi = 0
    for i in range(1, len(cur)):
        c = cur[i]
        if c < 32:
            if b >= 32 or c > b:
                b = c
                bi = i
        elif b >= 32 and (c >> 5) == (b >> 5) and c > b:
            b = c
            bi = i
    return bi


# --------------------------------------------------------------------------- declarations


def declare_strength(hand: Sequence[int], visible_trumps: int) -> tuple[bool, float]:
    """The seeds' first tip as numbers: ``(path, strength)``.

    ``path`` is True if the hand has a realistic path to a trick: a side ace, a
    top trump (one of the two highest trumps not visible on the table), or
    trump length with a high court card (two trumps, or a trump with a king or
    queen). Three low side cards with the 7 of trump have none.
    ``strength`` roughly counts likely tricks (1.0 per ace or top trump).

    Args:
        hand: the seat's codes.
        visible_trumps: mask of trump codes that are not in play (turn-up, jokers turned aside).
    """
    trumps = sorted((c for c in hand if c < 32), reverse=True)
    # trumps still in play, highest first, to find "top trumps"
    alive = [r for r in range(TRUMP_TOP, 1, -1) if not (visible_trumps >> r) & 1]
    top2 = set(alive[:2])
    top3 = set(alive[:3])
    n_top = sum(1 for c in trumps if c in top2)
    aces = sum(1 for c in hand if c >= 32 and (c & 31) == 14)
    kings = sum(1 for c in hand if c >= 32 and (c & 31) == 13)
    court_trump = any(c in top3 or c >= 12 for c in trumps)
    high_court = kings > 0 or court_trump or any(c >= 32 and (c & 31) == 12 for c in hand)
    path = aces > 0 or n_top > 0 or (len(trumps) >= 2 and high_court) or (len(trumps) >= 1 and kings > 0)
    strength = aces + n_top + 0.45 * sum(1 for c in trumps if c not in top2 and c in top3)
    strength += 0.25 * max(0, len(trumps) - n_top) + 0.3 * kings
    if len(trumps) >= 3:
        strength += 0.3
    return path, strength


def rule_declare(
    hand: Sequence[int], visible_trumps: int, n_in_before: int, n_to_come: int, n_seated: int, bete: int, pot: int
) -> bool:
    """The ``montecarlo`` bot's model of a declaration (R4.5), after the seeds' tips.

    Stay in only with a realistic path to a trick; count the players already in
    (three in and a mediocre hand: fold); if only one player is in before you
    (R10's reading of the dealer tip), folding may hand them a walkover, so a
    marginal hand stays in; nobody in and nobody to come means a walkover.

    Args:
        hand: codes of the seat's five cards.
        visible_trumps: mask of trump codes not in play.
        n_in_before: players who declared in before this seat.
        n_to_come: seats still to declare after this one.
        n_seated: seats in the hand.
        bete: the bete in counters (R5.3).
        pot: the pot in counters.
    """
    if n_in_before == 0 and n_to_come == 0:
        return True  # walkover (R4.6)
    path, s = declare_strength(hand, visible_trumps)
    if not path:
        return False
    return s >= declare_need(n_in_before, n_to_come, bete, pot)


def declare_need(n_in_before: int, n_to_come: int, bete: int, pot: int) -> float:
    """The strength (:func:`declare_strength`, about likely tricks) the tips ask for to stay in (R4.5, R10).

    More with more players already in; less when only one player is in and nobody is to come (do not
    hand them a walkover, R10's reading of the dealer tip); more when the bete (counters) is large
    against the pot (counters).

    >>> declare_need(0, 4, 5, 5), declare_need(2, 1, 5, 5), declare_need(1, 0, 5, 5), declare_need(3, 0, 20, 5)
    (1.0, 1.45, 0.7, 2.4)
    """
    need = 1.0
    if n_in_before >= 3:
        need = 2.0
    elif n_in_before == 2:
        need = 1.45
    elif n_in_before == 1 and n_to_come == 0:
        need = 0.7  # R10: do not hand the one player in a walkover
    if bete > pot + 5:
        need += 0.4
    return need


def rule_general_rams(hand: Sequence[int], visible_trumps: int) -> bool:
    """The seeds' General Rams tip (R4.7): the ace of trump, one more top trump and
    three side aces or kings, five cards in all."""
    if len(hand) != 5:
        return False
    trumps = [c for c in hand if c < 32]
    side = [c for c in hand if c >= 32]
    alive = [r for r in range(TRUMP_TOP, 1, -1) if not (visible_trumps >> r) & 1]
    has_ace = 14 in trumps or (alive and alive[0] in trumps and alive[0] > 14)
    tops = sum(1 for c in trumps if c in alive[:3])
    return (
        bool(has_ace)
        and tops >= 2
        and len(side) <= 3
        and all((c & 31) >= 13 for c in side)
        and len(trumps) + len(side) == 5
    )


def sure_tricks(hand: Sequence[int], visible_trumps: int) -> int:
    """Tricks the seat can count on: its unbroken run of top trumps, plus side aces
    when it also holds at least two trumps (used for targets, R4.8)."""
    alive = [r for r in range(TRUMP_TOP, 1, -1) if not (visible_trumps >> r) & 1]
    trumps = set(c for c in hand if c < 32)
    n = 0
    for r in alive:
        if r in trumps:
            n += 1
        else:
            break
    if len(trumps) >= 2:
        n += sum(1 for c in hand if c >= 32 and (c & 31) == 14)
    return n


# --------------------------------------------------------------------------- card play


def _is_master(c: int, others: int) -> bool:
    """No card of ``c``'s suit above it is in ``others`` (a mask of cards others may hold)."""
    above = SUIT_MASK[c >> 5] & ~((1 << (c + 1)) - 1)
    return not (above & others)


def rule_play(
    hand: Sequence[int],
    legal_codes: Sequence[int],
    cur: Sequence[int],
    n_after: int,
    trick_no: int,
    my_tricks: int,
    others: int,
    trumpless_after: bool = False,
    void_risk: int = 0,
) -> int:
    """The ``montecarlo`` bot's rollout card (R4.10 already applied: ``legal_codes`` are legal).

    Leading: lead trumps with strong trump length (three trumps, or two with the
    master trump) while opponents may still hold trumps; hold a sole side ace
    back for tricks 3-4 (lead masters from trick 3 on, or earlier with two or
    more); otherwise lead low from a side suit. Following: win as cheaply as a
    master allows; a seat with no trick yet wins with its highest winner;
    otherwise play the cheapest card.

    Args:
        hand: the seat's codes.
        legal_codes: the legal codes (from :func:`legal`).
        cur: codes in the trick so far.
        n_after: players still to play to this trick after this seat.
        trick_no: 0-based trick number.
        my_tricks: tricks this seat has won.
        others: mask of cards the other active players may hold.
        trumpless_after: every other active player is known to hold no trump.
        void_risk: bit e set if some other active player is known void in side suit e
            and may hold trumps (a side master there can be trumped).
    """
    if len(legal_codes) == 1:
        return legal_codes[0]
    if not cur:
        trumps = sorted((c for c in hand if c < 32), reverse=True)
        opp_trumps = others & SUIT_MASK[0]
        if trumps and opp_trumps and not trumpless_after:
            top_master = _is_master(trumps[0], others)
            if len(trumps) >= 3 or (len(trumps) >= 2 and top_master):
                return trumps[0] if top_master else trumps[-1]
        side = [c for c in hand if c >= 32]
        masters = [c for c in side if _is_master(c, others) and not ((void_risk >> (c >> 5)) & 1 and opp_trumps)]
        if masters and (
            trick_no >= 2 or len(masters) >= 2 or not opp_trumps or len(side) == len(hand) and trick_no >= 1
        ):
            return max(masters, key=lambda c: c & 31)
        if trumps and _is_master(trumps[0], others) and (trick_no >= 2 or len(trumps) == len(hand)):
            return trumps[0]
        # lead low from a side suit without a held-back master
        cand = [c for c in side if c not in masters] or side or list(hand)
        return min(cand, key=lambda c: c & 31)
    bi = winner_index(cur)
    best = cur[bi]
    winners = [c for c in legal_codes if beats(c, best)]
    if not winners:
        return min(legal_codes, key=lambda c: _discard_cost(c, others))
    winners.sort(key=lambda c: (c < 32, c & 31))  # cheapest: side cards before trumps, low before high
    if n_after == 0 or not others:
        return winners[0]
    for c in winners:
        if c < 32:
            if _is_master(c, others):
                return c
        elif _is_master(c, others) and (trick_no == 0 or not (others & SUIT_MASK[0])):
            return c
    if my_tricks == 0:
        return winners[-1]
    losers = [c for c in legal_codes if c not in winners]
    if losers:
        return min(losers, key=lambda c: _discard_cost(c, others))
    return winners[0]


def _discard_cost(c: int, others: int) -> int:
    cost = c & 31
    if c < 32:
        cost += 40
    if _is_master(c, others):
        cost += 25
    return cost
