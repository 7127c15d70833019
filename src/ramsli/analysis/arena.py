"""The arena: duplicate matches between any set of bots, each bot rated with OpenSkill. No I/O here.

A **match** is a duplicate set: ``set_deals`` deals (default 1), each played
once in every rotation of the match's bots around the table (bot ``j`` at seat
``(j + r) mod P`` in rotation ``r``), every hand from equal stacks
(``starting_stack``) and an empty pot, so every bot plays every seat's cards
and the luck of the deal cancels out. The match's **ranking** is its bots'
final counters over the set (the sum of their stack changes, ante included,
R4.1, R5), most first; equal counters are a tie.

Each bot has an OpenSkill rating (the ``openskill`` package's Plackett–Luce
model, Weng & Lin 2011, with its default parameters: μ₀ = 25, σ₀ = 25/3,
β = 25/6, τ = 25/300), updated after every match from that ranking, one team
of one bot per seat, in the order of the matches. Shown are μ (the skill
estimate), σ (its uncertainty) and the **conservative rating μ − 3σ**
(openskill's ``ordinal()``), by which the bots are ranked: it rises as a bot
wins and as σ shrinks.

What rotates, all from the arena's seed (the same seed gives the same
ratings, whatever ``jobs`` is or whether the matches run on a Dask cluster):

- the **presets**: match ``m`` is played under ``presets[m mod len(presets)]``
  (with the ``rules`` assignments on top);
- the **line-up**: which ``P`` of the bots sit (all of them when there are at
  most ``P``) and in what order around the table, drawn for every match;
- the deals: deal ``g`` (``g = m · set_deals + d``) is shuffled and cut
  (R4.2) by ``random.Random(f"{seed}:arena:deal:{g}")``, its dealer is seat
  ``g mod P``; the bots are made afresh for every hand with seeds from the
  arena's seed.

Every bot is guarded (:class:`~ramsli.bots.packages.GuardedBot`): a decision
where it raises or answers with an illegal action is taken by the ``tips``
player instead and counted as a **fault** of that bot, so a broken bot
(a package that fails to import plays the ``tips`` moves) loses nothing but
its own standing, and the arena goes on.

An entrant is anything with a ``label``, a ``spec``, a ``portable`` flag and a
``bot(seed)`` method (:class:`Entrant`): a :class:`BotEntrant` (a bot spec:
built-in, level or installed package) is rebuilt from its spec in any worker
process; an entrant that is not portable (a seat played by a client connected
from elsewhere) keeps the matches in this process (``jobs=1``, no scheduler).

>>> res = run_arena(["tips", "random", "random"], deals=4, seed=3)
>>> res.matches, [e.matches for e in res.entrants]
(4, [4, 4, 4])
>>> res.ranked()[0].label
'tips'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from openskill.models import PlackettLuce

from ramsli.analysis.cluster import DaskRunner, LocalRunner, Runner, stream_chunks
from ramsli.bots.base import Bot, describe_bot, make_bot
from ramsli.bots.levels import level_spec
from ramsli.bots.packages import GuardedBot
from ramsli.cards import make_deck
from ramsli.hand import Hand
from ramsli.rules import Rules

__all__ = [
    "FORMAT",
    "Entrant",
    "BotEntrant",
    "EntrantRating",
    "ArenaResult",
    "run_arena",
    "play_match",
    "match_ranks",
    "lineup",
    "MODEL",
    "Z",
]

#: the format tag of :meth:`ArenaResult.to_dict`
FORMAT = "ramsli-arena/1"
#: the rating shown and ranked by is μ − Z·σ (openskill's ``ordinal()``)
Z = 3.0
#: the OpenSkill model's parameters (openskill's defaults for Plackett–Luce)
MODEL: dict[str, float] = {"mu": 25.0, "sigma": 25.0 / 3.0, "beta": 25.0 / 6.0, "tau": 25.0 / 300.0, "kappa": 0.0001}


@runtime_checkable
class Entrant(Protocol):
    """A bot in the arena.

    Attributes:
        label: its name in the results (unique in one arena).
        spec: the bot spec it plays (for the results; a remote entrant says what it is).
        portable: True if :meth:`bot` works in any process (the matches may run in worker
            processes or on a Dask cluster); False keeps every match in this process.
    """

    @property
    def label(self) -> str: ...

    @property
    def spec(self) -> str: ...

    @property
    def portable(self) -> bool: ...

    def bot(self, seed: int) -> Bot:
        """A fresh player for one hand, seeded with ``seed``."""
        ...


@dataclass(frozen=True)
class BotEntrant:
    """An entrant that is a bot spec (a built-in bot, a level, an installed package's bot), made by
    :func:`ramsli.bots.make_bot` wherever the match is played."""

    label: str
    spec: str
    portable: ClassVar[bool] = True

    def bot(self, seed: int) -> Bot:
        """``make_bot(spec, seed=seed)``."""
        return make_bot(self.spec, seed=seed)


@dataclass
class EntrantRating:
    """One entrant's rating and record after the arena.

    Attributes:
        label, spec: as the entrant's; plays_as: the spec a level stands for (else the spec).
        origin: ``"ramsli"`` or ``"package NAME VERSION"``.
        mu, sigma: the OpenSkill rating (μ, σ) after the last match.
        rating: the conservative rating μ − 3σ, by which the arena ranks.
        matches: matches played; hands: hands played (matches × set_deals × rotations).
        mean: counters per hand (mean over its matches); ci95: the half-width of its 95% interval.
        firsts: matches it ranked first in (a tie for first counts for each tied bot).
        faults: decisions taken by the ``tips`` player because the bot raised or answered
            illegally (or could not be imported); decisions: its decisions in all.
        time_mean_ms: mean decision time, milliseconds (the only figure a run does not repeat).
        error: the first fault's message, or None.
    """

    label: str
    spec: str
    plays_as: str
    origin: str
    mu: float
    sigma: float
    rating: float
    matches: int = 0
    hands: int = 0
    mean: float = 0.0
    ci95: float = 0.0
    firsts: int = 0
    faults: int = 0
    decisions: int = 0
    time_mean_ms: float = 0.0
    error: str | None = None


@dataclass
class ArenaResult:
    """What :func:`run_arena` returns.

    Attributes:
        entrants: one :class:`EntrantRating` per entrant, in the order given.
        deals, matches, set_deals, players: the run's size (deals = matches × set_deals).
        presets: the presets in rotation; rules: the ``key=value`` assignments on top of each.
        seed: the arena's seed; seconds: wall-clock seconds.
        history: after every ``history_every``-th match, the conservative rating of every entrant
            (for plots; at most about 200 points).
    """

    entrants: list[EntrantRating]
    deals: int
    matches: int
    set_deals: int
    players: int
    presets: list[str]
    rules: list[str]
    seed: int
    seconds: float
    history_every: int = 1
    history: list[list[float]] = field(default_factory=list, repr=False)

    def ranked(self) -> list[EntrantRating]:
        """The entrants by conservative rating, best first (then by μ, then by label)."""
        return sorted(self.entrants, key=lambda e: (-e.rating, -e.mu, e.label))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the run, the model and every entrant (ranked)."""
        return {
            "format": FORMAT,
            "deals": self.deals,
            "matches": self.matches,
            "set_deals": self.set_deals,
            "players": self.players,
            "presets": list(self.presets),
            "rules": list(self.rules),
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "model": {"name": "openskill PlackettLuce", **MODEL},
            "rating": f"mu - {Z:g} * sigma",
            "entrants": [asdict(e) for e in self.ranked()],
            "history_every": self.history_every,
            "history": {"labels": [e.label for e in self.entrants], "ratings": self.history},
        }

    def to_markdown(self) -> str:
        """A Markdown table of the ranked entrants, with a line saying what was played."""
        head = (
            f"{self.matches} matches of {self.set_deals} deal{'s' if self.set_deals != 1 else ''} × {self.players} "
            f"rotations ({self.deals} deals), presets {', '.join(self.presets)}"
            f"{' with ' + ', '.join(self.rules) if self.rules else ''}, seed {self.seed}; "
            f"rating = μ − {Z:g}σ (OpenSkill Plackett–Luce)"
        )
        rows = [
            head,
            "",
            "| # | bot | rating (μ − 3σ) | μ | σ | matches | counters/hand (95% CI) | first | faults |",
            "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for i, e in enumerate(self.ranked(), 1):
            rows.append(
                f"| {i} | `{e.label}` | {e.rating:.2f} | {e.mu:.2f} | {e.sigma:.2f} | {e.matches} | "
                f"{e.mean:+.3f} ± {e.ci95:.3f} | {e.firsts} | {e.faults} |"
            )
        return "\n".join(rows) + "\n"


def lineup(seed: int, m: int, k: int, players: int) -> list[int]:
    """The entrants (indices 0..k-1) at the table in match ``m``, seat order: ``players`` of them drawn
    without replacement from the match's random stream (all ``k``, shuffled, when ``k == players``).

    >>> lineup(1, 0, 3, 3) == lineup(1, 0, 3, 3), sorted(lineup(1, 0, 3, 3))
    (True, [0, 1, 2])
    """
    return random.Random(f"{seed}:arena:lineup:{m}").sample(range(k), players)


def match_ranks(counters: Sequence[int]) -> list[int]:
    """The ranking of a match from the bots' final counters: 1 for the most, equal counters share a
    rank (1 + the number of bots with more).

    >>> match_ranks([3, -1, 3, 0])
    [1, 4, 1, 3]
    """
    return [1 + sum(1 for other in counters if other > c) for c in counters]


def _guarded(bot: Bot, label: str) -> Bot:
    """``bot`` behind a guard (a package's bot has one already)."""
    if isinstance(bot, GuardedBot):
        return bot
    return GuardedBot(bot, label, "ramsli", lambda: make_bot("tips"))


def play_match(entrants: Sequence[Entrant], rules: Rules, seed: int, m: int, set_deals: int) -> dict[str, Any]:
    """Play match ``m``: ``set_deals`` deals, each in every rotation of ``entrants`` (seat order).

    Returns:
        ``{"m", "net", "faults", "decisions", "seconds", "errors"}``: per entrant of the match, its
        counters over the set, its faults, decisions, thinking seconds and first fault message (or None).
    """
    n = len(entrants)
    net = [0] * n
    faults = [0] * n
    decisions = [0] * n
    seconds = [0.0] * n
    errors: list[str | None] = [None] * n
    start = [rules.starting_stack] * n
    pc = time.perf_counter
    for d in range(set_deals):
        g = m * set_deals + d
        rng = random.Random(f"{seed}:arena:deal:{g}")
        deck = list(make_deck(rules.deck, rules.jokers))
        rng.shuffle(deck)
        cut = rng.randrange(1, len(deck))
        dealer = g % n
        for r in range(n):
            slot_at = {(j + r) % n: j for j in range(n)}
            bots = {
                (j + r) % n: _guarded(
                    entrants[j].bot(random.Random(f"{seed}:arena:bot:{g}:{r}:{j}").getrandbits(32)), entrants[j].label
                )
                for j in range(n)
            }
            hand = Hand.from_deck(rules, start, dealer, deck, cut, pot=0)
            while not hand.is_over:
                s = hand.to_act
                assert s is not None
                obs = hand.observe(s)
                t0 = pc()
                action = bots[s].act(obs)
                seconds[slot_at[s]] += pc() - t0
                decisions[slot_at[s]] += 1
                hand.apply(action)
            for seat, bot in bots.items():
                j = slot_at[seat]
                net[j] += hand.stacks[seat] - start[seat]
                f = getattr(bot, "faults", 0)
                faults[j] += f
                if f and errors[j] is None:
                    errors[j] = getattr(bot, "last_fault", None)
    return {"m": m, "net": net, "faults": faults, "decisions": decisions, "seconds": seconds, "errors": errors}


def _chunk(args: tuple) -> list[dict[str, Any]]:
    entrants, rules_dicts, seed, lo, hi, set_deals, players = args
    rules = [Rules.from_dict(r) for r in rules_dicts]
    out = []
    for m in range(lo, hi):
        seats = lineup(seed, m, len(entrants), players)
        res = play_match([entrants[i] for i in seats], rules[m % len(rules)], seed, m, set_deals)
        res["lineup"] = seats
        out.append(res)
    return out


def run_arena(
    entrants: Sequence[str | Entrant],
    deals: int,
    *,
    presets: Sequence[str] = ("traditional",),
    rules: Sequence[str] = (),
    players: int | None = None,
    set_deals: int = 1,
    seed: int = 0,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = 0,
) -> ArenaResult:
    """Play ``deals`` deals of duplicate matches between ``entrants`` and rate them (see the module text).

    The matches are played in work units (locally, in ``jobs`` processes, or as tasks on a Dask
    cluster) and their rankings are rated in the order of the matches, a bounded window at a time,
    so memory does not grow with ``deals``.

    Args:
        entrants: bot specs (``"hard"``, ``"montecarlo:samples=8"``, an installed package's bot) or
            :class:`Entrant` objects; at least 2. A spec given twice is labelled ``spec#1``, ``spec#2``.
        deals: deals in all, >= 1, a multiple of ``set_deals``.
        presets: presets of R6, in rotation (one per match).
        rules: ``key=value`` assignments (R8) on top of every preset.
        players: seats at the table, 2..6 and at most the number of entrants (default: every entrant
            when there are at most 6, else 5).
        set_deals: deals in one match (each in every rotation).
        seed: the arena's seed, >= 0 (same seed, same ratings).
        jobs: worker processes (1: this process).
        scheduler: a Dask scheduler ``tcp://HOST:PORT`` instead of local processes (the extra ``dask``;
            every worker needs the same ramsli and any bot packages named).
        progress: called with the number of deals just finished.
        chunk: matches per work unit (0: automatic).

    Raises:
        ValueError: for fewer than 2 entrants, a bad bot spec, an unknown preset or rule option, a
            table size outside 2..6 or above the entrants, ``deals`` not a positive multiple of
            ``set_deals``, a negative seed, two entrants with one label, or ``jobs``/``scheduler``
            with an entrant that is not portable.
        ClusterError: (``ramsli.analysis.cluster``) when the cluster cannot be used.
    """
    ents = _entrants(entrants)
    k = len(ents)
    if k < 2:
        raise ValueError(f"{k} bot{'s' if k != 1 else ''} given; the arena needs at least 2")
    players = players if players is not None else (k if k <= 6 else 5)
    if not 2 <= players <= 6:
        raise ValueError(f"players={players}: a table seats 2..6 (R2.1)")
    if players > k:
        raise ValueError(f"players={players} but only {k} bots: at most one seat per bot")
    if set_deals < 1:
        raise ValueError(f"set_deals={set_deals}: allowed is a whole number >= 1")
    if deals < 1 or deals % set_deals:
        raise ValueError(f"deals={deals}: allowed is a whole number >= 1 and a multiple of set_deals={set_deals}")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed={seed}: allowed is a whole number >= 0")
    if not presets:
        raise ValueError("no preset given; name at least one (R6)")
    all_rules = []
    for p in presets:
        r = Rules.preset(p).with_assignments(list(rules))
        if r.players is not None and r.players != players:
            raise ValueError(f"option players={r.players} but the arena's table has {players} seats (R2.1)")
        all_rules.append(r)
    if any(not e.portable for e in ents) and (scheduler or jobs != 1):
        raise ValueError("an entrant that plays from elsewhere keeps the arena in this process: jobs=1, no scheduler")
    for e in ents:
        if isinstance(e, BotEntrant):
            make_bot(e.spec, seed=0)  # names and options refused now, before any match
    matches = deals // set_deals
    runner: Runner | None = None
    if scheduler:
        runner = DaskRunner(scheduler)
        runner.connect()
    t0 = time.perf_counter()
    if runner is None:
        jobs = max(1, int(jobs))
        size = chunk or max(1, min(25, matches // (jobs * 8) or 1))
    else:
        size = chunk or max(1, min(100, matches // (runner.parallelism * 4) or 1))
    units = -(-matches // size)
    if runner is None:
        runner = LocalRunner(min(jobs, units), pool=ProcessPoolExecutor)

    model = PlackettLuce(
        mu=MODEL["mu"], sigma=MODEL["sigma"], beta=MODEL["beta"], tau=MODEL["tau"], kappa=MODEL["kappa"]
    )
    ratings = [model.rating(name=e.label) for e in ents]
    tally: dict[str, list[int]] = {
        key: [0] * k for key in ("matches", "hands", "sum", "sum_sq", "firsts", "faults", "decisions")
    }
    thinking = [0.0] * k  # seconds per entrant
    errors: list[str | None] = [None] * k
    every = max(1, matches // 200)
    history: list[list[float]] = []
    waiting: dict[int, list[dict[str, Any]]] = {}
    done = [0]  # the next work unit to rate

    def rate(res: dict[str, Any]) -> None:
        seats = res["lineup"]
        ranks = match_ranks(res["net"])
        new = model.rate([[ratings[i]] for i in seats], ranks=[float(r) for r in ranks])
        for slot, i in enumerate(seats):
            ratings[i] = new[slot][0]
            tally["matches"][i] += 1
            tally["hands"][i] += set_deals * players
            tally["sum"][i] += res["net"][slot]
            tally["sum_sq"][i] += res["net"][slot] ** 2
            tally["firsts"][i] += ranks[slot] == 1
            tally["faults"][i] += res["faults"][slot]
            tally["decisions"][i] += res["decisions"][slot]
            thinking[i] += res["seconds"][slot]
            if errors[i] is None and res["errors"][slot] is not None:
                errors[i] = res["errors"][slot]
        if (res["m"] + 1) % every == 0:
            history.append([round(r.ordinal(z=Z), 4) for r in ratings])

    def finished(unit: int, results: list[dict[str, Any]]) -> None:
        waiting[unit] = results  # units finish in any order; they are rated in match order
        while done[0] in waiting:
            for res in waiting.pop(done[0]):
                rate(res)
            done[0] += 1
        if progress:
            progress(len(results) * set_deals)

    rd = [r.to_dict() for r in all_rules]
    work = (((ents, rd, seed, lo, min(matches, lo + size), set_deals, players),) for lo in range(0, matches, size))
    with runner:
        stream_chunks(runner, _chunk, work, finished)
    out = []
    for i, e in enumerate(ents):
        n, h = tally["matches"][i], tally["hands"][i]
        per = set_deals * players  # hands per match
        var = (tally["sum_sq"][i] - tally["sum"][i] ** 2 / n) / (n - 1) / per**2 if n > 1 else 0.0
        info = describe_bot(e.spec.partition(":")[0]) if isinstance(e, BotEntrant) else None
        out.append(
            EntrantRating(
                label=e.label,
                spec=e.spec,
                plays_as=level_spec(e.spec) if isinstance(e, BotEntrant) else e.spec,
                origin=info.origin if info is not None else "remote",
                mu=ratings[i].mu,
                sigma=ratings[i].sigma,
                rating=ratings[i].ordinal(z=Z),
                matches=n,
                hands=h,
                mean=tally["sum"][i] / h if h else 0.0,
                ci95=1.96 * math.sqrt(max(var, 0.0)) / math.sqrt(n) if n else 0.0,
                firsts=tally["firsts"][i],
                faults=tally["faults"][i],
                decisions=tally["decisions"][i],
                time_mean_ms=1000 * thinking[i] / tally["decisions"][i] if tally["decisions"][i] else 0.0,
                error=errors[i] or (info.error if info is not None else None),
            )
        )
    return ArenaResult(
        out,
        deals,
        matches,
        set_deals,
        players,
        list(presets),
        list(rules),
        seed,
        time.perf_counter() - t0,
        every,
        history,
    )


def _entrants(entrants: Sequence[str | Entrant]) -> list[Entrant]:
    """Entrant objects for specs (labels ``spec#k`` for a repeated spec); labels must be unique."""
    specs = [e.strip() if isinstance(e, str) else e.label for e in entrants]
    out: list[Entrant] = []
    seen: dict[str, int] = {}
    for e, key in zip(entrants, specs):
        if isinstance(e, str):
            seen[key] = seen.get(key, 0) + 1
            out.append(BotEntrant(key if specs.count(key) == 1 else f"{key}#{seen[key]}", key))
        else:
            out.append(e)
    labels = [e.label for e in out]
    for lab in labels:
        if labels.count(lab) > 1:
            raise ValueError(f"two entrants are labelled {lab!r}; every entrant needs a label of its own")
    return out
