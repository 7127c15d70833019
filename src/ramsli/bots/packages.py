"""Bots from installed packages (the entry-point group ``ramsli.bots``) and the guard around them.

A package makes a bot known to every ramsli command by declaring an entry point
in the group :data:`ENTRY_POINT_GROUP` (``docs/bots.md``; a complete example is
``examples/ramsli-example-bot``)::

    [project.entry-points."ramsli.bots"]
    lowest = "ramsli_example_bot:LowestBot"

The name (``lowest``) is the bot's registry name; the object is a factory
called as ``factory(seed=..., **options)`` (and with ``rng=`` when the caller
gives a random source and the factory takes one), the way the built-in bots are
classes: its keyword arguments with their defaults are its options, their types
follow the defaults, and an ``OPTION_RANGES = {"option": (lo, hi)}`` mapping
bounds the numeric ones (:func:`option_specs`; checked by
:func:`ramsli.bots.base.make_bot`).

Nothing is imported to list the names (:func:`discover` reads the installed
packages' metadata); a package is imported when its bot is first asked for.
Code from a package is not trusted to be correct: every bot made from one is
wrapped in a :class:`GuardedBot`, which plays the ``tips`` move for a decision
where the bot raises or returns an action that is not legal, and a package
that fails to import becomes a stand-in that plays the ``tips`` move for every
decision. Each such fault is logged (logger ``ramsli.bots``) with the bot's
name, its package and the seat, and counted (:attr:`GuardedBot.faults`), so a
table, a tournament or the arena never stops for a broken bot.

>>> names = discover()   # registry name -> entry point, from the installed packages
>>> isinstance(names, dict)
True
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import logging
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import ClassVar, Protocol

from ramsli.hand import Action, Observation
from ramsli.seats import seat_name

__all__ = [
    "ENTRY_POINT_GROUP",
    "BotOption",
    "GuardedBot",
    "PackageBot",
    "discover",
    "option_specs",
    "origin_text",
    "LOGGED_FAULTS",
    "BotInfo",
    "load_factory",
    "standin_factory",
    "StandinFactory",
    "PackageBotObject",
    "Player",
]

#: the entry-point group a package declares its bots in
ENTRY_POINT_GROUP = "ramsli.bots"
#: faults logged as warnings per bot and process; later ones are logged at DEBUG and only counted
LOGGED_FAULTS = 3

_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
log = logging.getLogger("ramsli.bots")


@dataclass(frozen=True)
class PackageBot:
    """A bot declared by an installed package.

    Attributes:
        name: the registry name (the entry point's name).
        target: the entry point's value, ``"module:attribute"``.
        package: the distribution's name, e.g. ``"ramsli-example-bot"``.
        version: the distribution's version.
    """

    name: str
    target: str
    package: str
    version: str

    @property
    def origin(self) -> str:
        """``"package ramsli-example-bot 1.0.0"``: where the bot comes from, for messages."""
        return f"package {self.package} {self.version}"


def discover(builtin: frozenset[str] | set[str] = frozenset()) -> dict[str, PackageBot]:
    """The bots the installed packages declare in :data:`ENTRY_POINT_GROUP`, by name (nothing is imported).

    A name that is not lower-case letters, digits, ``-`` and ``_`` (at most 40, a letter first), or that
    is a name of ``builtin`` (the built-in bots and levels win), is skipped with a logged warning; of two
    packages declaring one name, the first found on ``sys.path`` wins (a warning names both).

    Args:
        builtin: names that packages may not take.
    """
    found: dict[str, PackageBot] = {}
    try:
        eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception as e:  # noqa: BLE001 - unreadable metadata of some package must not stop ramsli
        log.warning("cannot read the installed packages' %s entry points: %s", ENTRY_POINT_GROUP, e)
        return found
    for ep in eps:
        dist = getattr(ep, "dist", None)
        bot = PackageBot(
            ep.name,
            ep.value,
            getattr(dist, "name", None) or "unknown",
            getattr(dist, "version", None) or "?",
        )
        if not _NAME.match(ep.name):
            log.warning(
                "bot %r of %s is skipped: a bot name is lower-case letters, digits, '-' and '_' (a letter first, "
                "at most 40)",
                ep.name,
                bot.origin,
            )
        elif ep.name in builtin:
            log.warning("bot %r of %s is skipped: %r is a built-in bot or level", ep.name, bot.origin, ep.name)
        elif ep.name in found:
            log.warning(
                "bot %r of %s is skipped: %s declares that name too (and is found first)",
                ep.name,
                bot.origin,
                found[ep.name].origin,
            )
        else:
            found[ep.name] = bot
    return found


class PackageBotObject(Protocol):
    """What a package's factory is expected to make: ``act(obs)`` answering an :class:`~ramsli.hand.Action`
    or its text. Nothing of it is trusted: :class:`GuardedBot` checks every answer (anything else is a fault)."""

    def act(self, obs: Observation, /) -> object:
        """An action for ``obs.seat``, or its text (``"p2 pl AS"``)."""
        ...


class Player(Protocol):
    """A trusted player (the ``tips`` bot) that takes a guarded bot's faulty decisions."""

    def act(self, obs: Observation, /) -> Action:
        """One of ``obs.legal``."""
        ...


def origin_text(bot: PackageBot) -> str:
    """``"bot 'lowest' (package ramsli-example-bot 1.0.0)"``, the name used in every fault message."""
    return f"bot {bot.name!r} ({bot.origin})"


@dataclass(frozen=True)
class BotOption:
    """One option a bot takes in a spec (``name:option=value``).

    Attributes:
        name: the option's name.
        default: its default value (None if it has none).
        kind: ``"int"``, ``"float"``, ``"bool"``, ``"str"`` or ``"any"`` (from the default).
        low, high: the range the bot declares in ``OPTION_RANGES``, or None.
    """

    name: str
    default: object
    kind: str
    low: float | None = None
    high: float | None = None

    def text(self) -> str:
        """``"threshold=0.45 (float, 0..1)"``: the option as listed in help texts."""
        bounds = f", {self.low:g}..{self.high:g}" if self.low is not None and self.high is not None else ""
        return f"{self.name}={self.default!r} ({self.kind}{bounds})"


#: annotations that give an option its kind (any other annotation: the kind of the default)
_KINDS = {"int": "int", "float": "float", "bool": "bool", "str": "str"}


def option_specs(factory: Callable[..., object]) -> tuple[BotOption, ...]:
    """The options of a bot factory: its keyword arguments other than ``seed`` and ``rng``, typed by their
    annotations (``int``, ``float``, ``bool``, ``str``) or else by their defaults, with the ranges of its
    ``OPTION_RANGES`` mapping (``{option: (lo, hi)}``).

    >>> from ramsli.bots.base import bot_factory
    >>> [o.text() for o in option_specs(bot_factory("tips"))]
    ['variant=0 (int, 0..7)', 'tracking=True (bool)', 'eps=0.0 (float, 0..1)']
    """
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return ()
    ranges: Mapping[str, tuple[float, float]] = getattr(factory, "OPTION_RANGES", None) or {}
    out = []
    for p, v in params.items():
        if p in ("seed", "rng") or v.kind not in (v.POSITIONAL_OR_KEYWORD, v.KEYWORD_ONLY):
            continue
        default = None if v.default is inspect.Parameter.empty else v.default
        out_kind = _KINDS.get(v.annotation if isinstance(v.annotation, str) else getattr(v.annotation, "__name__", ""))
        kind = out_kind or (
            "bool"
            if isinstance(default, bool)
            else "int"
            if isinstance(default, int)
            else "float"
            if isinstance(default, float)
            else "str"
            if isinstance(default, str)
            else "any"
        )
        lo, hi = ranges.get(p, (None, None))
        out.append(BotOption(p, default, kind, lo, hi))
    return tuple(out)


class GuardedBot:
    """A bot of a package, guarded: a decision where it raises or answers with an action that is not one
    of ``obs.legal`` is taken by the ``tips`` player instead (logged, counted), so the hand goes on.

    An action given as text (``"p2 in"``) is read as :meth:`Action.parse <ramsli.hand.Action.parse>`
    does. ``inner=None`` is the stand-in for a package that failed to import: every decision is a
    fault. ``KeyboardInterrupt`` and ``SystemExit`` are not caught.

    Args:
        inner: the bot, or None.
        name: its registry name (the entry point's name); ``bot.name`` is this.
        origin: where it comes from, e.g. ``"package ramsli-example-bot 1.0.0"``.
        fallback: makes the ``tips`` bot that plays the faulty decisions (called on the first fault).
        error: why there is no ``inner`` (the import error), for the messages.

    Attributes:
        faults: decisions taken by the fallback so far.
        last_fault: the message of the latest fault, or None.

    >>> class Broken:
    ...     def act(self, obs):
    ...         raise RuntimeError("no idea")
    >>> import random
    >>> from ramsli import Hand, Rules
    >>> from ramsli.bots.base import make_bot
    >>> hand = Hand.new(Rules(), [20] * 3, dealer=0, rng=random.Random(1))
    >>> bot = GuardedBot(Broken(), "broken", "package demo 1.0", lambda: make_bot("tips"))
    >>> bot.act(hand.observe(hand.to_act)) in hand.legal_actions(), bot.faults
    (True, 1)
    """

    def __init__(
        self,
        inner: PackageBotObject | None,
        name: str,
        origin: str,
        fallback: Callable[[], Player],
        error: str | None = None,
    ) -> None:
        self.inner = inner
        self.name = name
        self.origin = origin
        self.error = error
        self.faults = 0
        self.last_fault: str | None = None
        self._fallback_factory = fallback
        self._fallback: Player | None = None

    def act(self, obs: Observation) -> Action:
        """The bot's legal action, or the ``tips`` move for this decision if it raised or answered
        with an action that is not legal.

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        if not obs.legal:
            raise ValueError(f"seat {seat_name(obs.seat)} has no legal action: it is not its turn")
        if self.inner is None:
            return self._replace(obs, f"failed to import ({self.error})")
        try:
            action = self.inner.act(obs)
        except Exception as e:  # noqa: BLE001 - a package's bug must not stop the table
            return self._replace(obs, f"raised {type(e).__name__}: {e}")
        if isinstance(action, str) and not isinstance(action, Action):
            try:
                action = Action.parse(action, len(obs.stacks))
            except ValueError:
                return self._replace(obs, f"returned {action!r}, which is not an action")
        if not isinstance(action, Action) or action not in obs.legal:
            legal = ", ".join(str(a) for a in obs.legal)
            return self._replace(obs, f"returned {action!r}, which is not legal here (legal: {legal})")
        return action

    def _replace(self, obs: Observation, why: str) -> Action:
        if self._fallback is None:
            self._fallback = self._fallback_factory()
        move = self._fallback.act(obs)
        self.faults += 1
        self.last_fault = why
        _FAULTS[self.name] = _FAULTS.get(self.name, 0) + 1
        level = logging.WARNING if _FAULTS[self.name] <= LOGGED_FAULTS else logging.DEBUG
        more = " (further faults of this bot are logged at DEBUG)" if _FAULTS[self.name] == LOGGED_FAULTS else ""
        log.log(
            level,
            "bot %r (%s) %s at seat %s; the tips move %s was played instead%s",
            self.name,
            self.origin,
            why,
            seat_name(obs.seat),
            move,
            more,
        )
        return move

    def __repr__(self) -> str:
        return f"GuardedBot({self.inner!r}, name={self.name!r}, origin={self.origin!r})"


class StandinFactory:
    """The factory of stand-ins for a package's bot that cannot be made: each stand-in is a
    :class:`GuardedBot` without a bot, so it plays ``fallback()``'s moves (the ``tips`` player's) and
    counts every decision as a fault. It takes and ignores any options.

    Attributes:
        standin: always True (how the registry tells a stand-in from a bot's factory).
        package: the package whose bot cannot be made.
        error: why not.
    """

    standin: ClassVar[bool] = True

    def __init__(self, package: PackageBot, error: str, fallback: Callable[[], Player]) -> None:
        self.package = package
        self.error = error
        self._fallback = fallback

    def __call__(self, seed: int | None = None, rng: random.Random | None = None, **options: object) -> GuardedBot:
        """A stand-in: a :class:`GuardedBot` without a bot (``seed``, ``rng`` and ``options`` are not used)."""
        return GuardedBot(None, self.package.name, self.package.origin, self._fallback, error=self.error)


def standin_factory(package: PackageBot, error: str, fallback: Callable[[], Player]) -> StandinFactory:
    """A :class:`StandinFactory` for a package's bot that cannot be made (logged once, as an error)."""
    log.error("%s cannot be used: %s; its seats play the tips moves", origin_text(package), error)
    return StandinFactory(package, error, fallback)


def load_factory(package: PackageBot, fallback: Callable[[], Player]) -> Callable[..., object]:
    """Import a package's bot factory (``module:attribute``); if that fails, or it is not callable, the
    error is logged and a :func:`standin_factory` is returned instead."""
    module, _, attr = package.target.partition(":")
    try:
        obj: object = importlib.import_module(module.strip())
        for part in filter(None, attr.strip().split(".")):
            obj = getattr(obj, part)
    except Exception as e:  # noqa: BLE001 - a broken package must not stop ramsli
        return standin_factory(package, f"{package.target} failed to import: {type(e).__name__}: {e}", fallback)
    if not callable(obj):
        return standin_factory(
            package, f"{package.target} is not a bot factory (a class or function), it is {obj!r}", fallback
        )
    return obj


@dataclass(frozen=True)
class BotInfo:
    """What :func:`describe_bot` tells about a bot.

    Attributes:
        name: the name asked for.
        kind: ``"built-in"``, ``"level"`` or ``"package"``.
        origin: ``"ramsli"``, or ``"package NAME VERSION"``.
        plays_as: the spec a level stands for (else the name).
        summary: the first line of the bot's docstring ("" if none).
        options: the options it takes in a spec (none for a level), with types and ranges.
        error: why a package's bot cannot be used (it then plays the ``tips`` moves), else None.
    """

    name: str
    kind: str
    origin: str
    plays_as: str
    summary: str
    options: tuple[BotOption, ...]
    error: str | None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: every attribute, options as ``{name, default, kind, low, high}``."""
        return asdict(self)


#: faults per bot name in this process (what decides the log level)
_FAULTS: dict[str, int] = {}
