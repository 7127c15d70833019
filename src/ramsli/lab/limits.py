"""Input limits and output files shared by ``simulate``, ``odds`` and ``tournament``.

- :data:`MAX_COUNTERS`: the batch kernel (:mod:`ramsli.lab.kernel`) keeps stacks and the pot
  in 64-bit integers, so stacks (``starting_stack``, R3.3), the ante (R4.1), a fixed bete
  (R5.3) and a carry-over pot (R5.4) are limited to 10**9 counters each there; sums of six
  stacks and a pot then never overflow.
- :func:`check_counters` refuses values above that limit. The number of players, the ``players``
  option and an ante the starting stack can pay are the engine's one set-up check,
  :func:`ramsli.session.check_setup`, which the lab calls too.
- :func:`out_targets` / :func:`check_writable` decide and check output files *before* a long run:
  ``NAME.json`` → JSON, ``NAME.csv`` → CSV, ``NAME`` without a suffix → both ``NAME.json`` and
  ``NAME.csv``; a folder or another suffix is refused.

- :func:`check_jobs` bounds worker processes to 1..:data:`MAX_JOBS`; :func:`check_count` bounds
  requested work (hands, sessions, deals) so that a mistyped number is refused at once
  instead of running for ever: :data:`MAX_HANDS`, :data:`MAX_SESSIONS`, :data:`MAX_DEALS`,
  :data:`MAX_TIPS_HANDS`.

Every check raises :class:`LimitError` (a ``ValueError``) whose message says what was wrong,
what is allowed and the rule id where one applies.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
from pathlib import Path

from ramsli.rules import MAX_COUNTERS as _RULES_MAX_COUNTERS
from ramsli.rules import Rules, format_number

__all__ = [
    "MAX_COUNTERS",
    "MAX_JOBS",
    "MAX_HANDS",
    "MAX_SESSIONS",
    "MAX_DEALS",
    "MAX_TIPS_HANDS",
    "LimitError",
    "check_counters",
    "check_jobs",
    "check_count",
    "check_seed",
    "check_positive_time",
    "out_targets",
    "check_writable",
    "atomic_output",
]

#: the most counters one stack, the ante, the bete or the pot may hold in the batch kernel
MAX_COUNTERS = _RULES_MAX_COUNTERS  # the bound lives with the rules (ramsli.rules.MAX_COUNTERS)
#: the most worker processes ``--jobs`` may ask for (a fixed bound, whatever the number of cores)
MAX_JOBS = 64
#: the most independent hands ``simulate --hands`` plays (the kernel plays them in batches)
MAX_HANDS = 10**9
#: the most whole sessions ``simulate --sessions`` plays
MAX_SESSIONS = 10**7
#: the most deals ``tournament --hands`` plays (each deal's result is kept in memory)
MAX_DEALS = 10**6
#: the most hands per claim ``tips --hands`` plays (each claim's hands are one batch in memory,
#: about 87 bytes per hand and seat count 5; up to 5 × hands for the General Rams claim)
MAX_TIPS_HANDS = 10**6


class LimitError(ValueError):
    """A value outside what the lab commands allow; the message says what is allowed."""


def check_jobs(jobs: int, option: str = "--jobs") -> None:
    """Refuse a number of worker processes outside 1..:data:`MAX_JOBS`.

    Raises:
        LimitError: naming ``option`` and the allowed range.
    """
    if type(jobs) is not int or not 1 <= jobs <= MAX_JOBS:
        raise LimitError(
            f"{option} {jobs}: allowed is a whole number of worker processes 1..{MAX_JOBS} "
            f"(this machine has {os.cpu_count() or 1} cores; more processes than cores is no faster)"
        )


def check_count(value: int, option: str, maximum: int, what: str = "hands", minimum: int = 1) -> None:
    """Refuse a count of work (hands, sessions, deals) outside ``minimum..maximum``.

    Raises:
        LimitError: naming ``option``, the allowed range and the unit ``what``.
    """
    if type(value) is not int or not minimum <= value <= maximum:
        raise LimitError(
            f"{option} {value}: allowed is a whole number of {what} {format_number(minimum)}..{format_number(maximum)}"
        )


def check_counters(rules: Rules, pot: int = 0, *, pot_option: str = "--pot") -> None:
    """Check the counters of ``rules`` and a carry-over ``pot`` against :data:`MAX_COUNTERS` (the
    kernel's 64-bit integers). An ante the starting stack cannot pay is the engine's
    :func:`~ramsli.session.check_setup`'s to refuse (R3.5).

    Args:
        rules: the rules in force; pot: carry-over pot (counters, R5.4), named ``pot_option`` in messages.

    Raises:
        LimitError: for a value above :data:`MAX_COUNTERS` or a negative pot.
    """
    lim = format_number(MAX_COUNTERS)
    for name, value, rule in (
        ("starting_stack", rules.starting_stack, "R3.3"),
        ("ante", rules.ante, "R4.1"),
        ("bete", rules.bete, "R5.3"),
    ):
        if isinstance(value, int) and value > MAX_COUNTERS:
            raise LimitError(
                f"option {name}={value} is too large: allowed is at most {lim} counters "
                f"({rule}; the simulation keeps counters in 64-bit integers)"
            )
    if type(pot) is not int or pot < 0 or pot > MAX_COUNTERS:
        raise LimitError(f"{pot_option} {pot}: the carry-over pot is a whole number of counters 0..{lim} (R5.4)")


def check_seed(seed: int, option: str = "--seed") -> None:
    """Refuse a negative seed.

    Raises:
        LimitError: if ``seed`` is not a whole number >= 0.
    """
    if type(seed) is not int or seed < 0:
        raise LimitError(f"{option} {seed}: allowed is a whole number >= 0")


def check_positive_time(value: float, option: str, *, allow_zero: bool = False, unit: str = "seconds") -> None:
    """Refuse NaN, infinities and values <= 0 (or < 0 with ``allow_zero``).

    Raises:
        LimitError: naming ``option`` and what is allowed.
    """
    ok = math.isfinite(value) and (value >= 0 if allow_zero else value > 0)
    if not ok:
        allowed = ">= 0" if allow_zero else "> 0"
        raise LimitError(f"{option} {value}: allowed is a finite number {allowed} ({unit})")


def out_targets(out: str | os.PathLike, option: str = "--out") -> list[Path]:
    """The files ``--out`` stands for: ``X.json`` → [X.json], ``X.csv`` → [X.csv], ``X`` → [X.json, X.csv].

    Raises:
        LimitError: for an existing folder, a suffix other than .json/.csv, or an existing file
            named without a suffix (e.g. /dev/full).
    """
    p = Path(out)
    if str(out).endswith(("/", os.sep)) or p.is_dir():
        raise LimitError(
            f"{option} {str(out)!r} is a folder: give a file name, FILE.json, FILE.csv, or FILE "
            "without a suffix for both FILE.json and FILE.csv"
        )
    suffix = p.suffix.lower()
    if suffix in (".json", ".csv"):
        return [p]
    if suffix == "":
        if p.exists():
            raise LimitError(
                f"{option} {str(out)!r} exists and is not a folder: a name without a suffix stands "
                "for both NAME.json and NAME.csv; give FILE.json or FILE.csv, or a new name"
            )
        return [p.with_name(p.name + ".json"), p.with_name(p.name + ".csv")]
    raise LimitError(
        f"{option} {str(out)!r}: unknown suffix {p.suffix!r}; allowed are FILE.json, FILE.csv, or "
        "FILE without a suffix for both FILE.json and FILE.csv"
    )


def check_writable(path: str | os.PathLike, option: str = "--out") -> None:
    """Check, before any work, that ``path`` can be created or overwritten as a regular file.

    Raises:
        LimitError: if its folder does not exist (or is a file) or is not writable, or ``path`` is a folder or
            an existing file that is not a regular writable file (e.g. a device such as /dev/full).
    """
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise LimitError(f"{option} {str(path)!r} is a folder; give a file name")
    if not parent.is_dir():
        for q in (parent, *parent.parents):  # the nearest part of the path that exists
            if q.exists() or q.is_symlink():
                if not q.is_dir():
                    raise LimitError(
                        f"{option} {str(path)!r}: {str(q)!r} is a file, not a folder; give a file in an existing folder"
                    )
                break
        raise LimitError(
            f"{option} {str(path)!r}: the folder {str(parent)!r} does not exist; create it first "
            "or give a file in an existing folder"
        )
    if p.exists():
        if not p.is_file():
            raise LimitError(f"{option} {str(path)!r} exists and is not a regular file; give a new or regular file")
        if not os.access(p, os.W_OK):
            raise LimitError(f"{option} {str(path)!r}: the file is not writable")
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise LimitError(f"{option} {str(path)!r}: the folder {str(parent)!r} is not writable")


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, newline: str | None = None):
    """Open ``path`` for writing text (UTF-8) so that it appears complete or not at all: the text goes
    to a temporary file beside it, which replaces ``path`` only when the block ends without an error
    (a full disk never leaves an empty file). On an error the temporary file is removed and the
    error (e.g. ``OSError`` ENOSPC) is raised again; an existing ``path`` is left as it was.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.json"
    >>> with atomic_output(p) as f:
    ...     _ = f.write("{}")
    >>> p.read_text()
    '{}'
    """
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=p.name + ".", suffix=".tmp", dir=p.parent if str(p.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
