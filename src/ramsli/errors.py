"""Exceptions of the ramsli engine.

Every error raised for bad input names what was wrong, what is allowed and,
where one applies, the rule id of RULES.md.
"""

from __future__ import annotations

from ramsli.cards import CardError
from ramsli.rules import RulesError

__all__ = ["RamsliError", "IllegalActionError", "CardError", "RulesError", "SessionError", "TableError"]


class RamsliError(Exception):
    """Base class of ramsli's own errors (card and rules errors are ``ValueError``s)."""


class IllegalActionError(RamsliError, ValueError):
    """An action the rules do not allow now (R4.12); the state is left exactly as it was.

    Attributes:
        rule: the rule id that forbids it, e.g. ``"R4.10"``.
        action: the refused action's text, e.g. ``"p3 pl 9H"`` (or the raw input).
        reason: the explanation without the action and rule, e.g.
            ``"must follow suit ♠"``.
    """

    def __init__(self, action: str, reason: str, rule: str) -> None:
        self.action = action
        self.reason = reason
        self.rule = rule
        super().__init__(f"{action}: {reason} ({rule})")


class SessionError(RamsliError):
    """A session operation that is not possible now, e.g. starting a hand after the session ended (R3)."""


class TableError(RamsliError, ValueError):
    """A table the engine refuses to seat or deal to: bad names, too few or too many seats,
    a dealer not seated, a stack or pot that is not a whole number of counters, a stack that
    cannot pay the ante (R2.1, R2.2, R3.2, R3.3, R3.5, R5.4). Raised by
    :class:`~ramsli.session.Session`, :func:`~ramsli.session.check_names`,
    :func:`~ramsli.hand.check_table` and the ``Hand`` constructors, before anything changes.

    The message is the same whoever reads the input; a hand history adds the line of the
    input from ``field`` and ``index``.

    Attributes:
        field: which input is wrong: ``"names"`` (the seat names, or how many there are),
            ``"players"`` (the ``players`` option, R2.1), ``"stacks"`` (also: how many seat
            slots), ``"pot"``, ``"dealer"`` or ``"seated"``.
        index: which element of that input (a 0-based seat slot or name position), or None
            when the input as a whole is wrong.
        rule: the rule id, e.g. ``"R3.5"``.

    >>> e = TableError("p2 has 0 counters and cannot pay the ante 1 (R3.5)", "stacks", 1, "R3.5")
    >>> (e.field, e.index, e.rule, isinstance(e, ValueError))
    ('stacks', 1, 'R3.5', True)
    """

    def __init__(self, message: str, field: str, index: int | None = None, rule: str | None = None) -> None:
        self.field = field
        self.index = index
        self.rule = rule
        super().__init__(message)
