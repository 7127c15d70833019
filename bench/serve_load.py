#!/usr/bin/env python3
"""Load benchmark of ``ramsli serve``: how many tables one or two server processes hold, and how
long a table stands still when the process running it is killed.

Starts real ``ramsli serve`` processes on 127.0.0.1 (free ports): one on a fresh SQLite file, or
``--processes N`` on one fresh database of the PostgreSQL server given with ``--database`` (the
script creates it and drops it at the end). Then it adds tables level by level, spread evenly
over the processes (a table is created through the process its player connects to, which runs
it). Each table has one simulated player who sits with the invite token, plays with the personal
seat token the server hands back, over a real WebSocket, and four bots acting at a human pace; the
player thinks 1.5-3 s per move. For every move of the player, the latency from sending the
intent to receiving that player's next view is recorded. At each level the script reports
p50/p99 latency, the servers' resident memory and CPU share, and the load average of the machine.
Memory per table: ``kib_per_table`` is the resident memory over the servers' own once they stood
still after start-up, divided by the tables; ``kib_per_added_table`` the growth since the level
before, divided by the tables added (what one more table costs).

``--failover`` (two or more processes): after the last level, the first process is SIGKILLed;
its players reconnect by themselves to the next process, which takes the tables over from the
event log. Reported: for each table of the killed process, the seconds from the kill to the
player's first view from the new process, and to the table playing again (a view with a ``seq``
past the last one seen before the kill), and whether any view went backwards (it must not).

Everything is bounded: the table counts (``--levels``), the seconds measured per level
(``--seconds``) and a hard limit on the whole run (``--max-minutes``). Traffic goes to 127.0.0.1
only. A run that measured no move, or whose players dropped, exits with status 1.

    python bench/serve_load.py --levels 25,50,100 --seconds 20
    PG=postgresql+asyncpg://postgres@127.0.0.1:55432/postgres
    python bench/serve_load.py --database $PG --processes 1 --levels 25,50,100,150
    python bench/serve_load.py --database $PG --processes 2 --levels 25,50,100,150 --failover

The figures of this machine are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class MeasuredNothing(SystemExit):
    """The run measured nothing (no move, players dropped): the figures would be meaningless."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def settled_rss(pid: int, seconds: float = 60.0) -> int:
    """The resident KiB of process ``pid`` once it stands still (within 1 MiB over 2 s), at
    most ``seconds`` from now."""
    end = time.monotonic() + seconds
    seen = [rss_kib(pid)]
    while time.monotonic() < end:
        await asyncio.sleep(0.5)
        seen.append(rss_kib(pid))
        if len(seen) >= 5 and max(seen[-5:]) - min(seen[-5:]) < 1024:
            break
    return seen[-1]


class Server:
    """One ``ramsli serve`` process; its output in ``folder/server-PORT.log``."""

    def __init__(self, database: str, folder: Path) -> None:
        self.port = free_port()
        self.database = database
        self.log = folder / f"server-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from ramsli.cli import main; main()", "serve", "--port", str(self.port),
                 "--database", self.database, "--create-limit", "0"],
                env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip

    def tail(self) -> str:
        try:
            return self.log.read_text()[-2000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Player:
    """One simulated person at their own table; reconnects by itself (to the next server) when
    the connection is cut or the server says ``reconnect``."""

    def __init__(self, urls: list[str], at: int, table: str, token: str, rng: random.Random, args, latencies):
        self.urls = urls
        self.at = at
        self.table = table
        self.token = token
        self.rng = rng
        self.think = (args.think_min, args.think_max)
        self.latencies = latencies
        self.stop = False
        self.task: asyncio.Task | None = None
        self.seq = -1  # the latest seq seen
        self.backwards = 0  # views whose seq went below one seen before (must stay 0)
        self.views = 0
        self.cut_at: float | None = None  # the kill's time, set by the benchmark
        self.cut_seq = -1
        self.back_at: float | None = None  # first view after the kill
        self.playing_at: float | None = None  # first view past cut_seq
        self.error: str | None = None

    async def run(self) -> None:
        import websockets

        while not self.stop:
            try:
                await self._connection(websockets)
            except (TimeoutError, OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
                pass
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any other failure is this player's error, shown in the report
                self.error = repr(e)
                return
            if self.stop:
                return
            if self.cut_at is not None:  # the kill: the next process (the dead one's port refuses)
                self.at = (self.at + 1) % len(self.urls)
            await asyncio.sleep(0.2)

    async def _connection(self, websockets) -> None:
        url = f"{self.urls[self.at]}/ws/{self.table}"
        async with websockets.connect(url, max_queue=None, open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            pending: tuple[int, float] | None = None
            acting: asyncio.Task | None = None

            async def act(view):
                nonlocal pending
                await asyncio.sleep(self.rng.uniform(*self.think))
                if self.stop:
                    return
                pending = (view["seq"], time.perf_counter())
                await ws.send(json.dumps({"type": "act", "action": self.rng.choice(view["legal"]), "seq": view["seq"]}))

            try:
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "welcome" and msg.get("seat") is None:
                        raise RuntimeError(f"table {self.table}: seated as a spectator ({msg})")
                    if msg["type"] == "reconnect":
                        return
                    if msg["type"] == "error":
                        pending = None
                        continue
                    if msg["type"] != "view":
                        continue
                    now = time.perf_counter()
                    self.views += 1
                    if msg["seq"] < self.seq:
                        self.backwards += 1
                    self.seq = max(self.seq, msg["seq"])
                    if self.cut_at is not None:
                        if self.back_at is None:
                            self.back_at = now
                        if self.playing_at is None and msg["seq"] > self.cut_seq:
                            self.playing_at = now
                    if pending is not None and msg["seq"] > pending[0]:
                        self.latencies.append(now - pending[1])
                        pending = None
                    if self.stop:
                        return
                    if msg["legal"] and (acting is None or acting.done()) and pending is None:
                        acting = asyncio.get_running_loop().create_task(act(msg))
            finally:
                if acting is not None:
                    acting.cancel()


async def make_table(client, http: str, args) -> tuple[str, str]:
    """Create, sit (the invite token buys the personal seat token) and start one table."""
    body = {
        "rules": ["starting_stack=1000", "end=hands:10000"],
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": args.bot}] * 4,
        "bot_pace_seconds": args.pace,
        "hand_pause_seconds": args.pause,
        "grace_seconds": 3600,
    }
    r = await client.post(http + "/api/tables", json=body)
    if r.status_code != 201:
        raise RuntimeError(f"create: {r.status_code} {r.text[:300]}")
    made = r.json()
    table = made["table"]
    r = await client.post(http + f"/api/tables/{table}/sit", json={"token": made["seats"][0]["token"], "name": "Load"})
    if r.status_code != 200 or not r.json().get("token"):
        raise RuntimeError(f"sit: {r.status_code} {r.text[:300]}")
    personal = r.json()["token"]
    r = await client.post(http + f"/api/tables/{table}/start", json={"creator_token": made["creator_token"]})
    if r.status_code != 200:
        raise RuntimeError(f"start: {r.status_code} {r.text[:300]}")
    return table, personal


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


async def pg_database(url: str, drop: str | None = None) -> str:
    """A fresh database on the PostgreSQL server of ``url`` (its URL), or drop the one named ``drop``."""
    import asyncpg

    plain = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    conn = await asyncpg.connect(plain)
    try:
        if drop:
            await conn.execute(f"DROP DATABASE IF EXISTS {drop} WITH (FORCE)")
            return drop
        name = "ramsli_load_" + secrets.token_hex(4)
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return url.rsplit("/", 1)[0] + "/" + name


async def main_async(args) -> tuple[list[dict], dict | None]:
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix="ramsli-load-"))
    pg_name = None
    if args.database:
        database = await pg_database(args.database)
        pg_name = database.rsplit("/", 1)[1]
    else:
        database = f"sqlite+aiosqlite:///{tmp}/load.sqlite"
    servers = [Server(database, tmp) for _ in range(args.processes)]
    results: list[dict] = []
    failover = None
    hard_end = time.monotonic() + args.max_minutes * 60
    players: list[Player] = []
    try:
        for s in servers:  # one after the other: the first brings the schema up to date
            s.start()
            async with httpx.AsyncClient(timeout=10) as probe:
                for _ in range(300):
                    try:
                        if (await probe.get(s.http + "/readyz")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    if s.proc.poll() is not None:
                        raise MeasuredNothing(f"ramsli serve exited at start:\n{s.tail()}")
                    await asyncio.sleep(0.1)
                else:
                    raise MeasuredNothing(f"ramsli serve is not ready after 30 s:\n{s.tail()}")
        # the base: once each server's memory stands still (what it loads in the background at
        # start, e.g. the lab's kernel for the hints, is not any table's)
        await asyncio.gather(*(settled_rss(s.proc.pid) for s in servers))
        async with httpx.AsyncClient(timeout=60) as client:
            base_rss = sum(rss_kib(s.proc.pid) for s in servers)
            last_rss, last_tables = base_rss, 0
            rng = random.Random(args.seed)
            latencies: list[float] = []
            sem = asyncio.Semaphore(8)
            ws_urls = [s.ws for s in servers]
            for level in args.levels:
                if time.monotonic() > hard_end:
                    print(f"stopping: --max-minutes {args.max_minutes} reached", file=sys.stderr)
                    break

                async def add(i: int) -> None:
                    at = i % len(servers)
                    async with sem:
                        table, token = await make_table(client, servers[at].http, args)
                    p = Player(ws_urls, at, table, token, random.Random(rng.random()), args, latencies)
                    p.task = asyncio.get_running_loop().create_task(p.run())
                    players.append(p)

                await asyncio.gather(*(add(i) for i in range(len(players), level)))
                await asyncio.sleep(min(5.0, args.seconds / 4))  # settle
                latencies.clear()
                c0 = sum(cpu_seconds(s.proc.pid) for s in servers)
                t0, m0 = time.monotonic(), time.process_time()
                await asyncio.sleep(args.seconds)
                span = time.monotonic() - t0
                cpu = (sum(cpu_seconds(s.proc.pid) for s in servers) - c0) / span
                client_cpu = (time.process_time() - m0) / span
                lat = list(latencies)
                rss = sum(rss_kib(s.proc.pid) for s in servers)
                dropped = [p for p in players if p.task.done()]
                if not lat:
                    raise MeasuredNothing(
                        f"measured nothing: 0 moves of {len(players)} players in {args.seconds:g} s "
                        f"(errors: {[p.error for p in players if p.error][:3]}); server log:\n{servers[0].tail()}"
                    )
                row = {
                    "processes": len(servers),
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
                    "kib_per_added_table": round((rss - last_rss) / max(1, len(players) - last_tables), 1),
                    "players_dropped": len(dropped),
                }
                results.append(row)
                last_rss, last_tables = rss, len(players)
                print(json.dumps(row), flush=True)
                if dropped:
                    raise MeasuredNothing(f"{len(dropped)} players dropped: {[p.error for p in dropped][:3]}")
            if args.failover:
                failover = await measure_failover(servers, players, args)
                print(json.dumps(failover), flush=True)
    finally:
        for p in players:
            p.stop = True
            if p.task is not None:
                p.task.cancel()
        await asyncio.gather(*(p.task for p in players if p.task is not None), return_exceptions=True)
        for s in servers:
            s.stop()
        if pg_name:
            await pg_database(args.database, drop=pg_name)
    return results, failover


async def measure_failover(servers: list[Server], players: list[Player], args) -> dict:
    """SIGKILL the first process; its players' tables must play again from the next one."""
    victims = [p for p in players if p.at == 0]
    if not victims:
        raise MeasuredNothing("failover: the first process runs no table")
    load = round(os.getloadavg()[0], 1)
    for p in victims:
        p.cut_seq = p.seq
    t_kill = time.perf_counter()
    for p in victims:
        p.cut_at = t_kill
    servers[0].proc.send_signal(signal.SIGKILL)
    servers[0].proc.wait(10)
    deadline = time.monotonic() + args.failover_seconds
    while time.monotonic() < deadline and any(p.playing_at is None for p in victims):  # noqa: ASYNC110 - polls what the players' tasks set
        await asyncio.sleep(0.1)
    back = sorted(p.back_at - t_kill for p in victims if p.back_at is not None)
    playing = sorted(p.playing_at - t_kill for p in victims if p.playing_at is not None)
    row = {
        "failover_tables": len(victims),
        "reconnected": len(back),
        "playing_again": len(playing),
        "to_view_s_p50": round(pct(back, 50), 2) if back else None,
        "to_view_s_max": round(back[-1], 2) if back else None,
        "to_playing_s_p50": round(pct(playing, 50), 2) if playing else None,
        "to_playing_s_max": round(playing[-1], 2) if playing else None,
        "views_backwards": sum(p.backwards for p in players),
        "load_avg": load,
    }
    if len(playing) < len(victims):
        print(json.dumps(row), flush=True)
        raise MeasuredNothing(
            f"failover: {len(victims) - len(playing)} of {len(victims)} tables did not play again within "
            f"{args.failover_seconds:g} s; surviving server log:\n{servers[1].tail()}"
        )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="rules", help="bot spec for the four bot seats (rules, montecarlo, ...)")
    ap.add_argument(
        "--levels",
        default="25,50,100",
        type=lambda s: [int(x) for x in s.split(",")],
        help="table counts to measure, ascending",
    )
    ap.add_argument("--database", help="a PostgreSQL server's URL (postgresql+asyncpg://...); default: SQLite")
    ap.add_argument("--processes", type=int, default=1, help="server processes (more than one: PostgreSQL)")
    ap.add_argument("--failover", action="store_true", help="at the end, SIGKILL the first process and time it")
    ap.add_argument("--failover-seconds", type=float, default=30.0, help="at most this long to wait for failover")
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
    if args.processes < 1 or (args.processes > 1 and not args.database):
        ap.error("--processes: 1, or more with --database (PostgreSQL)")
    if args.failover and args.processes < 2:
        ap.error("--failover needs --processes 2 or more")
    if args.database and not args.database.startswith("postgresql+asyncpg://"):
        ap.error("--database: a postgresql+asyncpg:// URL")
    try:
        results, _failover = asyncio.run(main_async(args))
    except MeasuredNothing as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    ok = [r for r in results if r["p99_ms"] <= 100 and r["players_dropped"] == 0]
    best = max((r["tables"] for r in ok), default=0)
    print(f"{args.bot}, {args.processes} process(es): {best} concurrent tables with p99 action->next view <= 100 ms")


if __name__ == "__main__":
    main()
