"""The browser table behind nginx under a path prefix (issue 22): ``https://host/ramsli/``.

A real ``ramsli serve --path-prefix /ramsli --trusted-proxy 127.0.0.1`` behind a real nginx with
the documented proxy settings (``deploy/nginx/ramsli-proxy.conf``), only ``/ramsli/`` passed on:

- the browser suite's main session (``tests/test_web.py``: two people and three bots play a whole
  session, a refused card, a reload mid-trick, R7 on every frame) runs once through it, so every
  link, script, API call and the WebSocket address carries the prefix;
- no page (lobby, table, spectator, how to play, ledger, error) trips the Content-Security-Policy
  (no inline script or style), and the browser loads nothing from outside ``/ramsli/``.

Locally without Chromium or nginx these tests skip with the reason; under ``CI=true`` they fail.
"""

from __future__ import annotations

import pytest
import test_web as web

from helpers import ROOT, ProxyProcess, ServerProcess, free_port, post_ok, scaled

PREFIX = "/ramsli"


@pytest.fixture(scope="module")
def behind_nginx(tmp_path_factory):
    """(base URL ``http://127.0.0.1:PORT/ramsli``, database URL) of a server behind nginx."""
    d = tmp_path_factory.mktemp("webproxy")
    db = f"sqlite+aiosqlite:///{d / 'server.sqlite'}"
    server = ServerProcess(db, d, ["--path-prefix", PREFIX, "--trusted-proxy", "127.0.0.1"])
    port = free_port()
    snippet = ROOT / "deploy" / "nginx" / "ramsli-proxy.conf"
    conf = (
        "map $http_upgrade $connection_upgrade { default upgrade; '' close; }\n"
        f"server {{ listen 127.0.0.1:{port};\n"
        f"  location = {PREFIX} {{ return 308 {PREFIX}/; }}\n"
        f"  location {PREFIX}/ {{ include {snippet}; proxy_pass http://127.0.0.1:{server.port}; }}\n"
        "  location / { return 404; }\n}\n"
    )
    nginx = ProxyProcess("nginx", conf, d / "nginx")
    try:
        server.start()
        nginx.wait_for(f"http://127.0.0.1:{port}{PREFIX}/healthz")
        yield f"http://127.0.0.1:{port}{PREFIX}", db
    finally:
        nginx.stop()
        server.stop()


class Watch:
    """Every Content-Security-Policy report, page error and request a browser context makes."""

    def __init__(self) -> None:
        self.csp: list[str] = []
        self.errors: list[str] = []
        self.urls: list[str] = []

    def attach(self, ctx) -> None:
        ctx.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => console.error("
            "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
        )
        ctx.on("console", lambda m: self.csp.append(m.text) if "Content Security Policy" in m.text else None)
        ctx.on("weberror", lambda e: self.errors.append(str(e.error)))
        ctx.on("request", lambda r: self.urls.append(r.url))


def test_main_session_through_nginx_under_a_path_prefix(chromium, behind_nginx, monkeypatch):
    watch = Watch()
    made_context = web._context

    def context(browser, *a, **kw):
        # the suite waits with wait_for_function("expression"), which Playwright evaluates with
        # eval(): the CSP refuses that (as it should); the CSP itself is the next test's
        ctx = made_context(browser, *a, bypass_csp=True, **kw)
        watch.attach(ctx)
        return ctx

    monkeypatch.setattr(web, "_context", context)
    web.test_two_humans_and_three_bots_play_a_session(chromium, behind_nginx)
    base = behind_nginx[0]
    assert watch.urls  # (the suite itself fails on any error in its pages)
    outside = [
        u for u in watch.urls if not (u.startswith(base + "/") or u.startswith(base.replace("http", "ws") + "/"))
    ]
    assert not outside, outside  # every request (pages, scripts, API calls) under /ramsli/


def test_no_page_trips_the_content_security_policy(chromium, behind_nginx):
    base, _db = behind_nginx
    made = post_ok(base, "/api/web/tables", {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], "seed": 5})
    ledger = post_ok(base, "/api/ledgers", {"names": ["Ann", "Bo", "Cy"]})
    pages = {
        "lobby": "/",
        "table": made["seats"][0]["invite"],
        "spectator": made["spectate"],
        "how to play": f"/how-to-play?table={made['table']}",
        "ledger set-up": "/ledger",
        "ledger": ledger["page"],
        "error": f"/t/{made['table']}/s/forged",
    }
    watch = Watch()
    ctx = chromium.new_context()
    watch.attach(ctx)
    try:
        page = ctx.new_page()
        for name, path in pages.items():
            page.goto(base + path)
            page.wait_for_selector("#app > *", timeout=scaled(15000))
            page.wait_for_load_state("networkidle")
            links = page.eval_on_selector_all("a[href^='/']", "els => els.map(e => e.getAttribute('href'))")
            assert all(h.startswith(PREFIX + "/") for h in links), (name, links)
        # the table in play: seats and cards placed with styles (set through the CSSOM, not attributes)
        page.goto(base + made["seats"][0]["invite"])
        page.fill("#sit-name", "Ann")
        page.click("#sit button[type=submit]")
        page.wait_for_selector(".felt")
        post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
        page.wait_for_selector(".hand-card", timeout=scaled(15000))
        placed = page.eval_on_selector_all(".seat", "els => els.map(e => e.style.left)")
        assert placed and all(p.endswith("%") for p in placed), placed
        assert "/ramsli/t/" in page.url  # the personal link the page moved to keeps the prefix
        assert not watch.csp, watch.csp
        assert not watch.errors, watch.errors
        assert all(u.startswith(base) or u.startswith("data:") for u in watch.urls), watch.urls
        # the watch sees a violation when there is one: an inline script is refused and reported
        page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.x = 1';"
                      " document.body.append(s); }")  # fmt: skip
        for _ in range(int(scaled(100))):  # until the report arrives (the page's events come while waiting)
            if watch.csp:
                break
            page.wait_for_timeout(50)
        assert watch.csp and page.evaluate("window.x") is None
    finally:
        ctx.close()
