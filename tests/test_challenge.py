"""The weekly challenge's logic (issue 35 item 3, ``ramsli.evening.challenge``): weeks in the
server's zone, a deal's matchpoints among the tries (hand-computed), the week's ranking, the streak."""

from __future__ import annotations

import datetime as dt
import hashlib
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest

from ramsli.evening.challenge import player_seat, score_tries, streak, week_by_id, week_of, week_ranking
from ramsli.evening.duplicate import DealSeat, DealTable, SeatScore

BERLIN = ZoneInfo("Europe/Berlin")


def at(y: int, mo: int, d: int, h: int = 0, mi: int = 0, s: int = 0, zone: dt.tzinfo = BERLIN) -> float:
    return dt.datetime(y, mo, d, h, mi, s, tzinfo=zone).timestamp()


def test_a_week_runs_from_monday_to_monday_in_the_servers_zone():
    """Monday 00:00 to the next Monday 00:00 in the zone, named by its ISO week."""
    w = week_of(at(2026, 12, 6, 23, 59, 59), BERLIN)  # Sunday night in Berlin
    assert w.id == "2026-W49" and w.start == dt.datetime(2026, 11, 30, tzinfo=BERLIN)
    assert w.ends == at(2026, 12, 7) and not w.closed(at(2026, 12, 6, 23, 59, 59)) and w.closed(at(2026, 12, 7))
    assert week_of(at(2026, 12, 7), BERLIN).id == "2026-W50"
    # Sunday 23:30 UTC is Monday 00:30 in Berlin: the zone decides
    assert week_of(at(2026, 12, 6, 23, 30, zone=dt.UTC), BERLIN).id == "2026-W50"
    assert week_of(at(2026, 12, 6, 23, 30, zone=dt.UTC), dt.UTC).id == "2026-W49"
    # a year's last ISO week and the first of the next
    assert week_of(at(2027, 1, 1, 12), BERLIN).id == "2026-W53"
    assert week_of(at(2027, 1, 4), BERLIN).id == "2027-W01"
    assert week_by_id("2027-W01", BERLIN).before().id == "2026-W53"


def test_a_week_with_the_clock_change_is_its_hours_long():
    """The week of the change to summer time (29 March 2026 in Berlin) has 167 hours: it still
    starts and ends at midnight local time."""
    w = week_by_id("2026-W13", BERLIN)
    assert (w.start.isoformat(), w.end.isoformat()) == ("2026-03-23T00:00:00+01:00", "2026-03-30T00:00:00+02:00")
    assert w.ends - w.starts == 167 * 3600


@pytest.mark.parametrize("bad", ["2026-W54", "2026-W00", "2026W49", "next week", "", None, 49])
def test_a_week_that_is_not_one_is_refused(bad):
    with pytest.raises(ValueError):
        week_by_id(bad, BERLIN)


def a_try(n: int, who: str, net: int, seat: int, size: int = 4) -> DealTable:
    """Try ``n``: ``who`` at duplicate seat ``seat`` with ``net``, bots at the others (nets balance)."""
    seats = []
    for s in range(size):
        if s == seat:
            seats.append(DealSeat(who, s, net))
        else:
            seats.append(DealSeat(f"bot:{s}", s, -net if s == (seat + 1) % size else 0))
    return DealTable(n, tuple(seats))


def test_a_deals_matchpoints_among_the_tries_hand_computed():
    """The challenger sits at seat 0; dealt by seat 1 their duplicate seat is 3 (the dealer's
    right). Nets 5, -2, 5, 0: 5 beats two tries and ties one, 5 of 6 matchpoints (83 1/3 %); -2
    none; 0 beats one, 2 of 6. The field's mean is 2: counters against it 3, -4, 3, -2."""
    assert player_seat(1, 4) == 3 and player_seat(0, 4) == 0 and player_seat(3, 4) == 1
    tries = [a_try(1, "ann", 5, 3), a_try(2, "bo", -2, 3), a_try(3, "cy", 5, 3), a_try(4, "di", 0, 3)]
    s = score_tries(7, 4, 1, tries)
    assert {p: (x.mp, x.max) for p, x in s.items()} == {"ann": (5, 6), "bo": (0, 6), "cy": (5, 6), "di": (2, 6)}
    assert {p: x.pct for p, x in s.items()} == {
        "ann": Fraction(250, 3),
        "bo": Fraction(0),
        "cy": Fraction(250, 3),
        "di": Fraction(100, 3),
    }
    assert {p: x.vs_field for p, x in s.items()} == {"ann": 3, "bo": -4, "cy": 3, "di": -2}
    # one try alone: no field, 50 %
    (alone,) = score_tries(1, 4, 1, tries[:1]).values()
    assert (alone.pct, alone.max, alone.vs_field) == (50, 0, 0)
    # a try whose seats are out of duplicate order is refused
    broken = DealTable(9, tuple(reversed(tries[0].seats)))
    with pytest.raises(ValueError, match="duplicate order"):
        score_tries(1, 4, 1, [broken])


def test_the_weeks_ranking_counts_a_deal_not_played_as_zero():
    """Three deals. Ann plays all (100, 50, 0 %), Bo two (100, 100 %), Cy one (100 %): Bo first
    (200/3), Ann (150/3), Cy (100/3) — playing every deal matters. A tie on the score goes to the
    counters against the field, then the tops, then the lot."""
    F = Fraction

    def sc(p: str, pct: int, vs: int = 0, top: bool = False) -> SeatScore:
        return SeatScore(p, F(2) if top else F(1), 2, F(pct), F(vs))

    scores = {
        1: {"ann": sc("ann", 100, 2, True), "bo": sc("bo", 100, 2, True), "cy": sc("cy", 100, 1, True)},
        2: {"ann": sc("ann", 50), "bo": sc("bo", 100, 3, True)},
        3: {"ann": sc("ann", 0, -1)},
    }
    r = week_ranking(3, scores, "key")
    assert [(x.rank, x.participant, x.score, x.played, x.tops) for x in r] == [
        (1, "bo", F(200, 3), 2, 2),
        (2, "ann", F(150, 3), 3, 1),
        (3, "cy", F(100, 3), 1, 1),
    ]
    # ties: the counters against the field, then the tops, then the lot (sha256 of key|id)
    tied = {1: {"a": sc("a", 50, 1), "b": sc("b", 50, 2), "c": sc("c", 50, 1, True), "d": sc("d", 50, 1)}}
    lot = sorted(["a", "d"], key=lambda p: hashlib.sha256(f"k2|{p}".encode()).hexdigest())
    assert [x.participant for x in week_ranking(1, tied, "k2")] == ["b", "c", *lot]


def test_the_streak_counts_consecutive_weeks_up_to_this_one_or_the_last():
    w = week_by_id("2026-W49", BERLIN)
    assert streak([], w) == 0
    assert streak(["2026-W49"], w) == 1
    assert streak(["2026-W48", "2026-W47"], w) == 2  # this week not played yet: last week's streak holds
    assert streak(["2026-W49", "2026-W48", "2026-W46"], w) == 2  # W47 missed
    assert streak(["2026-W47"], w) == 0  # last week missed: it starts again
    y = week_by_id("2027-W01", BERLIN)
    assert streak(["2027-W01", "2026-W53", "2026-W52"], y) == 3  # across the year's end
