"""Levels for people: ``beginner``, ``easy``, ``medium``, ``hard``, ``expert``.

A level is a name for a bot, its budget and its slips, usable wherever a bot is
named (:func:`ramsli.bots.make_bot`, ``ramsli play --bots``, tournaments, the
server's table spec). Each level is stronger than the one below it at a mixed
table (the four levels and a ``random`` seat, every deal in every rotation):
by a paired 95% interval that excludes 0 in every preset, at 300 deals in most;
in ``compulsory``, where everyone plays every hand (R6) and only the card play
differs, the levels lie about 0.1 counters a hand apart and part at 2,000 deals.
The ladder per preset is in ``docs/benchmarks.md`` ("The levels",
``bench/levels.py``):

- ``easy``: the tips player (``tips``) with slips: at one decision in three
  (``eps=0.35``) a random legal action instead of the tips;
- ``medium``: ``montecarlo`` with 2 samples a decision (declarations and cards
  read from two guesses of the hidden cards) and a slip at one decision in five;
- ``hard``: ``montecarlo`` with 6 samples a decision and a slip at one decision
  in ten;
- ``expert``: the ``expert`` bot (:mod:`ramsli.bots.expert`): weighted
  samples, 200 a declaration and 48 a card; no slips.

A slip (:class:`ramsli.bots.base.Slips`) counts only at a real choice (more
than one legal action). The budgets alone do not part the levels: the searching
bots' strength flattens out after a few samples (``montecarlo`` with 20 samples
comes within about 0.1 counters a hand of the expert), and with the 52-card
deck the tips play about as well as two samples. The slips spread them.

Below them is the ``beginner``, the name the web pages give the ``random`` bot
(it plays a random legal action at every decision): a name for it wherever a bot
is named, as the levels are, and listed with them (:data:`LEVEL_NAMES`), so that
a name a person reads on a page is a name the command line takes. It is not one
of :data:`LEVELS` (no budget, no slips: the ladder, an evening's and a
challenge's levels are those four).

A level takes no options (it *is* a budget); name the bot itself for other
budgets (``montecarlo:samples=64``).

>>> level_spec("hard"), level_spec("montecarlo:samples=8"), level_spec("beginner")
('montecarlo:samples=6,eps=0.1', 'montecarlo:samples=8', 'random')
>>> level_spec("easy:samples=3")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ramsli.bots.refusals.BotSpecError: level 'easy' takes no options (it stands for the bot 'tips:eps=0.35'); name a bot for ...
"""

from __future__ import annotations

from ramsli.bots.refusals import BotSpecError

__all__ = ["LEVELS", "LEVEL_NAMES", "level_spec", "is_level"]

#: level name -> the bot spec it stands for, weakest first
LEVELS: dict[str, str] = {
    "easy": "tips:eps=0.35",
    "medium": "montecarlo:samples=2,eps=0.2",
    "hard": "montecarlo:samples=6,eps=0.1",
    "expert": "expert",
}

#: every level name a person reads for a bot (the web pages' ``R.botLevel``) -> the bot spec it
#: stands for, weakest first: the ``beginner`` (the ``random`` bot) and :data:`LEVELS`
LEVEL_NAMES: dict[str, str] = {"beginner": "random", **LEVELS}


def is_level(name: str) -> bool:
    """True if ``name`` (without options) is a level's name (:data:`LEVEL_NAMES`: ``beginner`` too)."""
    return name.strip() in LEVEL_NAMES


def level_spec(spec: str) -> str:
    """The bot spec a level (any of :data:`LEVEL_NAMES`) stands for; any other spec is returned unchanged.

    ``expert`` is both a level and a bot: with options (``expert:samples=50``) it is the bot.

    Raises:
        BotSpecError: (a ``ValueError``, ``level_options``) for a level other than ``expert`` given
            with options.
    """
    name, colon, opts = spec.strip().partition(":")
    if name not in LEVEL_NAMES or LEVEL_NAMES[name] == name:
        return spec
    if colon:
        raise BotSpecError("level_options", level=repr(name), bot=repr(LEVEL_NAMES[name]))
    return LEVEL_NAMES[name]
