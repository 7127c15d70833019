"""An evening's scoring (issue 34 item 4): fair across table sizes, tie-breaks as written down."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ramsli.evening import scoring as S
from ramsli.evening.draw import commitment, seed_chain
from ramsli.server.players.records import placement_points as records_placement_points

nets = st.lists(st.integers(-60, 60), min_size=2, max_size=6)


@settings(max_examples=300, deadline=None)
@given(stacks=st.lists(st.integers(-200, 200), min_size=1, max_size=8))
def test_placement_points_equal_the_server_records_copy(stacks):
    """The pure package's copy of records.placement_points gives the same points on any stacks."""
    assert S.placement_points(stacks) == records_placement_points(stacks)


@settings(max_examples=300, deadline=None)
@given(nets=nets)
def test_table_scores_fair_at_every_size(nets):
    """Every table's mean score is exactly 50 and scores lie in 0..100, whatever its size (3 or 6)."""
    exact = S.exact_scores(nets)
    assert sum(exact) == 50 * len(nets)
    assert all(0 <= x <= 100 for x in exact)
    scores = S.table_scores(nets)
    assert scores == [float(x) for x in exact]
    if len(set(nets)) == len(nets):
        assert max(scores) == 100.0 and min(scores) == 0.0
    # more counters never score less
    for a, sa in zip(nets, scores):
        for b, sb in zip(nets, scores):
            assert (a > b) <= (sa > sb) and (a == b) <= (sa == sb)


def test_a_table_of_3_and_a_table_of_6_in_one_round():
    """docs/evenings.md's example: the winner of either table scores 100, the last 0, the middle 50."""
    assert S.table_scores([9, 0, -9]) == [100.0, 50.0, 0.0]
    six = S.table_scores([20, 8, 4, -4, -8, -20])
    assert six == [100.0, 80.0, 60.0, 40.0, 20.0, 0.0]
    assert sum(six) / 6 == sum([100.0, 50.0, 0.0]) / 3 == 50.0
    assert S.table_scores([1, -1]) == [100.0, 0.0]
    with pytest.raises(ValueError):
        S.table_scores([5])


def test_table_result_places_and_refusals():
    r = S.table_result(2, 1, "qualifying", [("a", 7), ("b", 7, 4), ("c", -14)])
    assert [(s.place, s.score, s.bot_hands) for s in r.seats] == [(1, 75.0, 0), (1, 75.0, 4), (3, 0.0, 0)]
    assert S.SeatResult.from_data(r.seats[1].to_data()) == r.seats[1]
    with pytest.raises(ValueError):
        S.table_result(1, 1, "semi", [("a", 1), ("b", 0)])
    with pytest.raises(ValueError):
        S.table_result(1, 1, "qualifying", [("a", 1), ("a", 0)])


# The hand-computed evening (issue 34: "checked against a hand-computed standings table"), format
# "final": 7 participants, 2 qualifying rounds, a Final of 4 and a Small final of 3.
#
# Score of a seat = 100 * (p - 1) / (N - 1), p = placement points (N first .. 1 last, ties share).
#
# Round 1, table 1 (N=4): ann +12, ben +4, cat -6, dan -10   mean 0
#   p = 4, 3, 2, 1 -> 100, 66.67, 33.33, 0;   net - mean: +12, +4, -6, -10;   first: ann
# Round 1, table 2 (N=3): eve +6, fay +6, gus -12            mean 0
#   eve and fay share places 1-2: p = 2.5 -> 100 * 1.5 / 2 = 75 each; gus 0;  first: eve, fay
# Round 2, table 1 (N=4): ann +5, ben +5, gus -2, dan -12    mean -1
#   ann and ben share p = 3.5 -> 83.33 each; gus p 2 -> 33.33; dan 0
#   net - mean: ann +6, ben +6, gus -1, dan -11;   first: ann, ben
# Round 2, table 2 (N=3): eve +8, fay +8, cat -16            mean 0
#   eve, fay 75 each; cat 0;  net - mean +8, +8, -16;   first: eve, fay
#
# Qualifying totals        score                      net vs mean     firsts
#   ann                    100 + 83.33   = 183.33     12 + 6  = +18   2
#   eve                     75 + 75      = 150        6 + 8   = +14   2
#   fay                     75 + 75      = 150        6 + 8   = +14   2
#   ben                  66.67 + 83.33   = 150        4 + 6   = +10   1
#   gus                      0 + 33.33   = 33.33    -12 - 1   = -13   0
#   cat                  33.33 + 0       = 33.33     -6 - 16  = -22   0
#   dan                      0 + 0       = 0        -10 - 11  = -21   0
# eve, fay and ben tie on 150: ben is behind on net vs mean (10 < 14); eve and fay tie on
# everything, so the lot decides: sha256(commitment + "|eve") starts 0dea…, "|fay" bfaa… ->
# eve first. gus and cat tie on 33.33: gus is ahead on net vs mean (-13 > -22).
# Qualifying order: ann, eve, fay, ben | gus, cat, dan -> Final: ann eve fay ben; Small final: gus cat dan.
#
# Round 3, the Final (N=4): ben +20, eve +2, fay +2, ann -20  -> places 1, 2, 2, 4; scores 100, 50, 50, 0
#   eve and fay share place 2: their qualifying order (eve before fay) decides.
# Round 3, the Small final (N=3): dan +5, gus 0, cat -5      -> places 1, 2, 3; scores 100, 50, 0
#
# Final standings
#   rank participant score   net_vs_mean firsts rounds                 note
#   1    ben         150     +10         1      66.67, 83.33, 100      final
#   2    eve         150     +14         2      75,    75,    50       final
#   3    fay         150     +14         2      75,    75,    50       final
#   4    ann         183.33  +18         2      100,   83.33, 0        final
#   5    dan         0       -21         0      0,     0,     100      small_final
#   6    gus         33.33   -13         0      0,     33.33, 50       small_final
#   7    cat         33.33   -22         0      33.33, 0,     0        small_final
PEOPLE = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"]
QUALIFYING = [
    S.table_result(1, 1, "qualifying", [("ann", 12), ("ben", 4), ("cat", -6), ("dan", -10)]),
    S.table_result(1, 2, "qualifying", [("eve", 6), ("fay", 6), ("gus", -12)]),
    S.table_result(2, 1, "qualifying", [("ann", 5), ("ben", 5), ("gus", -2), ("dan", -12)]),
    S.table_result(2, 2, "qualifying", [("eve", 8), ("fay", 8), ("cat", -16)]),
]
FINALS = [
    S.table_result(3, 1, "final", [("ben", 20), ("eve", 2), ("fay", 2), ("ann", -20)]),
    S.table_result(3, 2, "small_final", [("dan", 5), ("gus", 0), ("cat", -5)]),
]
SEED = commitment(seed_chain(3, bytes(32)))
THIRD, TWO3 = 100 / 3, 200 / 3


def _rows(table):
    return [(s.rank, s.participant, s.score, s.net_vs_mean, s.firsts, s.rounds, s.note) for s in table]


def test_hand_computed_standings_of_a_final_evening():
    assert S.lot_key(SEED, "eve").startswith("0dea") and S.lot_key(SEED, "fay").startswith("bfaa")
    after2 = S.standings(PEOPLE, QUALIFYING, "final", {}, SEED)
    assert [s.participant for s in after2] == ["ann", "eve", "fay", "ben", "gus", "cat", "dan"]
    assert after2[3].score == 150.0  # exact: 200/3 + 250/3, not 149.99999999999997
    assert S.finalists(after2, 4, True) == (["ann", "eve", "fay", "ben"], ["gus", "cat", "dan"])
    table = S.standings(PEOPLE, QUALIFYING + FINALS, "final", {}, SEED)
    assert _rows(table) == [
        (1, "ben", 150.0, 10.0, 1, (TWO3, 250 / 3, 100.0), "final"),
        (2, "eve", 150.0, 14.0, 2, (75.0, 75.0, 50.0), "final"),
        (3, "fay", 150.0, 14.0, 2, (75.0, 75.0, 50.0), "final"),
        (4, "ann", float(Fraction(550, 3)), 18.0, 2, (100.0, 250 / 3, 0.0), "final"),
        (5, "dan", 0.0, -21.0, 0, (0.0, 0.0, 100.0), "small_final"),
        (6, "gus", THIRD, -13.0, 0, (0.0, THIRD, 50.0), "small_final"),
        (7, "cat", THIRD, -22.0, 0, (THIRD, 0.0, 0.0), "small_final"),
    ]
    # the order of the participants or of the results does not matter
    again = S.standings(list(reversed(PEOPLE)), list(reversed(QUALIFYING + FINALS)), "final", {}, SEED)
    assert _rows(again) == _rows(table)
    # the same results in the "lot" format: every round counts, no final group
    lot = S.standings(PEOPLE, QUALIFYING, "lot", {}, SEED)
    assert [s.participant for s in lot] == [s.participant for s in after2]
    assert all(s.note == "" for s in lot)


def test_a_bye_scores_the_tables_mean_and_a_late_arrival_none():
    results = [S.table_result(1, 1, "qualifying", [("a", 3), ("b", 0), ("c", -3)])]
    table = S.standings(["a", "b", "c", "d", "late"], results, "lot", {1: ["d"]}, "s")
    by = {s.participant: s for s in table}
    assert by["d"].rounds == (50.0,) and by["d"].score == 50.0 and by["d"].net_vs_mean == 0.0
    assert by["late"].rounds == (None,) and by["late"].score == 0.0
    # b (50 at a table) and d (a bye) tie on score and net vs mean; neither has a first: the lot
    first = min(["b", "d"], key=lambda p: S.lot_key("s", p))
    assert [s.participant for s in table][1] == first


def test_sitting_out_the_final_round_scores_nothing():
    """In the final format the byes of the final round (those not in the Final or Small final) score nothing,
    before the final round has a result (given the qualifying rounds) and after."""
    four = [S.table_result(1, 1, "qualifying", [("a", 3), ("b", 1), ("c", -1)])]
    before = S.standings(["a", "b", "c", "d"], four, "final", {1: ["d"], 2: ["d"]}, "s", rounds=1)
    assert {s.participant: s.rounds for s in before}["d"] == (50.0,)
    final = [S.table_result(2, 1, "final", [("c", 3), ("a", 1), ("b", -1)])]
    after = S.standings(["a", "b", "c", "d"], four + final, "final", {1: ["d"], 2: ["d"]}, "s")
    assert [(s.participant, s.score, s.rounds, s.note) for s in after] == [
        ("c", 0.0, (0.0, 100.0), "final"),
        ("a", 100.0, (100.0, 50.0), "final"),
        ("b", 50.0, (50.0, 0.0), "final"),
        ("d", 50.0, (50.0, None), ""),
    ]
    with pytest.raises(ValueError):
        S.standings(["a", "b", "c", "d"], four, "final", {0: ["d"]}, "s")


def test_firsts_break_a_tie_of_score_and_net():
    # x: first at a table of 3 (100) then last at a table of 3 (0); y: 50 twice. Both total 100,
    # both +0 against the means; x has a first place, y none -> x ahead whatever the lot.
    results = [
        S.table_result(1, 1, "qualifying", [("x", 4), ("p", 0), ("q", -4)]),
        S.table_result(1, 2, "qualifying", [("r", 2), ("y", 0), ("s", -2)]),
        S.table_result(2, 1, "qualifying", [("q", 4), ("p", 0), ("x", -4)]),
        S.table_result(2, 2, "qualifying", [("s", 2), ("y", 0), ("r", -2)]),
    ]
    for seed in ("a", "b", "c", "d"):
        table = S.standings(["p", "q", "r", "s", "x", "y"], results, "lot", {}, seed)
        order = [s.participant for s in table]
        assert order.index("x") < order.index("y")


def test_standings_refuse_unknown_or_doubled_participants():
    r = [S.table_result(1, 1, "qualifying", [("a", 1), ("b", 0), ("c", -1)])]
    with pytest.raises(ValueError):
        S.standings(["a", "b"], r, "lot", {}, "s")
    with pytest.raises(ValueError):
        S.standings(["a", "b", "c"], r, "lot", {1: ["a"]}, "s")
    with pytest.raises(ValueError):
        S.standings(["a", "b", "c"], r, "swiss", {}, "s")
    with pytest.raises(ValueError):
        S.standings(["a", "b", "c"], r + r, "lot", {}, "s")


def test_finalists_and_hands_for():
    ranked = [S.Standing(i, p, 0.0, 0.0, 0, ()) for i, p in enumerate("abcdefgh", 1)]
    assert S.finalists(ranked, 5, True) == (list("abcde"), list("fgh"))
    assert S.finalists(ranked[:7], 5, True) == (list("abcde"), [])
    assert S.finalists(list(reversed(ranked)), 3, False) == (list("abc"), [])
    with pytest.raises(ValueError):
        S.finalists(ranked, 7, True)
    with pytest.raises(ValueError):
        S.finalists(ranked[:2], 3, True)
    # issue 34 item 3: everyone deals equally often within a round
    for size in range(3, 7):
        for hands in range(1, 61):
            n = S.hands_for(size, hands)
            assert n % size == 0 and hands <= n < hands + size
    with pytest.raises(ValueError):
        S.hands_for(0, 10)


def test_standing_round_trips_through_data():
    table = S.standings(PEOPLE, QUALIFYING + FINALS, "final", {}, SEED)
    assert [S.Standing.from_data(s.to_data()) for s in table] == table
