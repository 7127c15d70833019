"""How long a person waits for a first answer after a fresh install (issue 28; a benchmark, not a test).

Every scenario runs in new processes with an empty Numba cache (``NUMBA_CACHE_DIR`` pointing at a
new folder), so the kernel has never been compiled, then again with the cache the first run left
(warm). Measured, wall clock from the command's start to its exit:

- ``ramsli odds`` (the default ``--kernel auto``: answers in Python while the kernel compiles in the
  background) and, for comparison, ``ramsli odds --kernel kernel`` (waits for the compile, as every
  first run did before);
- ``ramsli simulate`` (10,000 hands) the same two ways;
- the hint's path, :func:`ramsli.lab.warmup.hint_estimate` in a fresh process (the server's first
  hint after a fresh install), and a long-lived process that calls
  :func:`ramsli.lab.warmup.start_background_compile` at start: its first hint at once, and the
  seconds until :func:`ramsli.lab.warmup.kernel_ready`;
- the background compile itself: from the first command's start until the cache holds the kernel.

The machine's load average is printed beside the figures (one-minute value before each run), and
the CPU seconds of each command's own process: on a loaded machine the wall clock mostly measures
the wait for a core, while start-up CPU plus the query's ``--time`` (2 s) is what a quiet machine
takes.

    .venv/bin/python bench/compile_wait.py [--python .venv/bin/python] [--rounds 1] [--only odds]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ODDS = ["odds", "AS 9S KH 8D 7C", "--turn-up", "TS", "--players", "5", "--seat", "2", "--before", "in,out"]
SIMULATE = ["simulate", "--hands", "10000", "--quiet"]
HINT = """
import json, sys, time
t0 = time.perf_counter()
from ramsli.lab import warmup
q = dict(cards="AS 9S KH 8D 7C", turn_up="TS", players=5, seat=2, before=["in", "out"], time_s=1.0, seed=1)
if sys.argv[1] == "server":
    warmup.start_background_compile()
r = warmup.hint_estimate(**q)
first = time.perf_counter() - t0
ready = None
if sys.argv[1] == "server":
    while not warmup.kernel_ready() or "odds" not in warmup._kernel()._warm:
        time.sleep(0.1)
    ready = time.perf_counter() - t0
    r2 = warmup.hint_estimate(**q)
    second = (r2["estimator"], r2["samples"], r2["ev_diff"]["ci95"])
else:
    second = None
print(json.dumps(dict(first=first, estimator=r["estimator"], samples=r["samples"], ci95=r["ev_diff"]["ci95"],
                      ready=ready, second=second)))
"""


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
    ap.add_argument("--only", default="", help="run only the scenarios whose name holds this text (e.g. odds, hint)")
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
            for mode in ("fresh", "server"):
                if a.only not in f"hint, {mode} process":
                    continue
                env = dict(base, NUMBA_CACHE_DIR=str(Path(tmp) / f"{r}-hint-{mode}"))
                la = load()
                dt, text = run([a.python, "-c", HINT, mode], env)
                res = json.loads(text.strip().splitlines()[-1])
                wait_compiled(a.python, env, ["odds"])
                dt2, text2 = run([a.python, "-c", HINT, "fresh"], env)
                res2 = json.loads(text2.strip().splitlines()[-1])
                extra = (
                    f"; kernel ready {res['ready']:.1f} s after start, then {res['second'][0]} "
                    f"({res['second'][1]:,} samples, ± {res['second'][2]:.2f})"
                    if mode == "server"
                    else ""
                )
                print(
                    f"hint, {mode} process: first answer {res['first']:.2f} s by {res['estimator']} "
                    f"({res['samples']:,} samples, in-out ± {res['ci95']:.2f}){extra}; warm cache: "
                    f"{res2['first']:.2f} s by {res2['estimator']} ({res2['samples']:,} samples, "
                    f"± {res2['ci95']:.2f}) (load {la:.1f})",
                    flush=True,
                )
    print(f"load average now {os.getloadavg()}")
    if not any("(auto)" in n for n, *_ in rows):
        return
    worst = max(c for n, c, _w, _h in rows if "(auto)" in n)
    print(f"worst first answer with --kernel auto: {worst:.2f} s (aim: within 3 s)")


if __name__ == "__main__":
    main()
