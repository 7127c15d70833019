"""The browser table behind nginx under a path prefix (issue 22): ``https://host/ramsli/``.

A real ``ramsli serve --path-prefix /ramsli --trusted-proxy 127.0.0.1`` behind a real nginx with
the documented proxy settings (``deploy/nginx/ramsli-proxy.conf``), only ``/ramsli/`` passed on:

- the browser suite's main session (``tests/test_web.py``: two people and three bots play a whole
  session, a refused card, a reload mid-trick, R7 on every frame) runs once through it, so every
  link, script, API call and the WebSocket address carries the prefix;
- no page (lobby, table, spectator, how to play, ledger, error) trips the Content-Security-Policy
  (no inline script or style), and the browser loads nothing from outside ``/ramsli/``;
- every page that moves the browser on stays under ``/ramsli/`` (issue 37.3): quick play and a seat
  from the open tables, the one-click table and leaving it, a spectator taking a bot's seat, a new
  player and club, a club's invite link and joining by it; the coach's pages (training, a hand's
  review, its seat picker) load their stylesheet and links under the prefix;
- a cross-site ``text/plain`` form cannot log the browser in under the prefix (issue 38.3); after
  logging in, ``?next=`` goes only to a page of this server under the prefix (issue 38.5).

Locally without Chromium or nginx these tests skip with the reason; under ``CI=true`` they fail.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import SimpleNamespace

import pytest
import test_web as web
import test_web_coach as coach

from helpers import ROOT, ProxyProcess, ServerProcess, free_port, http_json, post_ok, scaled

PREFIX = "/ramsli"
#: the password of the players these tests make in the browser
PASSWORD = "a good password 4"


@pytest.fixture(scope="module")
def behind_nginx(tmp_path_factory):
    """(base URL ``http://127.0.0.1:PORT/ramsli``, database URL) of a server behind nginx."""
    yield from _behind_nginx(tmp_path_factory.mktemp("webproxy"))


@pytest.fixture(scope="module")
def coach_behind_nginx(tmp_path_factory):
    """Like :func:`behind_nginx`, a server whose coach looks little (the coach pages' test server)."""
    env = {"RAMSLI_COACH_SETTINGS": coach.COACH, "RAMSLI_LAB_WARM_UP": "0"}
    yield from _behind_nginx(tmp_path_factory.mktemp("webproxycoach"), env)


def _behind_nginx(d: Path, env: Mapping[str, str] | None = None) -> Iterator[tuple[str, str]]:
    db = f"sqlite+aiosqlite:///{d / 'server.sqlite'}"
    server = ServerProcess(db, d, ["--path-prefix", PREFIX, "--trusted-proxy", "127.0.0.1"])
    saved = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})  # the server process inherits them at its start
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
        try:
            server.start()
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
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

    def outside(self, base: str) -> list[str]:
        """The requests made outside ``base`` (pages, scripts, styles, API calls, WebSockets)."""
        ws = base.replace("http", "ws", 1)
        return [u for u in self.urls if not (u.startswith(base + "/") or u.startswith(ws + "/"))]


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


def _page_errors(watch: Watch) -> list[str]:
    """The pages' errors, without those of the tests' own start-up script (``test_web._context``
    reads localStorage in every document, also in a new tab's ``about:blank``, whose origin is
    opaque: there it may not)."""
    return [e for e in watch.errors if "'localStorage' property from 'Window': Access is denied" not in e]


def _under(page, base: str, path: str) -> None:
    """Wait until ``page`` is at ``base + path...`` (the browser went there, not to the root)."""
    page.wait_for_url(lambda u: u.startswith(base + path), timeout=scaled(15) * 1000)


def _register(page, base: str, name: str) -> None:
    page.goto(base + "/account?lang=en")
    page.fill("#new-name", name)
    page.fill("#new-password", PASSWORD)
    page.fill("#new-password2", PASSWORD)
    page.click("#new-player button[type=submit]")
    page.wait_for_selector("#who", timeout=scaled(15) * 1000)


def test_every_page_moves_the_browser_within_the_prefix(chromium, behind_nginx):
    """Issue 37.3: the pages that send the browser on (quick play, a seat from the open tables, the
    one-click table and leaving it, a spectator taking a bot's seat, a new club, an invite link and
    joining by it) keep ``/ramsli/``; no request of any of them leaves it."""
    base, _db = behind_nginx
    watch = Watch()
    ann_ctx, bo_ctx = web._context(chromium), web._context(chromium)
    for ctx in (ann_ctx, bo_ctx):
        watch.attach(ctx)
    try:
        ann, bo = ann_ctx.new_page(), bo_ctx.new_page()
        for page in (ann, bo):
            page.on("dialog", lambda d: d.accept("Zoltan") if d.type == "prompt" else d.accept())
        # quick play (the open tables' box) opens a table; another person takes a seat at it from the list
        ann.goto(base + "/?lang=en")
        ann.fill("#your-name", "Ann")
        ann.click("#quick-play")
        _under(ann, base, "/t/")
        ann.wait_for_selector(".felt")
        tid = ann.url.split("/t/")[1].split("/")[0]
        bo.goto(base + "/?lang=en")
        bo.fill("#your-name", "Bo")
        bo.click(f".open-table[data-table='{tid}'] button.take-seat")
        _under(bo, base, f"/t/{tid}/s/")
        bo.wait_for_selector(".felt")
        # the one-click table against bots, and leaving it: back to the lobby under the prefix
        ann.goto(base + "/?lang=en")
        ann.click("#quick")
        _under(ann, base, "/t/")
        ann.wait_for_selector(".hand-card")
        ann.click("#btn-settings")
        ann.click("#btn-leave")
        _under(ann, base, "/?lang=en")
        ann.wait_for_selector("#quick")
        # a spectator takes a bot's seat at a table open in the lobby (the prompt's answer: Zoltan; 38.1)
        made = post_ok(
            base,
            "/api/web/tables",
            {
                "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
                "seed": 7,
                "bot_pace_seconds": 1.5,
                "open": True,
            },
        )
        post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
        bo.goto(base + made["spectate"] + "?lang=en")
        bo.click("button.take-seat[data-take='p2']")
        _under(bo, base, f"/t/{made['table']}/s/")
        bo.wait_for_selector(".felt")
        # a new player makes a club, and an invite link of it; another player joins by the link
        _register(ann, base, "Anna")
        ann.fill("#club-name", "Zur Linde")
        ann.click("#new-club button[type=submit]")
        _under(ann, base, "/c/")
        ann.click("#make-invite")
        link = ann.wait_for_selector("#invite-link").input_value()
        assert link.startswith(base + "/c/join/"), link
        _register(bo, base, "Bodo")
        bo.goto(link)
        bo.click("#join-club")
        _under(bo, base, ann.url.split("?")[0][len(base) :])  # the club's page
        assert not watch.outside(base), watch.outside(base)
        assert not _page_errors(watch), watch.errors
    finally:
        ann_ctx.close()
        bo_ctx.close()


def _serve(html: str):
    """A route handler that answers every request with the page ``html``."""
    return lambda route: route.fulfill(body=html, content_type="text/html")


def test_a_form_on_another_site_cannot_log_the_browser_in_under_the_prefix(chromium, behind_nginx):
    """Issue 38.3: a cross-site ``text/plain`` form posting JSON-looking text to
    ``/ramsli/api/login`` (the attacker's own player) is refused ``415 json_only``; the browser
    holds no login cookie and ``/api/me`` knows no player. Making a player that way likewise."""
    base, _db = behind_nginx
    status, answer = http_json(base, "POST", "/api/players", {"name": "Mallory", "password": "attacker=password"})
    assert status == 201, answer
    form = (
        '<form method="post" enctype="text/plain" action="{action}">'
        """<input type="hidden" name='{{"name": "{name}", "password": "attacker' value='password"}}'>"""
        '<button id="go" type="submit">win a prize</button></form>'
    )
    ctx = web._context(chromium)
    try:
        page = ctx.new_page()
        for path, name in (("/api/login", "Mallory"), ("/api/players", "Mallory2")):
            html = form.format(action=base + path, name=name)
            ctx.route("http://attacker.example/**", _serve(html))
            page.goto("http://attacker.example/prize")
            with page.expect_navigation():
                page.click("#go")
            answer = json.loads(page.text_content("body"))
            assert answer["error"] == "json_only", (path, answer)
            ctx.unroute("http://attacker.example/**")
            assert not [c for c in ctx.cookies() if c["name"].startswith("ramsli_")], ctx.cookies()
        page.goto(base + "/api/me")
        assert json.loads(page.text_content("body"))["player"] is None
        assert http_json(base, "POST", "/api/login", {"name": "Mallory2", "password": "attacker=password"})[0] == 401
    finally:
        ctx.close()


@pytest.mark.parametrize(
    "given,allowed",
    [
        ("/\t/evil.example/a", False),
        ("/\n/evil.example/a", False),
        ("//evil.example/a", False),
        ("/\\evil.example/a", False),
        ("https://evil.example/a", False),
        ("/how-to-play?lang=en", False),  # this server, but outside the prefix
        (PREFIX + "/../how-to-play", False),  # out of the prefix by a dot segment
        (PREFIX + "/how-to-play?lang=en", True),
    ],
    ids=["tab", "newline", "two-slashes", "backslash", "other-origin", "outside-prefix", "dot-segment", "own-page"],
)
def test_after_login_next_goes_only_to_this_servers_pages_under_the_prefix(chromium, behind_nginx, given, allowed):
    """Issue 38.5: ``/account?next=...`` after logging in goes to ``next`` only when the URL parser
    reads it as this page's origin under the prefix; otherwise the account page stays."""
    from urllib.parse import quote

    base, _db = behind_nginx
    name = "Nora"  # one player for every case: new players are limited per address
    status, answer = http_json(base, "POST", "/api/players", {"name": name, "password": PASSWORD})
    assert status == 201 or answer["code"] == "player_name_taken", answer
    ctx = web._context(chromium)
    went: list[str] = []
    ctx.route("**/*", lambda route: (went.append(route.request.url), route.continue_()))
    try:
        page = ctx.new_page()
        page.goto(base + "/account?lang=en&next=" + quote(given, safe=""))
        page.fill("#login-name", name)
        page.fill("#login-password", PASSWORD)
        page.click("#login button[type=submit]")
        if allowed:
            _under(page, base, "/how-to-play")
        else:
            page.wait_for_selector("#who", timeout=scaled(15) * 1000)  # the account page, logged in
            assert page.url.startswith(base + "/account"), page.url
        assert all(u.startswith(base + "/") for u in went), went  # never evil.example, nor outside the prefix
    finally:
        ctx.close()


def test_the_coach_pages_through_nginx_under_a_path_prefix(chromium, coach_behind_nginx, monkeypatch):
    """Issue 37.3: the training page plays its five positions and a finished hand's review opens,
    switches seat and links back, all under ``/ramsli/``; both load ``coach.css`` from there."""
    base, _db = coach_behind_nginx
    watch = Watch()

    def context(browser, *a, **kw):
        ctx = web._context(browser, *a, **kw)
        watch.attach(ctx)
        return ctx

    monkeypatch.setattr(coach, "_context", context)
    sp = SimpleNamespace(http=base, ws=base.replace("http", "ws", 1))
    coach.test_the_training_page_plays_five_positions(chromium, sp)
    made = coach._made(sp, seed=31, hands=1)
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
    coach._play_randomly(sp, made["table"], made["me"], seed=5)
    coach._wait_review(sp, f"/api/tables/{made['table']}/hands/1/review?token={made['me']}")
    ctx = context(chromium)
    try:
        page = ctx.new_page()
        page.goto(f"{base}/t/{made['table']}/review?token={made['me']}&hand=1&lang=en")
        page.wait_for_function("document.body.dataset.review === 'done'", timeout=scaled(60) * 1000)
        page.select_option("#review-seat", "p2")  # the page moves to the seat's review, under the prefix
        review = base + f"/t/{made['table']}/review"
        page.wait_for_url(lambda u: u.startswith(review) and "seat=p2" in u, timeout=scaled(15) * 1000)
        page.wait_for_function("document.body.dataset.review === 'done'", timeout=scaled(60) * 1000)
        links = page.eval_on_selector_all("a[href^='/']", "els => els.map(e => e.getAttribute('href'))")
        assert links and all(h.startswith(PREFIX + "/") for h in links), links
    finally:
        ctx.close()
    assert base + "/static/coach.css" in watch.urls
    assert not watch.outside(base), watch.outside(base)
    assert not _page_errors(watch), watch.errors
