"""``ramsli.client.observation_from_view`` (issue 26, item 1): a seat's view of the table protocol
reads back as exactly the ``Observation`` that ``Hand.observe(seat)`` gives at the server (R7).

The views are those of a real server table (:class:`ramsli.server.tables.table.Table`, events kept in
memory), played out with random legal actions over random deals under several presets; at every
step every seat's view is read back and compared with the engine's observation of that seat.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramsli.client import ViewError, observation_from_view
from ramsli.client.observation import view_from_observation
from ramsli.rules import Rules
from ramsli.server.tables import views
from ramsli.server.tables.table import Table, TableOptions


class MemoryLog:
    """An event log that keeps nothing (the views are what this test reads)."""

    async def append(self, table_id, seq, kind, data) -> None:
        return None


async def _play(preset: str, players: int, seed: int, choices: int, hands: int = 3) -> int:
    rules = Rules.preset(preset).with_assignments([f"end=hands:{hands}", f"players={players}"])
    spec = Table.new_spec(rules, preset, [{"kind": "human"}] * players, TableOptions(), seed)
    t = Table("rt", spec, MemoryLog())
    for i, s in enumerate(t.seats):
        await t.sit(s.token, f"P{i + 1}")
    await t.start(t.creator_token)
    rng = random.Random(choices)
    compared = 0
    while t.session is not None and not t.session.is_over:
        hand = t.session.hand
        if hand is None:
            await t.deal_next()
            continue
        for seat in range(players):
            v = json.loads(json.dumps(views.view(t, seat)))  # as it travels: JSON
            assert observation_from_view(v) == hand.observe(seat), (seat, v)
            compared += 1
        seat = hand.to_act
        await t.intent(seat, str(rng.choice(hand.legal_actions())), t.seq)
        done = t.session.results[-1].hand if t.session.hand is None and t.session.results else None
        if done is not None:  # the finished hand, with its settlement, as every seat sees it between hands
            for s in range(players):
                v = json.loads(json.dumps(views.view(t, s)))
                assert observation_from_view(v) == done.observe(s)
                assert observation_from_view(v).settlement == done.settlement
    return compared


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["traditional", "nap", "general-rams", "compulsory", "joker", "modern-52", "rounce"]),
    players=st.integers(3, 6),
    seed=st.integers(0, 10_000),
    choices=st.integers(0, 10_000),
)
def test_a_seats_view_reads_back_as_its_observation_R7(preset, players, seed, choices):
    """Every seat's view at every step of random hands equals ``Hand.observe(seat)`` (R7)."""
    assert asyncio.run(_play(preset, players, seed, choices)) > 0


def test_a_view_without_a_hand_is_a_clear_error():
    with pytest.raises(ViewError, match="no hand"):
        observation_from_view({"type": "view", "hand": None})


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), preset=st.sampled_from(["traditional", "general-rams"]))
def test_a_view_made_from_an_observation_reads_back_as_it_R7(seed, players, preset):
    """``view_from_observation`` (the arena's remote seat) and ``observation_from_view`` are inverse
    at every step of a random hand, for every seat; the view names no card the seat may not know."""
    from ramsli.hand import Hand

    from helpers import cards_in, known_cards

    rules = Rules.preset(preset).with_assignments([f"players={players}"])
    rng = random.Random(seed)
    hand = Hand.new(rules, [20] * players, dealer=seed % players, rng=rng)
    while True:
        for s in range(players):
            obs = hand.observe(s)
            v = json.loads(json.dumps(view_from_observation(obs, table="arena", seq=1, number=1)))
            assert observation_from_view(v) == obs
            assert cards_in(v) <= known_cards(hand, s)
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
