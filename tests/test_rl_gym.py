"""The Gymnasium environment (issue #5): Gymnasium's checker plus ours (R4.12, R5, R7)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from ramsli.errors import IllegalActionError  # noqa: E402
from ramsli.rl import encoding as enc  # noqa: E402
from ramsli.rl.gym_env import ENV_ID, RamsliEnv  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 3},
        {"players": 2, "preset": "general-rams", "seat": 1},
        {"players": 5, "preset": "nap", "opponents": "rules", "dealer": 4},
        {"players": 4, "preset": "joker", "opponents": ["random", "rules", "random"], "illegal_penalty": 0.5},
    ],
)
def test_gymnasium_check_env(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(RamsliEnv(**kwargs), skip_render_check=True)


def test_make_by_id():
    e = gym.make(ENV_ID, players=3, opponents="random")
    obs, info = e.reset(seed=1)
    assert obs.shape == (enc.tensor_size(3, False),)
    e.close()


def _episode(e, seed, rng):
    obs, info = e.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert e.observation_space.contains(obs)
        assert np.array_equal(e.action_masks(), info["action_mask"].astype(bool))
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = e.step(a)
        total += r
        steps += 1
        assert not trunc
        if term:
            return total, steps


def test_reward_is_the_stack_change_of_the_agent_seat():
    e = RamsliEnv(players=4, seat=2, opponents="random", preset="pot-bete")
    rng = np.random.default_rng(0)
    for seed in range(8):
        total, _ = _episode(e, seed, rng)
        h = e.hand
        assert total == h.stacks[2] - 20
        assert h.total() == 80  # R3.4
        assert not e.action_masks().any()


def test_same_seed_same_episode():
    a, b = RamsliEnv(players=3), RamsliEnv(players=3)
    ra, rb = np.random.default_rng(1), np.random.default_rng(1)
    for seed in (3, 4):
        assert _episode(a, seed, ra) == _episode(b, seed, rb)
        assert a.hand.history == b.hand.history


def test_illegal_action_penalty_changes_nothing():
    e = RamsliEnv(players=3, illegal_penalty=2.5)
    obs, info = e.reset(seed=2)
    before = e.hand.fingerprint()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, r, term, trunc, info2 = e.step(illegal)
    assert r == -2.5 and not term and not trunc
    assert "R4." in info2["illegal"]
    assert e.hand.fingerprint() == before and np.array_equal(obs, obs2)


def test_illegal_action_raise():
    e = RamsliEnv(players=3, illegal_action="raise")
    obs, info = e.reset(seed=2)
    before = e.hand.fingerprint()
    with pytest.raises(IllegalActionError):
        e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert e.hand.fingerprint() == before


def test_step_after_end_and_bad_arguments():
    e = RamsliEnv(players=2)
    _episode(e, 0, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(ValueError, match="opponent"):
        RamsliEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        RamsliEnv(players=3, opponents="nobody")
    with pytest.raises(ValueError, match="illegal_action"):
        RamsliEnv(illegal_action="ignore")


def test_render_hides_other_cards():
    e = RamsliEnv(players=3, render_mode="ansi")
    e.reset(seed=9)
    text = e.render()
    others = {str(c) for s in (1, 2) for c in e.hand.hands[s]}
    own = {str(c) for c in e.hand.hands[0]}
    words = set(text.replace("|", " ").split())
    assert own <= words and not (others & words)
