"""The table page keeps each hand's digest from the deal (issue 37.8; docs/fairness.md): a real
``ramsli serve --allow-test-seeds`` on 127.0.0.1 and a real Chromium.

- the page keeps the digest it saw at the deal in localStorage, by table and hand number; the
  hand's summary (opened from the score sheet) with that digest shows no warning;
- after a reload, a view and a summary of that hand with another digest than the one this browser
  saw at the deal show a visible warning in the page's language (``role=alert``), and the deal
  is not marked as checked.

Locally without Chromium (or Playwright) these tests skip with the reason; under ``CI=true`` they fail.
"""

from __future__ import annotations

import json

import pytest

from helpers import ServerProcess, post_ok, scaled

TIMEOUT_MS = scaled(30) * 1000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("webdigest")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def _one_hand(base: str) -> dict:
    """Ann and two bots, one hand (the dealer not forced in: Ann may go out at once), started."""
    made = post_ok(
        base,
        "/api/web/tables",
        {
            "preset": "traditional",
            "rules": ["end=hands:1", "dealer_forced=false"],
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "rules"}, {"kind": "bot", "bot": "rules"}],
            "seed": 12,
            "bot_pace_seconds": 0,
            "hand_pause_seconds": 0.2,
        },
    )
    sat = post_ok(base, f"/api/tables/{made['table']}/sit", {"token": made["seats"][0]["token"], "name": "Ann"})
    made["link"] = f"/t/{made['table']}/s/{sat['token']}"
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
    return made


def _open_hand_one(page) -> None:
    """Open hand 1: from the standings at the session's end, or else the score sheet (a dialog in
    the way, e.g. the last hand's summary, is closed first)."""
    for _ in range(4):
        if page.locator(".dialog button[data-hand='1']").count():
            page.click(".dialog button[data-hand='1']")
            page.wait_for_function("document.body.dataset.overlay === 'hand'", timeout=TIMEOUT_MS)
            return
        shown = page.evaluate("document.body.dataset.overlay || ''")
        if shown:
            page.click("#dialog-close")
            page.wait_for_function(f"(document.body.dataset.overlay || '') !== '{shown}'", timeout=TIMEOUT_MS)
        else:
            page.click("#btn-sheet")
            page.wait_for_selector(".dialog button[data-hand='1']", timeout=TIMEOUT_MS)
    raise AssertionError("hand 1 could not be opened")


def test_the_page_keeps_the_deal_s_digest_and_warns_when_a_summary_shows_another(chromium, server):
    made = _one_hand(server)
    table = made["table"]
    ctx = chromium.new_context(locale="de-DE", bypass_csp=True)
    try:
        page = ctx.new_page()
        frames: list[dict] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(json.loads(p))))
        page.goto(f"{server}{made['link']}?lang=de")
        page.wait_for_function("document.body.dataset.deal === 'ok'", timeout=TIMEOUT_MS)
        digest = next(f for f in frames if f.get("type") == "view" and f["hand"])["hand"]["fairness"]["digest"]
        kept = page.evaluate("JSON.parse(localStorage.getItem('ramsli.deals') || '{}')")
        assert kept == {f"{table}:1": digest}  # the digest seen at the deal, by table and hand number
        page.wait_for_selector(".actions .act-out", timeout=TIMEOUT_MS)
        page.click(".actions .act-out")  # Ann goes out; the bots play the hand to its end
        page.wait_for_function("document.body.dataset.overlay === 'summary'", timeout=TIMEOUT_MS)
        _open_hand_one(page)
        assert page.locator("#hand-digest-warning").count() == 0  # the summary shows the deal's digest
        assert page.locator("#deal-warning").count() == 0

        # this browser saw another digest at the deal of hand 1: after a reload, the page says so
        other = "ab" * 32
        page.evaluate(f"localStorage.setItem('ramsli.deals', JSON.stringify({{'{table}:1': '{other}'}}))")
        page.reload()
        page.wait_for_selector("#deal-warning", timeout=TIMEOUT_MS)
        warning = page.locator("#deal-warning")
        assert warning.get_attribute("role") == "alert" and warning.is_visible()
        text = warning.inner_text()
        assert "Warnung" in text and "weicht von der ab" in text and other[:16] in text, text
        assert page.evaluate("document.body.dataset.deal") == "bad"
        _open_hand_one(page)
        note = page.locator("#hand-digest-warning")
        assert note.is_visible() and note.get_attribute("role") == "alert"
        text = note.inner_text()
        assert text.startswith("Warnung: diese Übersicht von Spiel 1"), text
        assert digest[:16] in text and other[:16] in text, text
        # the kept digest is not replaced by the one shown later
        assert page.evaluate("JSON.parse(localStorage.getItem('ramsli.deals'))") == {f"{table}:1": other}
    finally:
        ctx.close()
