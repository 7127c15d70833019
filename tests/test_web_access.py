"""A table stays private and its pages hold against tricks in names (issue 38).

- 38.6: a seat named ``<!--<script>`` (or ``</script>``) no longer blanks the other seats' pages:
  the page's JSON is written with ``<``, ``>``, ``&``, U+2028, U+2029 escaped
  (:func:`ramsli.server.web.shell.json_script`).
"""

from __future__ import annotations

import json

import pytest
from test_web import _context, _sit, _table

from helpers import ServerProcess, post_ok


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real ``ramsli serve --allow-test-seeds``; yields (base URL, db URL)."""
    d = tmp_path_factory.mktemp("web-access")
    db = f"sqlite+aiosqlite:///{d / 'server.sqlite'}"
    sp = ServerProcess(db, d).start()
    yield sp.http, db
    sp.stop()


def test_json_in_a_page_cannot_end_its_script_element():
    """Every character that could end or change the ``<script>`` element is a ``\\u`` escape, and
    the text still parses to the same value."""
    from ramsli.server.web.shell import json_script

    data = {"name": "<!--<script>", "b": "</script><b>&amp;", "ls": "a\u2028b\u2029c"}
    text = json_script(data)
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in text, bad
    assert json.loads(text) == data


@pytest.mark.parametrize("name", ["<!--<script>", "</script><b>x"])
def test_a_script_like_name_leaves_the_other_seats_page_working(chromium, server, name):
    """38.6: with seat 1 named ``<!--<script>``, seat 2's invite page renders (the name box, the
    table's facts naming seat 1 as written), the friend sits and reaches the table."""
    base, _db = server
    made = _table(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rules"}], seed=5, rules=[])
    _sit(base, made, 0, name)
    ctx = _context(chromium)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}{made['seats'][1]['invite']}?lang=en")
        page.wait_for_selector("#sit-name")
        assert name in page.text_content("#sit")  # shown as text, not run as markup
        page.fill("#sit-name", "Bea")
        page.click("#sit button[type=submit]")
        page.wait_for_selector(".felt")
        assert name in page.text_content("body")
        assert not errors, errors
    finally:
        ctx.close()
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})


def test_the_watch_page_of_a_private_table_offers_no_seat(chromium, server):
    """38.1: the spectator link of a private table is for watching: its page shows the bot's seat
    but no "Take this seat" (the server refuses it too, tests/test_server_access.py)."""
    base, _db = server
    made = _table(base, [{"kind": "human"}, {"kind": "bot", "bot": "rules"}], seed=6, rules=[])
    _sit(base, made, 0, "Ann")
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
    ctx = _context(chromium)
    try:
        page = ctx.new_page()
        page.goto(f"{base}{made['spectate']}?lang=en")
        page.wait_for_selector(".felt")
        page.wait_for_function("document.body.dataset.seq")
        assert page.query_selector("[data-take]") is None
    finally:
        ctx.close()


def _api(ctx, base: str, method: str, path: str, body=None):
    """A JSON request with the browser context's cookies (its login) and CSRF header."""
    csrf = next((c["value"] for c in ctx.cookies() if c["name"] == "ramsli_csrf"), "")
    r = ctx.request.fetch(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body),
        headers={"Content-Type": "application/json", "X-CSRF-Token": csrf},
    )
    assert r.ok, (path, r.status, r.text())
    return r.json()


def test_a_named_member_sees_and_confirms_a_ledger_s_result(chromium, server):
    """38.11: Ann keeps a club ledger naming Bo and ends it; Bo's account page lists it to confirm,
    the ledger page says it waits for Bo and offers Bo the button; after it, rated."""
    base, _db = server
    ann_ctx, bo_ctx = _context(chromium), _context(chromium)
    try:
        _api(ann_ctx, base, "POST", "/api/players", {"name": "Ann", "password": "a good password"})
        _api(bo_ctx, base, "POST", "/api/players", {"name": "Bo", "password": "a good password"})
        club = _api(ann_ctx, base, "POST", "/api/clubs", {"name": "Zur Linde"})["club"]["id"]
        invite = _api(ann_ctx, base, "POST", f"/api/clubs/{club}/invites")
        _api(bo_ctx, base, "POST", "/api/clubs/join", {"token": invite["token"]})
        ids = {m["name"]: m["player"] for m in _api(ann_ctx, base, "GET", f"/api/clubs/{club}")["members"]}
        made = _api(
            ann_ctx,
            base,
            "POST",
            "/api/ledgers",
            {"names": ["x", "y"], "club": club, "players": [ids["Ann"], ids["Bo"]]},
        )
        lid, tok = made["ledger"], made["token"]
        _api(
            ann_ctx,
            base,
            "POST",
            f"/api/ledgers/{lid}/hands?token={tok}",
            {"active": [0, 1], "tricks": {"0": 3, "1": 2}},
        )
        _api(ann_ctx, base, "POST", f"/api/ledgers/{lid}/end?token={tok}")
        page = bo_ctx.new_page()
        page.goto(f"{base}/account?lang=en")
        page.wait_for_selector(f"#confirmations li[data-ledger='{lid}'] button.confirm-ledger")
        page.goto(f"{base}{made['follow']}?lang=en")
        page.wait_for_selector("#ledger-consent #confirm-ledger")
        assert "waiting for Bo" in page.text_content("#ledger-consent")
        page.click("#confirm-ledger")
        page.wait_for_function("document.getElementById('ledger-consent').textContent.startsWith('Rated:')")
        assert page.query_selector("#confirm-ledger") is None
        assert _api(bo_ctx, base, "GET", "/api/me/confirmations") == []
    finally:
        ann_ctx.close()
        bo_ctx.close()
