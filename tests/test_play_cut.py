"""R4.2 for people (issue 12): a human cutter chooses the cut point, or lets it be random; bots and
automatic tables cut at random (seeded). The chosen cut is saved with the hand, so ``--resume``
after a kill at the question or after it never changes the deal."""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import subprocess
import sys

import pytest
from textual.widgets import Static
from typer.testing import CliRunner

from ramsli import Rules, Session
from ramsli.cli import app
from ramsli.frontends import i18n
from ramsli.frontends.cut import CutError, parse_cut
from ramsli.frontends.game import LocalTable
from ramsli.frontends.plain import PlainGame
from ramsli.frontends.storage import SavedSession, SaveError, SaveFolder
from ramsli.frontends.tui import CutScreen, RamsliApp
from ramsli.hand import Hand
from ramsli.seats import right_of

from helpers import SRC, saved_session, scaled

runner = CliRunner()
NAMES = ["Tess", "Anna", "Bruno"]
#: seed 1 with three players: Anna (p2) deals the first hand, so Tess (p1, the human) cuts it
SEED = 1
QUESTION = "lift how many cards from the top? 1 to 31, or Enter for a random cut."


pytestmark = pytest.mark.usefixtures("english")


def _table(tmp_path, **kw) -> LocalTable:
    return LocalTable.new(Rules(end=["hands:3"]), NAMES, ["random"] * 2, seed=SEED, store=SaveFolder(tmp_path), **kw)


# -- the engine: the caller's cut point, no I/O ------------------------------------------------------


def test_R4_2_the_cutter_sits_to_the_dealers_right():
    assert right_of(1, range(3), 3) == 0 and right_of(0, range(3), 3) == 2
    assert right_of(0, (0, 2, 3), 5) == 3  # seats 1 and 4 left bust (R3.5): skipped
    assert right_of(1, (0, 1), 2) == 0  # two players: the other one
    s = Session(Rules(), NAMES, seed=SEED)
    assert (s.dealer, s.cutter) == (1, 0)
    assert s.cut_points == range(1, 32)
    assert Session(Rules.preset("joker"), NAMES, seed=1).cut_points == range(1, 34)  # 34 cards with the jokers


def test_R4_2_a_chosen_cut_changes_this_deal_only():
    rules = Rules()
    a, b = random.Random(5), random.Random(5)
    random_hand = Hand.new(rules, [20] * 3, 0, a)
    same = Hand.new(rules, [20] * 3, 0, b, cut=random_hand.cut)
    assert same.dealt == random_hand.dealt  # the same shuffle: only the cut point is the cutter's
    assert a.getstate() == b.getstate()  # the random point was drawn anyway: the next shuffles are the same
    other = Hand.new(rules, [20] * 3, 0, random.Random(5), cut=random_hand.cut % 31 + 1)
    assert other.cut == random_hand.cut % 31 + 1 and other.dealt != random_hand.dealt
    s1, s2 = Session(rules, NAMES, seed=3), Session(rules, NAMES, seed=3)
    h1, h2 = s1.start_hand(), s2.start_hand(cut=5 if s1.hand.cut != 5 else 6)
    assert h1.dealt != h2.dealt
    for s in (s1, s2):
        while s.hand is not None:
            s.apply(s.hand.legal_actions()[0])
    assert s1.start_hand().dealt == s2.start_hand().dealt  # hand 2: the same deal again


@pytest.mark.parametrize("cut", [0, 32, -1, 1.0, True, "5"])
def test_R4_2_a_cut_outside_the_deck_is_refused_and_nothing_changes(cut):
    with pytest.raises(ValueError, match=r"1\.\.31 \(R4\.2\)"):
        Hand.new(Rules(), [20] * 3, 0, seed=1, cut=cut)
    s = Session(Rules(), NAMES, seed=SEED)
    state = s.rng.getstate()
    with pytest.raises(ValueError, match=r"must leave at least one card in each packet: 1\.\.31 \(R4\.2\)"):
        s.start_hand(cut=cut)
    assert s.hand is None and s.rng.getstate() == state and s.stacks == [20] * 3


def test_bots_and_automatic_tables_still_cut_at_random():
    t = LocalTable.new(Rules(), ["Tess", "Anna", "Bruno"], ["random"] * 2, seed=SEED)
    assert t.human_cuts()
    hand = t.start_hand()  # no cut given: the seeded random point, as Session.start_hand deals it
    assert hand.dealt == Session(Rules(), NAMES, seed=SEED).start_hand().dealt
    with pytest.raises(ValueError, match=r"1\.\.31"):
        LocalTable.new(Rules(), NAMES, ["random"] * 2, seed=SEED).start_hand(cut=40)


# -- the answer ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,cut", [("12", 12), (" 1 ", 1), ("31", 31), ("", None), ("random", None), ("R", None)])
def test_parse_cut_reads_a_number_or_random(text, cut):
    assert parse_cut(text, range(1, 32)) == cut


@pytest.mark.parametrize("text", ["0", "32", "-3", "x", "1.5", "²", "9" * 5000, "in", "\x1b[31m7"])
def test_parse_cut_refuses_anything_else_with_the_range(text):
    with pytest.raises(CutError) as e:
        parse_cut(text, range(1, 32))
    msg = str(e.value)
    assert "from 1 to 31" in msg and "Enter for a random cut" in msg and "\x1b" not in msg and len(msg) < 200


def test_random_word_and_question_in_each_language():
    i18n.set_language("de")
    assert parse_cut("zufällig", range(1, 32)) is None and parse_cut("random", range(1, 32)) is None
    with pytest.raises(CutError, match="von 1 bis 31"):
        parse_cut("40", range(1, 32))
    for lang, word in (("nl", "willekeurig"), ("it", "caso"), ("fr", "hasard"), ("fr", "au hasard")):
        i18n.set_language(lang)
        assert parse_cut(word, range(1, 32)) is None


# -- plain mode ---------------------------------------------------------------------------------------


def test_plain_asks_the_human_cutter_refuses_bad_answers_and_saves_the_cut(tmp_path):
    t = _table(tmp_path)
    out = io.StringIO()
    PlainGame(t, io.StringIO("abc\n0\n40\n12\nquit\n"), out, ask_cut=True).run()
    text = out.getvalue()
    assert "You cut the deck for Anna: " + QUESTION in text
    assert "'abc' is not a cut point: give a whole number from 1 to 31" in text
    assert "'0' is not a cut point" in text and "'40' is not a cut point" in text
    assert "You cut: 12 cards lifted." in text
    saved = saved_session(tmp_path)
    assert saved["version"] == 2 and saved["hand_cut"] == 12 and saved["hand_actions"] is not None
    dealt = Session(Rules(end=["hands:3"]), NAMES, seed=SEED).start_hand(cut=12).dealt
    again = LocalTable.resume(SaveFolder(tmp_path).load(), SaveFolder(tmp_path))
    assert again.hand.cut == 12 and again.hand.dealt == dealt  # --resume: the same cards


def test_plain_enter_lets_the_cut_be_random_and_quit_at_the_question_saves_between_hands(tmp_path):
    t = _table(tmp_path / "a")
    out = io.StringIO()
    PlainGame(t, io.StringIO("\nquit\n"), out, ask_cut=True).run()
    assert "Random cut: " in out.getvalue()
    assert saved_session(tmp_path / "a")["hand_cut"] is None
    random_dealt = Session(Rules(end=["hands:3"]), NAMES, seed=SEED).start_hand().dealt
    assert LocalTable.resume(SaveFolder(tmp_path / "a").load(), None).hand.dealt == random_dealt
    t = _table(tmp_path / "b")
    PlainGame(t, io.StringIO("quit\n"), io.StringIO(), ask_cut=True).run()
    saved = saved_session(tmp_path / "b")
    assert saved["hand_actions"] is None and saved["hand_cut"] is None and saved["hands_played"] == 0


def test_plain_from_a_pipe_does_not_ask_unless_told(tmp_path):
    r = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--seed",
            str(SEED),
            "--players",
            "3",
            "--bots",
            "random",
            "--name",
            "Tess",
            "--lang",
            "en",
            "--data-dir",
            str(tmp_path / "a"),
        ],
        input="quit\n",
    )
    assert r.exit_code == 0 and QUESTION not in r.output
    r = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--seed",
            str(SEED),
            "--players",
            "3",
            "--bots",
            "random",
            "--name",
            "Tess",
            "--lang",
            "de",
            "--cut",
            "ask",
            "--data-dir",
            str(tmp_path / "b"),
        ],
        input="99\n9\nquit\n",
    )
    assert r.exit_code == 0, r.output
    assert "Du hebst für Anna ab" in r.output and "von 1 bis 31" in r.output
    assert saved_session(tmp_path / "b")["hand_cut"] == 9


def _spawn(tmp_path, *extra):
    env = dict(os.environ, PYTHONPATH=str(SRC))
    args = [
        sys.executable,
        "-m",
        "ramsli.cli",
        "play",
        "--plain",
        "--seed",
        str(SEED),
        "--players",
        "3",
        "--bots",
        "random",
        "--name",
        "Tess",
        "--lang",
        "en",
        "--cut",
        "ask",
        "--data-dir",
        str(tmp_path),
        *extra,
    ]
    return subprocess.Popen(
        args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _read_until(proc, marker: str) -> str:
    seen = []
    while True:
        line = proc.stdout.readline()
        assert line, "".join(seen) + proc.stderr.read()
        seen.append(line)
        if marker in line:
            return "".join(seen)


def test_a_kill_at_the_question_or_after_it_never_changes_the_deal(tmp_path):
    """SIGKILL at the cut question: --resume asks again (nothing was chosen); SIGKILL after the answer:
    --resume deals the same cards and does not ask again."""
    proc = _spawn(tmp_path)
    try:
        _read_until(proc, QUESTION)
        proc.kill()
        proc.wait(timeout=scaled(30))
        assert saved_session(tmp_path)["hand_actions"] is None  # between hands: nothing to take back
        proc = _spawn(tmp_path, "--resume")
        _read_until(proc, QUESTION)
        proc.stdin.write("7\n")
        proc.stdin.flush()
        _read_until(proc, "You cut: 7 cards lifted.")
        proc.kill()
        proc.wait(timeout=scaled(30))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    saved = saved_session(tmp_path)
    assert saved["hand_cut"] == 7 and saved["hand_actions"] is not None
    dealt = Session(Rules(), NAMES, seed=SEED).start_hand(cut=7).dealt
    for _ in range(2):  # every resume: the same hand
        r = runner.invoke(
            app, ["play", "--plain", "--resume", "--cut", "ask", "--data-dir", str(tmp_path)], input="quit\n"
        )
        assert r.exit_code == 0, r.output
        assert QUESTION not in r.output and "Resuming hand 1 where it was left." in r.output
        assert LocalTable.resume(SaveFolder(tmp_path).load(), None).hand.dealt == dealt


# -- saves ----------------------------------------------------------------------------------------------


def test_a_version_1_save_without_hand_cut_still_loads(tmp_path):
    t = _table(tmp_path)
    t.start_hand()
    data = saved_session(tmp_path)
    data["version"] = 1
    del data["hand_cut"]
    (tmp_path / "session.json").write_text(json.dumps(data), encoding="utf-8")
    saved = SaveFolder(tmp_path).load()
    assert saved.hand_cut is None and saved.hand_actions == []
    assert LocalTable.resume(saved, None).hand.dealt == t.hand.dealt


@pytest.mark.parametrize(
    "edit,problem",
    [
        (lambda d: d.update(hand_cut=32), "'hand_cut' must be null or a cut point 1..31 (R4.2)"),
        (lambda d: d.update(hand_cut=0), "'hand_cut' must be null or a cut point 1..31 (R4.2)"),
        (lambda d: d.update(hand_cut="5"), "'hand_cut' must be null or a cut point 1..31 (R4.2)"),
        (lambda d: d.update(hand_cut=True), "'hand_cut' must be null or a cut point 1..31 (R4.2)"),
        (lambda d: d.update(hand_cut=5, hand_actions=None), "'hand_cut' is set but no hand is in progress"),
        (lambda d: d.pop("hand_cut"), "'hand_cut' is missing: a version-2 save names the cut"),  # else a random cut
    ],
)
def test_a_bad_hand_cut_is_refused(tmp_path, edit, problem):
    t = _table(tmp_path)
    t.start_hand(cut=12)
    data = saved_session(tmp_path)
    edit(data)
    with pytest.raises(
        SaveError, match="cannot be used: " + problem.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")
    ):
        SavedSession.from_json(json.dumps(data), tmp_path / "session.json")


# -- the full-screen app --------------------------------------------------------------------------------


def test_app_asks_the_human_cutter_refuses_a_bad_number_and_deals_at_the_chosen_point(tmp_path):
    t = _table(tmp_path)
    t.ask_cut = True  # as ramsli play sets it (not --cut random)
    app_ = RamsliApp(t, speed=0)
    seen = {}

    async def run():
        async with app_.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            assert isinstance(app_.screen, CutScreen) and t.hand is None
            assert QUESTION in str(app_.screen.query_one("#cut-question", Static).content)
            await pilot.press("a")  # a fresh user typed "abc": a letter is refused at once, not ignored
            await pilot.pause()
            seen["letter"] = str(app_.screen.query_one("#cut-message", Static).content)
            await pilot.press("4", "0", "enter")
            await pilot.pause()
            seen["bad"] = str(app_.screen.query_one("#cut-message", Static).content)
            assert isinstance(app_.screen, CutScreen) and t.hand is None
            await pilot.press("1", "2", "enter")
            await pilot.pause()
            assert not isinstance(app_.screen, CutScreen)
            seen["recent"] = list(app_.recent)
            seen["cut"] = t.hand.cut
            seen["saved"] = saved_session(tmp_path)["hand_cut"]
            await pilot.press("q")

    asyncio.run(run())
    assert "'40' is not a cut point: give a whole number from 1 to 31" in seen["bad"]
    assert "'a' is not a cut point" in seen["letter"]
    assert seen["cut"] == 12 and seen["saved"] == 12
    assert seen["recent"][0] == "You cut: 12 cards lifted."
    assert LocalTable.resume(SaveFolder(tmp_path).load(), None).hand.cut == 12


def test_app_r_cuts_at_random_and_without_ask_cut_nothing_is_asked(tmp_path):
    t = _table(tmp_path / "a")
    app_ = RamsliApp(t, speed=0, ask_cut=True)
    seen = {}

    async def run():
        async with app_.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            seen["dealt"] = t.hand.dealt
            seen["recent"] = list(app_.recent)
            await pilot.press("q")

    asyncio.run(run())
    assert seen["dealt"] == Session(Rules(end=["hands:3"]), NAMES, seed=SEED).start_hand().dealt
    assert seen["recent"][0].startswith("Random cut: ")
    t = _table(tmp_path / "b")
    app_ = RamsliApp(t, speed=0)

    async def run2():
        async with app_.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            seen["screen"] = type(app_.screen).__name__
            seen["hand"] = t.hand is not None
            await pilot.press("q")

    asyncio.run(run2())
    assert seen["screen"] != "CutScreen" and seen["hand"]


def test_app_offers_only_what_is_legal_during_the_cut(tmp_path):
    """While the human cuts (R4.2) no hand asks anything: the key bar behind the question offers no
    declaration, no General Rams and no target (a traditional game has neither, R4.7, R4.8), and
    the footer no key of a hand; after the cut the declaration's keys come (R4.5)."""
    t = _table(tmp_path)
    t.ask_cut = True
    app_ = RamsliApp(t, speed=0)
    seen: dict[str, object] = {}
    actions = ("#btn-in", "#btn-out", "#btn-gr", "#btn-pass", "#btn-t2", "#btn-t3", "#btn-t4", "#btn-t5")

    def offered() -> list[str]:
        base = app_.screen_stack[0]
        return [sel for sel in actions if not base.query_one(sel).has_class("hidden")]

    def keys() -> set[str]:
        return {b.binding.description for b in app_.active_bindings.values() if b.binding.show and b.enabled}

    async def run():
        async with app_.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            assert isinstance(app_.screen, CutScreen)
            seen["cut"] = offered()
            seen["cut_keys"] = keys()
            await pilot.press("r")
            await pilot.pause()
            seen["hand_gr"] = any(a.kind == "gr" for a in t.hand.legal_actions())
            seen["after"] = offered()
            await pilot.press("q")

    asyncio.run(run())
    assert seen["cut"] == [], seen["cut"]
    assert not {"General Rams", "target", "in", "out", "pass", "play a card"} & set(seen["cut_keys"])
    assert "#btn-gr" not in seen["after"] and not any(s.startswith("#btn-t") for s in seen["after"])
    assert not seen["hand_gr"]
