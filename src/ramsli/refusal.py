"""Refusals as data: what the engine, the pub ledger and the server refuse, and why (R4.12).

A :class:`Refusal` is a frozen record of one refused input: a stable ``code`` (``must_follow``,
``not_your_turn``, ``cannot_pay_ante``, …), the rule id that refuses it, and the ``fields`` its
message needs (a seat, a card, a suit, a number). Nothing in it is a sentence to be taken apart:
every front end renders a refusal **by its code** from the gettext catalogs, in the reader's
language (:func:`ramsli.frontends.i18n.render_refusal`); :meth:`Refusal.text` is the English
rendering, which the engine's exceptions carry as their message.

Each code has one English text, a gettext msgid with ``{field}`` placeholders, declared as data:
a :class:`RefusalText` in its package's table, code -> text. The engine declares its codes here,
one table per concern (:data:`HAND`, :data:`TABLE`, :data:`CARDS`, :data:`RULES`, :data:`LEDGER`,
:data:`FAIRNESS`, :data:`HISTORY`), gathered by :func:`collect` into :data:`REFUSALS`; the bots declare theirs in
:data:`ramsli.bots.refusals.REFUSALS`, the server in :data:`ramsli.server.protocol.messages.REFUSALS`
(which gathers all three, and the HTTP status of each of its codes). A code may also have a text
for a reader who is the seat the refusal is about (``RefusalText.you``: "you do not hold …").
Nothing is registered when a module is imported: a table is a constant.

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

This module imports nothing else of ramsli and reads no file: every layer may use it.

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
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = [
    "Refusal",
    "Refused",
    "RefusalText",
    "collect",
    "REFUSALS",
    "HAND",
    "TABLE",
    "CARDS",
    "RULES",
    "LEDGER",
    "FAIRNESS",
    "HISTORY",
    "TEXTS",
    "YOU_TEXTS",
    "SEAT_FIELDS",
    "CARD_FIELDS",
    "SUIT_FIELDS",
    "NUMBER_FIELDS",
    "number_text",
    "N_",
    "NP_",
    "COUNT_FIELD",
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
#: the field whose number chooses the plural form of a text with one (:attr:`RefusalText.plural`)
COUNT_FIELD = "count"

_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def N_(message: str) -> str:
    """Mark ``message`` as a msgid for the catalogs (``scripts/i18n.py`` extracts it); returns it."""
    return message


def NP_(singular: str, plural: str) -> RefusalText:
    """The text of a refusal that counts something (its :data:`COUNT_FIELD`, ``count``): ``singular``
    and ``plural`` marked as one plural message for the catalogs (``scripts/i18n.py`` extracts them
    as it does ``ngettext``'s), so that each language chooses its own form by the count ("1 player",
    "3 players"; in French 0 and 1 take the singular).

    >>> NP_("{count} hand", "{count} hands").plural
    '{count} hands'
    """
    return RefusalText(singular, plural=plural)


@dataclass(frozen=True, slots=True)
class RefusalText:
    """The texts of one refusal code, as its package declares them.

    Attributes:
        text: the English text, a gettext msgid with ``{field}`` placeholders (mark it ``N_()``).
        you: the English text for a reader who is the refusal's ``seat`` ("you do not hold
            {card}"), or None.
        status: the HTTP status of an error answered under this code (the server's codes; 400
            when None).
        plural: the English text for a ``count`` (:data:`COUNT_FIELD`) other than 1, the plural
            msgid of ``text`` (declare the two with :func:`NP_`), or None for a text without one.
    """

    text: str
    you: str | None = None
    status: int | None = None
    plural: str | None = None


def collect(*tables: Mapping[str, RefusalText]) -> dict[str, RefusalText]:
    """The codes of ``tables`` in one mapping, code -> :class:`RefusalText`.

    Raises:
        ValueError: if two tables declare one code with different texts (one code, one meaning).

    >>> a = {"late": RefusalText("too late")}
    >>> sorted(collect(a, {"early": RefusalText("too early")}, a))
    ['early', 'late']
    >>> collect(a, {"late": RefusalText("far too late")})
    Traceback (most recent call last):
    ...
    ValueError: refusal code 'late' is declared twice with different texts
    """
    out: dict[str, RefusalText] = {}
    for table in tables:
        for code, text in table.items():
            if out.get(code, text) != text:
                raise ValueError(f"refusal code {code!r} is declared twice with different texts")
            out[code] = text
    return out


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
        code: the stable code (snake_case), declared in its package's table (:data:`REFUSALS`).
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

    def template(self, reader: int | None = None, texts: Mapping[str, RefusalText] | None = None) -> str:
        """The English msgid of this refusal in ``texts`` (default the engine's :data:`REFUSALS`):
        the ``you`` text when ``reader`` is the refusal's ``seat`` and the code has one, else its
        text.

        Raises:
            KeyError: for a code ``texts`` does not declare.
        """
        entry = (REFUSALS if texts is None else texts)[self.code]
        if reader is not None and entry.you is not None and self._fields.get("seat") == reader:
            return entry.you
        return entry.text

    def plural(
        self, reader: int | None = None, texts: Mapping[str, RefusalText] | None = None
    ) -> tuple[str, int] | None:
        """The plural msgid of :meth:`template` and the count that chooses the form (the
        :data:`COUNT_FIELD`), when the code's text has one (:attr:`RefusalText.plural`; not its
        ``you`` text) and the count is a whole number; else None.

        >>> Refusal("seat_count", "R2.1", {"count": 1, "most": 6}).plural()
        ('{count} players: allowed are 2 to {most}', 1)

        Raises:
            KeyError: for a code ``texts`` does not declare.
        """
        entry = (REFUSALS if texts is None else texts)[self.code]
        count = self._fields.get(COUNT_FIELD)
        if entry.plural is None or type(count) is not int or self.template(reader, texts) != entry.text:
            return None
        return entry.plural, count

    def text(self, reader: int | None = None, texts: Mapping[str, RefusalText] | None = None) -> str:
        """The English message, without the rule id: seats as ``p3``, cards as ``AS``, suits as
        ``♠ ♥ ♦ ♣``. Front ends render the same code in the reader's language instead.

        The text is the code's in ``texts`` (default the engine's :data:`REFUSALS`); a code not
        declared there reads as the code and its fields (so an exception always has a message).
        """
        try:
            template = self.template(reader, texts)
            forms = self.plural(reader, texts)
        except KeyError:
            return f"{self.code} {dict(self.plain_fields())}".rstrip()
        if forms is not None and forms[1] != 1:
            template = forms[0]
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


# -- the engine's refusal codes, declared as data, one table per concern ---------------------------

#: the hand's refusals (:meth:`~ramsli.hand.Hand.why_illegal`, :meth:`~ramsli.hand.Hand.apply`; R4.5-R4.12)
HAND: Mapping[str, RefusalText] = {
    "not_an_action": RefusalText(N_("{given} is not an action; write e.g. p2 in, p2 out, p2 pl AS")),
    "hand_over": RefusalText(N_("the hand is over")),
    "not_seated": RefusalText(N_("{seat} is not seated in this hand"), you=N_("you are not seated in this hand")),
    "not_your_turn": RefusalText(N_("it is {to_act}'s turn, not {seat}'s"), you=N_("it is {to_act}'s turn, not yours")),
    "declare_first": RefusalText(N_("declare in or out first")),
    "dealer_forced": RefusalText(N_("everyone before the dealer is out, so the dealer must be in")),
    "general_rams_or_pass": RefusalText(N_("announce General Rams (gr) or pass first")),
    "target_range": RefusalText(N_("target {target} is not allowed; targets are 2, 3, 4, 5")),
    "target_5_not_offered": RefusalText(N_("target 5 is not offered when General Rams is on; allowed are 2, 3, 4")),
    "target_or_pass": RefusalText(N_("announce a target (2 to 5) or pass first")),
    "play_a_card": RefusalText(N_("the declarations are over; play a card")),
    "not_a_card": RefusalText(N_("{given} is not a card")),
    "cards_unknown": RefusalText(
        N_("the cards of {seat} are recorded as unknown"), you=N_("your cards are recorded as unknown")
    ),
    "not_held": RefusalText(N_("{seat} does not hold {card}"), you=N_("you do not hold {card}")),
    "must_overtrump": RefusalText(
        N_("must overtrump: play a trump higher than the highest trump in the trick ({trump})")
    ),
    "must_follow": RefusalText(N_("must follow suit: play {suit}")),
    "must_trump": RefusalText(N_("no {suit} in your hand, so you must trump ({trump})")),
}

#: the table's and the session's refusals (``check_table``, ``check_names``, ``check_players``,
#: ``check_setup``, :class:`~ramsli.session.Session`; R2-R3, R5.4)
TABLE: Mapping[str, RefusalText] = {
    "seat_count": NP_("{count} player: allowed are 2 to {most}", "{count} players: allowed are 2 to {most}"),
    "seated_invalid": RefusalText(N_("the seated seats must be at least two different seats of the table")),
    "dealer_not_seated": RefusalText(N_("the dealer {seat} is not seated")),
    "dealer_invalid": RefusalText(N_("the dealer {given} is not a seat of this table")),
    "stack_invalid": RefusalText(N_("the stack of {seat} is {given}: stacks are whole numbers of counters, 0 or more")),
    "pot_invalid": RefusalText(N_("the pot {given}: a carry-over is a whole number of counters, 0 or more")),
    "cannot_pay_ante": RefusalText(N_("{seat} has {stack} counters and cannot pay the ante of {ante}")),
    "ante_above_stack": RefusalText(N_("the ante {ante} is more than the starting stack {stack}: nobody could pay it")),
    "players_mismatch": RefusalText(N_("the option players={players} does not match the {count} players given")),
    "name_blank": RefusalText(N_("name {number} is empty: a name is text, not only spaces or invisible characters")),
    "name_char": RefusalText(
        N_(
            "name {number} {name} holds the character {char}: names must not hold control characters, "
            "line breaks or invisible format characters"
        )
    ),
    "name_twice": RefusalText(
        N_(
            "name {number} {name} is also the name of {seat}: every player needs a name of their own "
            "(names that differ only in case, spaces or look-alike letters are the same)"
        )
    ),
    "bad_name": RefusalText(N_("a name is 1 to {max} characters of text without control characters"), status=422),
    "bot_name": RefusalText(N_("the name {name} looks like a bot's seat; choose a name of your own"), status=422),
    "name_invisible": RefusalText(
        N_(
            "the name holds the invisible character {char} (one that shows nothing or changes how the text "
            "around it shows: a joiner, a direction mark, a soft hyphen, a variation selector or a filler): "
            "type a name of letters you can see"
        ),
        status=422,
    ),
    "name_marks": RefusalText(
        N_(
            "the name piles accents on one letter ({char}): at most {most} on a letter, and never the same "
            "one twice in a row"
        ),
        status=422,
    ),
    "trick_counts": RefusalText(N_("{count} trick counts for {seats} seats: give one per seat")),
    "session_over": RefusalText(N_("the session is over; no more hands")),
    "hand_in_progress": RefusalText(N_("a hand is in progress; finish it first")),
    "no_hand_in_progress": RefusalText(N_("no hand is in progress")),
}

#: the cards' refusals (:mod:`ramsli.cards`: ``Card.parse``, ``parse_cards``; R1.6)
CARDS: Mapping[str, RefusalText] = {
    "card_notation": RefusalText(
        N_(
            "{given} is not a card: write rank then suit, ranks A K Q J T(10) 9 8 7 6 5 4 3 2, "
            "suits S H D C or ♠ ♥ ♦ ♣ (any case), jokers X1 (big) and X2 (little); e.g. 'AS', '10H'"
        )
    ),
    "card_not_text": RefusalText(N_("a card must be text like 'AS', not {type}")),
    "rank_range": RefusalText(N_("rank {rank} is not 2..14")),
}

#: the rules' refusals (:mod:`ramsli.rules`: options, presets, rules files, session ends; R3.6, R6, R8)
RULES: Mapping[str, RefusalText] = {
    "unknown_option": RefusalText(N_("unknown option '{option}'; allowed are {allowed}")),
    "unknown_preset": RefusalText(N_("unknown preset '{preset}'; allowed are {allowed}")),
    "options_not_table": RefusalText(
        N_("rule options must be a table of option = value, not {type}; options are {allowed}")
    ),
    "not_key_value": RefusalText(N_("{given} is not key=value; options are {allowed}")),
    "rules_toml": RefusalText(N_("the rules file is not valid TOML: {error}")),
    "option_choice": RefusalText(N_("option '{option}': {given} is not allowed; allowed are {allowed}")),
    "option_bool": RefusalText(N_("option '{option}': {given} is not a boolean; allowed are true, false")),
    "option_number": RefusalText(
        N_("option '{option}': {given} is not allowed; allowed is a whole number >= {least} and at most {most}")
    ),
    "option_bete": RefusalText(
        N_("option 'bete': {given} is not allowed; allowed is a whole number >= 0 and at most {most}, or 'pot'")
    ),
    "option_digits": RefusalText(
        N_("option '{option}': a number of {digits} digits is too large; allowed is at most {most}")
    ),
    "option_too_large": RefusalText(N_("option '{option}': {given} is too large; allowed is at most {most} counters")),
    "end_invalid": RefusalText(
        N_(
            "option 'end': {given} is not a session end; allowed are 'win-at:N' (counters), 'hands:N', "
            "'time:M' (minutes) with N, M >= 1"
        )
    ),
    "end_too_large": RefusalText(N_("option 'end': {given} is too large; allowed is N, M from 1 to {most}")),
    "end_not_list": RefusalText(N_("option 'end': {given} is not a list of session ends")),
    "end_twice": RefusalText(
        N_("option 'end': {given} names one kind twice; give each of win-at, hands, time at most once")
    ),
    "win_at_too_large": RefusalText(
        N_("option 'end': win-at:{given} is too large; allowed is win-at:1..{most} (counters)")
    ),
    "hands_too_large": RefusalText(N_("option 'end': hands:{given} is too large; allowed is hands:1..{most} (hands)")),
    "time_too_large": RefusalText(N_("option 'end': time:{given} is too large; allowed is time:1..{most} (minutes)")),
}

#: the pub ledger's refusals (:mod:`ramsli.ledger`: a booked hand; R3-R5)
LEDGER: Mapping[str, RefusalText] = {
    "bad_entry": RefusalText(
        N_(
            'a hand is {{"active": [seats], "tricks": {{seat: n}}, "general_rams": seat or null, '
            '"targets": {{seat: t}}}} with whole numbers'
        )
    ),
    "over": RefusalText(N_("hand {hand}: the session is over; no more hands")),
    "bad_seat": RefusalText(N_("hand {hand}: seat {number} is not at this table of {count}")),
    "twice": RefusalText(N_("hand {hand}: a seat is listed twice as in")),
    "bust_in": RefusalText(N_("hand {hand}: {name} is bust and has left; a bust player cannot be dealt in")),
    "compulsory": RefusalText(N_("hand {hand}: Compulsory Ramsli: every seated player is in")),
    "all_out_dealer_forced": RefusalText(
        N_("hand {hand}: everyone out, but the dealer {name} is forced in when all before declared out")
    ),
    "tricks_range": RefusalText(N_("hand {hand}: {name} took {tricks} tricks; a hand has 0 to 5 tricks")),
    "out_tricks": RefusalText(N_("hand {hand}: {name} was out and cannot take tricks")),
    "tricks_sum": RefusalText(N_("hand {hand}: the tricks add up to {total}; five tricks are played")),
    "walkover_tricks": RefusalText(N_("hand {hand}: with {count} player in, no tricks are played")),
    "gr_off": RefusalText(N_("hand {hand}: General Rams is not played at this table")),
    "gr_not_active": RefusalText(
        N_("hand {hand}: only an active player may announce General Rams, with two or more in")
    ),
    "targets_off": RefusalText(N_("hand {hand}: targets are not played at this table")),
    "target_not_active": RefusalText(
        N_("hand {hand}: only an active player may announce a target, with two or more in")
    ),
    "target_gr": RefusalText(N_("hand {hand}: the General Rams announcer announces no target")),
    "target_not_offered": RefusalText(N_("hand {hand}: target {target}; allowed are 2 to {top}")),
    "no_such_hand": RefusalText(N_("there is no hand {hand}; booked are 1 to {count}")),
}

#: the deal proof's refusals (:mod:`ramsli.fairness`, ``ramsli verify``; D-16)
FAIRNESS: Mapping[str, RefusalText] = {
    # a [fairness] table that cannot be read (ramsli verify: exit status 2)
    "fair_scheme": RefusalText(N_("the commitments use the scheme {given}; this reader checks {scheme}")),
    "fair_length": RefusalText(
        N_(
            "the deal has {given} commitments, but the {deck} deck has {size} cards: "
            "one commitment per deck position is needed"
        )
    ),
    "fair_bad_commitment": RefusalText(N_("commitment {position} is not 64 lower-case hex digits")),
    "fair_bad_digest": RefusalText(N_("the digest is not 64 lower-case hex digits")),
    "fair_bad_opening": RefusalText(N_("opening {index}: {problem}")),
    "fair_position_twice": RefusalText(N_("position {position} is opened twice")),
    "fair_bad_seat": RefusalText(N_("the reader {given} is not a seat of this hand")),
    "fair_bad_binding": RefusalText(N_("the deal's {key} is not of its form: {given}")),
    # what ramsli verify finds wrong (exit status 1)
    "fair_digest": RefusalText(N_("the digest does not match the commitments: a commitment was changed")),
    "fair_other_table": RefusalText(
        N_("the digest is bound to table {bound}, not to table {table}: the commitments of another table")
    ),
    "fair_other_hand": RefusalText(
        N_("the digest is bound to hand {bound}, but this is hand {hand}: the commitments of another hand")
    ),
    "fair_other_dealer": RefusalText(
        N_("the digest is bound to dealer {bound}, but {dealer} dealt this hand: the commitments of another hand")
    ),
    "fair_other_seats": RefusalText(
        N_("the digest is bound to the seats {bound}, but this hand dealt {seated}: the commitments of another hand")
    ),
    "fair_mismatch": RefusalText(
        N_("position {position}: {card} does not match its commitment (a changed card or salt)")
    ),
    "fair_wrong_place": RefusalText(N_("position {position} holds {expected} in this hand, but it opens as {card}")),
    "fair_not_opened": RefusalText(N_("{card} (position {position}) is known to this reader but has no opening")),
    "fair_card_twice": RefusalText(N_("{card} is opened at positions {position} and {other}: not one deck")),
    "fair_not_known": RefusalText(
        N_("position {position} ({card}) is opened, but it is not a card this reader may know")
    ),
    "fair_no_proof": RefusalText(N_("this history has no commitments ([fairness]): its deal cannot be checked")),
}

#: a hand history that cannot be read (:class:`ramsli.history.HistoryError`'s ``refusal``; ``ramsli verify``,
#: ``ramsli review``: exit status 2); its place (``key``, ``index``) is said apart, before the text
HISTORY: Mapping[str, RefusalText] = {
    "hh_no_file": RefusalText(N_("no such file")),
    "hh_unreadable": RefusalText(N_("cannot read the file: {error}")),
    "hh_not_toml": RefusalText(N_("not valid TOML: {error}")),
    "hh_play_unknown": RefusalText(
        N_(
            "action {number} '{action}': the cards of {seat} are written as unknown (??) at line {line}, "
            "but a seat that plays must have all five cards recorded"
        )
    ),
    "hh_unknown_key": RefusalText(N_("unknown key '{given}'; allowed are {allowed}")),
    "hh_missing_key": RefusalText(N_("the key '{given}' is missing; a hand history needs {allowed}")),
    "hh_not_in_deck": RefusalText(N_("{card} is not in the {deck} deck")),
    "hh_card_twice": RefusalText(N_("{card} is dealt twice (also {other}, card {number})")),
    "hh_card_twice_key": RefusalText(N_("{card} is dealt twice (also {other})")),
    "hh_settlement": RefusalText(
        N_("the settlement does not match the replay: recorded {key} = {recorded}, the replay computes {computed}")
    ),
}

#: every refusal code of the engine and its texts (:func:`collect` of the tables above)
REFUSALS: Mapping[str, RefusalText] = MappingProxyType(collect(HAND, TABLE, CARDS, RULES, LEDGER, FAIRNESS, HISTORY))
#: code -> English text of the engine's codes (a gettext msgid with ``{field}`` placeholders)
TEXTS: Mapping[str, str] = MappingProxyType({code: t.text for code, t in REFUSALS.items()})
#: code -> English text for a reader who is the refusal's ``seat`` ("you do not hold {card}")
YOU_TEXTS: Mapping[str, str] = MappingProxyType({code: t.you for code, t in REFUSALS.items() if t.you})
