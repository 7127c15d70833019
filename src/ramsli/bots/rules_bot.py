"""The old name of the tips player: ``rules`` is an alias of ``tips`` (issue #13).

The ``rules`` bot and the lab's ``tips`` policy were two bots for one idea; they
are now one player, :class:`ramsli.bots.tips.TipsBot`, registered under both
names (``make_bot("rules")`` gives the same decisions as ``make_bot("tips")``).
This module keeps the old import path working.

>>> from ramsli.bots.tips import TipsBot
>>> RulesBot is TipsBot
True
"""

from __future__ import annotations

from ramsli.bots.tips import TipsBot
from ramsli.hand import Observation

__all__ = ["RulesBot", "bete_value"]

#: the tips player under its old class name
RulesBot = TipsBot


def bete_value(obs: Observation) -> int:
    """The bete in counters for this hand (R5.3)."""
    return obs.rules.bete_for(obs.pot)
