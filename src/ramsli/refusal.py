"""Refusals as data: what the engine, the pub ledger and the server refuse, and why (R4.12).

A :class:`Refusal` is a frozen record of one refused input: a stable ``code`` (``must_follow``,
``not_your_turn``, ``cannot_pay_ante``, …), the rule id that refuses it, and the ``fields`` its
message needs (a seat, a card, a suit, a number). Nothing in it is a sentence to be taken apart:
every front end renders a refusal **by its code** from the gettext catalogs, in the reader's
language (:func:`ramsli.frontends.i18n.render_refusal`); :meth:`Refusal.text` is the English
rendering, which the engine's exceptions carry as their message.

Each code has one English text, a gettext msgid with ``{field}`` placeholders, registered in
:data:`TEXTS` by the module that raises it (this module registers the hand's and the table's;
:mod:`ramsli.ledger` and the server register theirs). A code may also have a text for a reader
who is the seat the refusal is about (:data:`YOU_TEXTS`: "you do not hold …").

Field names say how a field is shown, so a renderer needs no knowledge of the code:

- :data:`SEAT_FIELDS` (``seat``, ``to_act``): a 0-based seat index (``p1`` is 0), shown as the
  seat's name;
- :data:`CARD_FIELDS` (``card``): a card (:class:`~ramsli.cards.Card`, or its text), shown in
  the reader's card notation;
- :data:`SUIT_FIELDS` (``suit``, ``trump``): a suit letter ``S H D C``, shown as the reader's
  suit;
- :data:`NUMBER_FIELDS` (``least``, ``most``): a bound, an ``int``, shown as a person reads
  it: its digits grouped in the reader's way (``1,000,000,000``; de ``1.000.000.000``), a huge
  power of ten as ``10^30`` (:func:`number_text`);
- any other field: an ``int`` (a count, counters, a hand number) or a ``str`` (a name, an
  option, the input as given), shown as it is.

This module imports nothing else of ramsli: every layer may use it.

>>> r = Refusal("must_follow", "R4.10", {"suit": "H"})
>>> r.text()
'must follow suit: play ♥'
>>> str(r)
'must follow suit: play ♥ (R4.10)'
>>> r.code, r.rule, r["suit"]
('must_follow', 'R4.10', 'H')
>>> r.to_dict()
{'code': 'must_follow', 'rule': 'R4.10', 'fields': {'suit': 'H'}}
>>> Refusal.from_dict(r.to_dict()) == r
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

__all__ = [
    "Refusal",
    "Refused",
    "TEXTS",
    "YOU_TEXTS",
    "SEAT_FIELDS",
    "CARD_FIELDS",
    "SUIT_FIELDS",
    "NUMBER_FIELDS",
    "number_text",
    "N_",
    "register",
    "seat_text",
]

#: field names whose value is a 0-based seat index, shown as a seat's name
SEAT_FIELDS = frozenset({"seat", "to_act"})
#: field names whose value is a card (a ``Card`` or its text), shown in the reader's notation
CARD_FIELDS = frozenset({"card"})
#: field names whose value is a suit letter ``S H D C``, shown as the reader's suit
SUIT_FIELDS = frozenset({"suit", "trump"})
#: field names whose value is a bound (an ``int``), shown grouped as a person reads it
NUMBER_FIELDS = frozenset({"least", "most"})

_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: code -> English text (a gettext msgid with ``{field}`` placeholders); see :func:`register`
TEXTS: dict[str, str] = {}
#: code -> English text for a reader who is the refusal's ``seat`` ("you do not hold {card}")
YOU_TEXTS: dict[str, str] = {}


def N_(message: str) -> str:
    """Mark ``message`` as a msgid for the catalogs (``scripts/i18n.py`` extracts it); returns it."""
    return message


def register(texts: Mapping[str, str], you: Mapping[str, str] | None = None) -> None:
    """Register the English texts of some refusal codes (at import of the module that raises them).

    Args:
        texts: code -> English msgid.
        you: code -> English msgid for a reader who is the refusal's ``seat``.

    Raises:
        ValueError: if a code is registered twice with another text (one code, one meaning), or a
            ``you`` text has no plain text.
    """
    for code, text in texts.items():
        if TEXTS.get(code, text) != text:
            raise ValueError(f"refusal code {code!r} is registered twice with different texts")
        TEXTS[code] = text
    for code, text in (you or {}).items():
        if code not in TEXTS:
            raise ValueError(f"refusal code {code!r} has a 'you' text but no text")
        YOU_TEXTS[code] = text


def seat_text(seat: int) -> str:
    """The notation of a 0-based seat index: ``p1`` for 0 (R2.2), as ``ramsli.seats.seat_name``.

    >>> seat_text(2)
    'p3'
    """
    return f"p{seat + 1}"


def number_text(x: int, group: Any = None) -> str:
    """A whole number as a person reads it: a power of ten from 10^15 up as ``10^30`` (thirty
    zeros are not read, they are counted), any other with its digits grouped by ``group``
    (``f(x) -> str``; default English, ``1,000,000,000``), never Python's ``1_000_000_000``.

    >>> number_text(10**9), number_text(10**30), number_text(123456), number_text(10**16 + 1)
    ('1,000,000,000', '10^30', '123,456', '10,000,000,000,000,001')
    """
    digits = str(x)
    if x >= 10**15 and digits.rstrip("0") == "1":
        return f"10^{len(digits) - 1}"
    return group(x) if group is not None else f"{x:,}"


class Refusal(Mapping[str, Any]):
    """One refused input: a stable ``code``, the ``rule`` id, and the ``fields`` of its message.

    A refusal is immutable and hashable, compares by value, and is a read-only mapping of its
    fields (``refusal["seat"]``). Build one with the code's fields as a mapping.

    Args:
        code: the stable code (snake_case), registered in :data:`TEXTS`.
        rule: the rule id that refuses the input (``"R4.10"``), or None for a refusal of form
            rather than of a rule (a malformed message).
        fields: the values the message needs; see the module's notes on field names.

    Attributes:
        code (str), rule (str | None): as given.

    >>> r = Refusal("not_your_turn", "R4.10", {"seat": 3, "to_act": 1})
    >>> r.text()
    "it is p2's turn, not p4's"
    >>> r == Refusal("not_your_turn", "R4.10", {"to_act": 1, "seat": 3}), len({r, r})
    (True, 1)
    """

    __slots__ = ("_fields", "_key", "code", "rule")

    code: str
    rule: str | None
    _fields: Mapping[str, Any]
    _key: tuple[str, str | None, tuple[tuple[str, str], ...]]

    def __init__(self, code: str, rule: str | None = None, fields: Mapping[str, Any] | None = None) -> None:
        items = dict(fields or {})
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "_fields", MappingProxyType(items))
        object.__setattr__(self, "_key", (code, rule, tuple(sorted((k, str(v)) for k, v in items.items()))))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Refusal is immutable: cannot set {name!r}")

    def __getitem__(self, name: str) -> Any:
        return self._fields[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.rule!r}, {dict(self._fields)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Refusal, (self.code, self.rule, dict(self._fields)))

    @property
    def fields(self) -> Mapping[str, Any]:
        """The fields, a read-only mapping."""
        return self._fields

    def template(self, reader: int | None = None) -> str:
        """The English msgid of this refusal: the :data:`YOU_TEXTS` one when ``reader`` is the
        refusal's ``seat`` and the code has one, else the :data:`TEXTS` one.

        Raises:
            KeyError: for a code nobody registered.
        """
        if reader is not None and self._fields.get("seat") == reader and self.code in YOU_TEXTS:
            return YOU_TEXTS[self.code]
        return TEXTS[self.code]

    def text(self, reader: int | None = None) -> str:
        """The English message, without the rule id: seats as ``p3``, cards as ``AS``, suits as
        ``♠ ♥ ♦ ♣``. Front ends render the same code in the reader's language instead.

        An unregistered code reads as the code and its fields (so an exception always has a
        message).
        """
        try:
            template = self.template(reader)
        except KeyError:
            return f"{self.code} {dict(self.plain_fields())}".rstrip()
        try:
            return template.format(**self._english_fields())
        except (KeyError, IndexError, ValueError):
            return template

    def __str__(self) -> str:
        """The English message with the rule id, as the engine's exceptions say it."""
        text = self.text()
        return f"{text} ({self.rule})" if self.rule else text

    def _english_fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in self._fields.items():
            if k in SEAT_FIELDS and type(v) is int:
                out[k] = seat_text(v)
            elif k in SUIT_FIELDS:
                out[k] = _SUIT_SYMBOLS.get(str(v), str(v))
            elif k in NUMBER_FIELDS and type(v) is int:
                out[k] = number_text(v)
            else:
                out[k] = str(v) if k in CARD_FIELDS else v
        return out

    def plain_fields(self) -> dict[str, Any]:
        """The fields as JSON values: seats as ``"p3"``, cards as ``"AS"``, suits as letters,
        numbers and texts as they are."""
        out: dict[str, Any] = {}
        for k, v in self._fields.items():
            if k in SEAT_FIELDS and type(v) is int:
                out[k] = seat_text(v)
            elif isinstance(v, (bool, int, float)) or v is None:
                out[k] = v
            else:
                out[k] = str(v)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The refusal as JSON data: ``{"code", "rule", "fields"}`` (fields as :meth:`plain_fields`)."""
        return {"code": self.code, "rule": self.rule, "fields": self.plain_fields()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Refusal:
        """The refusal of :meth:`to_dict` (seats read back from ``"p3"`` to their index).

        Raises:
            ValueError: if ``data`` is not such a record.
        """
        code, rule, fields = data.get("code"), data.get("rule"), data.get("fields", {})
        if not isinstance(code, str) or not (rule is None or isinstance(rule, str)) or not isinstance(fields, Mapping):
            raise ValueError("a refusal record is {'code': str, 'rule': str or null, 'fields': {...}}")
        out: dict[str, Any] = {}
        for k, v in fields.items():
            if k in SEAT_FIELDS and isinstance(v, str) and v[:1] == "p" and v[1:].isdigit():
                out[k] = int(v[1:]) - 1
            else:
                out[k] = v
        return cls(code, rule, out)


class Refused(Exception):
    """Raised with a :class:`Refusal`: ``raise Refused(Refusal(...))``; ``.refusal`` is the record.

    The engine's own errors (:class:`~ramsli.errors.IllegalActionError`,
    :class:`~ramsli.errors.TableError`, :class:`~ramsli.ledger.LedgerError`, …) carry a refusal
    the same way, as their ``refusal`` attribute; this class is for callers that refuse without
    an engine error of their own (the server).
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


# -- the hand's refusals (Hand.why_illegal, Hand.apply; R4.5-R4.12) ------------------------------

register(
    {
        "not_an_action": N_("{given} is not an action; write e.g. p2 in, p2 out, p2 pl AS"),
        "hand_over": N_("the hand is over"),
        "not_seated": N_("{seat} is not seated in this hand"),
        "not_your_turn": N_("it is {to_act}'s turn, not {seat}'s"),
        "declare_first": N_("declare in or out first"),
        "dealer_forced": N_("everyone before the dealer is out, so the dealer must be in"),
        "general_rams_or_pass": N_("announce General Rams (gr) or pass first"),
        "target_range": N_("target {target} is not allowed; targets are 2, 3, 4, 5"),
        "target_5_not_offered": N_("target 5 is not offered when General Rams is on; allowed are 2, 3, 4"),
        "target_or_pass": N_("announce a target (2 to 5) or pass first"),
        "play_a_card": N_("the declarations are over; play a card"),
        "not_a_card": N_("{given} is not a card"),
        "cards_unknown": N_("the cards of {seat} are recorded as unknown"),
        "not_held": N_("{seat} does not hold {card}"),
        "must_overtrump": N_("must overtrump: play a trump higher than the highest trump in the trick ({trump})"),
        "must_follow": N_("must follow suit: play {suit}"),
        "must_trump": N_("no {suit} in your hand, so you must trump ({trump})"),
    },
    you={
        "not_seated": N_("you are not seated in this hand"),
        "not_your_turn": N_("it is {to_act}'s turn, not yours"),
        "cards_unknown": N_("your cards are recorded as unknown"),
        "not_held": N_("you do not hold {card}"),
    },
)

# -- the table's refusals (check_table, check_name(s), check_players, check_setup; R2-R3, R5.4) --

register(
    {
        "seat_count": N_("{count} players: allowed are 2 to {most}"),
        "seated_invalid": N_("the seated seats must be at least two different seats of the table"),
        "dealer_not_seated": N_("the dealer {seat} is not seated"),
        "dealer_invalid": N_("the dealer {given} is not a seat of this table"),
        "stack_invalid": N_("the stack of {seat} is {given}: stacks are whole numbers of counters, 0 or more"),
        "pot_invalid": N_("the pot {given}: a carry-over is a whole number of counters, 0 or more"),
        "cannot_pay_ante": N_("{seat} has {stack} counters and cannot pay the ante of {ante}"),
        "ante_above_stack": N_("the ante {ante} is more than the starting stack {stack}: nobody could pay it"),
        "players_mismatch": N_("the option players={players} does not match the {count} players given"),
        "name_blank": N_("name {number} is empty: a name is text, not only spaces or invisible characters"),
        "name_char": N_(
            "name {number} {name} holds the character {char}: names must not hold control characters, "
            "line breaks or invisible format characters"
        ),
        "name_twice": N_(
            "name {number} {name} is also the name of {seat}: every player needs a name of their own "
            "(names that differ only in case, spaces or look-alike letters are the same)"
        ),
        "bad_name": N_("a name is 1 to {max} characters of text without control characters"),
        "bot_name": N_("the name {name} looks like a bot's seat; choose a name of your own"),
        "trick_counts": N_("{count} trick counts for {seats} seats: give one per seat"),
        "session_over": N_("the session is over; no more hands"),
        "hand_in_progress": N_("a hand is in progress; finish it first"),
        "no_hand_in_progress": N_("no hand is in progress"),
    }
)
