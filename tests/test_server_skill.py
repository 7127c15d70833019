"""Skill counters by consent on the server (issue 35 item 4, docs/skill.md), in-process over ASGI.

A player opts in and plays a short seeded club session with a bot; when it ends, each hand they
played is measured in the coach's worker process and the API shows their skill counters per hand
with an interval; a player who did not opt in is refused and nothing is stored for them; the season
table has the column for opted-in members only; the skill rating is ordered by the lower end of the
interval and lists players with enough hands only; a restart measures what was missing. R7: no
answer holds a card.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from ramsli.coach import Settings
from ramsli.server.clubs import skill as skill_mod
from ramsli.server.storage.skill import summary_of

from clubworld import World, club_of_two
from helpers import cards_in, scaled

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}
#: a table where nobody plays for an away person: the persons' own decisions are measured
OWN = {"bot_pace_seconds": 0, "hand_pause_seconds": 0, "grace_seconds": 3600}
#: cheap values for the tests (the server's own: skill.SKILL_SETTINGS)
QUICK = Settings(equilibrium=False, declare_samples=30, play_samples=6)


async def _until(cond, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def _play_as_people(w: World, tid: str, seats: list[int]) -> None:
    """Play ``seats`` as their persons (``by`` seat: the first legal action) until the session ends."""
    t = w.hub.tables[tid]
    deadline = time.monotonic() + scaled(60)
    while str(t.status) != "over":
        assert time.monotonic() < deadline, "the session did not end"
        h = t.session.hand if t.session is not None else None
        if h is not None and h.to_act in seats:
            try:
                await t.act(h.to_act, h.legal_actions()[0], t.seq, "seat")
            except Exception:  # noqa: BLE001 - the table moved on meanwhile (a stale seq): look again
                pass
        await asyncio.sleep(0.01)
    await w.app.state.clubs.settle()
    await w.app.state.skill.settle()


async def _session(w: World, ann, bo, club: str, seed: int = 5) -> tuple[str, int]:
    made = await w.club_table(ann, club, [HUMAN, HUMAN, RANDOM], rules=["end=hands:3"], seed=seed, **OWN)
    tid = made["table"]
    for i, who in enumerate((ann, bo)):
        await who.ok("POST", f"/api/tables/{tid}/sit", {"token": made["seats"][i]["token"], "name": "x"})
    await ann.ok("POST", f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})
    await _play_as_people(w, tid, [0, 1])
    s = w.hub.tables[tid].session
    return tid, sum(1 for e in s.results if e.hand is not None and 0 in e.hand.seated)


def test_opted_in_hands_are_measured_shown_and_hold_no_card(sqlite_url, monkeypatch):
    """Ann opts in, Bo does not: Ann's hands are measured in the background and shown with a 95 %
    interval (her own hands one by one to her only); Bo's figure is refused (403, in the reader's
    language) and nothing is stored for him; the season table's skill column has Ann's figure and
    None for Bo; no answer holds a card (R7)."""
    monkeypatch.setenv("RAMSLI_SKILL_SETTINGS", "equilibrium=false,declare_samples=30,play_samples=6")
    monkeypatch.setattr(skill_mod, "MIN_SHOWN", 2)  # others see sums of 2 hands or more here (5 on a server)

    async def go():
        async with World(sqlite_url) as w:
            assert w.app.state.skill.settings == QUICK
            ann, bo, club = await club_of_two(w)
            me_a = (await ann.ok("GET", "/api/me"))["player"]["id"]
            me_b = (await bo.ok("GET", "/api/me"))["player"]["id"]
            assert (await ann.ok("GET", "/api/me"))["skill_opt_in"] is False  # off by default
            status, answer = await ann.call("GET", "/api/me/skill")
            assert (status, answer["error"]) == (403, "skill_not_shared")
            assert await ann.ok("PUT", "/api/me/skill", {"opt_in": True}) == {"opt_in": True}
            assert (await ann.ok("GET", "/api/me"))["skill_opt_in"] is True

            tid, hands = await _session(w, ann, bo, club)
            assert hands >= 1

            async def measured():
                return (await ann.ok("GET", "/api/me/skill"))["figure"]["hands"] == hands

            await _until(measured, scaled(120), "Ann's hands to be measured")
            mine = await ann.ok("GET", "/api/me/skill")
            assert [h["hand"] for h in mine["hands"]] == list(range(1, hands + 1))
            assert {h["table"] for h in mine["hands"]} == {tid} and mine["pending"] == 0
            data = await ann.ok("GET", "/api/me/data")  # everything kept about her: the choice and the rows
            assert data["skill"]["opt_in"] is True and [r["hand"] for r in data["skill"]["hands"]] == [
                h["hand"] for h in mine["hands"]
            ]
            f = mine["figure"]
            assert f["skill"]["mean"] == round(sum(h["skill"] for h in mine["hands"]) / hands, 2)
            if hands >= 2:
                assert f["skill"]["low"] <= f["skill"]["mean"] <= f["skill"]["high"]
            # net counters per hand beside it: the record's net over the hands
            record = (await w.directory.record(tid))["data"]["seats"][0]
            assert f["net"]["mean"] == round(record["net"] / hands, 2)

            # another reader sees the figure, not the hands; nothing for Bo: refused, nothing stored
            other = await bo.ok("GET", f"/api/players/{me_a}/skill")
            assert other["figure"] == f and "hands" not in other
            status, refused = await ann.call("GET", f"/api/players/{me_b}/skill")
            assert (status, refused["error"]) == (403, "skill_not_shared") and "Bo" in refused["message"]
            status, refused_de = await w.client("de").call("GET", f"/api/players/{me_b}/skill")
            assert status == 403 and refused_de["message"] != refused["message"]
            assert await w.app.state.skill.rows.of_player(me_b) == []
            status, unknown = await ann.call("GET", "/api/players/nobody/skill")
            assert (status, unknown["error"]) == (404, "no_player")

            # the season table's column: Ann's figure, None for Bo
            season = await bo.ok("GET", f"/api/clubs/{club}/seasons/current")
            col = {r["player"]: r["skill"] for r in season["rows"]}
            assert col[me_a]["hands"] == hands and col[me_a]["skill"] == f["skill"]
            assert col[me_b] is None
            # R7: fewer hands than MIN_SHOWN: others get the count only (one hand's skill tells of its cards)
            monkeypatch.setattr(skill_mod, "MIN_SHOWN", hands + 1)
            few = (await bo.ok("GET", f"/api/players/{me_a}/skill"))["figure"]
            assert few["hands"] == hands and few["skill"]["mean"] is None and few["net"]["mean"] is None
            assert (await ann.ok("GET", "/api/me/skill"))["figure"] == f  # her own: all of it
            monkeypatch.setattr(skill_mod, "MIN_SHOWN", 2)

            answers = [mine, data, other, season, await ann.ok("GET", "/api/skill/ratings")]
            answers.append(await ann.ok("GET", f"/api/clubs/{club}/skill"))
            for a in answers:
                assert not cards_in(a), a

            # opting out removes what was stored and refuses again
            assert (await ann.ok("PUT", "/api/me/skill", {"opt_in": False}))["removed"] == hands
            assert (await ann.call("GET", f"/api/players/{me_a}/skill"))[0] == 403
            assert await w.app.state.skill.rows.of_player(me_a) == []

            # Bo opts in afterwards: his hands of the finished table are looked for and measured then
            await bo.ok("PUT", "/api/me/skill", {"opt_in": True})
            s = w.hub.tables[tid].session
            his = sum(1 for e in s.results if e.hand is not None and 1 in e.hand.seated)

            async def his_measured():
                return (await bo.ok("GET", "/api/me/skill"))["figure"]["hands"] == his

            await _until(his_measured, scaled(120), "Bo's past hands to be measured after he opted in")

    asyncio.run(go())


def test_a_restart_measures_what_was_missing(sqlite_url, monkeypatch):
    """Hands of an opted-in player that have no row when the server starts (it stopped before
    measuring them) are found and measured at the next start."""
    monkeypatch.setenv("RAMSLI_SKILL_SETTINGS", "equilibrium=false,declare_samples=30,play_samples=6")

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            me_a = (await ann.ok("GET", "/api/me"))["player"]["id"]
            await ann.ok("PUT", "/api/me/skill", {"opt_in": True})
            await w.app.state.skill.close()
            w.app.state.skill._put = lambda item: False  # the server "stops" before measuring
            tid, hands = await _session(w, ann, bo, club, seed=7)
            assert await w.app.state.skill.rows.of_player(me_a) == []
        async with World(sqlite_url) as w:
            rows = w.app.state.skill.rows

            async def measured():
                return len(await rows.of_player(me_a)) == hands

            await _until(measured, scaled(120), "the missing hands to be measured after the restart")
            assert {r["table_id"] for r in await rows.of_player(me_a)} == {tid}

    asyncio.run(go())


def test_the_skill_rating_orders_by_the_lower_end_and_needs_enough_hands(sqlite_url, monkeypatch):
    """The rating lists opted-in players with at least MIN_HANDS hands, ordered by mean − 95 %
    interval: a steady small gain ranks above a larger but noisy one; a player below the minimum,
    or not opted in, is not listed (``fewer`` counts the opted-in ones)."""
    monkeypatch.setattr(skill_mod, "MIN_HANDS", 4)

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            cy, dan = w.client(), w.client()
            await cy.register("Cy")
            await dan.register("Dan")
            ids = {}
            for name, c in (("Ann", ann), ("Bo", bo), ("Cy", cy), ("Dan", dan)):
                ids[name] = (await c.ok("GET", "/api/me"))["player"]["id"]
            for c in (ann, bo, cy):
                await c.ok("PUT", "/api/me/skill", {"opt_in": True})
            tid = (await w.club_table(ann, club, [HUMAN, RANDOM]))["table"]
            values = {
                "Ann": [0.5, 0.6, 0.5, 0.6],  # steady: low ≈ 0.47
                "Bo": [3.0, -2.0, 4.0, -1.0],  # mean 1.0, wide: low < 0
                "Cy": [1.0, 1.0, 1.0],  # three hands: below the minimum
                "Dan": [5.0] * 5,  # not opted in
            }
            rows = w.app.state.skill.rows
            for name, xs in values.items():
                for k, x in enumerate(xs, 1):
                    await rows.put(
                        {
                            "player_id": ids[name],
                            "table_id": tid,
                            "hand": k,
                            "seat": 0,
                            "club_id": club,
                            "measured": float(k),
                            "skill": x,
                            "deal_value": 0.0,
                            "net": 1,
                            "decisions": 2,
                        }
                    )
            assert summary_of(await rows.of_player(ids["Bo"])).mean == 1.0
            server = await dan.ok("GET", "/api/skill/ratings")
            assert server["order"] == "low" and server["min_hands"] == 4
            assert [r["name"] for r in server["rows"]] == ["Ann", "Bo"]
            assert [r["rank"] for r in server["rows"]] == [1, 2] and server["fewer"] == 1
            a, b = server["rows"]
            assert a["skill"]["low"] > b["skill"]["low"] and a["skill"]["mean"] < b["skill"]["mean"]
            club_rating = await bo.ok("GET", f"/api/clubs/{club}/skill")
            assert [r["name"] for r in club_rating["rows"]] == ["Ann", "Bo"]  # Cy and Dan: not members
            status, answer = await dan.call("GET", f"/api/clubs/{club}/skill")
            assert (status, answer["error"]) == (403, "not_member")

    asyncio.run(go())


@pytest.mark.parametrize("bad", [{}, {"opt_in": "yes"}, {"opt_in": True, "x": 1}])
def test_a_bad_opt_in_is_refused_and_changes_nothing(sqlite_url, bad):
    async def go():
        async with World(sqlite_url) as w:
            c = w.client()
            await c.register("Ann")
            status, answer = await c.call("PUT", "/api/me/skill", bad)
            assert status == 422 and answer["message"]
            assert (await c.ok("GET", "/api/me"))["skill_opt_in"] is False
            guest = w.client()
            assert (await guest.call("PUT", "/api/me/skill", {"opt_in": True}))[0] == 401

    asyncio.run(go())


def test_an_evenings_standings_show_skill_for_who_opted_in(sqlite_url, monkeypatch):
    """After an evening's round at an online table, the standings carry ``skill``: Ann's figure
    (she opted in and played her seat herself), None for the bots."""
    monkeypatch.setenv("RAMSLI_SKILL_SETTINGS", "equilibrium=false,declare_samples=30,play_samples=6")
    monkeypatch.setattr(skill_mod, "MIN_SHOWN", 1)

    async def go():
        async with World(sqlite_url) as w:
            ann = w.client()
            await ann.register("Ann")
            me = (await ann.ok("GET", "/api/me"))["player"]["id"]
            await ann.ok("PUT", "/api/me/skill", {"opt_in": True})
            body = {"name": "Thursday", "starts": "2026-12-10T20:00+01:00", "hands_per_round": 2, **OWN}
            eid = (await ann.ok("POST", "/api/evenings", body))["id"]
            await ann.ok("POST", f"/api/evenings/{eid}/check-in")
            for _ in range(2):
                await ann.ok("POST", f"/api/evenings/{eid}/substitutes", {"level": "easy"})
            st = await ann.ok("POST", f"/api/evenings/{eid}/rounds", {})
            tid = st["rounds_played"][0]["tables"][0]["table"]
            seat = next(i for i, p in (await w.directory.seat_links(tid)).items() if p == me)
            await _play_as_people(w, tid, [seat])
            s = w.hub.tables[tid].session
            hands = sum(1 for e in s.results if e.hand is not None and seat in e.hand.seated)

            async def measured():
                return len(await w.app.state.skill.rows.of_player(me)) == hands

            await _until(measured, scaled(120), "Ann's evening hands to be measured")
            st = await ann.ok("GET", f"/api/evenings/{eid}")
            col = {x["id"]: x.get("skill") for x in st["standings"]}
            assert col[me]["hands"] == hands and col[me]["skill"]["mean"] is not None
            assert [v for k, v in col.items() if k != me] == [None, None]
            assert not cards_in(st["standings"])

    asyncio.run(go())
