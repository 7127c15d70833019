"""Players, a club and an open table in real browsers (docs/clubs.md): a real ``ramsli serve``
process on 127.0.0.1 and Debian's Chromium through Playwright, people clicking and typing.

- Ann and Bo make their players in two browsers, Ann makes a club and an invite link, Bo joins by
  it; Ann sets up a club table in the lobby, Bo sits down by his invite link, they play the
  session through the pages, and the club's page shows it in the season table (sorted, with the
  chart and the score sheet) with both their ratings changed;
- a stranger finds an open table in the lobby, takes a seat with one click and plays with its host.

Without Chromium (or Playwright) these tests skip locally and fail under ``CI=true``.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from helpers import ServerProcess, cards_in, scaled


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("clubs-web")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def _context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", bypass_csp=True)
    ctx.add_init_script("localStorage.setItem('ramsli.settings', JSON.stringify({trickPause: 0.2}))")
    return ctx


def _page(ctx, errors: list[str]):
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _register(page, base: str, name: str, password: str) -> None:
    page.goto(base + "/account?lang=en")
    page.fill("#new-name", name)
    page.fill("#new-password", password)
    page.fill("#new-password2", password)
    page.click("#new-player button[type=submit]")
    page.wait_for_selector("#who")
    assert page.text_content("#who") == f"Logged in as {name}"


def _play(pages: list, deadline_s: float = scaled(120)) -> None:
    """Every person clicks a legal move when it is their turn, until each page shows the standings."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + deadline_s
    while not all(p.query_selector(".standings") for p in pages):  # the card, or the standings dialog
        assert time.monotonic() < deadline, "the session did not finish in time"
        acted = False
        for p in pages:
            if p.evaluate("document.body.dataset.overlay") == "summary":
                p.click("#dialog-close")
                acted = True
                continue
            if p.query_selector(".status-line.mine") is None:
                continue
            seq = p.evaluate("document.body.dataset.seq")
            for sel in (".actions .act-in", ".actions .act >> nth=0", ".hand-card.can-play >> nth=0"):
                if p.query_selector(sel.split(" >> ")[0]):
                    try:
                        p.click(sel, timeout=scaled(2000))
                    except PlaywrightTimeout:
                        break
                    try:
                        p.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=scaled(10000))
                    except PlaywrightTimeout:
                        pass
                    acted = True
                    break
        if not acted:
            time.sleep(0.05)


def test_two_players_play_a_club_session_and_see_it_in_the_season_table(chromium, server):
    base = server
    errors: list[str] = []
    ann_ctx, bo_ctx = _context(chromium), _context(chromium)
    try:
        ann, bo = _page(ann_ctx, errors), _page(bo_ctx, errors)
        _register(ann, base, "Ann", "ann's long password")
        _register(bo, base, "Bo", "bo's long password")
        # Ann makes a club and an invite link; Bo joins by it
        ann.fill("#club-name", "Zur Linde")
        ann.click("#new-club button[type=submit]")
        ann.wait_for_url(re.compile(r"/c/[^/?]+\?"))
        club = re.search(r"/c/([^/?]+)", ann.url).group(1)
        ann.wait_for_selector("#make-invite")
        ann.click("#make-invite")
        link = ann.input_value("#invite-link")
        assert "/c/join/" in link
        bo.goto(link + "?lang=en")
        bo.wait_for_selector("#join-club")
        bo.click("#join-club")
        bo.wait_for_url(re.compile(rf"/c/{club}\?"))
        bo.wait_for_selector("#members li")
        assert bo.eval_on_selector_all("#members li", "els => els.map(e => e.textContent)") == ["Ann · owner", "Bo"]
        # the season table before: both members, nothing played
        bo.wait_for_selector("#season-table")
        # Ann sets up a club table in the lobby: her, Bo by invite, a bot; two hands
        ann.goto(f"{base}/?lang=en&club={club}")
        ann.wait_for_selector("#setup")
        assert ann.input_value("#your-name") == "Ann"
        ann.select_option("#players", "3")
        ann.select_option("#seat-2", "human")
        ann.select_option("#seat-3", "bot:random")
        ann.select_option("#end-kind", "hands")
        ann.fill("#end-n", "2")
        ann.select_option("#pace", "0.3")
        assert ann.input_value("#club") == club
        ann.click("#setup button[type=submit]")
        ann.wait_for_selector("#created:not([hidden])")
        invite = ann.input_value("#created input[aria-label='Invite for seat 2']")
        bo.goto(invite + "?lang=en")
        bo.fill("#sit-name", "Bobby")
        bo.click("#sit button[type=submit]")
        bo.wait_for_selector(".felt")
        ann.click("#created a.button.primary")
        ann.wait_for_selector("#start")
        ann.click("#start")
        _play([ann, bo])
        names = ann.eval_on_selector_all(".seat", "els => els.map(e => e.getAttribute('aria-label'))")
        assert any("Bo" in n and "Bobby" not in n for n in names)  # the player's own name (R2.2)
        # the club page: the season table, the chart, the session and its score sheet
        for page in (bo, ann):
            page.goto(f"{base}/c/{club}?lang=en")
            page.wait_for_selector("#season-table tbody tr")
            page.wait_for_function(
                "[...document.querySelectorAll('#season-table td.sessions')].every(td => td.textContent === '1')"
            )
        rows = ann.eval_on_selector_all(
            "#season-table tbody tr", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))"
        )
        assert sorted(r[0] for r in rows) == ["Ann", "Bo"] and all(r[1] == "1" and r[2] == "2" for r in rows)
        points = [float(r[8]) for r in rows]
        assert points == sorted(points, reverse=True)
        ann.click("#season-table th button[data-sort='name']")
        assert [
            r[0]
            for r in ann.eval_on_selector_all(
                "#season-table tbody tr", "trs => trs.map(tr => [tr.children[0].textContent])"
            )
        ] == ["Ann", "Bo"]
        assert ann.get_attribute("#season-table th:first-child", "aria-sort") == "ascending"
        assert len(ann.query_selector_all("#chart svg polyline")) == 2
        assert not cards_in(json.dumps(ann.text_content("main").split()))  # the season's page (R7)
        # both ratings moved from the first rating 25.0 ± 8.3
        ratings = ann.eval_on_selector_all(
            "#club-ratings tbody tr",
            "trs => trs.map(tr => [tr.children[1].textContent, tr.children[2].textContent, tr.children[3].textContent])",
        )
        mine = {name: (rating, n) for name, rating, n in ratings}
        assert mine["Ann"][1] == mine["Bo"][1] == "1"
        assert mine["Ann"][0] != "25.0 ± 8.3" and mine["Bo"][0] != "25.0 ± 8.3"
        bo.goto(f"{base}/account?lang=en")
        bo.wait_for_selector("#my-rating")
        assert bo.text_content("#my-rating").startswith("Your rating: ") and "(1 sessions)" in bo.text_content(
            "#my-rating"
        )
        # the session's score sheet: two hands, no card anywhere (R7)
        ann.goto(f"{base}/c/{club}?lang=en")
        ann.wait_for_selector("#sessions a")
        ann.click("#sessions a")
        ann.wait_for_selector("#sheet-hands tbody tr")
        assert len(ann.query_selector_all("#sheet-hands tbody tr")) == 2
        text = ann.text_content("main")
        assert not cards_in(json.dumps(text.split()))
        assert not errors, errors
    finally:
        ann_ctx.close()
        bo_ctx.close()


def test_a_stranger_finds_an_open_table_in_the_lobby_and_plays(chromium, server):
    base = server
    errors: list[str] = []
    host_ctx, stranger_ctx = _context(chromium), _context(chromium)
    try:
        host, stranger = _page(host_ctx, errors), _page(stranger_ctx, errors)
        host.goto(base + "/?lang=en")
        host.fill("#your-name", "Hal")
        host.select_option("#players", "3")
        host.select_option("#seat-2", "human")
        host.select_option("#seat-3", "bot:random")
        host.select_option("#end-kind", "hands")
        host.fill("#end-n", "1")
        host.select_option("#pace", "0.3")
        host.check("#open")
        host.click("#setup button[type=submit]")
        host.wait_for_selector("#created:not([hidden])")
        table = re.search(r"/t/([^/]+)/", host.get_attribute("#created a.button.primary", "href")).group(1)
        stranger.goto(base + "/?lang=en")
        stranger.fill("#your-name", "Sue")
        row = stranger.wait_for_selector(f".open-table[data-table='{table}']")
        assert "1 free seat" in row.text_content() and "At the table: Hal" in row.text_content()
        assert row.query_selector("a.button[href*='/watch/']")  # it can be watched
        row.query_selector(".take-seat").click()
        stranger.wait_for_url(re.compile(rf"/t/{table}/s/"))
        stranger.wait_for_selector(".felt")
        # a full open table starts itself
        host.click("#created a.button.primary")
        host.wait_for_selector(".felt")
        _play([host, stranger])
        seats = stranger.eval_on_selector_all(".seat", "els => els.map(e => e.getAttribute('aria-label'))")
        assert any("Sue" in s for s in seats) and any("Hal" in s for s in seats)
        stranger.goto(base + "/?lang=en")
        stranger.wait_for_selector("#open-list li")
        assert not stranger.query_selector(f".open-table[data-table='{table}']")  # over: no longer listed
        assert not errors, errors
    finally:
        host_ctx.close()
        stranger_ctx.close()
