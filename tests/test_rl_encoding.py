"""Tensor and string encodings of ramsli.rl.encoding (issue #5, R7)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ramsli import Hand, Rules
from ramsli.cards import Card, parse_cards
from ramsli.errors import IllegalActionError
from ramsli.hand import Action, Phase
from ramsli.rl import encoding as enc
from ramsli.rules import PRESETS


def test_action_ids_are_dense_and_round_trip():
    seen = set()
    for seat in range(6):
        for aid in range(enc.NUM_ACTIONS):
            a = enc.id_to_action(aid, seat)
            assert a.seat == seat
            assert enc.action_id(a) == aid
            seen.add((seat, str(a).split(" ", 1)[1]))
    assert len(seen) == 6 * 62
    assert enc.action_id(Action.parse("p1 in")) == 0
    assert enc.action_id(Action.parse("p1 out")) == 1
    assert enc.action_id(Action.parse("p1 gr")) == 2
    assert enc.action_id(Action.parse("p1 pass")) == 3
    assert enc.action_id(Action.parse("p1 t5")) == 7
    assert enc.action_id(Action.parse("p1 pl X2")) == 61
    with pytest.raises(ValueError, match="0..61"):
        enc.id_to_action(62, 0)


@pytest.mark.parametrize("n", range(2, 7))
def test_layout_sizes_match_docstring(n):
    for pr in (False, True):
        layout = enc.pieces(n, pr)
        assert sum(size for _, size, _ in layout) == enc.tensor_size(n, pr)
        for name, size, shape in layout:
            assert int(np.prod(shape)) == size, name
    extra = 54 + 5 * n * (n + 54)
    assert enc.tensor_size(n, True) - enc.tensor_size(n, False) == extra
    # public-only layouts drop exactly the private pieces
    assert enc.tensor_size(n, False) - enc.tensor_size(n, False, private=False) == 54
    assert enc.tensor_size(3, False) == 557 and enc.tensor_size(3, True) == 1466


def _made_hand() -> Hand:
    # 3 seats, dealer p1 (seat 0): p2 declares first (R4.5), trump hearts (turn-up 9H)
    hands = [parse_cards("AS KS 7D 8C 9C"), parse_cards("QS JS TH 7C AD"), parse_cards("AH KH 8D 9D TD")]
    return Hand.from_cards(Rules(), [20, 20, 20], dealer=0, hands=hands, turn_up=Card.parse("9H"))


def test_hand_made_state_one_hots():
    h = _made_hand()
    for a in ("p2 in", "p3 in", "p1 in", "p2 pl QS", "p3 pl AH"):
        h.apply(a)
    obs = h.observe(0)  # p1 to act, must follow spades
    assert h.to_act == 0
    t = enc.encode(obs, perfect_recall=True)
    v = enc.make_views(t, enc.pieces(3, True))
    assert v["observer"].tolist() == [1, 0, 0]
    assert v["seated"].tolist() == [1, 1, 1]
    assert v["dealer"].tolist() == [1, 0, 0]
    assert v["to_act"].tolist() == [1, 0, 0]
    assert v["phase"].tolist() == [0, 0, 0, 0, 1, 0]  # play
    assert sorted(np.flatnonzero(v["hand"])) == sorted(c.index for c in parse_cards("AS KS 7D 8C 9C"))
    assert np.flatnonzero(v["turn_up"]).tolist() == [Card.parse("9H").index]
    assert v["turned_aside"].sum() == 0
    assert v["trump"].tolist() == [0, 1, 0, 0]  # S H D C
    assert v["declared"].tolist() == [[0, 1, 0]] * 3
    assert v["general_rams"].sum() == 0 and v["targets"].sum() == 0
    assert v["leader"].tolist() == [0, 1, 0]
    cur = v["current_trick"]
    assert cur[1, Card.parse("QS").index] == 1 and cur[2, Card.parse("AH").index] == 1 and cur.sum() == 2
    assert v["played"].sum() == 0
    assert v["tricks_won"][:, 0].tolist() == [1, 1, 1]
    assert np.allclose(v["stacks"], np.array([19, 19, 19]) / 60)
    assert np.isclose(v["pot"][0], 3 / 60)
    assert sorted(np.flatnonzero(v["dealt"])) == sorted(c.index for c in parse_cards("AS KS 7D 8C 9C"))
    tr = v["tricks"]
    assert tr[0, 0, 1] == 1 and tr[0, 0, 3 + Card.parse("QS").index] == 1
    assert tr[0, 1, 2] == 1 and tr[0, 1, 3 + Card.parse("AH").index] == 1
    assert tr.sum() == 4
    # after the trick is complete: won by p3 (trump), cards move to "played"
    h.apply("p1 pl AS")
    v = enc.make_views(enc.encode(h.observe(0), True), enc.pieces(3, True))
    assert v["tricks_won"][2].tolist() == [0, 1, 0, 0, 0, 0]
    assert v["played"][0, Card.parse("AS").index] == 1 and v["current_trick"].sum() == 0
    assert v["leader"].tolist() == [0, 0, 1]
    assert v["hand"][Card.parse("AS").index] == 0 and v["dealt"][Card.parse("AS").index] == 1


def test_declarations_out_and_compulsory():
    h = _made_hand()
    h.apply("p2 out")
    v = enc.make_views(enc.encode(h.observe(0)), enc.pieces(3, False))
    assert v["declared"].tolist() == [[1, 0, 0], [0, 0, 1], [1, 0, 0]]
    hands = [list(x) for x in h.dealt]
    hc = Hand.from_cards(Rules.preset("compulsory"), [20] * 3, 0, hands, Card.parse("9H"))
    v = enc.make_views(enc.encode(hc.observe(1)), enc.pieces(3, False))
    assert v["declared"].tolist() == [[0, 1, 0]] * 3
    assert "all in" in enc.observation_string(hc.observe(1))


def _alternative(hand: Hand, observer: int, rng: random.Random) -> Hand | None:
    """The same hand with one hidden card of another seat swapped (with the stock or
    another hidden seat), replayed; None if the replay becomes illegal."""
    n = hand.n_seats
    dealt = [list(x) for x in hand.dealt]
    played = {c for t in hand.tricks for _, c in t.plays} | {c for _, c in hand.current}
    hidden = [(s, k) for s in range(n) if s != observer for k, c in enumerate(dealt[s]) if c not in played]
    if not hidden:
        return None
    s, k = rng.choice(hidden)
    others = [(s2, k2) for s2, k2 in hidden if s2 != s]
    stock = hand.stock or []
    if stock and (not others or rng.random() < 0.5):
        j = rng.randrange(len(stock))
        dealt[s][k] = stock[j]
    elif others:
        s2, k2 = rng.choice(others)
        dealt[s][k], dealt[s2][k2] = dealt[s2][k2], dealt[s][k]
    else:
        return None
    alt = Hand.from_cards(
        hand.rules,
        list(hand.start_stacks),
        hand.dealer,
        dealt,
        hand.turn_up,
        hand.turned_aside,
        pot=hand.carry_in,
        seated=hand.seated,
    )
    try:
        for a in hand.history:
            alt.apply(a)
    except IllegalActionError:
        return None
    return alt


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9), preset=st.sampled_from(sorted(PRESETS)), n=st.integers(2, 6), steps=st.integers(0, 40)
)
def test_no_hidden_card_in_any_observation(seed, preset, n, steps):
    """R7, D-16: the encodings of seat i do not change when only other seats' hidden cards change."""
    rng = random.Random(seed)
    hand = Hand.new(Rules.preset(preset), [20] * n, dealer=rng.randrange(n), rng=rng)
    for _ in range(steps):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    for observer in range(n):
        alt = _alternative(hand, observer, rng)
        if alt is None:
            continue
        assert alt.fingerprint() != hand.fingerprint()  # the hidden state really differs
        a, b = hand.observe(observer), alt.observe(observer)
        for pr in (False, True):
            assert np.array_equal(enc.encode(a, pr), enc.encode(b, pr))
            assert enc.observation_string(a, pr) == enc.observation_string(b, pr)
        assert enc.known_voids(a) == enc.known_voids(b) and enc.trump_caps(a) == enc.trump_caps(b)


def test_own_cards_change_own_encoding():
    h = _made_hand()
    dealt = [list(x) for x in h.dealt]
    dealt[0][0], dealt[1][0] = dealt[1][0], dealt[0][0]
    h2 = Hand.from_cards(Rules(), [20] * 3, 0, dealt, Card.parse("9H"))
    assert not np.array_equal(enc.encode(h.observe(0)), enc.encode(h2.observe(0)))
    assert enc.observation_string(h.observe(0)) != enc.observation_string(h2.observe(0))
    assert np.array_equal(enc.encode(h.observe(2)), enc.encode(h2.observe(2)))


def test_voids_and_caps_from_plays():
    h = _made_hand()
    for a in ("p2 in", "p3 in", "p1 in", "p2 pl QS", "p3 pl AH", "p1 pl AS"):
        h.apply(a)
    # p3 void in spades and played trump; the lead is p3's
    assert enc.known_voids(h.observe(0)) == {2: {"S"}}
    h.apply("p3 pl KH")  # trump lead: p1 has no hearts -> void in H
    h.apply("p1 pl 7D")
    h.apply("p2 pl TH")  # p2 follows with TH < KH: under "always" it holds no higher trump (D-14)
    obs = h.observe(0)
    assert enc.known_voids(obs)[0] == {"H"}
    assert enc.trump_caps(obs) == {1: 13}
    assert obs.phase is Phase.PLAY


def test_rules_from_text():
    r = enc.rules_from_text("nap", "bete=10; ante:2 ;jokers=true")
    assert (r.targets, r.bete, r.ante, r.jokers) == (True, 10, 2, True)
    with pytest.raises(Exception, match="R6"):
        enc.rules_from_text("nope")
    with pytest.raises(Exception, match="R8"):
        enc.rules_from_text("traditional", "colour=red")
