"""The "should I stay in?" hint of the browser table, served by ``GET /api/tables/{table}/hint?token=``
(:mod:`ramsli.server.coach.routes`).

Allowed only at a table whose creator allowed it (the table's ``hint`` option), for the person
sitting at a seat (their personal token), while it is that seat's turn to declare (R4.5). The
answer speaks first in player words — "Stay in: about 2.0 counters better than going out",
"Close: within 0.1 counters either way", "Go out: …" (:func:`advice_text`) — with the numbers
in a detail line (:func:`detail_text`), both in the request's language.

**Two estimates, and which one answered** (``"estimate"`` of the answer):

- ``"kernel"``: :func:`ramsli.lab.odds.estimate` (the ``lab`` extra: NumPy and Numba), the tips
  players' odds of this very hand over :data:`HINT_SECONDS` of sampling, with the chance of a trick;
- ``"expert"``: the expert's weighted rollouts (:meth:`ramsli.bots.expert.ExpertBot.action_values`,
  :data:`QUICK_SAMPLES` of them, pure Python, about a fifth of a second) — the answer while the
  kernel is not ready in this process, and the answer of a server without the ``lab`` extra.

Both read the seat's own cards and the public facts only (R7): :func:`hint_query` for the kernel,
the seat's :class:`~ramsli.hand.Observation` for the expert.

**The kernel is made ready ahead** (:class:`LabWarmUp`, started by :func:`warm_up_lab` when the
server starts): where Numba's cache holds no compiled kernel (a fresh install), a separate
process compiles the lab's kernels — the odds kernel of the hint and the coach's equilibrium
kernel — with its progress in the server's log, one compile at a time on the machine (the
lab's :mod:`ramsli.lab.warmup` and its compile lock); then this process loads them from the
cache. Until then every hint is the expert's, so the first hint after a start comes at once. ``RAMSLI_LAB_WARM_UP=0`` turns the
warm-up off (the kernel is then never used for hints).

One computation runs at a time per seat, at most :data:`HINT_CONCURRENCY` in the server, on
threads (never the bots' pool); answers are kept per (table, seat, hand, ``seq``), so asking
again at the same position costs nothing (an expert answer is replaced by the kernel's once
the kernel is ready). Refusals (``hint_off``, ``no_hint``, ``hint_busy``, ``hint_failed``,
``bad_token``) are :class:`~ramsli.refusal.Refused`, rendered in the request's language by the
app.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from babel.numbers import format_decimal

from ramsli.bots.expert import ExpertBot
from ramsli.coach.review import Z95
from ramsli.coach.words import catalog, format_counters
from ramsli.hand import Observation
from ramsli.i18n import babel_locale
from ramsli.lab import warmup
from ramsli.refusal import N_, Refusal, Refused
from ramsli.server.tables.table import Table, TableStatus

__all__ = [
    "declaring_obs",
    "hint_words",
    "hint_query",
    "lab_available",
    "warm_up_lab",
    "lab_warm_up",
    "LabWarmUp",
    "WarmState",
    "quick_estimate",
    "answer_hint",
    "advice",
    "advice_text",
    "detail_text",
    "CLOSE",
    "HINT_SECONDS",
    "HINT_CONCURRENCY",
    "HINT_WAITING",
    "HINT_RETRY",
    "HINT_CACHE",
    "QUICK_SAMPLES",
]

#: seconds of sampling behind one kernel hint (the lab's odds estimate)
HINT_SECONDS = 1.0
#: hint computations running at once in the whole server (each on a thread, never the bots' pool)
HINT_CONCURRENCY = 2
#: hint computations waiting for one of the :data:`HINT_CONCURRENCY` slots; more are refused
#: (``429 hints_busy`` with ``Retry-After``)
HINT_WAITING = 16
#: seconds a refused hint is told to wait (``Retry-After``)
HINT_RETRY = 2
#: finished hints kept, per (table, seat, hand, seq)
HINT_CACHE = 256
#: the expert's weighted rollouts behind a quick hint (its most; about 0.2 s for five players)
QUICK_SAMPLES = 1000
#: counters: a difference of in − out smaller than this (or inside its interval) is "close"
CLOSE = 0.1

_log = logging.getLogger("ramsli.server.lab")

_Key = tuple[str, int, int | None, int]
#: (table, seat) -> (key, future) of the hint being computed for that seat: one at a time per seat
_running: dict[tuple[str, int], tuple[_Key, asyncio.Future[dict[str, Any]]]] = {}
#: (table, seat, hand, seq) -> the answer (a seat asking again at the same position gets it at once)
_done: dict[_Key, dict[str, Any]] = {}
_slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
#: hint computations waiting for a slot, per event loop (at most :data:`HINT_WAITING`)
_waiting: dict[asyncio.AbstractEventLoop, int] = {}


def lab_available() -> bool:
    """True if the ``lab`` extra (NumPy and Numba) is installed."""
    try:
        import numba  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def hint_query(obs: Observation, seed: int = 0, time_s: float = HINT_SECONDS) -> dict[str, Any]:
    """The keyword arguments of :func:`ramsli.lab.odds.estimate` for the seat of ``obs`` (an
    :class:`~ramsli.hand.Observation` in the declare phase): its own cards and the turn-up only
    (R7), its place in the declaring order (R4.5), the declarations before it, the carry-in pot
    (the pot less this hand's antes, R5.4), the tips model and ``time_s`` seconds of sampling.

    >>> import random
    >>> from ramsli import Hand, Rules
    >>> obs = Hand.new(Rules(), [20, 20, 20], dealer=2, rng=random.Random(1)).observe(0)
    >>> q = hint_query(obs)
    >>> q["players"], q["seat"], q["before"], q["pot"], len(q["cards"].split())
    (3, 0, [], 0, 5)
    """
    players = len(obs.seated)
    return dict(
        cards=" ".join(str(c) for c in obs.cards),
        turn_up=str(obs.turn_up),
        players=players,
        seat=len(obs.declarations),
        before=[d for _a, d in obs.declarations],
        rules=obs.rules,
        bot="tips",
        time_s=time_s,
        seed=seed,
        pot=max(0, obs.pot - obs.rules.ante * players),
    )


# -- the kernel, ready ahead ---------------------------------------------------------------------


class WarmState(StrEnum):
    """Where the lab's kernel is in this process (:class:`LabWarmUp`).

    ``off``: no ``lab`` extra, or the warm-up turned off; ``cold``: not started; ``compiling``: a
    separate process compiles the kernels (a cold cache); ``loading``: this process loads them
    from the cache; ``ready``: kernel hints from now on; ``failed``: the warm-up failed (the
    reason is logged; hints stay the expert's).
    """

    OFF = "off"
    COLD = "cold"
    COMPILING = "compiling"
    LOADING = "loading"
    READY = "ready"
    FAILED = "failed"


#: the lab's kinds of work made ready ahead, in the order they are compiled: (kind, what it serves)
KERNELS = (("odds", "the hint's odds"), (warmup.ADVANTAGE, "the coach's equilibrium values"))


def _any_cold() -> bool:
    """Whether any kind of :data:`KERNELS` must be compiled (in neither this process nor the cache)."""
    return not warmup.kernel_ready([name for name, _what in KERNELS])


def _compile_in_process(note: Callable[[str], None]) -> None:
    """Compile every cold kind of :data:`KERNELS`, one at a time, in a separate Python process
    (:func:`ramsli.lab.warmup.compile_elsewhere`: under the lab's compile lock, with its own
    interpreter lock, so the server's event loop keeps running at full speed), passing ``note``
    one JSON line per step (``{"kernel", "step": "start"|"done"|"cached", "seconds"}``).

    Raises:
        RuntimeError: if the compile process fails (its log is ``compile.log`` in the cache folder).
    """
    for name, _what in KERNELS:
        if warmup.kernel_ready(name):
            note(json.dumps({"kernel": name, "step": "cached"}))
            continue
        note(json.dumps({"kernel": name, "step": "start"}))
        t0 = time.perf_counter()
        warmup.compile_elsewhere((name,), fallback=False)
        note(json.dumps({"kernel": name, "step": "done", "seconds": time.perf_counter() - t0}))


def _load_here() -> None:
    """Load the hint's kernel into this process (from the cache the compile process filled)."""
    warmup.wait_for_kernel(warmup.HINT_KINDS)


class LabWarmUp:
    """The lab's kernel made ready in the background: a state machine (:class:`WarmState`).

    ``cold`` → (a cold cache: ``compiling`` in a separate process) → ``loading`` into this
    process → ``ready``; ``failed`` if any step raises; ``off`` without the ``lab`` extra or
    with ``enabled`` False. :meth:`start` runs :meth:`run` on a daemon thread, once.

    Args:
        any_cold: ``() -> bool``, whether a compile is needed (default: Numba's cache of the
            lab's kernels, :data:`KERNELS`).
        compile_cold: ``(note) -> None``, compile them, calling ``note(line)`` with progress
            (default: :mod:`ramsli.lab.warmup` in a separate process).
        load: ``() -> None``, load the hint's kernel into this process.
        available: ``() -> bool``, whether the ``lab`` extra is installed.
        enabled: False keeps it ``off`` (``RAMSLI_LAB_WARM_UP=0``).

    Attributes:
        state (WarmState), reason (str | None: why it failed), started (``time.monotonic()`` of the
        start, or None), seconds (from the start to ``ready``, or None), compiled (True if it had
        to compile), progress (the log lines so far).
    """

    def __init__(
        self,
        any_cold: Callable[[], bool] = _any_cold,
        compile_cold: Callable[[Callable[[str], None]], None] = _compile_in_process,
        load: Callable[[], None] = _load_here,
        available: Callable[[], bool] = lab_available,
        enabled: bool = True,
    ) -> None:
        self._any_cold = any_cold
        self._compile = compile_cold
        self._load = load
        self.state = WarmState.COLD if enabled and available() else WarmState.OFF
        self.reason: str | None = None
        self.started: float | None = None
        self.seconds: float | None = None
        self.compiled = False
        self.progress: list[str] = []
        #: called (on the warm-up's thread) once the kernel is loaded, e.g. :func:`gc.freeze` by
        #: ``ramsli serve`` so that the kernel's objects stay out of later collections
        self.on_ready: Callable[[], None] | None = None
        self.finished = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        if self.state is WarmState.OFF:
            self.finished.set()

    @property
    def ready(self) -> bool:
        """True once the kernel is loaded in this process (kernel hints from now on)."""
        return self.state is WarmState.READY

    @property
    def settled(self) -> bool:
        """True once nothing more will happen: ``ready``, ``failed`` or ``off``."""
        return self.state in (WarmState.READY, WarmState.FAILED, WarmState.OFF)

    def _note(self, line: str) -> None:
        try:
            step = json.loads(line)
        except ValueError:
            step = None
        if isinstance(step, dict) and step.get("kernel"):
            what = dict(KERNELS).get(step["kernel"], step["kernel"])
            if step.get("step") == "start":
                text = f"lab: compiling the {step['kernel']} kernel ({what}; first start after an install)…"
            elif step.get("step") == "done":
                text = f"lab: the {step['kernel']} kernel is compiled ({float(step.get('seconds', 0)):.1f} s)"
            else:
                text = f"lab: the {step['kernel']} kernel was in the cache"
        else:
            text = f"lab: {line}"
        self.progress.append(text)
        _log.warning("%s", text)

    def start(self) -> None:
        """Run the warm-up on a daemon thread (once; later calls do nothing)."""
        with self._lock:
            if self.state is not WarmState.COLD or self._thread is not None:
                return
            self._thread = threading.Thread(target=self.run, name="ramsli-lab-warm-up", daemon=True)
            self._thread.start()

    def run(self) -> None:
        """The warm-up itself, blocking: compile if needed, load, and say so in the log."""
        if self.state is WarmState.OFF:
            return
        self.started = time.monotonic()
        try:
            if self._any_cold():
                self.compiled = True
                self.state = WarmState.COMPILING
                self._note(
                    "the kernels are not compiled yet: compiling in the background; hints answer from the expert's quick estimate meanwhile"
                )
                self._compile(self._note)
            self.state = WarmState.LOADING
            self._load()
        except Exception as e:  # noqa: BLE001 - a failed warm-up only means expert hints
            self.reason = f"{type(e).__name__}: {e}"
            self.state = WarmState.FAILED
            self._note(f"the kernel could not be made ready ({self.reason}); hints answer from the expert")
        else:
            self.seconds = time.monotonic() - self.started
            self.state = WarmState.READY
            if self.on_ready is not None:
                self.on_ready()
            if self.compiled:
                self._note(f"the kernel is ready after {self.seconds:.1f} s: hints answer from it from now on")
        finally:
            self._settle()

    async def wait_settled(self) -> None:
        """Wait, without blocking the event loop or a thread, until the warm-up has settled."""
        event = asyncio.Event()
        with self._lock:
            if self.finished.is_set():
                return
            self._waiters.append((asyncio.get_running_loop(), event))
        await event.wait()

    def _settle(self) -> None:
        with self._lock:
            self.finished.set()
            waiters, self._waiters = self._waiters, []
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits there
                loop.call_soon_threadsafe(event.set)

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON data: ``{"state", "compiled", "seconds", "reason"}``."""
        return {"state": self.state.value, "compiled": self.compiled, "seconds": self.seconds, "reason": self.reason}


_warm: list[LabWarmUp] = []


def lab_warm_up() -> LabWarmUp:
    """The server's one :class:`LabWarmUp` (made on first use; ``RAMSLI_LAB_WARM_UP=0`` keeps it off)."""
    if not _warm:
        _warm.append(LabWarmUp(enabled=os.environ.get("RAMSLI_LAB_WARM_UP", "1") != "0"))
    return _warm[0]


@functools.cache
def _say_lab_missing() -> None:
    """Log that the ``lab`` extra is missing, once per process: :func:`warm_up_lab` runs at each
    server start and each table with hints, and the fact does not change while the process runs."""
    _log.warning(
        "lab: the lab extra (NumPy and Numba) is not installed: hints answer from the expert's quick "
        "estimate; pip install -e '.[lab]' gives them the kernel's, a better one (docs/protocol.md, The hint)"
    )


def warm_up_lab() -> LabWarmUp:
    """Start making the lab's kernel ready in the background (at server start; idempotent) and
    return the warm-up. Progress goes to the log ``ramsli.server.lab`` (on stderr when no
    logging is configured); a missing ``lab`` extra is said there once per process."""
    if not logging.getLogger().handlers and not _log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        _log.addHandler(handler)
    if not lab_available():
        _say_lab_missing()
    w = lab_warm_up()
    w.start()
    return w


# -- the quick estimate and the words ------------------------------------------------------------


def quick_estimate(obs: Observation, seed: int = 0, samples: int = QUICK_SAMPLES) -> dict[str, Any]:
    """The expert's estimate of ``in`` against ``out`` for the seat of ``obs`` (its turn to declare,
    R4.5): ``samples`` weighted rollouts of the rest of the hand from the seat's observation only
    (R7; :meth:`ramsli.bots.expert.ExpertBot.action_values`). Pure Python, no compile.

    Returns:
        ``{"ev_diff": {"mean", "ci95"} or None (out not allowed), "out_allowed", "samples",
        "estimate": "expert"}`` (counters of this hand).

    Raises:
        ValueError: if it is not the seat's turn.

    >>> from ramsli import Hand, Rules
    >>> hand = Hand.new(Rules(), [20] * 3, dealer=2, seed=4)
    >>> q = quick_estimate(hand.observe(hand.to_act), samples=50)
    >>> q["estimate"], q["samples"], q["out_allowed"]
    ('expert', 50, True)
    """
    values = ExpertBot(seed=seed, samples=samples).action_values(obs)
    stay = next((v for v in values if v.action.kind == "in"), None)
    out_allowed = any(v.action.kind == "out" for v in values)
    diff = None
    if stay is not None and out_allowed:
        diff = {"mean": float(stay.mean), "ci95": float(Z95 * stay.se)}
    return {
        "ev_diff": diff,
        "out_allowed": out_allowed,
        "samples": stay.samples if stay is not None else 0,
        "estimate": "expert",
    }


def advice(mean: float, ci95: float) -> str:
    """``"in"``, ``"out"`` or ``"close"`` for a difference in − out of ``mean`` counters with the
    95% half-width ``ci95``: close when it is smaller than :data:`CLOSE` or inside its interval.

    >>> advice(2.0, 0.1), advice(-0.5, 0.2), advice(0.05, 0.01), advice(0.3, 0.4)
    ('in', 'out', 'close', 'close')
    """
    if abs(mean) < CLOSE or abs(mean) <= ci95:
        return "close"
    return "in" if mean > 0 else "out"


_ADVICE = {
    "in": N_("Stay in: about {x} counters better than going out"),
    "out": N_("Go out: about {x} counters better than staying in"),
    "close": N_("Close: within {x} counters either way"),
    "must": N_("You must stay in: the dealer cannot go out here."),
}


def advice_text(mean: float | None, ci95: float, lang: str = "en") -> str:
    """The hint in player words, in ``lang``: stay in, go out, or close (:func:`advice`), with the
    counters in the reader's locale; ``mean`` None is the dealer who may not go out (R4.5).

    >>> advice_text(2.04, 0.1)
    'Stay in: about 2.0 counters better than going out'
    >>> advice_text(0.03, 0.02, "de")
    'Knapp: höchstens 0,1 Chips Unterschied in die eine oder andere Richtung'
    """
    tr = catalog(lang)
    if mean is None:
        return tr.gettext(_ADVICE["must"])
    kind = advice(mean, ci95)
    x = max(CLOSE, abs(mean) + ci95) if kind == "close" else abs(mean)
    return tr.gettext(_ADVICE[kind]).format(x=format_counters(x, lang))


def _signed(x: float, lang: str) -> str:
    return ("+" if x >= 0 else "−") + format_counters(abs(x), lang, 2)


def detail_text(answer: dict[str, Any], lang: str = "en") -> str:
    """The detail line of a hint in ``lang``: in − out with its interval, the chance of a trick
    (kernel), how many deals, and which estimate answered."""
    tr = catalog(lang)
    diff = answer.get("ev_diff")
    parts = []
    if diff is not None:
        parts.append(
            tr.gettext(N_("In − out: {d} counters (± {ci})")).format(
                d=_signed(diff["mean"], lang), ci=format_counters(diff["ci95"], lang, 2)
            )
        )
    if answer.get("p_trick"):
        parts.append(tr.gettext(N_("a trick in {p}% of deals")).format(p=round(100 * answer["p_trick"]["mean"])))
    n = int(answer.get("accepted") or answer.get("samples") or 0)
    count = format_decimal(n, locale=babel_locale(lang))
    if answer.get("estimate") == "kernel":
        parts.append(
            tr.ngettext(
                "{n} deal played out by tips players",
                "{n} deals played out by tips players",
                n,
            ).format(n=count)
        )
    else:
        parts.append(
            tr.ngettext(
                "{n} weighted deal sampled by the expert",
                "{n} weighted deals sampled by the expert",
                n,
            ).format(n=count)
        )
    return "; ".join(parts)


# -- the seat asking, and the words of its answer -------------------------------------------------


def declaring_obs(t: Table, token: str) -> tuple[Observation, _Key]:
    """The observation of the token's seat at its turn to declare (R4.5), and the key its answer
    is kept under (table, seat, hand, ``seq``).

    Raises:
        Refused: ``bad_token`` (no seat of this table), ``hint_off`` (the creator did not allow
            hints), ``no_hint`` (R4.5: not this seat's turn to declare, or not the person sitting
            there with their personal token: an invite token owns no cards, R7).
    """
    seat = t.seat_of_token(token)
    if seat is None:
        raise Refused(Refusal("bad_token"))
    if not t.options.hint:  # the creator's choice, stored with the table's spec
        raise Refused(Refusal("hint_off"))
    hand, number = t.current_hand()
    if hand is None or t.status is not TableStatus.PLAYING:
        raise Refused(Refusal("no_hint", "R4.5"))
    obs = hand.observe(seat.index)
    if not seat.taken or not t.owns(seat, token) or obs.phase.value != "declare" or obs.to_act != seat.index:
        raise Refused(Refusal("no_hint", "R4.5"))
    return obs, (t.id, seat.index, number, t.seq)


def hint_words(answer: dict[str, Any], lang: str) -> dict[str, Any]:
    """The numbers of a hint (:func:`answer_hint`) with its words in ``lang``: ``advice``
    (:func:`advice`; ``"must"`` when the seat may not go out), ``text`` (:func:`advice_text`) and
    ``detail`` (:func:`detail_text`)."""
    diff = answer.get("ev_diff")
    out = dict(answer)
    if diff is None:
        out["advice"], out["text"] = "must", advice_text(None, 0.0, lang)
    else:
        out["advice"] = advice(diff["mean"], diff["ci95"])
        out["text"] = advice_text(diff["mean"], diff["ci95"], lang)
    out["detail"] = detail_text(answer, lang)
    return out


async def answer_hint(
    obs: Observation,
    key: _Key,
    warm: LabWarmUp | None = None,
    kernel: Callable[..., dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The numbers of a hint (no words yet) for ``obs`` at position ``key``: the kernel's when
    ``warm`` (default :func:`lab_warm_up`) is ready, else the expert's quick estimate; kept per
    ``key``, one computation at a time per seat.

    Args:
        kernel: the kernel estimate (default :func:`ramsli.lab.odds.estimate`).

    Raises:
        Refused: ``hint_busy`` (another position of this seat is being computed), ``hint_failed``.
    """
    warm = warm or lab_warm_up()
    kept = _done.get(key)
    if kept is not None and (kept["estimate"] == "kernel" or not warm.ready):
        return kept
    who = (key[0], obs.seat)
    running = _running.get(who)
    if running is not None and running[0] == key:
        return await asyncio.shield(running[1])  # the same question is being answered: wait for it
    if running is not None:
        raise Refused(Refusal("hint_busy"))
    fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    _running[who] = (key, fut)
    try:
        answer = await _compute(obs, warm.ready, kernel)
    except Exception as e:
        fut.set_exception(e)
        fut.exception()  # retrieved: no "never retrieved" warning when nobody waited
        raise
    finally:
        _running.pop(who, None)
    fut.set_result(answer)
    if len(_done) >= HINT_CACHE:
        _done.pop(next(iter(_done)))
    _done[key] = answer
    return answer


def _kernel_answer(estimate: Callable[..., dict[str, Any]], query: dict[str, Any]) -> dict[str, Any]:
    res = estimate(**query)
    keep = ("p_trick", "p_most", "ev_in", "ev_out", "ev_diff", "out_allowed", "samples", "accepted", "conditioning")
    out = {k: res[k] for k in keep}
    out["estimate"] = "kernel"
    return out


async def _compute(obs: Observation, ready: bool, kernel: Callable[..., dict[str, Any]] | None) -> dict[str, Any]:
    """One hint computation on a thread (never the bots' pool), at most :data:`HINT_CONCURRENCY`
    at once in the server and :data:`HINT_WAITING` waiting: the kernel's when ``ready``, else the
    expert's.

    Raises:
        Refused: ``hint_failed`` if the position cannot be estimated; ``hints_busy`` when
            :data:`HINT_WAITING` computations wait already.
    """
    loop = asyncio.get_running_loop()
    slots = _slots.get(loop)
    if slots is None:
        _slots.clear()
        _waiting.clear()
        slots = _slots[loop] = asyncio.Semaphore(HINT_CONCURRENCY)
    if slots.locked() and _waiting.get(loop, 0) >= HINT_WAITING:
        raise Refused(Refusal("hints_busy", None, {"limit": HINT_CONCURRENCY + HINT_WAITING, "seconds": HINT_RETRY}))
    seed = int(time.time()) % 100000
    _waiting[loop] = _waiting.get(loop, 0) + 1
    try:
        await slots.acquire()
    finally:
        _waiting[loop] -= 1
    try:
        return await _estimate(loop, obs, ready, kernel, seed)
    finally:
        slots.release()


async def _estimate(
    loop: asyncio.AbstractEventLoop,
    obs: Observation,
    ready: bool,
    kernel: Callable[..., dict[str, Any]] | None,
    seed: int,
) -> dict[str, Any]:
    """The kernel's estimate when ``ready`` (and it can condition on the position), else the
    expert's, on a thread.

    Raises:
        Refused: ``hint_failed`` if the position cannot be estimated.
    """
    if ready:
        from ramsli.lab.odds import OddsError, estimate

        try:
            return await loop.run_in_executor(None, _kernel_answer, kernel or estimate, hint_query(obs, seed=seed))
        except OddsError:
            pass  # the kernel cannot condition on this position: the expert can
    try:
        return await loop.run_in_executor(None, functools.partial(quick_estimate, obs, seed))
    except ValueError:
        raise Refused(Refusal("hint_failed")) from None
