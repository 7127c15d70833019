"""A fitted model of how the other seats declare and play, for reading the table (R4.5, R4.10, R7).

The ``expert`` (:mod:`ramsli.bots.expert`) deals the cards it cannot see at random,
consistently with what its seat knows (:func:`ramsli.bots.tracking.sample_deal`), and
then asks of every such deal: *how likely is everything the other seats did, had they
held these cards?* This module answers that question with small models fitted on
self-play of the built-in bots (``bench/opponent_model.py``), one :class:`Style` per bot
(``tips``, ``montecarlo``, ``expert``) and a uniformly random one:

- **card play** (R4.10): a conditional logit over the legal cards. Each legal card
  ``c`` of a seat gets a score ``θ · φ(c)`` from a handful of features of that card in
  that seat's position (:data:`PLAY_FEATURES`: leads a trump with trump length, leads a
  side ace, follows with the cheapest winner, discards the lowest, is the tips' card…),
  and ``P(c) = (1 − floor) · exp(score) / Σ exp(score) + floor / #legal``. The floor
  keeps every legal card possible, so a player unlike the bots never zeroes a deal.
- **declarations** (R4.5): a logistic model of ``P(in)`` over features of the five cards
  and of the table (:data:`DECLARE_FEATURES`: the tips' strength, a path to a trick,
  the players already in and still to come, the bete against the pot…), clipped to
  ``clip``.

Which style a seat plays is not known: every seat is a mixture of the styles with their
priors, and its declaration and plays are scored together under each
(:meth:`OpponentModel.seat_weight`), so a seat that declares and plays like the tips
player is soon read as one.

The features use only what the seat whose choice is modelled may know (R7): its own
cards (in a sampled deal, the sampled ones), the trick so far, the cards played and the
trumps seen, the declarations, and the voids the play rules reveal
(:mod:`ramsli.inference`). The coefficients are package data (:data:`MODEL_FILE`,
format :data:`FORMAT`, with a note on how they were fitted; ``docs/opponent-model.md``
is the model card); :func:`load_model` validates such a file and refuses a corrupt or
hostile one with :class:`OpponentModelError`. Pure Python: no NumPy at play time.

>>> from ramsli.bots.fast import codec
>>> from ramsli.cards import parse_cards
>>> model = default_model()
>>> hand = codec("S").encs(parse_cards("AS KS 9S AH 7D"))  # to lead the first trick of five players
>>> unseen = deck_mask("piquet32", False, "S") & ~mask_of(hand)
>>> ctx = PlayContext(n_after=4, trick_no=0, my_tricks=0, others=unseen, trumpless=False, risk=0, always=True)
>>> probs = model.play_probs(hand, (), hand, ctx)
>>> round(sum(probs), 9), max(zip(probs, parse_cards("AS KS 9S AH 7D")))[1]  # most likely: lead the ace of trumps
(1.0, Card('AS'))
"""

from __future__ import annotations

import functools
import json
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from operator import mul
from pathlib import Path
from typing import TypedDict

from ramsli.bots.fast import (
    SUIT_MASK,
    beats,
    codec,
    declare_need,
    declare_strength,
    legal,
    mask_of,
    rule_declare,
    rule_play,
    sure_tricks,
    winner_index,
)
from ramsli.bots.tips import choose_play, declare_in
from ramsli.bots.tracking import Knowledge
from ramsli.cards import make_deck
from ramsli.hand import Observation

__all__ = [
    "FORMAT",
    "PLAY_FEATURES",
    "DECLARE_FEATURES",
    "PlayContext",
    "PlayStep",
    "OpponentModel",
    "Style",
    "PlayPart",
    "DeclarePart",
    "StyleRecord",
    "ModelRecord",
    "model_from_dict",
    "OpponentModelError",
    "load_model",
    "default_model",
    "play_features",
    "declare_features",
    "play_history",
    "observed_steps",
    "deck_mask",
    "MODEL_FILE",
]

log = logging.getLogger(__name__)

#: the format tag a model file must carry
FORMAT = "ramsli-opponent-model/1"
#: the package data file of the shipped model (in this package)
MODEL_FILE = "opponent_model.json"
#: largest model file accepted (bytes): the shipped one is a few kilobytes
MAX_BYTES = 256 * 1024
#: largest absolute coefficient accepted (a fitted score of 50 is already certainty)
MAX_COEF = 50.0

#: features of one legal card (a lead: ``lead_*``; a card to a trick led by another: ``follow_*``)
PLAY_FEATURES: tuple[str, ...] = (
    "lead_trump",  # leads a trump
    "lead_trump_long",  # leads a trump holding three or more
    "lead_trump_high",  # leads its highest trump
    "lead_trump_master",  # leads a trump no unseen card beats
    "lead_side_ace",  # leads a side ace
    "lead_side_master",  # leads a side card no unseen card of its suit beats
    "lead_side_rank",  # rank of a side card led (7 → 0.5, A → 1.0)
    "lead_low_in_suit",  # leads the lowest card it holds of that suit
    "lead_suit_len",  # cards it holds of the suit of a side card led, minus one
    "lead_singleton",  # leads its only card of a side suit
    "lead_void_risk",  # leads a side suit another active seat is known void in (and may trump)
    "lead_rule",  # the card montecarlo's rollout policy leads (ramsli.bots.fast.rule_play)
    "lead_tips",  # the card the tips player leads (ramsli.bots.tips.choose_play)
    "follow_suit",  # follows the led suit
    "follow_ruff",  # trumps a side-suit lead
    "follow_discard",  # neither follows nor trumps
    "follow_beats",  # beats the best card so far
    "follow_cheapest_win",  # the lowest of its cards that beat the trick
    "follow_highest_win",  # the highest of two or more cards that beat the trick
    "follow_last_win",  # beats the trick as the last to play to it
    "follow_master_win",  # beats the trick with a card no unseen card beats
    "follow_first_win",  # beats the trick while it has won no trick yet
    "follow_rank",  # rank of the card (7 → 0.5, A → 1.0)
    "follow_lowest",  # the cheapest card to give up (ramsli.bots.fast's discard order)
    "follow_rule",  # the card montecarlo's rollout policy plays
    "follow_tips",  # the card the tips player plays
)

#: features of one declaration (R4.5); ``P(in) = 1 / (1 + exp(−θ · φ))``
DECLARE_FEATURES: tuple[str, ...] = (
    "bias",
    "strength",  # about its likely tricks (ramsli.bots.fast.declare_strength)
    "no_path",  # no realistic path to a trick
    "sure1",  # at least one sure trick (ramsli.bots.fast.sure_tricks)
    "sure2",  # at least two
    "need",  # the strength the table asks for (ramsli.bots.fast.declare_need)
    "one_in_last",  # one player in before and nobody to come (folding hands a walkover, R10)
    "many_in",  # three or more players in before
    "to_come",  # seats still to declare after it
    "trumps",  # trumps held
    "side_aces",  # side aces held
    "rule",  # montecarlo's model says in (ramsli.bots.fast.rule_declare)
    "tips",  # the tips player says in (ramsli.bots.tips.declare_in)
    "targets_strength",  # strength, when targets are played (R4.8)
    "gr_strength",  # strength, when General Rams is played (R4.7)
    "big_bete",  # the bete exceeds the pot by more than 5
)

_TRUMP_LETTER = "S"  # codes do not depend on the suit: decode them as if spades were trumps
_CODEC = codec(_TRUMP_LETTER)
_NO_CAP = 99


class OpponentModelError(ValueError):
    """A model file that cannot be used: unreadable, not JSON, the wrong format, or values out of range."""


@dataclass(frozen=True, slots=True)
class PlayContext:
    """What a seat about to play knows besides its cards (codes of :mod:`ramsli.bots.fast`).

    Attributes:
        n_after: active seats still to play to this trick after it.
        trick_no: 0-based number of the trick.
        my_tricks: tricks it has won so far.
        others: mask of the codes it has not seen (unplayed, not its own, not a trump seen).
        trumpless: every other active seat is known to hold no trump (R4.10 voids).
        risk: bit ``e`` set if another active seat is known void in side suit ``e`` and may trump.
        always: option ``overtrump == "always"`` (D-14).
    """

    n_after: int
    trick_no: int
    my_tricks: int
    others: int
    trumpless: bool
    risk: int
    always: bool


@dataclass(frozen=True, slots=True)
class PlayStep:
    """One card played so far, with what was public when it was played (:func:`play_history`).

    Attributes:
        seat: who played it.
        code: the card's code.
        cur: codes played to the trick before it (empty: it was led).
        ctx: the :class:`PlayContext` of that seat, with ``others`` still to be reduced by its hand.
    """

    seat: int
    code: int
    cur: tuple[int, ...]
    ctx: PlayContext


def _master(c: int, others: int) -> bool:
    above = SUIT_MASK[c >> 5] & ~((1 << (c + 1)) - 1)
    return not (above & others)


def _discard_cost(c: int, others: int) -> int:
    cost = c & 31
    if c < 32:
        cost += 40
    if _master(c, others):
        cost += 25
    return cost


def _tips_card_slow(hand: Sequence[int], cur: Sequence[int], legal_codes: Sequence[int], ctx: PlayContext) -> int:
    """The tips player's card (:func:`ramsli.bots.tips.choose_play`) on codes, hand in code order
    (:func:`_tips_card` is the same on codes; this one is for the tests)."""
    dec = _CODEC.dec
    cards = [dec(c) for c in sorted(hand)]
    live = None
    if not cur:
        seen = ~(ctx.others | mask_of(hand))
        live = tuple(r for r in range(16, 1, -1) if (seen >> r) & 1 == 0)
    card = choose_play(
        cards,
        [dec(c) for c in cur],
        _TRUMP_LETTER,
        ctx.trick_no,
        [dec(c) for c in sorted(legal_codes)],
        0,
        ctx.trumpless and not cur,
        live,
    )
    return _CODEC.enc(card)


def _tips_card(hand: Sequence[int], cur: Sequence[int], legal_codes: Sequence[int], ctx: PlayContext) -> int:
    """The tips player's card (:func:`ramsli.bots.tips.choose_play`, variant 0) on codes, the hand in
    code order: the same card as :func:`_tips_card_slow` (checked by the tests), ten times faster."""
    if not cur:
        hs = sorted(hand)
        live_top2: list[int] = []
        mine = 0
        for c in hand:
            mine |= 1 << c
        live_mask = ctx.others | mine
        for r in range(16, 1, -1):
            if (live_mask >> r) & 1:
                live_top2.append(r)
                if len(live_top2) == 2:
                    break
        trumps = [c for c in hs if c < 32]
        nt = len(trumps)
        top = sum(1 for c in trumps if c >= 13 or c in live_top2)
        side_aces = [c for c in hs if c >= 32 and (c & 31) == 14]
        aces = len(side_aces)
        if not ctx.trumpless and top >= 1 and (nt >= 3 or (nt >= 2 and top >= 2)):
            return trumps[-1]
        if aces >= 1 and (aces >= 2 or ctx.trick_no >= 2 or ctx.trumpless):
            return side_aces[0]
        side = [c for c in hs if c >= 32 and not (aces == 1 and (c & 31) == 14)]
        if side:
            best = side[0]
            for c in side[1:]:
                if (c & 31) < (best & 31):
                    best = c
            return best
        if aces == 1 and nt == 0:
            return side_aces[0]
        return trumps[-1]
    b = cur[winner_index(cur)]
    lg = sorted(legal_codes)
    winners = [c for c in lg if beats(c, b)]
    if winners:
        best = winners[0]
        for c in winners[1:]:
            if (c & 31) < (best & 31):
                best = c
        return best
    low = lg[0]
    for c in lg[1:]:
        ct, lt = c < 32, low < 32
        if ct < lt or (ct == lt and (c & 31) < (low & 31)):
            low = c
    return low


def _play_sparse(
    hand: Sequence[int], cur: Sequence[int], legal_codes: Sequence[int], ctx: PlayContext
) -> list[list[tuple[int, float]]]:
    """The nonzero :data:`PLAY_FEATURES` ``(index, value)`` of every card of ``legal_codes``."""
    others = ctx.others
    rp = rule_play(hand, legal_codes, cur, ctx.n_after, ctx.trick_no, ctx.my_tricks, others, ctx.trumpless, ctx.risk)
    tp = _tips_card(hand, cur, legal_codes, ctx)
    out: list[list[tuple[int, float]]] = []
    if not cur:
        nt = 0
        top = -1
        suit_n = [0, 0, 0, 0]
        suit_low = [99, 99, 99, 99]
        for c in hand:
            e = c >> 5
            suit_n[e] += 1
            if c < suit_low[e]:
                suit_low[e] = c
            if c < 32:
                nt += 1
                if c > top:
                    top = c
        for c in legal_codes:
            e = c >> 5
            if c < 32:
                f = [(0, 1.0)]
                if nt >= 3:
                    f.append((1, 1.0))
                if c == top:
                    f.append((2, 1.0))
                if _master(c, others):
                    f.append((3, 1.0))
            else:
                r = c & 31
                f = [(6, r / 14.0), (8, suit_n[e] - 1.0)]
                if r == 14:
                    f.append((4, 1.0))
                if _master(c, others):
                    f.append((5, 1.0))
                if c == suit_low[e]:
                    f.append((7, 1.0))
                if suit_n[e] == 1:
                    f.append((9, 1.0))
                if (ctx.risk >> e) & 1:
                    f.append((10, 1.0))
            if c == rp:
                f.append((11, 1.0))
            if c == tp:
                f.append((12, 1.0))
            out.append(f)
        return out
    led = cur[0] >> 5
    best = cur[winner_index(cur)]
    win = [c for c in legal_codes if beats(c, best)]
    cheapest = highest = -1
    if win:
        win_sorted = sorted(win, key=lambda c: (c < 32, c & 31))
        cheapest = win_sorted[0]
        if len(win_sorted) >= 2:
            highest = win_sorted[-1]
    low = min(legal_codes, key=lambda c: _discard_cost(c, others))
    for c in legal_codes:
        e = c >> 5
        f = [(22, (c & 31) / 14.0)]
        if e == led:
            f.append((13, 1.0))
        elif c < 32:
            f.append((14, 1.0))
        else:
            f.append((15, 1.0))
        if c in win:
            f.append((16, 1.0))
            if c == cheapest:
                f.append((17, 1.0))
            if c == highest:
                f.append((18, 1.0))
            if ctx.n_after == 0:
                f.append((19, 1.0))
            if _master(c, others):
                f.append((20, 1.0))
            if ctx.my_tricks == 0:
                f.append((21, 1.0))
        if c == low:
            f.append((23, 1.0))
        if c == rp:
            f.append((24, 1.0))
        if c == tp:
            f.append((25, 1.0))
        out.append(f)
    return out


def play_features(
    hand: Sequence[int], cur: Sequence[int], legal_codes: Sequence[int], ctx: PlayContext
) -> list[list[float]]:
    """The :data:`PLAY_FEATURES` vector of every card of ``legal_codes``, in that order (R4.10).

    Args:
        hand: the seat's codes (the card to play among them).
        cur: codes played to the trick so far (empty: a lead).
        legal_codes: its legal codes (:func:`ramsli.bots.fast.legal`).
        ctx: the rest of what it knows.

    Returns:
        one list of ``len(PLAY_FEATURES)`` floats per legal card.
    """
    out = []
    for sp in _play_sparse(hand, cur, legal_codes, ctx):
        f = [0.0] * len(PLAY_FEATURES)
        for i, v in sp:
            f[i] = v
        out.append(f)
    return out


@functools.lru_cache(maxsize=256)
def _alive(visible_trumps: int) -> tuple[tuple[int, ...], frozenset[int], frozenset[int]]:
    """The trump ranks in play, highest first, and the sets of the two and three highest."""
    alive = tuple(r for r in range(16, 1, -1) if not (visible_trumps >> r) & 1)
    return alive, frozenset(alive[:2]), frozenset(alive[:3])


def declare_features(
    hand: Sequence[int],
    visible_trumps: int,
    n_in_before: int,
    n_to_come: int,
    bete: int,
    pot: int,
    targets: bool,
    general_rams: bool,
) -> list[float]:
    """The :data:`DECLARE_FEATURES` vector of one declaration (R4.5).

    One pass over the five cards computes what :func:`ramsli.bots.fast.declare_strength`,
    :func:`ramsli.bots.fast.sure_tricks`, :func:`ramsli.bots.fast.rule_declare` and
    :func:`ramsli.bots.tips.declare_in` would (``tests/test_opponent_model.py`` checks that they agree).

    Args:
        hand: codes of the seat's five cards.
        visible_trumps: mask of trump codes out of play (turn-up, jokers turned aside, absent ranks).
        n_in_before: players in before it; n_to_come: seats still to declare after it.
        bete, pot: in counters (R5.3).
        targets, general_rams: the options of R4.8 and R4.7.
    """
    alive, top2, top3 = _alive(visible_trumps)
    nt = n_top = mid = aces = kings = queens = 0
    court_trump = False
    hi = 0
    tips_top = 0
    for c in hand:
        if c < 32:
            nt += 1
            if c in top2:
                n_top += 1
                tips_top += 1
            else:
                if c in top3:
                    mid += 1
                if c >= 13:
                    tips_top += 1
            if c in top3 or c >= 12:
                court_trump = True
            if c > hi:
                hi = c
        else:
            r = c & 31
            if r == 14:
                aces += 1
            elif r == 13:
                kings += 1
            elif r == 12:
                queens += 1
    path = aces > 0 or n_top > 0 or (nt >= 2 and (kings > 0 or court_trump or queens > 0)) or (nt >= 1 and kings > 0)
    strength = aces + n_top + 0.45 * mid + 0.25 * max(0, nt - n_top) + 0.3 * kings + (0.3 if nt >= 3 else 0.0)
    run = 0
    for r in alive:
        if r in hand:
            run += 1
        else:
            break
    sure = run + (aces if nt >= 2 else 0)
    need = declare_need(n_in_before, n_to_come, bete, pot)
    rule = (n_in_before == 0 and n_to_come == 0) or (path and strength >= need)
    # the tips player (ramsli.bots.tips.declare_in): sure trick, strong, path, marginal
    if run >= 1:
        tips_in = True
    elif n_in_before >= 3 and not (tips_top + aces >= 2 or nt >= 3):
        tips_in = False
    elif tips_top >= 1 or aces >= 1 or (nt >= 1 and kings >= 1) or (nt >= 2 and hi >= 11):
        tips_in = True
    else:
        tips_in = n_in_before == 1 and (kings + queens >= 1 or nt >= 2)
    return [
        1.0,
        strength,
        0.0 if path else 1.0,
        1.0 if sure >= 1 else 0.0,
        1.0 if sure >= 2 else 0.0,
        need,
        1.0 if n_in_before == 1 and n_to_come == 0 else 0.0,
        1.0 if n_in_before >= 3 else 0.0,
        float(n_to_come),
        float(nt),
        float(aces),
        1.0 if rule else 0.0,
        1.0 if tips_in else 0.0,
        strength if targets else 0.0,
        strength if general_rams else 0.0,
        1.0 if bete > pot + 5 else 0.0,
    ]


def _declare_features_slow(
    hand: Sequence[int],
    visible_trumps: int,
    n_in_before: int,
    n_to_come: int,
    bete: int,
    pot: int,
    targets: bool,
    general_rams: bool,
) -> list[float]:
    """:func:`declare_features` from the functions it stands for (for the tests)."""
    path, s = declare_strength(hand, visible_trumps)
    sure = sure_tricks(hand, visible_trumps)
    live = _alive(visible_trumps)[0]
    tips_in = declare_in([_CODEC.dec(c) for c in sorted(hand)], _TRUMP_LETTER, n_in_before, 0, live)
    return [
        1.0,
        s,
        0.0 if path else 1.0,
        1.0 if sure >= 1 else 0.0,
        1.0 if sure >= 2 else 0.0,
        declare_need(n_in_before, n_to_come, bete, pot),
        1.0 if n_in_before == 1 and n_to_come == 0 else 0.0,
        1.0 if n_in_before >= 3 else 0.0,
        float(n_to_come),
        float(sum(1 for c in hand if c < 32)),
        float(sum(1 for c in hand if c >= 32 and (c & 31) == 14)),
        1.0 if rule_declare(hand, visible_trumps, n_in_before, n_to_come, 5, bete, pot) else 0.0,
        1.0 if tips_in else 0.0,
        s if targets else 0.0,
        s if general_rams else 0.0,
        1.0 if bete > pot + 5 else 0.0,
    ]


def play_history(
    plays: Sequence[tuple[int, int]],
    active: Sequence[int],
    seen0: int,
    deck_mask: int,
    always: bool,
) -> list[PlayStep]:
    """The public context of every card played so far (R4.10), for :meth:`OpponentModel.play_loglik`.

    Only public facts are used: who played what, in which trick, who led and won, the trumps
    out of play, and the voids and trump caps the play rules reveal (R4.10.1–3, D-14, as
    :func:`ramsli.inference.voids_and_caps` finds them).

    Args:
        plays: ``(seat, code)`` of every card played, in order.
        active: the active seats in play order (R4.9); a trick's first card is its lead.
        seen0: mask of the trump codes out of play (turn-up, jokers turned aside, absent ranks).
        deck_mask: mask of every code of the deck in use.
        always: option ``overtrump == "always"``.
    """
    n = len(active)
    pos = {s: i for i, s in enumerate(active)}
    won = dict.fromkeys(active, 0)
    voids = dict.fromkeys(active, 0)
    cap = dict.fromkeys(active, _NO_CAP)
    steps: list[PlayStep] = []
    seen = seen0
    cur: list[int] = []
    leader = active[0]
    trick = 0
    for seat, code in plays:
        if not cur:
            leader = seat
        others_known = [q for q in active if q != seat]
        trumpless = bool(others_known) and all(voids[q] & 1 or cap[q] < 2 for q in others_known)
        risk = 0
        if not cur:
            for q in others_known:
                if not voids[q] & 1:
                    risk |= voids[q] & 0b1110
        ctx = PlayContext(n - len(cur) - 1, trick, won[seat], deck_mask & ~seen, trumpless, risk, always)
        steps.append(PlayStep(seat, code, tuple(cur), ctx))
        # what the play reveals (R4.10.1-3, D-14)
        if cur:
            led = cur[0] >> 5
            e = code >> 5
            if e != led:
                voids[seat] |= 1 << led
                if code >= 32:
                    voids[seat] |= 1
            if code < 32:
                high = max((c for c in cur if c < 32), default=0)
                if high and code < high and (always or led != 0):
                    cap[seat] = min(cap[seat], high)
        cur.append(code)
        seen |= 1 << code
        if len(cur) == n:
            w = (pos[leader] + winner_index(cur)) % n
            won[active[w]] += 1
            cur = []
            trick += 1
    return steps


@functools.cache
def deck_mask(deck: str, jokers: bool, trump: str) -> int:
    """Mask of the codes of every card of the deck ``deck`` (with ``jokers``) under trump ``trump``."""
    cd = codec(trump)
    return mask_of(cd.enc(c) for c in make_deck(deck, jokers))


def observed_steps(obs: Observation, k: Knowledge) -> list[PlayStep]:
    """:func:`play_history` of every card played so far in ``obs`` (public, R7), ``k`` its
    :func:`ramsli.bots.tracking.infer`."""
    enc = k.codec.enc
    plays = [(s, enc(c)) for t in obs.tricks for s, c in t.plays] + [(s, enc(c)) for s, c in obs.current]
    dm = deck_mask(obs.rules.deck, obs.rules.jokers, obs.trump)
    return play_history(plays, obs.active, k.visible_trumps, dm, k.always)


class PlayPart(TypedDict):
    """The card-play part of a :class:`StyleRecord`."""

    features: list[str]
    coef: list[float]
    floor: float


class DeclarePart(TypedDict):
    """The declaration part of a :class:`StyleRecord`; ``clip`` is ``[lo, hi]``."""

    features: list[str]
    coef: list[float]
    clip: list[float]


class StyleRecord(TypedDict):
    """:meth:`Style.to_dict`: one style as a model file holds it."""

    name: str
    prior: float
    play: PlayPart
    declare: DeclarePart


class ModelRecord(TypedDict):
    """:meth:`OpponentModel.to_dict`: a model file's JSON object (format :data:`FORMAT`)."""

    format: str
    fitted: dict[str, object]
    styles: list[StyleRecord]


@dataclass(frozen=True, slots=True)
class Style:
    """One way of playing, fitted on one bot's decisions (or a uniformly random player: all zeros).

    Attributes:
        name: the bot it was fitted on (``"tips"``, ``"montecarlo"``…) or ``"random"``.
        prior: its prior share of the players met (the prior of the mixture, R4.5–R4.10).
        play_coef: one coefficient per :data:`PLAY_FEATURES`.
        play_floor: the share of probability spread evenly over the legal cards (0..1).
        declare_coef: one coefficient per :data:`DECLARE_FEATURES`.
        declare_clip: ``(lo, hi)``, the bounds of ``P(in)``.
    """

    name: str
    prior: float
    play_coef: tuple[float, ...]
    play_floor: float
    declare_coef: tuple[float, ...]
    declare_clip: tuple[float, float]

    #: True if every card coefficient is 0: the legal cards are equally likely
    uniform: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "uniform", not any(self.play_coef))

    def to_dict(self) -> StyleRecord:
        """The style as a model file holds it."""
        return {
            "name": self.name,
            "prior": self.prior,
            "play": {"features": list(PLAY_FEATURES), "coef": list(self.play_coef), "floor": self.play_floor},
            "declare": {
                "features": list(DECLARE_FEATURES),
                "coef": list(self.declare_coef),
                "clip": list(self.declare_clip),
            },
        }


def _style_probs(st: Style, feats: list[list[tuple[int, float]]]) -> list[float]:
    """``P`` of every card under one style: a conditional logit with a floor (the module docstring)."""
    k = len(feats)
    coef = st.play_coef
    if st.uniform:
        return [1.0 / k] * k
    scores = [sum(coef[i] * v for i, v in f) for f in feats]
    top = max(scores)
    ex = [math.exp(x - top) for x in scores]
    z = (1.0 - st.play_floor) / sum(ex)
    fl = st.play_floor / k
    return [e * z + fl for e in ex]


class OpponentModel:
    """A mixture of playing :class:`Style` s (see the module docstring); build one with :func:`load_model`.

    Every other seat plays one style throughout the hand, unknown to the observer: the
    likelihood of what a seat did is the prior-weighted mixture over the styles of the
    likelihood under each (:meth:`seat_weight`), so a seat that plays like the tips player
    is soon read as one.

    Attributes:
        styles: the styles, with priors summing to 1.
        fitted: how the coefficients were fitted (free text and figures, for people).
    """

    def __init__(self, styles: Sequence[Style], fitted: Mapping[str, object] | None = None) -> None:
        if not styles:
            raise OpponentModelError("opponent model: no style")
        total = sum(st.prior for st in styles)
        if not total > 0:
            raise OpponentModelError("opponent model: the priors must not all be 0")
        if abs(total - 1.0) > 1e-9:
            styles = [
                Style(st.name, st.prior / total, st.play_coef, st.play_floor, st.declare_coef, st.declare_clip)
                for st in styles
            ]
        self.styles = tuple(styles)
        for st in self.styles:
            if len(st.play_coef) != len(PLAY_FEATURES) or len(st.declare_coef) != len(DECLARE_FEATURES):
                raise OpponentModelError("opponent model: wrong number of coefficients")
        self.fitted = dict(fitted or {})

    # -- card play -------------------------------------------------------------------

    def play_probs(
        self, hand: Sequence[int], cur: Sequence[int], legal_codes: Sequence[int], ctx: PlayContext
    ) -> list[float]:
        """``P(card)`` for every card of ``legal_codes`` (in that order) under the prior mixture of the
        styles, summing to 1 (R4.10). Args: as for :func:`play_features`."""
        k = len(legal_codes)
        if k == 1:
            return [1.0]
        feats = _play_sparse(hand, cur, legal_codes, ctx)
        out = [0.0] * k
        for st in self.styles:
            for i, p in enumerate(_style_probs(st, feats)):
                out[i] += st.prior * p
        return out

    def seat_play_loglik(self, steps: Sequence[PlayStep], seat: int, start: Sequence[int]) -> list[float] | None:
        """Per style, the log-likelihood of ``seat``'s plays in ``steps`` had it held ``start``.

        It depends on that seat's cards only (the features read its own cards and the public
        record, R7), so a caller may cache it by ``(seat, cards)``.

        Args:
            steps: :func:`play_history` of the hand so far.
            seat: the seat scored.
            start: its codes before its first play (a sampled deal plus its played cards).

        Returns:
            one log-likelihood per style (all ``-inf`` if a card it played was not legal from these
            cards: the deal contradicts the play), or None if it has had no choice yet.
        """
        h = list(start)
        styles = self.styles
        acc: list[float] | None = None
        for step in steps:
            if step.seat != seat:
                continue
            if step.code not in h:
                return [-math.inf] * len(styles)
            lg = legal(h, step.cur, step.ctx.always)
            if step.code not in lg:
                return [-math.inf] * len(styles)
            if len(lg) > 1:
                if acc is None:
                    acc = [0.0] * len(styles)
                c = step.ctx
                ctx = PlayContext(
                    c.n_after, c.trick_no, c.my_tricks, c.others & ~mask_of(h), c.trumpless, c.risk, c.always
                )
                feats = _play_sparse(h, step.cur, lg, ctx)
                i = lg.index(step.code)
                for m, st in enumerate(styles):
                    acc[m] += math.log(_style_probs(st, feats)[i])
            h.remove(step.code)
        return acc

    def play_loglik(
        self, steps: Sequence[PlayStep], hands: Mapping[int, Sequence[int]], skip: int
    ) -> dict[int, list[float]]:
        """:meth:`seat_play_loglik` of every seat of ``hands`` but ``skip`` (the observer itself) that
        has had a choice: seat -> one log-likelihood per style."""
        out: dict[int, list[float]] = {}
        for s, h in hands.items():
            if s != skip:
                v = self.seat_play_loglik(steps, s, h)
                if v is not None:
                    out[s] = v
        return out

    # -- declarations ----------------------------------------------------------------

    def p_in_styles(
        self,
        hand: Sequence[int],
        visible_trumps: int,
        n_in_before: int,
        n_to_come: int,
        bete: int,
        pot: int,
        targets: bool = False,
        general_rams: bool = False,
    ) -> list[float]:
        """``P(in)`` of a declaration (R4.5) with ``hand`` under each style; all 1.0 if nobody is in and
        nobody is to come (a walkover, R4.6). Args: as for :func:`declare_features`."""
        if n_in_before == 0 and n_to_come == 0:
            return [1.0] * len(self.styles)
        f = declare_features(hand, visible_trumps, n_in_before, n_to_come, bete, pot, targets, general_rams)
        out = []
        for st in self.styles:
            x = sum(map(mul, st.declare_coef, f))
            x = max(-30.0, min(30.0, x))
            lo, hi = st.declare_clip
            out.append(min(hi, max(lo, 1.0 / (1.0 + math.exp(-x)))))
        return out

    def p_in(
        self,
        hand: Sequence[int],
        visible_trumps: int,
        n_in_before: int,
        n_to_come: int,
        bete: int,
        pot: int,
        targets: bool = False,
        general_rams: bool = False,
    ) -> float:
        """``P(in)`` under the prior mixture of the styles (:meth:`p_in_styles`' arguments)."""
        ps = self.p_in_styles(hand, visible_trumps, n_in_before, n_to_come, bete, pot, targets, general_rams)
        return sum(st.prior * p for st, p in zip(self.styles, ps))

    def seat_weight(self, declared: Sequence[float] | None, plays: Sequence[float] | None) -> float:
        """The likelihood of one seat's choices: ``Σ prior · P(declaration) · exp(play log-likelihood)``
        over the styles.

        Args:
            declared: per style, the probability of its declaration (None: not scored).
            plays: per style, the log-likelihood of its plays (:meth:`play_loglik`; None: none).
        """
        total = 0.0
        for m, st in enumerate(self.styles):
            w = st.prior
            if declared is not None:
                w *= declared[m]
            if plays is not None:
                lp = plays[m]
                w = w * math.exp(lp) if lp > -700 else 0.0
            total += w
        return total

    # -- files -----------------------------------------------------------------------

    def to_dict(self) -> ModelRecord:
        """The model as the JSON object :func:`load_model` reads (format :data:`FORMAT`)."""
        return {"format": FORMAT, "fitted": self.fitted, "styles": [st.to_dict() for st in self.styles]}


def _number(x: object, what: str, lo: float, hi: float) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise OpponentModelError(f"opponent model: {what} is not a number ({type(x).__name__})")
    try:
        v = float(x)
    except OverflowError:
        v = math.inf
    if not math.isfinite(v) or not lo <= v <= hi:
        raise OpponentModelError(f"opponent model: {what} = {v!r} is outside {lo}..{hi}")
    return v


def _object(part: object, what: str) -> dict[str, object]:
    if not isinstance(part, dict):
        raise OpponentModelError(f"opponent model: {what} must be an object")
    return part


def _coefs(part: dict[str, object], names: tuple[str, ...], what: str) -> list[float]:
    if part.get("features") != list(names):
        raise OpponentModelError(
            f"opponent model: the {what} features must be exactly {', '.join(names)} (in that order)"
        )
    coef = part.get("coef")
    if not isinstance(coef, list) or len(coef) != len(names):
        raise OpponentModelError(f"opponent model: {what} needs {len(names)} coefficients")
    return [_number(c, f"{what} coefficient {n!r}", -MAX_COEF, MAX_COEF) for c, n in zip(coef, names)]


#: most styles a model file may hold
MAX_STYLES = 8


def model_from_dict(data: object) -> OpponentModel:
    """An :class:`OpponentModel` from a parsed model file, checked field by field.

    Raises:
        OpponentModelError: for anything but format :data:`FORMAT` with 1..:data:`MAX_STYLES` styles,
            each with a short name, a prior in 0..1, exactly the features of this module, finite
            coefficients within ±:data:`MAX_COEF`, a floor in 0..1 and a clip ``0 ≤ lo ≤ hi ≤ 1``.
    """
    if not isinstance(data, dict):
        raise OpponentModelError("opponent model: the file must hold one JSON object")
    if data.get("format") != FORMAT:
        raise OpponentModelError(f"opponent model: format must be {FORMAT!r}, not {str(data.get('format'))[:60]!r}")
    raw = data.get("styles")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_STYLES:
        raise OpponentModelError(f"opponent model: 'styles' must be a list of 1..{MAX_STYLES} styles")
    styles = []
    for j, st in enumerate(raw):
        if not isinstance(st, dict):
            raise OpponentModelError(f"opponent model: style {j} must be an object")
        name = st.get("name")
        if not isinstance(name, str) or not name.isidentifier() or len(name) > 40:
            raise OpponentModelError(f"opponent model: style {j} needs a short name (letters, digits, _)")
        prior = _number(st.get("prior"), f"style {name} prior", 0.0, 1.0)
        play = _object(st.get("play"), f"style {name} play")
        pc = _coefs(play, PLAY_FEATURES, f"style {name} play")
        floor = _number(play.get("floor"), f"style {name} play floor", 0.0, 1.0)
        dec = _object(st.get("declare"), f"style {name} declare")
        dc = _coefs(dec, DECLARE_FEATURES, f"style {name} declare")
        clip = dec.get("clip")
        if not isinstance(clip, list) or len(clip) != 2:
            raise OpponentModelError(f"opponent model: style {name} declare clip must be [lo, hi]")
        lo = _number(clip[0], f"style {name} declare clip lo", 0.0, 1.0)
        hi = _number(clip[1], f"style {name} declare clip hi", lo, 1.0)
        styles.append(Style(name, prior, tuple(pc), floor, tuple(dc), (lo, hi)))
    if not sum(st.prior for st in styles) > 0:
        raise OpponentModelError("opponent model: the priors must not all be 0")
    fitted = data.get("fitted", {})
    if not isinstance(fitted, dict):
        raise OpponentModelError("opponent model: 'fitted' must be an object")
    return OpponentModel(styles, fitted)


def load_model(path: str | Path | None = None) -> OpponentModel:
    """Read and validate a model file (format :data:`FORMAT`); None: the shipped model.

    Raises:
        OpponentModelError: if the file cannot be read, is larger than :data:`MAX_BYTES`, is not
            JSON, or fails :func:`model_from_dict`'s checks. The message says which.
    """
    where = f"the package's {MODEL_FILE}" if path is None else str(path)
    try:
        if path is None:
            raw = resources.files(__package__).joinpath(MODEL_FILE).read_bytes()
        else:
            with Path(path).open("rb") as f:
                raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise OpponentModelError(f"opponent model: cannot read {where}: {e.strerror or e}") from None
    if len(raw) > MAX_BYTES:
        raise OpponentModelError(f"opponent model: {where} is larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise OpponentModelError(f"opponent model: {where} is not valid JSON ({str(e)[:80]})") from None
    return model_from_dict(data)


@functools.cache
def default_model() -> OpponentModel | None:
    """The shipped model, loaded once; None (with a warning in the log) if it cannot be used, in which
    case the expert samples as it would without a fitted model."""
    try:
        return load_model()
    except OpponentModelError as e:
        log.warning("%s; the expert reads the table without the fitted model", e)
        return None
