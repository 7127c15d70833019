"""Hosting ``ramsli serve`` (issue 22) with real processes on 127.0.0.1: what an operator relies on.

- SIGTERM in the middle of a trick drains: every client is told to reconnect, the process exits,
  and after the restart every view, card and counter is where it was (SQLite and PostgreSQL);
- a second ``ramsli serve`` on the same SQLite file is refused with a clear message;
- ``--log-format json``: every line on standard error is JSON, one per request, without tokens;
- ``ramsli backup`` copies the database while the server writes to it (SQLite's online backup,
  and ``pg_dump``), and the copy restores every table;
- WebSocket keepalive: behind nginx cutting idle connections after 3 s, a connection kept alive
  by the server's pings stays open, and one with rarer pings is cut (so the pings are what does it);
- the documented Caddyfile in front of a server: a hand played through Caddy, the metrics kept inside.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import sqlite3
import subprocess
import sys

import pytest
from test_server_e2e import _mid_trick, _play_until

from helpers import (
    ROOT,
    SRC,
    ProxyProcess,
    ServerProcess,
    WSPlayer,
    engine_replay,
    free_port,
    http_get,
    pg_admin,
    post_json,
    postgres_base,
    scaled,
    stable_view,
)

TABLE = {
    "preset": "traditional",
    "rules": ["end=hands:2", "starting_stack=30"],
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "rules"}, {"kind": "human"}, {"kind": "bot", "bot": "rules"}],
    "bot_pace_seconds": 0,
    "hand_pause_seconds": 0.5,
    "seed": 7,
}


def _seated(base: str) -> tuple[str, list[str], str]:
    """A table with two people sat down: (table, their personal tokens, the spectator token)."""
    status, made = post_json(base, "/api/tables", TABLE)
    assert status == 201, made
    table = made["table"]
    tokens = []
    for i, name in ((0, "Ann"), (2, "Bo")):
        st, sat = post_json(base, f"/api/tables/{table}/sit", {"token": made["seats"][i]["token"], "name": name})
        assert st == 200, sat
        tokens.append(sat["token"])
    assert post_json(base, f"/api/tables/{table}/start", {"creator_token": made["creator_token"]})[0] == 200
    return table, tokens, made["spectate"].rsplit("/", 1)[1]


def _ramsli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full = dict(os.environ, PYTHONPATH=str(SRC), **(env or {}))
    return subprocess.run(
        [sys.executable, "-c", "from ramsli.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=scaled(120),
    )


def test_sigterm_during_play_loses_nothing(db_url, server_factory):
    server = server_factory(db_url)

    async def run():
        table, tokens, spectator = _seated(server.http)
        ann = await WSPlayer(server.ws, table, tokens[0]).start()
        bo = await WSPlayer(server.ws, table, tokens[1], lang="nl").start()
        watcher = await WSPlayer(server.ws, table, spectator).start()
        everyone = [ann, bo, watcher]
        await _play_until([ann, bo], _mid_trick)
        seq = json.loads(http_get(server.http, f"/api/tables/{table}")[1])["seq"]  # the table's latest
        for p in everyone:
            await p.wait(lambda p=p: p.view["seq"] == seq)
        before = [stable_view(p.view) for p in everyone]
        seen = [len(p.views) for p in everyone]
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(scaled(20)) is not None
        for p in everyone:  # each was told to reconnect before the process went
            await p.wait(lambda p=p: any(m["type"] == "reconnect" and m["reason"] == "draining" for m in p.messages))
        assert "drained: 1 tables let go" in server.log.read_text()
        server.start()
        for p, n in zip(everyone, seen):
            await p.wait(lambda p=p, n=n: len(p.views) > n)
        after = [stable_view(p.views[n]) for p, n in zip(everyone, seen)]
        assert after == before  # nothing lost: same cards, actions, counters and seq
        await _play_until([ann, bo], lambda v: v["status"] == "over", timeout=scaled(120))
        final = ann.view
        session = await engine_replay(db_url, table)
        assert session.is_over and [s["stack"] for s in final["seats"]] == session.stacks
        assert sum(session.stacks) + session.pot == 4 * 30  # R3.4
        for p in everyone:
            await p.close()

    asyncio.run(run())


def test_a_second_process_on_one_sqlite_file_is_refused(sqlite_url, tmp_path):
    first = ServerProcess(sqlite_url, tmp_path).start()
    try:
        second = ServerProcess(sqlite_url, tmp_path)
        with pytest.raises(RuntimeError) as e:
            second.start()
        assert "exited with 2" in str(e.value)
        assert "in use by another ramsli serve" in str(e.value) and "PostgreSQL" in str(e.value)
        assert str(first.proc.pid) in str(e.value)  # it names the process that has it
        assert http_get(first.http, "/readyz")[0] == 200  # the first one is untouched
    finally:
        first.stop()
    again = ServerProcess(sqlite_url, tmp_path).start()  # the lock went with the process
    again.stop()


def test_json_logs_one_line_per_request_without_tokens(sqlite_url, tmp_path):
    server = ServerProcess(sqlite_url, tmp_path, ["--log-format", "json"]).start()
    try:
        table, tokens, spectator = _seated(server.http)
        assert http_get(server.http, f"/t/{table}/s/{tokens[0]}")[0] == 200
        assert http_get(server.http, f"/api/tables/{table}/hands/1.toml?token={spectator}")[0] == 404
        assert http_get(server.http, "/nope")[0] == 404
    finally:
        server.stop()
    lines = [ln for ln in server.log.read_text().splitlines() if ln.strip()]
    records = []
    for ln in lines:
        if ln.startswith("ramsli table server at"):  # the one line for the person who started it
            continue
        records.append(json.loads(ln))  # every other line is JSON
    requests = [r for r in records if r["logger"] == "ramsli.access"]
    assert {"time", "level", "logger", "message", "method", "path", "status", "ms", "client"} <= set(requests[-1])
    paths = [r["path"] for r in requests]
    assert f"/t/{table}/s/…" in paths and "/nope" in paths
    assert any(
        r["path"].startswith(f"/api/tables/{table}/hands/1.toml?token=…") and r["status"] == 404 for r in requests
    )
    text = server.log.read_text()
    for secret in tokens + [spectator]:
        assert secret not in text
    assert any(r["logger"] == "ramsli.server" and "drained" in r["message"] for r in records)


def test_backup_while_the_server_writes(db_url, server_factory, tmp_path):
    server = server_factory(db_url)
    table, _tokens, _spectator = _seated(server.http)  # bots and deals keep writing meanwhile
    dest = tmp_path / ("copy.sqlite" if db_url.startswith("sqlite") else "copy.dump")
    done = _ramsli("backup", str(dest), "--database", db_url)
    if done.returncode != 0 and "pg_dump is not installed" in done.stderr:
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stderr
    assert str(dest) in done.stdout
    again = _ramsli("backup", str(dest), "--database", db_url)
    assert again.returncode == 2 and "exists already" in again.stderr  # never overwrites
    if db_url.startswith("sqlite"):
        con = sqlite3.connect(dest)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        restored = f"sqlite+aiosqlite:///{dest}"
    else:
        base = postgres_base()
        name = "ramsli_restored_" + secrets.token_hex(4)
        pg_admin(base, f"CREATE DATABASE {name}")
        try:
            dsn = base.replace("postgresql+asyncpg://", "postgresql://").rsplit("/", 1)[0] + "/" + name
            r = subprocess.run(["pg_restore", "--no-owner", "-d", dsn, str(dest)], capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
            restored = base.rsplit("/", 1)[0] + "/" + name
            session = asyncio.run(engine_replay(restored, table))
            assert session is not None and sum(session.stacks) + session.pot == 4 * 30
        finally:
            pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        return
    session = asyncio.run(engine_replay(restored, table))
    assert session is not None and sum(session.stacks) + session.pot == 4 * 30  # a whole table, R3.4
    missing = _ramsli("backup", str(tmp_path / "x.sqlite"), "--database", f"sqlite+aiosqlite:///{tmp_path}/no.sqlite")
    assert missing.returncode == 2 and "not an SQLite file" in missing.stderr


def test_websocket_keepalive_through_nginx(sqlite_url, tmp_path):
    """nginx cuts a proxied connection idle for ``proxy_read_timeout`` (60 s in the documented
    settings, 3 s here): the server's pings (every second here, 20 s by default) keep a quiet table
    open; with pings rarer than the cut it is closed."""
    snippet = (ROOT / "deploy" / "nginx" / "ramsli-proxy.conf").read_text()
    assert "proxy_read_timeout 60s;" in snippet
    short = tmp_path / "proxy-3s.conf"
    short.write_text(snippet.replace("proxy_read_timeout 60s;", "proxy_read_timeout 3s;"))
    pinging = ServerProcess(sqlite_url, tmp_path, ["--ws-ping-seconds", "1"])
    quiet = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/quiet.sqlite", tmp_path, ["--ws-ping-seconds", "30"])
    a, b = free_port(), free_port()
    conf = (
        "map $http_upgrade $connection_upgrade { default upgrade; '' close; }\n"
        f"server {{ listen 127.0.0.1:{a}; location / {{ include {short}; proxy_pass http://127.0.0.1:{pinging.port}; }} }}\n"
        f"server {{ listen 127.0.0.1:{b}; location / {{ include {short}; proxy_pass http://127.0.0.1:{quiet.port}; }} }}\n"
    )
    nginx = ProxyProcess("nginx", conf, tmp_path / "nginx")
    try:
        pinging.start()
        quiet.start()
        nginx.wait_for(f"http://127.0.0.1:{a}/healthz")
        nginx.wait_for(f"http://127.0.0.1:{b}/healthz")

        async def idle(port: int, server) -> tuple[bool, int | None]:
            import websockets

            # the table is made on the server itself: through the proxy a busy machine may take longer
            # than the 3 s cut to answer (a 504), which is not what this test is about
            status, made = post_json(f"http://127.0.0.1:{server.port}", "/api/tables", TABLE)
            assert status == 201, made
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{made['table']}", ping_interval=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": made["spectate"].rsplit("/", 1)[1]}))
                while json.loads(await ws.recv())["type"] != "view":
                    pass
                try:
                    async with asyncio.timeout(8):  # nobody sends anything: a table waiting for its start
                        await ws.recv()
                except TimeoutError:
                    pass
                except websockets.exceptions.ConnectionClosed:
                    return False, ws.close_code
                await ws.send(json.dumps({"type": "ping"}))
                return json.loads(await ws.recv())["type"] == "pong", None

        async def both():
            return await asyncio.gather(idle(a, pinging), idle(b, quiet))

        (kept, _), (cut, _code) = asyncio.run(both())
        assert kept, "the server's pings did not keep the connection open through nginx"
        assert not cut, "nginx did not cut the idle connection: the test proves nothing"
    finally:
        nginx.stop()
        pinging.stop()
        quiet.stop()


def test_the_documented_caddyfile_serves_a_hand(sqlite_url, tmp_path):
    server = ServerProcess(sqlite_url, tmp_path, ["--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"])
    port = free_port()
    caddy = ProxyProcess(
        "caddy",
        (ROOT / "deploy" / "Caddyfile").read_text(),
        tmp_path / "caddy",
        env={
            "RAMSLI_DOMAIN": f"http://127.0.0.1:{port}",
            "RAMSLI_UPSTREAM": "127.0.0.1",
            "RAMSLI_PORT": str(server.port),
        },
    )
    try:
        server.start()
        base = f"http://127.0.0.1:{port}"
        caddy.wait_for(base + "/healthz")
        deadline = asyncio.run(_until_ready(base))
        assert deadline
        assert http_get(base, "/metrics")[0] == 404  # kept inside
        assert http_get(server.http, "/metrics")[0] == 200

        async def one_hand():
            table, tokens, _ = _seated(base)
            ann = await WSPlayer(f"ws://127.0.0.1:{port}", table, tokens[0]).start()
            bo = await WSPlayer(f"ws://127.0.0.1:{port}", table, tokens[1]).start()
            await _play_until([ann, bo], lambda v: bool(v["results"]), timeout=scaled(60))
            assert ann.view["results"][0]["hand"] == 1
            await ann.close()
            await bo.close()

        asyncio.run(one_hand())
    finally:
        caddy.stop()
        server.stop()


async def _until_ready(base: str) -> bool:
    """Caddy's health check has found the process (``/readyz`` through Caddy answers 200)."""
    for _ in range(int(scaled(100))):
        if http_get(base, "/readyz")[0] == 200:
            return True
        await asyncio.sleep(0.1)
    return False
