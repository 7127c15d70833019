"""Bots (issue #4): legal actions only, determinism, R7 hygiene, the compact rules
(R4.10, R4.11) agree with the engine, void inference is sound, and montecarlo takes
the obvious trick."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramsli import Card, Hand, Rules, parse_cards
from ramsli.bots import make_bot
from ramsli.bots.fast import Codec, legal, winner_index
from ramsli.bots.montecarlo import MonteCarloBot, rollout
from ramsli.bots.solver import Solver
from ramsli.bots.tracking import infer
from ramsli.cards import make_deck
from ramsli.hand import Observation, Phase, legal_plays, trick_winner
from ramsli.rules import PRESETS

SPECS = ("random", "rules", "montecarlo:samples=3,nodes=400")


def _play(hand: Hand, bots: dict, check=None) -> list[str]:
    """Play to the end, asserting every bot action is legal (R4.12); returns the history."""
    while not hand.is_over:
        seat = hand.to_act
        obs = hand.observe(seat)
        if check:
            check(hand, obs)
        a = bots[seat].act(obs)
        assert a in hand.legal_actions(), f"{a} not legal; legal: {hand.legal_actions()}"
        hand.apply(a)
    return [str(a) for a in hand.history]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 10**6),
    n=st.integers(2, 6),
    overtrump=st.sampled_from(["always", "when-trumping"]),
    mix=st.integers(0, 10**3),
)
def test_every_bot_returns_legal_actions(preset, seed, n, overtrump, mix):
    rules = Rules.preset(preset, overtrump=overtrump)
    rng = random.Random(seed)
    hand = Hand.new(rules, [rules.starting_stack] * n, dealer=seed % n, rng=rng)
    total = hand.total()
    bots = {s: make_bot(SPECS[(s + mix) % 3], seed=seed + s) for s in range(n)}
    _play(hand, bots)
    assert hand.total() == total  # R3.4


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_choices(spec):
    rules = Rules.preset("general-rams", targets=True)
    runs = []
    for _ in range(2):
        hists = []
        for deal in range(3):
            hand = Hand.new(rules, [20] * 4, dealer=deal % 4, rng=random.Random(100 + deal))
            hists.append(_play(hand, {s: make_bot(spec, seed=7 + s) for s in range(4)}))
        runs.append(hists)
    assert runs[0] == runs[1]


def _visible(obs: Observation) -> set[Card]:
    """Every card object reachable from an observation."""
    cards = set(obs.cards) | {obs.turn_up} | set(obs.turned_aside)
    for t in obs.tricks:
        cards |= {c for _, c in t.plays}
    cards |= {c for _, c in obs.current}
    cards |= {a.card for a in obs.legal if a.card is not None}
    return cards


def _scan(value, found: set) -> None:
    if isinstance(value, Card):
        found.add(value)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _scan(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            _scan(v, found)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            _scan(getattr(value, name), found)
    elif hasattr(value, "card") and hasattr(value, "kind"):
        _scan(value.card, found)


class _Spy:
    """Wraps a bot and checks each observation against the real hand (R7, D-16)."""

    def __init__(self, bot, hand_ref):
        self.bot = bot
        self.hand_ref = hand_ref
        self.name = bot.name
        self.checked = 0

    def act(self, obs):
        hand = self.hand_ref[0]
        seat = obs.seat
        assert list(obs.cards) == list(hand.hands[seat])
        found: set = set()
        _scan(obs, found)
        played = {c for t in hand.tricks for _, c in t.plays} | {c for _, c in hand.current}
        allowed = set(hand.hands[seat]) | {hand.turn_up} | set(hand.turned_aside) | played
        hidden = {c for s, h in enumerate(hand.hands) if s != seat for c in h} | set(hand.stock or ())
        assert found <= allowed, f"seat {seat} sees {found - allowed}"
        assert not (found & hidden)
        assert _visible(obs) <= found
        self.checked += 1
        return self.bot.act(obs)


@pytest.mark.parametrize("preset", ["traditional", "joker", "nap", "general-rams"])
def test_observation_holds_no_hidden_card(preset):
    rules = Rules.preset(preset)
    spies = []
    for deal in range(6):
        ref = [None]
        hand = Hand.new(rules, [20] * 5, dealer=deal % 5, rng=random.Random(deal))
        ref[0] = hand
        bots = {s: _Spy(make_bot(SPECS[(s + deal) % 3], seed=s), ref) for s in range(5)}
        spies += bots.values()
        _play(hand, bots)
    assert sum(s.checked for s in spies) > 30


def _random_position(rng: random.Random, rules: Rules):
    deck = list(make_deck(rules.deck, rules.jokers))
    rng.shuffle(deck)
    trump = rng.choice("SHDC")
    n = rng.randint(2, 6)
    k = rng.randint(0, n - 1)
    plays = [(s, deck.pop()) for s in range(k)]
    cards = [deck.pop() for _ in range(rng.randint(1, 5))]
    return trump, plays, cards


@pytest.mark.parametrize("overtrump", ["always", "when-trumping"])
@pytest.mark.parametrize("deck,jokers", [("piquet32", True), ("full52", False)])
def test_compact_rules_agree_with_engine(overtrump, deck, jokers):
    """fast.legal / fast.winner_index == hand.legal_plays / hand.trick_winner (R4.10, R4.11)."""
    rules = Rules(deck=deck, jokers=jokers, overtrump=overtrump)
    rng = random.Random(11)
    always = overtrump == "always"
    for _ in range(3000):
        trump, plays, cards = _random_position(rng, rules)
        cd = Codec(trump)
        expect = legal_plays(cards, plays, trump, overtrump)
        got = [cd.dec(c) for c in legal(cd.encs(cards), cd.encs(c for _, c in plays), always)]
        assert got == expect
        full = plays + [(len(plays), rng.choice(expect))]
        assert full[winner_index(cd.encs(c for _, c in full))][0] == trick_winner(full, trump)


@pytest.mark.parametrize(
    "preset,overtrump",
    [("traditional", "always"), ("joker", "when-trumping"), ("modern-52", "always"), ("compulsory", "when-trumping")],
)
def test_void_inference_never_excludes_a_real_card(preset, overtrump):
    """Every card another active seat really holds is in the pool and allowed by the
    inferred voids and trump caps (R4.10, D-14) — inference is sound."""
    rules = Rules.preset(preset, overtrump=overtrump)
    rng = random.Random(5)
    inferred = 0
    for deal in range(60):
        hand = Hand.new(rules, [20] * 5, dealer=deal % 5, rng=rng)
        bots = {s: make_bot("random" if s % 2 else "rules", seed=s) for s in range(5)}
        while not hand.is_over:
            seat = hand.to_act
            obs = hand.observe(seat)
            if hand.phase is Phase.PLAY:
                k = infer(obs)
                pool = set(k.pool)
                for s in obs.active:
                    if s == seat:
                        continue
                    for c in hand.hands[s]:
                        code = k.codec.enc(c)
                        assert code in pool and k.allows(s, code), (s, c, k.voids, k.cap)
                inferred += sum(1 for v in k.voids.values() if v) + len(k.cap)
            hand.apply(bots[seat].act(obs))
    assert inferred > 50  # the test did see voids and caps


def _pay(tr):
    m = max(tr)
    w = [i for i, t in enumerate(tr) if t == m]
    return tuple((5 // len(w) if t == m else 0) - (5 if t == 0 else 0) for t in tr)


def test_solver_pruning_changes_nothing_and_rollout_is_legal():
    rng = random.Random(3)
    deck = list(make_deck("piquet32", True))
    for _ in range(40):
        rng.shuffle(deck)
        n = rng.randint(2, 4)
        left = rng.randint(1, 4)
        cd = Codec(rng.choice("SHDC"))
        hands = [cd.encs(deck[i * 5 : i * 5 + left]) for i in range(n)]
        always = rng.random() < 0.5
        a = Solver(n, _pay, always).root(hands, 0, [], (0,) * n)
        b = Solver(n, _pay, always, prune=False).root(hands, 0, [], (0,) * n)
        assert a == b
        tr = rollout(hands, 0, (), (0,) * n, always, 5 - left)
        assert sum(tr) == left


def _scripted(hands_text: list[str], turn_up: str, plays: list[str], rules=Rules()) -> Hand:
    hands = [parse_cards(h) for h in hands_text]
    hand = Hand.from_cards(rules, [20, 20], dealer=1, hands=hands, turn_up=Card.parse(turn_up))
    for a in ["p1 in", "p2 in"] + plays:
        hand.apply(a)
    return hand


def test_montecarlo_leads_the_top_trump_to_take_the_last_two_tricks():
    # p1 has 1 trick, p2 has 2; p1 must win both last tricks to take the pot (R5.1):
    # lead AS (top trump) first, then QS; leading QS lets KS overtrump.
    hand = _scripted(
        ["AS QS 7D 8D AD", "KS 7H TD JD 9D"],
        "8C",
        ["p1 pl 7D", "p2 pl TD", "p2 pl JD", "p1 pl 8D", "p2 pl 9D", "p1 pl AD"],
    )
    assert hand.to_act == 0 and hand.tricks_won == [1, 2]
    bot = MonteCarloBot(seed=1, samples=30)
    assert str(bot.act(hand.observe(0))) == "p1 pl AS"


def test_montecarlo_wins_with_the_only_card_that_avoids_bete():
    # p1 has no trick; p2 leads KH at trick 4. Only AH can take a trick (R5.3 bete otherwise).
    hand = _scripted(
        ["7D 8D 9D AH 7H", "AD KD QD KH 9C"],
        "8S",
        ["p1 pl 7D", "p2 pl AD", "p2 pl KD", "p1 pl 8D", "p2 pl QD", "p1 pl 9D", "p2 pl KH"],
    )
    assert hand.to_act == 0 and hand.tricks_won == [0, 3]
    for seed in range(3):
        assert str(MonteCarloBot(seed=seed, samples=20).act(hand.observe(0))) == "p1 pl AH"


def test_montecarlo_declares_on_counters():
    """With four top trumps it stays in; with nothing it folds (R4.5, R5.5)."""
    rules = Rules()
    strong = parse_cards("AS KS QS JS AH")
    weak = parse_cards("7H 8D 9C 7D 8C")
    others = [c for c in make_deck() if c not in strong + weak and c != Card.parse("9S")]
    for mine, expect in ((strong, "in"), (weak, "out")):
        rest = [c for c in make_deck() if c not in mine and c != Card.parse("9S")]
        hands = [list(mine)] + [rest[i * 5 : (i + 1) * 5] for i in range(4)]
        hand = Hand.from_cards(rules, [20] * 5, dealer=4, hands=hands, turn_up=Card.parse("9S"))
        act = MonteCarloBot(seed=2, samples=30).act(hand.observe(0))
        assert act.kind == expect
    assert others  # deck arithmetic sanity


def test_rules_bot_follows_the_tips():
    rules = Rules()
    deck = list(make_deck())
    # three low side cards with the 7 of trump is a fold (seeds' first tip)
    fold = parse_cards("7S 8H 9D 7C 8D")
    rest = [c for c in deck if c not in fold and c != Card.parse("KS")]
    hand = Hand.from_cards(
        rules,
        [20] * 5,
        dealer=4,
        hands=[fold] + [rest[i * 5 : (i + 1) * 5] for i in range(4)],
        turn_up=Card.parse("KS"),
    )
    assert make_bot("rules").act(hand.observe(0)).kind == "out"
    # an ace is a realistic path to a trick
    ace = parse_cards("AH 8H 9D 7C 8D")
    rest = [c for c in deck if c not in ace and c != Card.parse("KS")]
    hand = Hand.from_cards(
        rules, [20] * 5, dealer=4, hands=[ace] + [rest[i * 5 : (i + 1) * 5] for i in range(4)], turn_up=Card.parse("KS")
    )
    assert make_bot("rules").act(hand.observe(0)).kind == "in"
    # General Rams only with A of trump, another top trump and three side aces/kings (R4.7)
    gr = parse_cards("AS QS AH KD AC")
    rest = [c for c in deck if c not in gr and c != Card.parse("KS")]
    rg = Rules.preset("general-rams")
    hand = Hand.from_cards(
        rg, [20] * 3, dealer=2, hands=[gr] + [rest[i * 5 : (i + 1) * 5] for i in range(2)], turn_up=Card.parse("KS")
    )
    hand.apply("p1 in")
    hand.apply("p2 in")
    hand.apply("p3 in")
    assert hand.phase is Phase.GENERAL_RAMS
    assert make_bot("rules").act(hand.observe(0)).kind == "gr"


def test_bad_budget_is_refused():
    with pytest.raises(ValueError, match="samples"):
        make_bot("montecarlo:samples=0")


@pytest.mark.parametrize("spec", ["tips", "montecarlo:samples=3,nodes=400"])
def test_slips_eps_0_plays_as_the_bot_and_eps_1_plays_random_legal_actions(spec):
    """The ``eps`` option (:class:`ramsli.bots.base.Slips`, the levels' slips): ``eps=0`` gives the
    same hands as the bot without it (its own random stream untouched); ``eps=1`` gives a random
    legal action at every real choice (R4.12), the same for the same seed, and chips are conserved
    (R3.4); ``eps`` outside 0..1 is refused."""
    rules = Rules.preset("general-rams", targets=True)
    plain, zero, ones, again = [], [], [], []
    for deal in range(4):
        for out, s in ((plain, spec), (zero, spec + (",eps=0" if ":" in spec else ":eps=0"))):
            hand = Hand.new(rules, [20] * 4, dealer=deal % 4, rng=random.Random(300 + deal))
            out.append(_play(hand, {p: make_bot(s, seed=5 + p) for p in range(4)}))
        noisy = spec + (",eps=1" if ":" in spec else ":eps=1")
        for out in (ones, again):
            hand = Hand.new(rules, [20] * 4, dealer=deal % 4, rng=random.Random(300 + deal))
            total = hand.total()
            out.append(_play(hand, {p: make_bot(noisy, seed=5 + p) for p in range(4)}))
            assert hand.total() == total
    assert plain == zero
    assert ones == again and ones != plain
    for bad in ("eps=1.5", "eps=-0.1"):
        with pytest.raises(ValueError, match="eps"):
            make_bot(spec + ("," if ":" in spec else ":") + bad)


def test_slips_come_at_the_rate_eps():
    """A slip is drawn at a real choice only, with probability ``eps``: over 4,000 choices between
    two legal actions, ``eps=0.3`` gives a random action in 30% ± 3% of them, half of them the
    bot's own choice by chance)."""
    from ramsli.bots.base import Slips

    hand = Hand.new(Rules(), [20] * 3, 0, seed=4)
    obs = hand.observe(hand.to_act)
    assert len(obs.legal) == 2
    slips = Slips(0.3, random.Random(9))
    drawn = [slips.slip(obs) for _ in range(4000)]
    rate = sum(d is not None for d in drawn) / len(drawn)
    assert abs(rate - 0.3) < 0.03
    assert {d for d in drawn if d is not None} == set(obs.legal)
