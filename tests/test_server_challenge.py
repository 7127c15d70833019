"""The weekly challenge on the server (issue 35 item 3; R7, D-21), in-process over ASGI, with a faked clock.

- A week of 3 deals: Ann, Bo and Cy play; a second try, a try without a login, a deal not in the
  week, results asked before one's own try and before the close are refused in the reader's
  language and change nothing; the same deal is dealt alike at every try (equal commitments) and
  the bots choose alike for the same actions (the same events at every try where the person acted
  the same); the close (the clock moved to next Monday) refuses a late try, voids a try still
  playing, and shows the ranking and each deal's field, recomputed here from the tables' own
  results (matchpoints of the challenger's seat, the dealer's left counted as in duplicate).
- The streak counts consecutive weeks with a try, and starts again after a week without one.
- A club's challenge: its members only (``not_member`` for anyone else, nothing changed), its own
  deals and ranking.
- A try's outcome and the week's deals survive a restart; migration ``0008_challenge`` goes down
  and up again.
- What the second attacker found (break-it 2 items 2-9): numbers in the path are plain ASCII digits,
  Play at the same moment makes one table and is create-limited, a past unopened week is
  ``no_challenge_week``, a try is not watched, taken over or played again, a try at a table an
  admin closed is void, a deleted player's tries lose their token and show as "a player".
- R7: every answer and page of the challenge is recorded, before and after the close: no card, no
  deck, salt or bot seed, ever; every frame a challenger's seat receives names only cards that seat
  may know at its own table.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import time
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from ramsli.server.app import _challenge_deals, _challenge_zone
from ramsli.server.challenge.service import _local_zone
from ramsli.server.tables.connection import Connection

from clubworld import ADMIN, FAST, Client, World
from helpers import FORBIDDEN_KEYS, cards_in, keys_in, known_cards, scaled

#: Wednesday of ISO week 2026-W49 (UTC, the tests' server zone)
WED = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC).timestamp()
#: the next Monday 00:00: week 2026-W50, so W49 has closed
NEXT_MONDAY = dt.datetime(2026, 12, 7, 0, 0, tzinfo=dt.UTC).timestamp()
WEEK = "2026-W49"


def run(coro: Any) -> None:
    asyncio.run(coro)


class Clock:
    """The faked clock of the challenge (seconds since the epoch)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def set_up(w: World, now: float = WED, deals: int = 3) -> Clock:
    """The challenge of ``w`` on a faked clock, in UTC, ``deals`` deals a week, fast bots."""
    ch = w.app.state.challenges
    clock = Clock(now)
    ch.clock = clock
    ch.zone = dt.UTC
    ch.deals = deals
    ch.options = {**FAST, "grace_seconds": 3600.0}
    return clock


class SeatConn(Connection):
    """A challenger's seat: every frame may name only cards that seat may know at its table (R7)."""

    def __init__(self, w: World, table_id: str, failures: list[str]) -> None:
        super().__init__()
        self.w, self.table_id, self.failures = w, table_id, failures
        self.frames = 0

    def deliver(self, msg: dict[str, Any]) -> None:
        super().deliver(msg)
        self.frames += 1
        t = self.w.hub.tables.get(self.table_id)
        if t is None:  # closed by an admin: its last frame says so, with no card
            assert not cards_in(msg), msg
            return
        hand, _n = t.current_hand()
        leaked = cards_in(msg) - (known_cards(hand, 0) if hand is not None else set())
        if leaked:
            self.failures.append(f"table {self.table_id} was sent {sorted(leaked)}")


async def play(
    w: World, c: Client, deal: int, failures: list[str], pick: int = 0, finish: bool = True, club: str | None = None
) -> str:
    """``c`` plays ``deal`` of this week: its try's table id; the person's move each time is the
    ``pick``-th legal action (mod their number); ``finish`` False leaves the hand unfinished at the
    person's first decision (a move there could end it: out, and the others' walkover, R4.6)."""
    base = f"/api/clubs/{club}/challenge" if club else "/api/challenge"
    week = (await c.ok("GET", base))["week"]["id"]
    got = await c.ok("POST", f"{base}/{week}/deals/{deal}/play")
    tid = got["table"]
    assert got["url"].startswith(f"/t/{tid}/s/")
    t = w.hub.tables[tid]
    conn = SeatConn(w, tid, failures)
    t.attach(t.seats[0], conn)
    deadline = time.monotonic() + scaled(60)
    moves = 0
    while str(t.status) != "over":
        assert time.monotonic() < deadline, "the challenge hand did not end"
        s = t.session
        hand = s.hand if s is not None else None
        if hand is not None and hand.to_act == 0:
            if not finish:  # the hand cannot end before this seat's declaration (R4.5): it stays unfinished
                break
            legal = hand.observe(0).legal
            await t.intent(0, str(legal[pick % len(legal)]), t.seq)
            moves += 1
        else:
            await asyncio.sleep(0.01)
    assert finish or str(t.status) != "over"
    await w.app.state.challenges.settle()
    return str(tid)


def no_card(answer: Any, where: str, hidden: set[str]) -> None:
    """R7, D-21: no card, no deck/cut/salt/seed key, no salt or bot seed of the week's deals."""
    assert not cards_in(answer), (where, sorted(cards_in(answer))[:5])
    assert not keys_in(answer) & FORBIDDEN_KEYS, (where, keys_in(answer) & FORBIDDEN_KEYS)
    text = answer if isinstance(answer, str) else json.dumps(answer)
    assert not [x for x in hidden if x in text], where


async def secrets_of(w: World, scope: str, week: str) -> set[str]:
    row = await w.app.state.challenges.rows.week(scope, week)
    sec = row["secret"]
    return {*sec["bot_seeds"], *(s for d in sec["deals"] for s in d["salts"])}


async def counts(w: World) -> tuple[int, int, list[Any]]:
    """How many tables, how many tries, and the tries' rows (for "nothing changed")."""
    async with w.app.state.hub.store.engine.connect() as conn:
        tables = (await conn.execute(sa.text("SELECT count(*) FROM tables"))).scalar()
        tries = (await conn.execute(sa.text("SELECT * FROM challenge_tries ORDER BY player_id, deal"))).all()
    return tables, len(tries), [tuple(r) for r in tries]


def commitments_of(deal: dict[str, Any]) -> list[str]:
    """A stored deal event's per-position commitments (docs/fairness.md), with hashlib alone."""
    deck = deal["deck"]
    order = deck[deal["cut"] :] + deck[: deal["cut"]]
    return [hashlib.sha256(f"{s}:{i}:{c}".encode()).hexdigest() for i, (s, c) in enumerate(zip(deal["salts"], order))]


def test_a_week_of_the_challenge_open_play_close_ranking(sqlite_url, monkeypatch):
    """Issue 35 item 3 over a faked clock: open, play, refusals (nothing changed), close, ranking,
    each deal's field recomputed from the tables; R7 on every answer and frame."""

    async def go():
        async with World(sqlite_url) as w:
            clock = set_up(w)
            guest = w.client()
            ann, bo, cy = w.client(), w.client("de"), w.client("nl")
            pid = {
                "ann": (await ann.register("Ann", listed=True))["id"],
                "bo": (await bo.register("Bo", listed=True))["id"],
                "cy": (await cy.register("Cy"))["id"],  # not listed: others see "a player"
            }
            answers: list[Any] = []
            failures: list[str] = []

            st = await guest.ok("GET", "/api/challenge")
            answers.append(st)
            assert st["week"]["id"] == WEEK and st["week"]["ends"] == "2026-12-07T00:00:00+00:00"
            assert [d["status"] for d in st["deals"]] == ["open"] * 3 and st["streak"] == 0
            status, answer = await guest.call("POST", f"/api/challenge/{WEEK}/deals/1/play")
            assert status == 401 and answer["code"] == "not_logged_in", answer  # a try without a player

            tables: dict[tuple[str, int], str] = {}
            tables["ann", 1] = await play(w, ann, 1, failures)
            tables["ann", 2] = await play(w, ann, 2, failures)
            tables["bo", 1] = await play(w, bo, 1, failures)  # Bo acts as Ann did: the same bots' choices
            tables["cy", 1] = await play(w, cy, 1, failures, pick=1)
            tables["cy", 3] = await play(w, cy, 3, failures, finish=False)  # still playing at the close

            st = await ann.ok("GET", "/api/challenge")
            answers.append(st)
            assert [d["status"] for d in st["deals"]] == ["played", "played", "open"] and st["streak"] == 1
            st = await cy.ok("GET", "/api/challenge")
            assert [d["status"] for d in st["deals"]] == ["played", "open", "playing"]
            assert st["deals"][2]["url"].startswith(f"/t/{tables['cy', 3]}/s/")
            again = await cy.ok("POST", f"/api/challenge/{WEEK}/deals/3/play")  # still playing: its own link
            assert again["table"] == tables["cy", 3]

            # refusals before the close: translated, nothing changed
            before = await counts(w)
            status, answer = await ann.call("POST", f"/api/challenge/{WEEK}/deals/1/play")
            assert status == 409 and answer["code"] == "challenge_tried", answer  # a second try
            status, answer = await bo.call("GET", f"/api/challenge/{WEEK}/deals/2")
            assert status == 409 and answer["code"] == "challenge_not_tried" and answer["rule"] == "D-21", answer
            assert "Woche" in answer["message"], answer  # in Bo's language
            status, answer = await ann.call("GET", f"/api/challenge/{WEEK}/deals/1")
            assert status == 409 and answer["code"] == "challenge_not_closed", answer  # tried, not closed
            status, answer = await cy.call("GET", f"/api/challenge/{WEEK}/ranking")
            assert status == 409 and answer["code"] == "challenge_not_closed" and "week" in answer["message"].lower()
            status, answer = await ann.call("POST", f"/api/challenge/{WEEK}/deals/4/play")
            assert status == 404 and answer["code"] == "no_challenge_deal", answer
            status, answer = await ann.call("POST", "/api/challenge/2026-W51/deals/1/play")
            assert status == 404 and answer["code"] == "no_challenge_week", answer  # a week to come
            status, answer = await ann.call("POST", "/api/challenge/next%20week/deals/1/play")
            assert status == 404 and answer["code"] == "no_challenge_week", answer
            assert await counts(w) == before
            answers += [answer]

            # the same deal at every try: equal commitments, the same dealer; the same bots' choices
            # where the person acted the same (Ann and Bo), so the same moves and the same result
            events = {}
            for key, tid in tables.items():
                row = await w.hub.database.load_one(tid)
                events[key] = row["events"]
            deal_of = {k: next(d for _s, kind, d in ev if kind == "deal") for k, ev in events.items()}
            assert commitments_of(deal_of["ann", 1]) == commitments_of(deal_of["bo", 1])
            assert commitments_of(deal_of["ann", 1]) == commitments_of(deal_of["cy", 1])
            assert commitments_of(deal_of["ann", 1]) != commitments_of(deal_of["ann", 2])
            acts = {k: [d for _s, kind, d in ev if kind == "act"] for k, ev in events.items()}
            assert [a["action"] for a in acts["ann", 1]] == [a["action"] for a in acts["bo", 1]]
            assert len(acts["ann", 1]) >= 4

            for c in (guest, ann):  # the page before the close
                status, page = await c.call("GET", "/challenge")
                assert status == 200 and "challenge.js" in page
                answers.append(page)

            # the close: next Monday
            clock.now = NEXT_MONDAY
            status, answer = await bo.call("POST", f"/api/challenge/{WEEK}/deals/2/play")
            assert status == 409 and answer["code"] == "challenge_closed", answer  # a try after the close
            assert "2026-W50" in answer["message"]
            rk = await bo.ok("GET", f"/api/challenge/{WEEK}/ranking")
            answers.append(rk)

            # recomputed from the tables' own results: the challenger's net, the seat from the dealer
            nets = {}
            for key, tid in tables.items():
                t = w.hub.tables[tid]
                if key == ("cy", 3):
                    assert t.session.results == []  # void: not in the ranking
                    continue
                res = t.session.results[0]
                nets[key] = res.stacks_after[0] - res.hand.start_stacks[0]
            pct: dict[str, Fraction] = {}
            field: dict[str, Fraction] = {}
            tops: dict[str, int] = {}
            for deal in (1, 2):
                col = [(p, n) for (p, d), n in nets.items() if d == deal]
                mean = Fraction(sum(n for _p, n in col), len(col))
                top = 2 * (len(col) - 1)
                for p, n in col:
                    mp = 2 * sum(1 for _q, m in col if m < n) + sum(1 for _q, m in col if m == n) - 1
                    pct[p] = pct.get(p, Fraction(0)) + (Fraction(100 * mp, top) if top else Fraction(50))
                    field[p] = field.get(p, Fraction(0)) + n - mean
                    tops[p] = tops.get(p, 0) + (top > 0 and mp == top)
            key = (await w.app.state.challenges.rows.week("server", WEEK))["key"]
            names = {"ann": "Ann", "bo": "Bo", "cy": None}  # Cy is not listed: Bo sees "a player"

            def lot(p: str) -> str:
                return hashlib.sha256(f"{key}|{pid[p]}".encode()).hexdigest()

            want = sorted(pct, key=lambda p: (-pct[p], -field[p], -tops[p], lot(p)))
            assert [x["name"] for x in rk["ranking"]] == [names[p] for p in want]
            assert [x["id"] for x in rk["ranking"]] == [pid[p] if p != "cy" else None for p in want]
            theirs = await cy.ok("GET", f"/api/challenge/{WEEK}/ranking")  # Cy sees herself
            assert [x["name"] for x in theirs["ranking"]] == [names[p] or "Cy" for p in want]
            answers.append(theirs)
            assert [x["score"] for x in rk["ranking"]] == [round(float(pct[p] / 3), 2) for p in want]
            assert [x["vs_field"] for x in rk["ranking"]] == [round(float(field[p]), 2) for p in want]
            assert [x["played"] for x in rk["ranking"]] == [{"ann": 2, "bo": 1, "cy": 1}[p] for p in want]
            assert [x["you"] for x in rk["ranking"]] == [p == "bo" for p in want]
            assert [m["deal"] for m in rk["mine"]] == [1]
            assert rk["players"] == 3 and rk["yours"] == next(x for x in rk["ranking"] if x["you"])
            monkeypatch.setattr("ramsli.server.challenge.service.RANKING_SHOWN", 1)  # the first line, and one's own
            short = await bo.ok("GET", f"/api/challenge/{WEEK}/ranking")
            assert short["ranking"] == rk["ranking"][:1] and short["yours"] == rk["yours"]
            answers.append(short)

            f1 = await ann.ok("GET", f"/api/challenge/{WEEK}/deals/1")
            answers.append(f1)
            assert sorted(x["name"] or "" for x in f1["tries"]) == ["", "Ann", "Bo"]
            assert len({x["deal_key"] for x in f1["tries"]}) == 1  # one deck: the same commitments
            for x in f1["tries"]:
                assert [s["seat"] for s in x["seats"]] == [0, 1, 2, 3]
                mine = x["seats"][f1["seat"]]
                assert mine["name"] == x["name"] and mine["net"] == nets[(x["name"] or "cy").lower(), 1]
                assert x["max"] == 4 and set(mine) >= {"declared", "announced", "tricks", "won", "paid"}
            dealer = deal_of["ann", 1]["dealer"]
            assert f1["seat"] == (0 - dealer) % 4  # the challenger's seat counted from the dealer
            f3 = await guest.ok("GET", f"/api/challenge/{WEEK}/deals/3")  # after the close: anyone
            assert f3["tries"] == []  # Cy's try was void
            answers.append(f3)
            st = await cy.ok("GET", "/api/challenge")
            answers.append(st)
            assert st["week"]["id"] == "2026-W50" and st["last"]["id"] == WEEK and st["streak"] == 1

            # pages: the challenge page holds no card either
            for c in (guest, ann):
                status, page = await c.call("GET", "/challenge")
                assert status == 200 and "challenge.js" in page
                answers.append(page)

            hidden = await secrets_of(w, "server", WEEK)
            for a in answers:
                no_card(a, "challenge answer", hidden)
            assert not failures, failures[:3]

    run(go())


def test_the_streak_counts_consecutive_weeks(sqlite_url):
    """A week with a try adds to the streak; this week without one yet keeps last week's; a week
    missed starts it again."""

    async def go():
        async with World(sqlite_url) as w:
            clock = set_up(w, deals=1)
            ann = w.client()
            await ann.register("Ann")
            failures: list[str] = []
            assert (await ann.ok("GET", "/api/challenge"))["streak"] == 0
            await play(w, ann, 1, failures)
            assert (await ann.ok("GET", "/api/challenge"))["streak"] == 1
            clock.now += 7 * 86400  # W50: not played yet, W49 still counts
            assert (await ann.ok("GET", "/api/challenge"))["streak"] == 1
            await play(w, ann, 1, failures)
            assert (await ann.ok("GET", "/api/challenge"))["streak"] == 2
            clock.now += 14 * 86400  # W52: W51 was missed
            assert (await ann.ok("GET", "/api/challenge"))["streak"] == 0
            await play(w, ann, 1, failures)
            assert (await ann.ok("GET", "/api/challenge"))["streak"] == 1
            assert not failures

    run(go())


def test_a_clubs_challenge_is_for_its_members(sqlite_url):
    """A club's challenge: a non-member is refused (``not_member``, nothing changed); its deals are
    its own (not the server's), and so is its ranking."""

    async def go():
        async with World(sqlite_url) as w:
            clock = set_up(w, deals=2)
            ann, bo = w.client(), w.client("it")
            await ann.register("Ann")
            await bo.register("Bo")
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            failures: list[str] = []
            before = await counts(w)
            for method, path in (
                ("GET", f"/api/clubs/{club}/challenge"),
                ("POST", f"/api/clubs/{club}/challenge/{WEEK}/deals/1/play"),
                ("GET", f"/api/clubs/{club}/challenge/{WEEK}/ranking"),
                ("GET", f"/api/clubs/{club}/challenge/{WEEK}/deals/1"),
            ):
                status, answer = await bo.call(method, path)
                assert status == 403 and answer["code"] == "not_member", (path, answer)
                assert "club" in answer["message"].lower()
            status, answer = await bo.call("GET", "/api/clubs/nope/challenge")
            assert status == 404 and answer["code"] == "no_club"
            assert await counts(w) == before

            mine = await play(w, ann, 1, failures, club=club)
            server = await play(w, ann, 1, failures)
            decks = []
            for tid in (mine, server):
                row = await w.hub.database.load_one(tid)
                decks.append(commitments_of(next(d for _s, kind, d in row["events"] if kind == "deal")))
            assert decks[0] != decks[1]  # the club's deals are its own
            clock.now = NEXT_MONDAY
            rk = await ann.ok("GET", f"/api/clubs/{club}/challenge/{WEEK}/ranking")
            assert [x["name"] for x in rk["ranking"]] == ["Ann"] and rk["ranking"][0]["score"] == 25.0  # 50 % of 2
            status, page = await ann.call("GET", f"/c/{club}/challenge")
            assert status == 200 and club in page
            hidden = await secrets_of(w, club, WEEK)
            for a in (rk, page, await ann.ok("GET", f"/api/clubs/{club}/challenge/{WEEK}/deals/1")):
                no_card(a, "club challenge", hidden)
            assert not failures

    run(go())


def test_a_tries_outcome_and_the_weeks_deals_survive_a_restart(sqlite_url):
    """A try whose hand ended while its outcome was not stored (a crash between the two) is found
    from its table's stored events after a restart; the week's deals are the stored ones."""

    async def go():
        async with World(sqlite_url) as w:
            set_up(w, deals=2)
            ann = w.client()
            await ann.register("Ann", listed=True)
            tid = await play(w, ann, 1, [])
            res = w.hub.tables[tid].session.results[0]
            net = res.stacks_after[0] - res.hand.start_stacks[0]
            async with w.app.state.hub.store.engine.begin() as conn:  # as if the listener never ran
                await conn.execute(sa.text("UPDATE challenge_tries SET finished = NULL, outcome = NULL"))
            before = (await w.app.state.challenges.rows.week("server", WEEK))["secret"]
            cookies = dict(ann.http.cookies)
        async with World(sqlite_url) as w:
            clock = set_up(w, deals=2)
            ann = w.client()
            ann.http.cookies.update(cookies)
            st = await ann.ok("GET", "/api/challenge")
            assert [d["status"] for d in st["deals"]] == ["played", "open"] and st["streak"] == 1
            assert (await w.app.state.challenges.rows.week("server", WEEK))["secret"] == before
            clock.now = NEXT_MONDAY
            rk = await ann.ok("GET", f"/api/challenge/{WEEK}/ranking")
            assert [(x["name"], x["played"], x["score"]) for x in rk["ranking"]] == [("Ann", 1, 25.0)]
            f = await ann.ok("GET", f"/api/challenge/{WEEK}/deals/1")
            (tr,) = f["tries"]
            assert tr["seats"][f["seat"]]["net"] == net and tid not in w.hub.tables  # from its stored events

    run(go())


def test_migration_0008_goes_down_and_up_again(tmp_path):
    """Migration ``0008_challenge`` adds its two tables only: down to ``0007`` and up again."""
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

    def names(sync_conn: Any) -> set[str]:
        return set(sa.inspect(sync_conn).get_table_names())

    async def go():
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(to, "0007_ledger_consent")
            old = await conn.run_sync(names)
            await conn.run_sync(to, "0008_challenge")
            assert await conn.run_sync(names) == old | {"challenge_weeks", "challenge_tries"}
            await conn.run_sync(to, "0007_ledger_consent", True)
            assert await conn.run_sync(names) == old
            await conn.run_sync(to, "head")
        await engine.dispose()

    run(go())


def test_the_operators_settings(monkeypatch):
    """``RAMSLI_CHALLENGE_ZONE`` (an IANA name) and ``RAMSLI_CHALLENGE_DEALS`` (1 to 50); a wrong
    value stops the start with a message naming the variable."""
    monkeypatch.delenv("RAMSLI_CHALLENGE_ZONE", raising=False)
    monkeypatch.delenv("RAMSLI_CHALLENGE_DEALS", raising=False)
    assert _challenge_zone() is None and _challenge_deals() == 12
    monkeypatch.setenv("RAMSLI_CHALLENGE_ZONE", "Europe/Berlin")
    monkeypatch.setenv("RAMSLI_CHALLENGE_DEALS", "8")
    assert _challenge_zone() == ZoneInfo("Europe/Berlin") and _challenge_deals() == 8
    for zone in ("Mars/Olympus", "../etc/passwd"):
        monkeypatch.setenv("RAMSLI_CHALLENGE_ZONE", zone)
        with pytest.raises(ValueError, match="RAMSLI_CHALLENGE_ZONE"):
            _challenge_zone()
    # without the variable: the process's zone by its name (with its clock changes), not a fixed offset
    monkeypatch.setenv("TZ", "Europe/Berlin")
    assert _local_zone() == ZoneInfo("Europe/Berlin")
    for deals in ("0", "51", "twelve", "-3"):
        monkeypatch.setenv("RAMSLI_CHALLENGE_DEALS", deals)
        with pytest.raises(ValueError, match="RAMSLI_CHALLENGE_DEALS"):
            _challenge_deals()


def test_numbers_in_the_path_are_plain_ascii_digits(sqlite_url):
    """Break-it 2 items 2 and 9: a deal, round or hand number in a URL is plain ASCII digits
    (``ramsli.server.protocol.schemas.plain_number``): ``²`` is no 500, an Arabic-Indic ``٣`` is
    no deal 3, a full-width week is no week; a past week nobody opened is ``404 no_challenge_week``
    (not ``challenge_closed``). Each refusal is in the reader's language and changes nothing."""

    async def go():
        async with World(sqlite_url) as w:
            set_up(w)
            guest, bo = w.client("de"), w.client("de")
            await bo.register("Bo")
            await bo.ok("GET", "/api/challenge")  # the week is made
            before = await counts(w)
            for who, method, path in (
                (guest, "GET", f"/api/challenge/{WEEK}/deals/%C2%B2"),
                (bo, "POST", f"/api/challenge/{WEEK}/deals/%C2%B2/play"),
                (bo, "POST", f"/api/challenge/{WEEK}/deals/%D9%A3/play"),  # Arabic-Indic 3
                (bo, "POST", f"/api/challenge/{WEEK}/deals/%E0%A5%A8/play"),  # Devanagari 2
                (bo, "POST", f"/api/challenge/{WEEK}/deals/%EF%BC%91/play"),  # full-width 1
            ):
                status, answer = await who.call(method, path)
                assert status == 404 and answer["code"] == "no_challenge_deal", (path, status, answer)
                assert "Woche" in answer["message"], answer  # German
            status, answer = await guest.call("POST", f"/api/challenge/{WEEK}/deals/%C2%B2/play")
            assert status == 401 and answer["code"] == "not_logged_in", answer  # no 500 either
            for week in ("%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%96-W49", "2026-W%D9%A4%D9%A9", "2026-W49%0A"):
                status, answer = await bo.call("POST", f"/api/challenge/{week}/deals/1/play")
                assert status == 404 and answer["code"] == "no_challenge_week", (week, answer)
            status, answer = await bo.call("POST", "/api/challenge/2026-W48/deals/1/play")  # nobody opened it
            assert status == 404 and answer["code"] == "no_challenge_week", answer
            assert "Woche" in answer["message"], answer
            for path in ("/api/evenings/xyz/deals/%C2%B2/1", "/api/evenings/xyz/deals/1/%D9%A3"):
                status, answer = await guest.call("GET", path)
                assert status == 404 and answer["code"] in ("no_evening", "no_deal"), (path, answer)
            assert await counts(w) == before

    run(go())


def test_play_at_the_same_moment_makes_one_table_and_counts_as_a_new_table(sqlite_url):
    """Break-it 2 item 3: six Play requests of one player for one deal at once all answer the one
    try's link (docs/challenge.md: a try still playing answers its link again) and make one table;
    the route counts toward the create limit (``429 too_many_new``)."""

    async def go():
        async with World(sqlite_url) as w:
            set_up(w)
            ann = w.client()
            await ann.register("Ann")
            await ann.ok("GET", "/api/challenge")
            tables_before, _n, _rows = await counts(w)
            got = await asyncio.gather(*(ann.call("POST", f"/api/challenge/{WEEK}/deals/2/play") for _ in range(6)))
            assert [s for s, _a in got] == [200] * 6, got
            assert len({a["url"] for _s, a in got}) == 1
            tables, tries, _rows = await counts(w)
            assert (tables, tries) == (tables_before + 1, 1)
            # another process stored the same player's try first (between the read and the write):
            # its link is the answer, the table made here is closed, no second try is stored
            rows = w.app.state.challenges.rows
            original = rows.add_try

            async def raced(scope, week, deal, player, table_id, token, now):
                await original(scope, week, deal, player, "elsewhere", "their-token", now)
                await original(scope, week, deal, player, table_id, token, now)

            rows.add_try = raced
            got3 = await ann.ok("POST", f"/api/challenge/{WEEK}/deals/3/play")
            assert got3["table"] == "elsewhere" and got3["url"] == "/t/elsewhere/s/their-token", got3
            tables3, tries3, _rows = await counts(w)
            assert tries3 == 2 and tables3 == tables + 1 and len(w.hub.closed) == 1
        async with World(sqlite_url, create_limit=2) as w:
            set_up(w)
            bo = w.client()
            await bo.register("Bo")
            await bo.ok("POST", f"/api/challenge/{WEEK}/deals/1/play")
            await bo.ok("POST", f"/api/challenge/{WEEK}/deals/3/play")
            status, answer = await bo.call("POST", f"/api/challenge/{WEEK}/deals/1/play")
            assert status == 429 and answer["code"] == "too_many_new", answer

    run(go())


def test_a_try_is_not_watched_taken_over_or_played_again(sqlite_url):
    """Break-it 2 items 5 and 6: a challenge table gives no spectator link (not even to its player)
    and takes no spectator token; ``take`` and "Play again" are refused (``409 challenge_table``,
    in the reader's language), nothing changed."""

    async def go():
        async with World(sqlite_url) as w:
            set_up(w)
            ann = w.client("it")
            await ann.register("Ann")
            failures: list[str] = []
            tid = await play(w, ann, 1, failures)
            st = await ann.ok("GET", "/api/challenge")
            assert st["deals"][0]["status"] == "played"
            t = w.hub.tables[tid]
            personal = t.seats[0].personal
            info = await ann.ok("GET", f"/api/tables/{tid}?token={personal}")
            assert info["challenge"]["deal"] == 1 and "spectate" not in info
            assert not t.is_spectator(t.spectator_token)
            watcher = Connection("it")  # hello with the spectator token: no spectator's welcome
            await w.hub.receive(watcher, json.dumps({"type": "hello", "token": t.spectator_token}), tid)
            assert [m.get("code") for m in watcher.sent] == ["bad_token"], watcher.sent
            status, answer = await ann.call("GET", f"/api/tables/{tid}/hands/1.json?token={t.spectator_token}")
            assert status == 403 and answer["code"] == "bad_token", answer
            before = await counts(w)
            seq = t.seq
            for path, body in (
                (f"/api/tables/{tid}/take", {"token": personal, "seat": "p2", "name": "Mallory"}),
                (f"/api/tables/{tid}/rematch", {"token": personal}),
                (f"/api/tables/{tid}/rematch", {"token": personal, "creator_token": t.creator_token}),
            ):
                status, answer = await ann.call("POST", path, body)
                assert status == 409 and answer["code"] == "challenge_table", (path, answer)
                assert "sfida" in answer["message"], answer  # Italian
            assert await counts(w) == before and t.seq == seq and t.next_table is None
            assert not failures

    run(go())


def test_a_try_at_a_table_an_admin_closed_is_void(sqlite_url):
    """Break-it 2 item 7: an admin closes a try's table before its hand ends: the try is void at
    once (never "playing" with a dead link) and Play answers ``challenge_tried``."""

    async def go():
        async with World(sqlite_url) as w:
            set_up(w)
            ann = w.client()
            await ann.register("Ann")
            failures: list[str] = []
            tid = await play(w, ann, 1, failures, finish=False)
            st = await ann.ok("GET", "/api/challenge")
            assert st["deals"][0]["status"] == "playing"
            admin = w.client()  # no login, so no CSRF: the admin's bearer token
            r = await admin.http.post(f"/admin/tables/{tid}/close", headers={"Authorization": f"Bearer {ADMIN}"})
            assert r.status_code == 200, r.text
            st = await ann.ok("GET", "/api/challenge")
            assert st["deals"][0] == {"deal": 1, "status": "void", "url": None}, st
            status, answer = await ann.call("POST", f"/api/challenge/{WEEK}/deals/1/play")
            assert status == 409 and answer["code"] == "challenge_tried", answer

    run(go())


def test_a_players_tries_in_their_data_and_gone_with_them(sqlite_url):
    """Break-it 2 item 8: ``GET /api/me/data`` lists the player's tries without the seat token;
    ``DELETE /api/me`` removes the tokens, voids a try still playing, and the closed week's
    ranking and field show the deleted player as "a player" (no id, no name)."""

    async def go():
        async with World(sqlite_url) as w:
            clock = set_up(w)
            ann, bo = w.client(), w.client()
            await ann.register("Ann", listed=True)
            await bo.register("Bo", listed=True)
            failures: list[str] = []
            await play(w, ann, 1, failures)
            await play(w, ann, 2, failures, finish=False)
            await play(w, bo, 1, failures)
            data = await ann.ok("GET", "/api/me/data")
            tries = data["challenge_tries"]
            assert [(x["scope"], x["week"], x["deal"]) for x in tries] == [("server", WEEK, 1), ("server", WEEK, 2)]
            assert tries[0]["outcome"] is not None and tries[1]["finished"] is None
            tokens = {r[5] for r in (await counts(w))[2]}
            assert all(tok not in json.dumps(data) for tok in tokens) and "token" not in tries[0]
            status, answer = await ann.call("DELETE", "/api/me", {"password": "a good password"})
            assert status == 200, answer
            rows = (await counts(w))[2]
            mine = [r for r in rows if r[1] == WEEK and r[5] == ""]
            assert len(mine) == 2 and len(rows) == 3  # Ann's two tries, without their tokens
            clock.now = NEXT_MONDAY
            rk = await bo.ok("GET", f"/api/challenge/{WEEK}/ranking")
            assert sorted((x["id"] is None, x["name"]) for x in rk["ranking"]) == [(False, "Bo"), (True, None)]
            field = await bo.ok("GET", f"/api/challenge/{WEEK}/deals/1")
            assert [x["name"] for x in field["tries"] if not x["you"]] == [None]
            assert not failures

    run(go())
