"""The server's services, typed, for the routes: FastAPI dependencies over the app's state.

Each service the app makes at start-up (:func:`ramsli.server.app.create_app`,
:func:`ramsli.server.app.attach_hub`) is reached through one function here, which a route takes
through ``Depends`` by its ``Annotated`` alias (``hub: HubDep``) or which code holding a request
calls (``deps.hub(request)``). The functions take a Starlette ``HTTPConnection``, so they serve
HTTP routes and WebSockets alike. This module is the one place (with the app's wiring) that
reads ``app.state``; it imports the services' classes for their types only, so any module of
the server may use it.

- :func:`hub` (:data:`HubDep`): the :class:`~ramsli.server.tables.hub.Hub` (the tables);
- :func:`clubs` (:data:`ClubsDep`): the :class:`~ramsli.server.clubs.clubs.Clubs` (players,
  clubs, seasons, ratings) and :func:`directory` (:data:`DirectoryDep`), their database;
- :func:`accounts` (:data:`AccountsDep`): the :class:`~ramsli.server.players.accounts.Accounts`;
- :func:`metrics` (:data:`MetricsDep`): the :class:`~ramsli.server.ops.metrics.Metrics`;
- :func:`admin_token` (:data:`AdminTokenDep`): the operator's token of ``/admin/...``, or None;
- :func:`ws_connections`: the open WebSocket connections (the metrics count them by role);
- :func:`coach` (:data:`CoachDep`): the :class:`~ramsli.server.coach.review.CoachService` (reviews);
- :func:`ledgers` (:data:`LedgersDep`): the pub ledgers' books
  (:class:`~ramsli.server.ledger.books.LedgerBooks`, loaded from the store on first use);
- :func:`database_damaged` (:data:`DatabaseDamagedDep`): what the background check of the
  SQLite file found damaged, or None;
- :func:`peers` (:data:`PeersDep`): how this process reaches the other processes
  (:class:`~ramsli.server.cluster.proxy.Peers`, shared with the forwarding middleware);
- :func:`evenings` (:data:`EveningsDep`): the club evenings and tournaments
  (:class:`~ramsli.server.evenings.service.Evenings`);
- :func:`challenges`: the weekly challenges (:class:`~ramsli.server.challenge.service.Challenges`);
- :func:`skill`: the skill counters by consent (:class:`~ramsli.server.clubs.skill.SkillService`).

Every function raises ``AttributeError`` if the app has not made the service yet (before its
start-up), except :func:`admin_token`, :func:`hub_or_none` and :func:`database_damaged`, which
answer None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

if TYPE_CHECKING:
    from ramsli.server.challenge.service import Challenges
    from ramsli.server.clubs.clubs import Clubs
    from ramsli.server.clubs.skill import SkillService
    from ramsli.server.cluster.proxy import Peers
    from ramsli.server.coach.review import CoachService
    from ramsli.server.evenings.service import Evenings
    from ramsli.server.ledger.books import LedgerBooks
    from ramsli.server.ops.metrics import Metrics
    from ramsli.server.players.accounts import Accounts
    from ramsli.server.storage.directory import Directory
    from ramsli.server.tables.connection import WebSocketConnection
    from ramsli.server.tables.hub import Hub

__all__ = [
    "hub",
    "hub_or_none",
    "clubs",
    "directory",
    "accounts",
    "metrics",
    "admin_token",
    "ws_connections",
    "coach",
    "ledgers",
    "database_damaged",
    "peers",
    "evenings",
    "challenges",
    "skill",
    "HubDep",
    "ClubsDep",
    "DirectoryDep",
    "AccountsDep",
    "MetricsDep",
    "AdminTokenDep",
    "CoachDep",
    "LedgersDep",
    "DatabaseDamagedDep",
    "PeersDep",
    "EveningsDep",
]


def hub(conn: HTTPConnection) -> Hub:
    """The app's :class:`~ramsli.server.tables.hub.Hub`."""
    found: Hub = conn.app.state.hub
    return found


def hub_or_none(conn: HTTPConnection) -> Hub | None:
    """The app's hub, or None before its start-up (the health routes answer then too)."""
    found: Hub | None = getattr(conn.app.state, "hub", None)
    return found


def clubs(conn: HTTPConnection) -> Clubs:
    """The app's :class:`~ramsli.server.clubs.clubs.Clubs`."""
    found: Clubs = conn.app.state.clubs
    return found


def directory(conn: HTTPConnection) -> Directory:
    """The players' and clubs' database (:class:`~ramsli.server.storage.directory.Directory`)."""
    return clubs(conn).directory


def accounts(conn: HTTPConnection) -> Accounts:
    """The app's :class:`~ramsli.server.players.accounts.Accounts`."""
    found: Accounts = conn.app.state.accounts
    return found


def metrics(conn: HTTPConnection) -> Metrics:
    """The app's :class:`~ramsli.server.ops.metrics.Metrics`."""
    found: Metrics = conn.app.state.metrics
    return found


def admin_token(conn: HTTPConnection) -> str | None:
    """The operator's token of ``/admin/...`` (``--admin-token``), or None (no admin)."""
    found: str | None = getattr(conn.app.state, "admin_token", None)
    return found


def ws_connections(conn: HTTPConnection) -> set[WebSocketConnection]:
    """The app's open WebSocket connections."""
    found: set[WebSocketConnection] = conn.app.state.ws_conns
    return found


def coach_or_none(conn: HTTPConnection) -> CoachService | None:
    """The app's :class:`~ramsli.server.coach.review.CoachService`, or None before its start-up."""
    found: CoachService | None = getattr(conn.app.state, "coach", None)
    return found


def coach(conn: HTTPConnection) -> CoachService:
    """The app's :class:`~ramsli.server.coach.review.CoachService`."""
    found: CoachService = conn.app.state.coach
    return found


def ledgers(conn: HTTPConnection) -> LedgerBooks:
    """The app's pub ledgers (:class:`~ramsli.server.ledger.books.LedgerBooks`)."""
    found: LedgerBooks = conn.app.state.ledgers
    return found


def database_damaged(conn: HTTPConnection) -> str | None:
    """What the background check of the SQLite file found damaged (``/readyz`` answers 503 with
    it), or None (not damaged, not checked yet, or not SQLite)."""
    found: str | None = getattr(conn.app.state, "database_damaged", None)
    return found


def peers(conn: HTTPConnection) -> Peers:
    """How this process reaches the other processes (:class:`~ramsli.server.cluster.proxy.Peers`)."""
    found: Peers = conn.app.state.peers
    return found


def evenings(conn: HTTPConnection) -> Evenings:
    """The app's club evenings and tournaments (:class:`~ramsli.server.evenings.service.Evenings`)."""
    found: Evenings = conn.app.state.evenings
    return found


def challenges(conn: HTTPConnection) -> Challenges:
    """The app's weekly challenges (:class:`~ramsli.server.challenge.service.Challenges`)."""
    found: Challenges = conn.app.state.challenges
    return found


def skill(conn: HTTPConnection) -> SkillService:
    """The app's skill counters (:class:`~ramsli.server.clubs.skill.SkillService`)."""
    found: SkillService = conn.app.state.skill
    return found


HubDep = Annotated["Hub", Depends(hub)]
ClubsDep = Annotated["Clubs", Depends(clubs)]
DirectoryDep = Annotated["Directory", Depends(directory)]
AccountsDep = Annotated["Accounts", Depends(accounts)]
MetricsDep = Annotated["Metrics", Depends(metrics)]
AdminTokenDep = Annotated["str | None", Depends(admin_token)]
CoachDep = Annotated["CoachService", Depends(coach)]
LedgersDep = Annotated["LedgerBooks", Depends(ledgers)]
DatabaseDamagedDep = Annotated["str | None", Depends(database_damaged)]
PeersDep = Annotated["Peers", Depends(peers)]
EveningsDep = Annotated["Evenings", Depends(evenings)]
