"""The pages speak the reader's language and fit a phone (issue 36), measured in the browser:

- the lobby's open-table card shows the preset and the changed rules in the page's language
  (Italian "tradizionale · dopo 10 mani", never the spec "traditional; end=hands:10");
- a choice's key is in its word or shown apart (Dutch "mee" with the key I apart, not "Mee I");
- the club page says how its ratings are ordered (a tap for more) and lists bots apart from the
  members' ranking;
- on a 390 x 844 phone the season table and the ledger's score sheet scroll in their own boxes
  and nothing of the page is cut off; the ledger and the account page have the site's look.

Locally without Chromium (or Playwright) these tests skip with the reason; under ``CI=true`` they fail.
"""

from __future__ import annotations

import json
import re

import pytest

from helpers import ServerProcess, post_ok, scaled

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
#: no horizontal overflow: the page, and every box but those that scroll on their own
OVERFLOW = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push(['page', document.documentElement.scrollWidth]);
  for (const e of document.querySelectorAll('main, main *')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    let box = e.parentElement, scrolls = false;
    for (; box; box = box.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) { scrolls = true; break; }
    if (!scrolls && r.right > innerWidth + 1) out.push([e.tagName, e.id, e.className, Math.round(r.right)]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    d = tmp_path_factory.mktemp("words")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def _context(browser, device: dict, lang: str = "en"):
    return browser.new_context(
        **device, locale={"de": "de-DE", "nl": "nl-NL", "it": "it-IT"}.get(lang, "en-US"), bypass_csp=True
    )


def _register(page, base: str, name: str, lang: str = "en") -> None:
    page.goto(f"{base}/account?lang={lang}")
    page.fill("#new-name", name)
    page.fill("#new-password", "a long password of words")
    page.fill("#new-password2", "a long password of words")
    page.click("#new-player button[type=submit]")
    page.wait_for_selector("#who")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("it", ["tradizionale", "10 mani"]),
        ("de", ["traditionell", "10 Spielen"]),
        ("nl", ["traditioneel", "10 spellen"]),
    ],
)
def test_the_open_table_card_speaks_the_page_s_language(chromium, base, lang, words):
    """R6, R3.6: the preset's name and the changed options (the session's end) in it, de, nl; no
    English preset word and no raw spec ("traditional; end=hands:10")."""
    made = post_ok(
        base,
        "/api/web/tables",
        {
            "preset": "traditional",
            "rules": ["end=hands:10", "ante=2"],
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "open": True,
        },
    )
    ctx = _context(chromium, DESKTOP, lang)
    try:
        page = ctx.new_page()
        page.goto(f"{base}/?lang={lang}")
        card = f".open-table[data-table='{made['table']}']"
        page.wait_for_selector(card)
        text = page.text_content(card)
        for word in words:
            assert word in text, text
        assert not re.search(r"traditional|end=|hands|;|ante=", text), text
        assert "2" in page.text_content(f"{card} .open-main span.muted")  # the ante of 2, in words
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("lang", "marked", "apart"), [("nl", [], ["I", "O"]), ("de", ["i"], ["O"]), ("en", ["i", "o"], [])]
)
def test_a_choice_s_key_is_in_its_word_or_shown_apart(chromium, base, lang, marked, apart):
    """The declaration's buttons (R4.5): the key's letter underlined in the word that holds it
    (de "re[i]n", en "[i]n" "[o]ut"), else apart after the word with a gap (nl "mee" with I, "pas"
    with O): never "Mee I" run together."""
    made = post_ok(
        base,
        "/api/web/tables",
        {
            "preset": "traditional",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
            "seed": 3,
            "bot_pace_seconds": 0,
            "rules": ["dealer_forced=false"],
        },
    )
    sat = post_ok(base, f"/api/tables/{made['table']}/sit", {"token": made["seats"][0]["token"], "name": "Wim"})
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
    ctx = _context(chromium, DESKTOP, lang)
    try:
        page = ctx.new_page()
        page.goto(f"{base}/t/{made['table']}/s/{sat['token']}?lang={lang}")
        page.wait_for_selector(".actions .act-in", timeout=scaled(20_000))
        page.wait_for_selector(".actions .act-out")
        got = page.eval_on_selector_all(
            ".actions .act-in, .actions .act-out",
            """bs => bs.map(b => { const u = b.querySelector('u.key-letter'), k = b.querySelector('kbd');
                const gap = k ? k.getBoundingClientRect().left - b.querySelector('kbd').previousSibling.parentElement.getBoundingClientRect().left : 0;
                return {text: b.textContent, name: b.getAttribute('aria-keyshortcuts'), u: u ? u.textContent : null,
                        kbd: k ? k.textContent : null, margin: k ? parseFloat(getComputedStyle(k).marginLeft) : 0}; })""",
        )
        assert [g["u"] for g in got if g["u"]] == marked, got
        assert [g["kbd"] for g in got if g["kbd"]] == apart, got
        for g in got:
            assert (g["u"] is None) != (g["kbd"] is None), g  # one way or the other, never both
            if g["u"]:
                assert g["u"].lower() == g["name"] and g["name"] in g["text"].lower()
            else:
                assert g["margin"] >= 6, g  # apart from the word
        # what a screen reader hears is the whole word ("in", "rein"), never its pieces ("i n")
        for sel, g in zip((".actions .act-in", ".actions .act-out"), got):
            heard = page.locator(sel).aria_snapshot().lower()
            word = (g["text"].replace(g["kbd"] or "", "") if g["kbd"] else g["text"]).strip().lower()
            assert word in heard, (heard, word)
    finally:
        ctx.close()


def _club_with_a_bot(page, base: str, lang: str, name: str = "Greta") -> str:
    """A club made by a new player; its page's data answered with ratings where a bot and a guest
    rank above the member (as after sessions against a strong bot). Returns the club id."""
    _register(page, base, name, lang)
    page.fill("#club-name", "Zur Linde")
    page.click("#new-club button[type=submit]")
    page.wait_for_url(re.compile(r"/c/[^/?]+\?"))
    club = re.search(r"/c/([^/?]+)", page.url).group(1)

    def with_ratings(route):
        answer = route.fetch()
        info = answer.json()
        me = info["members"][0]["player"]
        info["ratings"] = [
            {"player": "bot-expert", "name": "expert", "bot": True, "rating": 31.2, "uncertainty": 1.1, "sessions": 9},
            {"player": "guest-1", "name": "Hans", "bot": False, "rating": 27.0, "uncertainty": 2.0, "sessions": 4},
            {"player": me, "name": name, "bot": False, "rating": 24.0, "uncertainty": 3.0, "sessions": 3},
        ]
        route.fulfill(
            response=answer, body=json.dumps(info), headers={**answer.headers, "content-type": "application/json"}
        )

    page.route(re.compile(rf".*/api/clubs/{club}$"), with_ratings)
    return club


def test_the_club_page_says_its_order_and_lists_bots_apart(chromium, base):
    """The club's ratings: "ordered by rating minus three uncertainties" with the reason a tap away;
    the members ranked (Greta 1st), the bot and the guest apart, unranked (they are no members)."""
    ctx = _context(chromium, DESKTOP)
    try:
        page = ctx.new_page()
        club = _club_with_a_bot(page, base, "en")
        page.goto(f"{base}/c/{club}?lang=en")
        page.wait_for_selector("#member-ratings tbody tr")
        note = page.locator("#club-ratings details.order-note")
        assert note.locator("summary").text_content() == "Ordered by rating minus three uncertainties"
        assert not note.locator("p").is_visible()
        note.locator("summary").click()
        assert "rating − 3 × uncertainty" in note.locator("p").text_content()
        members = page.eval_on_selector_all(
            "#member-ratings tbody tr", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))"
        )
        assert [r[:2] for r in members] == [["1", "Greta"]]
        others = page.eval_on_selector_all(
            "#other-ratings tbody tr", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))"
        )
        assert [r[0] for r in others] == ["–", "–"] and others[1][1] == "Hans" and "bot" in others[0][1]
        assert "not members" in page.text_content("#other-ratings caption")
    finally:
        ctx.close()


def test_the_season_table_scrolls_in_its_box_on_a_phone(chromium, base):
    """390 x 844, German: the season table (nine columns) scrolls inside its own box; the page
    and every panel fit the screen; the names stay in sight and the caption is not cut."""
    ctx = _context(chromium, PHONE, "de")
    try:
        page = ctx.new_page()
        club = _club_with_a_bot(page, base, "de", "Gerda")
        page.goto(f"{base}/c/{club}?lang=de")
        page.wait_for_selector("#season-table tbody tr")
        assert page.evaluate(OVERFLOW) == []
        box = page.evaluate(
            """() => { const t = document.querySelector('#season-table'), b = t.parentElement, r = b.getBoundingClientRect();
                 const c = t.querySelector('caption'), g = document.createRange();
                 if (c) g.selectNodeContents(c);
                 const cr = c ? g.getBoundingClientRect() : r;  // the caption's words
                 return {ox: getComputedStyle(b).overflowX, right: r.right, wide: t.scrollWidth > b.clientWidth,
                         caption: cr.right <= r.right + 1 && cr.left >= r.left - 1,
                         sticky: getComputedStyle(t.querySelector('td')).position}; }"""
        )
        assert box["ox"] == "auto" and box["right"] <= 390 and box["wide"], box  # scrolls, not cut
        assert box["caption"] and box["sticky"] == "sticky", box
    finally:
        ctx.close()


def test_the_ledger_looks_like_the_site_and_its_sheet_fits_a_phone(chromium, base):
    """The pub ledger with six long names on a 390 x 844 phone: the site's header (as the account
    page's), felt and fonts; the score sheet scrolls in its own box; nothing else is cut off."""
    names = ["Annemarie", "Bartholomäus", "Christiane", "Dietrich", "Eleonore", "Friedhelm"]
    made = post_ok(base, "/api/ledgers", {"names": names, "preset": "traditional", "options": {}})
    for _ in range(3):
        post_ok(
            base,
            f"/api/ledgers/{made['ledger']}/hands?token={made['token']}",
            {"active": [0, 2, 4], "tricks": {"0": 3, "2": 2, "4": 0}, "general_rams": None, "targets": {}},
        )
    ctx = _context(chromium, PHONE, "de")
    try:
        page = ctx.new_page()
        look = """() => { const h = document.querySelector('header.top'), h1 = h && h.querySelector('h1');
            return {header: !!h, nav: !!(h && h.querySelector('nav.top-nav #lang')), bg: getComputedStyle(document.body).backgroundImage,
                    h1: h1 ? getComputedStyle(h1).fontFamily : null, color: h1 ? getComputedStyle(h1).color : null}; }"""
        page.goto(f"{base}/account?lang=de")
        page.wait_for_selector("#new-player")
        site = page.evaluate(look)
        page.goto(f"{base}{made['page']}?lang=de")
        page.wait_for_selector(".lg-sheet tbody tr")
        ledger = page.evaluate(look)
        assert ledger == site, (ledger, site)
        assert site["header"] and site["nav"] and "gradient" in site["bg"]
        assert page.evaluate(OVERFLOW) == []
        sheet = page.evaluate(
            """() => { const b = document.querySelector('.lg-scroll'), r = b.getBoundingClientRect();
                 return {ox: getComputedStyle(b).overflowX, left: r.left, right: r.right}; }"""
        )
        assert sheet["ox"] == "auto" and sheet["left"] >= 0 and sheet["right"] <= 390, sheet
        panel = page.evaluate("getComputedStyle(document.querySelector('main.lg-main')).backgroundColor")
        card = page.evaluate("getComputedStyle(document.querySelector('main .panel, main.lg-main')).backgroundColor")
        assert panel == card == "rgb(251, 247, 238)"  # the site's paper (--paper)
    finally:
        ctx.close()


def test_the_account_page_has_the_site_s_look_on_a_phone(chromium, base):
    """The account page, logged in, on a phone: the site's header, paper panels on the felt,
    nothing cut off; a login reads as its browser ("Chrome unter Linux"), not a user-agent string."""
    ctx = _context(chromium, PHONE, "de")
    try:
        page = ctx.new_page()
        _register(page, base, "Ilse", "de")
        page.wait_for_selector("#logins li")
        assert page.evaluate(OVERFLOW) == []
        panels = page.eval_on_selector_all("main .panel", "ps => ps.map(p => getComputedStyle(p).backgroundColor)")
        assert panels and set(panels) == {"rgb(251, 247, 238)"}
        agent = page.text_content("#logins li .agent")
        assert "Mozilla" not in agent and re.fullmatch(r"\w+ unter \w+", agent), agent
        assert page.is_visible("header.top nav.top-nav")
    finally:
        ctx.close()


def test_a_rules_spec_reads_in_the_page_s_language(chromium, base):
    """The rules of a club session's score sheet and of an evening (sent as a spec,
    ``traditional; end=hands:10``) read in the page's words (R6, R8): ``R.rulesSpecText``."""
    ctx = _context(chromium, DESKTOP, "it")
    try:
        page = ctx.new_page()
        page.goto(f"{base}/?lang=it")
        page.wait_for_selector("#setup")
        text = page.evaluate("R.rulesSpecText('traditional; end=hands:10; ante=2; jokers=true; bete=pot')")
        assert text.startswith("tradizionale · ") and "10 mani" in text and "jolly" in text, text
        assert not re.search(r"traditional|end=|ante=|hands|pot\b", text), text
        assert page.evaluate("R.rulesChanges({general_rams: true, targets: false})") == "General Rams · senza obiettivi"
    finally:
        ctx.close()
