"""Tournaments between bots, with duplicate deals (issue #4). No I/O here.

Every deal ``i`` is reproducible from the tournament seed: its deck order and
cut come from ``random.Random(f"{seed}:deal:{i}")`` (R4.2), its dealer is seat
``i mod n``, every hand starts from equal stacks (``starting_stack``) and an
empty pot (no carry-over), so deals are comparable.

- plain: deal ``i`` is played once, bot ``j`` sitting at seat ``(j + i) mod n``;
- ``duplicate``: deal ``i`` is played once for every rotation ``r`` of the bots
  around the table (bot ``j`` at seat ``(j + r) mod n``), so every bot plays
  every seat's cards and the luck of the deal cancels out.

A bot's result for a hand is the change of its stack over the hand in counters
(ante included, R4.1, R5). The statistics unit is the deal (the average over
its rotations in duplicate), so the 95% confidence interval is
``mean ± 1.96 · sd / sqrt(deals)``. Bots are created afresh for every hand
with a seed derived from the tournament seed, so the same seed gives the same
results whatever ``jobs`` is.

>>> from ramsli.rules import Rules
>>> res = run_tournament(["rules", "random", "random"], Rules(), deals=4, seed=1, duplicate=True)
>>> res.hands, [round(b.in_rate, 2) <= 1 for b in res.bots]
(12, [True, True, True])
"""

from __future__ import annotations

import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Callable, Sequence

from ramsli.analysis.cluster import DaskRunner, LocalRunner, Runner, run_chunks
from ramsli.bots.base import make_bot
from ramsli.cards import make_deck
from ramsli.hand import Hand
from ramsli.rules import Rules

__all__ = ["BotResult", "TournamentResult", "run_tournament", "play_deal", "deal_deck"]


@dataclass
class BotResult:
    """Per-bot summary of a tournament.

    Attributes:
        label: the bot's label (its spec, with ``#k`` added when a spec repeats).
        spec: the bot spec given to :func:`ramsli.bots.make_bot`.
        hands: hands played.
        mean: counters per hand (mean over deals of the per-deal average).
        ci95: half-width of the 95% confidence interval of ``mean``, counters.
        in_rate: share of hands in which it was in (R4.5; compulsory: 1).
        bete_rate: share of hands in which it paid bete (R5.3).
        bete_when_in: share of its in-hands with a bete.
        pot_rate: share of hands in which it took (a share of) the pot (R5.1, R5.2, R4.6).
        decisions: decisions taken (``act`` calls).
        time_median_ms, time_p95_ms, time_max_ms: decision time, milliseconds.
    """

    label: str
    spec: str
    hands: int = 0
    mean: float = 0.0
    ci95: float = 0.0
    in_rate: float = 0.0
    bete_rate: float = 0.0
    bete_when_in: float = 0.0
    pot_rate: float = 0.0
    decisions: int = 0
    time_median_ms: float = 0.0
    time_p95_ms: float = 0.0
    time_max_ms: float = 0.0


@dataclass
class TournamentResult:
    """What :func:`run_tournament` returns.

    Attributes:
        bots: one :class:`BotResult` per entry of ``specs``, in that order.
        deals: deals played; hands: hands played (deals × rotations).
        duplicate: whether each deal was played in every rotation.
        seed: the tournament seed; rules: the rules (as a dict of options).
        seconds: wall-clock seconds.
        per_deal: per deal, counters per bot (the rotation average), for plots.
    """

    bots: list[BotResult]
    deals: int
    hands: int
    duplicate: bool
    seed: int
    rules: dict
    seconds: float
    per_deal: list[list[float]] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        """JSON-ready summary (without ``per_deal``)."""
        return {"deals": self.deals, "hands": self.hands, "duplicate": self.duplicate, "seed": self.seed,
                "rules": self.rules, "seconds": round(self.seconds, 3), "bots": [asdict(b) for b in self.bots]}


def deal_deck(rules: Rules, seed: int, i: int) -> tuple[list, int]:
    """The shuffled deck (top first) and cut of deal ``i`` (R4.2), from the tournament seed."""
    rng = random.Random(f"{seed}:deal:{i}")
    deck = list(make_deck(rules.deck, rules.jokers))
    rng.shuffle(deck)
    return deck, rng.randrange(1, len(deck))


def play_deal(specs: Sequence[str], rules: Rules, seed: int, i: int, duplicate: bool) -> dict:
    """Play deal ``i`` (every rotation if ``duplicate``) and return raw per-bot results.

    Returns:
        a dict with, per bot index, lists ``net`` (counters per hand), ``inn``, ``bete``,
        ``pot`` (0/1 per hand) and ``times`` (seconds per decision).

    Raises:
        IllegalActionError: if a bot returns an illegal action (a bug in that bot).
    """
    n = len(specs)
    deck, cut = deal_deck(rules, seed, i)
    dealer = i % n
    rotations = range(n) if duplicate else [i % n]
    out = {"net": [[] for _ in specs], "inn": [[] for _ in specs], "bete": [[] for _ in specs],
           "pot": [[] for _ in specs], "times": [[] for _ in specs]}
    start = [rules.starting_stack] * n
    for r in rotations:
        seat_of = [(j + r) % n for j in range(n)]
        bot_at = {seat_of[j]: j for j in range(n)}
        bots = {seat_of[j]: make_bot(specs[j], seed=hash((seed, i, r, j)) & 0xFFFFFFFF) for j in range(n)}
        hand = Hand.from_deck(rules, start, dealer, deck, cut, pot=0)
        times = out["times"]
        pc = time.perf_counter
        while not hand.is_over:
            s = hand.to_act
            obs = hand.observe(s)
            t0 = pc()
            action = bots[s].act(obs)
            times[bot_at[s]].append(pc() - t0)
            hand.apply(action)
        st = hand.settlement
        for seat in range(n):
            j = bot_at[seat]
            out["net"][j].append(hand.stacks[seat] - start[seat])
            out["inn"][j].append(1 if seat in st.active else 0)
            out["bete"][j].append(1 if seat in st.bete or (st.general_rams == seat and not st.general_rams_made)
                                  else 0)
            out["pot"][j].append(1 if seat in st.winners else 0)
    return out


def _chunk(args: tuple) -> list[dict]:
    specs, rules_dict, seed, lo, hi, duplicate = args
    rules = Rules.from_dict(rules_dict)
    return [play_deal(specs, rules, seed, i, duplicate) for i in range(lo, hi)]


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_tournament(specs: Sequence[str], rules: Rules, deals: int, seed: int = 0, jobs: int = 1,
                   duplicate: bool = False, progress: Callable[[int], None] | None = None,
                   chunk: int = 0, scheduler: str | None = None) -> TournamentResult:
    """Play ``deals`` deals between the bots ``specs`` (one per seat, 2..6) and summarize.

    Args:
        specs: bot specs, e.g. ``["montecarlo", "rules", "random"]``.
        rules: the rules in force (R6, R8).
        deals: number of deals, >= 1.
        seed: tournament seed (same seed, same results).
        jobs: worker processes (1: in this process); at most one per work unit is started.
        duplicate: play every deal in every rotation of the bots.
        progress: called with the number of deals just finished.
        chunk: deals per work unit (0: automatic).
        scheduler: a Dask scheduler ``tcp://HOST:PORT``: the work units become tasks on that
            cluster instead of local processes (``jobs`` is then not used; the extra ``dask``).
            The results are the same as locally (:mod:`ramsli.analysis.cluster`).

    Raises:
        ValueError: for fewer than 2 or more than 6 bots, a number of bots unlike the option
            ``players`` (R2.1), an unknown bot, deals < 1, or a negative seed.
        ClusterError: (``ramsli.analysis.cluster``) when the cluster cannot be used.
    """
    specs = list(specs)
    if not 2 <= len(specs) <= 6:
        raise ValueError(f"{len(specs)} bots: a table seats 2..6 (R2.1), one bot per seat")
    if rules.players is not None and rules.players != len(specs):
        raise ValueError(f"{len(specs)} bots but option players={rules.players}: name one bot per seat (R2.1)")
    if deals < 1:
        raise ValueError(f"deals={deals}: allowed is a whole number >= 1")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed={seed}: allowed is a whole number >= 0")
    for s in specs:
        make_bot(s, seed=0)  # validates names and options early
    runner: Runner | None = None
    if scheduler:
        runner = DaskRunner(scheduler)
        runner.connect()
    t0 = time.perf_counter()
    if runner is None:
        jobs = max(1, int(jobs))
        size = chunk or max(1, min(50, deals // (jobs * 8) or 1))
    else:  # larger tasks on a cluster, so that the scheduler keeps many workers busy (docs/benchmarks.md)
        size = chunk or max(1, min(200, deals // (runner.parallelism * 4) or 1))
    bounds = [(lo, min(deals, lo + size)) for lo in range(0, deals, size)]
    if runner is None:  # never more worker processes than work units
        runner = LocalRunner(min(jobs, len(bounds)), pool=ProcessPoolExecutor)
    rd = rules.to_dict()
    with runner:
        results = run_chunks(runner, _chunk, [((specs, rd, seed, lo, hi, duplicate),) for lo, hi in bounds],
                             on_done=(lambda k, _: progress(bounds[k][1] - bounds[k][0])) if progress else None)
    flat = [d for part in results for d in part]
    labels = _labels(specs)
    bots = []
    per_deal = [[statistics.fmean(d["net"][j]) for j in range(len(specs))] for d in flat]
    for j, spec in enumerate(specs):
        nets = [x for d in flat for x in d["net"][j]]
        inn = [x for d in flat for x in d["inn"][j]]
        bete = [x for d in flat for x in d["bete"][j]]
        pot = [x for d in flat for x in d["pot"][j]]
        times = [x for d in flat for x in d["times"][j]]
        deal_means = [row[j] for row in per_deal]
        sd = statistics.stdev(deal_means) if len(deal_means) > 1 else 0.0
        n_in = sum(inn)
        bots.append(BotResult(
            label=labels[j], spec=spec, hands=len(nets), mean=statistics.fmean(deal_means),
            ci95=1.96 * sd / math.sqrt(len(deal_means)), in_rate=n_in / len(nets),
            bete_rate=sum(bete) / len(nets), bete_when_in=(sum(bete) / n_in) if n_in else 0.0,
            pot_rate=sum(pot) / len(nets), decisions=len(times),
            time_median_ms=1000 * _pct(times, 0.5), time_p95_ms=1000 * _pct(times, 0.95),
            time_max_ms=1000 * max(times, default=0.0)))
    hands = sum(len(d["net"][0]) for d in flat)
    return TournamentResult(bots, deals, hands, duplicate, seed, rd, time.perf_counter() - t0, per_deal)


def _labels(specs: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if specs.count(s) == 1 else f"{s}#{seen[s]}")
    return out
