"""The levels and the expert bot (issue #13): R7 observations only, seeds, legal actions, names everywhere."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ramsli.bots import bot_names, make_bot
from ramsli.bots.base import bot_options, play_hand
from ramsli.bots.expert import ExpertBot, p_in
from ramsli.bots.fast import codec
from ramsli.bots.levels import LEVELS, level_spec
from ramsli.cards import make_deck, parse_cards
from ramsli.errors import IllegalActionError
from ramsli.hand import Hand, Phase
from ramsli.rules import Rules

#: every level, and the expert with a small budget (fast tests)
LEVEL_SPECS = ["easy", "medium", "hard", "expert"]
SMALL_EXPERT = "expert:samples=12,play_samples=6,nodes=400"


def _twin(hand: Hand, seat: int, rng: random.Random) -> Hand | None:
    """A hand that agrees with ``hand`` on everything ``seat`` sees (R7) but deals the cards it cannot
    see differently: its own cards, the turn-up, every play and declaration are the same; the other
    seats' unplayed cards and the stock are shuffled among them. None if the history cannot be replayed."""
    played = {s: [] for s in range(len(hand.dealt))}
    for a in hand.history:
        if a.kind == "pl":
            played[a.seat].append(a.card)
    hidden = [c for s, h in enumerate(hand.hands) if s != seat for c in h] + list(hand.stock or [])
    rng.shuffle(hidden)
    new_hands = []
    for s, h in enumerate(hand.dealt):
        if s == seat or not h:
            new_hands.append(list(h))
            continue
        k = len(hand.hands[s])
        new_hands.append(played[s] + hidden[:k])
        hidden = hidden[k:]
    twin = Hand.from_cards(
        hand.rules, [20] * len(hand.dealt), hand.dealer, new_hands, hand.turn_up, hand.turned_aside, pot=0, stock=hidden
    )
    try:
        for a in hand.history:
            twin.apply(a)
    except IllegalActionError:
        return None
    return twin


def _hand_up_to(rules: Rules, n: int, seed: int, steps: int) -> Hand:
    hand = Hand.new(rules, [20] * n, dealer=seed % n, rng=random.Random(seed))
    bot = make_bot("rules")
    for _ in range(steps):
        if hand.is_over:
            break
        hand.apply(bot.act(hand.observe(hand.to_act)))
    return hand


@pytest.mark.parametrize("spec", LEVEL_SPECS + [SMALL_EXPERT])
def test_R7_each_level_decides_alike_on_deals_that_agree_on_what_its_seat_sees(spec):
    """R7: a bot gets its seat's Observation only, so two deals that differ only in cards the seat
    cannot see (other hands, the stock) give it the same observation and, with the same seed, the
    same decision — at declarations and in the play."""
    checked = 0
    rng = random.Random(4)
    for seed in range(40):
        hand = _hand_up_to(Rules(), 4, seed, seed % 12)
        if hand.is_over:
            continue
        seat = hand.to_act
        twin = _twin(hand, seat, rng)
        if twin is None or len(hand.legal_actions()) < 2:
            continue
        assert [h for s, h in enumerate(twin.hands) if s != seat] != [h for s, h in enumerate(hand.hands) if s != seat]
        obs, obs2 = hand.observe(seat), twin.observe(seat)
        assert obs == obs2
        assert make_bot(spec, seed=seed).act(obs) == make_bot(spec, seed=seed).act(obs2)
        checked += 1
        if checked >= 6:
            break
    assert checked >= 4


def test_R7_the_expert_reads_no_hidden_card_even_if_the_hand_holds_them():
    """The bot is handed an Observation, which holds only the seat's own cards (R7): hiding the other
    seats' cards from the engine itself (``None`` cards) changes no decision of the expert."""
    rules = Rules()
    deck = make_deck("piquet32", False)
    for seed in range(3):
        d = list(deck)
        random.Random(seed).shuffle(d)
        hands = [d[5 * s : 5 * s + 5] for s in range(4)]
        seen = Hand.from_cards(rules, [20] * 4, 3, hands, d[20])
        blind = Hand.from_cards(rules, [20] * 4, 3, [hands[0]] + [[None] * 5] * 3, d[20])
        assert seen.observe(0) == blind.observe(0)
        assert ExpertBot(seed=1, samples=20).act(seen.observe(0)) == ExpertBot(seed=1, samples=20).act(blind.observe(0))


@pytest.mark.parametrize("preset", ["traditional", "general-rams", "nap"])
def test_the_same_seed_gives_the_same_decisions(preset):
    """Everything random takes a seed: the expert's whole hand replays action for action."""

    def play(seed: int) -> list:
        hand = Hand.new(Rules.preset(preset), [20] * 4, dealer=1, rng=random.Random(9))
        play_hand(hand, {s: make_bot(SMALL_EXPERT, seed=seed + s) for s in range(4)})
        return hand.history

    assert play(3) == play(3)


def _any_hand_strategy():
    return st.tuples(
        st.sampled_from(["traditional", "general-rams", "nap", "compulsory", "joker", "modern-52", "pot-bete"]),
        st.integers(2, 5),
        st.integers(0, 2**32 - 1),
        st.lists(st.sampled_from(["easy", "medium", SMALL_EXPERT]), min_size=5, max_size=5),
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_any_hand_strategy())
def test_every_level_returns_a_legal_action_in_any_legal_position(case):
    """Any legal position of any preset: each bot's answer is one of the legal actions (R4.5-R4.10)."""
    preset, n, seed, specs = case
    hand = Hand.new(Rules.preset(preset), [20] * n, dealer=seed % n, rng=random.Random(seed))
    bots = {s: make_bot(specs[s], seed=seed + s) for s in range(n)}
    while not hand.is_over:
        legal = hand.legal_actions()
        a = bots[hand.to_act].act(hand.observe(hand.to_act))
        assert a in legal, (a, legal)
        hand.apply(a)
    assert hand.total() == 20 * n  # R3.4


def test_hard_and_expert_levels_play_a_legal_hand():
    hand = Hand.new(Rules.preset("general-rams"), [20] * 3, dealer=0, rng=random.Random(21))
    play_hand(hand, {0: make_bot("hard", seed=1), 1: make_bot("expert", seed=2), 2: make_bot("easy", seed=3)})
    assert hand.is_over and hand.total() == 60


def test_level_names_resolve_in_make_bot_and_are_listed():
    assert set(LEVEL_SPECS) <= set(bot_names()) and list(LEVELS) == LEVEL_SPECS  # weakest first
    assert type(make_bot("easy")).__name__ == type(make_bot("tips")).__name__
    assert make_bot("medium").samples == 2 and make_bot("hard").samples == 6
    assert isinstance(make_bot("expert"), ExpertBot)
    assert bot_options("hard") == [] and "samples" in bot_options("expert")
    with pytest.raises(ValueError, match="level 'hard' takes no options"):
        make_bot("hard:samples=3")
    assert level_spec("expert:samples=5") == "expert:samples=5"
    assert set(LEVELS) == set(LEVEL_SPECS)


def test_level_names_resolve_in_the_play_and_tournament_commands():
    from ramsli.cli import app
    from ramsli.frontends.game import split_bot_specs

    assert split_bot_specs("easy,medium,hard,expert") == ["easy", "medium", "hard", "expert"]
    r = CliRunner().invoke(app, ["tournament", "--bots", "easy,medium,easy", "-n", "1", "-q"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "easy" in r.output and "expert" in r.output


def test_level_names_resolve_in_the_server_table_spec():
    from ramsli.server.protocol.messages import BadMessage
    from ramsli.server.tables.hub import Hub

    hub = Hub(None)
    _rules, _preset, seats, _opts, _seed = hub.parse_spec(
        {"preset": "traditional", "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in LEVEL_SPECS]}
    )
    assert [s["bot"] for s in seats[1:]] == LEVEL_SPECS
    # a bad spec is refused with the seat's field (seats[1].bot) as the table's body is read
    with pytest.raises(BadMessage, match="takes no options") as caught:
        hub.parse_spec({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium:samples=2000"}]})
    assert caught.value.refusal.code == "level_options" and caught.value.refusal["field"] == "seats[1].bot"
    with pytest.raises(BadMessage, match="out of range"):
        hub.parse_spec({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "expert:samples=100000"}]})


def test_expert_options_are_bounded():
    for bad in ("expert:samples=0", "expert:play_samples=401", "expert:nodes=10**9", "expert:margin=9"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_opponent_model_reads_an_in_after_two_others_as_strength():
    """The expert's model of a declaration (R4.5): an ``in`` after two players are in is likely with a
    strong hand and unlikely with a weak one; the same weak hand is more likely in with nobody in."""
    cd = codec("S")
    strong = cd.encs(parse_cards("AS KS AH AD 7C"))
    weak = cd.encs(parse_cards("7S 8H 9D 7C 8C"))
    middling = cd.encs(parse_cards("9S KH 8D 7C 9C"))
    assert p_in(strong, 0, 2, 1, 5, 5, 5) > 0.9
    assert p_in(weak, 0, 2, 1, 5, 5, 5) < 0.1
    assert p_in(middling, 0, 0, 4, 5, 5, 5) > p_in(middling, 0, 2, 2, 5, 5, 5)


def test_the_expert_weights_samples_by_the_declarations():
    """After two players are in and a third stays in, the expert's samples give that third player
    more strength than its samples for a player who went out (the model of its declarations)."""
    rules = Rules()
    hand = Hand.new(rules, [20] * 5, dealer=4, rng=random.Random(31))
    for a in ("p1 in", "p2 in", "p3 in", "p4 out"):
        from ramsli.hand import Action

        hand.apply(Action.parse(a))
    obs = hand.observe(4)
    bot = ExpertBot(seed=2)
    k, checks, played = bot._setup(obs)
    from ramsli.bots.fast import declare_strength

    samples = bot._samples(obs, k, checks, played, 300)
    tot = sum(w for _, w in samples)

    def strength(seat):
        return sum(w * declare_strength(d[seat], k.visible_trumps)[1] for d, w in samples) / tot

    assert strength(2) > strength(3) + 0.5
    assert obs.phase is Phase.DECLARE


def test_declare_value_is_what_the_declaration_compares_with_the_margin():
    """R4.5: ``declare_value`` is the estimate the expert declares by: ``in`` exactly when it beats the
    margin, for a margin just under and just over the estimate; outside the declarations it refuses."""
    rules = Rules()
    hand = Hand.new(rules, [20] * 5, dealer=4, rng=random.Random(8))
    obs = hand.observe(hand.to_act)
    value = ExpertBot(seed=3, samples=40).declare_value(obs)
    assert isinstance(value, float)
    assert ExpertBot(seed=3, samples=40, margin=value - 1e-6).act(obs).kind == "in"
    assert ExpertBot(seed=3, samples=40, margin=value + 1e-6).act(obs).kind == "out"
    while hand.phase is Phase.DECLARE:
        hand.apply(make_bot("rules").act(hand.observe(hand.to_act)))
    with pytest.raises(ValueError, match="declaration phase"):
        ExpertBot(seed=3).declare_value(hand.observe(hand.to_act))
