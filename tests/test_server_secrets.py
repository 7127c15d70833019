"""A database URL's password never reaches a terminal or a log (issue 37.4).

``ramsli serve`` and ``ramsli backup`` name the database in their banner, their refusals and the
store's errors; the server's log lines pass through one scrubbing formatter. Each is started here
with a password-bearing URL (a database that cannot be reached, a scheme that is not supported, the
URL from ``RAMSLI_DATABASE``, and a live PostgreSQL database with ``--log-format json``) and its whole
output is searched for the password.
"""

from __future__ import annotations

import io
import logging
import os
import secrets
import subprocess
import sys

import pytest

from helpers import SRC, ServerProcess, free_port, http_get, pg_admin, post_json, postgres_base, scaled

PASSWORD = "Pw-4t7Xq9Zk"  # a password nothing else prints


def _ramsli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = dict(os.environ, PYTHONPATH=str(SRC))
    full.pop("RAMSLI_DATABASE", None)
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-c", "from ramsli.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=scaled(120),
    )


def _closed_port() -> int:
    return free_port()  # nothing listens there: the connection is refused


def test_serve_does_not_print_the_password_of_a_database_it_cannot_open():
    url = f"postgresql+asyncpg://ramsli:{PASSWORD}@127.0.0.1:{_closed_port()}/ramsli"
    done = _ramsli("serve", "--port", str(free_port()), "--database", url)
    assert done.returncode == 2, done.stderr
    out = done.stdout + done.stderr
    assert "Cannot open" in out and "ramsli:***@127.0.0.1" in out  # the database is still named
    assert PASSWORD not in out


def test_an_unsupported_url_is_refused_without_its_password():
    done = _ramsli("serve", "--port", str(free_port()), "--database", f"postgres://ramsli:{PASSWORD}@db/ramsli")
    assert done.returncode == 2
    assert "is not supported" in done.stderr and "postgres://ramsli:***@db/ramsli" in done.stderr
    assert PASSWORD not in done.stdout + done.stderr


def test_backup_does_not_print_the_password(tmp_path):
    url = f"postgresql+asyncpg://ramsli:{PASSWORD}@127.0.0.1:{_closed_port()}/ramsli"
    for args, env in (
        (["--database", url], None),
        ([], {"RAMSLI_DATABASE": url}),  # the URL from the environment, as the systemd unit sets it
        (["--database", url.replace(f":{PASSWORD}@", "@") + f"?password={PASSWORD}"], None),  # libpq's form
    ):
        done = _ramsli("backup", str(tmp_path / "copy.dump"), *args, env=env)
        assert done.returncode == 2, done.stderr
        out = done.stdout + done.stderr
        assert "127.0.0.1" in out  # it says which database
        assert PASSWORD not in out, out


def test_log_lines_are_scrubbed():
    """Whatever a log record carries (a message, its arguments, a traceback), the handler
    ``configure_logging`` installs prints it without the password, in both formats."""
    from ramsli.server.ops.guards import configure_logging

    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        for fmt in ("text", "json"):
            stream = io.StringIO()
            configure_logging(fmt)
            root.handlers[0].setStream(stream)  # type: ignore[attr-defined]
            log = logging.getLogger("ramsli.server")
            log.error("cannot reach %s", f"postgresql+asyncpg://u:{PASSWORD}@h/d")
            try:
                raise ConnectionError(f"postgresql://u:{PASSWORD}@h:5432/d refused")
            except ConnectionError:
                log.exception("lock connection")
            text = stream.getvalue()
            assert "u:***@h/d" in text and "lock connection" in text, text
            assert PASSWORD not in text, text
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_a_running_server_on_a_password_url_never_logs_it(tmp_path):
    """``ramsli serve --log-format json`` on PostgreSQL with a password in its URL: its banner and
    every log line (start-up, requests, drain) name the database without the password."""
    base = postgres_base()  # trust authentication on the test cluster: the password is not checked
    name = "ramsli_secrets_" + secrets.token_hex(5)
    pg_admin(base, f"CREATE DATABASE {name}")
    scheme, rest = base.rsplit("/", 1)[0].split("://", 1)
    user, host = rest.split("@", 1)
    url = f"{scheme}://{user.split(':')[0]}:{PASSWORD}@{host}/{name}"
    server = ServerProcess(url, tmp_path, ["--log-format", "json"])
    try:
        server.start()
        status, made = post_json(server.http, "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert status == 201, made
        assert http_get(server.http, "/readyz")[0] == 200
    finally:
        server.stop()
        pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    text = server.log.read_text()
    assert "ramsli table server at" in text and ":***@" in text  # the banner names the database
    assert PASSWORD not in text


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql+asyncpg://ramsli:a%40b@db:5432/ramsli", "postgresql+asyncpg://ramsli:***@db:5432/ramsli"),
        ("postgresql+asyncpg://ramsli@db/ramsli", "postgresql+asyncpg://ramsli@db/ramsli"),
        ("postgresql+asyncpg://db/ramsli?user=r&password=pw", "postgresql+asyncpg://db/ramsli?user=r&password=***"),
        ("sqlite+aiosqlite:////var/lib/ramsli/a@b.sqlite", "sqlite+aiosqlite:////var/lib/ramsli/a@b.sqlite"),
    ],
)
def test_masked(url, shown):
    from ramsli.server.storage.urls import masked

    assert masked(url) == shown
