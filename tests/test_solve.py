"""The declaration solver (issue 14): exact convergence on a tiny game, policy files, seeds, resume, CLI, bot.

The tiny game is enumerated exactly: two positions (the dealer declares last and is
forced in when the first is out, R4.5), three hand strengths J < Q < K dealt without
replacement (six deals, equally likely), ante 1 each, walkover (R4.6) wins the other's
ante, and when both are in the higher card takes the pot and the other pays a bete of 2
*to the winner* (so the game is zero-sum and its Nash value is unique). Its equilibrium
value comes from a linear program over the pure strategies; its exact exploitability
from enumerating every pure best response.
"""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from ramsli.cards import Card
from ramsli.cli import app
from ramsli.hand import Hand, Phase
from ramsli.rules import Rules

SV = pytest.importorskip("ramsli.lab.solve")
S = pytest.importorskip("ramsli.lab.solve_kernel")
from ramsli.lab import equilibrium as E  # noqa: E402

NB = S.NB
N = 2
NODES = 3  # node 0: position 0; node 1: dealer after out (forced in); node 2: dealer after in


def tiny_game() -> SV.SampledDeals:
    deals = list(itertools.permutations(range(3), 2))
    pay = np.zeros((len(deals), 4, 2), np.float32)
    for i, (a, b) in enumerate(deals):
        for m in range(4):
            i0, i1 = m & 1, (m >> 1) & 1
            if m == 0:  # dealer forced in: a walkover for the dealer
                i1 = 1
            if i0 and i1:
                w = 0 if a > b else 1
                pay[i, m, w], pay[i, m, 1 - w] = 3, -3  # pot 2 (+1) and the bete of 2 paid to the winner
            elif i0:
                pay[i, m] = (1, -1)
            else:
                pay[i, m] = (-1, 1)
    bucket = np.array(deals, np.int64)
    z = np.zeros(len(deals), np.int8)
    return SV.SampledDeals(
        pay,
        bucket,
        np.zeros((len(deals), 2, 2), np.int8),
        np.zeros((len(deals), 2, 5), np.int8),
        z,
        np.ones(len(deals)),
    )


def exact_value(sigma: np.ndarray, game: SV.SampledDeals, override=None) -> np.ndarray:
    """Expected payoffs per position, brute force; ``override = (position, pure strategy dict)``."""
    tot = np.zeros(2)
    for i in range(len(game)):
        a, b = game.bucket[i]
        p0 = sigma[0 * NB + a]
        p1 = sigma[2 * NB + b]
        if override and override[0] == 0:
            p0 = override[1][a]
        if override and override[0] == 1:
            p1 = override[1][b]
        v = p0 * (p1 * game.pay[i, 3] + (1 - p1) * game.pay[i, 1]) + (1 - p0) * game.pay[i, 2]
        tot += v
    return tot / len(game)


def exact_exploitability(sigma: np.ndarray, game: SV.SampledDeals) -> float:
    base = exact_value(sigma, game)
    gains = []
    for pos in (0, 1):
        best = max(
            exact_value(sigma, game, (pos, dict(enumerate(pure))))[pos]
            for pure in itertools.product((0.0, 1.0), repeat=3)
        )
        gains.append(best - base[pos])
    return float(np.mean(gains))


def lp_value(game: SV.SampledDeals) -> float:
    """Position 0's equilibrium value: the value of the 8 x 8 matrix game of pure strategies."""
    from scipy.optimize import linprog

    pures = list(itertools.product((0.0, 1.0), repeat=3))
    A = np.zeros((8, 8))
    for r, s0 in enumerate(pures):
        for c, s1 in enumerate(pures):
            sig = np.zeros(NODES * NB)
            sig[0:3] = s0
            sig[NB : NB + 3] = 1.0
            sig[2 * NB : 2 * NB + 3] = s1
            A[r, c] = exact_value(sig, game)[0]
    # max v s.t. x^T A >= v, sum x = 1
    res = linprog(
        c=np.r_[np.zeros(8), -1.0],
        A_ub=np.c_[-A.T, np.ones(8)],
        b_ub=np.zeros(8),
        A_eq=np.r_[np.ones(8), 0.0][None],
        b_eq=[1.0],
        bounds=[(0, 1)] * 8 + [(None, None)],
    )
    return float(res.x[-1])


def test_cfr_converges_to_the_exact_equilibrium_of_the_tiny_game():
    game = tiny_game()
    state = SV.new_state(N, True)
    first = None
    for t in (20, 3000):
        SV.run_cfr(state, game, N, True, t=0 if first is None else 20, iterations=t, batch=len(game))
        sigma = SV.average(state)
        if first is None:
            first = exact_exploitability(sigma, game)
    final = exact_exploitability(sigma, game)
    assert final < 0.005 < first  # it converges (and was not there after 20 iterations)
    assert exact_value(sigma, game)[0] == pytest.approx(lp_value(game), abs=0.005)
    # the K always stays in; the J first to speak folds whenever the dealer answers "in" with the Q
    assert sigma[0 * NB + 2] > 0.99 and sigma[2 * NB + 2] > 0.99
    assert sigma[2 * NB + 0] < 0.01


def test_the_exploitability_estimate_matches_the_exact_one_on_the_tiny_game():
    game = tiny_game()
    rng = np.random.default_rng(3)
    for _ in range(5):
        sigma = np.zeros(NODES * NB)
        sigma[0:3] = rng.random(3)
        sigma[NB : NB + 3] = 1.0
        sigma[2 * NB : 2 * NB + 3] = rng.random(3)
        m = SV.measure(0, sigma, game, game, N, True)
        assert m["exploitability"]["mean"] == pytest.approx(exact_exploitability(sigma, game), abs=1e-9)
        assert m["value"] == pytest.approx(list(exact_value(sigma, game)), abs=1e-9)


def test_the_python_bucket_equals_the_kernels():
    for preset, n in (("traditional", 5), ("joker", 4), ("modern-52", 6)):
        rules = Rules.preset(preset)
        d = SV.deal_sample(rules, n, 7, 0, 60)
        for i in range(len(d)):
            tu = Card.from_index(int(d.turn_up[i]))
            for p in range(n):
                cards = [Card.from_index(int(c)) for c in d.cards[i, p]]
                assert E.bucket(cards, tu, rules) == d.bucket[i, p], (preset, cards, tu)


def test_the_tables_are_the_kernels_hands_under_forced_declarations():
    """Mask 'everyone in' of deal h equals run_stream's hand h with every seat forced in (R4.5)."""
    from ramsli.lab import kernel as K

    rules = Rules()
    d = SV.deal_sample(rules, 4, 5, 10, 20)
    b = K.play_batch(rules, 4, 20, seed=5, start=10, policy=K.TIPS, forced=[1, 1, 1, 1])
    for i in range(20):
        order = [(int(b.dealer[i]) + 1 + k) % 4 for k in range(4)]
        got = [int(b.stacks[i, s]) - 20 for s in order]
        assert list(d.pay[i, 15]) == got
        assert sum(got) == -int(b.carry[i])  # chips are conserved: what the seats lost is in the pot (R3.4)


SMALL = dict(deals=2000, batch=500, finish_deals=500)


def test_same_seed_same_policy_and_another_seed_another():
    a = SV.solve(Rules(), 3, iterations=12, seed=1, **SMALL)
    b = SV.solve(Rules(), 3, iterations=12, seed=1, **SMALL)
    c = SV.solve(Rules(), 3, iterations=12, seed=2, **SMALL)
    assert a.policy.p_in == b.policy.p_in
    assert a.policy.p_in != c.policy.p_in


def test_a_resumed_solve_equals_an_uninterrupted_one(tmp_path):
    ck = tmp_path / "s.npz"
    whole = SV.solve(Rules(), 3, iterations=12, seed=4, **SMALL)
    SV.solve(Rules(), 3, iterations=5, seed=4, checkpoint=ck, **SMALL)
    resumed = SV.solve(Rules(), 3, iterations=12, seed=4, checkpoint=ck, resume=True, **SMALL)
    assert resumed.iterations == 12
    assert np.array_equal(resumed.sigma, whole.sigma)
    with pytest.raises(SV.SolveError, match="another solve .*seed"):
        SV.solve(Rules(), 3, iterations=12, seed=5, checkpoint=ck, resume=True, **SMALL)
    (tmp_path / "bad.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(SV.SolveError, match="not a ramsli solve checkpoint"):
        SV.solve(Rules(), 3, iterations=12, seed=4, checkpoint=tmp_path / "bad.npz", resume=True, **SMALL)


def test_the_solver_refuses_what_it_does_not_cover():
    with pytest.raises(SV.SolveError, match="compulsory"):
        SV.solve(Rules.preset("compulsory"), 4, iterations=1, **SMALL)
    with pytest.raises(SV.SolveError, match="multiple of batch"):
        SV.solve(Rules(), 4, iterations=1, deals=1000, batch=300)


def _policy(n=3, p=0.25) -> E.Policy:
    rows = (1 << n) - 1
    return E.Policy(
        players=n,
        rules=Rules(),
        p_in=[[p] * E.N_BUCKETS for _ in range(rows)],
        advantage=[[-0.5] * E.N_BUCKETS for _ in range(rows)],
        solver={"seed": 1},
    )


def test_a_policy_file_round_trips(tmp_path):
    sol = SV.solve(Rules(), 3, iterations=8, seed=1, **SMALL)
    path = tmp_path / "p.json"
    E.save_policy(sol.policy, path)
    back = E.load_policy(path)
    assert back.players == 3 and back.rules == Rules() and back.solver["iterations"] == 8
    assert np.allclose(np.array(back.p_in), np.array(sol.policy.p_in), atol=0.0005)
    assert np.allclose(np.array(back.advantage), np.array(sol.policy.advantage), atol=0.005)
    E.save_policy(back, tmp_path / "q.json")
    assert (tmp_path / "q.json").read_text() == path.read_text()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: "{oops", "not valid JSON"),
        (lambda d: {**d, "format": "other"}, "format 'other'"),
        (lambda d: {**d, "version": 99}, "version 99 is not supported"),
        (lambda d: {**d, "players": 9}, "players 9"),
        (lambda d: {**d, "p_in": d["p_in"][:-1]}, "must be a list of 7 nodes"),
        (lambda d: {**d, "p_in": [[1001] * E.N_BUCKETS] + d["p_in"][1:]}, r"p_in\[0\]\[0\] = 1001"),
        (lambda d: {**d, "rules": {"bete": "lots"}}, "rules: option 'bete'"),
        (lambda d: {**d, "abstraction": "x"}, "abstraction 'x'"),
        (lambda d: {k: v for k, v in d.items() if k != "p_in"}, "missing field 'p_in'"),
    ],
)
def test_a_corrupt_policy_file_is_refused_with_a_clear_error(tmp_path, change, message):
    data = _policy().to_json()
    bad = change(data)
    path = tmp_path / "bad.json"
    path.write_text(bad if isinstance(bad, str) else json.dumps(bad))
    with pytest.raises(E.PolicyError, match=message):
        E.load_policy(path)
    with pytest.raises(E.PolicyError, match="cannot read"):
        E.load_policy(tmp_path / "missing.json")


def test_ask_answers_by_the_policy_and_sizes_the_mistake():
    pol = _policy(p=0.0)
    res = SV.ask(pol, "9S KH 8D 7C 9C", "TS", position=3, ins_before=1)
    assert [a["before"] for a in res["answers"]] == [["in", "out"], ["out", "in"]]
    assert all(a["p_in"] == 0.0 and a["mistake"] == 0.5 for a in res["answers"])
    assert res["features"]["trumps"] == 1 and res["features"]["side_kings"] == 1
    dealer = SV.ask(pol, "9S KH 8D 7C 9C", "TS", position=3, before=["out", "out"])
    assert dealer["answers"][0]["forced_in"] and dealer["answers"][0]["p_in"] == 1.0  # R4.5
    with pytest.raises(SV.SolveError, match="--position 4"):
        SV.ask(pol, "9S KH 8D 7C 9C", "TS", position=4, ins_before=0)


def test_the_equilibrium_bot_declares_by_its_policy(tmp_path):
    from ramsli.bots.base import make_bot, play_hand

    for p, want in ((0.0, "out"), (1.0, "in")):
        path = tmp_path / f"p{p}.json"
        E.save_policy(_policy(p=p), path)
        bot = make_bot(f"equilibrium:policy={path},play=random", seed=3)
        hand = Hand.new(Rules(), [20] * 3, dealer=2, rng=random.Random(1))
        a = bot.act(hand.observe(hand.to_act))
        assert a.kind == want
        bots = {s: make_bot(f"equilibrium:policy={path},play=random", seed=s) for s in range(3)}
        play_hand(hand, bots)  # a whole hand, every action legal
        assert hand.is_over and hand.phase is Phase.OVER


def test_cli_solve_exploit_and_ask(tmp_path):
    r = CliRunner()
    out = tmp_path / "p.json"
    res = r.invoke(
        app,
        ["solve", "--players", "3", "--iterations", "4", "--deals", "1000", "--batch", "500", "--out", str(out), "-q"],
    )
    assert res.exit_code == 0, res.output
    assert E.load_policy(out).players == 3
    res = r.invoke(
        app, ["solve", "--players", "3", "--exploit", "tips", "--br-deals", "500", "--eval-deals", "300", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["policy"] == "tips" and data["eval_deals"] == 300 and len(data["per_position"]) == 3
    res = r.invoke(
        app,
        [
            "solve",
            "--players",
            "3",
            "--ask",
            "9S KH 8D 7C 9C",
            "--turn-up",
            "TS",
            "--position",
            "3",
            "--ins-before",
            "1",
            "--policy",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "after in,out:" in res.output and "after out,in:" in res.output
    assert "{'" not in res.output and "fold" not in res.output  # the player's words (in/out), no Python dict
    assert "its bucket: trumps " in res.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    res = r.invoke(app, ["solve", "--players", "3", "--exploit", str(bad)])
    assert res.exit_code == 2 and "not a policy file" not in res.output and "format" in res.output
    res = r.invoke(app, ["solve", "--preset", "compulsory", "-q"])
    assert res.exit_code == 2 and "Compulsory" in res.output
    res = r.invoke(app, ["solve", "--resume", "-q"])
    assert res.exit_code == 2 and "--resume needs --checkpoint" in res.output


def test_a_bot_asked_through_the_engine_is_measured_like_the_kernels_tips():
    """``--exploit BOT`` asks the bot at every node; the engine's tips bot without tracking (the kernel's
    variant, ``tips:tracking=0``) declares as the kernel's tips."""
    rules = Rules()
    brs = SV.deal_sample(rules, 3, 2, SV.BR_OFFSET, 150)
    evs = SV.deal_sample(rules, 3, 2, SV.EVAL_OFFSET, 100)
    kernel = SV.measure(1, None, brs, evs, 3, True)
    g_br, g_ev = (
        SV.bot_node_probs("tips:tracking=0", rules, brs, 3),
        SV.bot_node_probs("tips:tracking=0", rules, evs, 3),
    )
    engine = SV.measure(2, None, brs, evs, 3, True, g_br, g_ev)
    assert engine["exploitability"] == kernel["exploitability"] and engine["value"] == kernel["value"]
    rnd = SV.measure(
        2,
        None,
        brs,
        evs,
        3,
        True,
        SV.bot_node_probs("random", rules, brs, 3),
        SV.bot_node_probs("random", rules, evs, 3),
    )
    assert rnd["value"] != kernel["value"]  # another bot, other declarations


def test_the_shipped_policies_load_and_the_bot_finds_them():
    names = E.default_policies()
    assert {"traditional-5.json", "traditional-3.json", "pot-bete-5.json"} <= set(names)
    pol = E.default_policy(Rules(end=("hands:10",), starting_stack=20), 5)  # session options do not matter
    assert pol is not None and pol.players == 5 and pol.rules.bete == 5
    assert E.default_policy(Rules.preset("pot-bete"), 5).rules.bete == "pot"
    assert E.default_policy(Rules.preset("joker"), 5) is None
    from ramsli.bots.base import make_bot

    for preset, fallbacks in (("traditional", 0), ("joker", 1)):
        bot = make_bot("equilibrium:play=random", seed=1)
        hand = Hand.new(Rules.preset(preset), [20] * 5, dealer=4, rng=random.Random(2))
        bot.act(hand.observe(hand.to_act))
        assert bot.fallbacks == fallbacks  # no shipped policy for jokers: the tips declaration


def test_the_finer_responders_buckets_split_the_policys():
    rules = Rules()
    d = SV.deal_sample(rules, 4, 9, 0, 80)
    assert np.array_equal(d.fine // 12, d.bucket)
    for i in range(len(d)):
        tu = Card.from_index(int(d.turn_up[i]))
        for p in range(4):
            cards = [Card.from_index(int(c)) for c in d.cards[i, p]]
            voids = sum(1 for s in "SHDC" if s != tu.suit and not any(c.suit == s for c in cards))
            assert (d.fine[i, p] % 12) // 4 == min(voids, 2)
    m = SV.measure(1, None, d, d, 4, True, fine=True)
    assert len(m["per_position"]) == 4 and m["br"].shape == (15 * S.NBF,)


def test_the_equilibrium_bot_mixes_by_its_seed(tmp_path):
    from ramsli.bots.base import make_bot

    path = tmp_path / "half.json"
    E.save_policy(_policy(p=0.5), path)

    def declarations(seed):
        out = []
        for deal in range(12):
            hand = Hand.new(Rules(), [20] * 3, dealer=2, rng=random.Random(deal))
            out.append(str(make_bot(f"equilibrium:policy={path},play=random", seed=seed).act(hand.observe(0))))
        return out

    assert declarations(1) == declarations(1)
    assert declarations(1) != declarations(2)
    assert {"p1 in", "p1 out"} == set(declarations(1) + declarations(2))  # P(in) 0.5: both happen


def test_solve_help_speaks_to_players():
    import re

    r = CliRunner().invoke(app, ["solve", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert r.exit_code == 0
    assert not re.search(r"issue\s*#?\d", r.stdout, re.I) and "seeds" not in r.stdout
    assert "KEY=VALUE" in r.stdout and "--exploit" in r.stdout and "--ask" in r.stdout


def test_this_very_hand_is_answered_by_sampling_the_other_cards():
    pol = E.default_policy(Rules(), 3)
    strong = SV.ask(pol, "AS KS QS AH AD", "7S", position=2, before=["in"], samples=2000, seed=1)["answers"][0]
    weak = SV.ask(pol, "8H 9D 8C 9C 7D", "7S", position=2, before=["in"], samples=2000, seed=1)["answers"][0]
    assert strong["hand"]["mean"] - strong["hand"]["ci95"] > 1.0  # in wins the pot nearly always
    assert weak["hand"]["mean"] + weak["hand"]["ci95"] < 0  # no trump, no ace: in loses
    assert strong["p_in"] == 1.0 and weak["p_in"] == 0.0
    again = SV.ask(pol, "8H 9D 8C 9C 7D", "7S", position=2, before=["in"], samples=2000, seed=1)["answers"][0]
    assert again["hand"] == weak["hand"]  # the same seed, the same samples
    forced = SV.ask(pol, "8H 9D 8C 9C 7D", "7S", position=3, before=["out", "out"], samples=2000)["answers"][0]
    assert forced["forced_in"] and "hand" not in forced  # the dealer has no choice (R4.5)


def test_the_report_regenerates_from_one_call(tmp_path):
    from ramsli.lab.solve_report import render_report, write_report

    sizes = {3: dict(deals=1000, batch=500, iterations=6, br=1000, eval=800)}
    md = tmp_path / "solve.md"
    data = write_report(
        md,
        configs=[("traditional", 3, 0)],
        sizes=sizes,
        policies_dir=tmp_path / "pol",
        quiet=True,
        command="ramsli solve --report X",
    )
    text = md.read_text()
    assert text.startswith("# The in/out question") and "Generated by `ramsli solve --report X`" in text
    assert "| traditional, 3 players |" in text and "this very hand" in text
    for png in ("convergence", "exploitability", "hands", "tips"):
        assert (tmp_path / "solve" / f"{png}.png").stat().st_size > 1000
    r = data["results"][0]
    assert r["tips"]["eval_deals"] == 800 and len(r["equilibrium"]["per_position"]) == 3
    assert [s["iterations"] for s in r["snapshots"]][-1] == 6
    md.write_text("")
    render_report(md, tmp_path / "pol" / "traditional-3.json", command="ramsli solve --report X")
    assert md.read_text() == text  # the Markdown is a function of results.json and the policy
