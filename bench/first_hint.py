#!/usr/bin/env python3
"""The first "should I stay in?" hint after a server start, from a cold cache.

    python bench/first_hint.py [--rounds 3] [--players 5] [--seed 9]

Each round gives Numba an empty cache folder (``NUMBA_CACHE_DIR``: a fresh install), then:

1. **reference** (a kernel hint without a warm-up): a fresh process asks the lab's odds estimate
   once on the kernel, the Numba compile included (``ramsli.lab.odds.estimate``, 1 s of sampling);
2. **cold start**: a real ``ramsli serve`` on 127.0.0.1 with another empty cache folder; as soon as
   it answers, a hint table with one person (a WebSocket) and bots; at the person's first turn to
   declare, the hint: its latency (request to answer) and which estimate answered; then the
   seconds until the server's log says the kernel is ready (compiled in a separate process and
   loaded), and a hint at the same position after that (the kernel's);
3. **warm start**: the server restarted on the same cache (now filled): the first hint's latency
   and estimate, and when the kernel is ready.

Every figure is wall time on this machine (other jobs share it: the load average is printed); the
ratio reference / cold-start first hint is the one that does not depend much on the load. Traffic
goes to 127.0.0.1 only; every wait is bounded. Exits 1 if no hint was measured.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("RAMSLI_LAB_WARM_UP", None)
    return env


def reference(cache: Path, players: int) -> float:
    """Seconds of the first kernel estimate in a fresh process with an empty cache (compile included)."""
    code = (
        "import time; t0 = time.perf_counter();"
        "from ramsli.lab.odds import estimate;"
        f"estimate(cards='AS 9S KH 8D 7C', turn_up='TS', players={players}, seat=1, before='in', time_s=1.0);"
        "print(time.perf_counter() - t0)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=_env(cache), capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return float(out.stdout.strip().splitlines()[-1])


def _json(base: str, method: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


class Server:
    def __init__(self, cache: Path, folder: Path, tag: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"server-{tag}.log"
        self.db = f"sqlite+aiosqlite:///{folder / f'{tag}.sqlite'}"
        self.cache = cache
        self.proc: subprocess.Popen | None = None
        self.started = 0.0

    def start(self) -> float:
        """Start ``ramsli serve``; the seconds until it answers."""
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from ramsli.cli import main; main()", "serve", "--port", str(self.port),
             "--database", self.db, "--allow-test-seeds"],
            env=_env(self.cache), stdout=open(self.log, "wb"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        while time.monotonic() - self.started < 60:
            try:
                with urllib.request.urlopen(self.base + "/api/tables", timeout=1):
                    return time.monotonic() - self.started
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not answer")

    def ready_after(self, timeout: float = 300.0) -> tuple[float | None, bool]:
        """Seconds from the start until the log says the kernel is ready (None if not within
        ``timeout``), and whether it compiled."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace")
            m = re.search(r"the kernel is ready after ([\d.]+) s", text)
            if m:
                return float(m.group(1)), True
            if "compiling" not in text and time.monotonic() - self.started > 8:
                return None, False  # a warm cache: the load is silent (seen by the hint's estimate)
            time.sleep(0.2)
        return None, True

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)


def first_hint(server: Server, players: int, seed: int, again_when_ready: bool) -> dict:
    """A hint table; the latency and estimate of the person's first hint (and one once the kernel is ready)."""
    from websockets.sync.client import connect

    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "tips"}] * (players - 1)
    made = _json(server.base, "POST", "/api/web/tables", {"seats": seats, "rules": ["end=hands:2"], "seed": seed,
                                                           "bot_pace_seconds": 0, "hand_pause_seconds": 0, "hint": True})  # fmt: skip
    tid = made["table"]
    token = _json(server.base, "POST", f"/api/tables/{tid}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})[
        "token"
    ]
    out: dict = {}
    with connect(f"ws://127.0.0.1:{server.port}/ws/{tid}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        _json(server.base, "POST", f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            v = json.loads(ws.recv(timeout=30))
            if v.get("type") == "view" and v["to_act"] == "p1" and v["hand"]["phase"] == "declare":
                break
        t0 = time.monotonic()
        a = _json(server.base, "GET", f"/api/tables/{tid}/hint?token={token}")
        out["first_s"], out["first_estimate"] = time.monotonic() - t0, a["estimate"]
        out["since_start_s"] = time.monotonic() - server.started
        out["text"] = a["text"]
        if again_when_ready:
            ready, _compiled = server.ready_after()
            out["ready_s"] = ready
            t0 = time.monotonic()
            b = _json(server.base, "GET", f"/api/tables/{tid}/hint?token={token}")
            out["after_ready_s"], out["after_ready_estimate"] = time.monotonic() - t0, b["estimate"]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=9)
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    rows = []
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="ramsli-first-hint-") as d:
            folder = Path(d)
            ref = reference(folder / "cache-reference", args.players)
            cold = Server(folder / "cache", folder, "cold")
            up = cold.start()
            try:
                c = first_hint(cold, args.players, args.seed + r, again_when_ready=True)
            finally:
                cold.stop()
            warm = Server(folder / "cache", folder, "warm")
            up_warm = warm.start()
            try:
                w = first_hint(warm, args.players, args.seed + 100 + r, again_when_ready=False)
            finally:
                warm.stop()
            row = {"round": r + 1, "reference_s": ref, "up_s": up, "cold": c, "up_warm_s": up_warm, "warm": w}
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False))
    if not rows:
        return 1
    med = statistics.median
    ref = med(x["reference_s"] for x in rows)
    first = med(x["cold"]["first_s"] for x in rows)
    print(f"reference (first kernel hint, cold cache, compile included): median {ref:.1f} s")
    print(f"cold start: first hint median {first:.2f} s ({', '.join(x['cold']['first_estimate'] for x in rows)}); "
          f"kernel ready after median {med(x['cold']['ready_s'] or 0 for x in rows):.1f} s; "
          f"a hint then median {med(x['cold']['after_ready_s'] for x in rows):.2f} s "
          f"({', '.join(x['cold']['after_ready_estimate'] for x in rows)})")  # fmt: skip
    print(f"warm start: first hint median {med(x['warm']['first_s'] for x in rows):.2f} s "
          f"({', '.join(x['warm']['first_estimate'] for x in rows)}), {med(x['warm']['since_start_s'] for x in rows):.1f} s after the start")  # fmt: skip
    print(f"ratio reference / cold-start first hint: {ref / first:.0f}x")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
