"""Ramsli as a PettingZoo AEC environment (needs ``pip install ramsli[rl]``).

One agent per seat: ``"p1"`` .. ``"pN"``. Each agent's observation is a dict:

- ``"observation"``: float32 vector of :func:`ramsli.rl.encoding.tensor_size`
  ``(N, False)`` entries (557 for N=3), the observation layout of
  :mod:`ramsli.rl.encoding` — only what that seat may know (R7);
- ``"action_mask"``: int8 vector of 62, 1 for each legal action id (all 0 when it
  is not that agent's turn).

Actions are ``Discrete(62)``, the ids of :mod:`ramsli.rl.encoding`. An illegal
action raises :class:`~ramsli.errors.IllegalActionError` (R4.12) and changes
nothing: sample with the mask.

``episode="hand"`` (default): one episode is one hand (R4, R5) from equal stacks
(the rules' ``starting_stack``) and an empty pot; the dealer is drawn with the
seed. Rewards: counters won or lost in the hand (stack after settlement minus
stack before the ante), given when the hand ends; then every agent is terminated.

``episode="session"``: one episode is a whole :class:`~ramsli.session.Session`
(R3): hands follow each other with the deal passing left, stacks and carry-over
kept. Each agent's reward after every hand is its change of stack over that
hand. The episode ends (all agents terminated) when the session ends (R3.5
bust, R3.6 ends given by the ``end`` option); with ``bust = "leave"`` a bust seat's
agent is terminated when it leaves. ``max_hands`` truncates every agent after
that many hands.

>>> env = RamsliAECEnv(players=3, seed=1)
>>> env.reset(seed=3)
>>> obs, reward, term, trunc, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) >= 1
((557,), True)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ramsli.hand import Hand, seat_name
from ramsli.rl.encoding import NUM_ACTIONS, action_mask, encode, id_to_action, rules_from_text, tensor_size
from ramsli.rules import Rules
from ramsli.session import Session, check_setup

__all__ = ["RamsliAECEnv", "env", "raw_env"]


class RamsliAECEnv(AECEnv):
    """PettingZoo AEC environment: one agent per seat (see the module docstring).

    Args:
        players: seats, 2..6 (R2.1).
        preset: a preset of R6.
        rules: a :class:`~ramsli.rules.Rules`, or options ``"key=value;key=value"`` on
            top of ``preset`` (R8).
        episode: ``"hand"`` or ``"session"``.
        max_hands: session mode only: truncate after this many hands (None: no limit).
        seed: default seed for the first :meth:`reset` without a seed.
        render_mode: None, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints).

    Raises:
        ValueError: for players outside 2..6 or an unknown episode kind;
            :class:`~ramsli.rules.RulesError` for bad rules.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "ramsli_v0", "is_parallelizable": False}

    def __init__(
        self,
        players: int = 3,
        preset: str = "traditional",
        rules: str | Rules | None = None,
        episode: str = "hand",
        max_hands: int | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules if isinstance(rules, Rules) else rules_from_text(preset, rules or "")
        check_setup(self.rules, players)
        if episode not in ("hand", "session"):
            raise ValueError(f"episode={episode!r}: allowed are 'hand', 'session'")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: allowed are None, 'human', 'ansi'")
        self.n = players
        self.episode = episode
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.possible_agents = [seat_name(s) for s in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = tensor_size(players, perfect_recall=False)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random(seed)
        self.hand: Hand | None = None
        self.session: Session | None = None
        self.hands_played = 0

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(62)``: the action ids of :mod:`ramsli.rl.encoding`."""
        return self.action_spaces[agent]

    # -- episode -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new hand (or session). The same ``seed`` gives the same deals."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.hands_played = 0
        if self.episode == "session":
            self.session = Session(self.rules, self.possible_agents, seed=self._rng.getrandbits(63))
            hand = self.session.start_hand()
        else:
            self.session = None
            stacks = [self.rules.starting_stack] * self.n
            hand = Hand.new(self.rules, stacks, dealer=self._rng.randrange(self.n), rng=self._rng)
        self.hand = hand
        self.agent_selection = seat_name(_to_act(hand))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (size,), "action_mask": int8 (62,)}`` for ``agent`` (R7)."""
        seat = self.agent_name_mapping[agent]
        obs = self._current().observe(seat)
        return {"observation": encode(obs), "action_mask": action_mask(obs.legal)}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action id.

        Raises:
            IllegalActionError: for an action that is not legal now (R4.12); nothing changes.
            ValueError: for a non-None action of a terminated agent.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        hand = self._current()
        act = id_to_action(action, seat)
        if self.session is not None:
            self.session.apply(act)  # raises IllegalActionError, state unchanged; closes a settled hand
        else:
            hand.apply(act)  # raises IllegalActionError (R4.12), state unchanged
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if hand.is_over:
            self._hand_over(hand)
        else:
            self.agent_selection = seat_name(_to_act(hand))
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _hand_over(self, hand: Hand) -> None:
        self.hands_played += 1
        for a in self.agents:
            s = self.agent_name_mapping[a]
            self.rewards[a] = float(hand.stacks[s] - hand.start_stacks[s])
        if self.session is None:
            for a in self.agents:
                self.terminations[a] = True
            return
        sess = self.session  # Session.apply has closed the hand (ledger, dealer, R3.5, R3.6)
        if sess.is_over:
            for a in self.agents:
                self.terminations[a] = True
            return
        for a in self.agents:
            if self.agent_name_mapping[a] not in sess.seated:
                self.terminations[a] = True  # R3.5 bust with bust="leave"
        if self.max_hands is not None and self.hands_played >= self.max_hands:
            for a in self.agents:
                self.truncations[a] = True
            return
        self.hand = sess.start_hand()
        self.agent_selection = seat_name(_to_act(self.hand))
        self._deads_step_first()

    def render(self) -> str | None:
        """A text line of the whole table (all cards: for humans watching, not for agents)."""
        if self.render_mode is None:
            return None
        h = self._current()
        hands = " ".join(f"{seat_name(s)}:[{' '.join(map(str, h.hands[s]))}]" for s in h.seated)
        text = f"{h!r} {hands} history: {', '.join(str(a) for a in h.history[-6:])}"
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _current(self) -> Hand:
        if self.hand is None:
            raise RuntimeError("no hand yet: call reset() first")
        return self.hand


def _to_act(hand: Hand) -> int:
    seat = hand.to_act
    assert seat is not None  # a hand that is not over has a seat to act
    return seat


def raw_env(**kwargs: Any) -> RamsliAECEnv:
    """The unwrapped environment (``RamsliAECEnv(**kwargs)``)."""
    return RamsliAECEnv(**kwargs)


def env(**kwargs: Any):
    """The environment wrapped in PettingZoo's order-enforcing and assertion wrappers."""
    from pettingzoo.utils import wrappers

    e = RamsliAECEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
