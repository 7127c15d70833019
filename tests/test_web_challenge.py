"""The weekly challenge's page in a real browser (issue 35 item 3): a real ``ramsli serve`` process
and Debian's Chromium through Playwright.

The lobby links the challenge; a guest sees this week's deals and is asked to log in; a player
clicks "Play" on deal 1 and lands at their seat of a table playing that deal against three bots,
plays the hand, and is offered "Back to the challenge" (not "Play again"); back on the challenge
page, deal 1 is played and "Play" is gone from it. Last week's results (stored as the server
would have settled them) show the ranking with one's own line, one's result and a deal's field. The page names no card (R7) and raises no script error.

Without Chromium (or Playwright) this test skips locally and fails under ``CI=true``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
import time
from pathlib import Path

import pytest

from ramsli.evening.challenge import week_by_id
from ramsli.evening.duplicate import new_deals
from ramsli.rules import Rules

from helpers import ServerProcess, cards_in, scaled

PASSWORD = "a long enough password"


def _play_until_over(page, timeout: float = scaled(120.0)) -> None:
    """Click a legal move whenever it is the seat's turn until the session is over (the row under
    the standings, also in the last hand's summary, shows)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + timeout
    while not page.query_selector(".again-row"):
        assert time.monotonic() < deadline, "the challenge hand did not end in time"
        if page.query_selector(".status-line.mine") is None:
            time.sleep(0.05)
            continue
        seq = page.evaluate("document.body.dataset.seq")
        for sel in (".actions .act-in", ".actions .act >> nth=0", ".hand-card.can-play >> nth=0"):
            if page.query_selector(sel.split(" >> ")[0]):
                try:
                    page.click(sel, timeout=scaled(2000))
                    page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=scaled(10000))
                except PlaywrightTimeout:
                    pass
                break


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("challenge-web")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http, d / "server.sqlite"
    sp.stop()


def _last_week(db: Path, week: str, player: str) -> None:
    """Last week, as the server would have stored it: two deals, closed and settled, and one try of
    ``player`` at deal 1 (a net of +4; alone on the deal, so 50 %)."""
    rules = Rules.preset("traditional")
    plans = new_deals(rules.deck, rules.jokers, 4, 2)
    secret = {"deals": [p.to_data() for p in plans], "bot_seeds": ["00" * 16] * 2}
    mine = (0 - plans[0].dealer) % 4  # the challenger's seat counted from the dealer
    nets = {mine: 4, (mine + 1) % 4: -4}
    seats = [
        {
            "participant": player if s == mine else f"bot:{s}",
            "seat": s,
            "net": nets.get(s, 0),
            "declared": "in",
            "announced": "",
            "tricks": 2,
            "won": 4,
            "paid": 0,
        }
        for s in range(4)
    ]
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO challenge_weeks (scope, week, created, size, preset, key, secret, settled) "
            "VALUES ('server', ?, 1.0, 4, 'traditional', 'k', ?, 2.0)",
            (week, json.dumps(secret)),
        )
        conn.execute(
            "INSERT INTO challenge_tries (scope, week, deal, player_id, table_id, token, started, finished, void, "
            "outcome) VALUES ('server', ?, 1, ?, 'tX', 'tok', 1.0, 2.0, 0, ?)",
            (week, player, json.dumps({"key": "0" * 64, "seats": seats})),
        )


def test_the_challenge_page_plays_a_deal_at_a_table_of_bots(chromium, server):
    base, db = server
    errors: list[str] = []
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", bypass_csp=True)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/?lang=en")
        page.wait_for_selector("#challenge-link")
        page.click("#challenge-link")
        page.wait_for_selector("#challenge-deals li")
        assert page.url.startswith(base + "/challenge")
        assert len(page.query_selector_all("#challenge-deals li")) == 12
        assert page.query_selector("#challenge-deals button") is None  # a guest: no "Play"
        assert "Log in to play" in page.inner_text("#app")

        page.goto(base + "/account?lang=en")
        page.wait_for_selector("#new-player")
        page.evaluate("([n, p]) => R.api('POST', '/api/players', {name: n, password: p})", ["Ann", PASSWORD])
        page.goto(base + "/challenge?lang=en")
        page.wait_for_selector("#challenge-deals li[data-deal='1'] button")
        assert "Your streak: 0 weeks in a row" in page.inner_text("#streak")
        assert not cards_in(page.inner_text("#app"))
        page.click("#challenge-deals li[data-deal='1'] button")
        page.wait_for_url(re.compile(r".*/t/[^/]+/s/[^/?]+.*"), timeout=scaled(10000))
        page.wait_for_function("document.body.dataset.seq !== undefined", timeout=scaled(10000))
        table_url = page.url.split("?")[0]
        tid = table_url.split("/t/")[1].split("/")[0]
        info = page.evaluate("(t) => R.api('GET', '/api/tables/' + t)", tid)
        assert info["challenge"]["deal"] == 1 and info["challenge"]["club"] is None  # the page's way back
        _play_until_over(page)
        back = page.wait_for_selector(".again-row a", timeout=scaled(10000))
        assert back.inner_text() == "Back to the challenge" and page.query_selector(".play-again") is None
        assert back.get_attribute("href").startswith("/challenge")

        page.goto(base + "/challenge?lang=en")
        page.wait_for_selector("#challenge-deals li[data-deal='1']")
        one = page.query_selector("#challenge-deals li[data-deal='1']")
        assert "played" in one.inner_text() and "not played" not in one.inner_text()
        assert one.query_selector("button") is None
        assert len(page.query_selector_all("#challenge-deals li button")) == 11

        # last week's results: the ranking with Ann's own line, her result, a deal's field (no card)
        me = page.evaluate("R.api('GET', '/api/me')")["player"]
        week = page.evaluate("R.api('GET', '/api/challenge')")["week"]["id"]
        _last_week(db, week_by_id(week, dt.UTC).before().id, me["id"])
        page.goto(base + "/challenge?lang=en")
        page.wait_for_selector("#ranking tr td.name strong")
        assert page.inner_text("#ranking tr td.name strong") == "Ann"
        assert "Deal 1: 50 %" in page.inner_text("#my-results")
        page.click("#last-week .row button >> nth=0")
        page.wait_for_selector("#deal-field table")
        assert "Ann" in page.inner_text("#deal-field") and "+4" in page.inner_text("#deal-field")
        assert not cards_in(page.inner_text("#app"))
        assert not cards_in(page.inner_text("#app"))
        assert errors == []
    finally:
        ctx.close()
