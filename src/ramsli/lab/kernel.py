"""Fast batch kernel: deal, play and settle whole batches of hands in Numba.

The kernel re-implements one hand of RULES.md — ante (R4.1), cut and deal
(R4.2–R4.4, D-9, D-19), declarations with ``dealer_forced``/``compulsory``
(R4.5, D-10), walkover (R4.6), General Rams (R4.7, D-11), targets (R4.8,
D-13), lead and play (R4.9–R4.11, D-14) and settlement with short stacks
(R5.1–R5.9, D-6, D-15, D-17) — on small integer arrays, for a fixed policy
per seat:

- policy ``0`` (**random**): at every decision the seat takes
  ``legal[floor(u * len(legal))]`` where ``u`` is the next number of the
  hand's random table and ``legal`` is in the engine's ``legal_actions()``
  order (plays: cards in hand order; declarations ``[in, out]``; General
  Rams ``[gr, pass]``; targets ``[pass, t2 .. t5]`` or ``[pass, t2 .. t4]``);
- policy ``1`` (**tips**): the seeds' "Tips and Strategy" as fixed rules,
  exactly as :class:`ramsli.bots.tips.TipsBot` with ``tracking=False`` plays
  them (see there: no void tracking, live trumps from the seat's own cards).

Every decision point — forced or not, random or not — consumes one number of
the hand's table, so that a Python driver over the engine
(:mod:`ramsli.lab.reference`) reproduces every hand exactly.

Cards are the engine's dense indices (:attr:`ramsli.cards.Card.index`):
suit = index // 13 for 0..51 (S H D C), rank = 14 - index % 13; 52 is the big
joker (rank 16), 53 the little joker (rank 15); jokers count as trump (D-2).

Random numbers come from a counter-based SplitMix64 stream per
``(seed, hand number)``: hand ``h`` of seed ``s`` is the same whatever batch
it is in and whichever thread plays it, so results are reproducible on any
number of cores. :func:`make_inputs` writes the same deck orders, cuts and
decision tables out for the reference driver.

Rule parameters are packed by :func:`pack_rules` into an int64 array.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from numba import njit

from ramsli.cards import make_deck
from ramsli.hand import check_table
from ramsli.lab import jitcache
from ramsli.lab.limits import MAX_COUNTERS, check_counters
from ramsli.rules import Rules
from ramsli.session import EndReason, check_setup

_CACHE = jitcache.configure() is not None  # the cache folder is chosen before any kernel is defined

__all__ = [
    "MAX_SEATS",
    "N_DECISIONS",
    "RANDOM",
    "TIPS",
    "VAR_ACE_EARLY",
    "VAR_NO_TRUMP_LEAD",
    "VAR_TIGHT",
    "KIND_PLAYED",
    "KIND_WALKOVER",
    "KIND_THROWN_IN",
    "pack_rules",
    "base_deck",
    "make_inputs",
    "run_stream",
    "run_table",
    "run_dealt",
    "run_odds",
    "HandBatch",
    "play_batch",
    "play_table",
    "new_outputs",
]

MAX_SEATS = 6
#: decisions per hand at most: 6 declarations + 6 General Rams + 6 targets + 30 plays
N_DECISIONS = 48
RANDOM = 0
TIPS = 1
#: policy variants (bit flags) of the tips policy
VAR_ACE_EARLY = 1  #: lead a sole side ace at once instead of saving it for tricks 3-4
VAR_NO_TRUMP_LEAD = 2  #: never lead trumps for strength
VAR_TIGHT = 4  #: declare in only with two of (top trumps, side aces), or a top trump and three trumps
KIND_PLAYED, KIND_WALKOVER, KIND_THROWN_IN = 0, 1, 2

# rule parameter slots
(
    P_FIRST_BATCH,
    P_DEALER_FORCED,
    P_COMPULSORY,
    P_GR,
    P_GR_TRIPLE_POT,
    P_TARGETS,
    P_TARGET_T,
    P_OVERTRUMP_ALWAYS,
    P_BETE,
    P_ANTE,
) = range(10)

#: Numba options: every function is cached (:mod:`ramsli.lab.jitcache`); the helpers called per
#: decision allocate nothing and run without reference counting (``_nrt=False``: no atomic
#: increments per array argument); the entry points release the GIL so that threads run them in
#: parallel (:func:`_parallel`)
_JIT: dict[str, Any] = dict(cache=_CACHE, error_model="numpy")
_LEAF: dict[str, Any] = dict(_JIT, _nrt=False)
_INLINE: dict[str, Any] = dict(_JIT, inline="always")
_ENTRY: dict[str, Any] = dict(_JIT, nogil=True)

_GOLD = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_SEED_MUL = np.uint64(0xD1B54A32D192ED03)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0

_SUIT = np.empty(54, np.int64)
_RANK = np.empty(54, np.int64)
for _i in range(52):
    _SUIT[_i] = _i // 13
    _RANK[_i] = 14 - _i % 13
_SUIT[52] = 4
_SUIT[53] = 4
_RANK[52] = 16
_RANK[53] = 15


def pack_rules(rules: Rules) -> np.ndarray:
    """The options of ``rules`` the kernel needs, as an int64 array (R8).

    ``bete = "pot"`` is packed as -1. Deck and jokers are given by :func:`base_deck`.
    """
    p = np.zeros(10, np.int64)
    p[P_FIRST_BATCH] = rules.first_batch
    p[P_DEALER_FORCED] = int(rules.dealer_forced)
    p[P_COMPULSORY] = int(rules.compulsory)
    p[P_GR] = int(rules.general_rams)
    p[P_GR_TRIPLE_POT] = int(rules.general_rams_penalty == "triple-pot")
    p[P_TARGETS] = int(rules.targets)
    p[P_TARGET_T] = int(rules.target_bonus == "t")
    p[P_OVERTRUMP_ALWAYS] = int(rules.overtrump == "always")
    p[P_BETE] = -1 if rules.bete == "pot" else int(rules.bete)
    p[P_ANTE] = rules.ante
    return p


def base_deck(rules: Rules) -> np.ndarray:
    """The rules' deck (R1) as card indices in :func:`ramsli.cards.make_deck` order (int64)."""
    return np.array([c.index for c in make_deck(rules.deck, rules.jokers)], np.int64)


# ---------------------------------------------------------------------------
# random stream


@njit(**_INLINE)
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(**_INLINE)
def _start(seed, h):
    return _mix(np.uint64(seed) * _SEED_MUL + np.uint64(h) * _GOLD)


@njit(**_INLINE)
def _uniform(state):
    """Advance ``state`` (uint64) and return (new state, u in [0, 1))."""
    state = state + _GOLD
    return state, float(_mix(state) >> _S11) * _INV53


@njit(**_INLINE)
def _u_at(state, k):
    """The number ``k`` (0-based) of the decision table that starts after ``state``: what ``k + 1``
    calls of :func:`_uniform` from ``state`` return last (the stream is counter-based)."""
    return float(_mix(state + np.uint64(k + 1) * _GOLD) >> _S11) * _INV53


@njit(**_INLINE)
def _draw(u, ust, k):
    """Decision number ``k`` of a hand: ``u[k]`` from a given table, or, for an empty ``u``, the
    stream after ``ust`` (:func:`_u_at`), computed only for the decisions a hand reaches."""
    if u.shape[0] > 0:
        return u[k]
    return _u_at(ust, k)


@njit(**_LEAF)
def _shuffle(seed, h, base, deck):
    """Deck order (Fisher-Yates) and cut (1..D-1) of hand ``h``; returns ``(cut, state)``, the
    state after which the hand's decision table starts (:func:`_u_at`)."""
    d = base.shape[0]
    for i in range(d):
        deck[i] = base[i]
    st = _start(seed, h)
    for i in range(d - 1, 0, -1):
        st, x = _uniform(st)
        j = int(x * (i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    st, x = _uniform(st)
    return 1 + int(x * (d - 1)), st


@njit(**_LEAF)
def _gen_hand(seed, h, base, deck, u):
    """Deck order (Fisher-Yates), cut (1..D-1) and the decision table ``u`` of hand ``h``."""
    cut, st = _shuffle(seed, h, base, deck)
    for k in range(u.shape[0]):
        u[k] = _u_at(st, k)
    return cut


@njit(**_JIT)
def make_inputs(seed, start, count, base):
    """The seeded inputs of hands ``start .. start+count-1``: what the kernel plays in :func:`run_stream`.

    Returns:
        ``(decks (count, D) int64, cuts (count,) int64, u (count, N_DECISIONS) float64)``.
    """
    d = base.shape[0]
    decks = np.empty((count, d), np.int64)
    cuts = np.empty(count, np.int64)
    u = np.empty((count, N_DECISIONS), np.float64)
    for i in range(count):
        cuts[i] = _gen_hand(seed, start + i, base, decks[i], u[i])
    return decks, cuts, u


# ---------------------------------------------------------------------------
# cards and tricks (R4.10, R4.11)


@njit(**_INLINE)
def _is_trump(c, trump):
    s = _SUIT[c]
    return s == 4 or s == trump


@njit(**_LEAF)
def _legal(hand, hl, cur, ncur, trump, ot_always, out):
    """R4.10 with D-14: positions in ``hand`` (hand order) of the legal cards; returns how many."""
    n = 0
    if ncur == 0:
        for i in range(hl):
            out[i] = i
        return hl
    lead = cur[0]
    led = _SUIT[lead]
    if led == 4:
        led = trump
    high = 0
    for j in range(ncur):
        c = cur[j]
        if _is_trump(c, trump) and _RANK[c] > high:
            high = _RANK[c]
    if led == trump:
        for i in range(hl):
            if _is_trump(hand[i], trump):
                out[n] = i
                n += 1
        if n == 0:
            for i in range(hl):
                out[i] = i
            return hl
        if ot_always:
            m = 0
            for i in range(hl):
                c = hand[i]
                if _is_trump(c, trump) and _RANK[c] > high:
                    out[m] = i
                    m += 1
            if m > 0:
                return m
            n = 0
            for i in range(hl):
                if _is_trump(hand[i], trump):
                    out[n] = i
                    n += 1
        return n
    for i in range(hl):
        if _SUIT[hand[i]] == led:
            out[n] = i
            n += 1
    if n > 0:
        return n
    for i in range(hl):
        if _is_trump(hand[i], trump):
            out[n] = i
            n += 1
    if n == 0:
        for i in range(hl):
            out[i] = i
        return hl
    if high > 0:
        m = 0
        for i in range(hl):
            c = hand[i]
            if _is_trump(c, trump) and _RANK[c] > high:
                m += 1
        if m > 0:
            n = 0
            for i in range(hl):
                c = hand[i]
                if _is_trump(c, trump) and _RANK[c] > high:
                    out[n] = i
                    n += 1
    return n


@njit(**_INLINE)
def _beats(c, best, led, trump):
    """True if card ``c`` beats the trick's best card so far (R4.11)."""
    if _is_trump(c, trump):
        return (not _is_trump(best, trump)) or _RANK[c] > _RANK[best]
    return (not _is_trump(best, trump)) and _SUIT[c] == led and _RANK[c] > _RANK[best]


# ---------------------------------------------------------------------------
# the tips policy (ramsli.bots.tips.TipsBot with tracking=False plays the same actions)


@njit(**_LEAF)
def _tips_sure(hand, hl, trump):
    """True if the seat holds a sure trick as it sees from its cards alone (``blind_live_trumps``):
    the highest live trump, which is the big joker if it holds a joker, else the ace of trump."""
    joker = False
    for i in range(hl):
        if _SUIT[hand[i]] == 4:
            joker = True
    want = 16 if joker else 14
    for i in range(hl):
        if _is_trump(hand[i], trump) and _RANK[hand[i]] == want:
            return True
    return False


@njit(**_LEAF)
def _tips_declare(hand, hl, trump, ins_before, var):
    nt = 0
    top = 0
    aces = 0
    kings = 0
    queens = 0
    hi = 0
    for i in range(hl):
        c = hand[i]
        r = _RANK[c]
        if _is_trump(c, trump):
            nt += 1
            if r >= 13:
                top += 1
            if r > hi:
                hi = r
        elif r == 14:
            aces += 1
        elif r == 13:
            kings += 1
        elif r == 12:
            queens += 1
    sure = _tips_sure(hand, hl, trump)
    strong = top + aces >= 2 or nt >= 3
    if (var & VAR_TIGHT) != 0:
        return sure or top + aces >= 2 or (top >= 1 and nt >= 3)
    if sure:
        return True
    if ins_before >= 3 and not strong:
        return False
    path = top >= 1 or aces >= 1 or (nt >= 1 and kings >= 1) or (nt >= 2 and hi >= 11)
    if path:
        return True
    if ins_before == 1 and (kings + queens >= 1 or nt >= 2):
        return True
    return False


@njit(**_LEAF)
def _tips_gr(hand, hl, trump):
    """The tip's shape: five cards, the ace of trump, one more top trump, three side aces or kings."""
    if hl != 5:
        return False
    nt = 0
    top = 0
    side_ak = 0
    trump_ace = False
    for i in range(hl):
        c = hand[i]
        r = _RANK[c]
        if _is_trump(c, trump):
            nt += 1
            if r >= 13:
                top += 1
            if r == 14 and _SUIT[c] != 4:
                trump_ace = True
        elif r >= 13:
            side_ak += 1
    return trump_ace and nt == 2 and top == 2 and side_ak == 3


@njit(**_LEAF)
def _tips_target(hand, hl, trump, max_t):
    est = 0
    for i in range(hl):
        c = hand[i]
        r = _RANK[c]
        if _is_trump(c, trump):
            if r >= 13:
                est += 1
        elif r == 14:
            est += 1
    if est < 2:
        return 0
    return min(est, max_t)


@njit(**_LEAF)
def _tips_play(hand, hl, cur, ncur, trump, trick_no, var, legal, nl):
    """Position in ``hand`` of the card the tips policy plays (one of ``legal[:nl]``)."""
    if ncur == 0:
        nt = 0
        top = 0
        aces = 0
        for i in range(hl):
            c = hand[i]
            if _is_trump(c, trump):
                nt += 1
                if _RANK[c] >= 13:
                    top += 1
            elif _RANK[c] == 14:
                aces += 1
        if (var & VAR_NO_TRUMP_LEAD) == 0 and top >= 1 and (nt >= 3 or (nt >= 2 and top >= 2)):
            best = -1
            for i in range(hl):
                if _is_trump(hand[i], trump) and (best < 0 or _RANK[hand[i]] > _RANK[hand[best]]):
                    best = i
            return best
        if aces >= 1 and (aces >= 2 or (var & VAR_ACE_EARLY) != 0 or trick_no >= 2):
            for i in range(hl):
                if not _is_trump(hand[i], trump) and _RANK[hand[i]] == 14:
                    return i
        # lowest side card (a sole ace is kept back while another side card exists)
        best = -1
        for i in range(hl):
            c = hand[i]
            if _is_trump(c, trump) or (aces == 1 and _RANK[c] == 14):
                continue
            if best < 0 or _RANK[c] < _RANK[hand[best]]:
                best = i
        if best >= 0:
            return best
        if aces == 1 and nt == 0:
            for i in range(hl):
                if _RANK[hand[i]] == 14:
                    return i
        # only trumps (and perhaps the sole ace): the highest trump
        for i in range(hl):
            if _is_trump(hand[i], trump) and (best < 0 or _RANK[hand[i]] > _RANK[hand[best]]):
                best = i
        return best
    led = _SUIT[cur[0]]
    if led == 4:
        led = trump
    bestc = cur[0]
    for j in range(1, ncur):
        if _beats(cur[j], bestc, led, trump):
            bestc = cur[j]
    win = -1
    for k in range(nl):
        i = legal[k]
        if _beats(hand[i], bestc, led, trump) and (win < 0 or _RANK[hand[i]] < _RANK[hand[win]]):
            win = i
    if win >= 0:
        return win
    low = -1
    for k in range(nl):
        i = legal[k]
        c = hand[i]
        if low < 0:
            low = i
            continue
        lt = _is_trump(hand[low], trump)
        ct = _is_trump(c, trump)
        if (ct < lt) or (ct == lt and _RANK[c] < _RANK[hand[low]]):
            low = i
    return low


# ---------------------------------------------------------------------------
# one hand


@njit(**_LEAF)
def _pay(st, pot, payer, payee, owed):
    """One payment, limited by the payer's stack (R5.8, D-6); payer/payee -1 is the pot. Returns the pot."""
    if owed <= 0:
        return pot
    if payer < 0:
        paid = min(owed, pot)
        pot -= paid
    else:
        paid = min(owed, st[payer])
        st[payer] -= paid
    if payee < 0:
        pot += paid
    else:
        st[payee] += paid
    return pot


@njit(**_LEAF)
def _deal(deck, d, cut, order, norder, first_batch, hands, hl):
    """R4.2-R4.4: cut, deal in two batches from the dealer's left, turn up; returns the turn-up."""
    pos = 0
    for b in range(2):
        size = first_batch if b == 0 else 5 - first_batch
        for i in range(norder):
            s = order[i]
            for _ in range(size):
                q = cut + pos
                if q >= d:
                    q -= d
                hands[s, hl[s]] = deck[q]
                hl[s] += 1
                pos += 1
    while True:  # D-9: jokers are turned aside
        q = cut + pos
        if q >= d:
            q -= d
        if _SUIT[deck[q]] != 4:
            return deck[q]
        pos += 1


@njit(**_LEAF)
def _hand(
    n,
    seated,
    dealer,
    st,
    pot,
    hands,
    hl,
    trump,
    u,
    ust,
    prm,
    pol,
    var,
    forced,
    tw,
    tricks,
    decl,
    tgt,
    bete_out,
    scratch,
    reject=False,
):
    """Play and settle one dealt hand; ``st`` holds the stacks before the ante and is updated.

    The random numbers of the decisions are ``u`` (a table) or, when ``u`` is empty, the stream
    after ``ust`` (:func:`_draw`). With ``reject`` True a hand whose policy disagrees with a checked
    forced declaration (``forced_agree`` False: a sample that rejection conditioning discards) stops
    after the declarations: nothing is played or settled, and only ``forced_agree`` is meaningful.

    Returns ``(kind, P, carry_over, general_rams_seat, winners_count, forced_agree)``.
    """
    order = scratch[0]
    active = scratch[1]
    legal = scratch[2]
    cur = scratch[3]
    curs = scratch[4]
    norder = 0
    for k in range(1, n + 1):
        s = (dealer + k) % n
        if seated[s]:
            order[norder] = s
            norder += 1
    for s in range(n):
        tricks[s] = 0
        decl[s] = -1
        tgt[s] = 0
        bete_out[s] = 0
    for t in range(5):
        tw[t] = -1
    ante = prm[P_ANTE]
    for i in range(norder):  # R4.1
        st[order[i]] -= ante
        pot += ante
    kd = 0
    agree = True
    nact = 0
    if prm[P_COMPULSORY]:
        for i in range(norder):
            active[i] = order[i]
            decl[order[i]] = 1
        nact = norder
    else:
        ins = 0
        for i in range(norder):  # R4.5
            s = order[i]
            forced_in = prm[P_DEALER_FORCED] != 0 and s == dealer and ins == 0
            nlg = 1 if forced_in else 2
            if pol[s] == RANDOM:
                choice = int(_draw(u, ust, kd) * nlg)
            else:
                choice = 0 if (forced_in or _tips_declare(hands[s], hl[s], trump, ins, var[s])) else 1
            kd += 1
            if forced[s] >= 0:  # 1/0: forced in/out; 11/10: the same, not checked for agreement
                want = 0 if forced[s] % 10 == 1 else 1
                if forced_in:
                    want = 0
                if want != choice and forced[s] < 10:
                    agree = False
                choice = want
            if choice == 0:
                decl[s] = 1
                active[nact] = s
                nact += 1
                ins += 1
            else:
                decl[s] = 0
    if reject and not agree:
        return KIND_THROWN_IN, pot, pot, -1, 0, agree
    if nact == 0:  # D-10 thrown in
        return KIND_THROWN_IN, pot, pot, -1, 0, agree
    if nact == 1:  # R4.6 walkover
        P = pot
        pot = _pay(st, pot, -1, active[0], pot)
        return KIND_WALKOVER, P, pot, -1, 1, agree
    gr = -1
    if prm[P_GR]:  # R4.7
        for i in range(nact):
            s = active[i]
            if pol[s] == RANDOM:
                yes = int(_draw(u, ust, kd) * 2) == 0
            else:
                yes = _tips_gr(hands[s], hl[s], trump)
            kd += 1
            if yes:
                gr = s
                break
    if prm[P_TARGETS]:  # R4.8
        max_t = 4 if prm[P_GR] else 5
        for i in range(nact):
            s = active[i]
            if s == gr:
                continue
            if pol[s] == RANDOM:
                j = int(_draw(u, ust, kd) * max_t)
                t = 0 if j == 0 else j + 1
            else:
                t = _tips_target(hands[s], hl[s], trump, max_t)
            kd += 1
            tgt[s] = t
    # R4.9-R4.11
    ot = prm[P_OVERTRUMP_ALWAYS] != 0
    lp = 0
    for t in range(5):
        for j in range(nact):
            s = active[(lp + j) % nact]
            h = hands[s]
            nl = _legal(h, hl[s], cur, j, trump, ot, legal)
            if pol[s] == RANDOM:
                pos = legal[int(_draw(u, ust, kd) * nl)]
            else:
                pos = _tips_play(h, hl[s], cur, j, trump, t, var[s], legal, nl)
            kd += 1
            cur[j] = h[pos]
            curs[j] = s
            for q in range(pos, hl[s] - 1):
                h[q] = h[q + 1]
            hl[s] -= 1
        led = _SUIT[cur[0]]
        if led == 4:
            led = trump
        bi = 0
        for j in range(1, nact):
            if _beats(cur[j], cur[bi], led, trump):
                bi = j
        w = curs[bi]
        tw[t] = w
        tricks[w] += 1
        for j in range(nact):
            if active[j] == w:
                lp = j
    # R5 settlement
    P = pot
    best = 0
    for i in range(nact):
        if tricks[active[i]] > best:
            best = tricks[active[i]]
    nwin = 0
    for i in range(nact):
        if tricks[active[i]] == best:
            nwin += 1
    share = P // nwin
    for i in range(nact):  # step 1 (R5.1, R5.2)
        s = active[i]
        if tricks[s] == best:
            pot = _pay(st, pot, -1, s, share)
    bete_amt = P if prm[P_BETE] < 0 else prm[P_BETE]
    made = False
    if gr >= 0:  # step 2 (R5.6, D-15)
        made = tricks[gr] == 5
        if made:
            total = 2 * P
            each = total // (nact - 1)
            rem = total - each * (nact - 1)
            i2 = 0
            for k in range(1, n + 1):
                s = (gr + k) % n
                if s == gr or decl[s] != 1:
                    continue
                pot = _pay(st, pot, s, gr, each + (1 if i2 < rem else 0))
                i2 += 1
    for i in range(nact):  # step 3 betes (R5.3)
        s = active[i]
        if tricks[s] == 0:
            if s == gr and not made:
                continue
            bete_out[s] = 1
            pot = _pay(st, pot, s, -1, bete_amt)
    if gr >= 0 and not made:  # step 4 (R5.6)
        pen = 3 * P if prm[P_GR_TRIPLE_POT] else 3 * bete_amt
        pot = _pay(st, pot, gr, -1, pen)
    if prm[P_TARGETS]:  # step 5 (R5.7)
        for i in range(nact):
            s = active[i]
            t = tgt[s]
            if t == 0:
                continue
            b = t if prm[P_TARGET_T] else t - 1
            if tricks[s] >= t:
                for k in range(1, n + 1):
                    o = (s + k) % n
                    if o == s or decl[o] != 1:
                        continue
                    pot = _pay(st, pot, o, s, b)
            else:
                pot = _pay(st, pot, s, -1, b * (nact - 1))
    return KIND_PLAYED, P, pot, gr, nwin, agree


def new_outputs(count: int, n: int) -> dict[str, np.ndarray]:
    """Output arrays for ``count`` hands of ``n`` seat slots (see :class:`HandBatch`)."""
    return dict(
        tw=np.empty((count, 5), np.int8),
        tricks=np.empty((count, n), np.int8),
        decl=np.empty((count, n), np.int8),
        tgt=np.empty((count, n), np.int8),
        bete=np.empty((count, n), np.int8),
        stacks=np.empty((count, n), np.int64),
        kind=np.empty(count, np.int8),
        P=np.empty(count, np.int64),
        carry=np.empty(count, np.int64),
        gr=np.empty(count, np.int8),
        nwin=np.empty(count, np.int8),
        agree=np.empty(count, np.bool_),
        trump=np.empty(count, np.int8),
        dealer=np.empty(count, np.int8),
    )


@njit(**_LEAF)
def _store(
    i, n, r, ltw, ltr, ldecl, ltgt, lbete, st, tw, tricks, decl, tgt, bete, stacks_out, kind, P, carry, gr, nwin, agree
):
    """Row ``i`` of the outputs from one hand's results (``r`` as :func:`_hand` returns it)."""
    kind[i] = r[0]
    P[i] = r[1]
    carry[i] = r[2]
    gr[i] = r[3]
    nwin[i] = r[4]
    agree[i] = r[5]
    for t in range(5):
        tw[i, t] = ltw[t]
    for s in range(n):
        tricks[i, s] = ltr[s]
        decl[i, s] = ldecl[s]
        tgt[i, s] = ltgt[s]
        bete[i, s] = lbete[s]
        stacks_out[i, s] = st[s]


@njit(**_ENTRY)
def _stream_part(
    lo,
    hi,
    seed,
    start,
    n,
    seated,
    stacks0,
    pot0,
    base,
    prm,
    pol,
    var,
    forced,
    tw,
    tricks,
    decl,
    tgt,
    bete,
    stacks_out,
    kind,
    P,
    carry,
    gr,
    nwin,
    agree,
    trump_out,
    dealer_out,
):
    """Rows ``lo .. hi-1`` of :func:`run_stream` (one thread's share)."""
    d = base.shape[0]
    deck = np.empty(d, np.int64)
    u = np.empty(0, np.float64)  # the decisions' numbers come from the stream, as they are reached
    hands = np.empty((n, 5), np.int64)
    hl = np.empty(n, np.int64)
    st = np.empty(n, np.int64)
    scratch = np.empty((5, 8), np.int64)
    order = np.empty(n, np.int64)
    ltw = np.empty(5, np.int64)
    ltr = np.empty(n, np.int64)
    ldecl = np.empty(n, np.int64)
    ltgt = np.empty(n, np.int64)
    lbete = np.empty(n, np.int64)
    for i in range(lo, hi):
        h = start + i
        cut, ust = _shuffle(seed, h, base, deck)
        dealer = h % n
        while not seated[dealer]:
            dealer = (dealer + 1) % n
        norder = 0
        for k in range(1, n + 1):
            s = (dealer + k) % n
            if seated[s]:
                order[norder] = s
                norder += 1
        for s in range(n):
            hl[s] = 0
            st[s] = stacks0[s]
        tu = _deal(deck, d, cut, order, norder, prm[P_FIRST_BATCH], hands, hl)
        trump = _SUIT[tu]
        r = _hand(
            n,
            seated,
            dealer,
            st,
            pot0,
            hands,
            hl,
            trump,
            u,
            ust,
            prm,
            pol,
            var,
            forced,
            ltw,
            ltr,
            ldecl,
            ltgt,
            lbete,
            scratch,
        )
        _store(
            i,
            n,
            r,
            ltw,
            ltr,
            ldecl,
            ltgt,
            lbete,
            st,
            tw,
            tricks,
            decl,
            tgt,
            bete,
            stacks_out,
            kind,
            P,
            carry,
            gr,
            nwin,
            agree,
        )
        trump_out[i] = trump
        dealer_out[i] = dealer


def run_stream(
    seed,
    start,
    count,
    n,
    seated,
    stacks0,
    pot0,
    base,
    prm,
    pol,
    var,
    forced,
    tw,
    tricks,
    decl,
    tgt,
    bete,
    stacks_out,
    kind,
    P,
    carry,
    gr,
    nwin,
    agree,
    trump_out,
    dealer_out,
    chunks,
):
    """Deal and play hands ``start .. start+count-1`` of ``seed`` (inputs as :func:`make_inputs`).

    The dealer of hand ``h`` is seat ``h % n`` (moved on to the next seated seat if
    needed); every hand starts from ``stacks0`` (n,) and carry-in pot ``pot0``.
    Results go into the output arrays (row i = hand start+i); ``chunks`` is the
    number of work units shared among the threads (:func:`threads`).
    """
    _parallel(
        _stream_part,
        count,
        chunks,
        (
            seed,
            start,
            n,
            seated,
            stacks0,
            pot0,
            base,
            prm,
            pol,
            var,
            forced,
            tw,
            tricks,
            decl,
            tgt,
            bete,
            stacks_out,
            kind,
            P,
            carry,
            gr,
            nwin,
            agree,
            trump_out,
            dealer_out,
        ),
    )


@njit(**_ENTRY)
def _table_part(
    lo,
    hi,
    decks,
    cuts,
    u,
    dealers,
    seated,
    stacks0,
    pots0,
    prm,
    pol,
    var,
    forced,
    tw,
    tricks,
    decl,
    tgt,
    bete,
    stacks_out,
    kind,
    P,
    carry,
    gr,
    nwin,
    agree,
    trump_out,
):
    """Rows ``lo .. hi-1`` of :func:`run_table`."""
    d = decks.shape[1]
    n = stacks0.shape[1]
    hands = np.empty((n, 5), np.int64)
    hl = np.empty(n, np.int64)
    st = np.empty(n, np.int64)
    scratch = np.empty((5, 8), np.int64)
    order = np.empty(n, np.int64)
    ltw = np.empty(5, np.int64)
    ltr = np.empty(n, np.int64)
    ldecl = np.empty(n, np.int64)
    ltgt = np.empty(n, np.int64)
    lbete = np.empty(n, np.int64)
    for i in range(lo, hi):
        dealer = dealers[i]
        norder = 0
        for k in range(1, n + 1):
            s = (dealer + k) % n
            if seated[i, s]:
                order[norder] = s
                norder += 1
        for s in range(n):
            hl[s] = 0
            st[s] = stacks0[i, s]
        tu = _deal(decks[i], d, cuts[i], order, norder, prm[P_FIRST_BATCH], hands, hl)
        trump = _SUIT[tu]
        r = _hand(
            n,
            seated[i],
            dealer,
            st,
            pots0[i],
            hands,
            hl,
            trump,
            u[i],
            np.uint64(0),
            prm,
            pol,
            var,
            forced,
            ltw,
            ltr,
            ldecl,
            ltgt,
            lbete,
            scratch,
        )
        _store(
            i,
            n,
            r,
            ltw,
            ltr,
            ldecl,
            ltgt,
            lbete,
            st,
            tw,
            tricks,
            decl,
            tgt,
            bete,
            stacks_out,
            kind,
            P,
            carry,
            gr,
            nwin,
            agree,
        )
        trump_out[i] = trump


def run_table(
    decks,
    cuts,
    u,
    dealers,
    seated,
    stacks0,
    pots0,
    prm,
    pol,
    var,
    forced,
    tw,
    tricks,
    decl,
    tgt,
    bete,
    stacks_out,
    kind,
    P,
    carry,
    gr,
    nwin,
    agree,
    trump_out,
    chunks,
):
    """Play hands from given inputs: ``decks`` (B, D), ``cuts`` (B,), ``u`` (B, N_DECISIONS),
    ``dealers`` (B,), ``seated`` (B, n) bool, ``stacks0`` (B, n) before the ante, ``pots0`` (B,) carry-in."""
    _parallel(
        _table_part,
        decks.shape[0],
        chunks,
        (
            decks,
            cuts,
            u,
            dealers,
            seated,
            stacks0,
            pots0,
            prm,
            pol,
            var,
            forced,
            tw,
            tricks,
            decl,
            tgt,
            bete,
            stacks_out,
            kind,
            P,
            carry,
            gr,
            nwin,
            agree,
            trump_out,
        ),
    )


@njit(**_ENTRY)
def _dealt_part(
    lo,
    hi,
    hands_in,
    trumps,
    u,
    dealer,
    stacks0,
    pot0,
    prm,
    pol,
    var,
    forced,
    tw,
    tricks,
    decl,
    tgt,
    bete,
    stacks_out,
    kind,
    P,
    carry,
    gr,
    nwin,
    agree,
):
    """Rows ``lo .. hi-1`` of :func:`run_dealt`."""
    n = hands_in.shape[1]
    seated = np.ones(n, np.bool_)
    hands = np.empty((n, 5), np.int64)
    hl = np.empty(n, np.int64)
    st = np.empty(n, np.int64)
    scratch = np.empty((5, 8), np.int64)
    ltw = np.empty(5, np.int64)
    ltr = np.empty(n, np.int64)
    ldecl = np.empty(n, np.int64)
    ltgt = np.empty(n, np.int64)
    lbete = np.empty(n, np.int64)
    for i in range(lo, hi):
        for s in range(n):
            hl[s] = 5
            st[s] = stacks0[s]
            for q in range(5):
                hands[s, q] = hands_in[i, s, q]
        r = _hand(
            n,
            seated,
            dealer,
            st,
            pot0,
            hands,
            hl,
            trumps[i],
            u[i],
            np.uint64(0),
            prm,
            pol,
            var,
            forced,
            ltw,
            ltr,
            ldecl,
            ltgt,
            lbete,
            scratch,
        )
        _store(
            i,
            n,
            r,
            ltw,
            ltr,
            ldecl,
            ltgt,
            lbete,
            st,
            tw,
            tricks,
            decl,
            tgt,
            bete,
            stacks_out,
            kind,
            P,
            carry,
            gr,
            nwin,
            agree,
        )


def run_dealt(
    hands_in,
    trumps,
    u,
    dealer,
    stacks0,
    pot0,
    prm,
    pol,
    var,
    forced,
    tw,
    tricks,
    decl,
    tgt,
    bete,
    stacks_out,
    kind,
    P,
    carry,
    gr,
    nwin,
    agree,
    chunks,
):
    """Play hands from dealt cards ``hands_in`` (B, n, 5) and trump suits ``trumps`` (B,), all seated."""
    _parallel(
        _dealt_part,
        hands_in.shape[0],
        chunks,
        (
            hands_in,
            trumps,
            u,
            dealer,
            stacks0,
            pot0,
            prm,
            pol,
            var,
            forced,
            tw,
            tricks,
            decl,
            tgt,
            bete,
            stacks_out,
            kind,
            P,
            carry,
            gr,
            nwin,
            agree,
        ),
    )


@njit(**_ENTRY)
def _odds_part(
    lo,
    hi,
    seed,
    start,
    n,
    me,
    mine,
    turn_up,
    unknown,
    dealer,
    stacks0,
    pot0,
    prm,
    pol,
    var,
    forced,
    out_delta,
    out_tricks,
    out_best,
    out_agree,
):
    """Samples ``lo .. hi-1`` of :func:`run_odds`."""
    trump = _SUIT[turn_up]
    nu = unknown.shape[0]
    seated = np.ones(n, np.bool_)
    dealt = np.empty((n, 5), np.int64)
    hands = np.empty((n, 5), np.int64)
    hl = np.empty(n, np.int64)
    st = np.empty(n, np.int64)
    scratch = np.empty((5, 8), np.int64)
    pool = np.empty(nu, np.int64)
    u = np.empty(0, np.float64)
    f = np.empty(n, np.int64)
    tw = np.empty(5, np.int64)
    tricks = np.empty(n, np.int64)
    decl = np.empty(n, np.int64)
    tgt = np.empty(n, np.int64)
    bete = np.empty(n, np.int64)
    for i in range(lo, hi):
        stt = _start(seed, start + i)
        for q in range(nu):
            pool[q] = unknown[q]
        need = 5 * (n - 1)
        for q in range(need):  # partial Fisher-Yates
            stt, x = _uniform(stt)
            j = q + int(x * (nu - q))
            t = pool[q]
            pool[q] = pool[j]
            pool[j] = t
        p = 0
        for s in range(n):
            for q in range(5):
                if s == me:
                    dealt[s, q] = mine[q]
                else:
                    dealt[s, q] = pool[p]
                    p += 1
        for k in range(2):
            for s in range(n):
                hl[s] = 5
                st[s] = stacks0[s]
                f[s] = forced[s]
                for q in range(5):
                    hands[s, q] = dealt[s, q]
            f[me] = 11 if k == 0 else 10
            r = _hand(
                n,
                seated,
                dealer,
                st,
                pot0,
                hands,
                hl,
                trump,
                u,
                stt,
                prm,
                pol,
                var,
                f,
                tw,
                tricks,
                decl,
                tgt,
                bete,
                scratch,
                True,
            )
            if not r[5]:  # rejected: the "out" play is not needed either
                out_delta[i, 0] = 0
                out_delta[i, 1] = 0
                out_tricks[i] = 0
                out_best[i] = 0
                out_agree[i] = False
                break
            out_delta[i, k] = st[me] - stacks0[me]
            if k == 0:
                out_tricks[i] = tricks[me]
                won = 0
                if r[0] == KIND_WALKOVER:
                    won = 1
                elif r[0] == KIND_PLAYED:
                    best = 0
                    for s in range(n):
                        if decl[s] == 1 and tricks[s] > best:
                            best = tricks[s]
                    won = 1 if tricks[me] == best else 0
                out_best[i] = won
                out_agree[i] = r[5]  # the others' forced declarations only (mine is unchecked)


def run_odds(
    seed,
    start,
    count,
    n,
    me,
    mine,
    turn_up,
    unknown,
    dealer,
    stacks0,
    pot0,
    prm,
    pol,
    var,
    forced,
    out_delta,
    out_tricks,
    out_best,
    out_agree,
    chunks,
):
    """Odds sampling (``ramsli odds``): deal the ``unknown`` cards at random to the other seats, then
    play every sample twice with the same decision table — seat ``me`` forced ``in`` (row 0) and
    forced ``out`` (row 1).

    Args:
        me: my seat index; mine (5,): my cards; turn_up: the turn-up card index;
        unknown: the card indices nobody has seen (deck minus my cards minus the turn-up);
        forced (n,): declarations forced on other seats (1 in, 0 out, -1 free); my entry is ignored.

    Writes per sample: ``out_delta[i, k]`` my stack after settlement minus my stack before the
    ante, for k = 0 (in) and 1 (out); ``out_tricks[i]`` my tricks when in; ``out_best[i]``
    1 if I took a share of the pot when in; ``out_agree[i]`` True if the opponents' policy would
    itself have made the forced declarations (rejection sampling uses it).
    """
    _parallel(
        _odds_part,
        count,
        chunks,
        (
            seed,
            start,
            n,
            me,
            mine,
            turn_up,
            unknown,
            dealer,
            stacks0,
            pot0,
            prm,
            pol,
            var,
            forced,
            out_delta,
            out_tricks,
            out_best,
            out_agree,
        ),
    )


# ---------------------------------------------------------------------------
# threads

#: fewest rows a work unit gets (smaller batches run in the calling thread)
MIN_UNIT = 256
_threads = [max(1, int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count() or 1))]
_pools: dict[int, ThreadPoolExecutor] = {}
_pool_lock = threading.Lock()


def threads() -> int:
    """The worker threads the kernel's entry points use (default ``NUMBA_NUM_THREADS``, else the
    number of CPUs)."""
    return _threads[0]


def set_threads(k: int) -> None:
    """Use ``k`` worker threads (>= 1) from now on in this process.

    Raises:
        ValueError: for ``k < 1``.
    """
    if k < 1:
        raise ValueError(f"threads must be >= 1, got {k}")
    _threads[0] = int(k)


def _pool(k: int) -> ThreadPoolExecutor:
    with _pool_lock:
        pool = _pools.get(k)
        if pool is None:
            pool = _pools[k] = ThreadPoolExecutor(max_workers=k, thread_name_prefix="ramsli-kernel")
        return pool


def _parallel(part: Callable[..., None], count: int, units: int, args: Sequence[Any]) -> None:
    """Run ``part(lo, hi, *args)`` over rows ``0 .. count-1``, cut into about ``units`` contiguous
    ranges that :func:`threads` threads take in turn (the entry points release the GIL). Each
    row's result depends on its row only, so the results are the same for any cut."""
    k = threads()
    units = max(1, min(int(units), count // MIN_UNIT))
    if k <= 1 or units <= 1:
        part(0, count, *args)
        return
    units = max(units, k)
    per = -(-count // units)
    futures = [_pool(k).submit(part, lo, min(count, lo + per), *args) for lo in range(0, count, per)]
    for f in futures:
        f.result()


# ---------------------------------------------------------------------------
# Python-facing helpers


class HandBatch:
    """Results of a batch of hands (arrays; row i = hand i).

    Attributes:
        tw (B, 5) int8: trick winners (seat), -1 for tricks not played;
        tricks (B, n) int8: tricks per seat; decl (B, n) int8: 1 in, 0 out, -1 not seated;
        tgt (B, n) int8: target announced (0 none, R4.8); bete (B, n) int8: 1 if the seat was bete
        (R5.3); stacks (B, n) int64: stacks after settlement (counters); kind (B,) int8:
        0 played, 1 walkover, 2 thrown in; P (B,): the pot at the end of play; carry (B,): the
        carry-over (R5.4); gr (B,): General Rams announcer or -1; nwin (B,): number of seats
        sharing the pot; agree (B,): the policy agreed with forced declarations; trump (B,):
        trump suit 0..3 (S H D C); dealer (B,): the dealer's seat; stacks0: the stacks before
        the ante; pot0: the carry-in pot.
    """

    tw: np.ndarray
    tricks: np.ndarray
    decl: np.ndarray
    tgt: np.ndarray
    bete: np.ndarray
    stacks: np.ndarray
    kind: np.ndarray
    P: np.ndarray
    carry: np.ndarray
    gr: np.ndarray
    nwin: np.ndarray
    agree: np.ndarray
    trump: np.ndarray
    dealer: np.ndarray
    stacks0: np.ndarray
    pot0: np.ndarray | int

    def __init__(self, arrays: dict[str, np.ndarray], stacks0: np.ndarray, pot0: np.ndarray | int) -> None:
        for name, value in arrays.items():  # the arrays of new_outputs(), one per annotated attribute
            setattr(self, name, value)
        self.stacks0 = stacks0
        self.pot0 = pot0

    def __len__(self) -> int:
        return len(self.kind)


def _chunks(count: int) -> int:
    """Work units for a batch of ``count`` rows: a few per thread, so that a slow thread is caught up."""
    return max(1, min(count, threads() * 4))


def _policy_arrays(n: int, policy, variant) -> tuple[np.ndarray, np.ndarray]:
    pol = np.full(n, policy, np.int64) if np.isscalar(policy) else np.ascontiguousarray(policy, np.int64)
    var = np.full(n, variant, np.int64) if np.isscalar(variant) else np.ascontiguousarray(variant, np.int64)
    if pol.shape != (n,) or var.shape != (n,):
        raise ValueError(f"policy and variant need one entry per seat ({n})")
    return pol, var


def _batch_args(
    rules: Rules, n: int, count: int, seed: int, start: int, policy, variant, stacks, pot: int, seated, forced
):
    """The arguments of :func:`_stream_part` after ``lo, hi`` for :func:`play_batch`, its outputs and
    the stacks before the ante (the checks and errors of :func:`play_batch`)."""
    check_setup(rules, n)
    if seed < 0:
        raise ValueError("the seed must be >= 0")
    check_counters(rules, pot, pot_option="pot")
    if stacks is not None and any(int(x) > MAX_COUNTERS for x in stacks):
        raise ValueError(f"stacks {list(stacks)}: allowed are at most {MAX_COUNTERS} counters each (R3.3)")
    st0 = np.full(n, rules.starting_stack, np.int64) if stacks is None else np.ascontiguousarray(stacks, np.int64)
    seat_mask = np.ones(n, np.bool_) if seated is None else np.ascontiguousarray(seated, np.bool_)
    if stacks is not None or seated is not None:  # the engine's check of a table of given stacks (R3.5)
        in_hand = [s for s in range(n) if seat_mask[s]]
        check_table(rules, [int(x) for x in st0], in_hand[0] if in_hand else 0, in_hand, pot)
    f = np.full(n, -1, np.int64) if forced is None else np.ascontiguousarray(forced, np.int64)
    pol, var = _policy_arrays(n, policy, variant)
    out = new_outputs(count, n)
    args = (
        int(seed),
        int(start),
        int(n),
        seat_mask,
        st0,
        int(pot),
        base_deck(rules),
        pack_rules(rules),
        pol,
        var,
        f,
        out["tw"],
        out["tricks"],
        out["decl"],
        out["tgt"],
        out["bete"],
        out["stacks"],
        out["kind"],
        out["P"],
        out["carry"],
        out["gr"],
        out["nwin"],
        out["agree"],
        out["trump"],
        out["dealer"],
    )
    return args, out, st0


def play_batch(
    rules: Rules,
    n: int,
    count: int,
    seed: int = 0,
    start: int = 0,
    policy=RANDOM,
    variant=0,
    stacks=None,
    pot: int = 0,
    seated=None,
    forced=None,
) -> HandBatch:
    """Deal and play ``count`` hands of ``n`` seats with the kernel (R4, R5).

    Args:
        rules: the rules in force (``end``, ``bust``, ``starting_stack`` are not used here).
        n: seat slots 2..6; seed, start: hand ``h`` is hand number ``start + i`` of ``seed`` (≥ 0).
        policy: ``RANDOM`` or ``TIPS``, for all seats or one per seat; variant: tips variant bits.
        stacks: stacks before the ante (default ``starting_stack`` each); pot: carry-in pot.
        seated: bool per seat (default all); forced: per seat 1 in / 0 out / -1 policy (default -1).

    Returns:
        a :class:`HandBatch`; the dealer of hand h is seat ``h % n``.

    Raises:
        TableError: (a ``ValueError``) from the engine's set-up checks: not 2..6 seats, a
            ``players`` option that does not match them (R2.1), an ante above the starting stack
            (R3.5, :func:`ramsli.session.check_setup`), or with ``stacks`` given a seated stack
            below the ante (R3.5, :func:`ramsli.hand.check_table`).
        ValueError: for a negative seed, or counters (stacks, ante, bete, pot) above
            ``ramsli.lab.limits.MAX_COUNTERS`` (the kernel's 64-bit integers).
    """
    args, out, st0 = _batch_args(rules, n, count, seed, start, policy, variant, stacks, pot, seated, forced)
    _parallel(_stream_part, count, _chunks(count), args)
    return HandBatch(out, st0, pot)


def play_table(rules: Rules, decks, cuts, u, dealers, stacks, pots, seated=None, policy=RANDOM, variant=0) -> HandBatch:
    """Play hands from explicit inputs (see :func:`run_table`); ``stacks`` (B, n) before the ante."""
    stacks = np.asarray(stacks, np.int64)
    count, n = stacks.shape
    seat_mask = np.ones((count, n), np.bool_) if seated is None else np.asarray(seated, np.bool_)
    pol, var = _policy_arrays(n, policy, variant)
    out = new_outputs(count, n)
    run_table(
        np.asarray(decks, np.int64),
        np.asarray(cuts, np.int64),
        np.asarray(u, np.float64),
        np.asarray(dealers, np.int64),
        seat_mask,
        stacks,
        np.asarray(pots, np.int64),
        pack_rules(rules),
        pol,
        var,
        np.full(n, -1, np.int64),
        out["tw"],
        out["tricks"],
        out["decl"],
        out["tgt"],
        out["bete"],
        out["stacks"],
        out["kind"],
        out["P"],
        out["carry"],
        out["gr"],
        out["nwin"],
        out["agree"],
        out["trump"],
        _chunks(count),
    )
    out["dealer"] = np.asarray(dealers, np.int8)
    return HandBatch(out, stacks, np.asarray(pots))


# ---------------------------------------------------------------------------
# whole sessions (R3)

#: end reasons of run_sessions: integer codes for Numba; END_NAMES[code] is the engine's
#: EndReason (R3.5, R3.6), or "cap" for the lab's own limit on hands per session
END_BUST, END_PLAYERS, END_WIN_AT, END_HANDS, END_CAP = 0, 1, 2, 3, 4
END_NAMES: tuple[str, ...] = (EndReason.BUST, EndReason.PLAYERS, EndReason.WIN_AT, EndReason.HANDS, "cap")
POT_BINS = 64


@njit(**_ENTRY)
def _sessions_part(
    lo,
    hi,
    seed,
    start,
    n,
    starting_stack,
    bust_leave,
    max_hands,
    win_at,
    cap,
    base,
    prm,
    pol,
    var,
    n_hands,
    end_reason,
    final_stacks,
    final_pot,
    pos_seated,
    pos_in,
    pos_bete,
    seat_delta,
    n_split,
    n_carry,
    n_walkover,
    n_thrown,
    pot_hist,
):
    """Sessions ``lo .. hi-1`` of :func:`run_sessions` (one thread's share)."""
    d = base.shape[0]
    deck = np.empty(d, np.int64)
    u = np.empty(0, np.float64)
    hands = np.empty((n, 5), np.int64)
    hl = np.empty(n, np.int64)
    st = np.empty(n, np.int64)
    scratch = np.empty((5, 8), np.int64)
    order = np.empty(n, np.int64)
    seated = np.empty(n, np.bool_)
    f = np.full(n, -1, np.int64)
    tw = np.empty(5, np.int64)
    tricks = np.empty(n, np.int64)
    decl = np.empty(n, np.int64)
    tgt = np.empty(n, np.int64)
    bete = np.empty(n, np.int64)
    floor = max(prm[P_ANTE], 1)
    for k in range(lo, hi):
        sid = start + k
        for s in range(n):
            st[s] = starting_stack
            seated[s] = True
            pos_seated[k, s] = 0
            pos_in[k, s] = 0
            pos_bete[k, s] = 0
        for b in range(POT_BINS):
            pot_hist[k, b] = 0
        n_split[k] = 0
        n_carry[k] = 0
        n_walkover[k] = 0
        n_thrown[k] = 0
        stt = _start(seed, sid * 1048576 + 1048575)
        stt, x = _uniform(stt)
        dealer = int(x * n)
        pot = 0
        h = 0
        reason = END_CAP
        while h < cap:
            cut, ust = _shuffle(seed, sid * 1048576 + h, base, deck)
            norder = 0
            for q in range(1, n + 1):
                s = (dealer + q) % n
                if seated[s]:
                    order[norder] = s
                    norder += 1
            for s in range(n):
                hl[s] = 0
            _ = _deal(deck, d, cut, order, norder, prm[P_FIRST_BATCH], hands, hl)
            trump = _SUIT[_]
            r = _hand(
                n,
                seated,
                dealer,
                st,
                pot,
                hands,
                hl,
                trump,
                u,
                ust,
                prm,
                pol,
                var,
                f,
                tw,
                tricks,
                decl,
                tgt,
                bete,
                scratch,
            )
            pot = r[2]
            h += 1
            for i in range(norder):
                s = order[i]
                pos_seated[k, i] += 1
                if decl[s] == 1:
                    pos_in[k, i] += 1
                if bete[s] == 1:
                    pos_bete[k, i] += 1
            if r[0] == KIND_PLAYED:
                pot_hist[k, min(r[1], POT_BINS - 1)] += 1
                if r[4] > 1:
                    n_split[k] += 1
            elif r[0] == KIND_WALKOVER:
                n_walkover[k] += 1
            else:
                n_thrown[k] += 1
            if pot > 0:
                n_carry[k] += 1
            # R3.6 ends, then R3.5 bust
            if win_at > 0:
                top = 0
                for s in range(n):
                    if st[s] > top:
                        top = st[s]
                if top >= win_at:
                    reason = END_WIN_AT
                    break
            if max_hands > 0 and h >= max_hands:
                reason = END_HANDS
                break
            nb = 0
            for s in range(n):
                if seated[s] and st[s] < floor:
                    nb += 1
            if nb > 0:
                if bust_leave == 0:
                    reason = END_BUST
                    break
                left = 0
                for s in range(n):
                    if seated[s] and st[s] < floor:
                        seated[s] = False
                    if seated[s]:
                        left += 1
                if left < 2:
                    reason = END_PLAYERS
                    break
            # R3.2 the deal passes to the left (next seated seat)
            for q in range(1, n + 1):
                s = (dealer + q) % n
                if seated[s]:
                    dealer = s
                    break
        n_hands[k] = h
        end_reason[k] = reason
        final_pot[k] = pot
        for s in range(n):
            final_stacks[k, s] = st[s]
            seat_delta[k, s] = st[s] - starting_stack


def run_sessions(
    seed,
    start,
    count,
    n,
    starting_stack,
    bust_leave,
    max_hands,
    win_at,
    cap,
    base,
    prm,
    pol,
    var,
    n_hands,
    end_reason,
    final_stacks,
    final_pot,
    pos_seated,
    pos_in,
    pos_bete,
    seat_delta,
    n_split,
    n_carry,
    n_walkover,
    n_thrown,
    pot_hist,
    chunks,
):
    """Play ``count`` whole sessions (R3) of ``n`` seats with the kernel.

    Session ``k`` uses hand numbers ``(start + k) * 2**20 + j`` of ``seed``; its first dealer is a
    uniformly random seat (what the high-card cut of R3.1 gives). Ends: bust (R3.5, ``bust_leave``
    0 = end, 1 = leave), ``max_hands`` (R3.6 ``hands:N``, 0 = none), ``win_at`` (``win-at:N``,
    0 = none) and a safety ``cap`` on hands (reason ``cap``).

    Per session it writes: hands played, end reason (``END_NAMES``), final stacks and pot, and
    per position from the dealer's left (index 0 = dealer's left, n-1 = dealer) the hands seated,
    declared in and bete; per seat the counters won or lost over the session; hands whose pot was
    split (R5.2), carried over (R5.4), walkovers (R4.6), thrown in (D-10); a histogram of the pot
    P of played hands (bin = min(P, POT_BINS-1)).
    """
    _parallel(
        _sessions_part,
        count,
        chunks,
        (
            seed,
            start,
            n,
            starting_stack,
            bust_leave,
            max_hands,
            win_at,
            cap,
            base,
            prm,
            pol,
            var,
            n_hands,
            end_reason,
            final_stacks,
            final_pot,
            pos_seated,
            pos_in,
            pos_bete,
            seat_delta,
            n_split,
            n_carry,
            n_walkover,
            n_thrown,
            pot_hist,
        ),
    )


def _sessions_args(rules: Rules, n: int, count: int, seed: int, start: int, policy, variant, cap: int):
    """The arguments of :func:`_sessions_part` after ``lo, hi`` for :func:`play_sessions`, and its
    outputs (the checks and errors of :func:`play_sessions`)."""
    check_setup(rules, n)
    if seed < 0:
        raise ValueError("the seed must be >= 0")
    check_counters(rules)
    pol, var = _policy_arrays(n, policy, variant)
    out = dict(
        n_hands=np.empty(count, np.int64),
        end_reason=np.empty(count, np.int64),
        final_stacks=np.empty((count, n), np.int64),
        final_pot=np.empty(count, np.int64),
        pos_seated=np.empty((count, n), np.int64),
        pos_in=np.empty((count, n), np.int64),
        pos_bete=np.empty((count, n), np.int64),
        seat_delta=np.empty((count, n), np.int64),
        n_split=np.empty(count, np.int64),
        n_carry=np.empty(count, np.int64),
        n_walkover=np.empty(count, np.int64),
        n_thrown=np.empty(count, np.int64),
        pot_hist=np.empty((count, POT_BINS), np.int64),
    )
    args = (
        int(seed),
        int(start),
        int(n),
        int(rules.starting_stack),
        int(rules.bust == "leave"),
        min(rules.end_value("hands") or 0, 1 << 62),
        min(rules.end_value("win-at") or 0, 1 << 62),
        int(cap),
        base_deck(rules),
        pack_rules(rules),
        pol,
        var,
        out["n_hands"],
        out["end_reason"],
        out["final_stacks"],
        out["final_pot"],
        out["pos_seated"],
        out["pos_in"],
        out["pos_bete"],
        out["seat_delta"],
        out["n_split"],
        out["n_carry"],
        out["n_walkover"],
        out["n_thrown"],
        out["pot_hist"],
    )
    return args, out


def play_sessions(
    rules: Rules, n: int, count: int, seed: int = 0, start: int = 0, policy=RANDOM, variant=0, cap: int = 10000
) -> dict[str, np.ndarray]:
    """Play ``count`` whole sessions with the kernel (see :func:`run_sessions`); returns its arrays.

    ``time:M`` ends (R3.6) are not simulated; ``cap`` bounds every session (hands).

    Raises:
        TableError: (a ``ValueError``) from :func:`ramsli.session.check_setup`: not 2..6 seats, a
            ``players`` option that does not match them (R2.1), an ante above the starting stack (R3.5).
        ValueError: for a negative seed, or counters above ``ramsli.lab.limits.MAX_COUNTERS``.
    """
    args, out = _sessions_args(rules, n, count, seed, start, policy, variant, cap)
    _parallel(_sessions_part, count, _chunks(count), args)
    return out


__all__ += ["run_sessions", "play_sessions", "END_NAMES", "POT_BINS"]


@njit(**_JIT)
def session_first_dealer(seed, sid, n):
    """The first dealer of kernel session ``sid`` of ``seed`` (as :func:`run_sessions` draws it)."""
    stt = _start(seed, sid * 1048576 + 1048575)
    stt, x = _uniform(stt)
    return int(x * n)


# ---------------------------------------------------------------------------
# odds samples (ramsli odds, the hint)


def _odds_args(
    rules: Rules,
    seed: int,
    start: int,
    count: int,
    n: int,
    me: int,
    mine,
    turn_up: int,
    unknown,
    dealer: int,
    stacks,
    pot: int,
    pol,
    var,
    forced,
):
    """The arguments of :func:`_odds_part` after ``lo, hi`` for :func:`odds_samples`, and its outputs."""
    outs = (
        np.empty((count, 2), np.int64),
        np.empty(count, np.int64),
        np.empty(count, np.int64),
        np.empty(count, np.bool_),
    )
    args = (
        int(seed),
        int(start),
        int(n),
        int(me),
        np.ascontiguousarray(mine, np.int64),
        int(turn_up),
        np.ascontiguousarray(unknown, np.int64),
        int(dealer),
        np.ascontiguousarray(stacks, np.int64),
        int(pot),
        pack_rules(rules),
        np.ascontiguousarray(pol, np.int64),
        np.ascontiguousarray(var, np.int64),
        np.ascontiguousarray(forced, np.int64),
    ) + outs
    return args, outs


def odds_samples(
    rules: Rules,
    seed: int,
    start: int,
    count: int,
    n: int,
    me: int,
    mine,
    turn_up: int,
    unknown,
    dealer: int,
    stacks,
    pot: int,
    pol,
    var,
    forced,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Samples ``start .. start+count-1`` of ``seed`` of :func:`run_odds` (arguments as there, ``stacks``
    before the ante, ``pot`` the carry-in pot, ``rules`` packed by :func:`pack_rules`).

    Returns:
        ``(deltas (count, 2), tricks (count,), best (count,), agree (count,))`` as :func:`run_odds`
        writes them.
    """
    args, outs = _odds_args(
        rules, seed, start, count, n, me, mine, turn_up, unknown, dealer, stacks, pot, pol, var, forced
    )
    _parallel(_odds_part, count, _chunks(count), args)
    return outs


__all__ += ["odds_samples", "threads", "set_threads"]


# ---------------------------------------------------------------------------
# one-time compile (Numba): the entry point behind each kind of work, whether it is ready

#: the kinds of work, each with its own entry point: ``batch`` (:func:`play_batch`), ``sessions``
#: (:func:`play_sessions`), ``odds`` (:func:`odds_samples`)
KINDS = ("batch", "sessions", "odds")
_warm: set[str] = set()

COMPILE_NOTE = "compiling the simulation kernel, once (later runs load it from the cache)…"


def _warm_call(kind: str) -> tuple[Any, tuple]:
    """The entry point of ``kind`` and the arguments of a tiny call of it, typed as every real call is."""
    rules = Rules()
    if kind == "batch":
        args, _out, _st0 = _batch_args(rules, 2, 2, 0, 0, RANDOM, 0, None, 0, None, None)
        return _stream_part, (0, 2) + args
    if kind == "sessions":
        args, _o = _sessions_args(rules, 2, 1, 0, 0, RANDOM, 0, 3)
        return _sessions_part, (0, 1) + args
    if kind == "odds":
        deck = base_deck(rules)
        args, _outs = _odds_args(
            rules,
            0,
            0,
            2,
            2,
            0,
            deck[:5],
            int(deck[5]),
            np.sort(deck[6:]),
            1,
            np.full(2, rules.starting_stack),
            0,
            np.full(2, TIPS),
            np.zeros(2),
            np.full(2, -1),
        )
        return _odds_part, (0, 2) + args
    raise KeyError(kind)


def _signature(disp: Any, args: tuple) -> tuple:
    return tuple(disp.typeof_pyval(a) for a in args)


def is_compiled(kind: str) -> bool:
    """Whether the entry point of ``kind`` is compiled (or loaded) in this process.

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
    """
    disp, args = _warm_call(kind)
    return kind in _warm or _signature(disp, args) in disp.overloads


def is_cached(kind: str) -> bool:
    """Whether Numba's cache folder (:mod:`ramsli.lab.jitcache`) holds the compiled entry point of
    ``kind`` for this machine, this source and this Numba: loading it takes well under a second.
    A missing, stale or unreadable index counts as not cached.

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
    """
    disp, args = _warm_call(kind)
    try:
        cache = disp._cache
        key = cache._index_key(_signature(disp, args), disp.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - no cache, or Numba's private cache API changed: not cached
        return False


def cache_is_cold(kind: str) -> bool:
    """Whether the entry point of ``kind`` must be compiled before its first call in this process:
    neither compiled here (:func:`is_compiled`) nor in the cache (:func:`is_cached`).

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
    """
    return not (is_compiled(kind) or is_cached(kind))


def warm_up(kind: str, note: Callable[[str], None] | None = None) -> float:
    """Compile (or load from the cache) the entry point of ``kind`` by a tiny call, once per process,
    so that later timings (hands/s, ``--time``) exclude it. A compile holds the cache folder's
    compile lock (:func:`ramsli.lab.jitcache.compile_lock`): while another process compiles, this one
    waits and then loads what that one wrote.

    Args:
        kind: ``"batch"`` (:func:`play_batch`), ``"sessions"`` (:func:`play_sessions`) or ``"odds"``
            (:func:`odds_samples`, :func:`run_odds`).
        note: called with :data:`COMPILE_NOTE` when the cache is cold (:func:`cache_is_cold`).

    Returns:
        the seconds spent (0.0 if already warm in this process).

    Raises:
        KeyError: for another ``kind``.
    """
    if kind in _warm:
        return 0.0
    disp, args = _warm_call(kind)
    t0 = time.perf_counter()
    if not cache_is_cold(kind):
        disp(*args)
    else:
        if note is not None:
            note(COMPILE_NOTE)
        with jitcache.compile_lock():
            disp(*args)
    _warm.add(kind)
    return time.perf_counter() - t0


__all__ += ["KINDS", "is_compiled", "is_cached", "cache_is_cold", "warm_up", "COMPILE_NOTE"]
