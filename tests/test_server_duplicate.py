"""Duplicate evenings on the server (issue 35 items 1, 2; R7, D-21), in-process over ASGI.

- Fifteen substitute bots at three tables of five play one duplicate round (hands per round 6:
  10 deals, everyone deals twice): every table is dealt the same cards for deal k (the per-position
  commitments of each table's stored deal, recomputed from its salts with hashlib, are equal
  across the tables, and so are the dealers); the matchpoints and standings are recomputed here from
  the tables' session records alone (nets per hand from the stacks, seats relative to the dealer);
  ``ramsli verify``'s checker passes the download and fails a forged one; no answer holds a card.
- A person at one of two tables of four: the field of a deal is refused (``deal_not_played``,
  in their language, nothing changed) until their own table has played it, then shows the other
  table's public outcome; every frame their seat receives names only cards they may know at their
  own table, no evening answer names a card at all, and the club shows no spectator link or hand
  of the round's tables until the round is over; then both tables' hand downloads carry equal
  commitments for each deal (the same deck).
- The deals survive a restart: the table deals the rest of the round from the stored plan.
- Duplicate needs online tables: ``real_cards``/``mixed`` are refused ``duplicate_online_only``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import tomllib
from fractions import Fraction
from typing import Any

from ramsli.evening.verify import verify_download
from ramsli.server.tables.connection import Connection

from clubworld import Client, World
from helpers import FORBIDDEN_KEYS, cards_in, keys_in, known_cards, scaled, table_state

FAST = {"bot_pace_seconds": 0, "hand_pause_seconds": 0, "grace_seconds": 0}
STARTS = "2026-12-10T20:00+01:00"


def run(coro: Any) -> None:
    asyncio.run(coro)


async def evening(c: Client, **spec: Any) -> str:
    body = {"name": "Duplicate Thursday", "starts": STARTS, "format": "duplicate", **FAST, **spec}
    status, made = await c.call("POST", "/api/evenings", body)
    assert status == 201, made
    return str(made["id"])


async def round_done(w: World, c: Client, eid: str) -> dict[str, Any]:
    deadline = time.monotonic() + scaled(120)
    while True:
        await w.app.state.clubs.settle()
        st: dict[str, Any] = await c.ok("GET", f"/api/evenings/{eid}")
        if st["rounds_played"] and st["rounds_played"][-1]["done"]:
            return st
        assert time.monotonic() < deadline, "the round did not finish"
        await asyncio.sleep(0.05)


def no_card(answer: Any, where: str) -> None:
    """R7, D-21: an evening answer names no card and carries no deck, cut, salt or hand."""
    assert not cards_in(answer), (where, sorted(cards_in(answer))[:5])
    # an evening's "hands" counts a table's hands; its "seed"s are the round seeds opened after each draw
    forbidden = FORBIDDEN_KEYS - {"hands", "seed"}
    assert not keys_in(answer) & forbidden, (where, keys_in(answer) & forbidden)
    assert all(isinstance(x, int) for x in values_of(answer, "hands")), where


def values_of(x: Any, key: str) -> list[Any]:
    """Every value of ``key`` anywhere in a JSON message."""
    if isinstance(x, dict):
        return [v for k, v in x.items() if k == key] + [y for v in x.values() for y in values_of(v, key)]
    if isinstance(x, list):
        return [y for v in x for y in values_of(v, key)]
    return []


def commitments_of(deal: dict[str, Any]) -> list[str]:
    """A stored deal event's per-position commitments, with hashlib alone (docs/fairness.md):
    the deck cut at ``cut`` (the lower packet on top), ``sha256(salt:position:card)``."""
    deck = deal["deck"]
    order = deck[deal["cut"] :] + deck[: deal["cut"]]
    return [hashlib.sha256(f"{s}:{i}:{c}".encode()).hexdigest() for i, (s, c) in enumerate(zip(deal["salts"], order))]


def lot(commitment: str, p: str) -> str:
    return hashlib.sha256(f"{commitment}|{p}".encode()).hexdigest()


def test_a_duplicate_round_of_three_tables_of_five_bots(sqlite_url):
    """Issue 35 item 1: the same deck at every table, matchpoints and standings recomputed from
    the session records, the download verified, a forged one refused by the checker."""

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            eid = await evening(ann, rounds=1, hands_per_round=6)
            for _ in range(15):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
            started = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            tables = started["rounds_played"][0]["tables"]
            assert [len(t["seats"]) for t in tables] == [5, 5, 5] and [t["hands"] for t in tables] == [10] * 3
            st = await round_done(w, ann, eid)
            answers = [started, st]

            # the same cards for deal k at every table: equal commitments, position by position
            deals: dict[str, dict[int, dict[str, Any]]] = {}
            for t in tables:
                row = await w.hub.database.load_one(t["table"])
                deals[t["table"]] = {d["number"]: d for _s, kind, d in row["events"] if kind == "deal"}
            ids = [t["table"] for t in tables]
            hands = min(len(deals[tid]) for tid in ids)
            assert hands >= 5  # a table may end early only if a seat went bust (R3.5)
            keys = {}
            for k in range(1, hands + 1):
                same = {json.dumps(commitments_of(deals[tid][k])) for tid in ids}
                assert len(same) == 1, f"deal {k} differs between tables"
                assert len({deals[tid][k]["dealer"] for tid in ids}) == 1  # one dealer seat per deal
                assert len({tuple(deals[tid][k]["deck"]) for tid in ids}) == 1
                keys[k] = hashlib.sha256("".join(json.loads(same.pop())).encode()).hexdigest()
            dealers = [deals[ids[0]][k]["dealer"] for k in range(1, hands + 1)]
            assert dealers == [(dealers[0] + k) % 5 for k in range(hands)]  # the deal passes to the left (R3.2)
            assert len({tuple(deals[ids[0]][k]["deck"]) for k in range(1, hands + 1)}) == hands  # new cards each deal

            # matchpoints by hand, from the session records only
            pct: dict[str, list[Fraction]] = {}
            field: dict[str, Fraction] = {}
            tops: dict[str, int] = {}
            records = {tid: (await w.directory.record(tid))["data"] for tid in ids}
            seats_of = {t["table"]: [s["id"] for s in t["seats"]] for t in tables}
            for k in range(1, hands + 1):
                rows = []
                for tid in ids:
                    h = records[tid]["hands"]
                    if len(h) < k:
                        continue
                    before = [20] * 5 if k == 1 else h[k - 2]["stacks"]
                    nets = [a - b for a, b in zip(h[k - 1]["stacks"], before)]
                    d = h[k - 1]["dealer"]
                    rows.append([(seats_of[tid][(d + s) % 5], nets[(d + s) % 5]) for s in range(5)])
                for s in range(5):
                    col = [r[s] for r in rows]
                    mean = Fraction(sum(n for _p, n in col), len(col))
                    top = 2 * (len(col) - 1)
                    for p, n in col:
                        mp = 2 * sum(1 for _q, m in col if m < n) + sum(1 for _q, m in col if m == n) - 1
                        pct.setdefault(p, []).append(Fraction(100 * mp, top) if top else Fraction(50))
                        field[p] = field.get(p, Fraction(0)) + n - mean
                        tops[p] = tops.get(p, 0) + (top > 0 and mp == top)
            people = [p["id"] for p in st["people"]]
            mean_pct = {p: sum(pct[p]) / len(pct[p]) for p in people}
            want = sorted(people, key=lambda p: (-mean_pct[p], -field[p], -tops[p], lot(st["commitment"], p)))
            got = st["standings"]
            assert [s["id"] for s in got] == want
            assert [s["score"] for s in got] == [round(float(mean_pct[p]), 2) for p in want]
            assert [s["net_vs_mean"] for s in got] == [round(float(field[p]), 2) for p in want]
            assert [s["firsts"] for s in got] == [tops[p] for p in want]

            # the download: per-deal results and keys; ramsli verify recomputes them
            dl = await ann.ok("GET", f"/api/evenings/{eid}/download.json")
            answers.append(dl)
            rdeals = dl["rounds_played"][0]["deals"]
            assert [d["hand"] for d in rdeals] == list(range(1, hands + 1))
            for d in rdeals:
                assert {t["deal_key"] for t in d["tables"]} == {keys[d["hand"]]}
            findings = verify_download(dl)
            assert all(f.ok for f in findings), [f for f in findings if not f.ok]
            assert {f.what for f in findings} >= {"deals", "deal_keys", "standings"}
            forged = json.loads(json.dumps(dl))
            forged["rounds_played"][0]["deals"][0]["tables"][0]["seats"][0]["net"] += 7  # a result claimed
            assert any(not f.ok and f.what == "standings" for f in verify_download(forged))
            forged = json.loads(json.dumps(dl))
            forged["rounds_played"][0]["deals"][1]["tables"][2]["deal_key"] = "0" * 64  # another deck
            assert any(not f.ok and f.what == "deal_keys" for f in verify_download(forged))
            forged = json.loads(json.dumps(dl))
            seats = forged["rounds_played"][0]["deals"][0]["tables"][0]["seats"]
            seats[0]["participant"], seats[1]["participant"] = seats[1]["participant"], seats[0]["participant"]
            assert any(not f.ok and f.what == "deals" for f in verify_download(forged))

            # the field of a deal after the round, for someone not seated in it
            f1 = await ann.ok("GET", f"/api/evenings/{eid}/deals/1/1")
            answers.append(f1)
            (sec,) = f1["sections"]
            assert sec["size"] == 5 and [t["played"] for t in sec["tables"]] == [True] * 3
            assert {t["deal_key"] for t in sec["tables"]} == {keys[1]}
            for t in sec["tables"]:
                assert [s["seat"] for s in t["seats"]] == list(range(5))
                for s in t["seats"]:
                    assert s["pct"] == round(float(pct[s["id"]][0]), 2)
                    assert set(s) >= {"declared", "announced", "tricks", "won", "paid", "net", "mp", "max"}
            secret = (await w.directory.evening(eid, secret=True))["secret"]["duplicate"]["1"]["5"]
            hidden = {secret["bot_seed"], *(x for d in secret["deals"] for x in d["salts"])}
            for a in answers:
                no_card(a, "duplicate evening")
                text = json.dumps(a)
                assert not [x for x in hidden if x in text]  # no salt, no bot seed of the deals
            # a client cannot submit a result: no route takes one
            status, _ = await ann.call("POST", f"/api/evenings/{eid}/deals/1/1", {"net": 99})
            assert status == 405

    run(go())


class SeatConn(Connection):
    """Bo's seat at his table: every frame it receives may name only the cards Bo may know there
    at that moment (R7: the turn-up, the cards played at his table, his own cards)."""

    def __init__(self, w: World, table_id: str, seat: int, failures: list[str]) -> None:
        super().__init__()
        self.w, self.table_id, self.seat, self.failures = w, table_id, seat, failures
        self.frames = 0

    def deliver(self, msg: dict[str, Any]) -> None:
        super().deliver(msg)
        self.frames += 1
        t = self.w.hub.tables[self.table_id]
        hand, _n = t.current_hand()
        known = known_cards(hand, self.seat) if hand is not None else set()
        leaked = cards_in(msg) - known
        if leaked:
            self.failures.append(f"seat {self.seat} was sent {sorted(leaked)}")


def test_the_field_of_a_deal_only_after_ones_own_table_played_it(sqlite_url):
    """Issue 35 item 2, R7, D-21: Bo's field of a deal is refused until his own table has played
    it (translated, nothing changed), then shows the other table's public outcome, never a card."""

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            bo = w.client("de")
            await bo.register("Bo")
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            invite = await ann.ok("POST", f"/api/clubs/{club}/invites")
            await bo.ok("POST", "/api/clubs/join", {"token": invite["token"]})
            eid = await evening(ann, club=club, rounds=1, hands_per_round=2, grace_seconds=3600)
            await bo.ok("POST", f"/api/evenings/{eid}/check-in")
            for _ in range(7):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
            started = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            tables = started["rounds_played"][0]["tables"]
            assert [len(t["seats"]) for t in tables] == [4, 4]
            mine = next(t for t in tables if any(s["name"] == "Bo" for s in t["seats"]))
            other = next(t for t in tables if t is not mine)
            t = w.hub.tables[mine["table"]]
            seat = next(i for i, s in enumerate(mine["seats"]) if s["name"] == "Bo")
            failures: list[str] = []
            conn = SeatConn(w, t.id, seat, failures)
            t.attach(t.seats[seat], conn)
            answers: list[Any] = []

            # the other table (bots only) plays all its hands; Bo's waits for him
            o = w.hub.tables[other["table"]]
            deadline = time.monotonic() + scaled(60)
            while str(o.status) != "over":
                assert time.monotonic() < deadline, "the other table did not finish"
                await asyncio.sleep(0.02)
            assert t.session is not None and t.session.hands_played == 0

            before = (await w.app.state.evenings.get(eid)).seq, table_state(t)
            for k in (1, 2):
                status, answer = await bo.call("GET", f"/api/evenings/{eid}/deals/1/{k}")
                assert status == 409 and answer["code"] == "deal_not_played", answer
                assert answer["rule"] == "D-21" and "Tisch" in answer["message"], answer  # in Bo's language
                answers.append(answer)
            status, answer = await ann.call("GET", f"/api/evenings/{eid}/deals/1/1")
            assert status == 409 and answer["code"] == "field_after_round", answer  # Ann sits at no table
            status, answer = await bo.call("GET", f"/api/evenings/{eid}/deals/1/9")
            assert status == 404 and answer["code"] == "no_deal", answer
            status, answer = await bo.call("GET", f"/api/evenings/{eid}/deals/2/1")
            assert status == 404 and answer["code"] == "no_deal", answer
            assert ((await w.app.state.evenings.get(eid)).seq, table_state(t)) == before  # nothing changed

            # nor through the club: no spectator link of the round's tables, no hand of the other's (D-21)
            await w.app.state.clubs.settle()
            info_ = await bo.ok("GET", f"/api/clubs/{club}")
            ours = [x for x in info_["tables"] if x["table"] in (t.id, o.id)]
            assert len(ours) == 2 and all(x["spectate"] is None for x in ours), ours
            sheet = await bo.ok("GET", f"/api/clubs/{club}/sessions/{o.id}")
            assert sheet["links"]["hands"] == [] and "watch" not in sheet["links"]
            status, answer = await bo.call("GET", f"/api/clubs/{club}/sessions/{o.id}/hands/1.toml")
            assert status == 409 and answer["code"] == "field_after_round", answer
            assert not cards_in(info_) and not cards_in(sheet)

            async def play_hand() -> None:
                """Bo plays his table's current hand to its end (his first legal move each time)."""
                s = t.session
                assert s is not None
                number = s.hands_played + 1
                deadline = time.monotonic() + scaled(60)
                while s.hands_played < number and str(t.status) != "over":
                    assert time.monotonic() < deadline, "Bo's hand did not end"
                    hand = s.hand
                    if hand is not None and hand.to_act == seat:
                        await t.intent(seat, str(hand.observe(seat).legal[0]), t.seq)
                    else:
                        await asyncio.sleep(0.01)

            await play_hand()
            f1 = await bo.ok("GET", f"/api/evenings/{eid}/deals/1/1")
            answers.append(f1)
            (sec,) = f1["sections"]
            assert [x["played"] for x in sec["tables"]] == [True, True]
            assert len({x["deal_key"] for x in sec["tables"]}) == 1  # one deck for deal 1 (its commitments)
            theirs = next(x for x in sec["tables"] if x["number"] == other["number"])
            assert {s["id"] for s in theirs["seats"]} == {s["id"] for s in other["seats"]}
            assert all(s["max"] == 2 for x in sec["tables"] for s in x["seats"])
            status, answer = await bo.call("GET", f"/api/evenings/{eid}/deals/1/2")  # deal 2: not yet
            assert status == 409 and answer["code"] == "deal_not_played"
            answers.append(answer)
            answers.append(await bo.ok("GET", f"/api/evenings/{eid}"))
            await play_hand()
            answers.append(await bo.ok("GET", f"/api/evenings/{eid}/deals/1/2"))
            while str(t.status) != "over":  # a table of four plays 4 hands (everyone deals once)
                await play_hand()
            st = await round_done(w, bo, eid)
            answers.append(st)
            answers.append(await bo.ok("GET", f"/api/evenings/{eid}/download.json"))
            assert [s["id"] for s in st["standings"]] and st["standings"][0]["score"] >= 50
            # the round is over: the club reads its hands as before, and each table's downloads show
            # the same deck for each deal: equal commitments, every opening matching its table's own
            for k in range(1, 5):
                seen = []
                for tid in (t.id, o.id):
                    status, text = await bo.call("GET", f"/api/clubs/{club}/sessions/{tid}/hands/{k}.toml")
                    assert status == 200, text
                    fair = tomllib.loads(text)["fairness"]
                    for op in fair["openings"]:
                        digest = hashlib.sha256(f"{op['salt']}:{op['position']}:{op['card']}".encode()).hexdigest()
                        assert digest == fair["commitments"][op["position"]]
                    seen.append(fair["commitments"])
                assert seen[0] == seen[1], f"deal {k}: the tables' commitments differ"

            assert conn.frames > 0 and not failures, failures[:3]
            for a in answers:
                no_card(a, "Bo's evening answers")

    run(go())


def test_duplicate_is_played_online_only(sqlite_url):
    """A duplicate evening with real cards or mixed tables is refused, and nothing is made."""

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client("nl")
            await ann.register("Ann")
            for mode in ("cards", "mixed"):
                status, answer = await ann.call(
                    "POST",
                    "/api/evenings",
                    {"name": "Dup", "starts": STARTS, "format": "duplicate", "mode": mode},
                )
                assert status == 422 and answer["code"] == "duplicate_online_only", answer
                assert "{" not in answer["message"] and mode in answer["message"]
            assert await w.directory.evenings() == []
            eid = await evening(ann, rounds=1)
            status, answer = await ann.call("GET", f"/api/evenings/{eid}/deals/1/1")
            assert status == 404 and answer["code"] == "no_deal"
            lot_eid = await evening(ann, format="lot", rounds=1)
            status, answer = await ann.call("GET", f"/api/evenings/{lot_eid}/deals/1/1")
            assert status == 409 and answer["code"] == "not_duplicate"

    run(go())


def test_the_deals_survive_a_restart(sqlite_url):
    """The section's deals are stored (the evening's secret, the table's spec): after a restart
    the table deals the rest of the round from them, hand k's deck, cut, dealer and salts as planned."""

    async def bo_plays(t: Any, seat: int, hands: int) -> None:
        s = t.session
        deadline = time.monotonic() + scaled(60)
        while s.hands_played < hands and str(t.status) != "over":
            assert time.monotonic() < deadline, "Bo's hands did not end"
            hand = s.hand
            if hand is not None and hand.to_act == seat:
                await t.intent(seat, str(hand.observe(seat).legal[0]), t.seq)
            else:
                await asyncio.sleep(0.01)

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            bo = w.client()
            await bo.register("Bo")
            eid = await evening(ann, rounds=1, hands_per_round=1, grace_seconds=3600)
            await bo.ok("POST", f"/api/evenings/{eid}/check-in")
            for _ in range(2):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
            started = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            (mine,) = started["rounds_played"][0]["tables"]
            tid = mine["table"]
            seat = next(i for i, s in enumerate(mine["seats"]) if s["name"] == "Bo")
            await bo_plays(w.hub.tables[tid], seat, 1)
        async with World(sqlite_url) as w:  # a restart: the table is replayed, the plan read from its spec
            t = w.hub.tables[tid]
            assert t.session.hands_played == 1
            await bo_plays(t, seat, 3)
            assert str(t.status) == "over"
            plan = (await w.directory.evening(eid, secret=True))["secret"]["duplicate"]["1"]["3"]["deals"]
            row = await w.hub.database.load_one(tid)
            dealt = [d for _s, kind, d in row["events"] if kind == "deal"]
            assert len(dealt) == len(plan) == 3  # a table of three deals 3 hands (everyone once)
            for d, p in zip(dealt, plan):
                assert (d["deck"], d["cut"], d["dealer"], d["salts"]) == (p["deck"], p["cut"], p["dealer"], p["salts"])

    run(go())


def test_a_bot_gets_the_same_seed_at_every_table_for_the_same_deal_and_seat():
    """Substitute bots are part of the deal: the seed of a bot's hand is fixed by the section's bot
    seed, the hand and the duplicate seat (the seat counted from the dealer), whatever table it is at."""
    from types import SimpleNamespace

    from ramsli.server.tables.bot_driver import BotDriver

    def driver(bot_seed: str | None) -> BotDriver:
        return BotDriver(SimpleNamespace(duplicate=None if bot_seed is None else {"bot_seed": bot_seed}, seats=[0] * 5))

    a, b = driver("ab" * 16), driver("ab" * 16)
    assert a._duplicate_seed(2, 3, 1, "bot") == b._duplicate_seed(4, 3, 3, "bot")  # duplicate seat 1 of deal 3
    assert a._duplicate_seed(2, 3, 1, "bot") != a._duplicate_seed(3, 3, 1, "bot")  # another seat
    assert a._duplicate_seed(2, 3, 1, "bot") != a._duplicate_seed(2, 4, 2, "bot")  # another deal
    assert a._duplicate_seed(2, 3, 1, "bot") != driver("cd" * 16)._duplicate_seed(2, 3, 1, "bot")  # another section
    assert driver(None)._duplicate_seed(2, 3, 1, "bot") is None  # not a duplicate table: seeded as before
