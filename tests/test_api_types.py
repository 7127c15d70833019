"""Issue 9, items 2, 4 and 6: kinds as types, the hand's state declared plainly (copy and fingerprint
cover every slot), derived values on Rules, one seat order, reprs that evaluate back, ``seed=`` beside
``rng=``, trick completion."""

from __future__ import annotations

import inspect
import itertools
import random
from pathlib import Path

import pytest

import ramsli
from ramsli import (
    Action,
    ActionKind,
    Card,
    Declaration,
    EndReason,
    Hand,
    Payment,
    PaymentReason,
    Rules,
    Session,
    Settlement,
    SettlementKind,
    Trick,
    left_of,
    order_from_dealer,
    trick_winner,
)
from ramsli.bots.base import bot_options, make_bot
from ramsli.cards import CardError
from ramsli.rules import PRESETS, EndCondition
from ramsli.session import first_dealer_cut


def _random_hands(count: int, seed: int = 0, finish: bool = True):
    """Hands of every preset and table size, played at random (to the end, or stopped anywhere)."""
    rng = random.Random(seed)
    names = sorted(PRESETS)
    for i in range(count):
        rules = Rules.preset(names[i % len(names)])
        n = rng.randint(2, 6)
        stacks = [rng.randint(0, 8) if rng.random() < 0.2 else 20 for _ in range(n)]
        seated = [s for s in range(n) if stacks[s] >= rules.ante]
        if len(seated) < 2:
            continue
        hand = Hand.new(rules, stacks, rng.choice(seated), rng, pot=rng.randint(0, 6), seated=seated)
        stop = None if finish else rng.randint(0, 30)
        steps = 0
        while not hand.is_over and steps != stop:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
            steps += 1
        yield hand


# --- item 4: kinds are StrEnums, text unchanged -------------------------------------------------------------


def test_action_kinds_are_one_enum_with_todays_text():
    assert Action.KINDS == ("in", "out", "gr", "pass", "t", "pl") == tuple(ActionKind)
    for hand in _random_hands(30, seed=1):
        for a in hand.history:
            assert type(a.kind) is ActionKind and a.kind in Action.KINDS
            assert Action.parse(str(a)) is a  # the text notation of histories is unchanged
            assert str(a).split()[1].startswith(str(a.kind))
    assert Action.parse("p2 pl AS").kind == "pl" and Action.parse("p2 pl AS").kind is ActionKind.PLAY


def test_R5_settlement_kinds_and_payment_reasons_are_enums():
    kinds, reasons = set(), set()
    for hand in _random_hands(300, seed=2):
        s = hand.settlement
        assert type(s.kind) is SettlementKind
        kinds.add(s.kind)
        for p in s.payments:
            assert type(p.reason) is PaymentReason
            reasons.add(p.reason)
    assert kinds == {"played", "walkover"} | (kinds & {"thrown-in"})
    assert {"pot", "bete"} <= reasons <= set(PaymentReason)
    assert repr(SettlementKind.THROWN_IN) == "'thrown-in'"  # prints as before


def test_R3_6_end_reasons_are_one_enum_used_by_session_saves_histories_and_kernel():
    from ramsli import history
    from ramsli.frontends import storage, text

    assert tuple(EndReason) == ("bust", "players", "win-at", "hands", "time", "quit")
    assert storage.END_REASONS == history._END_REASONS == tuple(EndReason)
    for r in EndReason:  # every reason has its own explanation (R3.5, R3.6)
        assert text.end_reason_text(r) != text.end_reason_text(None)
    s = Session(Rules(end=["hands:1"]), ["a", "b"], seed=1)
    h = s.start_hand()
    while not h.is_over:
        s.apply(h.legal_actions()[0])
    assert s.end_reason is EndReason.HANDS and s.end_reason == "hands"
    restored = Session.restore({**s.snapshot(), "end_reason": "hands"})
    assert restored.end_reason is EndReason.HANDS
    with pytest.raises(ValueError, match="allowed are bust, players, win-at, hands, time, quit"):
        Session.restore({**s.snapshot(), "end_reason": "bored"})


def test_R3_6_kernel_end_names_come_from_the_engine_enum():
    kernel = pytest.importorskip("ramsli.lab.kernel")
    assert kernel.END_NAMES[kernel.END_BUST] is EndReason.BUST
    assert kernel.END_NAMES[kernel.END_PLAYERS] is EndReason.PLAYERS
    assert kernel.END_NAMES[kernel.END_WIN_AT] is EndReason.WIN_AT
    assert kernel.END_NAMES[kernel.END_HANDS] is EndReason.HANDS
    assert kernel.END_NAMES[kernel.END_CAP] == "cap"


def test_R4_5_declarations_have_one_representation_on_hand_and_observation():
    assert Declaration.IN == "in" and Declaration.OUT == "out"
    assert bool(Declaration.IN) and not bool(Declaration.OUT)
    seen = set()
    for hand in _random_hands(60, seed=3, finish=False):
        for seat in hand.seated:
            assert hand.observe(seat).declarations == tuple(hand.declarations)
        for s, d in hand.declarations:
            assert type(d) is Declaration
            assert Action.declare(s, bool(d)) in hand.history
            seen.add(d)
    assert seen == {Declaration.IN, Declaration.OUT}


# --- Hand's state declared plainly: copy and fingerprint cover every slot ---------------------------------

#: the documented exceptions of Hand.fingerprint: the undealt stock and the caches
_UNCOMPARED = {"stock", "_legal", "_next_active", "_unknown", "_led", "_strength", "_top", "_top_seat"}
#: caches a copy shares: the hand only ever replaces them, never changes them in place
_SHARED_CACHES = {"_legal", "_next_active", "_strength"}


def test_hand_declares_every_slot_as_an_annotated_attribute_and_sets_it():
    slots = Hand.__slots__
    assert len(set(slots)) == len(slots)
    assert set(Hand.__annotations__) == set(slots)  # one annotation per slot, nothing else
    assert _UNCOMPARED <= set(slots)
    source = Path(inspect.getfile(Hand)).read_text(encoding="utf-8")
    assert "exec(" not in source and "STATE" not in source  # copy and fingerprint are written out
    for hand in _random_hands(10, seed=4, finish=False):
        for name in slots:
            getattr(hand, name)  # _setup sets every slot
            getattr(hand.copy(), name)  # and so does copy


def _containers(value, out):
    """Every list, dict and set reachable in ``value`` through lists, dicts, sets and tuples."""
    if isinstance(value, (list, dict, set)):
        out.append(value)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set)):
        for v in value:
            _containers(v, out)
    return out


def _frozen(value):
    """``value`` with every container turned into a tuple (a snapshot that later mutation cannot touch)."""
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return ("seq", tuple(_frozen(v) for v in value))
    return value


def _mutate(container, marker):
    if isinstance(container, list):
        container.append(marker)
    elif isinstance(container, dict):
        container[99] = marker
    else:
        container.add(marker)


def test_copy_owns_every_container_of_every_slot_and_mutating_it_never_changes_the_original():
    for hand in _random_hands(25, seed=6, finish=False):
        snapshot = {name: _frozen(getattr(hand, name)) for name in Hand.__slots__}
        base = hand.fingerprint()
        for name in Hand.__slots__:
            c = hand.copy()
            assert _frozen(getattr(c, name)) == snapshot[name], name  # copied, equal
            ours = _containers(getattr(hand, name), [])
            theirs = _containers(getattr(c, name), [])
            if name in _SHARED_CACHES:
                assert getattr(c, name) is getattr(hand, name), name
                continue
            assert not {id(x) for x in ours} & {id(x) for x in theirs}, name  # a new object, all the way down
            for container in theirs:
                _mutate(container, object())
            assert {n: _frozen(getattr(hand, n)) for n in Hand.__slots__} == snapshot, name
            assert hand.fingerprint() == base, name


def _changed(value):
    """A value of a slot that differs from ``value`` (a list, dict or tuple grows; anything else is replaced)."""
    marker = object()
    if isinstance(value, list):
        return [*value, marker] if not value or not isinstance(value[0], list) else [[*value[0], marker], *value[1:]]
    if isinstance(value, dict):
        return {**value, 99: marker}
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return (*value, marker)
    return marker


def test_fingerprint_changes_with_every_compared_slot_and_only_those():
    for hand in _random_hands(20, seed=5, finish=False):
        base = hand.fingerprint()
        assert hand.copy().fingerprint() == base
        for name in Hand.__slots__:
            other = hand.copy()
            setattr(other, name, _changed(getattr(hand, name)))
            if name in _UNCOMPARED:
                assert other.fingerprint() == base, name
            else:
                assert other.fingerprint() != base, name
        for seat in hand.seated:  # an inner list of the hands counts too
            if hand.hands[seat]:
                other = hand.copy()
                other.hands[seat].pop()
                assert other.fingerprint() != base


def test_copy_plays_on_exactly_as_the_original():
    for hand in _random_hands(20, seed=7, finish=False):
        c = hand.copy()
        rng_a, rng_b = random.Random(1), random.Random(1)
        for h, rng in ((hand, rng_a), (c, rng_b)):
            while not h.is_over:
                legal = h.legal_actions()
                h.apply(legal[rng.randrange(len(legal))])
        assert c.fingerprint() == hand.fingerprint() and c.settlement == hand.settlement


# --- item 2: derived values on Rules -------------------------------------------------------------------------


def test_R4_8_R5_derived_values_read_the_options():
    for gr, targets, bete, pen, bonus, over in itertools.product(
        (False, True),
        (False, True),
        (0, 5, "pot"),
        ("triple-bete", "triple-pot"),
        ("t-1", "t"),
        ("always", "when-trumping"),
    ):
        r = Rules(
            general_rams=gr, targets=targets, bete=bete, general_rams_penalty=pen, target_bonus=bonus, overtrump=over
        )
        assert r.largest_target == (4 if gr else 5)  # R4.8
        assert r.targets_offered == ((2, 3, 4) if gr else (2, 3, 4, 5)) * targets
        assert r.overtrump_on_trump_lead is (over == "always")  # D-14
        for pot in (0, 3, 11):
            assert r.bete_for(pot) == (pot if bete == "pot" else bete)  # R5.3
            assert r.general_rams_penalty_for(pot) == 3 * (pot if pen == "triple-pot" else r.bete_for(pot))  # R5.6
        for t in (2, 3, 4, 5):
            assert r.target_bonus_for(t) == (t - 1 if bonus == "t-1" else t)  # R5.7
    assert [Rules(ante=a).bust_below for a in (0, 1, 4)] == [1, 1, 4]  # R3.5, D-7


def test_R4_8_hand_offers_exactly_the_targets_of_the_rules():
    for gr in (False, True):
        rules = Rules(targets=True, general_rams=gr)
        hand = Hand.new(rules, [20] * 3, 0, seed=8)
        while hand.phase.value != "targets":
            hand.apply(
                Action.pass_(hand.to_act) if hand.phase.value == "general-rams" else Action.declare(hand.to_act, True)
            )
        got = [a.target for a in hand.legal_actions() if a.kind == "t"]
        assert tuple(got) == rules.targets_offered


# --- item 2: one seat order ------------------------------------------------------------------------------------


def _order_by_definition(dealer, seated, n):
    """R4.3/R4.5: start at the dealer's left, go clockwise (seat numbers up, R2.2), the dealer last."""
    out, s = [], dealer
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if s in seated:
            out.append(s)
    return tuple(out)


def test_R4_3_R4_5_order_from_dealer_and_left_of():
    rng = random.Random(9)
    for _ in range(500):
        n = rng.randint(1, 6)
        seated = sorted(rng.sample(range(n), rng.randint(1, n)))
        dealer = rng.randrange(n)
        order = order_from_dealer(dealer, seated, n)
        assert order == _order_by_definition(dealer, seated, n)
        assert left_of(dealer, seated, n) == order[0]
        if dealer in seated:
            assert order[-1] == dealer
    assert ramsli.seat_name(0) == "p1" and ramsli.parse_seat("p6") == 5
    for bad in ((6, (0, 1), 6), (0, (0, 7), 6), (0, (0, 1), 7), (-1, (0,), 2)):
        with pytest.raises(ValueError, match="R2"):
            order_from_dealer(*bad)
    with pytest.raises(ValueError, match="nobody is seated"):
        left_of(0, (), 3)


def test_R4_9_hand_and_observation_carry_the_same_order():
    for hand in _random_hands(40, seed=10, finish=False):
        assert hand.order == order_from_dealer(hand.dealer, hand.seated, hand.n_seats)
        for seat in range(hand.n_seats):
            assert hand.observe(seat).order == hand.order


def test_R3_2_R3_5_session_deal_passes_to_the_next_seated_seat():
    s = Session(Rules(bust="leave", starting_stack=3, end=["hands:40"]), ["a", "b", "c", "d"], seed=3, dealer=0)
    left = 0
    while not s.is_over:
        hand = s.start_hand()
        while not hand.is_over:
            s.apply(hand.legal_actions()[-1])
        left += len(s.results[-1].left)
        if not s.is_over:
            assert s.dealer == _order_by_definition(hand.dealer, s.seated, 4)[0]
    assert left > 0  # seats were skipped (R3.5 leave)


# --- item 6: reprs that evaluate back ---------------------------------------------------------------------------

NAMESPACE = {
    "Card": Card,
    "Action": Action,
    "Trick": Trick,
    "Payment": Payment,
    "Settlement": Settlement,
    "Rules": Rules,
    "EndCondition": EndCondition,
}


def test_card_and_action_constructors_take_their_repr_text():
    assert Card("AS") is Card.parse("AS") and Card("10h") is Card.parse("TH")
    assert Action("p2 in") is Action.declare(1, True)
    assert Action(1, "in") is Action("p2 in") and Action(0, "pl", Card("X1")) is Action("p1 pl X1")
    assert Action(3, ActionKind.TARGET, target=4) is Action.announce_target(3, 4)
    with pytest.raises(CardError, match="R1.6"):
        Card("ZZ")
    with pytest.raises(ValueError, match="allowed forms"):
        Action("p2 sing")
    with pytest.raises(ValueError, match="unknown"):
        Action(1, "sing")


def test_reprs_evaluate_back_to_equal_objects():
    count = 0
    for hand in _random_hands(150, seed=11, finish=False):
        objects = [hand.rules, *hand.history, *hand.tricks, hand.turn_up, *hand.hands[hand.seated[0]]]
        if hand.settlement is not None:
            objects += [hand.settlement, *hand.settlement.payments]
        for x in objects:
            if x is None:
                continue
            back = eval(repr(x), dict(NAMESPACE))
            assert back == x and type(back) is type(x), repr(x)
            if isinstance(x, (Card, Action)):
                assert back is x  # interned
            count += 1
    assert count > 1000
    r = Rules.preset("nap", end=["hands:3", "win-at:40"], bete="pot")
    assert eval(repr(r), dict(NAMESPACE)) == r


# --- item 6: seed= wherever rng= ---------------------------------------------------------------------------------


def test_seed_or_rng_give_the_same_deal_and_both_is_an_error():
    for seed in range(20):
        a = Hand.new(Rules(), [20] * 4, seed % 4, seed=seed)
        b = Hand.new(Rules(), [20] * 4, seed % 4, random.Random(seed))
        assert a.fingerprint() == b.fingerprint() and a.dealt == b.dealt and a.stock == b.stock
    assert Hand.new(Rules(), [20] * 4, 0, seed=1).dealt != Hand.new(Rules(), [20] * 4, 0, seed=2).dealt
    with pytest.raises(TypeError, match="not both"):
        Hand.new(Rules(), [20] * 4, 0, random.Random(1), seed=1)
    with pytest.raises(TypeError, match="seed="):
        Hand.new(Rules(), [20] * 4, 0)
    assert first_dealer_cut(5, seed=4) == first_dealer_cut(5, random.Random(4))
    with pytest.raises(TypeError, match="not both"):
        first_dealer_cut(5, random.Random(4), seed=4)


def test_R3_session_takes_seed_or_rng():
    def deals(s: Session):
        out = []
        for _ in range(3):
            h = s.start_hand()
            out.append(h.dealt)
            while not h.is_over:
                s.apply(h.legal_actions()[0])
        return out

    assert deals(Session(Rules(), ["a", "b", "c"], seed=5)) == deals(
        Session(Rules(), ["a", "b", "c"], rng=random.Random(5))
    )
    with pytest.raises(TypeError, match="not both"):
        Session(Rules(), ["a", "b"], seed=5, rng=random.Random(5))


@pytest.mark.parametrize("spec", ["random", "rules", "montecarlo:samples=4"])
def test_bots_take_seed_or_rng_with_the_same_choices(spec):
    def choices(bot):
        hand = Hand.new(Rules(), [20] * 3, 0, seed=12)
        out = []
        while not hand.is_over:
            a = bot.act(hand.observe(hand.to_act))
            out.append(a)
            hand.apply(a)
        return out

    assert choices(make_bot(spec, seed=7)) == choices(make_bot(spec, rng=random.Random(7)))
    with pytest.raises(TypeError, match="not both"):
        make_bot(spec, seed=7, rng=random.Random(7))
    assert "rng" not in bot_options(spec.partition(":")[0])


# --- item 6: when a trick is complete ----------------------------------------------------------------------------


def test_R4_9_R4_11_trick_complete_and_last_trick():
    rng = random.Random(13)
    done = 0
    for i in range(80):
        hand = Hand.new(Rules.preset(sorted(PRESETS)[i % len(PRESETS)]), [20] * rng.randint(2, 6), 0, rng)
        assert not hand.trick_complete and hand.last_trick is None
        while not hand.is_over:
            legal = hand.legal_actions()
            before = len(hand.tricks)
            hand.apply(legal[rng.randrange(len(legal))])
            completed = len(hand.tricks) == before + 1
            assert hand.trick_complete is completed
            for view in (hand, hand.observe(rng.randrange(hand.n_seats))):
                assert view.trick_complete is completed
                if completed:
                    t = view.last_trick
                    assert t is hand.tricks[-1] and t.winner == trick_winner(t.plays, hand.trump)
                    done += 1
    assert done > 100
