"""The coach: every hand reviewed, every decision valued in counters, the mistakes marked.

- :mod:`ramsli.coach.review` — the review of one hand for one seat (:func:`review_hand`):
  each declaration, General Rams and target answer and card valued from that seat's
  knowledge only (R7), the loss against the best choice and a mark on a documented scale.
- :mod:`ramsli.coach.session` — the review of a session (:func:`review_session`): per player
  the counters lost to marked decisions, the worst three, the average loss per decision.
- :mod:`ramsli.coach.skill` — skill counters (:func:`skill_of_hand`): per hand, each choice's value
  minus the expert level's choice's in the same place, summed; :class:`SkillSummary` over many
  hands (sums a server can keep and merge); ``docs/skill.md``.
- :mod:`ramsli.coach.lines` — each marked decision's line as data, a code and its fields
  (:class:`Line`); :mod:`ramsli.coach.words` renders them from the catalogs in the reader's language
  (:func:`render_line`, :func:`review_lines`).
- :mod:`ramsli.coach.reasons` — why a marked decision was worse, as data (:class:`Reason`: how
  often the card is trumped, the hand takes no trick or the pot), from the decision's sampled deals
  (:func:`reason_for`); rendered after the line (:func:`render_reason`).

The coach stands with the lab and the analysis (README, "Dependencies point one way"): it
uses the expert bot (:meth:`ramsli.bots.expert.ExpertBot.action_values`) and the lab's solved
declaration equilibrium (:mod:`ramsli.lab.equilibrium`); the front ends use it. See
``docs/coach.md``.
"""

from ramsli.coach.lines import LINES, Line
from ramsli.coach.reasons import REASONS, Reason, reason_for
from ramsli.coach.review import (
    MARKS,
    ChoiceValue,
    CoachError,
    Decision,
    HandReview,
    Settings,
    mark_for,
    review_hand,
    seat_decisions,
    seat_view,
)
from ramsli.coach.session import PlayerSummary, SessionReview, review_session, summarize
from ramsli.coach.skill import HandSkill, SkillSummary, skill_of_hand
from ramsli.coach.words import decision_line, render_line, render_reason, review_lines

__all__ = [
    "MARKS",
    "ChoiceValue",
    "CoachError",
    "Decision",
    "HandReview",
    "Settings",
    "mark_for",
    "review_hand",
    "seat_decisions",
    "seat_view",
    "PlayerSummary",
    "SessionReview",
    "review_session",
    "summarize",
    "HandSkill",
    "SkillSummary",
    "skill_of_hand",
    "LINES",
    "Line",
    "REASONS",
    "Reason",
    "reason_for",
    "render_reason",
    "decision_line",
    "render_line",
    "review_lines",
]
