"""Skill counters (ramsli.coach.skill, docs/skill.md): a known blunder, the expert against itself, a random
player, R7 (only the seat's knowledge), the summary's sums, the noisy expert (expert:eps=…)."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest
from typer.testing import CliRunner

from ramsli import Hand, Rules
from ramsli.bots.base import make_bot, play_hand
from ramsli.bots.expert import ExpertBot
from ramsli.bots.refusals import BotSpecError
from ramsli.cards import Card, make_deck, parse_cards
from ramsli.cli import app
from ramsli.coach import Settings, review_hand
from ramsli.coach.skill import SkillSummary, hands_needed, skill_of_hand
from ramsli.hand import Action
from ramsli.history import HandHistory

#: the coach's values with fewer samples, for the suite's time
FAST = Settings(equilibrium=False, declare_samples=200, play_samples=24, budget=30000)
#: a quick expert: the players and the baseline of the "expert against itself" test
QUICK = "expert:samples=40,play_samples=10,budget=8000"
runner = CliRunner()


def _blunder_hand(n: int = 5) -> Hand:
    """p1 declares first (R4.5) holding five low side cards (no trump, no ace) and goes in: a known
    blunder (docs/coach.md); the rest of the hand is played by the expert."""
    cards = parse_cards("7C 8C 7D 8D 7H")
    tu = Card.parse("AS")
    rest = [c for c in make_deck("piquet32", False) if c not in cards and c != tu]
    random.Random(0).shuffle(rest)
    hands = [list(cards)] + [[rest.pop() for _ in range(5)] for _ in range(n - 1)]
    hand = Hand.from_cards(Rules(), [20] * n, n - 1, hands, tu, pot=0)
    hand.apply(Action.declare(0, True))
    play_hand(hand, {s: ExpertBot(seed=s, samples=60, play_samples=16) for s in range(n)})
    return hand


def test_a_known_blunder_gives_negative_skill_within_the_coachs_interval():
    """R4.5: going in first with five low side cards is a blunder of several counters. Its skill term is
    the coach's value of in minus out (the expert's choice), i.e. minus the review's loss, exactly; the
    hand's skill counters are negative with their 95% interval below zero, and the blunder's term lies
    within the coach's interval of that loss."""
    hand = _blunder_hand()
    review = review_hand(hand, 0, FAST)
    hs = skill_of_hand(hand, 0, FAST)
    d, r = hs.decisions[0], review.decisions[0]
    assert d.kind == "declare" and d.rule == "R4.5" and d.source == "expert"
    assert str(d.chosen) == "p1 in" and str(d.expert) == "p1 out"
    assert r.mark == "blunder"
    assert d.diff == pytest.approx(-r.loss)  # the same seeded values as the review's
    assert abs(d.diff + r.loss) <= r.loss_ci95
    assert d.diff < -3 and d.diff_ci95 > 0
    assert hs.skill < 0 and hs.skill + hs.ci95 < 0
    assert abs(hs.skill - d.diff) < abs(d.diff) / 2  # the cards played afterwards add little
    # the luck terms add up: net = deal value + skill + luck; the deal's value is out's (0) less the ante
    assert hs.deal_value == pytest.approx(-1.0)
    assert hs.net == hand.stacks[0] - 20
    assert hs.net == pytest.approx(hs.deal_value + hs.skill + hs.luck)
    data = hs.to_dict()
    assert data["format"] == "ramsli-skill/1" and data["decisions"][0]["expert"] == "p1 out"
    assert data["skill"] == round(hs.skill, 3)


def _played(n_hands: int, spec: str, players: int, seed: int) -> list[Hand]:
    out = []
    for i in range(n_hands):
        hand = Hand.new(Rules(), [20] * players, dealer=i % players, seed=seed + i)
        play_hand(hand, {s: make_bot(spec, seed=seed * 100 + i * 10 + s) for s in range(players)})
        out.append(hand)
    return out


def test_the_expert_against_itself_is_zero_within_its_interval():
    """The baseline's own play: its choices and the baseline's are two draws of the same policy valued by
    the same estimate, so the skill counters are 0 in expectation; over the hands the 95% interval of
    the mean contains 0. Something is measured: some decisions differ (near-ties and sampling), and the
    interval is far narrower than the raw net counters'."""
    hands = _played(24, QUICK, 3, seed=5)
    skills = [
        skill_of_hand(h, s, FAST, baseline=QUICK, hand_number=i + 1) for i, h in enumerate(hands) for s in range(3)
    ]
    summary = SkillSummary.of(skills)
    assert summary.hands == 72 and summary.decisions > 60
    assert any(d.diff != 0 for hs in skills for d in hs.decisions)
    assert abs(summary.mean) <= summary.ci95, summary.to_dict()
    net_mean, net_sd, net_ci = summary.net()
    assert summary.sd < net_sd / 3


def test_a_random_player_scores_clearly_below_the_expert():
    """The noisy expert with eps=1 (a random legal action at every real choice): its skill counters per
    hand are negative with the interval below zero — the measure tells a known weak player apart."""
    hands = []
    for i in range(6):
        hand = Hand.new(Rules(), [20] * 3, dealer=i % 3, seed=40 + i)
        bots = {0: make_bot("expert:eps=1", seed=i)} | {s: make_bot(QUICK, seed=10 * i + s) for s in (1, 2)}
        play_hand(hand, bots)
        hands.append(hand)
    summary = SkillSummary.of([skill_of_hand(h, 0, FAST, baseline=QUICK) for h in hands])
    assert summary.mean + summary.ci95 < 0, summary.to_dict()


def test_R7_a_history_with_folded_cards_hidden_gives_the_same_skill():
    """R7, D-16: the skill counters read only the seat's cards and the public record: a history with every
    other folded hand as ``??`` gives the same result; a seat whose own cards are ``??`` is not valued and
    does not count in a summary."""
    hand = _played(1, QUICK, 4, seed=7)[0]
    hh = HandHistory.from_hand(hand, ["Ann", "Bo", "Cy", "Di"], hand_number=3)
    hidden = HandHistory.from_toml(
        HandHistory.from_hand(hand, ["Ann", "Bo", "Cy", "Di"], 3, hide_folded=True).to_toml()
    )
    played = {a.seat for a in hh.actions if a.kind == "pl"}
    assert played and len(played) < 4 or "??" not in hidden.to_toml()
    for seat in range(4):
        if seat in played:
            assert skill_of_hand(hidden, seat, FAST) == skill_of_hand(hh, seat, FAST)
        else:
            hs = skill_of_hand(hidden, seat, FAST)
            assert not hs.cards_known and hs.decisions == ()
            assert SkillSummary.of([hs]).hands == 0


def test_same_seed_same_skill_and_another_seed_other_samples():
    """Deterministic: the same history, seat, settings and baseline give the same HandSkill."""
    hand = _blunder_hand()
    a = skill_of_hand(hand, 0, FAST)
    assert a == skill_of_hand(hand, 0, FAST)
    b = skill_of_hand(hand, 0, dataclasses.replace(FAST, seed=1))
    assert a.decisions[0].chosen_value != b.decisions[0].chosen_value


def test_the_summary_is_sums_that_merge_and_read_back():
    """SkillSummary keeps sums: merging two summaries is summarizing all hands; the mean, sd and 95%
    interval are the sample's; to_dict/from_dict round-trip; hands_needed is (1.96 sd / gap)²."""
    hand = _blunder_hand()
    hs = [skill_of_hand(hand, s, FAST) for s in range(5)]
    whole = SkillSummary.of(hs)
    assert SkillSummary.of(hs[:2]).merge(SkillSummary.of(hs[2:])) == whole
    xs = [h.skill for h in hs]
    mean = sum(xs) / 5
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / 4)
    assert whole.mean == pytest.approx(mean) and whole.sd == pytest.approx(sd)
    assert whole.ci95 == pytest.approx(1.96 * sd / math.sqrt(5))
    assert SkillSummary.from_dict(json.loads(json.dumps(whole.to_dict()))) == whole
    with pytest.raises(ValueError):
        SkillSummary.from_dict({"format": "other"})
    assert hands_needed(2.0, 0.5) == pytest.approx((1.96 * 2.0 / 0.5) ** 2)
    assert hands_needed(1.0, 0.0) == math.inf
    assert math.isinf(SkillSummary().ci95)


def test_noisy_expert_option():
    """``expert:eps=…``: eps=0 plays exactly as the expert (its search's random stream untouched); eps=1
    picks a random legal action at every real choice (a full hand stays legal, chips conserved, R3.4);
    values outside 0..1 are refused."""
    a = Hand.new(Rules(), [20] * 4, dealer=0, seed=3)
    b = Hand.new(Rules(), [20] * 4, dealer=0, seed=3)
    play_hand(a, {s: make_bot(QUICK, seed=s) for s in range(4)})
    play_hand(b, {s: make_bot(QUICK + ",eps=0", seed=s) for s in range(4)})
    assert a.history == b.history
    bot = make_bot("expert:eps=0.1", seed=1)
    assert isinstance(bot, ExpertBot) and bot.eps == 0.1
    c = Hand.new(Rules(), [20] * 4, dealer=0, seed=3)
    play_hand(c, {s: make_bot("expert:eps=1", seed=s) for s in range(4)})
    assert c.is_over and c.total() == 80
    for bad in ("expert:eps=1.5", "expert:eps=-0.1"):
        with pytest.raises(BotSpecError):
            make_bot(bad)


def test_ramsli_skill_command(tmp_path):
    """``ramsli skill FILE``: a hand history's skill counters per seat, as text and as JSON."""
    hand = _blunder_hand()
    path = tmp_path / "hand-0001.toml"
    path.write_text(HandHistory.from_hand(hand, ["Ann", "Bo", "Cy", "Di", "Ed"], hand_number=1).to_toml())
    fast = "--equilibrium-samples 1000 --declare-samples 200 --play-samples 24 --no-equilibrium"
    res = runner.invoke(app, ["skill", str(path), "--seat", "p1", "--json", *fast.split()])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["format"] == "ramsli-skill/1" and data["seat"] == "p1" and data["skill"] < -3
    res = runner.invoke(app, ["skill", str(path), "--seat", "p1", "--lang", "de", *fast.split()])
    assert res.exit_code == 0, res.output
    assert "Können" in res.output or "Spielstärke" in res.output
    res = runner.invoke(app, ["skill", str(tmp_path / "missing.toml")])
    assert res.exit_code == 2


def test_ramsli_skill_a_session(tmp_path):
    """``ramsli skill SESSION_DIR``: per player the skill counters per hand with their interval, beside the
    net per hand; the JSON's summaries are the sums of the hands listed (every hand of every seat here)."""
    from ramsli import Session
    from ramsli.history import write_session

    s = Session(Rules(end=["hands:3"]), ["Ann", "Bo", "Cy"], seed=4)
    bots = {0: make_bot("random", seed=1)} | {i: make_bot(QUICK, seed=i) for i in (1, 2)}
    while not s.is_over:
        hand = s.start_hand()
        while not hand.is_over:
            seat = hand.to_act
            s.apply(bots[seat].act(hand.observe(seat)))
    write_session(tmp_path, s)
    fast = ["--no-equilibrium", "--declare-samples", "100", "--play-samples", "12"]
    res = runner.invoke(app, ["skill", str(tmp_path), "--json", *fast])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["format"] == "ramsli-skill-session/1" and data["hands"] == 3
    for p in data["players"]:
        mine = [h for h in data["skills"] if h["seat"] == p["seat"]]
        assert p["summary"]["hands"] == len(mine) == 3
        assert p["summary"]["sums"]["skill_sum"] == pytest.approx(sum(h["skill"] for h in mine), abs=0.01)
        assert p["summary"]["sums"]["net_sum"] == sum(h["net"] for h in mine)
    res = runner.invoke(app, ["skill", str(tmp_path), "--lang", "it", *fast])
    assert res.exit_code == 0 and "Abilità in gettoni nella sessione (3 mani)" in res.output
