"""The table server's protocol in-process (issue 10): intents, hostile input, seats, disconnects.

Each refusal must carry its error code and a reason in the connection's language, and leave
the table exactly as it was (same seq, same hand fingerprint, same stacks, same stored events).
The hub is driven through :meth:`Hub.receive`, the same entry the WebSocket endpoint uses,
with real SQLite storage.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets

import pytest

from ramsli.refusal import Refused
from ramsli.server.protocol.messages import BadMessage
from ramsli.server.tables.connection import Connection as Conn
from ramsli.server.tables.hub import MAX_MESSAGE, RATE_LIMIT, SpecError

from helpers import SEATS3, last_view, open_hub, scaled, seat_table, table_state

run = asyncio.run


async def _table(hub, seats=SEATS3, start=True, **opts):
    """:func:`helpers.seat_table` with every human seat; ``made``'s seat tokens become the personal
    tokens, and the connections come as a list in seat order."""
    made, t, people = await seat_table(hub, seats, start=start, **opts)
    for i, (personal, _) in people.items():
        made["seats"][i]["token"] = personal  # the personal token acts now
    return made, t, [c for _, c in people.values()]


async def _events(store, tid):
    return next(r["events"] for r in await store.load() if r["id"] == tid)


async def _until_human_turn(t, conns, timeout=scaled(10.0)):
    """Wait until a human seat is to act; returns its connection."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        for c in conns:
            v = last_view(c)
            if v["legal"] and v["seq"] == t.seq:
                return c
        await asyncio.sleep(0.005)
    raise AssertionError("no human turn came")


def test_hostile_input_is_refused_with_its_reason_and_changes_nothing(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub)
        c = await _until_human_turn(t, conns)
        me = c.seat.index
        before = table_state(t)
        ev_before = len(await _events(store, t.id))
        v = last_view(c)
        other = next(x for x in conns if x is not c)
        cases = [
            (c, "{not json", "bad_json"),
            (c, "[1, 2]", "bad_json"),
            (c, json.dumps({"no": "type"}), "bad_json"),
            (c, json.dumps({"type": "dance"}), "unknown_type"),
            (c, json.dumps({"type": "act", "action": "x" * MAX_MESSAGE, "seq": v["seq"]}), "too_big"),
            (c, json.dumps({"type": "act", "action": v["legal"][0]}), "bad_message"),
            (c, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"] - 1}), "stale_seq"),
            (c, json.dumps({"type": "act", "action": v["legal"][0], "seq": str(v["seq"])}), "bad_message"),
            (c, json.dumps({"type": "act", "action": v["legal"][0], "seq": True}), "bad_message"),
            (c, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"], "again": 1}), "bad_message"),
            (c, json.dumps({"type": "ping", "x": 1}), "bad_message"),
            (c, json.dumps({"type": "act", "action": f"p{me + 1} dance", "seq": v["seq"]}), "bad_action"),
            (c, json.dumps({"type": "act", "action": 7, "seq": v["seq"]}), "bad_message"),
            (c, json.dumps({"type": "act", "action": "p1 " + "x" * 40, "seq": v["seq"]}), "bad_message"),
            (c, json.dumps({"type": "act", "action": f"p{(me + 1) % 3 + 1} in", "seq": v["seq"]}), "not_your_seat"),
            (other, json.dumps({"type": "act", "action": f"p{other.seat.index + 1} out", "seq": v["seq"]}), "illegal"),
            (c, json.dumps({"type": "hello", "token": made["seats"][0]["token"]}), "bad_message"),
        ]
        for conn, raw, code in cases:
            n = len(conn.sent)
            await hub.receive(conn, raw)
            errs = [m for m in conn.sent[n:] if m["type"] == "error"]
            assert [e["error"] for e in errs] == [code], (raw[:60], conn.sent[n:])
            assert errs[0]["message"] and errs[0]["message"] != code
            assert table_state(t) == before, code
        # the engine's reason, with the rule id (R4.12); not your turn is R4.5 in the declarations,
        # said to the seat itself ("not yours"); the engine's record comes with it
        ill = [m for m in other.sent if m.get("error") == "illegal"][-1]
        assert ill["rule"].startswith("R4") and "turn" in ill["message"] and "yours" in ill["message"]
        assert (
            ill["refusal"]["code"] == "not_your_turn" and ill["refusal"]["fields"]["seat"] == f"p{other.seat.index + 1}"
        )
        # a malformed intent names its field and what it must be (the schema's record)
        shapes = [m for m in c.sent if m.get("error") == "bad_message"]
        assert [(m["refusal"]["code"], m["refusal"]["fields"].get("field")) for m in shapes] == [
            ("field_missing", "seq"),
            ("field_int", "seq"),
            ("field_int", "seq"),
            ("field_unknown", "again"),
            ("field_unknown", "x"),
            ("field_text", "action"),
            ("field_long", "action"),
            ("hello_twice", None),
        ]
        assert shapes[0]["message"] == "seq is missing" and "action, seq" in shapes[3]["message"]
        bad = [m for m in c.sent if m.get("error") == "bad_action"][-1]
        assert bad["refusal"]["code"] == "not_an_action" and bad["rule"] == "R4.12"
        # a refused second hello changes nothing of the connection, its language included
        lang = c.lang
        await hub.receive(c, json.dumps({"type": "hello", "token": "forged", "lang": "it" if lang != "it" else "de"}))
        assert c.sent[-1]["refusal"]["code"] == "hello_twice" and c.lang == lang
        # a hello on /ws/T that names another table is refused, not welcomed to T
        elsewhere = Conn()
        await hub.receive(elsewhere, json.dumps({"type": "hello", "token": "x", "table": "other"}), t.id)
        assert elsewhere.sent[-1]["refusal"]["code"] == "hello_table" and elsewhere.table is None
        # a spectator cannot act; a connection without hello cannot act
        spec = Conn()
        await hub.receive(spec, json.dumps({"type": "hello", "token": made["spectate"].rsplit("/", 1)[1]}), t.id)
        await hub.receive(spec, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]}))
        stranger = Conn()
        await hub.receive(stranger, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]}))
        assert spec.sent[-1]["code"] == "spectator" and stranger.sent[-1]["code"] == "no_hello"
        # wrong and missing tokens: refused and closed
        for token in ("nope", made["creator_token"]):
            bad = Conn()
            await hub.receive(bad, json.dumps({"type": "hello", "token": token}), t.id)
            assert bad.sent[-1]["code"] == "bad_token" and bad.closed_with == (4003, "bad_token")
        for token in (None, 12):  # no token text at all: the message has the wrong shape
            bad = Conn()
            await hub.receive(bad, json.dumps({"type": "hello", "token": token}), t.id)
            assert bad.sent[-1]["error"] == "bad_message" and bad.sent[-1]["refusal"]["fields"]["field"] == "token"
            assert bad.table is None
        nobody = Conn()
        await hub.receive(nobody, json.dumps({"type": "hello", "token": "x"}), "no-such-table")
        assert nobody.sent[-1]["code"] == "no_table" and nobody.closed_with[0] == 4004
        assert table_state(t) == before
        assert len(await _events(store, t.id)) == ev_before
        # the legal intent on the same view is accepted once; sending it again is stale (never twice)
        intent = json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]})
        await hub.receive(c, intent)
        assert t.seq == before[0] + 1
        await hub.receive(c, intent)
        assert c.sent[-1]["code"] == "stale_seq"
        evs = await _events(store, t.id)
        assert [e for e in evs if e[1] == "act"][-1][2]["action"] == v["legal"][0]
        assert sum(1 for e in evs if e[0] == before[0] + 1) == 1
        await hub.close()
        await store.close()

    run(go())


def test_flood_is_rate_limited_and_changes_nothing(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub)
        c = await _until_human_turn(t, conns)
        before = table_state(t)
        v = last_view(c)
        for _ in range(RATE_LIMIT + 10):
            await hub.receive(c, json.dumps({"type": "ping"}))
        codes = [m.get("code") for m in c.sent if m["type"] == "error"]
        assert 10 <= codes.count("rate_limited") <= 11  # the hello may still count in the window
        assert [m["type"] for m in c.sent].count("pong") >= RATE_LIMIT - 1
        await hub.receive(c, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]}))
        assert c.sent[-1]["error"] == "rate_limited" and table_state(t) == before
        await hub.close()
        await store.close()

    run(go())


def test_newer_connection_wins_the_seat(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub)
        c = await _until_human_turn(t, conns)
        token = made["seats"][c.seat.index]["token"]
        newer = Conn()
        await hub.receive(newer, json.dumps({"type": "hello", "token": token, "lang": "nl"}), t.id)
        assert c.sent[-1]["code"] == "replaced" and c.closed_with == (4001, "replaced")
        assert newer.sent[0] == {
            "type": "welcome",
            "table": t.id,
            "role": "seat",
            "seat": f"p{c.seat.index + 1}",
            "protocol": 2,
        }
        before = table_state(t)
        v = last_view(newer)
        await hub.receive(c, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]}))
        assert c.sent[-1]["code"] == "replaced" and table_state(t) == before
        await hub.receive(newer, json.dumps({"type": "act", "action": v["legal"][0], "seq": v["seq"]}))
        assert t.seq == before[0] + 1
        hub.disconnect(c)  # the old transport closing later must not mark the seat away
        assert not any(s["away"] for s in last_view(newer)["seats"] if s["taken"])
        await hub.close()
        await store.close()

    run(go())


@pytest.mark.parametrize(
    "lang,word", [("de", "Platz"), ("nl", "plaats"), ("it", "posto"), ("fr", "place"), ("en", "seat")]
)
def test_refusals_speak_the_players_language(sqlite_url, lang, word):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub)
        c = await _until_human_turn(t, conns)
        token = made["seats"][c.seat.index]["token"]
        mine = Conn()
        await hub.receive(mine, json.dumps({"type": "hello", "token": token, "lang": lang}), t.id)
        other = (c.seat.index + 1) % 3
        await hub.receive(mine, json.dumps({"type": "act", "action": f"p{other + 1} in", "seq": t.seq}))
        assert mine.sent[-1]["code"] == "not_your_seat" and word in mine.sent[-1]["message"]
        await hub.close()
        await store.close()

    run(go())


def test_before_the_start_and_table_requests(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url, allow_test_seeds=False)
        with pytest.raises(SpecError, match="--allow-test-seeds"):
            await hub.create_table({"seats": SEATS3, "seed": 1})
        for body, kind, code, words in [
            ({"seats": SEATS3, "rules": ["bete=lots"]}, SpecError, None, "bete"),  # the rules' own refusal
            ({"seats": SEATS3[:1]}, SpecError, "seat_count", "allowed are 2 to 6 (R2.1)"),
            ({"seats": [{"kind": "bot", "bot": "nobody"}] * 3}, BadMessage, "unknown_bot", "unknown bot"),
            ({"seats": SEATS3, "rules": ["players=4"]}, SpecError, "players_mismatch", "players=4"),
            ({"seats": SEATS3, "rules": ["ante=30"]}, SpecError, "ante_above_stack", "ante 30"),
            ({"seats": SEATS3, "colour": "red"}, BadMessage, "field_unknown", "colour is not a field"),
            ({"seats": SEATS3, "grace_seconds": -1}, BadMessage, "field_min", "grace_seconds must be at least 0"),
            (
                {"seats": [{"kind": "human", "bot": "rules"}] * 2},
                BadMessage,
                "human_bot",
                "seats[0].bot: a human seat has no bot",
            ),
            ({"seats": [{"kind": "robot"}] * 2}, BadMessage, "field_choice", "seats[0].kind must be one of"),
            ({"seats": "human,human"}, BadMessage, "field_list", "seats must be a list"),
            ({"rules": ["end=hands:3"]}, BadMessage, "field_missing", "seats is missing"),
        ]:
            with pytest.raises(kind, match=re.escape(words)) as e:
                await hub.create_table(body)
            assert code is None or e.value.refusal.code == code, body
        assert hub.tables == {} and await store.load() == []
        made, t, conns = await _table(hub, start=False, seed=None)
        c = conns[0]
        await hub.receive(c, json.dumps({"type": "act", "action": "p1 in", "seq": t.seq}))
        assert c.sent[-1]["code"] == "not_started"
        with pytest.raises(Refused) as e:
            await hub.start(t.id, "not-the-creator")
        assert e.value.refusal.code == "bad_token" and t.status == "waiting"
        with pytest.raises(Refused) as e:
            await hub.sit(t.id, made["seats"][1]["token"], "p1")  # P1 is taken, ignoring case (R2.2)
        assert e.value.refusal.code == "name_taken"
        for bad in ("", "   ", "x" * 25, "a\nb", 5):
            with pytest.raises(Refused) as e:
                await hub.sit(t.id, made["seats"][1]["token"], bad)
            assert e.value.refusal.code == "bad_name"
        with pytest.raises(Refused) as e:
            await hub.sit(t.id, "forged", "Eve")
        assert e.value.refusal.code == "bad_token"
        await hub.start(t.id, made["creator_token"])
        with pytest.raises(Refused) as e:
            await hub.start(t.id, made["creator_token"])
        assert e.value.refusal.code == "started"
        # fair shuffles: no seed, the OS CSPRNG, and no view claims to be seeded
        assert isinstance(t._rng, secrets.SystemRandom)
        assert all(not m["test_seeded"] for m in c.sent if m["type"] == "view")
        await hub.close()
        await store.close()

    run(go())


def test_test_seeded_tables_say_so_in_every_view(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub, seed=99)
        await _until_human_turn(t, conns)
        views = [m for c in conns for m in c.sent if m["type"] == "view"]
        assert views and all(v["test_seeded"] is True for v in views)
        await hub.close()
        await store.close()

    run(go())


def test_a_person_takes_over_a_bot_seat_between_hands(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub, rules=["end=hands:2"])
        bot_token = made["seats"][2]["token"]
        n_hand = t.session.hands_played
        res = (await hub.sit(t.id, bot_token, "Cy")).to_json()
        assert res == {"seat": "p3", "pending": True, "token": t.seats[2].personal}
        assert t.seats[2].taken is False  # not in the middle of the hand
        cy = Conn()
        await hub.receive(cy, json.dumps({"type": "hello", "token": res["token"]}), t.id)
        # play the hand out with the humans; the bot still plays p3 in this hand
        while t.session.hands_played == n_hand:
            c = await _until_human_turn(t, conns)
            v = last_view(c)
            await hub.receive(c, json.dumps({"type": "act", "action": v["legal"][-1], "seq": v["seq"]}))
        for _ in range(int(scaled(200))):
            if t.session.hand is not None or t.status == "over":
                break
            await asyncio.sleep(0.01)
        v = last_view(cy)
        p3 = v["seats"][2]
        assert (p3["name"], p3["kind"], p3["taken"]) == ("Cy", "human", True)
        await hub.close()
        await store.close()

    run(go())


def test_grace_period_then_a_bot_plays_the_away_seat_until_the_player_returns(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub, grace_seconds=0.2)
        c = await _until_human_turn(t, conns)
        seat = c.seat.index
        seq = t.seq
        hub.disconnect(c)
        other = next(x for x in conns if x is not c)
        assert last_view(other)["seats"][seat]["away"] is True
        for _ in range(int(scaled(300))):
            if t.seq > seq:
                break
            await asyncio.sleep(0.01)
        assert t.seq > seq  # a bot made the away player's move after the grace period
        evs = await _events(store, t.id)
        assert evs[seq][2]["by"] == "proxy" and evs[seq][2]["action"].startswith(f"p{seat + 1} ")
        back = Conn()
        await hub.receive(back, json.dumps({"type": "hello", "token": made["seats"][seat]["token"]}), t.id)
        v = last_view(back)
        assert v["seats"][seat]["away"] is False and v["seats"][seat]["bot_playing"] is False
        assert v["seq"] == t.seq  # the whole current view on reconnect
        await hub.close()
        await store.close()

    run(go())


def test_a_person_who_sat_down_but_never_connected_is_played_by_a_bot_after_the_grace_period(sqlite_url):
    """Sitting down over HTTP only (no WebSocket) must not stall the table for ever: the seat is
    away from the start, so after the grace period a bot plays it (issue 10, item 7)."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        made = (
            await hub.create_table(
                {
                    "rules": ["end=hands:1"],
                    "seats": SEATS3,
                    "bot_pace_seconds": 0,
                    "hand_pause_seconds": 0,
                    "seed": 5,
                    "grace_seconds": 0.2,
                }
            )
        ).to_json()
        tid = made["table"]
        for i, s in enumerate(made["seats"]):
            if s["kind"] == "human":
                await hub.sit(tid, s["token"], f"P{i + 1}")  # nobody ever connects
        await hub.start(tid, made["creator_token"])
        t = hub.tables[tid]
        for _ in range(int(scaled(1000))):
            if t.status == "over":
                break
            await asyncio.sleep(0.01)
        assert t.status == "over"  # the whole hand was played, by proxies for the absent people
        evs = await _events(store, t.id)
        assert any(e[2].get("by") == "proxy" for e in evs if isinstance(e[2], dict))
        await hub.close()
        await store.close()

    run(go())


def test_turn_timer_lets_a_bot_move_for_a_slow_player(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        made, t, conns = await _table(hub, turn_seconds=1)
        c = await _until_human_turn(t, conns)
        seq = t.seq
        for _ in range(int(scaled(400))):
            if t.seq > seq:
                break
            await asyncio.sleep(0.01)
        evs = await _events(store, t.id)
        assert evs[seq][2]["by"] == "timer" and evs[seq][2]["action"].startswith(f"p{c.seat.index + 1} ")
        await hub.close()
        await store.close()

    run(go())


def test_serve_refuses_bad_options_with_exit_status_2():
    from typer.testing import CliRunner

    from ramsli.cli import app

    r = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and "1..65535" in r.output
    r = CliRunner().invoke(app, ["serve", "--database", "mysql://x@127.0.0.1/db"])
    assert r.exit_code == 2 and "postgresql+asyncpg://" in r.output


def test_serve_on_a_taken_port_says_so_before_announcing_and_exits_2(tmp_path):
    """Fresh-user finding 7: a second ``ramsli serve`` on a taken port announced itself, opened the
    database, then died with uvicorn's raw error and status 3."""
    import socket

    from typer.testing import CliRunner

    from ramsli.cli import app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        db = tmp_path / "s.sqlite"
        r = CliRunner().invoke(app, ["serve", "--port", str(port), "--database", f"sqlite+aiosqlite:///{db}"])
    assert r.exit_code == 2, r.output
    assert "--port" in r.output and "in use" in r.output
    assert "table server at" not in r.output
    assert not db.exists()  # nothing was opened


def test_serve_open_says_so_when_no_browser_opens(monkeypatch, capsys):
    """Fresh-user finding 7: ``--open`` with no browser available silently did nothing."""
    import webbrowser

    from ramsli.commands import serve as serve_cmd

    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    serve_cmd._open("http://127.0.0.1:8000/")
    err = capsys.readouterr().err
    assert "no browser could be opened" in err and "http://127.0.0.1:8000/" in err


def test_serve_help_shows_its_flags_as_flags():
    """Fresh-user finding 10: ``ramsli serve --help`` showed ``--open <bool>``."""
    import re

    from typer.testing import CliRunner

    from ramsli.cli import app

    r = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "120"})
    assert r.exit_code == 0
    for flag in ("--open", "--allow-test-seeds"):
        line = next(ln for ln in r.output.splitlines() if flag in ln)
        assert not re.search(re.escape(flag) + r"\s+<bool>", line), line
