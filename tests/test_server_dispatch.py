"""The WebSocket dispatcher (ramsli.server.tables.dispatch): every client message type has one
route, and the one check of who may send a message refuses every seat message from a reader, a
replaced connection and a connection before its hello, changing nothing."""

from __future__ import annotations

import asyncio
import json
import re
import time

from ramsli.server.protocol.closecodes import CloseCode
from ramsli.server.protocol.schemas import _CLIENT, CLIENT_TYPES
from ramsli.server.tables.connection import QUEUE_LIMIT, RATE_LIMIT, Connection, WebSocketConnection
from ramsli.server.tables.dispatch import ROUTES, May

from helpers import open_hub, scaled, seat_table, table_state

run = asyncio.run

#: one message of every type only the person at a seat may send
SEAT_MESSAGES = {
    "act": {"type": "act", "action": "p1 in", "seq": 0},
    "chat": {"type": "chat", "text": "hi"},
    "react": {"type": "react", "code": "thumbs_up"},
    "ready": {"type": "ready", "hand": 1},
    "leave": {"type": "leave"},
}


def test_every_client_message_type_has_one_route():
    assert set(ROUTES) == set(_CLIENT.values()) and len(CLIENT_TYPES) == len(ROUTES)
    may = {name: ROUTES[model].may for name, model in _CLIENT.items()}
    assert may == {
        "hello": May.NEW,
        "ping": May.ANYONE,
        "act": May.SEAT,
        "chat": May.SEAT,
        "react": May.SEAT,
        "ready": May.SEAT,
        "leave": May.SEAT,
    }
    assert set(SEAT_MESSAGES) == {name for name, m in may.items() if m is May.SEAT}


def test_a_seat_message_from_anyone_but_the_seat_is_refused_and_changes_nothing(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await seat_table(hub)
        watcher, invite, stranger, old = Connection(), Connection(), Connection(), Connection()
        spectate = made["spectate"].rsplit("/", 1)[1]
        await hub.receive(watcher, json.dumps({"type": "hello", "token": spectate}), t.id)
        # the creator's invite link of a seat a person took owns no seat (R7)
        await hub.receive(invite, json.dumps({"type": "hello", "token": made["seats"][0]["token"]}), t.id)
        personal, _conn = people[0]
        await hub.receive(old, json.dumps({"type": "hello", "token": personal}), t.id)
        await hub.receive(Connection(), json.dumps({"type": "hello", "token": personal}), t.id)  # the newer wins
        assert (watcher.role, invite.role, old.closed_with) == ("spectator", "invite", (4001, "replaced"))
        before = table_state(t)
        chat_before = list(t.chat)
        for name, msg in SEAT_MESSAGES.items():
            for conn, code in (
                (watcher, "spectator"),
                (invite, "not_sitting"),
                (stranger, "no_hello"),
                (old, "replaced"),
            ):
                await hub.receive(conn, json.dumps(msg), t.id)
                err = conn.sent[-1]
                assert (err["type"], err["error"], err["code"]) == ("error", code, code), (name, code, err)
                assert ("seq" in err) == (name == "act" and code in ("spectator", "not_sitting")), (name, err)
        assert table_state(t) == before and list(t.chat) == chat_before
        await hub.close()
        await store.close()

    run(go())


def test_ping_needs_no_hello_and_hello_is_said_once(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await seat_table(hub)
        c = Connection()
        await hub.receive(c, json.dumps({"type": "ping"}), t.id)
        assert c.sent == [{"type": "pong"}]
        personal, conn = people[0]
        await hub.receive(conn, json.dumps({"type": "hello", "token": personal, "lang": "de"}), t.id)
        assert (conn.sent[-1]["error"], conn.sent[-1]["code"], conn.lang) == ("bad_message", "hello_twice", "en")
        await hub.close()
        await store.close()

    run(go())


def test_routes_reach_the_services_through_deps_only():
    """The hub, clubs, accounts, metrics, admin token, connections, coach, pub ledgers, the
    database's damage and the cluster's peers are read from ``app.state`` (``app.state.name`` or ``getattr(app.state,
    "name")``) only by the app's wiring and ramsli.server.deps (typed); every route takes them
    from there."""
    from pathlib import Path

    import ramsli.server as pkg

    root = Path(pkg.__file__).parent
    names = "hub|clubs|accounts|metrics|admin_token|ws_conns|coach|ledgers|ledgers_lock|database_damaged|peers|http"
    pattern = re.compile(rf"app\.state\.({names})\b|getattr\(\s*[\w.]*app\.state\s*,\s*[\"']({names})[\"']")
    assert pattern.search('getattr(request.app.state, "ledgers", None)')  # the pattern finds both forms
    assert pattern.search("conn.app.state.coach") and not pattern.search("app.state.coaches")
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        if path.name not in ("app.py", "deps.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_every_http_route_lives_in_its_concerns_routes_module():
    """Each HTTP route and the WebSocket of the app is a function of ``ramsli.server.<concern>.routes``
    (or, for a concern's own HTML pages, ``ramsli.server.<concern>.pages``: the evenings' pages; for
    its downloads, ``ramsli.server.<concern>.feeds``: the evenings' PDF, CSV, QR and calendar);
    the coach's routes (the hint, the reviews, training) are the coach's, the pages' the web's."""
    from fastapi.routing import APIRoute, APIWebSocketRoute

    from ramsli.server.app import create_app

    def every(routes) -> list:
        out = []
        for route in routes:
            if isinstance(route, (APIRoute, APIWebSocketRoute)):
                out.append(route)
            elif hasattr(route, "original_router"):
                out.extend(every(route.original_router.routes))
        return out

    routes = every(create_app("sqlite+aiosqlite:///:memory:").routes)
    where = {(r.path, m): r.endpoint.__module__ for r in routes for m in (getattr(r, "methods", None) or {"WS"})}
    assert len(routes) > 40 and ("/ws/{table_id}", "WS") in where
    outside = sorted(
        f"{m} {p}: {mod}"
        for (p, m), mod in where.items()
        if not re.fullmatch(r"ramsli\.server\.\w+\.(?:routes|pages|feeds)", mod)
    )
    assert outside == []
    coach = {p for (p, _m), mod in where.items() if mod == "ramsli.server.coach.routes"}
    assert coach == {
        "/api/tables/{table_id}/hint",
        "/api/tables/{table_id}/hands/{number}/review",
        "/api/tables/{table_id}/review",
        "/train",
        "/api/train/position",
        "/api/train/answer",
    }
    assert where[("/sw.js", "GET")] == where[("/", "GET")] == "ramsli.server.web.routes"
    pages = {p for (p, _m), mod in where.items() if mod.endswith(".pages")}
    assert pages == {f"/e/{{evening_id}}{tail}" for tail in ("", "/director", "/tv", "/print")} | {
        "/evenings/new",
        "/challenge",  # the weekly challenge's pages (challenge.pages)
        "/c/{club_id}/challenge",
    }
    feeds = {p for (p, _m), mod in where.items() if mod.endswith(".feeds")}
    assert feeds == {f"/api/evenings/{{evening_id}}/{name}" for name in ("sheets.pdf", "standings.csv", "qr.svg")} | {
        "/api/clubs/{club_id}/evenings.ics"
    }


# -- over a real WebSocket (Starlette's TestClient runs the app in-process) -------------------------


def _client(tmp_path):
    from starlette.testclient import TestClient

    from ramsli.server.app import create_app

    return TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}", allow_test_seeds=True))


def _table(client) -> dict:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "tips"}, {"kind": "bot", "bot": "tips"}]
    return client.post("/api/tables", json={"seats": seats, "rules": ["end=hands:1"], "seed": 3}).json()


def test_the_hello_is_due_from_the_accept_and_pings_do_not_put_it_off(tmp_path, monkeypatch):
    """No ``hello`` within HELLO_SECONDS of opening the socket closes it with 4000 (``no_hello``),
    however often the client pings meanwhile (a ping is answered, but it is not a hello)."""
    from starlette.websockets import WebSocketDisconnect

    from ramsli.server.tables import dispatch

    monkeypatch.setattr(dispatch, "HELLO_SECONDS", 0.5)
    with _client(tmp_path) as client:
        tid = _table(client)["table"]
        codes, closed = [], None
        with client.websocket_connect(f"/ws/{tid}") as ws:
            try:
                for _ in range(int(scaled(100))):  # 100 pings 0.1 s apart (times the scale): far past the deadline
                    ws.send_text(json.dumps({"type": "ping"}))
                    msg = json.loads(ws.receive_text())
                    codes.append(msg.get("code", msg["type"]))
                    if msg["type"] == "error":
                        ws.receive_text()  # the close frame follows
                    time.sleep(0.1)
            except WebSocketDisconnect as e:
                closed = e.code
    assert "pong" in codes and codes[-1] == "no_hello", codes
    assert closed == CloseCode.NO_HELLO


def test_a_dropped_intent_names_its_action_and_seq_on_the_wire(tmp_path):
    """An ``act`` the rate limit drops says which (``action``, ``intent_seq``) in the frame the
    client receives, not only in the server's copy (docs/protocol.md, *rate_limited*)."""
    with _client(tmp_path) as client:
        made = _table(client)
        tid = made["table"]
        token = client.post(f"/api/tables/{tid}/sit", json={"token": made["seats"][0]["token"], "name": "Ann"}).json()[
            "token"
        ]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            for _ in range(RATE_LIMIT * 10):  # a bucket of RATE_LIMIT, refilled at RATE_LIMIT a second
                ws.send_text(json.dumps({"type": "act", "action": "p1 in", "seq": 7}))
            ws.send_text(json.dumps({"type": "ping"}))  # answered after every act before it
            dropped = None
            while True:  # until the ping's answer: a pong, or its own plain rate_limited
                msg = json.loads(ws.receive_text())
                if msg.get("code") == "rate_limited_act" and dropped is None:
                    dropped = msg
                if msg["type"] == "pong" or msg.get("code") == "rate_limited":
                    break
    assert dropped is not None
    assert (dropped["error"], dropped["action"], dropped["intent_seq"]) == ("rate_limited", "p1 in", 7)


def test_a_client_too_slow_to_read_is_closed_and_its_seat_is_away_at_once():
    """A connection whose queue is full is closed with 1008 ``too slow``: the close is queued in
    place of what it never read, nothing more is queued, and its table hears of it at once."""

    class Stuck:
        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()  # the client never reads

        async def close(self, code: int = 1000, reason: str = "") -> None:
            pass

    class Seen:
        def __init__(self) -> None:
            self.detached: list[object] = []

        def detach(self, seat: object, conn: object) -> None:
            self.detached.append(conn)

    async def go():
        conn = WebSocketConnection(Stuck(), "en")  # type: ignore[arg-type]
        table = Seen()
        conn.table, conn.seat = table, object()  # type: ignore[assignment]
        for n in range(QUEUE_LIMIT + 50):
            conn.deliver({"type": "view", "n": n})
            await asyncio.sleep(0) if n == 0 else None  # the writer takes the first and hangs
        queued = []
        while not conn.queue.empty():
            queued.append(conn.queue.get_nowait())
        await asyncio.sleep(0)
        conn.writer.cancel()
        return conn.closed_with, queued, table.detached, conn

    closed_with, queued, detached, conn = run(go())
    assert closed_with == (CloseCode.TOO_SLOW, "too slow")
    assert queued == [("close", CloseCode.TOO_SLOW.value, "too slow")]
    assert detached == [conn]


def test_a_dropped_intent_names_its_action_and_seq_over_a_real_socket(sqlite_url, server_factory):
    """Over a real ``ramsli serve`` and a real WebSocket client (issue 37.7): the ``error`` frame of
    an ``act`` the rate limit drops carries ``action`` and ``intent_seq`` as docs/protocol.md says
    (*rate_limited*), read from the bytes the socket carried, not from the server's own copy."""
    import websockets

    from helpers import post_json, scaled

    server = server_factory(sqlite_url)
    status, made = post_json(
        server.http,
        "/api/tables",
        {"preset": "traditional", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "rules"}]},
    )
    assert status == 201, made
    tid = made["table"]
    status, sat = post_json(server.http, f"/api/tables/{tid}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})
    assert status == 200, sat

    async def go() -> tuple[list[dict], dict | None]:
        frames: list[dict] = []
        async with websockets.connect(f"{server.ws}/ws/{tid}", open_timeout=scaled(10)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": sat["token"]}))
            # a bucket of RATE_LIMIT, refilled at RATE_LIMIT a second: most of this burst is dropped
            for _ in range(RATE_LIMIT * 10):
                await ws.send(json.dumps({"type": "act", "action": "p1 in", "seq": 7}))
            await ws.send(json.dumps({"type": "ping"}))  # answered after every act before it

            async def read() -> None:
                while True:  # until the ping's answer: a pong, or its own plain rate_limited
                    msg = json.loads(await ws.recv())
                    frames.append(msg)
                    if msg["type"] == "pong" or msg.get("code") == "rate_limited":
                        return

            await asyncio.wait_for(read(), scaled(20))
        dropped = next((m for m in frames if m.get("code") == "rate_limited_act"), None)
        return frames, dropped

    frames, dropped = run(go())
    assert dropped is not None, [m.get("code", m["type"]) for m in frames]
    assert dropped["type"] == "error" and dropped["error"] == "rate_limited"
    assert (dropped["action"], dropped["intent_seq"]) == ("p1 in", 7)
    assert dropped["fields"] == {"limit": RATE_LIMIT, "action": "p1 in"} and "p1 in" in dropped["message"]
