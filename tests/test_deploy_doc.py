"""``docs/deploy.md`` as a person follows it (issue 37.5): every command is run here or marked.

Every ```sh block of the document stands right after a marker: ``<!-- run by:
tests/FILE.py::TEST -->`` (that test exists and runs the block) or ``<!-- not run: reason -->``.
The blocks run here are taken from the document itself, with the machine's paths replaced by a
temporary folder's (each replaced text must be in the block, so a changed document fails here):

- Caddy's ``caddy validate`` and ``nginx -t`` on the documented files (and each refuses a broken one);
- the systemd unit, with ``systemd-analyze verify``;
- the PostgreSQL backup (``ramsli backup`` over the Unix socket URL of the unit, the two weeks'
  clean-up) and the restore (``pg_restore``) with the server on that URL;
- the SQLite backup while the server runs, the admin listing with ``curl``, and the restore of the
  copy after the server was killed (its write-ahead log of later writes is removed, as the block does);
- Caddy for ``ramsli.localhost`` from its internal authority, checked against the root certificate
  at the path the document names.

PostgreSQL, nginx, Caddy, curl and systemd-analyze are on the CI machine (``CI=true``: these run);
locally a test skips when one is missing.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from helpers import (
    ADMIN_TOKEN,
    CADDY,
    NGINX,
    ROOT,
    SRC,
    ProxyProcess,
    ServerProcess,
    engine_replay,
    free_port,
    need_tool,
    pg_admin,
    post_json,
    postgres_base,
    scaled,
    self_signed,
    wait_until,
)

DOC = ROOT / "docs" / "deploy.md"
HERE = "tests/test_deploy_doc.py"
_MARKER = re.compile(r"^<!-- (run by: (?P<test>tests/\w+\.py::\w+)(?: .*)?|not run: (?P<why>.+)) -->$")


def sh_blocks() -> list[tuple[str, str]]:
    """Every ```sh block of deploy.md: (the marker line right before it, the block's text)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.strip() == "```sh":
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            end = lines.index("```", i + 1)
            out.append((lines[j].strip() if j >= 0 else "", "\n".join(lines[i + 1 : end]) + "\n"))
    return out


def block(containing: str, test: str) -> str:
    """The one sh block holding ``containing``, which must be marked as run by ``test`` of this file."""
    found = [(m, text) for m, text in sh_blocks() if containing in text]
    assert len(found) == 1, (containing, len(found))
    marker, text = found[0]
    assert marker.startswith(f"<!-- run by: {HERE}::{test}"), (containing, marker)
    return text


def substituted(text: str, replace: dict[str, str]) -> str:
    """``text`` with each key replaced (each must be in it: the test runs the document, not a copy)."""
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def bash(script: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``script`` with ``bash -e`` (every line must succeed)."""
    full = dict(os.environ, **(env or {}))
    return subprocess.run(
        ["bash", "-e", "-c", script], capture_output=True, text=True, env=full, cwd=cwd, timeout=scaled(120)
    )


def ramsli_shim(folder: Path) -> Path:
    """An executable ``ramsli`` (the venv's entry point) running this checkout's sources."""
    path = folder / "ramsli"
    path.write_text(
        f'#!/bin/sh\nPYTHONPATH={SRC} exec {sys.executable} -c "from ramsli.cli import main; main()" "$@"\n'
    )
    path.chmod(0o755)
    return path


# -- the document itself ---------------------------------------------------------------------------


def test_every_sh_block_is_run_by_a_test_or_marked_not_run():
    blocks = sh_blocks()
    assert len(blocks) >= 10
    for marker, text in blocks:
        m = _MARKER.match(marker)
        assert m, f"a ```sh block without a marker before it: {text.splitlines()[0]!r} (marker line {marker!r})"
        if m["test"]:
            file, name = m["test"].split("::")
            assert (ROOT / file).is_file(), m["test"]
            assert f"def {name}(" in (ROOT / file).read_text(encoding="utf-8"), m["test"]
        else:
            assert len(m["why"].strip()) > 10, marker  # a reason, not a shrug
    run_here = {m["test"].split("::")[1] for m, _ in ((_MARKER.match(k), t) for k, t in blocks) if m and m["test"]}
    assert {
        "test_caddy_validate_and_nginx_t",
        "test_postgresql_backup_and_restore_as_documented",
        "test_sqlite_backup_and_restore_as_documented",
    } <= run_here


def test_the_document_names_no_package_index_install_and_a_restore_for_each_setup():
    text = DOC.read_text(encoding="utf-8")
    assert "pip install 'ramsli[postgres]'" not in text and "pip install -U 'ramsli" not in text  # not on an index
    assert "docker compose exec -T db pg_restore" in text and " -U ramsli " in text  # the container's restore
    assert "--scale ramsli=2" in re.search(r"## Upgrades.*?## Operating it", text, re.S).group(0)
    assert "ramsli.localhost" in text and "pki/authorities/local/root.crt" in text


# -- proxies and systemd ------------------------------------------------------------------------


def test_caddy_validate_and_nginx_t(tmp_path):
    caddy_line = block("caddy validate", "test_caddy_validate_and_nginx_t").strip()
    need_tool(CADDY, "Caddy", "apt-get install caddy")
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    run = substituted(caddy_line, {"sudo ": "", "/etc/caddy/Caddyfile": str(ROOT / "deploy" / "Caddyfile")})
    done = bash(run, env)
    assert done.returncode == 0 and "Valid configuration" in done.stdout + done.stderr, done.stderr[-2000:]
    broken = tmp_path / "Caddyfile"
    broken.write_text((ROOT / "deploy" / "Caddyfile").read_text().replace("lb_try_duration 5s", "lb_try_duration five"))
    assert bash(run.replace(str(ROOT / "deploy" / "Caddyfile"), str(broken)), env).returncode != 0  # it checks

    nginx_line = block("nginx -t", "test_caddy_validate_and_nginx_t").strip()
    need_tool(NGINX, "nginx", "apt-get install nginx")
    cert, key = self_signed(tmp_path)
    etc = tmp_path / "etc" / "nginx"
    (etc / "conf.d").mkdir(parents=True)
    (etc / "snippets").mkdir()
    site = (ROOT / "deploy" / "nginx" / "ramsli.conf").read_text()
    upstream = re.search(r"upstream ramsli \{(.*?)\}", site, re.S).group(1)
    servers = [ln.strip() for ln in upstream.splitlines() if ln.strip().startswith("server ")]
    assert servers and all("max_fails=0" in s for s in servers), servers  # issue 37.1: never marked failed
    site = substituted(
        site,
        {
            "/etc/letsencrypt/live/ramsli.example.org/fullchain.pem": str(cert),
            "/etc/letsencrypt/live/ramsli.example.org/privkey.pem": str(key),
            "/etc/nginx/snippets/": f"{etc}/snippets/",
        },
    )
    (etc / "conf.d" / "ramsli.conf").write_text(site)
    (etc / "snippets" / "ramsli-proxy.conf").write_text((ROOT / "deploy" / "nginx" / "ramsli-proxy.conf").read_text())
    main = etc / "nginx.conf"
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  include {etc}/conf.d/*.conf;\n}}\n"
    )
    first = nginx_line.split("&&")[0].strip()  # the reload is not run
    run = substituted(first, {"sudo nginx": f"{NGINX} -e stderr -p {tmp_path} -c {main}"})
    done = bash(run)
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr[-2000:]
    (etc / "conf.d" / "ramsli.conf").write_text(site.replace("max_fails=0", "max_fails=none"))
    assert bash(run).returncode != 0  # it checks


def test_the_systemd_unit_verifies(tmp_path):
    analyze = need_tool("/usr/bin/systemd-analyze", "systemd-analyze", "apt-get install systemd")
    unit = re.search(r"```ini\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    assert "ramsli@/ramsli?host=/var/run/postgresql" in unit  # peer authentication over the socket
    entry = Path(sys.executable).parent / "ramsli"
    if not entry.exists():
        entry = ramsli_shim(tmp_path)
    path = tmp_path / "ramsli@8000.service"
    path.write_text(substituted(unit, {"/var/lib/ramsli/venv/bin/ramsli": str(entry)}))
    done = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


# -- backups and restores -------------------------------------------------------------------------


def _old_and_recent(folder: Path, suffix: str) -> tuple[Path, Path]:
    """Two earlier backups in ``folder``: one 20 days old (to go) and one 10 days old (to stay)."""
    old, recent = folder / f"ramsli-2000-01-01{suffix}", folder / f"ramsli-2000-01-11{suffix}"
    for f, days in ((old, 20), (recent, 10)):
        f.write_bytes(b"x")
        t = time.time() - days * 86400
        os.utime(f, (t, t))
    return old, recent


def _table(base: str, seed: int) -> str:
    status, made = post_json(
        base,
        "/api/tables",
        {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], "seed": seed, "bot_pace_seconds": 0},
    )
    assert status == 201, made
    token = made["seats"][0]["token"]
    assert post_json(base, f"/api/tables/{made['table']}/sit", {"token": token, "name": "Ann"})[0] == 200
    assert post_json(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})[0] == 200
    return made["table"]


async def _ids(url: str) -> set[str]:
    from ramsli.server.storage.eventstore import EventStore

    store = await EventStore.open(url)
    try:
        return {r["id"] for r in await store.load()}
    finally:
        await store.close()


def _socket_of(base: str) -> tuple[str, str]:
    """The test cluster's Unix socket folder and port."""
    import asyncpg

    async def ask():
        conn = await asyncpg.connect(base.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            folder = (await conn.fetchval("SHOW unix_socket_directories")).split(",")[0].strip()
            return folder, await conn.fetchval("SHOW port")
        finally:
            await conn.close()

    return asyncio.run(ask())


def test_postgresql_backup_and_restore_as_documented(tmp_path):
    backup = block("ramsli backup --database 'postgresql", "test_postgresql_backup_and_restore_as_documented")
    restore = block("sudo -u ramsli pg_restore", "test_postgresql_backup_and_restore_as_documented")
    base = postgres_base()
    folder, port = _socket_of(base)
    user = base.split("://", 1)[1].split("@", 1)[0].split(":")[0]
    name = "ramsli_doc_" + secrets.token_hex(5)
    pg_admin(base, f"CREATE DATABASE {name}")
    socket_url = f"postgresql+asyncpg://{user}@/{name}?host={folder}&port={port}"  # the unit's URL form
    backups = tmp_path / "backups"
    backups.mkdir()
    old, recent = _old_and_recent(backups, ".dump")
    shim = ramsli_shim(tmp_path)
    server = ServerProcess(socket_url, tmp_path)
    try:
        server.start()  # ramsli serve on the socket URL, as the systemd unit starts it
        kept = _table(server.http, 1)
        run = substituted(
            backup,
            {
                "sudo -u ramsli /var/lib/ramsli/venv/bin/ramsli": str(shim),
                "ramsli@/ramsli?host=/var/run/postgresql": f"{user}@/{name}?host={folder}&port={port}",
                "/var/backups/ramsli": str(backups),
            },
        )
        done = bash(run)
        if "pg_dump is not installed" in done.stderr:
            pytest.skip(done.stderr.strip())
        assert done.returncode == 0, done.stderr
        dump = backups / f"ramsli-{date.today():%Y-%m-%d}.dump"
        assert dump.stat().st_size > 0 and str(dump) in done.stdout
        assert not old.exists() and recent.exists()  # two weeks kept, the older removed
        lost = _table(server.http, 2)  # after the backup: not in it
    finally:
        server.stop()  # the servers are stopped for a restore
    try:
        run = substituted(
            restore,
            {
                "sudo -u ramsli pg_restore": "pg_restore",
                "ramsli@/ramsli?host=/var/run/postgresql": f"{user}@/{name}?host={folder}&port={port}",
                "/var/backups/ramsli/ramsli-2026-12-01.dump": str(dump),
            },
        )
        done = bash(run)
        assert done.returncode == 0, done.stderr
        ids = asyncio.run(_ids(socket_url))
        assert kept in ids and lost not in ids, ids  # the database as it was at the backup
        session = asyncio.run(engine_replay(socket_url, kept))
        assert session is not None and sum(session.stacks) + session.pot == 3 * 20  # R3.4
    finally:
        pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_sqlite_backup_and_restore_as_documented(tmp_path):
    backup = block(
        "ramsli backup /var/backups/ramsli/ramsli-$(date +%F).sqlite", "test_sqlite_backup_and_restore_as_documented"
    )
    restore = block("server.sqlite-wal", "test_sqlite_backup_and_restore_as_documented")
    listing = block("/admin/tables", "test_sqlite_backup_and_restore_as_documented")
    need_tool("/usr/bin/curl", "curl", "apt-get install curl")
    data = tmp_path / "share"  # XDG_DATA_HOME: ramsli's default database is data/ramsli/server.sqlite
    (data / "ramsli").mkdir(parents=True)
    env = {"XDG_DATA_HOME": str(data), "RAMSLI_ADMIN_TOKEN": ADMIN_TOKEN}
    live = data / "ramsli" / "server.sqlite"
    url = f"sqlite+aiosqlite:///{live}"
    backups = tmp_path / "backups"
    backups.mkdir()
    old, recent = _old_and_recent(backups, ".sqlite")
    shim = ramsli_shim(tmp_path)
    server = ServerProcess(url, tmp_path)
    try:
        server.start()
        kept = _table(server.http, 3)
        run = substituted(
            backup, {"sudo -u ramsli /var/lib/ramsli/venv/bin/ramsli": str(shim), "/var/backups/ramsli": str(backups)}
        )
        done = bash(run, dict(env, RAMSLI_DATABASE=""))
        assert done.returncode == 0, done.stderr
        copy = backups / f"ramsli-{date.today():%Y-%m-%d}.sqlite"
        assert sqlite3.connect(copy).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert not old.exists() and recent.exists()
        # the admin listing of "Operating it", against this server
        done = bash(substituted(listing, {"https://ramsli.example.org": server.http}), env)
        assert done.returncode == 0, done.stderr
        assert kept in [t["id"] for t in json.loads(done.stdout)["tables"]]
        lost = _table(server.http, 4)  # after the backup: in the live file's write-ahead log
    finally:
        server.proc.send_signal(signal.SIGKILL)  # a crash: the write-ahead log stays beside the file
        server.proc.wait(scaled(10))
    run = substituted(
        restore,
        {
            "/var/lib/ramsli/.local/share/ramsli": str(data / "ramsli"),
            "sudo -u ramsli cp": "cp",
            "sudo rm": "rm",
            "/var/backups/ramsli/ramsli-2026-12-01.sqlite": str(copy),
        },
    )
    done = bash(run)
    assert done.returncode == 0, done.stderr
    ids = asyncio.run(_ids(url))
    assert kept in ids and lost not in ids, ids  # the copy, not the old log replayed onto it
    again = ServerProcess(url, tmp_path).start()
    try:
        session = asyncio.run(engine_replay(url, kept))
        assert session is not None and sum(session.stacks) + session.pot == 3 * 20  # R3.4
    finally:
        again.stop()


def test_caddy_serves_localhost_from_its_internal_authority(sqlite_url, tmp_path):
    """``RAMSLI_DOMAIN=ramsli.localhost`` (here with a port of its own): Caddy serves it over HTTPS
    from its internal authority, whose root certificate is where the document says
    (``$XDG_DATA_HOME/caddy/pki/authorities/local/root.crt``; ``/data`` in the container)."""
    text = DOC.read_text(encoding="utf-8")
    assert "/data/caddy/pki/authorities/local/root.crt" in text
    need_tool("/usr/bin/curl", "curl", "apt-get install curl")
    server = ServerProcess(sqlite_url, tmp_path, ["--trusted-proxy", "127.0.0.1"])
    port = free_port()
    # global options: the root is not installed in this machine's trust store, plain HTTP elsewhere
    caddyfile = (
        f"{{\n\tskip_install_trust\n\thttp_port {free_port()}\n}}\n" + (ROOT / "deploy" / "Caddyfile").read_text()
    )
    caddy = ProxyProcess(
        "caddy",
        caddyfile,
        tmp_path / "caddy",
        env={
            "RAMSLI_DOMAIN": f"ramsli.localhost:{port}",
            "RAMSLI_UPSTREAM": "127.0.0.1",
            "RAMSLI_PORT": str(server.port),
        },
    )
    try:
        server.start()
        root = tmp_path / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        wait_until(root.exists, timeout=30, what="Caddy's internal root certificate")
        line = next(ln for _m, t in sh_blocks() for ln in t.splitlines() if ln.startswith("curl --cacert caddy-root"))
        run = substituted(
            line,
            {
                "curl ": "curl -fsS --max-time 5 ",
                "caddy-root.crt": str(root),
                "https://ramsli.localhost/": f"--resolve ramsli.localhost:{port}:127.0.0.1 https://ramsli.localhost:{port}/",
            },
        )
        done = wait_until(lambda: (d := bash(run)).returncode == 0 and d, timeout=30, what="HTTPS through Caddy")
        assert "process" in json.loads(done.stdout)  # ramsli's /healthz, over TLS checked against the root
    finally:
        caddy.stop()
        server.stop()
