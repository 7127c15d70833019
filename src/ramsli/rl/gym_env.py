"""Ramsli as a single-agent Gymnasium environment (needs ``pip install ramsli[rl]``).

The agent plays one seat; ramsli bots (:func:`ramsli.bots.make_bot`, default
``"random"``) play the others, seeing only their own observations (R7). One
episode is one hand (R4, R5) from equal stacks (the rules' ``starting_stack``)
and an empty pot; the dealer is drawn with the seed unless given.

- Observation: float32 vector of :func:`ramsli.rl.encoding.tensor_size`
  ``(N, False)`` entries (557 for N=3) in ``[0, 1]``: the observation layout of
  :mod:`ramsli.rl.encoding`, from the agent's seat only (R7).
- Action: ``Discrete(62)``, the ids of :mod:`ramsli.rl.encoding`. The legal ids
  are in ``info["action_mask"]`` (int8, 62) after ``reset`` and every ``step``,
  and from :meth:`RamsliEnv.action_masks` (the name sb3-contrib's MaskablePPO uses).
- Reward: 0 until the hand ends, then the counters the agent's seat won or lost
  in the hand (stack after settlement minus stack before the ante).
- Illegal action (R4.12): with ``illegal_action="penalty"`` (default) nothing
  changes, the reward is ``-illegal_penalty`` (counters, default 1.0), the episode
  goes on and ``info["illegal"]`` holds the reason with its rule id; with
  ``illegal_action="raise"`` :class:`~ramsli.errors.IllegalActionError` is raised
  and nothing changes.

>>> env = RamsliEnv(players=3, opponents="random")
>>> obs, info = env.reset(seed=4)
>>> obs.shape, info["action_mask"].dtype.name
((557,), 'int8')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ramsli.bots import Bot, make_bot
from ramsli.errors import IllegalActionError
from ramsli.hand import Hand
from ramsli.rl.encoding import (
    NUM_ACTIONS,
    action_mask,
    encode,
    id_to_action,
    observation_string,
    rules_from_text,
    tensor_size,
)
from ramsli.rules import Rules
from ramsli.session import check_setup

__all__ = ["RamsliEnv", "ENV_ID"]


class RamsliEnv(gym.Env):
    """One seat of Ramsli against ramsli bots (see the module docstring).

    Args:
        players: seats, 2..6 (R2.1).
        seat: the agent's seat, 0-based.
        opponents: one bot spec for every other seat (e.g. ``"random"``,
            ``"montecarlo:samples=32"``) or one spec per other seat, clockwise from the
            agent's left.
        preset: a preset of R6; rules: a :class:`~ramsli.rules.Rules` or options
            ``"key=value;key=value"`` on top of ``preset`` (R8).
        dealer: the dealer's seat, or None to draw it with the seed every reset.
        illegal_action: ``"penalty"`` or ``"raise"``; illegal_penalty: counters.
        render_mode: None or ``"ansi"``.

    Raises:
        TableError: (a ``ValueError``) from :func:`ramsli.session.check_setup`: players outside
            2..6 or unlike the option ``players`` (R2.1), an ante above the starting stack (R3.5).
        ValueError: for a bad seat, dealer, opponent list, ``illegal_action`` or bot spec;
            RulesError for bad rules.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        players: int = 3,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        preset: str = "traditional",
        rules: str | Rules | None = None,
        dealer: int | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules if isinstance(rules, Rules) else rules_from_text(preset, rules or "")
        check_setup(self.rules, players)
        if not 0 <= seat < players:
            raise ValueError(f"seat={seat}: allowed are 0..{players - 1}")
        if dealer is not None and not 0 <= dealer < players:
            raise ValueError(f"dealer={dealer}: allowed are 0..{players - 1} or None")
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: allowed are 'penalty', 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: allowed are None, 'ansi'")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{len(specs)} opponent specs given; {players - 1} needed (one per other seat)")
        for spec in specs:
            make_bot(spec, seed=0)  # validates the spec now (ValueError lists the bot names)
        self.n = players
        self.seat = seat
        self.opponent_specs = specs
        self.fixed_dealer = dealer
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (tensor_size(players, False),), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random()
        self.hand: Hand | None = None
        self.bots: dict[int, Bot] = {}

    # -- gymnasium API -------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Deal a new hand and let the bots act until it is the agent's turn.

        Returns:
            ``(observation, info)``; ``info["action_mask"]`` is the legal-action mask.
        """
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        elif self.hand is None:
            self._rng = random.Random(int(self.np_random.integers(2**62)))
        others = [(self.seat + k) % self.n for k in range(1, self.n)]
        self.bots = {s: make_bot(spec, seed=self._rng.getrandbits(62)) for s, spec in zip(others, self.opponent_specs)}
        dealer = self.fixed_dealer if self.fixed_dealer is not None else self._rng.randrange(self.n)
        self.hand = Hand.new(self.rules, [self.rules.starting_stack] * self.n, dealer=dealer, rng=self._rng)
        self._run_bots()
        return self._obs(), self._info()

    def step(self, action: int):
        """Apply the agent's action id, then the bots' actions until the agent's turn or the end.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            IllegalActionError: for an illegal action with ``illegal_action="raise"`` (R4.12).
            RuntimeError: if the hand is over (call reset).
        """
        h = self.hand
        if h is None or h.is_over:
            raise RuntimeError("the hand is over: call reset() first")
        act = id_to_action(action, self.seat)
        why = h.why_illegal(act)
        if why is not None:
            if self.illegal_action == "raise":
                raise IllegalActionError(str(act), why)
            info = self._info()
            info["illegal"] = f"{act}: {why}"
            return self._obs(), -self.illegal_penalty, False, False, info
        h.apply(act)
        self._run_bots()
        reward = 0.0
        if h.is_over:
            reward = float(h.stacks[self.seat] - h.start_stacks[self.seat])
        return self._obs(), reward, h.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (bool, 62) of the agent now (all False when the hand is over)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The table from the agent's seat (ansi text, R7: no hidden card)."""
        if self.render_mode != "ansi" or self.hand is None:
            return None
        return observation_string(self.hand.observe(self.seat), perfect_recall=True)

    # -- internals -------------------------------------------------------------------

    def _current(self) -> Hand:
        if self.hand is None:
            raise RuntimeError("no hand yet: call reset() first")
        return self.hand

    def _run_bots(self) -> None:
        h = self._current()
        while (s := h.to_act) is not None and s != self.seat:  # None: the hand is over
            h.apply(self.bots[s].act(h.observe(s)))

    def _mask(self) -> np.ndarray:
        h = self._current()
        if h.is_over or h.to_act != self.seat:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return action_mask(h.legal_actions())

    def _obs(self) -> np.ndarray:
        return encode(self._current().observe(self.seat))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}


ENV_ID = "ramsli/Ramsli-v0"
if ENV_ID not in gym.registry:
    #: ``gymnasium.make("ramsli/Ramsli-v0", players=4, opponents="random")`` after importing this module
    gym.register(id=ENV_ID, entry_point="ramsli.rl.gym_env:RamsliEnv")
