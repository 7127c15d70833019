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


@pytest.mark.parametrize(
    "cards,tu,players,seat,before,msg",
    [
        ("AS 9S KH 8D ZZ", "TH", 5, 1, "", "not a card"),
        ("AS 9S KH 8D AS", "TH", 5, 1, "", "given twice"),
        ("AS 9S KH 8D", "TH", 5, 1, "", "exactly five"),
        ("AS 9S KH 8D 7C", "9S", 5, 1, "", "also in my cards"),
        ("AS 9S KH 8D 2C", "TH", 5, 1, "", "not in the piquet32"),
        ("AS 9S KH 8D 7C", "X1", 5, 1, "", "joker"),
        ("AS 9S KH 8D 7C", "TH", 7, 1, "", r"7 players: allowed are 2 to 6 \(R2.1\)"),  # the engine's check_setup
        ("AS 9S KH 8D 7C", "TH", 5, 5, "", "--seat 5"),
        ("AS 9S KH 8D 7C", "TH", 5, -1, "", "--seat -1"),
        ("AS 9S KH 8D 7C", "TH", 5, 1, "in,out", "needs 1 entries"),
        ("AS 9S KH 8D 7C", "TH", 5, 2, "in,maybe", "not a declaration"),
    ],
)
def test_errors(cards, tu, players, seat, before, msg):
    with pytest.raises(OddsError, match=msg):
        estimate(cards, tu, players, seat, before, time_s=0.05)


def test_cli(tmp_path):
    r = runner.invoke(
        app,
        [
            "odds",
            "AS 9S KH 8D 7C",
            "--turn-up",
            "10S",
            "--players",
            "5",
            "--seat",
            "2",
            "--before",
            "in,out",
            "--time",
            "0.2",
            "--json",
        ],
    )  # the issue's own example
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["ev_out"]["mean"] == -1
    r = runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--time", "0.2"])
    assert r.exit_code == 0 and "in - out" in r.output
    r = runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--seat", "1", "--before", "in,out"])
    assert r.exit_code == 2 and "--before needs 1 entries" in r.output
    r = runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--preset", "compulsory", "--before", "in"])
    assert r.exit_code == 2 and "Compulsory" in r.output


def _odds(*extra):
    return runner.invoke(app, ["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--time", "0.1", *extra])


@pytest.mark.parametrize(
    "extra,msgs",
    [
        (["--pot", "99999999999999999999"], ["--pot 99999999999999999999", "0..1,000,000,000", "R5.4"]),
        (["--rule", "starting_stack=99999999999999999999"], ["starting_stack", "at most 1,000,000,000"]),
        (["--rule", "bete=99999999999999999999"], ["bete", "at most 1,000,000,000"]),
        (["--rule", "ante=999"], ["The ante 999 is more than the starting stack 20", "R3.5"]),  # check_setup
        (["--pot", "-5", "--seed", "-1"], ["--pot -5", "--seed -1: allowed is a whole number >= 0"]),
        (["--time", "-1"], ["--time -1", "finite number > 0"]),
        (["--time", "nan"], ["--time nan", "finite number > 0"]),
        (["--precision", "-0.5"], ["--precision -0.5", ">= 0"]),
        (["--precision", "inf"], ["--precision inf", "finite"]),
        (["--players", "4", "--rule", "players=3"], ["--players 4", "players=3", "R2.1"]),
    ],
)
def test_cli_bad_numbers_exit_2_with_one_message_per_option(extra, msgs):
    r = _odds(*extra)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    for m in msgs:
        assert m in r.output
    if "--seed" in extra and "--pot" in extra:  # one line per bad option
        assert len([ln for ln in r.output.splitlines() if ln.startswith("Error:")]) == 2


def test_short_stacks_cap_payments_r5_8():
    """bete 999 with stacks of 20: a player can lose at most its stack (R5.8, R3.3)."""
    rules = Rules().with_assignments(["bete=999"])
    r = estimate("9H 8D 8C 9C 7S", "TS", 5, 0, "", rules=rules, time_s=0.1, seed=3, batch=2000)
    assert r["p_trick"]["mean"] < 0.95  # bete does happen with this hand
    assert r["ev_in"]["mean"] >= -rules.starting_stack
    r = estimate("9H 8D 8C 9C 7S", "TS", 5, 0, "", rules=Rules().with_assignments(["ante=20"]), time_s=0.05, batch=1000)
    assert r["ev_out"]["mean"] == -20  # an ante of the whole stack is payable


def test_kernel_conserves_counters_with_short_stacks():
    """R3.4 and R5.8 in the kernel: huge bete, stacks never negative, counters conserved."""
    from ramsli.lab import kernel as K

    rules = Rules().with_assignments(["bete=999"])
    b = K.play_batch(rules, 4, 3000, seed=5, pot=7)
    assert (b.stacks >= 0).all()
    assert ((b.stacks.sum(1) + b.carry) == 4 * rules.starting_stack + 7).all()
    with pytest.raises(ValueError, match="R5.4"):
        K.play_batch(rules, 4, 10, pot=10**20)


@pytest.mark.parametrize("alias", ["rules", "easy"])
def test_the_alias_and_the_level_of_the_tips_player_are_the_tips_player(alias):
    """``rules`` (the old name) and ``easy`` (its level) are ``tips`` (issue #13): the kernel, with the
    same conditioning on the declarations before, not the engine's forced declarations."""
    tips = estimate("AS 9S KH 8D 7C", "TS", 5, 2, "in,out", bot="tips", time_s=0.1, seed=4, batch=1000)
    other = estimate("AS 9S KH 8D 7C", "TS", 5, 2, "in,out", bot=alias, time_s=0.1, seed=4, batch=1000)
    assert other["conditioning"] == tips["conditioning"] == "rejection"
    assert other["samples"] >= 1000


def test_the_easy_level_is_a_kernel_bot_in_simulations():
    from ramsli.lab.simulate import _as_played, kernel_policy

    assert kernel_policy(["easy", "tips"]) is not None
    assert list(kernel_policy(["easy"])) == list(kernel_policy(["tips"]))
    assert _as_played("easy") == _as_played("rules") == "tips:tracking=0"
