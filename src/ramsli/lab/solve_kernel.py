"""Numba entry points of the declaration solver: payoff tables, CFR updates, best responses.

The declaration stage of one hand (R4.5) is a small game tree per deal: the seats
declare in order from the dealer's left (position 0) to the dealer (position
``n - 1``); a *node* is ``(depth d, history h)`` where ``h`` holds the
declarations of positions ``0 .. d-1`` as bits (bit ``j`` set = position ``j``
declared ``in``), numbered ``2**d - 1 + h`` (``2**n - 1`` nodes); a *leaf* is a
full declaration mask ``0 .. 2**n - 1``.

- :func:`deal_tables` deals hands exactly as :func:`ramsli.lab.kernel.run_stream`
  (hand ``h`` of a seed, dealer ``h % n``) and plays every deal once per
  declaration mask with the declarations forced and the cards played by the
  kernel's ``tips`` play policy (General Rams and targets too, R4.7/R4.8). It
  writes the counters each position wins or loses per mask (stack after
  settlement minus stack before the ante), each position's hand bucket
  (:func:`bucket_of`), and the tips policy's declaration for every count of
  ``in`` before (so that tips can be measured as a policy table).
- :func:`cfr_batch` is one iteration of chance-sampled CFR (regret matching+,
  linear averaging) over a batch of such deals.
- :func:`br_values` / :func:`eval_gain` compute a best response of one position
  against a policy, and its gain on other deals.

The kernel's own functions are called, not changed.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ramsli.lab.kernel import (
    _RANK,
    _SUIT,
    N_DECISIONS,
    P_FIRST_BATCH,
    TIPS,
    _deal,
    _hand,
    _shuffle,
    _start,
    _tips_declare,
    _uniform,
)

__all__ = [
    "N_FEATURES",
    "NB",
    "NBF",
    "fine_bucket_of",
    "bucket_of",
    "deal_tables",
    "cfr_batch",
    "node_probs_table",
    "node_probs_tips",
    "br_values",
    "eval_gain",
    "tree_values",
    "node_advantages",
    "hand_tables",
]

#: the bucket radix: trumps 0..5, best trump class 0..4, trumps of effective rank <= 1 (0..2),
#: side aces 0..2+, side kings 0..2+
RADIX = (6, 5, 3, 3, 3)
N_FEATURES = len(RADIX)
NB = 6 * 5 * 3 * 3 * 3


@njit(cache=True, error_model="numpy")
def bucket_of(hand, hl, trump, turn_up, base):
    """The hand bucket of ``hand[:hl]`` (card indices) under ``trump`` with ``turn_up`` visible.

    The *effective rank* of a trump is the number of trumps of the deck ``base`` that are higher,
    not in this hand and not the turn-up (0 = it is the highest trump anyone may hold).
    Features: trumps held (0..5); best trump class (0 none, 1 + min(effective rank, 3));
    trumps of effective rank 0 or 1 (0..2); side aces (min 2); side kings (min 2).
    Mirrored by :func:`ramsli.lab.equilibrium.bucket`.
    """
    nt = 0
    best = 99
    top2 = 0
    aces = 0
    kings = 0
    for i in range(hl):
        c = hand[i]
        s = _SUIT[c]
        r = _RANK[c]
        if s == 4 or s == trump:
            nt += 1
            e = 0
            for k in range(base.shape[0]):
                o = base[k]
                so = _SUIT[o]
                if (so == 4 or so == trump) and _RANK[o] > r and o != turn_up:
                    mine = False
                    for j in range(hl):
                        if hand[j] == o:
                            mine = True
                    if not mine:
                        e += 1
            if e < best:
                best = e
            if e <= 1:
                top2 += 1
        elif r == 14:
            aces += 1
        elif r == 13:
            kings += 1
    bc = 0 if nt == 0 else 1 + min(best, 3)
    return (((min(nt, 5) * 5 + bc) * 3 + min(top2, 2)) * 3 + min(aces, 2)) * 3 + min(kings, 2)


#: the finer responder's buckets: each bucket split by side-suit voids (0, 1, 2+) and the second
#: trump's effective rank (none, 0-1, 2-3, lower)
NBF = NB * 12


@njit(cache=True, error_model="numpy")
def fine_bucket_of(hand, hl, trump, turn_up, base):
    """A finer bucket (for an honesty check of the abstraction): :func:`bucket_of` times 12, plus
    side-suit voids (0, 1, 2+; the four suits less trump) times 4, plus the class of the second-best
    trump's effective rank (0 none, 1 for 0-1, 2 for 2-3, 3 lower)."""
    effs = np.full(5, 99, np.int64)
    ne = 0
    seen = np.zeros(4, np.int64)
    for i in range(hl):
        c = hand[i]
        s = _SUIT[c]
        if s == 4 or s == trump:
            e = 0
            for k in range(base.shape[0]):
                o = base[k]
                so = _SUIT[o]
                if (so == 4 or so == trump) and _RANK[o] > _RANK[c] and o != turn_up:
                    mine = False
                    for j in range(hl):
                        if hand[j] == o:
                            mine = True
                    if not mine:
                        e += 1
            effs[ne] = e
            ne += 1
        else:
            seen[s] = 1
    voids = 0
    for s in range(4):
        if s != trump and seen[s] == 0:
            voids += 1
    sec = 0
    if ne >= 2:
        effs.sort()
        e2 = effs[1]
        sec = 1 if e2 <= 1 else (2 if e2 <= 3 else 3)
    return bucket_of(hand, hl, trump, turn_up, base) * 12 + min(voids, 2) * 4 + sec


@njit(cache=True, error_model="numpy", parallel=True)
def deal_tables(seed, start, count, n, base, prm, var, stacks0, pot0, pay, bucket, tips, cards, turn_ups, fine, chunks):
    """Deal hands ``start .. start+count-1`` of ``seed`` and play each under every declaration mask.

    Writes ``pay[i, mask, d]`` (float32, counters of position ``d``), ``bucket[i, d]`` and
    ``tips[i, d, k]`` (1 if the tips policy declares in at position ``d`` after ``k`` ins), and the
    dealt ``cards[i, d, :]`` and ``turn_ups[i]`` (card indices), and ``fine[i, d]`` (:func:`fine_bucket_of`).
    Under ``dealer_forced`` the mask with every seat out plays as the dealer in (R4.5).
    """
    d = base.shape[0]
    nm = 1 << n
    per = (count + chunks - 1) // chunks
    seated = np.ones(n, np.bool_)
    for c in prange(chunks):
        lo = c * per
        hi = min(count, lo + per)
        deck = np.empty(d, np.int64)
        u = np.empty(0, np.float64)  # the stream after the cut (tips play draws no number)
        dealt = np.empty((n, 5), np.int64)
        hands = np.empty((n, 5), np.int64)
        hl = np.empty(n, np.int64)
        st = np.empty(n, np.int64)
        scratch = np.empty((5, 8), np.int64)
        order = np.empty(n, np.int64)
        pol = np.full(n, TIPS, np.int64)
        f = np.empty(n, np.int64)
        tw = np.empty(5, np.int64)
        tricks = np.empty(n, np.int64)
        decl = np.empty(n, np.int64)
        tgt = np.empty(n, np.int64)
        bete = np.empty(n, np.int64)
        for i in range(lo, hi):
            h = start + i
            cut, ust = _shuffle(seed, h, base, deck)
            dealer = h % n
            for k in range(n):
                order[k] = (dealer + 1 + k) % n
                hl[k] = 0
            tu = _deal(deck, d, cut, order, n, prm[P_FIRST_BATCH], dealt, hl)
            trump = _SUIT[tu]
            turn_ups[i] = tu
            for p in range(n):
                s = order[p]
                for q in range(5):
                    cards[i, p, q] = dealt[s, q]
                bucket[i, p] = bucket_of(dealt[s], 5, trump, tu, base)
                fine[i, p] = fine_bucket_of(dealt[s], 5, trump, tu, base)
                for k in range(n):
                    tips[i, p, k] = 1 if _tips_declare(dealt[s], 5, trump, k, var[s]) else 0
            for m in range(nm):
                for p in range(n):
                    s = order[p]
                    f[s] = 11 if (m >> p) & 1 else 10
                    hl[s] = 5
                    st[s] = stacks0[s]
                    for q in range(5):
                        hands[s, q] = dealt[s, q]
                _hand(
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
                    f,
                    tw,
                    tricks,
                    decl,
                    tgt,
                    bete,
                    scratch,
                )
                for p in range(n):
                    s = order[p]
                    pay[i, m, p] = st[s] - stacks0[s]


@njit(cache=True, error_model="numpy")
def tree_values(pay_i, pin, n, val, reach):
    """Expected payoffs under node probabilities ``pin`` (P(in) per node) for one deal.

    Fills ``reach[node]`` (probability of reaching the node) and ``val[node, :]`` (expected
    counters per position from the node on); leaf values are ``pay_i[mask, :]``.
    """
    nodes = (1 << n) - 1
    reach[0] = 1.0
    for d in range(n - 1):
        off = (1 << d) - 1
        noff = (1 << (d + 1)) - 1
        for h in range(1 << d):
            r = reach[off + h]
            p = pin[off + h]
            reach[noff + h] = r * (1.0 - p)
            reach[noff + h + (1 << d)] = r * p
    d = n - 1
    off = (1 << d) - 1
    for h in range(1 << d):
        p = pin[off + h]
        for q in range(n):
            val[off + h, q] = (1.0 - p) * pay_i[h, q] + p * pay_i[h + (1 << d), q]
    for d in range(n - 2, -1, -1):
        off = (1 << d) - 1
        noff = (1 << (d + 1)) - 1
        for h in range(1 << d):
            p = pin[off + h]
            for q in range(n):
                val[off + h, q] = (1.0 - p) * val[noff + h, q] + p * val[noff + h + (1 << d), q]
    return nodes


@njit(cache=True, error_model="numpy")
def _forced_node(n, forced):
    """The node where the dealer must be in (everyone before out, R4.5), or -1."""
    return (1 << (n - 1)) - 1 if forced else -1


@njit(cache=True, error_model="numpy")
def node_probs_table(bucket_i, sigma, n, nb, forced, pin):
    """P(in) per node of one deal for a table policy ``sigma[node * nb + bucket]``."""
    fn = _forced_node(n, forced)
    for d in range(n):
        off = (1 << d) - 1
        b = bucket_i[d]
        for h in range(1 << d):
            pin[off + h] = sigma[(off + h) * nb + b]
    if fn >= 0:
        pin[fn] = 1.0


@njit(cache=True, error_model="numpy")
def node_probs_tips(tips_i, n, forced, pin):
    """P(in) per node of one deal for the tips policy (it counts the ins before, R10)."""
    fn = _forced_node(n, forced)
    for d in range(n):
        off = (1 << d) - 1
        for h in range(1 << d):
            k = 0
            x = h
            while x:
                k += x & 1
                x >>= 1
            pin[off + h] = tips_i[d, k]
    if fn >= 0:
        pin[fn] = 1.0


@njit(cache=True, error_model="numpy")
def cfr_batch(pay, bucket, weight, sigma, regret, ssum, norm, reach_mass, t, n, nb, forced):
    """One chance-sampled CFR+ iteration over a batch of deals.

    For every deal and node the counterfactual regret of ``in`` and ``out`` at the acting
    position's infoset (node, bucket) is ``reach(node) * (value(action) - value(node))``, summed
    over the batch (``weight[i]`` per deal); then regret matching+ (negative regrets floored at 0)
    gives the next ``sigma`` (P(in) per infoset), and the average strategy sum ``ssum`` gets
    ``t * weight * sigma`` for every deal whose position holds the bucket (linear averaging;
    a position acts once per hand, so its own reach is 1), ``norm`` gets ``t * weight`` and
    ``reach_mass`` the deals' reach of the infoset. ``regret`` is (infosets, 2).
    """
    nodes = (1 << n) - 1
    ni = nodes * nb
    delta = np.zeros((ni, 2))
    val = np.empty((nodes, n))
    reach = np.empty(nodes)
    pin = np.empty(nodes)
    fn = _forced_node(n, forced)
    for i in range(pay.shape[0]):
        w = weight[i]
        node_probs_table(bucket[i], sigma, n, nb, forced, pin)
        tree_values(pay[i], pin, n, val, reach)
        for d in range(n):
            off = (1 << d) - 1
            b = bucket[i, d]
            for h in range(1 << d):
                node = off + h
                ii = node * nb + b
                norm[ii] += t * w
                ssum[ii] += t * w * sigma[ii]
                reach_mass[ii] += w * reach[node]
                if node == fn:
                    continue
                if d == n - 1:
                    v_out = pay[i, h, d]
                    v_in = pay[i, h + (1 << d), d]
                else:
                    noff = (1 << (d + 1)) - 1
                    v_out = val[noff + h, d]
                    v_in = val[noff + h + (1 << d), d]
                v = val[node, d]
                r = reach[node] * w
                delta[ii, 0] += r * (v_in - v)
                delta[ii, 1] += r * (v_out - v)
    for ii in range(ni):
        a = max(regret[ii, 0] + delta[ii, 0], 0.0)
        o = max(regret[ii, 1] + delta[ii, 1], 0.0)
        regret[ii, 0] = a
        regret[ii, 1] = o
        if a + o > 0.0:
            sigma[ii] = a / (a + o)
        else:
            sigma[ii] = 0.5
    if fn >= 0:
        for b in range(nb):
            sigma[fn * nb + b] = 1.0


@njit(cache=True, error_model="numpy")
def _pins(i, kind, bucket, tips, sigma, given, n, nb, forced, pin):
    if kind == 0:
        node_probs_table(bucket[i], sigma, n, nb, forced, pin)
    elif kind == 1:
        node_probs_tips(tips[i], n, forced, pin)
    else:
        for k in range(pin.shape[0]):
            pin[k] = given[i, k]


@njit(cache=True, error_model="numpy")
def br_values(pay, bucket, tips, given, weight, kind, sigma, n, nb, forced, rbucket, nbr, cfv):
    """Counterfactual values of ``in``/``out`` per infoset against a policy, for a best response.

    ``kind`` 0: the policy is the table ``sigma``; 1: the tips policy (``tips``); 2: P(in) per deal
    and node as given (``given``, e.g. a bot's declarations). Adds ``reach(node) * value(action)`` to
    ``cfv[node * nb + bucket, action]`` (0 in, 1 out), the reach to ``cfv[.., 2]`` and the
    reach-free advantage ``value(in) - value(out)`` to ``cfv[.., 3]``, where the
    reach and the later declarations follow the policy: the best response of the position acting
    at each infoset is the action with the larger sum (every position acts once per hand, so all
    positions' best responses come from one pass). The responder's infosets are
    ``node * nbr + rbucket[i, d]`` (its own buckets, e.g. finer ones than the policy's).
    """
    nodes = (1 << n) - 1
    val = np.empty((nodes, n))
    reach = np.empty(nodes)
    pin = np.empty(nodes)
    for i in range(pay.shape[0]):
        w = weight[i]
        _pins(i, kind, bucket, tips, sigma, given, n, nb, forced, pin)
        tree_values(pay[i], pin, n, val, reach)
        for d in range(n):
            off = (1 << d) - 1
            b = rbucket[i, d]
            for h in range(1 << d):
                node = off + h
                if d == n - 1:
                    v_out = pay[i, h, d]
                    v_in = pay[i, h + (1 << d), d]
                else:
                    noff = (1 << (d + 1)) - 1
                    v_out = val[noff + h, d]
                    v_in = val[noff + h + (1 << d), d]
                r = reach[node] * w
                cfv[node * nbr + b, 0] += r * v_in
                cfv[node * nbr + b, 1] += r * v_out
                cfv[node * nbr + b, 2] += r
                cfv[node * nbr + b, 3] += w * (v_in - v_out)


@njit(cache=True, error_model="numpy", parallel=True)
def eval_gain(pay, bucket, tips, given, kind, sigma, br, n, nb, forced, rbucket, nbr, gain, base_val):
    """Per deal and position: the counters a best response ``br`` (P(in) per infoset, 0 or 1) gains
    over the policy at that position, the others playing the policy; ``gain[i, d]``, and the
    policy's own value ``base_val[i, d]``."""
    nodes = (1 << n) - 1
    fn = _forced_node(n, forced)
    count = pay.shape[0]
    for i in prange(count):
        val = np.empty((nodes, n))
        reach = np.empty(nodes)
        pin = np.empty(nodes)
        pbr = np.empty(nodes)
        _pins(i, kind, bucket, tips, sigma, given, n, nb, forced, pin)
        tree_values(pay[i], pin, n, val, reach)
        for d in range(n):
            base_val[i, d] = val[0, d]
        for d in range(n):
            for k in range(nodes):
                pbr[k] = pin[k]
            off = (1 << d) - 1
            b = rbucket[i, d]
            for h in range(1 << d):
                if off + h != fn:
                    pbr[off + h] = br[(off + h) * nbr + b]
            tree_values(pay[i], pbr, n, val, reach)
            gain[i, d] = val[0, d] - base_val[i, d]


@njit(cache=True, error_model="numpy", parallel=True)
def node_advantages(pay, bucket, sigma, n, nb, forced, reach_out, adv_out, pin_out):
    """Per deal and node under the table policy ``sigma``: the reach of the node, the counters the acting
    position gains by ``in`` over ``out`` there (the others playing the policy), and its P(in)."""
    nodes = (1 << n) - 1
    for i in prange(pay.shape[0]):
        val = np.empty((nodes, n))
        reach = np.empty(nodes)
        pin = np.empty(nodes)
        node_probs_table(bucket[i], sigma, n, nb, forced, pin)
        tree_values(pay[i], pin, n, val, reach)
        for d in range(n):
            off = (1 << d) - 1
            for h in range(1 << d):
                node = off + h
                if d == n - 1:
                    v_out = pay[i, h, d]
                    v_in = pay[i, h + (1 << d), d]
                else:
                    noff = (1 << (d + 1)) - 1
                    v_out = val[noff + h, d]
                    v_in = val[noff + h + (1 << d), d]
                reach_out[i, node] = reach[node]
                adv_out[i, node] = v_in - v_out
                pin_out[i, node] = pin[node]


@njit(cache=True, error_model="numpy", parallel=True)
def hand_tables(seed, start, count, n, me, mine, turn_up, unknown, base, prm, var, stacks0, pot0, pay, bucket, chunks):
    """Like :func:`deal_tables` for one known hand: position ``me`` holds ``mine`` (5 card indices), the
    turn-up is ``turn_up``, and the ``unknown`` cards are dealt at random to the other positions (sample
    ``start + i`` of ``seed``). The dealer is seat ``n - 1``, so position = seat. Writes ``pay`` and
    ``bucket`` as :func:`deal_tables` does."""
    trump = _SUIT[turn_up]
    nu = unknown.shape[0]
    nm = 1 << n
    per = (count + chunks - 1) // chunks
    seated = np.ones(n, np.bool_)
    dealer = n - 1
    for c in prange(chunks):
        lo = c * per
        hi = min(count, lo + per)
        dealt = np.empty((n, 5), np.int64)
        hands = np.empty((n, 5), np.int64)
        hl = np.empty(n, np.int64)
        st = np.empty(n, np.int64)
        scratch = np.empty((5, 8), np.int64)
        pool = np.empty(nu, np.int64)
        u = np.zeros(N_DECISIONS, np.float64)
        pol = np.full(n, TIPS, np.int64)
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
            for q in range(5 * (n - 1)):  # partial Fisher-Yates
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
                bucket[i, s] = bucket_of(dealt[s], 5, trump, turn_up, base)
            for m in range(nm):
                for s in range(n):
                    f[s] = 11 if (m >> s) & 1 else 10
                    hl[s] = 5
                    st[s] = stacks0[s]
                    for q in range(5):
                        hands[s, q] = dealt[s, q]
                _hand(
                    n,
                    seated,
                    dealer,
                    st,
                    pot0,
                    hands,
                    hl,
                    trump,
                    u,
                    np.uint64(0),
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
                for s in range(n):
                    pay[i, m, s] = st[s] - stacks0[s]
