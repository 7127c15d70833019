"""The stored events as typed records (:mod:`ramsli.server.tables.events`).

- Every event of a database written by the release before the records (``tests/data/
  events_1478eba.sqlite``, made by ``scripts/make_events_db.py`` with that release's code) parses
  into its record and gives back exactly its stored text; every table and ledger in it replays to
  the state that release had (recorded in ``tests/data/events_1478eba.json``).
- Every event a played table stores goes through ``to_data``/``from_data`` unchanged.
- A malformed stored event is refused with a message naming the kind and the key; the table it
  belongs to is broken (``table_broken``), the others are served.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ramsli.refusal import Refused
from ramsli.server.ledger.books import LedgerBook, state_of
from ramsli.server.storage.eventstore import EventStore
from ramsli.server.tables import events, social
from ramsli.server.tables.events import EventError, EventKind, parse_event, parse_ledger_event, parse_table_event
from ramsli.server.tables.table import Table, TableStatus

from helpers import SEATS3, open_hub, scaled, seat_table

run = asyncio.run

DATA = Path(__file__).parent / "data"
OLD_DB = DATA / "events_1478eba.sqlite"
OLD_STATE = json.loads((DATA / "events_1478eba.json").read_text(encoding="utf-8"))


def _stored() -> list[tuple[str, int, str, str]]:
    """Every stored event of the old database as stored: (table, seq, kind, data text)."""
    with contextlib.closing(sqlite3.connect(f"file:{OLD_DB}?immutable=1", uri=True)) as db:  # nothing written beside it
        return list(db.execute("SELECT table_id, seq, kind, data FROM events ORDER BY table_id, seq"))


def _state(t: Table) -> dict[str, Any]:
    """What ``scripts/make_events_db.py`` recorded of each table, read from a table of today."""
    s = t.session
    return {
        "status": str(t.status),
        "seq": t.seq,
        "log_seq": t.log_seq,
        "stacks": None if s is None else list(s.current_stacks()),
        "pot": None if s is None else (s.hand.pot if s.hand is not None else s.pot),
        "hands_played": None if s is None else s.hands_played,
        "in_hand": None if s is None else s.hand is not None,
        "fingerprint": None if s is None or s.hand is None else repr(s.hand.fingerprint()[1:]),
        "deals": len(t.deals),
        "chat": list(t.chat),
        "chat_count": t.chat_count,
        "next_table": t.next_table,
        "pace": t.options.bot_pace_seconds,
        "seats": [
            {
                "name": x.name,
                "taken": x.taken,
                "pending": x.pending,
                "personal": x.personal,
                "external": x.external,
                "since_hand": x.since_hand,
            }
            for x in t.seats
        ],
    }


def test_the_old_database_holds_every_kind_of_event():
    """The database the migration tests read really uses every kind (and every ``by`` of an act,
    and every kind of action): a kind added later needs a new database."""
    stored = _stored()
    assert {kind for _t, _s, kind, _d in stored} == {k.value for k in EventKind}
    acts = [json.loads(d) for _t, _s, kind, d in stored if kind == "act"]
    assert {a["by"] for a in acts} == {"seat", "bot", "proxy", "timer"}
    assert {a["action"].split()[1][:1] for a in acts} == {"i", "o", "g", "p", "t"}  # in out gr pass/pl tN
    assert {a["action"].split()[1] for a in acts} >= {"in", "out", "gr", "pass", "pl", "t2"}
    sits = [json.loads(d) for _t, _s, kind, d in stored if kind == "sit"]
    assert any(s.get("client") == "bot" for s in sits) and any("client" not in s for s in sits)
    chats = [json.loads(d) for _t, _s, kind, d in stored if kind == "chat"]
    assert any("code" in c for c in chats) and any("text" in c for c in chats)


def test_every_event_of_the_previous_release_parses_and_gives_back_its_stored_text():
    """Each stored event parses into the record of its kind, and that record stores exactly the
    same text again (the bytes of today's store, ``json.dumps`` of :meth:`to_data`)."""
    for table_id, seq, kind, text in _stored():
        data = json.loads(text)
        e = parse_event(kind, data)
        assert e.KIND == kind, (table_id, seq)
        assert e.to_data() == data, (table_id, seq, kind)
        assert json.dumps(e.to_data()) == text, (table_id, seq, kind)
        assert type(e).from_data(e.to_data()) == e


def test_every_table_and_ledger_of_the_previous_release_replays_to_its_state(tmp_path):
    """Opened with today's store, every table replays to the state the old release had when it
    wrote them (status, seq, counters, the hand in progress, chat, seats, pace, "Play again"),
    and every ledger to its books."""
    db = tmp_path / "old.sqlite"
    shutil.copyfile(OLD_DB, db)

    async def go():
        store = await EventStore.open(f"sqlite+aiosqlite:///{db}")
        try:
            rows = await store.load()
        finally:
            await store.close()
        return rows

    rows = run(go())
    tables = {r["id"]: r for r in rows if r["spec"].get("kind") != "ledger"}
    ledgers = {r["id"]: r for r in rows if r["spec"].get("kind") == "ledger"}
    assert set(tables) == set(OLD_STATE["tables"]) and set(ledgers) == set(OLD_STATE["ledgers"])
    statuses = set()
    for tid, row in tables.items():
        t = Table.replay(tid, row["spec"], row["events"], store=None)
        assert _state(t) == OLD_STATE["tables"][tid], tid
        statuses.add(t.status)
    assert statuses == set(TableStatus)  # waiting, playing and over
    for lid, row in ledgers.items():
        b = LedgerBook(lid, row["spec"], row["created"])
        for seq, kind, data in row["events"]:
            b.apply(parse_ledger_event(kind, data))
            b.seq = seq
        books = state_of(b, keeper=True)
        want = OLD_STATE["ledgers"][lid]
        got = {
            "stacks": books["stacks"],
            "pot": books["pot"],
            "hands": len(books["hands"]),
            "over": books["over"],
            "edited": [h["number"] for h in books["hands"] if h["edited"]],
            "seq": b.seq,
        }
        assert got == want, lid


def test_a_malformed_stored_event_breaks_its_table_only(tmp_path):
    """A stored deal whose cut is no number: the hub's restore puts that table in ``broken`` with
    a reason naming the event and the key, answers ``table_broken``, and serves the others."""
    db = tmp_path / "old.sqlite"
    shutil.copyfile(OLD_DB, db)
    playing = next(t for t, s in OLD_STATE["tables"].items() if s["status"] == "playing")
    waiting = next(t for t, s in OLD_STATE["tables"].items() if s["status"] == "waiting")
    with contextlib.closing(sqlite3.connect(db)) as c, c:
        seq, text = c.execute(
            "SELECT seq, data FROM events WHERE table_id = ? AND kind = 'deal' ORDER BY seq", (playing,)
        ).fetchone()
        data = json.loads(text)
        data["cut"] = "seven"
        c.execute("UPDATE events SET data = ? WHERE table_id = ? AND seq = ?", (json.dumps(data), playing, seq))

    async def go():
        hub, store = await open_hub(f"sqlite+aiosqlite:///{db}")
        try:
            await hub.restore()
            reason = hub.broken.get(playing, "")
            with pytest.raises(Refused) as refused:
                hub.table(playing)
            return reason, refused.value.refusal.code, waiting in hub.tables, set(hub.broken)
        finally:
            await hub.close()
            await store.close()

    reason, code, served, broken = run(go())
    assert f"event {seq} (deal)" in reason and "cut is not an integer" in reason, reason
    assert code == "table_broken" and served and broken == {playing}


@pytest.mark.parametrize(
    ("kind", "data", "says"),
    [
        ("deal", {"number": 1}, "deck is missing"),
        ("sit", {"seat": 0, "name": "Ann", "token": "x", "colour": "red"}, "unknown key colour"),
        ("sit", {"seat": "0", "name": "Ann"}, "seat is not an integer"),
        ("sit", {"seat": 0, "name": "Ann", "client": "person"}, "client is not 'bot'"),
        ("act", {"action": "p1 fly", "by": "seat"}, "action:"),
        ("act", {"action": "p1 in", "by": "ghost"}, "by is not one of"),
        ("chat", {"seat": 0, "name": "Ann", "text": "hi", "code": "laugh"}, "exactly one"),
        ("chat", {"seat": 0, "name": "Ann"}, "exactly one"),
        (
            "deal",
            {"number": 1, "deck": ["AS", "ZZ"], "cut": 1, "dealer": 0, "stacks": [], "pot": 0, "seated": []},
            "deck:",
        ),
        ("pace", [1.0], "not an object"),
        ("ledger-edit", {"number": 1, "hand": {"active": "all"}}, "hand:"),
        ("ledger-end", {"now": True}, "unknown key now"),
        ("fold", {}, "no kind of stored event"),
    ],
)
def test_a_malformed_event_is_refused_naming_what_is_wrong(kind, data, says):
    with pytest.raises(EventError) as e:
        parse_event(kind, data)
    assert says in str(e.value)
    if kind in {k.value for k in EventKind}:
        assert str(e.value).startswith(f"a stored {kind} event is malformed")


def test_a_ledger_event_is_no_table_event_and_the_reverse():
    with pytest.raises(EventError, match="no event of a card table"):
        parse_table_event("ledger-end", {})
    with pytest.raises(EventError, match="no event of a pub ledger"):
        parse_ledger_event("rematch", {"table": "abc"})


def test_old_shapes_keep_their_shape():
    """Events stored before personal tokens, commitments or recorded times give back the same
    data: the optional keys stay absent."""
    old_sit = {"seat": 1, "name": "Bo"}
    deal = {"number": 1, "deck": ["AS", "KS"], "cut": 1, "dealer": 0, "stacks": [20, 20], "pot": 0, "seated": [0, 1]}
    old_act = {"action": "p2 out", "by": "bot"}
    for kind, data in [("sit", old_sit), ("deal", deal), ("act", old_act)]:
        e = parse_event(kind, data)
        assert e.to_data() == data and json.dumps(e.to_data()) == json.dumps(data)
    e = parse_event("sit", old_sit)
    assert isinstance(e, events.Sit) and e.token is None and not e.external
    a = parse_event("act", old_act)
    assert isinstance(a, events.Act) and a.elapsed is None and a.action.seat == 1


def test_every_event_of_a_played_table_round_trips(sqlite_url):
    """A table played in-process to its end, with chat, a reaction, a pace change, a person who
    leaves (the proxy plays) and "Play again": for every event it stored,
    ``from_data(to_data(e)) == e`` and ``to_data`` is the stored data."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        try:
            made, t, people = await seat_table(hub, SEATS3, rules=["end=hands:2", "targets=true"])
            await t.say(t.seats[0], text="hello")
            await t.say(t.seats[1], code="laugh")
            await t.set_pace(made["creator_token"], 0.0)
            t.leave(t.seats[0])
            t.leave(t.seats[1])  # the proxies play both people's seats from now on
            loop = asyncio.get_running_loop()
            end = loop.time() + scaled(60)
            while t.status is not TableStatus.OVER:
                assert loop.time() < end, "the table did not finish"
                await asyncio.sleep(0.01)
            await social.rematch(hub, t, people[0][0])
            row = await store.load_one(t.id)
            return row["events"]
        finally:
            await hub.close()
            await store.close()

    stored = run(go())
    kinds = set()
    for _seq, kind, data in stored:
        e = parse_event(kind, data)
        kinds.add(e.KIND)
        assert type(e).from_data(e.to_data()) == e
        assert parse_event(e.KIND.value, e.to_data()) == e
        assert e.to_data() == data
    assert kinds == {"sit", "start", "deal", "act", "pace", "chat", "rematch"}


def _records():
    """A hypothesis strategy of records of every kind, with any values their stored data may hold."""
    from hypothesis import strategies as st

    from ramsli.cards import Card
    from ramsli.hand import Action
    from ramsli.ledger import PubHand

    seat = st.integers(0, 5)
    count = st.integers(0, 10_000)
    text = st.text(max_size=30)
    opt_text = st.none() | text
    seconds = st.floats(0, 1e6, allow_nan=False)
    actions = st.sampled_from(
        [Action.parse(f"p{s + 1} {v}") for s in range(6) for v in ("in", "out", "gr", "pass", "t2", "t5")]
    )
    plays = st.builds(Action.play, seat, st.integers(0, 53).map(Card.from_index))
    cards = st.lists(st.integers(0, 53).map(Card.from_index), max_size=54).map(tuple)
    ints = st.lists(count, max_size=6).map(tuple)
    salted = st.none() | st.tuples(st.lists(st.text("0123456789abcdef", max_size=32), max_size=54).map(tuple), text)
    hands = st.builds(
        PubHand,
        active=st.lists(seat, max_size=6).map(tuple),
        tricks=st.dictionaries(seat, st.integers(0, 5), max_size=6),
        general_rams=st.none() | seat,
        targets=st.dictionaries(seat, st.integers(2, 5), max_size=6),
        elapsed=seconds,
    )
    return st.one_of(
        st.builds(events.Sit, seat, text, opt_text, st.booleans()),
        st.builds(events.Start, st.lists(text, max_size=6).map(tuple), seat),
        st.builds(
            lambda n, d, c, dl, s, p, se, sd: events.Deal(n, d, c, dl, s, p, se, *(sd or (None, None))),
            count,
            cards,
            count,
            seat,
            ints,
            count,
            ints,
            salted,
        ),
        st.builds(events.Act, actions | plays, st.sampled_from(["seat", "bot", "proxy", "timer"]), st.none() | seconds),
        st.builds(events.Pace, st.floats(0, 60, allow_nan=False)),
        st.builds(events.Chat, seat, text, text=text) | st.builds(events.Chat, seat, text, code=text),
        st.builds(events.Rematch, text),
        st.builds(events.LedgerHand, hands),
        st.builds(events.LedgerEdit, count, hands),
        st.just(events.LedgerEnd()),
    )


def test_any_record_survives_its_stored_text():
    """Any record, stored as JSON text and read back, is the same record (hypothesis)."""
    from hypothesis import given, settings

    @settings(max_examples=150, deadline=None)
    @given(_records())
    def check(e):
        data = json.loads(json.dumps(e.to_data()))
        assert parse_event(e.KIND.value, data) == e
        assert type(e).from_data(data) == e and data == e.to_data()

    check()
