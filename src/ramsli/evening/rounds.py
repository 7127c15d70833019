"""One round's draw from the evening's format: who sits, the sizes, the order and the tables.

The server draws a round with :func:`draw_round` and ``ramsli verify`` recomputes it with the
same function, so both follow one rule:

* A **qualifying round** r (1..R) seats ``present`` minus ``byes``; the sizes are
  :func:`~ramsli.evening.draw.split` of their number. The ``lot``, ``final`` and ``duplicate`` formats, and round 1
  of ``results``, draw by lot (:func:`~ramsli.evening.draw.draw_by_lot`); rounds 2.. of
  ``results`` cut the standings after the previous rounds (``prior``, best first, only those
  seated; anyone seated but not in ``prior`` after them, sorted) into tables and shuffle each
  table's seats (:func:`~ramsli.evening.draw.draw_by_order`).
* The **final round** (R + 1, ``final`` format only) takes the ``prior`` standings of those
  ``present`` and seats the first ``final_size`` at table 1, the **Final**, and (with
  ``small_final``) the next ones at table 2, the **Small final**
  (:func:`~ramsli.evening.scoring.finalists`); everyone else present sits out (they are the
  round's ``byes``; a bye of the final round scores nothing). Each table's seats are shuffled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ramsli.evening.draw import draw_by_lot, draw_by_order, split
from ramsli.evening.scoring import FORMATS, Standing, finalists

__all__ = ["RoundDraw", "draw_round"]


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """A round's draw (before any re-seat).

    Attributes:
        round: the round, 1..R (R + 1: the final round).
        kind: ``"qualifying"`` or ``"final"`` (the final round).
        participants: the ids seated, sorted.
        byes: the ids present but not seated, sorted.
        sizes: the table sizes, table 1 first.
        order: the order cut into tables (standings or finalists), None for a draw by lot.
        drawn: each table's ids by seat, table 1 first.
        kinds: each table's kind: ``"qualifying"``, or ``"final"`` / ``"small_final"``.
    """

    round: int
    kind: str
    participants: tuple[str, ...]
    byes: tuple[str, ...]
    sizes: tuple[int, ...]
    order: tuple[str, ...] | None
    drawn: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...]


def draw_round(
    fmt: str,
    round: int,
    rounds: int,
    present: Sequence[str],
    prior: Sequence[Standing],
    seed: str,
    *,
    best: int = 5,
    final_size: int | None = None,
    small_final: bool = False,
    byes: Sequence[str] = (),
) -> RoundDraw:
    """Round ``round``'s draw of an evening of format ``fmt`` with ``rounds`` qualifying rounds.

    Args:
        present: everyone who takes part in this round (seated or given a bye).
        prior: the standings after the rounds before (:func:`~ramsli.evening.scoring.standings`,
            with the commitment as the lot's seed); unused for a draw by lot.
        seed: this round's seed (64 hex digits).
        best: the preset's best table size (:func:`~ramsli.evening.draw.split`).
        final_size, small_final: the final round's table size and whether a small final is played.
        byes: who sits out a qualifying round (the final round computes its own).

    Raises:
        ValueError: an unknown format, a round outside
            1..R (1..R + 1 in ``final``), a final without ``final_size``, or too few to seat.

    >>> d = draw_round("lot", 1, 2, ["e", "d", "c", "b", "a", "f", "g"], [], "00" * 32)
    >>> d.sizes, d.order, d.drawn
    ((4, 3), None, (('b', 'a', 'g', 'd'), ('e', 'f', 'c')))
    >>> prior = [Standing(i, p, 0.0, 0.0, 0, ()) for i, p in enumerate("gfedcba", 1)]
    >>> f = draw_round("final", 3, 2, "abcdefg", prior, "00" * 32, final_size=4, small_final=True)
    >>> f.kind, f.order, f.kinds, f.byes
    ('final', ('g', 'f', 'e', 'd', 'c', 'b', 'a'), ('final', 'small_final'), ())
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    last = rounds + (fmt == "final")
    if not 1 <= round <= last:
        raise ValueError(f"round {round} of an evening of {last} rounds")
    here = set(present)
    if len(here) != len(present):
        raise ValueError("a participant is present twice")
    if round > rounds:
        if final_size is None:
            raise ValueError("a final without a final size")
        return _final_round(round, here, prior, seed, final_size, small_final)
    out = set(byes)
    if not out <= here:
        raise ValueError("a bye for someone not present")
    seated = sorted(here - out)
    sizes = tuple(split(len(seated), best))
    if fmt == "results" and round > 1:
        known = [s.participant for s in sorted(prior, key=lambda s: s.rank) if s.participant in here - out]
        ordered = tuple(known + sorted(set(seated) - set(known)))
        order: tuple[str, ...] | None = ordered
        drawn = draw_by_order(ordered, sizes, seed, round)
    else:
        order = None
        drawn = draw_by_lot(seated, sizes, seed, round)
    return RoundDraw(
        round,
        "qualifying",
        tuple(seated),
        tuple(sorted(out)),
        sizes,
        order,
        tuple(tuple(t) for t in drawn),
        ("qualifying",) * len(sizes),
    )


def _final_round(
    round: int, here: set[str], prior: Sequence[Standing], seed: str, final_size: int, small_final: bool
) -> RoundDraw:
    ranked = [s for s in sorted(prior, key=lambda s: s.rank) if s.participant in here]
    final, small = finalists(ranked, final_size, small_final)
    order = tuple(final + small)
    sizes = (len(final), len(small)) if small else (len(final),)
    drawn = draw_by_order(order, sizes, seed, round)
    return RoundDraw(
        round,
        "final",
        tuple(sorted(order)),
        tuple(sorted(here - set(order))),
        sizes,
        order,
        tuple(tuple(t) for t in drawn),
        ("final", "small_final")[: len(sizes)],
    )
