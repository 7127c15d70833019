"""The ``expert`` bot: weighted determinized search that reads the table.

It is ``montecarlo`` (:mod:`ramsli.bots.montecarlo`) made Bayesian, with the
budget spent where the counters are decided:

1. **Opponents' hands from what they did.** A deal of the hidden cards is
   drawn consistently with everything the seat has seen (R7; voids and trump
   caps of R4.10, D-14; :func:`ramsli.bots.tracking.sample_deal`) and then
   *weighted* by how likely every other seat's observed choices are had it
   held those cards, under the fitted opponent model
   (:mod:`ramsli.bots.opponent`: each seat a mixture of the styles of the
   built-in bots and a random player): its declaration (R4.5; an ``in`` after
   two others are in is likely only with a strong hand, an ``out`` only with
   a weak one) and every card it played (R4.10; a low discard, a trump lead,
   a cheap winner each say something about the cards kept). After the
   declarations the folded seats' cards are dealt too, so that their ``out``
   counts. A General Rams announcement (R4.7) or a trick target (R4.8) says
   the hand is strong, a pass says it is not; the dealer forced in (R4.5)
   says nothing. When the weights leave fewer than half the samples
   effective, more deals are drawn and the samples are drawn from them by
   their weights (systematic resampling; option ``candidates``). Without a
   usable model file the hand-made declaration model :func:`p_in` is used
   and plays are not read. The model is off by default (``plays=0``,
   ``fitted_declarations=0``, ``candidates=1``): measured in ``traditional``,
   it changes the expert's result by +0.010 ± 0.034 counters a hand
   (docs/opponent-model.md) for about half again the decision time; turn it on
   with ``expert:plays=1,fitted_declarations=1,candidates=4``.
2. **Declarations (R4.5) by expected counters.** For each weighted sample the
   seats still to declare draw their declaration from the same model, the
   others' General Rams and targets follow the tips, the hand is played out
   with the tips policy for everyone (a rollout) and settled with the real
   rules, stacks and pot (R5, short stacks R5.8); folding is worth 0 (R5.5), a
   walkover the pot (R4.6). ``in`` if the weighted mean beats ``margin``.
   Declarations are few (one per seat and hand), so they get many samples.
3. **General Rams and targets (R4.7, R4.8)**: every legal choice is settled
   on the same weighted rollouts; the best mean wins.
4. **Card play (R4.10)**: perfect-information Monte Carlo (PIMC, as in bridge
   and skat programs): every legal card is valued on each weighted sample by
   the exact max^n search of the remaining tricks
   (:class:`ramsli.bots.solver.Solver`, the endgame solved exactly); a
   sample whose search would exceed ``nodes`` nodes (early tricks at a full
   table), and every sample after the decision has searched ``budget`` nodes
   in all, is valued by a tips rollout after each card instead (so the
   decision time stays bounded, counted in nodes, not seconds).

The values behind every decision are public: :meth:`ExpertBot.action_values` gives
each legal action's weighted mean counters with its standard error and the number
of samples (:class:`ActionValue`), from the same samples :meth:`ExpertBot.act`
decides by; the coach (:mod:`ramsli.coach`) reviews hands with it.

Seeded: the same seed gives the same decisions (no time budget is used). Only
the seat's :class:`~ramsli.hand.Observation` is read (R7).

>>> import random
>>> from ramsli import Hand, Rules
>>> from ramsli.bots.base import play_hand
>>> hand = Hand.new(Rules(), [20] * 4, dealer=0, rng=random.Random(5))
>>> play_hand(hand, {s: ExpertBot(seed=s, samples=16, play_samples=8) for s in range(4)})
>>> hand.total()
80
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ramsli.bots.base import Slips, only_choice, register_bot
from ramsli.bots.fast import (
    declare_need,
    declare_strength,
    legal,
    rule_general_rams,
    sure_tricks,
)
from ramsli.bots.montecarlo import (
    Check,
    Deal,
    Gains,
    Payoff,
    Targets,
    others_announce,
    play_out,
    rollout,
    seat_knowledge,
)
from ramsli.bots.opponent import OpponentModel, PlayStep, default_model, observed_steps
from ramsli.bots.solver import Solver
from ramsli.bots.tips import TipsBot
from ramsli.bots.tracking import Knowledge, declaration_context, sample_deal
from ramsli.hand import Action, Observation, Phase, random_source

__all__ = ["ActionValue", "ExpertBot", "p_in", "paired_gap"]


def p_in(
    hand: Sequence[int],
    visible_trumps: int,
    n_in_before: int,
    n_to_come: int,
    n_seated: int,
    bete: int,
    pot: int,
    sharp: float = 3.0,
) -> float:
    """Probability that a sensible player declares ``in`` (R4.5) with ``hand``: the opponent model.

    A smooth version of the tips' judgement (:func:`ramsli.bots.fast.rule_declare`): the
    hand's strength (about its likely tricks, :func:`ramsli.bots.fast.declare_strength`)
    against what the table asks for — more with more players already in, less when only one
    player is in before and folding could hand a walkover (R10), more when the bete is
    large. A hand with no realistic path to a trick is rarely in.

    Args:
        hand: codes of the five cards (:mod:`ramsli.bots.fast`).
        visible_trumps: mask of trump codes out of play.
        n_in_before: players already in; n_to_come: seats still to declare after this one.
        n_seated: seats in the hand; bete, pot: in counters (R5.3).
        sharp: how sharply the probability changes with strength (per likely trick).

    Returns:
        a probability in 0.03..0.97 (1.0 if nobody is in and nobody is to come: a walkover, R4.6).

    >>> from ramsli.bots.fast import codec
    >>> cd = codec("S")
    >>> from ramsli.cards import parse_cards
    >>> strong = cd.encs(parse_cards("AS KS AH AD 7C"))
    >>> weak = cd.encs(parse_cards("7S 8H 9D 7C 8C"))
    >>> p_in(strong, 0, 2, 1, 5, 5, 5) > 0.9 > 0.1 > p_in(weak, 0, 2, 1, 5, 5, 5)
    True
    """
    if n_in_before == 0 and n_to_come == 0:
        return 1.0
    path, s = declare_strength(hand, visible_trumps)
    x = sharp * (s - declare_need(n_in_before, n_to_come, bete, pot) + 0.15)
    if not path:
        x -= 2.0
    p = 1.0 / (1.0 + math.exp(-x))
    return min(0.97, max(0.03, p))


@dataclass(frozen=True)
class ActionValue:
    """One legal action with the expert's estimate of what it is worth (:meth:`ExpertBot.action_values`).

    Attributes:
        action: the action (one of the observation's ``legal``).
        mean: the weighted mean counters the seat gains from now to the end of the hand (won minus
            paid, R5; the ante already paid is not counted) if it takes this action; declaring ``out``
            is worth exactly 0 (R5.5).
        se: the standard error of ``mean`` (counters; ``inf`` with fewer than two samples).
        gap_se: the standard error of (the best action's ``mean`` minus this one's), paired over the same
            samples (counters; 0 for the best action itself).
        samples: the deals of the hidden cards the estimate averages over.
    """

    action: Action
    mean: float
    se: float
    gap_se: float
    samples: int


def _weighted(rows: list[tuple[float, float]]) -> tuple[float, float]:
    """Weighted mean and its standard error (the ratio estimator's) of ``(weight, value)`` rows."""
    wsum = sum(w for w, _ in rows)
    if len(rows) < 2 or wsum <= 0:
        return (rows[0][1] if rows else 0.0), math.inf
    m = sum(w * v for w, v in rows) / wsum
    return m, math.sqrt(sum((w * (v - m)) ** 2 for w, v in rows)) / wsum


def _totals(rows: list[tuple[float, Gains]], k: int) -> list[float]:
    """Per choice, the weighted sum of the values of ``rows`` (``(weight, values per choice)``)."""
    totals = [0.0] * k
    for w, row in rows:
        for j in range(k):
            totals[j] += w * row[j]
    return totals


def _resample(out: list[tuple[Deal, float]], count: int, total: float, rng: random.Random) -> list[tuple[Deal, float]]:
    """``count`` draws from the weighted deals ``out`` by systematic resampling (one uniform draw);
    each deal drawn ``m > 0`` times once, with weight ``m``."""
    step = total / count
    u = rng.random() * step
    picked: list[tuple[Deal, float]] = []
    acc = 0.0
    n = 0
    for deal, w in out:
        acc += w
        m = 0
        while u < acc and n < count:
            m += 1
            n += 1
            u += step
        if m:
            picked.append((deal, float(m)))
    return picked


def paired_gap(rows: Sequence[tuple[float, Sequence[float]]], i: int, j: int) -> tuple[float, float]:
    """The weighted mean of action ``i``'s value minus action ``j``'s over the rows of
    :meth:`ExpertBot.value_rows`, and its standard error (paired over the same samples; counters).

    >>> mean, se = paired_gap([(1.0, (2.0, 1.0)), (1.0, (4.0, 2.0))], 0, 1)
    >>> mean, round(se, 3)
    (1.5, 0.354)
    """
    return _weighted([(w, row[i] - row[j]) for w, row in rows])


class ExpertBot:
    """Weighted determinized search with declaration models (see the module docstring).

    Args:
        seed: seed of the sampling random source (same seed, same choices).
        rng: instead of ``seed``, the random source itself (a ``random.Random``).
        samples: weighted samples per declaration, General Rams or target decision.
        play_samples: weighted samples per card played.
        nodes: search nodes per sample before a card is valued by rollouts instead.
        budget: search nodes per card decision in all; later samples are rolled out.
        margin: counters the mean of ``in`` must beat folding by (0, the default: plain expectation;
            a positive margin goes in less often, which measured worse at a mixed table,
            ``docs/benchmarks.md``, "The levels").
        sharp: sharpness of the hand-made declaration model :func:`p_in` (used when
            ``fitted_declarations`` is 0 or no fitted model could be loaded).
        plays: how far the fitted card-play model (:mod:`ramsli.bots.opponent`) is trusted: the
            likelihood of every card another seat played is raised to this power (0: the plays
            are not read, only the voids and trump caps they reveal).
        fitted_declarations: 1: the other seats' declarations are read with the fitted model
            (:mod:`ramsli.bots.opponent`), and in the play the folded seats' cards are dealt too,
            so that their ``out`` counts; 0: with the hand-made :func:`p_in`.
        candidates: when the weights leave fewer than half of the samples effective, more deals
            are drawn, up to this many times the samples in all, and the samples are drawn from
            them by their weights (systematic resampling; 1: never).
        eps: the noisy expert: at each decision with more than one legal action, with this
            probability a legal action drawn uniformly at random instead of the searched one
            (0: never, the expert itself). A player of known, tunable weakness for validating
            the coach's skill counters (``expert:eps=0.1``, :mod:`ramsli.coach.skill`); the draw
            comes from a random source of its own, so ``eps=0`` plays exactly as before.

    Raises:
        ValueError: for an option outside :attr:`OPTION_RANGES`.
        TypeError: if both ``seed`` and ``rng`` are given.
    """

    name = "expert"
    #: the allowed range of each option (checked here and by :func:`~ramsli.bots.base.make_bot`):
    #: bounded, so that no spec makes one decision think for long (the server's table spec too)
    OPTION_RANGES = {
        "samples": (1, 1000),
        "play_samples": (1, 400),
        "nodes": (1, 50000),
        "budget": (1, 400000),
        "margin": (-5, 5),
        "sharp": (0.1, 20),
        "plays": (0, 1),
        "fitted_declarations": (0, 1),
        "candidates": (1, 8),
        "eps": (0, 1),
    }

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 200,
        play_samples: int = 48,
        nodes: int = 6000,
        budget: int = 30000,
        margin: float = 0.0,
        sharp: float = 3.0,
        plays: float = 0.0,
        fitted_declarations: int = 0,
        candidates: int = 1,
        eps: float = 0.0,
        *,
        rng: random.Random | None = None,
    ) -> None:
        for key, value in (
            ("samples", samples),
            ("play_samples", play_samples),
            ("nodes", nodes),
            ("budget", budget),
            ("margin", margin),
            ("sharp", sharp),
            ("plays", plays),
            ("fitted_declarations", fitted_declarations),
            ("candidates", candidates),
            ("eps", eps),
        ):
            lo, hi = self.OPTION_RANGES[key]
            if not lo <= value <= hi:
                raise ValueError(f"{key}={value!r}: allowed is {lo}..{hi}")
        self.rng = random_source(seed, rng, "ExpertBot")
        self.samples = int(samples)
        self.play_samples = int(play_samples)
        self.nodes = int(nodes)
        self.budget = int(budget)
        self.margin = float(margin)
        self.sharp = float(sharp)
        self.plays = float(plays)
        self.fitted_declarations = int(fitted_declarations)
        self.candidates = int(candidates)
        self.eps = float(eps)
        #: the noisy expert's slips (for ``eps=0`` nothing is drawn: the search's stream is untouched)
        self._slips = Slips(self.eps, self.rng)
        #: the fitted opponent model (None: it could not be loaded; the hand-made models are used)
        self.model: OpponentModel | None = default_model()
        self._rules = TipsBot()

    # -- the opponent model -----------------------------------------------------------

    def _setup(self, obs: Observation) -> tuple[Knowledge, list[Check], Deal]:
        return seat_knowledge(obs)

    def _weight(
        self,
        obs: Observation,
        k: Knowledge,
        checks: list[Check],
        played_by: Deal,
        deal: Deal,
        steps: list[PlayStep] | None = None,
        cache: dict[tuple[int, tuple[int, ...]], float] | None = None,
    ) -> float:
        """Likelihood of the other seats' observed declarations, announcements and plays given ``deal``.

        Declarations (R4.5) by the fitted model (each seat a mixture of styles, its declaration and
        plays scored together, :meth:`ramsli.bots.opponent.OpponentModel.seat_weight`) or by the
        hand-made :func:`p_in`; plays (R4.10) by the fitted model when ``steps`` are given, each
        seat's log-likelihood times ``plays``; General Rams (R4.7) and targets (R4.8) by the tips.
        A seat's factor depends on its own cards only, so it is kept in ``cache`` by seat and cards
        (one decision's cache: the observation is the same).
        """
        w = 1.0
        bete = obs.rules.bete_for(obs.pot)
        nseat = len(obs.seated)
        pot0 = obs.pot
        model = self.model
        fitted = model is not None and self.fitted_declarations == 1
        rules = obs.rules
        if cache is None:
            cache = {}
        checked = {s: (stay, nb, nc) for s, stay, nb, nc in checks}
        seats = list(checked)
        if steps and model is not None:
            seats += [s for s in obs.active if s != obs.seat and s in deal and s not in checked]
        for s in seats:
            h = deal.get(s, []) + played_by.get(s, [])
            key = (s, tuple(sorted(h)))
            f = cache.get(key)
            if f is None:
                f = 1.0
                decl = None
                if s in checked and len(h) == 5:
                    stay, nb, nc = checked[s]
                    if fitted and model is not None:
                        ps = model.p_in_styles(
                            h, k.visible_trumps, nb, nc, bete, pot0, rules.targets, rules.general_rams
                        )
                        decl = ps if stay else [1.0 - p for p in ps]
                    else:
                        p = p_in(h, k.visible_trumps, nb, nc, nseat, bete, pot0, self.sharp)
                        f = p if stay else 1.0 - p
                plays = None
                if steps and model is not None and s in obs.active:
                    plays = model.seat_play_loglik(steps, s, h)
                    if plays is not None and self.plays != 1.0:
                        plays = [x * self.plays for x in plays]
                if model is not None and (decl is not None or plays is not None):
                    f *= model.seat_weight(decl, plays)
                cache[key] = f
            w *= f
        if obs.phase is not Phase.DECLARE:
            gr = obs.general_rams
            if gr is not None and gr != obs.seat:
                h = deal.get(gr, []) + played_by.get(gr, [])
                if len(h) == 5:
                    w *= (
                        1.0
                        if rule_general_rams(h, k.visible_trumps)
                        else (0.3 if declare_strength(h, k.visible_trumps)[1] >= 3.5 else 0.03)
                    )
            for s, t in obs.targets:
                if s == obs.seat:
                    continue
                h = deal.get(s, []) + played_by.get(s, [])
                if len(h) == 5:
                    sure = sure_tricks(h, k.visible_trumps)
                    w *= 1.0 if sure >= t else (0.3 if sure >= t - 1 else 0.05)
        return w

    def _samples(
        self, obs: Observation, k: Knowledge, checks: list[Check], played_by: Deal, count: int
    ) -> list[tuple[Deal, float]]:
        """About ``count`` deals of the hidden cards with their weights (R7-consistent).

        ``count`` deals are drawn (:func:`ramsli.bots.tracking.sample_deal`) and weighted by
        :meth:`_weight`. If their effective sample size ``(Σw)² / Σw²`` is below ``count / 2``,
        more deals are drawn, ``count`` at a time, until it is not or ``candidates × count`` have
        been drawn; then ``count`` samples are drawn from them by systematic resampling, and a deal
        drawn ``m`` times comes back once with weight ``m``. After the declarations, with the
        fitted declaration model, the folded seats' cards are dealt too, so that their ``out``
        weighs the deal (R4.5: they are out of play, but not their information).
        """
        model = self.model
        kk, cks = k, checks
        if model is not None and self.fitted_declarations == 1 and obs.phase is not Phase.DECLARE:
            folded = [s for s in obs.seated if s not in obs.active and s != obs.seat]
            if folded:
                kk = dataclasses.replace(k, need={**k.need, **{s: obs.cards_left[s] for s in folded}})
                cks = [
                    (s, stay, nb, nc)
                    for s, stay, nb, nc, forced in declaration_context(obs)
                    if not forced and s != obs.seat and s in kk.need
                ]
        steps = observed_steps(obs, k) if model is not None and self.plays > 0 and played_by else None
        rng = self.rng
        cache: dict[tuple[int, tuple[int, ...]], float] = {}
        out: list[tuple[Deal, float]] = []
        limit = count * self.candidates
        batch = count
        while True:
            for _ in range(batch):
                deal = sample_deal(kk, rng) or {}
                w = self._weight(obs, kk, cks, played_by, deal, steps, cache)
                deal[obs.seat] = k.own
                out.append((deal, w))
            total = sum(w for _, w in out)
            if total <= 0:
                return [(d, 1.0) for d, _ in out[:count]]
            ess = total * total / sum(w * w for _, w in out)
            if ess >= count / 2 or len(out) >= limit:
                break
            batch = min(count, limit - len(out))
        if len(out) == count:
            return out
        return _resample(out, count, total, rng)

    def sample_worlds(self, obs: Observation, count: int) -> tuple[Knowledge, list[tuple[Deal, float]]]:
        """About ``count`` weighted deals of the hidden cards, as the decisions are valued on (R7:
        only ``obs`` is read): the seat's :class:`~ramsli.bots.tracking.Knowledge` (its card codes)
        and ``(deal, weight)`` pairs, a deal being ``{seat: unplayed card codes}`` with the seat's own.
        The coach's reasons read them (:mod:`ramsli.coach.reasons`). Advances the random source."""
        k, checks, played_by = self._setup(obs)
        return k, self._samples(obs, k, checks, played_by if obs.phase is Phase.PLAY else {}, count)

    def _others_announce(
        self, obs: Observation, k: Knowledge, act_t: tuple[int, ...], deal: Deal, me: int, me_gr: bool
    ) -> tuple[int | None, Targets]:
        return others_announce(obs, k, act_t, deal, me, me_gr)

    # -- the decision ----------------------------------------------------------------

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal``, by weighted sampling and search (see the module docstring).

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        only = only_choice(obs)
        if only is not None:
            return only
        slip = self._slips.slip(obs)
        if slip is not None:
            return slip  # the noisy expert: a random legal action
        if obs.phase is Phase.PLAY:
            return self._play(obs)
        if obs.phase is Phase.DECLARE:
            return self._declare(obs)
        return self._announce(obs)

    def _declare(self, obs: Observation) -> Action:
        """R4.5: ``in`` if the weighted mean counters of playing beat folding (0, R5.5) by ``margin``."""
        return Action.declare(obs.seat, self.declare_value(obs) > self.margin)

    def declare_value(self, obs: Observation) -> float:
        """The estimated counters of declaring ``in`` (R4.5) from now to the end of the hand, relative
        to ``out`` (worth 0, R5.5): the weighted mean over ``samples`` deals (see the module docstring).

        Args:
            obs: the seat's observation in the declaration phase (R7: nothing else is read).

        Returns:
            counters (a float; the ante already paid is not counted).

        Raises:
            ValueError: if ``obs`` is not in the declaration phase.
        """
        if obs.phase is not Phase.DECLARE:
            raise ValueError(f"declare_value needs the declaration phase (R4.5), not {obs.phase}")
        total = wsum = 0.0
        for w, v in self._declare_rows(obs):
            wsum += w
            total += w * v
        return total / max(wsum, 1e-300)

    def _declare_rows(self, obs: Observation) -> list[tuple[float, float]]:
        """``(weight, counters of in)`` per weighted sample of a declaration (R4.5, R4.6, R5)."""
        k, checks, _ = self._setup(obs)
        pay = Payoff(obs)
        me = obs.seat
        order = pay.order
        after = order[order.index(me) + 1 :]
        before_in = list(obs.active)
        bete = obs.rules.bete_for(obs.pot)
        nseat = len(order)
        rows: list[tuple[float, float]] = []
        rng = self.rng
        model = self.model if self.fitted_declarations == 1 else None
        rules = obs.rules
        for deal, w in self._samples(obs, k, checks, {}, self.samples):
            active = before_in + [me]
            for j, s in enumerate(after):
                nb, nc = len(active), len(after) - j - 1
                if model is not None:
                    p = model.p_in(deal[s], k.visible_trumps, nb, nc, bete, obs.pot, rules.targets, rules.general_rams)
                else:
                    p = p_in(deal[s], k.visible_trumps, nb, nc, nseat, bete, obs.pot, self.sharp)
                if rng.random() < p:
                    active.append(s)
            act_t = tuple(s for s in order if s in active)
            if len(act_t) == 1:
                rows.append((w, obs.pot))  # R4.6 walkover
                continue
            gr, targets = self._others_announce(obs, k, act_t, deal, me, me_gr=False)
            tricks = rollout([deal[s] for s in act_t], 0, (), (0,) * len(act_t), k.always, 0)
            rows.append((w, pay.values(act_t, tricks, gr, targets)[act_t.index(me)]))
        return rows

    def action_values(self, obs: Observation) -> list[ActionValue]:
        """Every legal action of ``obs`` with its estimated counters, from the samples :meth:`act` decides
        by: declarations (R4.5) from ``samples`` weighted rollouts (``out`` is worth 0, R5.5; :meth:`act`
        goes in when ``in`` beats it by ``margin``), General Rams and targets (R4.7, R4.8) from
        ``samples`` weighted rollouts, cards (R4.10) from ``play_samples`` weighted searches or
        rollouts. Only the seat's observation is read (R7). The random source advances as for one
        decision of :meth:`act` (also when only one action is legal).

        Returns:
            one :class:`ActionValue` per action of ``obs.legal``, in that order.

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).

        >>> from ramsli import Hand, Rules
        >>> hand = Hand.new(Rules(), [20] * 4, dealer=0, seed=5)
        >>> values = ExpertBot(seed=1, samples=32).action_values(hand.observe(hand.to_act))
        >>> [(str(v.action), v.samples) for v in values]
        [('p2 in', 32), ('p2 out', 32)]
        >>> values[1].mean, values[1].se
        (0.0, 0.0)
        """
        choices, rows = self.value_rows(obs)
        stats = [_weighted([(w, row[j]) for w, row in rows]) for j in range(len(choices))]
        best = max(range(len(choices)), key=lambda j: stats[j][0])
        out = []
        for j, a in enumerate(choices):
            gap = 0.0 if j == best else _weighted([(w, row[best] - row[j]) for w, row in rows])[1]
            out.append(ActionValue(a, stats[j][0], stats[j][1], gap, len(rows)))
        return out

    def value_rows(self, obs: Observation) -> tuple[list[Action], Sequence[tuple[float, Sequence[float]]]]:
        """The samples behind :meth:`action_values`: the legal actions of ``obs`` and, per weighted sample,
        ``(weight, counters of each action)`` (in the order of the actions; ``out`` is 0, R5.5). Two
        actions' values on the same row are paired (the same deal of the hidden cards), so the standard
        error of a difference is :func:`paired_gap`'s. The random source advances as for
        :meth:`action_values` (the same seed, the same rows).

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        only_choice(obs)  # a ValueError when it is not this seat's turn
        if obs.phase is Phase.DECLARE:
            drows = self._declare_rows(obs)
            choices = list(obs.legal)
            return choices, [(w, tuple(v if a.kind == "in" else 0.0 for a in choices)) for w, v in drows]
        if obs.phase is Phase.PLAY:
            return self._play_rows(obs)
        return self._announce_rows(obs)

    def _announce(self, obs: Observation) -> Action:
        """R4.7 General Rams or R4.8 target: the choice with the best weighted mean counters."""
        choices, rows = self._announce_rows(obs)
        return self._best(obs, choices, _totals(rows, len(choices)))

    def _announce_rows(self, obs: Observation) -> tuple[list[Action], list[tuple[float, Gains]]]:
        """The choices of R4.7 or R4.8 and ``(weight, counters per choice)`` per weighted sample."""
        k, checks, _ = self._setup(obs)
        pay = Payoff(obs)
        me = obs.seat
        act_t = tuple(obs.active)
        mi = act_t.index(me)
        choices = list(obs.legal)
        rows = []
        for deal, w in self._samples(obs, k, checks, {}, self.samples):
            tricks = rollout([deal[s] for s in act_t], 0, (), (0,) * len(act_t), k.always, 0)
            row = []
            for a in choices:
                gr, targets = self._others_announce(obs, k, act_t, deal, me, me_gr=a.kind == "gr")
                if a.kind == "t":
                    d = dict(targets)
                    assert a.target is not None  # a target announcement has one (R4.8)
                    d[me] = a.target
                    targets = tuple(sorted(d.items()))
                row.append(pay.values(act_t, tricks, gr, targets)[mi])
            rows.append((w, tuple(row)))
        return choices, rows

    def _best(self, obs: Observation, choices: list[Action], totals: list[float]) -> Action:
        """The best choice; near-ties (1e-9) go to the tips' choice."""
        pref = self._rules.act(obs)
        best = max(totals)
        for a, t in zip(choices, totals):
            if a is pref and t >= best - 1e-9 * max(1.0, abs(best)):
                return a
        return choices[totals.index(best)]

    def _play(self, obs: Observation) -> Action:
        """R4.10: PIMC — the card with the best weighted mean counters over the samples."""
        choices, rows = self._play_rows(obs)
        return self._best(obs, choices, _totals(rows, len(choices)))

    def _play_rows(self, obs: Observation) -> tuple[list[Action], list[tuple[float, Gains]]]:
        """The legal cards (R4.10) and ``(weight, counters per card)`` per weighted sample (PIMC)."""
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
        rows = []
        pcache: dict[tuple[int, ...], Gains] = {}

        def payoff(tr: tuple[int, ...]) -> Gains:
            return pay.values(act_t, tr, gr, targets)

        search = True
        spent = 0
        for deal, w in self._samples(obs, k, checks, played_by, self.play_samples):
            hands = [deal[s] for s in act_t]
            if search:
                solver = Solver(n, payoff, k.always, node_limit=min(self.nodes, self.budget - spent), cache=pcache)
                try:
                    vals = solver.root(hands, leader, cur, tricks0)
                    rows.append((w, tuple(vals[c][mi] for c in codes)))
                    spent += solver.nodes
                    if spent >= self.budget:
                        search = False
                    continue
                except OverflowError:
                    search = False  # too big to search this early: the rest are rolled out
            rows.append(
                (w, tuple(payoff(play_out(hands, mi, c, leader, cur, tricks0, k.always, trick_no))[mi] for c in codes))
            )
        return [Action.play(me, k.codec.dec(c)) for c in codes], rows


register_bot("expert", ExpertBot)
