"""``lowest``: an example ramsli bot, installed as a package (see docs/bots.md).

It declares *in* when a rough chance of taking at least one trick reaches
``threshold``, never announces General Rams or a target, and plays the
lowest card that wins the trick so far; when no card can win, it throws its
lowest card, keeping trumps while it can; when it leads, it leads its highest
card (a trump only with ``lead_trumps``).

The bot sees only its seat's observation (RULES.md R7) and returns one of
``obs.legal``; it uses no randomness, so ``seed`` only satisfies the registry.
"""

from __future__ import annotations

import random

from ramsli.cards import Card
from ramsli.hand import Action, Observation, Phase, trick_winner

__all__ = ["LowestBot", "trick_chance"]

__version__ = "1.0.0"


def _is_trump(card: Card, trump: str) -> bool:
    return card.suit is None or card.suit == trump  # jokers belong to the trump suit (R1.3)


def _cheapness(card: Card, trump: str) -> tuple[bool, int]:
    """Sort key, lowest first: any plain card before any trump, then by rank."""
    return (_is_trump(card, trump), card.rank)


def trick_chance(cards: tuple[Card, ...] | list[Card], trump: str) -> float:
    """A rough chance, 0..1, that these cards take at least one trick: each card is given a chance of
    its own (a joker 0.95, a trump 0.3 plus 0.05 a rank above the 7, a plain ace 0.5, a plain king
    0.2, anything else nothing) and the cards are taken as independent: ``AS 7H 9D 8C KC`` with
    trump ♥ has 1 − 0.5 · 0.7 · 0.8 = 0.72.
    """
    miss = 1.0
    for c in cards:
        if c.suit is None:
            p = 0.95
        elif c.suit == trump:
            p = min(0.95, max(0.05, 0.3 + 0.05 * (c.rank - 7)))
        elif c.rank == 14:
            p = 0.5
        elif c.rank == 13:
            p = 0.2
        else:
            p = 0.0
        miss *= 1.0 - p
    return 1.0 - miss


class LowestBot:
    """Plays the lowest card that wins the trick; declares in by a threshold.

    Args:
        seed: accepted for the registry (the bot uses no randomness).
        threshold: declare in when :func:`trick_chance` of the hand is at least this, 0..1.
        lead_trumps: lead the highest trump when leading (default: the highest plain card).
        rng: accepted likewise, instead of ``seed``.
    """

    name = "lowest"
    #: the range of each numeric option; ramsli refuses ``lowest:threshold=2`` before a bot is made
    OPTION_RANGES = {"threshold": (0.0, 1.0)}

    def __init__(
        self,
        seed: int | None = None,
        threshold: float = 0.45,
        lead_trumps: bool = False,
        *,
        rng: random.Random | None = None,
    ) -> None:
        if seed is not None and rng is not None:
            raise TypeError("LowestBot: give either seed= or rng=, not both")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold={threshold!r}: allowed is 0..1")
        self.threshold = float(threshold)
        self.lead_trumps = bool(lead_trumps)

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal`` for the seat ``obs.seat``."""
        if len(obs.legal) == 1:
            return obs.legal[0]  # e.g. the dealer forced in (R4.5)
        if obs.phase is Phase.DECLARE:
            return Action.declare(obs.seat, trick_chance(obs.cards, obs.trump) >= self.threshold)
        if obs.phase in (Phase.GENERAL_RAMS, Phase.TARGETS):
            return Action.pass_(obs.seat)  # never announces (R4.7, R4.8)
        cards = [a.card for a in obs.legal if a.card is not None]
        trump = obs.trump
        if not obs.current:  # leading: the highest card, a plain one unless lead_trumps
            plain = [c for c in cards if not _is_trump(c, trump)]
            pool = cards if self.lead_trumps or not plain else plain
            pick = max(pool, key=lambda c: (_is_trump(c, trump) == self.lead_trumps, c.rank))
        else:
            winning = [c for c in cards if trick_winner([*obs.current, (obs.seat, c)], trump) == obs.seat]
            pick = min(winning or cards, key=lambda c: _cheapness(c, trump))
        return Action.play(obs.seat, pick)
