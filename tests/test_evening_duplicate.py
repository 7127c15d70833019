"""Duplicate scoring (issue 35, ``ramsli.evening.duplicate``) against a table computed by hand.

Three tables of five (table 1: a b c d e, table 2: f g h i j, table 3: k l m n o, in seat order)
play the same six deals; the dealer of deal k is seat k - 1 at every table, so on deal k duplicate
seat s (0 the dealer) is seat (k - 1 + s) mod 5. The nets below are per deal, per table, in
duplicate-seat order; the matchpoints, counters against the field and standings in this file
were worked out by hand (the comments show the sums), not by the code under test.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from ramsli.evening.duplicate import (
    DealResult,
    DealSeat,
    DealTable,
    deck_key,
    duplicate_seat,
    duplicate_standings,
    matchpoints,
    new_deals,
    score_deal,
)
from ramsli.evening.scoring import lot_key
from ramsli.fairness import DealCommitment, dealt_order

TABLES = ("abcde", "fghij", "klmno")
#: NETS[deal - 1][table - 1][duplicate seat]
NETS = [
    [[4, -1, -1, -1, -1], [-1, 4, -1, -1, -1], [4, -1, -1, -1, -1]],
    [[-1, -1, 6, -3, -1], [-1, -1, -3, 6, -1], [-1, -1, -1, -1, 4]],
    [[-1, -1, -1, -1, -1], [-1, -1, -1, -1, -1], [2, -6, 2, -1, -1]],
    [[3, 3, -4, -1, -1], [3, 3, -4, -1, -1], [3, 3, -4, -1, -1]],
    [[-6, 10, -1, -1, -1], [2, 2, -1, -1, -1], [-1, -1, -1, -1, 4]],
    [[-1, -1, -1, -1, -1], [-1, -1, -1, -1, -1], [-1, -1, -1, -1, -1]],
]
#: by hand: MP[deal - 1][duplicate seat] = (table 1, table 2, table 3), each out of 4
MP = [
    [(3, 0, 3), (1, 4, 1), (2, 2, 2), (2, 2, 2), (2, 2, 2)],
    [(2, 2, 2), (2, 2, 2), (4, 0, 2), (0, 4, 2), (1, 1, 4)],
    [(1, 1, 4), (3, 3, 0), (1, 1, 4), (2, 2, 2), (2, 2, 2)],
    [(2, 2, 2)] * 5,
    [(0, 4, 2), (4, 2, 0), (2, 2, 2), (2, 2, 2), (1, 1, 4)],
    [(2, 2, 2)] * 5,
]
#: by hand: each participant's matchpoints over the six deals (of 24), counters against the field
#: (in thirds) and tops. a: deals 1..6 at duplicate seats 0 4 3 2 1 0 -> 3+1+2+2+4+2 = 14;
#: field: 5/3 - 5/3 + 0 + 0 + 19/3 + 0 = 19/3; a top on deal 5.
BY_HAND = {
    "a": (14, 19, 1),
    "b": (11, -5, 0),
    "c": (11, -3, 0),
    "d": (14, 16, 1),
    "e": (7, -27, 0),
    "f": (9, -20, 0),
    "g": (14, 10, 1),
    "h": (11, -3, 0),
    "i": (10, -11, 0),
    "j": (15, 24, 2),
    "k": (13, 1, 1),
    "l": (11, -5, 0),
    "m": (14, 6, 1),
    "n": (12, -5, 1),
    "o": (14, 3, 1),
}
COMMITMENT = "5c" * 32


def deals() -> list[DealResult]:
    out = []
    for k, per_table in enumerate(NETS, 1):
        tables = []
        for t, nets in enumerate(per_table, 1):
            seats = tuple(DealSeat(TABLES[t - 1][(k - 1 + s) % 5], s, nets[s]) for s in range(5))
            tables.append(DealTable(t, seats))
        out.append(DealResult(1, 5, k, tuple(tables)))
    return out


def test_matchpoints_of_each_deal_are_the_hand_computed_ones() -> None:
    for k, deal in enumerate(deals(), 1):
        scores = score_deal(deal)
        for s in range(5):
            got = tuple(int(scores[t, s].mp) for t in (1, 2, 3))
            assert got == MP[k - 1][s], f"deal {k}, seat {s}"
            assert all(scores[t, s].max == 4 for t in (1, 2, 3))
            assert [scores[t, s].pct for t in (1, 2, 3)] == [Fraction(25 * m) for m in MP[k - 1][s]]
            assert sum(scores[t, s].vs_field for t in (1, 2, 3)) == 0  # against the field's mean


def test_counters_against_the_field_deal_5() -> None:
    # seat 1 of deal 5: nets 10, 2, -1, mean 11/3
    s = score_deal(deals()[4])
    assert [s[t, 1].vs_field for t in (1, 2, 3)] == [Fraction(19, 3), Fraction(-5, 3), Fraction(-14, 3)]


def test_standings_are_the_hand_computed_ones() -> None:
    table = duplicate_standings(sorted(BY_HAND), deals(), COMMITMENT, 1)
    for st in table:
        mp, thirds, tops = BY_HAND[st.participant]
        assert st.score == pytest.approx(100 * mp / 24), st.participant
        assert st.net_vs_mean == pytest.approx(thirds / 3), st.participant
        assert st.firsts == tops, st.participant
        assert st.rounds == (pytest.approx(100 * mp / 24),)

    def lot(*ids: str) -> list[str]:
        return sorted(ids, key=lambda p: lot_key(COMMITMENT, p))

    # by mean %, then the counters against the field, then tops, then the lot
    order = ["j", "a", "d", "g", "m", "o", "k", "n", *lot("c", "h"), *lot("b", "l"), "i", "f", "e"]
    assert [s.participant for s in table] == order
    assert [s.rank for s in table] == list(range(1, 16))


def test_a_section_of_one_table_has_no_field() -> None:
    one = DealResult(1, 3, 1, (DealTable(1, (DealSeat("a", 0, 5), DealSeat("b", 1, -2), DealSeat("c", 2, -4))),))
    s = score_deal(one)
    assert [s[1, i].pct for i in range(3)] == [50, 50, 50]
    assert [s[1, i].max for i in range(3)] == [0, 0, 0]
    assert [s[1, i].vs_field for i in range(3)] == [0, 0, 0]
    assert [x.firsts for x in duplicate_standings("abc", [one], COMMITMENT, 1)] == [0, 0, 0]


def test_a_participant_without_deals_ranks_last() -> None:
    table = duplicate_standings(["z", *sorted(BY_HAND)], deals(), COMMITMENT, 2)
    assert table[-1].participant == "z" and table[-1].score == 0 and table[-1].rounds == (None, None)
    assert table[0].rounds == (pytest.approx(62.5), None)


def test_seats_out_of_duplicate_order_are_refused() -> None:
    bad = DealResult(1, 3, 1, (DealTable(1, (DealSeat("a", 1, 5), DealSeat("b", 0, -2), DealSeat("c", 2, -4))),))
    with pytest.raises(ValueError, match="duplicate order"):
        score_deal(bad)


def test_matchpoints_ties_share() -> None:
    assert matchpoints([1, 1, 1, 1]) == [(Fraction(3), 6)] * 4
    assert matchpoints([7]) == [(Fraction(0), 0)]


def test_duplicate_seat_is_relative_to_the_dealer() -> None:
    assert [duplicate_seat(s, 0, 4) for s in range(4)] == [0, 1, 2, 3]
    assert [duplicate_seat(s, 1, 4) for s in range(4)] == [3, 0, 1, 2]


def test_new_deals_rotate_the_dealer_and_share_salts() -> None:
    plans = new_deals("piquet32", False, 5, 10, random.Random(7))
    first = plans[0].dealer
    assert [p.dealer for p in plans] == [(first + k) % 5 for k in range(10)]  # everyone deals twice (R3.2)
    assert len({tuple(p.deck) for p in plans}) == 10
    for p in plans:
        assert sorted(map(str, p.deck)) == sorted(map(str, plans[0].deck))  # the whole deck (R1)
        assert 1 <= p.cut < len(p.deck)  # R4.2
        built = DealCommitment.build(dealt_order(p.deck, p.cut), p.salts)
        assert p.key == built.digest == deck_key(built.commitments)
    assert len({p.salts for p in plans}) == 10


def test_deal_seat_round_trips() -> None:
    s = DealSeat("a", 2, -3, "in", "target:3", 1, 0, 3)
    assert DealSeat.from_data(s.to_data()) == s
    assert "card" not in str(s.to_data())  # R7, D-21: an outcome, never a card
    with pytest.raises(TypeError):
        DealSeat.from_data({**s.to_data(), "net": "3"})
