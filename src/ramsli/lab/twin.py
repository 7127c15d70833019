"""The batch kernel run as plain Python: the same numbers, no compile.

:func:`python_kernel` returns a copy of :mod:`ramsli.lab.kernel` in which every Numba function
is the Python function it was written as (Numba's ``py_func``) and every Python function of the
module is bound to that copy, so that ``python_kernel().play_batch(...)``,
``python_kernel().play_sessions(...)`` and ``python_kernel().run_odds(...)`` run the kernel's own
code in the interpreter: the same hands, the same results, exactly (the lab's tests compare
them), a few hundred times slower, and without the Numba compile that the kernel needs once per
installation (:mod:`ramsli.lab.warmup`). The front ends use it to answer a person at once while
the kernel compiles in the background: a small ``ramsli simulate`` in full, and the first
``ramsli odds`` or hint on fewer samples.

Only the counter-based random stream is written again here, on Python integers (the kernel
relies on 64-bit unsigned wrap-around, which NumPy scalars warn about); the tests check that it
gives the kernel's numbers.
"""

from __future__ import annotations

import types
from typing import Any

__all__ = ["python_kernel", "mix", "start", "uniform", "u_at"]

_M64 = (1 << 64) - 1
_GOLD = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_SEED_MUL = 0xD1B54A32D192ED03
_INV53 = 1.0 / 9007199254740992.0


def mix(z: int) -> int:
    """SplitMix64's output function on a 64-bit unsigned integer (the kernel's ``_mix``).

    >>> mix(0), mix(1) == mix(1 + 2**64)
    (0, True)
    """
    z &= _M64
    z = ((z ^ (z >> 30)) * _M1) & _M64
    z = ((z ^ (z >> 27)) * _M2) & _M64
    return z ^ (z >> 31)


def start(seed: int, h: int) -> int:
    """The stream state of hand (or sample) ``h`` of ``seed`` (the kernel's ``_start``)."""
    return mix((int(seed) * _SEED_MUL + int(h) * _GOLD) & _M64)


def uniform(state: int) -> tuple[int, float]:
    """Advance ``state`` and return ``(new state, u in [0, 1))`` (the kernel's ``_uniform``)."""
    state = (int(state) + _GOLD) & _M64
    return state, float(mix(state) >> 11) * _INV53


def u_at(state: int, k: int) -> float:
    """Number ``k`` of the decision table after ``state`` (the kernel's ``_u_at``)."""
    return float(mix((int(state) + (int(k) + 1) * _GOLD) & _M64) >> 11) * _INV53


_twin: list[types.SimpleNamespace] = []


def python_kernel() -> Any:
    """The kernel module's functions and constants, run by the Python interpreter (built once).

    The result has the attributes of :mod:`ramsli.lab.kernel` (``play_batch``, ``play_sessions``,
    ``run_odds``, ``_odds_part``, ``RANDOM``, ...); it uses one thread (:func:`threads` is 1).
    """
    if _twin:
        return _twin[0]
    from numba.core.dispatcher import Dispatcher

    from ramsli.lab import kernel as K

    g: dict[str, Any] = dict(vars(K))
    funcs: dict[str, Any] = {}
    for name, value in vars(K).items():
        f = value.py_func if isinstance(value, Dispatcher) else value
        if isinstance(f, types.FunctionType) and f.__module__ == K.__name__:
            twin = types.FunctionType(f.__code__, g, f.__name__, f.__defaults__, f.__closure__)
            twin.__kwdefaults__ = f.__kwdefaults__
            twin.__doc__ = f.__doc__
            funcs[name] = twin
    g.update(funcs)
    g.update(
        _mix=mix,
        _start=start,
        _uniform=uniform,
        _u_at=u_at,
        _SUIT=[int(x) for x in K._SUIT],  # list lookups are faster than NumPy's in the interpreter
        _RANK=[int(x) for x in K._RANK],
        threads=lambda: 1,
        warm_up=lambda kind, note=None: 0.0,
    )
    ns = types.SimpleNamespace(**g)
    _twin.append(ns)
    return ns
