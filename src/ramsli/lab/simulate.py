"""Self-play of many hands or whole sessions (``ramsli simulate``).

:func:`simulate` plays independent hands (every hand from fresh stacks of
``starting_stack`` and an empty pot; the dealer of hand h is seat h mod n) or
whole sessions (R3: carry-over, bust, ends) with one bot per seat, and
summarises: in-rate and bete rate by position relative to the dealer, the pot
size distribution, how often the pot is split (R5.2) or carried over (R5.4),
session length, and counters won or lost per hand by bot.

Here ``tips`` (and its alias ``rules``) means the tips player as the kernel
plays it, ``tips:tracking=0`` (no void tracking, :mod:`ramsli.bots.tips`), on
both paths; name ``tips:tracking=1`` for the tracking player on the engine.
When every seat is ``random`` or ``tips`` the batch kernel plays
(:mod:`ramsli.lab.kernel`, both cores); otherwise the engine plays with the
bots (``jobs`` processes). Both give the same hands for the same seed when
the bots are ``random``/``tips`` (the kernel agrees exactly with the engine).
With ``scheduler`` either one's work units become tasks on a Dask cluster
(:mod:`ramsli.analysis.cluster`), with the same summary as locally.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ramsli.analysis.cluster import LAB_PACKAGES, DaskRunner, LocalRunner, Runner, stream_chunks
from ramsli.bots.base import make_bot, play_hand
from ramsli.cards import Card
from ramsli.csvcells import writer as csv_writer
from ramsli.hand import Hand
from ramsli.lab import kernel as K
from ramsli.lab import warmup
from ramsli.lab.limits import LimitError, atomic_output, check_counters
from ramsli.lab.twin import python_kernel
from ramsli.rules import Rules
from ramsli.seats import seat_name
from ramsli.session import Session, check_setup

__all__ = ["KERNEL_BOTS", "Stats", "simulate", "write_out", "kernel_policy"]

#: bots the kernel can play: name -> kernel policy
KERNEL_BOTS = {
    "random": K.RANDOM,
    "beginner": K.RANDOM,
    "tips": K.TIPS,
    "rules": K.TIPS,
    "easy": K.TIPS,
    "tips:tracking=0": K.TIPS,
    "rules:tracking=0": K.TIPS,
}


def _as_played(spec: str) -> str:
    """The bot spec a seat plays here: ``tips``/``rules``/``easy`` become ``tips:tracking=0``, the tips
    player as the kernel plays it (no void tracking; :mod:`ramsli.bots.tips`), on the engine path too."""
    return "tips:tracking=0" if spec.strip() in ("tips", "rules", "easy") else spec


SESSION_CAP = 10000
_HANDS_STRIDE = 1 << 20


def kernel_policy(bots: Sequence[str]) -> np.ndarray | None:
    """Kernel policies for the bot specs, or None if some bot is not a kernel bot."""
    if all(b.strip() in KERNEL_BOTS for b in bots):
        return np.array([KERNEL_BOTS[b.strip()] for b in bots], np.int64)
    return None


@dataclass
class Stats:
    """Running totals of a simulation (counts per position from the dealer's left, per seat)."""

    n: int
    hands: int = 0
    pos_seated: np.ndarray = field(init=False)  # the arrays are made by __post_init__ (n per seat)
    pos_in: np.ndarray = field(init=False)
    pos_bete: np.ndarray = field(init=False)
    seat_sum: np.ndarray = field(init=False)
    seat_sq: np.ndarray = field(init=False)
    seat_hands: np.ndarray = field(init=False)
    pot_hist: np.ndarray = field(init=False)
    split: int = 0
    carry: int = 0
    walkover: int = 0
    thrown: int = 0
    #: session length (hands) -> sessions of that length: a count per length, not one entry per session,
    #: so that 10**7 sessions take as little memory as ten
    session_len: Counter = field(default_factory=Counter)
    end_reasons: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        z = lambda: np.zeros(self.n, np.int64)  # noqa: E731
        self.pos_seated, self.pos_in, self.pos_bete = z(), z(), z()
        self.seat_sum, self.seat_hands = z(), z()
        self.seat_sq = np.zeros(self.n, np.float64)  # squares of large deltas overflow int64
        self.pot_hist = np.zeros(K.POT_BINS, np.int64)

    @property
    def sessions(self) -> int:
        """Sessions counted (sessions mode)."""
        return sum(self.session_len.values())

    def merge(self, o: Stats) -> None:
        """Add another run's totals."""
        for name in ("pos_seated", "pos_in", "pos_bete", "seat_sum", "seat_sq", "seat_hands", "pot_hist"):
            getattr(self, name)[:] += getattr(o, name)
        for name in ("hands", "split", "carry", "walkover", "thrown"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        self.session_len += o.session_len
        for k, v in o.end_reasons.items():
            self.end_reasons[k] = self.end_reasons.get(k, 0) + v

    def add_batch(self, b: K.HandBatch) -> None:
        """Add a kernel batch of independent hands."""
        n = self.n
        cnt = len(b)
        self.hands += cnt
        seats = np.arange(n)
        pos = (seats[None, :] - b.dealer.astype(np.int64)[:, None] - 1) % n  # 0 = dealer's left
        seated = b.decl >= 0
        for p in range(n):
            m = (pos == p) & seated
            self.pos_seated[p] += int(m.sum())
            self.pos_in[p] += int((m & (b.decl == 1)).sum())
            self.pos_bete[p] += int((m & (b.bete == 1)).sum())
        delta = b.stacks - b.stacks0[None, :]
        self.seat_sum += delta.sum(0)
        self.seat_sq += (delta.astype(np.float64) ** 2).sum(0)
        self.seat_hands += cnt
        played = b.kind == K.KIND_PLAYED
        self.pot_hist += np.bincount(np.minimum(b.P[played], K.POT_BINS - 1), minlength=K.POT_BINS)
        self.split += int((played & (b.nwin > 1)).sum())
        self.carry += int((b.carry > 0).sum())
        self.walkover += int((b.kind == K.KIND_WALKOVER).sum())
        self.thrown += int((b.kind == K.KIND_THROWN_IN).sum())

    def add_sessions(self, o: dict) -> None:
        """Add kernel session arrays (:func:`ramsli.lab.kernel.play_sessions`)."""
        self.hands += int(o["n_hands"].sum())
        self.pos_seated += o["pos_seated"].sum(0)
        self.pos_in += o["pos_in"].sum(0)
        self.pos_bete += o["pos_bete"].sum(0)
        # per seat: counters over the session; per hand averages use the hands played
        self.seat_sum += o["seat_delta"].sum(0)
        self.seat_sq += (o["seat_delta"].astype(np.float64) ** 2).sum(0)
        self.seat_hands += int(o["n_hands"].sum())
        self.pot_hist += o["pot_hist"].sum(0)
        self.split += int(o["n_split"].sum())
        self.carry += int(o["n_carry"].sum())
        self.walkover += int(o["n_walkover"].sum())
        self.thrown += int(o["n_thrown"].sum())
        self.session_len.update(int(x) for x in o["n_hands"])
        for r in o["end_reason"]:
            name = K.END_NAMES[int(r)]
            self.end_reasons[name] = self.end_reasons.get(name, 0) + 1

    def add_hand(self, hand, settlement) -> None:
        """Add one finished engine hand."""
        n = self.n
        self.hands += 1
        ins = {s for s, d in hand.declarations if d} if not hand.rules.compulsory else set(hand.seated)
        for s in hand.seated:
            p = (s - hand.dealer - 1) % n
            self.pos_seated[p] += 1
            self.pos_in[p] += s in ins
            self.pos_bete[p] += s in settlement.bete
        for s in range(n):
            d = settlement.stacks_after[s] - hand.start_stacks[s]
            self.seat_sum[s] += d
            self.seat_sq[s] += float(d) * float(d)
            self.seat_hands[s] += 1
        if settlement.kind == "played":
            self.pot_hist[min(settlement.pot, K.POT_BINS - 1)] += 1
            self.split += len(settlement.winners) > 1
        self.walkover += settlement.kind == "walkover"
        self.thrown += settlement.kind == "thrown-in"
        self.carry += settlement.carry_over > 0


def _engine_hands(args: tuple) -> Stats:
    rules, bots, lo, hi, seed = args
    n = len(bots)
    players = {s: make_bot(_as_played(b), seed=seed * 7919 + lo * 11 + s) for s, b in enumerate(bots)}
    st = Stats(n)
    base = K.base_deck(rules)
    decks, cuts, _ = K.make_inputs(seed, lo, hi - lo, base)
    for i in range(hi - lo):
        h = lo + i
        hand = Hand.from_deck(
            rules, [rules.starting_stack] * n, h % n, [Card.from_index(int(c)) for c in decks[i]], int(cuts[i])
        )
        play_hand(hand, players)
        st.add_hand(hand, hand.settlement)
    return st


def _engine_sessions(args: tuple) -> Stats:
    rules, bots, lo, hi, seed = args
    n = len(bots)
    st = Stats(n)
    for k in range(lo, hi):
        players = {s: make_bot(_as_played(b), seed=seed * 7919 + k * 11 + s) for s, b in enumerate(bots)}
        sess = Session(rules, [seat_name(i) for i in range(n)], seed=seed * 1_000_003 + k)
        h = 0
        sq0 = st.seat_sq.copy()
        while not sess.is_over and h < SESSION_CAP:
            hand = sess.start_hand()
            while (seat := hand.to_act) is not None:  # None: the hand is over
                sess.apply(players[seat].act(hand.observe(seat)))
            st.add_hand(hand, hand.settlement)
            h += 1
        st.session_len[h] += 1
        reason = sess.end_reason or "cap"
        st.end_reasons[reason] = st.end_reasons.get(reason, 0) + 1
        # for sessions the spread is over session totals (as the kernel path keeps it)
        st.seat_sq[:] = sq0 + np.array([float(x - rules.starting_stack) ** 2 for x in sess.stacks])
    return st


def _kernel_chunk(
    rules: Rules, n: int, lo: int, m: int, seed: int, pol: np.ndarray, hands: bool, python: bool = False
) -> Stats:
    """Hands (or sessions) ``lo .. lo+m-1`` of ``seed`` played by the kernel, as totals; with ``python``
    by the kernel's code in the Python interpreter (:mod:`ramsli.lab.twin`): the same totals."""
    k = python_kernel() if python else K
    st = Stats(n)
    if hands:
        st.add_batch(k.play_batch(rules, n, m, seed=seed, start=lo, policy=pol))
    else:
        st.add_sessions(k.play_sessions(rules, n, m, seed=seed, start=lo, policy=pol, cap=SESSION_CAP))
    return st


#: work units played in Python while the kernel compiles (hands, sessions): a fraction of a second each
PYTHON_STEP = (1_000, 10)


def simulate(
    rules: Rules,
    bots: Sequence[str],
    hands: int = 0,
    sessions: int = 0,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    use_kernel: bool | None = None,
    note: Callable[[str], None] | None = None,
    scheduler: str | None = None,
    kernel: str = "kernel",
) -> dict:
    """Self-play ``hands`` independent hands or ``sessions`` whole sessions; return the summary dict.

    Args:
        rules: rules in force; bots: one bot spec per seat (2..6 seats); seed: ≥ 0.
        jobs: processes for the engine path, at most one per work unit (the kernel always uses all cores).
            The engine's work units do not depend on ``jobs``, so neither do the results.
        progress: called as ``progress(done, total)`` (hands or sessions).
        use_kernel: force (True) or forbid (False) the kernel; default: when all bots allow it.
        note: called with a one-line message before the kernel's one-time compile (Numba), which
            is done on a tiny batch first and not counted in ``elapsed_s`` or ``hands_per_s``, or, with
            ``kernel="auto"``, when the compile runs in the background meanwhile.
        kernel: how the kernel path plays here: ``"kernel"`` (compiled first if its cache is cold),
            ``"python"`` (the kernel's code in the Python interpreter, :mod:`ramsli.lab.twin`: no
            compile, a few thousand hands a second) or ``"auto"`` (the kernel when it runs without a
            compile, :func:`ramsli.lab.warmup.kernel_ready`; else Python in small work units while it
            compiles in the background, then the kernel for the rest). The summary is the same on
            every path; ``kernel_mode`` says which ran: ``"compiled"``, ``"python"`` or
            ``"python+compiled"`` (``None`` on the engine path).
        scheduler: a Dask scheduler ``tcp://HOST:PORT``: the work units become tasks on that cluster
            (``jobs`` is then not used; the extras ``dask`` and, on the workers, ``lab``). Every
            number of the summary but ``elapsed_s`` and ``hands_per_s`` is the same as locally.

    Raises:
        TableError: (a ``ValueError``) from :func:`ramsli.session.check_setup`: not 2..6 bots,
            a ``players`` option that does not match them (R2.1), an ante above the starting
            stack (R3.5).
        ValueError: for both or neither of hands/sessions, a bot the kernel cannot play with
            ``use_kernel=True``, an unknown bot, a ``kernel`` other than ``auto``/``kernel``/``python``,
            or, on the kernel path, counters above
            :data:`ramsli.lab.limits.MAX_COUNTERS` (the engine path has no such limit).
        ClusterError: (``ramsli.analysis.cluster``) when the cluster cannot be used.
    """
    n = len(bots)
    check_setup(rules, n)  # 2..6 seats, the players option (R2.1), an ante the starting stack pays (R3.5)
    if (hands > 0) == (sessions > 0):
        raise ValueError("give either a number of hands or a number of sessions (both > 0 not allowed)")
    if seed < 0:
        raise ValueError("the seed must be >= 0")
    if kernel not in ("auto", "kernel", "python"):
        raise ValueError(f"kernel {kernel!r}: allowed are auto, kernel, python")
    for b in bots:
        make_bot(b, seed=0)  # raises ValueError for an unknown bot
    pol = kernel_policy(bots)
    if use_kernel and pol is None:
        raise ValueError(f"the kernel plays only {', '.join(KERNEL_BOTS)}; got {', '.join(bots)}")
    kern = pol is not None if use_kernel is None else use_kernel
    if kern:
        try:
            check_counters(rules)
        except LimitError as e:
            raise LimitError(f"{e}; or play through the engine with --engine (any size, slower)") from None
    total = hands or sessions
    kind = "batch" if hands else "sessions"
    st = Stats(n)
    runner: Runner | None = None
    python = [False]  # the kernel path plays in Python (until the background compile is loaded, with auto)
    used: list[str] = []
    if scheduler:
        runner = DaskRunner(scheduler, needs=LAB_PACKAGES if kern else ())
        runner.connect()
        if kern:  # the compile on every worker is not part of the timing either
            runner.run_everywhere(K.warm_up, kind)
    elif kern and kernel == "python":
        python[0] = True
    elif kern and kernel == "auto" and not warmup.kernel_ready((kind,)):
        python[0] = True
        warmup.start_background_compile((kind,))  # loaded here when done: the later work units use it
        if note is not None:
            note(warmup.background_note((kind,)))
    elif kern:
        K.warm_up(kind, note)  # the compile is not part of the timing
    if kern:
        step = 200_000 if hands else 2_000
        if runner is not None:  # smaller tasks for a cluster; the kernel's totals do not depend on them
            step = max(1, min(step, max(20_000 if hands else 200, -(-total // (4 * runner.parallelism)))))

        def units() -> Iterator[tuple[Any, ...]]:
            """Work units made as they are submitted: 10**9 hands are 5000 units, never a list; in Python
            small ones, and the kernel's as soon as the background compile is loaded."""
            lo = 0
            while lo < total:
                if python[0] and kernel == "auto" and K.is_compiled(kind):
                    python[0] = False
                m = min(PYTHON_STEP[0 if hands else 1] if python[0] else step, total - lo)
                name = "python" if python[0] else "compiled"
                if name not in used:
                    used.append(name)
                yield (rules, n, lo, m, seed, pol, bool(hands), python[0])
                lo += m

        work: Iterator[tuple[Any, ...]] = units()
        fn: Callable[..., Stats] = _kernel_chunk
    else:
        # the work units depend on the total only (bots are seeded per unit): the same for any jobs
        step = max(1, min(500 if hands else 20, total // 4 or 1))
        specs = list(bots)
        work = (((rules, specs, lo, min(total, lo + step), seed),) for lo in range(0, total, step))
        fn = _engine_hands if hands else _engine_sessions
    if runner is None:
        # the kernel is parallel by itself; the engine: never more worker processes than work units
        runner = LocalRunner(1 if kern else min(jobs, -(-total // step)), pool=ProcessPoolExecutor)
    t0 = time.perf_counter()
    parts: dict[int, Stats] = {}
    merged = [0]
    done = [0]

    def finished(k: int, part: Stats) -> None:
        parts[k] = part
        done[0] += part.hands if hands else part.sessions
        while merged[0] in parts:  # merge in the order of the work units: the same sums everywhere
            st.merge(parts.pop(merged[0]))
            merged[0] += 1
        if progress:
            progress(done[0], total)

    with runner:  # a bounded window of units in flight; each result merged, then dropped
        stream_chunks(runner, fn, work, finished)
    elapsed = time.perf_counter() - t0
    out = summarize(st, rules, bots, hands, sessions, seed, "kernel" if kern else "engine", elapsed)
    out["kernel_mode"] = "+".join(used) if kern else None
    return out


def _quantile(hist: np.ndarray, q: float) -> int:
    c = np.cumsum(hist)
    if c[-1] == 0:
        return 0
    return int(np.searchsorted(c, q * c[-1]))


def summarize(
    st: Stats, rules: Rules, bots: Sequence[str], hands: int, sessions: int, seed: int, engine: str, elapsed: float
) -> dict:
    """The summary dict of a run (JSON-ready)."""
    n = st.n
    positions = []
    for p in range(n):
        seated = int(st.pos_seated[p])
        ins = int(st.pos_in[p])
        positions.append(
            {
                "position": p + 1,
                "label": "dealer" if p == n - 1 else ("dealer's left" if p == 0 else f"{p + 1}"),
                "seated": seated,
                "in_rate": ins / seated if seated else 0.0,
                "bete_rate_when_in": int(st.pos_bete[p]) / ins if ins else 0.0,
                "bete_rate": int(st.pos_bete[p]) / seated if seated else 0.0,
            }
        )
    by_bot: dict[str, list[int]] = {}
    for s, b in enumerate(bots):
        by_bot.setdefault(b, []).append(s)
    bot_rows = []
    for b, seats in by_bot.items():
        cnt = int(st.seat_hands[seats].sum())
        tot = float(st.seat_sum[seats].sum())
        if sessions:  # the session totals are per session; per hand = total / hands
            mean = tot / cnt if cnt else 0.0
            nsess = st.sessions * len(seats)
            per_sess = tot / nsess if nsess else 0.0
            var = float(st.seat_sq[seats].sum()) / nsess - per_sess**2 if nsess else 0.0
            ci = 1.96 * math.sqrt(max(var, 0.0) / nsess) / (cnt / nsess) if nsess and cnt else 0.0
        else:
            mean = tot / cnt if cnt else 0.0
            var = float(st.seat_sq[seats].sum()) / cnt - mean**2 if cnt else 0.0
            ci = 1.96 * math.sqrt(max(var, 0.0) / cnt) if cnt else 0.0
        bot_rows.append({"bot": b, "seats": [seat_name(s) for s in seats], "counters_per_hand": mean, "ci95": ci})
    played = int(st.pot_hist.sum())
    pot_mean = float((st.pot_hist * np.arange(K.POT_BINS)).sum() / played) if played else 0.0
    out = {
        "mode": "hands" if hands else "sessions",
        "engine": engine,
        "players": n,
        "bots": list(bots),
        "rules": rules.to_dict(),
        "seed": seed,
        "hands": st.hands,
        "elapsed_s": elapsed,
        "hands_per_s": st.hands / elapsed if elapsed > 0 else None,
        "positions": positions,
        "pot": {
            "played_hands": played,
            "mean": pot_mean,
            "p50": _quantile(st.pot_hist, 0.5),
            "p90": _quantile(st.pot_hist, 0.9),
            "p99": _quantile(st.pot_hist, 0.99),
            "histogram": {str(i): int(v) for i, v in enumerate(st.pot_hist) if v},
            "histogram_note": f"pot P of played hands; the last bin holds P >= {K.POT_BINS - 1}",
        },
        "split_rate": st.split / st.hands if st.hands else 0.0,
        "carry_over_rate": st.carry / st.hands if st.hands else 0.0,
        "walkover_rate": st.walkover / st.hands if st.hands else 0.0,
        "thrown_in_rate": st.thrown / st.hands if st.hands else 0.0,
        "bots_summary": bot_rows,
    }
    if sessions:
        count = st.sessions
        out["sessions"] = {
            "count": count,
            "mean_hands": float(_length_sum(st.session_len) / count) if count else 0.0,
            "median_hands": _length_median(st.session_len) if count else 0.0,
            "p90_hands": _length_quantile(st.session_len, 0.9) if count else 0.0,
            "max_hands": max(st.session_len) if count else 0,
            "end_reasons": st.end_reasons,
        }
    return out


def _length_sum(lengths: Counter) -> int:
    return sum(k * c for k, c in lengths.items())


def _order_statistic(lengths: Counter, i: int) -> int:
    """The ``i``-th (0-based) smallest session length counted in ``lengths``."""
    seen = 0
    for k in sorted(lengths):
        seen += lengths[k]
        if seen > i:
            return k
    raise IndexError(i)


def _length_median(lengths: Counter) -> float:
    """``numpy.median`` of the lengths, from their counts."""
    n = sum(lengths.values())
    if n % 2:
        return float(_order_statistic(lengths, n // 2))
    return (_order_statistic(lengths, n // 2 - 1) + _order_statistic(lengths, n // 2)) / 2.0


def _length_quantile(lengths: Counter, q: float) -> float:
    """``numpy.quantile(lengths, q)`` (linear), from their counts: the same number."""
    h = q * (sum(lengths.values()) - 1)
    lo = math.floor(h)
    a, b = _order_statistic(lengths, lo), _order_statistic(lengths, min(lo + 1, sum(lengths.values()) - 1))
    return float(np.quantile(np.array([a, b], np.float64), h - lo))


def write_out(summary: dict, path: str) -> None:
    """Write the summary as JSON (``.json``) or CSV (``.csv``: one row per position and per bot).

    Raises:
        ValueError: for another file ending.
    """
    if path.endswith(".json"):
        with atomic_output(path) as f:  # complete or not there: no empty file on a full disk
            json.dump(summary, f, indent=2)
        return
    if not path.endswith(".csv"):
        raise ValueError(f"--out {path!r}: the file must end in .json or .csv")
    with atomic_output(path, newline="") as f:
        w = csv_writer(f)  # every text cell made safe for a spreadsheet (issue 38.10)
        w.writerow(["table", "key", "in_rate", "bete_rate_when_in", "bete_rate", "counters_per_hand", "ci95"])
        for p in summary["positions"]:
            w.writerow(
                [
                    "position",
                    p["position"],
                    f"{p['in_rate']:.6f}",
                    f"{p['bete_rate_when_in']:.6f}",
                    f"{p['bete_rate']:.6f}",
                    "",
                    "",
                ]
            )
        for b in summary["bots_summary"]:
            w.writerow(["bot", b["bot"], "", "", "", f"{b['counters_per_hand']:.6f}", f"{b['ci95']:.6f}"])
        for k in ("split_rate", "carry_over_rate", "walkover_rate", "thrown_in_rate"):
            w.writerow(["rate", k, "", "", "", f"{summary[k]:.6f}", ""])
