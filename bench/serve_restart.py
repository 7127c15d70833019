#!/usr/bin/env python3
"""Start-up benchmark of ``ramsli serve``: does its cost grow with history or with live play?

Builds a database with ``--finished`` finished sessions (three hands each, bots only) and
``--running`` running tables (a person to act), then starts a real ``ramsli serve`` on it and
measures the seconds from launch until it answers ``GET /api/tables`` (it answers only after its
tables are restored) and its resident memory then and ``--settle`` seconds later (the lab's
warm-up imports in the background meanwhile), against a database holding the running tables
alone. Also the time to create tables on each. The finished sessions are copies of one real
session played by the server itself (rows copied with new ids by ``INSERT ... SELECT``, so
building 100,000 takes a minute or two, not hours); the running tables likewise. They are
stored as the server writes them, marked ``tables.finished``; ``--legacy`` leaves them unmarked
(a database whose finished tables were never marked).

Starts, in order: ``running only`` (the reference), ``first`` (the first start on the large
database; with ``--legacy`` it replays each unmarked finished table once and marks it), ``again``
(every later start). ``--src`` runs another source tree's ``ramsli`` (e.g. an older commit's ``src``,
from ``git archive``) for a before/after comparison; the database is built by that tree.

    python bench/serve_restart.py --finished 100000 --running 100
    python bench/serve_restart.py --finished 3000 --running 30 --legacy
    python bench/serve_restart.py --finished 3000 --running 30 --src /tmp/before/src
    python bench/serve_restart.py --database postgresql+asyncpg://postgres@127.0.0.1:55432/postgres

Traffic to 127.0.0.1 only; bounded by ``--max-minutes``. Exits with status 1 when a start did not
answer or a table was not served. The figures of this machine are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Failed(RuntimeError):
    """A start did not answer, or a table was not served: no figure."""


def call(base: str, method: str, path: str, body: dict | None = None, timeout: float = 30) -> tuple[int, object]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")[:300]


class Server:
    def __init__(self, database: str, src: Path, log: Path) -> None:
        self.database, self.src, self.log = database, src, log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float) -> float:
        """Launch; the seconds until ``GET /api/tables`` answers."""
        env = dict(os.environ, PYTHONPATH=str(self.src))
        t0 = time.perf_counter()
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from ramsli.cli import main; main()", "serve", "--port", str(self.port),
                 "--database", self.database, "--create-limit", "0"],
                env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        while time.perf_counter() - t0 < timeout:
            if self.proc.poll() is not None:
                raise Failed(f"ramsli serve exited: {self.log.read_text()[-1500:]}")
            try:
                with urllib.request.urlopen(self.base + "/api/tables", timeout=2) as r:
                    if r.status == 200:
                        return time.perf_counter() - t0
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise Failed(f"ramsli serve did not answer within {timeout:g} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def templates(server: Server) -> tuple[str, str]:
    """Play one finished session and make one running table on ``server``; their ids."""
    bots = [{"kind": "bot", "bot": "rules"}] * 4
    st, made = call(server.base, "POST", "/api/tables", {"rules": ["end=hands:3"], "seats": bots, "bot_pace_seconds": 0, "hand_pause_seconds": 0})  # fmt: skip
    if st != 201:
        raise Failed(f"create: {st} {made}")
    done = made["table"]
    call(server.base, "POST", f"/api/tables/{done}/start", {"creator_token": made["creator_token"]})
    body = {"rules": ["end=hands:1000"], "seats": [{"kind": "human"}, *bots], "bot_pace_seconds": 0, "grace_seconds": 3600}  # fmt: skip
    st, run = call(server.base, "POST", "/api/tables", body)
    running = run["table"]
    call(server.base, "POST", f"/api/tables/{running}/sit", {"token": run["seats"][0]["token"], "name": "Ann"})
    call(server.base, "POST", f"/api/tables/{running}/start", {"creator_token": run["creator_token"]})
    deadline = time.monotonic() + 120
    while call(server.base, "GET", f"/api/tables/{done}")[1]["status"] != "over":
        if time.monotonic() > deadline:
            raise Failed("the template session did not finish in 120 s")
        time.sleep(0.2)
    time.sleep(1.0)  # the running table's bots reach the person's turn
    return done, running


async def copy_rows(url: str, template: str, copies: int, finished: float | None = None) -> list[str]:
    """``copies`` copies of table ``template`` (its row and its events) with new ids, made by the
    database itself (``INSERT ... SELECT`` from a list of new ids, 10,000 tables a transaction).
    ``finished``: the copies' ``tables.finished`` (seconds since the epoch; None: unmarked, as a
    database written before finished tables were marked at run time)."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    ids = [secrets.token_urlsafe(9) for _ in range(copies)]
    try:
        async with engine.begin() as conn:
            md = sa.MetaData()
            await conn.run_sync(lambda c: md.reflect(c, only=["tables"]))
            keep = [c.name for c in md.tables["tables"].columns if c.name not in ("id", "created", "finished")]
            await conn.execute(sa.text("CREATE TABLE IF NOT EXISTS bench_ids (n INTEGER PRIMARY KEY, id VARCHAR(32))"))
        cols = ", ".join(keep)
        picked = ", ".join(f"t.{c}" for c in keep)
        for start in range(0, copies, 10_000):
            batch = ids[start : start + 10_000]
            async with engine.begin() as conn:
                await conn.execute(sa.text("DELETE FROM bench_ids"))
                await conn.execute(
                    sa.text("INSERT INTO bench_ids (n, id) VALUES (:n, :id)"),
                    [{"n": start + k, "id": i} for k, i in enumerate(batch)],
                )
                await conn.execute(
                    sa.text(
                        f"INSERT INTO tables (id, created, finished, {cols}) "
                        f"SELECT b.id, t.created + 1 + b.n * 0.001, CAST(:finished AS DOUBLE PRECISION), {picked} "
                        "FROM bench_ids b, tables t WHERE t.id = :template"
                    ),
                    {"template": template, "finished": finished},
                )
                await conn.execute(
                    sa.text(
                        "INSERT INTO events (table_id, seq, kind, data) SELECT b.id, e.seq, e.kind, e.data "
                        "FROM bench_ids b, events e WHERE e.table_id = :template"
                    ),
                    {"template": template},
                )
        async with engine.begin() as conn:
            await conn.execute(sa.text("DROP TABLE bench_ids"))
    finally:
        await engine.dispose()
    return ids


async def mark(url: str, table_id: str, finished: float | None) -> None:
    """Set ``tables.finished`` of ``table_id`` (None: unmarked)."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("UPDATE tables SET finished = :f WHERE id = :t"), {"f": finished, "t": table_id})
    finally:
        await engine.dispose()


def database(kind: str, pg: str | None, folder: Path, name: str) -> tuple[str, str | None]:
    if pg is None:
        return f"sqlite+aiosqlite:///{folder / name}.sqlite", None
    import asyncpg

    db = f"ramsli_restart_{name}_{secrets.token_hex(3)}"

    async def make():
        c = await asyncpg.connect(pg.replace("postgresql+asyncpg://", "postgresql://", 1))
        await c.execute(f"CREATE DATABASE {db}")
        await c.close()

    asyncio.run(make())
    return pg.rsplit("/", 1)[0] + "/" + db, db


def drop(pg: str, db: str) -> None:
    import asyncpg

    async def go():
        c = await asyncpg.connect(pg.replace("postgresql+asyncpg://", "postgresql://", 1))
        await c.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
        await c.close()

    asyncio.run(go())


def create_seconds(server: Server, n: int) -> float:
    """Mean seconds of one ``POST /api/tables`` (of ``n``)."""
    body = {"rules": ["end=hands:1"], "seats": [{"kind": "human"}, {"kind": "bot", "bot": "rules"}, {"kind": "bot", "bot": "rules"}]}  # fmt: skip
    t0 = time.perf_counter()
    for _ in range(n):
        st, made = call(server.base, "POST", "/api/tables", body)
        if st != 201:
            raise Failed(f"create: {st} {made}")
    return (time.perf_counter() - t0) / n


def measure(
    url: str,
    src: Path,
    folder: Path,
    label: str,
    running: list[str],
    finished: list[str],
    timeout: float,
    settle: float = 10.0,
) -> dict:
    server = Server(url, src, folder / f"{label}.log")
    try:
        seconds = server.start(timeout)
        rss = rss_mib(server.proc.pid)
        time.sleep(settle)  # the lab's warm-up imports in the background: memory once it is done
        settled = rss_mib(server.proc.pid)
        for tid in running[:3] + finished[:3]:  # served: running ones from memory, finished ones read now
            st, info = call(server.base, "GET", f"/api/tables/{tid}")
            if st != 200:
                raise Failed(f"{label}: table {tid} answered {st} {info}")
        create = create_seconds(server, 20)
    finally:
        server.stop()
    row = {
        "start": label,
        "finished": len(finished),
        "running": len(running),
        "start_s": round(seconds, 2),
        "rss_mib": round(rss, 1),
        "rss_settled_mib": round(settled, 1),
        "create_ms": round(create * 1000, 1),
        "load_avg": round(os.getloadavg()[0], 1),
    }
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--finished", type=int, default=3000, help="finished sessions in the large database")
    ap.add_argument("--running", type=int, default=30, help="running tables in both databases")
    ap.add_argument("--database", help="a PostgreSQL server's URL (postgresql+asyncpg://...); default: SQLite files")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the source tree of the ramsli to run")
    ap.add_argument("--max-minutes", type=float, default=10.0, help="hard limit of one start")
    ap.add_argument("--settle", type=float, default=10.0, help="seconds after the answer to measure memory again")
    ap.add_argument(
        "--legacy",
        action="store_true",
        help="leave the finished sessions unmarked (tables.finished NULL), as a database written before "
        "finished tables were marked at run time: the first start replays each once",
    )
    args = ap.parse_args()
    if not 1 <= args.finished <= 1_000_000 or not 1 <= args.running <= 10_000:
        ap.error("--finished 1..1000000, --running 1..10000")
    folder = Path(tempfile.mkdtemp(prefix="ramsli-restart-"))
    made: list[str] = []
    try:
        big, big_db = database("big", args.database, folder, "big")
        small, small_db = database("small", args.database, folder, "small")
        made = [d for d in (big_db, small_db) if d]
        for url in (big, small):  # the schema and the two templates, by the server itself
            server = Server(url, args.src, folder / "build.log")
            server.start(120)
            try:
                done, running = templates(server)
            finally:
                server.stop()
            stamp = None if args.legacy else time.time()
            if url == big:
                asyncio.run(mark(url, done, stamp))  # as the server being measured wrote it, or unmarked
                started = time.perf_counter()
                fin = asyncio.run(copy_rows(url, done, args.finished - 1, stamp)) + [done]
                print(f"built {args.finished} finished sessions in {time.perf_counter() - started:.0f} s", flush=True)
            else:
                fin = []
            run = asyncio.run(copy_rows(url, running, args.running - 1)) + [running]
            if url == big:
                big_fin, big_run = fin, run
            else:
                small_run = run
                asyncio.run(_drop_table(url, done))  # the reference holds the running tables only
        limit = args.max_minutes * 60
        ref = measure(small, args.src, folder, "running only", small_run, [], limit, args.settle)
        first = measure(big, args.src, folder, "first", big_run, big_fin, limit, args.settle)
        again = measure(big, args.src, folder, "again", big_run, big_fin, limit, args.settle)
        print(
            f"{args.finished} finished + {args.running} running: start {again['start_s']} s "
            f"(first {first['start_s']} s; running only {ref['start_s']} s), "
            f"memory {again['rss_mib']} MiB (running only {ref['rss_mib']} MiB, "
            f"{(again['rss_mib'] / ref['rss_mib'] - 1) * 100:+.0f}%), "
            f"{args.settle:g} s later {again['rss_settled_mib']} MiB (running only {ref['rss_settled_mib']} MiB, "
            f"{(again['rss_settled_mib'] / ref['rss_settled_mib'] - 1) * 100:+.0f}%), create {again['create_ms']} ms "
            f"(running only {ref['create_ms']} ms)"
        )
    except Failed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    finally:
        for db in made:
            drop(args.database, db)
        for f in folder.glob("*.sqlite*"):  # the databases (a 100,000-session one is 1.3 GB); the logs stay
            f.unlink()


async def _drop_table(url: str, table_id: str) -> None:
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("DELETE FROM events WHERE table_id = :t"), {"t": table_id})
            await conn.execute(sa.text("DELETE FROM tables WHERE id = :t"), {"t": table_id})
    finally:
        await engine.dispose()


if __name__ == "__main__":
    main()
