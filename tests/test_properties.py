"""Property tests (hypothesis) over random seeds, all nine presets of R6, 2-6 players and random
legal play. The invariants are those of :mod:`ramsli.testing` (see :func:`ramsli.testing.check_hand`),
which ``bench/soak.py`` runs too:

- R3.4 conservation after every action, for hands and whole sessions (also with ``bust = leave``);
- every card is in exactly one place (hands, tricks, current trick, turn-up, turned aside, stock);
- the player to act always has a legal action, and every listed action is legal;
- five tricks are played whenever two or more are in (R4.9);
- R4.10/R4.11/R5 agree with a reference written again from RULES.md;
- a refused action changes nothing (R4.12);
- observations never contain another seat's cards or the stock (R7, D-16);
- hand histories round-trip exactly (once ``ramsli.history`` exists).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramsli import testing
from ramsli.errors import IllegalActionError
from ramsli.hand import Action, Hand
from ramsli.rules import PRESETS
from ramsli.session import Session

PRESET_NAMES = list(PRESETS)
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MEDIUM = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]


def random_hand(seed: int, preset: str, n: int, vary: bool) -> tuple[Hand, int, random.Random]:
    rng = random.Random(seed)
    rules = testing.random_rules(rng, preset, vary=0.3 if vary else 0.0)
    stacks = [rng.choice([rules.ante, rules.ante + 2, 20]) for _ in range(n)]
    pot = rng.choice([0, 3])
    dealer = rng.randrange(n)
    hand = Hand.new(rules, stacks, dealer, random.Random(seed + 1), pot=pot)
    return hand, sum(stacks) + pot, rng


@FAST
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 6), vary=st.booleans())
def test_hand_invariants_after_every_action(seed, preset, n, vary):
    hand, bank, rng = random_hand(seed, preset, n, vary)
    violations = testing.play_random_hand(hand, rng, bank, wrong=0.5, observe="all")
    assert violations == []
    assert hand.is_over and hand.total() == bank


@FAST
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 6))
def test_hand_choices_drawn_by_hypothesis(data, seed, preset, n):
    """The same invariants, with every choice (legal action, wrong action) drawn by hypothesis."""
    hand, bank, _ = random_hand(seed, preset, n, vary=False)
    while True:
        assert testing.check_hand(hand, bank, observe="acting") == []
        if hand.is_over:
            break
        legal = hand.legal_actions()
        # a wrong action: seat, kind, card drawn by hypothesis; it must be refused and change nothing
        seat = data.draw(st.integers(0, n - 1), label="wrong seat")
        kind = data.draw(st.sampled_from(["in", "out", "gr", "pass", "t2", "t5", "pl"]), label="wrong kind")
        if kind == "pl":
            deck = sorted({c for h in hand.hands for c in h} | {hand.turn_up}, key=lambda c: c.index)
            action = Action.play(seat, data.draw(st.sampled_from(deck), label="wrong card"))
        else:
            action = Action.parse(f"p{seat + 1} {kind}")
        if action not in legal:
            before = hand.fingerprint()
            with pytest.raises(IllegalActionError) as e:
                hand.apply(action)
            assert e.value.rule.startswith(("R", "D-"))
            assert hand.fingerprint() == before and hand.total() == bank
        hand.apply(data.draw(st.sampled_from(legal), label="action"))
    assert len(hand.tricks) == (5 if len(hand.active) >= 2 else 0)


@MEDIUM
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(PRESET_NAMES),
    n=st.integers(2, 6),
    bust=st.sampled_from(["end", "leave"]),
    stack=st.sampled_from([1, 2, 3, 6, 20]),
    hands=st.integers(1, 12),
)
def test_session_conservation_and_bust(seed, preset, n, bust, stack, hands):
    rng = random.Random(seed)
    rules = testing.random_rules(rng, preset).replace(starting_stack=stack, bust=bust, end=[f"hands:{hands}"])
    s = Session(rules, NAMES[:n], seed=seed)
    floor = max(rules.ante, 1)
    gone: set[int] = set()
    while not s.is_over:
        assert all(s.stacks[x] >= floor for x in s.seated)  # R3.5: nobody bust is dealt in
        assert s.dealer in s.seated
        hand = s.start_hand()
        assert not set(hand.seated) & gone
        v = testing.play_random_hand(
            hand,
            rng,
            s.bank,
            apply=s.apply,
            wrong=0.2,
            observe="acting",
            after=lambda: [] if s.total() == s.bank else [f"R3.4 {s.total()}"],
        )
        assert v == []
        gone.update(s.results[-1].left)
        if not s.is_over:  # R3.2, R3.5: the deal passes to the next remaining seat clockwise
            assert s.dealer == next(x for x in ((hand.dealer + k) % n for k in range(1, n + 1)) if x in s.seated)
    assert s.total() == s.bank
    assert len(s.results) <= hands
    if s.end_reason == "hands":
        assert len(s.results) == hands
    elif s.end_reason == "players":
        assert bust == "leave" and len(s.seated) < 2
    else:
        assert s.end_reason == "bust" and bust == "end"
    top = max(s.stacks)
    assert s.winners() == [i for i, v in enumerate(s.stacks) if v == top]  # R3.7


@FAST
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 6))
def test_copy_is_independent_and_equal(seed, preset, n):
    hand, bank, rng = random_hand(seed, preset, n, vary=True)
    while not hand.is_over:
        c = hand.copy()
        assert c.fingerprint() == hand.fingerprint()
        legal = hand.legal_actions()
        a = legal[rng.randrange(len(legal))]
        c.apply(a)
        assert c.fingerprint() != hand.fingerprint()
        hand.apply(a)
        assert c.fingerprint() == hand.fingerprint()


@MEDIUM
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 6))
def test_history_roundtrip(seed, preset, n):
    history = pytest.importorskip("ramsli.history")
    hand, bank, rng = random_hand(seed, preset, n, vary=True)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    names = NAMES[:n]
    text = history.HandHistory.from_hand(hand, names).to_toml()
    again = history.HandHistory.from_toml(text)
    assert again.to_toml() == text  # write -> read -> write is byte-identical
    replayed = again.replay()
    assert [str(a) for a in replayed.history] == [str(a) for a in hand.history]
    assert list(replayed.stacks) == list(hand.stacks) and replayed.pot == hand.pot
    assert tuple(replayed.settlement.stacks_after) == tuple(hand.settlement.stacks_after)
    assert replayed.settlement.carry_over == hand.settlement.carry_over
    assert replayed.total() == bank
