"""R3 the session: first dealer (R3.1, D-4), rotation (R3.2), stacks (R3.3, D-5, D-6),
conservation (R3.4), bust (R3.5, D-7), other ends (R3.6, D-8), winner (R3.7, D-18)."""

from __future__ import annotations

import random

import pytest

from ramsli.cards import Card, make_deck
from ramsli.errors import SessionError
from ramsli.rules import Rules
from ramsli.session import Session, first_dealer_cut

from helpers import SWEEP, SWEEP_PLAY, TIE, TIE_PLAY, cards

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]


def deck_for(deal: dict[str, str], turn_up: str, dealer: int, n: int, rules: Rules = Rules()) -> tuple[list, int]:
    """A deck and cut (1) that deal exactly ``deal`` with ``turn_up`` (R4.2, R4.3 3+2)."""
    order = [(dealer + k) % n for k in range(1, n + 1)]
    hands = {s: cards(deal[f"p{s + 1}"]) for s in order}
    first = rules.first_batch
    after: list[Card] = []
    for s in order:
        after += hands[s][:first]
    for s in order:
        after += hands[s][first:]
    after.append(Card.parse(turn_up))
    after += [c for c in make_deck(rules.deck, rules.jokers) if c not in after]
    return after[-1:] + after[:-1], 1


def session_play(s: Session, actions: str) -> None:
    for a in actions.replace("\n", ";").split(";"):
        if a.strip():
            s.apply(a.strip())
            assert s.total() == s.bank  # R3.4 after every action


def random_finish(s: Session, rng: random.Random) -> None:
    while s.hand is not None and not s.hand.is_over:
        legal = s.hand.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        assert s.total() == s.bank


# --- R3.1 first dealer (D-4) ---------------------------------------------------------------------------


def test_R3_1_D4_first_dealer_by_high_card_cut_ties_draw_again_among_themselves():
    tied_seen = 0
    for seed in range(200):
        s = Session(Rules.preset("joker"), NAMES, seed=seed)
        rounds = s.cut_rounds
        contenders = list(range(6))
        for i, draws in enumerate(rounds):
            assert [seat for seat, _ in draws] == contenders  # only the tied draw again
            assert not any(c.is_joker for _, c in draws)  # jokers removed
            assert len({c for _, c in draws}) == len(draws)
            top = max(c.rank for _, c in draws)
            contenders = [seat for seat, c in draws if c.rank == top]
            if i < len(rounds) - 1:
                assert len(contenders) >= 2
        assert contenders == [s.dealer]  # the highest rank deals
        tied_seen += len(rounds) > 1
    assert tied_seen > 10  # ties happen often with six players and eight ranks


def test_R3_1_first_dealer_cut_function_is_seeded():
    a = first_dealer_cut(5, random.Random(3))
    b = first_dealer_cut(5, random.Random(3))
    assert a == b and 0 <= a[0] < 5


def test_R3_1_explicit_dealer_and_bad_tables():
    assert Session(Rules(), NAMES[:3], seed=1, dealer=2).dealer == 2
    with pytest.raises(ValueError, match="R2.1"):
        Session(Rules(), NAMES[:1])
    with pytest.raises(ValueError, match="R2.1"):
        Session(Rules(), NAMES + ["Gus"])
    with pytest.raises(ValueError, match="R2.1"):
        Session(Rules(players=4), NAMES[:3])
    with pytest.raises(ValueError):
        Session(Rules(), NAMES[:3], dealer=3)


# --- R3.2 rotation, R3.3 stacks (D-5), R3.4 conservation, R5.4 carry-over ----------------------------------


def test_R3_2_deal_passes_left_and_R3_3_D5_equal_stacks_and_R5_4_carry_over():
    s = Session(Rules(end=["hands:4"]), NAMES[:3], seed=5, dealer=1)
    assert s.stacks == [20, 20, 20] and s.bank == 60 and s.pot == 0
    rng = random.Random(0)
    dealers = []
    while not s.is_over:
        pot_before = s.pot
        h = s.start_hand()
        dealers.append(h.dealer)
        assert h.carry_in == pot_before and h.pot == pot_before + 3  # R5.4 + R4.1
        random_finish(s, rng)
    assert dealers == [1, 2, 0, 1]
    assert s.end_reason == "hands" and len(s.results) == 4
    assert [e.number for e in s.results] == [1, 2, 3, 4]


def test_R3_4_session_total_during_and_between_hands():
    s = Session(Rules(), NAMES[:4], seed=2, dealer=0)
    h = s.start_hand()
    assert s.total() == 80 and h.total() == 80
    with pytest.raises(SessionError):
        s.start_hand()


def test_session_apply_without_hand_is_refused():
    s = Session(Rules(), NAMES[:3], seed=2, dealer=0)
    with pytest.raises(SessionError):
        s.apply("p2 in")


# --- R3.5 bust (D-7) ----------------------------------------------------------------------------------

FOUR = {"p2": "AS KS QS JS TS", "p3": "AD KD QD JD TD", "p4": "AC KC QC JC TC", "p1": "9D 8D 7D 9C 8C"}
FOUR_PLAY = """p2 in; p3 in; p4 in; p1 out
p2 pl AS; p3 pl TD; p4 pl TC
p2 pl KS; p3 pl JD; p4 pl JC
p2 pl QS; p3 pl QD; p4 pl QC
p2 pl JS; p3 pl KD; p4 pl KC
p2 pl TS; p3 pl AD; p4 pl AC"""


def test_R3_5_D7_bust_leave_two_players_bust_at_once():
    s = Session(Rules(starting_stack=2, bust="leave"), NAMES[:4], seed=9, dealer=0)
    deck, cut = deck_for(FOUR, "7H", 0, 4)
    s.start_hand(deck, cut)
    session_play(s, FOUR_PLAY)
    # after ante [1,1,1,1], P = 4: p2 takes 4 (5); p3, p4 owe bete 5, pay their 1 (D-6): 0; p1 out keeps 1;
    # carry 2. Stacks below max(1, 1) are bust: p3 and p4 leave together.
    assert s.stacks == [1, 5, 0, 0] and s.pot == 2
    assert s.seated == [0, 1] and s.results[0].left == (2, 3)
    assert not s.is_over
    assert s.dealer == 1  # the deal passes to the next remaining seat clockwise
    h = s.start_hand()
    assert h.seated == (0, 1) and h.order == (0, 1) and h.to_act == 0
    assert h.hands[2] == [] and h.hands[3] == []
    assert h.stacks == [0, 4, 0, 0] and h.pot == 4  # departed seats pay no ante
    random_finish(s, random.Random(1))
    assert s.total() == 8


def test_R3_5_bust_leave_ends_when_fewer_than_two_remain():
    s = Session(Rules(starting_stack=1, bust="leave"), NAMES[:3], seed=9, dealer=0)
    deck, cut = deck_for(SWEEP, "7H", 0, 3)
    s.start_hand(deck, cut)
    session_play(s, "p2 in; p3 in; p1 in;" + SWEEP_PLAY)
    # after ante [0,0,0], P = 3: p2 takes 3; p3 and p1 bete with nothing to pay: 0 -> both leave; one remains
    assert s.stacks == [0, 3, 0] and s.pot == 0
    assert s.is_over and s.end_reason == "players"
    assert s.winners() == [1]


def test_R3_5_bust_end_ends_before_the_next_hand():
    s = Session(Rules(starting_stack=2), NAMES[:4], seed=9, dealer=0)
    deck, cut = deck_for(FOUR, "7H", 0, 4)
    s.start_hand(deck, cut)
    session_play(s, FOUR_PLAY)
    assert s.is_over and s.end_reason == "bust"
    assert s.seated == [0, 1, 2, 3]
    with pytest.raises(SessionError, match="over"):
        s.start_hand()
    assert s.winners() == [1]


def test_R3_5_D7_floor_is_max_ante_1_with_ante_0():
    s = Session(Rules(starting_stack=1, ante=0), NAMES[:3], seed=9, dealer=0)
    deck, cut = deck_for(SWEEP, "7H", 0, 3)
    s.start_hand(deck, cut)
    # ante 0, P = 0; p3 and p1 pay bete 1 of 5 each: 0 counters < max(0, 1): bust
    session_play(s, "p2 in; p3 in; p1 in;" + SWEEP_PLAY)
    assert s.stacks == [0, 1, 0] and s.pot == 2
    assert s.end_reason == "bust"


def test_R3_5_D7_stack_below_the_ante_is_bust_before_any_ante():
    s = Session(Rules(starting_stack=2, ante=3), NAMES[:3], seed=1)
    assert s.is_over and s.end_reason == "bust"
    assert s.total() == 6


# --- R3.6 other ends (D-8) ---------------------------------------------------------------------------


def test_R3_6_D8_win_at():
    for n, over in ((22, True), (23, False)):
        s = Session(Rules(end=[f"win-at:{n}"]), NAMES[:3], seed=1, dealer=0)
        s.start_hand(*deck_for(SWEEP, "7H", 0, 3))
        session_play(s, "p2 in; p3 in; p1 in;" + SWEEP_PLAY)
        assert s.stacks == [14, 22, 14]
        assert s.is_over is over
        if over:
            assert s.end_reason == "win-at" and s.winners() == [1]


def test_R3_6_hands_counts_every_deal_including_thrown_in_and_walkovers():
    s = Session(Rules(dealer_forced=False, end=["hands:2"]), NAMES[:3], seed=1, dealer=0)
    s.start_hand()
    session_play(s, "p2 out; p3 out; p1 out")  # D-10 thrown in
    assert s.results[-1].settlement.kind == "thrown-in" and s.pot == 3 and not s.is_over
    s.start_hand()  # dealer p2: order p3, p1, p2
    session_play(s, "p3 in; p1 out; p2 out")  # R4.6 walkover: p3 takes 3 + 3
    assert s.results[-1].settlement.kind == "walkover"
    assert s.stacks == [18, 18, 24] and s.pot == 0
    assert s.is_over and s.end_reason == "hands"


def test_R3_6_time_with_a_fake_clock_finishes_the_hand_in_progress():
    now = [0.0]
    s = Session(Rules(end=["time:1"]), NAMES[:3], seed=4, dealer=0, clock=lambda: now[0])
    rng = random.Random(2)
    s.start_hand()
    now[0] = 30.0
    random_finish(s, rng)
    assert not s.is_over
    h = s.start_hand()
    s.apply(h.legal_actions()[0])
    now[0] = 61.0  # the time runs out during the hand: it is finished first
    assert s.hand is h and not s.is_over
    random_finish(s, rng)
    assert h.is_over and s.is_over and s.end_reason == "time" and len(s.results) == 2


def test_R3_6_no_end_by_default():
    s = Session(Rules(), NAMES[:3], seed=4, dealer=0)
    rng = random.Random(3)
    for _ in range(5):
        if s.is_over:
            break
        s.start_hand()
        random_finish(s, rng)
    assert s.end_reason in (None, "bust")


# --- R3.7 winner (D-8, D-18) -------------------------------------------------------------------------


def test_R3_7_D8_shared_win_and_D18_pot_left_unwon():
    s = Session(Rules(end=["hands:1"]), NAMES[:3], seed=1, dealer=0)
    s.start_hand(*deck_for(TIE, "7H", 0, 3))
    session_play(s, "p2 in; p3 in; p1 in;" + TIE_PLAY)
    # P = 3, p2 and p3 tie on 2 tricks: 1 each, 1 stays in the pot
    assert s.stacks == [19, 20, 20] and s.pot == 1
    assert s.is_over and s.winners() == [1, 2]
    assert s.results[-1].pot_after == 1  # D-18: the pot left on the table is reported, unwon


def test_session_quit_and_abandon_lose_nothing():
    s = Session(Rules(), NAMES[:3], seed=4, dealer=0)
    s.start_hand()
    s.apply(s.hand.legal_actions()[0])
    s.quit()
    assert s.is_over and s.end_reason == "quit" and s.total() == 60 and s.stacks == [20, 20, 20]


def test_session_same_seed_same_deals():
    a = Session(Rules(), NAMES[:4], seed=11)
    b = Session(Rules(), NAMES[:4], seed=11)
    assert a.dealer == b.dealer
    assert a.start_hand().dealt == b.start_hand().dealt


def test_R3_1_cut_uses_the_games_deck_jokers_removed():
    # R3.1: "every player draws a card from a shuffled deck (jokers removed)": with the full deck
    # (modern-52 + jokers) low ranks 2..6 can be drawn, jokers never
    ranks = set()
    for seed in range(60):
        s = Session(Rules(deck="full52", jokers=True), NAMES, seed=seed)
        for draws in s.cut_rounds:
            assert not any(c.is_joker for _, c in draws)
            ranks.update(c.rank for _, c in draws)
    assert min(ranks) < 7
