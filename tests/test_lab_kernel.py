"""The batch kernel agrees exactly with the engine (issue #6): every trick winner, every settlement."""

import numpy as np
import pytest

from ramsli.lab import kernel as K
from ramsli.lab.reference import check_agreement, check_session_agreement
from ramsli.rules import PRESETS, Rules

EXTRA = {
    "gr+targets": Rules(general_rams=True, targets=True),
    "gr-triple-pot+pot-bete": Rules(general_rams=True, bete="pot", general_rams_penalty="triple-pot"),
    "no-dealer-forced": Rules(dealer_forced=False),
    "2+3,when-trumping,jokers,52": Rules(batches="2+3", overtrump="when-trumping", jokers=True, deck="full52"),
    "targets-t,ante2,bete0": Rules(targets=True, target_bonus="t", ante=2, bete=0),
    "compulsory+gr+targets+jokers": Rules(compulsory=True, general_rams=True, targets=True, jokers=True),
}
CASES = [(name, Rules.preset(name)) for name in PRESETS] + list(EXTRA.items())


@pytest.mark.parametrize("name,rules", CASES, ids=[c[0] for c in CASES])
def test_kernel_agrees_with_engine(name, rules):
    """R4, R5: same deals, same random choices -> same trick winners, stacks, carry-over (short stacks too)."""
    for n, policy, count in (
        (5, K.RANDOM, 700),
        (3, [K.TIPS, K.RANDOM, K.TIPS], 300),
        (6, K.TIPS, 300),
        (2, K.RANDOM, 150),
    ):
        done, bad = check_agreement(rules, n, count, seed=hash(name) % 1000 + n, policy=policy)
        assert not bad, f"{name}, {n} players: first mismatch {bad[0]}"
        assert done == count


def test_sessions_agree_with_engine():
    """R3: whole kernel sessions equal engine sessions (bust end/leave, win-at, hands)."""
    for rules in (Rules(), Rules(bust="leave", end=["hands:40"]), Rules(end=["win-at:30"], general_rams=True)):
        assert check_session_agreement(rules, 4, 12, seed=3, policy=K.RANDOM) == []
        assert check_session_agreement(rules, 3, 8, seed=4, policy=K.TIPS) == []


def test_conservation_and_outputs():
    """R3.4: stacks plus carry-over equal stacks plus carry-in; outputs have sane ranges."""
    r = Rules.preset("pot-bete")
    b = K.play_batch(r, 5, 5000, seed=9, pot=3)
    assert (b.stacks.sum(1) + b.carry == b.stacks0.sum() + 3).all()
    assert (b.stacks >= 0).all()
    played = b.kind == K.KIND_PLAYED
    assert (b.tricks[played].sum(1) == 5).all()
    assert (b.tw[~played] == -1).all()


def test_stream_equals_table_and_is_reproducible():
    """The same seed gives the same hands on any batch split; stream and table modes agree."""
    r = Rules()
    a = K.play_batch(r, 4, 600, seed=5)
    b1 = K.play_batch(r, 4, 250, seed=5)
    b2 = K.play_batch(r, 4, 350, seed=5, start=250)
    assert np.array_equal(a.tw, np.concatenate([b1.tw, b2.tw]))
    decks, cuts, u = K.make_inputs(5, 0, 600, K.base_deck(r))
    t = K.play_table(r, decks, cuts, u, a.dealer.astype(np.int64), np.full((600, 4), 20), np.zeros(600, np.int64))
    assert np.array_equal(a.stacks, t.stacks) and np.array_equal(a.tw, t.tw)


def test_bad_arguments():
    with pytest.raises(ValueError, match="R2.1"):
        K.play_batch(Rules(), 7, 10)
    with pytest.raises(ValueError, match="R3.5"):
        K.play_batch(Rules(ante=5), 3, 10, stacks=[4, 20, 20])
