"""The engine's parse errors are refusals as data (R1.6, R3.6, R6, R8): every ``RulesError`` and
``CardError`` the engine raises carries a :class:`~ramsli.refusal.Refusal` whose code is registered
by the module that raises it, whose English text says what was given, what is allowed and the rule
id, and which every catalog translates."""

from __future__ import annotations

from pathlib import Path

import pytest

import ramsli
from ramsli import refusal
from ramsli.cards import Card, CardError, parse_cards
from ramsli.frontends.i18n import number_words, render_refusal, translation
from ramsli.i18n import CATALOG_LANGS, LANGS
from ramsli.refusal import NUMBER_FIELDS, TEXTS, Refusal
from ramsli.rules import Rules, RulesError, check_play_limits

SRC = Path(ramsli.__file__).resolve().parent


def _declared(table: str) -> set[str]:
    """The codes of one of the engine's tables (:data:`ramsli.refusal.RULES`, ``CARDS``)."""
    return set(getattr(refusal, table))


BIG = "9" * 40

#: (what raises, code, rule, fragments the English message must hold)
RULES_CASES = [
    (lambda: Rules(deck="piquet33"), "option_choice", "R1", ["'deck'", "'piquet33'", "piquet32, full52"]),
    (lambda: Rules(jokers="yes"), "option_bool", "R1.3", ["'jokers'", "'yes'", "true, false"]),
    (lambda: Rules(players=7), "option_choice", "R2.1", ["'players'", "7", "2-6"]),
    (lambda: Rules(starting_stack=0), "option_number", "R3.3", ["'starting_stack'", ": 0 ", ">= 1"]),
    (lambda: Rules(ante=-1), "option_number", "R4.1", ["'ante'", "-1", ">= 0", "at most 10^30"]),
    (lambda: Rules(bete=-2), "option_bete", "R5.3", ["'bete'", "-2", "'pot'"]),
    (lambda: Rules(end=["win-at:0"]), "end_invalid", "R3.6", ["'win-at:0'", "'hands:N'"]),
    (lambda: Rules(end=["hands:" + BIG]), "end_too_large", "R3.6", ["'hands:9999", "from 1 to 10^30"]),
    (lambda: Rules(end=5), "end_not_list", "R3.6", ["5 is not a list"]),
    (lambda: Rules(end=["hands:3", "hands:4"]), "end_twice", "R3.6", ["hands:3, hands:4", "at most once"]),
    (lambda: Rules.preset("rounders"), "unknown_preset", "R6", ["'rounders'", "traditional", "nap"]),
    (lambda: Rules.from_dict([1]), "options_not_table", "R8", ["not list", "deck, jokers"]),
    (lambda: Rules.from_dict({"colour": 1}), "unknown_option", "R8", ["'colour'", "deck, jokers"]),
    (lambda: Rules().with_assignments(["ante"]), "not_key_value", "R8", ["'ante'", "key=value"]),
    (lambda: Rules().with_assignments(["ante=" + BIG]), "option_digits", "R8", ["'ante'", "40 digits"]),
    (lambda: Rules.from_toml("ante = = 1"), "rules_toml", "R8", ["not valid TOML", "line 1"]),
    (lambda: check_play_limits(Rules(ante=10**12)), "option_too_large", "R4.1", ["'ante'", "10000", "counters"]),
    (lambda: check_play_limits(Rules(end=["win-at:" + "9" * 12])), "win_at_too_large", "R3.6", ["win-at:1.."]),
    (lambda: check_play_limits(Rules(end=["hands:" + "9" * 12])), "hands_too_large", "R3.6", ["hands:1..100,000"]),
    (lambda: check_play_limits(Rules(end=["time:" + "9" * 12])), "time_too_large", "R3.6", ["time:1..100,000"]),
]

CARD_CASES = [
    (lambda: Card.parse("ZZ"), "card_notation", "R1.6", ["'ZZ'", "A K Q J T(10)", "X1"]),
    (lambda: parse_cards("AS 11H"), "card_notation", "R1.6", ["'11H'"]),
    (lambda: Card.parse("Q" * 100), "card_notation", "R1.6", ["'" + "Q" * 40 + "'…"]),
    (lambda: Card.parse(5), "card_not_text", "R1.6", ["not int"]),
    (lambda: Card.of(1, "S"), "rank_range", "R1.6", ["rank 1", "2..14"]),
]


@pytest.mark.parametrize("make,code,rule,fragments", RULES_CASES, ids=[c[1] + ":" + c[2] for c in RULES_CASES])
def test_R8_rules_errors_carry_a_refusal_that_says_what_was_given_and_allowed(make, code, rule, fragments):
    with pytest.raises(RulesError) as info:
        make()
    e = info.value
    assert isinstance(e.refusal, Refusal) and e.refusal.code == code == e.code and e.rule == rule
    assert code in TEXTS
    assert str(e) == str(e.refusal) and str(e).endswith(f"({rule})")
    for f in fragments:
        assert f in str(e), (f, str(e))
    assert "{" not in str(e)  # every placeholder filled
    assert Refusal.from_dict(e.refusal.to_dict()) == e.refusal  # plain data


@pytest.mark.parametrize("make,code,rule,fragments", CARD_CASES, ids=[c[1] for c in CARD_CASES])
def test_R1_6_card_errors_carry_a_refusal(make, code, rule, fragments):
    with pytest.raises(CardError) as info:
        make()
    e = info.value
    assert e.refusal is not None and e.refusal.code == code and e.refusal.rule == rule == e.rule
    assert str(e) == str(e.refusal)
    for f in fragments:
        assert f in str(e), (f, str(e))


def test_every_code_rules_and_cards_declare_is_raised_by_a_case():
    assert _declared("RULES") == {c[1] for c in RULES_CASES}
    assert _declared("CARDS") == {c[1] for c in CARD_CASES}


def test_a_front_ends_own_card_message_has_no_refusal():
    e = CardError("'ZZ' ist keine Karte.")
    assert str(e) == "'ZZ' ist keine Karte." and e.refusal is None and e.rule == "R1.6"


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_every_rules_and_card_refusal_reads_in_each_language(lang):
    tr = translation(lang)
    for make, code, rule, _ in RULES_CASES + CARD_CASES:
        with pytest.raises((RulesError, CardError)) as info:
            make()
        refusal = info.value.refusal
        english = render_refusal(refusal)
        local = render_refusal(refusal, translations=tr)
        assert local != english, (lang, code)  # translated, not left in English
        assert local.endswith(f"({rule})") and "{" not in local
        for k, v in refusal.fields.items():  # every field shows in the translation
            shown = number_words(v, lang) if k in NUMBER_FIELDS else str(v)  # a bound: grouped
            assert shown in local, (lang, code, k, local)


#: what each language's reader sees for 10**9 and 10**5 (Babel's grouping)
GROUPED = {
    "en": ("1,000,000,000", "100,000"),
    "de": ("1.000.000.000", "100.000"),
    "nl": ("1.000.000.000", "100.000"),
    "it": ("1.000.000.000", "100.000"),
    "fr": ("1\u202f000\u202f000\u202f000", "100\u202f000"),  # a narrow no-break space (CLDR)
}


@pytest.mark.parametrize("lang", LANGS)
def test_bounds_read_as_a_person_reads_them_in_each_language(lang):
    """A refusal's bound (R3.3, R3.6, R5.3) is grouped in the reader's language, a huge power of ten
    is 10^30, never Python's 1_000_000_000."""
    tr = translation(lang)
    billion, hundred_thousand = GROUPED[lang]
    for make, bound in [
        (lambda: check_play_limits(Rules(starting_stack=123456789012)), billion),  # R3.3
        (lambda: check_play_limits(Rules(end=["hands:" + "9" * 12])), hundred_thousand),  # R3.6
        (lambda: Rules(bete=-2), "10^30"),  # R5.3
        (lambda: Rules().with_assignments(["bete=banana"]), "10^30"),
    ]:
        with pytest.raises(RulesError) as info:
            make()
        local = render_refusal(info.value.refusal, translations=tr)
        assert bound in local and "_000" not in local, (lang, local)
        assert str(info.value.refusal["most"]) not in local, local  # not as Python prints an int
        assert "_000" not in str(info.value)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.usefixtures("english")
def test_play_rule_banana_names_its_bound_as_10_to_the_30(lang, tmp_path):
    """``ramsli play --rule bete=banana`` (R5.3): the bound reads 10^30, not thirty zeros with _."""
    from typer.testing import CliRunner

    from ramsli.cli import app

    args = ["play", "--plain", "--rule", "bete=banana", "--lang", lang, "--data-dir", str(tmp_path)]
    r = CliRunner().invoke(app, args)
    out = " ".join(r.output.replace("│", " ").split())
    assert r.exit_code == 2 and "10^30" in out and "_000" not in out and "(R5.3)" in out, out
