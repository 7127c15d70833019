"""CSV files a spreadsheet opens as text: a cell that would start a formula is escaped (CSV
injection, OWASP "CSV Injection"). Every CSV that ramsli writes (the pub ledger's score sheet, an
evening's standings, ``ramsli simulate --out X.csv``, ``ramsli tournament --out X.csv``) goes
through :func:`writer` or :class:`DictWriter`, which pass every text cell through
:func:`spreadsheet_safe` (issue 38.10).

No I/O of its own and no dependency beyond :mod:`csv`, so the lab, the commands and the server all
use it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from typing import IO, Any

__all__ = ["FORMULA_STARTS", "spreadsheet_safe", "safe_cell", "SafeWriter", "writer", "DictWriter"]

#: the first characters that make Excel, LibreOffice or Google Sheets read a cell as a formula
#: (OWASP: ``=``, ``+``, ``-``, ``@``, a tab, a carriage return)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: a plain decimal number as :func:`str` or ``f"{x:.6f}"`` writes it: left as it is by
#: :func:`safe_cell` (a spreadsheet reads it as that number, no formula runs)
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")  # ASCII digits only: \d takes "١٢" too


def spreadsheet_safe(text: str) -> str:
    """A text cell a spreadsheet shows as text: one starting with ``=``, ``+``, ``-``, ``@``, a tab or
    a carriage return (:data:`FORMULA_STARTS`) gets a leading ``'``. Idempotent.

    >>> spreadsheet_safe("+1"), spreadsheet_safe("@SUM(A1)"), spreadsheet_safe("Zoë")
    ("'+1", "'@SUM(A1)", 'Zoë')
    >>> spreadsheet_safe("\\t=1"), spreadsheet_safe(spreadsheet_safe("-2+3"))
    ("'\\t=1", "'-2+3")
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def safe_cell(value: Any) -> Any:
    """One cell for :func:`csv.writer`: a number (``int``, ``float``), ``None`` and a text that is a
    plain decimal number (``"-0.250000"``) as they are, any other text through
    :func:`spreadsheet_safe`.

    >>> safe_cell(-3), safe_cell("-0.25"), safe_cell("-2+3"), safe_cell("=HYPERLINK(1)")
    (-3, '-0.25', "'-2+3", "'=HYPERLINK(1)")
    """
    if isinstance(value, str):
        return value if _PLAIN_NUMBER.fullmatch(value) else spreadsheet_safe(value)
    return value


class SafeWriter:
    """A :func:`csv.writer` whose every cell goes through :func:`safe_cell`."""

    def __init__(self, f: IO[str], **kw: Any) -> None:
        self._w = csv.writer(f, **kw)

    def writerow(self, row: Iterable[Any]) -> Any:
        """Write one row (its cells made safe); returns what :meth:`csv.writer.writerow` returns."""
        return self._w.writerow([safe_cell(c) for c in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        """Write each row with :meth:`writerow`."""
        for r in rows:
            self.writerow(r)


def writer(f: IO[str], **kw: Any) -> SafeWriter:
    """:func:`csv.writer` (same keyword arguments) whose cells are made safe by :func:`safe_cell`.

    >>> import io
    >>> out = io.StringIO(); _ = writer(out, lineterminator="\\n").writerow(["=1+1", -2, "-2"]); out.getvalue()
    "'=1+1,-2,-2\\n"
    """
    return SafeWriter(f, **kw)


class DictWriter(csv.DictWriter):  # type: ignore[type-arg]  # csv.DictWriter is generic in typeshed only
    """:class:`csv.DictWriter` whose cells (not the header, which the program names) are made safe
    by :func:`safe_cell`."""

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        """Write one row, its values made safe."""
        return super().writerow({k: safe_cell(v) for k, v in rowdict.items()})

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        """Write each row with :meth:`writerow`."""
        for r in rowdicts:
            self.writerow(r)
