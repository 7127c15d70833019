"""The table friends come back to (issue 27), in-process: chat and reactions, countdowns, leaving
and coming back, the bot taking an away seat at once, taking over a bot seat from the table, the
next deal waiting for the summaries, "Play again", and a seat that left as bust (R3.5).

The hub is driven through :meth:`Hub.receive` (as the WebSocket endpoint does) and the functions
behind the HTTP routes, with real SQLite storage; every refusal leaves the table as it was.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from ramsli.refusal import Refused
from ramsli.server.tables import social
from ramsli.server.tables.connection import Connection as Conn
from ramsli.server.tables.table import CHAT_BURST, CHAT_MAX

from helpers import SEATS3, cards_in, last_view, open_hub, scaled, seat_table, table_state

run = asyncio.run


async def _table(hub, seats=SEATS3, start=True, **opts):
    """:func:`helpers.seat_table`; the seat tokens of ``made`` become the personal tokens."""
    made, t, people = await seat_table(hub, seats, start=start, **opts)
    for i, (personal, _) in people.items():
        made["seats"][i]["token"] = personal
    return made, t, {i: c for i, (_, c) in people.items()}


async def _hello(hub, tid, token, lang="en"):
    c = Conn(lang)
    await hub.receive(c, json.dumps({"type": "hello", "token": token, "lang": lang}), tid)
    return c


async def _until(pred, timeout=scaled(10.0), what="the condition"):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


async def _step(hub, t, conns) -> None:
    """Every person whose turn it is makes their first legal move."""
    for c in conns:
        views = [m for m in c.sent if m["type"] == "view"]
        if views and views[-1]["legal"] and views[-1]["seq"] == t.seq and c.seat is not None and c.seat.conn is c:
            v = views[-1]
            await hub.receive(c, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]}))


async def _play_people(hub, t, conns, until, timeout=scaled(30.0)):
    """Let every person make their first legal move whenever it is their turn, until ``until()``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not until():
        assert loop.time() < end, "the people's play did not get there in time"
        await _step(hub, t, conns)
        await asyncio.sleep(0.002)


def _chats(conn):
    return [m for m in conn.sent if m["type"] == "chat"]


def test_chat_and_reactions_reach_everyone_are_stored_and_survive_a_restart(sqlite_url):
    """A chat line and a reaction reach every connection (spectators too) as they were typed
    (markup stays text for the page to show as text), are stored with the table's events, and
    come back after a restart; they never count in ``seq``, so an intent on the view before them
    is still accepted."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub)
        watcher = await _hello(hub, t.id, made["spectate"].rsplit("/", 1)[1])
        ann, bo = people[0], people[1]
        seq = t.seq
        xss = "<img src=x onerror=alert(1)>"
        await hub.receive(ann, json.dumps({"type": "chat", "text": "  hello\n\tall  "}))
        await hub.receive(bo, json.dumps({"type": "chat", "text": xss}))
        await hub.receive(bo, json.dumps({"type": "react", "code": "thumbs_up"}))
        await hub.receive(ann, json.dumps({"type": "react", "code": "well_played"}))
        assert t.seq == seq  # chat is no move of the game
        for c in (ann, bo, watcher):
            got = [(m["seat"], m["name"], m.get("text"), m.get("code")) for m in _chats(c)]
            assert got == [
                ("p1", "P1", "hello all", None),
                ("p2", "P2", xss, None),
                ("p2", "P2", None, "thumbs_up"),
                ("p1", "P1", None, "well_played"),
            ]
        stored = [e for e in next(r["events"] for r in await store.load() if r["id"] == t.id) if e[1] == "chat"]
        assert [d.get("text", d.get("code")) for _, _, d in stored] == ["hello all", xss, "thumbs_up", "well_played"]
        # a person's intent on the view before the chat is not stale
        to_act = t.session.hand.to_act
        if to_act in people:
            v = last_view(people[to_act])
            await hub.receive(people[to_act], json.dumps({"type": "act", "action": v["legal"][0], "seq": seq}))
            assert t.seq == seq + 1
        await hub.close()
        await store.close()
        # a restarted server has the chat and sends it to whoever says hello
        hub2, store2 = await open_hub(sqlite_url)
        await hub2.restore()
        r = hub2.tables[t.id]
        assert r.seq == t.seq and r.log_seq == t.log_seq
        back = await _hello(hub2, t.id, made["seats"][1]["token"])
        logs = [m for m in back.sent if m["type"] == "chat_log"]
        assert [line.get("text", line.get("code")) for line in logs[-1]["lines"]] == [
            "hello all",
            xss,
            "thumbs_up",
            "well_played",
        ]
        await hub2.receive(back, json.dumps({"type": "chat", "text": "back again"}))
        assert _chats(back)[-1]["n"] == 5
        await hub2.close()
        await store2.close()

    run(go())


def test_chat_refusals_change_nothing(sqlite_url):
    """Spectators and invite links read only; a message over 200 characters, an empty one, an
    unknown reaction and a flood are refused with their reasons; nothing is stored or sent."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
        watcher = await _hello(hub, t.id, made["spectate"].rsplit("/", 1)[1], lang="de")
        invite = await _hello(hub, t.id, made["seats"][2]["token"])  # a bot seat's invite link, not sat
        ann = people[0]
        before = (table_state(t), t.log_seq)
        await hub.receive(watcher, json.dumps({"type": "chat", "text": "hi"}))
        assert watcher.sent[-1]["code"] == "spectator"
        await hub.receive(invite, json.dumps({"type": "react", "code": "laugh"}))
        assert invite.sent[-1]["code"] == "not_sitting"
        await hub.receive(ann, json.dumps({"type": "chat", "text": "x" * (CHAT_MAX + 1)}))
        err = ann.sent[-1]
        assert err["error"] == "bad_message" and err["refusal"]["code"] == "field_long"
        await hub.receive(ann, json.dumps({"type": "chat", "text": " \n\t\u3164 "}))
        assert ann.sent[-1]["code"] == "chat_empty"
        await hub.receive(ann, json.dumps({"type": "react", "code": "AS"}))
        assert ann.sent[-1]["code"] == "chat_code"
        await hub.receive(ann, json.dumps({"type": "chat", "text": "hi", "to": "p2"}))
        assert ann.sent[-1]["refusal"]["code"] == "field_unknown"
        assert (table_state(t), t.log_seq) == before and not _chats(people[1])
        for k in range(CHAT_BURST):
            await hub.receive(ann, json.dumps({"type": "chat", "text": f"line {k}"}))
        await hub.receive(ann, json.dumps({"type": "chat", "text": "one too many"}))
        assert ann.sent[-1]["code"] == "chat_flood" and "wait" in ann.sent[-1]["message"]
        assert [m["text"] for m in _chats(people[1])] == [f"line {k}" for k in range(CHAT_BURST)]
        assert t.log_seq == before[1] + CHAT_BURST
        await hub.close()
        await store.close()

    run(go())


def test_away_countdown_then_the_bot_and_the_creator_hands_the_seat_over_at_once(sqlite_url):
    """An away person's seat shows every seat the seconds until a bot plays for it (``bot_in``);
    the creator can hand it to the bot at once; only the creator, and only an away seat."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub, grace_seconds=30)
        ann, bo = people[0], people[1]
        hub.disconnect(bo)
        p2 = last_view(ann)["seats"][1]
        assert p2["away"] and not p2["bot_playing"] and 29 <= p2["bot_in"] <= 30
        with pytest.raises(Refused) as e:
            t.bot_now(made["seats"][0]["token"], 1)  # a seat token is not the creator's
        assert e.value.refusal.code == "bad_token"
        with pytest.raises(Refused) as e:
            t.bot_now(made["creator_token"], 0)  # Ann is at the table
        assert e.value.refusal.code == "not_away"
        t.bot_now(made["creator_token"], 1)
        p2 = last_view(ann)["seats"][1]
        assert p2["bot_playing"] and p2["bot_in"] is None
        # the bot plays p2's turns now; Ann plays hers; the hand goes on
        hands = t.session.hands_played
        await _play_people(hub, t, [ann], lambda: t.session.hands_played > hands or t.status == "over")
        evs = next(r["events"] for r in await store.load() if r["id"] == t.id)
        assert any(d.get("by") == "proxy" and d["action"].startswith("p2 ") for _, k, d in evs if k == "act")
        back = await _hello(hub, t.id, made["seats"][1]["token"])
        assert last_view(back)["seats"][1]["bot_playing"] is False  # back: the seat is Bo's again
        await hub.close()
        await store.close()

    run(go())


def test_a_turn_timer_plays_for_a_person_who_does_not_move(sqlite_url):
    """With a turn timer, every view names the person to act and the seconds left; when they run
    out a bot makes that one move (stored ``by: timer``); the person plays their next turn again."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub, turn_seconds=1)
        c = None
        await _until(lambda: t.session.hand.to_act in people, what="a person's turn")
        c = people[t.session.hand.to_act]
        v = last_view(c)
        assert (
            v["timer"]["seat"] == f"p{c.seat.index + 1}" and 0 < v["timer"]["left"] <= 1 and v["timer"]["seconds"] == 1
        )
        other = last_view(people[1 - c.seat.index])
        assert other["timer"]["seat"] == v["timer"]["seat"]  # every seat sees it
        seq = t.seq
        await _until(lambda: t.seq > seq, timeout=scaled(5), what="the timer's move")
        evs = next(r["events"] for r in await store.load() if r["id"] == t.id)
        assert [d["by"] for _, k, d in evs if k == "act"][-1] == "timer"
        await hub.close()
        await store.close()

    run(go())


def test_leave_during_the_session_then_come_back(sqlite_url):
    """A person who leaves is played by a bot at once (closed with 4002, ``left``); opening their
    link again brings them back to their seat."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub, grace_seconds=600)
        ann, bo = people[0], people[1]
        await hub.receive(bo, json.dumps({"type": "leave"}))
        assert bo.closed_with == (4002, "left") and bo.sent[-1]["code"] == "left"
        hub.disconnect(bo)
        p2 = last_view(ann)["seats"][1]
        assert p2["left"] and p2["bot_playing"]
        hands = t.session.hands_played
        await _play_people(hub, t, [ann], lambda: t.session.hands_played > hands or t.status == "over")
        back = await _hello(hub, t.id, made["seats"][1]["token"])
        p2 = last_view(back)["seats"][1]
        assert not p2["left"] and not p2["bot_playing"] and p2["name"] == "P2"
        await hub.close()
        await store.close()

    run(go())


def test_the_next_deal_waits_for_every_summary_or_the_pause(sqlite_url):
    """Between hands the views count down to the next deal and name who has not closed the
    summary; when every connected person has, the next hand is dealt at once."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub, hand_pause_seconds=120, rules=["end=hands:2"])
        ann, bo = people[0], people[1]
        await _play_people(hub, t, [ann, bo], lambda: t.session.hand is None)
        v = last_view(ann)
        assert v["next_deal"]["waiting"] == ["p1", "p2"] and 100 < v["next_deal"]["in"] <= 120
        await hub.receive(ann, json.dumps({"type": "ready", "hand": 5}))  # not that hand: nothing
        await hub.receive(ann, json.dumps({"type": "ready", "hand": 1}))
        assert last_view(bo)["next_deal"]["waiting"] == ["p2"] and t.session.hand is None
        await hub.receive(bo, json.dumps({"type": "ready", "hand": 1}))
        await _until(lambda: t.session.hand is not None, timeout=scaled(5), what="the next deal")
        assert last_view(ann)["next_deal"] is None and t.ready == set()
        await hub.close()
        await store.close()

    run(go())


def test_take_over_a_bot_seat_from_the_table(sqlite_url):
    """A person at the table (a token of the table: here a seat's) takes over a bot's seat from
    the table: from the next hand on; a person's seat, a wrong token, or the spectator link of a
    private table (issue 38.1) is refused."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub, rules=["end=hands:3"])
        spect = made["spectate"].rsplit("/", 1)[1]
        friend = made["seats"][1]["token"]
        for token, seat, code in (("nope", 2, "bad_token"), (spect, 2, "bad_token"), (friend, 0, "not_a_bot_seat")):
            with pytest.raises(Refused) as e:
                await t.take(token, seat, "Cy")
            assert e.value.refusal.code == code
        seat = await t.take(friend, 2, "Cy")
        assert seat.pending == "Cy" and not seat.taken
        cy = await _hello(hub, t.id, seat.personal)
        assert last_view(cy)["you"]["pending"] and last_view(cy)["your_cards"] == []
        hands = t.session.hands_played
        await _play_people(hub, t, [people[0], people[1]], lambda: t.session.hands_played > hands)
        await _until(lambda: t.session.hand is not None or t.status == "over", what="the next deal")
        assert t.seats[2].taken and t.seats[2].name == "Cy"
        with pytest.raises(Refused) as e:
            await t.take(friend, 2, "Dee")
        assert e.value.refusal.code == "not_a_bot_seat"
        await hub.close()
        await store.close()

    run(go())


async def _bust_table(hub, seed):
    """Four seats (a person and three bots), two counters each, bust players leave (R3.5)."""
    return await _table(
        hub,
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        rules=["starting_stack=2", "bust=leave", "bete=1", "end=hands:8"],
        seed=seed,
        grace_seconds=0,  # a taker who never connects is played by a bot at once
    )


def test_a_seat_that_left_as_bust_cannot_be_taken_over_R3_5(sqlite_url):
    """R3.5 ``bust=leave``: a bot seat that left as bust cannot be taken over, by its invite link
    or from the table, and a takeover asked for during the hand in which the seat goes bust is
    dropped; the final standings keep the bot's name for the bot's result."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        found_left = found_pending = False
        for seed in range(1, 40):
            made, t, people = await _bust_table(hub, seed)
            asked: dict[int, int] = {}  # seat -> the hand in which a takeover was asked for
            loop_end = asyncio.get_running_loop().time() + scaled(30)
            while t.status == "playing" and asyncio.get_running_loop().time() < loop_end:
                s = t.session
                if s.hand is not None:
                    for i in (1, 2, 3):
                        seat = t.seats[i]
                        low = s.hand.start_stacks[i] <= 1 and i in s.hand.seated
                        if low and i not in asked and seat.pending is None and not seat.taken:
                            try:
                                await t.take(made["creator_token"], i, f"Taker{i}")  # may go bust in this very hand
                            except Refused as e:  # the bots may end the session meanwhile (R3.6)
                                assert e.refusal.code == "session_over" and t.status == "over"
                                break
                            asked[i] = s.hands_played + 1
                await _step(hub, t, [people[0]])
                await asyncio.sleep(0.002)
                for i in list(asked):
                    if i not in t.session.seated and not t.seats[i].taken:
                        found_pending = True
                        assert t.seats[i].pending is None and t.seats[i].name != f"Taker{i}"
                gone = [i for i in (1, 2, 3) if i not in t.session.seated and t.status == "playing"]
                for i in gone:
                    for token in (made["seats"][i]["token"],):
                        if t.seats[i].personal is not None:
                            continue
                        with pytest.raises(Refused) as e:
                            await t.sit(token, "Late")
                        if e.value.refusal.code == "session_over" and t.status == "over":
                            continue  # the bots ended the session meanwhile (R3.6): nothing to take over
                        assert e.value.refusal.code == "seat_left" and e.value.refusal.rule == "R3.5"
                        with pytest.raises(Refused) as e:
                            await t.take(made["creator_token"], i, "Late")
                        if e.value.refusal.code == "session_over" and t.status == "over":
                            continue
                        assert e.value.refusal.code in ("seat_left", "not_a_bot_seat")
                        found_left = True
            if t.status == "over":
                names = {row["seat"]: row["name"] for row in last_view(people[0])["standings"]}
                for i in (1, 2, 3):
                    if i in asked and i not in t.session.seated and not t.seats[i].taken:
                        assert names[f"p{i + 1}"] not in (f"Taker{i}", "Late")
            if found_left and found_pending:
                break
        assert found_left, "no bot seat left as bust in the seeds tried"
        assert found_pending, "no takeover was asked for in the hand its seat went bust"
        await hub.close()
        await store.close()

    run(go())


def test_play_again_keeps_the_people_and_the_settings(sqlite_url):
    """At the end, "Play again" makes one new table with the same rules, options and bots; each
    person gets their own seat's link (and nobody else's); the creator gets the new creator token;
    when both are back the new session starts at once; the link survives a restart."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub, rules=["end=hands:1"], turn_seconds=30)
        ann, bo = people[0], people[1]
        with pytest.raises(Refused) as e:
            await social.rematch(hub, t, made["seats"][0]["token"])
        assert e.value.refusal.code == "not_over"
        await _play_people(hub, t, [ann, bo], lambda: t.status == "over")
        for token in ("nope", made["spectate"].rsplit("/", 1)[1], made["seats"][2]["token"]):
            with pytest.raises(Refused) as e:
                await social.rematch(hub, t, token)
            assert e.value.refusal.code == "bad_token"
        a, b = (
            r.to_json()
            for r in await asyncio.gather(
                social.rematch(hub, t, made["seats"][0]["token"], made["creator_token"]),
                social.rematch(hub, t, made["seats"][1]["token"]),
            )
        )
        assert a["table"] == b["table"] and a["seat"] == "p1" and b["seat"] == "p2"
        assert "creator_token" in a and "creator_token" not in b and a["invite"] != b["invite"]
        assert (a["name"], b["name"]) == ("P1", "P2")
        # a kept seat's invite goes to its own person only: the creator's links are the others'
        # (the bot's seat), so the creator cannot sit someone else at Bo's kept seat
        assert [x["seat"] for x in a["seats"]] == ["p3"] and b["invite"] not in {x["invite"] for x in a["seats"]}
        new = hub.tables[a["table"]]
        assert (
            new.rules == t.rules
            and new.options.turn_seconds == 30
            and [s.bot for s in new.seats] == [s.bot for s in t.seats]
        )
        assert last_view(ann)["next_table"] == new.id
        v = views_of(new, 0)
        assert v["expect"] == ["p1", "p2"] and v["status"] == "waiting"
        await hub.sit(new.id, a["invite"].rsplit("/", 1)[1], "P1")
        assert new.status == "waiting" and 0 < views_of(new, 0)["starts_in"] <= 60
        await hub.sit(new.id, b["invite"].rsplit("/", 1)[1], "P2")
        assert new.status == "playing" and [s.name for s in new.seats][:2] == ["P1", "P2"]
        assert new.session.hand is not None
        await hub.close()
        await store.close()
        hub2, store2 = await open_hub(sqlite_url)
        await hub2.restore()
        assert await hub2.locate(t.id) == ("local", None)  # a finished table is read on demand
        assert hub2.tables[t.id].next_table == new.id
        again = await social.rematch(hub2, hub2.tables[t.id], made["seats"][1]["token"])
        assert again.table == new.id  # the same new table, not another
        await hub2.close()
        await store2.close()

    def views_of(table, seat):
        from ramsli.server.tables.views import view

        return view(table, seat)

    run(go())


def test_chat_frames_hold_no_card_but_what_people_typed(sqlite_url):
    """R7: chat frames carry only the sender's words and codes (no card of the game's state),
    also when the chat is replayed to a new connection."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, people = await _table(hub)
        await hub.receive(people[0], json.dumps({"type": "chat", "text": "good luck everyone"}))
        await hub.receive(people[1], json.dumps({"type": "react", "code": "grimace"}))
        late = await _hello(hub, t.id, made["spectate"].rsplit("/", 1)[1])
        frames = [m for c in (*people.values(), late) for m in c.sent if m["type"] in ("chat", "chat_log")]
        assert frames and all(not cards_in(m) for m in frames)
        assert {k for m in frames if m["type"] == "chat" for k in m} <= {"type", "n", "seat", "name", "text", "code"}
        await hub.close()
        await store.close()

    run(go())
