"""Where the lab's compiled Numba kernels are kept, and one compile at a time.

Numba compiles the lab's kernels (:mod:`ramsli.lab.kernel`, :mod:`ramsli.lab.solve_kernel`) on
their first call and keeps the machine code in a cache folder, so that later processes load it
in well under a second instead of compiling again. Numba's own default is a ``__pycache__``
folder beside the installed sources, which a read-only ``site-packages`` (a system package, a
container image) does not allow, and when no folder is writable at all ``cache=True`` fails at
import. :func:`configure`, run by the kernel modules before they define a kernel, picks the
folder instead:

1. ``NUMBA_CACHE_DIR`` if it is set (the person's own choice, used as it is);
2. else ``RAMSLI_CACHE_DIR/numba`` if ``RAMSLI_CACHE_DIR`` is set;
3. else ``numba`` in the user's cache folder (``platformdirs.user_cache_dir("ramsli")``:
   ``~/.cache/ramsli/numba`` on Linux, ``XDG_CACHE_HOME`` honoured);
4. else, when that is not writable, ``ramsli-<uid>/numba`` in the temporary folder (kept until
   it is cleaned);
5. else no cache (every process compiles; nothing fails).

The chosen folder is written to ``NUMBA_CACHE_DIR`` of this process (children inherit it).
Numba keeps one set of files per source folder inside it, so several installs or checkouts
share the folder without mixing.

Two processes that compile the same kernel at once would each write Numba's index of that
kernel and could lose an entry; :func:`compile_lock` is an exclusive lock file in the cache
folder that the lab takes around every compile (:func:`ramsli.lab.warmup.compile_kind`), so a
second process waits for the first and then loads what it wrote.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType

import platformdirs

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # not POSIX: the compile lock keeps only this process's threads apart
    fcntl = None

__all__ = ["choose_cache_dir", "configure", "cache_dir", "compile_lock", "LOCK_NAME"]

#: the lock file taken around a compile, in the cache folder
LOCK_NAME = "ramsli-compile.lock"

_chosen: list[Path | None] = []  # the folder configure() picked (one entry once it ran)


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError:
        return False
    return True


def choose_cache_dir(environ: Mapping[str, str] | None = None, user_cache: str | None = None) -> Path | None:
    """The folder for the compiled kernels by the order of the module text, or None for no cache.

    Args:
        environ: the environment to read (default ``os.environ``); user_cache: the user's cache
            folder for ramsli (default ``platformdirs.user_cache_dir("ramsli")``).

    Candidates other than ``NUMBA_CACHE_DIR`` are created if missing and must be writable.

    >>> choose_cache_dir({"NUMBA_CACHE_DIR": "/some/where"})
    PosixPath('/some/where')
    """
    env = os.environ if environ is None else environ
    if env.get("NUMBA_CACHE_DIR"):
        return Path(env["NUMBA_CACHE_DIR"])
    candidates = []
    if env.get("RAMSLI_CACHE_DIR"):
        candidates.append(Path(env["RAMSLI_CACHE_DIR"]) / "numba")
    else:
        if user_cache is None:
            try:
                user_cache = platformdirs.user_cache_dir("ramsli", appauthor=False)
            except Exception:  # noqa: BLE001 - no home folder: fall through to the temporary one
                user_cache = None
        if user_cache:
            candidates.append(Path(user_cache) / "numba")
    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    candidates.append(Path(tempfile.gettempdir()) / f"ramsli-{uid}" / "numba")
    for c in candidates:
        if _writable(c):
            return c
    return None


def configure() -> Path | None:
    """Choose the cache folder (:func:`choose_cache_dir`) once per process and tell Numba.

    Sets ``NUMBA_CACHE_DIR`` (and ``numba.config.CACHE_DIR`` if Numba is already imported) unless
    the environment already names a folder. Returns the folder, or None when nothing is writable
    (the kernels are then compiled in every process and not cached).
    """
    if _chosen:
        return _chosen[0]
    path = choose_cache_dir()
    if path is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(path)
        cfg = sys.modules.get("numba.core.config")
        if cfg is not None:
            cfg.CACHE_DIR = str(path)  # type: ignore[attr-defined]
    _chosen.append(path)
    return path


def cache_dir() -> Path | None:
    """The folder :func:`configure` chose for this process (configuring it if not done yet)."""
    return configure()


_held = threading.RLock()  # the threads of this process take turns; the holder may enter again
_depth = threading.local()  # how often the holding thread has entered


@contextlib.contextmanager
def compile_lock(blocking: bool = True) -> Iterator[bool]:
    """Hold the exclusive compile lock of the cache folder (an ``flock`` on :data:`LOCK_NAME`).

    Yields True when the lock is held; with ``blocking=False`` it yields False at once if another
    process (or another thread of this one) holds it. The thread that holds it may enter again
    (a compile inside a compile). Without a cache folder, or where ``fcntl`` is missing, only the
    threads of this process are kept apart (nothing is shared then).
    """
    if not _held.acquire(blocking=blocking):
        yield False
        return
    try:
        depth = getattr(_depth, "n", 0)
        _depth.n = depth + 1
        try:
            if depth:
                yield True  # this thread holds the file lock already
                return
            with _file_lock(blocking) as got:
                yield got
        finally:
            _depth.n = depth
    finally:
        _held.release()


@contextlib.contextmanager
def _file_lock(blocking: bool) -> Iterator[bool]:
    folder = cache_dir()
    if fcntl is None or folder is None:  # not POSIX, or no cache folder: no lock between processes
        yield True
        return
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield True
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
