"""``ramsli tips`` (issue #6): the report is written with every claim and its charts."""

from typer.testing import CliRunner

from ramsli.cli import app

runner = CliRunner()


def test_tips_report(tmp_path):
    out = tmp_path / "tips.md"
    r = runner.invoke(app, ["tips", "--out", str(out), "--hands", "500", "--odds-time", "0.02", "-q"])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    for claim in ("Stay in only", "Count the 'in'", "Lead trumps", "sole Ace", "overtrump", "General Rams",
                  "10% win rate"):
        assert claim in text
    assert (tmp_path / "tips" / "stay_in.png").stat().st_size > 1000
    assert (tmp_path / "tips" / "tight.png").stat().st_size > 1000


def test_tips_bad_input(tmp_path):
    r = runner.invoke(app, ["tips", "--out", str(tmp_path / "x.txt"), "--hands", "500"])
    assert r.exit_code == 2
