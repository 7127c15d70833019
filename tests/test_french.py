"""French, the fifth language (issue 36 item 2): the page, the how-to page, a refusal, the
terminal, the card letters, the plurals and the numbers, the prints, in French.

The catalog itself is held by the tests that run over every language (``tests/test_i18n.py``,
``tests/test_languages.py``); these hold what is French in particular.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ramsli.cards import Card
from ramsli.cli import app
from ramsli.frontends import i18n
from ramsli.frontends import text as T
from ramsli.frontends.plain import parse_card
from ramsli.i18n import LANGS, Lang, babel_locale, catalog_path, language, translation
from ramsli.refusal import Refusal
from ramsli.server.evenings.prints import CORE_FONTS, ics_feed, sheets_pdf
from ramsli.server.protocol.lang import page_lang

from helpers import ServerProcess

NBSP = "\u202f"  # CLDR's French group separator: a narrow no-break space


@pytest.fixture
def french():
    """The terminal speaks French during the test, English after it."""
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


def test_french_is_the_fifth_language_with_its_catalog():
    assert LANGS[-1] == "fr" and Lang("fr").value == "fr"
    assert language("fr").name == "Français" and babel_locale("fr") == "fr"
    with catalog_path("fr").open("rb") as f:
        cat = read_po(f, locale="fr")
    assert cat.plural_forms == "nplurals=2; plural=(n > 1);"  # 0 and 1 are singular in French
    assert translation("fr").gettext("dealer") == "donneur"


def test_a_belgian_or_alsatian_browser_gets_french():
    """``Accept-Language`` (no ``?lang=``): a French-speaking Belgian's or Alsatian's browser gets
    French; a Dutch-speaking Belgian's still gets Dutch."""
    assert page_lang(None, "fr-BE,fr;q=0.9,nl;q=0.8,en;q=0.5") == "fr"
    assert page_lang(None, "fr-FR") == page_lang(None, "de-DE;q=0.7, fr;q=0.8") == "fr"
    assert page_lang(None, "nl-BE,nl;q=0.9,fr;q=0.8") == "nl"
    assert page_lang("FR", "de") == "fr"


def test_the_how_to_page_and_a_refusal_in_french(sqlite_url):
    """The how-to page (the rule book for players) is written in French, with the French catalog
    in the page; a refused request is answered in French (R2.2 names)."""
    from ramsli.server.app import create_app

    with TestClient(create_app(sqlite_url)) as client:
        page = client.get("/how-to-play", headers={"Accept-Language": "fr-BE,fr;q=0.9"})
        assert page.status_code == 200 and '<html lang="fr">' in page.text
        title = translation("fr").gettext("How to play Ramsli")
        assert title != "How to play Ramsli" and title in page.text  # the page's script sets it as the title
        for msgid in ("The idea", "A hand step by step", "Who gets what"):  # the how-to page's headings
            local = translation("fr").gettext(msgid)
            assert local != msgid and local in page.text, msgid
        r = client.post("/api/tables", json={"seats": [{"kind": "nobody"}]}, headers={"Accept-Language": "fr"})
        assert r.status_code == 422 and r.json()["code"] == "field_choice"
        english = client.post("/api/tables", json={"seats": [{"kind": "nobody"}]}).json()["message"]
        said = r.json()["message"]
        assert said != english and "seats[0].kind" in said and "'human', 'bot'" in said
        assert not re.search(r"\b(or|must)\b", said), said  # no English word in the French sentence


def test_a_french_refusal_in_the_terminal_says_tu(french):
    """The engine's refusals rendered in French (R4.12), about the reader's own seat and another's."""
    mine = i18n.render_refusal(Refusal("not_your_turn", "R4.12", {"seat": 0, "to_act": 1}), reader=0)
    assert mine == "C'est au tour de p2, pas au tien (R4.12)"
    held = i18n.render_refusal(Refusal("not_held", "R4.10", {"seat": 0, "card": "AS"}), reader=0)
    assert held.startswith("Tu n'as pas ") and held.endswith("(R4.10)")


def test_french_card_letters_and_input(french):
    """Roi Dame Valet As (R D V A) and the French bridge letters pique P, cœur C, carreau K, trèfle T;
    the English notation keeps working (R1.6)."""
    assert [T.rank_letter(r) for r in (14, 13, 12, 11, 10)] == ["A", "R", "D", "V", "10"]
    assert T.card_label(Card.parse("QH")) == "D♥" and T.card_label(Card.parse("JS")) == "V♠"
    assert T.card_spelling(Card.parse("KD")) == "RK" and T.card_spelling(Card.parse("QC")) == "DT"
    for typed, card in {"RC": "KH", "dk": "QD", "VP": "JS", "AT": "AC", "10K": "TD", "QS": "QS", "KH": "KH"}.items():
        assert str(parse_card(typed)) == card, typed
    notation = T.card_notation_text()
    assert "A R D V" in notation and "P C K T" in notation, notation


def test_french_plurals_and_numbers(french):
    """0 and 1 take the singular in French; numbers are grouped with a narrow no-break space."""
    tr = translation("fr")
    one, many = tr.ngettext("{n} counter", "{n} counters", 0), tr.ngettext("{n} counter", "{n} counters", 2)
    assert one != many and tr.ngettext("{n} counter", "{n} counters", 1) == one
    assert i18n.number_words(1_000_000, "fr") == f"1{NBSP}000{NBSP}000"
    assert i18n.number_words(10**30, "fr") == "10^30"


def test_a_french_terminal_session(tmp_path):
    """``ramsli play --lang fr``: the table, its commands and its answers in French; the French
    command words work (``aide``, ``joue`` as the table shows the declaration, ``pose 1`` plays
    the first card, ``quitter``) and so do the English ones (``why``)."""
    args = ["play", "--plain", "--lang", "fr", "--seed", "2", "--data-dir", str(tmp_path), "--name", "Zed"]
    out = CliRunner().invoke(app, args, input="aide\nwhy\njoue\npose 1\nquitter\n", env={"COLUMNS": "200"}).output
    fr = translation("fr").gettext
    assert fr("Commands:") in out and "  jouer (in) / passer (out) — " in out and "  pose AS, pose 10h" in out
    assert fr("You: {declaration}").format(declaration=fr("in")) == "Toi\u00a0: joue" and "Toi\u00a0: joue" in out
    assert fr("You play {card}").split("{")[0] == "Tu joues " and "Tu joues " in out
    assert fr("Saved. Continue later with: {command}").split("{")[0] in out
    assert "Unknown command" not in out and fr("Unknown command '{word}'. Type help for the commands.")[:12] not in out
    english = {"Commands:", "Declare: in or out?", "Trump", "Saved. Continue later with:"}
    assert not [w for w in english if w in out]


def test_the_french_prints_keep_their_accents():
    """The evening's sheets in French with the PDF core font (Latin-1): the accents of the French
    labels are kept (é, è), the œ of a name written oe; the calendar feed is in French."""
    from test_evening_prints import CLUB, SERIES, evening, pdf_text

    text = "\n".join(pdf_text(sheets_pdf(evening(), "fr", fonts=CORE_FONTS, compress=False)))
    for word in ("Listes des tables", "Feuille de scores", "Tour 1", "Clé", "Donneur"):
        assert word in text, word
    feed = ics_feed(CLUB, SERIES[:1], "http://x", lang="fr").decode("utf-8")
    rules = translation("fr").gettext("Rules: {preset}").split("{")[0]
    assert rules != "Rules: " and re.sub(r"\r\n ", "", feed).count(rules.strip()) >= 1


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real ``ramsli serve`` on 127.0.0.1; yields its base URL."""
    d = tmp_path_factory.mktemp("french")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp.http
    sp.stop()


def test_a_french_page_counts_and_groups_in_french(chromium, server):
    """In the browser: a French page says "0 jeton" and "1 jeton" (singular, as the catalog's
    plural=(n > 1)), "2 jetons", groups 1 000 000 with a narrow no-break space; an English page
    says "0 counters"."""
    ctx = chromium.new_context(locale="fr-BE")
    try:
        page = ctx.new_page()
        page.goto(server + "/how-to-play?lang=fr")
        page.wait_for_selector(".howto")
        said = page.evaluate(
            "[0, 1, 2].map((n) => R.ngettext('{n} counter', '{n} counters', n))"
            ".concat([new Intl.NumberFormat(R.lang).format(1000000), document.documentElement.lang])"
        )
        tr = translation("fr")
        assert said == [
            tr.ngettext("{n} counter", "{n} counters", 0).format(n=0),
            tr.ngettext("{n} counter", "{n} counters", 1).format(n=1),
            tr.ngettext("{n} counter", "{n} counters", 2).format(n=2),
            f"1{NBSP}000{NBSP}000",
            "fr",
        ]
        assert said[0].startswith("0 ") and not said[0].endswith("s") and said[2].endswith("s")
        page.goto(server + "/how-to-play?lang=en")
        page.wait_for_selector(".howto")
        assert page.evaluate("R.ngettext('{n} counter', '{n} counters', 0)") == "0 counters"
    finally:
        ctx.close()


def test_the_french_pages_fit_a_phone(chromium, server):
    """French words are longer than English ones: on a 360 px phone the lobby, the table mid-hand,
    the how-to page and the sit page in French scroll no wider than the screen, the five cards fit
    side by side and the in/out buttons are on screen, in French."""
    from test_web import PHONE, _context, _mid_hand

    made = _mid_hand(server, seed=4)
    ctx = _context(chromium, PHONE, lang="fr")
    try:
        page = ctx.new_page()
        for link, sel in (
            ("/", "#quick"),
            (made["seats"][0]["invite"], ".hand-card"),
            (f"/how-to-play?table={made['table']}", ".howto"),
            (made["seats"][1]["invite"], "#sit-name"),
        ):
            page.goto(server + link + ("&" if "?" in link else "?") + "lang=fr")
            page.wait_for_selector(sel)
            assert page.evaluate("document.documentElement.lang") == "fr"
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], (link, width)
        page.goto(server + made["seats"][0]["invite"] + "?lang=fr")
        page.wait_for_selector(".actions .act-in")
        right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.hand-card, .actions button')]"
            ".map(e => e.getBoundingClientRect().right))"
        )
        assert right <= PHONE["width"]
        said = page.text_content(".actions")
        assert "joue" in said.lower() and "passe" in said.lower(), said
    finally:
        ctx.close()


def test_the_ledger_account_ratings_and_offline_pages_have_no_english_left(chromium, server):
    """The pages around the table in French: the pub ledger (its setup), the account page, the
    ratings, the offline page and the trainer show no text the catalog translates left in English."""
    from test_web import _context, _english_msgids, _texts

    pats = _english_msgids("fr")
    ctx = _context(chromium, lang="fr")
    try:
        page = ctx.new_page()
        for link, ready in (
            ("/ledger", "#name-0"),
            ("/account", "main, .panel"),
            ("/ratings", "main, .panel"),
            ("/offline", "body"),
            ("/train", "[data-position], #train-in"),
        ):
            page.goto(f"{server}{link}?lang=fr")
            page.wait_for_selector(ready)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.lang") == "fr", link
            english = sorted({t for t in _texts(page) if any(p.match(t) for p in pats)})
            assert english == [], (link, english)
    finally:
        ctx.close()
