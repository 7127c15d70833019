"""``ramsli simulate`` (issue #6): kernel and engine paths, outputs."""

import json

import pytest
from typer.testing import CliRunner

from ramsli.cli import app
from ramsli.lab.simulate import simulate

runner = CliRunner()


def test_kernel_and_engine_give_the_same_summary():
    """Same seed, deterministic tips bots: the kernel path and the engine path count the same hands."""
    from ramsli.rules import Rules

    bots = ["tips"] * 4
    a = simulate(Rules(), bots, hands=300, seed=4)
    b = simulate(Rules(), bots, hands=300, seed=4, use_kernel=False)
    assert a["engine"] == "kernel" and b["engine"] == "engine"
    for k in ("positions", "split_rate", "carry_over_rate", "walkover_rate"):
        assert a[k] == b[k]
    assert [r["counters_per_hand"] for r in a["bots_summary"]] == pytest.approx(
        [r["counters_per_hand"] for r in b["bots_summary"]])


def test_cli_hands_json(tmp_path):
    out = tmp_path / "s.json"
    r = runner.invoke(app, ["simulate", "--hands", "2000", "--players", "3", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["hands"] == 2000 and len(data["positions"]) == 3
    assert 0 < data["positions"][0]["in_rate"] <= 1


def test_cli_sessions_engine_csv(tmp_path):
    out = tmp_path / "s.csv"
    r = runner.invoke(app, ["simulate", "--sessions", "3", "--bots", "random,tips", "--engine", "-q",
                            "--rule", "end=hands:5", "--out", str(out), "--jobs", "2"])
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("table,key")
    assert "sessions: 3" in " ".join(r.output.split())


def test_cli_kernel_sessions():
    r = runner.invoke(app, ["simulate", "--sessions", "50", "-q", "--preset", "compulsory"])
    assert r.exit_code == 0, r.output
    assert "ends: bust 50" in " ".join(r.output.split())


@pytest.mark.parametrize("args,msg", [
    (["--hands", "10", "--sessions", "2"], "exactly one"),
    (["--hands", "10", "--bots", "random"] + ["--players", "7"], "2..6"),
    (["--hands", "10", "--bots", "nosuchbot,random"], "unknown bot"),
    (["--hands", "10", "--rule", "bete=-3"], "bete"),
    (["--hands", "10", "--out", "x.txt"], ".json or .csv"),
])
def test_cli_errors(args, msg):
    r = runner.invoke(app, ["simulate", "-q"] + args)
    assert r.exit_code == 2
    assert msg in r.output
