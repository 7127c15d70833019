"""The lab's one-time kernel compiles out of a person's way: compile ahead, know when it is ready.

The batch kernel (:mod:`ramsli.lab.kernel`) and the coach's equilibrium kernel
(:mod:`ramsli.lab.solve_kernel`) are compiled by Numba on their first use after an installation —
about 10–30 s per kind of work on a 2-core machine — and kept in a cache folder
(:mod:`ramsli.lab.jitcache`) from which later processes load them in well under a second. This
module keeps that compile away from anyone waiting, for the lab's commands and for the table
server (:class:`ramsli.server.coach.hints.LabWarmUp`) alike:

- :func:`state` and :func:`kernel_ready` say whether a kind of work (:data:`KINDS`: ``"batch"``,
  ``"sessions"``, ``"odds"``, ``"advantage"``) runs at once;
- :func:`compile_elsewhere` compiles kinds in a separate process (``python -m ramsli.lab.warmup
  KIND ...``, holding the cache folder's compile lock, so two processes never compile at once)
  and waits for it;
- :func:`start_background_compile` does that from a daemon thread, the child detached so that it
  finishes even when the caller exits, then loads the kinds in this process: ``ramsli odds`` and
  ``ramsli simulate`` answer in plain Python meanwhile; :func:`kernel_ready` turns True when it
  is done;
- :func:`wait_for_kernel` compiles and waits, reporting the seconds so far (a command that cannot
  answer without the kernel, e.g. ``ramsli tips``).

Compile times of earlier compiles are kept in the cache folder (``compile-seconds.json``) to say
how long the next one takes.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ramsli.cards import Card
from ramsli.lab import jitcache
from ramsli.lab.equilibrium import default_policy
from ramsli.rules import Rules

__all__ = [
    "KINDS",
    "ADVANTAGE",
    "HINT_KINDS",
    "state",
    "kernel_ready",
    "expected_seconds",
    "compile_note",
    "background_note",
    "start_background_compile",
    "background_error",
    "wait_for_kernel",
    "compile_elsewhere",
    "compile_kinds",
]

#: the coach's kind of work: the equilibrium kernel's entry points (:mod:`ramsli.lab.solve_kernel`)
ADVANTAGE = "advantage"
#: every kind of work this module compiles: the batch kernel's (:data:`ramsli.lab.kernel.KINDS`)
#: and :data:`ADVANTAGE`
KINDS: tuple[str, ...] = ("batch", "sessions", "odds", ADVANTAGE)
#: the kinds the "should I stay in?" estimate needs
HINT_KINDS: tuple[str, ...] = ("odds",)
#: compile seconds assumed before any compile was timed on this machine (per kind, 2-core machine)
DEFAULT_SECONDS = {"batch": 15.0, "sessions": 15.0, "odds": 12.0, ADVANTAGE: 15.0}
_TIMES = "compile-seconds.json"

_lock = threading.Lock()
_bg: dict[str, Any] = {}  # "thread": the background thread, "error": its failure, "kinds": what it does


def _kernel() -> Any:
    from ramsli.lab import kernel as K

    return K


def _check(kind: str) -> None:
    """Raise KeyError for a kind not in :data:`KINDS`."""
    if kind not in KINDS:
        raise KeyError(kind)


def _advantage_dispatchers() -> tuple[Any, ...]:
    from ramsli.lab import solve_kernel as S

    return S.hand_tables, S.node_advantages


def _in_disk_cache(disp: Any) -> bool:
    """True if a Numba dispatcher's disk cache holds an entry (loading it needs no compile)."""
    try:
        return bool(disp._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - no cache, or Numba's private cache API changed: not cached
        return False


def _is_compiled(kind: str) -> bool:
    if kind == ADVANTAGE:
        return all(getattr(d, "signatures", None) for d in _advantage_dispatchers())
    return bool(_kernel().is_compiled(kind))


def _is_cached(kind: str) -> bool:
    if kind == ADVANTAGE:
        return all(_in_disk_cache(d) for d in _advantage_dispatchers())
    return bool(_kernel().is_cached(kind))


def _load(kind: str) -> None:
    """Compile (cold cache) or load (warm cache) the entry points of ``kind`` in this process."""
    if kind != ADVANTAGE:
        _kernel().warm_up(kind)
        return
    from ramsli.lab.solve import hand_advantage

    pol = default_policy(Rules(), 3)
    if pol is None:  # no shipped policy: nothing of the coach's kernel is used
        return
    cards = [Card.parse(c) for c in ("AS", "9S", "KH", "8D", "7C")]
    hand_advantage(pol, cards, Card.parse("TS"), 0, 0, 4, 0)


def state(kind: str = "odds") -> str:
    """Where the entry point of ``kind`` stands in this process.

    Returns:
        ``"ready"`` (compiled or loaded here), ``"cached"`` (in the cache folder: the first call
        loads it in well under a second), ``"compiling"`` (another process holds the compile lock)
        or ``"cold"`` (the first call compiles).

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
    """
    _check(kind)
    if _is_compiled(kind):
        return "ready"
    if _is_cached(kind):
        return "cached"
    with jitcache.compile_lock(blocking=False) as free:
        if not free:
            return "compiling"
    return "cached" if _is_cached(kind) else "cold"


def kernel_ready(kinds: str | Iterable[str] = HINT_KINDS) -> bool:
    """True when every kind in ``kinds`` runs without a compile: loaded in this process, or in the
    cache folder (:func:`state` ``"ready"`` or ``"cached"``). Cheap enough to ask per request."""
    return all(state(kind) in ("ready", "cached") for kind in ([kinds] if isinstance(kinds, str) else kinds))


def _times_path() -> Any:
    folder = jitcache.cache_dir()
    return None if folder is None else folder / _TIMES


def expected_seconds(kinds: Iterable[str]) -> float:
    """The seconds a compile of ``kinds`` takes here: the last timed compile of each kind on this
    machine (kept in the cache folder), else :data:`DEFAULT_SECONDS`."""
    known: dict[str, float] = {}
    path = _times_path()
    if path is not None:
        with contextlib.suppress(OSError, ValueError):
            known = {str(k): float(v) for k, v in json.loads(path.read_text()).items()}
    return sum(known.get(k, DEFAULT_SECONDS.get(k, 15.0)) for k in kinds)


def _record_seconds(kind: str, seconds: float) -> None:
    path = _times_path()
    if path is None:
        return
    with contextlib.suppress(OSError, ValueError):
        known = json.loads(path.read_text()) if path.exists() else {}
        known[kind] = round(seconds, 1)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(known))
        os.replace(tmp, path)


def compile_note(kinds: Iterable[str]) -> str:
    """The line a front end shows while ``kinds`` compile, e.g. ``compiling the simulation kernel,
    once: about 15 s (later runs load it from the cache)…``."""
    secs = expected_seconds(kinds)
    return f"compiling the simulation kernel, once: about {max(1, round(secs))} s (later runs load it from the cache)…"


def background_note(kinds: Iterable[str]) -> str:
    """The line a front end shows when it answers without the kernel while ``kinds`` compile in the
    background (:func:`start_background_compile`)."""
    secs = expected_seconds(kinds)
    return (
        f"the simulation kernel is compiling in the background, once: about {max(1, round(secs))} s. "
        "Until it is ready, answers come from plain Python: the same samples, fewer of them."
    )


def compile_kinds(kinds: Sequence[str]) -> None:
    """Compile (or load) ``kinds`` in this process under the compile lock, timing each compile
    into the cache folder; what ``python -m ramsli.lab.warmup`` runs.

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
    """
    for kind in kinds:
        _check(kind)
        if _is_compiled(kind):
            continue
        with jitcache.compile_lock():
            cold = not _is_cached(kind)  # another process may have compiled it while we waited
            t0 = time.perf_counter()
            _load(kind)
            if cold:
                _record_seconds(kind, time.perf_counter() - t0)


def _spawn(kinds: Sequence[str]) -> subprocess.Popen | None:
    """Start ``python -m ramsli.lab.warmup KINDS`` detached; None when that cannot help (no cache
    folder to share the result through) or cannot start."""
    folder = jitcache.cache_dir()
    if folder is None:
        return None
    log = open(folder / "compile.log", "ab")  # handed to the child, closed below
    src = str(Path(__file__).resolve().parents[2])  # this ramsli, installed or a checkout
    path = src + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "ramsli.lab.warmup", *kinds],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # not killed with the caller's terminal: the cache is written
            env=dict(os.environ, NUMBA_CACHE_DIR=str(folder), PYTHONPATH=path),
        )
    except OSError:
        return None
    finally:
        log.close()


def compile_elsewhere(
    kinds: Sequence[str], progress: Callable[[float], None] | None = None, fallback: bool = True
) -> None:
    """Have ``kinds`` compiled into the cache folder by a child process (``python -m
    ramsli.lab.warmup KINDS``, under the compile lock, its log in the cache folder's
    ``compile.log``) and wait for it. If there is no cache folder or the child fails, ``fallback``
    compiles them in this process instead (which then has them loaded).

    Args:
        progress: called about four times a second with the seconds waited so far.
        fallback: False raises instead of compiling here (a process whose other threads must not
            wait for the compile, such as the table server).

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
        RuntimeError: without ``fallback``, when the child could not start or failed.
    """
    for kind in kinds:
        _check(kind)
    t0 = time.perf_counter()
    child = _spawn(kinds)
    rc = None
    if child is not None:
        while True:
            try:
                rc = child.wait(timeout=0.25)
                break
            except subprocess.TimeoutExpired:
                if progress is not None:
                    progress(time.perf_counter() - t0)
        if rc == 0:
            return
    if not fallback:
        why = "no cache folder to compile into" if child is None else f"exit status {rc}, see compile.log"
        raise RuntimeError(f"the compile process of {' '.join(kinds)} failed ({why})")
    compile_kinds(kinds)  # no cache folder, or the child failed: compile in this process


def _background(kinds: Sequence[str], load: bool) -> None:
    try:
        todo = [k for k in kinds if state(k) in ("cold", "compiling")]
        if todo:
            compile_elsewhere(todo)
        if load:
            for k in kinds:
                _load(k)  # from the cache: well under a second each
    except Exception as e:  # noqa: BLE001 - kept for background_error(); the quick path still answers
        _bg["error"] = e


def start_background_compile(kinds: Sequence[str] = HINT_KINDS, load: bool = True) -> bool:
    """Compile ``kinds`` in the background (a detached child process under the compile lock) and,
    with ``load``, load them into this process afterwards, from a daemon thread. Returns at once.

    Returns:
        True if a background compile was started; False if it runs already or nothing is to do
        (every kind is loaded here, or cached and ``load`` is False).

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
    """
    for k in kinds:
        _check(k)  # KeyError for an unknown kind, before any thread starts
    with _lock:
        t = _bg.get("thread")
        if t is not None and t.is_alive():
            return False
        states = {k: state(k) for k in kinds}
        if all(s == "ready" for s in states.values()) or (
            not load and all(s in ("ready", "cached") for s in states.values())
        ):
            return False
        _bg.pop("error", None)
        _bg["kinds"] = tuple(kinds)
        _bg["thread"] = threading.Thread(
            target=_background, args=(tuple(kinds), load), name="ramsli-kernel-compile", daemon=True
        )
        _bg["thread"].start()
        return True


def background_error() -> BaseException | None:
    """The exception the last background compile ended with, or None."""
    return _bg.get("error")


def wait_for_kernel(
    kinds: Sequence[str],
    note: Callable[[str], None] | None = None,
    progress: Callable[[float], None] | None = None,
) -> float:
    """Make ``kinds`` ready in this process, compiling them in a child process if needed, and wait.

    Args:
        note: called once with :func:`compile_note` when a compile is needed (or one by another
            process is waited for).
        progress: called about four times a second with the seconds waited so far.

    Returns:
        the seconds waited (loading from the cache included).

    Raises:
        KeyError: for a kind not in :data:`KINDS`.
    """
    t0 = time.perf_counter()
    todo = [k for k in kinds if state(k) in ("cold", "compiling")]
    if todo:
        if note is not None:
            note(compile_note(todo))
        compile_elsewhere(todo, progress)
    for k in kinds:
        _load(k)
    return time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ramsli.lab.warmup [KIND ...]``: compile (or load) the kinds (default: all)."""
    kinds = list(argv if argv is not None else sys.argv[1:]) or list(KINDS)
    t0 = time.perf_counter()
    compile_kinds(kinds)
    print(
        f"{time.strftime('%Y-%m-%d %H:%M:%S')} pid {os.getpid()}: {' '.join(kinds)} ready in "
        f"{time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
