"""Two kernels' speed in one run, interleaved (a benchmark, not a test).

Runs random play (5 players, ``traditional``) on the batch kernel of two source trees, one thread
and two threads, each measurement in a new process with its own Numba cache folder, in
interleaved rounds so that a change of the machine's load hits both alike. Prints hands/s (wall
clock) and CPU seconds per million hands (user + system time of the process: on a loaded machine
the wall clock mostly measures the wait for a core, the CPU time what the kernel costs), the
medians, the scaling from one thread to two, and the ratios. A tree is a ``src`` folder, e.g. one
exported by ``git archive main src | tar -x -C /tmp/main``.

    .venv/bin/python bench/kernel_paired.py --before /tmp/main/src [--after src] [--rounds 3] [--hands 2000000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CODE = r"""
import json, sys, time
from ramsli.lab import kernel as K
from ramsli.rules import Rules
threads, hands = int(sys.argv[1]), int(sys.argv[2])
r = Rules()
if hasattr(K, "set_threads"):
    K.set_threads(threads)
else:  # a kernel on Numba's own threads
    import numba
    numba.set_num_threads(threads)
K.play_batch(r, 5, 1000, seed=1, policy=K.RANDOM)  # compile or load from the cache
t, c = time.perf_counter(), time.process_time()
K.play_batch(r, 5, hands, seed=2, policy=K.RANDOM)
dt, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps([hands / dt, cpu / hands * 1e6, K.__file__]))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the src folder of the reference kernel")
    ap.add_argument(
        "--after", default=str(Path(__file__).resolve().parent.parent / "src"), help="the src folder measured"
    )
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hands", type=int, default=2_000_000, help="hands per two-thread run (half for one thread)")
    a = ap.parse_args()
    trees = {"before": str(Path(a.before).resolve()), "after": str(Path(a.after).resolve())}
    res: dict[tuple[str, int], list[list[float]]] = {(k, t): [] for k in trees for t in (1, 2)}
    print(f"load average before {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ramsli-kernel-paired-") as tmp:
        for r in range(a.rounds):
            for t in (1, 2):
                for k, src in trees.items():
                    env = dict(os.environ, PYTHONPATH=src, NUMBA_CACHE_DIR=str(Path(tmp) / k))
                    hands = a.hands if t == 2 else a.hands // 2
                    out = subprocess.run(
                        [sys.executable, "-c", CODE, str(t), str(hands)], env=env, capture_output=True, text=True
                    )
                    if out.returncode != 0:
                        raise SystemExit(f"{k} failed:\n{out.stderr}")
                    rate, cpu, where = json.loads(out.stdout.strip().splitlines()[-1])
                    if not where.startswith(src):
                        raise SystemExit(f"{k}: the kernel came from {where}, not from {src}")
                    if rate <= 0 or cpu <= 0:
                        raise SystemExit(f"{k} measured nothing: give more --hands")
                    res[(k, t)].append([rate, cpu])
                    print(
                        f"round {r} {k} {t} thread(s): {rate:,.0f} hands/s, {cpu:.2f} CPU s per million hands "
                        f"(load {os.getloadavg()[0]:.1f})",
                        flush=True,
                    )
    print(f"load average after {os.getloadavg()[0]:.2f}")
    med = {key: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for key, v in res.items()}
    for (k, t), (rate, cpu) in med.items():
        print(f"{k} {t} thread(s): median {rate:,.0f} hands/s, {cpu:.2f} CPU s per million hands")
    for k in trees:
        print(f"{k}: scaling 1 -> 2 threads {med[(k, 2)][0] / med[(k, 1)][0]:.2f}x (wall clock)")
    for t in (1, 2):
        print(
            f"after / before, {t} thread(s): {med[('after', t)][0] / med[('before', t)][0]:.2f}x hands/s, "
            f"{med[('before', t)][1] / med[('after', t)][1]:.2f}x less CPU per hand"
        )


if __name__ == "__main__":
    main()
