"""Duplicate tournaments and the ``ramsli tournament`` command (issue #4)."""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from ramsli.analysis.tournament import deal_deck, play_deal, run_tournament
from ramsli.cli import app
from ramsli.errors import TableError
from ramsli.rules import Rules

SPECS = ["montecarlo:samples=2,nodes=300", "rules", "random"]


def test_duplicate_plays_every_rotation_of_the_same_deal():
    rules = Rules()
    raw = play_deal(SPECS, rules, seed=4, i=2, duplicate=True)
    assert all(len(raw["net"][j]) == 3 for j in range(3))
    # chips are neither created nor destroyed (R3.4): what the bots lose stays in the pot
    for r in range(3):
        total = sum(raw["net"][j][r] for j in range(3))
        assert total <= 0
        assert total >= -(3 * rules.bete)
    assert deal_deck(rules, 4, 2) == deal_deck(rules, 4, 2)
    assert deal_deck(rules, 4, 2) != deal_deck(rules, 4, 3)


def test_same_seed_same_results_whatever_the_jobs():
    a = run_tournament(SPECS, Rules(), deals=6, seed=9, duplicate=True)
    b = run_tournament(SPECS, Rules(), deals=6, seed=9, duplicate=True, jobs=2, chunk=2)
    c = run_tournament(SPECS, Rules(), deals=6, seed=10, duplicate=True)
    assert a.per_deal == b.per_deal
    assert a.per_deal != c.per_deal
    assert a.hands == 18 and a.bots[1].hands == 18
    assert [x.mean for x in a.bots] == [x.mean for x in b.bots]
    for bot in a.bots:
        assert 0 <= bot.bete_rate <= bot.in_rate <= 1
        assert bot.ci95 >= 0


def test_bad_table_is_refused():
    with pytest.raises(TableError, match="allowed are 2 to 6") as e:  # the engine's check_setup
        run_tournament(["rules"], Rules(), deals=1)
    assert e.value.refusal.code == "seat_count"
    with pytest.raises(ValueError, match="unknown bot"):
        run_tournament(["rules", "nobody"], Rules(), deals=1)


def test_cli_smoke_writes_json_csv_and_plot(tmp_path):
    out = tmp_path / "res"
    png = tmp_path / "chart.png"
    r = CliRunner().invoke(
        app,
        [
            "tournament",
            "--bots",
            "montecarlo:samples=2,nodes=300,rules,random,random",
            "--hands",
            "3",
            "--duplicate",
            "--seed",
            "1",
            "--rule",
            "bete=10",
            "--out",
            str(out),
            "--plot",
            str(png),
            "--quiet",
        ],
    )
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "res.json").read_text())
    assert data["deals"] == 3 and data["hands"] == 12 and data["rules"]["bete"] == 10
    assert [b["label"] for b in data["bots"]] == ["montecarlo:samples=2,nodes=300", "rules", "random#1", "random#2"]
    rows = list(csv.DictReader((tmp_path / "res.csv").open()))
    assert len(rows) == 4 and float(rows[1]["in_rate"]) <= 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "counters/hand" in r.output


def test_cli_rejects_bad_input():
    r = CliRunner().invoke(app, ["tournament", "--bots", "rules,bogus", "--hands", "1", "-q"])
    assert r.exit_code == 2
    assert "Unknown bot" in r.output
    r = CliRunner().invoke(app, ["tournament", "--bots", "rules,rules", "--rule", "bete=x", "-q"])
    assert r.exit_code == 2


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--out", "/nonexistent/dir/x.json"], "does not exist"),
        (["--plot", "/nonexistent/x.png"], "does not exist"),
        (["--plot", "chart.jpg"], "FILE.png"),
        (["--out", "t.xyz"], "unknown suffix '.xyz'"),
        (["--out", "/dev/full"], "not a folder"),
        (["--rule", "players=3"], "R2.1"),
        (["--seed", "-1"], "--seed -1"),
        (["--jobs", "100000"], "--jobs 100000: allowed is a whole number of worker processes 1..64"),
        (["--jobs", "0"], "--jobs 0"),
        (
            ["--hands", "99999999999999999999"],
            "--hands 99999999999999999999: allowed is a whole number of deals 1..1,000,000",
        ),
        (["--hands", "0"], "--hands 0"),
    ],
)
def test_cli_refuses_before_playing(args, msg, tmp_path):
    r = CliRunner().invoke(app, ["tournament", "--bots", "random,rules", "--hands", "2", "-q"] + args)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)  # no traceback
    assert msg in r.output
    assert "counters/hand" not in r.output  # refused before any deal was played


def test_cli_out_folder_and_json_only(tmp_path):
    r = CliRunner().invoke(app, ["tournament", "--bots", "random,rules", "--hands", "2", "-q", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "is a folder" in r.output
    assert not tmp_path.with_suffix(".json").exists()
    r = CliRunner().invoke(
        app, ["tournament", "--bots", "random,rules", "--hands", "2", "-q", "--out", str(tmp_path / "only.json")]
    )
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["only.json"]


def test_library_refuses_mismatch_and_negative_seed():
    with pytest.raises(ValueError, match="players=3"):
        run_tournament(["rules", "random"], Rules(players=3), deals=1)
    with pytest.raises(ValueError, match="seed"):
        run_tournament(["rules", "random"], Rules(), deals=1, seed=-1)


def test_cli_unknown_bot_lists_the_bots_once():
    r = CliRunner().invoke(app, ["tournament", "--bots", "foo,rules", "-n", "1", "-q"])
    assert r.exit_code == 2
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "Unknown bot 'foo'" in r.output
    # (another test may register a bot named test-random in this process: count whole names)
    assert r.output.count("allowed are") == 1 and r.output.count("montecarlo") == 1
    assert r.output.count(" random,") == 1


def test_cli_bad_bot_option_is_a_clean_error_exit_2():
    r = CliRunner().invoke(app, ["tournament", "--bots", "montecarlo:samplez=3,rules", "-n", "1", "-q"])
    assert r.exit_code == 2
    assert r.exception is None or isinstance(r.exception, SystemExit)  # no TypeError traceback
    assert "samplez" in r.output and "TypeError" not in r.output and "__init__" not in r.output


def test_tips_bot_is_listed_without_importing_the_lab_kernel():
    """The tips bot registers through the bot registry; importing its module compiles nothing."""
    import subprocess
    import sys

    code = (
        "import sys; from ramsli.bots.base import bot_names; names = bot_names(); "
        "print('tips' in names, 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "False"]


@pytest.mark.parametrize("bots", ["foo", "foo,rules,random,random,random,random,random"])
def test_cli_unknown_bot_is_named_before_the_bots_are_counted(bots):
    r = CliRunner().invoke(app, ["tournament", "--bots", bots, "-n", "1", "-q"])
    assert r.exit_code == 2
    assert "Unknown bot 'foo'; allowed are" in r.output
    assert "bots given" not in r.output


def test_cli_out_inside_a_file_says_it_is_a_file(tmp_path):
    (tmp_path / "afile").write_text("")
    for opt, name in (("--out", "x.json"), ("--plot", "x.png")):
        r = CliRunner().invoke(
            app, ["tournament", "--bots", "random,rules", "-n", "2", "-q", opt, str(tmp_path / "afile" / name)]
        )
        assert r.exit_code == 2, r.output
        assert f"{str(tmp_path / 'afile')!r} is a file, not a folder" in r.output
        assert "does not exist" not in r.output and "counters/hand" not in r.output


def test_cli_plot_without_matplotlib_fails_before_playing(tmp_path, monkeypatch):
    import importlib.util

    import ramsli.commands.tournament as T

    real = importlib.util.find_spec
    monkeypatch.setattr(
        T.importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a)
    )
    monkeypatch.setattr(T, "run_tournament", lambda *a, **k: pytest.fail("a deal was played"))
    r = CliRunner().invoke(
        app, ["tournament", "--bots", "random,rules", "-n", "2", "-q", "--plot", str(tmp_path / "x.png")]
    )
    assert r.exit_code == 2, r.output
    assert "--plot needs matplotlib: install the extra 'lab' (pip install -e '.[lab]' in a checkout)" in r.output
    assert not (tmp_path / "x.png").exists()


def test_library_starts_no_more_processes_than_work_units(monkeypatch):
    import ramsli.analysis.tournament as T

    monkeypatch.setattr(T, "ProcessPoolExecutor", lambda *a, **k: pytest.fail("a pool for one work unit"))
    res = run_tournament(["rules", "random"], Rules(), deals=2, seed=1, jobs=64, chunk=2)
    assert res.deals == 2


def test_cli_one_bot_is_one_bot_given():
    r = CliRunner().invoke(app, ["tournament", "--bots", "easy", "-n", "1", "-q"])
    assert r.exit_code == 2
    assert "allowed are 2 to 6 (R2.1)" in r.output and "1 bots" not in r.output  # the engine's set-up check


def test_results_say_what_a_level_stood_for(tmp_path):
    """A level's results record the bot spec it played as (issue #13), in the JSON and the CSV."""
    import csv
    import json

    r = CliRunner().invoke(
        app, ["tournament", "--bots", "easy,medium,random", "-n", "1", "-q", "--out", str(tmp_path / "res")]
    )
    assert r.exit_code == 0, r.output
    bots = json.loads((tmp_path / "res.json").read_text())["bots"]
    assert [(b["spec"], b["plays_as"]) for b in bots] == [
        ("easy", "tips:eps=0.35"),
        ("medium", "montecarlo:samples=2,eps=0.2"),
        ("random", "random"),
    ]
    rows = list(csv.DictReader((tmp_path / "res.csv").open()))
    assert [row["plays_as"] for row in rows] == ["tips:eps=0.35", "montecarlo:samples=2,eps=0.2", "random"]
