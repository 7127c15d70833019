#!/usr/bin/env python3
"""Load benchmark of ``ramsli serve`` (issue 10): how many tables one server holds.

Starts a real ``ramsli serve`` process on 127.0.0.1 (a free port, a fresh SQLite
file), then adds tables level by level. Each table has one simulated player over
a real WebSocket and bots in the other seats acting at a human pace; the player
thinks 1.5–3 s per move. For every move the player makes, the latency from
sending the intent to receiving that player's next view is recorded. At each
level the script reports p50/p99 latency, the server's resident memory and its
growth per table, and the server's CPU share. Everything is bounded: the number
of tables (``--levels``), the seconds measured per level (``--seconds``) and a
hard limit on the whole run (``--max-minutes``). Traffic goes to 127.0.0.1 only.

    python bench/serve_load.py --bot rules --levels 100,250,500,1000 --seconds 20
    python bench/serve_load.py --bot montecarlo --levels 25,50,100,200 --seconds 20

The figures of this machine are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Player:
    """One simulated person at their own table."""

    def __init__(
        self,
        ws_url: str,
        table: str,
        token: str,
        rng: random.Random,
        think: tuple[float, float],
        latencies: list[float],
    ) -> None:
        self.url = f"{ws_url}/ws/{table}"
        self.token = token
        self.rng = rng
        self.think = think
        self.latencies = latencies
        self.stop = False
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        import websockets

        async with websockets.connect(self.url, max_queue=None, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            pending: tuple[int, float] | None = None
            acting = None

            async def act(view):
                await asyncio.sleep(self.rng.uniform(*self.think))
                nonlocal pending
                if self.stop:
                    return
                pending = (view["seq"], time.perf_counter())
                await ws.send(json.dumps({"type": "act", "action": self.rng.choice(view["legal"]), "seq": view["seq"]}))

            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] != "view":
                    if msg["type"] == "error":
                        pending = None
                    continue
                now = time.perf_counter()
                if pending is not None and msg["seq"] > pending[0]:
                    self.latencies.append(now - pending[1])
                    pending = None
                if self.stop:
                    return
                if msg["legal"] and (acting is None or acting.done()) and pending is None:
                    acting = asyncio.get_running_loop().create_task(act(msg))


async def make_table(client, http: str, bot: str, pace: float, pause: float) -> tuple[str, str]:
    body = {
        "rules": ["starting_stack=1000", "end=hands:10000"],
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * 4,
        "bot_pace_seconds": pace,
        "hand_pause_seconds": pause,
        "grace_seconds": 3600,
    }
    r = await client.post(http + "/api/tables", json=body)
    made = r.json()
    token = made["seats"][0]["token"]
    await client.post(http + f"/api/tables/{made['table']}/sit", json={"token": token, "name": "Load"})
    await client.post(http + f"/api/tables/{made['table']}/start", json={"creator_token": made["creator_token"]})
    return made["table"], token


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


async def main_async(args) -> list[dict]:
    import httpx

    port = free_port()
    tmp = tempfile.mkdtemp(prefix="ramsli-load-")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(  # noqa: ASYNC220 - the server under load starts once, before any timing
        [
            sys.executable,
            "-c",
            "from ramsli.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite+aiosqlite:///{tmp}/load.sqlite",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    http, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    results = []
    hard_end = time.monotonic() + args.max_minutes * 60
    try:
        async with httpx.AsyncClient(timeout=60) as client:
            for _ in range(200):
                try:
                    await client.get(http + "/api/tables")
                    break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            base_rss = rss_kib(proc.pid)
            players: list[Player] = []
            rng = random.Random(args.seed)
            latencies: list[float] = []
            sem = asyncio.Semaphore(16)
            for level in args.levels:
                if time.monotonic() > hard_end:
                    print(f"stopping: --max-minutes {args.max_minutes} reached", file=sys.stderr)
                    break

                async def add():
                    async with sem:
                        for _attempt in range(5):
                            try:
                                table, token = await make_table(client, http, args.bot, args.pace, args.pause)
                                break
                            except (httpx.HTTPError, KeyError):
                                await asyncio.sleep(0.5)
                        else:
                            raise RuntimeError("the server does not create tables any more")
                    p = Player(
                        ws, table, token, random.Random(rng.random()), (args.think_min, args.think_max), latencies
                    )
                    p.task = asyncio.get_running_loop().create_task(p.run())
                    players.append(p)

                await asyncio.gather(*(add() for _ in range(level - len(players))))
                await asyncio.sleep(min(5.0, args.seconds / 4))  # settle
                latencies.clear()
                c0, t0, m0 = cpu_seconds(proc.pid), time.monotonic(), time.process_time()
                await asyncio.sleep(args.seconds)
                cpu = (cpu_seconds(proc.pid) - c0) / (time.monotonic() - t0)
                client_cpu = (time.process_time() - m0) / (time.monotonic() - t0)
                lat = list(latencies)
                rss = rss_kib(proc.pid)
                failed = sum(1 for p in players if p.task.done())
                row = {
                    "bot": args.bot,
                    "tables": len(players),
                    "moves": len(lat),
                    "p50_ms": round(pct(lat, 50) * 1000, 1),
                    "p99_ms": round(pct(lat, 99) * 1000, 1),
                    "server_cpu": round(cpu, 2),
                    "client_cpu": round(client_cpu, 2),
                    "load_avg": round(os.getloadavg()[0], 1),
                    "rss_mib": round(rss / 1024, 1),
                    "kib_per_table": round((rss - base_rss) / max(1, len(players)), 1),
                    "players_dropped": failed,
                }
                results.append(row)
                print(json.dumps(row), flush=True)
            for p in players:
                p.stop = True
                p.task.cancel()
            await asyncio.gather(*(p.task for p in players), return_exceptions=True)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="rules", help="bot spec for the four bot seats (rules, montecarlo, ...)")
    ap.add_argument(
        "--levels",
        default="100,250,500,1000",
        type=lambda s: [int(x) for x in s.split(",")],
        help="table counts to measure, ascending",
    )
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds measured per level")
    ap.add_argument("--pace", type=float, default=1.0, help="bot pace, seconds per bot move")
    ap.add_argument("--pause", type=float, default=3.0, help="seconds between hands")
    ap.add_argument("--think-min", type=float, default=1.5)
    ap.add_argument("--think-max", type=float, default=3.0)
    ap.add_argument("--max-minutes", type=float, default=10.0, help="hard limit of the whole run")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if any(n < 1 or n > 5000 for n in args.levels) or args.levels != sorted(args.levels):
        ap.error("--levels: ascending table counts 1..5000")
    results = asyncio.run(main_async(args))
    ok = [r for r in results if r["p99_ms"] <= 100 and r["players_dropped"] == 0]
    best = max((r["tables"] for r in ok), default=0)
    print(f"{args.bot}: {best} concurrent tables with p99 action->next view <= 100 ms")


if __name__ == "__main__":
    main()
