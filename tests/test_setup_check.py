"""One set-up check (R2.1, R3.5): the lab, the research adapters and the tournament refuse a bad table
with the engine's :func:`ramsli.session.check_setup` refusal, word for word."""

from __future__ import annotations

import pytest

from ramsli.errors import TableError
from ramsli.rules import Rules
from ramsli.session import check_setup

pytest.importorskip("numba")

from ramsli.analysis.tournament import run_tournament
from ramsli.lab import kernel as K
from ramsli.lab.odds import OddsError, estimate
from ramsli.lab.simulate import simulate
from ramsli.lab.solve import SolveError, check_game

#: (rules, players, the refusal's code): too many seats, the option players unlike them, an ante
#: the starting stack cannot pay
BAD = [
    (Rules(), 7, "seat_count"),
    (Rules(), 1, "seat_count"),
    (Rules(players=3), 4, "players_mismatch"),
    (Rules(ante=30), 3, "ante_above_stack"),
]


def _engine(rules: Rules, n: int) -> TableError:
    with pytest.raises(TableError) as e:
        check_setup(rules, n)
    return e.value


def _callers(rules: Rules, n: int):
    """Every lab entry point that makes a table of ``n`` seats, as (name, call)."""
    bots = ["random"] * n
    yield "simulate hands", lambda: simulate(rules, bots, hands=10)
    yield "simulate sessions", lambda: simulate(rules, bots, sessions=2)
    yield "kernel play_batch", lambda: K.play_batch(rules, n, 10)
    yield "kernel play_sessions", lambda: K.play_sessions(rules, n, 2)
    yield "tournament", lambda: run_tournament(bots, rules, deals=1)
    yield "odds", lambda: estimate("AS 9S KH 8D 7C", "TH", n, 0, "", rules, time_s=0.05)
    yield "solve", lambda: check_game(rules, n)


@pytest.mark.parametrize("rules,n,code", BAD, ids=[f"{c}-{n}" for _, n, c in BAD])
def test_R2_1_R3_5_the_lab_refuses_a_table_with_the_engines_message(rules, n, code):
    engine = _engine(rules, n)
    assert engine.refusal.code == code
    for name, call in _callers(rules, n):
        with pytest.raises((TableError, OddsError, SolveError)) as e:
            call()
        assert str(e.value) == str(engine), name
        refusal = e.value.refusal if isinstance(e.value, TableError) else e.value.__cause__.refusal
        assert refusal == engine.refusal, name


@pytest.mark.parametrize("rules,n,code", BAD, ids=[f"{c}-{n}" for _, n, c in BAD])
def test_R2_1_R3_5_the_research_adapters_refuse_a_table_with_the_engines_message(rules, n, code):
    gym_env = pytest.importorskip("ramsli.rl.gym_env")
    pz = pytest.importorskip("ramsli.rl.pettingzoo_env")
    engine = _engine(rules, n)
    for name, call in (
        ("gymnasium", lambda: gym_env.RamsliEnv(players=n, rules=rules)),
        ("pettingzoo", lambda: pz.RamsliAECEnv(players=n, rules=rules)),
    ):
        with pytest.raises(TableError) as e:
            call()
        assert str(e.value) == str(engine) and e.value.refusal == engine.refusal, name


def test_R2_1_the_openspiel_game_refuses_with_the_engines_message():
    pytest.importorskip("pyspiel")
    from ramsli.rl import openspiel_game as og

    with pytest.raises(TableError) as e:
        og.rules_from_params("traditional", "players=3", 4)
    assert str(e.value) == str(_engine(Rules(players=3), 4))
    with pytest.raises(TableError) as e:
        og.rules_from_params("traditional", "", 7)
    assert e.value.refusal.code == "seat_count"


def test_a_good_table_passes_every_caller():
    rules = Rules()
    check_setup(rules, 3)
    assert len(K.play_batch(rules, 3, 5).tw) == 5
    assert run_tournament(["random", "random", "random"], rules, deals=1).deals == 1
