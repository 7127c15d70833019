"""Drive the reference engine over the kernel's seeded inputs (the kernel/engine agreement checks).

:func:`play_reference` plays one hand with :meth:`ramsli.hand.Hand.from_deck`
from a deck order, a cut and a table of random numbers, choosing
``legal_actions()[floor(u * len(legal))]`` for random seats and the
:class:`~ramsli.bots.tips.TipsBot` choice (``tracking=False``) for tips seats, consuming one
number per decision exactly as :mod:`ramsli.lab.kernel` does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ramsli.bots.tips import TipsBot
from ramsli.cards import Card
from ramsli.hand import Hand
from ramsli.lab.kernel import (
    END_NAMES,
    KIND_PLAYED,
    KIND_THROWN_IN,
    KIND_WALKOVER,
    RANDOM,
    TIPS,
    base_deck,
    make_inputs,
    play_sessions,
    play_table,
    session_first_dealer,
)
from ramsli.rules import Rules
from ramsli.seats import seat_name
from ramsli.session import Session

__all__ = ["play_reference", "reference_outcome"]

_KIND = {"played": KIND_PLAYED, "walkover": KIND_WALKOVER, "thrown-in": KIND_THROWN_IN}


def play_reference(
    rules: Rules,
    deck: Sequence[int],
    cut: int,
    u: Sequence[float],
    dealer: int,
    stacks: Sequence[int],
    pot: int = 0,
    seated: Sequence[int] | None = None,
    policy: Sequence[int] | None = None,
    variant: Sequence[int] | None = None,
) -> Hand:
    """Play one hand through the engine and return the finished :class:`Hand`.

    Args:
        deck: card indices top first; cut: 1..D-1 (R4.2); u: decision numbers in [0, 1);
        dealer: the dealer's seat; stacks: before the ante; pot: carry-in; seated: seats in the hand;
        policy: per seat ``RANDOM`` or ``TIPS`` (default all random); variant: tips variant bits.
    """
    n = len(stacks)
    cards = [Card.from_index(int(i)) for i in deck]
    hand = Hand.from_deck(rules, list(stacks), dealer, cards, int(cut), pot=int(pot), seated=seated)
    policy = [RANDOM] * n if policy is None else list(policy)
    variant = [0] * n if variant is None else list(variant)
    bots = {s: TipsBot(variant=variant[s], tracking=False) for s in range(n) if policy[s] == TIPS}
    k = 0
    while (seat := hand.to_act) is not None:  # None: the hand is over
        if policy[seat] == RANDOM:
            legal = hand.legal_actions()
            action = legal[int(u[k] * len(legal))]
        else:
            action = bots[seat].act(hand.observe(seat))
        k += 1
        hand.apply(action)
    return hand


def reference_outcome(hand: Hand) -> dict:
    """The facts the kernel reports, read from a finished hand (same shapes as one HandBatch row)."""
    s = hand.settlement
    if s is None:
        raise ValueError("the hand is not over: it has no settlement yet (R5)")
    n = hand.n_seats
    tw = [t.winner for t in hand.tricks] + [-1] * (5 - len(hand.tricks))
    decl = [-1] * n
    for seat in hand.seated:
        decl[seat] = 0
    for seat, d in hand.declarations:
        decl[seat] = int(bool(d))  # Declaration: truthy for in (R4.5)
    if hand.rules.compulsory:
        for seat in hand.seated:
            decl[seat] = 1
    tgt = [hand.targets.get(seat, 0) for seat in range(n)]
    bete = [int(seat in s.bete) for seat in range(n)]
    return dict(
        tw=tw,
        tricks=list(s.tricks),
        decl=decl,
        tgt=tgt,
        bete=bete,
        stacks=list(s.stacks_after),
        kind=_KIND[s.kind],
        P=s.pot,
        carry=s.carry_over,
        gr=-1 if s.general_rams is None else s.general_rams,
        nwin=len(s.winners),
    )


def batch_row(batch, i: int) -> dict:
    """Row ``i`` of a :class:`~ramsli.lab.kernel.HandBatch` in the shape of :func:`reference_outcome`."""
    return dict(
        tw=[int(x) for x in batch.tw[i]],
        tricks=[int(x) for x in batch.tricks[i]],
        decl=[int(x) for x in batch.decl[i]],
        tgt=[int(x) for x in batch.tgt[i]],
        bete=[int(x) for x in batch.bete[i]],
        stacks=[int(x) for x in batch.stacks[i]],
        kind=int(batch.kind[i]),
        P=int(batch.P[i]),
        carry=int(batch.carry[i]),
        gr=int(batch.gr[i]),
        nwin=int(batch.nwin[i]),
    )


__all__ += ["batch_row"]
_ = np  # numpy arrays are accepted everywhere a sequence is


def random_table_inputs(rules: Rules, n: int, count: int, seed: int, short_stacks: bool = True, leave: bool = True):
    """Seeded inputs for :func:`ramsli.lab.kernel.play_table` with varied dealers, short stacks
    (R5.8), carry-in pots (R5.4) and, with ``leave``, seats that have left (R3.5).

    Returns ``(decks, cuts, u, dealers, seated, stacks, pots)``.
    """
    decks, cuts, u = make_inputs(seed, 0, count, base_deck(rules))
    rng = np.random.default_rng(seed)
    dealers = rng.integers(0, n, count)
    seated = np.ones((count, n), bool)
    if leave and n > 2:
        drop = rng.random((count, n)) < 0.15
        drop[np.arange(count), dealers] = False
        seated = ~drop
        few = seated.sum(1) < 2
        seated[few] = True
    lo = rules.ante
    if short_stacks:
        stacks = rng.integers(lo, lo + 12, (count, n))
        big = rng.random(count) < 0.3
        stacks[big] = rng.integers(lo, 60, (int(big.sum()), n))
    else:
        stacks = np.full((count, n), rules.starting_stack)
    pots = rng.integers(0, 15, count) * (rng.random(count) < 0.5)
    return decks, cuts, u, dealers, seated, stacks.astype(np.int64), pots.astype(np.int64)


def check_agreement(
    rules: Rules,
    n: int,
    count: int,
    seed: int = 0,
    policy=RANDOM,
    variant=0,
    short_stacks: bool = True,
    leave: bool = True,
    stop_at: int = 1,
) -> tuple[int, list]:
    """Play ``count`` seeded hands through the kernel and the engine and compare every trick
    winner and every settlement (stacks after, carry-over, betes, declarations, targets, General Rams).

    Returns ``(hands compared, mismatches)``; each mismatch is ``(i, kernel row, engine row)``;
    stops after ``stop_at`` mismatches. Also checks conservation (R3.4) on both sides.
    """
    decks, cuts, u, dealers, seated, stacks, pots = random_table_inputs(rules, n, count, seed, short_stacks, leave)
    pol: list[int] = [int(policy)] * n if isinstance(policy, (int, np.integer)) else [int(p) for p in policy]
    var: list[int] = [int(variant)] * n if isinstance(variant, (int, np.integer)) else [int(v) for v in variant]
    batch = play_table(rules, decks, cuts, u, dealers, stacks, pots, seated, np.array(pol), np.array(var))
    bad = []
    for i in range(count):
        seats = [s for s in range(n) if seated[i, s]]
        hand = play_reference(
            rules, decks[i], cuts[i], u[i], int(dealers[i]), stacks[i].tolist(), int(pots[i]), seats, pol, var
        )
        ref = reference_outcome(hand)
        ker = batch_row(batch, i)
        total = int(stacks[i].sum() + pots[i])
        if ref != ker or sum(ker["stacks"]) + ker["carry"] != total or hand.total() != total:
            bad.append((i, ker, ref))
            if len(bad) >= stop_at:
                return i + 1, bad
    return count, bad


def check_session_agreement(rules: Rules, n: int, count: int, seed: int = 0, policy=RANDOM, cap: int = 400) -> list:
    """Play ``count`` kernel sessions and the same sessions through :class:`ramsli.session.Session`
    (same first dealer, decks, cuts and decision tables); return the sessions that differ
    (hands played, end reason, final stacks, final pot)."""
    ker = play_sessions(rules, n, count, seed=seed, policy=policy, cap=cap)
    pol: list[int] = [int(policy)] * n if isinstance(policy, (int, np.integer)) else [int(p) for p in policy]
    base = base_deck(rules)
    bad = []
    for k in range(count):
        sess = Session(rules, [seat_name(i) for i in range(n)], seed=0, dealer=int(session_first_dealer(seed, k, n)))
        h = 0
        bots = {s: TipsBot(tracking=False) for s in range(n) if pol[s] == TIPS}
        while not sess.is_over and h < cap:
            decks, cuts, u = make_inputs(seed, k * 1048576 + h, 1, base)
            hand = sess.start_hand([Card.from_index(int(i)) for i in decks[0]], int(cuts[0]))
            j = 0
            while (seat := hand.to_act) is not None:  # None: the hand is over
                if pol[seat] == RANDOM:
                    legal = hand.legal_actions()
                    a = legal[int(u[0, j] * len(legal))]
                else:
                    a = bots[seat].act(hand.observe(seat))
                j += 1
                sess.apply(a)
            h += 1
        reason = sess.end_reason or "cap"
        got = (
            int(ker["n_hands"][k]),
            END_NAMES[int(ker["end_reason"][k])],
            [int(x) for x in ker["final_stacks"][k]],
            int(ker["final_pot"][k]),
        )
        want = (h, reason, list(sess.stacks), sess.pot)
        if got != want:
            bad.append((k, got, want))
    return bad
