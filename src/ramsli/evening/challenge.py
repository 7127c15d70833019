"""The weekly challenge (issue 35 item 3): weeks, a deal's field, the week's ranking, the streak.

Each week the server publishes a set of deals (:func:`ramsli.evening.duplicate.new_deals`); anyone
with a player plays each deal once, alone at a table of bots whose seeds are part of the deal. A
**try** is one player's play of one deal: its public outcome is a
:class:`~ramsli.evening.duplicate.DealTable` (every seat in duplicate-seat order, no card). The
player always holds the same duplicate seat of a deal (:func:`~ramsli.evening.duplicate.duplicate_seat`
of seat 0 and the deal's dealer), so the tries of a deal are compared like the tables of a
duplicate section (:func:`~ramsli.evening.duplicate.score_deal`): matchpoints, 2 per try beaten and
1 per try tied, and counters against the field, for the player's seat.

**A week** runs from Monday 00:00 to the next Monday 00:00 in the server's time zone (ISO 8601
weeks, named like ``2026-W49``); its results are hidden until it has closed (R7, D-21).

**The ranking** of a week: (1) the sum of the matchpoint percentages over the week's deals
divided by the number of deals — a deal not played counts 0, so playing every deal matters —, (2)
the counters against the field summed, (3) the tops (deals on which the try beat every other try),
(4) the lot (:func:`ramsli.evening.scoring.lot_key` of the week's key and the player).

**The streak** of a player: the consecutive weeks up to this one (or up to last week, while this
week has no try of theirs yet) with at least one counted try.

>>> w = week_of(dt.datetime(2026, 12, 4, 9, 30, tzinfo=dt.UTC).timestamp(), dt.UTC)
>>> w.id, w.start.isoformat(), w.end.isoformat()
('2026-W49', '2026-11-30T00:00:00+00:00', '2026-12-07T00:00:00+00:00')
>>> streak({"2026-W47", "2026-W48", "2026-W46", "2026-W44"}, w)
3
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ramsli.evening.duplicate import DealResult, DealTable, SeatScore, duplicate_seat, score_deal
from ramsli.evening.scoring import lot_key

__all__ = [
    "Week",
    "week_of",
    "week_by_id",
    "player_seat",
    "score_tries",
    "Ranked",
    "week_ranking",
    "streak",
    "DEALS",
]

#: the deals of a week unless the server says otherwise
DEALS = 12

_WEEK_ID = re.compile(r"^([0-9]{4})-W([0-9]{2})\Z")  # ASCII digits only (\d takes full-width ones)


@dataclass(frozen=True, slots=True)
class Week:
    """One challenge week: ``id`` (ISO ``YYYY-Www``), ``start`` and ``end`` (aware datetimes in the
    server's zone: Monday 00:00 and the next Monday 00:00)."""

    id: str
    start: dt.datetime
    end: dt.datetime

    @property
    def starts(self) -> float:
        """The start, seconds since the epoch."""
        return self.start.timestamp()

    @property
    def ends(self) -> float:
        """The end (the close), seconds since the epoch."""
        return self.end.timestamp()

    def closed(self, now: float) -> bool:
        """True once ``now`` (seconds since the epoch) is at or after the week's end."""
        return now >= self.ends

    def before(self) -> Week:
        """The week before this one."""
        return _week_from(self.start.date() - dt.timedelta(days=7), self.start.tzinfo)


def _week_from(day: dt.date, zone: dt.tzinfo | None) -> Week:
    monday = day - dt.timedelta(days=day.weekday())
    nxt = monday + dt.timedelta(days=7)
    year, number, _ = monday.isocalendar()
    start = dt.datetime(monday.year, monday.month, monday.day, tzinfo=zone)
    end = dt.datetime(nxt.year, nxt.month, nxt.day, tzinfo=zone)
    return Week(f"{year:04d}-W{number:02d}", start, end)


def week_of(now: float, zone: dt.tzinfo) -> Week:
    """The week that holds ``now`` (seconds since the epoch) in ``zone``.

    >>> from zoneinfo import ZoneInfo
    >>> w = week_of(dt.datetime(2027, 1, 3, 23, 30, tzinfo=dt.UTC).timestamp(), ZoneInfo("Europe/Berlin"))
    >>> w.id, w.start.isoformat()  # Monday 00:30 in Berlin: the next week already
    ('2027-W01', '2027-01-04T00:00:00+01:00')
    """
    return _week_from(dt.datetime.fromtimestamp(now, zone).date(), zone)


def week_by_id(week_id: object, zone: dt.tzinfo) -> Week:
    """The week named ``week_id`` (``YYYY-Www``) in ``zone``.

    Raises:
        ValueError: not a week's name, or no such ISO week (``2026-W54``).

    >>> week_by_id("2026-W53", dt.UTC).start.date().isoformat()
    '2026-12-28'
    """
    m = _WEEK_ID.match(week_id) if isinstance(week_id, str) else None
    if m is None:
        raise ValueError(f"{str(week_id)[:16]!r} is not a week (2026-W49)")
    return _week_from(dt.date.fromisocalendar(int(m[1]), int(m[2]), 1), zone)


def player_seat(dealer: int, size: int) -> int:
    """The duplicate seat the challenger holds on a deal dealt by ``dealer`` (they sit at seat 0)."""
    return duplicate_seat(0, dealer, size)


def score_tries(deal: int, size: int, dealer: int, tries: Sequence[DealTable]) -> dict[str, SeatScore]:
    """Each challenger's score on one deal: participant id -> :class:`SeatScore` of their seat (the
    tries' ``table`` numbers must differ; each try's ``seats`` in duplicate order).

    Raises:
        ValueError: a try whose seats are not in duplicate order, or of another size.

    >>> from ramsli.evening.duplicate import DealSeat
    >>> def t(n, p, net):
    ...     return DealTable(n, (DealSeat("b1", 0, -net), DealSeat(p, 1, net), DealSeat("b2", 2, 0)))
    >>> s = score_tries(1, 3, 2, [t(1, "ann", 4), t(2, "bo", -1), t(3, "cy", 4)])
    >>> [(p, str(x.pct), str(x.vs_field)) for p, x in s.items()]
    [('ann', '75', '5/3'), ('bo', '0', '-10/3'), ('cy', '75', '5/3')]
    """
    seat = player_seat(dealer, size)
    scores = score_deal(DealResult(0, size, deal, tuple(tries)))
    return {t.seats[seat].participant: scores[t.table, seat] for t in tries}


@dataclass(frozen=True, slots=True)
class Ranked:
    """One line of a week's ranking: ``score`` the mean matchpoint percentage over all the week's
    deals (0 for a deal not played), ``vs_field`` the counters against the field summed, ``tops``,
    ``played`` the deals played."""

    rank: int
    participant: str
    score: Fraction
    vs_field: Fraction
    tops: int
    played: int


def week_ranking(deals: int, scores: Mapping[int, Mapping[str, SeatScore]], key: str) -> list[Ranked]:
    """The ranking of a closed week of ``deals`` deals (``scores``: deal -> :func:`score_tries`),
    ``key`` the week's lot key (the last tie-break).

    >>> from ramsli.evening.duplicate import SeatScore as S
    >>> F = Fraction
    >>> sc = {1: {"a": S("a", F(2), 2, F(100), F(1)), "b": S("b", F(0), 2, F(0), F(-1))},
    ...       2: {"b": S("b", F(0), 0, F(50), F(0))}}
    >>> [(r.rank, r.participant, str(r.score), r.played) for r in week_ranking(2, sc, "k")]
    [(1, 'a', '50', 1), (2, 'b', '25', 2)]
    """
    pct: dict[str, Fraction] = {}
    vs: dict[str, Fraction] = {}
    tops: dict[str, int] = {}
    played: dict[str, int] = {}
    for by_player in scores.values():
        for p, s in by_player.items():
            pct[p] = pct.get(p, Fraction(0)) + s.pct
            vs[p] = vs.get(p, Fraction(0)) + s.vs_field
            tops[p] = tops.get(p, 0) + (s.max > 0 and s.mp == s.max)
            played[p] = played.get(p, 0) + 1
    n = max(deals, 1)
    order = sorted(pct, key=lambda p: (-pct[p], -vs[p], -tops[p], lot_key(key, p)))
    return [Ranked(i, p, pct[p] / n, vs[p], tops[p], played[p]) for i, p in enumerate(order, 1)]


def streak(weeks: Iterable[str], current: Week) -> int:
    """The consecutive weeks of ``weeks`` (ids with a counted try) ending at ``current``, or at
    the week before it while ``current`` is not among them."""
    have = set(weeks)
    w = current if current.id in have else current.before()
    n = 0
    while w.id in have:
        n += 1
        w = w.before()
    return n
