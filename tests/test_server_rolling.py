"""The rolling upgrade of ``docs/deploy.md`` through the documented proxies, with 16 players (issue 37.1).

Two ``ramsli serve`` processes on one PostgreSQL database behind the documented nginx site
(``deploy/nginx/ramsli.conf`` with ``ramsli-proxy.conf``) or the documented Caddyfile (with the two
processes listed, as deploy.md says for more than one process). Four tables of four people and a
bot each, every person a WebSocket client through the proxy that reconnects by itself as the page
does. Then the documented sequence: SIGTERM the first process, start it again, SIGTERM the second.
After each step every one of the 16 players is back (a fresh view) and every table plays on (its
people's actions are accepted), within a scaled time-out; and the proxy never answered "no live
upstreams" while a process was up. The nginx site used to mark the restarted process failed
for as long as a WebSocket it had let through as a probe stayed open (``max_fails=1``): after the
second SIGTERM players came back one every ``fail_timeout``, half of them not within a minute.

Runs under ``CI=true`` (PostgreSQL, nginx, Caddy); locally it skips without them.
"""

from __future__ import annotations

import asyncio
import re
import signal

import pytest
from test_server_cluster import PREFIX, extra_listeners, nginx_site
from test_server_e2e import _play_until

from helpers import (
    ROOT,
    ProxyProcess,
    ServerProcess,
    WSPlayer,
    free_port,
    http_get,
    pg_admin,
    post_json,
    postgres_base,
    scaled,
    self_signed,
)

TABLES = 4
PEOPLE = 4  # a table: four people and a bot; 16 players in all


@pytest.fixture
def pg_database():
    """A fresh PostgreSQL database on the test cluster; dropped afterwards."""
    import secrets

    base = postgres_base()
    name = "ramsli_rolling_" + secrets.token_hex(5)
    pg_admin(base, f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def caddy_site(upstreams: list[int], port: int) -> tuple[str, dict[str, str]]:
    """``deploy/Caddyfile`` with the two processes listed instead of the ``dynamic a`` block
    (docs/deploy.md, "Caddy": "For more than one process list them instead"), and its environment."""
    text = (ROOT / "deploy" / "Caddyfile").read_text()
    block = re.search(r"\n(\t+)dynamic a \{.*?\n\1\}\n", text, re.S)
    assert block is not None, "the Caddyfile's dynamic a block"
    listed = " ".join(f"127.0.0.1:{p}" for p in upstreams)
    text = text.replace("reverse_proxy {" + block.group(0), "reverse_proxy " + listed + " {\n")
    assert "dynamic a" not in text
    return text, {"RAMSLI_DOMAIN": f"http://127.0.0.1:{port}"}


def _make_tables(processes: list[ServerProcess]) -> list[tuple[str, list[str]]]:
    """Four started tables, made alternately through each process: (table, its people's tokens)."""
    made_tables = []
    for i in range(TABLES):
        base = processes[i % 2].http
        status, made = post_json(
            base,
            "/api/tables",
            {
                "preset": "traditional",
                "rules": ["end=hands:60", "starting_stack=200"],
                "seats": [{"kind": "human"}] * PEOPLE + [{"kind": "bot", "bot": "rules"}],
                "bot_pace_seconds": 0,
                "hand_pause_seconds": 0.2,
                "seed": 100 + i,
            },
        )
        assert status == 201, made
        table, tokens = made["table"], []
        for s in range(PEOPLE):
            st, sat = post_json(base, f"/api/tables/{table}/sit", {"token": made["seats"][s]["token"], "name": f"P{s}"})
            assert st == 200, sat
            tokens.append(sat["token"])
        st, started = post_json(base, f"/api/tables/{table}/start", {"creator_token": made["creator_token"]})
        assert st == 200 and started["status"] == "playing", started
        made_tables.append((table, tokens))
    return made_tables


async def _everyone_back_and_playing(tables: list[list[WSPlayer]], seen: list[list[int]] | None, step: str) -> None:
    """Each player has a view newer than ``seen`` (it reconnected; None: nobody had to), and then
    each table's seq moves on by three events with its people acting (the table plays)."""
    for players, counts in zip(tables, seen or []):
        for p, n in zip(players, counts):
            try:
                await p.wait(lambda p=p, n=n: len(p.views) > n, timeout=scaled(20))
            except AssertionError:
                back = sum(len(q.views) > m for ps, ms in zip(tables, seen) for q, m in zip(ps, ms))
                raise AssertionError(f"after {step}: {back} of {TABLES * PEOPLE} players back") from None
    for players in tables:
        target = max(p.view["seq"] for p in players) + 3
        await _play_until(players, lambda v, target=target: v["seq"] >= target, timeout=scaled(30))


def _no_live_upstreams(proxy: ProxyProcess) -> list[str]:
    text = proxy.log.read_text(errors="replace")
    return [ln for ln in text.splitlines() if "no live upstreams" in ln or "no upstreams available" in ln]


@pytest.mark.parametrize("kind", ["nginx", "caddy"])
def test_rolling_restart_brings_every_player_back(kind, pg_database, tmp_path):
    args = ["--path-prefix", PREFIX, "--trusted-proxy", "127.0.0.1", "--create-limit", "0"]
    if kind == "caddy":
        args = ["--trusted-proxy", "127.0.0.1", "--create-limit", "0"]
    first = ServerProcess(pg_database, tmp_path, args)
    second = ServerProcess(pg_database, tmp_path, args)
    port = free_port()
    if kind == "nginx":
        cert, key = self_signed(tmp_path)
        conf = nginx_site([first.port, second.port], free_port(), free_port(), cert, key)
        conf += extra_listeners(port, free_port(), second.port)
        proxy = ProxyProcess("nginx", conf, tmp_path / "nginx")
        base = f"127.0.0.1:{port}{PREFIX}"
    else:
        text, env = caddy_site([first.port, second.port], port)
        proxy = ProxyProcess("caddy", text, tmp_path / "caddy", env=env)
        base = f"127.0.0.1:{port}"
    try:
        first.start()
        second.start()
        proxy.wait_for(f"http://{base}/healthz")
        asyncio.run(_rolling(first, second, base, proxy))
    finally:
        proxy.stop()
        first.stop()
        second.stop()


async def _rolling(first: ServerProcess, second: ServerProcess, base: str, proxy: ProxyProcess) -> None:
    made = _make_tables([first, second])
    tables = []
    for table, tokens in made:
        tables.append([await WSPlayer(f"ws://{base}", table, token).start() for token in tokens])
    everyone = [p for players in tables for p in players]
    assert len(everyone) == 16
    try:
        await _everyone_back_and_playing(tables, [[0] * PEOPLE] * TABLES, "the start")

        def snapshot() -> list[list[int]]:
            return [[len(p.views) for p in players] for players in tables]

        # 1. stop the first process (it drains: its tables go to the second)
        seen = snapshot()
        first.proc.send_signal(signal.SIGTERM)
        assert first.proc.wait(scaled(20)) is not None
        await _everyone_back_and_playing(tables, seen, "the first SIGTERM")
        assert not _no_live_upstreams(proxy), _no_live_upstreams(proxy)[:3]  # the second was up
        # 2. start it again (upgraded): ready on its own port
        first.start()
        await asyncio.to_thread(_ready, first)
        await _everyone_back_and_playing(tables, None, "the restart")  # nobody had to move
        # 3. stop the second: every table goes to the restarted first process
        seen = snapshot()
        second.proc.send_signal(signal.SIGTERM)
        assert second.proc.wait(scaled(20)) is not None
        t0 = asyncio.get_running_loop().time()
        await _everyone_back_and_playing(tables, seen, "the second SIGTERM")
        took = asyncio.get_running_loop().time() - t0
        assert not _no_live_upstreams(proxy), (f"{took:.1f} s", _no_live_upstreams(proxy)[:3])  # the first was up
        assert http_get(first.http, "/readyz")[0] == 200
    finally:
        for p in everyone:
            await p.close()


def _ready(server: ServerProcess) -> None:
    from helpers import wait_until

    wait_until(lambda: http_get(server.http, "/readyz")[0] == 200, timeout=20, what="the restarted process ready")
