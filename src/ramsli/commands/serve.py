"""``ramsli serve``: run the table server (issue 10) for friends' browsers.

Tables, invite links and the protocol are in ``docs/protocol.md``; running,
storage and crash safety in ``docs/server.md``. Exit status 2 for a bad option
(a database URL that is not SQLite or PostgreSQL, a port outside 1..65535, a port another
program already listens on, a database that cannot be opened or is damaged, or an ``--allow-bot``
that names no installed package's bot: checked before anything is announced, one line naming it).

The bots of installed packages (``docs/bots.md``) are seated at a new table only if the operator
names each with ``--allow-bot NAME``: a package is code the server runs.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import threading
import webbrowser
from typing import Annotated

import typer

from ramsli.bots.base import package_bots
from ramsli.commands import fail

__all__ = ["register", "serve"]


def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on; 127.0.0.1 keeps the server to this machine, 0.0.0.0 opens it to your network.",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port, 1..65535.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            help="sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER@HOST:PORT/DB; "
            "default: server.sqlite in your data folder.",
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open", metavar="", help="Open the server's page in your browser.")
    ] = False,
    allow_test_seeds: Annotated[
        bool,
        typer.Option(
            "--allow-test-seeds",
            metavar="",
            help="Accept a seed when a table is created (tests only); such tables say "
            "test_seeded in every view. Without it every shuffle uses secrets.SystemRandom.",
        ),
    ] = False,
    allow_bot: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-bot",
            metavar="NAME",
            help="Let new tables seat the bot NAME of an installed package (docs/bots.md); repeatable. "
            "The built-in bots are always allowed.",
        ),
    ] = None,
    admin_token: Annotated[
        str | None,
        typer.Option(
            "--admin-token",
            metavar="TOKEN",
            envvar="RAMSLI_ADMIN_TOKEN",
            help="The token that lists every table (GET /api/tables with 'Authorization: Bearer TOKEN'); "
            "without it the list shows the tables open to anyone only. Also read from RAMSLI_ADMIN_TOKEN.",
        ),
    ] = None,
    calibration: Annotated[
        str | None,
        typer.Option(
            "--calibration",
            metavar="FILE",
            help="An arena result (ramsli arena --out FILE.json) giving the bots' first ratings "
            "(docs/clubs.md); default: the bundled duplicate sessions of the bot levels.",
        ),
    ] = None,
) -> None:
    """Run the table server: tables with invite links, bots in empty seats, nothing lost on a crash."""
    if not 1 <= port <= 65535:
        fail(f"--port {port} is not a TCP port; allowed are 1..65535")
    if database is not None and not (
        database.startswith("sqlite+aiosqlite://") or database.startswith("postgresql+asyncpg://")
    ):
        fail(
            f"--database {database!r} is not supported; allowed are sqlite+aiosqlite:///PATH and "
            "postgresql+asyncpg://USER@HOST:PORT/DB"
        )
    allowed = _check_allowed_bots(allow_bot or [])
    if admin_token is not None and len(admin_token) < 16:
        fail(
            "--admin-token must be at least 16 characters long (e.g. python -c 'import secrets; print(secrets.token_urlsafe())')"
        )
    if calibration is not None:
        from ramsli.server.ratings import load_calibration

        try:
            load_calibration(calibration)
        except (OSError, ValueError) as e:
            fail(f"--calibration: {e}")
    _check_port(host, port)
    import uvicorn

    from ramsli.server.app import WS_MAX_SIZE, create_app
    from ramsli.server.storage import StoreError, check_database, default_url

    url = database or default_url()
    try:  # a damaged database file is one clear line and exit status 2, not a traceback
        asyncio.run(check_database(url))
    except StoreError as e:
        fail(str(e))
    app = create_app(
        url, allow_test_seeds=allow_test_seeds, allowed_bots=allowed, admin_token=admin_token, calibration=calibration
    )
    address = f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    typer.echo(f"ramsli table server at {address}  (database {url.split('@')[-1]}; Ctrl-C to stop)")
    if open_browser:
        threading.Timer(1.0, _open, args=(address,)).start()
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_SIZE, log_level="warning")


def _check_allowed_bots(names: list[str]) -> list[str]:
    """The ``--allow-bot`` names, each checked to be an installed package's bot (else exit status 2)."""
    installed = package_bots()
    for name in names:
        if name.strip() not in installed:
            fail(
                f"--allow-bot {name!r} names no bot of an installed package; installed are "
                f"{', '.join(installed) if installed else 'none'} (the built-in bots need no --allow-bot)"
            )
    return [n.strip() for n in names]


def _check_port(host: str, port: int) -> None:
    """Exit with status 2 and a clear message if ``host:port`` cannot be listened on (e.g. another
    server has it), before anything is announced or opened."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            s.bind((host, port))
        except OSError as e:
            reason = "it is in use (is another ramsli serve running?)" if e.errno == errno.EADDRINUSE else e.strerror
            fail(
                f"cannot listen on {host}:{port}: {reason}; choose another port with --port, e.g. --port {port + 1}"
                if port < 65535
                else f"cannot listen on {host}:{port}: {reason}; choose another port with --port"
            )


def _open(address: str) -> None:
    """Open ``address`` in the browser, or say that no browser could be opened."""
    try:
        ok = webbrowser.open(address)
    except Exception:  # noqa: BLE001 - a broken browser setting is the same as none
        ok = False
    if not ok:
        typer.echo(f"no browser could be opened here; open {address} yourself", err=True)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``ramsli`` command."""
    app.command("serve")(serve)
