"""``ramsli play --plain`` (issue #3.5) and saving/resuming (issue #3.4), driven by piped input."""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ramsli import Rules
from ramsli.cli import app
from ramsli.commands import play as play_cmd
from ramsli.frontends import i18n
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.plain import ECHO_MAX, PlainGame, _Reply, parse_command
from ramsli.frontends.storage import SaveError, SaveFolder
from ramsli.hand import Phase

from helpers import saved_session

runner = CliRunner()
BAD = "xyz\nplay ZZ\nwhy\ntarget 9\nplay 9\n"
CYCLE = "in\n1\n2\n3\n4\n5\n" * 150  # always makes progress: some card 1..5 is legal (R4.10)


def _args(tmp_path, *extra):
    return [
        "play",
        "--plain",
        "--seed",
        "7",
        "--players",
        "3",
        "--bots",
        "random",
        "--name",
        "Tess",
        "--rule",
        "end=hands:3",
        "--speed",
        "0",
        "--lang",
        "en",
        "--data-dir",
        str(tmp_path),
        *extra,
    ]


pytestmark = pytest.mark.usefixtures("english")


def test_whole_session_with_refused_input_then_resume(tmp_path):
    r = runner.invoke(app, _args(tmp_path), input=BAD + CYCLE)
    out = r.output
    assert r.exit_code == 0, out
    assert "Unknown command 'xyz'" in out
    assert "'ZZ' is not a card" in out and "(R1.6)" not in out  # the rule id is a detail (issue #12) ...
    assert "  R1.6 — how a card is written: rank, then suit" in out  # ... shown by why
    assert "Write target and a number of tricks from 2 to 5" in out
    assert "There is no card number 9" in out
    assert "Not allowed: " in out and "(R4." not in out  # e.g. "in" during play; the rule id only after why
    assert "The session is over: the agreed number of hands is played." in out
    assert "3 hands played." in out
    saved = saved_session(tmp_path)
    assert saved["hands_played"] == 3 and saved["end_reason"] == "hands"
    assert sum(saved["stacks"]) + saved["pot"] == 60  # R3.4
    histories = sorted((tmp_path / "sessions" / saved["session_id"]).glob("hand-*.toml"))
    assert [h.name for h in histories] == ["hand-0001.toml", "hand-0002.toml", "hand-0003.toml"]
    assert 'seats = ["Tess", "Anna", "Bruno"]' in histories[0].read_text(encoding="utf-8")
    # the same seed and input give the same session
    r2 = runner.invoke(app, _args(tmp_path / "again"), input=BAD + CYCLE)
    assert r2.output == out
    # resuming the ended session shows the same standings, stacks intact
    r3 = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)])
    assert r3.exit_code == 0
    standings = out[out.index("The session is over") :].strip().splitlines()
    for line in standings:
        assert line in r3.output
    assert saved_session(tmp_path)["stacks"] == saved["stacks"]


def test_eof_mid_session_saves_and_resume_continues(tmp_path):
    r = runner.invoke(app, _args(tmp_path), input=CYCLE[:60])  # input runs out during a hand: quit, saved
    assert r.exit_code == 0
    assert f"Saved. Continue later with: ramsli play --resume --data-dir {tmp_path}" in r.output
    saved = saved_session(tmp_path)
    k = saved["hands_played"]
    assert k < 3 and saved["end_reason"] is None and saved["hand_actions"]  # in the middle of hand k+1
    assert sum(saved["stacks"]) + saved["pot"] == 60
    if k:  # the stacks saved are those after the last finished hand (the hand is dealt from them)
        last = [line for line in r.output.splitlines() if line.startswith("Stacks: ")][k - 1]
        assert last == "Stacks: " + ", ".join(
            f"{'you' if s == saved['human'] else n} {v}"  # the player: "you"
            for s, (n, v) in enumerate(zip(saved["names"], saved["stacks"]))
        )
    r2 = runner.invoke(app, ["play", "--plain", "--resume", "--speed", "0", "--data-dir", str(tmp_path)], input=CYCLE)
    assert r2.exit_code == 0, r2.output
    assert f"Resuming hand {k + 1} where it was left." in r2.output
    saved = saved_session(tmp_path)
    assert saved["hands_played"] == 3 and saved["end_reason"] == "hands" and saved["hand_actions"] is None
    assert sum(saved["stacks"]) + saved["pot"] == 60


def _cut_at_human_actions(text: str, n: int) -> str:
    """The first ``n`` lines of input (each CYCLE line is one answer)."""
    return "".join(text.splitlines(keepends=True)[:n])


@pytest.mark.parametrize("answers", [7, 10, 11])  # hand 1 is a walkover; these stop in hand 2
def test_resume_continues_the_hand_in_the_middle_no_take_back(tmp_path, answers):
    """Issue #3.4: quit mid-hand, resume: the same cards, tricks and declarations, the declaration
    cannot be changed, and the session ends as an uninterrupted one with the same input does."""

    def args(d):
        return [
            "play",
            "--plain",
            "--seed",
            "11",
            "--players",
            "4",
            "--bots",
            "random",
            "--name",
            "Tess",
            "--rule",
            "end=hands:2",
            "--speed",
            "0",
            "--lang",
            "en",
            "--data-dir",
            str(d),
        ]

    whole = runner.invoke(app, args(tmp_path / "whole"), input=CYCLE)
    assert whole.exit_code == 0, whole.output
    part = runner.invoke(app, args(tmp_path / "cut"), input=_cut_at_human_actions(CYCLE, answers))
    assert part.exit_code == 0 and "Saved." in part.output
    saved = saved_session(tmp_path / "cut")
    k = saved["hands_played"]
    assert k < 2 and saved["hand_actions"]
    assert "p1 in" in saved["hand_actions"]
    # what the player saw before quitting: the deal, and every action so far in hand k+1
    before = part.output[part.output.rindex(f"\nHand {k + 1} of 2") :].splitlines()
    cards = next(line for line in before if line.startswith("Your cards: "))
    acted = [line for line in before if re.match(r"^(Anna|Bruno|Carla|You|Tess)\b", line) or "takes trick" in line]
    # trying to change the declaration after resuming is refused (R4.5): no take-back
    rest = _cut_at_human_actions(CYCLE, 10**6)[len(_cut_at_human_actions(CYCLE, answers)) :]
    res = runner.invoke(
        app,
        ["play", "--plain", "--resume", "--lang", "en", "--speed", "0", "--data-dir", str(tmp_path / "cut")],
        input="out\n" + rest,
    )
    assert res.exit_code == 0, res.output
    out = res.output
    assert f"Resuming hand {k + 1} where it was left." in out
    head = out[: out.index("Your cards: ")]
    for line in acted:  # the declarations, plays and tricks already made are shown again
        assert line.strip() in head, line
    first_cards = next(line for line in out.splitlines() if line.startswith("Your cards: "))
    played = [c for c in re.findall(r"You play (\S+)", part.output)]
    left = [c.split(" ", 1)[1].replace(" (not playable)", "") for c in cards[len("Your cards: ") :].split(" · ")]
    assert [c for c in left if c not in played] == [
        c.split(" ", 1)[1].replace(" (not playable)", "") for c in first_cards[len("Your cards: ") :].split(" · ")
    ]
    assert "Not allowed: " in out  # "out" after "in" (or during play) is refused
    assert (
        "p1 out" not in saved_session(tmp_path / "cut")["hand_actions"]
        if saved_session(tmp_path / "cut")["hand_actions"]
        else True
    )
    s_whole, s_cut = saved_session(tmp_path / "whole"), saved_session(tmp_path / "cut")
    assert s_cut["stacks"] == s_whole["stacks"] and s_cut["pot"] == s_whole["pot"]  # as if never interrupted
    assert sum(s_cut["stacks"]) + s_cut["pot"] == 80  # R3.4


def test_a_saved_action_that_does_not_fit_the_deal_is_a_corrupt_save(tmp_path):
    runner.invoke(app, _args(tmp_path), input="in\nquit\n")
    d = saved_session(tmp_path)
    assert d["hand_actions"]
    d["hand_actions"] = ["p1 pl AS"] + d["hand_actions"]  # a play before the declarations: R4.12 refuses it
    text = json.dumps(d)
    (tmp_path / "session.json").write_text(text, encoding="utf-8")
    r = runner.invoke(app, _plain(tmp_path, "--resume"), input="quit\n")
    assert r.exit_code == 2 and "cannot be used: " in r.output and "saved action 1 'p1 pl AS'" in r.output
    assert (tmp_path / "session.json").read_text(encoding="utf-8") == text  # never rewritten
    d["hand_actions"] = ["p1 fly"]
    (tmp_path / "session.json").write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(SaveError, match="'hand_actions' entry 1 'p1 fly' is not an action"):
        SaveFolder(tmp_path).load()


def test_deeply_nested_save_is_a_save_error_and_is_set_aside(tmp_path):
    (tmp_path / "session.json").write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    with pytest.raises(SaveError, match="nested too deeply"):
        SaveFolder(tmp_path).load()
    r = runner.invoke(app, _plain(tmp_path, "--resume"), input="quit\n")
    assert r.exit_code == 2 and "nested too deeply" in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    r = runner.invoke(app, _plain(tmp_path, "--bots", "random"), input="quit\n")  # a new session sets it aside
    assert r.exit_code == 0, r.output
    assert (tmp_path / "session.json.broken-1").stat().st_size == 200000


def test_resume_says_which_options_are_ignored(tmp_path):
    runner.invoke(app, _args(tmp_path), input="quit\n")
    r = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--resume",
            "--lang",
            "en",
            "--data-dir",
            str(tmp_path),
            "--players",
            "4",
            "--seed",
            "3",
            "--rule",
            "bete=9",
            "--preset",
            "joker",
        ],
        input="quit\n",
    )
    assert r.exit_code == 0, r.output
    assert "Ignored with --resume: --players, --preset, --rule, --seed (the saved session keeps its own)." in r.output
    assert saved_session(tmp_path)["seed"] == 7 and len(saved_session(tmp_path)["names"]) == 3
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)], input="quit\n")
    assert "Ignored" not in r.output


@pytest.mark.parametrize(
    "key,value,shown",
    [("lang", "sv", "'sv' is not known; using en"), ("suits", "xx", "'xx' is not known; using french")],
)
def test_unknown_language_or_suits_in_a_save_is_noticed(tmp_path, key, value, shown):
    d = _good_save(tmp_path)
    d[key] = value
    (tmp_path / "session.json").write_text(json.dumps(d), encoding="utf-8")
    r = runner.invoke(app, ["play", "--plain", "--resume", "--data-dir", str(tmp_path)], input="quit\n")
    assert r.exit_code == 0, r.output
    assert f"The saved {key} {shown}." in r.output


@pytest.mark.parametrize("seed", ["-1", str(2**63), "99999999999999999999999"])
def test_seed_out_of_range_is_refused(tmp_path, seed):
    r = runner.invoke(app, _plain(tmp_path, "--seed", seed), input="quit\n")
    assert r.exit_code == 2 and "allowed are whole numbers from 0 to 9,223,372,036,854,775,807" in _usage_error(r)
    assert not (tmp_path / "session.json").exists()
    assert (
        runner.invoke(app, _plain(tmp_path, "--bots", "random", "--seed", str(2**63 - 1)), input="quit\n").exit_code
        == 0
    )


def test_ante_above_the_starting_stack_is_refused_up_front(tmp_path):
    r = runner.invoke(app, _plain(tmp_path, "--bots", "random", "--rule", "ante=100"), input="quit\n")
    assert r.exit_code == 2 and "ante 100 is more than the starting stack 20" in _usage_error(r)
    assert "(R3.5)" in _usage_error(r) and not (tmp_path / "session.json").exists()
    assert runner.invoke(app, _plain(tmp_path, "--bots", "random", "--rule", "ante=20"), input="quit\n").exit_code == 0


def test_unprintable_command_and_last_card_prompt():
    t = LocalTable.new(Rules(), ["A", "B", "C"], ["random"] * 2, seed=1)
    t.start_hand()
    for line in ("\x00\x01", "\udcff\udcfe", "\x1b\x7f"):
        with pytest.raises(_Reply, match=re.escape("Unknown command (unprintable characters).")):
            parse_command(line, t)
    from ramsli.frontends.text import prompt_text

    hand = t.hand
    while not (hand.phase is Phase.PLAY and hand.to_act == 0 and len(hand.observe(0).cards) == 1):
        if hand.is_over:
            t = LocalTable.new(Rules(compulsory=True), ["A", "B", "C"], ["random"] * 2, seed=1)
            hand = t.start_hand()
            continue
        t.apply(hand.legal_actions()[0])
    assert prompt_text(hand.observe(0)) in (
        "Your turn: play your last card (1).",
        "Your lead: play your last card (1).",
    )


class _Policy(io.StringIO):
    """Answers from the state: in, then the first legal card; EOF once ``stop_after`` hands are played."""

    def __init__(self, stop_after: int | None = None) -> None:
        super().__init__()
        self.game: PlainGame | None = None
        self.stop_after = stop_after

    def readline(self, *a) -> str:
        t = self.game.table
        if self.stop_after is not None and t.hands_played >= self.stop_after:
            return ""
        legal = t.hand.legal_actions()
        if t.hand.phase is Phase.PLAY:
            obs = t.hand.observe(t.human)
            cards = T.hand_order(obs.cards, obs.trump)  # the numbers count the cards as shown (issue #12)
            return f"play {cards.index(legal[-1].card) + 1}\n"
        return {"in": "in", "out": "out", "pass": "pass", "gr": "gr"}.get(legal[0].kind, "pass") + "\n"


def _run(store, stop_after=None, table=None):
    table = table or LocalTable.new(
        Rules(end=["hands:4"]), ["Tess", "Anna", "Bruno", "Carla"], ["random"] * 3, seed=21, store=store
    )
    pol = _Policy(stop_after)
    game = PlainGame(table, stdin=pol, stdout=io.StringIO())
    pol.game = game
    game.run()
    return table, game.say.stream.getvalue()


def test_interrupted_session_ends_like_an_uninterrupted_one(tmp_path):
    whole, _ = _run(SaveFolder(tmp_path / "a"))
    assert whole.is_over and whole.hands_played == 4
    store = SaveFolder(tmp_path / "b")
    part, out = _run(store, stop_after=2)
    assert "Saved." in out and 2 <= store.load().hands_played < 4  # a hand without a question (walkover) may follow
    resumed, _ = _run(store, table=LocalTable.resume(store.load(), store))
    assert resumed.hands_played == 4
    assert resumed.session.stacks == whole.session.stacks
    assert resumed.session.pot == whole.session.pot


def test_corrupt_save_is_reported_and_can_be_set_aside(tmp_path, monkeypatch):
    (tmp_path / "session.json").write_text("{not json", encoding="utf-8")
    # not a terminal: no question, exit 2 (bad input) with what to do next, the file untouched
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)], input="y\n")
    assert r.exit_code == 2
    assert str(tmp_path / "session.json") in r.output and "not valid JSON" in r.output
    assert "Run ramsli play without --resume to set it aside and start a new session." in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert (tmp_path / "session.json").read_text(encoding="utf-8") == "{not json"
    monkeypatch.setattr(play_cmd, "_interactive", lambda: True)
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)], input="n\n")
    assert r.exit_code == 2 and (tmp_path / "session.json").read_text(encoding="utf-8") == "{not json"
    r = runner.invoke(app, _args(tmp_path, "--resume"), input="y\n" + CYCLE)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "session.json.broken-1").read_text(encoding="utf-8") == "{not json"
    assert f"set aside in {tmp_path / 'session.json.broken-1'}" in r.output
    assert saved_session(tmp_path)["hands_played"] == 3


@pytest.mark.parametrize(
    "mutate,problem",
    [
        (lambda d: d.update(stacks=[30, 20, 20]), "do not add up"),
        (lambda d: d.pop("names"), "'names' is missing"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.update(rules_toml="bete = -1"), "rules are not valid"),
    ],
)
def test_save_validation(tmp_path, mutate, problem):
    store = SaveFolder(tmp_path)
    LocalTable.new(Rules(), ["A", "B", "C"], ["random"] * 2, seed=1, store=store)
    d = saved_session(tmp_path)
    mutate(d)
    (tmp_path / "session.json").write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(SaveError, match=problem) as e:
        store.load()
    assert str(tmp_path / "session.json") in str(e.value)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=20))
def test_any_input_changes_nothing_unless_legal(line):
    t = LocalTable.new(Rules(), ["A", "B", "C"], ["random"] * 2, seed=3, store=None)
    hand = t.start_hand()
    while not t.human_to_act():
        t.apply(t.bot_action())
    before = hand.fingerprint()
    try:
        cmd, action = parse_command(line, t)
    except _Reply as r:
        assert str(r)  # a one-line reason
        assert "\n" not in str(r)
    else:
        if action is not None and t.why_illegal(action) is not None:
            assert hand.fingerprint() == before
    assert hand.fingerprint() == before  # parsing never changes the hand


def test_translated_commands_in_german(tmp_path):
    r = runner.invoke(
        app, _args(tmp_path, "--lang", "de", "--suits", "german"), input="hilfe\n" + "rein\nspiel 1\n2\n3\n4\n5\n" * 150
    )
    assert r.exit_code == 0, r.output
    assert "Befehle:" in r.output and "Trumpf:" in r.output and "Pott:" in r.output
    assert "Du: rein" in r.output  # the player in the second person (issue #12)
    assert "Die Runde ist zu Ende" in r.output
    assert any(s in r.output for s in ("Eichel", "Grün", "Herz", "Schellen"))


# -- found by the adversarial tester (each failed before the fix) -------------------------------------------------


def _plain(tmp_path, *extra):
    return ["play", "--plain", "--lang", "en", "--data-dir", str(tmp_path), *extra]


def _usage_error(r) -> str:
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)  # no traceback
    return " ".join(r.output.replace("│", " ").split())


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "-1", "10.5", "1e308"])
def test_speed_must_be_0_to_10_seconds(tmp_path, value):
    r = runner.invoke(app, _plain(tmp_path, "--seed", "1", "--speed", value), input="in\nquit\n")
    assert "allowed are 0 to 10 seconds" in _usage_error(r)
    assert not (tmp_path / "session.json").exists()  # nothing changed


@pytest.mark.parametrize("n", ["1", "7", "0"])
def test_players_outside_2_to_6_names_the_rule(tmp_path, n):
    r = runner.invoke(app, _plain(tmp_path, "--players", n))
    players = "player" if n == "1" else "players"  # "1 player", "0 players" (a plural message)
    assert f"{n} {players}: allowed are 2 to 6 (R2.1)" in _usage_error(r)


def test_data_dir_must_be_a_folder_and_not_empty(tmp_path, monkeypatch):
    f = tmp_path / "afile"
    f.write_text("x", encoding="utf-8")
    for where in (f, f / "sub"):
        out = _usage_error(runner.invoke(app, _plain(where), input="quit\n"))
        assert "is not a folder" in out and str(f) in "".join(out.split())  # rich may wrap the path
    assert f.read_text(encoding="utf-8") == "x"
    monkeypatch.chdir(tmp_path)
    for empty in ("", "  "):
        out = _usage_error(runner.invoke(app, ["play", "--plain", "--data-dir", empty], input="quit\n"))
        assert "the folder name is empty" in out
    assert not (tmp_path / "session.json").exists()


def _good_save(tmp_path, names=("Tess", "Anna", "Bruno", "Carla", "Dario"), **rules) -> dict:
    LocalTable.new(Rules(**rules), list(names), ["random"] * (len(names) - 1), seed=1, store=SaveFolder(tmp_path))
    return saved_session(tmp_path)


CORRUPT = [
    (lambda d: d.update(bots=[None, "nosuchbot", "random", "random", "random"]), "bad bot spec"),
    (lambda d: d.update(bots=[None] * 5), "exactly one null"),
    (lambda d: d.update(bots=["random"] * 5), "'human' must be a seat without a bot"),
    (lambda d: d.update(rules_toml=Rules(players=3).to_toml()), "players = 3 but 5 names"),
    (lambda d: d.update(seated=[1, 2, 3, 4], dealer=1), "seated or departed"),
    (lambda d: d.update(seated=[0, 0, 1, 2, 3, 4]), "each once"),
    (lambda d: d.update(hands_played=-1), "'hands_played' must be >= 0"),
    (lambda d: d.update(departed=[[9, 9]]), "'departed' entry [9, 9]"),
    (lambda d: d.update(departed=[[1, 0]]), "seated or departed"),
    (lambda d: d.update(end_reason="nonsense"), "'end_reason' must be null or one of bust, players"),
    (lambda d: d.update(elapsed=float("inf")), "'elapsed'"),
]


@pytest.mark.parametrize("mutate,problem", CORRUPT)
def test_corrupt_save_is_refused_and_never_rewritten(tmp_path, mutate, problem):
    d = _good_save(tmp_path)
    mutate(d)
    text = json.dumps(d)
    (tmp_path / "session.json").write_text(text, encoding="utf-8")
    with pytest.raises(SaveError, match=re.escape(problem)):
        SaveFolder(tmp_path).load()
    r = runner.invoke(app, _plain(tmp_path, "--resume"), input="in\n1\n2\nquit\n")
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "The saved session " in r.output and "cannot be used: " in r.output and problem in r.output
    assert (tmp_path / "session.json").read_text(encoding="utf-8") == text  # never rewritten


def test_resume_refuses_a_state_the_engine_refuses(tmp_path):
    """A save that passes the file checks but that Session.restore refuses goes the SaveError way too."""
    d = _good_save(tmp_path)
    d["rng_state"][0] = 99  # not a random state version: random.setstate refuses it
    text = json.dumps(d)
    (tmp_path / "session.json").write_text(text, encoding="utf-8")
    r = runner.invoke(app, _plain(tmp_path, "--resume"), input="quit\n")
    assert r.exit_code == 2 and "cannot be used: " in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert (tmp_path / "session.json").read_text(encoding="utf-8") == text


def test_a_bust_human_who_departed_is_a_valid_save(tmp_path):
    d = _good_save(tmp_path, names=("Tess", "Anna", "Bruno"), bust="leave")
    d.update(seated=[1, 2], dealer=1, departed=[[0, 2]], hands_played=2, stacks=[0, 30, 30])
    (tmp_path / "session.json").write_text(json.dumps(d), encoding="utf-8")
    assert SaveFolder(tmp_path).load().seated == [1, 2]


def _start_and_quit(tmp_path, seed="7"):
    r = runner.invoke(app, _args(tmp_path, "--seed", seed), input="in\n1\n2\n3\n4\n5\n" * 8 + "quit\n")
    assert r.exit_code == 0, r.output
    return saved_session(tmp_path), (tmp_path / "session.json").read_text(encoding="utf-8")


def test_new_session_without_resume_sets_the_old_one_aside_and_says_where(tmp_path):
    old, text = _start_and_quit(tmp_path)
    assert old["end_reason"] is None
    r = runner.invoke(app, _args(tmp_path), input="quit\n")  # same seed, same second: still nothing lost
    assert r.exit_code == 0, r.output
    me = old["stacks"][old["human"]]
    assert (
        f"A saved session (hand {old['hands_played'] + 1}, your stack {me}) exists: ramsli play --resume continues it."
    ) in r.output
    kept = tmp_path / "sessions" / old["session_id"] / "session.json"
    assert f"The saved session was set aside in {kept}." in r.output
    assert kept.read_text(encoding="utf-8") == text
    assert SaveFolder(kept.parent).load().stacks == old["stacks"]  # it can be resumed from there
    new = saved_session(tmp_path)
    assert new["session_id"] != old["session_id"] and new["hands_played"] == 0
    # a third session sets the second aside in its own folder: the first is not overwritten
    second = (tmp_path / "session.json").read_text(encoding="utf-8")
    r = runner.invoke(app, _args(tmp_path), input="quit\n")
    assert kept.read_text(encoding="utf-8") == text
    assert (tmp_path / "sessions" / new["session_id"] / "session.json").read_text(encoding="utf-8") == second


def test_new_session_asks_on_a_terminal(tmp_path, monkeypatch):
    old, text = _start_and_quit(tmp_path)
    monkeypatch.setattr(play_cmd, "_interactive", lambda: True)
    r = runner.invoke(app, _args(tmp_path), input="n\n" + "quit\n")  # no: continue the saved session
    assert r.exit_code == 0, r.output
    assert "Set it aside and start a new session?" in r.output
    assert f"Resuming hand {old['hands_played'] + 1} where it was left." in r.output
    assert saved_session(tmp_path)["session_id"] == old["session_id"]
    assert saved_session(tmp_path)["stacks"] == old["stacks"]
    r = runner.invoke(app, _args(tmp_path), input="y\n" + "quit\n")
    assert r.exit_code == 0, r.output
    kept = tmp_path / "sessions" / old["session_id"] / "session.json"
    assert f"set aside in {kept}" in r.output and SaveFolder(kept.parent).load().stacks == old["stacks"]


def test_bad_new_options_do_not_move_the_saved_session(tmp_path):
    _, text = _start_and_quit(tmp_path)
    r = runner.invoke(app, _args(tmp_path, "--bots", "nosuchbot"), input="quit\n")
    assert r.exit_code == 2
    assert (tmp_path / "session.json").read_text(encoding="utf-8") == text


def test_echoed_input_is_cleaned_and_cut():
    t = LocalTable.new(Rules(), ["A", "B", "C"], ["random"] * 2, seed=3, store=None)
    t.start_hand()
    for line in ("\x1b[31mevil\x00\x07" + "a" * 100, "\x1b]0;title\x07", "zz\u202e" + "b" * 60):
        with pytest.raises(_Reply) as e:
            parse_command(line, t)
        msg = str(e.value)
        assert not any(ord(c) < 32 or c in "\x7f\u202e" for c in msg), repr(msg)
        echoed = msg[msg.index("'") + 1 : msg.rindex("'")]
        assert len(echoed) <= ECHO_MAX
        if len(line) > ECHO_MAX:
            assert echoed.endswith("…")
    with pytest.raises(_Reply, match="is not a card") as e:
        parse_command("play Z\x1b" + "Z" * 80, t)
    assert "\x1b" not in str(e.value) and "…" in str(e.value)


@pytest.mark.parametrize("name", ["", "   ", "\x1b\x00"])
def test_empty_name_gets_the_default(tmp_path, monkeypatch, name):
    monkeypatch.setattr("ramsli.frontends.game.default_name", lambda: "Dflt")
    r = runner.invoke(
        app, _plain(tmp_path, "--seed", "1", "--players", "3", "--bots", "random", "--name", name), input="quit\n"
    )
    assert r.exit_code == 0, r.output
    assert "you are Dflt (p1)" in r.output
    assert saved_session(tmp_path)["names"][0] == "Dflt"


@pytest.mark.parametrize("bots", ["", "random,", ",random", "random,,random", " , "])
def test_empty_bot_specs_are_refused_with_the_bot_names(tmp_path, bots):
    out = _usage_error(runner.invoke(app, _plain(tmp_path, "--players", "3", "--bots", bots), input="quit\n"))
    assert "empty" in out and "allowed are random" in out
    assert not (tmp_path / "session.json").exists()


def test_own_moves_in_the_second_person(tmp_path):
    r = runner.invoke(app, _args(tmp_path, "--name", "You"), input=CYCLE)
    assert r.exit_code == 0, r.output
    assert "You play " in r.output and "You plays" not in r.output
    assert "Anna plays " in r.output  # the others in the third person
    r = runner.invoke(app, _args(tmp_path / "de", "--lang", "de"), input="rein\n1\n2\n3\n4\n5\n" * 150)
    assert "Du spielst " in r.output and "Tess spielt" not in r.output


def test_help_short_players_flag_and_data_dir_default(tmp_path):
    import platformdirs

    r = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    text = " ".join(r.output.replace("│", " ").split())
    assert "--players -P" in text and "KEY=VALUE" in text
    assert "default " + str(platformdirs.user_data_dir("ramsli")) in text
    assert "login name, or 'Player'" in text
    r = runner.invoke(
        app,
        _plain(tmp_path, "-P", "3", "--seed", "1", "--bots", "random", "--name", "Tess", "--rule", "end=hands:4"),
        input="quit\n",
    )
    assert r.exit_code == 0, r.output
    assert "3 players" in r.output and "Hand 1 of 4 — dealer: " in r.output  # R3.6 end in the title
    r = runner.invoke(app, _plain(tmp_path / "b", "-P", "3", "--seed", "1", "--bots", "random"), input="quit\n")
    assert "until a player is bust" in r.output  # no end condition: R3.5


@pytest.mark.parametrize(
    "lang,player", [("en", "Player"), ("de", "Spieler"), ("nl", "Speler"), ("it", "Giocatore"), ("fr", "Joueur")]
)
def test_default_name_without_a_login_name(monkeypatch, lang, player):
    from ramsli.frontends import game

    i18n.set_language(lang)
    monkeypatch.setattr(game.getpass, "getuser", lambda: "root")
    assert game.default_name() == player
    monkeypatch.setattr(game.getpass, "getuser", lambda: "tess")
    assert game.default_name() == "Tess"


@pytest.mark.parametrize(
    "extra,message",
    [
        (("--bots", "hardd"), "Unknown bot 'hardd'"),
        (("--bots", "random,random", "--players", "5"), "2 bots given for 4 other seats"),
        (("--preset", "nosuch"), "nosuch"),
        (("--rule", "bogus=1"), "bogus"),
    ],
)
def test_a_bad_option_is_refused_before_the_saved_session_is_mentioned(tmp_path, extra, message):
    """A tester saw the saved-session notice printed before ``--bots hardd`` (and a wrong number of bots,
    an unknown preset or rule) was refused: the notice promised a new session that never came. Now the
    bad option is the only thing said (exit 2), and the saved session is left where it was."""
    old, text = _start_and_quit(tmp_path)
    r = runner.invoke(app, _args(tmp_path, *extra), input="quit\n")
    assert r.exit_code == 2
    assert message in _usage_error(r)
    assert "A saved session" not in r.output
    assert (tmp_path / "session.json").read_text(encoding="utf-8") == text


def test_review_at_the_next_turn_gives_the_coachs_words_on_the_last_hand(tmp_path, monkeypatch):
    """Issue 23: ``review`` (or the player's word for it) at any prompt gives the coach's words on the
    player's own seat in the last finished hand; before any hand is finished it says so."""
    from ramsli.frontends import plain

    asked = []

    def fake_lines(hand, seat, lang, **kw):
        asked.append((seat, lang, hand.is_over, kw["names"]))
        return ["No marked decision in this hand (6 reviewed)."]

    monkeypatch.setattr(plain, "review_lines", fake_lines)
    r = runner.invoke(app, _args(tmp_path), input="review\n" + "review\nin\n1\n2\n3\n4\n5\n" * 150)
    out = r.output
    assert r.exit_code == 0, out
    assert "No hand is finished yet: the coach reviews finished hands." in out
    assert "Type review at your next turn for the coach's review of this hand." in out
    assert "The coach on hand 1:" in out and "No marked decision in this hand (6 reviewed)." in out
    assert asked and all(seat == 0 and lang == "en" and over for seat, lang, over, _n in asked)
    assert asked[0][3] == ["Tess", "Anna", "Bruno"]
    r = runner.invoke(app, _args(tmp_path / "de", "--lang", "de"), input="analyse\n" + CYCLE)
    assert "Noch ist kein Spiel zu Ende" in r.output


def test_last_hand_review_is_the_coachs_own_lines(tmp_path):
    """The real coach on the player's seat of a played hand: one line per marked decision or one
    saying there is none, in the player's language (R7: its own cards only)."""
    from ramsli.bots.base import make_bot
    from ramsli.frontends.plain import last_hand_review

    table = LocalTable.new(Rules(), ["Tess", "Anna", "Bruno"], ["random", "random"], seed=3, store=SaveFolder(tmp_path))
    table.start_hand()
    me = make_bot("random", seed=1)
    while not table.hand.is_over:
        table.apply(me.act(table.hand.observe(table.human)) if table.human_to_act() else table.bot_action())
    table.finish_hand()
    title, lines = last_hand_review(table)
    assert title == "The coach on hand 1" and lines
    assert all(line.split(" — ")[0] in ("Blunder", "Mistake", "Inaccuracy") for line in lines) or (
        len(lines) == 1 and lines[0].startswith("No marked decision")
    )


def test_the_hands_opening_lines_are_said_once_when_the_player_acts_first(tmp_path):
    """R4.5: with the dealer on the player's right the player declares first; the pot line and
    the cards of the hand's opening are not repeated before the first prompt (``state`` repeats them)."""
    args = ["play", "--plain", "--seed", "12", "--bots", "random", "--lang", "en", "--data-dir", str(tmp_path)]
    r = runner.invoke(app, args, input="state\nquit\n")
    assert r.exit_code == 0, r.output
    first, second = r.output.split("Declare: in or out?")[:2]
    assert "Hand 1 — dealer: Dario" in first  # p5 deals: p1, the player, declares first
    assert first.count("Ramsli — 5 players") == 1 and first.count("Rules: ") == 1
    assert first.count("Pot: 5") == 1 and first.count("Your cards: ") == 1
    assert "p5 Dario" in first  # the table is still shown
    assert second.count("Pot: 5") == 1 and second.count("Your cards: ") == 1  # asked for: shown again
