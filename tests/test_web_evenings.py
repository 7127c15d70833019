"""A club evening in real browsers (issue 34, items 1, 2, 6, 7 and its Playwright test): a real
``ramsli serve`` process on 127.0.0.1 and Debian's Chromium through Playwright, people clicking.

- the organiser makes an evening with the "New evening" form and lands on its standing link;
- three people check in by the standing link (one on a phone, 390 x 844, who logs in from it and
  comes back; two on laptops), the director adds substitute bots and starts round 1, each person
  goes to their table from the evening's page, plays round 1 online (a card clicked when it is
  their turn), the table page names the evening (round 1 of 2, their table) and, when the table is
  done and the director has started round 2, offers "Next: Table N — Take your seat", which takes
  them to their round-2 seat; the TV page shows the standings of everyone, bots marked; no card
  on the evening's pages (R7).

Without Chromium (or Playwright) these tests skip locally and fail under ``CI=true``.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from helpers import ServerProcess, cards_in, scaled

LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("evenings-web")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def _context(browser, viewport: dict, phone: bool = False):
    extra = {"is_mobile": True, "has_touch": True} if phone else {}
    ctx = browser.new_context(viewport=viewport, locale="en-US", bypass_csp=True, **extra)
    ctx.add_init_script("localStorage.setItem('ramsli.settings', JSON.stringify({trickPause: 0.2}))")
    return ctx


def _page(ctx, errors: list[str]):
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())  # the director's confirmations
    return page


def _register(page, base: str, name: str) -> None:
    """A new player, logged in in this page's browser (through the account page's own API call)."""
    page.goto(base + "/account?lang=en")
    page.wait_for_selector("#new-player")
    page.evaluate("([n, p]) => R.api('POST', '/api/players', {name: n, password: p})", [name, PASSWORD])


def _api(page, method: str, path: str, body=None):
    """A request from the page, with its login and CSRF token (as the pages send them)."""
    return page.evaluate("([m, p, b]) => R.api(m, p, b === null ? undefined : b)", [method, path, body])


def _until(what: str, check, timeout: float = scaled(120.0), every: float = 0.25):
    """Wait for ``check()`` to be truthy (its value is returned); fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(every)


def _play_until_done(pages: list, timeout: float = scaled(240.0)) -> None:
    """Each person clicks a legal move when it is their turn and closes a hand's summary, until every
    page's table is over (the evening's line under the standings shows)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + timeout
    while not all(p.query_selector(".evening-next-row") for p in pages):
        assert time.monotonic() < deadline, "round 1 did not finish in time"
        acted = False
        for p in pages:
            if p.query_selector(".evening-next-row"):
                continue
            if p.evaluate("document.body.dataset.overlay") == "summary":
                try:  # the summary closes by itself when the next hand is dealt: it may be gone already
                    p.click(".dialog #dialog-close", timeout=scaled(2000))
                except PlaywrightTimeout:
                    pass
                acted = True
                continue
            if p.query_selector(".status-line.mine") is None:
                continue
            seq = p.evaluate("document.body.dataset.seq")
            for sel in (".actions .act-in", ".actions .act >> nth=0", ".hand-card.can-play >> nth=0"):
                if p.query_selector(sel.split(" >> ")[0]):
                    try:
                        p.click(sel, timeout=scaled(2000))
                        p.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=scaled(10000))
                    except PlaywrightTimeout:
                        pass
                    acted = True
                    break
        if not acted:
            time.sleep(0.05)


def test_the_new_evening_form_makes_an_evening_and_opens_its_standing_link(chromium, server):
    base = server
    errors: list[str] = []
    ctx = _context(chromium, PHONE, phone=True)
    try:
        page = _page(ctx, errors)
        page.goto(base + "/evenings/new?lang=en")
        page.wait_for_selector("#log-in")  # a guest is asked to log in first
        _register(page, base, "Orla")
        page.goto(base + "/evenings/new?lang=en")
        page.wait_for_selector("#new-evening")
        # the defaults: the final format, 3 rounds, 10 hands, online; duplicate is online only (issue 35)
        assert page.input_value("#ev-format") == "final" and page.input_value("#ev-mode") == "online"
        assert page.input_value("#ev-rounds") == "3" and page.input_value("#ev-hands") == "10"
        assert not page.eval_on_selector("#ev-format option[value=duplicate]", "o => o.disabled")
        page.select_option("#ev-mode", "cards")
        page.select_option("#ev-format", "duplicate")
        assert page.input_value("#ev-mode") == "online"
        assert page.eval_on_selector("#ev-mode option[value=cards]", "o => o.disabled")
        page.select_option("#ev-format", "final")
        assert not page.eval_on_selector("#ev-mode option[value=cards]", "o => o.disabled")
        assert page.eval_on_selector("#ev-weekly", "c => c.disabled")  # weekly: a club's evening only
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.fill("#ev-name", "   ")  # blank: the server's refusal in the page's language, nothing made
        assert page.input_value("#ev-turn") == "60"  # an evening's turn timer by default (item 9)
        page.fill("#ev-starts", "2020-01-09T20:00")  # in the past: said, not refused
        assert "in the past" in page.text_content("#ev-past")
        page.fill("#ev-starts", "2031-12-11T20:00")
        assert not page.text_content("#ev-past")
        box = page.eval_on_selector("#new-evening", "f => f.getBoundingClientRect().toJSON()")
        assert abs(box["x"] - (PHONE["width"] - box["x"] - box["width"])) <= 2  # centred under the header
        page.select_option("#ev-format", "results")
        assert page.eval_on_selector("#ev-final-size", "c => c.disabled")
        page.fill("#ev-rounds", "4")
        page.click("#create-evening")
        page.wait_for_selector("#ev-alert strong")
        assert "/evenings/new" in page.url and page.text_content("#ev-alert").strip()
        page.fill("#ev-name", "Thursday at the Linde")
        page.click("#create-evening")
        page.wait_for_url(re.compile(r"/e/[^/?]+\?lang=en$"))
        page.wait_for_selector("#about")
        facts = page.text_content(".ev-facts")
        assert "Thursday, December 11, 2031" in facts and "8:00" in facts  # the reader's own time and locale
        assert "rounds redrawn by results" in facts and "4 rounds" in facts
        assert page.get_attribute("img.ev-qr", "src").endswith("/qr.svg")
        assert re.search(r"^[0-9a-f]{64}$", page.text_content("#commitment"))
        assert page.query_selector("#director-link")  # the organiser directs it
        assert not errors, errors
    finally:
        ctx.close()


def test_three_people_check_in_play_round_one_and_move_to_their_round_two_tables(chromium, server):
    base = server
    errors: list[str] = []
    contexts = {
        "director": _context(chromium, LAPTOP),
        "Ann": _context(chromium, PHONE, phone=True),
        "Bo": _context(chromium, LAPTOP),
        "Cy": _context(chromium, LAPTOP),
    }
    try:
        pages = {name: _page(ctx, errors) for name, ctx in contexts.items()}
        director = pages["director"]
        _register(director, base, "Dora")
        made = _api(
            director,
            "POST",
            "/api/evenings",
            {
                "name": "Pub night",
                "starts": "2031-12-11T20:00+01:00",
                "format": "lot",
                "rounds": 2,
                "hands_per_round": 1,  # one hand each deals: tables of 4 and 3 play 4 and 3 hands
                "mode": "online",
                "bot_pace_seconds": 0,
                "hand_pause_seconds": 0.5,
                "turn_seconds": 30,
            },
        )
        link = base + made["url"]
        # Ann opens the standing link on her phone, logs in from it and comes back to check in
        ann = pages["Ann"]
        ann.goto(link + "?lang=en")
        ann.wait_for_selector("#log-in")
        ann.click("#log-in")
        ann.wait_for_selector("#new-player")
        ann.fill("#new-name", "Ann")
        ann.fill("#new-password", PASSWORD)
        ann.fill("#new-password2", PASSWORD)
        ann.click("#new-player button[type=submit]")
        ann.wait_for_url(re.compile(re.escape(made["url"]) + r"(\?|$)"))
        for name in ("Bo", "Cy"):
            _register(pages[name], base, name)
            pages[name].goto(link + "?lang=en")
        people = [pages[n] for n in ("Ann", "Bo", "Cy")]
        for p in people:
            p.wait_for_selector("#check-in-button")
            p.click("#check-in-button")
            p.wait_for_selector("#checked-in")
        assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # the director sees them, adds four substitute bots (7: tables of 4 and 3) and starts round 1
        director.goto(link + "/director?lang=en")
        director.wait_for_selector("#checkins")
        for n in ("Ann", "Bo", "Cy"):
            assert n in director.text_content("#checkins")
        for k in range(1, 5):
            director.select_option("#bot-level", "easy")
            director.click("#add-bot")
            director.wait_for_function(
                f"document.querySelectorAll('#checkins .is-bot').length === {k}", timeout=scaled(10000)
            )
        director.click("#start-round")
        director.wait_for_function("document.querySelector('main').dataset.round === '1'", timeout=scaled(20000))
        # each person goes to their table from the evening's page (it asks the state every 5 s)
        for p in people:
            p.wait_for_selector("#go-to-table", timeout=scaled(30000))
            assert re.match(r"Your table: Table \d, seat \d", p.text_content("#my-table-h"))
            p.click("#go-to-table")
            p.wait_for_selector(".felt")
            p.wait_for_selector("#evening-link")
            _until("the evening's line", lambda p=p: "Round 1 of 2" in p.text_content("#evening-link"), scaled(20))
            # read again: the line is drawn anew once the evening's state is in (an earlier handle may be stale)
            assert re.search(r"Pub night · Round 1 of 2 · Table \d", p.text_content("#evening-link") or "")
        first = [p.url for p in people]
        _play_until_done(people)
        # every table of round 1 is done: the director starts round 2
        director.reload()
        director.wait_for_selector("#start-round")
        _until(
            "round 1 to be done on the director's page",
            lambda: (director.reload() or True) and director.query_selector("#start-round:not([disabled])"),
            scaled(60),
            1.0,
        )
        director.click("#start-round")
        director.wait_for_function("document.querySelector('main').dataset.round === '2'", timeout=scaled(20000))
        # the table page says where each sits next and takes them there
        for p, old in zip(people, first):
            # in the standings, in the dialog or the card on the page (not the one behind a dialog)
            nxt = p.wait_for_selector(".overlay .evening-next, main:not([inert]) .evening-next", timeout=scaled(30000))
            assert re.fullmatch(r"Next: Table \d — Take your seat", nxt.text_content())
            nxt.click()
            p.wait_for_url(lambda url, old=old: url != old and "/t/" in url)
            p.wait_for_selector(".felt")
            _until("round 2's line", lambda p=p: "Round 2 of 2" in (p.text_content("#evening-link") or ""), scaled(20))
        # the TV: the standings of round 1, everyone, the bots marked; no card (R7)
        tv_ctx = _context(chromium, TV)
        try:
            tv = _page(tv_ctx, errors)
            # the director's link carries the screen's key: the TV's browser has no login
            href = director.get_attribute("#tv-link", "href") or ""
            assert re.fullmatch(r"/e/[^/]+/tv\?key=[\w-]{20,}&lang=en", href), href
            tv.goto(link.split("/e/")[0] + href)
            tv.wait_for_selector("#tv-standings-table tbody tr")
            rows = tv.eval_on_selector_all(
                "#tv-standings-table tbody tr", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))"
            )
            assert len(rows) == 7 and [r[0] for r in rows] == sorted((r[0] for r in rows), key=int)
            names = " ".join(r[1] for r in rows)
            assert all(n in names for n in ("Ann", "Bo", "Cy")) and names.count("bot") == 4
            assert tv.text_content("#tv-round") == "Round 2 of 2"
            assert re.search(r"updated \d", tv.text_content("#tv-stamp"))
            assert tv.evaluate("document.documentElement.scrollHeight") <= TV["height"]  # no scrolling
            assert not cards_in(json.dumps(tv.text_content("main").split()))
        finally:
            tv_ctx.close()
        for p in (director, ann):
            p.goto(link + "?lang=en")
            p.wait_for_selector("#standings tbody tr")
            assert not cards_in(json.dumps(p.text_content("main").split()))
        assert not errors, errors
    finally:
        for ctx in contexts.values():
            ctx.close()


def _mock_state(results: bool = True) -> dict:
    """A made-up state of a finished-but-one final-format evening (24 people, the small final still
    playing, paused, with real cards), shaped like ``GET /api/evenings/{id}`` (views.state)."""
    people = [
        {
            "id": f"u{k}",
            "name": f"Player {k}",
            "kind": "person",
            "checked_in": True,
            "from_round": 1,
            "withdrawn": False,
        }
        for k in range(1, 25)
    ]

    def seats(ids):
        return [{"seat": f"p{i + 1}", "id": pid, "name": pid, "kind": "person"} for i, pid in enumerate(ids)]

    def table(number, ids, kind="", mode="online", status="done", played=12, done=True):
        return {
            "number": number,
            "name": None,
            "kind": kind,
            "mode": mode,
            "captain": ids[0] if mode == "cards" else None,
            "hands": 12,
            "hands_played": played,
            "status": status,
            "checks": [k % 10 for k in range(12)] if mode == "cards" else None,
            "seats": seats(ids),
            "results": [
                {"id": pid, "net": 10 - 4 * i, "place": i + 1, "score": 100 - 20 * i, "bot_hands": 0}
                for i, pid in enumerate(ids)
            ]
            if done
            else None,
        }

    ids = [p["id"] for p in people]
    r1 = {
        "round": 1,
        "kind": "qualifying",
        "done": True,
        "byes": [],
        "swaps": [],
        "tables": [table(n + 1, ids[6 * n : 6 * n + 6]) for n in range(4)],
    }
    final = {
        "round": 2,
        "kind": "final",
        "done": False,
        "byes": ids[12:],
        "swaps": [],
        "tables": [
            table(1, ids[:6], kind="final"),
            table(2, ids[6:12], kind="small_final", mode="cards", status="paused", played=5, done=False),
        ],
    }
    standings = [
        {
            "rank": k + 1,
            "id": pid,
            "name": f"Player {k + 1}",
            "kind": "person",
            "score": 0 if not results else 100 - 4 * k,
            "rounds": [] if not results else [100 - 4 * k, 60 if k < 6 else None],
            "net_vs_mean": 0,
            "firsts": 0,
            "note": "" if not results else ("final" if k < 6 else "small_final" if k < 12 else ""),
        }
        for k, pid in enumerate(ids)
    ]
    return {
        "id": "mock",
        "url": "/e/mock",
        "name": "Mock night",
        "starts": "2026-12-03T20:00+00:00[UTC]",
        "club": None,
        "director": {"id": "u1", "name": "Player 1"},
        "preset": "traditional",
        "rules": [],
        "summary": "",
        "mode": "mixed",
        "members_only": False,
        "format": "final",
        "rounds": 1,
        "rounds_total": 2,
        "hands_per_round": 12,
        "final_size": 6,
        "small_final": True,
        "recurring": "weekly",
        "status": "running" if results else "open",
        "round": 2 if results else 0,
        "next": None,
        "commitment": "0" * 64,
        "seeds": {},
        "people": people,
        "pending_swaps": [],
        "rounds_played": [r1, final] if results else [],
        "standings": standings,
        "audit": [],
        "me": None,
        "may": {},
    }


def _mocked(ctx, state: dict) -> None:
    """Every request for the mock evening's state answers ``state`` (the rest goes to the server)."""
    body = json.dumps(state)
    ctx.route(
        re.compile(r".*/api/evenings/mock(\?.*)?$"),
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )


def test_the_pages_show_a_zoned_start_the_final_places_and_no_ranks_before_results(chromium, server):
    """Issue 34 follow-up (lane F items 1-8): a start with an RFC 9557 zone, the final's places and
    the caption, the final round's byes, the TV's tables still playing, no ranks before any result,
    one name for the standings, nothing sideways on a phone, the print page's check column."""
    base = server
    errors: list[str] = []
    phone = _context(chromium, PHONE, phone=True)
    try:
        _mocked(phone, _mock_state())
        page = _page(phone, errors)
        page.goto(base + "/e/mock?lang=en")
        page.wait_for_selector("#standings tbody tr")
        facts = page.text_content(".ev-facts")
        assert "[UTC]" not in facts and "December 3, 2026" in facts and "(UTC)" in facts  # item 1
        first = page.eval_on_selector("#standings tbody tr", "tr => [...tr.children].map(td => td.textContent)")
        assert first[-1] == "Final, place 1"  # item 2: the place at the Final
        assert "the Final decides places 1–6" in page.text_content("#standings-panel")
        assert "Not in the Final or Small final: Player 13" in page.text_content("#rounds")  # item 3
        assert "scores 50" not in page.text_content("#rounds")
        # item 7: the table is named by the heading, no second "Standings" caption
        assert page.get_attribute("#standings", "aria-labelledby") == "standings-h"
        assert not page.query_selector("#standings caption")
        # item 8: on a phone the per-round and net columns hide; nothing scrolls sideways
        assert not page.is_visible("#standings .ev-detail")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.goto(base + "/e/mock/print?lang=en")
        page.wait_for_selector(".print-check-note")  # item 6
        assert page.query_selector("#print-standings #standings")
        assert page.eval_on_selector("td.check", "td => getComputedStyle(td).verticalAlign") == "middle"
        assert "(UTC)" in page.text_content(".sheet-page .note")
    finally:
        phone.close()
    tv_ctx = _context(chromium, TV)
    try:
        _mocked(tv_ctx, _mock_state())
        tv = _page(tv_ctx, errors)
        tv.goto(base + "/e/mock/tv?lang=en")
        tv.wait_for_selector("#tv-standings-table tbody tr")
        assert tv.text_content("#tv-playing-h") == "Tables still playing"  # item 4
        assert tv.text_content("#tv-playing [data-table='2'] .tv-left") == "7 hands left · paused"
        assert len(tv.query_selector_all("#tv-standings-table tbody tr")) == 20
        assert tv.evaluate("document.documentElement.scrollHeight") <= TV["height"]  # 20 rows fit
        assert "Final, place 2" in tv.text_content("#tv-standings-table")
    finally:
        tv_ctx.close()
    laptop = _context(chromium, LAPTOP)
    try:
        _mocked(laptop, _mock_state(results=False))
        page = _page(laptop, errors)
        page.goto(base + "/e/mock?lang=en")
        page.wait_for_selector("#no-results")  # item 5: nobody ranked 1..N with 0
        assert not page.query_selector("#standings")
        assert "24 checked in:" in page.text_content("#standings-panel")
    finally:
        laptop.close()
    assert not errors, errors


def test_an_evening_tables_ledger_links_back_to_the_evening(chromium, server):
    """Lane F item 10: the pub ledger of an evening's real-card table names the evening, its round and
    table, links to /e/{id}, and once over offers "Back to the evening" (the ledger's own state, with
    its ``evening`` as the evening's service sets it, answered through a route)."""
    import urllib.request

    req = urllib.request.Request(
        server + "/api/ledgers",
        method="POST",
        headers={"Content-Type": "application/json"},
        data=json.dumps({"names": ["Ann", "Bo", "Cy"], "preset": "traditional"}).encode(),
    )
    with urllib.request.urlopen(req, timeout=scaled(10)) as r:
        made = json.loads(r.read())
    errors: list[str] = []
    ctx = _context(chromium, PHONE, phone=True)

    def with_evening(route, over: list[bool]):
        got = route.fetch()
        data = got.json()
        data["evening"] = {"id": "ev42", "round": 2, "table": 3, "name": None}
        data["over"] = over[0]
        route.fulfill(response=got, body=json.dumps(data))

    over = [False]
    ctx.route(re.compile(r".*/api/ledgers/[^/?]+\?token=.*"), lambda route: with_evening(route, over))
    try:
        page = _page(ctx, errors)
        page.goto(server + made["page"] + "?lang=en")
        page.wait_for_selector("#ledger-evening a")
        assert page.text_content("#ledger-evening a") == "Evening · Round 2 · Table 3"
        assert page.get_attribute("#ledger-evening a", "href").startswith("/e/ev42")
        assert not page.query_selector("#back-to-evening")
        over[0] = True
        page.reload()
        page.wait_for_selector("#back-to-evening")
        assert page.get_attribute("#back-to-evening", "href").startswith("/e/ev42")
        assert not errors, errors
    finally:
        ctx.close()


def test_the_club_page_adds_a_best_of_season_and_lists_past_evenings(chromium, server):
    """Lane F items 11-13: the season form sends "count the best N evenings" (``best_of``), the season
    then shows the best-of table; the club page has its past evenings' list; the lobby links to the
    club evenings."""
    errors: list[str] = []
    ctx = _context(chromium, LAPTOP)
    try:
        page = _page(ctx, errors)
        _register(page, server, "Olga")
        club = _api(page, "POST", "/api/clubs", {"name": "Zum Hirschen"})["club"]["id"]
        page.goto(server + f"/c/{club}?lang=en")
        page.wait_for_selector("#past-evenings h4")
        assert "No evening of the club has ended yet." in page.text_content("#past-evenings")
        page.fill("#season-name", "Always")
        page.fill("#season-starts", "2040-01-01")  # after the club's first season
        page.fill("#season-ends", "2040-12-31")
        page.fill("#season-best-of", "3")
        page.click("#new-season button[type=submit]")
        made = _until(
            "the new season",
            lambda: [x for x in _api(page, "GET", f"/api/clubs/{club}")["seasons"] if x["name"] == "Always"],
            scaled(20),
        )[0]
        assert made["best_of"] == 3
        page.wait_for_selector(f"#season option[value='{made['id']}']", state="attached")
        page.select_option("#season", made["id"])
        page.wait_for_selector("#best-of-table tbody tr")
        row = page.eval_on_selector("#best-of-table tbody tr", "tr => [...tr.children].map(td => td.textContent)")
        assert row == ["1", "Olga", "0", "0 of 0"]
        page.goto(server + "/?lang=en")
        assert page.get_attribute("#evenings-link", "href").startswith("/account")
        assert not errors, errors
    finally:
        ctx.close()


def test_a_duplicate_evening_shows_matchpoints_and_the_field_of_a_deal(chromium, server):
    """Issue 35: a duplicate evening of eight substitute bots at two tables of four; the evening
    page ranks by matchpoints and, asked for a deal (``?deal=1.2``), shows how both tables played
    it — declarations, tricks, counters, matchpoints — and never a card (R7, D-21)."""
    base = server
    errors: list[str] = []
    ctx = _context(chromium, LAPTOP)
    try:
        page = _page(ctx, errors)
        _register(page, base, "Dupont")
        body = {
            "name": "Duplicate night",
            "starts": "2031-12-11T20:00+01:00",
            "format": "duplicate",
            "rounds": 1,
            "hands_per_round": 1,
            "bot_pace_seconds": 0,
            "hand_pause_seconds": 0,
        }
        eid = _api(page, "POST", "/api/evenings", body)["id"]
        for _ in range(8):
            _api(page, "POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
        _api(page, "POST", f"/api/evenings/{eid}/rounds", {})
        _until("the duplicate round", lambda: _api(page, "GET", f"/api/evenings/{eid}")["rounds_played"][0]["done"])
        page.goto(base + f"/e/{eid}?deal=1.2&lang=en")
        page.wait_for_selector("#field")
        page.wait_for_selector("#field-tables .ev-field-table")
        tables = page.query_selector_all("#field-tables .ev-field-table")
        assert len(tables) == 2
        assert page.text_content("#field-tables caption") == "Table 1: deal 2"
        heads = page.eval_on_selector_all("#field-tables thead th", "ths => ths.map(t => t.textContent)")
        assert heads[:8] == ["Seat", "Name", "Declared", "Tricks", "Won", "Paid", "Net", "Matchpoints %"]
        assert len(page.query_selector_all("#field-tables tbody tr")) == 8
        assert "Matchpoints %" in page.text_content("#standings thead")
        assert "Duplicate:" in page.text_content("#standings-panel")
        assert not cards_in(page.text_content("main"))  # no card on the evening's page (R7, D-21)
        page.fill("#field-hand", "9")  # a deal the round does not have: the server's refusal
        page.click("#field-form button")
        page.wait_for_selector("#field-refused")
        assert "has no deal 9" in page.text_content("#field-refused")
    finally:
        ctx.close()
    assert not errors, errors
