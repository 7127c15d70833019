"""The coach's lines as data: a stable code and the fields its message needs.

A :class:`Line` is to a marked decision what a :class:`~ramsli.refusal.Refusal` is to a refused
input: the review data holds it as it is, and every front end renders it by its code from the
catalogs in the reader's language (:func:`ramsli.coach.words.render_line`); nothing takes an
English sentence apart.

The codes (:data:`LINES`) and their fields:

- ``declare_in`` / ``declare_out`` (R4.5): went in (out) where out (in) was better; fields
  ``trumps`` (trumps held, jokers included), ``best_trump`` (the highest, a card, or None),
  ``aces`` (side aces), ``position`` (0 = declaring first), ``ins_before`` (players in before),
  ``loss``;
- ``gr_announced`` / ``gr_passed`` (R4.7): ``loss``;
- ``target_instead_target``, ``target_instead_none``, ``none_instead_target`` (R4.8):
  ``target``, ``best_target``, ``loss``;
- ``lead`` / ``play`` (R4.10): ``card``, ``best_card``, ``trick``, ``loss``.

Field kinds: :data:`CARD_FIELDS` (``card``, ``best_card``, ``best_trump``) are cards (text
``AS``); ``loss`` is counters (a float); the rest are whole numbers.

>>> Line.from_dict(Line("gr_passed", {"loss": 2.0}).to_dict()) == Line("gr_passed", {"loss": 2.0})
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypedDict

from ramsli.cards import Card
from ramsli.hand import Action
from ramsli.refusal import N_

__all__ = ["LINES", "CARD_FIELDS", "Line", "LineRecord", "line_for"]

#: code -> English msgid of each line (see the module text)
LINES: Mapping[str, str] = MappingProxyType(
    {
        "declare_in": N_("Going in with {hand} {before}: about {loss} counters worse than going out"),
        "declare_out": N_("Going out with {hand} {before}: about {loss} counters worse than going in"),
        "gr_announced": N_("Announcing General Rams: about {loss} counters worse than passing"),
        "gr_passed": N_("Passing up General Rams: about {loss} counters worse than announcing it"),
        "target_instead_target": N_("A target of {target}: about {loss} counters worse than a target of {best_target}"),
        "target_instead_none": N_("A target of {target}: about {loss} counters worse than no target"),
        "none_instead_target": N_("No target: about {loss} counters worse than a target of {best_target}"),
        "lead": N_("Leading {card} to trick {trick}: about {loss} counters worse than leading {best_card}"),
        "play": N_("Playing {card} to trick {trick}: about {loss} counters worse than {best_card}"),
    }
)
#: field names whose value is a card (text ``AS``)
CARD_FIELDS = frozenset({"card", "best_card", "best_trump"})


class LineRecord(TypedDict):
    """:meth:`Line.to_dict`: a line as JSON data (the fields' kinds as in the module text)."""

    code: str
    fields: dict[str, Any]


class Line:
    """One line of the coach as data: a code of :data:`LINES` and its fields (see the module text).

    Immutable, compared by value.

    Args:
        code: a code of :data:`LINES`.
        fields: the values its message needs (cards as :class:`~ramsli.cards.Card` or text).
    """

    __slots__ = ("code", "_fields")

    code: str
    _fields: Mapping[str, Any]

    def __init__(self, code: str, fields: Mapping[str, Any] | None = None) -> None:
        items = {k: (str(v) if isinstance(v, Card) else v) for k, v in (fields or {}).items()}
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "_fields", MappingProxyType(items))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Line is immutable: cannot set {name!r}")

    @property
    def fields(self) -> Mapping[str, Any]:
        """The fields, a read-only mapping (cards as text)."""
        return self._fields

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and (self.code, dict(self._fields)) == (other.code, dict(other._fields))

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted((k, str(v)) for k, v in self._fields.items()))))

    def __repr__(self) -> str:
        return f"Line({self.code!r}, {dict(self._fields)!r})"

    def to_dict(self) -> LineRecord:
        """``{"code", "fields"}``: cards as text (``AS``), numbers as numbers."""
        return {"code": self.code, "fields": dict(self._fields)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Line:
        """The line of :meth:`to_dict`.

        Raises:
            ValueError: if ``data`` is not such a record, or its code is not in :data:`LINES`.
        """
        code, fields = data.get("code"), data.get("fields", {})
        if not isinstance(code, str) or not isinstance(fields, Mapping):
            raise ValueError("a coach line is {'code': str, 'fields': {...}}")
        if code not in LINES:
            raise ValueError(f"unknown coach line {code!r}; the codes are {', '.join(LINES)}")
        return cls(code, fields)


def line_for(
    kind: str,
    chosen: Action,
    best: Action,
    loss: float,
    *,
    cards: Sequence[Card] = (),
    trump: str = "",
    declarations: Sequence[tuple[int, bool]] = (),
    lead: Sequence[tuple[int, Card]] = (),
    trick: int | None = None,
) -> Line:
    """The line that says what was chosen, what was better and by how much.

    Args:
        kind: ``"declare"``, ``"general_rams"``, ``"target"`` or ``"card"``.
        chosen, best: the actions; loss: counters.
        cards: the seat's cards at the decision; trump: the trump suit letter;
        declarations: ``(seat, in?)`` before a declaration; lead: the trick so far; trick: 1-based.

    >>> line_for("card", Action("p2 pl AS"), Action("p2 pl 7H"), 1.23456, trick=2)
    Line('lead', {'card': 'AS', 'best_card': '7H', 'trick': 2, 'loss': 1.235})
    """
    loss = round(loss, 3)
    if kind == "declare":
        trumps = [c for c in cards if c.suit is None or c.suit == trump]
        top = max(trumps, key=lambda c: c.rank) if trumps else None
        return Line(
            "declare_in" if chosen.kind == "in" else "declare_out",
            {
                "trumps": len(trumps),
                "best_trump": top,
                "aces": sum(1 for c in cards if c.suit is not None and c.suit != trump and c.rank == 14),
                "position": len(declarations),
                "ins_before": sum(1 for _, x in declarations if x),
                "loss": loss,
            },
        )
    if kind == "general_rams":
        return Line("gr_announced" if chosen.kind == "gr" else "gr_passed", {"loss": loss})
    if kind == "target":
        mine = chosen.target if chosen.kind == "t" else 0
        better = best.target if best.kind == "t" else 0
        if mine and better:
            return Line("target_instead_target", {"target": mine, "best_target": better, "loss": loss})
        if mine:
            return Line("target_instead_none", {"target": mine, "loss": loss})
        return Line("none_instead_target", {"best_target": better, "loss": loss})
    return Line(
        "play" if lead else "lead",
        {"card": chosen.card, "best_card": best.card, "trick": trick, "loss": loss},
    )
