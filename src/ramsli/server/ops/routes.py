"""The operator's routes of ``ramsli serve``: health, readiness, metrics, and the admin's tables.

- ``GET /healthz``: ``200 {"status": "ok", "process"}`` while the process answers at all (a
  liveness probe: restart it when this fails);
- ``GET /readyz``: ``200 {"status": "ready", ...}`` when the database answers (``SELECT 1``
  within 2 s), the tables are restored, the process holds its table locks (several processes),
  is not draining, the check of the whole SQLite file after start-up found no damage and the
  coach's worker pool is not failing to start; else ``503 {"status": "not ready", "reasons": [...]}`` (a readiness
  probe: send it no new clients while this fails). Either way ``"coach"`` tells the coach's pool
  (:meth:`~ramsli.server.coach.review.CoachService.pool_state`: ``running``, ``restarting`` after its worker
  died, ``idle``, ``failed``);
- ``GET /metrics``: Prometheus text (:mod:`ramsli.server.ops.metrics`);
- ``GET /admin/tables``: the stored tables and ledgers with their process, status, ``seq`` and
  connections, from every live process, a page at a time (``?limit=``, ``?offset=``); ``POST /admin/tables/{id}/close``: close one for good
  (:meth:`~ramsli.server.tables.hub.Hub.close_table`). Both need ``Authorization: Bearer TOKEN``,
  the server's admin token (``ramsli serve --admin-token-file``, ``RAMSLI_ADMIN_TOKEN``);
  without one set the admin routes answer ``403 no_admin``, a wrong token ``401 admin_token``.

Every route here is also answered to ``HEAD`` (:class:`~ramsli.server.ops.guards.HeadAsGet`).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ramsli.refusal import Refusal, Refused
from ramsli.server import deps
from ramsli.server.cluster.proxy import gather_from_peers
from ramsli.server.deps import DatabaseDamagedDep, PeersDep
from ramsli.server.ops.metrics import CONTENT_TYPE
from ramsli.server.protocol.messages import BadMessage
from ramsli.server.protocol.schemas import NoBody, body_of, plain_number

__all__ = ["router", "check_admin", "local_tables"]

router = APIRouter()


def _hub(request: Request) -> Any:
    return deps.hub_or_none(request)


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """Alive: the process answers."""
    hub = _hub(request)
    return {"status": "ok", "process": hub.ownership.process_id if hub is not None else None}


@router.get("/readyz")
async def readyz(request: Request, damaged: DatabaseDamagedDep) -> JSONResponse:
    """Ready for clients: database reachable, tables restored, locks held, not draining, the
    coach's pool not failing to start (its state in ``"coach"``: ``restarting`` after its worker
    died is still ready, the next request makes a new one)."""
    hub = _hub(request)
    reasons: list[str] = []
    if hub is None or not hub.restored:
        reasons.append("the tables are not restored yet")
    else:
        if hub.draining:
            reasons.append("draining")
        if damaged:
            reasons.append(f"the database file is damaged: {damaged}")
        if not hub.ownership.alive:
            reasons.append("the table locks are lost")
        try:
            async with asyncio.timeout(2.0):
                await hub.database.ping()
        except Exception as e:  # noqa: BLE001 - any failure is "not ready", named
            reasons.append(f"the database does not answer: {type(e).__name__}")
    service = deps.coach_or_none(request)  # (the coach's layer is above this one: reached through deps)
    coach = service.pool_state() if service is not None else {"state": "idle"}
    if coach["state"] == "failed":
        reasons.append(f"the coach's worker process cannot be started: {coach['cause']}")
    body: dict[str, Any] = {"status": "not ready" if reasons else "ready", "coach": coach}
    if hub is not None:
        body.update(process=hub.ownership.process_id, tables=len(hub.tables))
    if reasons:
        body["reasons"] = reasons
    return JSONResponse(body, status_code=503 if reasons else 200)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The Prometheus metrics of this process."""
    m = deps.metrics(request)
    return Response(m.render(), media_type=CONTENT_TYPE)


def check_admin(request: Request) -> None:
    """Let the request through only with ``Authorization: Bearer <admin token>``.

    Raises:
        Refused: ``no_admin`` (no token is set on this server), ``admin_token`` (missing or wrong).
    """
    token = deps.admin_token(request)
    if not token:
        raise Refused(Refusal("no_admin"))
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    if scheme.lower() != "bearer" or not secrets.compare_digest(value.strip().encode(), token.encode()):
        raise Refused(Refusal("admin_token"))


def local_tables(hub: Any, conns: Any = ()) -> dict[str, dict[str, Any]]:
    """What this process knows of the tables it runs: id -> ``{"process", "status", "seq",
    "people", "spectators"}`` (``people``: seats with a live connection)."""
    out: dict[str, dict[str, Any]] = {}
    for t in hub.tables.values():
        out[t.id] = {
            "process": hub.ownership.process_id,
            "status": str(t.status),
            "seq": t.seq,
            "people": sum(1 for s in t.seats if s.conn is not None),
            "spectators": len(t.spectators),
        }
    for table_id, reason in hub.broken.items():
        out[table_id] = {"process": hub.ownership.process_id, "status": "broken", "reason": reason}
    for ledger_id in hub.ledgers:
        out[ledger_id] = {"process": hub.ownership.process_id, "status": "ledger"}
    return out


#: rows of one page of ``GET /admin/tables`` unless ``limit`` says otherwise (and at most)
ADMIN_PAGE = 1000
ADMIN_PAGE_MAX = 10_000
#: the largest ``offset`` of ``GET /admin/tables`` (SQLite's integers end at 2**63 - 1)
ADMIN_OFFSET_MAX = 10**12


def _query_int(request: Request, name: str, default: int, least: int, most: int) -> int:
    """The query parameter ``name`` as a whole number from ``least`` to ``most`` (digits only),
    ``default`` when it is absent.

    Raises:
        BadMessage: ``field_twice`` (given more than once), ``query_range`` (empty, not digits,
            or out of range), naming the parameter and the range.
    """
    given = request.query_params.getlist(name)
    if not given:
        return default
    if len(given) > 1:
        raise BadMessage(Refusal("field_twice", None, {"field": name}))
    text = given[0]
    n = plain_number(text, most)
    if n is None or n < least:
        raise BadMessage(Refusal("query_range", None, {"field": name, "least": least, "most": most}))
    return n


def _page(request: Request) -> tuple[int, int]:
    """``(limit, offset)`` of ``GET /admin/tables`` from its query (``?limit=N&offset=M``): limit
    1 to :data:`ADMIN_PAGE_MAX` (default :data:`ADMIN_PAGE`), offset 0 to :data:`ADMIN_OFFSET_MAX`.

    Raises:
        BadMessage: a parameter that is not such a number, or given twice (``422 bad_message``).
    """
    limit = _query_int(request, "limit", ADMIN_PAGE, 1, ADMIN_PAGE_MAX)
    offset = _query_int(request, "offset", 0, 0, ADMIN_OFFSET_MAX)
    return limit, offset


@router.get("/admin/tables")
async def admin_tables(request: Request, peers: PeersDep) -> dict[str, Any]:
    """The stored tables and ledgers, one page in creation order (``?limit=N``, default
    :data:`ADMIN_PAGE`, at most :data:`ADMIN_PAGE_MAX`; ``?offset=M``): ``{"tables": [{"id",
    "kind", "created", "closed", "finished", "events", "process", "status", "seq", "people",
    "spectators"}], "processes": [...], "total": n, "next": offset of the next page or null}``;
    a table no live process runs has ``process`` null and ``status`` ``closed``, ``over``
    (finished, not read since start) or null."""
    check_admin(request)
    limit, offset = _page(request)  # before anything is asked of a peer or the database
    hub = _hub(request)
    here = local_tables(hub)
    if request.scope.get("ramsli.forwarded"):
        return {"local": here}
    merged = dict(here)
    processes = [hub.ownership.process_id]
    auth = {"authorization": request.headers.get("authorization", "")}
    for answer in await gather_from_peers(hub, peers, "/admin/tables", auth):
        for table_id, info in (answer.get("local") or {}).items():
            merged.setdefault(table_id, info)
            processes.append(info.get("process"))
    rows = []
    total = await hub.database.count()
    for row in await hub.database.index(limit, offset):
        info = merged.get(row["id"], {})
        if row["kind"] == "ledger" and hub.ownership.solo and not row["closed"]:
            info = {"process": hub.ownership.process_id, "status": "ledger"}
        # a table no process runs: closed by the admin, or over (marked finished when its
        # session ended; such a table is read only when asked for), else not running anywhere
        status = "closed" if row["closed"] else "over" if row["finished"] else None
        rows.append({**row, "process": None, "status": status, **info})
    after = offset + len(rows)
    return {
        "tables": rows,
        "processes": sorted({p for p in processes if p}),
        "total": total,
        "next": after if after < total else None,
    }


@router.post("/admin/tables/{table_id}/close")
async def admin_close(request: Request, table_id: str) -> dict[str, Any]:
    """Close a table or ledger for good: ``{"table", "closed": true, "already": bool}``."""
    check_admin(request)
    await body_of(request, NoBody)
    done = await _hub(request).close_table(table_id)
    return {"table": table_id, "closed": True, "already": not done}
