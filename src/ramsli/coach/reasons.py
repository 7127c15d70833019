"""Why a choice was worse: the reason of a marked decision, as data (a code and its numbers).

The coach's line (:mod:`ramsli.coach.lines`) says *what* was chosen, what was better and by how
much; the :class:`Reason` says *why*, in the terms a player thinks in: how often the card is
trumped or beaten in this trick, how often the hand takes no trick (and pays the bete, R5.3) or
the most tricks (and the pot, R5.1), how many tricks it takes. Like a line it is a stable
``code`` and the ``fields`` its message needs (:data:`REASONS`), rendered by
:func:`ramsli.coach.words.render_reason` from the catalogs in the reader's language: "A♠ is
trumped 70 % of the time at this point".

**Where the numbers come from.** From the seat's observation alone (R7, D-16): weighted deals of
the hidden cards drawn by the expert's own sampler with the decision's seed (the way the expert
draws the deals it values the decision on; :meth:`ramsli.bots.expert.ExpertBot.sample_worlds`,
:data:`SAMPLES` of them: the same deals as a card's valuation at 200 samples), each played out by the tips for every seat
(a rollout, :func:`ramsli.bots.montecarlo.play_out`). For a card, whether a seat still to play to
the trick holds a legal card that beats it (R4.10, R4.11; *trumped*: a trump of a seat that cannot
follow suit). A reason tells the likeliest cause; the loss itself stays the expert's (the search
values the cards more sharply than the rollouts).

The codes and their fields (percentages are whole numbers 0..100, ``tricks`` and ``best_tricks``
expected tricks with one decimal, ``bete`` and ``pot`` counters):

- ``card_trumped`` (R4.10): ``card``, ``best_card``, ``p`` — the card would take the trick but is
  trumped that often;
- ``card_beaten`` (R4.11): ``card``, ``best_card``, ``p`` — a higher card of a later seat beats it;
- ``card_bete`` (R5.3): ``card``, ``best_card``, ``p``, ``best_p``, ``bete`` — no trick after it;
- ``card_pot`` (R5.1): ``card``, ``best_card``, ``p``, ``best_p``, ``pot`` — the most tricks after it;
- ``card_tricks``: ``card``, ``best_card``, ``tricks``, ``best_tricks``;
- ``in_bete`` (R4.5, R5.3): went in: ``tricks``, ``p`` (no trick), ``bete``, ``p_pot``, ``pot``;
- ``in_no_trick`` (R4.5, R5.3): went in with (almost) no chance of the most tricks (under 5 %):
  ``p`` (no trick), ``bete``;
- ``out_pot`` (R4.5, R5.1): went out: ``tricks``, ``p_pot``, ``pot``, ``p`` (no trick), ``bete``;
- ``gr_short`` / ``gr_likely`` (R4.7, R5.6): ``p`` — all five tricks that often;
- ``target_short`` (R4.8, R5.7): ``target``, ``p`` — at least ``target`` tricks that often;
- ``target_likely`` (R4.8): ``target`` (the better one), ``p``.

>>> Reason.from_dict(Reason("gr_short", {"p": 12}).to_dict())
Reason('gr_short', {'p': 12})
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypedDict

from ramsli.bots.expert import ExpertBot, p_in
from ramsli.bots.fast import beats, legal, winner_index
from ramsli.bots.montecarlo import play_out, rollout
from ramsli.cards import Card
from ramsli.hand import Action, Observation, Phase
from ramsli.refusal import N_

__all__ = ["REASONS", "REASON_RULES", "Reason", "ReasonRecord", "CardStats", "HandStats", "reason_for", "SAMPLES"]

#: code -> English msgid of each reason (see the module text)
REASONS: Mapping[str, str] = MappingProxyType(
    {
        "card_trumped": N_("{card} would take the trick, but it is trumped {p}% of the time at this point"),
        "card_beaten": N_("{card} is beaten by a higher card still to come {p}% of the time"),
        "card_bete": N_(
            "After {card} you take no trick {p}% of the time (and pay the bete of {bete}), after {best_card} {best_p}%"
        ),
        "card_pot": N_(
            "After {best_card} you take the most tricks {best_p}% of the time (the pot: {pot}), after {card} {p}%"
        ),
        "card_tricks": N_("After {card} you take about {tricks} tricks, after {best_card} about {best_tricks}"),
        "in_bete": N_(
            "With this hand you take about {tricks} tricks: none {p}% of the time (a bete of {bete}), "
            "the most only {p_pot}% of the time (the pot: {pot})"
        ),
        "in_no_trick": N_("With this hand you take no trick {p}% of the time and pay the bete of {bete}"),
        "out_pot": N_(
            "With this hand you would take the most tricks {p_pot}% of the time (the pot: {pot}) "
            "and no trick only {p}% of the time"
        ),
        "gr_short": N_("You take all five tricks only {p}% of the time"),
        "gr_likely": N_("You take all five tricks {p}% of the time"),
        "target_short": N_("You take {target} tricks only {p}% of the time"),
        "target_likely": N_("You take {target} tricks {p}% of the time"),
    }
)
#: the rule each reason's terms come from (shown a tap away, not in the sentence)
REASON_RULES: Mapping[str, str] = MappingProxyType(
    {
        "card_trumped": "R4.10",
        "card_beaten": "R4.11",
        "card_bete": "R5.3",
        "card_pot": "R5.1",
        "card_tricks": "R4.11",
        "in_bete": "R5.3",
        "in_no_trick": "R5.3",
        "out_pot": "R5.1",
        "gr_short": "R5.6",
        "gr_likely": "R5.6",
        "target_short": "R5.7",
        "target_likely": "R5.7",
    }
)
#: weighted deals behind a reason (rollouts: cheap next to the expert's search)
SAMPLES = 200
#: a card is "trumped" or "beaten" in the reason only when that happens at least this often
OFTEN = 0.25
#: ... and at least this much more often than the better card
DIFF = 0.15


class ReasonRecord(TypedDict):
    """:meth:`Reason.to_dict`: a reason as JSON data (``rule``: the rule its terms come from)."""

    code: str
    fields: dict[str, Any]
    rule: str


@dataclass(frozen=True)
class Reason:
    """Why the choice was worse, as data: a code of :data:`REASONS` and its fields (module text).

    Attributes:
        code: a code of :data:`REASONS`.
        fields: the values its message needs (cards as text ``AS``; read-only).
    """

    code: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        items = {k: (str(v) if isinstance(v, Card) else v) for k, v in self.fields.items()}
        object.__setattr__(self, "fields", MappingProxyType(items))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.code, dict(self.fields)) == (other.code, dict(other.fields))

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted((k, str(v)) for k, v in self.fields.items()))))

    def __repr__(self) -> str:
        return f"Reason({self.code!r}, {dict(self.fields)!r})"

    def __reduce__(self) -> tuple[type[Reason], tuple[str, dict[str, Any]]]:
        """Pickled as its code and a plain dict (a review is made in the coach's own process)."""
        return (Reason, (self.code, dict(self.fields)))

    @property
    def rule(self) -> str:
        """The rule the reason's terms come from (``"R5.3"``)."""
        return REASON_RULES[self.code]

    def to_dict(self) -> ReasonRecord:
        """``{"code", "fields", "rule"}``: cards as text, numbers as numbers; the rule of :attr:`rule`."""
        return {"code": self.code, "fields": dict(self.fields), "rule": self.rule}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reason:
        """The reason of :meth:`to_dict`.

        Raises:
            ValueError: if ``data`` is not such a record, or its code is not in :data:`REASONS`.
        """
        code, fields = data.get("code"), data.get("fields", {})
        if not isinstance(code, str) or not isinstance(fields, Mapping):
            raise ValueError("a coach reason is {'code': str, 'fields': {...}}")
        if code not in REASONS:
            raise ValueError(f"unknown coach reason {code!r}; the codes are {', '.join(REASONS)}")
        return cls(code, fields)


@dataclass(frozen=True)
class CardStats:
    """What a card does over the weighted deals (fractions 0..1, ``tricks`` expected).

    Attributes:
        takes: it beats what is on the table now (it would take the trick if nobody beat it).
        trumped: a later seat that cannot follow suit holds a trump that beats it (R4.10).
        beaten: a later seat holds a legal card that beats it (trumped included, R4.11).
        zero, most: the seat ends with no trick (bete, R5.3) / with the most tricks (R5.1, ties count).
        tricks: the seat's expected tricks at the end of the hand.
    """

    takes: bool
    trumped: float
    beaten: float
    zero: float
    most: float
    tricks: float


@dataclass(frozen=True)
class HandStats:
    """What the seat's hand does over the weighted deals if it plays (fractions, ``tricks`` expected).

    Attributes:
        zero: no trick (R5.3); most: the most tricks or a walkover (R5.1, R4.6); all5: all five tricks
            (R5.6); tricks: expected tricks; at_least: ``{t: fraction with at least t tricks}``.
    """

    zero: float
    most: float
    all5: float
    tricks: float
    at_least: Mapping[int, float]


def _pct(x: float) -> int:
    return int(round(100 * x))


def _mean(rows: Sequence[tuple[float, float]]) -> float:
    wsum = sum(w for w, _ in rows)
    return sum(w * v for w, v in rows) / wsum if wsum > 0 else 0.0


def card_stats(obs: Observation, cards: Sequence[Card], samples: int = SAMPLES, seed: int = 0) -> dict[Card, CardStats]:
    """:class:`CardStats` of each of ``cards`` (legal cards of ``obs``, a card decision, R4.10) over
    ``samples`` weighted deals of the hidden cards (R7: ``obs`` alone is read), seeded.

    Raises:
        ValueError: if ``obs`` is not a card decision of its seat.
    """
    if obs.phase is not Phase.PLAY or not obs.legal:
        raise ValueError("card_stats needs the seat's card decision (R4.10)")
    bot = ExpertBot(seed=seed, samples=samples, play_samples=min(samples, 400))
    k, worlds = bot.sample_worlds(obs, samples)
    act_t = tuple(obs.active)
    n = len(act_t)
    mi = act_t.index(obs.seat)
    leader = act_t.index(obs.leader)
    cur = tuple(k.codec.enc(c) for _, c in obs.current)
    tricks0 = tuple(obs.tricks_won[s] for s in act_t)
    trick_no = len(obs.tricks)
    later = [act_t[(leader + j) % n] for j in range(len(cur) + 1, n)]
    out: dict[Card, CardStats] = {}
    for card in cards:
        code = k.codec.enc(card)
        on = cur + (code,)
        best = on[winner_index(on)]
        takes = best == code
        rows: dict[str, list[tuple[float, float]]] = {x: [] for x in ("trumped", "beaten", "zero", "most", "tricks")}
        for deal, w in worlds:
            trumped = beaten = False
            if takes:
                led = on[0] >> 5
                for s in later:
                    hand = deal.get(s, [])
                    ok = legal(hand, on, k.always)
                    if any(beats(c, best) for c in ok):
                        beaten = True
                        if best >= 32 and not any(c >> 5 == led for c in hand) and any(c < 32 for c in ok):
                            trumped = True
            hands = [deal[s] for s in act_t]
            tr = play_out(hands, mi, code, leader, cur, tricks0, k.always, trick_no)
            mine = tr[mi]
            rows["trumped"].append((w, float(trumped)))
            rows["beaten"].append((w, float(beaten)))
            rows["zero"].append((w, float(mine == 0)))
            rows["most"].append((w, float(mine == max(tr))))
            rows["tricks"].append((w, float(mine)))
        out[card] = CardStats(takes, *(_mean(rows[x]) for x in ("trumped", "beaten", "zero", "most", "tricks")))
    return out


def hand_stats(obs: Observation, samples: int = SAMPLES, seed: int = 0) -> HandStats:
    """:class:`HandStats` of the seat's hand if it plays, from a declaration (the seats still to
    declare by the expert's declaration model, R4.5), General Rams or a target (R4.7, R4.8): over
    ``samples`` weighted deals, each played out by the tips (R7: ``obs`` alone is read), seeded.

    Raises:
        ValueError: if ``obs`` is not a declaration, General Rams or target decision.
    """
    if obs.phase not in (Phase.DECLARE, Phase.GENERAL_RAMS, Phase.TARGETS) or not obs.legal:
        raise ValueError("hand_stats needs a declaration, General Rams or target decision (R4.5, R4.7, R4.8)")
    bot = ExpertBot(seed=seed, samples=samples)
    rng = random.Random(seed)
    k, worlds = bot.sample_worlds(obs, samples)
    me = obs.seat
    order = obs.order
    bete = obs.rules.bete_for(obs.pot)
    rows: dict[str, list[tuple[float, float]]] = {x: [] for x in ("zero", "most", "all5", "tricks")}
    least: dict[int, list[tuple[float, float]]] = {t: [] for t in range(1, 6)}
    for deal, w in worlds:
        if obs.phase is Phase.DECLARE:
            active = list(obs.active) + [me]
            after = order[order.index(me) + 1 :]
            for j, s in enumerate(after):
                if rng.random() < p_in(
                    deal[s], k.visible_trumps, len(active), len(after) - j - 1, len(order), bete, obs.pot
                ):
                    active.append(s)
            act_t = tuple(s for s in order if s in active)
        else:
            act_t = tuple(obs.active)
        if len(act_t) == 1:
            tr: tuple[int, ...] = (5,)  # a walkover (R4.6): the pot, no trick played
            mine, most = 5, True
        else:
            tr = rollout([deal[s] for s in act_t], 0, (), (0,) * len(act_t), k.always, 0)
            mine = tr[act_t.index(me)]
            most = mine == max(tr)
        rows["zero"].append((w, float(mine == 0 and len(act_t) > 1)))
        rows["most"].append((w, float(most)))
        rows["all5"].append((w, float(mine == 5 and len(act_t) > 1)))
        rows["tricks"].append((w, float(mine) if len(act_t) > 1 else 0.0))
        for t in least:
            least[t].append((w, float(mine >= t and len(act_t) > 1)))
    return HandStats(
        _mean(rows["zero"]),
        _mean(rows["most"]),
        _mean(rows["all5"]),
        _mean(rows["tricks"]),
        MappingProxyType({t: _mean(v) for t, v in least.items()}),
    )


def reason_for(obs: Observation, chosen: Action, best: Action, samples: int = SAMPLES, seed: int = 0) -> Reason | None:
    """The reason ``chosen`` was worse than ``best`` on ``obs`` (see the module text), or None when
    they are the same action or the rollouts do not tell two cards apart.

    Cards: *trumped* if the chosen card would take the trick, is trumped at least 25 % of the
    time (:data:`OFTEN`), seldom beaten otherwise, and 15 points (:data:`DIFF`) more often than the
    better card; else *beaten* likewise; else whichever of no trick (bete), most tricks (pot) and
    expected tricks tells the two cards apart most, in the better card's favour. Declarations: going in, the chance of no trick and of
    the most tricks; going out, the same that going in would have had. General Rams: the chance of
    all five tricks; targets: of the target's tricks.

    Raises:
        ValueError: ``obs`` is not ``chosen``'s decision.
    """
    if chosen == best:
        return None
    if chosen not in obs.legal or best not in obs.legal:
        raise ValueError(f"{chosen} and {best} are not both legal here")
    if obs.phase is Phase.PLAY:
        assert chosen.card is not None and best.card is not None  # a card decision (R4.10)
        st = card_stats(obs, [chosen.card, best.card], samples, seed)
        c, b = st[chosen.card], st[best.card]
        names = {"card": chosen.card, "best_card": best.card}
        if c.takes and c.trumped >= OFTEN and c.beaten - c.trumped < OFTEN and c.trumped - b.trumped >= DIFF:
            return Reason("card_trumped", {**names, "p": _pct(c.trumped)})
        if c.takes and c.beaten >= OFTEN and c.beaten - b.beaten >= DIFF:
            return Reason("card_beaten", {**names, "p": _pct(c.beaten)})
        bete, pot = obs.rules.bete_for(obs.pot), obs.pot
        gaps = {"zero": c.zero - b.zero, "most": b.most - c.most, "tricks": (b.tricks - c.tricks) / 5}
        why = max(gaps, key=lambda x: gaps[x])
        if why == "zero" and gaps["zero"] >= 0.05:
            return Reason("card_bete", {**names, "p": _pct(c.zero), "best_p": _pct(b.zero), "bete": bete})
        if why == "most" and gaps["most"] >= 0.05:
            return Reason("card_pot", {**names, "p": _pct(c.most), "best_p": _pct(b.most), "pot": pot})
        if b.tricks - c.tricks >= 0.1:
            return Reason("card_tricks", {**names, "tricks": round(c.tricks, 1), "best_tricks": round(b.tricks, 1)})
        return None  # the rollouts do not tell the two cards apart: the line says only what it cost
    hs = hand_stats(obs, samples, seed)
    if obs.phase is Phase.DECLARE:
        common = {
            "tricks": round(hs.tricks, 1),
            "p": _pct(hs.zero),
            "bete": obs.rules.bete_for(obs.pot),
            "p_pot": _pct(hs.most),
            "pot": obs.pot,
        }
        if chosen.kind == "in" and hs.most < 0.05:
            return Reason("in_no_trick", {"p": common["p"], "bete": common["bete"]})
        return Reason("in_bete" if chosen.kind == "in" else "out_pot", common)
    if obs.phase is Phase.GENERAL_RAMS:
        return Reason("gr_short" if chosen.kind == "gr" else "gr_likely", {"p": _pct(hs.all5)})
    if chosen.kind == "t" and chosen.target:
        return Reason("target_short", {"target": chosen.target, "p": _pct(hs.at_least[chosen.target])})
    target = best.target or 1
    return Reason("target_likely", {"target": target, "p": _pct(hs.at_least[target])})
