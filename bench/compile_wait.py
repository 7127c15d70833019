"""How long a person waits for a first answer after a fresh install (a benchmark, not a test).

Every scenario runs in new processes with an empty Numba cache (``NUMBA_CACHE_DIR`` pointing at a
new folder), so the kernel has never been compiled, then again with the cache the first run left
(warm). Measured, wall clock from the command's start to its exit:

- ``ramsli odds`` (the default ``--kernel auto``: answers in Python while the kernel compiles in the
  background, :func:`ramsli.lab.warmup.start_background_compile`) and, for comparison, ``ramsli
  odds --kernel kernel`` (waits for the compile);
- ``ramsli simulate`` (10,000 hands) the same two ways;
- the background compile itself: from the first command's start until the cache holds the kernel.

The table server's first hint after a fresh install is measured by ``bench/first_hint.py``.

The machine's load average is printed beside the figures (one-minute value before each run), and
the CPU seconds of each command's own process: on a loaded machine the wall clock mostly measures
the wait for a core, while start-up CPU plus the query's ``--time`` (2 s) is what a quiet machine
takes.

    .venv/bin/python bench/compile_wait.py [--python .venv/bin/python] [--rounds 1] [--only odds]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ODDS = ["odds", "AS 9S KH 8D 7C", "--turn-up", "TS", "--players", "5", "--seat", "2", "--before", "in,out"]
SIMULATE = ["simulate", "--hands", "10000", "--quiet"]


def load() -> float:
    return os.getloadavg()[0]


#: CPU seconds (user + system) of the commands run so far, from :func:`run`
CPU: list[float] = []


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Run ``cmd``; return its wall seconds and output, and append its CPU seconds to :data:`CPU`
    (the command's own process only: a detached background compile is not waited for, so not counted)."""
    t, c = time.perf_counter(), _children_cpu()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    dt = time.perf_counter() - t
    CPU.append(_children_cpu() - c)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return dt, out.stdout + out.stderr


def wait_compiled(python: str, env: dict[str, str], kinds: list[str]) -> float:
    """Block until the kinds are in the cache (the background compile holds the lock until then)."""
    t = time.perf_counter()
    subprocess.run([python, "-m", "ramsli.lab.warmup", *kinds], env=env, capture_output=True, timeout=900, check=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable, help="the Python of the installation to measure")
    ap.add_argument("--rounds", type=int, default=1, help="cold/warm rounds per scenario (each on a new cache)")
    ap.add_argument(
        "--only", default="", help="run only the scenarios whose name holds this text (e.g. odds, simulate)"
    )
    a = ap.parse_args()
    ramsli = [a.python, "-c", "from ramsli.cli import main; main()"]
    base = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "RAMSLI_CACHE_DIR")}
    rows: list[tuple[str, float, float, str]] = []
    with tempfile.TemporaryDirectory(prefix="ramsli-compile-wait-") as tmp:
        for r in range(a.rounds):
            for name, cmd, kinds in (
                ("ramsli odds (auto)", ramsli + ODDS, ["odds"]),
                ("ramsli odds --kernel kernel", ramsli + ODDS + ["--kernel", "kernel"], ["odds"]),
                ("ramsli simulate (auto)", ramsli + SIMULATE, ["batch"]),
                ("ramsli simulate --kernel kernel", ramsli + SIMULATE + ["--kernel", "kernel"], ["batch"]),
            ):
                if a.only not in name:
                    continue
                env = dict(base, NUMBA_CACHE_DIR=str(Path(tmp) / f"{r}-{len(rows)}"))
                la = load()
                t0 = time.perf_counter()
                cold, text = run(cmd, env)
                cold_cpu = CPU[-1]
                wait_compiled(a.python, env, kinds)  # the background compile is done
                compiled = time.perf_counter() - t0
                warm, _ = run(cmd, env)
                how = "python" if ("plain Python" in text or "quick estimate" in text) else "kernel"
                rows.append(
                    (
                        name,
                        cold,
                        warm,
                        f"CPU {cold_cpu:.2f} s cold, {CPU[-1]:.2f} s warm; cold answer by {how}; "
                        f"cache ready {compiled:.1f} s after start",
                    )
                )
                print(f"{name}: cold {cold:.2f} s, warm {warm:.2f} s, {rows[-1][3]} (load {la:.1f})", flush=True)
    print(f"load average now {os.getloadavg()}")
    if not any("(auto)" in n for n, *_ in rows):
        return
    worst = max(c for n, c, _w, _h in rows if "(auto)" in n)
    print(f"worst first answer with --kernel auto: {worst:.2f} s (aim: within 3 s)")


if __name__ == "__main__":
    main()
