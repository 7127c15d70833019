"""Ramsli for reinforcement-learning frameworks.

Adapters (each needs the ``rl`` extra: ``pip install ramsli[rl]``; they are
imported only when used, so ``import ramsli`` never needs them):

- :mod:`ramsli.rl.openspiel_game` — the OpenSpiel game ``python_ramsli``;
- :mod:`ramsli.rl.pettingzoo_env` — a PettingZoo AEC environment, one agent per seat;
- :mod:`ramsli.rl.gym_env` — a Gymnasium environment, one seat against ramsli bots.

:mod:`ramsli.rl.encoding` (NumPy only) holds the action ids and the tensor and
string encodings all three share; every encoding shows only what R7 lets the
observing seat know.
"""

__all__ = ["encoding"]
