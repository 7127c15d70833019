"""Write ``tests/data/events_1478eba.sqlite``: a database of the table server as the release of
commit ``1478eba`` wrote it, with tables that together use every kind of stored event, and
``tests/data/events_1478eba.json``: the state each table had when that code wrote it.

``tests/test_server_events_migration.py`` opens the database with today's code: every event must
parse into its typed record, give back its stored data, and every table must replay to the state
recorded here. Run it with the old release's code, never today's::

    mkdir -p /tmp/old && git archive 1478eba | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src python scripts/make_events_db.py tests/data

What it stores (kinds of events: ``sit``, ``start``, ``deal``, ``act``, ``pace``, ``chat``,
``rematch``, ``ledger-hand``, ``ledger-edit``, ``ledger-end``):

- ``people``: three people (one says it is a program, ``client: bot``), a bot and an empty seat
  the fill bot plays; chat lines, reactions and phrases; two pace changes; four hands with
  General Rams and targets, every kind of action (``in``, ``out``, ``gr``, ``pass``, ``tN``,
  ``pl``) by the seats, the bot and a proxy (a person who left); a spectator takes over the fill
  bot's seat between hands; the session ends (finished); "Play again" makes ``rematch``;
- ``rematch``: the table "Play again" made, waiting, one person back and a chat line;
- ``timer``: a connected person who never acts, played by the turn timer; in progress;
- two pub ledgers: one with three hands, an edit and its end, one still open.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from ramsli.server import app as app_module
from ramsli.server import social
from ramsli.server.hub import Conn

RULES = ["end=hands:4", "general_rams=true", "targets=true", "starting_stack=60"]


def _state(t: Any) -> dict[str, Any]:
    """What a replayed table must have again."""
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


async def _wait(cond: Any, what: str, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"timed out waiting for {what}")


class Chooser:
    """Picks, among the legal actions, one of the kind played least so far (so every kind shows)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def pick(self, hand: Any) -> Any:
        legal = hand.legal_actions()
        a = min(legal, key=lambda x: self.counts.get(x.kind, 0))
        self.counts[a.kind] = self.counts.get(a.kind, 0) + 1
        return a


async def _play(t: Any, mine: set[int], chooser: Chooser, until: Any) -> None:
    """Act for the seats in ``mine`` (by the seat) until ``until()``; the driver plays the rest."""
    while not until():
        s = t.session
        hand = None if s is None else s.hand
        if hand is not None and hand.to_act in mine:
            await t.intent(hand.to_act, str(chooser.pick(hand)), t.seq)
        else:
            await asyncio.sleep(0.005)


async def _tables(hub: Any) -> list[Any]:
    chooser = Chooser()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rules"}, {"kind": "human"}]
    body = {"rules": RULES, "seats": seats, "bot_pace_seconds": 0, "hand_pause_seconds": 0, "grace_seconds": 3600}
    made = await hub.create_table(dict(body, seed=11))
    t = hub.tables[made["table"]]
    tok = [s["token"] for s in made["seats"]]
    ann = (await hub.sit(t.id, tok[0], "Ann"))["token"]
    await hub.sit(t.id, tok[1], "Bo", client="bot")
    await t.say(t.seats[0], text="  hello\n\tall ")
    await t.say(t.seats[1], code="good_luck")
    await t.set_pace(made["creator_token"], 0.0)
    await hub.start(t.id, made["creator_token"])
    await t.say(t.seats[0], code="thumbs_up")
    mine = {0, 1}
    await _play(t, mine, chooser, lambda: t.session.hands_played >= 1)
    await t.take(made["spectate"].rsplit("/", 1)[1], 3, "Cy")  # the fill bot's seat, from the next deal
    await t.set_pace(made["creator_token"], 0.0)
    await _wait(lambda: t.seats[3].taken, "the takeover")
    mine.add(3)
    await t.say(t.seats[3], text="I am in")
    await _play(t, mine, chooser, lambda: t.session.hands_played >= 2)
    t.leave(t.seats[1])  # a proxy plays Bo's seat from now on (leaving is not stored)
    mine.discard(1)
    await _play(t, mine, chooser, lambda: str(t.status) == "over")
    await t.say(t.seats[0], code="well_played")
    again = await social.rematch(hub, t, ann)
    new = hub.tables[again["table"]]
    await hub.sit(new.id, again["invite"].rsplit("/", 1)[1], "Ann")
    await new.say(new.seats[0], text="one more?")
    print("kinds of action played by the seats:", chooser.counts, file=sys.stderr)

    timed = await hub.create_table(
        {
            "rules": ["end=hands:2"],
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "rules"}],
            "bot_pace_seconds": 0,
            "hand_pause_seconds": 0,
            "turn_seconds": 1,
            "seed": 5,
        }
    )
    tt = hub.tables[timed["table"]]
    dee = (await hub.sit(tt.id, timed["seats"][0]["token"], "Dee"))["token"]
    conn = Conn()
    await hub.receive(conn, json.dumps({"type": "hello", "token": dee}), tt.id)  # connected: the timer plays
    await hub.start(tt.id, timed["creator_token"])
    await _wait(lambda: tt.seq >= 7 and tt.session.hand is not None and tt.session.hand.to_act == 0, "the timer", 120)
    tt.options.turn_seconds = None  # not stored: the table stays in progress, Dee to act, while the rest is written
    return [t, new, tt]


async def _ledgers(client: httpx.AsyncClient) -> list[str]:
    r = await client.post(
        "/api/ledgers",
        json={
            "names": ["Ann", "Bo", "Cy"],
            "preset": "traditional",
            "options": {"general_rams": True, "targets": True},
            "first_dealer": 2,
        },
    )
    assert r.status_code == 201, r.text
    lid, tok = r.json()["ledger"], r.json()["token"]
    for hand in (
        {"active": [0, 1], "tricks": {"0": 3, "1": 2}},
        {"active": [0, 1, 2], "tricks": {"0": 5}, "general_rams": 0},
        {"active": [1, 2], "tricks": {"1": 3, "2": 2}, "targets": {"1": 3}},
    ):
        r = await client.post(f"/api/ledgers/{lid}/hands?token={tok}", json=hand)
        assert r.status_code == 200, r.text
    r = await client.put(f"/api/ledgers/{lid}/hands/1?token={tok}", json={"active": [0, 1], "tricks": {"0": 2, "1": 3}})
    assert r.status_code == 200, r.text
    r = await client.post(f"/api/ledgers/{lid}/end?token={tok}", json={})
    assert r.status_code == 200, r.text
    r = await client.post("/api/ledgers", json={"names": ["Eve", "Fay"], "first_dealer": 0, "cents": True})
    lid2, tok2 = r.json()["ledger"], r.json()["token"]
    r = await client.post(
        f"/api/ledgers/{lid2}/hands?token={tok2}", json={"active": [0, 1], "tricks": {"0": 3, "1": 2}}
    )
    assert r.status_code == 200, r.text
    return [lid, lid2]


async def write(folder: Path) -> dict[str, Any]:
    """Write ``events.sqlite`` in ``folder`` with the old release's server; return the expected states."""
    app_module.hints.warm_up_lab = lambda: None  # no background compile while writing the data
    db = folder / "events.sqlite"
    app = app_module.create_app(f"sqlite+aiosqlite:///{db}", allow_test_seeds=True, create_limit=0)
    expected: dict[str, Any] = {"release": "1478eba", "tables": {}, "ledgers": {}}
    async with app.router.lifespan_context(app):
        hub = app.state.hub
        for t in await _tables(hub):
            expected["tables"][t.id] = _state(t)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            for lid in await _ledgers(client):
                r = await client.get(f"/api/ledgers/{lid}", params={"token": app.state.ledgers[lid].spec["token"]})
                books = r.json()
                expected["ledgers"][lid] = {
                    "stacks": books["stacks"],
                    "pot": books["pot"],
                    "hands": len(books["hands"]),
                    "over": books["over"],
                    "edited": [h["number"] for h in books["hands"] if h["edited"]],
                    "seq": app.state.ledgers[lid].seq,
                }
    return expected


def main(out: Path) -> None:
    folder = Path(tempfile.mkdtemp())
    expected = asyncio.run(write(folder))
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(folder / "events.sqlite", out / "events_1478eba.sqlite")
    (out / "events_1478eba.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data"))
