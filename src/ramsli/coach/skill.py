"""Skill counters: the counters a seat's decisions gained in a hand, with the luck taken out. No I/O.

For a finished hand and one seat, :func:`skill_of_hand` takes every decision of that seat with a
real choice — the declaration (R4.5), General Rams and target answers (R4.7, R4.8), each card
(R4.10) — and values, from that seat's knowledge only (R7, the coach's :func:`~ramsli.coach.review.
seat_view`), the choice it made and the choice the **baseline** (the ``expert`` level,
:mod:`ramsli.bots.expert`) makes in the same place, with the coach's values
(:mod:`ramsli.coach.review`: counters from the decision to the end of the hand). The hand's
**skill counters** are the sum over the decisions of *chosen value − baseline value*::

    skill = Σ_i [ V(I_i, chosen_i) − V(I_i, expert_i) ]

What it estimates. By the performance-difference identity (an advantage sum), if ``V`` were the
true value of each choice with the baseline's play to follow, the expectation of ``skill`` over
hands is exactly the seat's expected counters per hand minus the baseline's in the same seat
against the same opponents: **counters gained per hand by the decisions, relative to the expert
level**. It does not depend on how the cards fell after a decision (that is the luck it removes):
only on the situations the seat met and what it chose there. Positive: better than the baseline's
choices by the coach's values; the baseline against itself is 0 in expectation *exactly*, whatever
the errors of ``V``, because its choice and the seat's are then two draws from the same policy
valued by the same independently seeded estimate.

Where it is biased (``docs/skill.md``): ``V`` is the coach's model, not the truth — the hidden
cards weighted by the expert's model of the others, the rest of the hand played by the tips
(declarations, announcements) or searched with every card seen (perfect-information search, cards).
A choice that is good for reasons the model does not see (reading a person, a later trick the
rollout misplays) is scored by the model's account. The value noise of each decision is
independent and zero-mean, so it adds variance, not bias (:attr:`HandSkill.variance`).

The luck terms (the control variate, kept beside the estimate so that its validation can use them):

- :attr:`HandSkill.deal_value` — the dealt position's value before any decision of the seat, valued
  the same way: ``V(I_1, expert_1)`` minus the ante (R4.1), at the seat's first decision (its cards,
  the turn-up, the declarations before it);
- :attr:`HandSkill.net` — the counters the hand actually brought (stack change, ante included);
- :attr:`HandSkill.luck` — ``net − deal_value − skill``: what the rest of the hand (the others'
  cards and choices) brought beyond the expectation.

So ``net = deal_value + skill + luck``; :attr:`HandSkill.corrected` ``= net − deal_value`` is the
net with only the deal's luck removed (its expectation is the same as ``skill``'s up to a constant
of the game, the model's error on the first decision; unbiased for *differences* between players
of one game, but noisier).

:class:`SkillSummary` adds hands up (sufficient statistics: it can be kept as a running total and
merged): hands, mean skill counters per hand and its 95% interval ``1.96 · sd / √n`` (the spread
between hands, the value noise included), the same for the raw net and the corrected net.

Deterministic: the same history, seat, :class:`~ramsli.coach.review.Settings` and baseline give the
same :class:`HandSkill` (the values are seeded as the review's, so they are the coach page's values;
the baseline's choice from a seed of its own).

>>> from ramsli import Hand, Rules
>>> from ramsli.bots.base import play_hand
>>> from ramsli.bots.expert import ExpertBot
>>> hand = Hand.new(Rules(), [20] * 3, dealer=0, seed=11)
>>> play_hand(hand, {s: ExpertBot(seed=s, samples=40, play_samples=12) for s in range(3)})
>>> quick = Settings(equilibrium=False, declare_samples=100, play_samples=16)
>>> hs = skill_of_hand(hand, 1, quick)
>>> hs == skill_of_hand(hand, 1, quick), abs(hs.net - hs.deal_value - hs.skill - hs.luck) < 1e-9
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from ramsli.bots.base import make_bot
from ramsli.bots.expert import paired_gap
from ramsli.coach.review import (
    KINDS,
    Z95,
    CoachError,
    Settings,
    _equilibrium_values,
    _expert,
    _history,
    _kind,
    _seed,
    check_history,
    seat_decisions,
)
from ramsli.hand import Action, Hand, Observation, Phase
from ramsli.history import HandHistory
from ramsli.seats import seat_name

__all__ = [
    "FORMAT",
    "SUMMARY_FORMAT",
    "BASELINE",
    "DecisionSkill",
    "HandSkill",
    "SkillSummary",
    "DecisionSkillRecord",
    "HandSkillRecord",
    "SkillSummaryRecord",
    "skill_of_hand",
    "hands_needed",
]

#: the format of :meth:`HandSkill.to_dict`
FORMAT = "ramsli-skill/1"
#: the format of :meth:`SkillSummary.to_dict`
SUMMARY_FORMAT = "ramsli-skill-summary/1"
#: the baseline the decisions are measured against: the ``expert`` level
BASELINE = "expert"
#: mixed into a decision's seed for the baseline's own choice (independent of the values' samples)
_BASELINE_SALT = 0x5EED_BA5E_11


class DecisionSkillRecord(TypedDict):
    """:meth:`DecisionSkill.to_dict`."""

    decision: int
    action: int
    kind: str
    rule: str
    trick: int | None
    chosen: str
    expert: str
    chosen_value: float
    expert_value: float
    diff: float
    diff_ci95: float | None
    source: str
    samples: int


class HandSkillRecord(TypedDict):
    """:meth:`HandSkill.to_dict` (``docs/skill.md``)."""

    format: str
    hand: int | None
    seat: str
    name: str
    players: int
    cards_known: bool
    baseline: str
    decisions: list[DecisionSkillRecord]
    forced: int
    skill: float
    skill_ci95: float | None
    deal_value: float
    net: int
    luck: float
    corrected: float
    coach_seed: int


class SkillSummaryRecord(TypedDict):
    """:meth:`SkillSummary.to_dict` (``docs/skill.md``); ``sums`` are the sufficient statistics."""

    format: str
    hands: int
    decisions: int
    skill: dict[str, float | None]
    net: dict[str, float | None]
    corrected: dict[str, float | None]
    sums: dict[str, float]


@dataclass(frozen=True)
class DecisionSkill:
    """One decision of the seat, its choice against the baseline's.

    Attributes:
        number: 1-based among the seat's decisions with a real choice (as in the coach's review).
        action_index: 1-based position of the chosen action in the hand's actions.
        kind: ``"declare"``, ``"general_rams"``, ``"target"`` or ``"card"``; rule: its rule (``"R4.5"``...).
        trick: 1-based trick of a card decision, else None.
        chosen: the action taken; expert: the baseline's choice in the same place (same observation).
        chosen_value, expert_value: their values (counters from the decision to the end of the hand, R5).
        diff: ``chosen_value − expert_value`` (counters; 0 when they are the same action).
        diff_se: the standard error of ``diff``, paired over the same samples (counters; 0 when the same).
        source: ``"equilibrium"`` or ``"expert"`` (where the values come from, as in the review).
        samples: the deals the values average over.
    """

    number: int
    action_index: int
    kind: str
    rule: str
    trick: int | None
    chosen: Action
    expert: Action
    chosen_value: float
    expert_value: float
    diff: float
    diff_se: float
    source: str
    samples: int

    @property
    def diff_ci95(self) -> float:
        """Half-width of the 95% interval of :attr:`diff` (counters)."""
        return Z95 * self.diff_se

    def to_dict(self) -> DecisionSkillRecord:
        """The decision as JSON data (3 decimals; an unbounded interval as None)."""
        return {
            "decision": self.number,
            "action": self.action_index,
            "kind": self.kind,
            "rule": self.rule,
            "trick": self.trick,
            "chosen": str(self.chosen),
            "expert": str(self.expert),
            "chosen_value": round(self.chosen_value, 3),
            "expert_value": round(self.expert_value, 3),
            "diff": round(self.diff, 3),
            "diff_ci95": _r(self.diff_ci95),
            "source": self.source,
            "samples": self.samples,
        }


def _r(x: float) -> float | None:
    return None if not math.isfinite(x) else round(x, 3)


@dataclass(frozen=True)
class HandSkill:
    """The skill counters of one seat in one hand (see the module text).

    Attributes:
        seat: the seat (0-based); name: its player's name; hand_number: in its session, or None.
        players: seats in the hand.
        cards_known: False if the seat's own cards are not recorded (``??``): nothing is valued and the
            hand does not count in a :class:`SkillSummary`.
        baseline: the bot spec the choices are measured against (:data:`BASELINE`).
        decisions: the seat's decisions with a real choice, in order.
        forced: decisions with one legal choice (nothing to choose: they add 0).
        skill: the hand's skill counters, ``Σ diff`` (counters).
        variance: the variance of ``skill`` from the values' sampling, ``Σ diff_se²`` (counters²).
        deal_value: the dealt position's expected counters under the baseline, ante included (R4.1).
        deal_se: the standard error of ``deal_value`` (counters).
        net: the counters the hand brought the seat (stack change, ante included).
        settings: how the values were computed.
    """

    seat: int
    name: str
    hand_number: int | None
    players: int
    cards_known: bool
    baseline: str
    decisions: tuple[DecisionSkill, ...]
    forced: int
    skill: float
    variance: float
    deal_value: float
    deal_se: float
    net: int
    settings: Settings = field(compare=True)

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval of :attr:`skill` from the values' sampling (counters)."""
        return Z95 * math.sqrt(self.variance)

    @property
    def luck(self) -> float:
        """``net − deal_value − skill``: what the rest of the hand brought beyond expectation (counters)."""
        return self.net - self.deal_value - self.skill

    @property
    def corrected(self) -> float:
        """``net − deal_value``: the net with the deal's luck removed (counters)."""
        return self.net - self.deal_value

    def to_dict(self) -> HandSkillRecord:
        """The hand's skill as JSON data (format :data:`FORMAT`, ``docs/skill.md``)."""
        return {
            "format": FORMAT,
            "hand": self.hand_number,
            "seat": seat_name(self.seat),
            "name": self.name,
            "players": self.players,
            "cards_known": self.cards_known,
            "baseline": self.baseline,
            "decisions": [d.to_dict() for d in self.decisions],
            "forced": self.forced,
            "skill": round(self.skill, 3),
            "skill_ci95": _r(self.ci95),
            "deal_value": round(self.deal_value, 3),
            "net": self.net,
            "luck": round(self.luck, 3),
            "corrected": round(self.corrected, 3),
            "coach_seed": self.settings.seed,
        }


def hands_needed(sd: float, gap: float, z: float = Z95) -> float:
    """Hands needed for a mean with per-hand standard deviation ``sd`` to tell ``gap`` from 0 at 95%:
    ``(z · sd / gap)²`` (inf for a zero gap).

    >>> hands_needed(10.0, 1.0)
    384.16
    """
    if gap == 0:
        return math.inf
    return round((z * sd / gap) ** 2, 6)


def _moments(n: int, s: float, ss: float) -> tuple[float, float, float]:
    """``(mean, sd, ci95)`` from ``n`` values' sum and sum of squares (nan/inf with too few)."""
    if n == 0:
        return math.nan, math.nan, math.inf
    mean = s / n
    if n < 2:
        return mean, math.nan, math.inf
    var = max(0.0, (ss - n * mean * mean) / (n - 1))
    sd = math.sqrt(var)
    return mean, sd, Z95 * sd / math.sqrt(n)


@dataclass(frozen=True)
class SkillSummary:
    """Skill counters over many hands of one player: sufficient statistics (sums), so a server can keep a
    running total per player and merge them (:meth:`add`, :meth:`merge`).

    Attributes:
        hands: hands counted (those with the seat's cards known); decisions: decisions valued in them.
        skill_sum, skill_sq: the sum and the sum of squares of the hands' skill counters.
        net_sum, net_sq: the same for the net counters; corrected_sum, corrected_sq: for ``net − deal_value``.

    >>> s = SkillSummary().merge(SkillSummary(hands=4, skill_sum=-2.0, skill_sq=4.0))
    >>> s.hands, s.mean, round(s.sd, 3)
    (4, -0.5, 1.0)
    """

    hands: int = 0
    decisions: int = 0
    skill_sum: float = 0.0
    skill_sq: float = 0.0
    net_sum: float = 0.0
    net_sq: float = 0.0
    corrected_sum: float = 0.0
    corrected_sq: float = 0.0

    @classmethod
    def of(cls, hands: Sequence[HandSkill]) -> SkillSummary:
        """The summary of ``hands`` (hands with the seat's cards unknown are left out)."""
        out = cls()
        for h in hands:
            out = out.add(h)
        return out

    def add(self, hand: HandSkill) -> SkillSummary:
        """This summary with ``hand`` added (unchanged for a hand whose seat's cards are unknown)."""
        if not hand.cards_known:
            return self
        c = hand.corrected
        return SkillSummary(
            self.hands + 1,
            self.decisions + len(hand.decisions),
            self.skill_sum + hand.skill,
            self.skill_sq + hand.skill * hand.skill,
            self.net_sum + hand.net,
            self.net_sq + hand.net * hand.net,
            self.corrected_sum + c,
            self.corrected_sq + c * c,
        )

    def merge(self, other: SkillSummary) -> SkillSummary:
        """Both summaries' hands together."""
        return SkillSummary(
            self.hands + other.hands,
            self.decisions + other.decisions,
            self.skill_sum + other.skill_sum,
            self.skill_sq + other.skill_sq,
            self.net_sum + other.net_sum,
            self.net_sq + other.net_sq,
            self.corrected_sum + other.corrected_sum,
            self.corrected_sq + other.corrected_sq,
        )

    @property
    def mean(self) -> float:
        """Skill counters per hand (nan with no hand)."""
        return _moments(self.hands, self.skill_sum, self.skill_sq)[0]

    @property
    def sd(self) -> float:
        """The standard deviation of a hand's skill counters (nan with fewer than two hands)."""
        return _moments(self.hands, self.skill_sum, self.skill_sq)[1]

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval of :attr:`mean` (inf with fewer than two hands)."""
        return _moments(self.hands, self.skill_sum, self.skill_sq)[2]

    def net(self) -> tuple[float, float, float]:
        """``(mean, sd, ci95)`` of the net counters per hand."""
        return _moments(self.hands, self.net_sum, self.net_sq)

    def corrected(self) -> tuple[float, float, float]:
        """``(mean, sd, ci95)`` of ``net − deal_value`` per hand."""
        return _moments(self.hands, self.corrected_sum, self.corrected_sq)

    def to_dict(self) -> SkillSummaryRecord:
        """The summary as JSON data (format :data:`SUMMARY_FORMAT`); :meth:`from_dict` reads it back."""

        def part(m: tuple[float, float, float]) -> dict[str, float | None]:
            return {"mean": _r(m[0]), "sd": _r(m[1]), "ci95": _r(m[2])}

        return {
            "format": SUMMARY_FORMAT,
            "hands": self.hands,
            "decisions": self.decisions,
            "skill": part(_moments(self.hands, self.skill_sum, self.skill_sq)),
            "net": part(self.net()),
            "corrected": part(self.corrected()),
            "sums": {
                "skill_sum": self.skill_sum,
                "skill_sq": self.skill_sq,
                "net_sum": self.net_sum,
                "net_sq": self.net_sq,
                "corrected_sum": self.corrected_sum,
                "corrected_sq": self.corrected_sq,
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SkillSummary:
        """A summary from :meth:`to_dict`'s data.

        Raises:
            ValueError: for data of another format or with missing sums.
        """
        if data.get("format") != SUMMARY_FORMAT:
            raise ValueError(f"not a {SUMMARY_FORMAT} record: {data.get('format')!r}")
        try:
            sums = {k: float(data["sums"][k]) for k in cls._SUMS}
            return cls(int(data["hands"]), int(data["decisions"]), **sums)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"a {SUMMARY_FORMAT} record with a missing or bad field: {e}") from None

    _SUMS = ("skill_sum", "skill_sq", "net_sum", "net_sq", "corrected_sum", "corrected_sq")


# -- the values ------------------------------------------------------------------------------------


def _values(
    obs: Observation, hh: HandHistory, settings: Settings, seed: int, chosen: Action
) -> tuple[list[Action], Callable[[int, int], tuple[float, float]], list[tuple[float, float]], str, int]:
    """The legal actions, a paired-difference function ``gap(i, j) -> (mean, se)``, each action's
    ``(mean, se)``, the source and the samples — the coach's values of one decision, seeded as the review's."""
    if obs.phase is Phase.DECLARE:
        eq = _equilibrium_values(obs, hh, settings, seed, chosen)
        if eq is not None:
            vals = eq[0]
            acts = [v.action for v in vals]
            stats = [(v.mean, v.se) for v in vals]

            def eq_gap(i: int, j: int) -> tuple[float, float]:
                # out is exactly 0 (R5.5): the difference's error is the error of in's value
                return stats[i][0] - stats[j][0], max(stats[i][1], stats[j][1])

            return acts, eq_gap, stats, "equilibrium", vals[0].samples
    acts, rows = _expert(settings, seed).value_rows(obs)
    stats = [paired_gap([(w, (row[j], 0.0)) for w, row in rows], 0, 1) for j in range(len(acts))]
    return acts, (lambda i, j: paired_gap(rows, i, j)), stats, "expert", len(rows)


def skill_of_hand(
    source: HandHistory | Hand,
    seat: int,
    settings: Settings | None = None,
    *,
    baseline: str = BASELINE,
    names: Sequence[str] | None = None,
    checked: bool = False,
    hand_number: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> HandSkill:
    """The skill counters of ``seat`` in a finished hand (see the module text).

    Args:
        source: a hand history (other seats' cards may be ``??``) or a finished :class:`~ramsli.hand.Hand`.
        seat: the seat (0-based).
        settings: the coach's samples and seed (default :class:`~ramsli.coach.review.Settings`).
        baseline: the bot spec the choices are measured against (default the ``expert`` level).
        names: the players' names for a ``Hand``; hand_number: a ``Hand``'s number in its session
            (it seeds the values, as in :func:`~ramsli.coach.review.review_hand`).
        checked: the history was already replayed and its settlement checked.
        progress: called as ``progress(done, total)`` after each valued decision.

    Returns:
        the :class:`HandSkill`; with ``cards_known`` False (and nothing valued) if the seat's own cards
        are not recorded.

    Raises:
        ReplayError, HistoryError: as :func:`~ramsli.coach.review.review_hand` (an action the rules do not
            allow, R4.12; a settlement the replay does not reproduce, R5);
        CoachError: a hand that is not finished, or a seat not seated in it;
        BotSpecError: an unknown ``baseline``.
    """
    settings = settings or Settings()
    hh = _history(source, names, hand_number)
    hand = hh.replay() if checked else check_history(hh)
    if not 0 <= seat < len(hh.names) or seat not in hh.seated:
        raise CoachError(f"{seat_name(seat)} is not seated in this hand (R3.5)")
    net = hand.stacks[seat] - hh.stacks[seat]
    make_bot(baseline)  # an unknown baseline is refused before any work

    def made(known: bool, decisions: tuple[DecisionSkill, ...], forced: int, deal: tuple[float, float]) -> HandSkill:
        return HandSkill(
            seat=seat,
            name=hh.names[seat],
            hand_number=hh.hand_number,
            players=len(hh.seated),
            cards_known=known,
            baseline=baseline,
            decisions=decisions,
            forced=forced,
            skill=sum(d.diff for d in decisions),
            variance=sum(d.diff_se**2 for d in decisions if math.isfinite(d.diff_se)),
            deal_value=deal[0],
            deal_se=deal[1],
            net=net,
            settings=settings,
        )

    if None in hh.cards[seat]:
        return made(False, (), 0, (0.0, 0.0))
    steps = seat_decisions(hh, seat)
    real = [(i, obs, a) for i, obs, a in steps if len(obs.legal) > 1]
    ante = hh.rules.ante
    deal: tuple[float, float] | None = None
    if steps and len(steps[0][1].legal) == 1:  # the first decision is forced: its one action's value
        i, obs, a = steps[0]
        _, _, stats, _, _ = _values(obs, hh, settings, _seed(settings, hh.hand_number, seat, i), a)
        deal = (stats[0][0] - ante, stats[0][1])
    decisions = []
    for n, (i, obs, chosen) in enumerate(real, 1):
        seed = _seed(settings, hh.hand_number, seat, i)
        acts, gap, stats, src, samples = _values(obs, hh, settings, seed, chosen)
        expert = make_bot(baseline, seed=(seed ^ _BASELINE_SALT) & 0x7FFF_FFFF_FFFF_FFFF).act(obs)
        ci, ei = acts.index(chosen), acts.index(expert)
        diff, se = (0.0, 0.0) if ci == ei else gap(ci, ei)
        if deal is None:
            deal = (stats[ei][0] - ante, stats[ei][1])
        decisions.append(
            DecisionSkill(
                number=n,
                action_index=i,
                kind=_kind(obs),
                rule=KINDS[_kind(obs)],
                trick=len(obs.tricks) + 1 if obs.phase is Phase.PLAY else None,
                chosen=chosen,
                expert=expert,
                chosen_value=stats[ci][0],
                expert_value=stats[ei][0],
                diff=diff,
                diff_se=se,
                source=src,
                samples=samples,
            )
        )
        if progress is not None:
            progress(n, len(real))
    return made(True, tuple(decisions), len(steps) - len(real), deal or (-float(ante), 0.0))
