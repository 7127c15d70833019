"""The review of one hand for one seat: every decision valued in counters, the mistakes marked.

For a finished hand and one seat, :func:`review_hand` goes through every decision that seat
made with a real choice — the declaration (R4.5), General Rams (R4.7) and the trick target
(R4.8), each card (R4.10) — and values every choice it had, in counters won minus counters
paid from that moment to the end of the hand (R5; the ante already paid is not counted, so
``out`` is worth exactly 0, R5.5). The chosen choice's *loss* is the best choice's value
minus its own; a loss large enough, and outside the noise of the estimate, gets a *mark*
(:data:`MARKS`) and one line in player words (:mod:`ramsli.coach.words`).

**Only what the seat could know** (R7, D-16). The review never looks at another seat's
cards: :func:`seat_view` rebuilds the hand from the seat's own five cards and the public
record — the turn-up, the stacks and pot, every declaration and announcement, every card
played and by whom — with every other card unknown (``None``, a hand history's ``??``). Each
decision's :class:`~ramsli.hand.Observation` is that hand's ``observe(seat)`` at that moment,
and the values are computed from the observation alone, the hidden cards sampled as the
expert samples them (:meth:`ramsli.bots.expert.ExpertBot.action_values`). A hand history in
which every other seat's folded cards are ``??`` is enough.

**Where the values come from** (``source`` of each decision):

- ``"equilibrium"``: a declaration in a game the lab has solved (a shipped declaration policy
  for these rules, this number of players and this carry-in pot, :func:`ramsli.lab.equilibrium.
  default_policy`), when no stack is too short to pay the bete (R5.8): the counters ``in`` gains
  over ``out`` for this very hand against everyone else declaring by the equilibrium
  (:func:`ramsli.lab.solve.hand_advantage`, the lab's Numba kernel; the extra ``lab``);
- ``"expert"``: everything else — declarations elsewhere (or without the extra ``lab``), General
  Rams, targets and cards — the expert's weighted samples (rollouts for declarations and
  announcements, perfect-information search or rollouts per card).

**Marks** (:data:`MARKS`): a loss of at least 0.3 counters is an ``inaccuracy``, of at least 1 a
``mistake``, of at least 3 a ``blunder`` — but only when the 95% interval of the loss lies
above zero (``loss > 1.96 · standard error``, the error of the paired difference over the same
samples): a loss inside the noise of the estimate gets no mark.

Deterministic: the same history, seat and :attr:`Settings.seed` give the same review.

>>> from ramsli import Hand, Rules
>>> from ramsli.bots.base import play_hand
>>> from ramsli.bots.expert import ExpertBot
>>> hand = Hand.new(Rules(), [20] * 3, dealer=0, seed=11)
>>> play_hand(hand, {s: ExpertBot(seed=s, samples=40, play_samples=12) for s in range(3)})
>>> review = review_hand(hand, 1, Settings(equilibrium=False, declare_samples=100, play_samples=16))
>>> review.seat, review.decisions[0].kind, review.decisions[0].source
(1, 'declare', 'expert')
>>> review == review_hand(hand, 1, Settings(equilibrium=False, declare_samples=100, play_samples=16))
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from ramsli.bots.expert import ActionValue, ExpertBot
from ramsli.cards import Card
from ramsli.coach.lines import Line, LineRecord, line_for
from ramsli.coach.reasons import Reason, ReasonRecord, reason_for
from ramsli.errors import RamsliError
from ramsli.hand import Action, Hand, Observation, Phase
from ramsli.history import HandHistory, HistoryError
from ramsli.lab.equilibrium import default_policy, history_bits
from ramsli.refusal import N_
from ramsli.seats import seat_name

__all__ = [
    "FORMAT",
    "MARKS",
    "Z95",
    "KINDS",
    "Settings",
    "ChoiceValue",
    "Decision",
    "HandReview",
    "ChoiceRecord",
    "DecisionRecord",
    "HandReviewRecord",
    "CoachError",
    "mark_for",
    "check_history",
    "seat_view",
    "seat_decisions",
    "review_hand",
]

#: the format of :meth:`HandReview.to_dict`
FORMAT = "ramsli-review/1"

#: the marks, largest first: ``(name, least loss in counters)``; a loss below the last gets no mark
MARKS: tuple[tuple[str, float], ...] = (("blunder", 3.0), ("mistake", 1.0), ("inaccuracy", 0.3))
#: the marks' names in the catalogs (the words a player reads)
MARK_WORDS = {"blunder": N_("Blunder"), "mistake": N_("Mistake"), "inaccuracy": N_("Inaccuracy")}
#: the normal quantile of a two-sided 95% interval: a loss is outside the noise above ``Z95 * se``
Z95 = 1.96

#: decision kinds and the rule each is made under
KINDS = {"declare": "R4.5", "general_rams": "R4.7", "target": "R4.8", "card": "R4.10"}


class CoachError(RamsliError, ValueError):
    """A hand the coach cannot review: not finished, or a seat that is not seated in it.

    Attributes:
        reason: what is wrong (English; the command line prints it).
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class Settings:
    """How hard the coach looks (samples per decision) and from which seed.

    Attributes:
        seed: seed of every sample (the same seed, the same review).
        equilibrium: value declarations by the solved equilibrium where there is one (else the expert).
        equilibrium_samples: deals per declaration valued by the equilibrium (a sixth of them first,
            enough when they show the declaration made to be the better one; twice as many where
            the declarations before make the deals rare).
        declare_samples: the expert's weighted rollouts per declaration, General Rams or target.
        play_samples: the expert's weighted samples per card decision.
        nodes, budget: the expert's search nodes per sample and per card decision
            (:class:`~ramsli.bots.expert.ExpertBot`).

    Raises:
        ValueError: for a setting outside its range (the expert's :attr:`~ramsli.bots.expert.ExpertBot.
            OPTION_RANGES` for its four).
    """

    seed: int = 0
    equilibrium: bool = True
    equilibrium_samples: int = 2000
    declare_samples: int = 1000
    play_samples: int = 200
    nodes: int = 6000
    budget: int = 200000

    def __post_init__(self) -> None:
        ranges = {
            "equilibrium_samples": (2, 200_000),
            "declare_samples": ExpertBot.OPTION_RANGES["samples"],
            "play_samples": ExpertBot.OPTION_RANGES["play_samples"],
            "nodes": ExpertBot.OPTION_RANGES["nodes"],
            "budget": ExpertBot.OPTION_RANGES["budget"],
            "seed": (0, 2**63 - 1),
        }
        for key, (lo, hi) in ranges.items():
            value = getattr(self, key)
            if type(value) is not int or not lo <= value <= hi:
                raise ValueError(f"coach setting {key}={value!r}: allowed is a whole number {lo}..{hi}")


class ChoiceRecord(TypedDict):
    """One choice of a :class:`DecisionRecord`: the action's text and its value in counters (3 decimals;
    None for an infinite interval)."""

    action: str
    mean: float | None
    ci95: float | None


class DecisionRecord(TypedDict):
    """:meth:`Decision.to_dict`: a decision as JSON data (``docs/coach.md``); cards as text, seats as ``p3``.

    ``lead`` and ``declarations`` are ``[seat, card]`` and ``[seat, "in" | "out"]`` pairs; ``text``
    is there only when :meth:`HandReview.to_dict` renders the lines.
    """

    decision: int
    action: int
    kind: str
    rule: str
    trick: int | None
    trump: str
    cards: list[str]
    lead: list[list[str]]
    declarations: list[list[str]]
    chosen: str
    best: str
    choices: list[ChoiceRecord]
    loss: float | None
    loss_ci95: float | None
    mark: str | None
    source: str
    samples: int
    effective: float | None
    line: LineRecord | None
    reason: ReasonRecord | None
    text: NotRequired[str | None]


class HandReviewRecord(TypedDict):
    """:meth:`HandReview.to_dict`: a hand's review as JSON data (format :data:`FORMAT`, ``docs/coach.md``)."""

    format: str
    hand: int | None
    seat: str
    name: str
    players: int
    dealer: str
    cards_known: bool
    decisions: list[DecisionRecord]
    forced: int
    marked_loss: float
    marks: dict[str, int]
    scale: dict[str, float]
    coach_seed: int


@dataclass(frozen=True)
class ChoiceValue:
    """One choice the seat had and its value.

    Attributes:
        action: the action (``p3 in``, ``p3 pl AS``).
        mean: estimated counters won minus paid from the decision to the end of the hand (R5).
        ci95: half-width of the 95% interval of ``mean`` (counters; 0 for ``out``, which is exact).
    """

    action: Action
    mean: float
    ci95: float


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat, valued.

    Attributes:
        number: 1-based among the seat's reviewed decisions in this hand (the link: hand, number).
        action_index: 1-based position of the chosen action in the hand's actions.
        kind: ``"declare"``, ``"general_rams"``, ``"target"`` or ``"card"`` (:data:`KINDS`).
        rule: the rule the decision is made under (``"R4.5"``...).
        trick: 1-based trick of a card decision, else None.
        trump: the trump suit letter (the turn-up's, R4.4).
        cards: the seat's own unplayed cards at the decision (R7: its own).
        lead: the cards already played to the trick, ``(seat, card)`` (public), for a card decision.
        declarations: the declarations made before a declaration, ``(seat, in?)`` (public).
        chosen: the action taken; best: the choice with the highest value.
        choices: every choice with its value (in the order of the legal actions).
        loss: best value minus chosen value (counters, >= 0).
        loss_ci95: half-width of the 95% interval of ``loss`` (paired over the same samples).
        mark: ``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or None (:func:`mark_for`).
        source: ``"equilibrium"`` or ``"expert"`` (see the module text).
        samples: deals the values average over (for ``"equilibrium"`` the reach-weighted effective
            number is ``effective``).
        effective: the effective sample size of an equilibrium value, else None.
        reason: why the choice made was worse, for a marked decision (:mod:`ramsli.coach.reasons`:
            how often the card is trumped, the hand takes no trick...), else None (also when the
            rollouts do not tell the two choices apart).
    """

    number: int
    action_index: int
    kind: str
    rule: str
    trick: int | None
    trump: str
    cards: tuple[Card, ...]
    lead: tuple[tuple[int, Card], ...]
    declarations: tuple[tuple[int, bool], ...]
    chosen: Action
    best: Action
    choices: tuple[ChoiceValue, ...]
    loss: float
    loss_ci95: float
    mark: str | None
    source: str
    samples: int
    effective: float | None = None
    reason: Reason | None = None

    @property
    def line(self) -> Line | None:
        """The decision's line (:mod:`ramsli.coach.lines`) if it has a mark, else None."""
        if self.mark is None:
            return None
        return line_for(
            self.kind,
            self.chosen,
            self.best,
            self.loss,
            cards=self.cards,
            trump=self.trump,
            declarations=self.declarations,
            lead=self.lead,
            trick=self.trick,
        )

    def value_of(self, action: Action) -> ChoiceValue:
        """The :class:`ChoiceValue` of ``action``.

        Raises:
            KeyError: if ``action`` was not a choice.
        """
        for c in self.choices:
            if c.action == action:
                return c
        raise KeyError(str(action))

    def to_dict(self) -> DecisionRecord:
        """The decision as JSON data (see ``docs/coach.md``); cards as text (``AS``), seats as ``p3``."""
        return {
            "decision": self.number,
            "action": self.action_index,
            "kind": self.kind,
            "rule": self.rule,
            "trick": self.trick,
            "trump": self.trump,
            "cards": [str(c) for c in self.cards],
            "lead": [[seat_name(s), str(c)] for s, c in self.lead],
            "declarations": [[seat_name(s), "in" if d else "out"] for s, d in self.declarations],
            "chosen": str(self.chosen),
            "best": str(self.best),
            "choices": [{"action": str(c.action), "mean": _r(c.mean), "ci95": _r(c.ci95)} for c in self.choices],
            "loss": _r(self.loss),
            "loss_ci95": _r(self.loss_ci95),
            "mark": self.mark,
            "source": self.source,
            "samples": self.samples,
            "effective": None if self.effective is None else round(self.effective, 1),
            "line": None if self.line is None else self.line.to_dict(),
            "reason": None if self.reason is None else self.reason.to_dict(),
        }


def _r(x: float) -> float | None:
    """A value for JSON: 3 decimals; an infinite interval as None."""
    return None if not math.isfinite(x) else round(x, 3)


@dataclass(frozen=True)
class HandReview:
    """The review of one hand for one seat.

    Attributes:
        seat: the reviewed seat (0-based); name: its player's name.
        hand_number: the hand's number in its session, or None.
        players: seats in the hand; dealer: the dealer's seat.
        cards_known: False if the seat's own cards are not recorded (``??``): nothing is reviewed.
        decisions: the seat's decisions with a real choice, in order.
        forced: decisions with only one legal choice (not valued: nothing to choose).
        settings: how the review was computed.
    """

    seat: int
    name: str
    hand_number: int | None
    players: int
    dealer: int
    cards_known: bool
    decisions: tuple[Decision, ...]
    forced: int
    settings: Settings = field(compare=True)

    @property
    def marked(self) -> tuple[Decision, ...]:
        """The decisions with a mark."""
        return tuple(d for d in self.decisions if d.mark is not None)

    @property
    def marked_loss(self) -> float:
        """Counters lost to marked decisions (the sum of their losses)."""
        return sum(d.loss for d in self.marked)

    def to_dict(self, render: Callable[[Decision], str | None] | None = None) -> HandReviewRecord:
        """The review as JSON data (format :data:`FORMAT`, see ``docs/coach.md``).

        Args:
            render: ``f(decision) -> text or None``: each decision's line in the reader's
                language (:func:`ramsli.coach.words.decision_line`), written as ``"text"``.
        """
        out = []
        for d in self.decisions:
            rec = d.to_dict()
            if render is not None:
                rec["text"] = render(d)
            out.append(rec)
        return {
            "format": FORMAT,
            "hand": self.hand_number,
            "seat": seat_name(self.seat),
            "name": self.name,
            "players": self.players,
            "dealer": seat_name(self.dealer),
            "cards_known": self.cards_known,
            "decisions": out,
            "forced": self.forced,
            "marked_loss": round(self.marked_loss, 3),
            "marks": {name: sum(1 for d in self.decisions if d.mark == name) for name, _ in MARKS},
            "scale": {name: least for name, least in MARKS},
            "coach_seed": self.settings.seed,
        }


def mark_for(loss: float, ci95: float) -> str | None:
    """The mark of a loss (counters) with the half-width ``ci95`` of its 95% interval (:data:`MARKS`).

    A loss gets a mark only when its interval lies above zero (``loss > ci95``); then by size.

    >>> mark_for(1.4, 0.2), mark_for(1.4, 1.5), mark_for(0.2, 0.01), mark_for(3.0, 0.1)
    ('mistake', None, None, 'blunder')
    """
    if not loss > ci95:
        return None
    for name, least in MARKS:
        if loss >= least:
            return name
    return None


# -- what the seat knows -------------------------------------------------------------------------


def seat_view(hh: HandHistory, seat: int) -> Hand:
    """The hand as ``seat`` knows it, before the first action (R7): its own five dealt cards;
    of every other seat only the cards it plays in the recorded actions (public once played),
    the rest unknown (``None``); the turn-up, jokers turned aside, stacks, pot and dealer.
    Replaying the recorded actions on it gives, at every step, the same ``observe(seat)`` as the
    full hand.

    Raises:
        CoachError: if ``seat`` is not seated in the hand.
        HistoryError: if the engine refuses the deal.
    """
    if seat not in hh.seated:
        raise CoachError(f"{seat_name(seat)} is not seated in this hand (R3.5)")
    played: dict[int, list[Card]] = {s: [] for s in hh.seated}
    for a in hh.actions:
        if a.kind == "pl" and a.seat != seat and a.card is not None:
            played[a.seat].append(a.card)
    hands: list[list[Card | None]] = []
    for s in range(len(hh.names)):
        if s not in hh.seated:
            hands.append([])
        elif s == seat:
            hands.append(list(hh.cards[s]))
        else:
            known: list[Card | None] = list(played[s])
            hands.append(known + [None] * (5 - len(known)))
    try:
        return Hand.from_cards(
            hh.rules, list(hh.stacks), hh.dealer, hands, hh.turn_up, hh.turned_aside, pot=hh.pot, seated=hh.seated
        )
    except ValueError as e:
        raise HistoryError(f"the deal is refused: {e}") from None


def seat_decisions(hh: HandHistory, seat: int) -> list[tuple[int, Observation, Action]]:
    """Every action ``seat`` took in the hand with the observation it took it on (R7):
    ``(1-based action index, observation, action)``, forced ones included.

    Raises:
        CoachError: for a seat not seated; HistoryError: as :func:`seat_view`.
    """
    view = seat_view(hh, seat)
    out = []
    for i, a in enumerate(hh.actions, 1):
        if a.seat == seat and view.to_act == seat:
            out.append((i, view.observe(seat), a))
        view.apply(a)
    return out


# -- the values ----------------------------------------------------------------------------------


def _kind(obs: Observation) -> str:
    return {
        Phase.DECLARE: "declare",
        Phase.GENERAL_RAMS: "general_rams",
        Phase.TARGETS: "target",
        Phase.PLAY: "card",
    }[obs.phase]


def _seed(settings: Settings, hand_number: int | None, seat: int, index: int) -> int:
    """A seed per decision, from the review's seed, the hand, the seat and the action index."""
    h = (settings.seed * 1_000_003 + (hand_number or 0)) * 1_000_033 + seat * 10_007 + index
    return h & 0x7FFF_FFFF_FFFF_FFFF


def _equilibrium_values(
    obs: Observation, hh: HandHistory, settings: Settings, seed: int, chosen: Action
) -> tuple[list[ActionValue], float] | None:
    """``(values, effective)`` of a declaration by the solved equilibrium, or None where there
    is none: another game, a carry-in pot it was not solved for, a stack too short for the bete
    (R5.8), no lab kernel installed, or declarations before that the equilibrium (almost) never makes.

    A sixth of :attr:`Settings.equilibrium_samples` first: if they already show the declaration made
    to be the better one (the sign of in - out outside its 95% interval), that is the answer (no loss,
    no mark); else all of them (twice as many where the declarations before are rare: fewer than 10%
    effective deals)."""
    if not settings.equilibrium:
        return None
    players = len(obs.order)
    pol = default_policy(obs.rules, players, hh.pot)
    if pol is None or pol.advantage is None:
        return None
    if min(obs.stacks[s] for s in obs.seated) < obs.rules.bete_for(obs.pot):
        return None  # a short stack would change the payments (R5.8): the policy assumes none
    try:
        from ramsli.lab.solve import hand_advantage  # the extra 'lab' (NumPy, Numba)
    except ModuleNotFoundError:
        return None
    position = obs.order.index(obs.seat)
    history = history_bits([d for _, d in obs.declarations])

    def ask(samples: int) -> tuple[float, float, float]:
        """``(mean, ci95, effective)`` of ``in`` over ``out`` in counters (:func:`ramsli.lab.solve.hand_advantage`)."""
        r = hand_advantage(pol, list(obs.cards), obs.turn_up, position, history, samples, seed % (2**31))
        return float(r["mean"]), float(r["ci95"]), float(r["effective"])

    samples = max(2, settings.equilibrium_samples // 6)
    mean, half, effective = ask(samples)
    reached = math.isfinite(mean) and effective >= 0.1 * samples
    if not (reached and effective >= 30 and abs(mean) > half and (mean > 0) == (chosen.kind == "in")):
        samples = settings.equilibrium_samples * (1 if reached else 2)  # rare declarations before: more deals
        mean, half, effective = ask(samples)
    if not math.isfinite(mean) or effective < 30:
        return None  # (almost) never reached by the equilibrium: the expert judges it
    vals = [
        ActionValue(a, mean if a.kind == "in" else 0.0, half / Z95 if a.kind == "in" else 0.0, 0.0, samples)
        for a in obs.legal
    ]
    best = max(vals, key=lambda v: v.mean)
    vals = [ActionValue(v.action, v.mean, v.se, 0.0 if v is best else half / Z95, v.samples) for v in vals]
    return vals, effective


def _expert(settings: Settings, seed: int) -> ExpertBot:
    return ExpertBot(
        seed=seed,
        samples=settings.declare_samples,
        play_samples=settings.play_samples,
        nodes=settings.nodes,
        budget=settings.budget,
    )


def _value(
    obs: Observation, hh: HandHistory, settings: Settings, seed: int, chosen: Action
) -> tuple[list[ActionValue], str, float | None]:
    """``(values, source, effective)`` of a decision with a real choice."""
    if obs.phase is Phase.DECLARE:
        eq = _equilibrium_values(obs, hh, settings, seed, chosen)
        if eq is not None:
            return eq[0], "equilibrium", eq[1]
    return _expert(settings, seed).action_values(obs), "expert", None


def check_history(hh: HandHistory) -> Hand:
    """Replay ``hh`` (every action re-validated, the settlement re-computed and compared, R4.12, R5)
    and check that the hand is finished; returns the replayed hand.

    Raises:
        ReplayError: an action the rules do not allow; HistoryError: a settlement the replay does not
            reproduce (a tampered history); CoachError: a hand that is not finished.
    """
    hand = hh.replay()
    if not hand.is_over:
        who = seat_name(hand.to_act) if hand.to_act is not None else "nobody"
        raise CoachError(f"the hand is not finished ({who} is to act): the coach reviews finished hands")
    return hand


def _history(source: HandHistory | Hand, names: Sequence[str] | None, hand_number: int | None) -> HandHistory:
    if isinstance(source, HandHistory):
        return source
    if not isinstance(source, Hand):
        raise TypeError(f"review a HandHistory or a Hand, not {type(source).__name__}")
    names = list(names) if names is not None else [seat_name(s) for s in range(len(source.stacks))]
    return HandHistory.from_hand(source, names, hand_number=hand_number)


def review_hand(
    source: HandHistory | Hand,
    seat: int,
    settings: Settings | None = None,
    *,
    names: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    checked: bool = False,
    hand_number: int | None = None,
) -> HandReview:
    """Review ``seat``'s decisions in a finished hand (see the module text).

    Args:
        source: a hand history (other seats' cards may be ``??``) or a finished
            :class:`~ramsli.hand.Hand`.
        seat: the seat to review (0-based).
        settings: samples and seed (default :class:`Settings`).
        names: the players' names for a ``Hand`` (default ``p1``...).
        progress: called as ``progress(done, total)`` after each valued decision.
        checked: the history was already replayed and its settlement checked (a session read by
            :func:`ramsli.history.read_session`); else :meth:`HandHistory.replay` checks it here.
        hand_number: the 1-based number in its session of a ``Hand`` (a history carries its own):
            it seeds the samples, so a hand reviewed at the table and its saved history get the
            same review.

    Returns:
        the :class:`HandReview`; with no decisions if the seat's own cards are not recorded.

    Raises:
        ReplayError: an action the rules do not allow (R4.12); HistoryError: a recorded settlement
            that the replay does not reproduce (a tampered history, R5) or a refused deal;
        CoachError: a hand that is not finished, or a seat not seated in it.
    """
    settings = settings or Settings()
    hh = _history(source, names, hand_number)
    if not checked:
        check_history(hh)
    if not 0 <= seat < len(hh.names) or seat not in hh.seated:
        raise CoachError(f"{seat_name(seat)} is not seated in this hand (R3.5)")

    def made(known: bool, decisions: tuple[Decision, ...], forced: int) -> HandReview:
        return HandReview(
            seat=seat,
            name=hh.names[seat],
            hand_number=hh.hand_number,
            players=len(hh.seated),
            dealer=hh.dealer,
            cards_known=known,
            decisions=decisions,
            forced=forced,
            settings=settings,
        )

    if None in hh.cards[seat]:
        return made(False, (), 0)
    steps = seat_decisions(hh, seat)
    real = [(i, obs, a) for i, obs, a in steps if len(obs.legal) > 1]
    decisions = []
    for n, (i, obs, chosen) in enumerate(real, 1):
        seed = _seed(settings, hh.hand_number, seat, i)
        vals, src, eff = _value(obs, hh, settings, seed, chosen)
        best = max(vals, key=lambda v: v.mean)
        mine = next(v for v in vals if v.action == chosen)
        if mine.mean >= best.mean:
            best = mine  # a tie: the choice made is as good as any
        loss = max(0.0, best.mean - mine.mean)
        ci = 0.0 if mine is best else Z95 * mine.gap_se
        mark = None if mine is best else mark_for(loss, ci)
        reason = None if mark is None else reason_for(obs, chosen, best.action, seed=seed)
        decisions.append(
            Decision(
                number=n,
                action_index=i,
                kind=_kind(obs),
                rule=KINDS[_kind(obs)],
                trick=len(obs.tricks) + 1 if obs.phase is Phase.PLAY else None,
                trump=obs.trump,
                cards=tuple(obs.cards),
                lead=tuple(obs.current),
                declarations=tuple((s, bool(d)) for s, d in obs.declarations),
                chosen=chosen,
                best=best.action,
                choices=tuple(ChoiceValue(v.action, v.mean, Z95 * v.se) for v in vals),
                loss=loss,
                loss_ci95=ci,
                mark=mark,
                source=src,
                samples=best.samples,
                effective=eff,
                reason=reason,
            )
        )
        if progress is not None:
            progress(n, len(real))
    return made(True, tuple(decisions), len(steps) - len(real))
