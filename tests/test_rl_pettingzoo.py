"""The PettingZoo AEC environment (issue #5): PettingZoo's own checks plus ours (R3, R7)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from ramsli.errors import IllegalActionError, TableError
from ramsli.rl import encoding as enc
from ramsli.rl.pettingzoo_env import RamsliAECEnv, env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 3},
        {"players": 2, "preset": "compulsory"},
        {"players": 6, "preset": "nap", "rules": "general_rams=true"},
        {"players": 4, "preset": "joker", "episode": "session", "max_hands": 6},
        {"players": 3, "episode": "session", "rules": "bust=leave;starting_stack=3"},
    ],
)
def test_pettingzoo_api_test(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(RamsliAECEnv(**kwargs), num_cycles=300)
        api_test(env(**kwargs), num_cycles=100)


@pytest.mark.parametrize("episode", ["hand", "session"])
def test_pettingzoo_seed_test(episode):
    seed_test(lambda: RamsliAECEnv(players=4, episode=episode, max_hands=4), num_cycles=200)


def _run(e, seed, rng):
    e.reset(seed=seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(10_000):
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["observation"].shape == (enc.tensor_size(e.n, False),)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        # only the agent to act has a non-empty mask
        for other in e.agents:
            if other != agent:
                assert e.observe(other)["action_mask"].sum() == 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_hand_rewards_are_counters_won_or_lost():
    e = RamsliAECEnv(players=4, preset="double-penalty")
    rng = np.random.default_rng(0)
    for seed in range(5):
        totals = _run(e, seed, rng)
        h = e.hand
        assert totals == {f"p{s + 1}": float(h.stacks[s] - 20) for s in range(4)}
        assert sum(totals.values()) == -h.pot  # R3.4: the rest is in the pot
        assert e.agents == []


def test_session_episode_conserves_counters_and_drops_bust_seats():
    e = RamsliAECEnv(players=4, episode="session", rules="bust=leave;starting_stack=6;bete=5")
    rng = np.random.default_rng(1)
    totals = _run(e, 3, rng)
    sess = e.session
    assert sess.is_over and sess.end_reason == "players"
    assert sess.departed  # some seats left (R3.5)
    assert totals == {f"p{s + 1}": float(sess.stacks[s] - 6) for s in range(4)}
    assert sess.total() == 24


def test_session_truncation():
    e = RamsliAECEnv(players=3, episode="session", max_hands=2)
    rng = np.random.default_rng(2)
    e.reset(seed=1)
    truncated = False
    for _agent in e.agent_iter(5000):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            truncated |= trunc
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert truncated and e.hands_played == 2 and len(e.session.results) == 2


def test_illegal_action_raises_and_changes_nothing():
    e = RamsliAECEnv(players=3)
    e.reset(seed=5)
    before = e.hand.fingerprint()
    with pytest.raises(IllegalActionError) as err:
        e.step(enc.PLAY_BASE)  # a card play while declaring
    assert err.value.rule == "R4.5"
    assert e.hand.fingerprint() == before


def test_bad_arguments():
    with pytest.raises(TableError, match="allowed are 2 to 6") as e:  # the engine's check_setup
        RamsliAECEnv(players=1)
    assert e.value.refusal.code == "seat_count"
    with pytest.raises(TableError) as e:
        RamsliAECEnv(players=3, rules="players=4")
    assert e.value.refusal.code == "players_mismatch"
    with pytest.raises(ValueError, match="episode"):
        RamsliAECEnv(episode="match")
