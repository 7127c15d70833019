"""Where the chunks of a long run are played: here, in local worker processes, or on a Dask cluster.

``ramsli simulate``, ``ramsli tournament`` and ``ramsli odds`` split their work
into chunks, each with its own random streams taken from the run's seed (so a
chunk's result depends on the seed and the chunk, never on where or when it is
played). A :class:`Runner` plays such chunks:

- :class:`LocalRunner` with ``jobs=1`` plays each chunk in this process, when
  its result is first asked for (nothing is computed ahead);
- :class:`LocalRunner` with ``jobs > 1`` plays them in a pool of worker
  processes (``concurrent.futures``);
- :class:`DaskRunner` sends them as tasks to a Dask distributed scheduler
  (``--scheduler tcp://HOST:PORT``; the extra ``dask``). Dask is imported only
  here, and only then.

:func:`run_chunks` plays a list of chunks and returns their results in the
list's order (whatever order they finish in), so that merging them gives the
same numbers bit for bit locally and on any cluster with any number of
workers. :func:`stream_chunks` plays chunks from any iterable, handing each
result to a callback and keeping none: only a bounded window of chunks
(:func:`window_size`) is submitted at a time, so the memory of a run does not
grow with its length. A task whose worker dies is run again by Dask (``allowed-failures`` on
the scheduler, default 3); one that raises is tried again ``TASK_RETRIES``
times. An exception, or Ctrl-C (``KeyboardInterrupt``), cancels every task of
the run that is not finished yet before it propagates; local worker processes
ignore SIGINT themselves (the terminal sends it to the whole process group) and
are terminated at once by :meth:`LocalRunner.close` after an error or Ctrl-C,
so no chunk runs on after it.

>>> with LocalRunner(1) as r:
...     run_chunks(r, pow, [(2, 3), (3, 2)])
[8, 9]
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import re
import signal
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, InvalidStateError, ProcessPoolExecutor, as_completed
from typing import Any

import ramsli

__all__ = [
    "ClusterError",
    "Runner",
    "LocalRunner",
    "DaskRunner",
    "run_chunks",
    "stream_chunks",
    "window_size",
    "check_address",
    "check_workers",
    "DEFAULT_TIMEOUT_S",
    "TASK_RETRIES",
    "LAB_PACKAGES",
    "WINDOW_PER_WORKER",
]

#: seconds to wait for the scheduler to answer and for at least one worker to join
DEFAULT_TIMEOUT_S = 10.0
#: how often Dask tries a task again that raised (a worker that dies is governed by ``allowed-failures``)
TASK_RETRIES = 2
#: the packages of the extra 'lab' that the kernel needs on every worker (simulate, odds)
LAB_PACKAGES = ("numpy", "numba")
#: chunks submitted ahead per worker (process or Dask thread): enough to keep every worker busy,
#: few enough that a run of 10**9 hands holds a few dozen chunks, not millions
WINDOW_PER_WORKER = 4

_ADDRESS = re.compile(r"^(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$")


class ClusterError(RuntimeError):
    """The Dask cluster cannot be used: bad address, no scheduler, no workers, workers without ramsli,
    a missing extra, or a task that killed its workers. The message says what to check or install."""


def check_address(address: str) -> str:
    """Check a scheduler address ``tcp://HOST:PORT`` (or ``tls://HOST:PORT``) and return it.

    Raises:
        ClusterError: for another form or a port outside 1..65535.

    >>> check_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    """
    m = _ADDRESS.match(address.strip())
    if not m or not 1 <= int(m.group(3)) <= 65535:
        raise ClusterError(
            f"--scheduler {address!r}: allowed is the scheduler's address tcp://HOST:PORT "
            "(port 1..65535), e.g. tcp://10.0.0.5:8786, as printed by `dask scheduler`"
        )
    return address.strip()


def check_workers(infos: dict[str, Any], needs: Sequence[str] = (), version: str | None = None) -> None:
    """Check what every worker reported at connect (see :meth:`DaskRunner.connect`).

    Args:
        infos: worker address -> ``{"ramsli": version or None, "missing": [package, ...]}``
            (or an exception, when the worker could not run the probe).
        needs: packages every worker must import (e.g. :data:`LAB_PACKAGES`).
        version: the ramsli version the workers must have (default: this one's).

    Raises:
        ClusterError: naming the first bad worker and what to install there.

    >>> check_workers({"tcp://w:1": {"ramsli": ramsli.__version__, "missing": []}})
    >>> check_workers({"tcp://w:1": {"ramsli": None, "missing": []}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ramsli.analysis.cluster.ClusterError: worker tcp://w:1 has no ramsli: install ramsli ... on every worker
    """
    version = version or ramsli.__version__
    extra = "[lab,dask]" if needs else "[dask]"
    install = f"pip install 'ramsli{extra}=={version}' (or pip install -e '.{extra}' in the same checkout)"
    if not infos:
        raise ClusterError("the scheduler has no workers: start some with  dask worker tcp://HOST:PORT")
    for addr, info in sorted(infos.items()):
        if isinstance(info, BaseException) or not isinstance(info, dict):
            raise ClusterError(f"worker {addr} cannot run ramsli's check ({info!r}): {install} on every worker")
        if info.get("ramsli") is None:
            raise ClusterError(f"worker {addr} has no ramsli: install ramsli {version} with {install} on every worker")
        if info["ramsli"] != version:
            raise ClusterError(
                f"worker {addr} has ramsli {info['ramsli']}, this is ramsli {version}: the same "
                f"version must run everywhere ({install} on every worker)"
            )
        missing = [p for p in needs if p in info.get("missing", ())]
        if missing:
            raise ClusterError(f"worker {addr} lacks {', '.join(missing)} (the extra 'lab'): {install} on every worker")


class Runner:
    """Plays chunks of work: ``submit`` a chunk, wait with ``as_completed`` or ``result``, ``cancel`` the rest.

    A runner is a context manager; leaving it releases its processes or its connection.
    ``parallelism`` is how many chunks it plays at once (worker processes or Dask threads).
    """

    parallelism: int = 1
    where: str = "this process"

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def submit(self, fn: Callable, *args) -> Any:
        """Start (or, for ``LocalRunner(1)``, register) the chunk ``fn(*args)``; returns a handle."""
        raise NotImplementedError

    def as_completed(self, handles: Iterable) -> Iterator:
        """The handles, each as soon as its chunk is finished."""
        raise NotImplementedError

    def result(self, handle) -> Any:
        """The chunk's result (waits for it); the chunk's own exception if it raised."""
        raise NotImplementedError

    def cancel(self, handles: Iterable) -> None:
        """Cancel chunks that are not finished."""

    def done(self, handle) -> bool:
        """True if the chunk is finished (its result is ready without waiting)."""
        raise NotImplementedError

    def run_everywhere(self, fn: Callable, *args) -> None:
        """Run ``fn(*args)`` once in every worker process (e.g. a compile), not in this one."""

    def close(self) -> None:
        """Release the processes or the connection."""


class _Deferred:
    """A chunk of :class:`LocalRunner` with one job: played in this process when its result is wanted."""

    __slots__ = ("fn", "args", "value", "done")

    def __init__(self, fn: Callable, args: tuple) -> None:
        self.fn, self.args, self.done, self.value = fn, args, False, None

    def get(self) -> Any:
        if not self.done:
            self.value = self.fn(*self.args)
            self.done = True
        return self.value


class LocalRunner(Runner):
    """Chunks in this process (``jobs=1``) or in a pool of ``jobs`` worker processes.

    Args:
        jobs: worker processes, ≥ 1 (1: this process, nothing started).
        pool: makes the pool, called as ``pool(jobs)`` (default
            :class:`concurrent.futures.ProcessPoolExecutor`).
    """

    def __init__(self, jobs: int = 1, pool: Callable[[int], Executor] | None = None) -> None:
        self.jobs = max(1, int(jobs))
        self.parallelism = self.jobs
        self.where = "this process" if self.jobs == 1 else f"{self.jobs} local processes"
        self._factory = pool or ProcessPoolExecutor
        self._pool: Executor | None = None
        self._submitted = 0

    def __exit__(self, exc_type, *exc) -> None:
        self.close(terminate=exc_type is not None)

    def submit(self, fn: Callable, *args) -> Any:
        if self.jobs == 1:
            return _Deferred(fn, args)
        if self._pool is None:
            self._pool = self._factory(self.jobs)
        self._submitted += 1
        if self._submitted <= self.jobs:  # the pool starts its processes on these submits
            with _sigint_ignored():  # inherited: Ctrl-C reaches this process only, which stops them
                return self._pool.submit(fn, *args)
        return self._pool.submit(fn, *args)

    def as_completed(self, handles: Iterable) -> Iterator:
        handles = list(handles)
        if self.jobs == 1:
            for h in handles:
                h.get()
                yield h
        else:
            yield from as_completed(handles)

    def result(self, handle) -> Any:
        return handle.get() if self.jobs == 1 else handle.result()

    def cancel(self, handles: Iterable) -> None:
        if self.jobs > 1:
            for h in handles:
                h.cancel()

    def done(self, handle) -> bool:
        return handle.done if self.jobs == 1 else handle.done()

    def close(self, terminate: bool = False) -> None:
        """Release the pool: wait for the processes to finish (they have no work left), or with
        ``terminate`` (after an error or Ctrl-C, as ``with`` does) end them at once (SIGTERM)
        without waiting for the chunks they are playing."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            if not terminate:
                pool.shutdown(wait=True, cancel_futures=True)
                return
            # Python 3.11's pool thread, finding its processes ended, sets an exception on every pending
            # future, also on those already cancelled: InvalidStateError, printed as a thread traceback
            # over the one-line Ctrl-C message. That error says nothing here; any other is shown.
            hook = threading.excepthook

            def quiet(args: threading.ExceptHookArgs) -> None:
                if not isinstance(args.exc_value, InvalidStateError):
                    hook(args)

            threading.excepthook = quiet
            try:
                for p in list((getattr(pool, "_processes", None) or {}).values()):
                    with contextlib.suppress(Exception):
                        p.terminate()
                pool.shutdown(wait=True, cancel_futures=True)  # joins the pool thread
            finally:
                threading.excepthook = hook


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in this process meanwhile (only in the main thread, where handlers live), so that
    processes started now inherit "ignore": Ctrl-C then stops the run through this process alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _dask():
    try:
        distributed = importlib.import_module("distributed")
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in ("distributed", "dask"):
            raise
        raise ClusterError(
            "--scheduler needs Dask distributed, the extra 'dask': pip install 'ramsli[dask]' "
            "(in a checkout: pip install -e '.[dask]')"
        ) from None
    return distributed


def _probe_factory() -> Callable[[Sequence[str]], dict]:
    def probe(needs):  # made inside a function so that it travels by value: it runs on a worker without ramsli
        info = {"ramsli": None, "missing": []}
        try:
            import ramsli as installed

            info["ramsli"] = getattr(installed, "__version__", "unknown")
        except Exception:  # noqa: BLE001 - any failure to import is "no ramsli"
            pass
        for name in needs:
            try:
                __import__(name)
            except Exception:  # noqa: BLE001
                info["missing"].append(name)
        return info

    return probe


class DaskRunner(Runner):
    """Chunks as tasks on a Dask distributed cluster.

    Args:
        address: the scheduler, ``tcp://HOST:PORT`` (:func:`check_address`).
        needs: packages every worker must have (:data:`LAB_PACKAGES` for the kernel).
        timeout_s: seconds to wait for the scheduler, and then for a first worker.

    Raises (on ``connect``, which ``with`` calls):
        ClusterError: if Dask is not installed here, the address is malformed, the scheduler does
            not answer within ``timeout_s``, no worker joins within ``timeout_s``, or a worker lacks
            ramsli (the same version) or a package of ``needs``.
    """

    def __init__(self, address: str, needs: Sequence[str] = (), timeout_s: float | None = None) -> None:
        self.address = check_address(address)
        self.needs = tuple(needs)
        self.timeout_s = DEFAULT_TIMEOUT_S if timeout_s is None else float(timeout_s)
        self.where = f"the Dask cluster at {self.address}"
        #: the ``distributed.Client`` once connected, else None (Dask is an optional extra, imported
        #: only on connect, so its type is not named here)
        self.client: Any = None
        self._run = uuid.uuid4().hex[:12]
        self._n = 0

    def __enter__(self) -> DaskRunner:
        if self.client is None:
            self.connect()
        return self

    def connect(self) -> None:
        """Connect, wait for a worker, and check every worker's ramsli version and packages.

        Also installs :class:`CtrlCNoise` on the ``tornado.application`` logger (once per process).

        Raises:
            ClusterError: see the class; RuntimeError: if already connected.
        """
        if self.client is not None:
            raise RuntimeError(f"already connected to {self.address}")
        distributed = _dask()
        CtrlCNoise.install()
        t = self.timeout_s
        try:
            self.client = distributed.Client(self.address, timeout=t, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address} within {t:g} s ({e}): check "
                "that `dask scheduler` runs there and listens on that host and port, and that no "
                "firewall blocks the port"
            ) from None
        try:
            try:
                self.client.wait_for_workers(1, timeout=t)
            except (OSError, TimeoutError):
                raise ClusterError(
                    f"the Dask scheduler at {self.address} has no worker after {t:g} s: start "
                    f"workers with  dask worker {self.address}"
                ) from None
            infos = self.client.run(_probe_factory(), self.needs, on_error="return")
            check_workers(infos, self.needs)
            self.parallelism = max(1, sum(self.client.nthreads().values()))
        except BaseException:
            self.close()
            raise

    def submit(self, fn: Callable, *args) -> Any:
        self._n += 1
        key = f"ramsli-{getattr(fn, '__name__', 'chunk').strip('_')}-{self._run}-{self._n}"
        return self.client.submit(fn, *args, key=key, pure=False, retries=TASK_RETRIES)

    def as_completed(self, handles: Iterable) -> Iterator:
        distributed = _dask()
        return iter(distributed.as_completed(list(handles), loop=self.client.loop))

    def result(self, handle) -> Any:
        distributed = _dask()
        try:
            return handle.result()
        except distributed.KilledWorker as e:
            raise ClusterError(
                f"the workers running a task died too often (the scheduler's allowed-failures): {e} "
                "A chunk may need more memory than a worker has; see the logs of `dask worker`."
            ) from None

    def done(self, handle) -> bool:
        return handle.done()

    def cancel(self, handles: Iterable) -> None:
        handles = [h for h in handles if not h.done()]
        if handles and self.client is not None:
            try:
                self.client.cancel(handles)
            except Exception:  # noqa: BLE001 - the connection may be gone already; nothing left to cancel
                pass

    def run_everywhere(self, fn: Callable, *args) -> None:
        self.client.run(fn, *args)

    def close(self) -> None:
        if self.client is not None:
            try:
                self.client.close()
            finally:
                self.client = None


class CtrlCNoise(logging.Filter):
    """Drops the traceback that Dask's ``distributed.utils.sync`` has its event loop log when Ctrl-C
    comes before the call it waits on has started (``NameError`` in ``sync.<locals>.cancel``, logged
    by ``tornado.application``): nothing was left to cancel, and the run's own one line says what
    happened (:func:`ramsli.commands.cluster_opts.interrupted`). Every other record passes.

    >>> import sys
    >>> try:
    ...     raise NameError("cannot access free variable 'future'")
    ... except NameError:
    ...     info = sys.exc_info()
    >>> noise = logging.LogRecord("tornado.application", logging.ERROR, "", 0,
    ...     "Exception in callback functools.partial(<function sync.<locals>.cancel at 0x1>)", None, info)
    >>> CtrlCNoise().filter(noise), CtrlCNoise().filter(logging.LogRecord("x", 40, "", 0, "other", None, None))
    (False, True)
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """False for that ``NameError`` record (dropped), True for every other record."""
        exc = record.exc_info[1] if record.exc_info else None
        return not (isinstance(exc, NameError) and "sync.<locals>.cancel" in record.getMessage())

    @classmethod
    def install(cls) -> None:
        """Add the filter to the ``tornado.application`` logger unless it is there already."""
        logger = logging.getLogger("tornado.application")
        if not any(isinstance(f, cls) for f in logger.filters):
            logger.addFilter(cls())


def window_size(runner: Runner) -> int:
    """How many chunks :func:`stream_chunks` keeps submitted at once on ``runner``:
    :data:`WINDOW_PER_WORKER` per worker (1 for ``LocalRunner(1)``, which plays nothing ahead).

    >>> window_size(LocalRunner(1)), window_size(LocalRunner(2, pool=lambda n: None))
    (1, 8)
    """
    if isinstance(runner, LocalRunner) and runner.jobs == 1:
        return 1
    return max(1, WINDOW_PER_WORKER * runner.parallelism)


def stream_chunks(
    runner: Runner, fn: Callable, work: Iterable[tuple], on_done: Callable[[int, Any], None], window: int | None = None
) -> int:
    """Play ``fn(*args)`` for every ``args`` of ``work`` (any iterable, read lazily) on ``runner``, calling
    ``on_done(index, result)`` for each chunk as soon as it is finished (in the order they finish) and
    keeping no result: at most ``window`` chunks (default :func:`window_size`) are submitted at a time,
    so memory stays bounded however long ``work`` is.

    Returns:
        the number of chunks played.

    Raises:
        whatever a chunk or ``on_done`` raised, ``ClusterError`` for a task that killed its workers, and
        ``KeyboardInterrupt``; in every case the chunks not yet finished are cancelled first.

    >>> got = []
    >>> with LocalRunner(1) as r:
    ...     stream_chunks(r, pow, iter([(2, 3), (3, 2)]), lambda k, v: got.append((k, v)))
    2
    >>> got
    [(0, 8), (1, 9)]
    """
    window = window_size(runner) if window is None else max(1, int(window))
    items = iter(enumerate(work))
    pending: dict[Any, int] = {}  # handle -> index of its chunk in ``work``
    played = 0
    try:
        while True:
            while len(pending) < window:
                item = next(items, None)
                if item is None:
                    break
                pending[runner.submit(fn, *item[1])] = item[0]
            if not pending:
                return played
            first = next(iter(runner.as_completed(list(pending))))
            ready = [(first, pending.pop(first))]
            ready += [(h, pending.pop(h)) for h in [h for h in pending if runner.done(h)]]
            for h, k in ready:
                on_done(k, runner.result(h))
                played += 1
    except BaseException:
        runner.cancel(list(pending))
        raise


def run_chunks(
    runner: Runner, fn: Callable, work: Sequence[tuple], on_done: Callable[[int, Any], None] | None = None
) -> list:
    """Play ``fn(*args)`` for every ``args`` of ``work`` on ``runner``; return the results in ``work``'s order.

    Every result is kept until the end: for long runs use :func:`stream_chunks`, which keeps none.
    Chunks are submitted a bounded window at a time (:func:`window_size`).

    Args:
        on_done: called as ``on_done(index, result)`` for each chunk as soon as it is finished
            (in the order they finish; e.g. to advance a progress bar).

    Raises:
        whatever a chunk raised, ``ClusterError`` for a task that killed its workers, and
        ``KeyboardInterrupt``; in every case the chunks not yet finished are cancelled first.
    """
    results: list = [None] * len(work)

    def keep(k: int, result: Any) -> None:
        results[k] = result
        if on_done is not None:
            on_done(k, result)

    stream_chunks(runner, fn, work, keep)
    return results
