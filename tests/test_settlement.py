"""R5 settlement: every expected number is worked out by hand from RULES.md (in the comments).

Positions: 3 seats, p1 deals, order p2, p3, p1; stacks 20 before the ante 1, so
19 each and a pot of 3 (plus any carry-in) unless said otherwise.
SWEEP: p2 takes all five tricks, p3 and p1 none. TIE: p2 2, p3 2, p1 1.
"""

from __future__ import annotations

import pytest

from ramsli.hand import Hand
from ramsli.rules import Rules
from ramsli.settlement import settle

from helpers import SWEEP, SWEEP_PLAY, TIE, TIE_PLAY, make_hand, play


def sweep(rules: Rules, before_play: str = "p2 in; p3 in; p1 in", **kw) -> Hand:
    return play(make_hand(rules, SWEEP, "7H", **kw), before_play + ";" + SWEEP_PLAY)


def tie(rules: Rules, before_play: str = "p2 in; p3 in; p1 in", **kw) -> Hand:
    return play(make_hand(rules, TIE, "7H", **kw), before_play + ";" + TIE_PLAY)


def conserved(h: Hand, bank: int) -> None:
    assert sum(h.stacks) + h.pot == bank  # R3.4
    assert sum(h.settlement.stacks_after) + h.settlement.carry_over == bank


# --- R5.1 most tricks, R5.3 bete, R5.4 carry-over ------------------------------------------------------


def test_R5_1_R5_3_most_tricks_takes_the_pot_zero_tricks_pay_bete_5():
    h = sweep(Rules())
    # P = 3: p2 19+3 = 22; p3, p1 bete 5 each: 14; carry-over 10
    assert h.stacks == [14, 22, 14] and h.pot == 10
    st = h.settlement
    assert st.kind == "played" and st.pot == 3 and st.winners == (1,) and st.share == 3
    assert st.bete == (2, 0)  # clockwise from the dealer's left (R5.9)
    assert st.won(1) == 3 and st.paid(2) == 5 and st.paid(0) == 5
    conserved(h, 60)


def test_R5_3_double_penalty_bete_10():
    h = sweep(Rules.preset("double-penalty"))
    assert h.stacks == [9, 22, 9] and h.pot == 20
    conserved(h, 60)


def test_R5_3_bete_pot_pays_P():
    h = sweep(Rules.preset("pot-bete"), pot=4)
    # P = 4 + 3 = 7: p2 19+7 = 26; p3, p1 each pay 7 -> 12; carry-over 14
    assert h.stacks == [12, 26, 12] and h.pot == 14
    conserved(h, 60 + 4)


def test_R5_3_bete_owed_whatever_the_others_won_and_R5_5_out_costs_nothing():
    two = "; ".join(a for a in SWEEP_PLAY.replace("\n", ";").split(";") if a.strip() and "p1" not in a)
    h = play(make_hand(Rules(), SWEEP, "7H"), "p2 in; p3 in; p1 out;" + two)
    # p1 out: pays only the ante (19), no bete; p3 bete 5 -> 14; p2 22; carry 5
    assert h.stacks == [19, 22, 14] and h.pot == 5
    assert h.settlement.bete == (2,) and h.settlement.paid(0) == 0 and h.settlement.won(0) == 0
    conserved(h, 60)


def test_R5_2_tie_shares_floor_and_remainder_stays_in_the_pot():
    h = tie(Rules(), pot=2)
    # P = 5, p2 and p3 tied with 2 tricks: each takes floor(5/2) = 2, remainder 1 stays; p1 has 1 trick: no bete
    assert h.tricks_won == [1, 2, 2]
    assert h.stacks == [19, 21, 21] and h.pot == 1
    assert h.settlement.winners == (1, 2) and h.settlement.share == 2 and h.settlement.bete == ()
    conserved(h, 62)


def test_R5_4_carry_over_is_the_next_hands_starting_pot():
    h1 = sweep(Rules())
    assert h1.pot == 10
    h2 = make_hand(Rules(), SWEEP, "7H", stacks=h1.stacks, pot=h1.pot)
    assert h2.pot == 10 + 3 and h2.stacks == [13, 21, 13]


# --- R5.6 General Rams (D-15) ------------------------------------------------------------------------

GR_IN = "p2 in; p3 in; p1 in; p2 gr"


@pytest.mark.parametrize("penalty", ["triple-bete", "triple-pot"])
def test_R5_6_D15_general_rams_success(penalty):
    h = sweep(Rules(general_rams=True, general_rams_penalty=penalty), GR_IN)
    # P = 3: p2 takes 3 (22); others pay 2P = 6 split equally: 3 each (16, 16), p2 28 = 19 + 3P;
    # then both are bete 5: 11 each, carry 10
    assert h.stacks == [11, 28, 11] and h.pot == 10
    st = h.settlement
    assert st.general_rams == 1 and st.general_rams_made is True and st.bete == (2, 0)
    assert st.won(1) == 9
    conserved(h, 60)


def test_R5_6_D15_general_rams_success_remainder_paid_clockwise_from_announcers_left():
    r = Rules(general_rams=True)
    deal = {"p2": "AS KS QS JS TS", "p3": "AD KD QD JD TD", "p4": "AC KC QC JC TC", "p1": "9S 8S 7S 9D 8D"}
    h = make_hand(r, deal, "7H")
    play(
        h,
        """p2 in; p3 in; p4 in; p1 in; p2 gr
        p2 pl AS; p3 pl TD; p4 pl TC; p1 pl 7S
        p2 pl KS; p3 pl JD; p4 pl JC; p1 pl 8S
        p2 pl QS; p3 pl QD; p4 pl QC; p1 pl 9S
        p2 pl JS; p3 pl KD; p4 pl KC; p1 pl 8D
        p2 pl TS; p3 pl AD; p4 pl AC; p1 pl 9D""",
    )
    # P = 4; 2P = 8 over 3 payers: 2 each, remainder 2 paid by p3 and p4 (clockwise from p2's left)
    # p3 19-3 = 16, p4 16, p1 19-2 = 17; p2 19+4+8 = 31; betes 5: p3 11, p4 11, p1 12; carry 15
    assert h.stacks == [12, 31, 11, 11] and h.pot == 15
    assert h.settlement.won(1) == 12  # three times the pot
    conserved(h, 80)


def test_R5_6_D15_general_rams_failure_triple_bete():
    h = sweep(Rules(general_rams=True), "p2 in; p3 in; p1 in; p2 pass; p3 gr")
    # p3 announced and took 0: p2 22; p1 bete 5 (14); p3 no bete but 3 x 5 = 15 (19-15 = 4); carry 5+15 = 20
    assert h.stacks == [14, 22, 4] and h.pot == 20
    st = h.settlement
    assert st.general_rams == 2 and st.general_rams_made is False and st.bete == (0,)
    conserved(h, 60)


def test_R5_6_D15_general_rams_failure_triple_pot():
    h = sweep(Rules(general_rams=True, general_rams_penalty="triple-pot"), "p2 in; p3 in; p1 in; p2 pass; p3 gr")
    # penalty 3P = 9: p3 10; carry 5 + 9 = 14
    assert h.stacks == [14, 22, 10] and h.pot == 14
    conserved(h, 60)


def test_R5_6_general_rams_failure_with_bete_pot_triples_the_pot():
    h = sweep(Rules(general_rams=True, bete="pot"), "p2 in; p3 in; p1 in; p2 pass; p3 gr", pot=3)
    # P = 6: p2 25; p1 bete 6 (13); p3 pays 3 x 6 = 18 (1); carry 24
    assert h.stacks == [13, 25, 1] and h.pot == 24
    conserved(h, 63)


def test_R5_6_general_rams_failure_with_tricks_taken_still_pays_the_penalty():
    h = tie(Rules(general_rams=True), "p2 in; p3 in; p1 in; p2 gr")
    # p2 took 2, tied with p3: shares 1 each (remainder 1); p2 then pays 15: 20-15 = 5; carry 1+15 = 16
    assert h.stacks == [19, 5, 20] and h.pot == 16
    conserved(h, 60)


def test_R5_6_R4_7_general_rams_with_compulsory_play():
    h = play(make_hand(Rules(compulsory=True, general_rams=True), SWEEP, "7H"), "p2 gr;" + SWEEP_PLAY)
    assert h.stacks == [11, 28, 11] and h.pot == 10
    conserved(h, 60)


# --- R5.7 targets (D-13) ------------------------------------------------------------------------------

NAP_IN = "p2 in; p3 in; p1 in; p2 t3; p3 t2; p1 pass"


def test_R5_7_D13_target_met_and_missed_bonus_t_minus_1():
    h = sweep(Rules.preset("nap"), NAP_IN)
    # p2 22, betes: p3 14, p1 14, carry 10;
    # p2 met t3: b = 2 from p3 and p1: 12, 12, p2 26; p3 missed t2: b = 1 x 2 others = 2: 10, carry 12
    assert h.stacks == [12, 26, 10] and h.pot == 12
    assert h.settlement.targets == ((1, 3, True), (2, 2, False))
    conserved(h, 60)


def test_R5_7_D13_target_met_and_missed_bonus_t():
    h = sweep(Rules(targets=True, target_bonus="t"), NAP_IN)
    # p2 met t3: b = 3: p3 11, p1 11, p2 28; p3 missed t2: b = 2 x 2 = 4: 7, carry 14
    assert h.stacks == [11, 28, 7] and h.pot == 14
    conserved(h, 60)


def test_R5_7_target_exceeded_is_met():
    h = sweep(Rules.preset("nap"), "p2 in; p3 in; p1 in; p2 t2; p3 pass; p1 pass")
    # p2 took 5 >= 2: b = 1 from each: p3 14-1 = 13, p1 13, p2 24
    assert h.stacks == [13, 24, 13] and h.pot == 10


# --- R5.8 short stacks (D-6) and R5.9 order (D-17) --------------------------------------------------------


def test_R5_8_D6_short_stack_pays_bete_and_shortfall_is_forgiven():
    h = sweep(Rules(), stacks=[20, 20, 3])
    # after ante [19, 19, 2]; p2 22; p3 owes 5, pays 2 (shortfall 3): 0; p1 pays 5: 14; carry 7
    assert h.stacks == [14, 22, 0] and h.pot == 7
    assert h.settlement.shortfalls() == {2: 3}
    assert h.settlement.to_dict()["seats"][2]["shortfall"] == 3
    conserved(h, 43)


def test_R5_9_D17_bete_before_target_payments_with_a_short_stack():
    h = sweep(Rules.preset("nap"), "p2 in; p3 in; p1 in; p2 t3; p3 pass; p1 pass", stacks=[4, 20, 20])
    # after ante [3, 19, 19], P = 3; step 1: p2 22; step 3 betes: p3 14, p1 pays 3 of 5 -> 0; carry 8;
    # step 5: p2 met t3, b = 2: p3 pays 2 (12), p1 pays 0 of 2; p2 24
    assert h.stacks == [0, 24, 12] and h.pot == 8
    assert h.settlement.shortfalls() == {0: 4}
    steps = [(p.step, p.payer, p.payee, p.owed, p.paid) for p in h.settlement.payments]
    assert steps == [(1, None, 1, 3, 3), (3, 2, None, 5, 5), (3, 0, None, 5, 3), (5, 2, 1, 2, 2), (5, 0, 1, 2, 0)]
    conserved(h, 44)


def test_R5_9_D17_counters_received_are_usable_at_once():
    h = tie(Rules.preset("nap"), "p2 in; p3 in; p1 in; p2 t3; p3 pass; p1 pass", stacks=[20, 1, 20])
    # after ante [19, 0, 19], P = 3; p2, p3 tie on 2: 1 each (p2 1, p3 20), remainder 1;
    # p2 missed t3: owes 2 x 2 = 4, pays the 1 just won; carry 2
    assert h.stacks == [19, 0, 20] and h.pot == 2
    assert h.settlement.shortfalls() == {1: 3}
    conserved(h, 41)


def test_R5_9_general_rams_success_before_bete_with_short_stack():
    h = sweep(Rules(general_rams=True), GR_IN, stacks=[5, 20, 20])
    # after ante [4, 19, 19], P = 3: p2 22; step 2: p3 pays 3 (16), p1 pays 3 (1), p2 28;
    # step 3 betes: p3 11, p1 pays 1 of 5 (0); carry 6
    assert h.stacks == [0, 28, 11] and h.pot == 6
    assert h.settlement.shortfalls() == {0: 4}
    conserved(h, 45)


def test_R5_settle_function_direct():
    # the doctest case, worked by hand: P = 3, p2 3 tricks, p3 2: p2 takes 3
    s = settle(Rules(), order=(1, 2, 0), active=[1, 2], tricks_won=[0, 3, 2], stacks=[19, 19, 19], pot=3)
    assert s.winners == (1,) and s.carry_over == 0 and tuple(s.stacks_after) == (19, 22, 19)
    d = s.to_dict(["Ann", "Bo", "Cy"])
    assert d["winners"] == ["Bo"] and d["seats"][0]["in"] is False and d["seats"][1]["won"] == 3
