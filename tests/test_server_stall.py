"""No request stalls the server (issue 38, items 2, 7 and 9): bounded queues, big bodies, slow clients.

- a training position of one's own tables replays a hand or a few, on a thread, whatever the
  list of tables holds (thirty copies of a long table once replayed every hand of it thirty
  times on the event loop); the training values' queue is bounded (``429 train_busy``), the
  coach's routes are limited per address (``429 coach_flood``), and every ``429`` carries
  ``Retry-After``;
- under a flood of such requests against a real ``ramsli serve``, ``/healthz`` keeps answering
  (its worst latency is printed: a figure, bounded only generously) and the flood gets ``429``s;
- a 1 MB chunked body on every JSON ``POST`` route is refused ``413``/``422`` JSON with every
  security header, over a real socket, with no traceback in the log;
- a client that sends half its headers is cut after the header time-out; the N+1st connection
  from one address is refused while N are open.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from ramsli.server.coach import hints
from ramsli.server.coach import review as coach

from helpers import ServerProcess, post_json, scaled, wait_until

#: a table whose one person went away at once (a bot plays for them), the rest tips bots
LONG_TABLE = {
    "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "tips"}] * 4,
    "rules": ["end=hands:{hands}", "starting_stack=1000"],
    "seed": 5,
    "bot_pace_seconds": 0,
    "hand_pause_seconds": 0,
    "grace_seconds": 0,
}


def _long_table(post, get, hands: int) -> tuple[str, str]:
    """A finished table of ``hands`` hands (``post(path, body) -> (status, json)``, ``get(path) ->
    json``): its id and the personal token of its one person (seat p1)."""
    spec = dict(LONG_TABLE, rules=[r.format(hands=hands) for r in LONG_TABLE["rules"]])
    status, made = post("/api/web/tables", spec)
    assert status in (200, 201), made
    tid = made["table"]
    status, sat = post(f"/api/tables/{tid}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})
    assert status == 200, sat
    assert post(f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})[0] == 200
    wait_until(lambda: get(f"/api/tables/{tid}")["status"] == "over", 30 + hands, what=f"{hands} hands played")
    return tid, sat["token"]


@pytest.fixture
def quiet_warm_up(monkeypatch):
    """The server's lab warm-up is off in this process (no compile process is started)."""
    monkeypatch.setattr(hints, "_warm", [hints.LabWarmUp(enabled=False)])


def _client(tmp_path, warm: hints.LabWarmUp, **options):
    from starlette.testclient import TestClient

    from ramsli.server.app import create_app

    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}", allow_test_seeds=True, **options)
    app.state.coach = coach.CoachService(executor=ThreadPoolExecutor(2), warm=warm)
    return TestClient(app)


def test_a_position_of_thirty_copies_of_a_long_table_replays_a_hand_or_two_off_the_event_loop(
    tmp_path, quiet_warm_up, monkeypatch
):
    """Issue 38.2: the list of tables counts each table once and a position replays the hands it
    draws from only until one holds a declaration to train on, on a thread (R7: still the seat's
    own cards only)."""
    replays: list[bool] = []
    original = coach.seat_decisions

    def counted(hh, seat):
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        replays.append(on_loop)
        return original(hh, seat)

    monkeypatch.setattr(coach, "seat_decisions", counted)
    hands = 12
    with _client(tmp_path, hints.LabWarmUp(enabled=False)) as client:

        def post(path: str, body: dict):
            r = client.post(path, json=body)
            return r.status_code, r.json()

        tid, token = _long_table(post, lambda p: client.get(p).json(), hands)
        t = client.app.state.hub.tables[tid]
        for _ in range(3):
            replays.clear()
            r = client.post(
                "/api/train/position", json={"source": "mine", "tables": [{"table": tid, "token": token}] * 30}
            )
            assert r.status_code == 200, r.json()
            p = r.json()
            assert p["from"]["kind"] == "table" and p["seat"] == "p1"
            hand = t.session.results[p["from"]["hand"] - 1].hand
            assert set(p["cards"]) == {str(c) for c in hand.dealt[0]}  # the seat's own cards (R7)
            # before: every hand of the table thirty times (360 replays), on the event loop
            assert 1 <= len(replays) < hands, len(replays)
            assert not any(replays), "a hand was replayed on the event loop"


def test_the_training_queue_is_bounded_and_every_429_says_when_to_come_back(tmp_path, quiet_warm_up, monkeypatch):
    """Issue 38.2: with :data:`~ramsli.server.coach.review.MAX_TRAINING` values waiting in the
    coach's process a new position is refused ``429 train_busy`` with ``Retry-After`` (before,
    603 positions were queued in 10 s); once the values are done, positions are made again."""
    gate = threading.Event()

    def held(*args):
        gate.wait(scaled(30))
        return {"mean": 0.5, "ci95": 0.1, "effective": 100.0, "samples": 10}

    monkeypatch.setattr(coach, "_advantage_task", held)
    monkeypatch.setattr(coach, "MAX_TRAINING", 3)
    warm = hints.LabWarmUp(enabled=False)
    warm.state = hints.WarmState.READY  # positions are valued in the coach's pool
    with _client(tmp_path, warm) as client:
        try:
            body = {"source": "generated", "game": "traditional-5"}
            made = [client.post("/api/train/position", json=body) for _ in range(3)]
            assert [r.status_code for r in made] == [200, 200, 200]
            r = client.post("/api/train/position", json=body, headers={"Accept-Language": "de"})
            assert r.status_code == 429 and r.json()["error"] == "train_busy", r.json()
            assert r.headers["Retry-After"] == str(coach.TRAINING_RETRY)
            assert "3" in r.json()["message"] and client.app.state.coach.training == 3
        finally:
            gate.set()
        wait_until(lambda: client.app.state.coach.training == 0, 10, what="the held values done")
        r = client.post("/api/train/position", json=body)
        assert r.status_code == 200
        a = client.post("/api/train/answer", json={"id": r.json()["id"], "answer": "in"}).json()
        assert a["source"] == "equilibrium" and a["best"] == "in"


def test_the_coachs_routes_are_limited_per_address(tmp_path, quiet_warm_up):
    """Issue 38.2: over ``coach_limit`` requests a minute from one address the coach's routes answer
    ``429 coach_flood`` with ``Retry-After`` (the create limit's token bucket); other routes do not
    count, and a refusal of the limit leaves no position behind."""
    with _client(tmp_path, hints.LabWarmUp(enabled=False), coach_limit=3) as client:
        answers = [client.post("/api/train/answer", json={"id": "nope", "answer": "in"}) for _ in range(3)]
        assert [r.status_code for r in answers] == [404, 404, 404]
        assert client.get("/api/tables").status_code == 200  # not the coach's
        before = len(coach._positions)
        for path in ("/api/train/position", "/api/tables/x/hint", "/api/tables/x/hands/1/review"):
            r = client.post(path, json={}) if path.endswith("position") else client.get(path)
            assert r.status_code == 429 and r.json()["error"] == "coach_flood", (path, r.json())
            assert int(r.headers["Retry-After"]) >= 1
            assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert len(coach._positions) == before


def _healthz_ms(base: str) -> float:
    t0 = time.perf_counter()
    with urllib.request.urlopen(base + "/healthz", timeout=scaled(30)) as r:
        assert r.status == 200
    return (time.perf_counter() - t0) * 1000


def _flood_one(base: str, body: bytes, address: str) -> tuple[int, str | None, str | None]:
    """(status, Retry-After, error code) of one training request from ``address`` (through the
    trusted proxy's header)."""
    req = urllib.request.Request(
        base + "/api/train/position",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
    )
    try:
        with urllib.request.urlopen(req, timeout=scaled(60)) as r:
            r.read()
            return r.status, None, None
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Retry-After"), json.loads(e.read()).get("error")


def test_a_flood_of_training_requests_never_stalls_the_server(tmp_path, monkeypatch):
    """Issue 38.2 against a real ``ramsli serve``: while eight clients flood ``POST
    /api/train/position`` with thirty copies of a long table (from many addresses, through the
    trusted proxy's header, and from one), ``/healthz`` keeps answering within a generous bound
    (its worst latency printed: 0.2-0.5 s on a busy 2-core machine; before, each request replayed
    every hand thirty times on the event loop and ``/healthz`` waited over 11 s); the flood is
    answered ``429`` with ``Retry-After`` (``train_busy`` and ``coach_flood``)."""
    monkeypatch.setenv("RAMSLI_LAB_WARM_UP", "0")  # values in the coach's process from the start
    server = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}",
        tmp_path,
        ["--trusted-proxy", "127.0.0.1", "--coach-limit", "20"],
    ).start(timeout=scaled(30))
    try:
        base = server.http

        def get(path: str):
            with urllib.request.urlopen(base + path, timeout=scaled(10)) as r:
                return json.loads(r.read())

        hands = 200
        tid, token = _long_table(lambda p, b: post_json(base, p, b), get, hands)
        body = json.dumps({"source": "mine", "tables": [{"table": tid, "token": token}] * 30}).encode()
        rng = random.Random(1)
        addresses = [f"10.1.{rng.randrange(256)}.{rng.randrange(256)}" for _ in range(150)] + ["10.9.9.9"] * 50
        rng.shuffle(addresses)
        lags: list[float] = [_healthz_ms(base)]
        with ThreadPoolExecutor(8) as pool:
            flood = [pool.submit(_flood_one, base, body, a) for a in addresses]
            while not all(f.done() for f in flood):
                lags.append(_healthz_ms(base))
            answers = [f.result() for f in flood]
        lags.append(_healthz_ms(base))
        codes = [c for c, _, _ in answers]
        errors = [e for c, _, e in answers if c == 429]
        print(
            f"\nflood of {len(answers)} training requests (30 copies of a {hands}-hand table): "
            f"{codes.count(200)} positions, {errors.count('train_busy')} train_busy, "
            f"{errors.count('coach_flood')} coach_flood; /healthz over {len(lags)} probes: "
            f"median {sorted(lags)[len(lags) // 2]:.1f} ms, worst {max(lags):.1f} ms"
        )
        assert set(codes) <= {200, 429}, answers
        assert all(ra is not None and int(ra) >= 1 for c, ra, _ in answers if c == 429)
        assert set(errors) <= {"train_busy", "coach_flood"} and errors.count("coach_flood") >= 20, errors
        # a generous bound: a stall of seconds (one request's replays on the event loop) breaks it
        assert max(lags) < scaled(1.5) * 1000, lags
        log = server.log.read_text()
        assert "Traceback" not in log, log[-3000:]
    finally:
        server.stop()


# -- big bodies (issue 38.7) --------------------------------------------------------------------------

#: the security headers every answer carries (ramsli.server.ops.guards.SecurityHeaders)
SECURITY = ("content-security-policy", "referrer-policy", "x-content-type-options", "x-frame-options")


def _json_post_routes() -> list[str]:
    """Every ``POST`` route of the app (its path, each ``{parameter}`` filled with ``x``)."""
    import re

    from test_server_ops import api_routes

    from ramsli.server.app import create_app

    routes = api_routes(create_app("sqlite+aiosqlite:///:memory:").routes)
    paths = {r.path for r in routes if "POST" in r.methods}
    return sorted(re.sub(r"\{[^}]+\}", "x", p) for p in paths)


def _raw(
    port: int, head: bytes, body: bytes = b"", timeout: float | None = None, source: str = "127.0.0.1"
) -> tuple[int, dict[str, str], bytes]:
    """Send ``head`` and ``body`` on a fresh socket from address ``source`` and read one HTTP/1.1
    answer: (status, headers with lower-case names, body). The body may be cut short by the server
    (a refusal while it is sent): what was sent is sent, the answer is read."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=scaled(30.0 if timeout is None else timeout), source_address=(source, 0)
    ) as s:
        s.sendall(head)
        try:
            s.sendall(body)
        except OSError:
            pass
        data = b""
        while b"\r\n\r\n" not in data:
            more = s.recv(65536)
            if not more:
                break
            data += more
        top, _, rest = data.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(rest) < length:
            more = s.recv(65536)
            if not more:
                break
            rest += more
        return int(lines[0].split()[1]), headers, rest[:length]


def test_a_big_chunked_body_is_refused_as_json_on_every_post_route(tmp_path):
    """Issue 38.7: a 1 MB body in one chunk (``Transfer-Encoding: chunked``, no ``Content-Length``)
    on every ``POST`` route of the app is answered ``413``/``422`` JSON ``body_too_big`` with every
    security header (before: a plain ``500`` and a traceback in the log), over a real socket."""
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}", tmp_path).start(timeout=scaled(30))
    try:
        routes = _json_post_routes()
        assert "/api/tables" in routes and "/api/ledgers" in routes and len(routes) > 20
        chunk = b"[" + b"1," * (2**19 - 1) + b"1]"  # 1 MB of JSON
        body = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n"
        wrong = []
        for path in routes:
            head = (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            ).encode()
            status, headers, raw = _raw(server.port, head, body)
            answer = json.loads(raw) if headers.get("content-type") == "application/json" else raw[:200]
            ok = (
                status in (413, 422)
                and isinstance(answer, dict)
                and answer.get("code") == "body_too_big"
                and all(h in headers for h in SECURITY)
            )
            if not ok:
                wrong.append((path, status, answer))
        assert not wrong, wrong
        log = server.log.read_text()
        assert "Traceback" not in log and " 500 " not in log, log[-3000:]
    finally:
        server.stop()


# -- slow and greedy clients (issue 38.9) ----------------------------------------------------------


def _closed_after(s: socket.socket, limit: float) -> tuple[float, bytes]:
    """Seconds until the server closes ``s`` (reading what it sends; AssertionError after ``limit``)."""
    t0 = time.monotonic()
    s.settimeout(limit)
    got = b""
    try:
        while more := s.recv(4096):
            got += more
    except TimeoutError:
        raise AssertionError(f"the connection was still open after {limit:.0f} s (got {got!r})") from None
    except ConnectionResetError:
        pass
    return time.monotonic() - t0, got


def test_half_a_request_head_is_cut_and_one_address_holds_at_most_n_connections(tmp_path):
    """Issue 38.9 over real sockets: a client that sends half its headers (or nothing) is answered
    ``408`` and cut within a scaled bound of ``--header-timeout`` (before: open for over 100 s),
    a trickle of bytes does not keep it open, nor does a body that stops coming (``408 body_slow``
    JSON in the request's language), a whole request is answered as ever; with
    ``--max-connections-per-address 3`` the fourth connection from one address is refused ``429
    too_many_connections`` (JSON in the request's language, ``Retry-After``, every security header)
    while three are open, a WebSocket handshake too, and let in again once one closes; this machine
    (127.0.0.1: a reverse proxy beside the server) is not limited. The limited client is 127.0.0.2,
    another address of the loopback network."""
    header = 2.0
    server = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}",
        tmp_path,
        ["--header-timeout", str(header), "--idle-timeout", "60", "--max-connections-per-address", "3"],
    ).start(timeout=scaled(30))
    try:
        port = server.port
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
            took, got = _closed_after(s, header + scaled(5))
            assert got.startswith(b"HTTP/1.1 408"), got
            print(f"\nhalf a request head cut after {took:.2f} s (--header-timeout {header:g})")
        with socket.create_connection(("127.0.0.1", port)) as s:  # a byte a second: the time is the head's
            s.sendall(b"GET /healthz HTTP/1.1\r\n")
            t0 = time.monotonic()
            try:
                while time.monotonic() - t0 < header + scaled(5):
                    s.sendall(b"X")
                    time.sleep(0.5)
            except OSError:
                pass
            took, _got = _closed_after(s, header + scaled(5))
            assert time.monotonic() - t0 < header + scaled(5)
        with socket.create_connection(("127.0.0.1", port)) as s:  # nothing sent at all
            _closed_after(s, header + scaled(5))
        with socket.create_connection(("127.0.0.1", port)) as s:  # a whole head, a tenth of its body
            s.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b'Accept-Language: nl\r\nContent-Length: 100\r\n\r\n{"seats": '
            )
            took, got = _closed_after(s, header + scaled(5))
            top, _, raw = got.partition(b"\r\n\r\n")
            assert top.startswith(b"HTTP/1.1 408") and b"x-frame-options" in top.lower(), got
            answer = json.loads(raw)
            assert answer["error"] == "body_slow" and "opnieuw" in answer["message"], answer
            print(f"a body a tenth sent answered 408 after {took:.2f} s")

        # three kept-alive connections that each asked once (idle for 60 s): the fourth is refused
        other = "127.0.0.2"
        kept = []
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port), timeout=scaled(10), source_address=(other, 0))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 200"), "a kept-alive request"
            kept.append(s)
        head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: de\r\n\r\n"
        assert _raw(port, head)[0] == 200  # this machine is not limited
        status, headers, raw = _raw(port, head, source=other)
        answer = json.loads(raw)
        assert status == 429 and answer["error"] == "too_many_connections", answer
        assert "3" in answer["message"] and "Verbindungen" in answer["message"], answer["message"]
        assert int(headers["retry-after"]) >= 1 and headers["connection"] == "close"
        assert all(h in headers for h in SECURITY)
        ws = (
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        assert _raw(port, ws, source=other)[0] == 429
        kept.pop().close()

        def let_in() -> bool:
            closing = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            return _raw(port, closing, source=other)[0] == 200

        wait_until(let_in, 10, what="a connection let in once one of three closed")
        for s in kept:
            s.close()
        log = server.log.read_text()
        assert "Traceback" not in log, log[-3000:]
    finally:
        server.stop()


def test_hints_waiting_for_the_coach_are_bounded(monkeypatch):
    """Issue 38.2: at most ``HINT_CONCURRENCY`` hints are computed at once and ``HINT_WAITING`` wait;
    one more (another seat's, R4.5) is refused ``hints_busy`` at once instead of queueing without
    end, and once the computations finish hints are answered again."""
    from ramsli import Hand, Rules
    from ramsli.refusal import Refused

    gate = threading.Event()
    started: list[int] = []

    def held(obs, seed=0, samples=0):
        started.append(1)
        gate.wait(scaled(30))
        return {"ev_diff": {"mean": 1.0, "ci95": 0.1}, "out_allowed": True, "samples": 1, "estimate": "expert"}

    monkeypatch.setattr(hints, "quick_estimate", held)
    monkeypatch.setattr(hints, "HINT_WAITING", 3)
    monkeypatch.setattr(hints, "_done", {})
    hand = Hand.new(Rules(), [20] * 3, dealer=2, seed=4)
    obs = hand.observe(hand.to_act)
    warm = hints.LabWarmUp(enabled=False)

    async def run() -> None:
        n = hints.HINT_CONCURRENCY + hints.HINT_WAITING
        asked = [asyncio.create_task(hints.answer_hint(obs, (f"t{i}", obs.seat, 1, 0), warm)) for i in range(n)]
        deadline = time.monotonic() + scaled(10)
        while len(started) < hints.HINT_CONCURRENCY:
            assert time.monotonic() < deadline, "the first hints did not start"
            await asyncio.sleep(0.01)
        with pytest.raises(Refused) as refused:
            await hints.answer_hint(obs, ("t-more", obs.seat, 1, 0), warm)
        assert refused.value.refusal.code == "hints_busy" and refused.value.refusal["seconds"] >= 1
        gate.set()
        answers = await asyncio.gather(*asked)
        assert len(answers) == n and len(started) == n
        assert (await hints.answer_hint(obs, ("t-more", obs.seat, 1, 0), warm))["estimate"] == "expert"

    asyncio.run(run())
