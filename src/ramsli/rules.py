"""Rule options and presets (RULES.md R8 and R6).

One immutable, validated :class:`Rules` object carries every option of R8.
Variants are presets of options (R6), never forks of the engine.

>>> from ramsli.rules import Rules
>>> r = Rules.preset("double-penalty")
>>> r.bete
10
>>> r.replace(ante=2).ante
2
>>> Rules.from_toml(r.to_toml()) == r
True
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ramsli import toml_text
from ramsli.refusal import Refusal, number_text

__all__ = [
    "Rules",
    "RulesError",
    "EndCondition",
    "PRESETS",
    "PRESET_NOTES",
    "OPTIONS",
    "OptionInfo",
    "MAX_OPTION_NUMBER",
    "MAX_COUNTERS",
    "MAX_SESSION_HANDS",
    "MAX_SESSION_MINUTES",
    "check_play_limits",
    "format_number",
]

#: the largest number any option may hold (counters, hands, minutes); the engine's own bound, far
#: beyond play, so that a typo of many digits is refused instead of being carried through every hand
MAX_OPTION_NUMBER = 10**30
#: the most counters a stack, the ante or the bete may hold where counters are 64-bit integers
#: (the lab's batch kernel, ``ramsli.lab.limits``) and at a table of ``ramsli serve``
MAX_COUNTERS = 10**9
#: the most hands a session end ``hands:N`` may ask for at a table of ``ramsli serve`` (R3.6)
MAX_SESSION_HANDS = 10**5
#: the most minutes a session end ``time:M`` may ask for at a table of ``ramsli serve`` (R3.6)
MAX_SESSION_MINUTES = 10**5


def format_number(x: int) -> str:
    """A whole number as the English messages about limits write it, as a person reads it:
    thousands grouped with commas, a huge power of ten as ``10^30``
    (:func:`ramsli.refusal.number_text`). A refusal carries its bound as an ``int`` (field
    ``most``), which a front end groups in the reader's language.

    >>> format_number(1234567), format_number(10**9), format_number(10**30)
    ('1,234,567', '1,000,000,000', '10^30')
    """
    return number_text(x)


class RulesError(ValueError):
    """An unknown option, a bad option value or an unknown preset (R8, R6).

    Args:
        refusal: the record: its ``code`` (``option_choice``, ``option_number``,
            ``unknown_option``, ``unknown_preset``, …, declared in :data:`ramsli.refusal.RULES`), the
            rule id and the fields of the message (``option`` the option's name, ``given`` the
            value as given, cut to 40 characters, ``allowed`` or ``most`` what is allowed).

    Attributes:
        refusal (Refusal): as given; render it by ``refusal.code`` in the reader's language.
        rule (str | None): the rule id, e.g. ``"R4.1"``.
        code (str): the refusal's code.

    The message (``str(error)``) is the English text: it names the option, what was given and
    what is allowed, and ends with the rule id.

    >>> e = RulesError(Refusal("unknown_preset", "R6", {"preset": "rounders", "allowed": "traditional, nap"}))
    >>> str(e), e.code, e.rule
    ("unknown preset 'rounders'; allowed are traditional, nap (R6)", 'unknown_preset', 'R6')
    """

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        self.rule = refusal.rule
        self.code = refusal.code
        super().__init__(str(refusal))


@dataclass(frozen=True)
class EndCondition:
    """One session end of R3.6: ``win-at:N``, ``hands:N`` or ``time:M``.

    Attributes:
        kind: ``"win-at"`` (counters), ``"hands"`` (hands) or ``"time"`` (minutes).
        value: N or M, an int ≥ 1.
    """

    kind: str
    value: int

    KINDS = ("win-at", "hands", "time")

    @classmethod
    def parse(cls, text: str) -> EndCondition:
        """Parse ``"win-at:30"``, ``"hands:10"`` or ``"time:90"``.

        Raises:
            RulesError: for any other text.
        """
        kind, sep, num = str(text).strip().partition(":")
        if (
            kind in cls.KINDS
            and sep
            and num.strip().isascii()
            and num.strip().isdigit()
            and (len(num.strip()) > 31 or int(num) > MAX_OPTION_NUMBER)
        ):
            raise RulesError(Refusal("end_too_large", "R3.6", {"given": _short(text), "most": MAX_OPTION_NUMBER}))
        if kind not in cls.KINDS or not sep or not (num.strip().isascii() and num.strip().isdigit()) or int(num) < 1:
            raise RulesError(Refusal("end_invalid", "R3.6", {"given": _short(text)}))
        return cls(kind, int(num))

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"


@dataclass(frozen=True)
class OptionInfo:
    """What one option of R8 means: allowed values (text), default (text), rule id, description."""

    values: str
    default: str
    rule: str
    help: str


#: Every option of R8, in the order of the table.
OPTIONS: dict[str, OptionInfo] = {
    "deck": OptionInfo("piquet32, full52", "piquet32", "R1", "32-card piquet deck or 52-card full deck"),
    "jokers": OptionInfo("true, false", "false", "R1.3", "add big and little joker as the two highest trumps"),
    "players": OptionInfo("2-6", "(unset)", "R2", "number of players; unset means chosen at the table"),
    "starting_stack": OptionInfo("int >= 1", "20", "R3.3", "counters each player starts the session with (D-5)"),
    "ante": OptionInfo("int >= 0", "1", "R4.1", "counters each seated player pays into the pot every hand"),
    "batches": OptionInfo("3+2, 2+3", "3+2", "R4.3", "sizes of the two rounds of the deal"),
    "dealer_forced": OptionInfo(
        "true, false",
        "true",
        "R4.5",
        "if all before the dealer are out, the dealer must be in; off: the hand is thrown in (D-10)",
    ),
    "compulsory": OptionInfo("true, false", "false", "R4.5", "Compulsory Ramsli: no declarations, everyone is in"),
    "general_rams": OptionInfo("true, false", "false", "R4.7", "players may announce General Rams (all five tricks)"),
    "general_rams_penalty": OptionInfo(
        "triple-bete, triple-pot", "triple-bete", "R5.6", "a failed General Rams pays 3x the bete, or 3x the pot"
    ),
    "targets": OptionInfo("true, false", "false", "R4.8", "Nap hybrid: players may announce a trick target 2-5"),
    "target_bonus": OptionInfo("t-1, t", "t-1", "R5.7", "bonus b(t) each other active player pays for target t"),
    "overtrump": OptionInfo(
        "always, when-trumping",
        "always",
        "R4.10",
        "must overtrump also when following a trump lead (always), or only when trumping (D-14)",
    ),
    "bete": OptionInfo("int >= 0, pot", "5", "R5.3", "what a player in with zero tricks pays into the next pot"),
    "bust": OptionInfo(
        "end, leave", "end", "R3.5", "when a player cannot pay the ante: session ends, or bust players leave"
    ),
    "end": OptionInfo("list of win-at:N, hands:N, time:M", "[] (none)", "R3.6", "other ends of the session"),
}

_CHOICES = {
    "deck": ("piquet32", "full52"),
    "batches": ("3+2", "2+3"),
    "general_rams_penalty": ("triple-bete", "triple-pot"),
    "target_bonus": ("t-1", "t"),
    "overtrump": ("always", "when-trumping"),
    "bust": ("end", "leave"),
}
_BOOLS = ("jokers", "dealer_forced", "compulsory", "general_rams", "targets")


@dataclass(frozen=True)
class Rules:
    """Every rule option of R8, validated and immutable.

    Build one with :meth:`preset`, :meth:`from_dict`, :meth:`from_toml` or
    ``Rules()`` (the `traditional` preset); change options with :meth:`replace`.

    Raises:
        RulesError: on construction with an unknown option or a bad value; the
            message lists what is allowed.

    >>> Rules(bete="pot").bete
    'pot'
    """

    deck: str = "piquet32"
    jokers: bool = False
    players: int | None = None
    starting_stack: int = 20
    ante: int = 1
    batches: str = "3+2"
    dealer_forced: bool = True
    compulsory: bool = False
    general_rams: bool = False
    general_rams_penalty: str = "triple-bete"
    targets: bool = False
    target_bonus: str = "t-1"
    overtrump: str = "always"
    bete: int | str = 5
    bust: str = "end"
    end: tuple[EndCondition, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            v = getattr(self, name)
            if v not in allowed:
                raise RulesError(
                    Refusal(
                        "option_choice",
                        OPTIONS[name].rule,
                        {"option": name, "given": _short(v), "allowed": ", ".join(allowed)},
                    )
                )
        for name in _BOOLS:
            v = getattr(self, name)
            if not isinstance(v, bool):
                raise RulesError(Refusal("option_bool", OPTIONS[name].rule, {"option": name, "given": _short(v)}))
        if self.players is not None and (type(self.players) is not int or not 2 <= self.players <= 6):
            refusal = Refusal(
                "option_choice", "R2.1", {"option": "players", "given": _short(self.players), "allowed": "2-6"}
            )
            raise RulesError(refusal)
        big = MAX_OPTION_NUMBER
        if type(self.starting_stack) is not int or not 1 <= self.starting_stack <= MAX_OPTION_NUMBER:
            fields = {"option": "starting_stack", "given": _short(self.starting_stack), "least": 1, "most": big}
            raise RulesError(Refusal("option_number", "R3.3", fields))
        if type(self.ante) is not int or not 0 <= self.ante <= MAX_OPTION_NUMBER:
            fields = {"option": "ante", "given": _short(self.ante), "least": 0, "most": big}
            raise RulesError(Refusal("option_number", "R4.1", fields))
        if not (self.bete == "pot" or (type(self.bete) is int and 0 <= self.bete <= MAX_OPTION_NUMBER)):
            raise RulesError(Refusal("option_bete", "R5.3", {"given": _short(self.bete), "most": big}))
        end = self.end
        if isinstance(end, (str, EndCondition)):
            end = (end,)
        try:
            conds = tuple(e if isinstance(e, EndCondition) else EndCondition.parse(e) for e in end)
        except TypeError:
            raise RulesError(Refusal("end_not_list", "R3.6", {"given": _short(self.end)})) from None
        kinds = [c.kind for c in conds]
        if len(set(kinds)) != len(kinds):
            raise RulesError(Refusal("end_twice", "R3.6", {"given": ", ".join(str(c) for c in conds)}))
        object.__setattr__(self, "end", conds)

    # -- derived values -------------------------------------------------

    @property
    def first_batch(self) -> int:
        """Cards per seat in the first round of the deal (R4.3): 3 or 2."""
        return 3 if self.batches == "3+2" else 2

    @property
    def largest_target(self) -> int:
        """The largest trick target that may be announced (R4.8): 5, or 4 with
        ``general_rams`` on (then five tricks is General Rams).

        >>> Rules().largest_target, Rules(general_rams=True).largest_target
        (5, 4)
        """
        return 4 if self.general_rams else 5

    @property
    def targets_offered(self) -> tuple[int, ...]:
        """The trick targets a player may announce (R4.8, D-13): ``(2, 3, 4, 5)``, or
        ``(2, 3, 4)`` with ``general_rams`` on; ``()`` with option ``targets`` off.

        >>> Rules(targets=True).targets_offered, Rules(targets=True, general_rams=True).targets_offered
        ((2, 3, 4, 5), (2, 3, 4))
        >>> Rules().targets_offered
        ()
        """
        return tuple(range(2, self.largest_target + 1)) if self.targets else ()

    @property
    def overtrump_on_trump_lead(self) -> bool:
        """True if the overtrump duty of R4.10.3 also applies when following a trump
        lead (option ``overtrump = "always"``, D-14); False for ``"when-trumping"``
        (only when trumping a side-suit lead).

        >>> Rules().overtrump_on_trump_lead, Rules(overtrump="when-trumping").overtrump_on_trump_lead
        (True, False)
        """
        return self.overtrump == "always"

    def bete_for(self, pot: int) -> int:
        """The bete (R5.3) owed by an active player with zero tricks when the pot
        at the end of play is ``pot`` counters: option ``bete``, or ``pot`` itself
        under ``bete = "pot"``. Counters.

        >>> Rules().bete_for(7), Rules(bete="pot").bete_for(7)
        (5, 7)
        """
        bete = self.bete
        return bete if isinstance(bete, int) else pot

    def general_rams_penalty_for(self, pot: int) -> int:
        """What a failed General Rams announcer pays into the next pot (R5.6, D-15)
        when the pot at the end of play is ``pot``: three times :meth:`bete_for`,
        or ``3 * pot`` under ``general_rams_penalty = "triple-pot"``. Counters.

        >>> Rules().general_rams_penalty_for(7), Rules(general_rams_penalty="triple-pot").general_rams_penalty_for(7)
        (15, 21)
        """
        return 3 * pot if self.general_rams_penalty == "triple-pot" else 3 * self.bete_for(pot)

    def target_bonus_for(self, target: int) -> int:
        """The bonus b(t) of R5.7 (D-13) for target ``target`` (2..5): ``t - 1``
        (option ``target_bonus = "t-1"``) or ``t``. Counters per other active player.

        >>> Rules().target_bonus_for(3), Rules(target_bonus="t").target_bonus_for(3)
        (2, 3)
        """
        return target - 1 if self.target_bonus == "t-1" else target

    @property
    def bust_below(self) -> int:
        """A seated player whose stack is below this many counters is bust before
        the next ante (R3.5, D-7): ``max(ante, 1)``.

        >>> Rules().bust_below, Rules(ante=0).bust_below, Rules(ante=3).bust_below
        (1, 1, 3)
        """
        return max(self.ante, 1)

    def end_value(self, kind: str) -> int | None:
        """The N of the first ``end`` condition of ``kind`` (R3.6), or None."""
        for e in self.end:
            if e.kind == kind:
                return e.value
        return None

    # -- construction ----------------------------------------------------

    @classmethod
    def preset(cls, name: str, **options: Any) -> Rules:
        """The named preset of R6, optionally adjusted option by option.

        Raises:
            RulesError: for an unknown preset (the message lists the presets) or a bad option.
        """
        if name not in PRESETS:
            raise RulesError(_unknown_preset(name))
        return cls.from_dict({**PRESETS[name], **options})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a mapping of option names to values (as in TOML); missing options take defaults.

        Raises:
            RulesError: for an unknown option (the message lists all options) or a bad value.
        """
        if not isinstance(data, Mapping):
            refusal = Refusal("options_not_table", "R8", {"type": type(data).__name__, "allowed": ", ".join(OPTIONS)})
            raise RulesError(refusal)
        unknown = [k for k in data if k not in OPTIONS]
        if unknown:
            raise RulesError(_unknown_option(unknown[0]))
        options: dict[str, Any] = {k: (tuple(v) if k == "end" and isinstance(v, list) else v) for k, v in data.items()}
        return cls(**options)

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed (validated).

        Raises:
            RulesError: for an unknown option or a bad value.
        """
        return Rules.from_dict({**self.to_dict(), **options})

    def with_assignments(self, assignments: list[str]) -> Rules:
        """A copy with ``key=value`` texts applied, as given to ``--rule`` on the command line.

        Values are read as TOML values where possible (``bete=10``, ``jokers=true``),
        else as bare text (``overtrump=when-trumping``); ``end`` takes a comma list.

        Raises:
            RulesError: for a text without ``=``, an unknown option or a bad value.
        """
        changes: dict[str, Any] = {}
        for a in assignments:
            key, sep, raw = a.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise RulesError(Refusal("not_key_value", "R8", {"given": _short(a), "allowed": ", ".join(OPTIONS)}))
            if key not in OPTIONS:
                raise RulesError(_unknown_option(key))
            changes[key] = _parse_value(key, raw.strip())
        return self.replace(**changes)

    def to_dict(self) -> dict[str, Any]:
        """All options as plain TOML-ready values (``players`` omitted when unset)."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["end"] = [str(e) for e in self.end]
        if d["players"] is None:
            del d["players"]
        return d

    def to_toml(self) -> str:
        """The options as a TOML document, one ``key = value`` per option (a list one element
        per line), written by :mod:`ramsli.toml_text`, the project's one TOML writer."""
        return toml_text.dumps(self.to_dict(), multiline=True)

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        """Read options written by :meth:`to_toml` (or by hand).

        Raises:
            RulesError: for invalid TOML, an unknown option or a bad value.
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RulesError(Refusal("rules_toml", "R8", {"error": str(e)})) from None
        return cls.from_dict(data)

    def diff(self, other: Rules | None = None) -> dict[str, Any]:
        """Options whose values differ from ``other`` (default: ``traditional``)."""
        base = (other or Rules()).to_dict()
        mine = self.to_dict()
        return {k: v for k, v in mine.items() if base.get(k) != v}


def _unknown_preset(name: object) -> Refusal:
    """The refusal of a preset name that is not one of :data:`PRESETS` (R6): code ``unknown_preset``.

    >>> str(_unknown_preset("rounders")).endswith("(R6)")
    True
    """
    return Refusal("unknown_preset", "R6", {"preset": str(name)[:40], "allowed": ", ".join(PRESETS)})


def _unknown_option(name: object) -> Refusal:
    return Refusal("unknown_option", "R8", {"option": str(name)[:40], "allowed": ", ".join(OPTIONS)})


def _short(v: Any) -> str:
    """``repr(v)``, cut to 40 characters (a number of 5000 digits is not repeated back)."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**40:
        return f"a number of {len(str(abs(v)))} digits"
    text = repr(v)
    return text if len(text) <= 40 else text[:40] + "…"


def check_play_limits(rules: Rules) -> None:
    """Refuse rules whose numbers are beyond play at a real table: counters (starting stack,
    ante, bete, ``win-at``) above :data:`MAX_COUNTERS`, ``hands:N`` above :data:`MAX_SESSION_HANDS`,
    ``time:M`` above :data:`MAX_SESSION_MINUTES` (R3.3, R4.1, R5.3, R3.6). The engine itself takes
    numbers up to :data:`MAX_OPTION_NUMBER`; the table server and the lab's kernel call this.

    Raises:
        RulesError: naming the option and the allowed range.

    >>> check_play_limits(Rules())
    >>> check_play_limits(Rules(starting_stack=10**18))
    Traceback (most recent call last):
    ...
    ramsli.rules.RulesError: option 'starting_stack': 1000000000000000000 is too large; allowed is at most 1,000,000,000 counters (R3.3)
    """
    for name, value, rule in (
        ("starting_stack", rules.starting_stack, "R3.3"),
        ("ante", rules.ante, "R4.1"),
        ("bete", rules.bete, "R5.3"),
    ):
        if isinstance(value, int) and value > MAX_COUNTERS:
            fields = {"option": name, "given": _short(value), "most": MAX_COUNTERS}
            raise RulesError(Refusal("option_too_large", rule, fields))
    limits = {
        "win-at": (MAX_COUNTERS, "win_at_too_large"),
        "hands": (MAX_SESSION_HANDS, "hands_too_large"),
        "time": (MAX_SESSION_MINUTES, "time_too_large"),
    }
    for cond in rules.end:
        most, code = limits[cond.kind]
        if cond.value > most:
            raise RulesError(Refusal(code, "R3.6", {"given": _short(cond.value), "most": most}))


def _parse_value(key: str, raw: str) -> Any:
    if key == "end":
        return [p for p in (x.strip() for x in raw.split(",")) if p]
    if key in _BOOLS:
        low = raw.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        return raw
    if key in ("players", "starting_stack", "ante", "bete"):
        digits = raw[1:] if raw.startswith("-") else raw
        if digits.isascii() and digits.isdigit():
            if len(digits.lstrip("0")) > 31:  # int() of thousands of digits is slow, or refused past 4300
                fields = {"option": key, "digits": len(digits), "most": MAX_OPTION_NUMBER}
                raise RulesError(Refusal("option_digits", "R8", fields))
            return int(raw)
        return raw
    return raw


#: The presets of R6 as option overrides of `traditional`.
PRESETS: dict[str, dict[str, Any]] = {
    "traditional": {},
    "general-rams": {"general_rams": True},
    "compulsory": {"compulsory": True},
    "double-penalty": {"bete": 10},
    "pot-bete": {"bete": "pot"},
    "joker": {"jokers": True},
    "modern-52": {"deck": "full52"},
    "rounce": {"deck": "full52", "bete": 10, "general_rams": False},
    "nap": {"targets": True},
}

#: One line per preset for help texts (R6).
PRESET_NOTES: dict[str, str] = {
    "traditional": "piquet deck, ante 1, bete 5, dealer forced, 3+2 batches, overtrump always",
    "general-rams": "General Rams announcements on (R4.7, R5.6)",
    "compulsory": "Pflicht-Ramsli: no declarations, every seated player is in (R4.5)",
    "double-penalty": "bete 10 (R5.3)",
    "pot-bete": "bete = the pot (R5.3 house rule)",
    "joker": "two jokers as the highest trumps (R1.3)",
    "modern-52": "full 52-card deck (R1.2)",
    "rounce": "American Rounce: full deck, bete 10, no General Rams (D-20)",
    "nap": "Nap hybrid: trick targets 2-5 (R4.8, R5.7)",
}
