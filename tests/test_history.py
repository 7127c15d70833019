"""Hand histories (issue 2 item 5): format, round trip, replay, every error path.

Rule ids: R1 (cards, dealt once), R3.4 (conservation), R4.5/R4.8/R4.10/R4.12
(illegal actions), R5 (settlement re-computed), R7/D-16 (unknown cards ``??``), R8 (options).
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramsli import Hand, Rules
from ramsli.errors import IllegalActionError
from ramsli.hand import Action
from ramsli.history import (
    FORMAT,
    HandHistory,
    HistoryError,
    ReplayError,
    read_session,
    session_histories,
    settlement_record,
    write_session,
)
from ramsli.rules import PRESETS

from helpers import HISTORIES, line_of, play_session

DOCS = Path(__file__).parents[1] / "docs"
NAMES = ["Anna", "Bruno", "Clara", "Dirk", "Edda", "Fritz"]


def random_hand(preset: str, seed: int, n: int | None = None, **opts) -> Hand:
    rng = random.Random(seed)
    n = n or rng.randint(2, 6)
    rules = Rules.preset(preset, **opts)
    stacks = [rng.randint(max(rules.ante, 0), 25) for _ in range(n)]
    hand = Hand.new(rules, stacks, rng.randrange(n), rng, pot=rng.randint(0, 6))
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    return hand


@pytest.fixture(scope="module")
def base() -> tuple[HandHistory, str]:
    """A 4-seat traditional hand with two seats in (two folded), recorded in full."""
    for seed in range(1000):
        hand = random_hand("traditional", seed, n=4)
        if len(hand.active) == 2 and hand.settlement.kind == "played":
            hh = HandHistory.from_hand(hand, NAMES[:4], hand_number=3)
            return hh, hh.to_toml()
    raise AssertionError("no suitable hand")


# -- round trip -----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**32 - 1),
    hide=st.booleans(),
    number=st.one_of(st.none(), st.integers(1, 999)),
)
def test_round_trip_byte_identical_and_replay(preset, seed, hide, number):
    hand = random_hand(preset, seed)
    hh = HandHistory.from_hand(hand, NAMES[: hand.n_seats], hand_number=number, hide_folded=hide)
    text = hh.to_toml()
    back = HandHistory.from_toml(text)
    assert back == hh
    assert back.to_toml() == text  # write -> read -> write is byte-identical
    replayed = back.replay()
    assert replayed.settlement == hand.settlement  # the settlement is re-computed, equal
    assert replayed.history == hand.history
    assert replayed.total() == sum(hh.stacks) + hh.pot  # R3.4


def test_round_trip_seeded_loop_every_preset():
    count = 0
    for preset in PRESETS:
        for seed in range(60):
            hand = random_hand(preset, seed * 7919 + 1)
            text = HandHistory.from_hand(hand, NAMES[: hand.n_seats]).to_toml()
            assert HandHistory.from_toml(text).to_toml() == text
            count += 1
    assert count == 60 * len(PRESETS)


def test_unfinished_hand_round_trips_without_settlement():
    rng = random.Random(5)
    hand = Hand.new(Rules(), [20] * 3, 0, rng)
    for _ in range(5):
        hand.apply(hand.legal_actions()[0])
    hh = HandHistory.from_hand(hand, NAMES[:3])
    text = hh.to_toml()
    assert "[settlement]" not in text
    back = HandHistory.from_toml(text)
    assert back.to_toml() == text
    again = back.replay()
    assert not again.is_over and again.fingerprint() == hand.fingerprint()


def test_names_with_quotes_and_unicode_round_trip():
    hand = random_hand("traditional", 3, n=3)
    names = ['Ann "the Ace"', "Bö\\ß", "Ç 李 👩\u200d👩"]
    text = HandHistory.from_hand(hand, names).to_toml()
    back = HandHistory.from_toml(text)
    assert back.names == tuple(names)
    assert back.to_toml() == text


@pytest.mark.parametrize("bad", ["\u001b[31m", "\n", "\t", "\u007f", "\u0085", "\u202e", "\u2028", "\u0000"])
def test_names_with_control_characters_are_refused(bad):
    """A history is data printed to a terminal: no escape sequences, line breaks or
    bidi overrides in names (R2.2); the error names the line of the name."""
    hand = random_hand("traditional", 3, n=3)
    text = HandHistory.from_hand(hand, ["Anna", "Bruno" + bad, "Clara"]).to_toml()
    err = expect_error(text, "seats =", "seats: name 2", f"U+{ord(bad[0]):04X}", "R2.2")
    assert bad not in str(err)  # the message shows the name escaped (repr)


def test_duplicate_names_are_refused():
    hand = random_hand("traditional", 3, n=3)
    for names in (["Anna", "Bruno", "Anna"], ["Anna", "Bruno", " anna"]):
        text = HandHistory.from_hand(hand, names).to_toml()
        expect_error(text, "seats =", "seats: name 3", "also the name of p1", "R2.2")


def test_from_hand_needs_one_name_per_seat():
    hand = random_hand("traditional", 1, n=3)
    with pytest.raises(ValueError, match="3 seat slots"):
        HandHistory.from_hand(hand, NAMES[:2])


def test_canonical_layout(base):
    hh, text = base
    assert text.splitlines()[1] == f'format = "{FORMAT}"'
    for table in ("[rules]", "[deal]", "[play]", "[settlement]"):
        assert text.count(f"\n{table}\n") == 1
    assert re.search(r'^    "p\d in",$', text, re.M)  # one action per line
    assert hh.settlement == settlement_record(hh.replay().settlement)


# -- unknown cards (R7, D-16) ---------------------------------------------------------------------


def test_folded_hands_written_as_unknown_replay_fine():
    seen = 0
    for seed in range(200):
        hand = random_hand("traditional", seed, n=5)
        out = [s for s, d in hand.declarations if not d]
        if not out or hand.settlement.kind != "played":
            continue
        hh = HandHistory.from_hand(hand, NAMES[:5], hide_folded=True)
        text = hh.to_toml()
        for s in out:
            assert f'p{s + 1} = ["??", "??", "??", "??", "??"]' in text
            assert all(c is None for c in HandHistory.from_toml(text).cards[s])
        assert HandHistory.from_toml(text).replay().settlement == hand.settlement
        seen += 1
    assert seen > 20


def test_walkover_with_every_hand_unknown():
    hh = HandHistory.read(HISTORIES / "walkover.toml")
    assert sum(c is None for cards in hh.cards for c in cards) == 5 * len(hh.seated)
    hand = hh.replay()
    assert hand.settlement.kind == "walkover"


def test_partly_unknown_hand_of_a_folded_seat_is_fine(base):
    hh, text = base
    folded = [s for s in hh.seated if not any(a.seat == s and a.kind == "pl" for a in hh.actions)][0]
    key = f"p{folded + 1} = ["
    line = next(x for x in text.splitlines() if x.startswith(key))
    cards = line.split('"')[1::2]
    edited = text.replace(line, key + ", ".join(f'"{c}"' for c in cards[:2] + ["??"] * 3) + "]")
    back = HandHistory.from_toml(edited)
    assert back.cards[folded][:2] == hh.cards[folded][:2] and back.cards[folded][2:] == (None,) * 3
    assert back.replay().settlement == hh.replay().settlement


def test_unknown_cards_for_a_seat_that_plays_is_a_clear_error(base):
    hh, text = base
    player = next(a.seat for a in hh.actions if a.kind == "pl")
    position = next(i for i, a in enumerate(hh.actions) if a.kind == "pl" and a.seat == player) + 1
    key = f"p{player + 1} = ["
    line = next(x for x in text.splitlines() if x.startswith(key))
    edited = text.replace(line, key + '"??", "??", "??", "??", "??"]')
    with pytest.raises(HistoryError) as e:
        HandHistory.from_toml(edited)
    action = str(hh.actions[position - 1])
    assert e.value.line == line_of(edited, f'"{action}"')
    assert f"action {position} '{action}'" in str(e.value)
    assert "unknown (??)" in str(e.value) and "(R7)" in str(e.value)
    assert f"line {line_of(edited, key)}" in str(e.value)


# -- parser errors: each names the line ------------------------------------------------------------


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def expect_error(text: str, line_needle: str | int | None, *fragments: str) -> HistoryError:
    with pytest.raises(HistoryError) as e:
        HandHistory.from_toml(text)
    err = e.value
    if isinstance(line_needle, str):
        assert err.line == line_of(text, line_needle), (err.line, str(err))
    else:
        assert err.line == line_needle, (err.line, str(err))
    for f in fragments:
        assert f in str(err), (f, str(err))
    assert str(err).startswith(f"line {err.line}: ") if err.line is not None else True
    return err


def test_error_invalid_toml(base):
    _, text = base
    bad = edit(text, "\npot = 0\n", "\npot = \n")
    expect_error(bad, "pot = ", "not valid TOML")


def test_error_format_version(base):
    _, text = base
    expect_error(
        edit(text, f'format = "{FORMAT}"', 'format = "ramsli-hh/9"'),
        "format =",
        "'ramsli-hh/9' is not supported",
        FORMAT,
    )


def test_error_unknown_top_level_key(base):
    _, text = base
    expect_error(edit(text, "\npot = ", "\ncolour = 1\npot = "), "colour", "unknown key 'colour'", "allowed are")


def test_error_missing_key(base):
    _, text = base
    expect_error(re.sub(r"(?m)^dealer = .*\n", "", text), 1, "missing key 'dealer'")


def test_error_seats(base):
    _, text = base
    expect_error(re.sub(r"(?m)^seats = .*$", 'seats = ["Solo"]', text), "seats =", "2 to 6")


def test_error_dealer(base):
    hh, text = base
    expect_error(re.sub(r"(?m)^dealer = .*$", 'dealer = "p9"', text), "dealer =", "p1..p4", "R2.2")
    others = ", ".join(f'"p{s + 1}"' for s in hh.seated if s != hh.dealer)
    expect_error(
        re.sub(r"(?m)^seated = .*$", f"seated = [{others}]", text),
        "dealer =",
        f"the dealer p{hh.dealer + 1} is not seated",
        "R3.2",
    )


def test_error_stacks_and_pot(base):
    _, text = base
    expect_error(re.sub(r"(?m)^stacks = .*$", "stacks = [20, 20]", text), "stacks =", "4 whole numbers")
    expect_error(re.sub(r"(?m)^pot = \d+$", "pot = -1", text), "pot = -1", "R5.4")
    expect_error(re.sub(r"(?m)^stacks = .*$", "stacks = [0, 0, 0, 0]", text), "stacks =", "cannot pay the ante", "R3.5")


def test_error_unknown_option(base):
    _, text = base
    expect_error(
        edit(text, "bete = 5\n", "bete = 5\nbetee = 10\n"), "betee", "unknown option 'betee'", "R8", "allowed are deck"
    )


def test_error_bad_option_value(base):
    _, text = base
    expect_error(
        edit(text, 'overtrump = "always"', 'overtrump = "never"'),
        "overtrump =",
        "option 'overtrump'",
        "always, when-trumping",
    )
    expect_error(edit(text, "bete = 5\n", "bete = -2\n"), "bete = -2", "R5.3")


def test_error_players_option_mismatch(base):
    _, text = base
    expect_error(edit(text, "jokers = false\n", "jokers = false\nplayers = 5\n"), "players = 5", "R2.1")


def deal_line(text: str, seat: int) -> str:
    return next(x for x in text.splitlines() if x.startswith(f"p{seat + 1} = ["))


def test_error_unknown_card(base):
    hh, text = base
    s = hh.seated[0]
    line = deal_line(text, s)
    card = line.split('"')[1]
    bad = edit(text, line, line.replace(f'"{card}"', '"ZZ"', 1))
    expect_error(bad, f"p{s + 1} = [", f"p{s + 1} card 1", "'ZZ' is not a card: write rank then suit", "(R1.6)")


def test_error_card_not_in_deck(base):
    hh, text = base
    s = hh.seated[1]
    line = deal_line(text, s)
    card = line.split('"')[3]
    bad = edit(text, line, line.replace(f'"{card}"', '"2S"', 1))
    expect_error(bad, f"p{s + 1} = [", f"p{s + 1} card 2", "2S is not in the piquet32 deck (R1)")


def test_error_card_dealt_twice(base):
    hh, text = base
    a, b = hh.seated[0], hh.seated[1]
    first = str(hh.cards[a][0])
    line_b = deal_line(text, b)
    bad = edit(text, line_b, line_b.replace(line_b.split('"')[1], first, 1))
    expect_error(bad, f"p{b + 1} = [", f"card {first} is dealt twice", f"also p{a + 1} card 1", "(R1)")
    # the turn-up dealt again
    bad = re.sub(r'(?m)^turn_up = ".*"$', f'turn_up = "{first}"', text)
    expect_error(bad, "turn_up =", "dealt twice")


def test_error_card_dealt_twice_multiline_array(base):
    hh, text = base
    a, b = hh.seated[0], hh.seated[1]
    first = str(hh.cards[a][0])
    line_b = deal_line(text, b)
    cards = line_b.split('"')[1::2]
    cards[3] = first
    multi = f"p{b + 1} = [\n" + "".join(f'    "{c}",\n' for c in cards) + "]"
    bad = edit(text, line_b, multi)
    err = expect_error(bad, line_of(bad, f'"{first}"', 1), f"p{b + 1} card 4")
    assert err.line == line_of(bad, f"p{b + 1} = [") + 4


def test_error_deal_shape(base):
    hh, text = base
    s = hh.seated[0]
    line = deal_line(text, s)
    four = line.rsplit(",", 1)[0] + "]"
    expect_error(edit(text, line, four), f"p{s + 1} = [", "must be dealt 5 cards", "R4.3")
    expect_error(edit(text, line, ""), "[deal]", f"missing p{s + 1}")
    expect_error(edit(text, "[deal]\n", "[deal]\np7 = []\n"), "p7 = []", "unknown key 'p7'")


def test_error_not_seated_seat_has_cards(base):
    hh, text = base
    # unseat a folded seat that is not the dealer: its cards are then refused
    folded = [s for s in hh.seated if s != hh.dealer and not any(a.seat == s for a in hh.actions if a.kind == "pl")][0]
    seated = ", ".join(f'"p{s + 1}"' for s in hh.seated if s != folded)
    bad = re.sub(r"(?m)^seated = .*$", f"seated = [{seated}]", text)
    expect_error(bad, f"p{folded + 1} = [", f"p{folded + 1} is not seated", "R3.5")


def test_error_turn_up_and_turned_aside(base):
    _, text = base
    expect_error(re.sub(r'(?m)^turn_up = ".*"$', 'turn_up = "X1"', text), "turn_up =", "X1 is not in")
    jtext = edit(edit(text, "jokers = false", "jokers = true"), "turned_aside = []", 'turned_aside = ["X1"]')
    assert HandHistory.from_toml(jtext).turned_aside[0].is_joker
    expect_error(
        re.sub(r'(?m)^turn_up = ".*"$', 'turn_up = "X2"', jtext), "turn_up =", "jokers are turned aside", "D-9"
    )
    # a suited card turned aside
    hh = HandHistory.from_toml(text)
    used = {str(c) for cs in hh.cards for c in cs if c} | {str(hh.turn_up)}
    spare = next(c for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH") if c not in used)
    expect_error(edit(text, "turned_aside = []", f'turned_aside = ["{spare}"]'), "turned_aside", "only jokers", "D-9")


def test_error_cut_out_of_range(base):
    _, text = base
    expect_error(re.sub(r"(?m)^cut = \d+$", "cut = 32", text), "cut = 32", "1..31", "R4.2")


def test_error_malformed_action(base):
    hh, text = base
    first = str(hh.actions[0])
    bad = edit(text, f'    "{first}",', f'    "{first.split()[0]} play AS",')
    expect_error(bad, " play AS", "action 1:", "is not an action", "allowed forms")
    bad = edit(text, f'    "{first}",', '    "p5 in",')
    expect_error(bad, '"p5 in"', "action 1:", "p1..p4")
    pl = next(i for i, a in enumerate(hh.actions) if a.kind == "pl")
    bad = edit(text, f'    "{hh.actions[pl]}",', f'    "{str(hh.actions[pl])[:-2]}ZZ",')
    expect_error(bad, "ZZ", f"action {pl + 1}:", "not a card")


@pytest.mark.parametrize(
    "make",
    [
        lambda a: a.upper(),  # 'P2 GR'
        lambda a: a.replace(" ", "  ", 1),  # 'p2  gr'
        lambda a: " " + a,
        lambda a: (
            a.replace("S", "♠").replace("H", "♥").replace("D", "♦").replace("C", "♣") if " pl " in a else a.upper()
        ),
        lambda a: a.replace("T", "10") if " pl T" in a else a.upper(),
        lambda a: a[:-1] + a[-1].lower() if " pl " in a else a.upper(),
    ],
)
def test_error_action_not_written_canonically(base, make):
    """Actions are exactly as str(Action) writes them, so write -> read -> write is
    byte-identical; any other spelling is refused with the line and the canonical form."""
    hh, text = base
    i = next(i for i, a in enumerate(hh.actions) if a.kind == "pl" and make(str(a)) != str(a))
    canon = str(hh.actions[i])
    bad_action = make(canon)
    bad = edit(text, f'    "{canon}",', f'    "{bad_action}",')
    expect_error(
        bad,
        f'"{bad_action}"',
        f"action {i + 1}: {bad_action!r} is not written as the engine writes it",
        f"write {canon!r}",
    )
    j = 0  # a declaration too
    bad = edit(text, f'    "{hh.actions[j]}",', f'    "{str(hh.actions[j]).upper()}",')
    expect_error(bad, f'"{str(hh.actions[j]).upper()}"', "action 1:", f"write '{hh.actions[j]}'")


def test_error_rules_end_must_be_a_list_of_canonical_ends(base):
    _, text = base
    expect_error(
        edit(text, "end = []", 'end = "hands:3"'),
        'end = "hands:3"',
        "option 'end'",
        "is not a list of session ends",
        "R3.6",
    )
    expect_error(edit(text, "end = []", 'end = ["hands:03"]'), 'end = ["hands:03"]', "write 'hands:3'", "R3.6")
    expect_error(edit(text, "end = []", 'end = ["hands:3", "hands:4"]'), "end = [", "R3.6")
    ok = HandHistory.from_toml(edit(text, "end = []", 'end = ["win-at:30", "hands:4"]'))
    assert [str(e) for e in ok.rules.end] == ["win-at:30", "hands:4"]


@pytest.mark.parametrize("option", ["bete", "deck", "end", "overtrump"])
def test_error_rules_missing_option_is_not_defaulted(base, option):
    _, text = base
    bad = re.sub(rf"(?m)^{option} = .*\n", "", text)
    expect_error(bad, "[rules]", f"[rules] misses option {option}", "no default is filled in")


def test_rules_players_may_be_left_out(base):
    _, text = base
    assert "players" not in text
    assert HandHistory.from_toml(text).to_toml() == text


def test_byte_order_mark_is_accepted_and_dropped(tmp_path, base):
    hh, text = base
    assert HandHistory.from_toml("\ufeff" + text).to_toml() == text
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    back = HandHistory.read(p)
    assert back.to_toml() == text and back.replay().settlement == hh.replay().settlement
    bad = edit(text, "\npot = ", "\ncolour = 1\npot = ")  # line numbers count as without the mark
    with pytest.raises(HistoryError) as e:
        HandHistory.from_toml("\ufeff" + bad)
    assert e.value.line == line_of(bad, "colour")


@pytest.mark.parametrize("cut", [0.5, 0.8, 0.97])
def test_truncated_file_names_the_last_line(base, cut):
    _, text = base
    short = text[: int(len(text) * cut)]
    short = short[: short.rindex("[") + 1] if cut == 0.97 else short  # end inside an array or table
    try:
        HandHistory.from_toml(short)
    except HistoryError as e:
        assert e.line is not None, str(e)
        if "end of document" in str(e):
            assert e.line == len(short.splitlines()) and "cut short" in str(e)
    else:  # a cut that happens to leave valid TOML is caught by the structure checks
        pytest.fail("a truncated history was accepted")


def test_not_utf8_or_binary_names_the_line(tmp_path, base):
    _, text = base
    p = tmp_path / "h.toml"
    p.write_bytes(text.replace("Bruno", "Br\u00fcno").encode("latin-1"))
    with pytest.raises(HistoryError) as e:
        HandHistory.read(p)
    assert e.value.line == line_of(text, "Bruno") and "0xFC is not UTF-8" in str(e.value)
    p.write_bytes(b"\x00" * 50)
    with pytest.raises(HistoryError) as e:
        HandHistory.read(p)
    assert e.value.line == 1 and "NUL bytes" in str(e.value)


def test_unknown_top_level_table_names_its_line(base):
    _, text = base
    bad = text + "[other]\nx = 1\n"
    expect_error(bad, "[other]", "unknown key 'other'")


def test_error_play_table_shape(base):
    _, text = base
    expect_error(edit(text, "[play]\n", "[play]\nmoves = 1\n"), "[play]", "[play] holds one key")


def test_error_settlement_unknown_key(base):
    _, text = base
    expect_error(edit(text, "[settlement]\n", "[settlement]\nbonus = 3\n"), "bonus = 3", "unknown key 'bonus'")


def test_read_missing_file(tmp_path):
    with pytest.raises(HistoryError) as e:
        HandHistory.read(tmp_path / "nope.toml")
    assert "no such file" in str(e.value) and "nope.toml" in str(e.value)


def test_read_names_the_path(tmp_path, base):
    _, text = base
    p = tmp_path / "h.toml"
    p.write_text(edit(text, "bete = 5\n", "bete = 5\nbetee = 10\n"), encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        HandHistory.read(p)
    assert str(e.value).startswith(f"{p}:{e.value.line}: unknown option 'betee'")


# -- replay errors ---------------------------------------------------------------------------------


def test_illegal_action_must_follow_suit():
    text = (HISTORIES / "bad-illegal-follow-suit.toml").read_text(encoding="utf-8")
    hh = HandHistory.from_toml(text)
    with pytest.raises(ReplayError) as e:
        hh.replay()
    err = e.value
    assert isinstance(err, IllegalActionError)
    assert str(err) == f"action {err.position} '{err.action}': {err.reason} ({err.rule})"
    assert err.rule == "R4.10" and err.reason.startswith("must follow suit")
    assert err.line == line_of(text, f'"{err.action}"')
    assert hh.actions[err.position - 1] == Action.parse(err.action)


def replay_error(text: str) -> ReplayError:
    with pytest.raises(ReplayError) as e:
        HandHistory.from_toml(text).replay()
    return e.value


def test_illegal_action_out_of_turn_and_after_the_end(base):
    hh, text = base
    a0, a1 = str(hh.actions[0]), str(hh.actions[1])
    swapped = text.replace(f'    "{a0}",\n    "{a1}",', f'    "{a1}",\n    "{a0}",', 1)
    err = replay_error(swapped)
    assert err.position == 1 and err.rule == "R4.5" and "turn" in err.reason
    last = str(hh.actions[-1])
    extra = edit(text, f'    "{last}",\n]', f'    "{last}",\n    "{last}",\n]')
    err = replay_error(extra)
    assert err.position == len(hh.actions) + 1 and err.reason == "the hand is over" and err.rule == "R5"
    assert err.line == line_of(extra, f'"{last}"', 1)


def test_illegal_dealer_out_when_forced():
    # every seat before the dealer out: the dealer may not fold (R4.5)
    hand = Hand.new(Rules(), [20] * 3, 0, random.Random(2))
    hand.apply("p2 out")
    hand.apply("p3 out")
    hand.apply("p1 in")
    text = HandHistory.from_hand(hand, NAMES[:3]).to_toml()
    err = replay_error(edit(text, '"p1 in"', '"p1 out"'))
    assert err.position == 3 and err.rule == "R4.5" and "dealer must be in" in err.reason


def test_illegal_target_five_with_general_rams():
    rules = Rules(general_rams=True, targets=True)
    hand = Hand.new(rules, [20] * 2, 0, random.Random(4))
    hand.apply("p2 in")
    hand.apply("p1 in")
    hand.apply("p2 pass")
    hand.apply("p1 pass")
    hand.apply("p2 t4")
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    text = HandHistory.from_hand(hand, NAMES[:2]).to_toml()
    err = replay_error(edit(text, '"p2 t4"', '"p2 t5"'))
    assert (err.position, err.rule) == (5, "R4.8")


def test_tampered_settlement_is_detected(base):
    hh, text = base
    for key in ("carry_over", "won", "stacks_after", "payments", "winners"):
        line = next(x for x in text.splitlines() if x.startswith(f"{key} = "))
        if key == "payments":
            pl = next(x for x in text.splitlines() if x.startswith("    { step = 1"))
            bad = edit(text, pl, pl.replace("owed = ", "owed = 9", 1))
            needle = pl.replace("owed = ", "owed = 9", 1)
        elif key == "winners":
            bad = edit(text, line, 'winners = ["p1", "p2"]')
            needle = "winners = "
        else:
            bad = edit(text, line, re.sub(r"(\d+)", lambda m: str(int(m.group(1)) + 1), line, count=1))
            needle = f"{key} = "
        back = HandHistory.from_toml(bad)  # the structure is fine
        with pytest.raises(HistoryError) as e:
            back.replay()
        assert e.value.line == line_of(bad, needle if key != "payments" else "payments = ")
        assert f"recorded {key} = " in str(e.value) and f"computes {key} = " in str(e.value)
        assert "(R5)" in str(e.value)


def test_settlement_bool_is_not_an_int():
    hh = HandHistory.read(HISTORIES / "general-rams-made.toml")
    text = hh.to_toml()
    bad = edit(text, "general_rams_made = true", "general_rams_made = 1")
    with pytest.raises(HistoryError, match="general_rams_made"):
        HandHistory.from_toml(bad).replay()


def test_settlement_missing_key_and_unfinished(base):
    hh, text = base
    bad = re.sub(r"(?m)^carry_over = .*\n", "", text)
    with pytest.raises(HistoryError) as e:
        HandHistory.from_toml(bad).replay()
    assert "carry_over is missing" in str(e.value) and e.value.line == line_of(bad, "[settlement]")
    last = str(hh.actions[-1])
    short = edit(text, f'    "{last}",\n', "")
    with pytest.raises(HistoryError) as e:
        HandHistory.from_toml(short).replay()
    assert "not over" in str(e.value) and e.value.line == line_of(short, "[settlement]")
    # upto: a partial replay skips the check
    assert not HandHistory.from_toml(short).replay(upto=3).is_over


# -- example files ---------------------------------------------------------------------------------

GOOD = [
    "general-rams-made",
    "general-rams-failed",
    "traditional-folded",
    "nap-targets",
    "joker-aside",
    "walkover",
    "thrown-in",
    "modern-52-6p",
]


@pytest.mark.parametrize("name", GOOD)
def test_example_files_replay_and_round_trip(name):
    text = (HISTORIES / f"{name}.toml").read_text(encoding="utf-8")
    hh = HandHistory.from_toml(text)
    assert hh.to_toml() == text
    hand = hh.replay()
    assert hand.is_over and hand.total() == sum(hh.stacks) + hh.pot


def test_example_files_show_what_they_are_named_for():
    gr = HandHistory.read(HISTORIES / "general-rams-made.toml").replay().settlement
    assert gr.general_rams is not None and gr.general_rams_made
    grf = HandHistory.read(HISTORIES / "general-rams-failed.toml").replay().settlement
    assert grf.general_rams is not None and not grf.general_rams_made
    assert any(p.reason == "general-rams-penalty" and p.owed == 3 * grf.pot for p in grf.payments)  # triple-pot
    nap = HandHistory.read(HISTORIES / "nap-targets.toml").replay().settlement
    assert {m for *_, m in nap.targets} == {True, False}
    assert HandHistory.read(HISTORIES / "joker-aside.toml").turned_aside
    assert HandHistory.read(HISTORIES / "thrown-in.toml").replay().settlement.kind == "thrown-in"
    assert len(HandHistory.read(HISTORIES / "modern-52-6p.toml").names) == 6


@pytest.mark.parametrize(
    "name,exc,fragment",
    [
        ("bad-illegal-follow-suit", ReplayError, "must follow suit"),
        ("bad-settlement", HistoryError, "settlement does not match"),
        ("bad-unknown-card", HistoryError, "is not a card"),
        ("bad-card-twice", HistoryError, "dealt twice"),
        ("bad-malformed", HistoryError, "not valid TOML"),
        ("bad-unknown-option", HistoryError, "unknown option 'betee'"),
        ("bad-unknown-cards-play", HistoryError, "unknown (??)"),
    ],
)
def test_bad_example_files(name, exc, fragment):
    with pytest.raises(exc) as e:
        HandHistory.read(HISTORIES / f"{name}.toml").replay()
    assert fragment in str(e.value)
    assert e.value.line is not None


def test_docs_example_is_the_example_file_and_replays():
    doc = (DOCS / "hand-history.md").read_text(encoding="utf-8")
    example = (DOCS / "examples" / "general-rams-made.toml").read_text(encoding="utf-8")
    assert example in doc
    assert example == (HISTORIES / "general-rams-made.toml").read_text(encoding="utf-8")
    hh = HandHistory.from_toml(example)
    assert hh.replay().settlement.general_rams_made


# -- sessions ---------------------------------------------------------------------------------------


def test_session_round_trip(tmp_path):
    s = play_session(3, end=["hands:8"], bust="leave", starting_stack=4)
    paths = write_session(tmp_path / "s", s)
    assert paths[0].name == "session.toml" and len(paths) == len(s.results) + 1
    sh = read_session(tmp_path / "s")
    assert sh.names == tuple(s.names) and sh.seed == 3 and sh.end_reason == s.end_reason
    assert sh.stacks == tuple(s.stacks) and sh.pot == s.pot
    assert sh.winners == tuple(s.winners())
    assert sh.cut_rounds == tuple(tuple(r) for r in s.cut_rounds)
    assert [hh.to_toml() for hh in sh.hands] == [hh.to_toml() for hh in session_histories(s)]
    assert (tmp_path / "s" / "session.toml").read_text(encoding="utf-8") == sh.to_toml()
    for hh, entry in zip(sh.hands, s.results):
        assert hh.replay().settlement == entry.settlement
    assert sum(sh.stacks) + sh.pot == 4 * 4  # R3.4


def test_session_with_bust_players_leaving(tmp_path):
    for seed in range(50):
        s = play_session(seed, end=["hands:12"], bust="leave", starting_stack=3)
        if any(len(e.hand.seated) < 4 for e in s.results):
            break
    else:
        raise AssertionError("no session with a seat leaving")
    write_session(tmp_path, s)
    sh = read_session(tmp_path)
    assert any(len(hh.seated) < 4 for hh in sh.hands)
    for hh in sh.hands:
        hh.replay()


def test_session_broken_chain_is_refused(tmp_path):
    s = play_session(1, end=["hands:3"])
    write_session(tmp_path, s)
    p = tmp_path / "hand-0002.toml"
    text = p.read_text(encoding="utf-8")
    p.write_text(re.sub(r"(?m)^pot = \d+$", "pot = 99", text), encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(tmp_path)
    assert "R5.4" in str(e.value) and str(p) in str(e.value)
    assert e.value.line == line_of(p.read_text(encoding="utf-8"), "pot = 99")


def test_session_missing_or_bad_metadata(tmp_path):
    with pytest.raises(HistoryError, match="no session.toml"):
        read_session(tmp_path)
    s = play_session(2, end=["hands:2"])
    write_session(tmp_path, s)
    meta = tmp_path / "session.toml"
    text = meta.read_text(encoding="utf-8")
    meta.write_text(edit(text, "bete = 5", "bete = 5\nbeet = 1"), encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(tmp_path)
    assert "unknown option 'beet'" in str(e.value) and e.value.line == line_of(meta.read_text(), "beet")
    meta.write_text(edit(text, 'first_dealer = "p', 'first_dealer = "q'), encoding="utf-8")
    with pytest.raises(HistoryError, match="first_dealer"):
        read_session(tmp_path)


@pytest.mark.parametrize(
    "entry",
    [
        "../../../etc/passwd",
        "/etc/passwd",
        "sub/hand-0001.toml",
        "..\\hand-0001.toml",
        "hand-1.toml",
        "hand-0002.toml",
        "HAND-0001.toml",
    ],
)
def test_session_hand_files_must_be_plain_names_in_the_directory(tmp_path, entry):
    """session.toml cannot make the reader open a file outside the session directory."""
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    meta = d / "session.toml"
    text = edit(
        meta.read_text(encoding="utf-8"),
        '    "hand-0001.toml",',
        f"    {entry!r},".replace("'", '"') if "\\" not in entry else f"    '{entry}',",
    )
    meta.write_text(text, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert str(e.value).startswith(f"{meta}:{line_of(text, entry)}: hands: entry 1 ")
    assert "'hand-0001.toml'" in str(e.value) and "root:" not in str(e.value)


def test_session_hand_file_linking_outside_is_refused(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    outside = tmp_path / "elsewhere.toml"
    (d / "hand-0002.toml").rename(outside)
    (d / "hand-0002.toml").symlink_to(outside)
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert "outside the session directory" in str(e.value)
    assert e.value.line == line_of((d / "session.toml").read_text(encoding="utf-8"), "hand-0002.toml")


def test_session_rules_differ_names_the_option_and_both_values(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    p = d / "hand-0003.toml"
    text = edit(
        edit(p.read_text(encoding="utf-8"), "bete = 5", "bete = 7"),
        'overtrump = "always"',
        'overtrump = "when-trumping"',
    )
    p.write_text(text, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    msg = str(e.value)
    assert msg.startswith(f"{p}:{line_of(text, 'overtrump =')}: rules differ from session.toml: ")
    assert 'overtrump = "when-trumping" here, "always" in session.toml' in msg
    assert "bete = 7 here, 5 in session.toml" in msg


def test_session_names_are_checked(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    meta = d / "session.toml"
    for names, fragment in (
        ('["Anna", "Bruno\\u001b[31m", "Clara"]', "U+001B"),
        ('["Anna", "Bruno", "Anna"]', "also the name of p1"),
    ):
        text = re.sub(r"(?m)^seats = .*$", lambda m, names=names: f"seats = {names}", meta.read_text(encoding="utf-8"))
        meta.write_text(text, encoding="utf-8")
        with pytest.raises(HistoryError) as e:
            read_session(d)
        assert e.value.line == line_of(text, "seats =") and fragment in str(e.value)
        assert "\x1b" not in str(e.value)


def test_session_truncated_metadata_names_the_last_line(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    meta = d / "session.toml"
    text = meta.read_text(encoding="utf-8")
    short = text[: text.index('    "hand-0003')]
    meta.write_text(short, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert e.value.line == len(short.splitlines()) and str(meta) in str(e.value)


def test_session_example_directory():
    sh = read_session(HISTORIES / "session-3p")
    assert len(sh.hands) == 4 and sh.end_reason == "hands"
    for hh in sh.hands:
        assert hh.replay().is_over


def test_example_generator_is_deterministic(tmp_path):
    """make_examples.py reproduces the committed files byte for byte."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_examples", HISTORIES / "make_examples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    copy = tmp_path / "h"
    shutil.copytree(HISTORIES, copy)
    mod.HERE = copy
    mod.DOCS = tmp_path / "docs"
    mod.main()
    for f in HISTORIES.rglob("*.toml"):
        rel = f.relative_to(HISTORIES)
        assert (copy / rel).read_text(encoding="utf-8") == f.read_text(encoding="utf-8"), (
            f"{rel} is stale: run tests/data/histories/make_examples.py"
        )


# -- hostile nesting: the parser's recursion is never shown as a traceback ------------------------


@pytest.mark.parametrize(
    "text",
    [
        "a=" + "[" * 500 + "]" * 500,
        "a=" + "[" * 1000 + "]" * 1000,
        "a=" + "{x=" * 400 + "1" + "}" * 400,
        "a=" + "[" * 17 + "]" * 17,  # parses, but deeper than any history nests (MAX_NESTING)
    ],
)
def test_deeply_nested_toml_is_a_history_error_not_a_recursion_error(text):
    with pytest.raises(HistoryError, match=r"not valid TOML \(nested too deeply\)") as e:
        HandHistory.from_toml(text + "\n")
    assert e.value.line == 1


def test_nesting_line_names_the_line_where_it_gets_too_deep(base):
    _, text = base
    bad = text + "\n[extra]\nq = " + "[" * 600 + "]" * 600 + "\n"
    with pytest.raises(HistoryError, match="nested too deeply") as e:
        HandHistory.from_toml(bad)
    assert e.value.line == len(bad.splitlines())


def test_session_toml_nested_too_deeply_names_the_file(tmp_path):
    shutil.copytree(HISTORIES / "session-3p", tmp_path / "s")
    meta = tmp_path / "s" / "session.toml"
    meta.write_text(meta.read_text(encoding="utf-8") + "x = " + "{y=" * 400 + "1" + "}" * 400 + "\n", encoding="utf-8")
    with pytest.raises(HistoryError, match="nested too deeply") as e:
        read_session(tmp_path / "s")
    assert e.value.path == str(meta)
