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
        [r["counters_per_hand"] for r in b["bots_summary"]]
    )


def test_cli_hands_json(tmp_path):
    out = tmp_path / "s.json"
    r = runner.invoke(app, ["simulate", "--hands", "2000", "--players", "3", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["hands"] == 2000 and len(data["positions"]) == 3
    assert 0 < data["positions"][0]["in_rate"] <= 1


def test_cli_sessions_engine_csv(tmp_path):
    out = tmp_path / "s.csv"
    r = runner.invoke(
        app,
        [
            "simulate",
            "--sessions",
            "3",
            "--bots",
            "random,tips",
            "--engine",
            "-q",
            "--rule",
            "end=hands:5",
            "--out",
            str(out),
            "--jobs",
            "2",
        ],
    )
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("table,key")
    assert "sessions: 3" in " ".join(r.output.split())


def test_cli_kernel_sessions():
    r = runner.invoke(app, ["simulate", "--sessions", "50", "-q", "--preset", "compulsory"])
    assert r.exit_code == 0, r.output
    assert "ends: bust 50" in " ".join(r.output.split())


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--hands", "10", "--sessions", "2"], "not both"),
        (["--sessions", "0"], "--sessions 0"),
        (["--hands", "10", "--bots", "random"] + ["--players", "7"], "2 to 6"),
        (["--hands", "10", "--bots", "nosuchbot,random"], "Unknown bot"),
        (["--hands", "10", "--rule", "bete=-3"], "bete"),
        (["--hands", "10", "--out", "x.txt"], "unknown suffix '.txt'"),
        (["--hands", "10", "--out", "/nonexistent/dir/x.json"], "does not exist"),
        (["--hands", "10", "--rule", "starting_stack=99999999999999999999"], "at most 1,000,000,000"),
        (["--hands", "10", "--rule", "ante=999"], "R3.5"),
        (["--hands", "10", "--bots", "random,random", "--players", "4"], "--players 4"),
        (["--hands", "10", "--bots", "random,random", "--rule", "players=3"], "players=3"),
        (["--hands", "10", "--players", "4", "--rule", "players=3"], "R2.1"),
        (["--hands", "10", "--seed", "-1"], "--seed -1"),
        (
            ["--hands", "99999999999999999999999"],
            "--hands 99999999999999999999999: allowed is a whole number of hands 1..1,000,000,000",
        ),
        (["--hands", "1000000001"], "1..1,000,000,000"),
        (["--sessions", "10000001"], "--sessions 10000001: allowed is a whole number of sessions 1..10,000,000"),
        (["--hands", "10", "--jobs", "100000"], "--jobs 100000: allowed is a whole number of worker processes 1..64"),
        (["--hands", "10", "--jobs", "0"], "--jobs 0"),
        (["--hands", "10", "--out", "{afile}/x.json"], "is a file, not a folder"),
    ],
)
def test_cli_errors(args, msg, tmp_path):
    (tmp_path / "afile").write_text("")
    args = [a.replace("{afile}", str(tmp_path / "afile")) for a in args]
    r = runner.invoke(app, ["simulate", "-q"] + args)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)  # no traceback
    assert msg in r.output


def test_cli_out_without_suffix_writes_both_and_rule_players_fills_seats(tmp_path):
    r = runner.invoke(app, ["simulate", "--hands", "50", "-q", "--rule", "players=3", "--out", str(tmp_path / "res")])
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "res.json").read_text())["players"] == 3
    assert (tmp_path / "res.csv").read_text().startswith("table,key")
    r = runner.invoke(app, ["simulate", "--hands", "5", "-q", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "is a folder" in r.output


def test_engine_path_takes_large_stacks():
    """The engine holds any stack size; the kernel refuses above MAX_COUNTERS with a clear message."""
    from ramsli.rules import Rules

    rules = Rules().with_assignments(["starting_stack=99999999999999999999"])
    res = simulate(rules, ["random"] * 3, hands=6, seed=1, use_kernel=False)
    assert res["hands"] == 6 and res["engine"] == "engine"
    with pytest.raises(ValueError, match="--engine"):
        simulate(rules, ["random"] * 3, hands=6, seed=1)


def test_bare_simulate_plays_the_default_hands():
    """`ramsli simulate` with no arguments: 10,000 hands of random bots, 5 players, traditional."""
    from ramsli.commands.simulate import DEFAULT_HANDS

    r = runner.invoke(app, ["simulate", "-q"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert f"{DEFAULT_HANDS:,} hands of 5 players by the kernel" in text


def test_compile_note_and_warm_up(monkeypatch):
    """The compile note is given when the cache is cold, and the warm-up runs once per process."""
    from ramsli.lab import kernel as K
    from ramsli.rules import Rules

    K.warm_up("batch")
    assert not K.cache_is_cold("batch")  # compiled in this process
    notes: list[str] = []
    assert K.warm_up("batch", notes.append) == 0.0 and notes == []
    monkeypatch.setattr(K, "_warm", set())
    monkeypatch.setattr(K, "cache_is_cold", lambda kind: True)
    res = simulate(Rules(), ["random"] * 3, hands=20, seed=1, note=notes.append)
    assert notes == [K.COMPILE_NOTE] and res["hands"] == 20
    with pytest.raises(KeyError):
        K.warm_up("nosuchkind")


def test_engine_path_starts_no_more_processes_than_work_units(monkeypatch):
    """--jobs 64 for 3 hands: 3 work units of one hand, so a pool of 3 processes, not 64."""
    import ramsli.lab.simulate as S
    from ramsli.rules import Rules

    asked = []

    class Stop(Exception):
        pass

    def pool(workers):
        asked.append(workers)
        raise Stop

    monkeypatch.setattr(S, "ProcessPoolExecutor", pool)
    with pytest.raises(Stop):
        simulate(Rules(), ["random"] * 3, hands=3, seed=1, jobs=64, use_kernel=False)
    assert asked == [3]


def _lines(output: str) -> list[str]:
    """The summary's sentences: Rich wraps them at the terminal's width; one per line again."""
    text = " ".join(output.split())
    starts = ("Pot of a hand played out", "How the hands ended", "Hands that left counters", "sessions:")
    cuts = sorted(i for s in starts if (i := text.find(s)) >= 0)
    return [text[i:j].strip() for i, j in zip(cuts, [*cuts[1:], len(text)])]


def test_cli_summary_says_what_each_pot_number_counts(tmp_path):
    """The pot of a hand played out (R5.1) is the antes alone in --hands mode, and the line says so;
    the carry-over rate (R5.4) is the hands that left counters for the next, not thrown-in hands
    (D-10), which dealer_forced rules out (R4.5): each number stands beside what it counts."""
    out = tmp_path / "s.json"
    r = runner.invoke(app, ["simulate", "--hands", "300", "--kernel", "python", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    pot, ended, left = _lines(r.output)[:3]
    assert pot.startswith("Pot of a hand played out (tricks played, R5.1): always 5 counters;")
    assert "every hand starts with an empty pot, so its pot is the 5 antes (R4.1)" in pot
    played = 1 - data["walkover_rate"] - data["thrown_in_rate"]
    assert f"played out {played:.1%}" in ended and f"walkover {data['walkover_rate']:.1%} (" in ended
    assert f"the pot shared: {data['split_rate']:.1%}, R5.2" in ended
    assert "thrown in 0.0% (everyone out, the pot carries over, D-10; never with dealer_forced on, R4.5)" in ended
    assert left.startswith("Hands that left counters in the pot for the next hand (a bete, R5.3;")
    assert f"D-10): {data['carry_over_rate']:.1%}; here the next hand starts afresh" in left
    assert data["carry_over_rate"] > 0.2 and "carried over" not in r.output


def test_summary_of_sessions_gives_the_pots_spread_and_the_thrown_in_hands():
    """In whole sessions the pot carries over (R5.4), so its spread is shown; without dealer_forced a
    hand can be thrown in (D-10) and no 'never' is said."""
    from ramsli.commands.simulate import outcome_lines

    res = {
        "mode": "sessions",
        "players": 5,
        "rules": {"ante": 1, "dealer_forced": False, "compulsory": False},
        "pot": {"played_hands": 900, "mean": 7.25, "p50": 6, "p90": 11, "p99": 16},
        "split_rate": 0.134,
        "walkover_rate": 0.158,
        "thrown_in_rate": 0.027,
        "carry_over_rate": 0.468,
    }
    pot, ended, left = outcome_lines(res)
    assert pot.endswith(
        "mean 7.25 counters, median 6, 90% of them at most 11, 99% at most 16 "
        "(the antes and what the hand before left, R5.4)"
    )
    assert "thrown in 2.7% (everyone out, the pot carries over, D-10)" in ended and "never" not in ended
    assert left.endswith(": 46.8%")
