"""R8 rule options and R6 presets: validation, presets exactly as the table, TOML round-trip."""

from __future__ import annotations

import pytest

from ramsli.rules import OPTIONS, PRESETS, EndCondition, Rules, RulesError

DEFAULTS = {
    "deck": "piquet32",
    "jokers": False,
    "players": None,
    "starting_stack": 20,
    "ante": 1,
    "batches": "3+2",
    "dealer_forced": True,
    "compulsory": False,
    "general_rams": False,
    "general_rams_penalty": "triple-bete",
    "targets": False,
    "target_bonus": "t-1",
    "overtrump": "always",
    "bete": 5,
    "bust": "end",
    "end": (),
}


def test_R8_every_option_exists_with_its_default():
    r = Rules()
    assert set(OPTIONS) == set(DEFAULTS)
    for k, v in DEFAULTS.items():
        assert getattr(r, k) == v, k


# D-5: default stack 20; R5.3: default bete 5
def test_D5_default_starting_stack_is_20_and_bete_5():
    assert Rules().starting_stack == 20
    assert Rules().bete == 5


# Option -> (a bad value, words that the message must contain: the allowed values)
BAD = {
    "deck": ("piquet", ["piquet32", "full52"]),
    "jokers": ("yes", ["true", "false"]),
    "players": (7, ["2-6"]),
    "starting_stack": (0, [">= 1"]),
    "ante": (-1, [">= 0"]),
    "batches": ("3+3", ["3+2", "2+3"]),
    "dealer_forced": (1, ["true", "false"]),
    "compulsory": ("no", ["true", "false"]),
    "general_rams": (None, ["true", "false"]),
    "general_rams_penalty": ("double", ["triple-bete", "triple-pot"]),
    "targets": ("on", ["true", "false"]),
    "target_bonus": ("t+1", ["t-1", "t"]),
    "overtrump": ("never", ["always", "when-trumping"]),
    "bete": ("half", [">= 0", "pot"]),
    "bust": ("stay", ["end", "leave"]),
    "end": (["forever"], ["win-at:N", "hands:N", "time:M"]),
}


@pytest.mark.parametrize("option", list(BAD))
def test_R8_bad_value_refused_listing_allowed_values(option):
    bad, allowed = BAD[option]
    with pytest.raises(RulesError) as e:
        Rules.from_dict({option: bad})
    msg = str(e.value)
    assert option in msg
    for word in allowed:
        assert word in msg, (option, msg)


@pytest.mark.parametrize(
    "option,bad",
    [
        ("players", 1),
        ("players", True),
        ("players", "5"),
        ("starting_stack", 2.5),
        ("ante", True),
        ("bete", -1),
        ("bete", True),
        ("bete", 5.0),
        ("end", ["hands:0"]),
        ("end", ["win-at:"]),
        ("end", ["time:x"]),
        ("end", 5),
    ],
)
def test_R8_more_bad_values(option, bad):
    with pytest.raises(RulesError):
        Rules.from_dict({option: bad})


def test_R8_every_option_is_covered_by_the_bad_value_table():
    assert set(BAD) == set(OPTIONS)


def test_R8_unknown_option_refused_listing_all_options():
    with pytest.raises(RulesError) as e:
        Rules.from_dict({"trumps": "always"})
    for name in OPTIONS:
        assert name in str(e.value)
    with pytest.raises(RulesError, match="unknown option"):
        Rules().with_assignments(["stake=3"])
    with pytest.raises(RulesError):
        Rules().replace(colour="red")


def test_R8_with_assignments_reads_command_line_values():
    r = Rules().with_assignments(
        [
            "bete=10",
            "overtrump=when-trumping",
            "jokers=true",
            "end=hands:3,win-at:30",
            "dealer-forced=false",
            "bete=pot",
        ]
    )
    assert r.bete == "pot" and r.overtrump == "when-trumping" and r.jokers is True
    assert r.dealer_forced is False
    assert [str(e) for e in r.end] == ["hands:3", "win-at:30"]
    with pytest.raises(RulesError, match="key=value"):
        Rules().with_assignments(["bete"])
    with pytest.raises(RulesError, match="bete"):
        Rules().with_assignments(["bete=lots"])


def test_R8_valid_values_accepted():
    r = Rules(
        deck="full52",
        jokers=True,
        players=2,
        starting_stack=1,
        ante=0,
        batches="2+3",
        dealer_forced=False,
        compulsory=True,
        general_rams=True,
        general_rams_penalty="triple-pot",
        targets=True,
        target_bonus="t",
        overtrump="when-trumping",
        bete=0,
        bust="leave",
        end=["win-at:30", "hands:10", "time:90"],
    )
    assert r.end_value("win-at") == 30 and r.end_value("hands") == 10 and r.end_value("time") == 90
    assert Rules(players=6).players == 6
    assert Rules(end="hands:4").end == (EndCondition("hands", 4),)


def test_rules_are_immutable():
    r = Rules()
    with pytest.raises(Exception):
        r.bete = 10  # type: ignore[misc]
    assert r.replace(bete=10).bete == 10 and r.bete == 5


# R6: each preset sets exactly what the table says, and nothing else
PRESET_TABLE = {
    "traditional": {},
    "general-rams": {"general_rams": True},
    "compulsory": {"compulsory": True},
    "double-penalty": {"bete": 10},
    "pot-bete": {"bete": "pot"},
    "joker": {"jokers": True},
    "modern-52": {"deck": "full52"},
    "rounce": {"deck": "full52", "bete": 10},  # D-20; "no General Rams" is the default
    "nap": {"targets": True},
}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_R6_preset_sets_exactly_the_table(name):
    r = Rules.preset(name)
    expected = {**DEFAULTS, **PRESET_TABLE[name]}
    for k, v in expected.items():
        assert getattr(r, k) == v, (name, k)
    assert set(r.diff()) == set(PRESET_TABLE[name])


def test_R6_traditional_row():
    r = Rules.preset("traditional")
    assert (r.deck, r.ante, r.bete, r.dealer_forced, r.batches, r.overtrump, r.general_rams, r.targets, r.jokers) == (
        "piquet32",
        1,
        5,
        True,
        "3+2",
        "always",
        False,
        False,
        False,
    )


def test_R6_D20_rounce_is_full_deck_bete_10_no_general_rams():
    r = Rules.preset("rounce")
    assert r.deck == "full52" and r.bete == 10 and r.general_rams is False


def test_R6_all_nine_presets_and_no_others():
    assert set(PRESETS) == set(PRESET_TABLE)


def test_R6_unknown_preset_lists_the_presets():
    with pytest.raises(RulesError) as e:
        Rules.preset("skat")
    for name in PRESET_TABLE:
        assert name in str(e.value)


def test_R6_preset_adjusted_option_by_option():
    r = Rules.preset("nap", target_bonus="t", ante=2)
    assert r.targets and r.target_bonus == "t" and r.ante == 2


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_R8_toml_roundtrip_every_preset(name):
    r = Rules.preset(name)
    text = r.to_toml()
    assert Rules.from_toml(text) == r
    assert Rules.from_toml(text).to_toml() == text


def test_R8_toml_roundtrip_with_every_option_set():
    r = Rules(
        deck="full52",
        jokers=True,
        players=4,
        starting_stack=30,
        ante=2,
        batches="2+3",
        dealer_forced=False,
        general_rams=True,
        general_rams_penalty="triple-pot",
        targets=True,
        target_bonus="t",
        overtrump="when-trumping",
        bete="pot",
        bust="leave",
        end=["win-at:50", "time:90"],
    )
    text = r.to_toml()
    assert Rules.from_toml(text) == r
    assert 'bete = "pot"' in text and "players = 4" in text


def test_R8_toml_errors():
    with pytest.raises(RulesError, match="TOML"):
        Rules.from_toml("bete = = 3")
    with pytest.raises(RulesError, match="unknown option"):
        Rules.from_toml("colour = 'red'")
    with pytest.raises(RulesError, match="overtrump"):
        Rules.from_toml("overtrump = 'sometimes'")
