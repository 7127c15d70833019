"""The ``montecarlo`` bot: sample the hidden cards, search each sample, pick the best average.

For every decision with more than one legal action:

1. **Sample** the hidden cards (:func:`ramsli.bots.tracking.sample_deal`),
   consistently with everything the seat has seen (R7): its own cards, the
   turn-up, jokers turned aside, every card played, and the voids and trump caps
   that the strict follow / trump / overtrump obligations reveal (R4.10, D-14).
   Samples in which an opponent's declaration disagrees with the ``rules``
   policy (:func:`ramsli.bots.fast.rule_declare`) are rejected, but only softly
   (kept with probability ``soft`` per disagreement), so that opponents who do
   not play like the pub regular are still covered.
2. **Evaluate** every legal action on each sample, in counters of the
   settlement (R5) from this point on (the ante is already paid):
   - card play: a perfect-information max^n search of the remaining tricks
     (:class:`ramsli.bots.solver.Solver`); if a sample's search would exceed
     ``nodes`` nodes, that sample is played out with the ``rules`` policy for
     every seat after each candidate card (a rollout) instead;
   - declaration (R4.5): the seats still to declare follow the ``rules``
     policy on their sampled cards, then the hand is played out with the
     ``rules`` policy; ``in`` is chosen if its average counters beat folding
     (0 counters, R5.5); a walkover pays the pot (R4.6);
   - General Rams (R4.7) and targets (R4.8): every choice is settled on the same
     rollouts and the best average is taken.
3. **Choose** the action with the best average; ties go to the ``rules`` bot's choice.

The budget is ``samples`` per decision (deterministic for a given seed), and
optionally ``ms``: stop sampling after that many milliseconds (at least 4
samples), which makes the choices depend on the machine's speed.

>>> import random
>>> from ramsli import Hand, Rules
>>> from ramsli.bots.base import play_hand
>>> hand = Hand.new(Rules(), [20] * 4, dealer=0, rng=random.Random(5))
>>> play_hand(hand, {s: MonteCarloBot(seed=s, samples=8) for s in range(4)})
>>> hand.total()
80
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import TypeAlias

from ramsli.bots.base import Slips, only_choice, register_bot
from ramsli.bots.fast import SUIT_MASK, legal, rule_declare, rule_general_rams, rule_play, sure_tricks, winner_index
from ramsli.bots.solver import Solver
from ramsli.bots.tips import TipsBot
from ramsli.bots.tracking import Knowledge, declaration_context, infer, sample_deal
from ramsli.hand import Action, Observation, Phase, random_source
from ramsli.settlement import settle

__all__ = [
    "MonteCarloBot",
    "rollout",
    "play_out",
    "Payoff",
    "seat_knowledge",
    "others_announce",
    "Deal",
    "Check",
    "Targets",
    "Gains",
]

#: card codes per seat (a sample of the hidden cards, or the cards a seat has played)
Deal: TypeAlias = dict[int, list[int]]
#: an unforced declaration of another seat: ``(seat, stayed_in, n_in_before, n_to_come)`` (R4.5)
Check: TypeAlias = tuple[int, bool, int, int]
#: ``((seat, target), ...)`` sorted by seat (R4.8)
Targets: TypeAlias = tuple[tuple[int, int], ...]
#: counters gained per active position from now to settlement (R5), as :class:`Payoff` gives them
Gains: TypeAlias = tuple[int, ...]


class Payoff:
    """Counters each active seat gains from now to the end of the hand (R5), cached.

    ``values(active, tricks)`` settles the hand with the real rules, stacks and
    pot (so short stacks, R5.8, are exact) and returns ``won - paid`` per seat
    of ``active`` (a tuple in play order), for ``tricks`` per position of ``active``.
    """

    def __init__(self, obs: Observation) -> None:
        self.rules = obs.rules
        n = len(obs.stacks)
        self.n = n
        self.order = obs.order  # R4.3, R5.9: from the dealer's left
        self.stacks = obs.stacks
        self.pot = obs.pot
        self.cache: dict[tuple[tuple[int, ...], tuple[int, ...], int | None, Targets], Gains] = {}

    def values(
        self, active: tuple[int, ...], tricks: tuple[int, ...], gr: int | None = None, targets: Targets = ()
    ) -> Gains:
        key = (active, tricks, gr, targets)
        v = self.cache.get(key)
        if v is None:
            tw = [0] * self.n
            for s, t in zip(active, tricks):
                tw[s] = t
            if len(active) == 1:
                v = (self.pot,)
            else:
                st = settle(self.rules, self.order, active, tw, self.stacks, self.pot, gr, dict(targets))
                v = tuple(st.won(s) - st.paid(s) for s in active)
            self.cache[key] = v
        return v


def rollout(
    hands: Sequence[Sequence[int]], leader: int, cur: Sequence[int], tricks: Sequence[int], always: bool, trick_no: int
) -> tuple[int, ...]:
    """Play the rest of the hand with the ``rules`` policy for every position
    (each seeing the others' cards only as "cards someone else holds").

    Args:
        hands: codes per position, in play order (R4.9).
        leader: position leading the trick in progress.
        cur: codes already played to it.
        tricks: tricks won so far per position.
        always: option ``overtrump == "always"``.
        trick_no: 0-based number of the trick in progress.

    Returns:
        tricks per position at the end of the hand.
    """
    n = len(hands)
    held = [list(h) for h in hands]
    trick = list(cur)
    won = list(tricks)
    while True:
        if len(trick) == n:
            w = (leader + winner_index(trick)) % n
            won[w] += 1
            trick_no += 1
            trick = []
            leader = w
            if not held[w]:
                return tuple(won)
            continue
        p = (leader + len(trick)) % n
        h = held[p]
        lg = legal(h, trick, always)
        if len(lg) == 1:
            c = lg[0]
        else:
            others = 0
            trumpless = True
            risk = 0
            for q in range(n):
                if q != p and held[q]:
                    m = 0
                    for x in held[q]:
                        m |= 1 << x
                    others |= m
                    if m & SUIT_MASK[0]:
                        trumpless = False
                        for e in (1, 2, 3):
                            if not m & SUIT_MASK[e]:
                                risk |= 1 << e
            c = rule_play(h, lg, trick, n - len(trick) - 1, trick_no, won[p], others, trumpless, risk)
        h.remove(c)
        trick.append(c)


def play_out(
    hands: Sequence[Sequence[int]],
    mi: int,
    card: int,
    leader: int,
    cur: Sequence[int],
    tricks: Sequence[int],
    always: bool,
    trick_no: int,
) -> tuple[int, ...]:
    """Tricks per active position after position ``mi`` plays ``card`` (a card code) to the trick ``cur``
    and the rest of the hand is played out by :func:`rollout` (R4.10, R4.11); ``hands`` is not changed.
    """
    hh = [list(h) for h in hands]
    hh[mi].remove(card)
    cc = tuple(cur) + (card,)
    n = len(hh)
    if len(cc) == n:  # the card ends the trick: its winner leads the next one
        w = (leader + winner_index(cc)) % n
        tr = list(tricks)
        tr[w] += 1
        return tuple(tr) if not hh[w] else rollout(hh, w, (), tr, always, trick_no + 1)
    return rollout(hh, leader, cc, tricks, always, trick_no)


def seat_knowledge(obs: Observation) -> tuple[Knowledge, list[Check], Deal]:
    """What a seat knows for sampling (R7): its :class:`~ramsli.bots.tracking.Knowledge`, the other seats'
    unforced declarations as ``(seat, stayed_in, n_in_before, n_to_come)`` (R4.5), and the codes each
    seat has played so far (``{seat: [code, ...]}``, R4.10)."""
    k = infer(obs)
    checks = [
        (s, stay, nb, nc)
        for s, stay, nb, nc, forced in declaration_context(obs)
        if not forced and s != obs.seat and s in k.need
    ]
    played_by: dict[int, list[int]] = {}
    plays = [p for t in obs.tricks for p in t.plays] + list(obs.current)
    for s, c in plays:
        played_by.setdefault(s, []).append(k.codec.enc(c))
    return k, checks, played_by


def others_announce(
    obs: Observation, k: Knowledge, act_t: tuple[int, ...], deal: Deal, me: int, me_gr: bool
) -> tuple[int | None, Targets]:
    """General Rams (R4.7) and targets (R4.8) of the other seats still to be asked, by the tips, on the
    sampled ``deal`` (codes per seat); ``me_gr``: seat ``me`` announces General Rams itself.

    Returns:
        ``(general_rams_seat_or_None, ((seat, target), ...))``.
    """
    gr = me if me_gr else obs.general_rams
    if obs.rules.general_rams and gr is None and obs.phase in (Phase.DECLARE, Phase.GENERAL_RAMS):
        asked = act_t if obs.phase is Phase.DECLARE else act_t[act_t.index(me) + 1 :]
        for s in asked:
            if s != me and rule_general_rams(deal[s], k.visible_trumps):
                gr = s
                break
    targets = dict(obs.targets)
    if obs.rules.targets:
        top = obs.rules.largest_target  # R4.8
        later = act_t[act_t.index(me) + 1 :] if obs.phase is Phase.TARGETS else act_t
        for s in later:
            if s == me or s == gr or s in targets:
                continue
            sure = sure_tricks(deal[s], k.visible_trumps)
            if sure >= 2:
                targets[s] = min(sure, top)
    return gr, tuple(sorted(targets.items()))


class MonteCarloBot:
    """Determinized Monte Carlo search (see the module docstring).

    Args:
        seed: seed of the sampling random source (same seed, same choices).
        rng: instead of ``seed``, the random source itself (a ``random.Random``).
        samples: samples (deals of the hidden cards) per decision, >= 1.
        ms: optional time budget per decision in milliseconds (0: none).
        nodes: search nodes per sample before falling back to rollouts.
        soft: probability of keeping a sample per declaration that disagrees
            with the ``rules`` policy (0..1).
        tries: sampling attempts per sample for that filter.
        eps: slips: at a decision with more than one legal action, with this probability (0..1) a
            uniformly random legal action (:class:`~ramsli.bots.base.Slips`; the levels ``medium``
            and ``hard`` use it); drawn from a source of its own, so ``eps=0`` plays as without.

    Raises:
        ValueError: for a budget outside those ranges.
        TypeError: if both ``seed`` and ``rng`` are given.
    """

    name = "montecarlo"
    #: the allowed range of each option (checked here and by :func:`~ramsli.bots.base.make_bot`):
    #: bounded, so that no spec makes one decision think for hours
    OPTION_RANGES = {
        "samples": (1, 2000),
        "ms": (0, 60000),
        "nodes": (1, 100000),
        "soft": (0, 1),
        "tries": (1, 100),
        "eps": (0, 1),
    }

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 20,
        ms: float = 0,
        nodes: int = 3000,
        soft: float = 0.3,
        tries: int = 8,
        eps: float = 0.0,
        *,
        rng: random.Random | None = None,
    ) -> None:
        for key, value in (
            ("samples", samples),
            ("ms", ms),
            ("nodes", nodes),
            ("soft", soft),
            ("tries", tries),
            ("eps", eps),
        ):
            lo, hi = self.OPTION_RANGES[key]
            if not lo <= value <= hi:
                raise ValueError(f"{key}={value!r}: allowed is {lo}..{hi}")
        self.rng = random_source(seed, rng, "MonteCarloBot")
        self.samples = int(samples)
        self.ms = float(ms)
        self.nodes = int(nodes)
        self.soft = float(soft)
        self.tries = int(tries)
        self.eps = float(eps)
        self._slips = Slips(self.eps, self.rng)
        self._rules = TipsBot()

    # -- helpers -------------------------------------------------------------

    def _budget(self) -> Iterator[int]:
        start = time.perf_counter()
        for i in range(self.samples):
            if self.ms and i >= 4 and (time.perf_counter() - start) * 1000 >= self.ms:
                return
            yield i

    def _sample(self, obs: Observation, k: Knowledge, checks: list[Check], played_by: Deal) -> Deal:
        """One deal of the hidden cards (R7-consistent), softly filtered by the declarations."""
        bete = obs.rules.bete_for(obs.pot)
        nseat = len(obs.seated)
        deal: dict[int, list[int]] = {}
        for _ in range(self.tries):
            deal = sample_deal(k, self.rng) or {}
            mism = 0
            for s, stay, nb, nc in checks:
                h = deal.get(s, []) + played_by.get(s, [])
                if len(h) == 5 and rule_declare(h, k.visible_trumps, nb, nc, nseat, bete, obs.pot) != stay:
                    mism += 1
            if not mism or self.rng.random() < self.soft**mism:
                return deal
        return deal

    def _setup(self, obs: Observation) -> tuple[Knowledge, list[Check], Deal]:
        return seat_knowledge(obs)

    # -- the decision ------------------------------------------------------------

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal``, chosen by sampling and search (see the module docstring).

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        only = only_choice(obs)
        if only is not None:
            return only
        slip = self._slips.slip(obs)
        if slip is not None:
            return slip
        if obs.phase is Phase.PLAY:
            return self._play(obs)
        if obs.phase is Phase.DECLARE:
            return self._declare(obs)
        return self._announce(obs)

    def _declare(self, obs: Observation) -> Action:
        """R4.5: in if the estimated counters beat folding (0, R5.5)."""
        k, checks, _ = self._setup(obs)
        pay = Payoff(obs)
        me = obs.seat
        order = pay.order
        i = order.index(me)
        after = order[i + 1 :]
        before_in = list(obs.active)
        bete = obs.rules.bete_for(obs.pot)
        total = 0.0
        count = 0
        for _ in self._budget():
            deal = self._sample(obs, k, checks, {})
            deal[me] = k.own
            active = before_in + [me]
            n_in = len(active)
            for j, s in enumerate(after):
                if rule_declare(deal[s], k.visible_trumps, n_in, len(after) - j - 1, len(order), bete, obs.pot):
                    active.append(s)
                    n_in += 1
            act_t = tuple(s for s in order if s in active)
            count += 1
            if len(act_t) == 1:
                total += obs.pot
                continue
            gr, targets = self._others_announce(obs, k, act_t, deal, me, me_gr=False)
            tricks = rollout([deal[s] for s in act_t], 0, (), (0,) * len(act_t), k.always, 0)
            v = pay.values(act_t, tricks, gr, targets)
            total += v[act_t.index(me)]
        return Action.declare(me, total / max(count, 1) > 0)

    def _others_announce(
        self, obs: Observation, k: Knowledge, act_t: tuple[int, ...], deal: Deal, me: int, me_gr: bool
    ) -> tuple[int | None, Targets]:
        return others_announce(obs, k, act_t, deal, me, me_gr)

    def _announce(self, obs: Observation) -> Action:
        """R4.7 General Rams or R4.8 target: the choice with the best average counters."""
        k, checks, _ = self._setup(obs)
        pay = Payoff(obs)
        me = obs.seat
        act_t = tuple(obs.active)
        choices = list(obs.legal)
        totals = [0.0] * len(choices)
        for _ in self._budget():
            deal = self._sample(obs, k, checks, {})
            deal[me] = k.own
            tricks = rollout([deal[s] for s in act_t], 0, (), (0,) * len(act_t), k.always, 0)
            mi = act_t.index(me)
            for j, a in enumerate(choices):
                if a.kind == "gr":
                    gr, targets = self._others_announce(obs, k, act_t, deal, me, me_gr=True)
                elif a.kind == "t":
                    gr, targets = self._others_announce(obs, k, act_t, deal, me, me_gr=False)
                    d = dict(targets)
                    assert a.target is not None  # a target announcement has one (R4.8)
                    d[me] = a.target
                    targets = tuple(sorted(d.items()))
                else:
                    gr, targets = self._others_announce(obs, k, act_t, deal, me, me_gr=False)
                totals[j] += pay.values(act_t, tricks, gr, targets)[mi]
        return self._best(obs, choices, totals)

    def _best(self, obs: Observation, choices: list[Action], totals: list[float]) -> Action:
        pref = self._rules.act(obs)
        best = max(totals)
        for a, t in zip(choices, totals):
            if a is pref and t >= best - 1e-9:
                return a
        return choices[totals.index(best)]

    def _play(self, obs: Observation) -> Action:
        """R4.10: the card with the best average counters over the samples."""
        k, checks, played_by = self._setup(obs)
        pay = Payoff(obs)
        me = obs.seat
        act_t = tuple(obs.active)
        n = len(act_t)
        mi = act_t.index(me)
        leader = act_t.index(obs.leader)
        cur = tuple(k.codec.enc(c) for _, c in obs.current)
        tricks0 = tuple(obs.tricks_won[s] for s in act_t)
        trick_no = len(obs.tricks)
        gr = obs.general_rams
        targets = obs.targets
        codes = legal(k.own, cur, k.always)
        totals = {c: 0.0 for c in codes}
        pcache: dict[tuple[int, ...], Gains] = {}

        def payoff(tr: tuple[int, ...]) -> Gains:
            return pay.values(act_t, tr, gr, targets)

        search = True  # after one sample too big to search, the rest are rolled out
        for _ in self._budget():
            deal = self._sample(obs, k, checks, played_by)
            deal[me] = k.own
            hands = [deal[s] for s in act_t]
            try:
                if not search:
                    raise OverflowError
                solver = Solver(n, payoff, k.always, node_limit=self.nodes, cache=pcache)
                vals = solver.root(hands, leader, cur, tricks0)
                for c in codes:
                    totals[c] += vals[c][mi]
            except OverflowError:
                search = False
                for c in codes:
                    totals[c] += payoff(play_out(hands, mi, c, leader, cur, tricks0, k.always, trick_no))[mi]
        choices = [Action.play(me, k.codec.dec(c)) for c in codes]
        return self._best(obs, choices, [totals[c] for c in codes])


register_bot("montecarlo", MonteCarloBot)
