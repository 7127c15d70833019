"""``ramsli presets``, ``ramsli rules`` (R6, R8) and ``ramsli replay`` (issue 2 item 6):
output, exit codes 0/1/2 and error messages that name the line and rule."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ramsli.cli import app
from ramsli.history import HandHistory
from ramsli.rules import OPTIONS, PRESETS, Rules

from helpers import HISTORIES, line_of

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


# -- presets / rules -----------------------------------------------------------------------------


def test_presets_lists_every_preset_and_what_it_sets():
    r = run("presets")
    assert r.exit_code == 0
    for name in PRESETS:
        assert name in r.stdout
    assert "bete=10" in r.stdout and "targets=true" in r.stdout and "deck=full52" in r.stdout


def test_rules_lists_every_option_with_rule_id():
    r = CliRunner(env={"COLUMNS": "250"}).invoke(app, ["rules"])  # wide: one table row per option line
    assert r.exit_code == 0
    for name, info in OPTIONS.items():
        row = next(x for x in r.stdout.splitlines() if x.startswith(f"│ {name} "))
        assert f" {info.rule} " in row
        assert info.help in row
        nxt = r.stdout.splitlines()[r.stdout.splitlines().index(row) + 1]
        assert f"default: {info.default}; allowed: {info.values}" in nxt


def test_rules_preset_and_rule_marks_changes():
    r = run("rules", "--preset", "nap", "--rule", "bete=pot", "--rule", "end=win-at:30,hands:5")
    assert r.exit_code == 0
    row = next(x for x in r.stdout.splitlines() if x.startswith("│ targets "))
    assert "true *" in row
    row = next(x for x in r.stdout.splitlines() if x.startswith("│ bete "))
    assert "pot *" in row
    assert "win-at:30" in r.stdout


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_toml_is_the_preset(preset):
    r = run("rules", "--preset", preset, "--toml")
    assert r.exit_code == 0
    assert Rules.from_toml(r.stdout) == Rules.preset(preset)


def test_rules_toml_with_changes():
    r = run("rules", "-p", "joker", "-r", "bete=10", "-r", "overtrump=when-trumping", "--toml")
    assert r.exit_code == 0
    assert Rules.from_toml(r.stdout) == Rules.preset("joker", bete=10, overtrump="when-trumping")


@pytest.mark.parametrize(
    "args,fragments",
    [
        (("--preset", "skat"), ["Unknown preset 'skat'", "(R6)", "traditional", "nap"]),
        (("--rule", "colour=red"), ["Unknown option 'colour'", "(R8)", "overtrump"]),
        (("--rule", "bete=lots"), ["Option 'bete'", "R5.3", "'pot'"]),
        (("--rule", "bete"), ["is not key=value", "deck"]),
        (("--rule", "overtrump=never"), ["always, when-trumping"]),
    ],
)
def test_rules_errors_exit_2_and_list_what_is_allowed(args, fragments):
    r = run("rules", *args)
    assert r.exit_code == 2
    assert r.stdout == ""
    for f in fragments:
        assert f in r.stderr


# -- replay ----------------------------------------------------------------------------------------


def test_replay_prints_trick_by_trick_and_settlement():
    path = HISTORIES / "general-rams-made.toml"
    hh = HandHistory.read(path)
    hand = hh.replay()
    r = run("replay", str(path))
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "General Rams announced by p2 Bruno (R4.7)" in out
    for i, t in enumerate(hand.tricks, 1):
        line = next(x for x in out.splitlines() if x.startswith(f"Trick {i}:"))
        assert f"{hh.seat_label(t.leader)} leads" in line
        assert f"won by {hh.seat_label(t.winner)}" in line
        for s, c in t.plays:
            assert f"p{s + 1} {c.display()}" in line
    assert "Declarations: p2 Bruno in, p3 Clara out, p1 Anna in" in out
    assert "General Rams by p2 Bruno made (R5.6)" in out
    assert "p2 Bruno: tricks 5, won 9, paid 0, stack 28" in out
    assert "Carry-over to the next hand: 5" in out


def test_replay_targets_and_folded_and_special_hands():
    out = run("replay", str(HISTORIES / "nap-targets.toml")).stdout
    assert "Targets: " in out and "met (R5.7)" in out and "missed (R5.7)" in out
    out = run("replay", str(HISTORIES / "traditional-folded.toml")).stdout
    assert "?? ?? ?? ?? ??" in out and "Bete: " in out
    out = run("replay", str(HISTORIES / "walkover.toml")).stdout
    assert "Walkover:" in out and "Trick 1" not in out
    out = run("replay", str(HISTORIES / "thrown-in.toml")).stdout
    assert "thrown in" in out
    out = run("replay", str(HISTORIES / "joker-aside.toml")).stdout
    assert "jokers turned aside" in out


def test_replay_json_settlement():
    path = HISTORIES / "nap-targets.toml"
    hh = HandHistory.read(path)
    st = hh.replay().settlement
    r = run("replay", str(path), "--json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["pot"] == st.pot and data["carry_over"] == st.carry_over
    assert len(data["seats"]) == len(hh.names)
    for i, seat in enumerate(data["seats"]):
        assert seat["seat"] == hh.names[i] and seat["id"] == f"p{i + 1}"
        assert (seat["tricks"], seat["won"], seat["paid"]) == (st.tricks[i], st.won(i), st.paid(i))
    # conservation (R3.4): what was won and paid balances with the pot
    assert sum(s["stack"] for s in data["seats"]) + data["carry_over"] == sum(hh.stacks) + hh.pot


def test_replay_illegal_action_exit_1_one_line():
    path = HISTORIES / "bad-illegal-follow-suit.toml"
    text = path.read_text(encoding="utf-8")
    r = run("replay", str(path))
    assert r.exit_code == 1
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    m = re.fullmatch(r"(.+):(\d+): action (\d+) '(p\d pl \w\w)': must follow suit: play [♠♥♦♣] \(R4\.10\)", lines[0])
    assert m, lines[0]
    assert m.group(1) == str(path)
    assert int(m.group(2)) == line_of(text, f'"{m.group(4)}"')
    hh = HandHistory.from_toml(text)
    assert str(hh.actions[int(m.group(3)) - 1]) == m.group(4)


def test_replay_illegal_action_json_also_exit_1():
    r = run("replay", str(HISTORIES / "bad-illegal-follow-suit.toml"), "--json")
    assert r.exit_code == 1 and r.stdout == ""


@pytest.mark.parametrize(
    "name,fragment,needle",
    [
        ("bad-malformed", "not valid TOML", "pot = \n"),
        ("bad-unknown-card", "is not a card: write rank then suit", "turn_up = "),
        ("bad-card-twice", "is dealt twice", None),
        ("bad-settlement", "settlement does not match the replay", "carry_over = "),
        ("bad-unknown-option", "unknown option 'betee'", "betee"),
        ("bad-unknown-cards-play", "unknown (??)", None),
    ],
)
def test_replay_bad_file_exit_2_names_the_line(name, fragment, needle):
    path = HISTORIES / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    r = run("replay", str(path))
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    msg = r.stderr.strip()
    assert len(msg.splitlines()) == 1
    m = re.match(rf"{re.escape(str(path))}:(\d+): ", msg)
    assert m, msg
    assert fragment in msg
    if needle is not None:
        assert int(m.group(1)) == line_of(text, needle.rstrip("\n"))


def test_replay_card_twice_line_is_the_second_occurrence():
    path = HISTORIES / "bad-card-twice.toml"
    text = path.read_text(encoding="utf-8")
    msg = run("replay", str(path)).stderr
    card = re.search(r"card (\w\w) is dealt twice", msg).group(1)
    line = int(re.match(rf"{re.escape(str(path))}:(\d+):", msg).group(1))
    assert line == line_of(text, f'"{card}"', 1)


def test_replay_missing_file_exit_2(tmp_path):
    r = run("replay", str(tmp_path / "nope.toml"))
    assert r.exit_code == 2
    assert "nope.toml" in r.stderr and "no such file" in r.stderr


def test_replay_not_a_session_directory_exit_2(tmp_path):
    r = run("replay", str(tmp_path))
    assert r.exit_code == 2 and "no session.toml" in r.stderr


def test_replay_session_directory(tmp_path):
    r = run("replay", str(HISTORIES / "session-3p"))
    assert r.exit_code == 0, r.output
    assert r.stdout.count("Carry-over to the next hand:") == 4
    assert "Session ended (hands)" in r.stdout
    r = run("replay", str(HISTORIES / "session-3p"), "--json")
    data = json.loads(r.stdout)
    assert [d["hand"] for d in data] == [1, 2, 3, 4]


def test_replay_session_with_illegal_action_names_the_hand_file(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    p = d / "hand-0002.toml"
    text = p.read_text(encoding="utf-8")
    hh = HandHistory.from_toml(text)
    first = str(hh.actions[0])
    wrong = next(s for s in hh.seated if s != hh.actions[0].seat)
    text = text.replace(f'    "{first}",', f'    "p{wrong + 1} {first.split()[1]}",', 1)
    p.write_text(text, encoding="utf-8")
    r = run("replay", str(d))
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{p}:{line_of(text, f'p{wrong + 1} {first.split()[1]}')}: action 1 ")
    assert "(R4.5)" in r.stderr


def test_docs_quote_the_real_messages_and_output():
    """The error lines and the replay output quoted in docs/hand-history.md are what the CLI prints."""
    doc = (Path(__file__).parents[1] / "docs" / "hand-history.md").read_text(encoding="utf-8")
    quoted = [x for x in doc.splitlines() if x.startswith("tests/data/histories/bad-")]
    assert len(quoted) >= 2
    for line in quoted:
        path = line.split(":", 1)[0]
        r = run("replay", str(Path(__file__).parents[1] / path))
        assert r.stderr.strip().endswith(line.split(":", 1)[1]), (line, r.stderr)
    out = run("replay", str(Path(__file__).parents[1] / "docs" / "examples" / "general-rams-made.toml")).stdout
    assert out in doc


# -- replay of hostile or hand-edited files: exit 2, one line, file:line, nothing raw printed --------


def _one_line_exit_2(r, path) -> tuple[int, str]:
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    msg = r.stderr.strip()
    assert len(msg.splitlines()) == 1 and "\x1b" not in r.stderr
    m = re.match(rf"{re.escape(str(path))}:(\d+): ", msg)
    assert m, msg
    return int(m.group(1)), msg


def test_replay_session_cannot_read_files_outside_its_directory(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    meta = d / "session.toml"
    text = meta.read_text(encoding="utf-8").replace('"hand-0002.toml"', '"../../../etc/passwd"', 1)
    meta.write_text(text, encoding="utf-8")
    line, msg = _one_line_exit_2(run("replay", str(d)), meta)
    assert line == line_of(text, "etc/passwd")
    assert "hands: entry 2 is '../../../etc/passwd'" in msg and "'hand-0002.toml'" in msg
    assert "root:" not in msg


def test_replay_refuses_control_characters_in_names(tmp_path):
    text = (HISTORIES / "general-rams-made.toml").read_text(encoding="utf-8")
    p = tmp_path / "h.toml"
    p.write_text(text.replace('"Bruno"', '"Bruno\\u001b[31m"', 1), encoding="utf-8")
    line, msg = _one_line_exit_2(run("replay", str(p)), p)
    assert line == line_of(text, "seats =") and "U+001B" in msg and "\\x1b[31m" in msg


def test_replay_refuses_non_canonical_actions(tmp_path):
    text = (HISTORIES / "general-rams-made.toml").read_text(encoding="utf-8")
    p = tmp_path / "h.toml"
    for bad, canon in (('"P2 GR"', "p2 gr"), ('"p2  gr"', "p2 gr")):
        p.write_text(text.replace('"p2 gr"', bad, 1), encoding="utf-8")
        line, msg = _one_line_exit_2(run("replay", str(p)), p)
        assert line == line_of(text, '"p2 gr"') and f"write '{canon}'" in msg
    p.write_text(text.replace('"p2 pl 9D"', '"p2 pl 9♦"', 1), encoding="utf-8")
    line, msg = _one_line_exit_2(run("replay", str(p)), p)
    assert line == line_of(text, '"p2 pl 9D"') and "write 'p2 pl 9D'" in msg


def test_replay_truncated_file_names_the_last_line(tmp_path):
    text = (HISTORIES / "general-rams-made.toml").read_text(encoding="utf-8")
    p = tmp_path / "h.toml"
    short = text[: text.index('    "p1 pl AS"')]
    p.write_text(short, encoding="utf-8")
    line, msg = _one_line_exit_2(run("replay", str(p)), p)
    assert line == len(short.splitlines()) and "cut short" in msg


def test_replay_accepts_a_byte_order_mark(tmp_path):
    p = tmp_path / "h.toml"
    p.write_bytes(b"\xef\xbb\xbf" + (HISTORIES / "general-rams-made.toml").read_bytes())
    r = run("replay", str(p))
    assert r.exit_code == 0, r.output
    assert r.stdout == run("replay", str(HISTORIES / "general-rams-made.toml")).stdout


def test_replay_session_rules_differ_names_the_option(tmp_path):
    d = tmp_path / "s"
    shutil.copytree(HISTORIES / "session-3p", d)
    p = d / "hand-0002.toml"
    text = p.read_text(encoding="utf-8").replace("bete = 5", "bete = 10", 1)
    p.write_text(text, encoding="utf-8")
    line, msg = _one_line_exit_2(run("replay", str(d)), p)
    assert line == line_of(text, "bete = 10")
    assert msg.endswith("rules differ from session.toml: bete = 10 here, 5 in session.toml (R8)")


def test_rules_refuses_two_session_ends_of_one_kind():
    r = run("rules", "--rule", "end=hands:3,hands:4")
    assert r.exit_code == 2 and r.stdout == "" and "R3.6" in r.stderr


# -- replay of a folder saved by `ramsli play` (session.json + hand-NNNN.toml, no session.toml) ----------


def _play_folder(tmp_path):
    d = tmp_path / "game"
    d.mkdir(parents=True)
    for p in sorted((HISTORIES / "session-3p").glob("hand-*.toml")):
        shutil.copy(p, d / p.name)
    (d / "session.json").write_text("{}", encoding="utf-8")
    (d / "notes.toml").write_text("not a hand", encoding="utf-8")  # other names are ignored
    return d


def test_replay_play_folder_replays_every_hand_in_order_and_says_continuity_was_not_checked(tmp_path):
    d = _play_folder(tmp_path)
    r = run("replay", str(d))
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"No session.toml in {d}: replayed 4 hand files one by one; continuity")
    assert "was not checked" in r.stdout.splitlines()[0]
    assert [int(m) for m in re.findall(r"^Hand (\d+):", r.stdout, re.M)] == [1, 2, 3, 4]
    assert "Session ended" not in r.stdout
    r = run("replay", str(d), "--json")
    assert r.exit_code == 0
    assert [x["hand"] for x in json.loads(r.stdout)] == [1, 2, 3, 4]  # stdout stays JSON
    assert "continuity between hands" in r.stderr


def test_replay_play_folder_illegal_action_names_file_and_line_exit_1(tmp_path):
    d = _play_folder(tmp_path)
    p = d / "hand-0003.toml"
    text = p.read_text(encoding="utf-8")
    hh = HandHistory.from_toml(text)
    first = str(hh.actions[0])
    wrong = next(s for s in hh.seated if s != hh.actions[0].seat)
    text = text.replace(f'    "{first}",', f'    "p{wrong + 1} {first.split()[1]}",', 1)
    p.write_text(text, encoding="utf-8")
    r = run("replay", str(d))
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{p}:{line_of(text, f'p{wrong + 1} {first.split()[1]}')}: action 1 ")


def test_replay_play_folder_malformed_hand_exit_2_and_link_outside_refused(tmp_path):
    d = _play_folder(tmp_path)
    (d / "hand-0002.toml").write_text("format = \n", encoding="utf-8")
    r = run("replay", str(d))
    assert r.exit_code == 2 and r.stderr.startswith(f"{d / 'hand-0002.toml'}:")
    d2 = _play_folder(tmp_path / "b")
    outside = tmp_path / "outside.toml"
    shutil.copy(d2 / "hand-0004.toml", outside)
    (d2 / "hand-0005.toml").symlink_to(outside)
    r = run("replay", str(d2))
    assert r.exit_code == 2
    assert f"{d2 / 'hand-0005.toml'}: a link to a file outside the folder" in r.stderr
    assert r.stdout == ""


def test_replay_folder_without_hand_files_exit_2(tmp_path):
    (tmp_path / "session.json").write_text("{}", encoding="utf-8")
    (tmp_path / "hand-1.toml").write_text("", encoding="utf-8")  # not a hand-NNNN.toml name
    r = run("replay", str(tmp_path))
    assert r.exit_code == 2 and "no session.toml and no hand files (hand-0001.toml" in r.stderr


# -- user-facing wording: no developer words in any --help ----------------------------------------


@pytest.mark.parametrize("cmd", ["simulate", "odds", "tips", "tournament", "replay", "rules", "presets"])
def test_help_has_no_issue_numbers_or_seeds_and_rule_shows_key_value(cmd):
    r = runner.invoke(app, [cmd, "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert r.exit_code == 0
    text = r.stdout
    assert not re.search(r"issue\s*#?\d", text, re.I), text
    assert "seeds" not in text
    assert "<list[str]>" not in text
    if "--rule" in text:
        assert "KEY=VALUE" in text


def test_top_level_help_has_no_issue_numbers():
    r = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and not re.search(r"issue\s*#?\d", r.stdout, re.I) and "seeds" not in r.stdout


@pytest.mark.parametrize(
    "text", ["a=" + "[" * 500 + "]" * 500, "a=" + "{x=" * 400 + "1" + "}" * 400, "a=" + "[" * 1000 + "]" * 1000]
)
def test_replay_deeply_nested_file_exit_2_no_traceback(tmp_path, text):
    p = tmp_path / "d.toml"
    p.write_text(text + "\n", encoding="utf-8")
    r = run("replay", str(p))
    line, msg = _one_line_exit_2(r, p)
    assert line == 1 and "not valid TOML (nested too deeply)" in msg
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_replay_play_folder_hand_number_must_match_the_file_name(tmp_path):
    d = _play_folder(tmp_path)
    p = d / "hand-0001.toml"
    text = p.read_text(encoding="utf-8")
    assert "\nhand = 1\n" in text
    text = text.replace("\nhand = 1\n", "\nhand = 2\n", 1)
    p.write_text(text, encoding="utf-8")
    r = run("replay", str(d))
    line, msg = _one_line_exit_2(r, p)
    assert line == line_of(text, "hand = 2")
    assert "hand 2 in the file hand-0001.toml" in msg and "hand-0002.toml" in msg
    # without a hand key the file's name alone numbers it
    p.write_text(text.replace("\nhand = 2\n", "\n", 1), encoding="utf-8")
    r = run("replay", str(d))
    assert r.exit_code == 0, r.output
