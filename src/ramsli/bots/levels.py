"""Levels for people: ``easy``, ``medium``, ``hard``, ``expert``.

A level is a name for a bot and its budget, usable wherever a bot is named
(:func:`ramsli.bots.make_bot`, ``ramsli play --bots``, tournaments, the
server's table spec). In duplicate play each level is clearly stronger than the
one below it, with one exception: in ``traditional`` (no General Rams, no
targets) ``expert`` and ``hard`` are about level, since neither the
declarations nor the card play leave much room there (the ladder and the
ceilings in ``docs/benchmarks.md``); with General Rams or targets ``expert``
is clearly ahead:

- ``easy``: the tips player (``tips``) — plays the seeds' tips as written;
- ``medium``: ``montecarlo`` with a small budget (4 samples a decision);
- ``hard``: ``montecarlo`` with its default budget;
- ``expert``: the ``expert`` bot (:mod:`ramsli.bots.expert`).

A level takes no options (it *is* a budget); name the bot itself for other
budgets (``montecarlo:samples=64``).

>>> level_spec("hard"), level_spec("montecarlo:samples=8")
('montecarlo', 'montecarlo:samples=8')
>>> level_spec("easy:samples=3")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ramsli.bots.refusals.BotSpecError: level 'easy' takes no options (it stands for the bot 'tips'); name a bot for ...
"""

from __future__ import annotations

from ramsli.bots.refusals import BotSpecError

__all__ = ["LEVELS", "level_spec", "is_level"]

#: level name -> the bot spec it stands for, weakest first
LEVELS: dict[str, str] = {
    "easy": "tips",
    "medium": "montecarlo:samples=4",
    "hard": "montecarlo",
    "expert": "expert",
}


def is_level(name: str) -> bool:
    """True if ``name`` (without options) is one of :data:`LEVELS`."""
    return name.strip() in LEVELS


def level_spec(spec: str) -> str:
    """The bot spec a level stands for; any other spec is returned unchanged.

    ``expert`` is both a level and a bot: with options (``expert:samples=50``) it is the bot.

    Raises:
        BotSpecError: (a ``ValueError``, ``level_options``) for a level other than ``expert`` given
            with options.
    """
    name, colon, opts = spec.strip().partition(":")
    if name not in LEVELS or LEVELS[name] == name:
        return spec
    if colon:
        raise BotSpecError("level_options", level=repr(name), bot=repr(LEVELS[name]))
    return LEVELS[name]
