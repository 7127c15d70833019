"""The command line's usage errors in the reader's language (en, de, nl, it, fr).

Typer's copy of Click writes its usage errors in English: ``Usage: …``, ``Try '… --help' for
help.``, ``Error: Invalid value for '--players' / '-P': Input should be a valid integer, …``. The
CLI shows them (:func:`ramsli.cli._errors_in_language`), and the commands' own errors
(:func:`ramsli.commands.show_errors`), with the words of the catalogs: the usage line's prefix, the
help hint, ``Error:``, and Click's message by the kind of error, built from what the error holds
(the option, the value given, the kind of value wanted), never from its English text. A reason
the words here do not know (a command's own ``BadParameter`` message, already in the reader's
language, or a kind of error Click rarely gives) is shown as it is.

>>> from ramsli.frontends.i18n import translation
>>> error_line("Ungültiger Wert", translation("de")), error_line("bad", translation("fr"))
('Fehler: Ungültiger Wert', 'Erreur\\xa0: bad')
"""

from __future__ import annotations

import enum
import gettext as _gettext
from collections.abc import Sequence
from typing import Any

from ramsli.frontends.i18n import N_

__all__ = ["error_line", "usage_head", "usage_error_text"]


def _say(tr: _gettext.NullTranslations, msgid: str, **fields: Any) -> str:
    return tr.gettext(msgid).format(**fields)


def error_line(message: str, tr: _gettext.NullTranslations) -> str:
    """``Error: {message}`` in the reader's language (``Fehler: …``)."""
    return _say(tr, N_("Error: {message}"), message=message)


def usage_head(ctx: Any, tr: _gettext.NullTranslations) -> str:
    """The usage line of ``ctx``'s command and the ``--help`` hint, as Click writes them before an
    error, in the reader's language: ``Usage: ramsli play [OPTIONS]``, ``Try 'ramsli play --help'
    for help.`` (the hint only where the command has a help option)."""
    formatter = ctx.make_formatter()
    pieces = " ".join(ctx.command.collect_usage_pieces(ctx))
    formatter.write_usage(ctx.command_path, pieces, prefix=tr.gettext(N_("Usage:")) + " ")
    lines = [formatter.getvalue().rstrip("\n")]
    if ctx.command.get_help_option(ctx) is not None:
        command = f"{ctx.command_path} {max(ctx.help_option_names, key=len)}"
        lines.append(_say(tr, N_("Try '{command}' for help."), command=command))
    return "\n".join(lines)


def _hint(error: Any) -> str | None:
    """How Click names the option or argument of ``error``: ``'--players' / '-P'``, ``--bots``."""
    hint = getattr(error, "param_hint", None)
    if hint is None and getattr(error, "param", None) is not None:
        hint = error.param.get_error_hint()
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(x) for x in hint)
    return hint


def _choices(param: Any) -> list[str]:
    """The values an option of choices takes (an ``Enum``'s values), or ``[]``."""
    descriptor = getattr(param, "type_descriptor", None)
    choices = getattr(descriptor, "choices", None) or ()
    return [str(c.value) if isinstance(c, enum.Enum) else str(c) for c in choices]


def _reason(error: Any, tr: _gettext.NullTranslations) -> str:
    """Why a value was refused, in the reader's language when the check that refused it is known
    (the value's type, its choices, its bounds); else the error's own message."""
    cause = error.__cause__
    problems = cause.errors() if cause is not None and callable(getattr(cause, "errors", None)) else []
    if not problems:
        return str(error.message)
    problem = problems[0]
    kind, value, bounds = problem.get("type"), repr(str(problem.get("input", ""))), problem.get("ctx") or {}
    choices = _choices(getattr(error, "param", None))
    if kind in ("int_parsing", "int_from_float", "int_type"):
        return _say(tr, N_("{value} is not a whole number"), value=value)
    if kind in ("float_parsing", "float_type"):
        return _say(tr, N_("{value} is not a number"), value=value)
    if choices and kind in ("enum", "value_error", "literal_error"):
        allowed = ", ".join(repr(c) for c in choices)
        return _say(tr, N_("{value} is not allowed; allowed are {allowed}"), value=value, allowed=allowed)
    if kind in ("greater_than_equal", "greater_than") and bounds:
        limit = bounds.get("ge", bounds.get("gt"))
        return _say(tr, N_("{value} is too small; allowed is at least {limit}"), value=value, limit=limit)
    if kind in ("less_than_equal", "less_than") and bounds:
        limit = bounds.get("le", bounds.get("lt"))
        return _say(tr, N_("{value} is too large; allowed is at most {limit}"), value=value, limit=limit)
    return str(error.message)


def usage_error_text(error: Any, tr: _gettext.NullTranslations) -> str:
    """The message of a Click usage error (what follows ``Error:``) in the reader's language, by
    its kind: a refused value (``BadParameter``), a missing option or argument
    (``MissingParameter``), an unknown option (``NoSuchOption``); any other usage error reads as
    Click wrote it (``error.format_message()``)."""
    kind = type(error).__name__
    if kind == "MissingParameter":
        hint = _hint(error)
        if hint and getattr(error.param, "param_type_name", None) == "argument":
            return _say(tr, N_("Missing argument {argument}."), argument=hint)
        if hint and getattr(error.param, "param_type_name", None) == "option":
            return _say(tr, N_("Missing option {option}."), option=hint)
    elif kind == "BadParameter":
        hint = _hint(error)
        reason = _reason(error, tr)
        if hint is None:
            return _say(tr, N_("Invalid value: {reason}"), reason=reason)
        return _say(tr, N_("Invalid value for {option}: {reason}"), option=hint, reason=reason)
    elif kind == "NoSuchOption":
        possible: Sequence[str] = getattr(error, "possibilities", None) or ()
        if possible:
            return _say(
                tr,
                N_("No such option: {option} (possible options: {options})"),
                option=error.option_name,
                options=", ".join(sorted(possible)),
            )
        return _say(tr, N_("No such option: {option}"), option=error.option_name)
    return str(error.format_message())
