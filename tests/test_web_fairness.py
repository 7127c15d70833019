"""The table page checks every deal with Web Crypto (docs/fairness.md): a real ``ramsli serve
--allow-test-seeds`` on 127.0.0.1 and a real Chromium.

- a fair table: each seat's page shows the quiet "deal checked" mark (translated, with an
  accessible name), and the page hashed the openings itself (the mark comes from
  ``crypto.subtle``, which a page on 127.0.0.1 has);
- a tampered table (the test-only hook swaps the first cards of the first two seats dealt after
  the commitment): the pages of those seats show the loud warning (``role=alert``) naming the
  position, the dealer's page (whose cards were not touched) still shows the mark.

Locally without Chromium (or Playwright) these tests skip with the reason; under ``CI=true`` they fail.
"""

from __future__ import annotations

import json

import pytest

from helpers import ServerProcess, post_ok, scaled


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("webfair")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def _started(base: str, tamper: bool, seed: int) -> dict:
    """Three people at a started table (seeded; ``tamper``: the test-only hook), nobody acting."""
    made = post_ok(
        base,
        "/api/web/tables",
        {
            "seats": [{"kind": "human"}] * 3,
            "seed": seed,
            "test_tamper": tamper,
            "rules": ["end=hands:2"],
            "bot_pace_seconds": 0,
        },
    )
    for i, s in enumerate(made["seats"]):
        s["token"] = post_ok(base, f"/api/tables/{made['table']}/sit", {"token": s["token"], "name": f"P{i + 1}"})[
            "token"
        ]
    post_ok(base, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
    return made


def _pages(chromium, base: str, made: dict, lang: str = "en"):
    """One browser context per seat at its personal link; returns [(context, page, frames)]."""
    out = []
    for s in made["seats"]:
        ctx = chromium.new_context(locale={"de": "de-DE"}.get(lang, "en-US"), bypass_csp=True)
        page = ctx.new_page()
        frames: list[dict] = []
        page.on("websocket", lambda ws, fr=frames: ws.on("framereceived", lambda p: fr.append(json.loads(p))))
        page.goto(f"{base}/t/{made['table']}/s/{s['token']}?lang={lang}")
        out.append((ctx, page, frames))
    for _ctx, page, _fr in out:
        page.wait_for_function("['ok', 'bad', 'off'].includes(document.body.dataset.deal)", timeout=scaled(20000))
    return out


def _dealing_order(view: dict) -> list[str]:
    ids = [s["seat"] for s in view["seats"]]
    d = ids.index(view["hand"]["dealer"])
    return [ids[(d + k) % len(ids)] for k in range(1, len(ids) + 1)]


def test_a_fair_deal_shows_the_quiet_mark_in_the_page_language(chromium, server):
    made = _started(server, tamper=False, seed=5)
    pages = _pages(chromium, server, made, lang="de")
    try:
        for _ctx, page, frames in pages:
            assert page.evaluate("document.body.dataset.deal") == "ok"
            assert page.evaluate("!!(window.crypto && crypto.subtle)")  # 127.0.0.1 is a secure context
            mark = page.locator("#deal-mark")
            assert mark.get_attribute("role") == "status"
            assert "Kartengabe geprüft" in mark.inner_text()
            label = mark.get_attribute("aria-label")
            assert "6 Karten" in label and "Spiel 1" in label, label  # own five cards and the turn-up
            view = [f for f in frames if f.get("type") == "view"][-1]
            assert view["hand"]["fairness"]["digest"][:16] in mark.get_attribute("title")
            assert page.locator("#deal-warning").count() == 0
    finally:
        for ctx, _p, _f in pages:
            ctx.close()


def test_a_tampered_deal_raises_the_loud_warning(chromium, server):
    made = _started(server, tamper=True, seed=6)
    pages = _pages(chromium, server, made)
    try:
        view = [f for f in pages[0][2] if f.get("type") == "view"][-1]
        order = _dealing_order(view)
        by_seat = {s["seat"]: p for s, p in zip(view["seats"], pages)}
        for k, sid in enumerate(order):
            _ctx, page, _fr = by_seat[sid]
            if k < 2:  # the two seats whose first cards were swapped after the commitment
                page.wait_for_selector("#deal-warning")
                warning = page.locator("#deal-warning")
                assert warning.get_attribute("role") == "alert" and warning.is_visible()
                position = 0 if k == 0 else 3  # their first cards: positions 0 and 3 (R4.3, 3+2)
                assert f"position {position}:" in warning.inner_text(), warning.inner_text()
                assert page.evaluate("document.body.dataset.deal") == "bad"
            else:  # the dealer's cards were not touched, and no card is played yet
                assert page.evaluate("document.body.dataset.deal") == "ok"
                assert page.locator("#deal-warning").count() == 0
    finally:
        for ctx, _p, _f in pages:
            ctx.close()


def _luminance(rgb: str) -> float:
    r, g, b = (int(x) / 255 for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    f = lambda c: c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4  # noqa: E731
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)


def test_the_quiet_mark_is_readable(chromium, server):
    """WCAG AA: the mark's text against the darkest and the lightest colour of the table's background."""
    made = _started(server, tamper=False, seed=7)
    pages = _pages(chromium, server, made)
    try:
        page = pages[0][1]
        colour = page.evaluate("getComputedStyle(document.getElementById('deal-mark')).color")
        for background in ("rgb(58, 43, 30)", "rgb(29, 22, 16)"):  # body.page-table's gradient
            hi, lo = sorted([_luminance(colour), _luminance(background)], reverse=True)
            assert (hi + 0.05) / (lo + 0.05) >= 4.5, (colour, background)
    finally:
        for ctx, _p, _f in pages:
            ctx.close()
