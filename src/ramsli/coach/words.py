"""The coach's lines in player words, in four languages.

Every marked decision (:mod:`ramsli.coach.review`) has one line: a
:class:`~ramsli.coach.lines.Line` — a stable ``code`` and the ``fields`` its message needs,
held by the review data as it is, like a refusal (:mod:`ramsli.refusal`) — that
:func:`render_line` renders by its code from the gettext catalogs in the reader's language:
"Going in with one trump (9♠) and no side ace behind two players in: about 1.4 counters
worse than going out". Cards are shown by the reader's card labels; counters with one decimal
in the reader's locale (Babel); the rest as they are.

>>> line = Line("lead", {"card": "AS", "best_card": "7H", "trick": 2, "loss": 1.44})
>>> render_line(line)
'Leading A♠ to trick 2: about 1.4 counters worse than leading 7♥'
>>> render_line(line, "de")
'A♠ zum 2. Stich ausgespielt: etwa 1,4 Chips schlechter als 7♥ auszuspielen'
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from babel.numbers import format_decimal

from ramsli.cards import Card
from ramsli.coach.lines import CARD_FIELDS, LINES, Line
from ramsli.coach.reasons import REASONS, Reason
from ramsli.coach.review import MARK_WORDS, Decision, HandReview, Settings, review_hand
from ramsli.hand import Hand
from ramsli.history import HandHistory
from ramsli.i18n import babel_locale, translation
from ramsli.refusal import N_

__all__ = [
    "catalog",
    "render_line",
    "render_reason",
    "decision_line",
    "mark_word",
    "format_counters",
    "review_lines",
]


def catalog(lang: str) -> _gettext.NullTranslations:
    """The gettext catalog of ``lang`` (one of :data:`~ramsli.i18n.LANGS`; English for any other),
    cached; the process's language is not touched (:func:`ramsli.i18n.translation`)."""
    return translation(lang)


def format_counters(x: float, lang: str = "en", digits: int = 1) -> str:
    """Counters with ``digits`` decimals in the reader's locale: ``1.4`` (en), ``1,4`` (de, nl, it).

    >>> format_counters(1.44), format_counters(1.44, "de"), format_counters(0.0832, "it", 3)
    ('1.4', '1,4', '0,083')
    """
    return format_decimal(x, format="0." + "0" * max(1, digits), locale=babel_locale(lang))


def _card_text(card: object, card_label: Callable[[Card], str] | None) -> str:
    c = card if isinstance(card, Card) else Card.parse(str(card))
    return card_label(c) if card_label is not None else c.display()


def _hand_phrase(
    fields: Mapping[str, Any], tr: _gettext.NullTranslations, card_label: Callable[[Card], str] | None
) -> str:
    n, aces = int(fields.get("trumps", 0)), int(fields.get("aces", 0))
    if n == 0:
        trumps = tr.gettext(N_("no trump"))
    else:
        best = _card_text(fields["best_trump"], card_label)
        trumps = tr.ngettext("{n} trump ({card})", "{n} trumps (best {card})", n).format(n=n, card=best)
    side = tr.gettext(N_("no side ace")) if aces == 0 else tr.ngettext("{n} side ace", "{n} side aces", aces)
    return tr.gettext(N_("{trumps} and {aces}")).format(trumps=trumps, aces=side.format(n=aces))


def _before_phrase(fields: Mapping[str, Any], tr: _gettext.NullTranslations) -> str:
    ins = int(fields.get("ins_before", 0))
    if int(fields.get("position", 0)) == 0:
        return tr.gettext(N_("as the first to declare"))
    if ins == 0:
        return tr.gettext(N_("with nobody in before you"))
    return tr.ngettext("behind {n} player in", "behind {n} players in", ins).format(n=ins)


def render_line(line: Line, lang: str = "en", *, card_label: Callable[[Card], str] | None = None) -> str:
    """A :class:`Line` in the reader's language, rendered by its code (see the module text).

    Args:
        line: the record.
        lang: one of :data:`~ramsli.i18n.LANGS` (another reads as English).
        card_label: ``f(card) -> str`` to show a card (default :meth:`Card.display`: ``A♠``).

    Raises:
        KeyError: for a code not in :data:`LINES`.
    """
    tr = catalog(lang)
    template = tr.gettext(LINES[line.code])
    f = line.fields
    values: dict[str, object] = {}
    for k, v in f.items():
        if k in CARD_FIELDS:
            values[k] = "" if v is None else _card_text(v, card_label)
        elif k == "loss":
            values[k] = format_counters(float(v), lang)
        else:
            values[k] = v
    if line.code in ("declare_in", "declare_out"):
        values["hand"] = _hand_phrase(f, tr, card_label)
        values["before"] = _before_phrase(f, tr)
    return template.format(**values)


def render_reason(reason: Reason, lang: str = "en", *, card_label: Callable[[Card], str] | None = None) -> str:
    """A :class:`~ramsli.coach.reasons.Reason` in the reader's language, rendered by its code: "A♠ would
    take the trick, but it is trumped 70% of the time at this point". Percentages and expected tricks
    in the reader's locale, the bete and the pot in counters; no rule id in the sentence (it is :attr:`Reason.rule`, shown a tap away).

    >>> render_reason(Reason("card_trumped", {"card": "AS", "best_card": "7H", "p": 70}), "de")
    'A♠ würde den Stich machen, wird an dieser Stelle aber in 70 % der Fälle gestochen'

    Raises:
        KeyError: for a code not in :data:`~ramsli.coach.reasons.REASONS`.
    """
    tr = catalog(lang)
    template = tr.gettext(REASONS[reason.code])
    values: dict[str, object] = {}
    for k, v in reason.fields.items():
        if k in CARD_FIELDS:
            values[k] = "" if v is None else _card_text(v, card_label)
        elif k in ("tricks", "best_tricks"):
            values[k] = format_decimal(float(v), format="0.0", locale=babel_locale(lang))
        elif k in ("bete", "pot"):
            values[k] = tr.ngettext("{n} counter", "{n} counters", int(v)).format(n=v)
        else:
            values[k] = v
    return template.format(**values)


def mark_word(mark: str, lang: str = "en") -> str:
    """The name of a mark (``"mistake"``) as the reader reads it, capitalised: ``Mistake``, ``Fehler``."""
    return catalog(lang).gettext(MARK_WORDS[mark])


def decision_line(
    decision: Decision, lang: str = "en", *, card_label: Callable[[Card], str] | None = None
) -> str | None:
    """``"Mistake — Leading A♠ to trick 1: about 1.4 counters worse than leading 7♥. A♠ would take the
    trick, but it is trumped 70% of the time at this point"``: a marked decision's mark, line and
    reason (:func:`render_reason`, when it has one) in the reader's language; None for a decision
    without a mark."""
    line = decision.line
    if line is None or decision.mark is None:
        return None
    text = f"{mark_word(decision.mark, lang)} — {render_line(line, lang, card_label=card_label)}"
    if decision.reason is not None:
        text += ". " + render_reason(decision.reason, lang, card_label=card_label)
    return text


def review_lines(
    source: HandHistory | Hand | HandReview,
    seat: int | None = None,
    lang: str = "en",
    *,
    names: Sequence[str] | None = None,
    settings: Settings | None = None,
    card_label: Callable[[Card], str] | None = None,
    hand_number: int | None = None,
) -> list[str]:
    """The coach's words on one seat's hand, for the end of a hand in a front end: one line per
    marked decision (:func:`decision_line`), or one line saying there is none.

    Args:
        source: a finished hand or its history (reviewed here for ``seat``), or a review.
        seat: the seat to review (0-based; not needed with a review).
        lang: the reader's language (:data:`~ramsli.i18n.LANGS`).
        names, settings, hand_number: as :func:`ramsli.coach.review.review_hand`.
        card_label: ``f(card) -> str`` to show a card.

    Raises:
        as :func:`ramsli.coach.review.review_hand`; ValueError: a hand without ``seat``.
    """
    if isinstance(source, HandReview):
        review = source
    else:
        if seat is None:
            raise ValueError("review_lines: give the seat to review")
        review = review_hand(source, seat, settings, names=names, hand_number=hand_number)
    tr = catalog(lang)
    if not review.cards_known:
        return [tr.gettext(N_("Your cards of this hand are not recorded: the coach cannot review it."))]
    lines = [decision_line(d, lang, card_label=card_label) for d in review.marked]
    if lines:
        return [x for x in lines if x is not None]
    n = len(review.decisions)
    text = tr.ngettext(
        "No marked decision in this hand ({n} reviewed).", "No marked decision in this hand ({n} reviewed).", n
    )
    return [text.format(n=n)]
