"""Two ``ramsli serve`` processes on one real PostgreSQL database behind a real nginx (issue 22).

The configuration is the documented one (``deploy/nginx/ramsli.conf`` and its
``ramsli-proxy.conf``), on 127.0.0.1 ports, with a self-signed certificate and the ``/ramsli/``
path prefix; two more listeners use the same proxy settings, one over both processes and one
that reaches only the second process. Then:

- a table created through the first process is sat at, started and played by clients that reach
  it through the second (every request and WebSocket relayed to the process that runs it);
- the process that runs it is SIGKILLed in the middle of a trick: the second process takes the
  table over from the event log, the clients reconnect by themselves, and every seat's view (cards,
  actions, counters, ``seq``) is what it was;
- the killed process comes back, the other one gets SIGTERM in the middle of a hand: it drains
  (its clients are told to reconnect, the first process claims the table at once) and exits, and
  again every view is what it was;
- the session is played to its end; the engine replaying the stored events gives the stacks the
  pages show, and R3.4 holds (nothing lost, nothing applied twice);
- through the TLS listener: the scheme from ``X-Forwarded-Proto`` (HSTS), plain HTTP redirected,
  ``/ramsli`` redirected to ``/ramsli/``, the pages' links under the prefix, ``/metrics`` kept
  inside, ``HEAD`` answered.

Runs under ``CI=true`` (PostgreSQL, nginx and openssl are there); locally it skips without them.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import signal
import ssl
import urllib.request

import pytest
from test_server_e2e import _between_hands, _mid_trick, _play_until

from helpers import (
    ROOT,
    ProxyProcess,
    ServerProcess,
    WSPlayer,
    engine_replay,
    free_port,
    http_get,
    pg_admin,
    post_json,
    postgres_base,
    scaled,
    self_signed,
    stable_view,
)

PREFIX = "/ramsli"
SNIPPET = ROOT / "deploy" / "nginx" / "ramsli-proxy.conf"


@pytest.fixture
def pg_database():
    """A fresh PostgreSQL database on the test cluster; dropped afterwards."""
    base = postgres_base()
    name = "ramsli_cluster_" + secrets.token_hex(5)
    pg_admin(base, f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def nginx_site(upstreams: list[int], tls: int, plain_http: int, cert, key) -> str:
    """``deploy/nginx/ramsli.conf`` with this test's ports, certificate and snippet path (each
    replaced text must be there: the test runs the documented file, not a copy)."""
    site = (ROOT / "deploy" / "nginx" / "ramsli.conf").read_text()
    replace = {
        "server 127.0.0.1:8000 ": f"server 127.0.0.1:{upstreams[0]} ",
        "server 127.0.0.1:8001 ": f"server 127.0.0.1:{upstreams[1]} ",
        "listen 80;": f"listen 127.0.0.1:{plain_http};",
        "listen [::]:80;\n": "",
        "listen 443 ssl;": f"listen 127.0.0.1:{tls} ssl;",
        "listen [::]:443 ssl;\n": "",
        "/etc/letsencrypt/live/ramsli.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/ramsli.example.org/privkey.pem": str(key),
        "/etc/nginx/snippets/ramsli-proxy.conf": str(SNIPPET),
    }
    for old, new in replace.items():
        assert old in site, old
        site = site.replace(old, new)
    return site


def extra_listeners(both: int, only_second: int, second: int) -> str:
    """Two plain listeners with the documented proxy settings: over both processes, and to the second only."""
    return (
        f"upstream ramsli_second {{ server 127.0.0.1:{second}; }}\n"
        f"server {{ listen 127.0.0.1:{both}; location {PREFIX}/ {{ include {SNIPPET}; proxy_pass http://ramsli; }} }}\n"
        f"server {{ listen 127.0.0.1:{only_second}; location {PREFIX}/ {{ include {SNIPPET}; "
        "proxy_pass http://ramsli_second; } }\n"
    )


def _tls_get(url: str, method: str = "GET") -> tuple[int, dict, bytes]:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=ctx), NoRedirect)
    req = urllib.request.Request(url, method=method)
    try:
        with opener.open(req, timeout=scaled(10)) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


async def _settled(players: list[WSPlayer], base: str, table: str) -> list[dict]:
    """Every player's view once all have the table's latest ``seq`` (asked of ``base``; stable fields only)."""
    seq = json.loads(http_get(base, f"/api/tables/{table}")[1])["seq"]
    for p in players:
        await p.wait(lambda p=p, seq=seq: p.view["seq"] == seq)
    return [stable_view(p.view) for p in players]


def _listing(base: str, token: str) -> list:
    """``GET /api/tables`` with the admin token: every table of every live process."""
    req = urllib.request.Request(base + "/api/tables", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=scaled(10)) as r:
        return json.loads(r.read())


def _owner(base: str, token: str, table: str) -> str | None:
    req = urllib.request.Request(base + "/admin/tables", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=scaled(10)) as r:
        rows = json.loads(r.read())["tables"]
    return next(row["process"] for row in rows if row["id"] == table)


def _process_id(base: str) -> str:
    return json.loads(http_get(base, "/healthz")[1])["process"]


def test_two_processes_one_database_behind_nginx_survive_sigkill_and_sigterm(pg_database, tmp_path):
    cert, key = self_signed(tmp_path)
    admin = secrets.token_urlsafe(24)
    (tmp_path / "admin-token").write_text(admin + "\n")
    args = [
        "--path-prefix",
        PREFIX,
        "--trusted-proxy",
        "127.0.0.1",
        "--create-limit",
        "0",
        "--admin-token-file",
        str(tmp_path / "admin-token"),
    ]
    first = ServerProcess(pg_database, tmp_path, args)
    second = ServerProcess(pg_database, tmp_path, args)
    tls, redirect, both, only_second = free_port(), free_port(), free_port(), free_port()
    conf = nginx_site([first.port, second.port], tls, redirect, cert, key) + extra_listeners(
        both, only_second, second.port
    )
    nginx = ProxyProcess("nginx", conf, tmp_path / "nginx")
    try:
        first.start()
        second.start()
        nginx.wait_for(f"http://127.0.0.1:{both}{PREFIX}/healthz")
        asyncio.run(_play_through_failures(first, second, both, only_second, admin))
        _check_tls_site(tls, redirect)
    finally:
        nginx.stop()
        first.stop()
        second.stop()


async def _play_through_failures(first, second, both: int, only_second: int, admin: str) -> None:
    via_both = f"http://127.0.0.1:{both}{PREFIX}"
    via_second = f"http://127.0.0.1:{only_second}{PREFIX}"
    status, made = post_json(
        first.http,
        "/api/tables",
        {
            "preset": "traditional",
            "rules": ["end=hands:3", "starting_stack=30"],
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "bot": "rules"},
                {"kind": "human"},
                {"kind": "bot", "bot": "random"},
                {"kind": "bot", "bot": "rules"},
            ],
            "bot_pace_seconds": 0,
            "hand_pause_seconds": 1,
            "seed": 22,
        },
    )
    assert status == 201, made
    table = made["table"]
    first_id, second_id = _process_id(first.http), _process_id(second.http)
    assert first_id != second_id
    assert _owner(first.http, admin, table) == first_id  # the process it was created through runs it
    # sitting down and starting through the second process: relayed to the first
    for i, name, base in ((0, "Ann", via_second), (2, "Bo", via_both)):
        st, sat = post_json(base, f"/api/tables/{table}/sit", {"token": made["seats"][i]["token"], "name": name})
        assert st == 200 and sat["seat"] == f"p{i + 1}", sat
        made["seats"][i]["token"] = sat["token"]
    ann = await WSPlayer(f"ws://127.0.0.1:{only_second}{PREFIX}", table, made["seats"][0]["token"]).start()
    bo = await WSPlayer(f"ws://127.0.0.1:{both}{PREFIX}", table, made["seats"][2]["token"], lang="de").start()
    spectator_token = made["spectate"].rsplit("/", 1)[1]
    watcher = await WSPlayer(f"ws://127.0.0.1:{both}{PREFIX}", table, spectator_token).start()
    st, started = post_json(via_second, f"/api/tables/{table}/start", {"creator_token": made["creator_token"]})
    assert st == 200 and started["status"] == "playing", started
    players, everyone = [ann, bo], [ann, bo, watcher]
    bank = 5 * 30
    listing = _listing(via_second, admin)
    assert [x["table"] for x in listing] == [table]  # listed to the admin by every process
    assert json.loads(http_get(via_second, "/api/tables")[1]) == []  # a private table, to nobody else

    # 1. the process that runs the table is SIGKILLed in the middle of a trick
    await _play_until(players, _mid_trick)
    before = await _settled(everyone, via_both, table)
    assert before[0]["hand"]["phase"] == "play" and before[0]["hand"]["current"]["plays"]
    assert sum(s["stack"] for s in before[0]["seats"]) + before[0]["hand"]["pot"] == bank  # R3.4
    seen = [len(p.views) for p in everyone]
    first.kill()
    for p, n in zip(everyone, seen):
        await p.wait(lambda p=p, n=n: len(p.views) > n)  # reconnected by itself: the whole view again
    after = [stable_view(p.views[n]) for p, n in zip(everyone, seen)]
    assert after == before  # same cards, same actions, same counters, same seq
    assert _owner(second.http, admin, table) == second_id
    assert all(p.welcomes >= 2 for p in everyone)

    # 2. the killed process comes back; the one running the table now drains on SIGTERM mid-hand
    first.start()
    first_id = _process_id(first.http)  # a new process: a new id
    ann.url = f"ws://127.0.0.1:{both}{PREFIX}/ws/{table}"  # its listener reaches only the draining one
    await _play_until(players, _between_hands)
    await _play_until(players, _mid_trick)
    before = await _settled(everyone, via_both, table)
    seen = [len(p.views) for p in everyone]
    reconnects = [sum(1 for m in p.messages if m["type"] == "reconnect") for p in everyone]
    second.proc.send_signal(signal.SIGTERM)
    assert second.proc.wait(scaled(20)) is not None
    assert "drained: 1 tables let go" in second.log.read_text()
    for p, n in zip(everyone, seen):
        await p.wait(lambda p=p, n=n: len(p.views) > n)
    after = [stable_view(p.views[n]) for p, n in zip(everyone, seen)]
    assert after == before
    told = [sum(1 for m in p.messages if m["type"] == "reconnect") for p in everyone]
    assert all(t > r for t, r in zip(told, reconnects)), (told, reconnects)  # each was told to reconnect
    assert _owner(first.http, admin, table) == first_id

    # 3. the session is played to its end in the first process
    await _play_until(players, lambda v: v["status"] == "over", timeout=scaled(120))
    for p in everyone:
        await p.wait(lambda p=p: p.view["status"] == "over")
    final = ann.view
    stacks = [s["stack"] for s in final["seats"]]
    assert len(final["results"]) == 3 and sum(stacks) + final["results"][-1]["pot_after"] == bank
    session = await engine_replay(first.database, table)
    assert session.is_over and stacks == session.stacks  # every stored event once, in order
    assert [e["stacks_after"] for e in final["results"]] == [list(e.stacks_after) for e in session.results]
    assert all(v["your_cards"] == [] for v in watcher.views)
    metrics = http_get(first.http, "/metrics")[1].decode()
    claims = next(line for line in metrics.splitlines() if line.startswith("ramsli_claims_total"))
    assert float(claims.split()[-1]) >= 1  # it took the table over from the draining process
    for p in everyone:
        await p.close()


def _check_tls_site(tls: int, redirect: int) -> None:
    base = f"https://127.0.0.1:{tls}{PREFIX}"
    st, headers, body = _tls_get(base + "/readyz")
    assert st == 200 and json.loads(body)["status"] == "ready"
    assert headers.get("strict-transport-security", "").startswith("max-age=")  # the scheme came through
    assert headers["referrer-policy"] == "no-referrer" and headers["x-content-type-options"] == "nosniff"
    st, headers, body = _tls_get(base + "/")
    assert st == 200 and f'src="{PREFIX}/static/common.js"'.encode() in body
    assert json.loads(body.split(b'id="ramsli-page">')[1].split(b"</script>")[0])["base"] == PREFIX
    st, headers, body = _tls_get(base + "/", method="HEAD")
    assert st == 200 and body == b""
    st, headers, _ = _tls_get(f"https://127.0.0.1:{tls}{PREFIX}")
    assert st == 308 and headers["location"].endswith(f"{PREFIX}/")
    assert _tls_get(base + "/metrics")[0] == 404  # not for the world
    req = urllib.request.Request(f"http://127.0.0.1:{redirect}{PREFIX}/")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    try:
        urllib.request.build_opener(NoRedirect).open(req, timeout=scaled(10))
        raise AssertionError("plain HTTP was served")
    except urllib.error.HTTPError as e:
        assert e.code == 301 and e.headers["Location"].startswith("https://")
