"""Throughput on a Dask cluster against the local path, and the cost of a task.

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
the cluster, checks that every run gave the same results, and prints Markdown
tables (see ``docs/benchmarks.md``). Each cell is the best of ``--repeat`` runs.

Besides wall-clock throughput it counts the CPU seconds every process spent
(this one, its pool, the scheduler, the nannies and the workers, from
``psutil``): work per CPU second hardly depends on what else the machine is
doing, so on a loaded machine it is the figure to extrapolate from. The load
average is printed before and after: compare ratios within one run.
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
import psutil

import ramsli
from ramsli.analysis.cluster import DaskRunner, run_chunks
from ramsli.analysis.tournament import _chunk, run_tournament
from ramsli.lab.simulate import simulate
from ramsli.rules import Rules

SRC = Path(ramsli.__file__).resolve().parent.parent
CURRENT: list = [None]  # the cluster that runs now (for its CPU seconds)
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
        CURRENT[0] = self
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        env = dict(os.environ, PYTHONPATH=str(SRC))
        self.log = tempfile.TemporaryFile()
        start = dict(env=env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.procs.append(
            subprocess.Popen(
                _dask("scheduler") + ["--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **start
            )
        )
        for _ in range(self.workers):
            self.procs.append(
                subprocess.Popen(
                    _dask("worker")
                    + [self.address, "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                    **start,
                )
            )
        with distributed.Client(self.address, timeout=60, set_as_default=False) as c:
            c.wait_for_workers(self.workers, timeout=120)
        return self.address

    def cpu(self, scheduler_only: bool = False) -> float:
        """CPU seconds (user + system) spent so far by the scheduler, the nannies and their workers
        (only by the scheduler with ``scheduler_only``)."""
        total = 0.0
        for p in self.procs[:1] if scheduler_only else self.procs:
            try:
                procs = [psutil.Process(p.pid)]
                procs += procs[0].children(recursive=True)
            except psutil.NoSuchProcess:
                continue
            for q in procs:
                try:
                    t = q.cpu_times()
                    total += t.user + t.system
                except psutil.NoSuchProcess:
                    pass
        return total

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


def _own_cpu() -> float:
    t = os.times()  # this process and its reaped children (a local pool is reaped when it shuts down)
    return t.user + t.system + t.children_user + t.children_system


def _measured(fn, repeat: int, cluster: Cluster | None = None):
    """(result, best wall seconds, CPU seconds of that run) over ``repeat`` runs."""
    best = None
    for _ in range(repeat):
        c0 = _own_cpu() + (cluster.cpu() if cluster else 0.0)
        out, secs = _timed(fn)
        cpu = _own_cpu() + (cluster.cpu() if cluster else 0.0) - c0
        if best is None or secs < best[1]:
            best = (out, secs, cpu)
    return best


def workloads(scale: float) -> dict:
    deals, eng, ker = int(1500 * scale), int(6000 * scale), int(4_000_000 * scale)
    tour = ["rules", "random", "random", "rules"]
    return {
        "tournament": (
            deals,
            "deals/s",
            lambda **kw: run_tournament(tour, Rules(), deals, seed=1, duplicate=True, **kw),
        ),
        "simulate (engine)": (eng, "hands/s", lambda **kw: simulate(Rules(), ["rules"] * 4, hands=eng, seed=1, **kw)),
        "simulate (kernel)": (ker, "hands/s", lambda **kw: simulate(Rules(), ["random"] * 4, hands=ker, seed=1, **kw)),
    }


def task_cost(address: str, cluster: Cluster, tasks: int) -> dict:
    """The cost of empty tasks: wall seconds per task (many at once), the round trip of one task, and
    CPU seconds per task over all processes; plus the seconds to connect and check the workers."""
    args = (["rules", "random"], Rules().to_dict(), 0, 0, 0, False)  # an empty chunk: no deal
    t0 = time.perf_counter()
    with DaskRunner(address) as r:
        connect = time.perf_counter() - t0
        run_chunks(r, _chunk, [(args,)] * 20)  # warm
        s0 = cluster.cpu(scheduler_only=True)
        _, many, cpu = _measured(lambda: run_chunks(r, _chunk, [(args,)] * tasks), 2, cluster)
        sched = (cluster.cpu(scheduler_only=True) - s0) / 2  # two runs
        trips = sorted(_timed(lambda: run_chunks(r, _chunk, [(args,)]))[1] for _ in range(30))
    return {
        "wall_per_task_s": many / tasks,
        "round_trip_s": trips[len(trips) // 2],
        "cpu_per_task_s": cpu / tasks,
        "scheduler_cpu_per_task_s": sched / tasks,
        "connect_s": connect,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="size of every workload (1.0: a few seconds each)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per cell; the best wall time counts")
    ap.add_argument("--tasks", type=int, default=400, help="empty tasks for the per-task cost")
    ap.add_argument("--out", default="", help="also write the figures as JSON here")
    a = ap.parse_args(argv)
    load0 = os.getloadavg()
    work = workloads(a.scale)
    rows: dict[str, dict[str, float]] = {name: {} for name in work}
    cpu_rows: dict[str, dict[str, float]] = {name: {} for name in work}
    ref: dict[str, object] = {}
    same = True

    def record(name: str, where: str, res, secs: float, cpu: float) -> None:
        nonlocal same
        size, unit, _ = work[name]
        rows[name][where] = size / secs
        cpu_rows[name][where] = size / cpu
        key = _untimed(res.to_dict() | {"per_deal": res.per_deal}) if hasattr(res, "to_dict") else _untimed(res)
        if name in ref:
            same &= key == ref[name]
        else:
            ref[name] = key
        print(f"{name}: {where}: {size / secs:,.0f} {unit}, {size / cpu:,.0f} per CPU second", flush=True)

    for name, (_size, _unit, run) in work.items():
        for jobs in (1, 2):
            if name == "simulate (kernel)" and jobs == 2:
                continue  # the kernel takes both cores by itself
            record(name, f"local {jobs}", *_measured(lambda run=run, jobs=jobs: run(jobs=jobs), a.repeat))
    cost = {}
    for n in (1, 2):
        with Cluster(n) as address:
            for name, (_size, _unit, run) in work.items():
                if name == "simulate (kernel)":
                    run(scheduler=address)  # the compile on the workers
                record(name, f"dask {n}", *_measured(lambda run=run: run(scheduler=address), a.repeat, CURRENT[0]))
            cost[n] = task_cost(address, CURRENT[0], a.tasks)
            print(f"task cost, {n} worker(s): {cost[n]}", flush=True)
    load1 = os.getloadavg()
    print(
        f"\nload average before {load0[0]:.1f}, after {load1[0]:.1f} (2 cores); same results everywhere: "
        f"{'yes' if same else 'NO'}\n"
    )
    cols = ["local 1", "local 2", "dask 1", "dask 2"]
    for title, tab, per in (
        ("wall-clock throughput", rows, "/s"),
        ("work per CPU second (all processes)", cpu_rows, " per CPU s"),
    ):
        print(f"{title}\n")
        print("| workload | " + " | ".join(cols) + " | dask 2 / dask 1 | dask 1 / local 1 |")
        print("| --- |" + " ---: |" * (len(cols) + 2))
        for name, r in tab.items():
            cells = [f"{r[c]:,.0f}" if c in r else "–" for c in cols]
            print(
                f"| {name} ({work[name][1].replace('/s', per)}) | "
                + " | ".join(cells)
                + f" | {r['dask 2'] / r['dask 1']:.2f} | {r['dask 1'] / r['local 1']:.2f} |"
            )
        print()
    print(
        f"| workers | wall s per task ({a.tasks} at once) | round trip of one task | CPU s per task, all "
        "processes | of it the scheduler | connect + check |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for n, c in cost.items():
        print(
            f"| {n} | {c['wall_per_task_s'] * 1e3:.2f} ms | {c['round_trip_s'] * 1e3:.1f} ms | "
            f"{c['cpu_per_task_s'] * 1e3:.2f} ms | {c['scheduler_cpu_per_task_s'] * 1e3:.2f} ms | "
            f"{c['connect_s']:.2f} s |"
        )
    if a.out:
        Path(a.out).write_text(
            json.dumps(
                {"wall": rows, "per_cpu_s": cpu_rows, "task_cost": cost, "load": [load0, load1], "same": same}, indent=2
            )
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
