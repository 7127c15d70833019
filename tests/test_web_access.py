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
