"""What a new user tripped over in the browser (the ``polish`` lane): the lobby links the training
page, and the how-to page opened from the lobby speaks of the default rules and offers the
variants (R6), from a table of that table's rules. Locally without Chromium (or Playwright) these
tests skip with the reason; under ``CI=true`` they fail."""

from __future__ import annotations

import pytest

from ramsli.i18n import translation
from ramsli.rules import PRESETS

from helpers import ServerProcess, post_ok

#: a Pixel 7's page (CSS pixels)
PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2.625, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    d = tmp_path_factory.mktemp("polish")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_lobby_links_the_training_page_at_phone_width(chromium, base, lang):
    """The lobby's top links (how to play, ledger, challenge, …) hold one to ``/train``, in the
    page's language, in sight on a phone and no wider than the screen; it opens the training page."""
    ctx = chromium.new_context(**PHONE, locale={"fr": "fr-BE"}.get(lang, "en-US"))
    try:
        page = ctx.new_page()
        page.goto(f"{base}/?lang={lang}")
        link = page.wait_for_selector("#train-link")
        assert link.text_content() == translation(lang).gettext("Practise: in or out?")
        assert link.is_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 412, box
        link.click()
        page.wait_for_url("**/train?lang=" + lang)
        page.wait_for_selector("main")
        assert page.evaluate("document.documentElement.lang") == lang
    finally:
        ctx.close()


def test_how_to_play_from_the_lobby_speaks_of_the_default_rules_and_offers_the_variants(chromium, base):
    """From the lobby (no table) the how-to page says these are the default rules (or the variant
    asked for) and links every variant (R6), never "Rules of this table"; from a table it keeps
    "Rules of this table"."""
    de = translation("de").gettext
    this_table = de("Rules of this table: {preset}.").split("{")[0]
    default = de("No table chosen: these are the default rules, {preset}.").split("{")[0]
    variant = de("No table chosen: these are the rules of the variant {preset}.").split("{")[0]
    assert default != "No table chosen: these are the default rules, "  # translated
    page = chromium.new_page()
    try:
        page.goto(f"{base}/how-to-play?lang=de")
        page.wait_for_selector(".howto .presets a")
        text = page.text_content(".howto .variant") or ""
        assert default in text and this_table not in text, text
        links = page.eval_on_selector_all(".howto .presets a", "as => as.map(a => a.dataset.preset)")
        assert links == list(PRESETS), links
        current = page.get_attribute('.howto .presets a[aria-current="page"]', "data-preset")
        assert current == "traditional"
        page.click('.howto .presets a[data-preset="nap"]')
        page.wait_for_url("**preset=nap")
        page.wait_for_selector(".howto .presets a")
        text = page.text_content(".howto .variant") or ""
        assert variant in text and this_table not in text, text
        assert page.get_attribute('.howto .presets a[aria-current="page"]', "data-preset") == "nap"
        made = post_ok(base, "/api/tables", {"seats": [{"kind": "human"}] * 2})
        page.goto(f"{base}/how-to-play?lang=de&table={made['table']}")
        page.wait_for_selector(".howto .variant li")
        text = page.text_content(".howto .variant") or ""
        assert this_table in text and default not in text and page.query_selector(".howto .presets") is None, text
    finally:
        page.close()
