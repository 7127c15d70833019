"""``ramsli play --plain`` (issue #3.5) and saving/resuming (issue #3.4), driven by piped input."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from ramsli import Rules
from ramsli.cli import app
from ramsli.frontends import i18n
from ramsli.frontends.game import Table
from ramsli.frontends.plain import PlainGame, _Reply, parse_command
from ramsli.frontends.storage import SaveError, Store
from ramsli.hand import Phase

runner = CliRunner()
BAD = "xyz\nplay ZZ\ntarget 9\nplay 9\n"
CYCLE = "in\n1\n2\n3\n4\n5\n" * 150  # always makes progress: some card 1..5 is legal (R4.10)


def _args(tmp_path, *extra):
    return ["play", "--plain", "--seed", "7", "--players", "3", "--bots", "random", "--name", "Tess",
            "--rule", "end=hands:3", "--speed", "0", "--lang", "en", "--data-dir", str(tmp_path), *extra]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def _saved(tmp_path) -> dict:
    return json.loads((tmp_path / "session.json").read_text(encoding="utf-8"))


def test_whole_session_with_refused_input_then_resume(tmp_path):
    r = runner.invoke(app, _args(tmp_path), input=BAD + CYCLE)
    out = r.output
    assert r.exit_code == 0, out
    assert "Unknown command 'xyz'" in out
    assert "'ZZ' is not a card" in out and "(R1.6)" in out
    assert "Write target and a number of tricks from 2 to 5" in out
    assert "There is no card number 9" in out
    assert "Not allowed: " in out and "(R4." in out  # e.g. "in" during play, or a card that does not follow suit
    assert "The session is over: the agreed number of hands is played (R3.6)." in out
    assert "3 hands played." in out
    saved = _saved(tmp_path)
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
    standings = out[out.index("The session is over"):].strip().splitlines()
    for line in standings:
        assert line in r3.output
    assert _saved(tmp_path)["stacks"] == saved["stacks"]


def test_eof_mid_session_saves_and_resume_continues(tmp_path):
    r = runner.invoke(app, _args(tmp_path), input=CYCLE[:60])  # input runs out during a hand: quit, saved
    assert r.exit_code == 0
    assert "Saved. Continue later with: ramsli play --resume" in r.output
    saved = _saved(tmp_path)
    k = saved["hands_played"]
    assert k < 3 and saved["end_reason"] is None
    assert sum(saved["stacks"]) + saved["pot"] == 60
    if k:  # the stacks saved are those after the last finished hand
        last = [line for line in r.output.splitlines() if line.startswith("Stacks: ")][k - 1]
        assert last == "Stacks: " + ", ".join(f"{n} {v}" for n, v in zip(saved["names"], saved["stacks"]))
    # the interrupted hand is dealt again, the same cards
    head = r.output.splitlines()
    hand_lines = [i for i, line in enumerate(head) if line.startswith(f"Hand {k + 1} ")]
    deal = head[hand_lines[-1]:hand_lines[-1] + 3]
    r2 = runner.invoke(app, ["play", "--plain", "--resume", "--speed", "0", "--data-dir", str(tmp_path)],
                       input=CYCLE)
    assert r2.exit_code == 0, r2.output
    assert f"Resuming the session after hand {k}." in r2.output
    lines = r2.output.splitlines()
    i = lines.index(deal[0])
    assert lines[i:i + 3] == deal
    saved = _saved(tmp_path)
    assert saved["hands_played"] == 3 and saved["end_reason"] == "hands"
    assert sum(saved["stacks"]) + saved["pot"] == 60


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
            cards = t.hand.observe(t.human).cards
            return f"play {cards.index(legal[-1].card) + 1}\n"
        return {"in": "in", "out": "out", "pass": "pass", "gr": "gr"}.get(legal[0].kind, "pass") + "\n"


def _run(store, stop_after=None, table=None):
    table = table or Table.new(Rules(end=["hands:4"]), ["Tess", "Anna", "Bruno", "Carla"], ["random"] * 3,
                               seed=21, store=store)
    pol = _Policy(stop_after)
    game = PlainGame(table, stdin=pol, stdout=io.StringIO())
    pol.game = game
    game.run()
    return table, game.say.stream.getvalue()


def test_interrupted_session_ends_like_an_uninterrupted_one(tmp_path):
    whole, _ = _run(Store(tmp_path / "a"))
    assert whole.is_over and whole.hands_played == 4
    store = Store(tmp_path / "b")
    part, out = _run(store, stop_after=2)
    assert "Saved." in out and 2 <= store.load().hands_played < 4  # a hand without a question (walkover) may follow
    resumed, _ = _run(store, table=Table.resume(store.load(), store))
    assert resumed.hands_played == 4
    assert resumed.session.stacks == whole.session.stacks
    assert resumed.session.pot == whole.session.pot


def test_corrupt_save_is_reported_and_can_be_set_aside(tmp_path):
    (tmp_path / "session.json").write_text("{not json", encoding="utf-8")
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)], input="n\n")
    assert r.exit_code == 1
    assert str(tmp_path / "session.json") in r.output and "not valid JSON" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    r = runner.invoke(app, _args(tmp_path, "--resume"), input="y\n" + CYCLE)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "session.json.broken-1").read_text(encoding="utf-8") == "{not json"
    assert _saved(tmp_path)["hands_played"] == 3


@pytest.mark.parametrize("mutate,problem", [
    (lambda d: d.update(stacks=[30, 20, 20]), "do not add up"),
    (lambda d: d.pop("names"), "'names' is missing"),
    (lambda d: d.update(version=99), "version 99"),
    (lambda d: d.update(rules_toml="bete = -1"), "rules are not valid"),
])
def test_save_validation(tmp_path, mutate, problem):
    store = Store(tmp_path)
    Table.new(Rules(), ["A", "B", "C"], ["random"] * 2, seed=1, store=store)
    d = _saved(tmp_path)
    mutate(d)
    (tmp_path / "session.json").write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(SaveError, match=problem) as e:
        store.load()
    assert str(tmp_path / "session.json") in str(e.value)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=20))
def test_any_input_changes_nothing_unless_legal(line):
    t = Table.new(Rules(), ["A", "B", "C"], ["random"] * 2, seed=3, store=None)
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
    r = runner.invoke(app, _args(tmp_path, "--lang", "de", "--suits", "german"),
                      input="hilfe\n" + "rein\nspiel 1\n2\n3\n4\n5\n" * 150)
    assert r.exit_code == 0, r.output
    assert "Befehle:" in r.output and "Trumpf:" in r.output and "Pott:" in r.output
    assert "Tess: rein" in r.output
    assert "Die Runde ist zu Ende" in r.output
    assert any(s in r.output for s in ("Eichel", "Grün", "Herz", "Schellen"))
