"""The coach says why (issue 36.3): the reason of a marked decision, built from the sampled deals the
coach values the decision on, as data (a code and numbers), rendered in the reader's language.

Rule ids: R4.10 (follow suit, else trump: a card is trumped), R4.11 (the highest card takes the
trick), R5.1 (the most tricks take the pot), R5.3 (no trick pays the bete), R4.5 (in or out),
R7/D-16 (only the seat's own knowledge).
"""

from __future__ import annotations

import json
import pickle
import re

import pytest

from ramsli import Rules
from ramsli.bots.expert import ExpertBot
from ramsli.cards import Card, parse_cards
from ramsli.coach import Decision, review_hand
from ramsli.coach.reasons import REASON_RULES, REASONS, SAMPLES, Reason, card_stats, hand_stats, reason_for
from ramsli.coach.words import decision_line, render_reason
from ramsli.hand import Action, Hand, Phase

MINE = "9D AD KD 9S 7C"
OTHER = "7S 8S TS 8H 9H"


def _trumps_after_a_void() -> Hand:
    """Two players, spades trump (turn-up J♠). Trick 1: p1 leads 9♦, p2 has no diamond and trumps
    with 7♠ (R4.10: everyone at the table now knows p2 is void in diamonds); p2 leads 8♠, p1 takes it
    with 9♠. p1 is to lead trick 3 with A♦ K♦ 7♣."""
    hand = Hand.from_cards(
        Rules(), [20, 20, 20], 1, [parse_cards(MINE), parse_cards(OTHER), []], Card.parse("JS"), seated=[0, 1]
    )
    for a in ("p1 in", "p2 in", "p1 pl 9D", "p2 pl 7S", "p2 pl 8S", "p1 pl 9S"):
        hand.apply(Action.parse(a))
    assert hand.phase is Phase.PLAY and hand.to_act == 0
    return hand


def test_an_ace_led_into_a_known_void_is_trumped_and_the_reason_says_how_often():
    """R4.10: p2 showed a void in diamonds, so the lead of A♦ takes the trick only when p2 holds no
    trump. The reason is ``card_trumped`` with the share of the sampled deals (the expert's sampler,
    the same seed) in which p2, void in diamonds, holds a trump — counted here
    independently of the reason builder."""
    obs = _trumps_after_a_void().observe(0)
    reason = reason_for(obs, Action.parse("p1 pl AD"), Action.parse("p1 pl 7C"), seed=7)
    assert reason is not None and reason.code == "card_trumped" and reason.rule == "R4.10"
    k, worlds = ExpertBot(seed=7, samples=SAMPLES, play_samples=SAMPLES).sample_worlds(obs, SAMPLES)
    total = sum(w for _, w in worlds)
    for deal, _ in worlds:  # R7: p2's hidden cards are sampled consistent with its void
        assert not any(k.codec.dec(c).suit == "D" for c in deal[1])
    trumped = sum(w for deal, w in worlds if any(k.codec.dec(c).suit in (None, "S") for c in deal[1])) / total
    assert reason.fields["p"] == round(100 * trumped)
    assert reason.fields["p"] >= 40  # four trumps among the 19 cards p2 may hold, three of them held
    assert reason.fields["card"] == "AD" and reason.fields["best_card"] == "7C"
    text = render_reason(reason, "en")
    assert text == f"A♦ would take the trick, but it is trumped {reason.fields['p']}% of the time at this point"
    assert "R4" not in text  # the rule id is a tap away, not in the sentence
    assert f"{reason.fields['p']} %" in render_reason(reason, "de")


def test_card_stats_are_the_seats_knowledge_only():
    """R7/D-16: the same observation with p2's real cards changed (the public record unchanged) gives
    the same statistics: nothing but what p1 knows is read."""
    a = card_stats(_trumps_after_a_void().observe(0), [Card.parse("AD")], seed=3)
    other = Hand.from_cards(
        Rules(),
        [20, 20, 20],
        1,
        [parse_cards(MINE), parse_cards("7S 8S QC JC TC"), []],
        Card.parse("JS"),
        seated=[0, 1],
    )
    for x in ("p1 in", "p2 in", "p1 pl 9D", "p2 pl 7S", "p2 pl 8S", "p1 pl 9S"):
        other.apply(Action.parse(x))
    assert card_stats(other.observe(0), [Card.parse("AD")], seed=3) == a


def test_a_trump_lead_is_not_called_trumped():
    """R4.11: the ace of trumps led cannot be trumped nor beaten: no ``card_trumped`` reason."""
    hand = Hand.from_cards(
        Rules(), [20, 20], 1, [parse_cards("AS KS 7D 8D 7C"), parse_cards("7S 8S TS 8H 9H")], Card.parse("JS")
    )
    for a in ("p1 in", "p2 in"):
        hand.apply(Action.parse(a))
    st = card_stats(hand.observe(0), [Card.parse("AS")], seed=1)[Card.parse("AS")]
    assert st.takes and st.trumped == 0.0 and st.beaten == 0.0  # the highest trump: nothing beats it
    r = reason_for(hand.observe(0), Action.parse("p1 pl AS"), Action.parse("p1 pl 7C"), seed=1)
    assert r is None or r.code != "card_trumped"


def _four(mine: str) -> Hand:
    """Four players, spades trump (turn-up 9♠), p1 (the dealer's left) to declare first with ``mine``."""
    hands = [mine, "TS JS 9H TH JH", "TC JC QC KC AC", "AD KD QD JD TD"]
    return Hand.from_cards(Rules(), [20] * 4, 3, [parse_cards(h) for h in hands], Card.parse("9S"))


def test_going_in_with_nothing_names_the_bete():
    """R4.5, R5.3: going in first with five low side cards and no trump: almost never the most
    tricks, so the reason is ``in_no_trick`` — no trick that often, and the rules' bete (5)."""
    obs = _four("7C 8C 7D 8D 7H").observe(0)
    hs = hand_stats(obs, seed=2)
    assert hs.zero > 0.5 and hs.tricks < 1 and hs.most < 0.05
    r = reason_for(obs, Action.parse("p1 in"), Action.parse("p1 out"), seed=2)
    assert r == Reason("in_no_trick", {"p": round(100 * hs.zero), "bete": 5})
    assert r.rule == "R5.3"
    assert (
        render_reason(r, "en")
        == f"With this hand you take no trick {r.fields['p']}% of the time and pay the bete of 5 counters"
    )


def test_going_in_with_a_fair_chance_weighs_bete_against_pot():
    """R4.5, R5.1, R5.3: with K♠ (a trump) and a side ace the hand takes the most tricks now and
    then: the reason ``in_bete`` gives the expected tricks, the chance of no trick and of the pot."""
    obs = _four("KS 7H AH 8D 7C").observe(0)
    hs = hand_stats(obs, seed=2)
    assert 0.05 <= hs.most and 0 < hs.zero < 1
    r = reason_for(obs, Action.parse("p1 in"), Action.parse("p1 out"), seed=2)
    assert r == Reason(
        "in_bete",
        {
            "tricks": round(hs.tricks, 1),
            "p": round(100 * hs.zero),
            "bete": 5,
            "p_pot": round(100 * hs.most),
            "pot": obs.pot,
        },
    )
    text = render_reason(r, "en")
    assert text.startswith(f"With this hand you take about {round(hs.tricks, 1)} tricks: none {r.fields['p']}% of")
    out = reason_for(obs, Action.parse("p1 out"), Action.parse("p1 in"), seed=2)
    assert out is not None and out.code == "out_pot" and out.fields["p_pot"] == r.fields["p_pot"]


@pytest.mark.parametrize("lang", ["en", "de", "nl", "it"])
def test_every_reason_renders_in_every_language(lang):
    """Each code of REASONS renders with its fields in each language, without a rule id; the numbers
    in the reader's locale (expected tricks with a decimal comma in de, nl, it)."""
    fields = {
        "card_trumped": {"card": "AS", "best_card": "7H", "p": 70},
        "card_beaten": {"card": "TS", "best_card": "7H", "p": 55},
        "card_bete": {"card": "AS", "best_card": "7H", "p": 40, "best_p": 10, "bete": 5},
        "card_pot": {"card": "AS", "best_card": "7H", "p": 20, "best_p": 45, "pot": 8},
        "card_tricks": {"card": "AS", "best_card": "7H", "tricks": 1.4, "best_tricks": 2.1},
        "in_bete": {"tricks": 0.6, "p": 52, "bete": 5, "p_pot": 8, "pot": 4},
        "in_no_trick": {"p": 97, "bete": 5},
        "out_pot": {"tricks": 2.3, "p": 3, "bete": 5, "p_pot": 61, "pot": 15},
        "gr_short": {"p": 12},
        "gr_likely": {"p": 81},
        "target_short": {"target": 4, "p": 9},
        "target_likely": {"target": 2, "p": 77},
    }
    assert set(fields) == set(REASONS) == set(REASON_RULES)
    for code, f in fields.items():
        text = render_reason(Reason(code, f), lang)
        assert "{" not in text and text and not any(f"R{i}." in text for i in range(1, 10))
        assert "p" not in f or str(f["p"]) in text
        for key in ("card", "best_card"):
            if "{" + key + "}" in REASONS[code]:
                assert Card.parse(f[key]).display() in text
        if "tricks" in f and code != "out_pot":
            assert f"{f['tricks']:.1f}".replace(".", "." if lang == "en" else ",") in text
        if lang != "en":
            assert text != render_reason(Reason(code, f), "en")


def test_a_marked_decision_carries_its_reason_and_the_line_says_it():
    """A reviewed hand: every marked decision has a reason or none (the rollouts may not tell two
    cards apart), every unmarked one none; the line in words ends with the reason's sentence; the
    JSON holds the reason as data."""
    hand = _trumps_after_a_void()
    hand.apply(Action.parse("p1 pl AD"))  # p2 trumps it: the lead the reason warns about
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.apply(hand.legal_actions()[0])
    review = review_hand(hand, 0, None)
    assert any(d.reason is not None for d in review.decisions)  # the lead of 9♦ here: beaten (R4.11)
    for d in review.decisions:
        assert isinstance(d, Decision)
        assert (d.mark is None) <= (d.reason is None)
        rec = d.to_dict()
        assert rec["reason"] == (None if d.reason is None else d.reason.to_dict())
        if d.reason is not None:
            line = decision_line(d, "en")
            assert line is not None and line.endswith(render_reason(d.reason, "en"))


def test_a_review_with_reasons_crosses_to_another_process():
    """The server reviews in the coach's own process: a review holding a reason pickles and comes back
    equal (its fields a read-only mapping again)."""
    r = Reason("card_trumped", {"card": "AS", "best_card": "7H", "p": 70})
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.fields["p"] == 70
    with pytest.raises(TypeError):
        back.fields["p"] = 1  # type: ignore[index]
    hand = _trumps_after_a_void()
    hand.apply(Action.parse("p1 pl AD"))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    review = review_hand(hand, 0, None)
    assert pickle.loads(pickle.dumps(review)) == review


def test_ramsli_review_prints_the_reason_after_the_line(tmp_path):
    """``ramsli review``: the marked decision's line is followed by its reason, in the --lang
    (en, de), and the JSON holds it as data; no rule id in the words."""
    from typer.testing import CliRunner

    from ramsli.cli import app
    from ramsli.history import HandHistory

    hand = _trumps_after_a_void()
    hand.apply(Action.parse("p1 pl AD"))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    path = tmp_path / "hand-0001.toml"
    path.write_text(HandHistory.from_hand(hand, ["Ann", "Bo", "Cy"], hand_number=1).to_toml(), encoding="utf-8")
    review = review_hand(HandHistory.from_hand(hand, ["Ann", "Bo", "Cy"], hand_number=1), 0, None)
    reasons = [d.reason for d in review.decisions if d.reason is not None]
    assert reasons
    runner = CliRunner()
    data = json.loads(runner.invoke(app, ["review", str(path), "--seat", "p1", "--json", "--lang", "en"]).stdout)
    assert [d["reason"] for d in data["decisions"] if d["reason"]] == [r.to_dict() for r in reasons]
    for lang in ("en", "de"):
        out = runner.invoke(app, ["review", str(path), "--seat", "p1", "--lang", lang], env={"COLUMNS": "400"})
        assert out.exit_code == 0, out.output
        flat = " ".join(out.stdout.split())
        for r in reasons:  # (German cards may be shown in the language's letters: the words are checked)
            assert render_reason(r, lang) in flat if lang == "en" else f"{r.fields['p']} % der Fälle" in flat
        assert not re.search(r"\(R\d", flat)


def test_the_servers_coach_lines_spell_cards_in_the_readers_letters():
    """The coach's lines the server sends (the review page's JSON) name cards as the reader's table
    does: a queen is D♥ in German and in French, a jack B♠ in German, never Q♥ or J♠ (R9)."""
    from types import SimpleNamespace

    from ramsli.coach.lines import Line
    from ramsli.server.coach.review import _line

    hand = _trumps_after_a_void()
    hand.apply(Action.parse("p1 pl AD"))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    marked = next(d for d in review_hand(hand, 0, None).decisions if d.mark is not None)
    d = SimpleNamespace(  # the marked decision with a queen and a jack in its line and reason
        mark=marked.mark,
        line=Line("lead", {"card": "QH", "best_card": "JS", "trick": 1, "loss": 0.5}),
        reason=Reason("card_beaten", {"card": "QH", "best_card": "JS", "p": 78}),
    )
    en, de, fr = _line(d, "en"), _line(d, "de"), _line(d, "fr")  # type: ignore[arg-type]
    assert en is not None and "Q♥" in en and "J♠" in en
    assert de is not None and "D♥" in de and "B♠" in de and "Q♥" not in de and "J♠" not in de
    assert fr is not None and "D♥" in fr and "V♠" in fr and "Q♥" not in fr
