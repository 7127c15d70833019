"""The review of a session: per player, what the marked decisions cost and the worst three.

:func:`review_session` reviews every hand of a session (:func:`ramsli.history.read_session`,
or any list of hand histories) for every seat whose cards the histories hold
(:func:`ramsli.coach.review.review_hand`) and sums per player:

- the counters lost to marked decisions, split into *declarations* (R4.5, with General Rams
  R4.7 and targets R4.8) and *card play* (R4.10);
- the worst three marked decisions, each with its link: the hand number and the decision's
  number in that hand's review (and its action's position in the hand history);
- the overall figure, **average loss per decision**: the counters lost to marked decisions
  divided by the number of decisions reviewed (decisions with a real choice; a loss without a
  mark — too small or inside the noise — counts as none), a number a player can follow from
  session to session (lower is better; 0 is the coach's own play).

Hidden cards stay hidden (R7, D-16): each seat is reviewed from its own cards and the public
record only; a seat whose cards a history writes as ``??`` (folded, in a log shown to another
player) is not reviewed in that hand (``not_reviewed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from ramsli.coach.lines import LineRecord
from ramsli.coach.reasons import ReasonRecord
from ramsli.coach.review import (
    MARKS,
    Decision,
    HandReview,
    HandReviewRecord,
    Settings,
    check_history,
    review_hand,
)
from ramsli.history import HandHistory, SessionHistory
from ramsli.seats import seat_name

__all__ = [
    "FORMAT",
    "WORST",
    "PlayerSummary",
    "SessionReview",
    "WorstRecord",
    "MarkedLossRecord",
    "PlayerSummaryRecord",
    "SessionReviewRecord",
    "review_session",
    "summarize",
]

#: the format of :meth:`SessionReview.to_dict`
FORMAT = "ramsli-session-review/1"
#: how many of the worst decisions a summary names
WORST = 3
#: the decision kinds counted as declarations (the rest is card play)
_DECLARATION_KINDS = ("declare", "general_rams", "target")


class WorstRecord(TypedDict):
    """One of the worst decisions of a :class:`PlayerSummaryRecord` (``docs/coach.md``)."""

    hand: int
    decision: int
    action: int
    kind: str
    loss: float
    loss_ci95: float
    mark: str | None
    line: LineRecord | None
    reason: ReasonRecord | None
    text: NotRequired[str | None]


class MarkedLossRecord(TypedDict):
    """Counters lost to marked decisions: declarations (with General Rams and targets), cards, all."""

    declarations: float
    cards: float
    total: float


class PlayerSummaryRecord(TypedDict):
    """:meth:`PlayerSummary.to_dict`: one player's session as JSON data (``docs/coach.md``)."""

    seat: str
    name: str
    hands: int
    not_reviewed: int
    decisions: int
    marked_loss: MarkedLossRecord
    marks: dict[str, int]
    average_loss: float
    worst: list[WorstRecord]


class SessionReviewRecord(TypedDict):
    """:meth:`SessionReview.to_dict`: a session's review as JSON data (format :data:`FORMAT`)."""

    format: str
    hands: int
    scale: dict[str, float]
    coach_seed: int
    players: list[PlayerSummaryRecord]
    reviews: NotRequired[list[HandReviewRecord]]


@dataclass(frozen=True)
class PlayerSummary:
    """One player's session in the coach's numbers.

    Attributes:
        seat: 0-based; name: the player's name.
        hands: hands reviewed for this seat; not_reviewed: hands whose history hides its cards.
        decisions: decisions with a real choice, reviewed.
        declaration_loss: counters lost to marked declarations, General Rams and target answers.
        card_loss: counters lost to marked card decisions.
        marks: number of decisions per mark (``{"blunder": 0, "mistake": 1, "inaccuracy": 2}``).
        worst: the worst marked decisions, largest loss first (at most :data:`WORST`), each
            ``(hand number, decision)``.
    """

    seat: int
    name: str
    hands: int
    not_reviewed: int
    decisions: int
    declaration_loss: float
    card_loss: float
    marks: dict[str, int]
    worst: tuple[tuple[int, Decision], ...]

    @property
    def marked_loss(self) -> float:
        """Counters lost to all marked decisions."""
        return self.declaration_loss + self.card_loss

    @property
    def average_loss(self) -> float:
        """Counters lost to marked decisions per decision reviewed (0.0 with no decision)."""
        return self.marked_loss / self.decisions if self.decisions else 0.0

    def to_dict(self, render: Callable[[Decision], str | None] | None = None) -> PlayerSummaryRecord:
        """The summary as JSON data (see ``docs/coach.md``)."""
        worst = []
        for hand, d in self.worst:
            rec: WorstRecord = {
                "hand": hand,
                "decision": d.number,
                "action": d.action_index,
                "kind": d.kind,
                "loss": round(d.loss, 3),
                "loss_ci95": round(d.loss_ci95, 3),
                "mark": d.mark,
                "line": None if d.line is None else d.line.to_dict(),
                "reason": None if d.reason is None else d.reason.to_dict(),
            }
            if render is not None:
                rec["text"] = render(d)
            worst.append(rec)
        return {
            "seat": seat_name(self.seat),
            "name": self.name,
            "hands": self.hands,
            "not_reviewed": self.not_reviewed,
            "decisions": self.decisions,
            "marked_loss": {
                "declarations": round(self.declaration_loss, 3),
                "cards": round(self.card_loss, 3),
                "total": round(self.marked_loss, 3),
            },
            "marks": dict(self.marks),
            "average_loss": round(self.average_loss, 4),
            "worst": worst,
        }


@dataclass(frozen=True)
class SessionReview:
    """The review of a whole session.

    Attributes:
        players: one :class:`PlayerSummary` per reviewed seat, in seat order.
        reviews: every hand's review per seat, ``(hand number, review)``, in hand order.
        hands: hands in the session; settings: how it was computed.
    """

    players: tuple[PlayerSummary, ...]
    reviews: tuple[tuple[int, HandReview], ...]
    hands: int
    settings: Settings

    def to_dict(
        self, render: Callable[[Decision], str | None] | None = None, hands: bool = True
    ) -> SessionReviewRecord:
        """The session review as JSON data (format :data:`FORMAT`, see ``docs/coach.md``).

        Args:
            render: each decision's line in the reader's language (as :meth:`HandReview.to_dict`).
            hands: include every hand's review (``"reviews"``), not only the summaries.
        """
        out: SessionReviewRecord = {
            "format": FORMAT,
            "hands": self.hands,
            "scale": {name: least for name, least in MARKS},
            "coach_seed": self.settings.seed,
            "players": [p.to_dict(render) for p in self.players],
        }
        if hands:
            out["reviews"] = [r.to_dict(render) for _, r in self.reviews]
        return out


def review_session(
    session: SessionHistory | Sequence[HandHistory],
    seats: Sequence[int] | None = None,
    settings: Settings | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    checked: bool | None = None,
) -> SessionReview:
    """Review every hand of a session for every seat in ``seats`` (default: all).

    Args:
        session: a session read by :func:`ramsli.history.read_session` (already replayed and
            checked hand by hand), or hand histories (each replayed and checked here).
        seats: 0-based seats to review; default every seat of the table.
        settings: as :func:`ramsli.coach.review.review_hand`.
        progress: called as ``progress(done, total)`` after each hand reviewed for one seat.
        checked: the histories were already replayed and checked (default: True for a
            :class:`SessionHistory`, False for a list).

    Raises:
        as :func:`ramsli.coach.review.review_hand`; ValueError: a seat outside the table.
    """
    settings = settings or Settings()
    if isinstance(session, SessionHistory):
        histories: Sequence[HandHistory] = session.hands
        names: Sequence[str] = session.names
        checked = True if checked is None else checked
    else:
        histories = list(session)
        names = histories[0].names if histories else ()
        checked = bool(checked)
    n = len(names)
    seats = list(range(n)) if seats is None else list(seats)
    for s in seats:
        if not 0 <= s < n:
            raise ValueError(f"seat {seat_name(s)} is not a seat of this table (p1..p{n}, R2.2)")
    total = sum(1 for hh in histories for s in seats if s in hh.seated)
    done = 0
    reviews: list[tuple[int, HandReview]] = []
    for k, hh in enumerate(histories, 1):
        number = hh.hand_number if hh.hand_number is not None else k
        if not checked:
            check_history(hh)  # once per hand, not once per seat
        for s in seats:
            if s not in hh.seated:
                continue
            reviews.append((number, review_hand(hh, s, settings, checked=True)))
            done += 1
            if progress is not None:
                progress(done, total)
    players = [summarize(s, names[s], reviews) for s in seats]
    return SessionReview(tuple(players), tuple(reviews), len(histories), settings)


def summarize(seat: int, name: str, reviews: Sequence[tuple[int, HandReview]]) -> PlayerSummary:
    """One player's :class:`PlayerSummary` from hand reviews ``(hand number, review)`` (the reviews
    of other seats among them are passed over): the counters lost to marked decisions, split
    into declarations and card play, the worst :data:`WORST`, the marks."""
    mine = [(h, r) for h, r in reviews if r.seat == seat]
    decisions = [(h, d) for h, r in mine for d in r.decisions]
    marked = [(h, d) for h, d in decisions if d.mark is not None]
    worst = sorted(marked, key=lambda hd: (-hd[1].loss, hd[0], hd[1].number))[:WORST]
    return PlayerSummary(
        seat=seat,
        name=name,
        hands=sum(1 for _, r in mine if r.cards_known),
        not_reviewed=sum(1 for _, r in mine if not r.cards_known),
        decisions=len(decisions),
        declaration_loss=sum(d.loss for _, d in marked if d.kind in _DECLARATION_KINDS),
        card_loss=sum(d.loss for _, d in marked if d.kind not in _DECLARATION_KINDS),
        marks={mark: sum(1 for _, d in marked if d.mark == mark) for mark, _ in MARKS},
        worst=tuple(worst),
    )
