"""A hand survives pickle, copy.copy, copy.deepcopy and the RL adapters' serialization (issue 37.6).

Every state of random hands, copied *before* anything asked for its legal actions (the cache is
then empty), must list the same legal actions (R4.5-R4.10), show every seat the same observation
(R7) and play on to the same end as the hand it came from. Before the fix, the "not yet worked
out" marker of the legal plays was an empty list compared by identity: after pickle it came back
as a new empty list, and a running hand said it had no legal action while ``apply`` still took one.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramsli import testing
from ramsli.cards import SUITS
from ramsli.hand import Hand, Phase
from ramsli.rules import PRESETS, Rules

PRESET_NAMES = list(PRESETS)
SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: name -> a way to copy a hand; every pickle protocol, since protocols 0 and 1 take another path
COPIES: dict[str, Callable[[Hand], Hand]] = {
    **{
        f"pickle{p}": (lambda h, p=p: pickle.loads(pickle.dumps(h, protocol=p)))
        for p in range(pickle.HIGHEST_PROTOCOL + 1)
    },
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "Hand.copy": Hand.copy,
}


def _random_hand(seed: int, preset: str, n: int) -> tuple[Hand, random.Random]:
    rng = random.Random(seed)
    rules = testing.random_rules(rng, preset, vary=0.3)
    stacks = [rng.choice([rules.ante, rules.ante + 2, 20]) for _ in range(n)]
    return Hand.new(rules, stacks, rng.randrange(n), random.Random(seed + 1), pot=rng.choice([0, 3])), rng


def _same(copied: Hand, hand: Hand, how: str) -> None:
    """``copied`` is ``hand`` for every caller: state, legal actions (R4.5-R4.10), observations (R7)."""
    assert copied.fingerprint() == hand.fingerprint(), how
    legal = hand.legal_actions()
    assert copied.legal_actions() == legal, how
    assert not legal or not hand.is_over  # never empty while running (R4.10), so a lost cache shows
    for action in legal:
        assert copied.why_illegal(action) is None and copied.is_legal(action), (how, action)
    assert copied.legal_cards() == hand.legal_cards(), how
    for seat in hand.seated:
        assert copied.observe(seat) == hand.observe(seat), (how, seat)


@SOME
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 6))
def test_every_state_survives_pickle_and_copies(seed, preset, n):
    hand, rng = _random_hand(seed, preset, n)
    while True:
        copies = {how: make(hand) for how, make in COPIES.items()}  # legal actions not asked yet
        for how, copied in copies.items():
            _same(copied, hand, how)
        if hand.is_over:
            break
        action = rng.choice(hand.legal_actions())
        for how, copied in copies.items():
            copied.apply(action)  # the copy plays on as the hand does
            hand_next = copy.copy(hand)
            hand_next.apply(action)
            assert copied.fingerprint() == hand_next.fingerprint(), how
        hand.apply(action)


def test_a_pickled_hand_in_the_play_has_its_legal_plays_and_plays_suits_by_the_rules():
    """The regression itself: a hand pickled in the play phase before its legal plays were
    asked; the trump and led suit come back as the interned suits (R4.10 follows suit by them)."""
    for seed in range(40):
        hand = Hand.new(Rules(compulsory=True), [20] * 3, dealer=0, seed=seed)
        rng = random.Random(seed)
        while not hand.is_over:
            if hand.phase is Phase.PLAY and hand.current:
                back = pickle.loads(pickle.dumps(hand))
                assert back.legal_actions() != []
                assert back.legal_actions() == hand.legal_actions()
                assert back.trump is next(s for s in SUITS if s == hand.trump)
                assert back._led is next(s for s in SUITS if s == hand._led)
            hand.apply(rng.choice(hand.legal_actions()))


def test_a_hand_state_that_is_not_one_is_refused():
    hand = Hand.new(Rules(), [20] * 3, dealer=0, seed=1)
    state = hand.__getstate__()
    assert "_legal" not in state and "trump" in state
    blank = object.__new__(Hand)
    with pytest.raises(ValueError, match="missing \\['trump'\\]"):
        blank.__setstate__({k: v for k, v in state.items() if k != "trump"})
    with pytest.raises(ValueError, match="unknown \\['nonsense'\\]"):
        blank.__setstate__({**state, "nonsense": 1})


# -- the adapters ---------------------------------------------------------------------------


@SOME
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 6))
def test_openspiel_states_survive_serialize_and_pickle(seed, preset, n):
    pyspiel = pytest.importorskip("pyspiel")
    from ramsli.rl import openspiel_game as og

    game = pyspiel.load_game(og.GAME_NAME, {"players": n, "preset": preset})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while True:
        text = pyspiel.serialize_game_and_state(game, state)  # before anything asked the state
        copies = {
            "serialize": pyspiel.deserialize_game_and_state(text)[1],
            "pickle": pickle.loads(pickle.dumps(state)),
            "clone": state.clone(),
        }
        for how, other in copies.items():
            assert other.history() == state.history(), how
            assert other.current_player() == state.current_player(), how
            assert other.legal_actions() == state.legal_actions(), how
            if state.is_chance_node() or state.is_terminal():
                continue
            assert state.legal_actions(), "a running hand always has a legal action (R4.10)"
            for seat in range(n):
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat), (how, seat)
                assert other.observation_tensor(seat) == state.observation_tensor(seat), (how, seat)
                assert other.information_state_string(seat) == state.information_state_string(seat), (how, seat)
                assert other.observation_string(seat) == state.observation_string(seat), (how, seat)
        if state.is_terminal():
            assert all(other.returns() == state.returns() for other in copies.values())
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_gym_env_survives_pickle_and_deepcopy():
    pytest.importorskip("gymnasium")
    import numpy as np

    from ramsli.rl.gym_env import RamsliEnv

    for seed in range(15):
        env = RamsliEnv(players=3)
        env.reset(seed=seed)
        done = False
        while not done:
            for how, other in (("pickle", pickle.loads(pickle.dumps(env))), ("deepcopy", copy.deepcopy(env))):
                assert np.array_equal(other.action_masks(), env.action_masks()), how
                assert np.array_equal(other._obs(), env._obs()), how
            mask = env.action_masks()
            assert mask.any()
            _, _, done, _, _ = env.step(int(np.flatnonzero(mask)[seed % int(mask.sum())]))


def test_pettingzoo_env_survives_pickle_and_deepcopy():
    pytest.importorskip("pettingzoo")
    import numpy as np

    from ramsli.rl.pettingzoo_env import RamsliAECEnv

    for seed in range(15):
        env = RamsliAECEnv(players=3)
        env.reset(seed=seed)
        while env.agents and not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            agent = env.agent_selection
            for how, other in (("pickle", pickle.loads(pickle.dumps(env))), ("deepcopy", copy.deepcopy(env))):
                assert other.agent_selection == agent, how
                for a in env.agents:
                    mine, theirs = env.observe(a), other.observe(a)
                    assert mine.keys() == theirs.keys(), how
                    assert all(np.array_equal(mine[k], theirs[k]) for k in mine), (how, a)
            mask = env.observe(agent)["action_mask"]
            assert mask.any()
            env.step(int(np.flatnonzero(mask)[seed % int(mask.sum())]))
