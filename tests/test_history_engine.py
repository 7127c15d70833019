"""Hand histories read through the engine (issue 9, item 3).

- The table of a history (names R2.1/R2.2, stacks R3.3, ante R3.5, dealer R3.2, seated
  R2.1/R3.5, pot R5.4, the ``players`` option R2.1) is checked by the engine's own checks
  (:func:`ramsli.session.check_names`, :func:`ramsli.hand.check_table`), whose
  ``TableError`` carries ``field`` and ``index``; the history only adds the line.
- A session directory is replayed through a real :class:`~ramsli.session.Session`:
  rotation (R3.2), bust (R3.5), carry-over (R5.4), ends (R3.6), winners (R3.7).
- All TOML is formatted by :mod:`ramsli.toml_text`.
"""

from __future__ import annotations

import random
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from ramsli import Hand, Rules, Session
from ramsli.errors import SessionError, TableError
from ramsli.hand import check_table
from ramsli.history import HandHistory, HistoryError, ReplayError, read_session, write_session
from ramsli.rules import PRESETS
from ramsli.session import check_names, forbidden_name_char
from ramsli.toml_text import value

from helpers import HISTORIES, line_of, play_session

SRC = Path(__file__).parents[1] / "src" / "ramsli"
NAMES = ["Anna", "Bruno", "Clara", "Dirk"]


@pytest.fixture(scope="module")
def base() -> str:
    """A finished 4-seat hand (default rules, dealer p1, stacks 20, pot 0) as a history text."""
    hand = Hand.new(Rules(), [20] * 4, 0, random.Random(7))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    return HandHistory.from_hand(hand, NAMES).to_toml()


def set_top(text: str, key: str, v) -> str:
    """``text`` with the top-level ``key = ...`` line (the first one) set to ``v``."""
    assert re.search(rf"(?m)^{key} = ", text), key
    return re.sub(rf"(?m)^{key} = .*$", lambda m: f"{key} = {value(v)}", text, count=1)


def history_error(text: str) -> HistoryError:
    with pytest.raises(HistoryError) as e:
        HandHistory.from_toml(text)
    return e.value


# -- U+200B: refused by Session, and now by a history (the drift of issue 9) ----------------------


def test_zero_width_space_in_a_name_is_refused_by_session_and_history(base):
    names = ["Anna", "Bru\u200bno", "Clara", "Dirk"]
    with pytest.raises(TableError) as engine:
        Session(Rules(), names, seed=1)
    assert (engine.value.field, engine.value.index, engine.value.rule) == ("names", 1, "R2.2")
    assert "U+200B" in str(engine.value)
    text = set_top(base, "seats", names)
    err = history_error(text)
    assert err.line == line_of(text, "seats =")
    assert str(err) == f"line {err.line}: seats: {engine.value}"  # the engine's message, with the line
    assert "\u200b" not in str(err)  # shown escaped


def test_zero_width_space_in_session_toml_names_the_file_and_line(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    meta = d / "session.toml"
    text = meta.read_text(encoding="utf-8").replace('"Bruno"', '"Bru\\u200Bno"', 1)
    meta.write_text(text, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert e.value.path == str(meta) and e.value.line == line_of(text, "seats =")
    assert "seats: name 2" in str(e.value) and "U+200B" in str(e.value) and "(R2.2)" in str(e.value)


@pytest.mark.parametrize("ch", ["\u200c", "\u200d"])
def test_joiners_between_letters_are_refused_by_both(base, ch):
    """Issue 38.4: a joiner between letters hides in a name ("Bru\u200dno" shows as "Bruno"):
    refused by Session and history alike, with the same character (R2.2)."""
    names = ["Anna", f"Bru{ch}no", "Clara", "Dirk"]
    assert forbidden_name_char(names[1]) == ch
    with pytest.raises(TableError) as engine:
        Session(Rules(), names, seed=1)
    with pytest.raises(HistoryError) as history:
        HandHistory.from_toml(set_top(base, "seats", names))
    assert f"U+{ord(ch):04X}" in str(engine.value) and str(engine.value) in str(history.value)


def test_a_joiner_inside_an_emoji_is_allowed_by_both(base):
    """The joiner shapes an emoji sequence (👩\u200d👩): accepted by Session and history alike (R2.2)."""
    names = ["Anna", "Bruno \U0001f469\u200d\U0001f469", "Clara", "Dirk"]
    assert forbidden_name_char(names[1]) is None
    Session(Rules(), names, seed=1)
    assert HandHistory.from_toml(set_top(base, "seats", names)).names == tuple(names)


# -- every table refusal of Session / Hand is a history refusal, with the same message ---------------

# (what is wrong, the engine call, the history edit as {top-level key: value}, TableError.field, .index)
TABLES = [
    (
        "zero-width space",
        lambda: Session(Rules(), ["Anna", "Bruno", "Cl\u200bara", "Dirk"]),
        {"seats": ["Anna", "Bruno", "Cl\u200bara", "Dirk"]},
        "names",
        2,
    ),
    (
        "byte order mark",
        lambda: Session(Rules(), ["\ufeffAnna", "Bruno", "Clara", "Dirk"]),
        {"seats": ["\ufeffAnna", "Bruno", "Clara", "Dirk"]},
        "names",
        0,
    ),
    (
        "soft hyphen",
        lambda: Session(Rules(), ["Anna", "Bru\u00adno", "Clara", "Dirk"]),
        {"seats": ["Anna", "Bru\u00adno", "Clara", "Dirk"]},
        "names",
        1,
    ),
    (
        "escape",
        lambda: Session(Rules(), ["Anna", "Bruno\x1b[31m", "Clara", "Dirk"]),
        {"seats": ["Anna", "Bruno\x1b[31m", "Clara", "Dirk"]},
        "names",
        1,
    ),
    (
        "bidi override",
        lambda: Session(Rules(), ["Anna", "Bruno", "Clara", "Di\u202erk"]),
        {"seats": ["Anna", "Bruno", "Clara", "Di\u202erk"]},
        "names",
        3,
    ),
    (
        "line separator",
        lambda: Session(Rules(), ["Anna", "Bru\u2028no", "Clara", "Dirk"]),
        {"seats": ["Anna", "Bru\u2028no", "Clara", "Dirk"]},
        "names",
        1,
    ),
    (
        "blank name",
        lambda: Session(Rules(), ["Anna", "  ", "Clara", "Dirk"]),
        {"seats": ["Anna", "  ", "Clara", "Dirk"]},
        "names",
        1,
    ),
    (
        "same name",
        lambda: Session(Rules(), ["Anna", "Bruno", "Clara", " ANNA"]),
        {"seats": ["Anna", "Bruno", "Clara", " ANNA"]},
        "names",
        3,
    ),
    ("one name", lambda: Session(Rules(), ["Anna"]), {"seats": ["Anna"]}, "names", None),
    (
        "seven names",
        lambda: Session(Rules(), NAMES + ["E", "F", "G"]),
        {"seats": NAMES + ["E", "F", "G"]},
        "names",
        None,
    ),
    ("players option", lambda: Session(Rules(players=3), NAMES), {"players": 3}, "players", None),
    (
        "negative stack",
        lambda: Hand.new(Rules(), [20, -1, 20, 20], 0, random.Random(1)),
        {"stacks": [20, -1, 20, 20]},
        "stacks",
        1,
    ),
    (
        "stack not a number",
        lambda: Hand.new(Rules(), [20, 20, True, 20], 0, random.Random(1)),
        {"stacks": [20, 20, True, 20]},
        "stacks",
        2,
    ),
    (
        "cannot pay the ante",
        lambda: Hand.new(Rules(), [20, 20, 20, 0], 0, random.Random(1)),
        {"stacks": [20, 20, 20, 0]},
        "stacks",
        3,
    ),
    ("negative pot", lambda: Hand.new(Rules(), [20] * 4, 0, random.Random(1), pot=-3), {"pot": -3}, "pot", None),
    (
        "dealer not seated",
        lambda: Hand.new(Rules(), [20] * 4, 0, random.Random(1), seated=[1, 2, 3]),
        {"seated": ["p2", "p3", "p4"]},
        "dealer",
        None,
    ),
    (
        "one seat seated",
        lambda: Hand.new(Rules(), [20] * 4, 0, random.Random(1), seated=[0]),
        {"seated": ["p1"]},
        "seated",
        None,
    ),
    (
        "seat seated twice",
        lambda: Hand.new(Rules(), [20] * 4, 0, random.Random(1), seated=[0, 0, 1]),
        {"seated": ["p1", "p1", "p2"]},
        "seated",
        None,
    ),
]


@pytest.mark.parametrize("what,engine,edit,field,index", TABLES, ids=[t[0] for t in TABLES])
def test_every_table_refusal_of_the_engine_is_a_history_refusal(base, what, engine, edit, field, index):
    with pytest.raises(TableError) as e:
        engine()
    assert (e.value.field, e.value.index) == (field, index)
    assert e.value.rule and f"({e.value.rule}" in str(e.value)
    text = base
    for key, v in edit.items():
        if key == "players":
            text = text.replace("[rules]\n", f"[rules]\nplayers = {v}\n", 1)
        else:
            text = set_top(text, key, v)
    err = history_error(text)
    key = "seats" if field == "names" else field  # the key of the input in the file
    assert err.line == line_of(text, f"{key} ="), (err.line, str(err))
    assert str(e.value) in str(err)  # the engine's own message: one check, one text


def test_table_error_is_a_value_error_and_check_table_changes_nothing():
    stacks = [20, 20, 0]
    with pytest.raises(ValueError) as e:
        check_table(Rules(), stacks, 0)
    assert isinstance(e.value, TableError) and (e.value.field, e.value.index, e.value.rule) == ("stacks", 2, "R3.5")
    assert stacks == [20, 20, 0]
    check_table(Rules(), [20, 20, 0], 0, seated=[0, 1])  # a seat not seated need not pay (R3.5)
    with pytest.raises(TableError, match="R2.2") as e:
        check_names(["a", None])
    assert e.value.index == 1


# -- session replay through a real Session -------------------------------------------------------


def test_start_hand_from_cards_replays_a_session_exactly():
    """Dealing the recorded cards into a fresh Session reproduces every hand: its own rotation
    (R3.2), carry-over (R5.4), bust seats leaving (R3.5) and end (R3.6)."""
    seen_leave = False
    for seed in range(30):
        s = play_session(seed, end=["hands:12"], bust="leave", starting_stack=3)
        r = Session(s.rules, s.names, dealer=s.results[0].hand.dealer)
        for entry in s.results:
            h = entry.hand
            assert (r.dealer, r.pot, r.seated) == (h.dealer, h.carry_in, list(h.seated))
            hand = r.start_hand_from_cards(h.dealt, h.turn_up, h.turned_aside, h.cut)
            assert (hand.dealt, hand.start_stacks, hand.pot) == (
                h.dealt,
                h.start_stacks,
                h.carry_in + h.rules.ante * len(h.seated),
            )
            for a in h.history:
                r.apply(a)
            assert r.last.settlement == entry.settlement and r.last.left == entry.left
            seen_leave |= bool(entry.left)
        assert (r.stacks, r.pot, r.end_reason, r.seated) == (s.stacks, s.pot, s.end_reason, s.seated)
    assert seen_leave


def test_start_hand_from_cards_refuses_when_over_or_in_progress():
    s = play_session(1, end=["hands:1"])
    h = s.results[0].hand
    with pytest.raises(SessionError, match="R3.6"):
        s.start_hand_from_cards(h.dealt, h.turn_up)
    t = Session(s.rules, s.names, dealer=h.dealer)
    t.start_hand_from_cards(h.dealt, h.turn_up, h.turned_aside, h.cut)
    with pytest.raises(SessionError, match="in progress"):
        t.start_hand_from_cards(h.dealt, h.turn_up)


def copy_session(tmp_path) -> Path:
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    return d


def test_session_replay_checks_the_deal_passes_left(tmp_path):
    d = copy_session(tmp_path)
    p = d / "hand-0003.toml"
    text = p.read_text(encoding="utf-8").replace('dealer = "p1"', 'dealer = "p3"', 1)
    p.write_text(text, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert e.value.path == str(p) and e.value.line == line_of(text, "dealer =")
    assert "the deal must pass to the left: dealer p1, not p3 (R3.2)" in str(e.value)


def test_session_replay_carry_over_is_the_sessions_not_the_recorded_one(tmp_path):
    """Hand 2 starts from what the Session computed for hand 1, so a tampered hand 1 settlement
    is caught in hand 1 (R5), not taken on trust for hand 2."""
    d = copy_session(tmp_path)
    p = d / "hand-0001.toml"
    text = p.read_text(encoding="utf-8").replace("stacks_after = [19, 22, 19]", "stacks_after = [19, 21, 20]")
    p.write_text(text, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert e.value.path == str(p) and e.value.line == line_of(text, "stacks_after =")
    assert "recorded stacks_after = [19, 21, 20], the replay computes stacks_after = [19, 22, 19] (R5)" in str(e.value)


def test_session_replay_illegal_action_is_a_replay_error_with_the_file(tmp_path):
    d = copy_session(tmp_path)
    p = d / "hand-0002.toml"
    hh = HandHistory.read(p)
    text = p.read_text(encoding="utf-8")
    first = str(hh.actions[0])
    wrong = next(s for s in hh.seated if s != hh.actions[0].seat)
    bad = f"p{wrong + 1} {first.split()[1]}"
    text = text.replace(f'    "{first}",', f'    "{bad}",', 1)
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ReplayError) as e:
        read_session(d)
    assert (e.value.path, e.value.line, e.value.position, e.value.rule) == (str(p), line_of(text, bad), 1, "R4.5")


def test_session_replay_no_hand_after_the_end(tmp_path):
    d = copy_session(tmp_path)
    shutil.copy(d / "hand-0004.toml", d / "hand-0005.toml")
    meta = d / "session.toml"
    text = meta.read_text(encoding="utf-8").replace(
        '    "hand-0004.toml",\n', '    "hand-0004.toml",\n    "hand-0005.toml",\n'
    )
    meta.write_text(text, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert e.value.path == str(meta) and e.value.line == line_of(text, "hand-0005.toml")
    assert "the session ended (hands) after hand 4" in str(e.value) and "R3.6" in str(e.value)


@pytest.mark.parametrize(
    "old,new,key,fragment",
    [
        ('end_reason = "hands"', 'end_reason = "bust"', "end_reason =", "ends after hand 4 by 'hands'"),
        ('end_reason = "hands"\n', "", "hands = [", "end_reason None, but the session ends"),
        ('winners = ["p2"]', 'winners = ["p1"]', "winners =", "(R3.7)"),
        ('end_reason = "hands"', 'end_reason = "win-at"', "end_reason =", "ends after hand 4 by 'hands'"),
        ("starting_stacks = [20, 20, 20]", "starting_stacks = [20, 20, 21]", "starting_stacks =", "(R3.3)"),
    ],
)
def test_session_replay_checks_the_end_against_the_session(tmp_path, old, new, key, fragment):
    d = copy_session(tmp_path)
    meta = d / "session.toml"
    text = meta.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    meta.write_text(text, encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(d)
    assert e.value.path == str(meta) and e.value.line == line_of(text, key), str(e.value)
    assert fragment in str(e.value)


def test_session_with_bust_seats_leaving_reads_back(tmp_path):
    for seed in range(60):
        s = play_session(seed, end=["hands:12"], bust="leave", starting_stack=3)
        if any(e.left for e in s.results[:-1]):
            break
    else:
        raise AssertionError("no session with a seat leaving")
    write_session(tmp_path, s)
    sh = read_session(tmp_path)
    assert sh.end_reason == s.end_reason and sh.stacks == tuple(s.stacks)
    # a left seat put back at the table is refused by the Session's seating (R3.5)
    k = next(i for i, e in enumerate(s.results) if e.left) + 1  # hand k + 1 is the first without them
    p = tmp_path / f"hand-{k + 1:04d}.toml"
    text = p.read_text(encoding="utf-8")
    seated = re.search(r"(?m)^seated = .*$", text).group(0)
    p.write_text(text.replace(seated, "seated = " + value([f"p{i + 1}" for i in range(4)]), 1), encoding="utf-8")
    with pytest.raises(HistoryError) as e:
        read_session(tmp_path)
    assert e.value.path == str(p) and "R3.5" in str(e.value)


# -- one TOML writer ----------------------------------------------------------------------------------


def test_only_toml_text_formats_toml():
    for f in SRC.rglob("*.py"):
        src = f.read_text(encoding="utf-8")
        assert "tomli_w" not in src or f.name == "toml_text.py", f
    import ramsli.history as history
    import ramsli.toml_text as toml_text

    assert history._kv is toml_text.key_value and history._q is toml_text.quote and history._val is toml_text.value


def test_rules_to_toml_keeps_its_bytes():
    """The bytes ``ramsli rules --toml`` printed when it used tomli_w."""
    assert Rules(end=["hands:3", "win-at:30"]).to_toml() == (
        'deck = "piquet32"\njokers = false\nstarting_stack = 20\nante = 1\nbatches = "3+2"\n'
        'dealer_forced = true\ncompulsory = false\ngeneral_rams = false\ngeneral_rams_penalty = "triple-bete"\n'
        'targets = false\ntarget_bonus = "t-1"\novertrump = "always"\nbete = 5\nbust = "end"\n'
        'end = [\n    "hands:3",\n    "win-at:30",\n]\n'
    )
    for name in PRESETS:
        r = Rules.preset(name)
        assert Rules.from_toml(r.to_toml()) == r and tomllib.loads(r.to_toml()) == r.to_dict()


def test_session_replay_end_reason_of_a_session_that_goes_on(tmp_path):
    """A session written before its end: an end the rules would give is refused, a quit is taken as written."""
    s = Session(Rules(end=["hands:5"]), NAMES[:3], seed=4)
    rng = random.Random(4)
    for _ in range(2):
        h = s.start_hand()
        while not h.is_over:
            s.apply(h.legal_actions()[rng.randrange(len(h.legal_actions()))])
    write_session(tmp_path, s)
    assert read_session(tmp_path).end_reason is None
    meta = tmp_path / "session.toml"
    text = meta.read_text(encoding="utf-8")
    winners = value([f"p{w + 1}" for w in s.winners()])
    for reason, ok in (("hands", False), ("bust", False), ("quit", True), ("time", True)):
        edited = text.replace("winners = []", f'end_reason = "{reason}"\nwinners = {winners}', 1)
        meta.write_text(edited, encoding="utf-8")
        if ok:
            assert read_session(tmp_path).end_reason == reason
        else:
            with pytest.raises(HistoryError, match="the rules do not end the session") as e:
                read_session(tmp_path)
            assert e.value.line == line_of(edited, "end_reason =")


def test_session_replay_action_after_the_hand_is_over(tmp_path):
    d = copy_session(tmp_path)
    p = d / "hand-0001.toml"
    hh = HandHistory.read(p)
    last = str(hh.actions[-1])
    text = p.read_text(encoding="utf-8").replace(f'    "{last}",\n]', f'    "{last}",\n    "{last}",\n]', 1)
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ReplayError) as e:
        read_session(d)
    assert (e.value.position, e.value.reason, e.value.rule) == (len(hh.actions) + 1, "the hand is over", "R5")
    assert e.value.line == line_of(text, f'"{last}"', 1) and e.value.path == str(p)
    with pytest.raises(ReplayError) as alone:  # the same refusal as the hand replayed on its own
        HandHistory.from_toml(text).replay()
    assert str(alone.value) == str(e.value)
