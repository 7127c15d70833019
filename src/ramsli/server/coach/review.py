"""The coach in the browser: the review of finished hands and sessions, and "in or out?" to train on.

What these routes answer (served by :mod:`ramsli.server.coach.routes`; ``docs/coach.md``, *In the
browser*; ``docs/protocol.md`` for tokens):

- ``GET /api/tables/{table}/hands/{n}/review?token=&seat=p2``: one hand's review for one seat;
- ``GET /api/tables/{table}/review?token=``: the session review of the token's own seat;
- ``GET /train``: the training page; ``POST /api/train/position``, ``POST /api/train/answer``:
  a position to answer "in or out?" and the coach's answer to it.

**Who sees what** (R7, D-16). A seat's *review* — every decision valued, its marks and lines — is
computed from that seat's own cards, so only the person who sat there in that hand receives it
(:meth:`~ramsli.server.tables.table.Table.own_cards_shown` with their personal token; ``"access":
"own"``). Everyone else who holds a token of the table — another seat's person, the holder of an
invite link, a spectator — gets that seat's *public decisions* (``"access": "public"``): what it
declared, announced and played, in order, with the trick and the cards already led. No value, no
choice, no mark and no "forced": each of those would tell something about its hidden cards. The
session review is for one's own seat only (``no_review`` otherwise).

**In the background.** A review runs in the coach's own worker process (:func:`coach_pool`, one
process beside the bots' pool, so a 30-second session review never holds up a bot or the event
loop), from the hand history the seat itself may download (folded hands ``??``, its own cards
shown, no cut), after the lab's kernel is ready (:mod:`ramsli.server.coach.hints`, ``warm_up_lab``).
The page asks again until it is done; each answer carries the progress (decisions valued in a
hand, hands in a session). Finished reviews are kept per (table, hand, seat).

**"In or out?"** (:func:`new_position`, :func:`answer_position`): a hand, a seat and the
declarations before it, in a game the lab has solved (``ramsli.lab.equilibrium.default_policies``:
a shipped policy); drawn from a finished hand of one of the player's own tables (the seat tokens
the browser holds, their own cards only) or generated (the earlier seats declaring by the
equilibrium). The answer: the equilibrium's own declaration for hands like it, and the counters
``in`` gains over ``out`` for this very hand against the equilibrium
(:func:`ramsli.lab.solve.hand_advantage`, computed in the coach's process as soon as the position
is made; until the kernel is ready, the policy's stored value for hands like it).
"""

from __future__ import annotations

import asyncio
import atexit
import dataclasses
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from babel.numbers import format_decimal
from pydantic import Field

from ramsli.cards import Card
from ramsli.coach import (
    Decision,
    HandReview,
    SessionReview,
    Settings,
    decision_line,
    review_hand,
    seat_decisions,
    summarize,
)
from ramsli.coach.reasons import reason_for
from ramsli.coach.words import catalog, format_counters, render_reason
from ramsli.frontends.text import card_label_in
from ramsli.hand import Action, Hand, Observation, Phase
from ramsli.history import HandHistory
from ramsli.lab.equilibrium import Policy, bucket, default_policies, default_policy, history_bits, policy_key
from ramsli.refusal import N_, Refusal, Refused
from ramsli.rules import Rules
from ramsli.seats import parse_seat, seat_name
from ramsli.server.coach import hints
from ramsli.server.protocol.schemas import Model
from ramsli.server.tables.hub import Hub
from ramsli.server.tables.table import SeatState, Table

__all__ = [
    "CoachService",
    "coach_pool",
    "coach_state",
    "pool_broke",
    "shutdown_coach_pool",
    "server_settings",
    "review_access",
    "own_history",
    "public_decisions",
    "hand_review",
    "session_review",
    "training_games",
    "acted_by",
    "PositionRequest",
    "AnswerRequest",
    "new_position",
    "position_record",
    "answer_position",
    "PUBLIC_FORMAT",
    "TRAIN_SAMPLES",
    "MAX_PENDING",
    "MAX_TRAINING",
    "MAX_PICKS",
    "PICK_TRIES",
    "TRAINING_RETRY",
]

#: the format of a seat's public decisions (another seat's or a spectator's view of a review)
PUBLIC_FORMAT = "ramsli-public-decisions/1"
#: deals behind the exact value of one training position (``hand_advantage``)
TRAIN_SAMPLES = 3000
#: hand reviews waiting or running at once in the server; more are refused (``coach_busy``)
MAX_PENDING = 64
#: training positions whose exact value waits or runs in the coach's process at once; a new
#: position beyond it is refused (``429 train_busy`` with ``Retry-After``)
MAX_TRAINING = 16
#: positions of one's own tables being drawn at once (each on a thread); more are refused likewise
MAX_PICKS = 4
#: finished hands of one's own tables replayed at most to draw one position (drawn at random)
PICK_TRIES = 40
#: seconds a refused training request is told to wait (``Retry-After``)
TRAINING_RETRY = 2
#: finished hand reviews kept (per table, hand, seat)
REVIEW_CACHE = 4096
#: training positions kept (the answers to positions not answered in time are forgotten)
POSITION_CACHE = 2000
#: seconds an answer waits for the exact value before it gives the policy's stored value
ANSWER_WAIT = 3.0

_KINDS = {Phase.DECLARE: "declare", Phase.GENERAL_RAMS: "general_rams", Phase.TARGETS: "target", Phase.PLAY: "card"}
_RULE = {"declare": "R4.5", "general_rams": "R4.7", "target": "R4.8", "card": "R4.10"}


def server_settings(text: str | None = None) -> Settings:
    """The coach's settings on this server: :class:`~ramsli.coach.Settings` with the options of
    ``text`` (default: ``RAMSLI_COACH_SETTINGS``), ``key=value`` pairs separated by commas, e.g.
    ``declare_samples=200,play_samples=40`` (fewer samples, faster reviews).

    Raises:
        ValueError: for an unknown key or a value outside its range.

    >>> server_settings("play_samples=40").play_samples
    40
    """
    text = os.environ.get("RAMSLI_COACH_SETTINGS", "") if text is None else text
    values: dict[str, Any] = {}
    names = {f.name: f.type for f in dataclasses.fields(Settings)}
    for part in text.split(","):
        if not part.strip():
            continue
        key, _, value = part.partition("=")
        key = key.strip()
        if key not in names:
            raise ValueError(f"RAMSLI_COACH_SETTINGS: {key!r} is not a coach setting; allowed are {', '.join(names)}")
        v = value.strip()
        values[key] = v.lower() in ("1", "true", "yes") if key == "equilibrium" else int(v)
    return Settings(**values)


# -- the worker process ----------------------------------------------------------------------------

_POOL: list[ProcessPoolExecutor] = []
#: where a review reports its progress: in a worker, the queue its initializer was given; in the
#: server, an object that updates the job at once (reviews on threads, in tests)
_PROGRESS: list[Any] = []
#: every review job waiting or running in this server, by id (the progress reader updates them)
_jobs_by_id: dict[str, _Job] = {}


def _watch_parent(parent: int, progress: Any) -> None:
    """In a worker process: keep the progress queue; exit as soon as the server is gone."""
    _PROGRESS[:] = [progress]

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _note_progress(item: tuple[str, int, int]) -> None:
    job_id, done, total = item
    job = _jobs_by_id.get(job_id)
    if job is not None:
        job.done, job.total = done, total


def _line(decision: Decision, lang: str) -> str | None:
    """A marked decision's words in ``lang``, its cards in that language's letters (D♥, not Q♥, in
    German: :func:`ramsli.frontends.text.card_label_in`), or None for a decision without a mark."""
    return decision_line(decision, lang, card_label=lambda card: card_label_in(card, lang))


class _Direct:
    """The progress channel of reviews on threads: each report updates its job at once."""

    @staticmethod
    def put(item: tuple[str, int, int]) -> None:
        _note_progress(item)


def _read_progress(channel: Any) -> None:
    """The server's thread reading the worker's progress reports until the pool is shut down."""
    while True:
        try:
            item = channel.get()
        except (EOFError, OSError, ValueError):
            return
        if item is None:
            return
        _note_progress(item)


def _report(job: str, done: int, total: int) -> None:
    if _PROGRESS:
        try:
            _PROGRESS[0].put((job, done, total))
        except (OSError, ValueError):  # the server is closing
            pass


def _review_task(job: str, toml: str, seat: int, settings: Settings) -> HandReview:
    """In the coach's process: review ``seat`` in the hand history ``toml`` (R7: the history holds
    only what that seat may know), reporting each valued decision."""
    hh = HandHistory.from_toml(toml)
    return review_hand(hh, seat, settings, progress=lambda d, t: _report(job, d, t))


def _advantage_task(
    preset: str, players: int, cards: list[str], turn_up: str, position: int, history: int, samples: int, seed: int
) -> dict[str, Any]:
    """In the coach's process: ``in`` − ``out`` of one hand against the shipped equilibrium."""
    from ramsli.lab.solve import hand_advantage

    pol = default_policy(Rules.preset(preset), players)
    if pol is None:
        raise ValueError(f"no shipped policy for {preset} at {players}")
    r = hand_advantage(pol, [Card.parse(c) for c in cards], Card.parse(turn_up), position, history, samples, seed)
    return {k: float(r[k]) for k in ("mean", "ci95", "effective")} | {"samples": int(r["samples"])}


_CHANNEL: list[Any] = []
#: guards making, replacing and stopping the coach's pool (requests and the pool's callbacks)
_POOL_LOCK = threading.Lock()
#: the pool's state for ``/readyz`` (:func:`coach_state`) and the pools that broke so far
_POOL_STATE: dict[str, Any] = {"state": "idle", "restarts": 0, "cause": None}
_log = logging.getLogger("ramsli.server.coach")


def coach_pool() -> ProcessPoolExecutor:
    """The coach's worker process (one, started on first use; ``spawn``, so it holds no copy of
    the server's state): reviews and training values run there, never on the event loop. Its
    progress reports come back on a queue read by a thread of the server. After a worker died
    (:func:`pool_broke`) the next call makes a new pool.

    Raises:
        OSError: the pool cannot be made (``/readyz`` says so until one can).
    """
    with _POOL_LOCK:
        if not _POOL:
            ctx = multiprocessing.get_context("spawn")
            try:
                channel = ctx.Queue()
                pool = ProcessPoolExecutor(
                    max_workers=1, mp_context=ctx, initializer=_watch_parent, initargs=(os.getpid(), channel)
                )
            except Exception as e:
                _POOL_STATE.update(state="failed", cause=type(e).__name__)
                _log.warning("the coach's worker pool cannot be made: %s: %s", type(e).__name__, e)
                raise
            _CHANNEL[:] = [channel]
            threading.Thread(target=_read_progress, args=(channel,), name="ramsli-coach-progress", daemon=True).start()
            _POOL.append(pool)
            if _POOL_STATE["state"] != "restarting":
                _POOL_STATE["state"] = "running"
            if not _POOL_STATE.get("atexit"):
                _POOL_STATE["atexit"] = True
                atexit.register(shutdown_coach_pool)
        return _POOL[0]


def pool_broke(pool: Executor, cause: BaseException) -> None:
    """Note that ``pool`` is broken (its worker died: killed, out of memory): the first caller for
    a pool drops it (under a lock, once) and logs a warning with the cause; the next
    :func:`coach_pool` makes a new one. A pool that is not the coach's (a thread pool in tests)
    is left alone."""
    with _POOL_LOCK:
        if not _POOL or _POOL[0] is not pool:
            return  # already replaced (several jobs saw the same death), or not ours
        _POOL.pop()
        _POOL_STATE.update(state="restarting", cause=type(cause).__name__, restarts=_POOL_STATE["restarts"] + 1)
        channels = list(_CHANNEL)
        _CHANNEL.clear()
    _log.warning("the coach's worker process died (%s: %s); starting a new one", type(cause).__name__, cause)
    pool.shutdown(wait=False, cancel_futures=True)
    for channel in channels:  # its reader thread ends (unless the dead worker held the queue's lock)
        try:
            channel.cancel_join_thread()  # a feeder stuck on that lock must not hold up the exit
            channel.put(None)
        except (OSError, ValueError):
            pass


def _pool_works(pool: Executor) -> None:
    """A task finished on ``pool``: the coach's pool (if it is) is running again."""
    with _POOL_LOCK:
        if _POOL and _POOL[0] is pool and _POOL_STATE["state"] != "running":
            _POOL_STATE.update(state="running", cause=None)


def coach_state() -> dict[str, Any]:
    """The coach's pool for ``/readyz``: ``{"state": "idle" (not started yet) | "running" |
    "restarting" (a worker died; a new pool is made on the next request and is running once a
    task has finished there) | "failed" (no pool could be made), "restarts": pools replaced since
    start, "cause": the exception's name of the last failure or None}``."""
    with _POOL_LOCK:
        return {k: _POOL_STATE[k] for k in ("state", "restarts", "cause")}


def shutdown_coach_pool() -> None:
    """Stop the coach's worker process (at server shutdown); a review in flight is dropped."""
    with _POOL_LOCK:
        pools, channels = list(_POOL), list(_CHANNEL)
        _POOL.clear()
        _CHANNEL.clear()
        _POOL_STATE["state"] = "idle"
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)
    for channel in channels:
        try:
            channel.put(None)
        except (OSError, ValueError):
            pass


# -- who may see what ----------------------------------------------------------------------------------


def review_access(t: Table, number: int, token: Any, seat: int) -> str:
    """``"own"`` if ``token`` is the personal token of the person who sat at ``seat`` in finished hand
    ``number`` (they see its review), else ``"public"`` (its public decisions only; R7, D-16).

    Raises:
        Refused: ``bad_token`` for a token that is no seat's or spectator's token of the table.
    """
    if t.seat_of_token(token) is None and not t.is_spectator(token):
        raise Refused(Refusal("bad_token"))
    own = t.owner_of(token)
    if own is not None and own.index == seat and t.own_cards_shown(own, number):
        return "own"
    return "public"


def _finished(t: Table, number: int) -> tuple[Hand, int]:
    s = t.session
    entry = s.results[number - 1] if s is not None and 1 <= number <= len(s.results) else None
    if entry is None or entry.hand is None:
        raise Refused(Refusal("no_hand", None, {"number": number}))
    return entry.hand, entry.number


def _names(t: Table) -> list[str]:
    return [s.name or seat_name(s.index) for s in t.seats]


def own_history(t: Table, number: int, seat: int) -> HandHistory:
    """The history of finished hand ``number`` as the person at ``seat`` may download it: every
    folded hand ``??`` (R7, D-16), no cut, and the seat's own dealt cards (the input of its review).

    Raises:
        Refused: ``no_hand``.
    """
    hand, n = _finished(t, number)
    hh = HandHistory.from_hand(hand, _names(t), n, hide_folded=True)
    cards = list(hh.cards)
    if seat in hand.seated:
        cards[seat] = tuple(hand.dealt[seat])
    return dataclasses.replace(hh, cut=None, cards=tuple(cards))


def _public_view(hh: HandHistory) -> Hand:
    """The hand as anyone at the table knows it: of every seat only the cards it plays."""
    played: dict[int, list[Card]] = {s: [] for s in hh.seated}
    for a in hh.actions:
        if a.kind == "pl" and a.card is not None:
            played[a.seat].append(a.card)
    hands: list[list[Card | None]] = []
    for s in range(len(hh.names)):
        known: list[Card | None] = list(played.get(s, []))
        hands.append(known + [None] * (5 - len(known)) if s in hh.seated else [])
    return Hand.from_cards(
        hh.rules, list(hh.stacks), hh.dealer, hands, hh.turn_up, hh.turned_aside, pot=hh.pot, seated=hh.seated
    )


def public_decisions(t: Table, number: int, seat: int) -> dict[str, Any]:
    """The public decisions of ``seat`` in finished hand ``number`` (format :data:`PUBLIC_FORMAT`):
    for each of its actions, ``{"action" (1-based in the hand), "kind", "rule", "trick", "chosen",
    "lead" (the trick so far), "declarations" (before it)}``; never a card it did not play, never
    a value (R7, D-16).

    Raises:
        Refused: ``no_hand``.
    """
    hand, n = _finished(t, number)
    hh = HandHistory.from_hand(hand, _names(t), n, hide_folded=True)
    view = _public_view(hh)
    out = []
    for i, a in enumerate(hh.actions, 1):
        if a.seat == seat:
            obs = view.observe(seat)
            kind = _KINDS.get(obs.phase, "card")
            out.append(
                {
                    "action": i,
                    "kind": kind,
                    "rule": _RULE[kind],
                    "trick": len(obs.tricks) + 1 if obs.phase is Phase.PLAY else None,
                    "chosen": str(a),
                    "lead": [[seat_name(s), str(c)] for s, c in obs.current] if obs.phase is Phase.PLAY else [],
                    "declarations": [[seat_name(s), str(d)] for s, d in obs.declarations]
                    if obs.phase is Phase.DECLARE
                    else [],
                }
            )
        view.apply(a)
    return {
        "format": PUBLIC_FORMAT,
        "hand": n,
        "seat": seat_name(seat),
        "name": hh.names[seat],
        "players": len(hh.seated),
        "dealer": seat_name(hh.dealer),
        "seated": seat in hh.seated,
        "turn_up": str(hh.turn_up),
        "decisions": out,
    }


# -- the review jobs ---------------------------------------------------------------------------------


@dataclass
class _Job:
    """One hand review for one seat, waiting, running or done."""

    id: str
    key: tuple[str, int, int]
    toml: str
    state: str = "waiting"  # waiting, running, done, failed
    done: int = 0
    total: int | None = None
    result: HandReview | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class CoachService:
    """The coach of one server: background hand reviews with progress, cached per (table, hand, seat).
    The app makes one at start-up; the routes take it through :func:`ramsli.server.deps.coach`.

    Args:
        settings: how hard the coach looks (default :func:`server_settings`, read on first use).
        executor: where reviews run (default :func:`coach_pool`, the coach's own process, made on
            first use); a thread pool in tests.
        warm: the lab's warm-up to wait for before a review starts (default
            :func:`ramsli.server.coach.hints.lab_warm_up`, taken on first use).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        executor: Executor | None = None,
        warm: hints.LabWarmUp | None = None,
    ) -> None:
        self._settings = settings
        self._warm = warm
        if executor is not None:  # reviews on threads of this process report directly
            _PROGRESS[:] = [_Direct()]
        self._executor = executor
        self.jobs: dict[tuple[str, int, int], _Job] = {}
        #: training values waiting or running in the coach's process (at most :data:`MAX_TRAINING`)
        self.training = 0
        #: positions of one's own tables being drawn on threads (at most :data:`MAX_PICKS`)
        self.picking = 0
        self.cache: OrderedDict[tuple[str, int, int], HandReview] = OrderedDict()

    @property
    def settings(self) -> Settings:
        """How hard the coach looks (:func:`server_settings` unless given; ``ValueError`` for a bad
        ``RAMSLI_COACH_SETTINGS``)."""
        if self._settings is None:
            self._settings = server_settings()
        return self._settings

    @property
    def warm(self) -> hints.LabWarmUp:
        """The lab's warm-up a review waits for (the server's one unless given)."""
        if self._warm is None:
            self._warm = hints.lab_warm_up()
        return self._warm

    @property
    def executor(self) -> Executor:
        """Where the reviews run (the coach's process, made on first use and again after its
        worker died: :func:`coach_pool`)."""
        return self._executor if self._executor is not None else coach_pool()

    def pool_state(self) -> dict[str, Any]:
        """Where the coach's work runs, for ``/readyz``: :func:`coach_state` (``running`` for an
        executor given to this service: a thread pool in tests)."""
        if self._executor is not None:
            return {"state": "running", "restarts": 0, "cause": None}
        return coach_state()

    def submit(self, fn: Any, *args: Any) -> asyncio.Future[Any]:
        """Run ``fn(*args)`` in :attr:`executor`. A pool found broken when the task is handed to
        it (its worker died while idle) is replaced and the task handed to the new one, once.
        The future's failure with a broken pool replaces the pool too (:func:`pool_broke`);
        its success marks the pool as running (``/readyz``)."""
        loop = asyncio.get_running_loop()
        executor = self.executor
        try:
            future = loop.run_in_executor(executor, fn, *args)
        except BrokenExecutor as e:
            pool_broke(executor, e)
            executor = self.executor
            future = loop.run_in_executor(executor, fn, *args)

        def settled(f: asyncio.Future[Any]) -> None:
            if f.cancelled():
                return
            e = f.exception()
            if isinstance(e, BrokenExecutor):
                pool_broke(executor, e)
            elif e is None:
                _pool_works(executor)

        future.add_done_callback(settled)
        return future

    def pending(self) -> int:
        """Hand reviews waiting or running."""
        return sum(1 for j in self.jobs.values() if j.state in ("waiting", "running"))

    def hand_job(self, t: Table, number: int, seat: int, wait: bool = False) -> _Job | None:
        """The review job of ``seat`` in finished hand ``number`` (started if new; R7: from the
        seat's own history, :func:`own_history`). A failed job is given once (its reader says so)
        and tried again on the next request.

        Args:
            wait: when :data:`MAX_PENDING` reviews are waiting, answer None (start it later)
                instead of refusing.

        Raises:
            Refused: ``no_hand``; ``coach_busy`` when :data:`MAX_PENDING` reviews are waiting.
        """
        key = (t.id, number, seat)
        cached = self.cache.get(key)
        if cached is not None:
            return _Job("", key, "", state="done", result=cached)
        job = self.jobs.get(key)
        if job is not None:
            if job.state == "failed":
                self.jobs.pop(key, None)
            return job
        if self.pending() >= MAX_PENDING:
            if wait:
                return None
            raise Refused(Refusal("coach_busy", None, {"limit": MAX_PENDING}))
        job = _Job(secrets.token_hex(8), key, own_history(t, number, seat).to_toml())
        self.jobs[key] = job
        _jobs_by_id[job.id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        return job

    async def _run(self, job: _Job) -> None:
        try:
            self.warm.start()  # (already started with the server)
            await self.warm.wait_settled()  # never compile the kernel twice: the warm-up does it
            job.state = "running"
            review = await self.submit(_review_task, job.id, job.toml, job.key[2], self.settings)
        except BrokenExecutor:  # the worker died under it: said once, tried again on a new pool
            job.state, job.error = "failed", "worker_lost"
        except Exception as e:  # noqa: BLE001 - a review that fails is said so; the table goes on
            _log.warning("a review failed (%s, hand %d, seat %d)", job.key[0], job.key[1], job.key[2], exc_info=e)
            job.state, job.error = "failed", "error"
        else:
            job.result, job.state = review, "done"
            job.done = job.total = len(review.decisions)
            self.cache[job.key] = review
            if len(self.cache) > REVIEW_CACHE:
                self.cache.popitem(last=False)
        finally:
            _jobs_by_id.pop(job.id, None)
            if job.state == "done":
                self.jobs.pop(job.key, None)


def _seat_arg(t: Table, seat: str | None, default: int) -> int:
    if seat is None or seat == "":
        return default
    try:
        return parse_seat(seat, len(t.seats))
    except ValueError:
        pass
    raise Refused(Refusal("no_seat", None, {"seat": seat[:8], "last": seat_name(len(t.seats) - 1)}))


def _job_answer(job: _Job, lang: str, warm: hints.LabWarmUp) -> dict[str, Any]:
    if job.state == "failed":
        raise Refused(Refusal("review_failed", None, {"detail": job.error or ""}))
    if job.state == "done" and job.result is not None:
        return {"status": "done", "review": job.result.to_dict(lambda d: _line(d, lang))}
    return {
        "status": job.state,
        "progress": {"done": job.done, "total": job.total},
        "kernel": warm.state.value,
    }


def hand_review(
    service: CoachService, t: Table, number: int, token: str, seat: str | None, lang: str
) -> dict[str, Any]:
    """The review of ``seat`` (``p1``…; None or empty: the token's own seat, else ``p1``) in
    finished hand ``number`` of ``t``, in ``lang``.

    For the person who sat at that seat in that hand: ``{"access": "own", "status": "waiting" |
    "running" | "done", "progress": {"done", "total"}, "review": {...}}`` (``ramsli-review/1`` once
    done; ask again until then). For anyone else with a token of the table: ``{"access":
    "public", "status": "done", "review": {...}}`` (:data:`PUBLIC_FORMAT`). Errors: ``403
    bad_token``, ``404 no_hand``, ``404 no_seat``, ``429 coach_busy``, ``409 review_failed``
    (:class:`~ramsli.refusal.Refused`).
    """
    if t.seat_of_token(token) is None and not t.is_spectator(token):
        raise Refused(Refusal("bad_token"))
    _finished(t, number)
    own = t.owner_of(token)
    index = _seat_arg(t, seat, own.index if own is not None else 0)
    access = review_access(t, number, token, index)
    base = {"access": access, "hand": number, "seat": seat_name(index)}
    if access == "public":
        return base | {"status": "done", "review": public_decisions(t, number, index)}
    hand, _n = _finished(t, number)
    if index not in hand.seated:
        return base | {"status": "done", "review": public_decisions(t, number, index)}
    job = service.hand_job(t, number, index)
    assert job is not None  # (refused when busy)
    answer: dict[str, Any] = base | _job_answer(job, lang, service.warm)
    if "review" in answer:
        for d in answer["review"]["decisions"]:
            d["by"] = acted_by(t, number, d["action"])
    return answer


def acted_by(t: Table, number: int, action: int) -> str:
    """Who made action ``action`` (1-based) of hand ``number`` of ``t``: ``seat`` (the person), or a
    bot for them — ``bot`` (a bot seat), ``proxy`` (the person away), ``timer`` (their time ran
    out); ``seat`` when not known. The coach's pages say "the bot at your seat chose" by it."""
    moves = t.acted_by.get(number, [])
    return moves[action - 1] if 1 <= action <= len(moves) else "seat"


def _own_hands(t: Table, seat: SeatState) -> list[int]:
    s = t.session
    if s is None:
        return []
    return [
        e.number
        for e in s.results
        if e.hand is not None and seat.index in e.hand.seated and t.own_cards_shown(seat, e.number)
    ]


def session_review(service: CoachService, t: Table, token: str, lang: str) -> dict[str, Any]:
    """The session review of the token's own seat of ``t`` (the person sitting there), over the
    finished hands they played there, in ``lang``: ``{"status", "progress": {"done", "total"}
    (hands), "review": ramsli-session-review/1 with one player, without the hands' own reviews}``.
    Ask again until ``status`` is ``done``.

    Errors: ``403 bad_token``, ``403 no_review`` (a spectator or an invite link: no seat of your
    own), ``429 coach_busy`` (:class:`~ramsli.refusal.Refused`).
    """
    if t.seat_of_token(token) is None and not t.is_spectator(token):
        raise Refused(Refusal("bad_token"))
    own = t.owner_of(token)
    if own is None:
        raise Refused(Refusal("no_review"))
    numbers = _own_hands(t, own)
    jobs = [service.hand_job(t, n, own.index, wait=True) for n in numbers]  # a long session: in turns
    failed = next((j for j in jobs if j is not None and j.state == "failed"), None)
    if failed is not None:
        raise Refused(Refusal("review_failed", None, {"detail": failed.error or ""}))
    base = {"access": "own", "seat": seat_name(own.index), "hands": numbers}
    if all(j is not None and j.state == "done" for j in jobs):
        reviews = tuple((n, j.result) for n, j in zip(numbers, jobs) if j is not None and j.result is not None)
        players = (summarize(own.index, own.name or seat_name(own.index), reviews),)
        played = len(t.session.results) if t.session is not None else 0
        review = SessionReview(players, reviews, played, service.settings)
        data = review.to_dict(lambda d: _line(d, lang), hands=False)
        for pl in data["players"]:
            for w in pl["worst"]:
                w["by"] = acted_by(t, w["hand"], w["action"])  # type: ignore[typeddict-unknown-key]
        return base | {"status": "done", "review": data}
    fraction = sum(
        0.0 if j is None else 1.0 if j.state == "done" else (j.done / j.total if j.total else 0.0) for j in jobs
    )
    return base | {
        "status": "running",
        "progress": {
            "done": sum(1 for j in jobs if j is not None and j.state == "done"),
            "total": len(jobs),
            "fraction": round(fraction / max(1, len(jobs)), 3),
        },
        "kernel": service.warm.state.value,
    }


# -- "in or out?" ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Game:
    preset: str
    players: int
    policy: Policy

    @property
    def name(self) -> str:
        return f"{self.preset}-{self.players}"


_games: list[_Game] = []
_games_lock = threading.Lock()


def training_games() -> list[_Game]:
    """The games "in or out?" trains on: every shipped declaration policy whose rules are a preset's
    (``ramsli.lab.equilibrium.default_policies``), with its number of players."""
    with _games_lock:  # (filled once, perhaps on a thread: new_position)
        if not _games:
            _games.extend(_load_games())
    return list(_games)


def _load_games() -> list[_Game]:
    games = []
    for name in default_policies():
        preset, _, n = name.removesuffix(".json").rpartition("-")
        try:
            rules = Rules.preset(preset)
            players = int(n)
        except ValueError:
            continue
        pol = default_policy(rules, players)
        if pol is not None and policy_key(pol.rules) == policy_key(rules):
            games.append(_Game(preset, players, pol))
    return games


def _game(name: str) -> _Game:
    for g in training_games():
        if g.name == name:
            return g
    raise Refused(Refusal("no_game", None, {"game": name[:40], "allowed": ", ".join(g.name for g in training_games())}))


@dataclass
class _Position:
    id: str
    game: _Game
    obs: Observation
    origin: dict[str, Any]
    actual: str | None
    value: asyncio.Future[dict[str, Any]] | None = None


_positions: OrderedDict[str, _Position] = OrderedDict()


class TablePick(Model):
    """One of the player's own tables: its id and the seat token this browser holds."""

    table: Annotated[str, Field(max_length=64)]
    token: Annotated[str, Field(max_length=128)]


class PositionRequest(Model):
    """``POST /api/train/position``: the game (``traditional-5``, or ``any``), where from (``mine``:
    the finished hands of ``tables``; ``generated``; ``any``: mine if there is one, else generated),
    and ``skip``, positions of one's own tables already seen (``table/hand``)."""

    game: Annotated[str, Field(max_length=40)] = "any"
    source: Literal["mine", "generated", "any"] = "any"
    tables: Annotated[list[TablePick], Field(max_length=30)] = []
    skip: Annotated[list[Annotated[str, Field(max_length=80)]], Field(max_length=500)] = []


class AnswerRequest(Model):
    """``POST /api/train/answer``: a position's ``id`` and the player's ``answer``."""

    id: Annotated[str, Field(max_length=40)]
    answer: Literal["in", "out"]


def _generate(game: _Game, rng: Any) -> Observation:
    """A deal of ``game`` up to a random seat's turn to declare, the seats before declaring by the
    equilibrium with their own cards (R4.5); a seat with no choice (the forced dealer) is drawn again."""
    pol, rules, n = game.policy, game.policy.rules, game.players
    while True:
        hand = Hand.new(rules, [pol.stacks] * n, dealer=n - 1, rng=rng, pot=pol.pot)
        position = rng.randrange(n)
        before: list[bool] = []
        for k in range(position):
            seat = hand.to_act
            assert seat is not None
            cards = [c for c in hand.dealt[seat] if c is not None]
            p = pol.prob_in(k, history_bits(before), bucket(cards, hand.turn_up, rules))
            go_in = p >= 1.0 or (p > 0.0 and rng.random() < p)
            hand.apply(Action.declare(seat, go_in))
            before.append(go_in)
        seat = hand.to_act
        assert seat is not None
        obs = hand.observe(seat)
        if obs.phase is Phase.DECLARE and len(obs.legal) == 2:
            return obs


def _mine_hands(hub: Hub, body: PositionRequest, game: _Game | None) -> list[tuple[Table, int, int, _Game]]:
    """The finished hands of the player's own seats at their tables (``(table, seat, hand, game)``)
    in a game "in or out?" covers, not in ``skip``: read from the tables' results, no hand
    replayed and each table's policy looked up once per number of players and carry-in pot (a
    few microseconds a hand: cheap enough for the event loop). A table listed twice counts once,
    with the first of its tokens that owns a seat."""
    skip = set(body.skip)
    seen: set[str] = set()
    games: dict[tuple[str, int, int], _Game | None] = {}  # a table's policy looked up once per kind of hand
    out = []
    for pick in body.tables:
        if pick.table in seen:
            continue
        t = hub.tables.get(pick.table)
        if t is None:
            continue
        own = t.owner_of(pick.token)
        if own is None:
            continue
        seen.add(pick.table)
        for number in _own_hands(t, own):
            if f"{t.id}/{number}" in skip:
                continue
            hand, _n = _finished(t, number)
            kind = (t.id, len(hand.seated), hand.carry_in)
            if kind not in games:
                pol = default_policy(t.rules, len(hand.seated), hand.carry_in)
                games[kind] = next((x for x in training_games() if x.policy is pol), None)
            g = games[kind]
            if g is None or (game is not None and g is not game):
                continue
            out.append((t, own.index, number, g))
    return out


def _draw_mine(
    hands: list[tuple[Table, int, int, _Game]], rng: Any, tries: int = PICK_TRIES
) -> tuple[_Game, Observation, dict[str, Any], str] | None:
    """One declaration of the player's own seat (their own cards only, R7) from ``hands``
    (:func:`_mine_hands`), each hand equally likely: hands are replayed in a random order, at most
    ``tries`` of them, until one holds a declaration to train on (a choice between in and out, no
    short stack); None if none does. Runs on a thread (a replay is CPU work; finished hands do
    not change)."""
    order = list(hands)
    rng.shuffle(order)
    for t, seat, number, g in order[:tries]:
        for i, obs, action in seat_decisions(own_history(t, number, seat), seat):
            short = min(obs.stacks[s] for s in obs.seated) < obs.rules.bete_for(obs.pot)
            # a short stack changes the payments (R5.8): the policy was solved without one
            if obs.phase is Phase.DECLARE and len(obs.legal) == 2 and not short:
                origin = {
                    "kind": "table",
                    "table": t.id,
                    "hand": number,
                    "date": None if t.created is None else round(t.created),
                    "names": {seat_name(s.index): s.name for s in t.seats if s.name},  # public at the table
                    "by": acted_by(t, number, i),
                }
                return g, obs, origin, str(action.kind)
            break
    return None


def position_record(p: _Position) -> dict[str, Any]:
    """A training position as ``POST /api/train/position`` answers it: its id, game, origin, the
    seat's own cards, the turn-up, the declarations before it, the pot, the stacks and the rules."""
    obs = p.obs
    return {
        "id": p.id,
        "game": {"name": p.game.name, "preset": p.game.preset, "players": p.game.players},
        "from": p.origin,
        "seat": seat_name(obs.seat),
        "position": obs.order.index(obs.seat),
        "players": len(obs.order),
        "dealer": seat_name(obs.dealer),
        "order": [seat_name(s) for s in obs.order],
        "cards": [str(c) for c in obs.cards],
        "turn_up": str(obs.turn_up),
        "trump": obs.trump,
        "before": [[seat_name(s), str(d)] for s, d in obs.declarations],
        "pot": obs.pot,
        "stacks": [obs.stacks[s] for s in obs.order],
        "rules": {"ante": obs.rules.ante, "bete": str(obs.rules.bete)},
    }


def _training_busy(limit: int) -> Refused:
    return Refused(Refusal("train_busy", None, {"limit": limit, "seconds": TRAINING_RETRY}))


def _will_value(service: CoachService) -> bool:
    """Whether training positions are valued in the coach's process now (the kernel is ready)."""
    warm = service.warm
    return warm.ready or (warm.state is hints.WarmState.OFF and hints.lab_available())


def _value_now(service: CoachService, p: _Position) -> bool:
    """Start computing the exact value of a position in the coach's process (once the kernel is
    ready), unless :data:`MAX_TRAINING` values wait or run already. True if it was started (or no
    process can be made: then ``p.value`` stays None and the answer is the policy's stored value)."""
    if not _will_value(service) or service.training >= MAX_TRAINING:
        return False
    obs = p.obs
    args = (
        p.game.preset,
        p.game.players,
        [str(c) for c in obs.cards],
        str(obs.turn_up),
        obs.order.index(obs.seat),
        history_bits([d for _, d in obs.declarations]),
        TRAIN_SAMPLES,
        secrets.randbelow(2**31),
    )
    try:
        p.value = service.submit(_advantage_task, *args)
    except OSError:  # no worker process can be made (logged; /readyz says so): the stored value answers
        return True
    service.training += 1

    def done(f: asyncio.Future[dict[str, Any]]) -> None:
        service.training -= 1
        if not f.cancelled():
            f.exception()  # retrieved: an unanswered position warns nobody

    p.value.add_done_callback(done)
    return True


async def new_position(hub: Hub, service: CoachService, body: PositionRequest) -> _Position:
    """A training position (see the module text): from the player's own tables of ``hub`` when
    asked (or ``any`` and there is one), else generated; its exact value starts being computed by
    ``service`` at once. A position of one's own tables is drawn on a thread (:func:`_draw_mine`:
    a hand or a few replayed, never every hand of every table), at most :data:`MAX_PICKS` at once.

    Raises:
        Refused: ``no_game`` (a game not covered), ``no_position`` (``mine`` and none is left),
            ``train_busy`` (:data:`MAX_TRAINING` values or :data:`MAX_PICKS` draws are under way:
            ask again in :data:`TRAINING_RETRY` seconds).
    """
    loop = asyncio.get_running_loop()
    if not _games:  # the shipped policies are read from their files once, on a thread
        await loop.run_in_executor(None, training_games)
    game = None if body.game == "any" else _game(body.game)
    if _will_value(service) and service.training >= MAX_TRAINING:
        raise _training_busy(MAX_TRAINING)
    rng = secrets.SystemRandom()
    chosen: tuple[_Game, Observation, dict[str, Any], str | None] | None = None
    if body.source in ("mine", "any"):
        hands = _mine_hands(hub, body, game)
        if hands:
            if service.picking >= MAX_PICKS:
                raise _training_busy(MAX_PICKS)
            service.picking += 1
            try:
                chosen = await loop.run_in_executor(None, _draw_mine, hands, rng)
            finally:
                service.picking -= 1
        if chosen is None and body.source == "mine":
            raise Refused(Refusal("no_position"))
    if chosen is None:
        g = game or rng.choice(training_games())
        chosen = (g, _generate(g, rng), {"kind": "generated"}, None)
    p = _Position(secrets.token_urlsafe(12), chosen[0], chosen[1], chosen[2], chosen[3])
    if _will_value(service) and not _value_now(service, p):
        raise _training_busy(MAX_TRAINING)  # filled while this one was drawn
    _positions[p.id] = p
    while len(_positions) > POSITION_CACHE:
        _positions.popitem(last=False)
    return p


def _equilibrium_answer(p: _Position) -> dict[str, Any]:
    obs = p.obs
    position = obs.order.index(obs.seat)
    hist = history_bits([d for _, d in obs.declarations])
    b = bucket(list(obs.cards), obs.turn_up, obs.rules)
    p_in = p.game.policy.prob_in(position, hist, b)
    stored = p.game.policy.advantage_of(position, hist, b)
    answer = "in" if p_in >= 0.95 else "out" if p_in <= 0.05 else "mixed"
    return {"p_in": round(p_in, 3), "answer": answer, "bucket_value": None if stored is None else round(stored, 2)}


async def answer_position(service: CoachService, body: AnswerRequest, lang: str) -> dict[str, Any]:
    """The coach's answer to a training position (see :func:`new_position`), in ``lang``.

    Returns:
        ``{"answer", "best" ("in"/"out"), "close", "correct", "loss" (counters, 0 when right or close),
        "in_minus_out": {"mean", "ci95"}, "samples", "effective", "source": "equilibrium" (this hand)
        or "table" (the policy's value for hands like it), "equilibrium": {"p_in", "answer"}, "actual"
        (what was declared at the player's seat at the table, or None), "actual_by" (who declared it:
        ``seat``, or a bot for the player: ``bot``, ``proxy``, ``timer``), "text", "reason" (why, for
        an answer that is not close: ``{"code", "fields", "rule", "text"}``, :mod:`ramsli.coach.reasons`,
        or None), "detail"}``.

    Raises:
        Refused: ``no_position`` for an unknown or forgotten id.
    """
    p = _positions.get(body.id)
    if p is None:
        raise Refused(Refusal("no_position"))
    eq = _equilibrium_answer(p)
    value: dict[str, Any] | None = None
    if p.value is None:
        _value_now(service, p)
    if p.value is not None:
        try:
            value = await asyncio.wait_for(asyncio.shield(p.value), ANSWER_WAIT)
        except Exception:  # noqa: BLE001 - too slow or failed: the policy's stored value answers
            value = None
    if value is not None and value["effective"] >= 30 and value["mean"] == value["mean"]:
        source, mean, ci = "equilibrium", value["mean"], value["ci95"]
        samples, effective = value["samples"], value["effective"]
    else:
        source, mean, ci, samples, effective = "table", float(eq["bucket_value"] or 0.0), 0.0, None, None
    verdict = hints.advice(mean, ci)
    best = "in" if mean > 0 else "out"
    correct = verdict == "close" or body.answer == best
    reason = None
    if verdict != "close":  # why: what this hand does if it plays (sampled deals, R7: the seat's own view)
        seat = p.obs.seat
        worse, better = Action.declare(seat, best == "out"), Action.declare(seat, best == "in")
        found = await asyncio.get_running_loop().run_in_executor(None, reason_for, p.obs, worse, better)
        reason = (
            None
            if found is None
            else {
                **found.to_dict(),
                "text": render_reason(found, lang, card_label=lambda card: card_label_in(card, lang)),
            }
        )
    tr = catalog(lang)
    if source == "equilibrium":
        detail = tr.gettext(
            N_("In − out for this hand against the solved equilibrium: {d} counters (± {ci}); {n} deals, {e} effective")
        ).format(
            d=hints._signed(mean, lang),
            ci=format_counters(ci, lang, 2),
            n=format_decimal(samples or 0, locale=lang),
            e=format_decimal(round(effective or 0), locale=lang),
        )
    else:
        detail = tr.gettext(N_("In − out for hands like this in the equilibrium's table: {d} counters")).format(
            d=hints._signed(mean, lang)
        )
    return {
        "id": p.id,
        "answer": body.answer,
        "best": best,
        "close": verdict == "close",
        "correct": correct,
        "loss": 0.0 if correct else round(abs(mean), 3),
        "in_minus_out": {"mean": round(mean, 3), "ci95": round(ci, 3)},
        "samples": samples,
        "effective": None if effective is None else round(effective, 1),
        "source": source,
        "equilibrium": eq,
        "actual": p.actual,
        "actual_by": p.origin.get("by") if p.actual is not None else None,
        "text": hints.advice_text(mean, ci, lang),
        "reason": reason,
        "detail": detail,
    }
