"""Bad input to the engine's API is refused clearly and changes nothing (R4.12, R3.3, R3.4, R4.8).

Regression tests for what an adversarial tester found: targets outside 2..5
slipping through, float or negative pots and stacks, non-Action objects.
"""

import random

import pytest

from ramsli import Action, Card, Hand, IllegalActionError, Rules, RulesError, Session
from ramsli.cards import parse_cards


def _nap_hand_at_targets() -> Hand:
    hands = [parse_cards("AS KS QS JS TS"), parse_cards("AH KH QH JH TH"), parse_cards("AD KD QD JD TD")]
    hand = Hand.from_cards(Rules.preset("nap"), [20, 20, 20], 0, hands, Card.parse("9C"))
    hand.apply("p2 in")
    hand.apply("p3 in")
    hand.apply("p1 in")
    return hand


@pytest.mark.parametrize("target", [0, 1, -1, 6, 100, 3.0, True, None, "3"])
def test_R4_8_target_outside_2_to_5_is_refused_and_changes_nothing(target):
    hand = _nap_hand_at_targets()
    before = hand.fingerprint()
    bogus = object.__new__(Action)  # bypasses the constructor's own check on purpose
    for name, value in (
        ("seat", hand.to_act),
        ("kind", "t"),
        ("card", None),
        ("target", target),
        ("_text", f"p{hand.to_act + 1} t{target}"),
    ):
        object.__setattr__(bogus, name, value)
    with pytest.raises(IllegalActionError) as e:
        hand.apply(bogus)
    assert e.value.rule == "R4.8"
    assert hand.fingerprint() == before
    assert hand.total() == 60  # R3.4


@pytest.mark.parametrize("target", [0, 1, 6, 3.0, True, None])
def test_R4_8_action_constructor_refuses_bad_targets(target):
    with pytest.raises(ValueError, match="2..5"):
        Action(0, "t", target=target)
    with pytest.raises(ValueError, match="R4.8"):
        Action.announce_target(0, target)


@pytest.mark.parametrize("thing", [None, 5, 3.5, ["p1", "in"]])
def test_R4_12_apply_refuses_non_actions(thing):
    hand = Hand.new(Rules(), [20] * 3, 0, random.Random(1))
    before = hand.fingerprint()
    with pytest.raises(IllegalActionError, match="R4.12"):
        hand.apply(thing)
    assert hand.fingerprint() == before


@pytest.mark.parametrize("pot", [-5, 1.5, True, "3"])
def test_R5_4_pot_must_be_a_whole_number_of_counters(pot):
    with pytest.raises(ValueError, match="R5.4"):
        Hand.new(Rules(), [20, 20, 20], 0, random.Random(3), pot=pot)


@pytest.mark.parametrize("stacks", [[20.5, 20, 20], [True, 20, 20], [-1, 20, 20], ["20", 20, 20]])
def test_R3_3_stacks_must_be_whole_numbers(stacks):
    with pytest.raises(ValueError, match="R3.3"):
        Hand.new(Rules(), stacks, 0, random.Random(3))


def test_R4_2_from_cards_checks_the_cut():
    hands = [parse_cards("AS KS QS JS TS"), parse_cards("AH KH QH JH TH")]
    with pytest.raises(ValueError, match="R4.2"):
        Hand.from_cards(Rules(), [20, 20], 0, hands, Card.parse("9C"), cut=0)


def test_R8_from_dict_refuses_non_tables():
    for bad in (None, [], "bete=5"):
        with pytest.raises(RulesError, match="R8"):
            Rules.from_dict(bad)


def test_R8_ascii_digits_only_on_the_command_line():
    with pytest.raises(RulesError):
        Rules().with_assignments(["players=٣"])
    with pytest.raises(RulesError):
        Rules().with_assignments(["bete=５"])
    assert Rules().with_assignments(["bete=7"]).bete == 7


def test_R3_6_one_end_condition_per_kind():
    with pytest.raises(RulesError, match="R3.6"):
        Rules(end=["hands:3", "hands:4"])


def test_session_refuses_missing_rules():
    with pytest.raises(TypeError, match="Rules"):
        Session(None, ["a", "b"])


def test_restore_refuses_inconsistent_snapshots():
    s = Session(Rules(), ["a", "b", "c"], seed=2)
    good = s.snapshot()
    assert Session.restore(good).stacks == s.stacks
    for change in ({"departed": None, "elapsed": None},):
        Session.restore({**good, **change})  # missing optional data is fine
    for change in (
        {"hands_played": -5},
        {"departed": [[9, 9]]},
        {"end_reason": "boredom"},
        {"stacks": [25, 20, 20]},
        {"dealer": 7},
    ):
        with pytest.raises(ValueError):
            Session.restore({**good, **change})


@pytest.mark.parametrize(
    "names",
    [
        ["Anna", "Bruno\x1b[31m"],
        ["Anna", "Anna"],
        ["Anna", " anna "],
        ["Anna", ""],
        ["Anna", "Bo\u202eb"],
        ["Anna", None],
    ],
)
def test_R2_2_session_refuses_bad_names(names):
    with pytest.raises(ValueError, match="R2.2"):
        Session(Rules(), names, seed=1)
