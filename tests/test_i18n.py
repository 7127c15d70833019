"""The message catalogs of ``ramsli play`` (issue #3.3): complete, compiled, safe to format, R9 words."""

from __future__ import annotations

import importlib.util
import random
import string

import pytest
from babel.messages.pofile import read_po

from ramsli import Hand, Rules
from ramsli.frontends import i18n
from ramsli.frontends import text as T
from ramsli.i18n import CATALOG_LANGS

from helpers import ROOT

spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)


pytestmark = pytest.mark.usefixtures("english")


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_catalog_complete_no_fuzzy(lang):
    assert script.problems(lang) == []


def test_mo_files_up_to_date():
    assert script.check() == 0


def test_the_template_holds_every_marked_text_and_no_other():
    """``scripts/i18n.py extract`` would not change the template's texts: every source it reads
    (the Python modules and the page scripts) is where the marked texts are."""

    def ids(cat):
        return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in cat if m.id}

    with script.POT.open("rb") as f:
        template = read_po(f)
    assert ids(script.messages()) == ids(template)


def _fields(s: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(s) if f is not None}


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_translations_keep_placeholders(lang):
    with open(script.LOCALE / lang / "LC_MESSAGES" / "ramsli.po", "rb") as f:
        cat = read_po(f, locale=lang)
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        want = _fields(ids[-1])
        for s in strs:
            assert _fields(s) == want, (lang, m.id, s)


#: the game's words of each language with a catalog (RULES.md R9)
R9_WORDS = {
    "de": ["rein", "raus", "Stich", "Trumpf", "Pott", "Bete", "Geber"],
    "nl": ["mee", "pas", "slag", "troef", "pot", "bete", "deler"],
    "it": ["dentro", "fuori", "presa", "briscola", "piatto", "bete", "mazziere"],
    "fr": ["jouer", "passer", "pli", "atout", "pot", "bête", "donneur"],  # R9 has no French row yet
}


def test_r9_words_of_every_language():
    """A language with a catalog has its R9 words here (a new one needs its row in RULES.md R9)."""
    assert set(R9_WORDS) == set(CATALOG_LANGS)


@pytest.mark.parametrize("lang,words", sorted(R9_WORDS.items()))
def test_r9_words_in_catalog(lang, words):
    text = (script.LOCALE / lang / "LC_MESSAGES" / "ramsli.po").read_text(encoding="utf-8")
    msgstrs = " ".join(line for line in text.splitlines() if line.startswith("msgstr") or line.startswith('"'))
    for w in words:
        assert w in msgstrs, (lang, w)


def test_detect_language():
    assert i18n.detect_language({"LANG": "de_CH.UTF-8"}) == "de"
    assert i18n.detect_language({"LANGUAGE": "sv:nl", "LANG": "en_US"}) == "nl"
    assert i18n.detect_language({"LC_ALL": "it_IT.UTF-8", "LANG": "de_DE"}) == "it"
    assert i18n.detect_language({"LANG": "sv_SE.UTF-8"}) == "en"
    assert i18n.detect_language({"LANG": "fr_BE.UTF-8"}) == i18n.detect_language({"LANGUAGE": "fr_CH:de"}) == "fr"
    assert i18n.detect_language({}) == "en"
    with pytest.raises(ValueError, match="allowed are en, de, nl, it, fr"):
        i18n.set_language("sv")


def _illegal_reasons(n_hands: int = 40):
    """One refusal per (code, suit) the engine gives for real illegal card plays and out-of-phase actions."""
    from ramsli.hand import Action

    found = {}
    rng = random.Random(11)
    for k in range(n_hands):
        hand = Hand.new(Rules(), [20] * 4, dealer=k % 4, rng=rng)
        why = hand.why_illegal(Action.play(hand.to_act, hand.hands[hand.to_act][0]))
        found[why.code] = why
        while not hand.is_over:
            seat = hand.to_act
            for a in [Action.play(seat, c) for c in hand.hands[seat]] if hand.phase.value == "play" else []:
                w = hand.why_illegal(a)
                if w is not None:
                    found[w.code, w.get("suit"), w.get("trump")] = w
            legal = hand.legal_actions()
            hand.apply(legal[0] if hand.phase.value != "declare" else legal[0])
    return list(found.values())


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_engine_reasons_are_translated(lang):
    """Every refusal the engine gave is rendered by its code from the catalog: none is left in English."""
    reasons = _illegal_reasons()
    assert {"must_follow", "must_trump", "declare_first"} <= {r.code for r in reasons}
    i18n.set_language(lang)
    for why in reasons:
        shown = T.reason_text(why, ["A", "B", "C", "D"])
        assert shown.endswith(f"({why.rule})")
        assert why.text() not in shown, (lang, why, shown)  # not left in English


def test_new_play_messages_are_translated_with_the_r9_words():
    """The round-2 messages of ``ramsli play`` in de/nl/it (R9: Grundeinsatz, inzet, puntata iniziale);
    the ante above the starting stack is the engine's refusal (R3.5), rendered by its code."""
    from ramsli.frontends import i18n as I
    from ramsli.frontends.i18n import _
    from ramsli.refusal import Refusal

    ante = Refusal("ante_above_stack", "R3.5", {"ante": 30, "stack": 20})
    try:
        for lang, word in (("de", "Grundeinsatz"), ("nl", "inzet"), ("it", "puntata iniziale")):
            I.set_language(lang)
            shown = T.reason_text(ante)
            assert word in shown and shown.endswith("(R3.5)") and ante.text() not in shown
            assert "{command}" in _("Saved. Continue later with: {command}")
            assert _("Your turn: play your last card (1).") != "Your turn: play your last card (1)."
    finally:
        I.set_language("en")


def test_fill_takes_translations_from_json_and_refuses_changed_placeholders(tmp_path, capsys):
    """``scripts/i18n.py fill``: the empty messages of a catalog from JSON entries (a plural with a
    list of its forms, a context), one refused and left empty when its placeholders (``{name}``,
    ``%s``) differ from the msgid's, one not in the catalog named; a file still being written (two
    lists one after the other, a cut tail) is read as far as it goes."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    cat = Catalog(locale="fr")
    cat.mime_headers = [*cat.mime_headers, ("Plural-Forms", "nplurals=2; plural=(n > 1);")]  # as the catalog's
    cat.add("Pot: {n}")
    cat.add(("{n} counter", "{n} counters"))
    cat.add("K", context="rank")
    cat.add("Saved in %s")
    cat.add("kept", "déjà là")
    po = tmp_path / "ramsli.po"
    with po.open("wb") as f:
        write_po(f, cat)
    (tmp_path / "a.json").write_text(
        '[{"id": "Pot: {n}", "ctx": null, "fr": "Pot : {n}"},'
        ' {"id": ["{n} counter", "{n} counters"], "ctx": null, "fr": ["{n} jeton", "{n} jetons"]},'
        ' {"id": "K", "ctx": "rank", "fr": "R"}, {"id": "kept", "ctx": null, "fr": "autre"}]'
        '[{"id": "Saved in %s", "ctx": null, "fr": "Enregistré dans {dir}"},'
        ' {"id": "nowhere", "ctx": null, "fr": "nulle part"}] [{"id": "cut',
        encoding="utf-8",
    )
    assert script.fill("fr", [tmp_path / "a.json"], po=po) == 1
    err = capsys.readouterr().err
    assert "placeholders differ: 'Saved in %s'" in err and "not in the catalog: 'nowhere'" in err
    with po.open("rb") as f:
        got = read_po(f, locale="fr")
    assert got.get("Pot: {n}").string == "Pot : {n}" and got.get("K", context="rank").string == "R"
    assert got.get("{n} counter").string == ("{n} jeton", "{n} jetons")
    assert got.get("Saved in %s").string == "" and got.get("kept").string == "déjà là"  # refused; kept
    assert script.fill("fr", [tmp_path / "a.json"], overwrite=True, po=po) == 1
    with po.open("rb") as f:
        assert read_po(f, locale="fr").get("kept").string == "autre"
    assert script.placeholders("{n:,} for %(who)s, 5% off, %d%%") == (frozenset({"n"}), ("%(who)s", "%d"))
    assert script.placeholders("{p} % des donnes") == (frozenset({"p"}), ())
