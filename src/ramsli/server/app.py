"""The FastAPI app of ``ramsli serve``: it only wires the server together.

:func:`create_app` includes each concern's routes — the card tables and their WebSocket
(:mod:`ramsli.server.tables.routes`), the pages (:mod:`ramsli.server.web.routes`), the hint, the
reviews and training (:mod:`ramsli.server.coach.routes`), the pub ledger
(:mod:`ramsli.server.ledger.routes`), players and clubs, club evenings
(:mod:`ramsli.server.evenings.routes`), the operator's routes — puts the
middlewares around them, answers every refusal by its code in the language the request asks for
(``?lang=``, else ``Accept-Language``; :func:`ramsli.server.protocol.messages.error_body`), and
at start-up opens the database (applying the Alembic migrations), makes the services the routes
take through :mod:`ramsli.server.deps`, restores every table by replaying its events and starts
making the lab's kernel ready in the background (:func:`ramsli.server.coach.hints.warm_up_lab`).

Players, clubs, seasons and ratings are :mod:`ramsli.server.players.accounts` and
:mod:`ramsli.server.clubs.clubs`; open tables, quick play and the table list :mod:`ramsli.server.tables.lobby`.

Around the routes (outermost first): the path prefix and the client's address
(:mod:`ramsli.server.cluster.prefix`, :mod:`ramsli.server.cluster.proxy`), the request log, ``HEAD``, the security headers, the body limit and
the per-address limits on new tables and on the coach's routes (:mod:`ramsli.server.ops.guards`), and the forwarding of a
table another process runs (:class:`~ramsli.server.cluster.proxy.Forwarder`). The operator's routes
(``/healthz``, ``/readyz``, ``/metrics``, ``/admin/...``) are :mod:`ramsli.server.ops.routes`.

Run it with ``ramsli serve`` or ``uvicorn --factory ramsli.server.app:app_from_env``
(``RAMSLI_DATABASE``, ``RAMSLI_ALLOW_TEST_SEEDS=1``, ``RAMSLI_PATH_PREFIX``,
``RAMSLI_TRUSTED_PROXIES``, ``RAMSLI_ADMIN_TOKEN``, ``RAMSLI_CREATE_LIMIT``, ``RAMSLI_COACH_LIMIT``, ``RAMSLI_ADVERTISE``,
``RAMSLI_CALIBRATION``, ``RAMSLI_CHALLENGE_ZONE`` and ``RAMSLI_CHALLENGE_DEALS``: the weekly challenge's time zone and deals a week).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
import sqlite3
import zoneinfo
from collections.abc import AsyncIterator, Sequence
from typing import Any

import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ramsli.errors import SessionError
from ramsli.errors import TableError as EngineTableError
from ramsli.evening.challenge import DEALS as CHALLENGE_DEALS
from ramsli.ledger import LedgerError
from ramsli.refusal import Refusal, Refused
from ramsli.server.challenge import pages as challenge_pages
from ramsli.server.challenge import routes as challenge_routes
from ramsli.server.challenge.service import Challenges
from ramsli.server.clubs import routes as clubs_routes
from ramsli.server.clubs.clubs import Clubs
from ramsli.server.clubs.skill import SkillService
from ramsli.server.cluster.ownership import Ownership, ownership_for
from ramsli.server.cluster.prefix import PathPrefix, normalize_prefix
from ramsli.server.cluster.proxy import ClientAddress, Forwarder, Peers
from ramsli.server.coach import hints
from ramsli.server.coach import review as coach
from ramsli.server.coach import routes as coach_routes
from ramsli.server.evenings import feeds as evening_feeds
from ramsli.server.evenings import pages as evening_pages
from ramsli.server.evenings import routes as evenings_routes
from ramsli.server.evenings.service import Evenings
from ramsli.server.ledger import routes as ledger_routes
from ramsli.server.ledger.books import LedgerBooks
from ramsli.server.ops.guards import AccessLog, BodyLimit, CoachLimit, CreateLimit, HeadAsGet, SecurityHeaders
from ramsli.server.ops.metrics import Metrics
from ramsli.server.ops.routes import router as ops_router
from ramsli.server.players import accounts
from ramsli.server.players import routes as players_routes
from ramsli.server.players.accounts import Accounts
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.messages import BadMessage, error_body
from ramsli.server.protocol.schemas import plain_number, refusal_of
from ramsli.server.storage.challenges import ChallengeRows
from ramsli.server.storage.directory import Directory
from ramsli.server.storage.eventstore import EventStore, FileCheck, default_url, sqlite_path, storage_reason
from ramsli.server.storage.skill import SkillRows
from ramsli.server.tables import routes as tables_routes
from ramsli.server.tables.bot_driver import shutdown_bot_pool
from ramsli.server.tables.hub import Hub
from ramsli.server.web.routes import router as pages_router

__all__ = ["create_app", "app_from_env", "attach_hub", "WS_MAX_SIZE"]

#: frames larger than this are refused by the WebSocket layer itself (close 1009);
#: frames up to it but over MAX_MESSAGE get a ``too_big`` error
WS_MAX_SIZE = 65536


#: seconds of ``Retry-After`` on a ``429`` whose refusal names no ``seconds`` of its own
RETRY_AFTER = 5


def _answer(request: Request, error: Exception) -> JSONResponse:
    """The refusal ``error`` as JSON in the request's language; every ``429`` (a full queue, a
    per-address limit) carries ``Retry-After`` (its ``seconds``, else :data:`RETRY_AFTER`)."""
    status, body = error_body(error, request_lang(request))
    metrics: Metrics | None = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.refused(str(body.get("code", "")), "http")
    headers = None
    if status == 429:
        seconds = body.get("fields", {}).get("seconds")
        headers = {"Retry-After": str(seconds if isinstance(seconds, int) and seconds > 0 else RETRY_AFTER)}
    return JSONResponse(body, status_code=status, headers=headers)


def create_app(
    database: str | None = None,
    allow_test_seeds: bool = False,
    allowed_bots: Sequence[str] = (),
    *,
    path_prefix: str = "",
    trusted_proxies: Sequence[str] = (),
    admin_token: str | None = None,
    create_limit: int = 30,
    coach_limit: int = 300,
    body_timeout: float = 10.0,
    advertise: str = "",
    ownership: Ownership | None = None,
    claim_seconds: float | None = None,
    calibration: str | None = None,
) -> FastAPI:
    """The app.

    Args:
        database: an SQLAlchemy async URL (default: SQLite in the data folder).
        allowed_bots: the installed packages' bots a new table may seat (``--allow-bot``).
        path_prefix: serve under this path (``/ramsli``; ``--path-prefix``).
        trusted_proxies: addresses or networks whose ``X-Forwarded-For``/``-Proto`` are believed.
        admin_token: the token of ``/admin/...`` (None: no admin).
        create_limit: new tables and ledgers a minute per client address (0: no limit).
        coach_limit: requests a minute per client address to the coach's routes (the hint, the
            reviews, the training; 0: no limit).
        body_timeout: seconds a request body must come whole within (``408 body_slow`` after).
        advertise: where other processes reach this one (``http://host:port``; several processes).
        ownership: which tables this process runs (default: :func:`~ramsli.server.cluster.ownership.ownership_for`
            the database, started at start-up).
        claim_seconds: seconds between two looks for tables a dead process ran (several processes).
        calibration: an arena result for the bots' first ratings (``--calibration``; default the
            bundled one, :data:`ramsli.server.players.ratings.CALIBRATION`).
    """
    url = database or default_url()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await EventStore.open(url)  # migrated first: the processes' rows live in it
        owner = ownership if ownership is not None else ownership_for(url, advertise)
        await owner.start()
        hub = Hub(
            store,
            allow_test_seeds=allow_test_seeds,
            allowed_bots=app.state.allowed_bots,
            ownership=owner,
            metrics=app.state.metrics,
        )
        if claim_seconds is not None:
            hub.claim_seconds = claim_seconds
        attach_hub(app, hub)
        hub.on_hint_table = hints.warm_up_lab  # a hint table makes the lab's kernel ready
        clubs: Clubs = app.state.clubs
        evenings: Evenings = app.state.evenings
        await evenings.load()  # paused evening tables stay paused: known before any table runs
        await hub.restore()
        hints.warm_up_lab()  # the lab's kernel made ready in the background (progress in the log)
        books: LedgerBooks = app.state.ledgers
        await clubs.reconcile((await books.load(hub)).values())
        await app.state.skill.reconcile()  # hands of opted-in players not yet measured (issue 35)
        path = sqlite_path(url)
        check = FileCheck(path) if path is not None and path.is_file() else None
        checking = None if check is None else asyncio.get_running_loop().create_task(_check_in_background(app, check))
        try:
            yield
        finally:
            if check is not None and checking is not None:
                check.stop()
                await checking
            await clubs.settle()
            await app.state.challenges.settle()
            await app.state.skill.close()
            await hub.close()
            await store.close()
            await owner.close()
            await peers.aclose()
            shutdown_bot_pool()
            coach.shutdown_coach_pool()

    app = FastAPI(title="ramsli", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.allowed_bots = frozenset(allowed_bots)
    app.state.admin_token = admin_token or None
    app.state.calibration = calibration
    app.state.prefix = normalize_prefix(path_prefix)
    app.state.ws_conns = set()
    peers = app.state.peers = Peers(WS_MAX_SIZE)
    app.state.metrics = Metrics(lambda: _live(app))
    app.state.coach = coach.CoachService()  # its settings, warm-up and process made on first use
    app.state.ledgers = LedgerBooks()  # loaded from the store at start-up or on first use
    app.include_router(ops_router)
    app.include_router(pages_router)
    app.include_router(coach_routes.router)
    app.include_router(ledger_routes.router)
    accounts.install(app)  # players and logins; the CSRF guard of every request with a login
    app.include_router(players_routes.router)
    app.include_router(clubs_routes.router)
    app.include_router(evenings_routes.router)
    app.include_router(evening_feeds.router)  # the evenings' PDF, CSV, QR and calendar
    app.include_router(evening_pages.router)  # the evenings' pages (their API: evenings.routes)
    app.include_router(challenge_routes.router)  # the weekly challenge (issue 35)
    app.include_router(challenge_pages.router)
    app.include_router(tables_routes.router)
    # innermost first: the forwarding of other processes' tables, ..., the prefix outermost
    app.add_middleware(Forwarder, peers=peers, hub=lambda: getattr(app.state, "hub", None), metrics=app.state.metrics)
    app.add_middleware(CreateLimit, limit=create_limit)
    app.add_middleware(CoachLimit, limit=coach_limit)
    app.add_middleware(BodyLimit, seconds=body_timeout)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HeadAsGet)
    app.add_middleware(AccessLog)
    app.add_middleware(ClientAddress, trusted=list(trusted_proxies), secret=lambda: _secret(app))
    app.add_middleware(PathPrefix, prefix=path_prefix)

    async def refused(request: Request, e: Exception) -> JSONResponse:
        return _answer(request, e)

    for kind in (Refused, LedgerError, EngineTableError, SessionError):
        app.add_exception_handler(kind, refused)

    @app.exception_handler(sqlalchemy.exc.DBAPIError)
    @app.exception_handler(sqlite3.Error)
    async def _storage(request: Request, e: Exception) -> JSONResponse:
        """A database that fails a request (read-only, full, gone): the translated ``503 storage``
        and one log line, never a 500 with a traceback (a damaged table is ``table_broken``,
        found where the table is read: :meth:`~ramsli.server.tables.hub.Hub.table`)."""
        logging.getLogger("ramsli.server").error(
            "%s %s: the database failed: %s", request.method, request.url.path, storage_reason(e)
        )
        return _answer(request, Refused(Refusal("storage")))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        error = dict(e.errors()[0])
        error["loc"] = tuple(error.get("loc", ()))[1:]  # ("path", "number") -> "number"
        return _answer(request, BadMessage(refusal_of(error)))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, e: StarletteHTTPException) -> JSONResponse:
        if e.status_code == 405:
            refusal = Refusal("no_method", None, {"path": request.url.path[:80], "method": request.method})
        else:
            refusal = Refusal("no_page", None, {"path": request.url.path[:80]})
        status, body = error_body(Refused(refusal), request_lang(request))
        return JSONResponse(body, status_code=e.status_code if e.status_code in (404, 405) else status)

    return app


async def _check_in_background(app: FastAPI, check: FileCheck) -> None:
    """Check the whole SQLite file once after start-up (:class:`~ramsli.server.storage.eventstore.FileCheck`,
    in a thread; ``check.stop()`` gives it up at shutdown). A damaged file is logged as an error
    and makes ``/readyz`` answer 503 with the finding (``app.state.database_damaged``); start-up
    itself checks only what does not grow with the file."""
    log = logging.getLogger("ramsli.server")
    try:
        problems = await asyncio.to_thread(check.run)
    except Exception as e:  # noqa: BLE001 - the check must never stop the server
        log.warning("database %s: the background check did not run: %s", check.path, e)
        return
    if problems:
        app.state.database_damaged = "; ".join(problems)[:300]
        log.error(
            "database %s is damaged: %s (stop the server, keep the file, restore the last backup)",
            check.path,
            app.state.database_damaged,
        )
    elif problems == []:
        log.info("database %s: the whole file checks (PRAGMA quick_check)", check.path)


def attach_hub(app: FastAPI, hub: Hub) -> None:
    """Make ``hub`` the app's (as its start-up does; tests that build the hub themselves call it):
    the app's metrics count the hub's events, the app's pub ledgers follow the hub's, and the
    players, clubs and ratings (:class:`~ramsli.server.clubs.clubs.Clubs`, with the app's calibration)
    live in the hub's database and record every session that ends (docs/clubs.md), and so do the
    club evenings (:class:`~ramsli.server.evenings.service.Evenings`, issue 34)."""
    if hub.metrics is None:
        hub.metrics = app.state.metrics
    books: LedgerBooks = app.state.ledgers
    hub.ledger_hook = books.changed  # this process starts or stops running a pub ledger
    directory = Directory(hub.store.engine)
    clubs = app.state.clubs = Clubs(directory, hub, app.state.calibration)
    app.state.accounts = Accounts(directory)
    hub.watchers.append(clubs.watch)
    app.state.evenings = Evenings(directory, hub, books)  # watches the hub's tables too (pauses)
    challenges = app.state.challenges = Challenges(
        directory, hub, ChallengeRows(hub.store.engine), zone=_challenge_zone()
    )
    challenges.deals = _challenge_deals()
    skill = app.state.skill = SkillService(directory, SkillRows(hub.store.engine), hub, app.state.coach)
    hub.watchers.append(skill.watch)  # skill counters of opted-in players when a table ends (issue 35)
    app.state.evenings.skill = skill  # the standings' "skill / hand"
    app.state.hub = hub


def _challenge_zone() -> dt.tzinfo | None:
    """The weekly challenge's time zone: ``RAMSLI_CHALLENGE_ZONE`` (an IANA name, ``Europe/Berlin``),
    else None (the process's local zone).

    Raises:
        ValueError: an unknown zone name.
    """
    name = os.environ.get("RAMSLI_CHALLENGE_ZONE", "").strip()
    if not name:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"RAMSLI_CHALLENGE_ZONE: there is no time zone {name!r}") from None


def _challenge_deals() -> int:
    """The weekly challenge's deals a week: ``RAMSLI_CHALLENGE_DEALS`` (1 to 50), else 12.

    Raises:
        ValueError: not a whole number from 1 to 50.
    """
    text = os.environ.get("RAMSLI_CHALLENGE_DEALS", "").strip()
    if not text:
        return CHALLENGE_DEALS
    n = plain_number(text, 50)
    if n is None or n < 1:
        raise ValueError(f"RAMSLI_CHALLENGE_DEALS: {text[:20]!r} is not a number of deals from 1 to 50")
    return n


def _secret(app: FastAPI) -> str | None:
    hub = getattr(app.state, "hub", None)
    return None if hub is None else hub.ownership.forward_secret


def _live(app: FastAPI) -> dict[str, Any]:
    """The live gauges: the hub's tables and ledgers, and the WebSocket connections by role."""
    hub = getattr(app.state, "hub", None)
    out: dict[str, Any] = hub.live() if hub is not None else {}
    if hub is not None and hub.ownership.solo:
        out["ledgers"] = len(app.state.ledgers.books)
    roles: dict[str, int] = {}
    for c in list(app.state.ws_conns):
        role = c.role or "hello"
        roles[role] = roles.get(role, 0) + 1
    roles["forwarded"] = app.state.peers.ws_forwarded
    out["connections"] = roles
    return out


def _env_list(name: str) -> list[str]:
    return [x.strip() for x in os.environ.get(name, "").split(",") if x.strip()]


def app_from_env() -> FastAPI:
    """The app configured from the environment (for ``uvicorn --factory``): ``RAMSLI_DATABASE``,
    ``RAMSLI_ALLOW_TEST_SEEDS`` (``1``), ``RAMSLI_ALLOW_BOTS`` (installed packages' bots,
    comma-separated), ``RAMSLI_PATH_PREFIX``, ``RAMSLI_TRUSTED_PROXIES`` (comma-separated),
    ``RAMSLI_ADMIN_TOKEN``, ``RAMSLI_CREATE_LIMIT`` and ``RAMSLI_COACH_LIMIT`` (a minute per
    address) and ``RAMSLI_ADVERTISE`` (``http://host:port``) and ``RAMSLI_CALIBRATION`` (an arena result)."""
    return create_app(
        os.environ.get("RAMSLI_DATABASE") or None,
        allow_test_seeds=os.environ.get("RAMSLI_ALLOW_TEST_SEEDS") == "1",
        allowed_bots=_env_list("RAMSLI_ALLOW_BOTS"),
        path_prefix=os.environ.get("RAMSLI_PATH_PREFIX", ""),
        trusted_proxies=_env_list("RAMSLI_TRUSTED_PROXIES"),
        admin_token=os.environ.get("RAMSLI_ADMIN_TOKEN") or None,
        create_limit=int(os.environ.get("RAMSLI_CREATE_LIMIT") or 30),
        coach_limit=int(os.environ.get("RAMSLI_COACH_LIMIT") or 300),
        advertise=os.environ.get("RAMSLI_ADVERTISE", ""),
        calibration=os.environ.get("RAMSLI_CALIBRATION") or None,
    )
