"""Odds of one hand: should I stay in? (``ramsli odds``).

Given my five cards, the turn-up, the number of players, my seat and the
declarations made before me, :func:`estimate` samples the hidden cards (every
card of the deck that is not in my hand and not the turn-up, dealt uniformly to
the other seats), plays each sample twice with the same random numbers — once
with me ``in``, once ``out`` (common random numbers, so the difference is
sharp) — against an opponent model, and reports with 95% confidence intervals:

- ``p_trick``: P(I take at least one trick | in), i.e. 1 - P(bete); a walkover counts
  as a success (no tricks are played and no bete is owed, R4.6);
- ``p_most``: P(I take the most tricks, alone or tied, so that I take a share of
  the pot, R5.1/R5.2 | in); a walkover (everyone else out, R4.6) counts;
- ``ev_in``, ``ev_out``: expected counters won or lost **in this hand**, measured
  as my stack after settlement minus my stack before the ante. So ``ev_out`` is
  ``-ante`` exactly (R5.5), and ``ev_in`` includes the ante, the pot share, bete
  and any General Rams or target payments. Counters left in the pot for later
  hands (R5.4) are not counted;
- ``ev_diff`` = ``ev_in - ev_out``: the value of staying in against folding
  (independent of the ante). Stay in when it is positive.

Seats are counted in declaration order from the dealer's left (R4.5): seat 0
is the dealer's left, who declares first; seat ``players - 1`` is the dealer,
who declares last. So ``seat`` is the number of declarations made before me,
and the ``before`` list holds exactly those ``seat`` declarations, in order
(e.g. ``--seat 2 --before in,out``).

Conditioning on what was declared before me: by rejection (a sample counts only
if the opponent model, holding the sampled cards, would itself have declared
exactly that); if fewer than 2% of samples are accepted, the declarations are
forced instead (and the result says so). I and the opponents play with the
same model. The ``tips`` and ``random`` models run in the batch kernel; any
other bot (e.g. ``rules``) plays through the engine, with forced declarations
before me.
"""

from __future__ import annotations

import collections
import math
import multiprocessing
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ramsli.analysis.cluster import LAB_PACKAGES, DaskRunner, LocalRunner, Runner
from ramsli.bots.base import make_bot
from ramsli.cards import Card, CardError, make_deck, parse_cards
from ramsli.errors import TableError
from ramsli.hand import Action, Hand
from ramsli.lab import kernel as K
from ramsli.lab import warmup
from ramsli.lab.limits import LimitError, check_counters, check_positive_time, check_seed
from ramsli.lab.twin import python_kernel
from ramsli.rules import Rules
from ramsli.session import check_setup

__all__ = ["OddsError", "parse_query", "estimate", "PYTHON_CHUNK", "PYTHON_DECIDE"]

#: samples per chunk when the kernel's code runs in Python (about a tenth of a second)
PYTHON_CHUNK = 250
#: in Python, the samples after which rejection gives way to forced declarations when fewer than 2%
#: are accepted (the kernel decides after ``4 * batch``)
PYTHON_DECIDE = 2000


class OddsError(ValueError):
    """A bad ``ramsli odds`` query; the message says what was wrong and what is allowed."""


def parse_query(
    cards: str, turn_up: str, players: int, seat: int, before: str | Sequence[str], rules: Rules
) -> tuple[list[Card], Card, list[int]]:
    """Check and parse a query.

    Returns:
        ``(my cards, turn-up, before as 1 in / 0 out)``.

    Raises:
        OddsError: for malformed or duplicate cards, not five cards, cards outside the rules'
            deck (R1), a joker turn-up (R4.4), the turn-up in my hand, what the engine's set-up
            check refuses (:func:`ramsli.session.check_setup`: not 2..6 players or a ``players``
            option that does not match, R2.1; an ante above the starting stack, R3.5; the same
            message, the engine's ``TableError`` as its ``__cause__``), a bad seat, or a ``before``
            list that is not seat-1 entries of in/out (R4.5).
    """
    try:
        mine = parse_cards(cards)
    except CardError as e:
        raise OddsError(f"my cards: {e}") from None
    try:
        tu = Card.parse(turn_up)
    except CardError as e:
        raise OddsError(f"--turn-up: {e}") from None
    if len(mine) != 5:
        raise OddsError(f"give exactly five cards (R4.3), got {len(mine)}: {cards!r}")
    if len(set(mine)) != 5:
        dup = sorted({str(c) for c in mine if mine.count(c) > 1})
        raise OddsError(f"card {', '.join(dup)} given twice: a card is dealt once (R1)")
    if tu.is_joker:
        raise OddsError("--turn-up: a joker is turned aside, never the turn-up (R4.4, D-9)")
    deck = set(make_deck(rules.deck, rules.jokers))
    for c in mine + [tu]:
        if c not in deck:
            raise OddsError(
                f"card {c} is not in the {rules.deck} deck{' with jokers' if rules.jokers else ''} "
                "(R1); allowed ranks are " + ("A K Q J T 9 8 7" if rules.deck == "piquet32" else "A..2")
            )
    if tu in mine:
        raise OddsError(f"--turn-up {tu} is also in my cards: the turn-up stays on the stock (R4.4)")
    try:
        check_setup(rules, players)
    except TableError as e:
        raise OddsError(str(e)) from e
    if not 0 <= seat <= players - 1:
        raise OddsError(
            f"--seat {seat}: allowed are 0..{players - 1} (0 = the dealer's left, declaring first; "
            f"{players - 1} = the dealer, declaring last; R4.5)"
        )
    items = [b.strip().lower() for b in (before.split(",") if isinstance(before, str) else before) if b.strip()]
    if rules.compulsory:
        if items:
            raise OddsError("compulsory Ramsli has no declarations (R4.5): give no --before")
        return mine, tu, []
    if len(items) != seat:
        raise OddsError(
            f"--before needs {seat} entries for seat {seat} (the declarations made before yours, "
            f"in order, R4.5), got {len(items)}: {before!r}"
        )
    bad = [b for b in items if b not in ("in", "out")]
    if bad:
        raise OddsError(f"--before: {bad[0]!r} is not a declaration; allowed are in, out (R4.5)")
    return mine, tu, [1 if b == "in" else 0 for b in items]


def _ci(x: np.ndarray) -> tuple[float, float]:
    m = float(x.mean())
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("inf")
    return m, half


def estimate(
    cards: str,
    turn_up: str,
    players: int,
    seat: int,
    before: str | Sequence[str] = "",
    rules: Rules | None = None,
    bot: str = "tips",
    time_s: float = 2.0,
    precision: float = 0.0,
    seed: int = 0,
    pot: int = 0,
    batch: int = 20000,
    note=None,
    scheduler: str | None = None,
    kernel: str = "kernel",
    quick_s: float | None = None,
) -> dict:
    """Estimate the odds of a hand (see the module text for every quantity).

    Args:
        cards: my five cards, e.g. ``"AS 9S KH 8D 7C"``; turn_up: e.g. ``"TS"``;
        players: 2..6; seat: 0 (dealer's left, declares first) .. players-1 (dealer); before: the
        ``seat`` declarations made before mine, e.g. ``"in,out"`` for seat 2;
        rules: default ``traditional``; bot: opponent (and my) model, ``tips``/``random`` in the
        kernel (``tips`` as the kernel plays it: ``tips:tracking=0``; ``rules`` and ``easy`` are ``tips``), any other registered bot through the engine; time_s: time budget (seconds);
        precision: stop once the 95% CI half-width of ``ev_diff`` is at most this (counters; 0 = use
        the whole time); seed: ≥ 0; pot: carry-in pot before the antes (R5.4); note: called with a
        one-line message before the kernel's one-time compile (Numba), which is done before the
        clock of ``time_s`` starts; scheduler: a Dask scheduler ``tcp://HOST:PORT``: the chunks of
        samples become tasks on that cluster (the extras ``dask`` and, on the workers, ``lab``); they
        are still taken in order, so a run that stops on ``precision`` gives the same result as locally;
        kernel: how the ``tips``/``random`` models run here: ``"kernel"`` (the batch kernel, compiled
        first if its cache is cold, with ``note``), ``"python"`` (the kernel's code run by the Python
        interpreter, :mod:`ramsli.lab.twin`: no compile, about 3,000 samples a second) or ``"auto"``
        (the kernel when it runs without a compile, :func:`ramsli.lab.warmup.kernel_ready`; else
        Python while the kernel compiles in the background, :func:`ramsli.lab.warmup.start_background_compile`,
        and the kernel from the next chunk on once it is loaded; ``note`` is told so). Every path
        plays the same samples with the same results; a run that stops on ``precision`` stops at the
        same sample count on every path (the precision is checked every ``batch`` samples), so it gives
        the same result; a run that stops on ``time_s`` has fewer samples in Python.
        quick_s: with ``kernel="auto"`` while the kernel is not ready, the seconds of the quick
            answer in Python (at most ``time_s``; None: ``time_s``), so that a person asking right
            after an install is answered at once rather than after the whole budget.

    Returns:
        a dict with ``p_trick``, ``p_most``, ``ev_in``, ``ev_out``, ``ev_diff`` (each
        ``{"mean", "ci95"}``), ``samples``, ``accepted``, ``conditioning``, ``elapsed_s``,
        ``out_allowed`` (False when the dealer is forced in, R4.5), ``estimator`` (``"kernel"``,
        ``"python"``, ``"python+kernel"`` or ``"engine"``: what played the samples).

    Raises:
        OddsError: for a bad query (see :func:`parse_query`: also the number of players, the
            option ``players`` and the ante, R2.1, R3.5), an unknown bot, a ``kernel`` other than
            ``auto``/``kernel``/``python``, counters above
            :data:`ramsli.lab.limits.MAX_COUNTERS` (stacks, ante, bete, pot), a time or precision
            that is not finite (> 0, >= 0) or a negative seed.
        ClusterError: (``ramsli.analysis.cluster``) when the cluster cannot be used.

    Every payment in the samples is limited by the payer's stack (R5.8), so ``ev_in`` is never
    below ``-starting_stack``.
    """
    rules = rules or Rules()
    if bot.strip() in ("rules", "easy"):  # the alias and the level of the tips player
        bot = "tips"
    elif bot.strip() == "beginner":  # the random bot's level name (ramsli.bots.levels.LEVEL_NAMES)
        bot = "random"
    mine, tu, bef = parse_query(cards, turn_up, players, seat, before, rules)
    try:
        check_counters(rules, pot)  # R3.3, R5.4: the kernel's 64-bit counters
        check_positive_time(time_s, "time_s")
        if quick_s is not None:
            check_positive_time(quick_s, "quick_s")
        check_positive_time(precision, "precision", allow_zero=True, unit="counters")
        check_seed(seed, "seed")
    except LimitError as e:
        raise OddsError(str(e)) from None
    if kernel not in ("auto", "kernel", "python"):
        raise OddsError(f"kernel {kernel!r}: allowed are auto, kernel, python")
    n = players
    me = seat
    dealer = n - 1
    out_allowed = not rules.compulsory and not (rules.dealer_forced and seat == n - 1 and not any(bef))
    forced = np.full(n, -1, np.int64)
    for i, d in enumerate(bef):
        forced[i] = d
    unknown = np.array(
        sorted(c.index for c in make_deck(rules.deck, rules.jokers) if c not in mine and c is not tu), np.int64
    )
    stacks = np.full(n, rules.starting_stack, np.int64)
    kernel_bot = bot in ("tips", "random")
    if not kernel_bot:
        try:
            make_bot(bot, seed=0)
        except ValueError as e:
            raise OddsError(str(e)) from None
    runner: Runner
    mode = "kernel" if kernel_bot else "engine"  # what plays the next chunk: kernel, python or engine
    used: list[str] = []
    if scheduler:
        runner = DaskRunner(scheduler, needs=LAB_PACKAGES)
        runner.connect()
        window = 2 * runner.parallelism
        if kernel_bot:  # the compile on every worker is not part of the time budget either
            runner.run_everywhere(K.warm_up, "odds")
    elif kernel_bot:
        if kernel == "python":
            mode = "python"
        elif kernel == "auto" and not warmup.kernel_ready(("odds",)):
            mode = "python"
            if quick_s is not None:
                time_s = min(time_s, quick_s)
            warmup.start_background_compile(("odds",))  # loaded here when done: later chunks use it
            if note is not None:
                note(warmup.background_note(("odds",)))
        else:
            K.warm_up("odds", note)  # the compile (or the load from the cache) is not part of the time budget
        runner, window = LocalRunner(1), 1  # in this process: the kernel is parallel by itself
    else:  # both cores: chunks of 50 samples in worker processes, consumed in order
        workers = max(1, min(2, os.cpu_count() or 1))
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("fork")
            runner, window = LocalRunner(workers, pool=lambda k: ProcessPoolExecutor(max_workers=k, mp_context=ctx)), 4
        else:
            runner, window = LocalRunner(1), 1
    t0 = time.perf_counter()
    pol = np.full(n, K.TIPS if bot == "tips" else K.RANDOM, np.int64)
    var = np.zeros(n, np.int64)
    mine_arr = np.array([c.index for c in mine], np.int64)
    deltas: list[np.ndarray] = []  # per chunk: (in, out) counter deltas of the accepted samples
    tricks: list[np.ndarray] = []  # per chunk: my tricks
    best: list[np.ndarray] = []  # per chunk: 1 where I took the most tricks
    # the engine path forces the declarations before mine; the kernel conditions by rejection first
    conditioning = ("rejection" if kernel_bot else "forced") if bef else "none"
    samples = 0
    start = 0
    next_start = 0
    m = batch if kernel_bot else 50  # the grid of the checks: precision and the rejection rule every m samples
    inflight: collections.deque = collections.deque()

    def size_at(s0: int) -> int:
        """Samples of the chunk that starts at sample ``s0``: Python's chunks are small and never cross
        the grid of ``m``, so that the kernel, taking over, is back on it at once."""
        left = m - s0 % m
        return min(PYTHON_CHUNK, left) if mode == "python" else left

    def submit(s0: int, size: int):
        if kernel_bot:
            f = forced if conditioning != "forced" else np.where(forced >= 0, forced + 10, -1)
            return runner.submit(
                _python_samples if mode == "python" else _kernel_samples,
                rules,
                seed,
                s0,
                size,
                n,
                me,
                mine_arr,
                tu.index,
                unknown,
                dealer,
                stacks,
                pot,
                pol,
                var,
                f,
            )
        return runner.submit(_engine_samples, rules, bot, n, me, mine, tu, unknown, bef, seed, s0, size, pot)

    with runner:
        try:
            while True:
                while len(inflight) < window:
                    size = size_at(next_start)
                    inflight.append((submit(next_start, size), size))
                    if mode not in used:
                        used.append(mode)
                    next_start += size
                handle, size = inflight.popleft()
                d, tr, be, ag = runner.result(handle)
                start += size
                samples += size
                on_grid = samples % m == 0
                if (
                    conditioning == "rejection"
                    and (samples >= 4 * batch and on_grid or mode == "python" and samples >= PYTHON_DECIDE)
                    and sum(len(x) for x in tricks) < 0.02 * samples
                ):
                    conditioning = "forced"  # too rare under the model: force the declarations instead
                    deltas, tricks, best = [], [], []
                    runner.cancel([h for h, _ in inflight])  # those were asked for with rejection
                    inflight.clear()
                    next_start = start
                    continue
                keep = ag if conditioning == "rejection" else np.ones(size, bool)
                deltas.append(d[keep])
                tricks.append(tr[keep])
                best.append(be[keep])
                acc = sum(len(x) for x in tricks)
                elapsed = time.perf_counter() - t0
                if acc > 1000 and on_grid:
                    dd = np.concatenate(deltas)
                    half = _ci((dd[:, 0] - dd[:, 1]).astype(float))[1]
                    if precision > 0 and half <= precision:
                        break
                if elapsed >= time_s and acc >= 200:
                    break
                if mode == "python" and kernel == "auto" and K.is_compiled("odds"):
                    mode = "kernel"  # the background compile is done and loaded: the kernel goes on
        finally:
            runner.cancel([h for h, _ in inflight])
    dd = np.concatenate(deltas) if deltas else np.zeros((0, 2), np.int64)
    trs = np.concatenate(tricks) if tricks else np.zeros(0, np.int64)
    bst = np.concatenate(best) if best else np.zeros(0, np.int64)
    if len(trs) < 2:
        raise OddsError("no sample matched the declarations before you within the time; give more --time")

    def stat(x) -> dict:
        m_, h = _ci(np.asarray(x, float))
        return {"mean": m_, "ci95": h}

    return {
        "cards": " ".join(str(c) for c in mine),
        "turn_up": str(tu),
        "players": n,
        "seat": seat,
        "before": ["in" if b else "out" for b in bef],
        "bot": bot,
        "rules": rules.diff(),
        "p_trick": stat((trs >= 1) | (bst == 1)),
        "p_most": stat(bst),
        "ev_in": stat(dd[:, 0]),
        "ev_out": stat(dd[:, 1]) if out_allowed else None,
        "ev_diff": stat(dd[:, 0] - dd[:, 1]) if out_allowed else None,
        "out_allowed": out_allowed,
        "samples": samples,
        "accepted": int(len(trs)),
        "conditioning": conditioning,
        "elapsed_s": time.perf_counter() - t0,
        "seed": seed,
        "estimator": "+".join(used),
    }


def _kernel_samples(rules, seed, start, m, n, me, mine_arr, turn_up, unknown, dealer, stacks, pot, pol, var, forced):
    """Samples ``start .. start+m-1`` of ``seed`` played by the kernel: ``(deltas, tricks, best, agree)``."""
    return K.odds_samples(
        rules, seed, start, m, n, me, mine_arr, turn_up, unknown, dealer, stacks, pot, pol, var, forced
    )


def _python_samples(rules, seed, start, m, n, me, mine_arr, turn_up, unknown, dealer, stacks, pot, pol, var, forced):
    """The same samples as :func:`_kernel_samples`, played by the kernel's code in the Python interpreter."""
    return python_kernel().odds_samples(
        rules, seed, start, m, n, me, mine_arr, turn_up, unknown, dealer, stacks, pot, pol, var, forced
    )


def _engine_samples(rules, bot, n, me, mine, tu, unknown, bef, seed, start, m, pot):
    """Engine path for bots the kernel cannot play: declarations before me are forced."""
    d = np.empty((m, 2), np.int64)
    tr = np.empty(m, np.int64)
    be = np.empty(m, np.int64)
    ag = np.ones(m, np.bool_)
    for i in range(m):
        rng = random.Random(seed * 1_000_003 + start + i)
        pool = [Card.from_index(int(c)) for c in unknown]
        rng.shuffle(pool)
        hands = []
        for s in range(n):
            hands.append(list(mine) if s == me else [pool.pop() for _ in range(5)])
        # out costs exactly the ante and wins nothing (R5.5), so only the "in" hand is played
        d[i, 1] = -rules.ante
        for k in range(1):
            bots = {s: make_bot(bot, seed=seed * 7919 + start + i * 7 + s) for s in range(n)}
            hand = Hand.from_cards(rules, [rules.starting_stack] * n, n - 1, hands, tu, pot=pot)
            while not hand.is_over:
                seat = hand.to_act
                if hand.phase.value == "declare" and seat < me:
                    a = Action.declare(seat, bool(bef[seat]))
                elif hand.phase.value == "declare" and seat == me:
                    a = Action.declare(seat, k == 0 or len(hand.legal_actions()) == 1)
                else:
                    a = bots[seat].act(hand.observe(seat))
                hand.apply(a)
            s_ = hand.settlement
            d[i, k] = s_.stacks_after[me] - rules.starting_stack
            if k == 0:
                tr[i] = s_.tricks[me]
                be[i] = int(me in s_.winners)
    return d, tr, be, ag
