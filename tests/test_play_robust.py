"""Issue #12, "saves and commands nothing can break": each seen failure reproduced, then refused cleanly."""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Button, Static
from typer.testing import CliRunner

from ramsli import Rules
from ramsli.cli import app
from ramsli.commands import play as play_cmd
from ramsli.frontends import storage, tui
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.plain import PlainGame
from ramsli.frontends.storage import FolderLocked, SaveFolder
from ramsli.frontends.tui import InfoScreen, RamsliApp
from ramsli.hand import Action, ActionKind
from ramsli.history import HandHistory
from ramsli.lab.limits import atomic_output
from ramsli.lab.simulate import write_out
from ramsli.rl.encoding import check_action_id
from ramsli.session import Session

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("english")


def _table(tmp_path, end="hands:3", n=3, seed=7, **rules):
    names = ["Tess", "Anna", "Bruno", "Carla", "Dario", "Elke"][:n]
    return LocalTable.new(Rules(end=[end], **rules), names, ["random"] * (n - 1), seed=seed, store=SaveFolder(tmp_path))


def test_the_action_that_ends_the_hand_is_on_disk_before_apply_returns(tmp_path):
    """A kill right after the last action of a hand (before the front end finishes it) must not
    let the player answer again: the resumed table has the hand settled, counters as played (R3.4)."""
    t = _table(tmp_path)
    hand = t.start_hand()
    while True:
        action = hand.legal_actions()[0]
        t.apply(action)
        if hand.is_over:
            break
    # "killed" here: nothing after apply ran; the disk must hold the settled hand
    saved = SaveFolder(tmp_path).load()
    assert saved.hands_played == 1 and saved.hand_actions is None
    assert saved.stacks == list(hand.stacks) and saved.pot == hand.pot
    histories = list((tmp_path / "sessions" / t.session_id).glob("hand-*.toml"))
    assert [h.name for h in histories] == ["hand-0001.toml"]
    # a save with every action of the hand (killed between the two writes) resumes to the settled hand
    d = json.loads((tmp_path / "session.json").read_text())
    t2 = LocalTable.resume(SaveFolder(tmp_path).load(), SaveFolder(tmp_path))
    assert t2.hands_played == 1 and t2.session.stacks == list(hand.stacks)
    assert d["hands_played"] == 1


def test_a_save_holding_the_final_action_resumes_to_the_settled_hand(tmp_path):
    t = _table(tmp_path)
    hand = t.start_hand()
    before = SaveFolder(tmp_path).load()
    while not hand.is_over:
        t.apply(hand.legal_actions()[0])
    # the save as written just before the history and the settled session (the in-hand save)
    store = SaveFolder(tmp_path / "b")
    store.save(dataclasses.replace(before, hand_actions=[str(a) for a in hand.history]))
    t2 = LocalTable.resume(store.load(), store)
    assert t2.resumed_hand and t2.hand.is_over and t2.hands_played == 1
    t2.start_hand()
    t2.finish_hand()
    again = store.load()
    assert again.hand_actions is None and again.hands_played == 1 and again.stacks == list(hand.stacks)
    assert (store.session_dir(t.session_id) / "hand-0001.toml").exists()


def test_quit_after_the_final_action_writes_the_history(tmp_path):
    t = _table(tmp_path)
    hand = t.start_hand()
    while not hand.is_over:
        t.apply(hand.legal_actions()[0])
    t.quit()  # e.g. Ctrl-C before the front end called finish_hand
    assert (tmp_path / "sessions" / t.session_id / "hand-0001.toml").exists()
    assert SaveFolder(tmp_path).load().hands_played == 1


def test_hand_histories_of_play_hide_folded_hands(tmp_path):
    """R7, D-16: the histories ``ramsli play`` writes show no card of a seat that played none."""
    t = _table(tmp_path, end="hands:6", seed=11)
    folded_seen = False
    while not t.is_over:
        hand = t.start_hand()
        while not hand.is_over:
            legal = hand.legal_actions()
            outs = [a for a in legal if a.kind == ActionKind.OUT]
            t.apply(outs[0] if outs and hand.to_act == 1 else legal[0])  # Anna folds whenever she may
        t.finish_hand()
        played = {a.seat for a in hand.history if a.kind == "pl"}
        text = (tmp_path / "sessions" / t.session_id / f"hand-{t.hands_played:04d}.toml").read_text()
        deal = text[text.index("[deal]") :]
        for s in range(3):
            line = next(x for x in deal.splitlines() if x.startswith(f"p{s + 1} "))
            if s in played:
                assert "??" not in line
            else:
                folded_seen = True
                assert line.count("??") == 5, line
    assert folded_seen


def test_a_second_play_on_the_same_folder_is_refused(tmp_path):
    """Two ``ramsli play`` on one data folder would overwrite each other's session: the second stops."""
    holder = SaveFolder(tmp_path)
    holder.lock()  # as a running ramsli play (another open of the lock file, as another process)
    try:
        r = runner.invoke(
            app,
            [
                "play",
                "--plain",
                "--seed",
                "1",
                "--players",
                "3",
                "--bots",
                "random",
                "--lang",
                "en",
                "--data-dir",
                str(tmp_path),
            ],
            input="quit\n",
        )
        assert r.exit_code == 1, r.output
        assert "Another ramsli play is using the data folder" in r.output
        assert not (tmp_path / "session.json").exists()  # nothing written by the second one
    finally:
        holder.unlock()
    r = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--seed",
            "1",
            "--players",
            "3",
            "--bots",
            "random",
            "--lang",
            "en",
            "--data-dir",
            str(tmp_path),
        ],
        input="quit\n",
    )
    assert r.exit_code == 0 and (tmp_path / "session.json").exists()
    assert SaveFolder(tmp_path).lock() is None  # released when the command ended


def test_the_folder_lock_holds_across_processes(tmp_path):
    code = (
        "import sys, time; from ramsli.frontends.storage import SaveFolder; s = SaveFolder(sys.argv[1]); s.lock(); "
        "print('locked', flush=True); time.sleep(30)"
    )
    env = dict(os.environ, PYTHONPATH="src")
    p = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "locked"
        with pytest.raises(FolderLocked):
            SaveFolder(tmp_path).lock()
    finally:
        p.kill()
        p.wait()
    s = SaveFolder(tmp_path)
    s.lock()  # a killed holder releases it
    s.unlock()


def _cycle(n=400) -> str:
    return "in\n1\n2\n3\n4\n5\n" * n


@pytest.mark.parametrize("seed", [3, 6])
def test_a_finished_bust_leave_session_is_read_by_its_own_loader(tmp_path, seed):
    """R3.5 leave: the session ends with the last dealer gone bust; its save must still load."""
    args = [
        "play",
        "--plain",
        "--seed",
        str(seed),
        "--players",
        "3",
        "--bots",
        "random",
        "--rule",
        "starting_stack=3",
        "--rule",
        "bust=leave",
        "--lang",
        "en",
        "--data-dir",
        str(tmp_path),
    ]
    r = runner.invoke(app, args, input=_cycle() + "y\n" * 10)
    assert r.exit_code == 0, r.output
    saved = SaveFolder(tmp_path).load()  # raised SaveError "'dealer' must be a seated seat (R3.2)"
    assert saved.end_reason is not None
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)])
    assert r.exit_code == 0 and "cannot be used" not in r.output, r.output
    assert "Start a new session with: ramsli play" in r.output


def _bust_table(tmp_path, seed=12):
    rules = Rules(starting_stack=3, bust="leave")
    return LocalTable.new(
        rules, ["Tess", "Anna", "Bruno", "Carla"], ["random"] * 3, seed=seed, store=SaveFolder(tmp_path)
    )


def test_bots_do_not_play_on_alone_after_the_human_is_bust(tmp_path):
    """R3.5 leave: once the human has left bust, the table asks; no (or end of input) ends the session."""
    t = _bust_table(tmp_path)
    out = io.StringIO()
    PlainGame(t, stdin=io.StringIO(_cycle()), stdout=out).run()
    text = out.getvalue()
    assert "You are bust and have left the table." in text and "Watch the bots play on? [y/N]" in text
    assert t.session.departed == [(0, 1)] and t.hands_played == 1 and t.is_over
    saved = SaveFolder(tmp_path).load()
    assert saved.end_reason == "quit" and saved.hands_played == 1  # saved as finished: resume shows standings
    assert sum(saved.stacks) + saved.pot == 12  # R3.4


def test_watching_the_bots_play_on_is_a_choice(tmp_path):
    t = _bust_table(tmp_path)
    out = io.StringIO()
    cycle = io.StringIO(_cycle())

    class Answers:  # "y" to the question, the cycle to everything else
        def readline(self):
            if out.getvalue().rstrip().endswith("[y/N]"):
                out.write("\n")
                return "y\n"
            return cycle.readline()

    PlainGame(t, stdin=Answers(), stdout=out).run()
    assert out.getvalue().count("Watch the bots play on? [y/N]") == 1  # asked once
    assert t.hands_played > 1 and t.is_over and t.session.end_reason != "quit"


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EROFS])
@pytest.mark.parametrize("after", [0, 3, 12])
def test_disk_full_or_read_only_stops_cleanly_and_keeps_the_last_good_save(tmp_path, monkeypatch, err, after):
    t = _table(tmp_path)
    real = storage.atomic_write
    writes = []

    def failing(path, text):
        writes.append(path)
        if len(writes) > after:
            raise OSError(err, os.strerror(err), str(path))
        real(path, text)

    monkeypatch.setattr(storage, "atomic_write", failing)
    out = io.StringIO()
    code = PlainGame(t, stdin=io.StringIO(_cycle()), stdout=out).run()
    text = out.getvalue()
    assert code == 1
    assert f"Cannot save the session in {tmp_path}: {os.strerror(err)}. The game stops here" in text
    assert "Traceback" not in text
    monkeypatch.setattr(storage, "atomic_write", real)
    saved = SaveFolder(tmp_path).load()  # the last good save, readable
    assert sum(saved.stacks) + saved.pot == 60
    resumed = LocalTable.resume(saved, SaveFolder(tmp_path))  # and it resumes
    assert resumed.hands_played == saved.hands_played
    assert not list(tmp_path.glob("*.tmp"))


def test_disk_full_in_the_app_stops_cleanly(tmp_path, monkeypatch, capsys):
    t = _table(tmp_path)

    def failing(path, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(storage, "atomic_write", failing)

    async def go():
        app = RamsliApp(t, speed=0)
        async with app.run_test() as pilot:
            await pilot.pause()
        return app

    app = asyncio.run(go())
    assert app.save_error is not None and "No space left on device" in app.save_error
    assert app.return_code == 1


HUGE = "9" * 5000  # Python refuses to read integers past 4300 digits (ValueError)


def _no_traceback(r):
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)


@pytest.mark.parametrize("rule", [f"bete={HUGE}", f"players={HUGE}", f"end=hands:{HUGE}", f"ante={HUGE}"])
def test_huge_numbers_in_rule_options_exit_2_with_a_reason(tmp_path, rule):
    r = runner.invoke(app, ["play", "--plain", "--rule", rule, "--data-dir", str(tmp_path)], input="quit\n")
    _no_traceback(r)
    assert r.exit_code == 2 and "allowed" in r.output


def test_huge_numbers_typed_at_the_table_are_refused(tmp_path):
    t = _table(tmp_path)
    out = io.StringIO()
    PlainGame(t, stdin=io.StringIO(f"target {HUGE}\nplay {HUGE}\nt{HUGE}\n{HUGE}\nquit\n"), stdout=out).run()
    text = out.getvalue()
    assert "Write target and a number of tricks from 2 to 5" in text
    assert "Unknown command 't9999" in text and "Unknown command '9999" in text and "is not a card" in text


def test_a_huge_number_in_a_save_is_refused(tmp_path):
    t = _table(tmp_path)
    t.quit()
    p = tmp_path / "session.json"
    p.write_text(p.read_text().replace('"seed": 7', f'"seed": {HUGE}'))
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)])
    _no_traceback(r)
    assert r.exit_code == 2 and "it holds a number too large to be a save file" in r.output


def _a_history(tmp_path) -> Path:
    t = _table(tmp_path / "h")
    hand = t.start_hand()
    while not hand.is_over:
        t.apply(hand.legal_actions()[0])
    return tmp_path / "h" / "sessions" / t.session_id / "hand-0001.toml"


def test_a_huge_number_in_a_history_is_refused(tmp_path):
    src = _a_history(tmp_path)
    text = src.read_text()
    assert "\npot = " in text
    bad = tmp_path / "huge.toml"
    bad.write_text("\n".join(f"pot = {HUGE}" if x.startswith("pot = ") else x for x in text.splitlines()))
    r = runner.invoke(app, ["replay", str(bad)])
    _no_traceback(r)
    assert r.exit_code == 2 and "more than 4300 digits" in r.output


def test_replay_refuses_devices_pipes_large_files_and_long_names(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 2_000_000)
    for path, problem in (
        (Path("/dev/zero"), "not a regular file"),
        (fifo, "not a regular file"),
        (link, "not a regular file"),
        (big, "too large for a hand history"),
        (tmp_path / ("a" * 300 + ".toml"), "File name too long"),
    ):
        r = runner.invoke(app, ["replay", str(path)])  # a FIFO would hang, /dev/zero grew to 7 GB
        _no_traceback(r)
        assert r.exit_code == 2 and problem in r.output, (path, r.output)
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "hand-0001.toml").symlink_to("/dev/zero")
    r = runner.invoke(app, ["replay", str(folder)])
    assert r.exit_code == 2 and "not a regular file" in r.output
    good = _a_history(tmp_path)
    assert runner.invoke(app, ["replay", str(good)]).exit_code == 0


def _set_rng_word(d, k, v):
    d["rng_state"][1][k] = v


TAMPERED = [
    (lambda d: d.update(rules_toml="x = " + "[" * 50000 + "]" * 50000), "nested too deeply"),
    (lambda d: d.update(rules_toml=f"bete = {HUGE}"), "rules are not valid"),
    (lambda d: _set_rng_word(d, 3, 2**40), "'rng_state' is not a random state"),
    (lambda d: _set_rng_word(d, 624, 9999), "'rng_state' is not a random state"),
    (lambda d: _set_rng_word(d, 5, -1), "'rng_state' is not a random state"),
    (lambda d: d.update(session_id="abc\x00def"), "'session_id' is not a folder name"),
    (lambda d: d.update(session_id="\x1b[31mred\x1b[0m"), "'session_id' is not a folder name"),
    (lambda d: d.update(session_id="x" * 300), "'session_id' is not a folder name"),
]


@pytest.mark.parametrize("mutate,problem", TAMPERED)
def test_tampered_saves_are_refused_and_the_set_aside_recovery_works(tmp_path, mutate, problem):
    t = _table(tmp_path)
    t.quit()
    d = json.loads((tmp_path / "session.json").read_text())
    mutate(d)
    (tmp_path / "session.json").write_text(json.dumps(d))
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)])
    _no_traceback(r)
    assert r.exit_code == 2 and "cannot be used" in r.output and problem in r.output, r.output
    assert "\x1b" not in r.output and "\x00" not in r.output
    _new_session_sets_it_aside(tmp_path)


def _new_session_sets_it_aside(tmp_path):
    r = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--seed",
            "2",
            "--players",
            "3",
            "--bots",
            "random",
            "--lang",
            "en",
            "--data-dir",
            str(tmp_path),
        ],
        input="quit\n",
    )
    _no_traceback(r)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "session.json.broken-1").exists() or (tmp_path / "session.json.broken-1").is_symlink()
    assert SaveFolder(tmp_path).load().seed == 2


@pytest.mark.parametrize("kind", ["folder", "dev-zero", "fifo"])
def test_a_save_that_is_not_a_regular_file_is_refused(tmp_path, kind):
    p = tmp_path / "session.json"
    if kind == "folder":
        p.mkdir()
    elif kind == "dev-zero":
        p.symlink_to("/dev/zero")
    else:
        os.mkfifo(p)
    r = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)])
    _no_traceback(r)
    assert r.exit_code == 2 and "it is not a regular file" in r.output, r.output
    _new_session_sets_it_aside(tmp_path)


def _human_actions(actions) -> int:
    return sum(1 for a in actions or () if a.startswith("p1 "))


def _chain_of_histories(folder: Path, saved) -> None:
    """Every hand history on disk follows from the one before (stacks, pot: R3.4, R5.4) and the
    last one ends with the saved counters: a kill never changed a counter."""
    files = sorted(folder.glob("hand-*.toml"))
    assert [f.name for f in files] == [f"hand-{k:04d}.toml" for k in range(1, saved.hands_played + 1)]
    after = None
    for f in files:
        hh = HandHistory.read(f)
        hand = hh.replay()
        if after is not None:
            assert (list(hh.stacks), hh.pot) == after, f
        after = (list(hand.stacks), hand.pot)
    if after is not None:
        assert after == (saved.stacks, saved.pot)


def test_killed_at_random_points_resume_never_takes_back_and_keeps_every_counter(tmp_path):
    """Kill ``ramsli play --plain`` (SIGKILL) at random moments, many times (seeded, bounded): every
    save loads, the counters always add up (R3.4), an action once announced is in the save (so
    ``--resume`` never asks for it again), and the histories chain up to the saved counters."""
    rng = random.Random(2026)
    base = [sys.executable, "-m", "ramsli.cli", "play", "--plain", "--lang", "en", "--data-dir", str(tmp_path)]
    first = ["--seed", "5", "--players", "3", "--bots", "random", "--name", "Tess", "--rule", "end=hands:10"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent / "src"))
    prev = None
    kills = 0
    for _run in range(60):
        args = base + (first if prev is None else ["--resume"])
        p = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True
        )
        p.stdin.write(_cycle(150))
        p.stdin.flush()  # stdin stays open: the end comes by the kill (or the end of the session)
        kill_after = rng.randint(1, 120) if kills < 15 else None  # lines of output, then SIGKILL
        seen = []
        for line in p.stdout:
            seen.append(line)
            if kill_after is not None and len(seen) >= kill_after:
                p.kill()
                kills += 1
                break
        p.wait()
        out = "".join(seen) + p.stdout.read()
        p.stdin.close()
        p.stdout.close()
        assert "Traceback" not in out, out
        if not (tmp_path / "session.json").exists():
            continue  # killed before the first save
        saved = SaveFolder(tmp_path).load()  # always readable: written atomically
        assert sum(saved.stacks) + saved.pot == 60  # R3.4
        titles = [(m.start(), int(m.group(1))) for m in re.finditer(r"^Hand (\d+) of 10", out, re.M)]
        if prev is not None:
            assert saved.hands_played >= prev.hands_played  # nothing taken back
            if saved.hands_played == prev.hands_played and prev.hand_actions and saved.hand_actions:
                assert saved.hand_actions[: len(prev.hand_actions)] == prev.hand_actions
        if titles:
            start, number = titles[-1]
            announced = sum(
                1
                for line in out[start:].splitlines()
                if line.startswith(("Tess: ", "You play ", "You announce", "You pass"))
            )
            carried = _human_actions(prev.hand_actions) if prev and prev.hands_played + 1 == number else 0
            if saved.hands_played < number:  # the hand is still in progress on disk
                assert saved.hands_played == number - 1
                assert _human_actions(saved.hand_actions) >= carried + announced, (prev, saved, out)
        prev = saved
        if saved.end_reason is not None:
            break
    assert kills >= 3 and prev is not None and prev.end_reason == "hands"
    assert not list(tmp_path.rglob("*.tmp"))  # left by kills mid-write, removed by the next run
    _chain_of_histories(tmp_path / "sessions" / prev.session_id, prev)


@pytest.mark.parametrize("bad", [1.5, "1", True, None, 3.0])
def test_gym_and_pettingzoo_refuse_action_ids_that_are_not_whole_numbers(bad):
    pytest.importorskip("gymnasium")
    from ramsli.rl.gym_env import RamsliEnv  # optional extra

    env = RamsliEnv()
    env.reset(seed=1)
    with pytest.raises(TypeError, match="is not an action id"):
        env.step(bad)
    np = pytest.importorskip("numpy")
    assert check_action_id(np.int64(7)) == 7 and check_action_id(np.array(7)) == 7


def test_pettingzoo_refuses_a_float_action():
    pytest.importorskip("pettingzoo")
    from ramsli.rl.pettingzoo_env import raw_env  # optional extra

    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(TypeError, match="is not an action id"):
        e.step(1.5)
    with pytest.raises(TypeError, match="is not an action id"):
        e.step("1")


def test_interned_actions_cannot_be_changed():
    a = Action.parse("p2 in")
    with pytest.raises(AttributeError, match="immutable"):
        a.seat = 3
    with pytest.raises(AttributeError, match="immutable"):
        a.kind = "out"
    with pytest.raises(AttributeError, match="immutable"):
        del a.card
    assert Action.parse("p2 in") is a and str(a) == "p2 in" and a.seat == 1


@pytest.mark.parametrize("dealer", [1.0, True, "1"])
def test_session_refuses_a_dealer_that_is_not_a_seat_index(dealer):
    with pytest.raises(ValueError, match="is not a seat of this table"):
        Session(Rules(), ["A", "B", "C"], seed=1, dealer=dealer)
    assert Session(Rules(), ["A", "B", "C"], seed=1, dealer=1).dealer == 1


def test_tips_does_not_overwrite_a_report_silently(tmp_path):
    out = tmp_path / "tips.md"
    out.write_text("my notes\n")
    r = runner.invoke(app, ["tips", "--out", str(out), "--hands", "300", "--odds-time", "0.02", "-q"])
    assert r.exit_code == 2 and "exists; give --force to overwrite it" in r.output, r.output
    assert out.read_text() == "my notes\n"


@pytest.mark.parametrize("name", ["anna", "ANNA", " Bruno "])
def test_a_name_like_a_bot_name_is_kept_and_the_bot_gets_another(tmp_path, name):
    r = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--seed",
            "1",
            "--players",
            "3",
            "--bots",
            "random",
            "--name",
            name,
            "--lang",
            "en",
            "--data-dir",
            str(tmp_path),
        ],
        input="quit\n",
    )
    assert r.exit_code == 0, r.output  # was refused with a message blaming --bots
    names = SaveFolder(tmp_path).load().names
    assert names[0] == name.strip() and len({x.casefold() for x in names}) == 3


def test_outputs_are_complete_or_absent_when_writing_fails(tmp_path, monkeypatch):
    """A full disk (ENOSPC) while writing --out leaves neither an empty nor a half file (issue #12)."""
    out = tmp_path / "r.csv"
    with pytest.raises(OSError):
        with atomic_output(out, newline="") as f:
            f.write("table,key\n")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert not out.exists() and not list(tmp_path.glob("*.tmp"))
    out.write_text("old\n")
    with pytest.raises(KeyError):
        write_out({"positions": [{}]}, str(out))  # fails after the header row
    assert out.read_text() == "old\n" and not list(tmp_path.glob("*.tmp"))
    write_out({"positions": [], "bots_summary": []}, str(tmp_path / "s.json"))
    assert json.loads((tmp_path / "s.json").read_text()) == {"positions": [], "bots_summary": []}


@pytest.mark.parametrize(
    "cmd,flags",
    [("play", ["--plain", "--resume"]), ("serve", ["--open"]), ("simulate", ["--quiet"]), ("replay", ["--json"])],
)
def test_help_shows_flags_as_flags(cmd, flags):
    r = runner.invoke(app, [cmd, "--help"], env={"COLUMNS": "120"})
    assert r.exit_code == 0
    for flag in flags:
        line = next(x for x in r.output.splitlines() if f" {flag} " in x)
        assert "<bool>" not in line and "BOOLEAN" not in line, line
    assert "<bool>" not in r.output


def _pilot(tmp_path, speed, body, size=(100, 40)):
    t = _table(tmp_path)

    async def go():
        app = RamsliApp(t, speed=speed)
        async with app.run_test(size=size) as pilot:
            await body(app, pilot, t)
        return app

    return asyncio.run(go())


def test_pilot_a_finished_trick_stays_on_the_table_until_space(tmp_path, monkeypatch):
    """No trick goes by unseen: with --speed > 0 a finished trick and its winner stay shown; space goes on."""
    monkeypatch.setattr(tui, "TRICK_PAUSE", 100_000)  # held until the key (no timing in the test)

    async def body(app, pilot, t):
        for _ in range(400):
            await pilot.pause()
            hand = t.hand
            if isinstance(app.screen, InfoScreen) or hand is None:
                break
            if hand.trick_complete and app._pause is not None:
                shown = str(app.query_one("#trick", Static).content)
                winner = t.names[hand.last_trick.winner]
                assert f"{winner} takes the trick" in shown
                before = len(hand.history)
                for _ in range(5):
                    await pilot.pause()
                assert len(hand.history) == before and app._pause is not None  # still held: nobody leads yet
                await pilot.press("space")
                await pilot.pause()
                assert app._pause is None
                return
            if t.human_to_act():
                legal = hand.legal_actions()
                ins = [a for a in legal if a.kind == ActionKind.IN]
                t_action = ins[0] if ins else legal[0]
                app._try(t_action)
            else:
                await pilot.pause(0.03)
        raise AssertionError("no trick pause seen")

    app = _pilot(tmp_path, 0.01, body)
    assert app.trick_pauses >= 1


def test_pilot_last_trick_view_colours_and_trumps(tmp_path):
    async def body(app, pilot, t):
        await pilot.pause()
        obs = t.hand.observe(t.human)
        for i, c in enumerate(T.hand_order(obs.cards, obs.trump), 1):  # the buttons show the hand sorted
            b = app.query_one(f"#card-{i}", Button)
            assert str(b.label).startswith(f"{i}  {T.card_label(c)}")
            assert b.has_class("red") == (c.suit in ("H", "D"))
            assert b.has_class("black") == (c.suit in ("S", "C"))
            assert b.has_class("trump") == (c.suit == obs.trump)
            assert str(b.label).endswith("★") == (c.suit == obs.trump)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, InfoScreen)
        assert "No trick is finished yet." in str(app.screen.query_one("#panel-text", Static).content)
        await pilot.press("escape")
        for _ in range(400):  # play on until a trick is finished
            await pilot.pause()
            hand = t.hand
            if hand is not None and hand.last_trick is not None and not isinstance(app.screen, InfoScreen):
                break
            if t.human_to_act():
                legal = hand.legal_actions()
                ins = [a for a in legal if a.kind == ActionKind.IN]
                app._try(ins[0] if ins else legal[0])
        tr = t.hand.last_trick
        await pilot.press("t")
        await pilot.pause()
        text = str(app.screen.query_one("#panel-text", Static).content)
        for s, c in tr.plays:  # the player as "you" (issue #12)
            assert f"{T.who(s, t.names, t.human)}: {T.card_label(c)}" in text
        assert T.takes_trick_text(tr.winner, t.names, t.human) in text

    _pilot(tmp_path, 0, body)


def test_pilot_two_player_warning_in_the_app(tmp_path):
    t = _table(tmp_path, n=2)

    async def go():
        app = RamsliApp(t, speed=0)
        async with app.run_test() as pilot:
            await pilot.pause()
            return [n.message for n in app._notifications], list(app.cited)

    shown, cited = asyncio.run(go())
    assert "Two players are allowed, but the game loses its tension." in shown and cited == ["R2.1"]


@pytest.mark.parametrize(
    "lang,question,yes",
    [("en", "[y/N]", "y"), ("de", "[j/N]", "ja"), ("nl", "[j/N]", "j"), ("it", "[s/N]", "sì"), ("fr", "[o/N]", "oui")],
)
def test_the_set_aside_question_is_asked_in_the_players_language_and_says_where(
    tmp_path, monkeypatch, lang, question, yes
):
    t = _table(tmp_path)
    t.quit()
    monkeypatch.setattr(play_cmd, "_interactive", lambda: True)
    args = [
        "play",
        "--plain",
        "--seed",
        "3",
        "--players",
        "3",
        "--bots",
        "random",
        "--lang",
        lang,
        "--data-dir",
        str(tmp_path),
    ]
    r = runner.invoke(app, args, input=yes + "\nquit\n")
    assert r.exit_code == 0, r.output
    assert question in r.output and str(tmp_path / "sessions") in r.output
    assert SaveFolder(tmp_path).load().seed == 3  # the answer in that language was a yes


def test_pilot_trick_cards_stand_in_front_of_the_seats(tmp_path):
    async def body(app, pilot, t):
        for _ in range(400):
            await pilot.pause()
            hand = t.hand
            if hand is None or isinstance(app.screen, InfoScreen):
                break
            obs = hand.observe(t.human)
            if obs.current:
                for s, c in obs.current:
                    box = str(app.query_one(f"#seat-{s}", Static).content)
                    assert f"[{T.card_label(c)}]" in box, (s, box)
                others = set(range(len(t.names))) - {s for s, _c in obs.current}
                for s in others:
                    assert "[" not in str(app.query_one(f"#seat-{s}", Static).content)
                return
            if t.human_to_act():
                legal = hand.legal_actions()
                ins = [a for a in legal if a.kind == ActionKind.IN]
                app._try(ins[0] if ins else legal[0])
        raise AssertionError("no trick in progress seen")

    _pilot(tmp_path, 0, body)
