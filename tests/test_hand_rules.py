"""R4 playing one hand and R7 what each player may know: exact positions built by hand.

Most positions have 3 seats with p1 dealing, so the order of declaring and of
the first lead is p2, p3, p1 (R4.3, R4.5, R4.9).
"""

from __future__ import annotations

import pytest

from ramsli.cards import Card, make_deck
from ramsli.errors import IllegalActionError
from ramsli.hand import Action, Hand, Phase, legal_plays, trick_winner
from ramsli.rules import Rules
from ramsli.testing import walk_cards

from helpers import SWEEP, SWEEP_PLAY, TIE, TIE_PLAY, cards, make_hand, play, strs

T = Rules.preset("traditional")
WHEN = Rules(overtrump="when-trumping")
JOKER = Rules.preset("joker")


def legal_cards(hand: Hand) -> list[str]:
    return sorted(str(a.card) for a in hand.legal_actions())


def refused(hand: Hand, action: str, rule: str, words: str | None = None) -> IllegalActionError:
    """R4.12: the action is refused naming ``rule`` and the state is unchanged."""
    before = hand.fingerprint()
    with pytest.raises(IllegalActionError) as e:
        hand.apply(action)
    assert e.value.rule == rule, (e.value.rule, str(e.value))
    assert rule in str(e.value)
    if words:
        assert words in e.value.reason, e.value.reason
    assert hand.fingerprint() == before
    return e.value


# --- R4.1 ante ----------------------------------------------------------------------------------------


def test_R4_1_every_seated_player_pays_the_ante_on_top_of_the_carry_over():
    h = make_hand(Rules(ante=2), SWEEP, "7H", pot=5)
    assert h.stacks == [18, 18, 18]
    assert h.pot == 5 + 6
    assert h.carry_in == 5 and h.start_stacks == (20, 20, 20)


def test_R4_1_seats_that_left_pay_no_ante():
    h = make_hand(
        T, {"p1": SWEEP["p1"], "p3": SWEEP["p3"], "p4": SWEEP["p2"]}, "7H", stacks=[20, 0, 20, 20], seated=[0, 2, 3]
    )
    assert h.stacks == [19, 0, 19, 19] and h.pot == 3
    assert h.order == (2, 3, 0)  # R3.5 leave: p2's seat is skipped


# --- R4.2 cut, R4.3 deal (D-19), R4.4 turn-up (D-9) --------------------------------------------------------

PIQUET = list(make_deck("piquet32"))  # AS KS QS JS TS 9S 8S 7S AH ... 7H AD ... 7D AC ... 7C


def test_R4_2_cut_puts_the_lower_packet_on_top():
    # cut 16: the top 16 cards (spades and hearts) are lifted; the deal starts with AD
    h = Hand.from_deck(T, [20] * 3, 0, PIQUET, 16)
    assert h.cut == 16
    assert Card.parse("AD") in h.hands[1]  # the first card after the cut goes to the dealer's left
    with pytest.raises(ValueError, match="R4.2"):
        Hand.from_deck(T, [20] * 3, 0, PIQUET, 0)
    with pytest.raises(ValueError, match="R4.2"):
        Hand.from_deck(T, [20] * 3, 0, PIQUET, 32)


def test_R4_3_D19_deal_3_then_2_from_dealers_left_dealer_last():
    # after the cut at 16 the deck runs AD KD QD JD TD 9D 8D 7D AC KC QC JC TC 9C 8C 7C AS ... 7H
    h = Hand.from_deck(T, [20] * 3, 0, PIQUET, 16)
    assert set(h.hands[1]) == set(cards("AD KD QD KC QC"))  # p2, the dealer's left: 3 then 2
    assert set(h.hands[2]) == set(cards("JD TD 9D JC TC"))  # p3
    assert set(h.hands[0]) == set(cards("8D 7D AC 9C 8C"))  # p1, the dealer, last in each round
    assert h.turn_up == Card.parse("7C") and h.trump == "C"  # R4.4: the next card
    assert list(h.stock) == PIQUET[:16]  # R4.4: the rest stays as stock
    assert h.dealt[1] and set(h.dealt[1]) == set(h.hands[1])


def test_R4_3_D19_deal_2_then_3():
    h = Hand.from_deck(Rules(batches="2+3"), [20] * 3, 0, PIQUET, 16)
    assert set(h.hands[1]) == set(cards("AD KD 8D 7D AC"))
    assert set(h.hands[2]) == set(cards("QD JD KC QC JC"))
    assert set(h.hands[0]) == set(cards("TD 9D TC 9C 8C"))
    assert h.turn_up == Card.parse("7C")


def test_R4_3_deal_starts_left_of_another_dealer():
    # dealer p3 (seat 2): order p1, p2, p3
    h = Hand.from_deck(T, [20] * 3, 2, PIQUET, 16)
    assert set(h.hands[0]) == set(cards("AD KD QD KC QC"))
    assert set(h.hands[2]) == set(cards("8D 7D AC 9C 8C"))
    assert h.to_act == 0


def deck_with_cut(after_cut: list[Card], cut: int) -> list[Card]:
    """The deck order that, cut at ``cut`` (R4.2), runs as ``after_cut``."""
    return after_cut[-cut:] + after_cut[:-cut]


def test_R4_4_D9_joker_turn_up_is_turned_aside_and_the_next_card_turned():
    deck = list(make_deck("piquet32", jokers=True))
    body = [c for c in deck if not c.is_joker]
    # 3 seats deal 15 cards; then X1, X2 come up, then 9D
    after = body[:15] + cards("X1 X2") + [c for c in body[15:]]
    full = deck_with_cut(after, 5)
    h = Hand.from_deck(JOKER, [20] * 3, 0, full, 5)
    assert strs(h.turned_aside) == ["X1", "X2"]
    assert h.turn_up == body[15] and h.trump == body[15].suit
    obs = h.observe(2)
    assert strs(obs.turned_aside) == ["X1", "X2"] and obs.turn_up == body[15]  # R7: visible to all
    assert not any(c.is_joker for hand_ in h.hands for c in hand_)


def test_R4_4_D9_a_joker_turn_up_is_refused_in_from_cards():
    with pytest.raises(ValueError, match="D-9"):
        make_hand(JOKER, SWEEP, "X1")


def test_R4_4_the_turn_up_is_never_played():
    h = make_hand(T, SWEEP, "7H")
    play(h, "p2 in; p3 in; p1 in")
    refused(h, "p2 pl 7H", "R4.10", "does not hold")


def test_from_cards_refuses_bad_deals():
    with pytest.raises(ValueError, match="twice"):
        make_hand(T, {**SWEEP, "p1": "AS KC QC JC TC"}, "7H")
    with pytest.raises(ValueError, match="5 cards"):
        make_hand(T, {**SWEEP, "p1": "KC QC JC TC"}, "7H")
    with pytest.raises(ValueError, match="deck"):
        make_hand(T, {**SWEEP, "p1": "2C KC QC JC TC"}, "7H")
    with pytest.raises(ValueError, match="R3.5"):
        make_hand(Rules(ante=3), SWEEP, "7H", stacks=[2, 20, 20])


# --- R4.5 declarations --------------------------------------------------------------------------------


def test_R4_5_declarations_start_left_of_dealer_clockwise_dealer_last_and_are_public():
    h = make_hand(T, SWEEP, "7H")
    assert h.phase is Phase.DECLARE and h.to_act == 1
    assert strs(h.legal_actions()) == ["p2 in", "p2 out"]
    refused(h, "p1 in", "R4.5", "turn")
    refused(h, "p3 in", "R4.5", "turn")
    h.apply("p2 out")
    assert h.to_act == 2
    assert h.observe(0).declarations == ((1, "out"),)  # public as made
    h.apply("p3 in")
    assert h.to_act == 0
    assert h.observe(1).declarations == ((1, "out"), (2, "in"))


def test_R4_5_dealer_forced_when_all_before_are_out_then_R4_6_walkover():
    h = make_hand(T, SWEEP, "7H")
    play(h, "p2 out; p3 out")
    assert strs(h.legal_actions()) == ["p1 in"]
    refused(h, "p1 out", "R4.5", "dealer must be in")
    h.apply("p1 in")
    # R4.6 walkover: p1 takes the whole pot 3 at once; no tricks, no bete
    assert h.is_over and h.settlement.kind == "walkover"
    assert h.stacks == [22, 19, 19] and h.pot == 0
    assert h.tricks == [] and h.settlement.bete == ()


def test_R4_5_dealer_not_forced_if_someone_is_in():
    h = make_hand(T, SWEEP, "7H")
    play(h, "p2 in; p3 out")
    assert strs(h.legal_actions()) == ["p1 in", "p1 out"]


def test_R4_5_D10_all_out_without_dealer_forced_throws_the_hand_in():
    h = make_hand(Rules(dealer_forced=False), SWEEP, "7H", pot=4)
    play(h, "p2 out; p3 out")
    assert strs(h.legal_actions()) == ["p1 in", "p1 out"]
    h.apply("p1 out")
    assert h.is_over and h.thrown_in and h.settlement.kind == "thrown-in"
    # nothing is played; the pot (4 + 3 antes) carries over whole
    assert h.stacks == [19, 19, 19] and h.pot == 7 and h.settlement.carry_over == 7
    assert h.tricks == []


def test_R4_5_compulsory_no_declarations_everyone_is_in():
    h = make_hand(Rules.preset("compulsory"), SWEEP, "7H")
    assert h.phase is Phase.PLAY and h.active == [1, 2, 0] and h.to_act == 1
    refused(h, "p2 out", "R4.9")
    refused(h, "p2 in", "R4.9")
    play(h, SWEEP_PLAY)
    assert h.is_over and h.tricks_won == [0, 5, 0]


# --- R4.6 walkover ----------------------------------------------------------------------------------------


def test_R4_6_walkover_one_player_in_takes_the_whole_pot():
    h = make_hand(T, SWEEP, "7H", pot=4)
    play(h, "p2 in; p3 out; p1 out")
    assert h.is_over and h.settlement.kind == "walkover"
    assert h.stacks == [19, 19 + 7, 19] and h.pot == 0
    assert h.settlement.winners == (1,) and h.settlement.bete == ()
    assert h.tricks == []


# --- R4.7 General Rams (D-11, D-12) ------------------------------------------------------------------

GR = Rules.preset("general-rams")


def test_R4_7_D11_D12_general_rams_asked_in_order_first_announcement_ends_asking_lead_unchanged():
    h = make_hand(GR, SWEEP, "7H")
    play(h, "p2 in; p3 in; p1 in")
    assert h.phase is Phase.GENERAL_RAMS and h.to_act == 1
    assert strs(h.legal_actions()) == ["p2 gr", "p2 pass"]
    refused(h, "p2 pl AS", "R4.7")
    h.apply("p2 pass")
    assert h.to_act == 2
    h.apply("p3 gr")
    # D-11: at most one announcement; p1 is not asked
    assert h.general_rams == 2 and h.phase is Phase.PLAY
    # D-12: the lead is unchanged: the first active player to the dealer's left (p2)
    assert h.to_act == 1 and h.leader == 1
    assert h.observe(0).general_rams == 2  # R7: announcements are public


def test_R4_7_only_active_players_are_asked():
    h = make_hand(GR, SWEEP, "7H")
    play(h, "p2 out; p3 in; p1 in")
    assert h.phase is Phase.GENERAL_RAMS and h.to_act == 2
    play(h, "p3 pass; p1 pass")
    assert h.phase is Phase.PLAY and h.general_rams is None and h.to_act == 2


def test_R4_7_no_question_after_a_walkover():
    h = make_hand(GR, SWEEP, "7H")
    play(h, "p2 in; p3 out; p1 out")
    assert h.is_over and h.settlement.kind == "walkover"


def test_R4_7_compulsory_general_rams_asked_right_after_the_turn_up():
    h = make_hand(Rules(compulsory=True, general_rams=True), SWEEP, "7H")
    assert h.phase is Phase.GENERAL_RAMS and h.to_act == 1


# --- R4.8 targets (D-13) ------------------------------------------------------------------------------

NAP = Rules.preset("nap")


def test_R4_8_D13_targets_in_order_2_to_5_several_may_announce():
    h = make_hand(NAP, SWEEP, "7H")
    play(h, "p2 in; p3 in; p1 in")
    assert h.phase is Phase.TARGETS and h.to_act == 1
    assert strs(h.legal_actions()) == ["p2 pass", "p2 t2", "p2 t3", "p2 t4", "p2 t5"]
    refused(h, "p2 gr", "R4.8")
    play(h, "p2 t3; p3 t2; p1 pass")
    assert h.targets == {1: 3, 2: 2} and h.phase is Phase.PLAY and h.to_act == 1
    assert h.observe(0).targets == ((1, 3), (2, 2))


def test_R4_8_with_general_rams_target_5_is_not_offered_and_the_announcer_names_no_target():
    r = Rules(general_rams=True, targets=True)
    h = make_hand(r, SWEEP, "7H")
    play(h, "p2 in; p3 in; p1 in; p2 gr")
    assert h.phase is Phase.TARGETS and h.to_act == 2  # p2 (announcer) is not asked
    assert strs(h.legal_actions()) == ["p3 pass", "p3 t2", "p3 t3", "p3 t4"]
    refused(h, "p3 t5", "R4.8", "5")
    play(h, "p3 t2; p1 t4")
    assert h.phase is Phase.PLAY and h.to_act == 1


def test_R4_8_with_general_rams_all_passing_then_targets():
    r = Rules(general_rams=True, targets=True)
    h = make_hand(r, SWEEP, "7H")
    play(h, "p2 in; p3 in; p1 in; p2 pass; p3 pass; p1 pass")
    assert h.phase is Phase.TARGETS and h.to_act == 1


# --- R4.9 lead --------------------------------------------------------------------------------------


def test_R4_9_first_active_left_of_dealer_leads_winner_leads_next_out_players_skipped():
    h = make_hand(T, TIE, "7H")
    play(h, "p2 out; p3 in; p1 in")
    assert h.phase is Phase.PLAY and h.to_act == 2  # p2 is out: p3 leads
    play(h, "p3 pl AD")
    assert h.to_act == 0  # p1 next; p2 skipped
    play(h, "p1 pl 7D")
    assert h.tricks[0].winner == 2 and h.to_act == 2  # winner leads next
    play(h, "p3 pl 7S")
    play(h, "p1 pl TS")
    assert h.tricks[1].winner == 0 and h.to_act == 0


def test_R4_9_five_tricks_are_played():
    h = play(make_hand(T, TIE, "7H"), "p2 in; p3 in; p1 in" + ";" + TIE_PLAY)
    assert h.is_over and len(h.tricks) == 5 and h.tricks_won == [1, 2, 2]
    assert [t.winner for t in h.tricks] == [1, 1, 2, 2, 0]
    assert [t.leader for t in h.tricks] == [1, 1, 1, 2, 2]


# --- R4.10 what may be played ----------------------------------------------------------------------


def in_all(h: Hand) -> Hand:
    return play(h, "p2 in; p3 in; p1 in")


def test_R4_10_leader_plays_any_card():
    h = in_all(make_hand(T, {"p2": "AS 9H 7D 9C 8S", "p3": SWEEP["p3"], "p1": SWEEP["p1"]}, "7H"))
    assert legal_cards(h) == sorted(["AS", "9H", "7D", "9C", "8S"])


def test_R4_10_1_must_follow_suit():
    h = in_all(make_hand(T, {"p2": "AS QD QC JC TC", "p3": "KS 9H AD KD JD", "p1": "7S 8S 9S TS 7C"}, "7H"))
    h.apply("p2 pl AS")
    assert legal_cards(h) == ["KS"]
    e = refused(h, "p3 pl 9H", "R4.10", "must follow suit")
    assert "♠" in e.reason
    refused(h, "p3 pl AD", "R4.10", "must follow suit")


def test_R4_10_2_void_in_led_suit_must_trump():
    h = in_all(make_hand(T, {"p2": "AS QD QC JC TC", "p3": "9H 8H AD KD JD", "p1": "7S 8S 9S TS 7C"}, "7H"))
    h.apply("p2 pl AS")
    assert legal_cards(h) == ["8H", "9H"]
    refused(h, "p3 pl AD", "R4.10", "must trump")


def test_R4_10_4_void_in_led_suit_and_trump_any_card_and_it_cannot_win():
    h = in_all(make_hand(T, {"p2": "7S QD QC JC TC", "p3": "AD KD JD 9D 8D", "p1": "8S 9S TS AS 7C"}, "7H"))
    h.apply("p2 pl 7S")
    assert legal_cards(h) == sorted(["AD", "KD", "JD", "9D", "8D"])
    play(h, "p3 pl AD; p1 pl 8S")
    assert h.tricks[0].winner == 0  # 8S beats 7S; AD cannot win


@pytest.mark.parametrize("rules", [T, WHEN], ids=["always", "when-trumping"])
def test_R4_10_3_D14_overtrump_when_trumping_a_side_lead_both_settings(rules):
    # p2 leads AS, p3 (void in spades) trumps with 9H, p1 (void in spades) holds KH and 7H: must overtrump
    h = in_all(make_hand(rules, {"p2": "AS QD QC JC TC", "p3": "9H AD KD JD TD", "p1": "KH 7H 9C 8C 7C"}, "8H"))
    play(h, "p2 pl AS; p3 pl 9H")
    assert legal_cards(h) == ["KH"]
    refused(h, "p1 pl 7H", "R4.10", "overtrump")
    refused(h, "p1 pl 9C", "R4.10")


@pytest.mark.parametrize("rules", [T, WHEN], ids=["always", "when-trumping"])
def test_R4_10_3_unable_to_overtrump_any_trump_still_must_trump(rules):
    h = in_all(make_hand(rules, {"p2": "AS QD QC JC TC", "p3": "KH AD KD JD TD", "p1": "9H 8H 9C 8C 7C"}, "7H"))
    play(h, "p2 pl AS; p3 pl KH")
    assert legal_cards(h) == ["8H", "9H"]
    refused(h, "p1 pl 9C", "R4.10", "must trump")


def test_R4_10_3_D14_overtrump_always_applies_following_a_trump_lead():
    h = in_all(make_hand(T, {"p2": "9H QD QC JC TC", "p3": "KH 7S AD KD JD", "p1": "AH 8H 9C 8C 7C"}, "7H"))
    play(h, "p2 pl 9H")  # a trump lead
    assert legal_cards(h) == ["KH"]
    play(h, "p3 pl KH")
    assert legal_cards(h) == ["AH"]
    refused(h, "p1 pl 8H", "R4.10", "overtrump")


def test_R4_10_3_overtrump_when_trumping_does_not_apply_following_a_trump_lead():
    h = in_all(make_hand(WHEN, {"p2": "9H QD QC JC TC", "p3": "KH 7S AD KD JD", "p1": "AH 8H 9C 8C 7C"}, "7H"))
    play(h, "p2 pl 9H")
    assert legal_cards(h) == ["KH"]  # the only trump: must follow suit (trump)
    play(h, "p3 pl KH")
    assert legal_cards(h) == ["8H", "AH"]  # any trump: no overtrump needed
    play(h, "p1 pl 8H")
    assert h.tricks[0].winner == 2


def test_R4_10_trump_lead_holder_without_higher_trump_plays_any_trump():
    h = in_all(make_hand(T, {"p2": "AH QD QC JC TC", "p3": "KH 7H AD KD JD", "p1": "8H 9S 9C 8C 7C"}, "9H"))
    play(h, "p2 pl AH")
    assert legal_cards(h) == ["7H", "KH"]  # cannot overtrump the ace: any trump (must follow)
    refused(h, "p3 pl AD", "R4.10", "follow suit")


def test_R4_10_trump_lead_void_in_trump_any_card():
    h = in_all(make_hand(T, {"p2": "AH QD QC JC TC", "p3": "KS 7S AD KD JD", "p1": "8H 9S 9C 8C 7C"}, "7H"))
    play(h, "p2 pl AH")
    assert legal_cards(h) == sorted(["KS", "7S", "AD", "KD", "JD"])


def test_R4_10_1_D2_joker_lead_is_a_trump_lead():
    h = in_all(make_hand(JOKER, {"p2": "X2 QD QC JC TC", "p3": "7H AS AD KD JD", "p1": "X1 8H 9C 8C 7C"}, "9H"))
    play(h, "p2 pl X2")
    assert legal_cards(h) == ["7H"]  # must follow trump; cannot overtrump the little joker: any trump
    refused(h, "p3 pl AS", "R4.10", "follow suit")
    play(h, "p3 pl 7H")
    assert legal_cards(h) == ["X1"]  # overtrump (always): only the big joker beats the little joker
    play(h, "p1 pl X1")
    assert h.tricks[0].winner == 0


def test_R4_10_1_D2_joker_lead_when_trumping_any_trump():
    h = in_all(
        make_hand(
            Rules(jokers=True, overtrump="when-trumping"),
            {"p2": "X2 QD QC JC TC", "p3": "7H AS AD KD JD", "p1": "X1 8H 9C 8C 7C"},
            "9H",
        )
    )
    play(h, "p2 pl X2; p3 pl 7H")
    assert legal_cards(h) == ["8H", "X1"]


def test_R4_10_1_D2_a_joker_follows_a_trump_lead():
    h = in_all(make_hand(JOKER, {"p2": "8H QD QC JC TC", "p3": "X2 AS AD KD JD", "p1": "9H 7S 9C 8C 7C"}, "7H"))
    play(h, "p2 pl 8H")
    assert legal_cards(h) == ["X2"]  # the joker is p3's only trump
    refused(h, "p3 pl AS", "R4.10", "follow suit")


def test_R4_10_D2_a_joker_is_a_trump_on_a_side_lead():
    h = in_all(make_hand(JOKER, {"p2": "AS QD QC JC TC", "p3": "X1 KD AD 9D JD", "p1": "KH 7S 9C 8C 7C"}, "7H"))
    play(h, "p2 pl AS")
    assert legal_cards(h) == ["X1"]  # void in spades: must trump with the joker
    play(h, "p3 pl X1")
    assert legal_cards(h) == ["7S"]
    play(h, "p1 pl 7S")
    assert h.tricks[0].winner == 2


def test_R4_10_legal_plays_function():
    c = cards
    assert strs(legal_plays(c("9H KS 7S"), [(0, Card.parse("AS"))], "D")) == ["KS", "7S"]
    assert strs(legal_plays(c("9H KD 7D"), [(0, Card.parse("AS")), (1, Card.parse("TD"))], "D")) == ["KD"]
    assert strs(legal_plays(c("9H KD 7D"), [(0, Card.parse("8D"))], "D", "when-trumping")) == ["KD", "7D"]
    assert strs(legal_plays(c("9H KD 7D"), [(0, Card.parse("8D"))], "D", "always")) == ["KD"]
    assert strs(legal_plays(c("9H 8C"), [(0, Card.parse("8D"))], "D")) == ["9H", "8C"]


# --- R4.11 trick winner ---------------------------------------------------------------------------------


def test_R4_11_highest_trump_wins_else_highest_of_led_suit():
    S = Card.parse
    assert trick_winner([(0, S("7S")), (1, S("AS")), (2, S("KS"))], "H") == 1
    assert trick_winner([(0, S("AS")), (1, S("7H")), (2, S("KS"))], "H") == 1
    assert trick_winner([(0, S("AS")), (1, S("7H")), (2, S("8H"))], "H") == 2
    assert trick_winner([(0, S("9H")), (1, S("AS")), (2, S("TH"))], "H") == 2
    assert trick_winner([(1, S("9C")), (2, S("AD")), (0, S("TC"))], "H") == 0
    with pytest.raises(ValueError):
        trick_winner([], "H")


# --- R4.12 illegal actions ------------------------------------------------------------------------------


def test_R4_12_illegal_actions_refused_with_the_rule_and_nothing_changes():
    h = make_hand(T, TIE, "7H")
    refused(h, "p2 pl AS", "R4.5", "declare")
    refused(h, "p2 gr", "R4.5")
    refused(h, "p2 t3", "R4.5")
    refused(h, "p7 in", "R4.12")
    refused(h, "p2 sing", "R4.12")
    refused(h, "p2 pl ZZ", "R4.12")
    play(h, "p2 in; p3 in; p1 in")
    refused(h, "p2 in", "R4.9")
    refused(h, "p3 pl 7S", "R4.10", "turn")
    refused(h, "p2 pl 7S", "R4.10", "does not hold")
    h.apply("p2 pl AS")
    refused(h, "p3 pl AC", "R4.10", "must follow suit")
    play(h, "p3 pl 7S; p1 pl 8S")
    assert len(h.tricks) == 1
    # a seat that is not seated in this hand
    h2 = make_hand(
        T, {"p1": SWEEP["p1"], "p3": SWEEP["p3"], "p4": SWEEP["p2"]}, "7H", stacks=[20, 0, 20, 20], seated=[0, 2, 3]
    )
    refused(h2, "p2 in", "R3.5", "not seated")


def test_R4_12_actions_after_the_hand_is_over_are_refused():
    h = play(make_hand(T, SWEEP, "7H"), "p2 in; p3 out; p1 out")
    before = h.fingerprint()
    with pytest.raises(IllegalActionError):
        h.apply("p1 in")
    assert h.fingerprint() == before and h.legal_actions() == []


def test_R4_12_why_illegal_and_is_legal_do_not_change_state():
    h = in_all(make_hand(T, TIE, "7H"))
    before = h.fingerprint()
    assert h.why_illegal(Action.parse("p3 pl 7S")).rule == "R4.10"
    assert h.is_legal(Action.parse("p2 pl AS"))
    assert h.fingerprint() == before


def test_copy_is_independent():
    h = in_all(make_hand(T, TIE, "7H"))
    c = h.copy()
    c.apply("p2 pl AS")
    assert h.current == [] and h.to_act == 1 and Card.parse("AS") in h.hands[1]
    assert len(c.current) == 1


# --- R7 what each player may know (D-16) ---------------------------------------------------------------


def _obs_cards(obs) -> set[str]:
    return {str(c) for c in walk_cards(obs)}


def test_R7_D16_observation_hides_other_seats_folded_hands_and_stock():
    h = Hand.from_deck(T, [20] * 3, 0, PIQUET, 16)
    stock = {str(c) for c in h.stock}
    h.apply("p2 out")
    p2_folded = {str(c) for c in h.hands[1]}
    play(h, "p3 in; p1 in")
    # play to the end with the first legal action
    while not h.is_over:
        for seat in range(3):
            obs = h.observe(seat)
            seen = _obs_cards(obs)
            others = {str(c) for s in range(3) if s != seat for c in h.hands[s]}
            assert not seen & others, (seat, seen & others)
            assert not seen & stock
            assert {str(c) for c in obs.cards} == {str(c) for c in h.hands[seat]}
        h.apply(h.legal_actions()[0])
    # D-16: not after the hand either
    for seat in (0, 2):
        seen = _obs_cards(h.observe(seat))
        assert not seen & p2_folded and not seen & stock
    assert h.observe(0).turn_up == Card.parse("7C")  # the turn-up is seen by all
    assert h.observe(1).cards_left[1] in (0, 5)


def test_R7_observation_shows_public_facts():
    h = in_all(make_hand(T, TIE, "7H"))
    play(h, "p2 pl AS; p3 pl 7S")
    obs = h.observe(0)
    assert obs.current == ((1, Card.parse("AS")), (2, Card.parse("7S")))
    assert obs.stacks == (19, 19, 19) and obs.pot == 3 and obs.trump == "H"
    assert obs.cards_left == (5, 4, 4)
    assert set(strs(obs.legal)) == {"p1 pl 8S", "p1 pl TS"}
    assert h.observe(1).legal == ()
    with pytest.raises(ValueError):
        h.observe(3)
