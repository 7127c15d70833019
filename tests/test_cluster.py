"""Runs on a Dask cluster (issue 15): the same seed gives the same results locally and on the cluster.

The cluster is real and started here (a module fixture): ``dask scheduler`` and two
``dask worker`` processes, each listening on 127.0.0.1 only, importing this
checkout's ramsli, and stopped by their process ids at the end (terminate, then
kill). Timing fields (``elapsed_s``, ``hands_per_s``, ``seconds``, decision times in
milliseconds) are the only ones left out of the comparisons.

Without Dask installed these tests are skipped, except under ``CI=true`` where a
missing Dask is a failure.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import free_port, scaled

try:
    import distributed
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        pytest.fail(
            "Dask distributed is missing under CI=true: the extra 'test' installs dask[distributed]", pytrace=False
        )
    pytest.skip("Dask distributed is not installed (the extra 'dask')", allow_module_level=True)

from typer.testing import CliRunner

import ramsli
import ramsli.analysis.cluster as C
from ramsli.analysis.cluster import ClusterError, DaskRunner, LocalRunner, check_workers, run_chunks
from ramsli.analysis.tournament import run_tournament
from ramsli.cli import app
from ramsli.rules import Rules

pytestmark = pytest.mark.xdist_group("dask-cluster")  # one cluster per run with --dist loadgroup

SRC = Path(ramsli.__file__).resolve().parent.parent
TIMING = {"elapsed_s", "hands_per_s", "seconds", "time_median_ms", "time_p95_ms", "time_max_ms", "time_mean_ms"}
SLOW_BOTS = ["montecarlo:samples=60", "rules", "random"]  # about 0.1 s a duplicate deal: a run lasts


def _dask_cli(kind: str) -> list[str]:
    script = Path(sys.executable).with_name("dask")
    if script.exists():
        return [str(script), kind]
    return [sys.executable, "-m", f"distributed.cli.dask_{kind}"]


def _wait_for_port(port: int, proc: subprocess.Popen, log: Path, deadline_s: float = scaled(60)) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            pytest.fail(f"dask scheduler exited with {proc.returncode}:\n{log.read_text()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail(f"dask scheduler did not listen on 127.0.0.1:{port}:\n{log.read_text()}")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """``(address, admin client)`` of a scheduler and two one-thread workers on 127.0.0.1."""
    logs = tmp_path_factory.mktemp("dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    procs: list[subprocess.Popen] = []
    files = []

    def start(name: str, argv: list[str]) -> subprocess.Popen:
        f = open(logs / f"{name}.log", "w")
        files.append(f)
        procs.append(subprocess.Popen(argv, env=env, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
        return procs[-1]

    admin = None
    try:
        sched = start(
            "scheduler", _dask_cli("scheduler") + ["--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
        )
        _wait_for_port(port, sched, logs / "scheduler.log")
        for i in (1, 2):
            start(
                f"worker{i}",
                _dask_cli("worker")
                + [address, "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
            )
        admin = distributed.Client(address, timeout=scaled(30), set_as_default=False)
        admin.wait_for_workers(2, timeout=scaled(90))
        yield address, admin
    finally:
        if admin is not None:
            admin.close()
        for p in reversed(procs):  # workers first, then the scheduler; by process id
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=scaled(15))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=scaled(15))
        for f in files:
            f.close()


def _ready(admin) -> dict[str, int]:
    """Wait for two workers (one may be restarting after a kill); worker address -> its process id."""
    admin.wait_for_workers(2, timeout=scaled(90))
    return admin.run(os.getpid)


def _executed(admin) -> int:
    return sum(admin.run(lambda dask_worker: dask_worker.state.executed_count).values())


def _untimed(x):
    """A result without its timing fields (wall-clock, not part of what the seed decides)."""
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


def _tournament(res) -> dict:
    return _untimed(dict(res.to_dict(), per_deal=res.per_deal))


# --- the same results ---------------------------------------------------------------------------------


def _clients(admin) -> int:
    return admin.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.clients))


def test_a_tournament_on_the_cluster_equals_the_local_one(cluster):
    address, admin = cluster
    _ready(admin)
    before = _executed(admin)
    clients = _clients(admin)
    args = (["rules", "random", "random", "rules"], Rules(), 30)
    local = run_tournament(*args, seed=11, duplicate=True)
    done = []
    remote = run_tournament(*args, seed=11, duplicate=True, scheduler=address, progress=done.append)
    assert _tournament(remote) == _tournament(local)
    assert sum(done) == 30  # the progress bar was fed every deal, task by task
    assert _executed(admin) - before >= 2  # it really ran as tasks on the workers
    other = run_tournament(*args, seed=12, duplicate=True, scheduler=address)
    assert _tournament(other) != _tournament(local)  # the comparison can fail
    end = time.monotonic() + scaled(30)
    while _clients(admin) > clients and time.monotonic() < end:
        time.sleep(0.05)
    assert _clients(admin) == clients  # every run closed its connection


def test_an_arena_on_the_cluster_rates_as_the_local_one(cluster):
    """``ramsli arena --scheduler``: the matches run as tasks, the ratings are the local ones (issue 26)."""
    from ramsli.analysis.arena import run_arena

    address, admin = cluster
    _ready(admin)
    before = _executed(admin)
    kw = dict(deals=12, presets=["traditional", "nap"], seed=3, chunk=2)
    local = run_arena(["tips", "random", "random"], **kw)
    done = []
    remote = run_arena(["tips", "random", "random"], scheduler=address, progress=done.append, **kw)
    assert _untimed(remote.to_dict()) == _untimed(local.to_dict())
    assert [(e.mu, e.sigma) for e in remote.entrants] == [(e.mu, e.sigma) for e in local.entrants]
    assert sum(done) == 12
    assert _executed(admin) - before >= 6  # six work units of two matches each, played on the workers


def test_a_simulation_on_the_cluster_equals_the_local_one(cluster):
    from ramsli.lab.simulate import simulate

    address, admin = cluster
    _ready(admin)
    before = _executed(admin)
    # kernel: one local work unit of 50,000 hands against three tasks on the cluster
    local = simulate(Rules(), ["random", "tips", "random", "tips"], hands=50_000, seed=4)
    seen = []
    remote = simulate(
        Rules(),
        ["random", "tips", "random", "tips"],
        hands=50_000,
        seed=4,
        scheduler=address,
        progress=lambda d, t: seen.append(d),
    )
    assert remote["engine"] == "kernel" and _untimed(remote) == _untimed(local)
    assert seen[-1] == 50_000 and len(seen) == 3
    # the engine with a bot the kernel cannot play, hands and whole sessions
    for kw in (dict(hands=120), dict(sessions=4, rules=Rules.preset("traditional").with_assignments(["end=hands:6"]))):
        rules = kw.pop("rules", Rules())
        local = simulate(rules, ["rules", "random", "montecarlo:samples=4"], seed=2, **kw)
        remote = simulate(rules, ["rules", "random", "montecarlo:samples=4"], seed=2, scheduler=address, **kw)
        assert remote["engine"] == "engine" and _untimed(remote) == _untimed(local)
        assert _untimed(local) == _untimed(
            simulate(rules, ["rules", "random", "montecarlo:samples=4"], seed=2, jobs=2, **kw)
        )  # and whatever --jobs is
    assert _executed(admin) - before >= 3 + 2


def test_odds_on_the_cluster_equal_the_local_ones(cluster):
    from ramsli.lab.odds import estimate

    address, admin = cluster
    _ready(admin)
    # stops on precision, after several chunks of 1000 samples, taken in order: the same samples
    kw = dict(
        cards="AS 9S KH 8D 7C",
        turn_up="TS",
        players=4,
        seat=1,
        before="in",
        time_s=300,
        precision=0.06,
        batch=1000,
        seed=2,
    )
    local = estimate(**kw)
    remote = estimate(**kw, scheduler=address)
    assert local["samples"] > 2000  # more than the two chunks in flight per worker thread at the start
    assert _untimed(remote) == _untimed(local)
    assert _untimed(estimate(**dict(kw, seed=3), scheduler=address)) != _untimed(local)
    # five ins before me are too rare under the model: rejection gives way to forced declarations, and the
    # chunks already asked for with rejection are dropped on the cluster too
    kw = dict(
        cards="7S 8H 9D 7C 8C",
        turn_up="AS",
        players=6,
        seat=5,
        before="in,in,in,in,in",
        time_s=300,
        precision=0.3,
        batch=500,
        seed=1,
    )
    local = estimate(**kw)
    assert local["conditioning"] == "forced" and local["samples"] > local["accepted"]
    assert _untimed(estimate(**kw, scheduler=address)) == _untimed(local)


def test_a_worker_killed_mid_run_changes_nothing(cluster):
    address, admin = cluster
    pids = _ready(admin)
    args = (SLOW_BOTS, Rules(), 16)
    local = run_tournament(*args, seed=5, duplicate=True, chunk=1)
    killed = []

    def kill_one_busy_worker(deals: int) -> None:
        if killed:
            return
        busy = [w for w, keys in admin.processing().items() if keys and w in pids]
        assert busy, "no worker was busy after the first task: the run is too short to kill one mid-run"
        os.kill(pids[busy[0]], signal.SIGKILL)  # its nanny starts a new one; its tasks are run again
        killed.append(busy[0])

    remote = run_tournament(*args, seed=5, duplicate=True, chunk=1, scheduler=address, progress=kill_one_busy_worker)
    assert killed
    assert killed[0] not in admin.run(os.getpid)  # that worker is gone
    assert _tournament(remote) == _tournament(local)


# --- Ctrl-C, errors ------------------------------------------------------------------------------------


def _ramsli_tasks(admin) -> dict[str, int]:
    def count(dask_scheduler):
        out: dict[str, int] = {}
        for key, ts in dask_scheduler.tasks.items():
            if str(key).startswith("ramsli-"):
                out[ts.state] = out.get(ts.state, 0) + 1
        return out

    return admin.run_on_scheduler(count)


def test_ctrl_c_cancels_the_runs_tasks_and_exits_130(cluster):
    address, admin = cluster
    _ready(admin)
    assert _ramsli_tasks(admin) == {}
    env = dict(os.environ, PYTHONPATH=str(SRC))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ramsli.cli",
            "tournament",
            "--bots",
            ",".join(SLOW_BOTS),
            "--hands",
            "60",
            "--duplicate",
            "-q",
            "--scheduler",
            address,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        end = time.monotonic() + scaled(60)
        while time.monotonic() < end and _ramsli_tasks(admin).get("memory", 0) < 1:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        states = _ramsli_tasks(admin)
        assert states.get("memory", 0) >= 1 and sum(states.values()) > states["memory"], states  # mid-run
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=scaled(60))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == [
        f"interrupted (Ctrl-C): the run's tasks on the Dask cluster at {address} were cancelled; nothing was written"
    ]
    assert "counters/hand" not in out
    end = time.monotonic() + scaled(30)
    while _ramsli_tasks(admin) and time.monotonic() < end:
        time.sleep(0.1)
    assert _ramsli_tasks(admin) == {}  # nothing of the run is left on the cluster


def test_workers_of_another_ramsli_version_or_without_the_extra_are_refused(cluster, monkeypatch):
    address, admin = cluster
    _ready(admin)
    with pytest.raises(ClusterError, match="lacks no_such_package_x"):
        DaskRunner(address, needs=["no_such_package_x"]).connect()
    monkeypatch.setattr(ramsli, "__version__", "0.0.0.dev-test")
    with pytest.raises(ClusterError, match=rf"has ramsli {ramsli_version()}, this is ramsli 0\.0\.0\.dev-test"):
        DaskRunner(address).connect()
    r = CliRunner().invoke(app, ["tournament", "--bots", "rules,random", "--hands", "2", "-q", "--scheduler", address])
    assert r.exit_code == 2 and "the same version must run everywhere" in r.output, r.output


def ramsli_version() -> str:
    """The version the workers import (this checkout's, before a test changes it here)."""
    return subprocess.run(
        [sys.executable, "-c", "import ramsli; print(ramsli.__version__)"],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(SRC)),
    ).stdout.strip()


def test_an_unreachable_scheduler_is_a_clear_error_within_the_timeout(monkeypatch):
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    with pytest.raises(
        ClusterError,
        match=rf"cannot reach the Dask scheduler at {address} within 1 s.*"
        r"`dask scheduler` runs there",
    ):
        DaskRunner(address, timeout_s=1).connect()
    monkeypatch.setattr(C, "DEFAULT_TIMEOUT_S", 1.0)
    r = CliRunner().invoke(app, ["simulate", "--hands", "10", "-q", "--scheduler", address])
    assert r.exit_code == 2 and f"Cannot reach the Dask scheduler at {address}" in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)  # no traceback


@pytest.mark.parametrize(
    "cmd",
    [
        ["tournament", "--bots", "rules,random", "--hands", "2"],
        ["simulate", "--hands", "10"],
        ["odds", "AS 9S KH 8D 7C", "--turn-up", "TS"],
    ],
)
def test_a_malformed_address_is_refused_before_anything_runs(cmd):
    r = CliRunner().invoke(app, cmd + ["-q"] * (cmd[0] != "odds") + ["--scheduler", "127.0.0.1:8786"])
    assert r.exit_code == 2, r.output
    assert "--scheduler '127.0.0.1:8786': allowed is the scheduler's address tcp://HOST:PORT" in r.output


def test_jobs_and_scheduler_together_are_refused():
    r = CliRunner().invoke(
        app,
        [
            "tournament",
            "--bots",
            "rules,random",
            "--hands",
            "2",
            "-q",
            "--jobs",
            "2",
            "--scheduler",
            "tcp://127.0.0.1:8786",
        ],
    )
    assert r.exit_code == 2 and "--jobs 2 with --scheduler" in r.output, r.output


def test_without_scheduler_dask_is_not_imported():
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom ramsli.cli import app\n"
        "r = CliRunner().invoke(app, ['tournament', '--bots', 'rules,random', '--hands', '2', '-q'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, PYTHONPATH=str(SRC)),
    ).stdout
    assert out.strip() == "[]"


def test_check_workers_names_the_worker_and_what_to_install():
    with pytest.raises(ClusterError, match=r"worker tcp://w:1 has no ramsli.*pip install 'ramsli\[dask\]=="):
        check_workers({"tcp://w:1": {"ramsli": None, "missing": []}})
    with pytest.raises(ClusterError, match=r"worker tcp://w:2 lacks numba \(the extra 'lab'\).*ramsli\[lab,dask\]"):
        check_workers(
            {
                "tcp://w:1": {"ramsli": ramsli.__version__, "missing": []},
                "tcp://w:2": {"ramsli": ramsli.__version__, "missing": ["numba"]},
            },
            needs=["numpy", "numba"],
        )
    with pytest.raises(ClusterError, match="no workers"):
        check_workers({})
    check_workers({"tcp://w:1": {"ramsli": ramsli.__version__, "missing": ["numba"]}})  # not needed: fine


def test_the_worker_probe_travels_by_value_and_reports_a_missing_ramsli():
    import cloudpickle

    blob = cloudpickle.dumps(C._probe_factory())
    code = (
        "import pickle, sys\nsys.modules['ramsli'] = None  # as on a worker without ramsli\n"
        "print(pickle.loads(sys.stdin.buffer.read())(['numpy', 'no_such_package_x']))"
    )
    out = subprocess.run([sys.executable, "-c", code], input=blob, capture_output=True, check=True).stdout
    assert out.decode().strip() == "{'ramsli': None, 'missing': ['no_such_package_x']}"


def test_run_chunks_keeps_the_order_of_the_work_and_cancels_on_interrupt():
    with LocalRunner(2) as r:
        assert run_chunks(r, pow, [(k, 2) for k in range(20)]) == [k * k for k in range(20)]
    calls = []

    def stop(k, result):
        calls.append(k)
        raise KeyboardInterrupt

    with LocalRunner(1) as r, pytest.raises(KeyboardInterrupt):
        run_chunks(r, pow, [(k, 2) for k in range(5)], on_done=stop)
    assert calls == [0]  # in this process nothing is computed after the interrupt


def test_a_solve_on_the_cluster_equals_the_local_one(cluster):
    """``ramsli solve --scheduler``: the deal tables are dealt as tasks; the policy is the same (issue 14)."""
    from ramsli.lab import solve as SV

    address, admin = cluster
    _ready(admin)
    before = _executed(admin)
    kw = dict(iterations=6, seed=3, deals=2 * SV.CHUNK, batch=SV.CHUNK, finish_deals=1000)
    local = SV.solve(Rules(), 3, **kw)
    with SV.make_runner(address) as runner:
        remote = SV.solve(Rules(), 3, runner=runner, **kw)
    assert _executed(admin) - before >= 2  # the tables were dealt on the workers
    assert remote.policy.p_in == local.policy.p_in and remote.policy.advantage == local.policy.advantage
    other = SV.solve(Rules(), 3, **{**kw, "seed": 4})
    assert other.policy.p_in != local.policy.p_in  # the comparison can fail
