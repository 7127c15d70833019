"""Bots: players that see only what their seat may see (R7).

A bot gets an :class:`~ramsli.hand.Observation` — which holds no hidden card by
construction — and returns one of ``obs.legal``.

Each bot is a module named after it (:mod:`ramsli.bots.tips`: the ``tips`` player,
:mod:`ramsli.bots.montecarlo`, :mod:`ramsli.bots.expert`, …); :mod:`ramsli.bots.base` keeps the
registry. The other ``tips`` modules have other jobs: :mod:`ramsli.lab.tips` measures the seeds'
tips, :mod:`ramsli.commands.tips` is the ``ramsli tips`` command.

>>> import random
>>> from ramsli import Hand, Rules
>>> from ramsli.bots import make_bot
>>> hand = Hand.new(Rules(), [20] * 4, dealer=0, rng=random.Random(2))
>>> bot = make_bot("random", seed=5)
>>> bot.act(hand.observe(hand.to_act)) in hand.legal_actions()
True
"""

from ramsli.bots.base import BOTS, Bot, RandomBot, bot_names, make_bot, play_hand, register_bot

__all__ = ["BOTS", "Bot", "RandomBot", "bot_names", "make_bot", "play_hand", "register_bot"]
