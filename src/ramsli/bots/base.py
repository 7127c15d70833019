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
player, ``tips``, alias ``rules``, is a bot of this package: :mod:`ramsli.bots.tips`).
"""

from __future__ import annotations

import importlib
import inspect
import logging
import random
from collections.abc import Callable, Mapping
from typing import Protocol, cast, runtime_checkable

from ramsli.bots.levels import LEVEL_NAMES, level_spec
from ramsli.bots.packages import (
    BotInfo,
    GuardedBot,
    PackageBot,
    discover,
    load_factory,
    option_specs,
    standin_factory,
)
from ramsli.bots.refusals import BotSpecError
from ramsli.hand import Action, Hand, Observation, random_source
from ramsli.seats import seat_name

log = logging.getLogger("ramsli.bots")

__all__ = [
    "Bot",
    "RandomBot",
    "BOTS",
    "register_bot",
    "make_bot",
    "bot_names",
    "allowed_bots_text",
    "builtin_bot_names",
    "bot_options",
    "bot_factory",
    "BOT_MODULES",
    "play_hand",
    "BotInfo",
    "describe_bot",
    "package_bots",
    "refresh_bots",
    "Slips",
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
    """Chooses a uniformly random legal action (the ``random`` bot).

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
        raise ValueError(f"seat {seat_name(obs.seat)} has no legal action: it is not its turn")
    return obs.legal[0] if len(obs.legal) == 1 else None


class Slips:
    """A bot's slips: at a decision with more than one legal action, with probability ``eps`` a
    uniformly random legal action instead of the bot's own choice (the ``eps`` option of ``tips``,
    ``montecarlo`` and ``expert``; the levels of :mod:`ramsli.bots.levels` use it).

    Args:
        eps: the probability of a slip per decision, 0..1.
        rng: the bot's random source; the slips draw from a source of their own seeded from it (for
            ``eps`` above 0 only), so the bot's other draws are the same as without slips.

    >>> import random
    >>> from ramsli import Hand, Rules
    >>> hand = Hand.new(Rules(), [20] * 3, 0, seed=4)
    >>> obs = hand.observe(hand.to_act)
    >>> Slips(0.0, random.Random(1)).slip(obs) is None
    True
    >>> Slips(1.0, random.Random(1)).slip(obs) in obs.legal
    True
    """

    def __init__(self, eps: float, rng: random.Random) -> None:
        self.eps = float(eps)
        self._rng = random.Random(rng.getrandbits(64)) if self.eps > 0 else None

    def slip(self, obs: Observation) -> Action | None:
        """A random legal action with probability ``eps``, else None (the bot chooses itself);
        None too when there is only one legal action or ``eps`` is 0 (nothing is drawn then).

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        if self._rng is None or only_choice(obs) is not None:
            return None
        if self._rng.random() < self.eps:
            return self._rng.choice(list(obs.legal))
        return None


#: name -> factory(seed, **options): the bots registered or loaded so far
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}

#: Bots of packages above the bots, known by name and imported only when first asked for:
#: name -> ``"module:factory"``; naming a bot here is a lookup at run time, not an import.
BOT_MODULES: dict[str, str] = {}
#: ``equilibrium`` declares by the solved declaration policy (:mod:`ramsli.lab.equilibrium`, docs/solve.md)
BOT_MODULES["equilibrium"] = "ramsli.lab.equilibrium:EquilibriumBot"


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot factory ``factory(seed=..., **options)`` under ``name``."""
    BOTS[name] = factory


def bot_names() -> list[str]:
    """Names of all bots: those registered and those of :data:`BOT_MODULES` (whose modules are not imported).

    The levels for people (:data:`ramsli.bots.levels.LEVEL_NAMES`: ``beginner``, ``easy``,
    ``medium``, ``hard``, ``expert``) are names too, and so are the bots of installed packages
    (:func:`package_bots`), last.

    >>> {"random", "rules", "montecarlo", "tips", "beginner", "easy", "medium", "hard", "expert"} <= set(bot_names())
    True
    """
    _load_builtin()
    return list(dict.fromkeys([*BOTS, *BOT_MODULES, *LEVEL_NAMES, *package_bots()]))


def allowed_bots_text() -> str:
    """The bot names, then the levels as a group, for error messages.

    >>> "or a level: beginner, easy, medium, hard, expert (weakest first)" in allowed_bots_text()
    True
    """
    packages = package_bots()
    bots = [b for b in builtin_bot_names() if b not in packages]
    text = f"{', '.join(bots)}, or a level: {', '.join(LEVEL_NAMES)} (weakest first)"
    return text + (f"; installed: {', '.join(packages)}" if packages else "")


def builtin_bot_names() -> list[str]:
    """The bots an error lists before the levels: those registered and those of
    :data:`BOT_MODULES`, each once, without a name that is also a level (``expert`` is both a bot
    and a level: it is listed once, with the levels).

    >>> names = builtin_bot_names()
    >>> "expert" in names, names.count("montecarlo"), "random" in names
    (False, 1, True)
    """
    _load_builtin()
    return [b for b in dict.fromkeys([*BOTS, *BOT_MODULES]) if b not in LEVEL_NAMES]


def bot_factory(name: str) -> Callable[..., Bot]:
    """The factory ``factory(seed=..., **options)`` of bot ``name``; a bot of :data:`BOT_MODULES` is
    imported (and registered) on first use.

    Raises:
        BotSpecError: (a ``ValueError``, ``unknown_bot``) for an unknown bot name (the message lists
            the names).
        ModuleNotFoundError: if the bot's module needs an optional extra that is not installed.

    A bot of an installed package (:func:`package_bots`) is imported on first use too; if that fails,
    the error is logged with the bot's name and package and its factory makes a stand-in that plays the
    ``tips`` move for every decision (:class:`~ramsli.bots.packages.GuardedBot`).
    """
    _load_builtin()
    if name not in BOTS and name in BOT_MODULES:
        module, _, attr = BOT_MODULES[name].partition(":")
        BOTS.setdefault(name, getattr(importlib.import_module(module), attr))
    if name not in BOTS and name in package_bots():
        # what a package's factory makes is not trusted: _make_package_bot wraps it in a GuardedBot
        BOTS[name] = cast("Callable[..., Bot]", load_factory(package_bots()[name], _tips_fallback))
    if name not in BOTS:
        packages = package_bots()
        bots = ", ".join([*(b for b in builtin_bot_names() if b not in packages), *packages])
        if name.lower() in bot_names():
            raise BotSpecError(
                "unknown_bot_case", bot=repr(name), lower=repr(name.lower()), bots=bots, levels=", ".join(LEVEL_NAMES)
            )
        raise BotSpecError("unknown_bot", bot=repr(name), bots=bots, levels=", ".join(LEVEL_NAMES))
    return BOTS[name]


def make_bot(spec: str, seed: int | None = None, *, rng: random.Random | None = None) -> Bot:
    """Create a bot from a spec: a name, optionally with options, e.g. ``"random"``,
    ``"montecarlo"``, ``"montecarlo:samples=64"``.

    Give the bot's random source as ``seed`` or as ``rng`` (a ``random.Random``), not both;
    the same seed gives the same choices. A level (``beginner``, ``easy``, ``medium``, ``hard``,
    ``expert``, :mod:`ramsli.bots.levels`) stands for its bot and budget. An option whose default is a
    ``bool`` takes ``true``/``false`` (also ``yes``/``no``, ``on``/``off``, ``1``/``0``).

    A bot of an installed package (:func:`package_bots`) comes wrapped in a
    :class:`~ramsli.bots.packages.GuardedBot`: where it raises or answers with an illegal action,
    the ``tips`` move is played for that decision (logged); a package that fails to import, or
    whose factory raises for other reasons than a bad option, gives a stand-in that plays the
    ``tips`` moves (logged), so a table, a tournament or the arena goes on.

    Raises:
        BotSpecError: (a ``ValueError`` with its :class:`~ramsli.refusal.Refusal`,
            :mod:`ramsli.bots.refusals`) for an unknown bot name (the message lists the names) or a
            bad option, e.g. one outside the range the bot declares in its ``OPTION_RANGES``
            (``{option: (lo, hi)}``).
        TypeError: if both ``seed`` and ``rng`` are given.
    """
    if seed is not None and rng is not None:
        raise TypeError("make_bot: give either seed= or rng=, not both")
    _load_builtin()
    spec = level_spec(spec)
    name, _, opts = spec.strip().partition(":")
    factory = bot_factory(name)  # an unknown name is refused; a bot of BOT_MODULES or a package is imported
    if getattr(factory, "standin", False):  # a package that cannot be used: its options are not known
        return factory(seed=seed)
    kwargs: dict[str, object] = {}
    opts_text: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in opts.split(","))):
        k, eq, v = part.partition("=")
        if not eq:
            raise BotSpecError("bot_option_syntax", option=repr(part), spec=repr(spec))
        if k.strip() in opts_text:
            raise BotSpecError("bot_option_twice", option=repr(k.strip()), spec=repr(spec))
        opts_text[k.strip()] = v.strip()
        try:
            kwargs[k.strip()] = (
                int(v) if (v.strip().lstrip("-").isascii() and v.strip().lstrip("-").isdigit()) else float(v)
            )
        except ValueError:
            kwargs[k.strip()] = v.strip()
    allowed = bot_options(name)
    defaults = _option_defaults(name)
    kinds = {o.name: o.kind for o in option_specs(BOTS[name])}
    for k, value in kwargs.items():
        d, kind = defaults.get(k), kinds.get(k)
        if kind == "bool":
            flag = _FLAGS.get(str(value).strip().lower())
            if flag is None:
                raise BotSpecError(
                    "bot_option_bool",
                    bot=repr(name),
                    option=k,
                    value=repr(value),
                    example=f"{name}:{k}={str(d).lower()}",
                )
            kwargs[k] = flag
        elif kind == "int" and not isinstance(value, int):
            raise BotSpecError("bot_option_int", bot=repr(name), option=k, value=repr(value), example=f"{name}:{k}={d}")
        elif kind == "float" and not isinstance(value, (int, float)):
            raise BotSpecError(
                "bot_option_number", bot=repr(name), option=k, value=repr(value), example=f"{name}:{k}={d}"
            )
        elif kind == "str" and not isinstance(value, str):
            kwargs[k] = opts_text[k]  # a text option that looks like a number stays text
    ranges = getattr(BOTS[name], "OPTION_RANGES", {})  # bounds a bot declares with its options
    for k, given in kwargs.items():
        if k in ranges and isinstance(given, (int, float)) and not ranges[k][0] <= given <= ranges[k][1]:
            raise BotSpecError(
                "bot_option_range",
                bot=repr(name),
                option=k,
                value=repr(given),
                low=ranges[k][0],
                high=ranges[k][1],
                example=f"{name}:{k}={defaults.get(k, ranges[k][0])}",
            )
    unknown = [k for k in kwargs if k not in allowed]
    if unknown and allowed:
        raise BotSpecError(
            "bot_option_unknown",
            bot=repr(name),
            option=repr(unknown[0]),
            options=", ".join(allowed),
            example=f"{name}:{allowed[0]}={defaults.get(allowed[0], '…')}",
        )
    if unknown:
        raise BotSpecError("bot_option_none", bot=repr(name), option=repr(unknown[0]))
    package = _package_of(name)
    if package is not None:
        return _make_package_bot(package, seed, rng, kwargs, allowed)
    try:
        if rng is not None:
            return BOTS[name](rng=rng, **kwargs)
        return BOTS[name](seed=seed, **kwargs)
    except (TypeError, ValueError) as e:
        log.info("bot %r refused the options of %r: %s", name, spec, e)
        raise BotSpecError(
            "bot_options_refused", bot=repr(name), spec=repr(spec), options=", ".join(allowed) or "-"
        ) from None


#: the texts a bool option takes in a spec
_FLAGS = {"true": True, "false": False, "yes": True, "no": False, "on": True, "off": False, "1": True, "0": False}


def _make_package_bot(
    package: PackageBot, seed: int | None, rng: random.Random | None, kwargs: dict[str, object], allowed: list[str]
) -> Bot:
    """A package's bot, guarded; a stand-in (logged) if its factory fails for other reasons than a bad option."""
    factory = BOTS[package.name]
    if getattr(factory, "standin", False):
        return factory(seed=seed)
    if rng is not None and "rng" not in inspect.signature(factory).parameters:
        seed, rng = rng.getrandbits(32), None  # a factory without rng= gets a seed drawn from it
    try:
        inner = factory(rng=rng, **kwargs) if rng is not None else factory(seed=seed, **kwargs)
    except (TypeError, ValueError) as e:
        if kwargs:
            log.info("bot %r refused its options %r: %s", package.name, kwargs, e)
            spec = f"{package.name}:" + ",".join(f"{k}={v}" for k, v in kwargs.items())
            raise BotSpecError(
                "bot_options_refused", bot=repr(package.name), spec=repr(spec), options=", ".join(allowed) or "-"
            ) from None
        return standin_factory(package, f"its factory raised {type(e).__name__}: {e}", _tips_fallback)(seed=seed)
    except Exception as e:  # noqa: BLE001 - a package's bug must not stop the table
        return standin_factory(package, f"its factory raised {type(e).__name__}: {e}", _tips_fallback)(seed=seed)
    return GuardedBot(inner, package.name, package.origin, _tips_fallback)


def _tips_fallback() -> Bot:
    """The ``tips`` player, who takes a guarded bot's faulty decisions (deterministic: no seed needed)."""
    return make_bot("tips")


_packages: dict[str, PackageBot] | None = None


def _package_of(name: str) -> PackageBot | None:
    """The package declaring bot ``name``, if it is one (known once :func:`bot_factory` has loaded it)."""
    return _packages.get(name) if _packages else None


def package_bots() -> dict[str, PackageBot]:
    """The bots of installed packages (entry-point group ``ramsli.bots``, ``docs/bots.md``), by name.

    Read from the packages' metadata once per process (nothing is imported); :func:`refresh_bots`
    reads it again.
    """
    global _packages
    if _packages is None:
        _load_builtin()
        _packages = discover(set(BOTS) | set(BOT_MODULES) | set(LEVEL_NAMES))
    return _packages


def refresh_bots() -> dict[str, PackageBot]:
    """Forget the installed packages' bots (and those loaded) and read the packages' metadata again,
    e.g. after a package was installed while this process runs. Returns :func:`package_bots`."""
    global _packages
    for name in _packages or {}:
        BOTS.pop(name, None)
    _packages = None
    importlib.invalidate_caches()
    return package_bots()


def describe_bot(name: str) -> BotInfo:
    """A bot's kind, origin, summary and options with their types and ranges (a package's bot is imported).

    Raises:
        ValueError: for an unknown bot name.

    >>> info = describe_bot("montecarlo")
    >>> info.kind, [o.text() for o in info.options][:2]
    ('built-in', ['samples=20 (int, 1..2000)', 'ms=0 (float, 0..60000)'])
    >>> describe_bot("easy").plays_as
    'tips:eps=0.35'
    """
    name = name.strip()
    if name in LEVEL_NAMES and LEVEL_NAMES[name] != name:
        bot_factory(LEVEL_NAMES[name].partition(":")[0])
        return BotInfo(name, "level", "ramsli", LEVEL_NAMES[name], f"the level {name!r}", (), None)
    factory = bot_factory(name)
    package = _package_of(name)
    doc = (inspect.getdoc(factory) or "").strip().splitlines()
    error = getattr(factory, "error", None) if getattr(factory, "standin", False) else None
    return BotInfo(
        name,
        "package" if package is not None else "built-in",
        package.origin if package is not None else "ramsli",
        name,
        doc[0] if doc and error is None else "",
        () if error is not None else option_specs(factory),
        error,
    )


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
    if name in LEVEL_NAMES and LEVEL_NAMES[name] != name:
        bot_factory(LEVEL_NAMES[name].partition(":")[0])
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
