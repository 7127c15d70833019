"""The tips player (``tips``, alias ``rules``) plays each tip of the seeds as written (issue #13, RULES.md R10).

Each test cites the tip (``seeds/rules-en.txt`` line) and the rule ids; the table in
``docs/tips-player.md`` names these tests, and :func:`test_the_tips_table_names_real_functions_and_tests`
keeps that table true.
"""

from __future__ import annotations

import re

import pytest

from ramsli import Card, Hand, Rules, parse_cards
from ramsli.bots import make_bot, tips
from ramsli.bots.tips import TipsBot, choose_play
from ramsli.cards import make_deck
from ramsli.hand import Phase

from helpers import ROOT

#: the lines of the seven tips in ``seeds/rules-en.txt`` ("Tips and Strategy"; the same lines in de, nl, it)
TIP_LINES = range(66, 73)


def _declare_position(
    mine: str, position: int, before: list[str], turn_up: str = "KS", rules: Rules = Rules(), n: int = 5
) -> Hand:
    """A hand where seat p1 holds ``mine`` and declares ``position``-th (0 = first, n-1 = the dealer),
    after the seats before it declared ``before`` (``"in"``/``"out"``, in order) (R4.5)."""
    assert len(before) == position
    cards = parse_cards(mine)
    up = Card.parse(turn_up)
    rest = [c for c in make_deck(rules.deck, rules.jokers) if c not in cards and c != up]
    dealer = (-position - 1) % n
    hands = [[] for _ in range(n)]
    hands[0] = cards
    others = [s for s in range(n) if s != 0]
    for i, s in enumerate(others):
        hands[s] = rest[i * 5 : (i + 1) * 5]
    hand = Hand.from_cards(rules, [20] * n, dealer=dealer, hands=hands, turn_up=up)
    for d in before:
        hand.apply(f"p{hand.to_act + 1} {d}")
    assert hand.phase is Phase.DECLARE and hand.to_act == 0
    return hand


def _declares(bot_spec: str, hand: Hand) -> str:
    return make_bot(bot_spec).act(hand.observe(0)).kind


# --------------------------------------------------------------------------- tip 1 (line 66), R4.5


def test_trump_plus_second_rank_court_stays_in_in_every_seat():
    """Tip 1 (line 66): "stay in if you hold ... trump plus second-rank court" — the hand 9S KH 8D 7C 9C,
    trump spades, stays in in every seat with nobody, one or two players in before it (R4.5, R10)."""
    mine = "9S KH 8D 7C 9C"
    for bot in ("tips", "rules"):
        for pos in range(5):
            for n_in in range(min(pos, 2) + 1):
                before = ["in"] * n_in + ["out"] * (pos - n_in)
                assert _declares(bot, _declare_position(mine, pos, before)) == "in", (bot, pos, before)


def test_a_side_ace_or_a_top_trump_is_a_path_to_a_trick():
    """Tip 1 (line 66): "stay in if you hold at least one Ace, one top trump" (R4.5)."""
    for mine in ("AH 8H 9D 7C 8D", "QS 8H 9D 7C 8D"):  # a side ace; the Q of trump is top with the K up
        for pos in range(4):
            assert _declares("tips", _declare_position(mine, pos, ["out"] * pos)) == "in", (mine, pos)


def test_three_low_side_cards_and_the_7_of_trump_fold():
    """Tip 1 (line 66) and tip 7 (line 72): "a hand with three low non-trumps and a 7 of trump is a fold" —
    in every seat (the dealer only when it is not forced in, R4.5), also with one player in before."""
    mine = "7S 8H 9D 7C 8D"
    for bot in ("tips", "rules"):
        for pos in range(5):
            for n_in in range(min(pos, 3) + 1):
                if pos == 4 and n_in == 0:
                    continue  # the dealer is forced in (R4.5, dealer_forced)
                before = ["in"] * n_in + ["out"] * (pos - n_in)
                assert _declares(bot, _declare_position(mine, pos, before)) == "out", (bot, pos, before)


# --------------------------------------------------------------------------- tip 2 (line 67), R4.5, R10


def test_always_in_with_a_sure_trick_however_many_are_in():
    """Tip 1/2 (lines 66-67): the ace of trump is a sure trick (R4.11: the highest trump wins), so the
    bete cannot be lost: in after two, three or four players are in (R4.5)."""
    mine = "AS 8H 9D 7C 8D"
    for bot in ("tips", "rules"):
        for pos in (2, 3, 4):
            assert _declares(bot, _declare_position(mine, pos, ["in"] * pos, turn_up="9S")) == "in", (bot, pos)
    # the K of trump is sure when the ace is turned up (the turn-up is never played, R4.4)
    assert _declares("tips", _declare_position("KS 8H 9D 7C 8D", 3, ["in"] * 3, turn_up="AS")) == "in"
    # with jokers in the pack the ace of trump is not sure (R1.3, D-2): a mediocre hand after three in
    jr = Rules(jokers=True)
    assert _declares("tips", _declare_position(mine, 3, ["in"] * 3, turn_up="9S", rules=jr)) == "out"
    assert _declares("tips", _declare_position("X1 8H 9D 7C 8D", 3, ["in"] * 3, turn_up="9S", rules=jr)) == "in"


def test_three_in_and_a_mediocre_hand_folds():
    """Tip 2 (line 67): "if three players are in and you have a mediocre hand, folding is the safer play";
    a strong hand (two of top trumps and side aces) stays in (R4.5)."""
    assert _declares("tips", _declare_position("9S KH 8D 7C 9C", 3, ["in"] * 3)) == "out"
    assert _declares("tips", _declare_position("9S KH 8D 7C 9C", 4, ["in"] * 4)) == "out"
    assert _declares("tips", _declare_position("QS AH 8D 7C 9C", 3, ["in"] * 3)) == "in"


def test_one_player_in_before_you_in_any_seat():
    """Tip 2 (line 67) read by R10 ("if only one player is in before you"): a marginal hand (a side queen
    and a low trump, no path of tip 1) stays in whenever exactly one player is in before it, in any seat —
    not only when declaring last — and folds with nobody or two in before (R4.5, R4.6)."""
    mine = "QH 8S 9D 7C 8D"
    for bot in ("tips", "rules"):
        for pos in range(1, 5):
            for first in range(pos):
                before = ["out"] * pos
                before[first] = "in"
                assert _declares(bot, _declare_position(mine, pos, before)) == "in", (bot, pos, before)
    for pos in range(4):
        assert _declares("tips", _declare_position(mine, pos, ["out"] * pos)) == "out", pos
    assert _declares("tips", _declare_position(mine, 3, ["in", "in", "out"])) == "out"


# --------------------------------------------------------------------------- tip 6 (line 71), R4.7


def _gr_position(mine: str, turn_up: str, rules: Rules) -> Hand:
    hand = _declare_position(mine, 2, ["in", "in"], turn_up=turn_up, rules=rules, n=3)
    hand.apply("p1 in")
    assert hand.phase is Phase.GENERAL_RAMS
    while hand.to_act != 0:
        hand.apply(f"p{hand.to_act + 1} pass")
    return hand


@pytest.mark.parametrize(
    "mine,turn_up,jokers,expect",
    [
        ("AS KS AH KD AC", "9S", False, "gr"),  # the tip's shape
        ("AS QS AH KD AC", "KS", False, "gr"),  # the Q is a top trump with the K turned up
        ("AS X1 AH KD AC", "9S", True, "gr"),  # a joker is one more top trump (R1.3, D-2)
        ("AS KS 7S AH AD", "9S", False, "pass"),  # a third trump, only two side aces/kings
        ("X1 X2 AH AD AC", "9S", True, "pass"),  # jokers are trumps but not the ace of trump (R1.3)
        ("AS KS AH KD QC", "9S", False, "pass"),  # a side queen is not an ace or king
        ("KS QS AH KD AC", "9S", False, "pass"),  # no ace of trump
    ],
)
def test_general_rams_only_with_the_tips_shape(mine, turn_up, jokers, expect):
    """Tip 6 (line 71): "only announce General Rams with a five-card hand containing Ace of trump, one more
    top trump, and three Aces or Kings of side suits" (R4.7, R1.3, D-2)."""
    rules = Rules(general_rams=True, jokers=jokers)
    hand = _gr_position(mine, turn_up, rules)
    for bot in ("tips", "rules"):
        assert make_bot(bot).act(hand.observe(0)).kind == expect, (bot, mine)


# --------------------------------------------------------------------------- tips 3-5 (lines 68-70), R4.10


def _play_position(hands_text: list[str], turn_up: str, plays: list[str] = (), rules: Rules = Rules()) -> Hand:
    """Three players, p3 deals, everyone in; p1 leads (R4.9); then ``plays`` are applied."""
    hands = [parse_cards(h) for h in hands_text]
    hand = Hand.from_cards(rules, [20] * 3, dealer=2, hands=hands, turn_up=Card.parse(turn_up))
    for s in range(3):
        hand.apply(f"p{s + 1} in")
    for p in plays:
        hand.apply(p)
    return hand


def test_leads_trumps_with_strong_trump_length():
    """Tip 3 (line 68): "lead trumps when you are in with strong trump length" — AS KS 7S leads the ace
    of trump at trick 1 (R4.9, R4.10); not when every opponent is known to hold no trump."""
    hand = _play_position(["AS KS 7S 8H 9D", "7H 8D 9C TC JC", "TH JH 8C 7D QD"], "9S")
    act = make_bot("tips").act(hand.observe(0))
    assert act.kind == "pl" and str(act.card) == "AS"
    h = parse_cards("AS KS 7S 8H 9D")
    assert str(choose_play(h, [], "S", 1, h, trumpless_opponents=True)) != "AS"
    assert str(choose_play(h, [], "S", 1, h, variant=tips.VAR_NO_TRUMP_LEAD)) == "8H"


def test_holds_back_a_sole_ace_at_trick_1():
    """Tip 4 (line 69): "hold back a sole Ace for the middle of the round. An opening Ace is often trumped"
    — the sole ace is not led at trick 1 or 2; it is led at trick 3 (R4.9, R4.10)."""
    for mine in ("AH 8D 9C 7S 8S", "AH KH 8D 7S 8S"):  # the second: AH and KH are both masters
        hand = _play_position([mine, "7H 9D TC JC QC", "TH JH 8C 7D QD"], "9S")
        for bot in ("tips", "rules"):
            act = make_bot(bot).act(hand.observe(0))
            assert act.kind == "pl" and str(act.card) == "8D", (bot, mine)
    h = parse_cards("AH 8D 9C 7S 8S")
    assert str(choose_play(h, [], "S", 1, h)) == "8D"
    assert str(choose_play(h, [], "S", 2, h)) == "AH"
    assert str(choose_play(h, [], "S", 0, h, variant=tips.VAR_ACE_EARLY)) == "AH"


def test_tracks_discards_on_a_trump_lead():
    """Tip 5 (line 70): "a player who discards when trump is led is out of trump. Track these discards."
    After both opponents fail to follow a trump lead (R4.10), the seat knows they hold no trump, so it
    leads its sole ace at trick 2 (it cannot be trumped) instead of holding it back."""
    hand = _play_position(
        ["AS AH 8D 9C 7D", "7H 9D TC JC QC", "TH JH 8C JD QD"], "9S", ["p1 pl AS", "p2 pl 7H", "p3 pl TH"]
    )
    obs = hand.observe(0)
    assert tips.trumpless_opponents(obs)
    assert str(make_bot("tips").act(obs).card) == "AH"
    assert str(TipsBot(tracking=False).act(obs).card) != "AH"  # the kernel's view does not track


# --------------------------------------------------------------------------- the bots and the table


def test_rules_is_the_tips_player():
    """``rules`` is an alias of ``tips`` (issue #13): the same decisions on the same positions."""
    hand = _declare_position("9S KH 8D 7C 9C", 1, ["in"])
    assert type(make_bot("rules")) is type(make_bot("tips")) is TipsBot
    assert make_bot("rules").act(hand.observe(0)) == make_bot("tips").act(hand.observe(0))


def _table_rows() -> list[list[str]]:
    text = (ROOT / "docs" / "tips-player.md").read_text(encoding="utf-8")
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and "---" not in ln]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows[1:]]


def test_the_tips_table_names_real_functions_and_tests():
    """docs/tips-player.md: every tip line of rules-en.txt (lines 66-72) has a row; every function named exists in
    ``ramsli.bots.tips``/``ramsli.bots.tracking`` and every test named exists in this file."""
    rows = _table_rows()
    cited = set()
    from ramsli.bots import tracking

    for row in rows:
        assert len(row) == 4, row
        cited.update(int(x) for x in re.findall(r"\d+", row[0]))
        for fn in re.findall(r"`([A-Za-z_.]+)`", row[2]):
            mod, _, name = fn.rpartition(".")
            owner = {"": tips, "tracking": tracking, "TipsBot": TipsBot}[mod]
            assert hasattr(owner, name), fn
        tests = re.findall(r"`(test_[a-z0-9_]+)`", row[3])
        assert tests, row
        for t in tests:
            assert callable(globals().get(t)), t
    assert set(TIP_LINES) <= cited, (TIP_LINES, cited)
    assert len(rows) >= 7


def test_the_kernel_declares_and_announces_like_the_bot_without_tracking():
    """The lab kernel's TIPS policy (``lab/kernel.py``: ``_tips_declare``, ``_tips_gr``) equals
    ``declare_in``/``announce_gr`` with the kernel's view (``tracking=False``) on random hands of a pack
    with jokers, every trump, 0..4 players in before and every variant (R4.5, R4.7, R10); the whole
    hands are compared by ``tests/test_lab_kernel.py::test_kernel_agrees_with_engine``."""
    import random

    import numpy as np

    from ramsli.lab import kernel as K

    rng = random.Random(13)
    deck = list(make_deck("full52", True))
    gr_seen = sure_seen = 0
    for _ in range(3000):
        cards = rng.sample(deck, 5)
        if rng.random() < 0.2:  # make the General Rams shape and sure tricks common
            cards = parse_cards(
                rng.choice(["AS KS AH KD AC", "AS X1 AH KD AC", "X1 X2 AH AD AC", "AS KS 7S AH AD", "AS 8H 9D 7C 8D"])
            )
        arr = np.array([c.index for c in cards], np.int64)
        for t, trump in enumerate("SHDC"):
            gr = tips.announce_gr(cards, trump)
            gr_seen += gr
            assert K._tips_gr(arr, 5, t) == gr, (cards, trump)
            sure_seen += tips.sure_tricks(cards, trump, tips.blind_live_trumps(cards)) > 0
            for ins in range(5):
                for var in (0, K.VAR_TIGHT):
                    assert K._tips_declare(arr, 5, t, ins, var) == tips.declare_in(cards, trump, ins, var), (
                        cards,
                        trump,
                        ins,
                        var,
                    )
    assert gr_seen > 50 and sure_seen > 200  # both branches were tried
