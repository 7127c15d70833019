"""Issue 12, "Load": a huge run keeps the parent's memory bounded, and Ctrl-C (SIGINT to the whole
process group, as a terminal sends it) stops every worker process at once, with one clean line and
exit status 130.

The real CLI runs in a subprocess; the test reads ``/proc`` (Linux). Nothing here is timed: the wall
timeouts only keep a broken run from hanging the suite.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ramsli.analysis.cluster import LocalRunner, stream_chunks, window_size

from helpers import SRC, scaled

#: a generous bound on the parent's resident memory (before the fix: 2 GB after 30 s, 6 GB later)
PARENT_RSS_MAX_MB = 500

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _stat(pid: int) -> list[str] | None:
    """Fields of ``/proc/PID/stat`` after the command name (state first), or None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def _children(pid: int) -> list[int]:
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            st = _stat(int(d.name))
            if st is not None and st[1] == str(pid):
                kids.append(int(d.name))
    return kids


def _cpu_ticks(pid: int) -> int:
    st = _stat(pid)
    return int(st[11]) + int(st[12]) if st else 0


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] != "Z"


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--engine", "--hands", "1000000000", "--jobs", "2", "-q"],
        ["tournament", "--hands", "1000000", "--jobs", "2", "-q"],
    ],
    ids=["simulate-1e9-hands", "tournament-1e6-deals"],
)
def test_a_huge_run_has_bounded_memory_and_ctrl_c_stops_every_worker(args, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(SRC))
    proc = subprocess.Popen(
        [sys.executable, "-m", "ramsli.cli", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    peak = 0.0
    workers: list[int] = []
    try:
        end = time.monotonic() + scaled(120)
        tick = os.sysconf("SC_CLK_TCK")
        while time.monotonic() < end:  # until both workers have played for a while (CPU time, not wall time)
            assert proc.poll() is None, proc.communicate()
            peak = max(peak, _rss_mb(proc.pid))
            workers = workers or [k for k in _children(proc.pid) if _cpu_ticks(k) > 0]
            if len(workers) >= 2 and all(_cpu_ticks(k) >= tick for k in workers):
                break
            if len(workers) < 2:
                workers = []
            time.sleep(0.1)
        assert len(workers) == 2, "the workers did not start"
        peak = max(peak, _rss_mb(proc.pid))
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole process group
        out, err = proc.communicate(timeout=scaled(60))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["interrupted (Ctrl-C): the run stopped; nothing was written"]
    assert "Traceback" not in out + err and "counters/hand" not in out
    end = time.monotonic() + scaled(30)
    while any(_alive(k) for k in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [k for k in workers if _alive(k)], "worker processes left running"
    assert peak < PARENT_RSS_MAX_MB, f"parent RSS {peak:.0f} MB"


def test_stream_chunks_keeps_a_bounded_window_and_reads_the_work_lazily():
    """10**9 chunks: only the window is ever submitted ahead; the work is an iterator read as needed."""
    submitted = []

    class Counting(LocalRunner):
        def submit(self, fn, *args):
            submitted.append(args[0])
            return super().submit(fn, *args)

    seen = []

    def done(k, v):
        assert v == k
        seen.append(k)
        assert len(submitted) - len(seen) <= 8  # never more than the window in flight
        if len(seen) == 100:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), Counting(2) as r:
        assert window_size(r) == 8
        stream_chunks(r, abs, ((-k,) for k in range(10**9)), done)
    assert len(seen) == 100 and len(submitted) <= 100 + 8
