"""Club evenings and tournaments on the server (issue 34), in-process over ASGI with the real app.

- A Zaisertshofen-style evening: 23 checked-in participants (8 club members and 15 substitute
  bots) over three rounds of the ``final`` format (two qualifying rounds by lot, then a Final of 5
  and a Small final of 5), every table played by bots at pace 0; the standings are checked against
  an independent scorer written here from the stored session records (100 (p - 1) / (N - 1) of the
  placement points, the written tie-breaks, the final's reordering), the draw is recomputed from
  the download with ``hashlib`` only (the seed chain, the split 23 -> 5 5 5 4 4, Fisher-Yates from
  the end, the finalists' tables), ``ramsli verify``'s checker agrees, the club's season table and
  ratings count every evening table, and no state, download or audit trail holds a card, a token
  or a seed not yet opened (R7, D-16).
- A real-card evening: re-seats before the first hand (new ledgers), the captain keeps the ledger
  through ``/me``, a non-captain and a former captain are refused, the ledgers' results count.
- A pause stops a table (moves refused ``table_paused``, the bot driver idle) and survives a
  restart; a re-seat between rounds is the next round's swap; a weekly evening that closes makes
  the next; every refusal of every route is a record in the request's language and changes nothing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import math
import time
from fractions import Fraction
from typing import Any

import pytest

from ramsli.evening.check import row_check
from ramsli.evening.verify import verify_download
from ramsli.refusal import Refused
from ramsli.server.evenings.log import CheckIn, Entry, EntryKind, parse_record
from ramsli.server.tables.bot_driver import BotDriver
from ramsli.server.tables.views import info, view

from clubworld import Client, World
from helpers import cards_in, scaled

#: a fast evening: bots at pace 0, no pause between hands, an away person's seat played at once
FAST = {"bot_pace_seconds": 0, "hand_pause_seconds": 0, "grace_seconds": 0}
STARTS = "2026-12-10T20:00+01:00"


def run(coro: Any) -> None:
    asyncio.run(coro)


class Recorder:
    """Every answer of the evening routes, for the R7 scans."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, str, Any]] = []

    def wrap(self, c: Client) -> Client:
        call = c.call

        async def recorded(method: str, path: str, body: Any = None, csrf: bool = True, **kw: Any) -> tuple[int, Any]:
            status, answer = await call(method, path, body, csrf, **kw)
            if "/evenings" in path:
                self.answers.append((method, path, answer))
            return status, answer

        c.call = recorded  # type: ignore[method-assign]
        return c


async def evening(c: Client, **spec: Any) -> str:
    body = {"name": "Thursday at the Linde", "starts": STARTS, **FAST, **spec}
    status, made = await c.call("POST", "/api/evenings", body)
    assert status == 201, made
    assert set(made) == {"id", "url", "commitment"} and made["url"] == f"/e/{made['id']}"
    return str(made["id"])


async def state(c: Client, eid: str) -> dict[str, Any]:
    answer: dict[str, Any] = await c.ok("GET", f"/api/evenings/{eid}")
    return answer


async def round_done(w: World, c: Client, eid: str, timeout: float = scaled(120.0)) -> dict[str, Any]:
    """The state once the last round's every table has its result (its session record)."""
    deadline = time.monotonic() + timeout
    while True:
        await w.app.state.clubs.settle()
        st = await state(c, eid)
        if st["rounds_played"] and st["rounds_played"][-1]["done"]:
            return st
        assert time.monotonic() < deadline, json.dumps(st["rounds_played"][-1])[:2000]
        await asyncio.sleep(0.05)


async def refused(c: Client, method: str, path: str, body: Any, code: str, status: int | None = None) -> dict[str, Any]:
    got, answer = await c.call(method, path, body)
    assert isinstance(answer, dict) and answer.get("code") == code, (method, path, got, answer)
    if status is not None:
        assert got == status, (code, got)
    assert answer["message"] and "{" not in answer["message"], answer
    return answer


async def people(w: World, names: list[str], club: str | None = None, owner: Client | None = None) -> list[Client]:
    out = []
    invite = None
    if club is not None and owner is not None:
        invite = await owner.ok("POST", f"/api/clubs/{club}/invites")
    for name in names:
        c = w.client()
        await c.register(name)
        if invite is not None:
            await c.ok("POST", "/api/clubs/join", {"token": invite["token"]})
        out.append(c)
    return out


# -- an independent reading of the rules: hashlib and fractions only ------------------------------


def seed_down(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def numbers(seed: str, rnd: int, label: str):
    k = 0
    while True:
        digest = hashlib.sha256(f"ramsli-evening|{seed}|{rnd}|{label}|{k}".encode()).digest()
        yield int.from_bytes(digest[:8], "big")
        k += 1


def shuffle(ids: list[str], seed: str, rnd: int, label: str) -> list[str]:
    out = list(ids)
    it = numbers(seed, rnd, label)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = 2**64 - 2**64 % n
        x = next(it)
        while x >= limit:
            x = next(it)
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def cut(order: list[str], sizes: list[int]) -> list[list[str]]:
    out, at = [], 0
    for n in sizes:
        out.append(order[at : at + n])
        at += n
    return out


def sizes_of(count: int) -> list[int]:
    t = math.ceil(count / 5)
    while count // t < 3:
        t -= 1
    q, r = divmod(count, t)
    return [q + 1] * r + [q] * (t - r)


def scores(nets: list[int]) -> list[Fraction]:
    n = len(nets)
    pts = [n - sum(v > x for v in nets) - Fraction(sum(v == x for v in nets) - 1, 2) for x in nets]
    return [100 * (p - 1) / (n - 1) for p in pts]


def expected_standings(
    ids: list[str], tables: list[tuple[int, str, list[str], list[int]]], commitment: str
) -> list[tuple[str, Fraction, str]]:
    """(participant, qualifying score, note) best first, from (round, kind, seats, nets) per table."""
    score = {p: Fraction(0) for p in ids}
    vs_mean = {p: Fraction(0) for p in ids}
    firsts = dict.fromkeys(ids, 0)
    final_place: dict[str, dict[str, int]] = {"final": {}, "small_final": {}}
    for _rnd, kind, seats, nets in tables:
        sc = scores(nets)
        mean = Fraction(sum(nets), len(nets))
        for i, p in enumerate(seats):
            place = 1 + sum(v > nets[i] for v in nets)
            if kind == "qualifying":
                score[p] += sc[i]
                vs_mean[p] += nets[i] - mean
                firsts[p] += place == 1
            else:
                final_place[kind][p] = place

    def lot(p: str) -> str:
        return hashlib.sha256(f"{commitment}|{p}".encode()).hexdigest()

    qual = sorted(ids, key=lambda p: (-score[p], -vs_mean[p], -firsts[p], lot(p)))
    order: list[tuple[str, Fraction, str]] = []
    for kind in ("final", "small_final"):
        group = final_place[kind]
        order += [(p, score[p], kind) for p in sorted(group, key=lambda p: (group[p], qual.index(p)))]
    done = {p for p, _s, _k in order}
    return order + [(p, score[p], "") for p in qual if p not in done]


def tokens_of(w: World, table_ids: list[str], ledger_ids: list[str]) -> set[str]:
    """Every token of the evening's tables and ledgers (creator, spectator, invite and personal)."""
    out: set[str] = set()
    for tid in table_ids:
        t = w.hub.tables[tid]
        out |= {t.creator_token, t.spectator_token}
        out |= {s.token for s in t.seats} | {s.personal for s in t.seats if s.personal}
    for lid in ledger_ids:
        b = w.app.state.ledgers.books[lid]
        out |= {b.spec["token"], b.spec["follow_token"]}
    assert len(out) > len(table_ids) + len(ledger_ids)
    return out


def assert_r7(answers: list[tuple[str, str, Any]], secrets_: set[str]) -> None:
    """No answer holds a card; no state, download or audit trail holds a token or a secret seed."""
    for method, path, answer in answers:
        assert not cards_in(answer), (method, path)
        if path.endswith("/me"):
            continue
        text = json.dumps(answer)
        leaked = [s for s in secrets_ if s and s in text]
        assert not leaked, (method, path, leaked[:1])


# -- the big one ------------------------------------------------------------------------------------


def test_a_final_evening_of_23_people_and_bots_checked_against_an_independent_scorer(sqlite_url):
    """Issue 34 items 1-4 and 6, R2.1, R3.3, R7: 8 members and 15 substitute bots, two
    qualifying rounds by lot (23 -> 5 5 5 4 4) and a final round (Final of 5, Small final of 5,
    13 sit out); standings, draw and seeds recomputed independently; the club counts every table."""

    async def go():
        rec = Recorder()
        async with World(sqlite_url) as w:
            ann = rec.wrap(w.client())
            await ann.register("Ann")
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            members = [ann] + [rec.wrap(c) for c in await people(w, [f"Player {i}" for i in range(2, 9)], club, ann)]
            eid = await evening(
                ann, club=club, format="final", rounds=2, hands_per_round=1, final_size=5, small_final=True
            )
            secret = (await w.directory.evening(eid, secret=True))["secret"]
            seeds = secret["seeds"]
            st = await state(ann, eid)
            assert st["status"] == "open" and st["round"] == 0 and st["rounds_total"] == 3 and st["seeds"] == {}
            assert st["commitment"] == seed_down(seeds[0])  # the commitment is public from the start
            for k in (1, 2):
                assert seeds[k - 1] == seed_down(seeds[k])  # a reverse hash chain
            for c in members:
                await c.ok("POST", f"/api/evenings/{eid}/check-in")
            for _ in range(15):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
            st = await state(ann, eid)
            ids = [p["id"] for p in st["people"]]
            assert len(ids) == 23 and sum(p["kind"] == "bot" for p in st["people"]) == 15
            assert {p["name"] for p in st["people"] if p["kind"] == "bot"} >= {"Bot 1 (easy)", "Bot 15 (easy)"}
            assert all(p["checked_in"] and p["from_round"] == 1 for p in st["people"])

            table_ids: list[str] = []
            for rnd in (1, 2, 3):
                started = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
                assert started["status"] == "running" and started["round"] == rnd
                assert set(started["seeds"]) == {str(r) for r in range(1, rnd + 1)}
                for later in range(rnd, 3):  # a seed not opened yet is in no answer (R7)
                    assert all(seeds[later] not in json.dumps(a) for _m, _p, a in rec.answers)
                table_ids += [t["table"] for t in started["rounds_played"][-1]["tables"]]
                st = await round_done(w, ann, eid)
            for c in members:  # everyone sat at the last round's tables or sat out
                status, me = await c.call("GET", f"/api/evenings/{eid}/me")
                assert status in (200, 404), me
            assert st["rounds_played"][0]["kind"] == "qualifying"
            assert [len(t["seats"]) for t in st["rounds_played"][0]["tables"]] == [5, 5, 5, 4, 4]
            assert [t["hands"] for t in st["rounds_played"][0]["tables"]] == [5, 5, 5, 4, 4]  # everyone deals once
            final = st["rounds_played"][2]
            assert [t["name"] for t in final["tables"]] == ["Final", "Small final"]
            assert len(final["byes"]) == 13

            # the standings, from the stored records by an independent scorer
            records = {t: await w.directory.record(t) for t in table_ids}
            played = []
            for r in st["rounds_played"]:
                for t in r["tables"]:
                    data = records[t["table"]]["data"]
                    nets = [s["net"] for s in data["seats"]]
                    assert sum(nets) + data["pot"] == 0  # counters are conserved (R3.3)
                    seated = [s["id"] for s in t["seats"]]
                    played.append((r["round"], t["kind"], seated, nets))
                    assert [x["net"] for x in t["results"]] == nets
            want = expected_standings(ids, played, st["commitment"])
            got = st["standings"]
            assert [(s["id"], s["note"]) for s in got] == [(p, note) for p, _s, note in want]
            assert [s["score"] for s in got] == [round(float(x), 2) for _p, x, _n in want]
            assert [s["rank"] for s in got] == list(range(1, 24))
            assert all(len(s["rounds"]) == 3 for s in got)

            # the download, recomputed with hashlib only
            dl = await ann.ok("GET", f"/api/evenings/{eid}/download.json")
            assert dl["kind"] == "ramsli-evening" and dl["version"] == 1 and dl["best"] == 5
            assert set(dl["participants"]) == set(ids)
            for r in dl["rounds_played"]:
                seed = dl["seeds"][str(r["round"])]
                down = seed
                for _ in range(r["round"]):
                    down = seed_down(down)
                assert down == dl["commitment"]
                if r["kind"] == "qualifying":
                    assert r["sizes"] == sizes_of(len(r["participants"])) == [5, 5, 5, 4, 4]
                    assert r["drawn"] == cut(shuffle(sorted(r["participants"]), seed, r["round"], "lot"), r["sizes"])
                else:
                    qual = expected_standings(ids, [x for x in played if x[1] == "qualifying"], dl["commitment"])
                    order = [p for p, _s, _n in qual][:10]
                    assert r["order"] == order and r["sizes"] == [5, 5]
                    assert r["drawn"] == [shuffle(order[:5], seed, 3, "table1"), shuffle(order[5:], seed, 3, "table2")]
                assert r["tables"] == r["drawn"] and r["swaps"] == []
            assert [s["participant"] for s in dl["standings"]] == [p for p, _s, _n in want]
            kinds = [e["kind"] for e in dl["log"]]
            assert kinds.count("start_round") == 3 and set(kinds) <= {k.value for k in EntryKind}
            for row in await w.directory.evening_log(eid):  # each stored entry reads back as it was
                assert parse_record(row["kind"], row["data"]).to_data() == row["data"]
            assert all(f.ok for f in verify_download(dl)), [f for f in verify_download(dl) if not f.ok]

            # the club's season table and ratings count every table of the evening
            season = await ann.ok("GET", f"/api/clubs/{club}/seasons/current")
            assert set(table_ids) <= {s["record"] for s in season["sessions"]}
            ann_row = next(r for r in season["rows"] if r["name"] == "Ann")
            assert ann_row["sessions"] == sum(1 for x in played if st["people"][0]["id"] in x[2])
            info_ = await ann.ok("GET", f"/api/clubs/{club}")
            assert {r["name"] for r in info_["ratings"]} >= {"Ann", "easy"}
            assert info_["next_evening"]["id"] == eid and info_["next_evening"]["status"] == "running"

            # R7: no card in any answer; no token, no secret in a state, a download or the audit trail
            await ann.ok("POST", f"/api/evenings/{eid}/close")
            assert_r7(rec.answers, tokens_of(w, table_ids, []))
            texts = [a["text"] for a in (await state(ann, eid))["audit"]]
            assert texts[0] == "Ann created the evening" and texts[-1] == "Ann closed the evening"
            assert "Ann started round 3: its tables are drawn and its seed is open" in texts

    run(go())


# -- real cards --------------------------------------------------------------------------------------


def test_a_real_card_evening_kept_by_its_captains(sqlite_url):
    """Issue 34 item 5: six people, two real-card tables of three; a re-seat before the first
    hand makes new ledgers; each captain books the hands through the keeper link of ``/me``; a
    non-captain and a former captain are refused (``not_keeper``); the results count as online."""

    async def go():
        rec = Recorder()
        async with World(sqlite_url) as w:
            cs = [rec.wrap(c) for c in await people(w, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])]
            ann = cs[0]
            eid = await evening(ann, mode="cards", format="lot", rounds=1, hands_per_round=4)
            for c in cs:
                await c.ok("POST", f"/api/evenings/{eid}/check-in")
            pid = {p["name"]: p["id"] for p in (await state(ann, eid))["people"]}
            by_id = {pid[n]: c for n, c in zip(["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"], cs)}
            await refused(ann, "POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"}, "cards_no_bots", 409)
            await ann.ok("POST", f"/api/evenings/{eid}/reseat", {"a": pid["Ann"], "b": pid["Bo"]})  # the next draw's
            st = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            r1 = st["rounds_played"][0]
            assert r1["swaps"] == [[pid["Ann"], pid["Bo"]]]
            assert all(t["mode"] == "cards" and t["table"] is None and t["ledger"] for t in r1["tables"])
            t1, t2 = r1["tables"]
            assert t1["captain"] == t1["seats"][0]["id"] and t1["hands"] == 4
            # the prints of a drawn round (item 5): the PDF of table lists and score sheets, the CSV, the QR
            for path, kind in (
                ("sheets.pdf", "application/pdf"),
                ("standings.csv", "text/csv"),
                ("qr.svg", "image/svg"),
            ):
                got = await ann.http.get(f"/api/evenings/{eid}/{path}")
                assert got.status_code == 200 and got.headers["content-type"].startswith(kind), (path, got.text[:300])
            assert (await ann.http.get(f"/api/evenings/{eid}/sheets.pdf")).content.startswith(b"%PDF")
            # the printed sheet's check digit of each row (item 5), the same the ledger shows
            assert t1["checks"] == [row_check(eid, 1, 1, k) for k in (1, 2, 3, 4)]

            # a re-seat of this round before its first hand: both tables get new ledgers
            x, y = t1["seats"][1]["id"], t2["seats"][2]["id"]
            old = (t1["ledger"], t2["ledger"])
            st = await ann.ok("POST", f"/api/evenings/{eid}/reseat", {"a": x, "b": y})
            t1, t2 = st["rounds_played"][0]["tables"]
            assert t1["seats"][1]["id"] == y and t2["seats"][2]["id"] == x
            assert t1["ledger"] not in old and t2["ledger"] not in old
            assert st["rounds_played"][0]["swaps"][-1] == [x, y]
            status, _gone = await ann.call("GET", f"/api/ledgers/{old[0]}?token=x")
            assert status in (404, 410)

            # the captain keeps the ledger; the others follow it
            captain = by_id[t1["captain"]]
            other = by_id[t1["seats"][1]["id"]]
            keep = await captain.ok("GET", f"/api/evenings/{eid}/me")
            follow = await other.ok("GET", f"/api/evenings/{eid}/me")
            assert keep["captain"] and keep["url"].startswith(f"/l/{t1['ledger']}/") and "/follow/" not in keep["url"]
            assert not follow["captain"] and follow["url"].startswith(f"/l/{t1['ledger']}/follow/")
            ktok, ftok = keep["url"].rsplit("/", 1)[1], follow["url"].rsplit("/", 1)[1]
            hands = [
                {"active": [0, 1], "tricks": {"0": 3, "1": 2}},
                {"active": [1, 2], "tricks": {"1": 1, "2": 4}},
                {"active": [0, 2], "tricks": {"0": 5, "2": 0}},
                {"active": [0, 3], "tricks": {"0": 2, "3": 3}},
            ]
            lid = t1["ledger"]
            before = await captain.ok("GET", f"/api/ledgers/{lid}?token={ktok}")
            assert before["evening"] == {"id": eid, "round": 1, "table": 1, "name": t1["name"]}
            assert before["next_check"] == row_check(eid, 1, 1, 1)
            booked = await captain.ok("POST", f"/api/ledgers/{lid}/hands?token={ktok}", hands[0])
            assert booked["hands"][0]["check"] == row_check(eid, 1, 1, 1) and booked["next_check"] == row_check(
                eid, 1, 1, 2
            )
            answer = await refused(other, "POST", f"/api/ledgers/{lid}/hands?token={ftok}", hands[1], "not_keeper", 403)
            assert answer["error"] == "bad_token"
            await refused(ann, "POST", f"/api/evenings/{eid}/reseat", {"a": x, "b": y}, "reseat_dealt", 409)

            # the director names another captain: the old keeper link keeps nothing any more
            st = await ann.ok("POST", f"/api/evenings/{eid}/captain", {"table": 1, "participant": t1["seats"][1]["id"]})
            assert st["rounds_played"][0]["tables"][0]["captain"] == t1["seats"][1]["id"]
            await refused(captain, "POST", f"/api/ledgers/{lid}/hands?token={ktok}", hands[1], "not_keeper", 403)
            await refused(
                ann, "POST", f"/api/evenings/{eid}/captain", {"table": 1, "participant": x}, "not_at_table", 409
            )
            keep2 = await other.ok("GET", f"/api/evenings/{eid}/me")
            assert keep2["captain"] and "/follow/" not in keep2["url"]
            ktok2 = keep2["url"].rsplit("/", 1)[1]
            for h in hands[1:]:
                await other.ok("POST", f"/api/ledgers/{lid}/hands?token={ktok2}", h)
            # the director's own keeper links, and table 2 booked through one of them
            me = await ann.ok("GET", f"/api/evenings/{eid}/me")
            links = {k["table"]: k["url"] for k in me["keep"]}
            assert set(links) == {1, 2}
            tok2 = links[2].rsplit("/", 1)[1]
            for h in hands:
                await ann.ok("POST", f"/api/ledgers/{t2['ledger']}/hands?token={tok2}", h)
            st = await round_done(w, ann, eid)
            for p, body in (("pause", {"table": 1, "paused": True}), ("captain", {"table": 2, "participant": y})):
                await refused(ann, "POST", f"/api/evenings/{eid}/{p}", body, "table_done", 409)
            await refused(ann, "POST", f"/api/evenings/{eid}/rounds", {}, "no_more_rounds", 409)
            books = await ann.ok("GET", f"/api/ledgers/{lid}?token={ktok2}")
            assert books["over"]
            nets = {r["name"]: r["net"] for r in books["standings"]}
            res = st["rounds_played"][0]["tables"][0]["results"]
            names = {p["id"]: p["name"] for p in st["people"]}
            assert [r["net"] for r in res] == [nets[names[r["id"]]] for r in res]
            assert sorted(r["score"] for r in res) == sorted(
                float(round(x, 2)) for x in scores([r["net"] for r in res])
            )
            assert st["standings"][0]["score"] == max(s["score"] for s in st["standings"])
            dl = await ann.ok("GET", f"/api/evenings/{eid}/download.json")
            assert all(r["mode"] == "cards" for r in dl["rounds_played"][0]["results"])
            assert all(f.ok for f in verify_download(dl))
            assert_r7(rec.answers, tokens_of(w, [], [lid, t2["ledger"]]) | {ktok, ftok})

    run(go())


# -- pause, re-seat between rounds, recurring -----------------------------------------------------


def test_a_paused_table_does_not_move_and_stays_paused_after_a_restart(tmp_path):
    """Issue 34 item 2: while paused no move is accepted (``table_paused``), no bot, timer or deal
    acts, and the views say so; the pause is in the evening's log and set again after a restart."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}"

    async def go():
        async with World(url) as w:
            ann = w.client()
            await ann.register("Ann")
            eid = await evening(ann, hands_per_round=60, bot_pace_seconds=0.5, turn_seconds=5)
            await ann.ok("POST", f"/api/evenings/{eid}/check-in")
            for _ in range(2):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
            st = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            tid = st["rounds_played"][0]["tables"][0]["table"]
            st = await ann.ok("POST", f"/api/evenings/{eid}/pause", {"table": 1, "paused": True})
            assert st["rounds_played"][0]["tables"][0]["status"] == "paused"
            t = w.hub.tables[tid]
            assert t.paused and view(t, None)["paused"] and info(t)["paused"]
            assert view(t, None)["evening"] == {"id": eid, "round": 1, "table": 1, "name": "Table 1"}
            assert BotDriver(t).next_job(time.monotonic()) is None and t.timer_due() is None
            me = next(s for s in t.seats if s.taken)
            with pytest.raises(Refused) as e:
                await t.intent(me.index, "p1 in", t.seq)
            assert e.value.refusal.code == "table_paused"
            assert not await t.deal_next()
            seq = t.seq
            st = await ann.ok("DELETE", f"/api/evenings/{eid}/check-in")  # a withdrawal: the away bot plays on
            assert st["people"][0]["withdrawn"] and me.left and t.proxy_playing(me)
        async with World(url) as w:  # a restart: the log pauses the table again before it runs
            t = w.hub.tables[tid]
            assert t.paused and t.seq == seq
            assert BotDriver(t).next_job(time.monotonic()) is None
            ann2 = w.client()
            await ann2.ok("POST", "/api/login", {"name": "Ann", "password": "a good password"})
            st = await ann2.ok("POST", f"/api/evenings/{eid}/pause", {"table": 1, "paused": False})
            assert not t.paused and st["rounds_played"][0]["tables"][0]["status"] == "playing"
            texts = [a["text"] for a in st["audit"]]
            assert texts[-3:] == [
                "Ann paused table 1 of round 1",
                "Ann withdrew: no table from round 2 on",
                "Ann let table 1 of round 1 go on",
            ]
            await ann2.ok("POST", f"/api/evenings/{eid}/pause", {"table": 1, "paused": True})  # ends it quietly

    run(go())


def test_a_reseat_between_rounds_is_the_next_rounds_swap_and_a_late_arrival_plays_from_then(sqlite_url):
    """Issue 34 item 2: a re-seat between rounds is applied after the next draw (recorded as its
    swap); a check-in after round 1 started plays from round 2; a check-out after one's first
    round is a withdrawal; ``results`` draws round 2 by the standings."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, cy = await people(w, ["Ann", "Bo", "Cy"])
            eid = await evening(ann, format="results", rounds=2, hands_per_round=1)
            for c in (ann, bo):
                await c.ok("POST", f"/api/evenings/{eid}/check-in")
            for _ in range(5):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
            await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            st = await cy.ok("POST", f"/api/evenings/{eid}/check-in")  # late: from round 2
            cy_id = st["me"]["id"]
            assert next(p for p in st["people"] if p["id"] == cy_id)["from_round"] == 2
            await refused(cy, "GET", f"/api/evenings/{eid}/me", None, "no_evening_seat", 404)
            st = await round_done(w, ann, eid)
            ids = {p["name"]: p["id"] for p in st["people"]}
            await refused(
                ann, "POST", f"/api/evenings/{eid}/reseat", {"a": ids["Ann"], "b": ids["Ann"]}, "reseat_same", 422
            )
            await ann.ok("POST", f"/api/evenings/{eid}/reseat", {"a": ids["Bo"], "b": ids["Bot 1 (easy)"]})
            st = await bo.ok("DELETE", f"/api/evenings/{eid}/check-in")  # Bo withdraws after round 1
            assert next(p for p in st["people"] if p["id"] == ids["Bo"])["withdrawn"]
            await ann.ok("POST", f"/api/evenings/{eid}/reseat", {"a": ids["Ann"], "b": ids["Bot 2 (easy)"]})
            st = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            r2 = st["rounds_played"][1]
            assert ids["Bo"] not in r2["byes"] and cy_id in [s["id"] for t in r2["tables"] for s in t["seats"]]
            assert r2["swaps"] == [[ids["Ann"], ids["Bot 2 (easy)"]]]  # Bo's swap lapsed with Bo's withdrawal
            dl = await ann.ok("GET", f"/api/evenings/{eid}/download.json")
            r2d = dl["rounds_played"][1]
            assert r2d["order"] is not None and len(r2d["participants"]) == 7
            assert all(f.ok for f in verify_download(dl)), [f for f in verify_download(dl) if not f.ok]
            await round_done(w, ann, eid)
            dl = await ann.ok("GET", f"/api/evenings/{eid}/download.json")
            assert all(f.ok for f in verify_download(dl))

    run(go())


def test_a_weekly_evening_that_closes_makes_the_next_and_the_club_lists_them(sqlite_url):
    """Issue 34 item 1: a recurring club evening closes and the next one is made a week later
    with its own seeds; the club's list and info show them; the director deletes one."""

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            (bo,) = await people(w, ["Bo"], club, ann)
            eid = await evening(ann, club=club, recurring="weekly", members_only=True)
            first = await state(ann, eid)
            st = await ann.ok("POST", f"/api/evenings/{eid}/close")
            assert st["status"] == "closed" and st["next"]["url"] == f"/e/{st['next']['id']}"
            nxt = await state(bo, st["next"]["id"])
            assert nxt["starts"] == "2026-12-17T20:00+01:00" and nxt["recurring"] == "weekly"
            assert nxt["commitment"] != first["commitment"] and nxt["status"] == "open"
            listed = await bo.ok("GET", f"/api/clubs/{club}/evenings")
            assert [e["id"] for e in listed["upcoming"]] == [nxt["id"]] and [e["id"] for e in listed["past"]] == [eid]
            assert (await bo.ok("GET", f"/api/clubs/{club}"))["next_evening"]["id"] == nxt["id"]
            await refused(bo, "POST", f"/api/evenings/{eid}/check-in", None, "evening_closed", 409)
            await refused(bo, "DELETE", f"/api/evenings/{nxt['id']}", None, "not_director", 403)
            assert (await ann.ok("DELETE", f"/api/evenings/{nxt['id']}")) == {"id": nxt["id"], "deleted": True}
            await refused(ann, "GET", f"/api/evenings/{nxt['id']}", None, "no_evening", 404)

    run(go())


# -- refusals -------------------------------------------------------------------------------------------


async def _snapshot(w: World, eid: str) -> Any:
    row = await w.directory.evening(eid, secret=True)
    return row, await w.directory.evening_log(eid), sorted(w.hub.tables)


def test_every_refusal_is_a_record_in_the_request_language_and_changes_nothing(sqlite_url):
    """Issue 34, *Bad input and security*: creating with bad input, checking in twice, after the
    close, as a non-member, in two evenings at once; director actions by anyone else; rounds that
    cannot start; deleting while tables play: each refused with its code, nothing changed."""

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            (bo,) = await people(w, ["Bo"], club, ann)
            dan, eve = await people(w, ["Dan", "Eve"])
            guest = w.client("de")
            base = {"name": "Thursday", "starts": STARTS}
            for body, code in [
                ({**base, "name": " "}, "bad_evening_name"),
                ({**base, "starts": "Thursday"}, "bad_starts"),
                ({**base, "starts": "2026-12-10T20:00"}, "bad_starts"),
                ({**base, "format": "duplicate", "mode": "mixed"}, "duplicate_online_only"),
                ({**base, "members_only": True}, "members_need_club"),
                ({**base, "recurring": "weekly"}, "recurring_needs_club"),
                ({**base, "rules": ["end=hands:3"]}, "evening_end_rule"),
                ({**base, "club": "nope"}, "no_club"),
                ({**base, "rounds": 13}, "field_max"),
                ({**base, "preset": "nonsense"}, None),
            ]:
                got, answer = await ann.call("POST", "/api/evenings", body)
                assert got >= 400 and (code is None or answer["code"] == code), (body, answer)
            await refused(bo, "POST", "/api/evenings", {**base, "club": club}, "not_owner", 403)
            await refused(dan, "POST", "/api/evenings", {**base, "club": club}, "not_member", 403)
            answer = await refused(guest, "POST", "/api/evenings", base, "not_logged_in", 401)
            assert "melde" in answer["message"].lower() or "anmeld" in answer["message"].lower()
            assert await w.directory.evenings() == []

            eid = await evening(ann, club=club, members_only=True, rounds=1, hands_per_round=60, bot_pace_seconds=1)
            other = await evening(dan, hands_per_round=1)
            path = f"/api/evenings/{eid}"
            await refused(dan, "GET", path, None, "not_member", 403)
            await refused(guest, "GET", path, None, "not_logged_in", 401)
            await refused(dan, "POST", f"{path}/check-in", None, "not_member", 403)
            await refused(bo, "DELETE", f"{path}/check-in", None, "not_checked_in", 409)
            await refused(ann, "POST", f"{path}/rounds", {}, "too_few", 409)
            await refused(ann, "GET", "/api/evenings/nope", None, "no_evening", 404)
            await bo.ok("POST", f"{path}/check-in")
            await refused(bo, "POST", f"{path}/check-in", None, "already_checked_in", 409)
            await refused(ann, "POST", f"{path}/substitutes", {"level": "grandmaster"}, "bad_level", 422)
            await refused(ann, "POST", f"{path}/withdraw", {"participant": "nobody"}, "no_participant", 404)
            await refused(ann, "POST", f"{path}/pause", {"table": 1, "paused": True}, "no_evening_table", 404)
            await refused(ann, "POST", f"{path}/rounds", {"cards": [1]}, "cards_only_mixed", 422)
            for _ in range(2):
                await ann.ok("POST", f"{path}/substitutes", {"level": "easy"})
            before = await _snapshot(w, eid)
            director_calls = [
                ("POST", f"{path}/rounds", {}),
                ("POST", f"{path}/withdraw", {"participant": "bot:easy:1"}),
                ("POST", f"{path}/substitutes", {"level": "easy"}),
                ("POST", f"{path}/reseat", {"a": "bot:easy:1", "b": "bot:easy:2"}),
                ("POST", f"{path}/pause", {"table": 1, "paused": True}),
                ("POST", f"{path}/captain", {"table": 1, "participant": "bot:easy:1"}),
                ("POST", f"{path}/close", None),
                ("DELETE", path, None),
            ]
            for method, p, body in director_calls:
                await refused(bo, method, p, body, "not_director", 403)
            assert await _snapshot(w, eid) == before

            st = await ann.ok("POST", f"{path}/rounds", {})
            assert st["status"] == "running"
            await dan.ok("POST", f"/api/evenings/{other}/check-in")
            before = await _snapshot(w, eid)
            await refused(ann, "POST", f"{path}/rounds", {}, "round_running", 409)
            await refused(ann, "POST", f"{path}/close", None, "round_running", 409)
            await refused(ann, "DELETE", path, None, "evening_playing", 409)
            await refused(ann, "POST", f"{path}/captain", {"table": 1, "participant": "x"}, "not_cards_table", 409)
            await refused(ann, "POST", f"{path}/pause", {"table": 2, "paused": True}, "no_evening_table", 404)
            await refused(ann, "POST", f"{path}/reseat", {"a": "bot:easy:1", "b": "bot:easy:2"}, "reseat_dealt", 409)
            assert await _snapshot(w, eid) == before
            # Bo plays in a running evening: another evening's check-in is refused
            await refused(bo, "POST", f"/api/evenings/{other}/check-in", None, "in_other_evening", 409)
            # the schema: a wrong type names its field, in the request's language
            answer = await refused(guest, "POST", f"{path}/pause", {"table": "1", "paused": True}, "field_int", 422)
            assert answer["fields"]["field"] == "table" and answer["message"].startswith("table")

    run(go())


def test_a_mixed_evening_keeps_bots_off_its_real_card_tables_and_reads_the_tables_it_names(sqlite_url):
    """Issue 34 item 5: the director names the real-card tables of a mixed round before the draw;
    a table the draw gave a substitute bot is replaced by one without (the director learns nothing
    of the draw from a refusal); more real-card tables than tables without a bot is
    ``bot_at_cards`` (saying how many, not which); a number not drawn is refused."""

    async def go():
        async with World(sqlite_url) as w:
            cs = await people(w, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"])
            ann = cs[0]
            eid = await evening(ann, mode="mixed", rounds=1, hands_per_round=1)
            for c in cs:
                await c.ok("POST", f"/api/evenings/{eid}/check-in")
            await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})  # 7: tables of 4 and 3
            await refused(ann, "POST", f"/api/evenings/{eid}/rounds", {"cards": [3]}, "no_evening_table", 404)
            before = await _snapshot(w, eid)
            answer = await refused(ann, "POST", f"/api/evenings/{eid}/rounds", {"cards": [1, 2]}, "bot_at_cards", 409)
            assert answer["fields"] == {"asked": 2, "free": 1}  # how many, not which: the draw stays unknown
            assert await _snapshot(w, eid) == before
            assert len(w.hub.tables) == 0 and not w.app.state.ledgers.books  # nothing of it was made
            # table 1 asked for; if the draw gave it the bot, the table without one plays with real cards
            st = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {"cards": [1]})
            tables = st["rounds_played"][0]["tables"]
            with_bot = next(t["number"] for t in tables if any(s["kind"] == "bot" for s in t["seats"]))
            assert tables[with_bot - 1]["mode"] == "online" and tables[2 - with_bot]["mode"] == "cards"
            assert any(s["kind"] == "bot" for s in tables[with_bot - 1]["seats"])
            # the substitute sits at the online table under its evening name, marked a bot (item 2)
            t = w.hub.tables[tables[with_bot - 1]["table"]]
            bots = [s for s in tables[with_bot - 1]["seats"] if s["kind"] == "bot"]
            assert [t.seats[int(b["seat"][1:]) - 1].name for b in bots] == [b["name"] for b in bots]
            assert all(t.seats[int(b["seat"][1:]) - 1].bot for b in bots)
            assert all(s["kind"] == "person" for s in tables[2 - with_bot]["seats"])

    run(go())


def test_the_starts_field_reads_an_offset_and_the_evening_keeps_it():
    from ramsli.server.evenings.service import parse_starts

    assert parse_starts("2026-12-10T20:00+01:00") == dt.datetime(2026, 12, 10, 19, 0, tzinfo=dt.UTC)
    with pytest.raises(Refused):
        parse_starts("2026-12-10")


def test_a_database_of_the_release_before_evenings_upgrades_keeping_its_clubs_and_seasons(tmp_path):
    """Migration ``0006_evenings``: a database at ``0005`` with a club, its season and a record
    upgrades with everything as it was (``seasons.best_of`` NULL), and goes down and up again."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config
    from sqlalchemy.ext.asyncio import create_async_engine

    from ramsli.server.storage.eventstore import MIGRATIONS

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite'}"

    def to(sync_conn: Any, revision: str, down: bool = False) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = sync_conn
        (command.downgrade if down else command.upgrade)(cfg, revision)

    async def go():
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(to, "0005_kind_and_running")
            await conn.execute(
                sa.text("INSERT INTO players (id, kind, name, listed, created) VALUES ('p1', 'person', 'Ann', 0, 1.0)")
            )
            await conn.execute(
                sa.text("INSERT INTO clubs (id, name, created, created_by) VALUES ('c1', 'Zur Linde', 1.0, 'p1')")
            )
            await conn.execute(
                sa.text(
                    "INSERT INTO seasons (id, club_id, name, starts, ends, created) "
                    "VALUES ('s1', 'c1', 'Winter', '2026-10-01', '2027-03-31', 1.0)"
                )
            )
            await conn.run_sync(to, "head")
            rows = (await conn.execute(sa.text("SELECT id, name, starts, ends, best_of FROM seasons"))).all()
            assert [tuple(r) for r in rows] == [("s1", "Winter", "2026-10-01", "2027-03-31", None)]
            names = set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))
            assert {"evenings", "evening_log"} <= names
            await conn.run_sync(to, "0005_kind_and_running", True)
            names = set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))
            assert not ({"evenings", "evening_log"} & names)
            cols = await conn.run_sync(lambda c: [x["name"] for x in sa.inspect(c).get_columns("seasons")])
            assert "best_of" not in cols
            assert (await conn.execute(sa.text("SELECT name FROM seasons"))).scalar() == "Winter"
            await conn.run_sync(to, "head")
        await engine.dispose()
        async with World(url) as w:  # today's server opens it
            assert (await w.directory.seasons("c1"))[0]["best_of"] is None

    run(go())


def test_two_writers_of_one_entry_store_it_once_and_the_second_is_told(sqlite_url):
    """An evening's log is appended optimistically: when another process stores the same entry
    number first, the request is refused ``evening_busy`` with nothing of it stored; again, it works."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, dan = await people(w, ["Ann", "Bo", "Dan"])
            eid = await evening(ann)
            d = w.directory
            original = d.append_evening_log
            dan_id = (await dan.ok("GET", "/api/me"))["player"]["id"]

            async def another_process_first(evening_id, entry, status=None, secret=None):
                d.append_evening_log = original
                other = {**entry, "by": dan_id, "data": {"participant": dan_id, "name": "Dan", "from_round": 1}}
                assert await original(evening_id, other)
                return await original(evening_id, entry, status, secret)

            d.append_evening_log = another_process_first
            await refused(bo, "POST", f"/api/evenings/{eid}/check-in", None, "evening_busy", 409)
            st = await state(ann, eid)
            assert [p["name"] for p in st["people"]] == ["Dan"]
            st = await bo.ok("POST", f"/api/evenings/{eid}/check-in")
            assert [p["name"] for p in st["people"]] == ["Dan", "Bo"]

    run(go())


def test_a_table_of_bots_only_counts_too(sqlite_url):
    """Every evening table gets its session record when it ends, also one that no club owns and
    no person plays at (such a session rates nobody): the round is done, the standings have it."""

    async def go():
        async with World(sqlite_url) as w:
            (ann,) = await people(w, ["Ann"])
            eid = await evening(ann, hands_per_round=1)
            for level in ("easy", "easy", "easy"):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": level})
            st = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            tid = st["rounds_played"][0]["tables"][0]["table"]
            st = await round_done(w, ann, eid)
            record = await w.directory.record(tid)
            assert record is not None and not record["rated"] and record["club_id"] is None
            assert [s["id"] for s in st["standings"]] and all(s["kind"] == "bot" for s in st["standings"])
            assert sorted(s["score"] for s in st["standings"]) == sorted(
                float(round(x, 2)) for x in scores([x["net"] for x in record["data"]["seats"]])
            )

    run(go())


def test_a_club_calendar_feed_opens_with_its_key_and_a_season_counts_the_best_evenings(sqlite_url):
    """Issue 34 items 1 and 6: the club's ``.ics`` lists its evenings (a weekly series as one
    ``RRULE``, its hour kept in its time zone across summer time) for a calendar app that has no
    login, through the key in the link the club page gives its members; without the key only a
    member reads it. A season scored "best 1 of M evenings" counts each member's best evening."""
    import icalendar

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            (bo,) = await people(w, ["Bo"], club, ann)
            eid = await evening(ann, club=club, recurring="weekly", starts="2027-03-25T20:00+01:00[Europe/Berlin]")
            st = await ann.ok("POST", f"/api/evenings/{eid}/close")
            nxt = await state(ann, st["next"]["id"])
            assert nxt["starts"] == "2027-04-01T20:00+02:00[Europe/Berlin]"  # 20:00 again, in summer time
            info = await bo.ok("GET", f"/api/clubs/{club}")
            link = info["calendar"]
            assert link.startswith(f"/api/clubs/{club}/evenings.ics?key=") and len(link.split("key=")[1]) >= 20
            assert (await ann.ok("GET", f"/api/clubs/{club}"))["calendar"] == link  # one key per club
            stranger = w.client()
            status, text = await stranger.call("GET", link)
            assert status == 200, text
            cal = icalendar.Calendar.from_ical(text)
            events = [e for e in cal.walk("VEVENT")]
            assert sorted(str(e["UID"]).split("@")[0] for e in events) == sorted(
                f"evening-{x}" for x in (eid, nxt["id"])
            )
            assert [str(e["URL"]).endswith(f"/e/{nxt['id']}") for e in events if "RRULE" in e] == [True]
            for bad in (f"/api/clubs/{club}/evenings.ics", f"/api/clubs/{club}/evenings.ics?key=wrong"):
                await refused(stranger, "GET", bad, None, "not_member", 403)
            status, text = await bo.call("GET", f"/api/clubs/{club}/evenings.ics")  # a member, logged in
            assert status == 200 and "BEGIN:VCALENDAR" in text
            await refused(stranger, "GET", "/api/clubs/nope/evenings.ics?key=x", None, "no_club", 404)

            # a season "best 1 of M evenings": two closed evenings of bots and Ann, Bo
            season = await ann.ok(
                "POST",
                f"/api/clubs/{club}/seasons",
                {"name": "Spring", "starts": "2030-01-01", "ends": "2030-12-31", "best_of": 1},
            )
            sid = season["season"]["id"]
            assert season["season"]["best_of"] == 1
            for day in ("2030-01-10", "2030-01-17"):
                e = await evening(
                    ann, club=club, format="lot", rounds=1, hands_per_round=3, starts=f"{day}T20:00+01:00"
                )
                for c in (ann, bo):
                    await c.ok("POST", f"/api/evenings/{e}/check-in")
                await ann.ok("POST", f"/api/evenings/{e}/substitutes", {"level": "easy"})
                await ann.ok("POST", f"/api/evenings/{e}/rounds", {})
                await round_done(w, ann, e)
                await ann.ok("POST", f"/api/evenings/{e}/close")
            table = await bo.ok("GET", f"/api/clubs/{club}/seasons/{sid}")
            rows = {r["name"]: r for r in table["best_of"]["rows"]}
            assert table["best_of"]["n"] == 1 and set(rows) == {"Ann", "Bo"}
            for r in rows.values():
                assert r["evenings"] == 2 and len(r["counted"]) == 1
                assert r["score"] == max(x[1] for x in r["counted"]) and r["score"] <= r["total"]
            assert [r["rank"] for r in table["best_of"]["rows"]][0] == 1


def test_readers_at_once_apply_a_new_entry_once(sqlite_url):
    """Found by ``bench/event.py`` (forty people asking ``/me`` as the round starts): two requests
    that read the same new log entries at once share the cached fold; each entry is applied once,
    both are answered (before: ``entry N follows entry N``, a 500)."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo = await people(w, ["Ann", "Bo"])
            eid = await evening(ann)
            await state(ann, eid)  # the fold is cached at the create entry
            bo_id = (await bo.ok("GET", "/api/me"))["player"]["id"]
            entry = Entry(2, time.time(), bo_id, CheckIn(bo_id, "Bo", 1))  # stored by another process
            assert await w.directory.append_evening_log(eid, entry.to_row())
            d = w.directory
            original = d.evening_log
            waiting: list[asyncio.Event] = []

            async def both_read_before_either_applies(evening_id, after=0):
                rows = await original(evening_id, after)
                if len(waiting) < 2:
                    waiting.append(asyncio.Event())
                    mine = waiting[-1]
                    if len(waiting) == 2:
                        for e in waiting:
                            e.set()
                    await asyncio.wait_for(mine.wait(), scaled(30))
                return rows

            d.evening_log = both_read_before_either_applies
            first, second = await asyncio.gather(state(ann, eid), state(bo, eid))
            d.evening_log = original
            assert len(waiting) == 2
            for st in (first, second):
                assert [p["name"] for p in st["people"]] == ["Bo"]
                assert [e["seq"] for e in st["audit"]] == [1, 2]

    run(go())


def test_one_table_at_a_time_a_full_evening_a_whole_real_card_table_and_sane_dates(sqlite_url, monkeypatch):
    """Issue 34, bad input: a person checked in to two evenings is not seated in the second while
    the first's round seats them (``playing_elsewhere``, nothing made); an evening takes at most
    ``MAX_PARTICIPANTS`` (``evening_full``); an evening's real-card table is not ended before its
    hands (``evening_ledger_end``: its result would count as a whole table); a start outside the
    years an evening may have is ``bad_starts`` (the calendar and the next weekly evening need it)."""
    from ramsli.server.evenings import service

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, cy, di = await people(w, ["Ann", "Bo", "Cy", "Di"])
            a = await evening(ann, format="lot", rounds=1, hands_per_round=30, grace_seconds=600)
            b = await evening(ann, format="lot", rounds=1, hands_per_round=3, name="Friday Cup")
            for c in (bo, cy):
                for e in (a, b):
                    await c.ok("POST", f"/api/evenings/{e}/check-in")
            await ann.ok("POST", f"/api/evenings/{a}/substitutes", {"level": "easy"})
            await ann.ok("POST", f"/api/evenings/{b}/substitutes", {"level": "easy"})
            await ann.ok("POST", f"/api/evenings/{a}/rounds", {})
            before = await _snapshot(w, b)
            tables = len(w.hub.tables)
            answer = await refused(ann, "POST", f"/api/evenings/{b}/rounds", {}, "playing_elsewhere", 409)
            assert answer["fields"]["evening"] == "Thursday at the Linde" and answer["fields"]["name"] in ("Bo", "Cy")
            assert await _snapshot(w, b) == before and len(w.hub.tables) == tables  # nothing made

            monkeypatch.setattr(service, "MAX_PARTICIPANTS", 3)
            await refused(ann, "POST", f"/api/evenings/{b}/substitutes", {"level": "easy"}, "evening_full", 409)
            await refused(di, "POST", f"/api/evenings/{b}/check-in", None, "evening_full", 409)
            monkeypatch.setattr(service, "MAX_PARTICIPANTS", 200)

            for starts in ("1999-12-31T20:00+01:00", "9999-12-28T20:00+01:00[Europe/Berlin]", "0001-01-01T00:00+14:00"):
                status, answer = await ann.call("POST", "/api/evenings", {"name": "X", "starts": starts})
                assert status == 422 and answer["code"] == "bad_starts", (starts, answer)

            c = await evening(ann, mode="cards", format="lot", rounds=1, hands_per_round=3, name="Cards")
            for p in (ann, di):
                await p.ok("POST", f"/api/evenings/{c}/check-in")
            st = await (await people(w, ["Ed"]))[0].call("POST", f"/api/evenings/{c}/check-in")
            assert st[0] == 200
            st = await ann.ok("POST", f"/api/evenings/{c}/rounds", {})
            t = st["rounds_played"][0]["tables"][0]
            keep = [k["url"] for k in (await ann.ok("GET", f"/api/evenings/{c}/me"))["keep"]][0]
            tok = keep.rsplit("/", 1)[1]
            await ann.ok(
                "POST", f"/api/ledgers/{t['ledger']}/hands?token={tok}", {"active": [0, 1], "tricks": {"0": 3, "1": 2}}
            )
            answer = await refused(
                ann, "POST", f"/api/ledgers/{t['ledger']}/end?token={tok}", None, "evening_ledger_end", 409
            )
            assert answer["fields"] == {"hands": 3, "played": 1}
            books = await ann.ok("GET", f"/api/ledgers/{t['ledger']}?token={tok}")
            assert not books["over"] and len(books["hands"]) == 1

    run(go())


def test_verify_reads_a_file_nested_too_deep_as_unreadable(tmp_path):
    """``ramsli verify`` on a JSON file nested deeper than Python parses: exit 2 ("cannot be read"),
    not a traceback and not 1 (a mismatch)."""
    from ramsli.commands.verify import verify_evening

    f = tmp_path / "deep.json"
    f.write_text('{"kind": "ramsli-evening", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    status, lines = verify_evening(f, "en")
    assert status == 2 and "cannot be read" in lines[0]


def test_the_tv_screen_reads_a_members_only_evening_by_its_key(sqlite_url):
    """Issue 34 item 6: a pub's TV is nobody's login: the director's state gives the TV screen's
    link with its key (no one else's does); with it the state reads without a login, without it
    (or with a wrong one) a members-only evening stays closed to strangers."""

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            (bo,) = await people(w, ["Bo"], club, ann)
            eid = await evening(ann, club=club, members_only=True)
            link = (await state(ann, eid))["screen"]
            assert link.startswith(f"/e/{eid}/tv?key=")
            assert "screen" not in await state(bo, eid)
            key = link.split("key=")[1]
            tv = w.client()
            got = await tv.ok("GET", f"/api/evenings/{eid}?key={key}")
            assert got["id"] == eid and got["me"] is None and not got["may"]["direct"] and "screen" not in got
            await refused(tv, "GET", f"/api/evenings/{eid}", None, "not_logged_in", 401)
            await refused(tv, "GET", f"/api/evenings/{eid}?key=wrong", None, "not_logged_in", 401)
            await refused(tv, "GET", f"/api/evenings/{eid}/download.json?key={key}", None, "not_logged_in", 401)


def test_a_reader_that_applies_an_entry_while_it_is_stored_does_not_break_the_action(sqlite_url):
    """A request that only reads (``/me``, the state: they take no lock) may read an entry from
    the log between its storing and the writer applying it: the action is answered all the same
    (before: ``entry N follows entry N``, a 500 after the entry was stored)."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo = await people(w, ["Ann", "Bo"])
            eid = await evening(ann)
            await state(ann, eid)
            d = w.directory
            original = d.append_evening_log
            evenings = w.app.state.evenings

            async def read_while_stored(evening_id, entry, status=None, secret=None):
                stored = await original(evening_id, entry, status, secret)
                ev = await evenings.get(evening_id)  # a reader at this moment
                assert ev.seq == entry["seq"]
                return stored

            d.append_evening_log = read_while_stored
            st = await bo.ok("POST", f"/api/evenings/{eid}/check-in")
            d.append_evening_log = original
            assert [p["name"] for p in st["people"]] == ["Bo"]
            assert [e["kind"] for e in (await state(ann, eid))["audit"]] == ["create", "check_in"]

    run(go())
