"""CSV downloads a spreadsheet opens as text: a cell that would start a formula is escaped
(CSV injection, OWASP). Used by the pub ledger's score sheet and an evening's standings; the
functions live in :mod:`ramsli.csvcells` (the lab and the commands write CSV too).
"""

from __future__ import annotations

from ramsli.csvcells import DictWriter, safe_cell, spreadsheet_safe, writer

__all__ = ["DictWriter", "safe_cell", "spreadsheet_safe", "writer"]
