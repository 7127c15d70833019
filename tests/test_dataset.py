"""Self-play datasets (issue 26, item 5): JSON lines of ``ramsli-hh/1``, reproducible, every hand replays."""

from __future__ import annotations

import hashlib
import json
import random
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ramsli import Hand, Rules
from ramsli.analysis.dataset import CARD_FILE, HANDS_FILE, generate, read_dataset, write_dataset
from ramsli.bots.base import make_bot, play_hand
from ramsli.cli import app
from ramsli.history import HandHistory, HistoryError
from ramsli.rules import PRESETS

runner = CliRunner()
BOTS = ["easy", "medium", "random", "random"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The same dataset twice (one process, two processes) and once with another seed."""
    base = tmp_path_factory.mktemp("datasets")
    one = write_dataset(base / "one", BOTS, 24, preset="general-rams", rules=["bete=4"], seed=7)
    two = write_dataset(base / "two", BOTS, 24, preset="general-rams", rules=["bete=4"], seed=7, jobs=2)
    other = write_dataset(base / "other", BOTS, 24, preset="general-rams", rules=["bete=4"], seed=8)
    return base, one, two, other


def test_same_seed_byte_identical_files(made):
    base, one, two, other = made
    a = (base / "one" / HANDS_FILE).read_bytes()
    assert a == (base / "two" / HANDS_FILE).read_bytes()
    assert (base / "one" / CARD_FILE).read_bytes() == (base / "two" / CARD_FILE).read_bytes()
    assert a != (base / "other" / HANDS_FILE).read_bytes()
    assert one.sha256 == two.sha256 == hashlib.sha256(a).hexdigest() != other.sha256
    assert one.size == len(a) and a.endswith(b"\n") and a.count(b"\n") == 24


def test_every_hand_replays_with_its_recorded_settlement_and_every_card(made):
    """R4, R5: each line re-applies every action and re-computes the settlement (replay refuses a
    difference); every seat's five cards are known (R4.3), none written ??; the seats are the bots."""
    base, one, _two, _other = made
    rules = Rules.preset("general-rams").with_assignments(["bete=4"])
    count = 0
    for i, hh in enumerate(read_dataset(base / "one" / HANDS_FILE)):
        hand = hh.replay()
        assert hand.is_over and hh.settlement is not None
        assert hh.rules == rules and hh.hand_number == i + 1
        assert all(len(c) == 5 and None not in c for c in hh.cards)
        assert hh.dealer == i % 4  # the deal passes to the left (R3.2)
        assert hh.names[(0 + i // 4) % 4] == "easy"  # bot 0 moves one seat left every round
        assert sorted(hh.names) == ["easy", "medium", "random#1", "random#2"]
        assert hh.stacks == (20, 20, 20, 20) and hh.pot == 0
        assert hand.total() == 80  # R3.4
        count += 1
    assert count == one.hands == 24
    assert sum(one.kinds.values()) == 24
    assert [b.hands for b in one.bots] == [24] * 4
    assert one.actions == sum(
        len(json.loads(line)["play"]["actions"]) for line in (base / "one" / HANDS_FILE).read_text().splitlines()
    )


def test_the_data_card(made):
    base, one, _two, _other = made
    card = (base / "one" / CARD_FILE).read_text(encoding="utf-8")
    assert card.startswith("# Ramsli self-play dataset")
    assert f"| SHA-256 | `{one.sha256}` |" in card
    assert "| hands | 24 |" in card
    assert "CC0 1.0 Universal" in card and "## Licence" in card
    assert (
        "ramsli dataset --hands 24 --bots easy,medium,random,random --preset general-rams --rule bete=4 --seed 7"
        in card
    )
    assert "| `medium` | `medium` | `montecarlo:samples=2,eps=0.2` | ramsli | 24 |" in card
    assert "general_rams = true" in card and "bete = 4" in card  # the rules as TOML
    for key in ("format", "hand", "seats", "seated", "dealer", "stacks", "pot", "rules", "deal", "play", "settlement"):
        assert f"| `{key}` |" in card


def test_lines_are_streamed_as_hands_finish():
    """Bounded memory: a line is handed on as soon as its work unit is done, not kept to the end."""
    seen: list[int] = []
    lines: list[str] = []
    generate(
        ["tips", "random"],
        Rules(),
        hands=6,
        seed=1,
        chunk=1,
        on_line=lines.append,
        progress=lambda k: seen.append(len(lines)),
    )
    assert seen == [1, 2, 3, 4, 5, 6]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(sorted(PRESETS)), n=st.integers(2, 6))
def test_to_data_is_the_toml_form_and_json_round_trips(seed, preset, n):
    rules = Rules.preset(preset)
    hand = Hand.new(rules, [rules.starting_stack] * n, dealer=seed % n, rng=random.Random(seed))
    play_hand(hand, {s: make_bot("random", seed=seed + s) for s in range(n)})
    hh = HandHistory.from_hand(hand, [f"P{s}" for s in range(n)], hand_number=3)
    assert hh.to_data() == tomllib.loads(hh.to_toml())
    assert list(hh.to_data()) == list(tomllib.loads(hh.to_toml()))
    back = HandHistory.from_json(hh.to_json())
    assert back == hh and back.to_toml() == hh.to_toml()
    assert back.replay().settlement == hand.settlement


def test_a_bad_line_is_refused_with_its_line_number(tmp_path):
    hand = Hand.new(Rules(), [20] * 3, dealer=0, rng=random.Random(1))
    play_hand(hand, {s: make_bot("random", seed=s) for s in range(3)})
    data = HandHistory.from_hand(hand, ["A", "B", "C"]).to_data()
    with pytest.raises(HistoryError, match="not JSON"):
        HandHistory.from_json("{nope")
    with pytest.raises(HistoryError, match="not list"):
        HandHistory.from_data([])
    bad = json.loads(json.dumps(data))
    bad["deal"]["p1"][0] = "ZZ"
    with pytest.raises(HistoryError, match="p1 card 1") as e:
        HandHistory.from_data(bad)
    assert e.value.line is None
    wrong = json.loads(json.dumps(data))
    wrong["settlement"]["carry_over"] += 1
    with pytest.raises(HistoryError, match="settlement does not match the replay"):
        HandHistory.from_data(wrong).replay()
    f = tmp_path / HANDS_FILE
    f.write_text(json.dumps(data) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    it = read_dataset(f)
    next(it)
    with pytest.raises(HistoryError, match=rf"{HANDS_FILE}:2: p1 card 1"):
        next(it)


def test_dataset_command(tmp_path):
    out = tmp_path / "ds"
    args = ["dataset", "--hands", "5", "--bots", "tips,random,random", "--out", str(out), "--seed", "3", "-q"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert f"wrote {out / HANDS_FILE} (5 hands" in r.output
    first = (out / HANDS_FILE).read_bytes()
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "holds a dataset already" in again.output
    assert (out / HANDS_FILE).read_bytes() == first  # nothing was touched
    forced = runner.invoke(app, [*args, "--force", "--jobs", "2"])
    assert forced.exit_code == 0, forced.output
    assert (out / HANDS_FILE).read_bytes() == first


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "tips"], "a table seats 2..6"),
        (["--bots", "tips,nosuch"], "Unknown bot 'nosuch'"),
        (["--hands", "0"], "--hands 0"),
        (["--preset", "nosuch"], "nosuch"),
        (["--rule", "players=4"], "option players=4"),
        (["--seed", "-2"], "--seed -2"),
        (["--jobs", "0"], "--jobs 0"),
    ],
)
def test_dataset_command_refuses_bad_input(tmp_path, args, message):
    r = runner.invoke(app, ["dataset", "--bots", "tips,random", "--hands", "2", "--out", str(tmp_path / "d"), *args])
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert not (tmp_path / "d").exists()


def test_dataset_command_refuses_a_file_or_a_missing_parent(tmp_path):
    f = tmp_path / "file"
    f.write_text("x", encoding="utf-8")
    r = runner.invoke(app, ["dataset", "--hands", "2", "--bots", "tips,random", "--out", str(f)])
    assert r.exit_code == 2 and "is a file" in r.output
    r = runner.invoke(app, ["dataset", "--hands", "2", "--bots", "tips,random", "--out", str(tmp_path / "a" / "b")])
    assert r.exit_code == 2 and "does not exist" in r.output
