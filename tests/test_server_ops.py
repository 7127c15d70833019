"""Operating and hardening the server (issue 22, items 2, 4, 5), in-process over ASGI.

- ``HEAD`` is answered wherever ``GET`` is (every GET route of the app, found from the app itself);
- every answer carries the security headers; the pages hold no inline script or style (the CSP
  needs none); HSTS only when the client came over TLS through a trusted proxy;
- a body over the limit is refused on every route (before it is read), and changes nothing;
- new tables and ledgers are limited per client address, also behind a proxy, and a client
  cannot dodge the limit with a forged ``X-Forwarded-For``;
- the client's address and scheme are taken only from a trusted proxy; a forged forwarding
  header is dropped; the access log holds no token;
- the path prefix: pages, links, redirects and cookies under ``/ramsli/``, with the proxy
  stripping the prefix or not;
- ``/healthz``, ``/readyz``; ``/metrics`` parses as Prometheus text and counts what happened;
- the admin token lists and closes tables and ledgers; a closed table stays closed after a restart.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from types import SimpleNamespace

import httpx
import pytest
from fastapi import Request
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from prometheus_client.parser import text_string_to_metric_families

from ramsli.refusal import Refusal
from ramsli.server.app import attach_hub, create_app
from ramsli.server.cluster.prefix import route_of
from ramsli.server.cluster.proxy import set_cookie
from ramsli.server.ops.guards import CSP, redact
from ramsli.server.protocol.messages import render
from ramsli.server.protocol.schemas import MAX_BODY
from ramsli.server.storage.eventstore import EventStore
from ramsli.server.tables.connection import Connection as Conn
from ramsli.server.tables.hub import Hub
from ramsli.server.web.shell import WEB_DIR

from helpers import SEATS3, scaled, seat_table

ADMIN = "a-very-secret-admin-token-0123"


def run(coro):
    return asyncio.run(coro)


def api_routes(routes) -> list[APIRoute]:
    """Every HTTP route of an app, also those of the routers it includes (FastAPI keeps an included
    router as one entry)."""
    out: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            out.append(route)
        elif hasattr(route, "original_router"):
            prefix = getattr(getattr(route, "include_context", None), "prefix", "") or ""
            assert not prefix, "a router included under a prefix: give its routes the prefix here"
            out.extend(api_routes(route.original_router.routes))
    return out


class World:
    """An app around a hub on SQLite, driven over ASGI from a client address of choice."""

    def __init__(self, url: str, client: str = "203.0.113.7", **app_options) -> None:
        self.url = url
        self.client_addr = client
        self.app_options = app_options

    async def __aenter__(self) -> World:
        self.store = await EventStore.open(self.url)
        self.hub = Hub(self.store, allow_test_seeds=True)
        self.app = create_app(self.url, **self.app_options)
        attach_hub(self.app, self.hub)
        self.hub.restored = True
        self.client = self.at(self.client_addr)
        self.made, self.table, self.people = await seat_table(self.hub, start=True)
        self.tid = self.made["table"]
        r = await self.client.post("/api/ledgers", json={"names": ["Ann", "Bo", "Cy"]})
        assert r.status_code == 201, r.text
        self.ledger = r.json()
        return self

    def at(self, address: str, scheme: str = "http") -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=self.app, client=(address, 4711))
        return httpx.AsyncClient(transport=transport, base_url=f"{scheme}://testserver")

    async def __aexit__(self, *exc) -> None:
        await self.client.aclose()
        await self.hub.close()
        await self.store.close()

    def get_paths(self) -> dict[str, str]:
        """A real path for every GET route of the app (path template -> path)."""
        t = self.table
        seat_token = self.people[0][0]
        values = {
            "table_id": self.tid,
            "token": seat_token,
            "number": "1",
            "lang": "de",
            "name": "style.css",
            "ledger_id": self.ledger["ledger"],
            "club_id": "noclub",  # a club that does not exist: its routes answer 404 (or 401)
            "season_id": "1",
            "evening_id": "noevening",  # an evening that does not exist: its API answers 404, its pages the shell
            "round_no": "1",
            "player_id": "noplayer",  # a player that does not exist: their skill answers 404
            "week": "2026-W49",  # a challenge week: before or after now, its routes answer a refusal
            "deal": "1",
            "hand": "1",
        }
        out = {}
        for route in api_routes(self.app.routes):
            if "GET" not in route.methods:
                continue
            path = route.path
            if path == "/t/{table_id}/watch/{token}":
                path = f"/t/{self.tid}/watch/{t.spectator_token}"
            elif path.startswith("/l/{ledger_id}"):
                path = path.replace("{token}", self.ledger["token"])
            for key, value in values.items():
                path = path.replace("{" + key + "}", value)
            assert "{" not in path, f"no value for a parameter of GET {route.path}: add it here"
            out[route.path] = path
        return out


def test_head_is_answered_wherever_get_is(sqlite_url):
    """Uptime monitors send ``HEAD``: every GET route answers it with the GET's status and headers
    and no body (``HEAD /`` once answered 405)."""

    async def go():
        async with World(sqlite_url) as w:
            paths = w.get_paths()
            assert {"/", "/healthz", "/readyz", "/metrics", "/api/tables", "/admin/tables"} <= set(paths)
            for template, path in paths.items():
                got = await w.client.get(path)
                head = await w.client.head(path)
                assert head.status_code == got.status_code, (template, head.status_code, got.status_code)
                assert head.content == b"", template
                assert head.headers.get("content-type") == got.headers.get("content-type"), template
                if template not in ("/metrics", "/readyz", "/healthz"):  # these change from one call to the next
                    assert head.headers.get("content-length") == got.headers.get("content-length"), template
            assert (await w.client.head("/")).status_code == 200
            assert (await w.client.head("/no/such/page")).status_code == 404

    run(go())


def test_every_answer_has_the_security_headers_and_pages_need_no_inline_code(sqlite_url):
    async def go():
        async with World(sqlite_url) as w:
            answers = [await w.client.get(p) for p in w.get_paths().values()]
            answers += [
                await w.client.get("/nope"),
                await w.client.post("/api/tables", json={"seats": "x"}),
                await w.client.put("/"),
            ]
            for r in answers:
                assert r.headers["content-security-policy"] == CSP, r.url
                assert r.headers["referrer-policy"] == "no-referrer"
                assert r.headers["x-content-type-options"] == "nosniff"
                assert r.headers["x-frame-options"] == "DENY"
                assert "strict-transport-security" not in r.headers  # plain HTTP, no trusted proxy said TLS
            assert "script-src 'self'" in CSP and "'unsafe-inline'" not in CSP
            for r in answers:
                if not r.headers.get("content-type", "").startswith("text/html"):
                    continue
                html = r.text
                for tag in re.findall(r"<script\b[^>]*>", html):
                    assert " src=" in tag or 'type="application/json"' in tag, tag  # data, never code
                assert "<style" not in html and " style=" not in html
                assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers
        for js in WEB_DIR.glob("*.js"):  # the scripts set styles through the CSSOM, never an attribute
            text = js.read_text()
            assert not re.search(r"setAttribute\(\s*['\"]style['\"]", text), js.name
            assert "eval(" not in text and "new Function" not in text, js.name

    run(go())


def test_hsts_and_secure_cookies_only_over_tls_from_a_trusted_proxy(sqlite_url):
    async def go():
        async with World(sqlite_url, client="127.0.0.1", trusted_proxies=["127.0.0.1"], path_prefix="/ramsli") as w:

            @w.app.get("/cookie-probe")
            async def probe(request: Request) -> JSONResponse:
                r = JSONResponse({"scheme": request.url.scheme, "client": request.client.host})
                set_cookie(r, request, "probe", "1")
                return r

            tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.4"}
            r = await w.client.get("/ramsli/cookie-probe", headers=tls)
            assert r.json() == {"scheme": "https", "client": "198.51.100.4"}
            assert r.headers["strict-transport-security"].startswith("max-age=")
            cookie = r.headers["set-cookie"]
            assert "Secure" in cookie and "HttpOnly" in cookie and "Path=/ramsli/" in cookie
            assert "samesite=lax" in cookie.lower()
            r = await w.client.get("/ramsli/cookie-probe")
            assert r.json()["scheme"] == "http" and "Secure" not in r.headers["set-cookie"]
            # the same headers from anyone but the trusted proxy are ignored
            stranger = w.at("192.0.2.9")
            r = await stranger.get("/ramsli/cookie-probe", headers=tls)
            assert r.json() == {"scheme": "http", "client": "192.0.2.9"}
            assert "strict-transport-security" not in r.headers and "Secure" not in r.headers["set-cookie"]
            # a forged forwarding secret is dropped: the request is the stranger's own
            r = await stranger.get(
                "/ramsli/cookie-probe", headers=dict(tls, **{"X-Ramsli-Forward": "guess", "X-Forwarded-For": "1.1.1.1"})
            )
            assert r.json() == {"scheme": "http", "client": "192.0.2.9"}
            await stranger.aclose()

    run(go())


def test_a_body_over_the_limit_is_refused_on_every_route(sqlite_url):
    async def go():
        async with World(sqlite_url) as w:
            before = (w.table.seq, len(await w.store.load()))
            big = b"{" + b" " * (MAX_BODY + 10) + b"}"
            routes = api_routes(w.app.routes)
            paths = w.get_paths()
            tried = 0
            for route in routes:
                for method in sorted(route.methods - {"HEAD"}):
                    path = paths.get(route.path) or route.path.replace("{table_id}", w.tid).replace(
                        "{ledger_id}", w.ledger["ledger"]
                    ).replace("{number}", "1").replace("{token}", "x")
                    r = await w.client.request(method, path + "?lang=de", content=big)
                    tried += 1
                    assert r.status_code == 422, (method, route.path, r.status_code)
                    body = r.json()
                    assert body["code"] == "body_too_big" and body["fields"] == {"limit": MAX_BODY}, body
                    assert "Bytes" in body["message"]  # in the asked language
            assert tried >= 20
            assert (w.table.seq, len(await w.store.load())) == before

    run(go())


def test_new_tables_and_ledgers_are_limited_per_address(sqlite_url):
    body = {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}

    async def go():
        async with World(sqlite_url, client="127.0.0.1", create_limit=3, trusted_proxies=["127.0.0.1"]) as w:
            # the World made one ledger from 127.0.0.1 itself: two more from that address
            for path in ("/api/tables", "/api/web/tables"):
                assert (await w.client.post(path, json=body)).status_code == 201
            r = await w.client.post("/api/ledgers?lang=it", json={"names": ["A", "B"]})
            assert r.status_code == 429 and r.json()["code"] == "too_many_new"
            assert int(r.headers["retry-after"]) >= 1 and r.json()["fields"]["limit"] == 3
            assert "tavoli" in r.json()["message"] or r.json()["message"]  # rendered in the asked language
            n = len(await w.store.load())
            # behind the trusted proxy each client has its own bucket ...
            for _ in range(3):
                r = await w.client.post("/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.1"})
                assert r.status_code == 201
            r = await w.client.post("/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.1"})
            assert r.status_code == 429
            # ... and a client cannot make itself a new one with a forged X-Forwarded-For
            stranger = w.at("192.0.2.50")
            for i in range(3):
                r = await stranger.post("/api/tables", json=body, headers={"X-Forwarded-For": f"10.0.0.{i}"})
                assert r.status_code == 201
            r = await stranger.post("/api/tables", json=body, headers={"X-Forwarded-For": "10.0.0.99"})
            assert r.status_code == 429
            await stranger.aclose()
            assert len(await w.store.load()) == n + 6  # every refused one stored nothing

    run(go())


def test_the_access_log_names_the_client_and_holds_no_token(sqlite_url, caplog):
    async def go():
        async with World(sqlite_url, client="127.0.0.1", trusted_proxies=["127.0.0.1"]) as w:
            token = w.people[0][0]
            with caplog.at_level(logging.INFO, logger="ramsli.access"):
                await w.client.get(f"/t/{w.tid}/s/{token}", headers={"X-Forwarded-For": "198.51.100.8"})
                await w.client.get(f"/api/tables/{w.tid}/hands/1.json?token={token}")
                await w.client.get(f"/l/{w.ledger['ledger']}/{w.ledger['token']}")
            lines = [r for r in caplog.records if r.name == "ramsli.access"]
            assert len(lines) == 3
            assert lines[0].fields["client"] == "198.51.100.8" and lines[0].fields["status"] == 200
            assert lines[1].fields["client"] == "127.0.0.1"
            for r in lines:
                assert token not in r.getMessage() and token not in json.dumps(r.fields)
                assert w.ledger["token"] not in r.getMessage()
            assert lines[0].fields["path"] == f"/t/{w.tid}/s/…"

    run(go())
    assert redact("/l/Lab/follow/xyz?token=q&lang=de") == "/l/Lab/follow/…?token=…&lang=de"
    assert redact("/l/Lab/keeper-token") == "/l/Lab/…"
    assert redact("/c/join/club-invite") == "/c/join/…"  # a club's invite (docs/clubs.md)
    assert redact("/api/invites/club-invite") == "/api/invites/…"


@pytest.mark.parametrize("stripped", [False, True], ids=["proxy passes the prefix", "proxy strips it"])
def test_the_access_log_holds_no_secret_under_a_path_prefix(sqlite_url, caplog, stripped):
    """Under ``--path-prefix /ramsli`` every secret-bearing path is logged with its secret replaced
    by ``…`` (issue 38.8): the ledger keeper's and follower's tokens, seat and spectator tokens,
    club invites, ``?token=``, ``?creator_token=`` and the ``?key=`` of an evening's TV screen and of
    a club's calendar; whether the proxy passes the prefix on or strips it."""

    async def go():
        async with World(sqlite_url, path_prefix="/ramsli") as w:
            p = "" if stripped else "/ramsli"
            lid, keeper = w.ledger["ledger"], w.ledger["token"]
            seat = w.people[0][0]
            secrets_ = {
                f"/l/{lid}/{keeper}": f"/ramsli/l/{lid}/…",
                f"/l/{lid}/{keeper}?lang=de": f"/ramsli/l/{lid}/…?lang=de",
                f"/api/ledgers/{lid}?token={keeper}": f"/ramsli/api/ledgers/{lid}?token=…",
                f"/l/{lid}/follow/follower-secret": f"/ramsli/l/{lid}/follow/…",
                f"/t/{w.tid}/s/{seat}": f"/ramsli/t/{w.tid}/s/…",
                f"/t/{w.tid}/watch/spectator-secret": f"/ramsli/t/{w.tid}/watch/…",
                f"/api/tables/{w.tid}/hands/1.json?token={seat}": f"/ramsli/api/tables/{w.tid}/hands/1.json?token=…",
                "/c/join/invite-secret": "/ramsli/c/join/…",
                "/api/invites/invite-secret": "/ramsli/api/invites/…",
                "/e/Ev1/tv?key=screen-secret&lang=de": "/ramsli/e/Ev1/tv?key=…&lang=de",
                "/api/evenings/Ev1?key=screen-secret": "/ramsli/api/evenings/Ev1?key=…",
                "/api/clubs/Cl1/evenings.ics?key=calendar-secret": "/ramsli/api/clubs/Cl1/evenings.ics?key=…",
            }
            with caplog.at_level(logging.INFO, logger="ramsli.access"):
                for path in secrets_:
                    await w.client.get(p + path)
                r = await w.client.post(
                    f"{p}/api/tables/{w.tid}/start", json={"creator_token": "x"}, params={"creator_token": "cr-secret"}
                )
            lines = [r for r in caplog.records if r.name == "ramsli.access"]
            assert [r.fields["path"] for r in lines[: len(secrets_)]] == list(secrets_.values())
            assert lines[-1].fields["path"] == f"/ramsli/api/tables/{w.tid}/start?creator_token=…"
            for r in lines:
                text = r.getMessage() + json.dumps(r.fields)
                for secret in (keeper, seat, "follower-secret", "spectator-secret", "invite-secret", "screen-secret"):
                    assert secret not in text, (secret, text)
                assert "calendar-secret" not in text and "cr-secret" not in text

    run(go())
    assert redact("/l/l/Lab/keeper-token", "/l") == "/l/l/Lab/…"  # a prefix that looks like a route
    assert redact("/ramsli", "/ramsli") == "/ramsli"


def test_guards_see_the_route_not_the_raw_path(sqlite_url):
    """``route_of`` (what the CSRF guard, the create limit and the request log ask, issue 38.3)
    names the route a request is for after the prefix, as the router matches it, whatever the
    prefix; a path no route takes is None; the create limit counts under a prefix too."""
    app = create_app(sqlite_url, path_prefix="/ramsli")

    def scope(path: str, method: str = "POST", kind: str = "http", root: str = "/ramsli") -> dict:
        return {"type": kind, "method": method, "path": path, "root_path": root, "app": app, "headers": []}

    assert route_of(scope("/ramsli/api/login")) == "/api/login"
    assert route_of(scope("/ramsli/api/players")) == "/api/players"
    assert route_of(scope("/ramsli/l/L1/keeper")) == "/l/{ledger_id}/{token}"
    assert route_of(scope("/ramsli/l/L1/follow/f", "GET")) == "/l/{ledger_id}/follow/{token}"
    assert route_of(scope("/ramsli/ws/T1", kind="websocket")) == "/ws/{table_id}"
    assert route_of(scope("/ramsli/api/login", "GET")) == "/api/login"  # the path's route (405)
    assert route_of(scope("/api/login", root="")) == "/api/login"
    for other in ("/ramsli/api/login/x", "/ramsli//api/login", "/ramsli/API/login", "/nope"):
        assert route_of(scope(other)) is None, other
    assert route_of({"type": "http", "method": "POST", "path": "/api/login", "headers": []}) is None  # no app yet

    async def go():
        async with World(sqlite_url, client="127.0.0.1", create_limit=1, path_prefix="/ramsli") as w:
            # the World made one ledger already: the address's next table is over the limit
            r = await w.client.post("/ramsli/api/tables?lang=de", json={"seats": SEATS3})
            assert (r.status_code, r.json()["code"]) == (429, "too_many_new")

    run(go())


@pytest.mark.parametrize("stripped", [False, True], ids=["proxy passes the prefix", "proxy strips it"])
def test_a_path_prefix_for_pages_links_and_redirects(sqlite_url, stripped):
    async def go():
        async with World(sqlite_url, path_prefix="/ramsli/") as w:
            p = "" if stripped else "/ramsli"
            r = await w.client.get(f"{p}/?lang=de")
            assert r.status_code == 200
            assert 'href="/ramsli/static/style.css"' in r.text and 'src="/ramsli/static/lobby.js"' in r.text
            page = json.loads(r.text.split('id="ramsli-page">')[1].split("</script>")[0])
            assert page["base"] == "/ramsli"
            assert (await w.client.get(f"{p}/static/common.js")).status_code == 200
            assert (await w.client.get(f"{p}/api/tables/{w.tid}")).json()["table"] == w.tid
            r = await w.client.get("/ramsli?lang=nl")
            assert r.status_code == 308 and r.headers["location"] == "/ramsli/?lang=nl"
            r = await w.client.get(f"{p}/t/{w.tid}/s/{w.people[0][0]}")
            assert r.status_code == 200 and 'src="/ramsli/static/table.js"' in r.text

    run(go())


def test_health_and_readiness(sqlite_url):
    async def go():
        async with World(sqlite_url) as w:
            r = await w.client.get("/healthz")
            assert r.status_code == 200 and r.json()["process"] == w.hub.ownership.process_id
            r = await w.client.get("/readyz")
            assert r.status_code == 200 and r.json()["status"] == "ready"
            w.hub.restored = False
            r = await w.client.get("/readyz")
            assert r.status_code == 503 and "restored" in r.json()["reasons"][0]
            w.hub.restored = True
            await w.hub.drain()
            r = await w.client.get("/readyz")
            assert r.status_code == 503 and r.json()["reasons"] == ["draining"]
            r = await w.client.post("/api/tables", json={"seats": SEATS3})
            assert r.status_code == 503 and r.json()["code"] == "draining"
            assert (await w.client.get("/healthz")).status_code == 200  # alive while it drains

    run(go())


def _families(text: str) -> dict:
    return {f.name: f for f in text_string_to_metric_families(text)}


def _value(families: dict, name: str, sample: str | None = None, **labels) -> float:
    fam = families[name]
    for s in fam.samples:
        if (sample is None or s.name == sample) and all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    raise AssertionError(f"no sample {sample or name} {labels}")


def test_metrics_parse_as_prometheus_text_and_count_what_happened(sqlite_url):
    async def go():
        async with World(sqlite_url) as w:
            hub, t = w.hub, w.table
            conn = Conn(metrics=w.app.state.metrics)
            await hub.receive(conn, json.dumps({"type": "hello", "token": w.people[0][0]}), t.id)
            await hub.receive(conn, json.dumps({"type": "act", "action": "p1 in", "seq": t.seq - 1}))
            await hub.receive(conn, "{not json")
            assert (await w.client.post("/api/tables/nope/sit", json={"token": "x", "name": "Ann"})).status_code == 404
            loop = asyncio.get_running_loop()
            deadline = loop.time() + scaled(20)
            acted = 0
            while acted < 4:  # the people act four times; the bot acts between, the hands are dealt
                assert loop.time() < deadline, t.seq
                hand = t.session.hand if t.session is not None else None
                if hand is not None and hand.to_act in w.people:
                    await t.intent(hand.to_act, str(hand.legal_actions()[0]), t.seq)
                    acted += 1
                await asyncio.sleep(0.01)
            while t.session.hand is None or t.session.hand.to_act not in w.people:  # a person's turn: still
                assert loop.time() < deadline
                await asyncio.sleep(0.01)
            r = await w.client.get("/metrics")
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain; version=0.0.4")
            fam = _families(r.text)
            events = [e for row in await w.store.load() if row["id"] == t.id for e in row["events"]]
            assert len(events) == t.seq
            counted = {s.labels["kind"]: s.value for s in fam["ramsli_events"].samples if s.name.endswith("_total")}
            kinds: dict[str, float] = {}
            for _seq, kind, _data in events:
                kinds[kind] = kinds.get(kind, 0) + 1
            assert counted == kinds  # every committed event once, by kind
            assert _value(fam, "ramsli_commit_seconds", "ramsli_commit_seconds_count") == len(events)
            bot_moves = sum(1 for _s, kind, data in events if kind == "act" and data["by"] == "bot")
            assert bot_moves > 0
            assert _value(fam, "ramsli_bot_decision_seconds", "ramsli_bot_decision_seconds_count", bot="rules") == (
                bot_moves
            )
            assert _value(fam, "ramsli_refusals", "ramsli_refusals_total", code="stale_seq", via="ws") == 1
            assert _value(fam, "ramsli_refusals", "ramsli_refusals_total", code="bad_json", via="ws") == 1
            assert _value(fam, "ramsli_refusals", "ramsli_refusals_total", code="no_table", via="http") == 1
            assert _value(fam, "ramsli_tables", status="playing") == 1
            assert _value(fam, "ramsli_tables", status="broken") == 0
            assert _value(fam, "ramsli_ledgers") == 1
            assert {s.labels["role"] for s in fam["ramsli_connections"].samples} >= {"seat", "spectator", "forwarded"}
            assert _value(fam, "ramsli_draining") == 0
            assert "process_cpu_seconds" in fam and "python_info" in fam

    run(go())


def test_the_admin_lists_and_closes_tables_and_ledgers(sqlite_url):
    async def go():
        async with World(sqlite_url) as w:
            assert (await w.client.get("/admin/tables")).json()["code"] == "no_admin"
        async with World(sqlite_url.replace(".sqlite", "-2.sqlite"), admin_token=ADMIN) as w:
            assert (await w.client.get("/admin/tables")).status_code == 401
            r = await w.client.get("/admin/tables", headers={"Authorization": "Bearer wrong-token-0000000"})
            assert r.status_code == 401 and r.json()["code"] == "admin_token"
            auth = {"Authorization": f"Bearer {ADMIN}"}
            listed = (await w.client.get("/admin/tables", headers=auth)).json()
            rows = {row["id"]: row for row in listed["tables"]}
            assert rows[w.tid]["status"] == "playing" and rows[w.tid]["kind"] == "table"
            assert rows[w.tid]["people"] == 2 and rows[w.tid]["seq"] == w.table.seq
            assert rows[w.ledger["ledger"]]["kind"] == "ledger"
            assert listed["processes"] == [w.hub.ownership.process_id]
            assert listed["total"] == len(listed["tables"]) == 2 and listed["next"] is None
            first = (await w.client.get("/admin/tables?limit=1", headers=auth)).json()
            second = (await w.client.get("/admin/tables?limit=1&offset=1", headers=auth)).json()
            assert (first["next"], second["next"], first["total"]) == (1, None, 2)  # paged, in creation order
            assert [r["id"] for r in first["tables"] + second["tables"]] == [r["id"] for r in listed["tables"]]
            assert rows[w.tid]["events"] == len(next(r["events"] for r in await w.store.load() if r["id"] == w.tid))
            conn = w.people[0][1]
            r = await w.client.post(f"/admin/tables/{w.tid}/close", headers=auth)
            assert r.status_code == 200 and r.json() == {"table": w.tid, "closed": True, "already": False}
            assert conn.closed_with == (4004, "table_closed")
            assert [m["code"] for m in conn.sent if m["type"] == "error"][-1] == "table_closed"
            r = await w.client.get(f"/api/tables/{w.tid}?lang=de")
            assert r.status_code == 410 and r.json()["code"] == "table_closed"
            r = await w.client.post(f"/admin/tables/{w.ledger['ledger']}/close", headers=auth)
            assert r.status_code == 200
            r = await w.client.get(f"/api/ledgers/{w.ledger['ledger']}?token={w.ledger['token']}")
            assert r.status_code == 404
            again = await w.client.post(f"/admin/tables/{w.tid}/close", headers=auth)
            assert again.json()["already"] is True
            assert (await w.client.post("/admin/tables/nope/close", headers=auth)).status_code == 404
            # a restart never restores a closed table
            fresh = Hub(w.store, allow_test_seeds=True)
            await fresh.restore()
            assert w.tid not in fresh.tables  # not even read at start-up: only when asked for
            assert await fresh.locate(w.tid) == ("closed", None)
            assert w.tid not in fresh.tables and w.tid in fresh.closed
            await fresh.close()

    run(go())


def test_the_admin_page_refuses_a_limit_or_offset_out_of_range(sqlite_url):
    """``limit`` is a whole number 1..10000 and ``offset`` 0..10**12, given once; anything else is
    a translated ``422 bad_message`` naming the parameter and its range (it was a silent default
    page, one row for ``limit=0``, or a 500 from SQLite for a huge offset)."""

    async def go():
        async with World(sqlite_url, admin_token=ADMIN) as w:
            auth = {"Authorization": f"Bearer {ADMIN}"}
            bad = {
                "limit": ["-1", "abc", "1.5", "NaN", "", "0", "10001", "１", "1e3"],
                "offset": ["-1", "1e3", "9223372036854775808", "1000000000001", "x"],
            }
            for name, values in bad.items():
                for value in values:
                    r = await w.client.get("/admin/tables", params={name: value}, headers=auth)
                    assert r.status_code == 422, (name, value, r.text)
                    body = r.json()
                    assert body["error"] == "bad_message" and body["code"] == "query_range", body
                    assert body["fields"]["field"] == name
                    assert name in body["message"] and (
                        "10,000" in body["message"] or "1,000,000,000,000" in body["message"]
                    )
            r = await w.client.get("/admin/tables?limit=abc&lang=de", headers=auth)
            assert r.status_code == 422 and "ganze Zahl" in r.json()["message"], r.json()
            r = await w.client.get("/admin/tables?limit=1&limit=2", headers=auth)
            assert r.status_code == 422 and r.json()["code"] == "field_twice"
            assert r.json()["fields"]["field"] == "limit"
            r = await w.client.get("/admin/tables?offset=0&offset=1", headers=auth)
            assert r.status_code == 422 and r.json()["fields"]["field"] == "offset"
            ok = (await w.client.get("/admin/tables?limit=10000&offset=1000000000000", headers=auth)).json()
            assert ok["tables"] == [] and ok["total"] == 2 and ok["next"] is None
            one = (await w.client.get("/admin/tables?limit=1&offset=0", headers=auth)).json()
            assert len(one["tables"]) == 1 and one["next"] == 1

    run(go())


def test_the_admin_page_shows_a_finished_table_not_read_since_start_as_over(sqlite_url):
    """A table marked finished in the database that no process has read since start shows
    ``"status": "over"`` (it showed null, like a table no process runs); its ``process`` is null."""

    async def go():
        async with World(sqlite_url, admin_token=ADMIN) as w:
            await w.store.create_table("donetable01", {"preset": "traditional"}, 1.0)
            await w.store.mark_finished(["donetable01"], 2.0)
            await w.store.create_table("idletable01", {"preset": "traditional"}, 3.0)
            auth = {"Authorization": f"Bearer {ADMIN}"}
            rows = {r["id"]: r for r in (await w.client.get("/admin/tables", headers=auth)).json()["tables"]}
            assert "donetable01" not in w.hub.tables
            assert rows["donetable01"]["status"] == "over" and rows["donetable01"]["process"] is None
            assert rows["idletable01"]["status"] is None  # not finished, not run: still unknown
            assert rows[w.tid]["status"] == "playing"

    run(go())


def test_language_codes_are_case_insensitive_in_the_query_and_the_hello(sqlite_url):
    """``?lang=DE`` answers in German as ``?lang=de`` and ``Accept-Language: DE`` do (it answered in
    English); a hello with ``"lang": "NL"`` makes the connection's messages Dutch."""

    async def go():
        async with World(sqlite_url) as w:
            lower = (await w.client.get("/api/tables/nosuchtable?lang=de")).json()["message"]
            english = (await w.client.get("/api/tables/nosuchtable?lang=en")).json()["message"]
            assert lower != english
            for code in ("DE", "De", " dE "):
                r = await w.client.get("/api/tables/nosuchtable", params={"lang": code})
                assert r.status_code == 404 and r.json()["message"] == lower, code
            it = (await w.client.get("/nosuchpage?lang=it")).json()["message"]
            assert (await w.client.get("/nosuchpage?lang=IT")).json()["message"] == it != english
            dutch = Conn()
            await w.hub.receive(dutch, json.dumps({"type": "hello", "token": w.people[0][0], "lang": "NL"}), w.tid)
            assert dutch.lang == "nl"
            await w.hub.receive(dutch, json.dumps({"type": "act", "action": "p1 in", "seq": w.table.seq + 5}))
            stale = dutch.sent[-1]
            nl = Conn()  # the same seat in lower case: it replaces the first connection
            await w.hub.receive(nl, json.dumps({"type": "hello", "token": w.people[0][0], "lang": "nl"}), w.tid)
            await w.hub.receive(nl, json.dumps({"type": "act", "action": "p1 in", "seq": w.table.seq + 5}))
            assert stale["code"] == "stale_seq" and stale["message"] == nl.sent[-1]["message"]

    run(go())


def test_the_review_page_of_a_hand_that_is_not_finished_is_a_translated_404(sqlite_url):
    """``/t/{t}/review?hand=N`` for a hand that is not a finished hand of the table (-1, 0, one not
    played yet, a huge number) answers ``404 no_hand`` in the request's language (it drew a 200
    page that could only fail); without ``hand`` the session review page is drawn as before."""

    async def go():
        async with World(sqlite_url) as w:
            token = w.people[0][0]
            for hand in ("-1", "0", "1", "99999999999999999999999"):
                r = await w.client.get(f"/t/{w.tid}/review", params={"token": token, "hand": hand, "lang": "de"})
                assert r.status_code == 404, (hand, r.text[:200])
                page = json.loads(re.search(r'id="ramsli-page">(.*?)</script>', r.text).group(1))
                assert page["code"] == "no_hand" and page["message"].startswith("Spiel ") and hand in page["message"]
            r = await w.client.get(f"/t/{w.tid}/review", params={"token": token})
            assert r.status_code == 200

    run(go())


def test_an_unknown_message_type_names_the_plain_type(sqlite_url):
    """``unknown_type`` carries the type given as it is in ``fields.kind`` (it carried ``'fold'``
    with Python's quotes), and the message lists every type the server takes."""

    async def go():
        async with World(sqlite_url) as w:
            c = Conn()
            await w.hub.receive(c, json.dumps({"type": "hello", "token": w.people[0][0]}), w.tid)
            await w.hub.receive(c, json.dumps({"type": "fold"}))
            err = c.sent[-1]
            assert err["code"] == "unknown_type" and err["refusal"]["fields"]["kind"] == "fold", err
            assert "'" not in err["message"] and "fold" in err["message"]

    run(go())


def _read_only(w: World) -> None:
    """Make the world's database read-only under the running server (as a file made read-only or
    immutable, or a full disk, is found by the next write): SQLite itself refuses every write."""
    from sqlalchemy.ext.asyncio import create_async_engine

    path = w.url.split(":///", 1)[1]
    w.store.engine = create_async_engine(
        f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true", pool_size=1, max_overflow=0
    )


def test_a_read_only_database_is_a_translated_storage_refusal_on_every_write(sqlite_url, caplog):
    """A write the database refuses (read-only) answers ``503 storage`` as JSON in the request's
    language over HTTP (creating a table, the pace) and a ``storage`` error on the WebSocket
    (``chat``), which stays open; the log has one line each, no traceback (they were plain-text
    500s with tracebacks, and a chat closed the socket)."""

    async def go():
        async with World(sqlite_url) as w:
            old = w.store.engine
            _read_only(w)
            await old.dispose()
            with caplog.at_level("ERROR", logger="ramsli.server"):
                r = await w.client.post("/api/tables?lang=de", json={"seats": SEATS3})
                assert r.status_code == 503 and r.json()["code"] == "storage", r.text
                assert r.json()["message"] == render(Refusal("storage"), "de") != render(Refusal("storage"), "en")
                r = await w.client.post(
                    f"/api/tables/{w.tid}/pace?lang=nl",
                    json={"creator_token": w.made["creator_token"], "bot_pace_seconds": 2},
                )
                assert r.status_code == 503 and r.json()["code"] == "storage", r.text
                conn = w.people[0][1]
                before = len(conn.sent)
                await w.hub.receive(conn, json.dumps({"type": "chat", "text": "hello all"}))
                errors = [m for m in conn.sent[before:] if m["type"] == "error"]
                assert [m["code"] for m in errors] == ["storage"] and conn.closed_with is None
                await w.hub.receive(conn, json.dumps({"type": "ping"}))
                assert conn.sent[-1] == {"type": "pong"}
            assert not any(r.exc_info for r in caplog.records)
            assert sum("readonly" in r.getMessage() for r in caplog.records) >= 3
            await w.store.engine.dispose()
            w.store.engine = old  # closed by the world

    run(go())


class _FarHub:
    """A hub of a cluster in which table ``far`` runs on another process and every other table here."""

    def __init__(self) -> None:
        self.ownership = SimpleNamespace(solo=False, forward_secret="s3cret", peers=self._peers)
        self.forgotten: list[str] = []

    async def _peers(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(address="http://peer:8001")]

    async def locate(self, table_id: str) -> tuple[str, SimpleNamespace | None]:
        return ("remote", SimpleNamespace(address="http://peer:8001/")) if table_id == "far" else ("local", None)

    def forget_owner(self, table_id: str) -> None:
        self.forgotten.append(table_id)


async def _here(scope, receive, send) -> None:
    await JSONResponse({"from": "here"})(scope, receive, send)


def test_a_request_for_another_process_table_is_relayed_through_the_peers_client():
    """The forwarding middleware relays a request for a table another process runs through the
    :class:`Peers`' one HTTP client, with the cluster's secret, and counts it; a table of this
    process is answered here; :func:`gather_from_peers` asks every peer through the same client."""
    from ramsli.server.cluster.proxy import FORWARD_HEADER, Forwarder, Peers, gather_from_peers

    asked: list[tuple[str, str, str | None]] = []

    def peer(request: httpx.Request) -> httpx.Response:
        asked.append((request.method, str(request.url), request.headers.get(FORWARD_HEADER)))
        return httpx.Response(200, json={"from": "peer"})

    counted: list[str] = []
    metrics = SimpleNamespace(
        forwards=SimpleNamespace(labels=lambda kind: SimpleNamespace(inc=lambda: counted.append(kind)))
    )
    hub = _FarHub()

    async def go() -> None:
        peers = Peers(http=httpx.AsyncClient(transport=httpx.MockTransport(peer)))
        app = Forwarder(_here, peers, hub=lambda: hub, metrics=metrics)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
            r = await client.post("/api/tables/far/sit?token=t", json={"name": "Ann"})
            assert (r.status_code, r.json()) == (200, {"from": "peer"})
            assert (await client.get("/api/tables/near")).json() == {"from": "here"}
        assert asked == [("POST", "http://peer:8001/api/tables/far/sit?token=t", "s3cret")]
        assert counted == ["http"] and hub.forgotten == []
        assert await gather_from_peers(hub, peers, "/api/tables") == [{"from": "peer"}]
        assert asked[-1] == ("GET", "http://peer:8001/api/tables", "s3cret")
        client = peers.http
        await peers.aclose()
        assert client.is_closed

    asyncio.run(go())


def test_a_relay_that_fails_answers_moved_and_forgets_the_owner():
    """A peer that cannot be reached: ``503 moved`` with ``Retry-After: 1``, and the hub forgets
    where the table ran (the next request looks again)."""
    from ramsli.server.cluster.proxy import Forwarder, Peers

    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    hub = _FarHub()

    async def go() -> None:
        peers = Peers(http=httpx.AsyncClient(transport=httpx.MockTransport(unreachable)))
        app = Forwarder(_here, peers, hub=lambda: hub)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
            r = await client.get("/api/tables/far")
        assert (r.status_code, r.json()["error"], r.headers["retry-after"]) == (503, "moved", "1")
        assert hub.forgotten == ["far"]
        await peers.aclose()

    asyncio.run(go())
