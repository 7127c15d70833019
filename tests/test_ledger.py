"""The pub ledger's engine part (issue 16, ``ramsli.ledger``): it settles exactly as the engine
does (R5 through ``settle`` and ``Session``'s bookkeeping, R3), refuses wrong entries with the
rule (R3.5, R4.5-R4.9) and changes nothing then, and an edit of an earlier hand settles every
later hand again, conserving counters (R3.4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramsli import testing
from ramsli.ledger import LedgerError, PubHand, PubLedger
from ramsli.rules import PRESETS, Rules
from ramsli.session import Session

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]


def pub_hand_of(hand) -> PubHand:
    """What a pub table would tell the ledger about an engine hand: who was in, GR, targets, tricks."""
    return PubHand(
        active=tuple(hand.active),
        tricks={s: hand.tricks_won[s] for s in hand.active},
        general_rams=hand.general_rams,
        targets=dict(hand.targets),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(list(PRESETS)),
    n=st.integers(2, 6),
    vary=st.sampled_from([0.0, 0.5, 1.0]),
    stack=st.sampled_from([2, 5, 20]),
    bust=st.sampled_from(["end", "leave"]),
)
def test_settlement_through_the_ledger_equals_the_engines(seed, preset, n, vary, stack, bust):
    """R5, R3: an engine session with random legal play and a ledger told the same declarations,
    announcements and tricks agree on every settlement, stack, pot, dealer and end."""
    rng = random.Random(seed)
    rules = testing.random_rules(rng, preset, vary=vary).replace(starting_stack=stack, bust=bust, end=["hands:12"])
    dealer = rng.randrange(n)
    session = Session(rules, NAMES[:n], seed=seed, dealer=dealer)
    book = PubLedger(rules, NAMES[:n], first_dealer=dealer)
    while not session.is_over:
        assert book.dealer == session.dealer  # R3.2
        hand = session.start_hand()
        while not hand.is_over:
            session.apply(rng.choice(hand.legal_actions()))
        entry = book.add(pub_hand_of(hand))
        assert entry.settlement == session.last.settlement
        assert book.stacks == session.stacks and book.pot == session.pot
        assert book.total() == session.bank  # R3.4
    assert book.is_over and book.end_reason == session.end_reason
    assert book.session.seated == session.seated and book.winners() == session.winners()


def _three(**options) -> PubLedger:
    return PubLedger(Rules(**options), ["Ann", "Bo", "Cy"], first_dealer=2)


def test_an_edit_settles_every_later_hand_again_and_conserves_counters():
    """R3.4, R5.4: correcting hand 1 (Ann took 5, not Bo) changes the carry-over and every later
    stack; the result equals a ledger that had the right entry from the start."""
    book = _three()
    hands = [
        PubHand((0, 1), {0: 2, 1: 2, 2: 0}),
        PubHand((0, 1, 2), {0: 2, 1: 2, 2: 1}),
        PubHand((1, 2), {1: 0, 2: 5}),
        PubHand((0, 2), {0: 3, 2: 2}),
    ]
    hands[0] = PubHand((0, 1), {0: 3, 1: 2})
    for h in hands:
        book.add(h)
    before = book.stacks, book.pot
    fixed = PubHand((0, 1), {0: 5, 1: 0})
    book.edit(1, fixed)
    fresh = _three()
    for h in [fixed] + hands[1:]:
        fresh.add(h)
    assert (book.stacks, book.pot) == (fresh.stacks, fresh.pot) != before
    assert [e.settlement for e in book.entries] == [e.settlement for e in fresh.entries]
    assert book.total() == 60 and all(sum(e.stacks_after) + e.pot_after == 60 for e in book.entries)
    assert [(e.number, e.before, e.after) for e in book.edits] == [(1, hands[0], fixed)]  # recorded, not silent
    assert book.entries[0].settlement.bete == (1,)  # Bo took nothing now: bete (R5.3)


def test_an_edit_that_breaks_a_later_hand_is_refused_and_changes_nothing():
    """R3.5: after the correction Cy would be bust before hand 2 but was dealt in there."""
    book = PubLedger(Rules(starting_stack=6, bust="leave"), ["Ann", "Bo", "Cy"], first_dealer=2)
    book.add(PubHand((0, 1), {0: 3, 1: 2}))
    book.add(PubHand((1, 2), {1: 3, 2: 2}))
    snap = book.stacks, book.pot, list(book.hands)
    with pytest.raises(LedgerError) as e:
        book.edit(1, PubHand((0, 2), {0: 5, 2: 0}))  # Cy: 6 - 1 ante - 5 bete = 0 -> bust
    assert e.value.rule == "R3.5" and e.value.hand == 2
    assert (book.stacks, book.pot, book.hands) == snap and book.edits == []


@pytest.mark.parametrize(
    "options, hand, rule, code",
    [
        ({}, PubHand((0, 1), {0: 3, 1: 1}), "R4.9", "tricks_sum"),
        ({}, PubHand((0, 1), {0: 3, 1: 1, 2: 1}), "R4.9", "out_tricks"),
        ({}, PubHand((0, 1), {0: 6, 1: -1}), "R4.9", "tricks_range"),
        ({}, PubHand((0,), {0: 5}), "R4.6", "walkover_tricks"),
        ({}, PubHand(()), "R4.5", "all_out_dealer_forced"),
        ({"compulsory": True}, PubHand((0, 1), {0: 3, 1: 2}), "R4.5", "compulsory"),
        ({}, PubHand((0, 1), {0: 5, 1: 0}, general_rams=0), "R4.7", "gr_off"),
        ({"general_rams": True}, PubHand((0, 1), {0: 5, 1: 0}, general_rams=2), "R4.7", "gr_not_active"),
        ({}, PubHand((0, 1), {0: 3, 1: 2}, targets={0: 3}), "R4.8", "targets_off"),
        ({"targets": True}, PubHand((0, 1), {0: 3, 1: 2}, targets={0: 1}), "R4.8", "target_not_offered"),
        (
            {"targets": True, "general_rams": True},
            PubHand((0, 1), {0: 5, 1: 0}, targets={0: 5}),
            "R4.8",
            "target_not_offered",
        ),
        ({"targets": True, "general_rams": True}, PubHand((0, 1), {0: 5, 1: 0}, 0, {0: 3}), "R4.8", "target_gr"),
        ({"targets": True}, PubHand((0, 1), {0: 3, 1: 2}, targets={2: 3}), "R4.8", "target_not_active"),
        ({}, PubHand((0, 7), {0: 3, 7: 2}), "R2.1", "bad_seat"),
    ],
)
def test_bad_entries_are_refused_with_the_rule_and_nothing_is_booked(options, hand, rule, code):
    book = _three(**options)
    book.add(PubHand((0, 1, 2), {0: 1, 1: 2, 2: 2}))
    snap = book.stacks, book.pot, book.dealer, len(book.entries), list(book.hands)
    with pytest.raises(LedgerError) as e:
        book.add(hand)
    assert (e.value.rule, e.value.code, e.value.hand) == (rule, code, 2)
    assert rule in str(e.value)
    assert (book.stacks, book.pot, book.dealer, len(book.entries), book.hands) == snap


def test_a_bust_player_cannot_be_dealt_in_and_the_deal_skips_the_seat():
    """R3.5 leave: Cy (1 counter left, below the ante... of 2) leaves; R3.2 the deal skips Cy."""
    book = PubLedger(Rules(starting_stack=8, ante=2, bust="leave"), ["Ann", "Bo", "Cy"], first_dealer=0)
    book.add(PubHand((1, 2), {1: 5, 2: 0}))  # Cy: 8 - 2 - 5 = 1 < 2: bust
    assert book.session.seated == [0, 1] and book.dealer == 1
    with pytest.raises(LedgerError, match=r"R3\.5") as e:
        book.add(PubHand((0, 2), {0: 3, 2: 2}))
    assert e.value.code == "bust_in"


def test_thrown_in_without_dealer_forced_carries_the_pot_and_the_end_stops_the_book():
    """D-10, R5.4, R3.6, R3.7: everyone out carries the antes; ``end`` makes standings final."""
    book = _three(dealer_forced=False)
    book.add(PubHand(()))
    assert book.pot == 3 and book.entries[0].settlement.kind == "thrown-in"
    book.add(PubHand((0, 1), {0: 3, 1: 2}))
    assert book.stacks == [24, 18, 18] and book.pot == 0
    book.end()
    assert book.is_over and book.end_reason == "quit"
    assert [r["name"] for r in book.standings()][0] == "Ann" and book.standings()[0]["winner"]
    with pytest.raises(LedgerError) as e:
        book.add(PubHand((0, 1), {0: 3, 1: 2}))
    assert e.value.rule == "R3.6"


def test_pub_hand_round_trips_and_malformed_entries_are_refused():
    h = PubHand((0, 2), {0: 4, 2: 1}, general_rams=None, targets={0: 3}, elapsed=12.5)
    assert PubHand.from_dict(h.to_dict()) == h
    with pytest.raises(LedgerError) as e:
        PubHand.from_dict({"active": [0, "x"]})
    assert e.value.code == "bad_entry"
    assert Rules(targets=True).largest_target == 5
