"""Accessibility of the pages (issue 27): an axe-core audit of the lobby, the table mid-hand, the
how-to-play page, the coach's review and training pages (issue 36), the pub ledger and a club
evening's pages (the standing link, the director's, the TV, print, the new evening's form; issue
34), at phone and laptop size, finds no serious or critical violation.

axe-core is the npm package, fetched by this test's set-up with ``npm`` into a cache folder
(``$RAMSLI_AXE_DIR``, else ``~/.cache/ramsli-test/axe``; ``.ci/run`` fetches it there first); it
is not shipped with ramsli. It is injected into each page with Playwright's ``add_script_tag``.
Locally without npm or the package the audit skips with the reason; under ``CI=true`` it fails.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from helpers import ServerProcess, post_ok, scaled

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 640}
#: rules run besides axe's defaults (the table had label-content-name-mismatch on 6 controls)
EXTRA_RULES = {"label-content-name-mismatch": {"enabled": True}}


def _unavailable(why: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"axe-core is needed under CI=true: {why}")
    pytest.skip(f"the accessibility audit needs axe-core from npm: {why}")


@pytest.fixture(scope="module")
def axe_js() -> Path:
    """The path of ``axe.min.js``, fetched with npm into the cache folder when it is not there."""
    folder = Path(os.environ.get("RAMSLI_AXE_DIR") or Path.home() / ".cache" / "ramsli-test" / "axe")
    js = folder / "node_modules" / "axe-core" / "axe.min.js"
    if not js.is_file():
        npm = shutil.which("npm")
        if npm is None:
            _unavailable("npm is not installed (apt-get install nodejs npm)")
        folder.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder), "axe-core@4"],
                check=True,
                capture_output=True,
                timeout=scaled(300),
            )
        except (subprocess.SubprocessError, OSError) as e:
            _unavailable(f"npm install axe-core failed: {e}")
    if not js.is_file():
        _unavailable(f"{js} is missing after npm install")
    return js


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """A real server with a table mid-hand (Ann to act) and a pub ledger; yields (base, links)."""
    d = tmp_path_factory.mktemp("a11y")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start(timeout=scaled(90))
    base = sp.http
    made = post_ok(
        base,
        "/api/web/tables",
        {
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "rules"}] * 4,
            "rules": ["end=hands:3"],
            "seed": 3,
            "bot_pace_seconds": 0,
            "hand_pause_seconds": 0.2,
            "turn_seconds": 600,
        },
    )
    sat = post_ok(base, f"/api/tables/{made['table']}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
    ledger = post_ok(base, "/api/ledgers", {"names": ["Ann", "Bo", "Cy"]})
    evening, evening_seat = _evening(base)
    links = {
        "lobby": ("/", "#quick"),
        "table": (f"/t/{made['table']}/s/{sat['token']}", ".status-line.mine"),
        "how-to-play": (f"/how-to-play?table={made['table']}", ".howto"),
        # the coach's pages (issue 36.1): the session review of Ann's seat, the training page
        "review": (f"/t/{made['table']}/review?token={sat['token']}", "main"),
        "train": ("/train", "main"),
        "ledger": (ledger["page"], "main"),
        "ledger-setup": ("/ledger", "main"),
        # a club evening's pages (issue 34), round 1 playing, seen by its director
        "evening": (evening, "#rounds .ev-table"),
        "evening-director": (evening + "/director", "#tables-box"),
        "evening-tv": (evening + "/tv", "#tv-standings"),
        "evening-print": (evening + "/print", "#table-lists"),
        "evening-new": ("/evenings/new", "#new-evening"),
        "evening-table": (evening_seat, "#evening-link"),
    }
    yield base, links
    sp.stop()


#: the player who directs the audit's evening (the browser logs in as them)
DIRECTOR = {"name": "Dora", "password": "a long enough password"}


def _evening(base: str) -> tuple[str, str]:
    """An evening directed by :data:`DIRECTOR` with round 1 drawn (Dora and two substitute bots at
    one online table); its standing link and Dora's seat link."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def call(path: str, body: dict, csrf: str = "") -> dict:
        req = urllib.request.Request(
            base + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "X-CSRF-Token": csrf},
        )
        with opener.open(req, timeout=scaled(10)) as r:
            return json.loads(r.read())

    csrf = call("/api/players", DIRECTOR)["csrf"]
    made = call("/api/evenings", {"name": "Pub night", "starts": "2031-12-11T20:00+01:00", "rounds": 2}, csrf)
    call(f"/api/evenings/{made['id']}/check-in", {}, csrf)
    for _ in range(2):
        call(f"/api/evenings/{made['id']}/substitutes", {"level": "easy"}, csrf)
    call(f"/api/evenings/{made['id']}/rounds", {}, csrf)
    with opener.open(f"{base}/api/evenings/{made['id']}/me", timeout=scaled(10)) as r:
        seat = json.loads(r.read())["url"]
    return made["url"], seat


def _audit(page, axe_js: Path) -> list[dict]:
    page.add_script_tag(path=str(axe_js))
    result = page.evaluate(
        "(rules) => axe.run(document, { rules: rules, resultTypes: ['violations'] })"
        ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})))",
        EXTRA_RULES,
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_no_serious_or_critical_axe_violations(chromium, pages, axe_js, viewport):
    base, links = pages
    ctx = chromium.new_context(viewport=viewport, bypass_csp=True)  # axe-core is injected
    try:
        page = ctx.new_page()
        page.goto(base + "/account?lang=en")
        page.wait_for_selector("#login")
        page.evaluate("(who) => R.api('POST', '/api/login', who)", DIRECTOR)  # the evening's director
        found = {}
        for name, (link, ready) in links.items():
            page.goto(base + link + ("&" if "?" in link else "?") + "lang=en")
            page.wait_for_selector(ready)
            if name == "table":
                page.wait_for_selector(".actions .act")
                assert page.query_selector("h1") is not None  # the table has a heading
            bad = _audit(page, axe_js)
            if bad:
                found[name] = bad
        assert found == {}, found
    finally:
        ctx.close()
