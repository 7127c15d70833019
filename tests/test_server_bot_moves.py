"""What a bot did for a person (issue 36.3): a move made when the turn timer ran out or while the
person was away is listed in that seat's own view (``bot_moves``), and in no other view (R7, D-16);
it survives a restart (the table's events replay it). A view lists only the hand it shows.

The hub is driven through :meth:`Hub.receive` as the WebSocket endpoint does, with real SQLite.
"""

from __future__ import annotations

import asyncio
import json

from ramsli.server.tables.connection import Connection as Conn

from helpers import cards_in, last_view, open_hub, scaled, seat_table

run = asyncio.run


async def _until(pred, timeout=scaled(10.0), what="the condition"):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


def test_the_timer_move_is_in_the_seats_own_view_only(sqlite_url):
    """The turn timer plays for a person: their view lists it (``by: timer``, the action, the
    hand); the other person's view and a spectator's list nothing, and before the move no other
    view held the card (D-16)."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await seat_table(hub, turn_seconds=1)
        spect = Conn()
        await hub.receive(spect, json.dumps({"type": "hello", "token": t.spectator_token}), t.id)
        await _until(lambda: t.session.hand.to_act in people, what="a person's turn")
        i = t.session.hand.to_act
        me, other = people[i][1], people[1 - i][1]
        assert last_view(me)["bot_moves"] == []
        seq = t.seq
        n_other, n_spect = len(other.sent), len(spect.sent)
        await _until(lambda: t.seq > seq, timeout=scaled(5), what="the timer's move")
        await _until(lambda: last_view(me)["seq"] > seq, what="the view after it")
        moves = last_view(me)["bot_moves"]
        assert len(moves) == 1, moves
        m = moves[0]
        assert m["n"] == 1 and m["by"] == "timer" and m["hand"] == 1
        assert m["action"].startswith(f"p{i + 1} ")
        assert last_view(other)["bot_moves"] == [] and last_view(spect)["bot_moves"] == []
        if " pl " in m["action"]:  # a card: nobody else saw it before it was played
            card = m["action"].split()[2]
            for msg in other.sent[:n_other] + spect.sent[:n_spect]:
                assert card not in cards_in(msg)
        await hub.close()
        # a restart replays the events: the move is still listed, with the same number
        hub2, _ = await open_hub(sqlite_url)
        back = Conn()
        await hub2.receive(back, json.dumps({"type": "hello", "token": people[i][0]}), t.id)
        assert [x["n"] for x in last_view(back)["bot_moves"]] == [1]
        assert last_view(back)["bot_moves"][0]["action"] == m["action"]
        await hub2.close()
        await store.close()

    run(go())


def test_an_away_persons_moves_are_listed_on_return(sqlite_url):
    """A person who leaves is played by a bot (``by: proxy``); when they open their link again,
    their view lists those moves of the hand it shows, in order, numbered per seat."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await seat_table(hub, grace_seconds=600)
        token, bo = people[1]
        await hub.receive(bo, json.dumps({"type": "leave"}))
        hub.disconnect(bo)
        ann = people[0][1]
        # Ann plays her turns; the bot plays Bo's until two of his moves are made
        loop = asyncio.get_running_loop()
        end = loop.time() + scaled(20)
        while t.seats[1].bot_moves_n < 2 and t.status == "playing":
            v = last_view(ann)
            if v["legal"] and v["seq"] == t.seq:
                await hub.receive(ann, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]}))
            assert loop.time() < end, "the away bot made no two moves"
            await asyncio.sleep(0.005)
        back = Conn()
        await hub.receive(back, json.dumps({"type": "hello", "token": token}), t.id)
        v = last_view(back)
        moves = v["bot_moves"]
        # those of the hand the view shows, in order, numbered as the seat counts them
        assert moves and moves == [m for m in t.seats[1].bot_moves if m["hand"] == v["hand"]["number"]]
        assert [m["n"] for m in moves] == list(range(moves[0]["n"], moves[0]["n"] + len(moves)))
        assert {m["by"] for m in moves} == {"proxy"} and all(m["action"].startswith("p2 ") for m in moves)
        assert last_view(ann)["bot_moves"] == []
        await hub.close()
        await store.close()

    run(go())
