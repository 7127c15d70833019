"""The arena (issue 26, item 3): duplicate matches, OpenSkill ratings checked against the formula.

The expected ratings are computed here without openskill: the Plackett–Luce update of Weng & Lin
(2011, Algorithm 4) as openskill documents it (ties share a rank and are divided by their count,
the additive dynamics τ is added to σ before each match, κ bounds the variance factor), applied to
the rankings of the very matches the arena played (:func:`play_match`, :func:`lineup`).
"""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from ramsli.analysis.arena import MODEL, BotEntrant, lineup, match_ranks, play_match, run_arena
from ramsli.cli import app
from ramsli.rules import Rules

runner = CliRunner()


def plackett_luce(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """One Plackett–Luce update of single-player teams (mu, sigma) by ``ranks`` (1 best), written out."""
    beta, tau, kappa = MODEL["beta"], MODEL["tau"], MODEL["kappa"]
    rs = [(mu, math.sqrt(s * s + tau * tau)) for mu, s in ratings]
    c = math.sqrt(sum(s * s + beta * beta for _, s in rs))
    n = len(rs)
    sum_q = [sum(math.exp(rs[i][0] / c) for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i, (mu, s) in enumerate(rs):
        e = math.exp(mu / c)
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = e / sum_q[q]
                delta += p * (1 - p) / a[q]
                omega += ((1.0 if q == i else 0.0) - p) / a[q]
        omega *= s * s / c
        delta *= (s * s / c**2) * (s / c)
        out.append((mu + omega, s * math.sqrt(max(1 - delta, kappa))))
    return out


def test_the_formula_by_hand_for_one_match_of_two():
    """Two new bots, one win: worked with pencil and paper. σ² = 625/9 + τ², c² = 2(σ² + β²) = 173.625;
    both exp(μ/c) equal, so the winner's p is 1/2: μ moves by ±(1/2)·σ²/c = ±2.6354; the winner's
    δ = (1/4)·(σ²/c²)·(σ/c) = 0.25 · 0.4 · 0.63246 = 0.063246, so σ = 8.3337 · √(1 − δ) = 8.0659."""
    (w_mu, w_s), (l_mu, l_s) = plackett_luce([(25.0, 25 / 3)] * 2, [1, 2])
    assert w_mu == pytest.approx(27.6354, abs=1e-4) and l_mu == pytest.approx(22.3646, abs=1e-4)
    assert w_s == pytest.approx(8.0659, abs=1e-4)
    assert l_s == pytest.approx(8.3337 * math.sqrt(1 - 0.25 * 0.4 * 0.63246), abs=1e-4)  # the loser's δ: q = winner


def test_arena_ratings_match_a_hand_checked_openskill_update():
    """A tiny fixed run (3 bots, 4 matches, two presets): the arena's μ and σ are the formula's, match by match."""
    specs = ["tips", "random", "montecarlo:samples=2"]
    presets = ["traditional", "general-rams"]
    res = run_arena(specs, deals=4, seed=9, presets=presets)
    expect = [(25.0, 25 / 3)] * 3
    ranks_seen = []
    for m in range(4):
        seats = lineup(9, m, 3, 3)
        ents = [BotEntrant(specs[i], specs[i]) for i in seats]
        played = play_match(ents, Rules.preset(presets[m % 2]), 9, m, 1)
        ranks = match_ranks(played["net"])
        ranks_seen.append(ranks)
        new = plackett_luce([expect[i] for i in seats], ranks)
        for slot, i in enumerate(seats):
            expect[i] = new[slot]
    for e, (mu, sigma) in zip(res.entrants, expect):
        assert e.mu == pytest.approx(mu, rel=1e-12, abs=1e-12)
        assert e.sigma == pytest.approx(sigma, rel=1e-12, abs=1e-12)
        assert e.rating == pytest.approx(mu - 3 * sigma, rel=1e-12, abs=1e-12)
    assert any(len(set(r)) > 1 for r in ranks_seen)  # the run moved the ratings apart
    assert [e.matches for e in res.entrants] == [4, 4, 4]
    assert [e.hands for e in res.entrants] == [12, 12, 12]


def test_match_ranks_ties_share_a_rank():
    assert match_ranks([3, -1, 3, 0]) == [1, 4, 1, 3]
    assert match_ranks([0, 0]) == [1, 1]


def test_same_seed_same_ratings_in_one_process_or_two():
    args = (["tips", "random", "random", "medium"],)
    kw = dict(deals=8, presets=["traditional", "nap"], set_deals=2)
    a = run_arena(*args, seed=5, **kw)
    b = run_arena(*args, seed=5, jobs=2, chunk=1, **kw)
    c = run_arena(*args, seed=6, **kw)
    key = lambda r: [(e.label, e.mu, e.sigma, e.matches, e.mean, e.firsts) for e in r.entrants]  # noqa: E731
    assert key(a) == key(b)
    assert key(a) != key(c)
    assert a.matches == 4 and [e.hands for e in a.entrants] == [32] * 4  # 4 matches × 2 deals × 4 rotations


def test_more_bots_than_seats_draws_who_sits():
    res = run_arena(["tips", "random", "rules", "random", "tips"], deals=20, players=3, seed=1)
    assert res.players == 3
    assert sum(e.matches for e in res.entrants) == 20 * 3
    assert all(0 < e.matches < 20 for e in res.entrants)  # the line-up changes from match to match
    assert [e.label for e in res.entrants] == ["tips#1", "random#1", "rules", "random#2", "tips#2"]


def test_results_as_json_and_markdown():
    res = run_arena(["tips", "random"], deals=3, seed=2)
    d = json.loads(json.dumps(res.to_dict()))
    assert d["format"] == "ramsli-arena/1" and d["rating"] == "mu - 3 * sigma"
    assert d["model"]["name"] == "openskill PlackettLuce" and d["model"]["mu"] == 25.0
    assert [e["label"] for e in d["entrants"]] == [e.label for e in res.ranked()]
    assert len(d["history"]["ratings"]) == 3
    md = res.to_markdown()
    assert "| # | bot | rating (μ − 3σ) |" in md
    assert md.count("\n| ") == 4  # the header row, its rule and the two bots


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(entrants=["tips"], deals=2), "at least 2"),
        (dict(entrants=["tips", "nosuch"], deals=2), "unknown bot 'nosuch'"),
        (dict(entrants=["tips", "random"], deals=3, set_deals=2), "multiple of set_deals=2"),
        (dict(entrants=["tips", "random"], deals=2, players=3), "only 2 bots"),
        (dict(entrants=["tips", "random"], deals=2, presets=["nosuch"]), "nosuch"),
        (dict(entrants=["tips", "random"], deals=2, seed=-1), "seed=-1"),
        (dict(entrants=["tips", "random"], deals=2, rules=["players=4"]), "players=4"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        run_arena(**kwargs)


def test_an_entrant_that_is_not_portable_keeps_the_arena_here():
    class Remote:
        label, spec, portable = "remote", "remote client", False

        def bot(self, seed):
            from ramsli.bots.base import make_bot

            return make_bot("random", seed=seed)

    res = run_arena([Remote(), "tips"], deals=2, seed=1)
    assert [e.origin for e in res.entrants] == ["remote", "ramsli"]
    with pytest.raises(ValueError, match="jobs=1, no scheduler"):
        run_arena([Remote(), "tips"], deals=2, jobs=2)


def test_arena_command_writes_json_and_markdown(tmp_path):
    out = tmp_path / "ratings"
    r = runner.invoke(
        app,
        ["arena", "--bots", "tips,random,random", "--deals", "4", "--presets", "traditional,nap", "-q", "-o", str(out)],
    )
    assert r.exit_code == 0, r.output
    assert "rating = μ − 3σ" in r.output
    data = json.loads((tmp_path / "ratings.json").read_text(encoding="utf-8"))
    assert data["presets"] == ["traditional", "nap"] and data["matches"] == 4
    assert "| 1 | `" in (tmp_path / "ratings.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "tips"], "the arena needs 2 or more"),
        (["--bots", "tips,nosuch"], "Unknown bot 'nosuch'"),
        (["--deals", "0"], "--deals 0"),
        (["--deals", "5", "--set-deals", "2"], "not a multiple of --set-deals 2"),
        (["--presets", "nosuch"], "nosuch"),
        (["--players", "7"], "--players 7"),
        (["--out", "x.csv"], "unknown suffix '.csv'"),
        (["--scheduler", "nowhere"], "--scheduler 'nowhere'"),
    ],
)
def test_arena_command_refuses_bad_input(args, message):
    r = runner.invoke(app, ["arena", "--bots", "tips,random", "--deals", "2", *args])
    assert r.exit_code == 2
    assert message in r.output
