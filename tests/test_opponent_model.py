"""The expert's fitted opponent model (issue 26): distributions over the legal cards, R7, seeds, the model file.

- the card model is a probability distribution over the legal cards only (R4.10), in every
  style and in the mixture, on random positions of every preset;
- its fast feature code gives what the functions it stands for give (the tips' card, the
  tips' and montecarlo's declarations);
- the expert still reads only its Observation (R7): deals that agree on what its seat sees give
  the same samples, weights, values and decisions;
- seeded decisions are deterministic;
- a corrupt or hostile model file is refused with a clear error, and the expert then samples as it
  does without the fitted model.
"""

from __future__ import annotations

import json
import logging
import math
import random
import statistics

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramsli import Hand, Rules
from ramsli.bots import make_bot, opponent
from ramsli.bots.base import play_hand
from ramsli.bots.expert import ExpertBot, _resample
from ramsli.bots.fast import codec, legal, mask_of
from ramsli.bots.opponent import (
    DECLARE_FEATURES,
    FORMAT,
    PLAY_FEATURES,
    OpponentModel,
    OpponentModelError,
    PlayContext,
    _declare_features_slow,
    _tips_card,
    _tips_card_slow,
    declare_features,
    default_model,
    load_model,
    model_from_dict,
    observed_steps,
)
from ramsli.bots.tracking import _absent_trumps, infer
from ramsli.cards import make_deck
from ramsli.hand import Phase
from ramsli.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)
SMALL = {"samples": 16, "play_samples": 8, "nodes": 300, "budget": 2000}


def _played_hand(preset: str, n: int, seed: int, steps: int | None = None) -> Hand:
    """A hand of ``preset`` with ``n`` players, played by random bots for ``steps`` actions (None: to the end)."""
    hand = Hand.new(Rules.preset(preset), [20] * n, dealer=seed % n, rng=random.Random(seed))
    bot = make_bot("random", seed=seed)
    k = 0
    while not hand.is_over and (steps is None or k < steps):
        hand.apply(bot.act(hand.observe(hand.to_act)))
        k += 1
    return hand


def _step_positions(hand: Hand):
    """Every card played in ``hand`` with the player's cards then and its public context (R7)."""
    end = hand.observe(0)
    k = infer(end)
    cd = k.codec
    hands = {s: cd.encs(hand.dealt[s]) for s in end.active}
    for step in observed_steps(end, k):
        h = hands[step.seat]
        c = step.ctx
        ctx = PlayContext(c.n_after, c.trick_no, c.my_tricks, c.others & ~mask_of(h), c.trumpless, c.risk, c.always)
        yield list(h), step, ctx
        h.remove(step.code)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PRESET_NAMES), st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_R4_10_the_card_model_is_a_distribution_over_the_legal_cards_only(preset, n, seed):
    """At every card played in a random hand (every preset, 2-6 players): each style and the mixture
    give one positive probability per legal card (R4.10), summing to 1; the card played is among them."""
    model = default_model()
    assert model is not None
    hand = _played_hand(preset, n, seed)
    checked = 0
    for h, step, ctx in _step_positions(hand):
        lg = legal(h, step.cur, ctx.always)
        assert step.code in lg
        probs = model.play_probs(h, step.cur, lg, ctx)
        assert len(probs) == len(lg)
        assert all(p > 0 for p in probs)
        assert math.isclose(sum(probs), 1.0, rel_tol=1e-9)
        feats = opponent._play_sparse(h, step.cur, lg, ctx)
        for style in model.styles:
            ps = opponent._style_probs(style, feats)
            assert len(ps) == len(lg) and all(p > 0 for p in ps) and math.isclose(sum(ps), 1.0, rel_tol=1e-9)
        checked += 1
    assert hand.is_over


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PRESET_NAMES), st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_the_likelihood_of_the_true_cards_is_finite_and_a_contradicting_deal_is_impossible(preset, n, seed):
    """R4.10: the plays of a hand have a finite log-likelihood at most 0 had each seat held its true cards;
    giving a seat that did not follow suit a card of the led suit makes its plays impossible (−inf)."""
    model = default_model()
    hand = _played_hand(preset, n, seed)
    end = hand.observe(0)
    k = infer(end)
    cd = k.codec
    steps = observed_steps(end, k)
    start = {s: cd.encs(hand.dealt[s]) for s in end.active}
    for v in model.play_loglik(steps, start, skip=-1).values():
        assert len(v) == len(model.styles) and all(-math.inf < x <= 0 for x in v)
    for step in steps:
        if not step.cur or (step.code >> 5) == (step.cur[0] >> 5):
            continue
        led = step.cur[0] >> 5
        gives = [(s, c) for s in end.active if s != step.seat for c in start[s] if c >> 5 == led]
        takes = [c for c in start[step.seat] if c != step.code]
        if not gives or not takes:
            continue
        holder, give = gives[0]
        swap = dict(start)
        swap[step.seat] = [c for c in start[step.seat] if c != takes[0]] + [give]
        swap[holder] = [c for c in start[holder] if c != give] + [takes[0]]
        assert model.play_loglik(steps, swap, skip=-1)[step.seat] == [-math.inf] * len(model.styles)
        return


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([("piquet32", False), ("piquet32", True), ("full52", False), ("full52", True)]), st.data())
def test_the_fast_declaration_features_are_the_tips_and_montecarlo_judgements(deck, data):
    """R4.5: the one-pass declaration features equal those computed from ramsli.bots.fast.declare_strength,
    sure_tricks, rule_declare and ramsli.bots.tips.declare_in, on random hands, turn-ups and tables."""
    cd = codec("S")
    codes = cd.encs(make_deck(*deck))
    hand = data.draw(st.lists(st.sampled_from(codes), min_size=5, max_size=5, unique=True))
    turn = data.draw(st.sampled_from([c for c in codes if c not in hand]))
    vis = _absent_trumps(deck[0], deck[1], "S") | (1 << turn if turn < 32 else 0)
    args = (
        hand,
        vis,
        data.draw(st.integers(0, 5)),
        data.draw(st.integers(0, 5)),
        data.draw(st.sampled_from([5, 10, 20])),
        data.draw(st.integers(0, 20)),
        data.draw(st.booleans()),
        data.draw(st.booleans()),
    )
    assert declare_features(*args) == pytest.approx(_declare_features_slow(*args))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PRESET_NAMES), st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_the_tips_card_on_codes_is_the_tips_players_card(preset, n, seed):
    """R4.10: the feature "the tips player's card" on codes is ramsli.bots.tips.choose_play's card."""
    hand = _played_hand(preset, n, seed)
    for h, step, ctx in _step_positions(hand):
        lg = legal(h, step.cur, ctx.always)
        if len(lg) > 1:
            assert _tips_card(h, step.cur, lg, ctx) == _tips_card_slow(h, step.cur, lg, ctx)


# --------------------------------------------------------------------------- R7 and seeds


def _twin(hand: Hand, seat: int, rng: random.Random) -> Hand | None:
    """``hand`` with the cards ``seat`` cannot see dealt differently, the same history replayed (or None)."""
    from ramsli.errors import IllegalActionError

    played = {s: [] for s in range(len(hand.dealt))}
    for a in hand.history:
        if a.kind == "pl":
            played[a.seat].append(a.card)
    hidden = [c for s, h in enumerate(hand.hands) if s != seat for c in h] + list(hand.stock or [])
    rng.shuffle(hidden)
    new = []
    for s, h in enumerate(hand.dealt):
        if s == seat or not h:
            new.append(list(h))
            continue
        k = len(hand.hands[s])
        new.append(played[s] + hidden[:k])
        hidden = hidden[k:]
    twin = Hand.from_cards(
        hand.rules, [20] * len(hand.dealt), hand.dealer, new, hand.turn_up, hand.turned_aside, pot=0, stock=hidden
    )
    try:
        for a in hand.history:
            twin.apply(a)
    except IllegalActionError:
        return None
    return twin


def _tips_hand_up_to(n: int, seed: int, steps: int) -> Hand:
    hand = Hand.new(Rules(), [20] * n, dealer=seed % n, rng=random.Random(seed))
    bot = make_bot("tips")
    for _ in range(steps):
        if hand.is_over:
            break
        hand.apply(bot.act(hand.observe(hand.to_act)))
    return hand


def test_R7_deals_that_agree_on_what_the_seat_sees_give_the_same_samples_values_and_decisions():
    """R7: late in the play, where the opponents' plays are read, two deals that differ only in the other
    seats' unplayed cards give the expert the same observation, the same weighted samples, the same values
    of its declaration and the same decisions (same seed)."""
    rng = random.Random(26)
    checked = {Phase.PLAY: 0, Phase.DECLARE: 0}
    for seed in range(80):
        steps = 2 + seed % 5 if seed % 3 == 0 else 9 + seed % 9
        hand = _tips_hand_up_to(5, seed, steps)
        if hand.is_over or len(hand.legal_actions()) < 2:
            continue
        seat = hand.to_act
        twin = _twin(hand, seat, rng)
        if twin is None or [twin.hands[s] for s in range(5) if s != seat] == [
            hand.hands[s] for s in range(5) if s != seat
        ]:
            continue
        obs, obs2 = hand.observe(seat), twin.observe(seat)
        assert obs == obs2
        a, b = ExpertBot(seed=seed, **SMALL), ExpertBot(seed=seed, **SMALL)
        ka, ca, pa = a._setup(obs)
        kb, cb, pb = b._setup(obs2)
        sa = a._samples(obs, ka, ca, pa, 12)
        sb = b._samples(obs2, kb, cb, pb, 12)
        assert sa == sb
        if obs.phase is Phase.DECLARE:
            assert ExpertBot(seed=seed, **SMALL).declare_value(obs) == ExpertBot(seed=seed, **SMALL).declare_value(obs2)
        assert ExpertBot(seed=seed, **SMALL).act(obs) == ExpertBot(seed=seed, **SMALL).act(obs2)
        if obs.phase in checked:
            checked[obs.phase] += 1
    assert checked[Phase.PLAY] >= 5 and checked[Phase.DECLARE] >= 3, checked


def test_the_expert_reads_the_plays_its_samples_follow_them():
    """The opponents' plays (R4.10) change the expert's samples: with the card model read (``plays=1``)
    they differ from those with it off (``plays=0``) once cards have been played, and not before."""
    hand = _tips_hand_up_to(5, 7, 0)
    while hand.phase is not Phase.PLAY:
        hand.apply(make_bot("tips").act(hand.observe(hand.to_act)))
    first = hand.observe(hand.to_act)
    on, off = ExpertBot(seed=1, plays=1), ExpertBot(seed=1, plays=0)
    k, c, p = on._setup(first)
    assert not p and on._samples(first, k, c, p, 10) == off._samples(first, k, c, p, 10)
    for _ in range(len(first.active) + 2):
        hand.apply(make_bot("tips").act(hand.observe(hand.to_act)))
    obs = hand.observe(hand.to_act)
    k, c, p = on._setup(obs)
    assert p
    w_on = [w for _, w in ExpertBot(seed=1, plays=1, candidates=1)._samples(obs, k, c, p, 30)]
    w_off = [w for _, w in ExpertBot(seed=1, plays=0, candidates=1)._samples(obs, k, c, p, 30)]
    assert w_on != w_off


def _weighted_mean(samples: list[tuple[dict, float]], f) -> float:
    total = sum(w for _, w in samples)
    return sum(w * f(d) for d, w in samples) / total


def test_R4_5_a_declaration_moves_the_samples_an_in_seat_gets_stronger_hands_an_out_seat_weaker():
    """A constructed case: the tips declare until the fourth seat is to declare (R4.5). Over 300 deals
    drawn without weighting (``candidates=1``: the drawn deals, not resampled) the fitted weights give
    every seat that declared ``in`` a higher mean strength (:func:`ramsli.bots.fast.declare_strength`)
    than the unweighted mean of the same deals, and every seat that declared ``out`` a lower one."""
    from ramsli.bots.fast import declare_strength

    seen = {True: 0, False: 0}
    for seed in range(12):
        hand = _tips_hand_up_to(5, seed, 3)
        if hand.phase is not Phase.DECLARE:
            continue
        obs = hand.observe(hand.to_act)
        bot = ExpertBot(seed=seed, candidates=1)
        k, checks, played = bot._setup(obs)
        samples = bot._samples(obs, k, checks, played, 300)
        assert len(samples) == 300 and len({w for _, w in samples}) > 1
        for s, stay, _, _ in checks:

            def strength(d: dict, s: int = s, vis: int = k.visible_trumps) -> float:
                return declare_strength(d[s], vis)[1]

            weighted = _weighted_mean(samples, strength)
            plain = statistics.fmean(strength(d) for d, _ in samples)
            assert (weighted > plain) if stay else (weighted < plain), (seed, s, stay, weighted, plain)
            seen[stay] += 1
    assert seen[True] >= 3 and seen[False] >= 3, seen


def test_R4_10_reading_the_plays_puts_more_hidden_cards_in_the_right_hands():
    """A constructed case: tips players at every seat (their style is in the model) play the first two
    tricks. At each card decision after that, the weighted samples with the plays read (``plays=1``)
    put the active opponents' true hidden cards in the right hand more often, summed over the positions,
    than the same draws with the plays not read (``plays=0``); with no play yet the weights are equal."""
    right = {1.0: 0.0, 0.0: 0.0}
    positions = 0
    for seed in range(10):
        hand = _tips_hand_up_to(5, 100 + seed, 0)
        while not hand.is_over and not (hand.phase is Phase.PLAY and len(hand.observe(0).tricks) >= 2):
            hand.apply(make_bot("tips").act(hand.observe(hand.to_act)))
        if hand.is_over or len(hand.legal_actions()) < 2:
            continue
        obs = hand.observe(hand.to_act)
        me = obs.seat
        positions += 1
        for plays in right:
            bot = ExpertBot(seed=seed, plays=plays, fitted_declarations=0, candidates=1)
            k, checks, played = bot._setup(obs)
            samples = bot._samples(obs, k, checks, played, 60)
            cd = k.codec
            truth = {s: set(cd.encs(hand.hands[s])) for s in obs.active if s != me}

            def share(d: dict, truth: dict = truth) -> float:
                return sum(len(truth[s] & set(d[s])) for s in truth) / max(1, sum(map(len, truth.values())))

            right[plays] += _weighted_mean(samples, share)
    assert positions >= 5, positions
    assert right[1.0] > right[0.0], right


@pytest.mark.parametrize("preset", ["traditional", "general-rams", "nap"])
def test_seeded_decisions_are_deterministic_with_the_model(preset):
    """The same seed gives the same hand, action for action, with the fitted model read (5 players)."""

    def play(seed: int) -> list:
        hand = Hand.new(Rules.preset(preset), [20] * 5, dealer=2, rng=random.Random(11))
        play_hand(hand, {s: ExpertBot(seed=seed + s, **SMALL) for s in range(5)})
        return list(hand.history)

    assert play(5) == play(5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 10), min_size=1, max_size=40), st.integers(1, 50), st.integers(0, 2**32 - 1))
def test_systematic_resampling_draws_count_samples_in_proportion(weights, count, seed):
    """Resampling returns each deal at most once, with multiplicities summing to ``count``, and a deal of
    weight w is drawn within one of count · w / Σw times."""
    total = sum(weights)
    if total <= 0:
        return
    out = [({"i": i}, w) for i, w in enumerate(weights)]
    picked = _resample(out, count, total, random.Random(seed))
    assert sum(m for _, m in picked) == count
    ids = [d["i"] for d, _ in picked]
    assert len(ids) == len(set(ids))
    for d, m in picked:
        assert abs(m - count * weights[d["i"]] / total) < 1 + 1e-9


# --------------------------------------------------------------------------- the model file


def _shipped() -> dict:
    return load_model().to_dict()


def test_the_shipped_model_loads_round_trips_and_says_how_it_was_fitted():
    model = load_model()
    assert model_from_dict(json.loads(json.dumps(model.to_dict()))).to_dict() == model.to_dict()
    assert {"method", "data", "command"} <= set(model.fitted)
    assert math.isclose(sum(s.prior for s in model.styles), 1.0)
    assert {"tips", "montecarlo", "expert"} <= {s.name for s in model.styles}


def _hostile_files() -> list[tuple[str, object, str]]:
    good = _shipped()

    def patched(path: list, value) -> dict:
        d = json.loads(json.dumps(good))
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return d

    return [
        ("not json", b"{not json", "not valid JSON"),
        ("not utf-8", b"\xff\xfe\x00", "not valid JSON"),
        ("a list", [], "one JSON object"),
        ("wrong format", patched(["format"], "ramsli-opponent-model/0"), "format must be"),
        ("no styles", patched(["styles"], []), "styles"),
        ("too many styles", patched(["styles"], good["styles"] * 5), "styles"),
        ("NaN coefficient", patched(["styles", 0, "play", "coef", 0], float("nan")), "outside"),
        ("huge coefficient", patched(["styles", 0, "play", "coef", 0], 1e308), "outside"),
        ("huge integer", patched(["styles", 0, "play", "coef", 0], 10**400), "outside"),
        ("bool coefficient", patched(["styles", 0, "declare", "coef", 1], True), "not a number"),
        ("string coefficient", patched(["styles", 0, "declare", "coef", 1], "1"), "not a number"),
        ("short coefficients", patched(["styles", 0, "play", "coef"], [0.0]), "coefficients"),
        ("other features", patched(["styles", 0, "play", "features"], list(PLAY_FEATURES[::-1])), "features"),
        ("floor above 1", patched(["styles", 0, "play", "floor"], 2), "outside"),
        ("clip reversed", patched(["styles", 0, "declare", "clip"], [0.9, 0.1]), "outside"),
        ("negative prior", patched(["styles", 0, "prior"], -1), "outside"),
        ("all priors 0", {**good, "styles": [{**s, "prior": 0} for s in good["styles"]]}, "priors"),
        ("bad style name", patched(["styles", 0, "name"], "../../etc"), "name"),
        ("fitted not an object", patched(["fitted"], "x"), "fitted"),
        ("too large", b"[" + b" " * (opponent.MAX_BYTES + 10) + b"]", "larger than"),
        ("deeply nested", b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
    ]


@pytest.mark.parametrize("name,content,message", _hostile_files(), ids=[c[0] for c in _hostile_files()])
def test_a_corrupt_or_hostile_model_file_is_refused_with_a_clear_error(tmp_path, name, content, message):
    path = tmp_path / "model.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    with pytest.raises(OpponentModelError, match=message):
        load_model(path)


def test_a_missing_model_file_is_refused_with_a_clear_error(tmp_path):
    with pytest.raises(OpponentModelError, match="cannot read"):
        load_model(tmp_path / "absent.json")


def test_without_a_usable_model_file_the_expert_falls_back_to_its_own_sampling(tmp_path, monkeypatch, caplog):
    """A corrupt shipped model is refused with a warning in the log; the expert then declares and plays
    exactly as with the fitted model switched off (``plays=0, fitted_declarations=0``)."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ramsli-opponent-model/1", "styles": "x"}')
    real_load = opponent.load_model
    off = ExpertBot(seed=4, plays=0, fitted_declarations=0, **SMALL)
    assert off.model is not None
    monkeypatch.setattr(opponent, "load_model", lambda path=None: real_load(bad if path is None else path))
    opponent.default_model.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="ramsli.bots.opponent"):
            assert default_model() is None
        assert "'styles' must be a list" in caplog.text and "without the fitted model" in caplog.text
        fallback = ExpertBot(seed=4, **SMALL)
        assert fallback.model is None

        def play(bot) -> list:
            hand = Hand.new(Rules(), [20] * 5, dealer=0, rng=random.Random(3))
            play_hand(hand, {s: bot if s == 0 else make_bot("tips") for s in range(5)})
            return list(hand.history)

        assert play(fallback) == play(off)
    finally:
        opponent.default_model.cache_clear()


def test_the_ablation_options_are_bot_options_with_ranges():
    bot = make_bot("expert:plays=0.5,fitted_declarations=0,candidates=2", seed=1)
    assert (bot.plays, bot.fitted_declarations, bot.candidates) == (0.5, 0, 2)
    for bad in ("expert:plays=2", "expert:fitted_declarations=3", "expert:candidates=0"):
        with pytest.raises(ValueError, match="out of range"):
            make_bot(bad)


def test_a_model_with_one_uniform_style_weighs_every_legal_card_alike():
    """A style with all coefficients 0 is a uniformly random player: 1/#legal per card (R4.10)."""
    zero = opponent.Style("random", 1.0, (0.0,) * len(PLAY_FEATURES), 0.0, (0.0,) * len(DECLARE_FEATURES), (0.5, 0.5))
    model = OpponentModel([zero])
    assert model_from_dict(model.to_dict()).styles[0].uniform
    hand = _played_hand("traditional", 4, 3)
    for h, step, ctx in _step_positions(hand):
        lg = legal(h, step.cur, ctx.always)
        assert model.play_probs(h, step.cur, lg, ctx) == pytest.approx([1 / len(lg)] * len(lg))
    assert model.p_in([2, 3, 40, 41, 70], 0, 1, 2, 5, 5) == pytest.approx(0.5)
    assert FORMAT == model.to_dict()["format"]
