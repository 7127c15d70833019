"""``ramsli odds`` (issue #6): estimates and every error path."""

import json

import pytest
from typer.testing import CliRunner

from ramsli.cli import app
from ramsli.lab.odds import OddsError, estimate
from ramsli.rules import Rules

runner = CliRunner()


def test_estimate_definitions():
    """out costs exactly the ante (R5.5); a trump ace always takes a trick; CIs are finite."""
    r = estimate("AS 9S KH 8D 7C", "TS", 5, 2, "in,out", time_s=0.2, seed=1, batch=2000)
    assert r["ev_out"]["mean"] == -1 and r["ev_out"]["ci95"] == 0
    assert r["p_trick"]["mean"] == 1.0
    assert r["ev_diff"]["mean"] == pytest.approx(r["ev_in"]["mean"] + 1)
    assert r["accepted"] <= r["samples"]
    weak = estimate("9H 8D 8C 9C 7S", "TS", 5, 0, "", time_s=0.2, seed=1, batch=2000)
    assert weak["ev_diff"]["mean"] < r["ev_diff"]["mean"]


def test_dealer_forced_has_no_out():
    r = estimate("9H 8D 8C 9C 7S", "TS", 4, 3, "out,out,out", time_s=0.1, batch=1000)
    assert r["out_allowed"] is False and r["ev_out"] is None
    assert r["p_most"]["mean"] == 1.0  # a walkover (R4.6)


def test_engine_bot_path():
    from ramsli.bots.base import BOTS, RandomBot

    BOTS.setdefault("test-random", RandomBot)
    r = estimate("AS KS AH KD KC", "TS", 3, 0, "", bot="test-random", time_s=0.05)
    assert r["p_most"]["mean"] > 0.5 and r["ev_out"]["mean"] == -1
    r = estimate("AS KS AH KD KC", "TS", 3, 1, "in", bot="tips", rules=Rules(), time_s=0.05, batch=100)
    assert r["accepted"] >= 200


@pytest.mark.parametrize("cards,tu,players,seat,before,msg", [
    ("AS 9S KH 8D ZZ", "TH", 5, 1, "", "not a card"),
    ("AS 9S KH 8D AS", "TH", 5, 1, "", "given twice"),
    ("AS 9S KH 8D", "TH", 5, 1, "", "exactly five"),
    ("AS 9S KH 8D 7C", "9S", 5, 1, "", "also in my cards"),
    ("AS 9S KH 8D 2C", "TH", 5, 1, "", "not in the piquet32"),
    ("AS 9S KH 8D 7C", "X1", 5, 1, "", "joker"),
    ("AS 9S KH 8D 7C", "TH", 7, 1, "", "2..6"),
    ("AS 9S KH 8D 7C", "TH", 5, 5, "", "--seat 5"),
    ("AS 9S KH 8D 7C", "TH", 5, -1, "", "--seat -1"),
    ("AS 9S KH 8D 7C", "TH", 5, 1, "in,out", "needs 1 entries"),
    ("AS 9S KH 8D 7C", "TH", 5, 2, "in,maybe", "not a declaration"),
])
def test_errors(cards, tu, players, seat, before, msg):
    with pytest.raises(OddsError, match=msg):
        estimate(cards, tu, players, seat, before, time_s=0.05)


def test_cli(tmp_path):
    r = runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--players", "5", "--seat", "2",
                            "--before", "in,out", "--time", "0.2", "--json"])  # the issue's own example
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["ev_out"]["mean"] == -1
    r = runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--time", "0.2"])
    assert r.exit_code == 0 and "in - out" in r.output
    r = runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--seat", "1", "--before", "in,out"])
    assert r.exit_code == 2 and "--before needs 1 entries" in r.output
    r = runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--preset", "compulsory", "--before", "in"])
    assert r.exit_code == 2 and "compulsory" in r.output
