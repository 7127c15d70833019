"""The kernel's one-time compile out of a person's way: compile ahead, know when it is ready.

The batch kernel (:mod:`ramsli.lab.kernel`) is compiled by Numba on its first use after an
installation — about 10–30 s per kind of work on a 2-core machine — and kept in a cache folder
(:mod:`ramsli.lab.jitcache`) from which later processes load it in well under a second. This
module keeps that compile away from anyone waiting:

- :func:`state` and :func:`kernel_ready` say whether a kind of work (``"batch"``, ``"sessions"``,
  ``"odds"``, :data:`ramsli.lab.kernel.KINDS`) runs at once;
- :func:`start_background_compile` compiles the kinds in a separate process (``python -m
  ramsli.lab.warmup KIND ...``, detached, so it finishes even when the caller exits, and holding
  the cache folder's compile lock, so two processes never compile at once), then loads them in
  this process from a background thread: a long-lived process (the table server) calls it at
  start; :func:`kernel_ready` turns True when it is done;
- :func:`wait_for_kernel` does the same and waits, reporting the seconds so far (a command that
  cannot answer without the kernel, e.g. a large ``ramsli simulate``);
- :func:`quick_estimate` answers the "should I stay in?" question without the kernel: the
  kernel's own code run by the Python interpreter (:mod:`ramsli.lab.twin`) over fewer samples,
  with its own 95% interval; :func:`hint_estimate` uses the kernel when it is ready and the quick
  estimate until then.

The table server's use::

    from ramsli.lab import warmup
    warmup.start_background_compile()          # at start: the hint's kernel, in the background
    ...
    answer = warmup.hint_estimate(**query)     # in a worker thread; answer["estimator"] says which

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
from typing import Any

from ramsli.lab import jitcache

__all__ = [
    "HINT_KINDS",
    "QUICK_SECONDS",
    "state",
    "kernel_ready",
    "expected_seconds",
    "compile_note",
    "background_note",
    "start_background_compile",
    "background_error",
    "wait_for_kernel",
    "compile_kinds",
    "quick_estimate",
    "hint_estimate",
]

#: the kinds the "should I stay in?" hint needs
HINT_KINDS: tuple[str, ...] = ("odds",)
#: seconds of sampling of :func:`quick_estimate` by default
QUICK_SECONDS = 1.0
#: compile seconds assumed before any compile was timed on this machine (per kind, 2-core machine)
DEFAULT_SECONDS = {"batch": 15.0, "sessions": 15.0, "odds": 12.0}
_TIMES = "compile-seconds.json"

_lock = threading.Lock()
_bg: dict[str, Any] = {}  # "thread": the background thread, "error": its failure, "kinds": what it does


def _kernel() -> Any:
    from ramsli.lab import kernel as K

    return K


def state(kind: str = "odds") -> str:
    """Where the entry point of ``kind`` stands in this process.

    Returns:
        ``"ready"`` (compiled or loaded here), ``"cached"`` (in the cache folder: the first call
        loads it in well under a second), ``"compiling"`` (another process holds the compile lock)
        or ``"cold"`` (the first call compiles).

    Raises:
        KeyError: for a kind not in :data:`ramsli.lab.kernel.KINDS`.
    """
    K = _kernel()
    if K.is_compiled(kind):
        return "ready"
    if K.is_cached(kind):
        return "cached"
    with jitcache.compile_lock(blocking=False) as free:
        if not free:
            return "compiling"
    return "cached" if K.is_cached(kind) else "cold"


def kernel_ready(kinds: str | Iterable[str] = HINT_KINDS) -> bool:
    """True when every kind in ``kinds`` runs without a compile: loaded in this process, or in the
    cache folder (:func:`state` ``"ready"`` or ``"cached"``). Cheap enough to ask per request."""
    for kind in [kinds] if isinstance(kinds, str) else kinds:
        if kind not in _kernel()._warm and state(kind) not in ("ready", "cached"):
            return False
    return True


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
        KeyError: for a kind not in :data:`ramsli.lab.kernel.KINDS`.
    """
    K = _kernel()
    for kind in kinds:
        if K.is_compiled(kind):
            continue
        with jitcache.compile_lock():
            cold = not K.is_cached(kind)  # another process may have compiled it while we waited
            t0 = time.perf_counter()
            K.warm_up(kind)
            if cold:
                _record_seconds(kind, time.perf_counter() - t0)


def _spawn(kinds: Sequence[str]) -> subprocess.Popen | None:
    """Start ``python -m ramsli.lab.warmup KINDS`` detached; None when that cannot help (no cache
    folder to share the result through) or cannot start."""
    folder = jitcache.cache_dir()
    if folder is None:
        return None
    log = open(folder / "compile.log", "ab")  # handed to the child, closed below
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "ramsli.lab.warmup", *kinds],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # not killed with the caller's terminal: the cache is written
            env=dict(os.environ, NUMBA_CACHE_DIR=str(folder)),
        )
    except OSError:
        return None
    finally:
        log.close()


def _compile_elsewhere(kinds: Sequence[str], progress: Callable[[float], None] | None = None) -> None:
    """Have ``kinds`` compiled in a child process and wait for it; compile here if that fails."""
    t0 = time.perf_counter()
    child = _spawn(kinds)
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
    compile_kinds(kinds)  # no cache folder, or the child failed: compile in this process


def _background(kinds: Sequence[str], load: bool) -> None:
    try:
        todo = [k for k in kinds if state(k) in ("cold", "compiling")]
        if todo:
            _compile_elsewhere(todo)
        if load:
            for k in kinds:
                _kernel().warm_up(k)  # from the cache: well under a second each
    except Exception as e:  # noqa: BLE001 - kept for background_error(); the quick path still answers
        _bg["error"] = e


def start_background_compile(kinds: Sequence[str] = HINT_KINDS, load: bool = True) -> bool:
    """Compile ``kinds`` in the background (a detached child process under the compile lock) and,
    with ``load``, load them into this process afterwards, from a daemon thread. Returns at once.

    Returns:
        True if a background compile was started; False if it runs already or nothing is to do
        (every kind is loaded here, or cached and ``load`` is False).

    Raises:
        KeyError: for a kind not in :data:`ramsli.lab.kernel.KINDS`.
    """
    for k in kinds:
        _kernel()._warm_call(k)  # KeyError for an unknown kind, before any thread starts
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
        KeyError: for a kind not in :data:`ramsli.lab.kernel.KINDS`.
    """
    K = _kernel()
    t0 = time.perf_counter()
    todo = [k for k in kinds if state(k) in ("cold", "compiling")]
    if todo:
        if note is not None:
            note(compile_note(todo))
        _compile_elsewhere(todo, progress)
    for k in kinds:
        K.warm_up(k)
    return time.perf_counter() - t0


def quick_estimate(*args: Any, time_s: float = QUICK_SECONDS, **query: Any) -> dict[str, Any]:
    """:func:`ramsli.lab.odds.estimate` without the kernel: its own code run by the Python interpreter
    (:mod:`ramsli.lab.twin`) for ``time_s`` seconds, so about 3,000 samples a second rather than a
    million; the interval (``ci95``) is that of the samples taken. The samples are the kernel's:
    the same seed gives the kernel's values on the same samples. ``estimator`` is ``"python"``.

    Raises:
        OddsError: as :func:`ramsli.lab.odds.estimate`.
    """
    from ramsli.lab.odds import estimate

    return estimate(*args, **dict(query, time_s=time_s, kernel="python"))


def hint_estimate(*args: Any, **query: Any) -> dict[str, Any]:
    """The hint's estimate: :func:`ramsli.lab.odds.estimate` on the kernel when :func:`kernel_ready`,
    else :func:`quick_estimate` (with the query's ``time_s``) while a background compile is made
    ready for the next question. ``estimator`` in the answer says which (``"kernel"`` or
    ``"python"``).

    Raises:
        OddsError: as :func:`ramsli.lab.odds.estimate`.
    """
    from ramsli.lab.odds import estimate

    if kernel_ready(HINT_KINDS):
        return estimate(*args, **dict(query, kernel="kernel"))
    start_background_compile(HINT_KINDS)
    return estimate(*args, **dict(query, kernel="python"))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ramsli.lab.warmup [KIND ...]``: compile (or load) the kinds (default: all)."""
    kinds = list(argv if argv is not None else sys.argv[1:]) or list(_kernel().KINDS)
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
