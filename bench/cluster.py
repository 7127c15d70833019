"""Throughput on a Dask cluster against the local path, and the cost of a task (issue 15).

    python bench/cluster.py [--scale 1.0] [--tasks 400] [--out bench-cluster.json]

Starts a scheduler and 1, then 2, one-thread workers on 127.0.0.1 (``dask
scheduler`` / ``dask worker``, stopped by their process ids), and times on this
machine, for the same seeds:

- a duplicate tournament (engine bots ``rules,random,random,rules``), deals/s;
- ``simulate`` through the engine (4 ``rules`` bots), hands/s;
- ``simulate`` through the kernel (4 ``random`` bots), hands/s;
- the cost of a task: empty tournament chunks through :func:`ramsli.analysis.cluster.run_chunks`
  (many at once: seconds per task at the scheduler; one after the other: the round trip).

each locally (``--jobs 1``, ``--jobs 2``; the kernel is parallel by itself) and on
the cluster, checks that every run gave the same results, and prints a Markdown
table plus the expected speed on N machines (see ``docs/benchmarks.md``). The
machine's load average is printed before and after: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import distributed

import ramsli
from ramsli.analysis.cluster import DaskRunner, run_chunks
from ramsli.analysis.tournament import _chunk, run_tournament
from ramsli.lab.simulate import simulate
from ramsli.rules import Rules

SRC = Path(ramsli.__file__).resolve().parent.parent
TIMING = {"elapsed_s", "hands_per_s", "seconds", "time_median_ms", "time_p95_ms", "time_max_ms"}


def _untimed(x):
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


def _dask(kind: str) -> list[str]:
    script = Path(sys.executable).with_name("dask")
    return [str(script), kind] if script.exists() else [sys.executable, "-m", f"distributed.cli.dask_{kind}"]


class Cluster:
    """A scheduler and ``workers`` one-thread workers on 127.0.0.1, stopped by process id on exit."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        env = dict(os.environ, PYTHONPATH=str(SRC))
        self.log = tempfile.TemporaryFile()
        start = dict(env=env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.procs.append(subprocess.Popen(_dask("scheduler") + ["--host", "127.0.0.1", "--port", str(port),
                                                                "--no-dashboard"], **start))
        for _ in range(self.workers):
            self.procs.append(subprocess.Popen(_dask("worker") + [self.address, "--host", "127.0.0.1",
                                                                  "--nworkers", "1", "--nthreads", "1",
                                                                  "--no-dashboard"], **start))
        with distributed.Client(self.address, timeout=60, set_as_default=False) as c:
            c.wait_for_workers(self.workers, timeout=120)
        return self.address

    def __exit__(self, *exc) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.log.close()


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def workloads(scale: float) -> dict:
    deals, eng, ker = int(1500 * scale), int(6000 * scale), int(4_000_000 * scale)
    tour = ["rules", "random", "random", "rules"]
    return {
        "tournament": (deals, "deals/s", lambda **kw: run_tournament(tour, Rules(), deals, seed=1, duplicate=True,
                                                                      **kw)),
        "simulate (engine)": (eng, "hands/s", lambda **kw: simulate(Rules(), ["rules"] * 4, hands=eng, seed=1,
                                                                     **kw)),
        "simulate (kernel)": (ker, "hands/s", lambda **kw: simulate(Rules(), ["random"] * 4, hands=ker, seed=1,
                                                                     **kw)),
    }


def task_cost(address: str, tasks: int) -> tuple[float, float, float]:
    """(seconds per task, many at once; median round trip of one task; seconds to connect and check)."""
    args = (["rules", "random"], Rules().to_dict(), 0, 0, 0, False)  # an empty chunk: no deal
    t0 = time.perf_counter()
    with DaskRunner(address) as r:
        connect = time.perf_counter() - t0
        run_chunks(r, _chunk, [(args,)] * 20)  # warm
        _, many = _timed(lambda: run_chunks(r, _chunk, [(args,)] * tasks))
        trips = sorted(_timed(lambda: run_chunks(r, _chunk, [(args,)]))[1] for _ in range(30))
    return many / tasks, trips[len(trips) // 2], connect


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="size of every workload (1.0: a few seconds each)")
    ap.add_argument("--tasks", type=int, default=400, help="empty tasks for the per-task cost")
    ap.add_argument("--out", default="", help="also write the figures as JSON here")
    a = ap.parse_args(argv)
    load0 = os.getloadavg()
    work = workloads(a.scale)
    rows: dict[str, dict[str, float]] = {name: {} for name in work}
    ref: dict[str, object] = {}
    same = True

    def record(name: str, where: str, res, secs: float) -> None:
        nonlocal same
        size, unit, _ = work[name]
        rows[name][where] = size / secs
        key = _untimed(res.to_dict() | {"per_deal": res.per_deal}) if hasattr(res, "to_dict") else _untimed(res)
        if name in ref:
            same &= key == ref[name]
        else:
            ref[name] = key

    for name, (size, unit, run) in work.items():
        for jobs in (1, 2):
            if name == "simulate (kernel)" and jobs == 2:
                continue  # the kernel takes both cores by itself
            res, secs = _timed(lambda: run(jobs=jobs))
            record(name, f"local {jobs}", res, secs)
            print(f"{name}: local --jobs {jobs}: {size / secs:,.0f} {unit}", flush=True)
    cost = {}
    for n in (1, 2):
        with Cluster(n) as address:
            for name, (size, unit, run) in work.items():
                run(scheduler=address) if name == "simulate (kernel)" else None  # compile on the workers
                res, secs = _timed(lambda: run(scheduler=address))
                record(name, f"dask {n}", res, secs)
                print(f"{name}: {n} worker(s): {size / secs:,.0f} {unit}", flush=True)
            cost[n] = task_cost(address, a.tasks)
            print(f"task cost, {n} worker(s): {cost[n][0] * 1e3:.2f} ms per task at once, "
                  f"{cost[n][1] * 1e3:.1f} ms round trip, connect {cost[n][2]:.2f} s", flush=True)
    load1 = os.getloadavg()
    print(f"\nload average before {load0[0]:.1f}, after {load1[0]:.1f} (2 cores); same results everywhere: "
          f"{'yes' if same else 'NO'}\n")
    cols = ["local 1", "local 2", "dask 1", "dask 2"]
    print("| workload | " + " | ".join(cols) + " | dask 2 / dask 1 | dask 1 / local 1 |")
    print("| --- |" + " ---: |" * (len(cols) + 2))
    for name, r in rows.items():
        cells = [f"{r[c]:,.0f}" if c in r else "–" for c in cols]
        print(f"| {name} ({work[name][1]}) | " + " | ".join(cells) +
              f" | {r['dask 2'] / r['dask 1']:.2f} | {r['dask 1'] / r['local 1']:.2f} |")
    print("\n| workers | s per task (400 at once) | round trip of one task | connect + check |")
    print("| --- | ---: | ---: | ---: |")
    for n, (per, trip, conn) in cost.items():
        print(f"| {n} | {per * 1e3:.2f} ms | {trip * 1e3:.1f} ms | {conn:.2f} s |")
    if a.out:
        Path(a.out).write_text(json.dumps({"rows": rows, "task_cost": cost, "load": [load0, load1],
                                           "same": same}, indent=2))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
