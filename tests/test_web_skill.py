"""Skill counters on the account page in a real browser (docs/skill.md, "On the server"): a real
``ramsli serve`` process and Debian's Chromium through Playwright.

Ann turns the switch on (off by default; the server says so on reload), and once hands of hers
are measured the page shows her skill counters per hand with the 95 % interval and the hands
measured, net counters beside them. The measured rows are written into the server's database
(the background measure itself is tested over HTTP in ``test_server_skill.py``). Without Chromium
(or Playwright) this test skips locally and fails under ``CI=true``.
"""

from __future__ import annotations

import sqlite3
import time

import pytest

from helpers import ServerProcess, cards_in, post_json

HANDS = [(1, 0.5, 0.2, 3), (2, -0.25, -1.0, -2), (3, 1.0, 0.5, 4)]  # hand, skill, deal value, net


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("skill-web")
    db = d / "server.sqlite"
    sp = ServerProcess(f"sqlite+aiosqlite:///{db}", d).start()
    yield sp.http, db
    sp.stop()


def test_the_account_switch_and_the_figure(chromium, server):
    from playwright.sync_api import expect

    base, db = server
    errors: list[str] = []
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", bypass_csp=True)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/account?lang=en")
        page.fill("#new-name", "Ann")
        page.fill("#new-password", "ann's long password")
        page.fill("#new-password2", "ann's long password")
        page.click("#new-player button[type=submit]")
        page.wait_for_selector("#who")
        switch = page.locator("#skill-opt-in")
        expect(switch).not_to_be_checked()  # off by default
        assert page.query_selector("#skill-figure") is None
        switch.check()
        expect(page.locator("#skill-figure")).to_have_text(
            "No hand measured yet: your hands are measured after each finished table."
        )
        me = page.evaluate("fetch('/api/me').then(r => r.json())")
        assert me["skill_opt_in"] is True

        # three hands of hers measured (rows as the server's measure writes them: no card)
        status, made = post_json(base, "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
        assert status == 201
        with sqlite3.connect(db) as conn:
            for hand, skill, deal, net in HANDS:
                conn.execute(
                    "INSERT INTO skill_hands (player_id, table_id, hand, seat, club_id, measured, skill, deal_value,"
                    " net, decisions) VALUES (?, ?, ?, 0, NULL, ?, ?, ?, ?, 4)",
                    (me["player"]["id"], made["table"], hand, time.time(), skill, deal, net),
                )
        page.reload()
        mean = sum(h[1] for h in HANDS) / 3  # 0.42, its interval 1.96 · sd / √3
        sd = (sum((h[1] - mean) ** 2 for h in HANDS) / 2) ** 0.5
        text = page.text_content("#skill-figure")
        assert text == (
            f"Skill: +{mean:.2f} ± {1.96 * sd / 3**0.5:.2f} counters per hand (3 hands measured); "
            f"net: +{5 / 3:.2f} counters per hand."
        ), text
        page.click("#skill summary")
        expect(page.locator("#skill details p")).to_be_visible()
        mine = page.evaluate("fetch('/api/me/skill').then(r => r.json())")
        assert not cards_in(mine) and [h["hand"] for h in mine["hands"]] == [1, 2, 3]

        # off again: what was stored is removed, the figure goes
        page.locator("#skill-opt-in").uncheck()
        expect(page.locator("#skill-figure")).to_have_count(0)
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM skill_hands").fetchone()[0] == 0
        assert errors == []
    finally:
        ctx.close()
