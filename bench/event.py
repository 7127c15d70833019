#!/usr/bin/env python3
"""Benchmark of a club evening (issue 34) on one ``ramsli serve`` process: how long the
director's "start round" takes to reach every table, and whether the round then plays at the
default pace without late views.

Starts a real ``ramsli serve`` on 127.0.0.1 (a free port, a fresh SQLite file) and builds an
evening of ``--participants`` checked-in participants (default 200: 40 tables of 5): ``--people``
logged-in people (default 40), each with an account of their own, and substitute bots of
``--level`` (default ``easy``) for the rest. The draw decides who sits where, so a table may get
several people or none.

Accounts: each person registers (``POST /api/players``, argon2id) and checks in from an address
of their own, as people on their own phones do: the server runs with ``--trusted-proxy
127.0.0.1`` and every simulated person sends its own ``X-Forwarded-For`` (``10.34.x.y``), so the
server's limit of new players per address (10 in 10 minutes) holds for each of them as for one
phone. The server also runs with ``--create-limit 0``. No limit is switched off in the code.

Then, per round (``--rounds``, default 1), with the clock started at the moment the director
sends ``POST /api/evenings/{id}/rounds``:

1. **Start.** Each person asks ``GET /api/evenings/{id}/me`` every ``--poll`` seconds (default
   0.5, each at its own phase) until it names a seat link of the new round, then connects to that
   table's WebSocket with the seat's token and says hello, as the table page does. Recorded: the
   director's answer (the server has drawn, made, seated and started every table by then; a
   table's first hand is dealt when it starts), each person's ``/me`` with a link, their first
   view, and for every table the first view showing a hand in progress: from a person at it, or
   for a table of bots only from a spectator who connects with the table's spectator link once the
   director's answer named the table (then leaves). Reported: p50/max of start -> first view and
   start -> every table dealt (aims: <= 2 s). The evening page itself asks ``/me`` every 5 s; a
   person on that page learns of their table up to 5 s later than here.
2. **Play.** The people play their tables to the end of the round's hands (``--hands`` per round,
   default 5; everyone deals equally often), thinking ``--think-min``..``--think-max`` seconds a
   move and choosing a legal action of their view at random; bots move at the evening's
   ``bot_pace_seconds`` (default 0.8 s), hands follow each other after ``hand_pause_seconds``
   (default 8 s; nobody closes the summary early). For every move of a person, the latency from
   sending the intent to receiving that person's next view is recorded: p50, p99 and the share
   over 100 ms (aim: p99 <= 100 ms). A TV (``GET /api/evenings/{id}`` every 5 s, as the TV page
   polls) tells when the round is done.

Through both, a probe in a thread of its own asks ``GET /healthz`` every 0.2 s: its latency is
the event loop's lag as a client sees it (p50/p99/max, during the start and during the play).

Everything is bounded (``--max-minutes``, default 15). Traffic goes to 127.0.0.1 only. A run
that measured no move, a person who never saw their table, a table never seen dealt, a round that
did not finish in time, or any answer 5xx exits with status 1 (the round's figures printed first).

    python bench/event.py                      # 200 participants: 40 people, 160 easy bots
    python bench/event.py --participants 20 --people 5 --hands 1 --max-minutes 3

The figures of this machine are in docs/benchmarks.md ("Evenings").
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: seconds between two asks of the TV (as ``evening-tv.js`` polls)
TV_SECONDS = 5.0
#: seconds between two asks of the probe
PROBE_SECONDS = 0.2
#: the latency a view may have (the aim: p99 within it)
LATE_MS = 100.0
#: the aim for start -> first view and start -> every table dealt, seconds
START_AIM_S = 2.0


class MeasuredNothing(SystemExit):
    """The run measured nothing (no move, a person never seated, a table never seen dealt): the
    figures would be meaningless."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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


def children_cpu_seconds(pid: int) -> float:
    """CPU seconds of ``pid``'s child processes still running (the bot pool's workers)."""
    total = 0.0
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    for kid in kids:
        total += cpu_seconds(int(kid))
    return total


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def load_avg() -> float:
    return round(os.getloadavg()[0], 2)


class Server:
    """The ``ramsli serve`` process; its output in ``folder/server.log``."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.database = f"sqlite+aiosqlite:///{folder}/event.sqlite"
        self.log = folder / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

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
                 "--database", self.database, "--create-limit", "0", "--trusted-proxy", "127.0.0.1"],
                env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

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


class Probe(threading.Thread):
    """``GET /healthz`` every :data:`PROBE_SECONDS` from a thread of its own (its own client, not
    the players' event loop): ``seen`` holds (perf_counter at the ask, seconds to the answer)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url + "/healthz"
        self.seen: list[tuple[float, float]] = []
        self.failed = 0
        self.halt = threading.Event()

    def run(self) -> None:
        import httpx

        with httpx.Client(timeout=10) as client:
            while not self.halt.is_set():
                t = time.perf_counter()
                try:
                    ok = client.get(self.url).status_code == 200
                except httpx.HTTPError:
                    ok = False
                if ok:
                    self.seen.append((t, time.perf_counter() - t))
                else:
                    self.failed += 1
                self.halt.wait(max(0.0, PROBE_SECONDS - (time.perf_counter() - t)))

    def between(self, a: float, b: float) -> list[float]:
        return [lat for t, lat in list(self.seen) if a <= t < b]


@dataclass
class RoundRun:
    """What one round measured; times are ``perf_counter`` seconds, ``t0`` the director's send."""

    number: int
    t0: float
    answered: float | None = None  # the director's answer
    me: dict[int, float] = field(default_factory=dict)  # person -> /me named the seat link
    first_view: dict[int, float] = field(default_factory=dict)  # person -> their first view
    dealt: dict[int, float] = field(default_factory=dict)  # table number -> first view with a hand
    table_of: dict[int, int] = field(default_factory=dict)  # person -> table number
    moves: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency s)
    errors: list[str] = field(default_factory=list)
    server_errors: int = 0  # answers 5xx (each asked again)
    done_at: float | None = None  # the TV saw the round done
    stop: bool = False

    def saw_dealt(self, number: int, at: float) -> None:
        if number not in self.dealt or at < self.dealt[number]:
            self.dealt[number] = at


class Person:
    """One simulated person: their own account, cookies, CSRF token and address."""

    def __init__(self, k: int, http: str, ws: str, rng: random.Random, args: argparse.Namespace) -> None:
        import httpx

        self.k = k
        self.name = f"Guest {k}"
        self.address = f"10.34.{k // 250}.{k % 250 + 1}"
        self.client = httpx.AsyncClient(base_url=http, timeout=60, headers={"X-Forwarded-For": self.address})
        self.ws = ws
        self.rng = rng
        self.args = args
        self.csrf = ""
        self.id = ""

    async def register(self) -> None:
        r = await self.client.post("/api/players", json={"name": self.name, "password": f"evening-bench-{self.k}-pw"})
        if r.status_code != 201:
            raise MeasuredNothing(f"{self.name}: register: {r.status_code} {r.text[:300]}")
        self.csrf = r.json()["csrf"]
        self.id = r.json()["player"]["id"]

    async def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        r = await self.client.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf})
        if r.status_code not in (200, 201):
            raise MeasuredNothing(f"{self.name}: POST {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    async def play_round(self, eid: str, run: RoundRun) -> None:
        """Ask ``/me`` until it names this round's seat, then play that table to its end."""
        try:
            await self._play_round(eid, run)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - any failure is this person's, shown in the report
            run.errors.append(f"{self.name}: {e!r}")

    async def _play_round(self, eid: str, run: RoundRun) -> None:
        import websockets

        await asyncio.sleep(self.rng.uniform(0, self.args.poll))
        while True:
            if run.stop:
                return
            r = await self.client.get(f"/api/evenings/{eid}/me")
            if r.status_code == 200:
                me = r.json()
                if me.get("round") == run.number and me.get("url"):
                    break
            elif r.status_code >= 500:  # the page asks again at its next poll; counted, shown
                run.server_errors += 1
                run.errors.append(f"{self.name}: /me {r.status_code}")
            elif r.status_code != 404:
                raise RuntimeError(f"/me: {r.status_code} {r.text[:200]}")
            await asyncio.sleep(self.args.poll)
        run.me[self.k] = time.perf_counter()
        number = int(me["table"])
        run.table_of[self.k] = number
        _t, table, _s, token = str(me["url"]).strip("/").split("/")
        async with websockets.connect(f"{self.ws}/ws/{table}", max_queue=None, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            pending: tuple[int, float] | None = None
            acting: asyncio.Task[None] | None = None

            async def act(view: dict[str, Any]) -> None:
                nonlocal pending
                await asyncio.sleep(self.rng.uniform(self.args.think_min, self.args.think_max))
                if run.stop:
                    return
                pending = (view["seq"], time.perf_counter())
                await ws.send(json.dumps({"type": "act", "action": self.rng.choice(view["legal"]), "seq": view["seq"]}))

            try:
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "welcome" and msg.get("seat") is None:
                        raise RuntimeError(f"table {table}: seated as a spectator ({msg})")
                    if msg["type"] == "error":
                        pending = None
                        continue
                    if msg["type"] != "view":
                        continue
                    now = time.perf_counter()
                    run.first_view.setdefault(self.k, now)
                    if msg["hand"] is not None:
                        run.saw_dealt(number, now)
                    if pending is not None and msg["seq"] > pending[0]:
                        run.moves.append((pending[1], now - pending[1]))
                        pending = None
                    if msg["status"] == "over" or run.stop:
                        return
                    if msg["legal"] and (acting is None or acting.done()) and pending is None:
                        acting = asyncio.get_running_loop().create_task(act(msg))
            finally:
                if acting is not None:
                    acting.cancel()


async def watch_dealt(ws_base: str, client: Any, number: int, table: str, run: RoundRun) -> None:
    """A spectator of a table of bots only: connect with its spectator link, note the first view
    with a hand in progress, leave."""
    import websockets

    try:
        info = (await client.get(f"/api/tables/{table}")).json()
        token = str(info["spectate"]).rstrip("/").rsplit("/", 1)[1]
        async with websockets.connect(f"{ws_base}/ws/{table}", max_queue=None, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "view" and msg["hand"] is not None:
                    run.saw_dealt(number, time.perf_counter())
                    return
    except asyncio.CancelledError:
        raise
    except Exception as e:  # noqa: BLE001 - shown in the report
        run.errors.append(f"spectator of table {number}: {e!r}")


def ms(x: float) -> float:
    return round(x * 1000, 1)


def report(run: RoundRun, probe: Probe, people: int, tables: int) -> dict[str, Any]:
    t0 = run.t0
    first = sorted(t - t0 for t in run.first_view.values())
    mes = sorted(t - t0 for t in run.me.values())
    dealt = sorted(t - t0 for t in run.dealt.values())
    lat = [x for _t, x in run.moves]
    end_start = (max(run.dealt.values()) if run.dealt else t0) + 0.5
    start_probe = probe.between(t0, end_start)
    play_probe = probe.between(end_start, run.done_at or time.perf_counter())
    row: dict[str, Any] = {
        "round": run.number,
        "tables": tables,
        "start_answer_s": None if run.answered is None else round(run.answered - t0, 2),
        "people_seated": f"{len(run.first_view)}/{people}",
        "me_link_s_p50": round(pct(mes, 50), 2) if mes else None,
        "me_link_s_max": round(mes[-1], 2) if mes else None,
        "first_view_s_p50": round(pct(first, 50), 2) if first else None,
        "first_view_s_max": round(first[-1], 2) if first else None,
        "tables_with_people": len(set(run.table_of.values())),
        "tables_seen_dealt": f"{len(dealt)}/{tables}",
        "dealt_s_p50": round(pct(dealt, 50), 2) if dealt else None,
        "every_table_dealt_s": round(dealt[-1], 2) if len(dealt) == tables and dealt else None,
        "moves": len(lat),
        "move_p50_ms": ms(pct(lat, 50)) if lat else None,
        "move_p99_ms": ms(pct(lat, 99)) if lat else None,
        "move_max_ms": ms(max(lat)) if lat else None,
        "moves_over_100ms": round(sum(x * 1000 > LATE_MS for x in lat) / len(lat), 4) if lat else None,
        "probe_start_p99_ms": ms(pct(start_probe, 99)) if start_probe else None,
        "probe_start_max_ms": ms(max(start_probe)) if start_probe else None,
        "probe_play_p50_ms": ms(pct(play_probe, 50)) if play_probe else None,
        "probe_play_p99_ms": ms(pct(play_probe, 99)) if play_probe else None,
        "probe_play_max_ms": ms(max(play_probe)) if play_probe else None,
        "round_s": None if run.done_at is None else round(run.done_at - t0, 1),
        "server_errors": run.server_errors,
        "errors": run.errors[:5],
    }
    return row


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix="ramsli-event-"))
    server = Server(tmp)
    people: list[Person] = []
    rows: list[dict[str, Any]] = []
    hard_end = time.monotonic() + args.max_minutes * 60
    probe = Probe(server.http)
    tasks: list[asyncio.Task[None]] = []
    try:
        server.start()
        async with httpx.AsyncClient(timeout=10) as c:
            for _ in range(300):
                try:
                    if (await c.get(server.http + "/readyz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if not server.alive():
                    raise MeasuredNothing(f"ramsli serve exited at start:\n{server.tail()}")
                await asyncio.sleep(0.1)
            else:
                raise MeasuredNothing(f"ramsli serve is not ready after 30 s:\n{server.tail()}")
        rng = random.Random(args.seed)
        director = Person(0, server.http, server.ws, random.Random(rng.random()), args)
        director.name = "Director"
        people = [
            Person(k, server.http, server.ws, random.Random(rng.random()), args) for k in range(1, args.people + 1)
        ]
        t = time.perf_counter()
        sem = asyncio.Semaphore(4)

        async def register(p: Person) -> None:
            async with sem:
                await p.register()

        await asyncio.gather(*(register(p) for p in [director, *people]))
        accounts_s = time.perf_counter() - t
        starts = dt.datetime.now(dt.UTC).isoformat(timespec="minutes")
        body: dict[str, Any] = {
            "name": "Bench evening",
            "starts": starts,
            "rounds": args.rounds,
            "hands_per_round": args.hands,
        }
        if args.pace is not None:
            body["bot_pace_seconds"] = args.pace
        if args.pause is not None:
            body["hand_pause_seconds"] = args.pause
        eid = (await director.post("/api/evenings", body))["id"]
        t = time.perf_counter()
        for p in people:
            await p.post(f"/api/evenings/{eid}/check-in")
        for _ in range(args.participants - args.people):
            await director.post(f"/api/evenings/{eid}/substitutes", {"level": args.level})
        checkin_s = time.perf_counter() - t
        state = (await director.client.get(f"/api/evenings/{eid}")).json()
        counted = sum(1 for p in state["people"] if p["checked_in"] and not p["withdrawn"])
        setup = {
            "participants": counted,
            "people": args.people,
            "bots": counted - args.people,
            "level": args.level,
            "hands_per_round": args.hands,
            "bot_pace_seconds": args.pace if args.pace is not None else 0.8,
            "hand_pause_seconds": args.pause if args.pause is not None else 8.0,
            "accounts_s": round(accounts_s, 1),
            "check_in_s": round(checkin_s, 1),
            "load_avg": load_avg(),
            "cpus": os.cpu_count(),
        }
        print(json.dumps(setup), flush=True)
        if counted != args.participants:
            raise MeasuredNothing(f"{counted} participants checked in, not {args.participants}")
        await asyncio.sleep(2.0)  # let the server stand still before the start
        probe.start()
        await asyncio.sleep(1.0)
        for rnd in range(1, args.rounds + 1):
            if time.monotonic() > hard_end:
                raise MeasuredNothing(f"--max-minutes {args.max_minutes} reached before round {rnd}")
            load0 = load_avg()
            c0, k0 = cpu_seconds(server.pid), children_cpu_seconds(server.pid)
            m0 = time.process_time()
            run = RoundRun(rnd, time.perf_counter())
            tasks = [asyncio.get_running_loop().create_task(p.play_round(eid, run)) for p in people]
            r = await director.client.post(
                f"/api/evenings/{eid}/rounds", json={}, headers={"X-CSRF-Token": director.csrf}
            )
            run.answered = time.perf_counter()
            if r.status_code != 200:
                run.stop = True
                raise MeasuredNothing(f"start round {rnd}: {r.status_code} {r.text[:300]}")
            started = r.json()["rounds_played"][-1]
            tables = started["tables"]
            mine = {p.id for p in people}
            for tb in tables:
                if not any(s["id"] in mine for s in tb["seats"]):
                    tasks.append(
                        asyncio.get_running_loop().create_task(
                            watch_dealt(server.ws, director.client, tb["number"], tb["table"], run)
                        )
                    )
            # the TV: until the round is done (every table has its result)
            while time.monotonic() < hard_end and server.alive():
                await asyncio.sleep(TV_SECONDS)
                tv = await director.client.get(f"/api/evenings/{eid}")
                if tv.status_code >= 500:
                    run.server_errors += 1
                    run.errors.append(f"TV: GET /api/evenings/{eid} {tv.status_code}")
                if tv.status_code == 200 and tv.json()["rounds_played"][-1]["done"]:
                    run.done_at = time.perf_counter()
                    break
            run.stop = True
            await asyncio.wait(tasks, timeout=30)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            span = time.perf_counter() - run.t0
            row = report(run, probe, len(people), len(tables))
            row.update(
                server_cpu=round((cpu_seconds(server.pid) - c0) / span, 2),
                bot_workers_cpu=round((children_cpu_seconds(server.pid) - k0) / span, 2),
                client_cpu=round((time.process_time() - m0) / span, 2),
                rss_mib=round(rss_kib(server.pid) / 1024, 1),
                load_avg_start=load0,
                load_avg_end=load_avg(),
                probe_failed=probe.failed,
            )
            rows.append(row)
            print(json.dumps(row), flush=True)
            if not server.alive():
                raise MeasuredNothing(f"ramsli serve died:\n{server.tail()}")
            if not run.moves:
                raise MeasuredNothing(f"round {rnd}: measured no move; errors {run.errors[:3]}\n{server.tail()}")
            if len(run.first_view) < len(people):
                raise MeasuredNothing(
                    f"round {rnd}: {len(people) - len(run.first_view)} people never saw their table; "
                    f"errors {run.errors[:3]}"
                )
            if len(run.dealt) < len(tables):
                raise MeasuredNothing(f"round {rnd}: {len(tables) - len(run.dealt)} tables never seen dealt")
            if run.server_errors:
                raise MeasuredNothing(
                    f"round {rnd}: {run.server_errors} answers 5xx: {run.errors[:3]}\n{server.tail()}"
                )
            if run.done_at is None:
                raise MeasuredNothing(f"round {rnd} did not finish within --max-minutes {args.max_minutes}")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        probe.halt.set()
        for p in people:
            await p.client.aclose()
        server.stop()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--participants", type=int, default=200, help="checked-in participants (people and bots)")
    ap.add_argument("--people", type=int, default=40, help="of them logged-in people who play; the rest bots")
    ap.add_argument("--level", default="easy", help="the substitute bots' level (easy, medium, hard, expert)")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of the evening, each measured")
    ap.add_argument("--hands", type=int, default=5, help="hands per round (rounded up: everyone deals alike)")
    ap.add_argument("--pace", type=float, default=None, help="bots' seconds a move (default: the evening's, 0.8)")
    ap.add_argument("--pause", type=float, default=None, help="seconds between hands (default: the evening's, 8)")
    ap.add_argument("--poll", type=float, default=0.5, help="seconds between a person's asks of /me")
    ap.add_argument("--think-min", type=float, default=1.5)
    ap.add_argument("--think-max", type=float, default=3.0)
    ap.add_argument("--max-minutes", type=float, default=15.0, help="hard limit of the whole run")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.people <= args.participants <= 1000:
        ap.error("need 1 <= --people <= --participants <= 1000")
    if args.participants < 3:
        ap.error("--participants: at least 3 (a table)")
    if not 1 <= args.rounds <= 12 or not 1 <= args.hands <= 60:
        ap.error("--rounds 1..12, --hands 1..60")
    try:
        rows = asyncio.run(main_async(args))
    except MeasuredNothing as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    for r in rows:
        first = r["first_view_s_max"]
        dealt = r["every_table_dealt_s"]
        p99 = r["move_p99_ms"]
        start_ok = first is not None and dealt is not None and max(first, dealt) <= START_AIM_S
        print(
            f"round {r['round']}: {r['tables']} tables; start -> every person's first view {first} s, "
            f"-> every table dealt {dealt} s (aim <= {START_AIM_S:g} s: {'met' if start_ok else 'NOT met'}); "
            f"moves p99 {p99} ms (aim <= {LATE_MS:g} ms: {'met' if p99 is not None and p99 <= LATE_MS else 'NOT met'}); "
            f"load {r['load_avg_start']}..{r['load_avg_end']}"
        )


if __name__ == "__main__":
    main()
