"""Exceptions of the ramsli engine.

Every error raised for bad input names what was wrong, what is allowed and, where one applies,
the rule id of RULES.md. The engine's refusals carry their :class:`~ramsli.refusal.Refusal` (a
stable ``code``, the rule id and the fields of the message) as ``.refusal``, so a front end
renders them in the player's language by code; the exception's own message is the English
rendering.
"""

from __future__ import annotations

from ramsli.cards import CardError
from ramsli.refusal import Refusal
from ramsli.rules import RulesError

__all__ = ["RamsliError", "IllegalActionError", "CardError", "RulesError", "SessionError", "TableError"]


class RamsliError(Exception):
    """Base class of ramsli's own errors (card and rules errors are ``ValueError``s)."""


class IllegalActionError(RamsliError, ValueError):
    """An action the rules do not allow now (R4.12); the state is left exactly as it was.

    Args:
        action: the refused action's text, e.g. ``"p3 pl 9H"`` (or the raw input, cut to 40
            characters).
        refusal: why: :meth:`Hand.why_illegal <ramsli.hand.Hand.why_illegal>`'s record.

    Attributes:
        action (str): as given.
        refusal (Refusal): as given; render it by ``refusal.code`` in the player's language.
        rule (str): the rule id that forbids it, e.g. ``"R4.10"``.
        reason (str): the English text of the refusal, without the action and the rule, e.g.
            ``"must follow suit: play ♠"``.

    >>> e = IllegalActionError("p3 pl 9H", Refusal("must_follow", "R4.10", {"suit": "S"}))
    >>> str(e), e.rule, e.refusal.code
    ('p3 pl 9H: must follow suit: play ♠ (R4.10)', 'R4.10', 'must_follow')
    """

    def __init__(self, action: str, refusal: Refusal) -> None:
        self.action = action
        self.refusal = refusal
        self.rule: str = refusal.rule or "R4.12"
        self.reason = refusal.text()
        super().__init__(f"{action}: {self.reason} ({self.rule})")


class SessionError(RamsliError):
    """A session operation that is not possible now, e.g. starting a hand after the session ended (R3).

    Attributes:
        refusal (Refusal): the record: ``session_over``, ``hand_in_progress``, ``no_hand_in_progress``.
    """

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        super().__init__(str(refusal))


class TableError(RamsliError, ValueError):
    """A table the engine refuses to seat or deal to: bad names, too few or too many seats,
    a dealer not seated, a stack or pot that is not a whole number of counters, a stack that
    cannot pay the ante, an ante above the starting stack, a ``players`` option that does not
    match (R2.1, R2.2, R3.2, R3.3, R3.5, R4.1, R5.4). Raised by
    :func:`~ramsli.session.check_setup`, :class:`~ramsli.session.Session`,
    :func:`~ramsli.session.check_names`, :func:`~ramsli.hand.check_table` and the ``Hand``
    constructors, before anything changes.

    The message is the same whoever reads the input; a hand history adds the line of the
    input from ``field`` and ``index``.

    Args:
        refusal: the record (``code``, rule id, fields).
        field: which input is wrong: ``"names"`` (the seat names, or how many there are),
            ``"players"`` (the ``players`` option, R2.1), ``"ante"``, ``"stacks"`` (also: how
            many seat slots), ``"pot"``, ``"dealer"``, ``"seated"`` or ``"tricks"``.
        index: which element of that input (a 0-based seat slot or name position), or None
            when the input as a whole is wrong.

    Attributes:
        refusal (Refusal), field (str), index (int | None): as given.
        rule (str | None): the rule id, e.g. ``"R3.5"``.

    >>> e = TableError(Refusal("cannot_pay_ante", "R3.5", {"seat": 1, "stack": 0, "ante": 1}), "stacks", 1)
    >>> (str(e), e.field, e.index, e.rule, isinstance(e, ValueError))
    ('p2 has 0 counters and cannot pay the ante of 1 (R3.5)', 'stacks', 1, 'R3.5', True)
    """

    def __init__(self, refusal: Refusal, field: str, index: int | None = None) -> None:
        self.refusal = refusal
        self.field = field
        self.index = index
        self.rule = refusal.rule
        super().__init__(str(refusal))
