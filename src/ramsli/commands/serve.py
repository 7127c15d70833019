"""``ramsli serve``: run the table server for friends' browsers, alone or as one of several.

Tables, invite links and the protocol are in ``docs/protocol.md``; running,
storage and crash safety in ``docs/server.md``; putting it on the internet (a container, a
reverse proxy with TLS, several processes, backups) in ``docs/deploy.md``. Exit status 2 for a
bad option (a database URL that is not SQLite or PostgreSQL, a port outside 1..65535, a port
another program already listens on, a database that cannot be opened or is damaged, an SQLite
database another ``ramsli serve`` uses, an ``--allow-bot`` that names no installed package's
bot, an admin token file that cannot be read: checked before anything is announced, one line
naming it).

The bots of installed packages (``docs/bots.md``) are seated at a new table only if the operator
names each with ``--allow-bot NAME``: a package is code the server runs.

Slow and greedy clients are cut below the app (:mod:`ramsli.server.ops.connections`): a request
head, and then its body, must come whole within ``--header-timeout`` seconds (``408``), an idle keep-alive connection
closes after ``--idle-timeout`` seconds, and one client address holds at most
``--max-connections-per-address`` connections (``429``; ``docs/deploy.md``, *Opened to a pub's
network without a proxy*).

SIGTERM (and the first Ctrl-C) drains: no new table, the commits in flight finish, every client
is told to reconnect (with several processes another one runs the tables from then on), then
the process exits; a second signal exits at once.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
import os
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Annotated, Any

import typer

from ramsli.bots.base import package_bots
from ramsli.commands import fail
from ramsli.server.ops.connections import ConnectionLimits, guarded_h11
from ramsli.server.storage.urls import masked

__all__ = ["register", "serve", "GC_THRESHOLDS"]

#: the server process's :func:`gc.set_threshold`: a young collection every 10,000 new objects
#: (Python's default: 700), so the objects of a move and its views are gone before one runs and
#: only what lives for seconds (hands, tables) reaches the oldest generation, whose full
#: collections walk every table: 100-500 ms of a still event loop at 1,000 tables with Python's
#: default (docs/benchmarks.md)
GC_THRESHOLDS = (10_000, 10, 10)


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
            envvar="RAMSLI_DATABASE",
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
    path_prefix: Annotated[
        str,
        typer.Option(
            "--path-prefix",
            metavar="PATH",
            envvar="RAMSLI_PATH_PREFIX",
            help="Serve under this path, e.g. /ramsli behind a proxy that passes https://host/ramsli/ here.",
        ),
    ] = "",
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            metavar="ADDRESS",
            envvar="RAMSLI_TRUSTED_PROXIES",
            help="An address or network (127.0.0.1, 10.0.0.0/8) of a reverse proxy whose X-Forwarded-For "
            "and X-Forwarded-Proto are believed; repeatable (RAMSLI_TRUSTED_PROXIES: separated by spaces). "
            "Nobody's by default.",
        ),
    ] = None,
    admin_token_file: Annotated[
        Path | None,
        typer.Option(
            "--admin-token-file",
            metavar="FILE",
            help="A file holding the admin token of /admin/tables (or set RAMSLI_ADMIN_TOKEN).",
        ),
    ] = None,
    log_format: Annotated[
        str,
        typer.Option(
            "--log-format",
            metavar="FORMAT",
            envvar="RAMSLI_LOG_FORMAT",
            help="text (warnings only) or json (a line per request).",
        ),
    ] = "text",
    create_limit: Annotated[
        int,
        typer.Option(
            "--create-limit",
            metavar="N",
            envvar="RAMSLI_CREATE_LIMIT",
            help="New tables and ledgers a minute per client address; 0: no limit.",
        ),
    ] = 30,
    coach_limit: Annotated[
        int,
        typer.Option(
            "--coach-limit",
            metavar="N",
            envvar="RAMSLI_COACH_LIMIT",
            help="Requests a minute per client address to the coach (hint, reviews, training); 0: no limit.",
        ),
    ] = 300,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            metavar="SECONDS",
            envvar="RAMSLI_HEADER_TIMEOUT",
            help="A client must send a whole request head, and then its body, each within this long, "
            "else it is answered 408 and cut (slow clients hold connections open).",
        ),
    ] = 10.0,
    idle_timeout: Annotated[
        float,
        typer.Option(
            "--idle-timeout",
            metavar="SECONDS",
            envvar="RAMSLI_IDLE_TIMEOUT",
            help="A keep-alive connection with no request is closed after this long.",
        ),
    ] = 5.0,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            metavar="N",
            envvar="RAMSLI_MAX_CONNECTIONS_PER_ADDRESS",
            help="Open connections (WebSockets included) from one client address at once; more are "
            "answered 429. This machine (127.0.0.1, ::1) and trusted proxies are not limited. 0: no limit.",
        ),
    ] = 100,
    ws_ping_seconds: Annotated[
        float,
        typer.Option(
            "--ws-ping-seconds",
            metavar="SECONDS",
            help="WebSocket keepalive pings (under the 60 s idle cut of nginx and load balancers).",
        ),
    ] = 20.0,
    ws_compress: Annotated[
        bool,
        typer.Option(
            "--ws-compress",
            envvar="RAMSLI_WS_COMPRESS",
            help="Compress WebSocket messages (permessage-deflate): fewer bytes on the wire, but "
            "about 50 KiB of memory per connection (docs/benchmarks.md).",
        ),
    ] = False,
    advertise: Annotated[
        str | None,
        typer.Option(
            "--advertise",
            metavar="URL",
            envvar="RAMSLI_ADVERTISE",
            help="Where the other processes on the same PostgreSQL reach this one (http://10.0.0.5:8000); "
            "default http://HOST:PORT.",
        ),
    ] = None,
    drain_seconds: Annotated[
        float,
        typer.Option("--drain-seconds", metavar="SECONDS", help="At most this long to drain on SIGTERM."),
    ] = 10.0,
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
            f"--database {masked(database)!r} is not supported; allowed are sqlite+aiosqlite:///PATH and "
            "postgresql+asyncpg://USER@HOST:PORT/DB"
        )
    allowed = _check_allowed_bots(allow_bot or [])
    if log_format not in ("text", "json"):
        fail(f"--log-format {log_format!r} is not a format; allowed are text and json")
    if not 1.0 <= ws_ping_seconds <= 50.0:
        fail(f"--ws-ping-seconds {ws_ping_seconds:g} is outside 1..50 (proxies cut idle connections after 60 s)")
    if create_limit < 0:
        fail(f"--create-limit {create_limit} is negative; 0 turns the limit off")
    if coach_limit < 0:
        fail(f"--coach-limit {coach_limit} is negative; 0 turns the limit off")
    if not 0.5 <= header_timeout <= 300:
        fail(f"--header-timeout {header_timeout:g} is outside 0.5..300 seconds")
    if not 0.5 <= idle_timeout <= 3600:
        fail(f"--idle-timeout {idle_timeout:g} is outside 0.5..3600 seconds")
    if max_connections_per_address < 0:
        fail(f"--max-connections-per-address {max_connections_per_address} is negative; 0 turns the limit off")
    admin_token = _admin_token(admin_token_file)
    if calibration is not None:
        from ramsli.server.players.ratings import load_calibration

        try:
            load_calibration(calibration)
        except (OSError, ValueError) as e:
            fail(f"--calibration: {e}")
    _check_port(host, port)
    import uvicorn

    from ramsli.server.app import WS_MAX_SIZE, create_app
    from ramsli.server.cluster.ownership import SingleProcess
    from ramsli.server.coach.hints import lab_warm_up
    from ramsli.server.ops.guards import configure_logging
    from ramsli.server.storage.eventstore import StoreError, check_database, default_url

    url = database or default_url()
    ownership = None
    try:  # a damaged database file is one clear line and exit status 2, not a traceback
        if not url.startswith("postgresql"):  # one process per SQLite file: refused before it is read
            ownership = SingleProcess(url)
            asyncio.run(ownership.start())
        asyncio.run(check_database(url))
    except StoreError as e:
        fail(str(e), usage=False)  # the database, not how the command was called
    configure_logging(log_format)
    shown = host if ":" not in host else f"[{host}]"
    reach = advertise or f"http://{_reachable(host)}:{port}"
    app = create_app(
        url,
        allow_test_seeds=allow_test_seeds,
        allowed_bots=allowed,
        path_prefix=path_prefix,
        trusted_proxies=trusted_proxy or [],
        admin_token=admin_token,
        create_limit=create_limit,
        coach_limit=coach_limit,
        body_timeout=header_timeout,
        advertise=reach,
        ownership=ownership,
        calibration=calibration,
    )
    address = f"http://{shown}:{port}{app.state.prefix}/"
    typer.echo(f"ramsli table server at {address}  (database {masked(url)}; Ctrl-C to stop)")
    if open_browser:
        threading.Timer(1.0, _open, args=(address,)).start()
    limits = ConnectionLimits(
        header_timeout,
        max_connections_per_address,
        exempt=trusted_proxy or [],
        secret=lambda: _forward_secret(app),
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=ws_ping_seconds,
        ws_ping_timeout=ws_ping_seconds,
        ws_per_message_deflate=ws_compress,  # off by default: a deflate state per connection
        log_level="warning" if log_format == "text" else "info",
        log_config=None,
        access_log=False,  # uvicorn's would log every token in the paths; the app logs requests redacted
        proxy_headers=False,  # the app reads the trusted proxies' headers itself (--trusted-proxy)
        http=guarded_h11(limits),  # h11 with a request-head time-out and a limit per address
        h11_max_incomplete_event_size=16384,  # request line and headers: 16 KiB at most
        timeout_keep_alive=idle_timeout,  # type: ignore[arg-type]
        timeout_graceful_shutdown=int(max(1.0, drain_seconds)),
    )
    gc.collect()
    gc.freeze()  # the modules and the app, made once, left out of every collection
    # the lab's kernel loads in the background (the server answers meanwhile); its objects are
    # frozen too once it is loaded
    lab_warm_up().on_ready = gc.freeze
    gc.set_threshold(*GC_THRESHOLDS)
    draining_server(config, app, drain_seconds).run()


def _draining_server_class() -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server that drains the hub on the first SIGTERM or Ctrl-C (see the module's notes)."""

        def __init__(self, config: Any, app: Any, drain_seconds: float) -> None:
            super().__init__(config)
            self.app = app
            self.drain_seconds = drain_seconds
            self.loop: asyncio.AbstractEventLoop | None = None
            self.draining: asyncio.Task[None] | None = None

        async def startup(self, sockets: Any = None) -> None:
            self.loop = asyncio.get_running_loop()
            await super().startup(sockets=sockets)

        def handle_exit(self, sig: int, frame: Any) -> None:
            hub = getattr(self.app.state, "hub", None)
            if self.draining is not None or self.loop is None or hub is None or not self.started:
                super().handle_exit(sig, frame)
                return
            loop = self.loop
            loop.call_soon_threadsafe(self._begin, sig)

        def _begin(self, sig: int) -> None:
            if self.draining is None:
                self.draining = asyncio.get_running_loop().create_task(self._drain(sig))

        async def _drain(self, sig: int) -> None:
            log = logging.getLogger("ramsli.server")
            try:
                async with asyncio.timeout(self.drain_seconds):
                    ids = await self.app.state.hub.drain()
                log.warning("drained: %d tables let go; exiting", len(ids))
            except TimeoutError:
                log.error("draining took over %g s; exiting anyway", self.drain_seconds)
            except Exception:
                log.exception("draining failed; exiting anyway")
            finally:
                super().handle_exit(sig, None)

    return Server


def draining_server(config: Any, app: Any, drain_seconds: float) -> Any:
    """uvicorn's ``Server`` for ``app`` that drains on the first SIGTERM (see the module's notes)."""
    return _draining_server_class()(config, app, drain_seconds)


def _forward_secret(app: Any) -> str | None:
    """The cluster's forwarding secret of ``app`` (None before start-up or with one process)."""
    hub = getattr(app.state, "hub", None)
    return None if hub is None else hub.ownership.forward_secret


def _reachable(host: str) -> str:
    """The address peers use for ``host``: the machine's own address for 0.0.0.0 / ::."""
    if host in ("0.0.0.0", "::", ""):
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return "127.0.0.1"
    return host if ":" not in host else f"[{host}]"


def _admin_token(path: Path | None) -> str | None:
    """The admin token: the first line of ``path``, else ``RAMSLI_ADMIN_TOKEN``, else None
    (exit status 2 for a file that cannot be read or a token under 16 characters)."""
    if path is not None:
        try:
            lines = path.read_text(encoding="utf-8").split("\n")
        except OSError as e:
            fail(f"--admin-token-file {path}: {e.strerror}")
        token: str | None = lines[0].strip()
    else:
        token = os.environ.get("RAMSLI_ADMIN_TOKEN", "").strip() or None
    if token is not None and len(token) < 16:
        fail(
            "the admin token must be at least 16 characters "
            "(make one: python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
        )
    return token


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
                else f"cannot listen on {host}:{port}: {reason}; choose another port with --port",
                usage=False,
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
