"""Tournaments between bots, with duplicate deals. No I/O here.

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

Results are aggregated as the work units finish (exact integer sums per bot,
decision times in a histogram), never kept per hand or per decision, so a
tournament of a million deals needs as little memory as one of a hundred;
only the first :data:`PER_DEAL_KEPT` deals keep their per-deal row.

>>> from ramsli.rules import Rules
>>> res = run_tournament(["rules", "random", "random"], Rules(), deals=4, seed=1, duplicate=True)
>>> res.hands, [round(b.in_rate, 2) <= 1 for b in res.bots]
(12, [True, True, True])
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from fractions import Fraction

from ramsli.analysis.cluster import DaskRunner, LocalRunner, Runner, stream_chunks
from ramsli.bots.base import make_bot
from ramsli.bots.levels import level_spec
from ramsli.cards import Card, make_deck
from ramsli.hand import Hand
from ramsli.rules import Rules
from ramsli.session import check_setup

__all__ = ["BotResult", "TournamentResult", "run_tournament", "play_deal", "deal_deck", "PER_DEAL_KEPT"]

#: deals whose per-deal row (:attr:`TournamentResult.per_deal`) is kept: the first ones only, so that
#: memory does not grow with the number of deals
PER_DEAL_KEPT = 10_000
#: decision times are counted in bins 2**(1/TIME_BINS_PER_OCTAVE) wide from TIME_MIN_S seconds on: the
#: median and 95th percentile are exact to about 2 % (the maximum is exact)
TIME_MIN_S = 1e-7
TIME_BINS_PER_OCTAVE = 16


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
        plays_as: the bot spec that was played: a level (``easy`` ...) as the spec it stands for
            (:func:`ramsli.bots.levels.level_spec`), so that results stay readable if levels change.
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
    plays_as: str = ""


@dataclass
class TournamentResult:
    """What :func:`run_tournament` returns.

    Attributes:
        bots: one :class:`BotResult` per entry of ``specs``, in that order.
        deals: deals played; hands: hands played (deals × rotations).
        duplicate: whether each deal was played in every rotation.
        seed: the tournament seed; rules: the rules (as a dict of options).
        seconds: wall-clock seconds.
        per_deal: per deal, counters per bot (the rotation average), for plots: the first
            :data:`PER_DEAL_KEPT` deals only.
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
        return {
            "deals": self.deals,
            "hands": self.hands,
            "duplicate": self.duplicate,
            "seed": self.seed,
            "rules": self.rules,
            "seconds": round(self.seconds, 3),
            "bots": [asdict(b) for b in self.bots],
        }


def deal_deck(rules: Rules, seed: int, i: int) -> tuple[list[Card], int]:
    """The shuffled deck (top first) and cut of deal ``i`` (R4.2), from the tournament seed."""
    rng = random.Random(f"{seed}:deal:{i}")
    deck = list(make_deck(rules.deck, rules.jokers))
    rng.shuffle(deck)
    return deck, rng.randrange(1, len(deck))


def play_deal(specs: Sequence[str], rules: Rules, seed: int, i: int, duplicate: bool) -> dict[str, list[list[float]]]:
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
    out: dict[str, list[list[float]]] = {
        "net": [[] for _ in specs],
        "inn": [[] for _ in specs],
        "bete": [[] for _ in specs],
        "pot": [[] for _ in specs],
        "times": [[] for _ in specs],
    }
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
            assert s is not None  # a hand that is not over has a seat to act
            obs = hand.observe(s)
            t0 = pc()
            action = bots[s].act(obs)
            times[bot_at[s]].append(pc() - t0)
            hand.apply(action)
        st = hand.settlement
        assert st is not None  # the hand is over
        for seat in range(n):
            j = bot_at[seat]
            out["net"][j].append(hand.stacks[seat] - start[seat])
            out["inn"][j].append(1 if seat in st.active else 0)
            out["bete"][j].append(1 if seat in st.bete or (st.general_rams == seat and not st.general_rams_made) else 0)
            out["pot"][j].append(1 if seat in st.winners else 0)
    return out


def _time_bin(t: float) -> int:
    """The histogram bin of a decision time of ``t`` seconds (0 for anything up to :data:`TIME_MIN_S`)."""
    return 0 if t <= TIME_MIN_S else int(math.log2(t / TIME_MIN_S) * TIME_BINS_PER_OCTAVE)


def _time_pct(hist: dict[int, int], q: float, lo: float, hi: float) -> float:
    """The ``q`` quantile (the order statistic ``int(q * count)``, as of a sorted list) of the times
    counted in ``hist``, as the middle of its bin kept within the smallest and largest time ``lo``, ``hi``."""
    count = sum(hist.values())
    if not count:
        return 0.0
    want = min(count - 1, int(q * count))
    seen = 0
    for b in sorted(hist):
        seen += hist[b]
        if seen > want:
            mid = TIME_MIN_S * 2 ** ((b + 0.5) / TIME_BINS_PER_OCTAVE) if b else TIME_MIN_S / 2
            return min(max(mid, lo), hi)
    return hi  # pragma: no cover - the counts add up


def _new_tally(n: int) -> dict:
    """The running totals of a tournament (or of one work unit) for ``n`` bots."""
    return {
        "deals": 0,
        "hands": [0] * n,
        "sum": [0] * n,
        "sum_sq": [0] * n,
        "inn": [0] * n,
        "bete": [0] * n,
        "pot": [0] * n,
        "times": [dict() for _ in range(n)],
        "t_min": [math.inf] * n,
        "t_max": [0.0] * n,
        "rows": [],
    }


def _add_deal(tally: dict, i: int, d: dict) -> None:
    """Add the raw results ``d`` of deal ``i`` (:func:`play_deal`) to ``tally``."""
    tally["deals"] += 1
    row = []
    for j, nets in enumerate(d["net"]):
        s = sum(nets)  # counters over the deal's rotations (whole numbers): exact sums
        tally["hands"][j] += len(nets)
        tally["sum"][j] += s
        tally["sum_sq"][j] += s * s
        tally["inn"][j] += sum(d["inn"][j])
        tally["bete"][j] += sum(d["bete"][j])
        tally["pot"][j] += sum(d["pot"][j])
        hist = tally["times"][j]
        for t in d["times"][j]:
            b = _time_bin(t)
            hist[b] = hist.get(b, 0) + 1
            tally["t_min"][j] = min(tally["t_min"][j], t)
            tally["t_max"][j] = max(tally["t_max"][j], t)
        row.append(s / len(nets))
    if i < PER_DEAL_KEPT:
        tally["rows"].append((i, row))


def _merge(tally: dict, part: dict) -> None:
    """Add a work unit's totals to the run's."""
    tally["deals"] += part["deals"]
    for key in ("hands", "sum", "sum_sq", "inn", "bete", "pot"):
        tally[key] = [a + b for a, b in zip(tally[key], part[key])]
    for j, hist in enumerate(part["times"]):
        mine = tally["times"][j]
        for b, c in hist.items():
            mine[b] = mine.get(b, 0) + c
    tally["t_min"] = [min(a, b) for a, b in zip(tally["t_min"], part["t_min"])]
    tally["t_max"] = [max(a, b) for a, b in zip(tally["t_max"], part["t_max"])]
    tally["rows"] += part["rows"]


def _chunk(args: tuple) -> dict:
    specs, rules_dict, seed, lo, hi, duplicate = args
    rules = Rules.from_dict(rules_dict)
    tally = _new_tally(len(specs))
    for i in range(lo, hi):
        _add_deal(tally, i, play_deal(specs, rules, seed, i, duplicate))
    return tally


def run_tournament(
    specs: Sequence[str],
    rules: Rules,
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    duplicate: bool = False,
    progress: Callable[[int], None] | None = None,
    chunk: int = 0,
    scheduler: str | None = None,
) -> TournamentResult:
    """Play ``deals`` deals between the bots ``specs`` (one per seat, 2..6) and summarize.

    The work units are made and submitted a bounded window at a time and their totals merged as they
    finish (:func:`ramsli.analysis.cluster.stream_chunks`): memory does not grow with ``deals``.

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
        TableError: (a ``ValueError``) from :func:`ramsli.session.check_setup`: fewer than 2 or
            more than 6 bots, a number of bots unlike the option ``players`` (R2.1), an ante above
            the starting stack (R3.5).
        ValueError: for an unknown bot, deals < 1, or a negative seed.
        ClusterError: (``ramsli.analysis.cluster``) when the cluster cannot be used.
    """
    specs = list(specs)
    check_setup(rules, len(specs))  # one bot per seat
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
    units = -(-deals // size)
    if runner is None:  # never more worker processes than work units
        runner = LocalRunner(min(jobs, units), pool=ProcessPoolExecutor)
    rd = rules.to_dict()
    n = len(specs)
    total = _new_tally(n)

    def finished(k: int, part: dict) -> None:
        _merge(total, part)  # exact integer sums and counts: the same in any order
        if progress:
            progress(part["deals"])

    work = (((specs, rd, seed, lo, min(deals, lo + size), duplicate),) for lo in range(0, deals, size))
    with runner:
        stream_chunks(runner, _chunk, work, finished)
    labels = _labels(specs)
    bots = []
    d = total["deals"]
    for j, spec in enumerate(specs):
        h = total["hands"][j]
        r = h // d  # hands per deal: the rotations
        mean = Fraction(total["sum"][j], h)  # the mean over deals of the per-deal average
        var = (Fraction(total["sum_sq"][j]) - Fraction(total["sum"][j]) ** 2 / d) / (d - 1) / (r * r) if d > 1 else 0
        n_in = total["inn"][j]
        hist = total["times"][j]
        lo, hi = total["t_min"][j], total["t_max"][j]
        bots.append(
            BotResult(
                label=labels[j],
                spec=spec,
                hands=h,
                mean=float(mean),
                ci95=1.96 * math.sqrt(var) / math.sqrt(d),
                in_rate=n_in / h,
                bete_rate=total["bete"][j] / h,
                bete_when_in=(total["bete"][j] / n_in) if n_in else 0.0,
                pot_rate=total["pot"][j] / h,
                decisions=sum(hist.values()),
                time_median_ms=1000 * _time_pct(hist, 0.5, lo, hi),
                time_p95_ms=1000 * _time_pct(hist, 0.95, lo, hi),
                time_max_ms=1000 * hi,
                plays_as=level_spec(spec),
            )
        )
    per_deal = [row for _i, row in sorted(total["rows"])]
    return TournamentResult(bots, deals, total["hands"][0], duplicate, seed, rd, time.perf_counter() - t0, per_deal)


def _labels(specs: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if specs.count(s) == 1 else f"{s}#{seen[s]}")
    return out
