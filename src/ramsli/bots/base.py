"""The bot interface, the bot registry and the random bot.

A bot is any object with ``name`` and ``act(obs) -> Action``; it receives only
an :class:`~ramsli.hand.Observation` (R7: no hidden card in it) and must return
one of ``obs.legal``. Bots are created by name with :func:`make_bot`; every bot
takes a ``seed`` so that the same seed gives the same choices.

Layering (README, "Dependencies point one way"): bots stand on the engine and
never import the strategy lab, the research adapters or a front end; those may
import bots. A bot that lived in such a higher package would be named in
:data:`BOT_MODULES` by its module path and imported only when it is first asked
for by name, so the registry finds it without a bots → lab import (the tips
player, ``tips``, alias ``rules``, now lives here: :mod:`ramsli.bots.tips`).
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

from ramsli.bots.levels import LEVELS, level_spec
from ramsli.hand import Action, Hand, Observation, random_source

__all__ = [
    "Bot",
    "RandomBot",
    "BOTS",
    "register_bot",
    "make_bot",
    "bot_names",
    "allowed_bots_text",
    "bot_options",
    "bot_factory",
    "BOT_MODULES",
    "play_hand",
]


@runtime_checkable
class Bot(Protocol):
    """What every bot provides.

    Attributes:
        name: the registry name, e.g. ``"random"``.
    """

    name: str

    def act(self, obs: Observation) -> Action:
        """Choose one of ``obs.legal`` for the seat ``obs.seat`` (which is to act)."""
        ...


class RandomBot:
    """Chooses a uniformly random legal action (issue #4's ``random`` bot).

    Args:
        seed: seed of its random source; the same seed gives the same choices.
        rng: instead of ``seed``, the random source itself (a ``random.Random``).

    Raises:
        TypeError: if both ``seed`` and ``rng`` are given.

    >>> from ramsli.hand import Action
    """

    name = "random"

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = random_source(seed, rng, "RandomBot")

    def act(self, obs: Observation) -> Action:
        """A uniformly random element of ``obs.legal``.

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        only = only_choice(obs)
        if only is not None:
            return only
        return obs.legal[self.rng.randrange(len(obs.legal))]


def only_choice(obs: Observation) -> Action | None:
    """The single legal action if there is exactly one, else None (bots need not think then).

    Raises:
        ValueError: if ``obs.legal`` is empty (not this seat's turn).
    """
    if not obs.legal:
        raise ValueError(f"seat p{obs.seat + 1} has no legal action: it is not its turn")
    return obs.legal[0] if len(obs.legal) == 1 else None


#: name -> factory(seed, **options): the bots registered or loaded so far
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}

#: Bots of packages above the bots, known by name and imported only when first asked for:
#: name -> ``"module:factory"``; naming a bot here is a lookup at run time, not an import. (``tips``
#: used to live in the lab; it is now :mod:`ramsli.bots.tips`, registered with its alias ``rules``.)
BOT_MODULES: dict[str, str] = {}
#: ``equilibrium`` declares by the solved declaration policy (issue 14, :mod:`ramsli.lab.equilibrium`)
BOT_MODULES["equilibrium"] = "ramsli.lab.equilibrium:EquilibriumBot"


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot factory ``factory(seed=..., **options)`` under ``name``."""
    BOTS[name] = factory


def bot_names() -> list[str]:
    """Names of all bots: those registered and those of :data:`BOT_MODULES` (whose modules are not imported).

    The levels for people (:data:`ramsli.bots.levels.LEVELS`: ``easy``, ``medium``, ``hard``,
    ``expert``) are names too.

    >>> {"random", "rules", "montecarlo", "tips", "easy", "medium", "hard", "expert"} <= set(bot_names())
    True
    """
    _load_builtin()
    return list(dict.fromkeys([*BOTS, *BOT_MODULES, *LEVELS]))


def allowed_bots_text() -> str:
    """The bot names, then the levels as a group, for error messages (issue #13).

    >>> allowed_bots_text().endswith("or a level: easy, medium, hard, expert (weakest first)")
    True
    """
    _load_builtin()
    bots = list(dict.fromkeys([*BOTS, *BOT_MODULES]))
    return f"{', '.join(bots)}, or a level: {', '.join(LEVELS)} (weakest first)"


def bot_factory(name: str) -> Callable[..., Bot]:
    """The factory ``factory(seed=..., **options)`` of bot ``name``; a bot of :data:`BOT_MODULES` is
    imported (and registered) on first use.

    Raises:
        ValueError: for an unknown bot name (the message lists the names).
        ModuleNotFoundError: if the bot's module needs an optional extra that is not installed.
    """
    _load_builtin()
    if name not in BOTS and name in BOT_MODULES:
        module, _, attr = BOT_MODULES[name].partition(":")
        BOTS.setdefault(name, getattr(importlib.import_module(module), attr))
    if name not in BOTS:
        hint = f" (names are lower case: {name.lower()!r})" if name.lower() in bot_names() else ""
        raise ValueError(f"unknown bot {name!r}{hint}; allowed are {allowed_bots_text()}")
    return BOTS[name]


def make_bot(spec: str, seed: int | None = None, *, rng: random.Random | None = None) -> Bot:
    """Create a bot from a spec: a name, optionally with options, e.g. ``"random"``,
    ``"montecarlo"``, ``"montecarlo:samples=64"``.

    Give the bot's random source as ``seed`` or as ``rng`` (a ``random.Random``), not both;
    the same seed gives the same choices. A level (``easy``, ``medium``, ``hard``, ``expert``,
    :mod:`ramsli.bots.levels`) stands for its bot and budget.

    Raises:
        ValueError: for an unknown bot name (the message lists the names) or a bad option, e.g.
            one outside the range the bot declares in its ``OPTION_RANGES`` (``{option: (lo, hi)}``).
        TypeError: if both ``seed`` and ``rng`` are given.
    """
    if seed is not None and rng is not None:
        raise TypeError("make_bot: give either seed= or rng=, not both")
    _load_builtin()
    spec = level_spec(spec)
    name, _, opts = spec.strip().partition(":")
    bot_factory(name)  # an unknown name is refused; a bot of BOT_MODULES is imported
    kwargs: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in opts.split(","))):
        k, eq, v = part.partition("=")
        if not eq:
            raise ValueError(f"bot option {part!r} is not key=value (in {spec!r})")
        try:
            kwargs[k.strip()] = (
                int(v) if (v.strip().lstrip("-").isascii() and v.strip().lstrip("-").isdigit()) else float(v)
            )
        except ValueError:
            kwargs[k.strip()] = v.strip()
    allowed = bot_options(name)
    defaults = _option_defaults(name)
    for k, given in kwargs.items():
        d = defaults.get(k)
        if isinstance(d, bool) or d is None:
            continue
        if isinstance(d, int) and not isinstance(given, int):
            raise ValueError(f"bot {name!r} option {k}: {given!r} is not a whole number (e.g. {name}:{k}={d})")
        if isinstance(d, float) and not isinstance(given, (int, float)):
            raise ValueError(f"bot {name!r} option {k}: {given!r} is not a number (e.g. {name}:{k}={d})")
    ranges = getattr(BOTS[name], "OPTION_RANGES", {})  # bounds a bot declares with its options
    for k, given in kwargs.items():
        if k in ranges and isinstance(given, (int, float)) and not ranges[k][0] <= given <= ranges[k][1]:
            raise ValueError(
                f"bot {name!r} option {k}={given!r} is out of range: allowed is "
                f"{ranges[k][0]}..{ranges[k][1]} (e.g. {name}:{k}={defaults.get(k, ranges[k][0])})"
            )
    unknown = [k for k in kwargs if k not in allowed]
    if unknown:
        raise ValueError(
            f"bot {name!r} has no option {unknown[0]!r}; its options are "
            f"{', '.join(allowed) if allowed else 'none'} (e.g. {name}:{allowed[0]}={defaults.get(allowed[0], '…')})"
            if allowed
            else f"bot {name!r} has no option {unknown[0]!r}; it takes no options"
        )
    try:
        if rng is not None:
            return BOTS[name](rng=rng, **kwargs)
        return BOTS[name](seed=seed, **kwargs)
    except (TypeError, ValueError) as e:
        raise ValueError(
            f"bad option for bot {name!r}: {e}; its options are {', '.join(allowed) if allowed else 'none'}"
        ) from None


def _option_defaults(name: str) -> dict[str, object]:
    try:
        params = inspect.signature(BOTS[name]).parameters
    except (KeyError, TypeError, ValueError):
        return {}
    return {p: v.default for p, v in params.items() if v.default is not inspect.Parameter.empty}


def bot_options(name: str) -> list[str]:
    """The option names bot ``name`` accepts in a spec (``name:key=value,...``), without ``seed`` and ``rng``.

    Raises:
        ValueError: for an unknown bot name.
    """
    if name in LEVELS and LEVELS[name] != name:
        bot_factory(LEVELS[name].partition(":")[0])
        return []  # a level is a budget: it takes no options
    factory = bot_factory(name)
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return []
    return [
        p for p, v in params.items() if p not in ("seed", "rng") and v.kind in (v.POSITIONAL_OR_KEYWORD, v.KEYWORD_ONLY)
    ]


_loaded = False


def _load_builtin() -> None:
    """Import the bot modules of this package so they register themselves (``tips``/``rules``, ``montecarlo``)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in ("ramsli.bots.tips", "ramsli.bots.montecarlo", "ramsli.bots.expert"):
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise


def play_hand(hand: Hand, bots: Mapping[int, Bot], on_action: Callable[[Hand, Action], None] | None = None) -> None:
    """Play ``hand`` to its end with one bot per seat (seat index -> bot).

    Each bot is given only ``hand.observe(seat)``. ``on_action(hand, action)`` is
    called after each applied action.

    Raises:
        KeyError: if a seat to act has no bot.
        IllegalActionError: if a bot returns an illegal action (a bug in that bot).
    """
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None  # a hand that is not over has a seat to act
        action = bots[seat].act(hand.observe(seat))
        hand.apply(action)
        if on_action is not None:
            on_action(hand, action)
