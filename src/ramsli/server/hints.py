"""The "should I stay in?" hint of the browser table: ``GET /api/tables/{table}/hint?token=``.

Allowed only at a table whose creator allowed it (the table's ``hint`` option), for the person
sitting at a seat (their personal token), while it is that seat's turn to declare (R4.5). The
answer is :func:`ramsli.lab.odds.estimate` (the ``lab`` extra: NumPy and Numba) for the seat's
own cards and the public facts only (:func:`hint_query`, R7). One computation runs at a time
per seat, at most :data:`HINT_CONCURRENCY` in the server, on threads (never the bots' pool);
answers are kept per (table, seat, hand, ``seq``), so asking again at the same position costs
nothing. Refusals (``hint_off``, ``no_lab``, ``no_hint``, ``hint_busy``, ``hint_failed``,
``bad_token``) are :class:`~ramsli.refusal.Refused`, rendered in the request's language by the
app.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from typing import Any

from fastapi import APIRouter, Request

from ramsli.hand import Observation
from ramsli.refusal import Refusal, Refused
from ramsli.server.table import Table, TableStatus

__all__ = [
    "router",
    "hint",
    "hint_allowed",
    "hint_query",
    "lab_available",
    "warm_up_lab",
    "HINT_SECONDS",
    "HINT_CONCURRENCY",
    "HINT_CACHE",
]

router = APIRouter()

#: seconds of sampling behind one hint (the lab's odds estimate)
HINT_SECONDS = 1.0
#: hint computations running at once in the whole server (each on a thread, never the bots' pool)
HINT_CONCURRENCY = 2
#: finished hints kept, per (table, seat, hand, seq)
HINT_CACHE = 256

_Key = tuple[str, int, int | None, int]
#: (table, seat) -> (key, future) of the hint being computed for that seat: one at a time per seat
_running: dict[tuple[str, int], tuple[_Key, asyncio.Future[dict[str, Any]]]] = {}
#: (table, seat, hand, seq) -> the answer (a seat asking again at the same position gets it at once)
_done: dict[_Key, dict[str, Any]] = {}
_slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
_warm: dict[str, threading.Thread] = {}


def lab_available() -> bool:
    """True if the ``lab`` extra (NumPy and Numba) is installed."""
    try:
        import numba  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def hint_allowed(app: Any, table_id: str) -> bool:
    """True if the creator of ``table_id`` allowed the "should I stay in?" hint (the table's
    ``hint`` option, stored with its spec: it survives a restart); False for an unknown table."""
    t = app.state.hub.tables.get(table_id)
    return bool(t is not None and t.options.hint)


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


def warm_up_lab() -> None:
    """Compile the lab's kernel once, in the background, when the first hint table is made (the
    first compile takes half a minute; later estimates take :data:`HINT_SECONDS`)."""
    if _warm or not lab_available():
        return

    def run() -> None:
        from ramsli.lab.odds import estimate

        try:
            estimate(cards="AS 9S KH 8D 7C", turn_up="TS", players=3, seat=0, time_s=0.05)
        except Exception:  # noqa: BLE001 - a failed warm-up only means a slower first hint
            pass

    _warm["thread"] = threading.Thread(target=run, name="ramsli-hint-warm-up", daemon=True)
    _warm["thread"].start()


def _declaring_obs(request: Request, t: Table, token: str) -> tuple[Observation, _Key]:
    """The observation of the token's seat at its turn to declare, and the cache key; or a refusal."""
    seat = t.seat_of_token(token)
    if seat is None:
        raise Refused(Refusal("bad_token"))
    if not hint_allowed(request.app, t.id):
        raise Refused(Refusal("hint_off"))
    if not lab_available():
        raise Refused(Refusal("no_lab"))
    hand, number = t.current_hand()
    if hand is None or t.status is not TableStatus.PLAYING:
        raise Refused(Refusal("no_hint", "R4.5"))
    obs = hand.observe(seat.index)
    if not seat.taken or not t.owns(seat, token) or obs.phase.value != "declare" or obs.to_act != seat.index:
        # only the person sitting there, with the personal token (an invite token owns no cards, R7)
        raise Refused(Refusal("no_hint", "R4.5"))
    return obs, (t.id, seat.index, number, t.seq)


@router.get("/api/tables/{table_id}/hint")
async def hint(request: Request, table_id: str, token: str = "") -> dict[str, Any]:
    """The lab's estimate for the token's seat while it is that seat's turn to declare (R4.5).

    Answers ``{"ev_diff": {"mean", "ci95"}, "ev_in", "ev_out", "p_trick", "samples", ...}``
    (counters of this hand; stay in when ``ev_diff`` is above zero), or a refusal:
    ``403 hint_off`` (the creator did not allow it), ``409 no_hint`` (not your turn to declare),
    ``501 no_lab`` (the optional extra ``lab`` is not installed; the message says how to add it),
    ``429 hint_busy`` (a hint for another position of this seat is still being computed),
    ``409 hint_failed`` (the lab cannot estimate this position).
    """
    t = request.app.state.hub.table(table_id)
    obs, key = _declaring_obs(request, t, token)
    if key in _done:
        return _done[key]
    who = (t.id, obs.seat)
    running = _running.get(who)
    if running is not None and running[0] == key:
        return await asyncio.shield(running[1])  # the same question is being answered: wait for it
    if running is not None:
        raise Refused(Refusal("hint_busy"))
    fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    _running[who] = (key, fut)
    try:
        answer = await _compute(obs)
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


async def _compute(obs: Observation) -> dict[str, Any]:
    """One hint computation on a thread (never the bots' pool), at most :data:`HINT_CONCURRENCY`
    at once in the server.

    Raises:
        Refused: ``hint_failed`` if the lab cannot estimate the position.
    """
    from ramsli.lab.odds import OddsError, estimate

    loop = asyncio.get_running_loop()
    slots = _slots.get(loop)
    if slots is None:
        _slots.clear()
        slots = _slots[loop] = asyncio.Semaphore(HINT_CONCURRENCY)
    query = hint_query(obs, seed=int(time.time()) % 100000)
    async with slots:
        try:
            res = await loop.run_in_executor(None, functools.partial(estimate, **query))
        except OddsError:
            raise Refused(Refusal("hint_failed")) from None
    keep = ("p_trick", "p_most", "ev_in", "ev_out", "ev_diff", "out_allowed", "samples", "accepted", "conditioning")
    return {k: res[k] for k in keep}
