"""Every copy of a rule gives the engine's answer on the same random positions (issue 9).

Some rules are written more than once for speed; ``docs/rules-map.md`` ("Rules
with copies") lists every copy. This module feeds the same seeded random
positions — every preset of R6, both ``overtrump`` readings (D-14), jokers,
full52, General Rams, targets, pot bete, 2-6 players — to all of them and
fails on any difference:

- follow suit / must trump / overtrump (R4.10, D-14): ``hand.legal_plays``,
  ``Hand.legal_actions``, ``Hand.why_illegal`` (``Hand._play_refusal``),
  ``bots.fast.legal``, ``lab.kernel._legal``;
- the trick winner (R4.11): ``hand.trick_winner``, ``bots.fast.beats``,
  ``bots.fast.winner_index``, ``lab.kernel._beats``, ``bots.tips._beats``;
- what plays reveal (R4.10, D-14, R7): ``ramsli.inference`` against a
  brute-force replay of ``legal_plays``, and its translation to the bots'
  codes (``bots.tracking``) and the RL adapters (``rl.encoding``,
  ``rl.openspiel_game``), sampling included;
- settlement (R5), bust and session ends (R3.5, R3.6): the kernel against
  ``settlement.settle`` / ``session.Session`` on random rule sets, through the
  agreement harness of ``ramsli.lab.reference`` (``tests/test_lab_kernel.py``
  runs it on fixed rule sets).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ramsli import Hand, Rules
from ramsli.bots import fast
from ramsli.bots import tips as policy
from ramsli.bots.tracking import infer as infer_codes
from ramsli.bots.tracking import sample_deal
from ramsli.cards import Card, make_deck
from ramsli.hand import Action, Phase, legal_plays, trick_winner
from ramsli.inference import NO_CAP, infer, revealed_voids, sample_hidden, trump_caps
from ramsli.lab import kernel as K
from ramsli.lab.reference import check_agreement, check_session_agreement
from ramsli.rl import encoding
from ramsli.rules import PRESETS

OVERTRUMP = ("always", "when-trumping")
#: every preset in both overtrump readings, plus option mixes the presets do not reach
VARIANTS = [Rules.preset(p, overtrump=ot) for p in sorted(PRESETS) for ot in OVERTRUMP] + [
    Rules(deck="full52", jokers=True, general_rams=True, targets=True),
    Rules(deck="full52", jokers=True, overtrump="when-trumping", bete="pot", batches="2+3"),
    Rules(jokers=True, compulsory=True, general_rams=True, general_rams_penalty="triple-pot"),
]
DECKS = [(d, j) for d in ("piquet32", "full52") for j in (False, True)]
SUITS = "SHDC"


# --------------------------------------------------------------------------- positions


def _synthetic_position(rng: random.Random, deck: tuple[Card, ...]):
    """A random trick in progress (0-5 plays by seats 0..k-1) and a random holding of 1-5 cards:
    not always reachable in play, so that the copies are compared beyond the positions play gives."""
    cards = list(deck)
    rng.shuffle(cards)
    trump = rng.choice(SUITS)
    k = rng.randint(0, 5)
    plays = [(s, cards.pop()) for s in range(k)]
    holding = [cards.pop() for _ in range(rng.randint(1, 5))]
    return trump, plays, holding


def _played_positions(seed: int, hands_per_variant: int):
    """``(hand, rules)`` at every decision of random hands over :data:`VARIANTS` and 2-6 players.

    Seeded shuffles and cuts; with jokers, every other hand turns a joker aside (D-9). Random
    legal actions; the hand is yielded before each action (do not mutate it).
    """
    rng = random.Random(seed)
    for i, rules in enumerate(VARIANTS):
        for k in range(hands_per_variant):
            n = 2 + (i + k) % 5
            deck = list(make_deck(rules.deck, rules.jokers))
            rng.shuffle(deck)
            if rules.jokers and k % 2:  # cut 1 deals deck[1:]: the card after the 5n dealt is the turn-up
                j = deck.index(Card.parse(rng.choice(["X1", "X2"])))
                deck[j], deck[1 + 5 * n] = deck[1 + 5 * n], deck[j]
            hand = Hand.from_deck(rules, [rules.starting_stack] * n, rng.randrange(n), deck, 1)
            while not hand.is_over:
                yield hand, rules
                legal = hand.legal_actions()
                hand.apply(legal[rng.randrange(len(legal))])


# --------------------------------------------------------------------------- the copies, called alike


def _fast_legal(holding, plays, trump, overtrump):
    cd = fast.codec(trump)
    return [cd.dec(c) for c in fast.legal(cd.encs(holding), cd.encs(c for _, c in plays), overtrump == "always")]


_OUT = np.empty(8, np.int64)


def _kernel_legal(holding, plays, trump, overtrump):
    hand = np.array([c.index for c in holding], np.int64)
    cur = np.array([c.index for _, c in plays] or [0], np.int64)
    n = K._legal(hand, len(holding), cur, len(plays), SUITS.index(trump), overtrump == "always", _OUT)
    return [holding[int(i)] for i in _OUT[:n]]


def _winner_by_fast_beats(trick, trump):
    cd = fast.codec(trump)
    codes = cd.encs(c for _, c in trick)
    bi = 0
    for i in range(1, len(codes)):
        if fast.beats(codes[i], codes[bi]):
            bi = i
    return trick[bi][0]


def _winner_by_fast_index(trick, trump):
    cd = fast.codec(trump)
    return trick[fast.winner_index(cd.encs(c for _, c in trick))][0]


def _winner_by_kernel(trick, trump):
    """The fold of ``lab.kernel._hand`` (R4.9-R4.11 block) over ``kernel._beats``."""
    t = SUITS.index(trump)
    idx = [c.index for _, c in trick]
    led = t if trick[0][1].suit is None else SUITS.index(trick[0][1].suit)
    bi = 0
    for j in range(1, len(idx)):
        if K._beats(idx[j], idx[bi], led, t):
            bi = j
    return trick[bi][0]


def _winner_by_policy(trick, trump):
    """The fold of ``bots.tips.choose_play`` over ``tips._beats``."""
    led = trump if trick[0][1].suit is None else trick[0][1].suit
    best = 0
    for j in range(1, len(trick)):
        if policy._beats(trick[j][1], trick[best][1], led, trump):
            best = j
    return trick[best][0]


LEGAL_COPIES = {"bots.fast.legal": _fast_legal, "lab.kernel._legal": _kernel_legal}
WINNER_COPIES = {
    "bots.fast.beats": _winner_by_fast_beats,
    "bots.fast.winner_index": _winner_by_fast_index,
    "lab.kernel._beats": _winner_by_kernel,
    "bots.tips._beats": _winner_by_policy,
}


def _check_legal(holding, plays, trump, overtrump):
    want = legal_plays(holding, plays, trump, overtrump)
    for name, copy in LEGAL_COPIES.items():
        got = copy(holding, plays, trump, overtrump)
        assert got == want, (
            f"{name} differs from hand.legal_plays (R4.10, overtrump={overtrump}): "
            f"trump {trump}, trick {[(s, str(c)) for s, c in plays]}, "
            f"holding {[str(c) for c in holding]}: {[str(c) for c in got]} != {[str(c) for c in want]}"
        )


def _check_winner(trick, trump):
    want = trick_winner(trick, trump)
    for name, copy in WINNER_COPIES.items():
        got = copy(trick, trump)
        assert got == want, (
            f"{name} differs from hand.trick_winner (R4.11): trump {trump}, "
            f"trick {[(s, str(c)) for s, c in trick]}: seat {got} != {want}"
        )


# --------------------------------------------------------------------------- R4.10, R4.11


@pytest.mark.parametrize("deck,jokers", DECKS)
def test_legal_plays_copies_agree_on_random_positions(deck, jokers):
    """R4.10, D-14: fast.legal and kernel._legal equal hand.legal_plays on any trick and holding."""
    rng = random.Random(DECKS.index((deck, jokers)))
    cards = make_deck(deck, jokers)
    for _ in range(1500):
        trump, plays, holding = _synthetic_position(rng, cards)
        for overtrump in OVERTRUMP:
            _check_legal(holding, plays, trump, overtrump)


@pytest.mark.parametrize("deck,jokers", DECKS)
def test_trick_winner_copies_agree_on_random_tricks(deck, jokers):
    """R4.11: every trick-winner copy names the seat hand.trick_winner names, for 2-6 cards."""
    rng = random.Random(10 + DECKS.index((deck, jokers)))
    cards = list(make_deck(deck, jokers))
    for _ in range(1500):
        rng.shuffle(cards)
        trump = rng.choice(SUITS)
        trick = [(s, cards[s]) for s in range(rng.randint(2, 6))]
        _check_winner(trick, trump)
        # tricks that only hold the led suit and discards, where the suit decides
        led = rng.choice(SUITS.replace(trump, ""))
        side = [c for c in cards if c.suit is not None and c.suit != trump]
        trick = [(0, next(c for c in side if c.suit == led))] + [(s, side[s]) for s in range(1, rng.randint(2, 6))]
        _check_winner(trick, trump)


def _reason_fits(code: str, card: Card, holding, plays, trump, legal) -> bool:
    """The refusal code of ``Hand.why_illegal`` names the obligation that ``legal_plays`` enforced (R4.10)."""
    led = trump if plays[0][1].suit is None else plays[0][1].suit

    def eff(c):
        return trump if c.suit is None else c.suit

    if code == "must_follow":  # R4.10.1: holds the led suit, played another
        return eff(card) != led and all(eff(c) == led for c in legal) and any(eff(c) == led for c in holding)
    if code == "must_trump":  # R4.10.2: void in the led suit, holds a trump, did not play one
        return eff(card) != trump and not any(eff(c) == led for c in holding) and all(eff(c) == trump for c in legal)
    if code == "must_overtrump":  # R4.10.3: a trump too low while a higher one is held
        high = max(c.rank for _, c in plays if eff(c) == trump)
        return eff(card) == trump and card.rank < high and all(eff(c) == trump and c.rank > high for c in legal)
    return False


def test_play_reasons_and_legal_actions_agree_with_legal_plays():
    """R4.10, R4.12: in played positions, Hand.legal_actions and Hand.why_illegal (its _play_refusal)
    refuse exactly the cards legal_plays refuses, each with the obligation it broke; the bots' and the
    kernel's copies agree there too."""
    refused = {"must_follow": 0, "must_trump": 0, "must_overtrump": 0}
    full_tricks = 0
    for hand, rules in _played_positions(seed=21, hands_per_variant=20):
        if hand.phase is not Phase.PLAY:
            continue
        seat = hand.to_act
        holding = list(hand.hands[seat])
        plays = list(hand.current)
        legal = legal_plays(holding, plays, hand.trump, rules.overtrump)
        assert [a.card for a in hand.legal_actions()] == legal
        _check_legal(holding, plays, hand.trump, rules.overtrump)
        for card in holding:
            why = hand.why_illegal(Action.play(seat, card))
            if card in legal:
                assert why is None, (card, why)
                continue
            assert why is not None and why.rule == "R4.10", (card, why)
            refused[why.code] = refused.get(why.code, 0) + 1
            assert _reason_fits(why.code, card, holding, plays, hand.trump, legal), (
                f"{why!r} for {card} with trick {plays}, holding {holding}, trump {hand.trump}, {rules.overtrump}"
            )
        if len(plays) == len(hand.active) - 1:
            for card in legal:
                _check_winner(plays + [(seat, card)], hand.trump)
                full_tricks += 1
    assert all(v > 10 for v in refused.values()), refused  # every kind of refusal was seen
    assert full_tricks > 300


# --------------------------------------------------------------------------- what plays reveal (R7)


def _excluded_by_replay(obs, candidates):
    """Brute force from R4.10 itself: seat s cannot hold card x if, holding x beside the card p
    it played, ``legal_plays`` would have refused p. Cards never enter a hand after the deal, so
    what a play rules out stays ruled out."""
    out: dict[int, set[Card]] = {}
    tricks = [t.plays for t in obs.tricks] + ([obs.current] if obs.current else [])
    for plays in tricks:
        for j in range(1, len(plays)):
            seat, card = plays[j]
            for x in candidates:
                if card not in legal_plays([card, x], plays[:j], obs.trump, obs.rules.overtrump):
                    out.setdefault(seat, set()).add(x)
    return out


def test_inference_equals_a_replay_of_the_play_rules():
    """R4.10, D-14, R7: ramsli.inference rules out exactly the cards a replay of legal_plays rules
    out, sees exactly the cards the seat has seen, and the bots' codes (bots.tracking) and the RL
    encoding (rl.encoding) carry the same inference."""
    ruled_out = caps_seen = 0
    for hand, rules in _played_positions(seed=5, hands_per_variant=4):
        if hand.phase is not Phase.PLAY:
            continue
        obs = hand.observe(hand.to_act)
        seat = obs.seat
        inf = infer(obs)
        # unseen: every other seat's cards (folded hands too) and the stock, in deck order (R7)
        hidden = {c for s, h in enumerate(hand.hands) if s != seat for c in h} | set(hand.stock or ())
        assert set(inf.unseen) == hidden and list(inf.unseen) == sorted(inf.unseen, key=lambda c: c.index)
        assert inf.need == {s: obs.cards_left[s] for s in obs.active if s != seat}
        excluded = _excluded_by_replay(obs, inf.unseen)
        k = infer_codes(obs)
        assert k.pool == k.codec.encs(inf.unseen)
        assert k.need == dict(inf.need)
        for s in obs.seated:
            if s == seat:
                continue
            for x in inf.unseen:
                want = x not in excluded.get(s, ())
                assert inf.allows(s, x) == want, (s, x, inf.voids.get(s), inf.caps.get(s), rules.overtrump)
                assert k.allows(s, k.codec.enc(x)) == want, (s, x, k.voids.get(s), k.cap.get(s))
            for x in hand.hands[s]:
                assert inf.allows(s, x)  # sound: a card really held is never ruled out
        assert encoding.known_voids(obs) == revealed_voids(obs) == {s: set(v) for s, v in inf.voids.items()}
        assert encoding.trump_caps(obs) == trump_caps(obs) == inf.caps
        ruled_out += sum(len(v) for v in excluded.values())
        caps_seen += len(inf.caps)
    assert ruled_out > 500 and caps_seen > 30


def test_samples_respect_the_inference_and_bots_and_adapters_draw_alike():
    """R7 sampling: one seed, one deal, whether drawn on cards (ramsli.inference) or on the bots' codes
    (bots.tracking.sample_deal); every sampled card is allowed to its seat; too small a pool gives None."""
    checked = 0
    for hand, _rules in _played_positions(seed=8, hands_per_variant=2):
        if hand.phase not in (Phase.PLAY, Phase.DECLARE):
            continue
        obs = hand.observe(hand.to_act)
        inf = infer(obs)
        k = infer_codes(obs)
        for seed in range(2):
            deal = inf.sample(random.Random(seed), relax=True)
            codes = sample_deal(k, random.Random(seed))
            assert {s: [k.codec.dec(c) for c in cs] for s, cs in codes.items()} == deal
            strict = inf.sample(random.Random(seed))
            if strict is not None:
                assert {s: len(cs) for s, cs in strict.items()} == dict(inf.need)
                dealt = [c for cs in strict.values() for c in cs]
                assert len(set(dealt)) == len(dealt) and set(dealt) <= set(inf.unseen)
                assert all(inf.allows(s, c) for s, cs in strict.items() for c in cs)
                checked += bool(inf.constrained)
    assert checked > 50
    assert sample_hidden([1, 2], {0: 2, 1: 1}, random.Random(0)) is None
    assert sample_hidden([1, 2, 3], {0: 2}, random.Random(0), lambda s, c: c == 1, [0]) is None
    assert sample_hidden([1, 2, 3], {0: 2}, random.Random(0), lambda s, c: c == 1, [0], relax=True) is not None
    assert NO_CAP > 16  # above every trump rank (big joker 16)


def test_openspiel_states_are_dealt_by_the_same_inference():
    """R7: the OpenSpiel adapter (rl.openspiel_game.state_for_observation) deals the hidden cards
    that ramsli.inference deals for the same seed (every seat, folded hands too)."""
    og = pytest.importorskip("ramsli.rl.openspiel_game")
    checked = 0
    for hand, rules in _played_positions(seed=13, hands_per_variant=1):
        if hand.phase is not Phase.PLAY:
            continue
        obs = hand.observe(hand.to_act)
        played = {
            s: [c for t in obs.tricks for p, c in t.plays if p == s] + [c for p, c in obs.current if p == s]
            for s in range(len(obs.stacks))
        }
        need = {s: 5 - len(played[s]) for s in played if s != obs.seat}
        want = infer(obs, make_deck(rules.deck, rules.jokers), need).sample(random.Random(3), tries=50)
        if want is None:
            with pytest.raises(ValueError, match="R4.10"):
                og.state_for_observation(obs, random.Random(3))
            continue
        dealt = og.state_for_observation(obs, random.Random(3)).dealt_hands()
        for s in need:
            assert sorted(dealt[s], key=lambda c: c.index) == sorted(played[s] + want[s], key=lambda c: c.index)
        checked += 1
    assert checked > 100


# --------------------------------------------------------------------------- R5, R3.5, R3.6


def _random_rules(rng: random.Random) -> Rules:
    """A preset of R6 with random options of R8 on top (settlement and deal options)."""
    opts = dict(
        deck=rng.choice(["piquet32", "full52"]),
        jokers=rng.random() < 0.4,
        overtrump=rng.choice(OVERTRUMP),
        batches=rng.choice(["3+2", "2+3"]),
        dealer_forced=rng.random() < 0.7,
        compulsory=rng.random() < 0.15,
        general_rams=rng.random() < 0.5,
        general_rams_penalty=rng.choice(["triple-bete", "triple-pot"]),
        targets=rng.random() < 0.5,
        target_bonus=rng.choice(["t-1", "t"]),
        bete=rng.choice(["pot", 0, 3, 5, 10]),
        ante=rng.choice([0, 1, 1, 2]),
    )
    keep = rng.sample(sorted(opts), rng.randint(len(opts) - 3, len(opts)))
    return Rules.preset(rng.choice(sorted(PRESETS)), **{key: opts[key] for key in keep})


def test_kernel_settles_like_the_engine_on_random_rule_sets():
    """R5.1-R5.9 (D-6, D-15, D-17): on 24 random rule sets, 2-6 players, random and tips policies,
    short stacks and carry-in pots, the kernel's trick winners and settlements equal the engine's."""
    rng = random.Random(2024)
    for i in range(24):
        rules = _random_rules(rng)
        n = 2 + i % 5
        policy_ = [K.RANDOM, K.TIPS, K.RANDOM, K.TIPS, K.TIPS, K.RANDOM][:n] if i % 3 else K.RANDOM
        done, bad = check_agreement(rules, n, 40, seed=100 + i, policy=policy_)
        assert not bad, f"{rules.diff()}, {n} players: kernel {bad[0][1]} != engine {bad[0][2]}"
        assert done == 40


def test_kernel_sessions_end_like_the_engine_on_random_rule_sets():
    """R3.5 (bust end / leave), R3.6 (win-at, hands): kernel sessions equal engine sessions."""
    rng = random.Random(77)
    for i in range(10):
        stack = rng.choice([4, 6, 10])
        ends = rng.choice(
            [
                [],
                [f"hands:{rng.randint(2, 12)}"],
                [f"win-at:{stack + rng.randint(1, 6)}"],
                [f"win-at:{stack + rng.randint(1, 6)}", f"hands:{rng.randint(2, 12)}"],
            ]
        )
        rules = _random_rules(rng).replace(bust=rng.choice(["end", "leave"]), end=ends, starting_stack=stack)
        n = 2 + i % 5
        bad = check_session_agreement(rules, n, 6, seed=i, policy=K.TIPS if i % 2 else K.RANDOM, cap=100)
        assert bad == [], f"{rules.diff()}, {n} players: (session, kernel, engine) {bad[0]}"


# --------------------------------------------------------------------------- the rules map


def test_rules_map_names_only_places_that_exist():
    """docs/rules-map.md, "Rules with copies": every file, function and test it names exists, and every
    test of this module is named there (so the map cannot rot silently)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "rules-map.md").read_text(encoding="utf-8")
    section = text[text.index("## Rules with copies") :]
    rows = [line for line in section.splitlines() if line.startswith("| R")]
    assert len(rows) >= 8
    named = 0
    for row in rows:
        for path, names in re.findall(r"`([\w/]+\.py)`: ((?:`[\w.]+`(?:,? (?:and )?)?)+)", row):
            f = root / path if path.startswith(("tests/", "bench/")) else root / "src" / "ramsli" / path
            assert f.exists(), f"rules map names {path}, which does not exist"
            src = f.read_text(encoding="utf-8")
            for name in re.findall(r"`([\w.]+)`", names):
                for part in name.split("."):
                    assert re.search(rf"^\s*(def|class) {part}\b|^{part}\s*[:=]", src, re.M), (
                        f"rules map names {path}: {name}, which is not defined there"
                    )
                named += 1
    assert named > 40
    for test in [n for n in globals() if n.startswith("test_")]:
        assert f"`{test}`" in section or test == "test_rules_map_names_only_places_that_exist", (
            f"{test} is not listed in docs/rules-map.md"
        )
