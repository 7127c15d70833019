"""The OpenSpiel game python_ramsli (issue #5): OpenSpiel's own checks plus ours (R4, R5, R7)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from ramsli.cards import Card  # noqa: E402
from ramsli.errors import IllegalActionError, TableError  # noqa: E402
from ramsli.rl import encoding as enc  # noqa: E402
from ramsli.rl import openspiel_game as og  # noqa: E402
from ramsli.rules import PRESETS, RulesError  # noqa: E402


def _play_random(state, rng: random.Random, stop: int | None = None):
    k = 0
    while not state.is_terminal() and (stop is None or k < stop):
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        k += 1
    return state


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_sim_test_every_preset_and_player_count(preset):
    for n in range(2, 7):
        game = pyspiel.load_game(og.GAME_NAME, {"players": n, "preset": preset})
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_with_rule_options():
    game = pyspiel.load_game(
        og.GAME_NAME,
        {
            "players": 4,
            "preset": "nap",
            "rules": "bete=10;jokers=true;dealer_forced=false;general_rams=true",
            "dealer": 2,
            "stack": 7,
        },
    )
    assert "bete:10" in str(game)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    cfg = game.config
    assert (cfg.rules.bete, cfg.rules.jokers, cfg.rules.dealer_forced, cfg.stack, cfg.dealer) == (10, True, False, 7, 2)


def test_serialize_round_trip_keeps_rules_and_state():
    game = pyspiel.load_game(og.GAME_NAME, {"players": 3, "preset": "joker", "rules": "ante=2"})
    state = _play_random(game.new_initial_state(), random.Random(3), stop=25)
    text = pyspiel.serialize_game_and_state(game, state)
    g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert str(g2) == str(game)
    assert s2.history() == state.history()
    assert str(s2) == str(state)
    for p in range(3):
        assert s2.information_state_string(p) == state.information_state_string(p)


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="allowed are 2 to 6"):  # the engine's check_setup
        pyspiel.load_game(og.GAME_NAME, {"players": 7})
    with pytest.raises(Exception, match="R6"):
        pyspiel.load_game(og.GAME_NAME, {"preset": "skat"})
    with pytest.raises(Exception, match="R8"):
        pyspiel.load_game(og.GAME_NAME, {"rules": "colour=red"})
    with pytest.raises(RulesError):
        og.rules_from_params("traditional", "colour=red", 3)
    with pytest.raises(TableError) as e:
        og.rules_from_params("traditional", "players=4", 3)
    assert e.value.refusal.code == "players_mismatch"


def test_game_info_and_shapes():
    game = pyspiel.load_game(og.GAME_NAME, {"players": 4})
    assert game.num_distinct_actions() == 62 and game.max_chance_outcomes() == 54
    assert game.num_players() == 4 and game.max_game_length() == 32
    assert game.observation_tensor_shape() == [enc.tensor_size(4, False)]
    assert game.information_state_tensor_shape() == [enc.tensor_size(4, True)]
    assert game.min_utility() == -20 and game.max_utility() == 60


def test_deal_chance_nodes_follow_r43_and_build_the_hand():
    game = pyspiel.load_game(og.GAME_NAME, {"players": 3, "preset": "joker", "dealer": 0})
    state = game.new_initial_state()
    outs = state.chance_outcomes()
    assert len(outs) == 34 and abs(sum(p for _, p in outs) - 1) < 1e-9
    # deal order: p2 x3, p3 x3, p1 x3, p2 x2, p3 x2, p1 x2 (dealer p1 last, R4.3)
    seq = [c.index for c in [Card.parse(x) for x in "AS KS QS AH KH QH AD KD QD JS TS JH TH JD TD".split()]]
    for i in seq:
        state.apply_action(i)
    assert state.is_chance_node()
    state.apply_action(Card.parse("X1").index)  # joker turned aside (D-9)
    assert state.is_chance_node() and "X1" in state.observation_string(1)
    state.apply_action(Card.parse("9C").index)
    h = state.hand
    assert h is not None and h.trump == "C" and [str(c) for c in h.turned_aside] == ["X1"]
    assert [str(c) for c in h.hands[1]] == ["AS", "KS", "QS", "JS", "TS"]
    assert [str(c) for c in h.hands[0]] == ["AD", "KD", "QD", "JD", "TD"]
    assert state.current_player() == 1
    assert state.legal_actions() == [enc.ACTION_IN, enc.ACTION_OUT]
    # during the deal each seat sees only its own cards (R7)
    s2 = game.new_initial_state()
    for i in seq[:4]:
        s2.apply_action(i)
    assert "AS KS QS" in s2.observation_string(1) and "AS" not in s2.observation_string(2)
    assert "AH" in s2.observation_string(2) and "AH" not in s2.observation_string(1)


def test_returns_are_counters_won_or_lost_and_conserve_chips():
    rng = random.Random(11)
    for preset in sorted(PRESETS):
        game = pyspiel.load_game(og.GAME_NAME, {"players": 4, "preset": preset})
        for _ in range(3):
            state = _play_random(game.new_initial_state(), rng)
            h = state.hand
            ret = state.returns()
            assert ret == [h.stacks[s] - 20 for s in range(4)]
            assert sum(ret) == -h.pot  # R3.4: what is not in a stack carries over in the pot
            assert h.total() == 80


def test_illegal_action_is_refused():
    game = pyspiel.load_game(og.GAME_NAME, {"players": 3})
    state = _play_random(game.new_initial_state(), random.Random(2), stop=16)
    assert state.current_player() == 1
    with pytest.raises(Exception):
        state.apply_action(enc.PLAY_BASE)  # no card play while declaring (R4.5)
    assert state.legal_actions() == [0, 1]


def _swap_hidden(game, state, observer, rng):
    """A state where one card dealt to another seat is swapped with an undealt card (the stock)."""
    seq = [a for a in state.history()]
    cfg = game.config
    n_hand = len(cfg.deal_seats)
    played = set()
    if state.hand is not None:
        played = {c.index for t in state.hand.tricks for _, c in t.plays} | {c.index for _, c in state.hand.current}
    chance = seq[: n_hand + len(state.hand.turned_aside) + 1]
    actions = seq[len(chance) :]
    cand = [i for i in range(n_hand) if cfg.deal_seats[i] != observer and chance[i] not in played]
    undealt = [i for i in cfg.deck_ids if i not in chance]
    if not cand:
        return None
    k = rng.choice(cand)
    new = list(chance)
    new[k] = rng.choice(undealt)
    alt = game.new_initial_state()
    try:
        for a in new + actions:
            alt.apply_action(a)
    except Exception:  # noqa: BLE001 - any refusal means the alternative deal is impossible
        return None
    return alt


@pytest.mark.parametrize("preset", ["traditional", "nap", "joker", "general-rams"])
def test_observations_never_show_hidden_cards(preset):
    """R7, D-16: seat i's strings and tensors are identical across states that differ
    only in another seat's hidden cards."""
    game = pyspiel.load_game(og.GAME_NAME, {"players": 4, "preset": preset})
    rng = random.Random(5)
    checked = 0
    for _trial in range(12):
        state = _play_random(game.new_initial_state(), rng, stop=rng.randrange(24, 60))
        if state.hand is None:
            continue
        for obs_seat in range(4):
            alt = _swap_hidden(game, state, obs_seat, rng)
            if alt is None:
                continue
            assert str(alt) != str(state)
            for f in ("information_state_string", "observation_string"):
                assert getattr(alt, f)(obs_seat) == getattr(state, f)(obs_seat)
            for f in ("information_state_tensor", "observation_tensor"):
                assert np.array_equal(getattr(alt, f)(obs_seat), getattr(state, f)(obs_seat))
            checked += 1
    assert checked >= 20


def test_resample_keeps_the_information_state():
    game = pyspiel.load_game(og.GAME_NAME, {"players": 4, "preset": "joker"})
    rng = random.Random(8)
    differs = 0
    for _ in range(10):
        state = _play_random(game.new_initial_state(), rng, stop=rng.randrange(30, 55))
        if state.is_terminal():
            continue
        p = state.current_player()
        for k in range(3):
            new = state.resample_from_infostate(p, rng=random.Random(k))
            assert new.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(new.information_state_tensor(p), state.information_state_tensor(p))
            assert new.legal_actions() == state.legal_actions()
            differs += str(new) != str(state)
    assert differs > 0
    # OpenSpiel's own sampler argument works too
    state = _play_random(game.new_initial_state(), rng, stop=game.config.max_chance_nodes)
    while state.is_chance_node():
        state = _play_random(state, rng, stop=1)
    p = state.current_player()
    new = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert new.information_state_string(p) == state.information_state_string(p)


def _play_with_bots(game, bots, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_openspiel_ismcts_and_mcts_bots_play_a_hand():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(og.GAME_NAME, {"players": 3, "preset": "general-rams"})
    ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, ev, uct_c=2.0, max_simulations=15, random_state=np.random.RandomState(i))
        for i in range(3)
    ]
    state = _play_with_bots(game, bots, 1)  # default resampler: state.resample_from_infostate
    assert state.is_terminal() and state.hand.total() == 60
    for i, b in enumerate(bots):
        b.set_resampler(og.make_resampler(i))
    assert _play_with_bots(game, bots, 2).is_terminal()
    mbots = [mcts.MCTSBot(game, 2.0, 15, ev, random_state=np.random.RandomState(i)) for i in range(3)]
    state = _play_with_bots(game, mbots, 3)
    assert state.is_terminal() and sum(state.returns()) == -state.hand.pot


def test_history_rebuilt_from_observations():
    """The public history a bot rebuilds (R7 information only) is the hand's real history."""
    import ramsli

    rng = random.Random(4)
    for preset in ("traditional", "nap", "general-rams", "compulsory"):
        rules = (
            ramsli.Rules.preset(preset).replace(general_rams=True) if preset == "nap" else ramsli.Rules.preset(preset)
        )
        for _ in range(8):
            h = ramsli.Hand.new(rules, [20] * 4, dealer=rng.randrange(4), rng=rng)
            while not h.is_over:
                obs = h.observe(h.to_act)
                assert og._history_from_observation(obs) == h.history
                st = og.state_for_observation(obs, rng)
                assert st.information_state_string(h.to_act) == enc.observation_string(obs, perfect_recall=True)
                legal = h.legal_actions()
                h.apply(legal[rng.randrange(len(legal))])


def test_ismcts_as_a_ramsli_bot_in_a_duplicate_tournament():
    from ramsli.analysis.tournament import run_tournament
    from ramsli.rules import Rules

    og.register_ismcts_bot()
    res = run_tournament(["ismcts:sims=8", "random", "random"], Rules.preset("nap"), deals=2, seed=3, duplicate=True)
    assert res.hands == 6 and res.bots[0].decisions > 0
    with pytest.raises(ValueError, match="sims >= 2"):
        og.ISMCTSRamsliBot(sims=1)
    # a hand that did not start from equal stacks is refused
    import ramsli

    h = ramsli.Hand.new(Rules(), [20, 15, 20], dealer=0, rng=random.Random(1))
    with pytest.raises(ValueError, match="equal stacks"):
        og.game_for_observation(h.observe(1))
    assert IllegalActionError
