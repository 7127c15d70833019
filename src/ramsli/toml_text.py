"""The one place that formats TOML: every TOML text the project writes goes through here.

Hand histories and ``session.toml`` (:mod:`ramsli.history`) and the rules
(:meth:`ramsli.rules.Rules.to_toml`, ``ramsli rules --toml``) are written with
these functions; the reader is the standard library's ``tomllib``.

Why not ``tomli_w``: its output cannot be made byte for byte the hand history
format (``docs/hand-history.md``, ``tests/data/histories/``), which needs

- a comment on the first line (``# Ramsli hand history (ramsli-hh/1); ...``);
  ``tomli_w`` writes no comments;
- arrays on one line (``seats = ["Anna", "Bruno"]``, ``p1 = ["AS", ...]``) beside
  arrays with one element per line (``actions``, ``payments``); ``tomli_w`` writes
  every non-empty array one element per line;
- inline tables inside arrays (``payments = [{ step = 1, ... }]``); ``tomli_w``
  writes arrays of tables as ``[[settlement.payments]]``;
- control characters escaped as ``\\u001B`` (upper-case hex); ``tomli_w`` writes
  ``\\u001b``.

:func:`dumps` with ``multiline=True`` writes a flat table exactly as ``tomli_w.dumps``
does for the values the rules hold (strings, whole numbers, booleans, lists of
those), so ``Rules.to_toml()`` kept its bytes when it moved here.

>>> print(dumps({"bete": 5, "end": ["hands:3"], "jokers": False}, multiline=True), end="")
bete = 5
end = [
    "hands:3",
]
jokers = false
>>> key_value("seats", ["Ann", 'Bo "B"'])
['seats = ["Ann", "Bo \\\\"B\\\\""]']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["quote", "value", "key_value", "dumps"]

_ESC = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def quote(s: str) -> str:
    """``s`` as a TOML basic string: ``"`` and ``\\`` escaped, control characters as
    ``\\b \\t \\n \\f \\r`` or ``\\uXXXX`` (upper-case hex); every other character as it is (UTF-8)."""
    out = []
    for ch in s:
        if ch in _ESC:
            out.append(_ESC[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def value(v: Any) -> str:
    """One TOML value on one line: ``true``/``false``, whole numbers, strings (:func:`quote`),
    arrays ``[a, b]`` and inline tables ``{ k = v, ... }`` (``{}`` when empty), keys in the
    mapping's order.

    Raises:
        TypeError: for any other type (floats, dates and None are never written).
    """
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} as TOML")


def key_value(key: str, v: Any, multiline: bool = False) -> list[str]:
    """The lines of ``key = value``. With ``multiline``, a non-empty array is written one
    element per line, indented by four spaces, each followed by a comma, then ``]``.

    Raises:
        TypeError: as :func:`value`.
    """
    if multiline and isinstance(v, (list, tuple)) and v:
        return [f"{key} = ["] + [f"    {value(x)}," for x in v] + ["]"]
    return [f"{key} = {value(v)}"]


def dumps(table: Mapping[str, Any], multiline: bool = False) -> str:
    """A flat table as a TOML document: one ``key = value`` per entry, in order, each line
    ending in ``\\n`` (``multiline``: as :func:`key_value`).

    Raises:
        TypeError: as :func:`value`.
    """
    out: list[str] = []
    for k, v in table.items():
        out += key_value(k, v, multiline)
    return "".join(line + "\n" for line in out)
