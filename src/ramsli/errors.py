"""Exceptions of the ramsli engine.

Every error raised for bad input names what was wrong, what is allowed and,
where one applies, the rule id of RULES.md.
"""

from __future__ import annotations

from ramsli.cards import CardError
from ramsli.rules import RulesError

__all__ = ["RamsliError", "IllegalActionError", "CardError", "RulesError", "SessionError"]


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
