"""Club evenings and tournaments (issue 34): the pure core, no I/O.

:mod:`ramsli.evening.draw` splits the checked-in participants into tables and draws the seats
from a committed seed chain; :mod:`ramsli.evening.rounds` applies the format's rule to draw one
round (:func:`draw_round`: by lot, by the standings, or the Final and Small final);
:mod:`ramsli.evening.scoring` scores table results fairly across
table sizes and ranks the standings; :mod:`ramsli.evening.verify` rechecks an evening's
download. The server (``ramsli.server.evenings``) and ``ramsli verify`` use them;
``docs/evenings.md`` describes every step in prose.

>>> from ramsli.evening import split, table_scores
>>> split(11), table_scores([3, -1, -2])
([6, 5], [100.0, 50.0, 0.0])
"""

from __future__ import annotations

from ramsli.evening.draw import (
    SEED_BYTES,
    apply_swaps,
    below,
    check_seed,
    commitment,
    draw_by_lot,
    draw_by_order,
    seed_chain,
    shuffled,
    split,
    stream,
)
from ramsli.evening.rounds import RoundDraw, draw_round
from ramsli.evening.scoring import (
    SeatResult,
    Standing,
    TableResult,
    finalists,
    hands_for,
    rounds_total,
    standings,
    table_result,
    table_scores,
)
from ramsli.evening.verify import Finding, Malformed, verify_download

__all__ = [
    "SEED_BYTES",
    "seed_chain",
    "commitment",
    "check_seed",
    "split",
    "stream",
    "below",
    "shuffled",
    "draw_by_lot",
    "draw_by_order",
    "apply_swaps",
    "RoundDraw",
    "draw_round",
    "table_scores",
    "SeatResult",
    "TableResult",
    "table_result",
    "Standing",
    "standings",
    "finalists",
    "hands_for",
    "rounds_total",
    "Finding",
    "Malformed",
    "verify_download",
]
