"""CSV downloads a spreadsheet opens as text: a cell that would start a formula is escaped
(CSV injection, OWASP). Used by the pub ledger's score sheet and an evening's standings.
"""

from __future__ import annotations

__all__ = ["spreadsheet_safe"]


def spreadsheet_safe(text: str) -> str:
    """A text cell a spreadsheet shows as text: one starting with ``=``, ``+``, ``-``, ``@``, a tab or
    a carriage return (a formula to Excel, LibreOffice and Google Sheets) gets a leading ``'``.

    >>> spreadsheet_safe("+1"), spreadsheet_safe("@SUM(A1)"), spreadsheet_safe("Zoë")
    ("'+1", "'@SUM(A1)", 'Zoë')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
