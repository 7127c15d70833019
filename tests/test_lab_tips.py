"""``ramsli tips`` (issue #6): the report is written with every claim and its charts."""

from typer.testing import CliRunner

from ramsli.cli import app

runner = CliRunner()


def test_tips_report(tmp_path):
    out = tmp_path / "tips.md"
    r = runner.invoke(app, ["tips", "--out", str(out), "--hands", "500", "--odds-time", "0.02", "-q"])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    for claim in (
        "Stay in only",
        "Count the 'in'",
        "Lead trumps",
        "sole Ace",
        "overtrump",
        "General Rams",
        "10% win rate",
    ):
        assert claim in text
    assert (tmp_path / "tips" / "stay_in.png").stat().st_size > 1000
    assert (tmp_path / "tips" / "tight.png").stat().st_size > 1000


def test_tips_bad_input(tmp_path):
    r = runner.invoke(app, ["tips", "--out", str(tmp_path / "x.txt"), "--hands", "500"])
    assert r.exit_code == 2


def test_tips_default_out_is_tips_md_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["tips", "--hands", "300", "--odds-time", "0.02", "-q"])
    assert r.exit_code == 0, r.output
    assert f"wrote {tmp_path / 'tips.md'}" in r.output and str(tmp_path / "tips") in r.output
    text = (tmp_path / "tips.md").read_text()
    assert (tmp_path / "tips" / "tight.png").exists()
    assert "seeds" not in text and "issue" not in text
    assert "`ramsli tips --hands 300 --seed 0 --odds-time 0.02`" in text


def _fake(mean, ci):
    return {"mean": mean, "ci95": ci}


def _res(gr_announced=3, diff=0.01):
    odds = {
        "p_trick": _fake(0.5, 0.01),
        "p_most": _fake(0.1, 0.01),
        "ev_in": _fake(-1, 0.1),
        "ev_diff": _fake(diff, 0.05),
    }
    return {
        "elapsed_s": 1.0,
        "stay_in": {f"h{i}": odds for i in range(5)},
        "count_ins": {f"c{i}": odds for i in range(3)},
        "walkover": {"w0": odds, "w1": odds},
        "trump_lead": {"diff": 0.001, "ci95": 0.002, "changed": 0.01, "diff_when_changed": 0.1},
        "ace_early": {"diff": -0.01, "ci95": 0.002, "changed": 0.01, "diff_when_changed": -1},
        "general_rams": {
            "hands": 1000,
            "announced": gr_announced,
            "made": 0.0,
            "counters_when_announced": -7,
            "counters_same_hands_without": 3,
            "diff": -10,
            "diff_ci95": 20,
        },
        "tight": {
            3: {
                "in_rate": 0.2,
                "win_when_in": 0.5,
                "counters_per_hand": -0.01,
                "ci95": 0.02,
                "session_counters_per_hand": 0.0,
            }
        },
    }


def test_report_draws_no_conclusion_when_the_interval_includes_zero_or_events_are_few():
    from ramsli.lab.tips import MIN_EVENTS, _markdown, sign

    assert (sign(0.1, 0.05), sign(-0.1, 0.05), sign(0.01, 0.05)) == (1, -1, 0)
    text = _markdown(_res(gr_announced=3), 1000, 0)
    assert "The tip is right" not in text and "The tip is wrong" not in text
    assert "worth it" not in text and "not worth the bete risk" not in text
    assert "**No measurable difference at this sample size.**" in text  # section 3 (0.001 ± 0.002)
    assert "Saving it is better" in text  # section 4 (-0.01 ± 0.002)
    assert "announced 3 times" in text and f"fewer than {MIN_EVENTS} announcements" in text
    assert "does not pay" not in text and "but the bet pays" not in text and "took all five" not in text
    assert "3 players: no measurable difference at this sample size" in text
    text = _markdown(_res(gr_announced=MIN_EVENTS, diff=-0.5), 1000, 0)
    assert "The tip is right" in text and "not worth the bete risk" in text
    assert "Whether the bet pays: no measurable difference" in text  # -10 ± 20


def test_tips_hands_and_out_folder_are_checked_before_any_work(tmp_path):
    r = runner.invoke(app, ["tips", "--out", str(tmp_path / "t.md"), "--hands", "1000001", "-q"])
    assert r.exit_code == 2 and "--hands 1000001: allowed is a whole number of hands 100..1,000,000" in r.output
    r = runner.invoke(app, ["tips", "--out", str(tmp_path / "t.md"), "--hands", "99", "-q"])
    assert r.exit_code == 2 and "100..1,000,000" in r.output
    (tmp_path / "afile").write_text("")
    r = runner.invoke(app, ["tips", "--out", str(tmp_path / "afile" / "t.md"), "-q"])
    assert r.exit_code == 2 and "'afile' is a file, not a folder" in r.output.replace(str(tmp_path) + "/", "")
    assert not (tmp_path / "t.md").exists()
