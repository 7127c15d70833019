"""The browser table on a phone (a Pixel 7's page, German) and a 1366x850 desktop (English): a new
user's findings, each measured in the browser.

- the score sheet of five players fits the phone's width; its links and the top bar's buttons are
  tap targets of at least 44 x 44 px (WCAG 2.5.5), so are the lobby's links;
- a bot's seat says "Bot · schwer" in full (the long words in its title or under the seat menu);
- the hint's detail line and the next deal's countdown are readable (contrast >= 4.5, WCAG AA);
- the chat keeps room for its messages (its quick buttons are one row) and its box says what it is for;
- the settings' checkboxes are all one size;
- at the session's end "Play again" is in sight without closing or scrolling, and the standings
  show once, also after a reload;
- the invite page and the lobby show no seat ids (``p1``) and no table id, and the lobby offers the
  hint without a developer's instruction.

Locally without Chromium (or Playwright) these tests skip with the reason; under ``CI=true`` they fail.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any

import pytest

from helpers import ServerProcess, contrast, post_ok, scaled

#: a Pixel 7's page (CSS pixels) and a desktop's
PIXEL7 = {
    "viewport": {"width": 412, "height": 915},
    "device_scale_factor": 2.625,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1366, "height": 850}}
TAP = 44


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    d = tmp_path_factory.mktemp("phone")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def _context(browser, device: dict, lang: str):
    ctx = browser.new_context(**device, locale={"de": "de-DE"}.get(lang, "en-US"), bypass_csp=True)
    ctx.add_init_script("localStorage.setItem('ramsli.settings', JSON.stringify({trickPause: 0.3}))")
    return ctx


def _table(
    base: str, bots: list[str], rules: list[str], hint: bool = False, pause: float = 30.0, seed: int = 5
) -> dict:
    made = post_ok(
        base,
        "/api/web/tables",
        {
            "preset": "traditional",
            "rules": rules,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots],
            "seed": seed,
            "bot_pace_seconds": 0,
            "hand_pause_seconds": pause,
            "hint": hint,
        },
    )
    sat = post_ok(base, f"/api/tables/{made['table']}/sit", {"token": made["seats"][0]["token"], "name": "Greta"})
    made["mine"] = f"/t/{made['table']}/s/{sat['token']}"
    return made


def _start(base: str, made: dict) -> None:
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})


@contextmanager
def _at_my_seat(browser, base: str, device: dict, lang: str, bots: list[str], rules: list[str], **table: Any):
    """A started table (:func:`_table`) whose first seat's page is open in ``device``'s browser in
    ``lang``; yields the page and closes its context afterwards."""
    made = _table(base, bots, rules, **table)
    _start(base, made)
    ctx = _context(browser, device, lang)
    try:
        page = ctx.new_page()
        page.goto(f"{base}{made['mine']}?lang={lang}")
        yield page
    finally:
        ctx.close()


def _small(page, selector: str, width: int = TAP, height: int = TAP) -> list:
    """The elements of ``selector`` smaller than ``width`` x ``height`` CSS px, with their sizes."""
    return page.eval_on_selector_all(
        selector,
        f"""es => es.map(e => {{ const r = e.getBoundingClientRect();
            return [e.id || e.className || e.tagName, e.textContent.trim(), Math.round(r.width), Math.round(r.height)]; }})
            .filter(([, , w, h]) => w < {width} || h < {height})""",
    )


def _in_view(page, selector: str) -> bool:
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight "
        "&& r.left >= 0 && r.right <= innerWidth; }",
    )


def test_the_phone_table_sheet_chat_settings_and_hint(chromium, base):
    with _at_my_seat(
        chromium, base, PIXEL7, "de", ["easy", "hard", "expert", "random"], ["end=hands:4"], hint=True
    ) as page:
        page.wait_for_selector(".actions .act-out")
        assert not _small(page, ".table-top .tools button")  # the top bar: Chat, last trick, sheet, ?, ⚙
        # a bot's seat names its level in full: "Bot · schwer", not "Bot (sch…"
        tags = page.eval_on_selector_all(
            ".seat .bot-tag", "es => es.map(e => [e.textContent, e.scrollWidth <= e.clientWidth + 1, e.title])"
        )
        assert sorted(t for t, _fits, _title in tags) == [
            "Bot · Anfänger",
            "Bot · Experte",
            "Bot · leicht",
            "Bot · schwer",
        ]
        assert all(fits and title for _t, fits, title in tags), tags
        # the hint, readable on its dark box
        page.click("#hint-btn")
        page.wait_for_selector("#hint .hint-detail", timeout=scaled(30000))
        assert contrast(page, "#hint .hint-detail") >= 4.5
        # two hands out; the summary's countdown in its last seconds is readable on the paper
        page.click(".actions .act-out")
        page.wait_for_function("document.body.dataset.overlay === 'summary'", timeout=scaled(30000))
        page.wait_for_selector(".dialog .countdown")
        page.eval_on_selector(".dialog .countdown", "e => e.classList.add('last-seconds')")
        assert contrast(page, ".dialog .countdown") >= 4.5
        page.click("#dialog-close")
        page.wait_for_function("document.body.dataset.hand === '2'", timeout=scaled(30000))
        page.wait_for_selector(".actions .act-out")
        page.click(".actions .act-out")
        page.wait_for_function("document.body.dataset.overlay === 'summary'", timeout=scaled(30000))
        page.click("#dialog-close")
        page.wait_for_function("document.body.dataset.hand === '3'", timeout=scaled(30000))
        # the score sheet of five players and the pot fits the phone, with fingers' links
        page.click("#btn-sheet")
        page.wait_for_selector(".dialog table.sheet tr.hand-tools")
        fit = page.evaluate("""() => { const box = document.querySelector('.dialog .scroll');
            const last = document.querySelector('table.sheet thead th:last-child').getBoundingClientRect();
            return [box.scrollWidth <= box.clientWidth + 1, last.right <= innerWidth, last.right]; }""")
        assert fit[0] and fit[1], fit
        assert page.is_hidden(".dialog .scroll-hint")
        for sel in (".dialog button[data-hand]", ".dialog a.dl", ".dialog a.review-link", "#review-session-link"):
            assert page.query_selector(sel) is not None, sel
            assert not _small(page, sel), sel
        page.click("#dialog-close")
        # chat: the messages keep the room, the quick buttons take at most three rows (they wrap: every
        # reaction and phrase in sight, issue 36.3), the box says what it is for
        page.click("#btn-chat")
        page.wait_for_selector("#chat-text")
        assert page.get_attribute("#chat-text", "placeholder") == "Nachricht…"
        quick, log = (
            page.eval_on_selector(s, "e => e.getBoundingClientRect().height") for s in ("#chat-quick", "#chat-log")
        )
        assert quick <= 150 and log >= 100, (quick, log)
        assert page.eval_on_selector("#chat", "e => e.getBoundingClientRect().top") >= page.eval_on_selector(
            ".table-top", "e => e.getBoundingClientRect().bottom"
        )  # under the top bar, not over its buttons
        page.click("#chat-close")
        # settings: every checkbox the same size, however long its label
        page.click("#btn-settings")
        sizes = page.eval_on_selector_all(
            ".dialog .check input[type=checkbox]",
            "es => es.map(e => { const r = e.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; })",
        )
        assert len(sizes) >= 4 and len(set(map(tuple, sizes))) == 1, sizes


@pytest.mark.parametrize("device,lang", [(PIXEL7, "de"), (DESKTOP, "en")], ids=["pixel7-de", "desktop-en"])
def test_play_again_is_in_sight_and_the_standings_show_once(chromium, base, device, lang):
    with _at_my_seat(
        chromium, base, device, lang, ["rules", "rules"], ["end=hands:1", "dealer_forced=false"], seed=12, pause=0.2
    ) as page:
        page.wait_for_selector(".actions .act-out")
        page.click(".actions .act-out")
        page.wait_for_function("document.body.dataset.overlay === 'summary'", timeout=scaled(30000))
        page.wait_for_selector(".dialog .play-again")
        assert _in_view(page, ".dialog .play-again")  # the last hand's summary offers it, in sight
        # one dialog at a time, one "Play again": no standings card under the summary (issue 36.3)
        assert page.locator(".play-again").count() == 1 and page.locator("#final").count() == 0
        # the summary says the session is over, and the standings are a tap away (issue 36.3)
        assert page.locator(".dialog .session-over").count() == 1
        assert page.locator(".dialog .session-over button").count() == 1
        page.click("#dialog-close")
        page.wait_for_function("document.body.dataset.overlay === 'standings'")
        assert page.locator(".standings").count() == 1  # the dialog's, not a card behind it too
        assert _in_view(page, ".dialog .play-again")
        assert page.locator(".dialog .standings-review, .dialog #review-session-link").count() == 1
        page.reload()
        page.wait_for_function("document.body.dataset.overlay === 'standings'")
        assert page.locator(".standings").count() == 1
        page.click("#dialog-close")
        page.wait_for_function("!document.body.dataset.overlay")
        assert page.locator(".standings").count() == 1
        assert _in_view(page, "#final .play-again")  # the card at the top of the page


def test_the_lobby_and_the_invite_page_speak_to_people(chromium, base):
    made = post_ok(
        base,
        "/api/web/tables",
        {"preset": "traditional", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "hard"}]},
    )
    post_ok(base, f"/api/tables/{made['table']}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})
    ctx = _context(chromium, PIXEL7, "de")
    try:
        page = ctx.new_page()
        page.goto(f"{base}{made['seats'][1]['invite']}?lang=de")
        page.wait_for_selector("#sit-name")
        text = page.text_content("#sit")
        assert not re.search(r"\bp\d\b", text), text  # seats as people read them: "Platz 1: Ann"
        assert "Platz 1: Ann" in text and "Platz 2: dein Platz" in text
        page.goto(f"{base}/?lang=de")
        page.wait_for_selector("#setup")
        # the hint is offered wherever the server answers it (the expert's estimate without the lab)
        assert page.is_enabled("#hint") and page.is_checked("#hint")
        assert "pip install" not in page.inner_text("body")  # what a person sees
        assert not _small(page, ".top-nav a", width=24)  # links in a row: tall enough for a finger
        # a seat menu's bot is short; its full words are under the menu
        assert page.eval_on_selector("#seat-2", "s => s.selectedOptions[0].textContent") == "Bot · leicht"
        assert page.text_content("#seat-2-desc") == "leicht: spielt nach den Tipps, mit Patzern"
        page.select_option("#seat-2", "bot:expert")
        assert page.text_content("#seat-2-desc") == "Experte: der stärkste"
    finally:
        ctx.close()


@pytest.mark.parametrize("device,lang", [(PIXEL7, "de"), (DESKTOP, "en")], ids=["pixel7-de", "desktop-en"])
def test_a_refused_card_says_why_just_above_the_hand(chromium, base, device, lang):
    """Tapping a dimmed card says why (the rule id in the detail line) in a box just above the hand:
    not over the top bar, the pot and turn-up, the status line (issue 36.3) or the cards themselves."""
    with _at_my_seat(chromium, base, device, lang, ["rules"] * 4, ["end=hands:3"], seed=3, pause=0.2) as page:
        page.wait_for_selector(".actions .act-in")
        page.click(".actions .act-in")
        page.wait_for_selector(".hand-card.dim[aria-disabled=true]", timeout=scaled(30000))
        page.click(".hand-card.dim[aria-disabled=true] >> nth=0", force=True)
        page.wait_for_selector("#refusal")
        assert "R4.10" in page.text_content(".refusal-detail")
        boxes = page.evaluate("""() => Object.fromEntries(['#refusal', '.table-top', '.pot', '.stock', '.hand-row', '.status-line'].map(
            (s) => { const r = document.querySelector(s).getBoundingClientRect(); return [s, [r.left, r.top, r.right, r.bottom]]; }))""")
        t = boxes.pop("#refusal")
        for name, (left, top, right, bottom) in boxes.items():
            apart = t[2] <= left or right <= t[0] or t[3] <= top or bottom <= t[1]
            assert apart, (name, t, (left, top, right, bottom))
        assert 0 <= t[1] and t[3] <= boxes[".hand-row"][1] + 1  # in sight, above the cards
