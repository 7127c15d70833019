"""The weekly challenge's page in a real browser (issue 35 item 3): a real ``ramsli serve`` process
and Debian's Chromium through Playwright.

The lobby links the challenge; a guest sees this week's deals and is asked to log in; a player
clicks "Play" on deal 1 and lands at their seat of a table playing that deal against three bots,
plays the hand, and is offered "Back to the challenge" (not "Play again"); back on the challenge
page, deal 1 is played and "Play" is gone from it. The page names no card (R7) and raises no script error.

Without Chromium (or Playwright) this test skips locally and fails under ``CI=true``.
"""

from __future__ import annotations

import re
import time

import pytest

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
    yield sp.http
    sp.stop()


def test_the_challenge_page_plays_a_deal_at_a_table_of_bots(chromium, server):
    base = server
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
        assert not cards_in(page.inner_text("#app"))
        assert errors == []
    finally:
        ctx.close()
