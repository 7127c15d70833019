"""What a server table keeps in memory (issue 28, item 4): structural checks only, no figures.

A finished hand's deal commitments are kept packed (cards and salts) and built again when asked
for, giving the stored event's digest and salts, also after a restart; tables of the same rules
share one :class:`~ramsli.Rules` and its view; no table carries a random generator of its own;
a seat is a slotted record. The figures (KiB a table) are in docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import random

from ramsli.cards import Card
from ramsli.fairness import DealBinding, DealCommitment, dealt_order
from ramsli.server.storage.eventstore import EventStore
from ramsli.server.tables.hub import Hub
from ramsli.server.tables.table import Deals, SeatState
from ramsli.server.tables.views import view

from helpers import ServerProcess, post_json, stable_view

SPEC = {
    "rules": ["end=hands:4", "starting_stack=40"],
    "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
    "bot_pace_seconds": 0,
    "hand_pause_seconds": 600,
    "seed": 5,
}


async def _played(store: EventStore, hands: int) -> tuple[Hub, str]:
    """A test-seeded table of three people who played ``hands`` hands (random legal moves)."""
    hub = Hub(store, allow_test_seeds=True)
    made = (await hub.create_table(dict(SPEC))).to_json()
    tid = made["table"]
    for i, s in enumerate(made["seats"]):
        await hub.sit(tid, s["token"], f"N{i}")
    await hub.start(tid, made["creator_token"])
    await hub.close()  # no drivers: the moves are made here
    t = hub.tables[tid]
    rng = random.Random(3)
    while t.session is not None and t.status == "playing" and len(t.session.results) < hands:
        if t.session.hand is None:
            assert await t.deal_next()
        else:
            seat = t.session.hand.to_act
            await t.intent(seat, rng.choice([str(a) for a in t.session.hand.legal_actions()]), t.seq)
    return hub, tid


def test_finished_hands_keep_packed_commitments_that_match_the_stored_deals(sqlite_url):
    async def go():
        from ramsli.server.tables import table as table_mod

        shared = table_mod._SESSION_RNG.getstate()
        store = await EventStore.open(sqlite_url)
        hub, tid = await _played(store, 3)
        t = hub.tables[tid]
        # the engine sessions' shared random source is never drawn from: the table deals (R7 fairness)
        assert t.session is not None and t.session.rng is table_mod._SESSION_RNG
        assert table_mod._SESSION_RNG.getstate() == shared
        (row,) = [r for r in await store.load() if r["id"] == tid]
        stored = [d for _seq, kind, d in row["events"] if kind == "deal"]
        assert len(stored) >= 3 and len(t.deals) == len(stored)
        # only the latest deal is held as built; the finished ones are packed, not DealCommitments
        assert not any(isinstance(v, DealCommitment) for v in t.deals._past.values())
        for d in stored:
            deal = t.deals[d["number"]]
            assert deal.digest == d["digest"] and list(deal.salts) == d["salts"]
            bound = DealBinding(tid, d["number"], d["dealer"], tuple(d["seated"]))  # ramsli-deal/2
            assert deal == DealCommitment.build(
                dealt_order([Card.parse(c) for c in d["deck"]], d["cut"]), d["salts"], bound
            )
        views = [stable_view(view(t, i)) for i in range(3)] + [stable_view(view(t, None))]
        await store.close()
        # a restarted server has the same commitments and views
        store = await EventStore.open(sqlite_url)
        again = Hub(store)
        await again.restore()
        await again.close()
        r = again.tables[tid]
        assert [r.deals[d["number"]] for d in stored] == [t.deals[d["number"]] for d in stored]
        assert [stable_view(view(r, i)) for i in range(3)] + [stable_view(view(r, None))] == views
        await store.close()

    asyncio.run(go())


def test_deals_pack_salts_of_uneven_length_as_they_are():
    cards = [Card.parse(c) for c in ("AS", "KS")]
    deals = Deals()
    odd = DealCommitment.build(cards, ["ab" * 16, "cd" * 20])
    deals[1] = odd
    deals[2] = DealCommitment.build(cards, ["ef" * 16, "01" * 16])
    deals[3] = DealCommitment.build(cards, ["23" * 16, "45" * 16])
    assert deals[1] == odd and deals.get(2) == DealCommitment.build(cards, ["ef" * 16, "01" * 16])
    assert 4 not in deals and deals.get(4) is None and len(deals) == 3


def test_tables_share_their_rules_and_random_source_and_seats_have_slots(sqlite_url):
    async def go():
        store = await EventStore.open(sqlite_url)
        hub = Hub(store)
        spec = {"rules": ["end=hands:4"], "seats": [{"kind": "human"}, {"kind": "bot", "bot": "tips"}]}
        a = hub.tables[(await hub.create_table(dict(spec))).table]
        b = hub.tables[(await hub.create_table(dict(spec))).table]
        assert a.rules is b.rules and a.rules_view is b.rules_view
        assert a._rng is b._rng
        assert not hasattr(a.seats[0], "__dict__") and isinstance(a.seats[0], SeatState)
        await hub.close()
        await store.close()

    asyncio.run(go())


def test_websocket_compression_is_off_unless_asked_for(sqlite_url, tmp_path):
    """``ramsli serve`` answers a client that offers permessage-deflate without it (a deflate
    state is about 50 KiB a connection); ``--ws-compress`` turns it on."""
    import websockets

    async def extensions(server: ServerProcess) -> str | None:
        status, made = post_json(server.http, "/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"}]})
        assert status == 201, made
        async with websockets.connect(f"{server.ws}/ws/{made['table']}") as ws:  # offers compression
            return ws.response.headers.get("Sec-WebSocket-Extensions")

    plain = ServerProcess(sqlite_url, tmp_path)
    packed = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/packed.sqlite", tmp_path, ["--ws-compress"])
    try:
        plain.start()
        packed.start()
        assert asyncio.run(extensions(plain)) is None
        assert "permessage-deflate" in (asyncio.run(extensions(packed)) or "")
    finally:
        plain.stop()
        packed.stop()


def test_the_lab_kernel_is_frozen_once_it_is_loaded():
    """``ramsli serve`` answers at once and loads the lab's kernel in the background; its
    ``on_ready`` (``gc.freeze`` in the server) runs once the kernel is loaded, not before and not
    when the warm-up fails."""
    from ramsli.server.coach import hints

    calls: list[str] = []
    warm = hints.LabWarmUp(any_cold=lambda: False, load=lambda: calls.append("load"), available=lambda: True)
    warm.on_ready = lambda: calls.append("ready")
    warm.run()
    assert warm.ready and calls == ["load", "ready"]

    def broken() -> None:
        raise OSError("no cache")

    failed = hints.LabWarmUp(any_cold=lambda: False, load=broken, available=lambda: True)
    failed.on_ready = lambda: calls.append("wrong")
    failed.run()
    assert failed.state is hints.WarmState.FAILED and calls == ["load", "ready"]
