"""Clubs, seasons and ratings on the server (docs/clubs.md), in-process over ASGI.

The pub's regulars make a club, play three evenings (one at a club table, two with real cards in a
club ledger) and the season table and the ratings show who is up; every refusal of a club, an
invite, a season, a ledger or a score sheet is a record in the request's language and changes
nothing; no club or season page holds a card (R7, D-16).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from clubworld import World, club_of_two
from helpers import cards_in

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}

#: two evenings with real cards, worked out by hand from R4.1 (ante 1), R5.1 (most tricks take the
#: pot), R5.3 (bete 5) and R5.4 (what is left carries over), traditional rules, stacks of 20
LEDGER_1 = {  # first dealer Cy; hand 2 dealt by Ann (R3.2)
    "first_dealer": 2,
    "hands": [
        {"active": [0, 1], "tricks": {"0": 3, "1": 2}},
        {"active": [0, 1, 2], "tricks": {"0": 0, "1": 2, "2": 3}},
    ],
    # hand 1: pot 3, Ann takes it: 22 19 19; hand 2: pot 3 to Cy, Ann bete 5 into the next pot
    "stacks": [16, 18, 21],
    "pot": 5,
}
LEDGER_2 = {  # first dealer Ann
    "first_dealer": 0,
    "hands": [{"active": [1, 2], "tricks": {"1": 5, "2": 0}}],
    "stacks": [19, 22, 14],  # pot 3 to Bo, Cy bete 5
    "pot": 5,
}


async def _three(w: World):
    """Ann (owner), Bo and Cy, members of "Zur Linde"."""
    ann, bo, club = await club_of_two(w)
    cy = w.client("de")
    await cy.register("Cy")
    invite = await ann.ok("POST", f"/api/clubs/{club}/invites")
    await cy.ok("POST", "/api/clubs/join", {"token": invite["token"]})
    return ann, bo, cy, club


async def _ledger(w: World, keeper, club: str, players: list[str], evening: dict, confirm=()) -> str:
    """A club ledger of ``evening``'s hands kept by ``keeper``; each of ``confirm`` (the other
    named members) then confirms it, so that it is rated (issue 38.11)."""
    made = await keeper.ok(
        "POST",
        "/api/ledgers",
        {
            "names": ["x", "y", "z"],
            "club": club,
            "players": players,
            "first_dealer": evening["first_dealer"],
            "options": {"end": [f"hands:{len(evening['hands'])}"]},
        },
    )
    for hand in evening["hands"]:
        state = await keeper.ok("POST", f"/api/ledgers/{made['ledger']}/hands?token={made['token']}", hand)
    assert state["over"] and state["stacks"] == evening["stacks"] and state["pot"] == evening["pot"]  # R3.4
    assert state["names"] == ["Ann", "Bo", "Cy"]  # a member's seat takes the member's name
    for who in confirm:
        await who.ok("POST", f"/api/ledgers/{made['ledger']}/confirm")
    return made["ledger"]


def test_a_pubs_regulars_play_three_evenings_and_the_season_shows_who_is_up(db_url):
    """One evening at a club table (online, with two bots) and two with real cards in club ledgers:
    the season table sums each member's sessions, hands, net counters, counters a hand, in %, bete
    %, pots won and placement points (1st of 3 gets 3), the running totals follow the sessions, each
    session links to its score sheet; the club's and the server's ratings of all three moved (R3.7)."""

    async def go():
        async with World(db_url) as w:
            ann, bo, cy, club = await _three(w)
            info = await ann.ok("GET", f"/api/clubs/{club}")
            ids = {m["name"]: m["player"] for m in info["members"]}
            assert info["role"] == "owner" and list(ids) == ["Ann", "Bo", "Cy"] and info["current"]
            # evening 1: the club's card table, three members and two bots
            made = await w.club_table(ann, club, [HUMAN, HUMAN, HUMAN, RANDOM, RANDOM], rules=["end=hands:3"])
            tid = made["table"]
            for i, who in enumerate((ann, bo, cy)):
                sat = await who.ok("POST", f"/api/tables/{tid}/sit", {"token": made["seats"][i]["token"], "name": "me"})
                assert sat["player"]["name"] == ["Ann", "Bo", "Cy"][i]  # the player's own name (R2.2)
            await ann.ok("POST", f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})
            await w.finish(tid)
            online = w.hub.tables[tid].session
            # evenings 2 and 3: real cards
            players = [ids["Ann"], ids["Bo"], ids["Cy"]]
            l1 = await _ledger(w, ann, club, players, LEDGER_1, confirm=(bo, cy))
            l2 = await _ledger(w, bo, club, players, LEDGER_2, confirm=(ann, cy))

            season = await cy.ok("GET", f"/api/clubs/{club}/seasons/current")
            assert [s["record"] for s in season["sessions"]] == [tid, l1, l2]
            rows = {r["name"]: r for r in season["rows"]}
            on = {n: online.stacks[i] - 20 for i, n in enumerate(["Ann", "Bo", "Cy"])}
            places = [1 + sum(v > s for v in online.stacks) for s in online.stacks]
            # the ledgers by hand: nets Ann -4 -1, Bo -2 +2, Cy +1 -6; points (3 seats) Ann 1+2, Bo 2+3, Cy 3+1
            by_hand = {
                "Ann": {"net": -5, "points": 3.0, "hands": 3, "ins": 2, "betes": 1, "pots": 1},
                "Bo": {"net": 0, "points": 5.0, "hands": 3, "ins": 3, "betes": 0, "pots": 1},
                "Cy": {"net": -5, "points": 4.0, "hands": 3, "ins": 2, "betes": 1, "pots": 1},
            }
            record = await ann.ok("GET", f"/api/clubs/{club}/sessions/{tid}")
            for i, name in enumerate(["Ann", "Bo", "Cy"]):
                seat = record["seats"][i]
                assert seat["name"] == name and seat["player"] == ids[name] and seat["net"] == on[name]
                assert seat["place"] == places[i] and seat["hands"] == 3
                r, h = rows[name], by_hand[name]
                assert r["sessions"] == 3 and r["hands"] == h["hands"] + 3
                assert r["net"] == h["net"] + on[name]
                assert r["points"] == h["points"] + seat["points"]
                assert r["pots"] == h["pots"] + seat["pots"]
                assert r["in_pct"] == round(100 * (h["ins"] + seat["ins"]) / r["hands"], 1)
                ins = h["ins"] + seat["ins"]
                assert r["bete_pct"] == (round(100 * (h["betes"] + seat["betes"]) / ins, 1) if ins else 0.0)
                assert r["per_hand"] == round(r["net"] / r["hands"], 2)
                assert season["running"][ids[name]] == [
                    [1, on[name]],
                    [2, on[name] + {"Ann": -4, "Bo": -2, "Cy": 1}[name]],
                    [3, r["net"]],
                ]
            points = [r["points"] for r in season["rows"]]
            assert points == sorted(points, reverse=True)  # who is up: the most points first
            # a session's score sheet: every hand's public settlement and its hand histories
            assert [h["number"] for h in record["hands"]] == [1, 2, 3]
            assert [h["stacks"] for h in record["hands"]] == [list(e.stacks_after) for e in online.results]
            assert len(record["links"]["hands"]) == 3 and record["links"]["watch"].startswith(f"/t/{tid}/watch/")
            sheet = await bo.ok("GET", f"/api/clubs/{club}/sessions/{l1}")
            assert sheet["kind"] == "ledger" and sheet["links"]["follow"].startswith(f"/l/{l1}/follow/")
            assert [s["stack"] for s in sheet["seats"]] == LEDGER_1["stacks"]
            assert [s["points"] for s in sheet["seats"]] == [1.0, 2.0, 3.0]
            assert [s["sheet"] for s in season["sessions"]][1] == f"/c/{club}/s/{l1}"
            # ratings: all three rated three times, in the club and on the server; the bot once
            club_r = {r["name"]: r for r in (await ann.ok("GET", f"/api/clubs/{club}"))["ratings"]}
            assert {n: club_r[n]["sessions"] for n in ("Ann", "Bo", "Cy")} == {"Ann": 3, "Bo": 3, "Cy": 3}
            assert club_r["random"]["bot"] and club_r["random"]["sessions"] == 1
            assert all((club_r[n]["rating"], club_r[n]["uncertainty"]) != (25.0, 8.3) for n in ("Ann", "Bo", "Cy"))
            assert all(club_r[n]["uncertainty"] < 8.3 for n in ("Ann", "Bo", "Cy"))
            server = await w.directory.ratings("server")
            assert {ids[n]: round(server[ids[n]]["mu"], 1) for n in ids} == {ids[n]: club_r[n]["rating"] for n in ids}
            me = await bo.ok("GET", "/api/me")
            assert me["rating"]["sessions"] == 3 and me["rating"]["rating"] == club_r["Bo"]["rating"]

    asyncio.run(go())


def test_club_and_season_pages_hold_no_card_and_the_hand_is_the_spectators(sqlite_url):
    """R7, D-16: a club's info, its season table and a session's score sheet name no card at all; a
    hand history read through the club is exactly the spectator's (folded hands hidden, no cut)."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            made = await w.club_table(ann, club, [HUMAN, HUMAN, RANDOM], seed=9)
            for i, who in enumerate((ann, bo)):
                await who.ok(
                    "POST", f"/api/tables/{made['table']}/sit", {"token": made["seats"][i]["token"], "name": "x"}
                )
            await ann.ok("POST", f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
            await w.finish(made["table"])
            pages = [
                await bo.ok("GET", f"/api/clubs/{club}"),
                await bo.ok("GET", f"/api/clubs/{club}/seasons/current"),
                await bo.ok("GET", f"/api/clubs/{club}/sessions/{made['table']}"),
                await bo.ok("GET", "/api/ratings"),
            ]
            for p in pages:
                assert not cards_in(p), p
            sheet = pages[2]
            spectator = made["spectate"].rsplit("/", 1)[1]
            for n, link in enumerate(sheet["links"]["hands"], 1):
                status, text = await bo.call("GET", link)
                assert status == 200
                assert text == w.hub.history(made["table"], n, spectator)
                assert "cut" not in text.split("[rules]")[0]

    asyncio.run(go())


def test_club_refusals_change_nothing(sqlite_url):
    """A revoked invite reused, an unknown one, a member already in, a non-owner's invite or season,
    a non-member or a guest reading the club, its season, a score sheet or a hand, a bad or
    overlapping season: each refused with its code, in the request's language, nothing changed."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            dan, guest = w.client("de"), w.client("nl")
            await dan.register("Dan")
            made = await w.club_table(ann, club, [HUMAN, RANDOM])
            await ann.ok("POST", f"/api/tables/{made['table']}/sit", {"token": made["seats"][0]["token"], "name": "x"})
            await ann.ok("POST", f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
            await w.finish(made["table"])
            invite = await ann.ok("POST", f"/api/clubs/{club}/invites")
            before = (await w.directory.members(club), await w.directory.seasons(club), await w.directory.invites(club))

            async def refused(who, method, path, body, status, code):
                got, answer = await who.call(method, path, body)
                assert (got, answer["error"]) == (status, code), answer
                assert answer["message"] and "{" not in answer["message"]
                return answer

            # invites
            await ann.ok("DELETE", f"/api/clubs/{club}/invites/{invite['invite']}")
            a = await refused(dan, "POST", "/api/clubs/join", {"token": invite["token"]}, 410, "invite_revoked")
            assert a["message"] == "Dieser Einladungslink wurde widerrufen; bitte den Club um einen neuen"
            await refused(dan, "GET", f"/api/invites/{invite['token']}", None, 410, "invite_revoked")
            await refused(dan, "POST", "/api/clubs/join", {"token": "no-such-link"}, 404, "no_invite")
            fresh = await ann.ok("POST", f"/api/clubs/{club}/invites")
            await refused(bo, "POST", "/api/clubs/join", {"token": fresh["token"]}, 409, "already_member")
            await refused(guest, "POST", "/api/clubs/join", {"token": fresh["token"]}, 401, "not_logged_in")
            await refused(bo, "POST", f"/api/clubs/{club}/invites", None, 403, "not_owner")
            await refused(bo, "DELETE", f"/api/clubs/{club}/invites/{fresh['invite']}", None, 403, "not_owner")
            # reading the club: members only
            for path in (
                f"/api/clubs/{club}",
                f"/api/clubs/{club}/seasons/current",
                f"/api/clubs/{club}/sessions/{made['table']}",
                f"/api/clubs/{club}/sessions/{made['table']}/hands/1.toml",
                f"/api/clubs/{club}/invites",
            ):
                a = await refused(dan, "GET", path, None, 403, "not_member")
                assert "Ann" not in json.dumps(a)
                await refused(guest, "GET", path, None, 401, "not_logged_in")
            await refused(dan, "GET", "/api/clubs/nope", None, 404, "no_club")
            await refused(ann, "GET", f"/api/clubs/{club}/sessions/nope", None, 404, "no_record")
            await refused(ann, "GET", f"/api/clubs/{club}/seasons/nope", None, 404, "no_season")
            # seasons
            for body, code, status in [
                ({"name": "Winter", "starts": "2027-13-01", "ends": "2028-01-01"}, "bad_date", 422),
                ({"name": "Winter", "starts": "1.10.2027", "ends": "2028-01-01"}, "bad_date", 422),
                ({"name": "Winter", "starts": "2030-03-01", "ends": "2030-02-01"}, "season_order", 422),
                ({"name": " ", "starts": "2030-01-01", "ends": "2030-02-01"}, "bad_club_name", 422),
            ]:
                await refused(ann, "POST", f"/api/clubs/{club}/seasons", body, status, code)
            current = before[1][0]
            overlap = {"name": "Again", "starts": current["ends"], "ends": "2099-01-01"}
            a = await refused(ann, "POST", f"/api/clubs/{club}/seasons", overlap, 409, "season_overlap")
            assert a["fields"]["name"] == current["name"]
            await refused(
                bo,
                "POST",
                f"/api/clubs/{club}/seasons",
                {"name": "B", "starts": "2090-01-01", "ends": "2090-02-01"},
                403,
                "not_owner",
            )
            await refused(ann, "DELETE", f"/api/clubs/{club}/members/me", None, 409, "owner_leaves")
            await refused(guest, "POST", "/api/clubs", {"name": "Mine"}, 401, "not_logged_in")
            await refused(dan, "POST", "/api/clubs", {"name": "\u202eevil"}, 422, "bad_club_name")
            after = (await w.directory.members(club), await w.directory.seasons(club), await w.directory.invites(club))
            assert after[0] == before[0] and after[1] == before[1]
            uses = {i["id"]: i["uses"] for i in before[2]}
            assert {i["id"]: i["uses"] for i in after[2]} == dict(uses, **{fresh["invite"]: 0})  # nobody joined
            assert [i["revoked"] is not None for i in after[2] if i["id"] == invite["invite"]] == [True]
            assert await w.directory.clubs_of((await w.directory.player_by_key("dan"))["id"]) == []
            # a season added by the owner, then it is listed; a member may leave
            added = await ann.ok(
                "POST", f"/api/clubs/{club}/seasons", {"name": "2090", "starts": "2090-01-01", "ends": "2090-12-31"}
            )
            assert added["season"]["name"] == "2090"
            assert [s["name"] for s in await w.directory.seasons(club)][0] == "2090"
            await bo.ok("DELETE", f"/api/clubs/{club}/members/me")
            await refused(bo, "GET", f"/api/clubs/{club}", None, 403, "not_member")

    asyncio.run(go())


def test_a_member_cannot_keep_anothers_ledger_and_seats_must_be_members(sqlite_url):
    """Bo reads Ann's club ledger (its follow link), but every change without the keeper's link is
    refused (``not_keeper``) and the books stay as they were; a club ledger seats members only, once
    each, one per name; only a club's ledger links players."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            ids = {m["name"]: m["player"] for m in (await ann.ok("GET", f"/api/clubs/{club}"))["members"]}
            made = await ann.ok(
                "POST",
                "/api/ledgers",
                {"names": ["a", "b", "Guest"], "club": club, "players": [ids["Ann"], ids["Bo"], None]},
            )
            lid = made["ledger"]
            info = await bo.ok("GET", f"/api/clubs/{club}")
            entry = next(x for x in info["ledgers"] if x["ledger"] == lid)
            assert "keep" not in entry and made["token"] not in json.dumps(info)  # only the keeper gets the keeper link
            assert next(x for x in (await ann.ok("GET", f"/api/clubs/{club}"))["ledgers"] if x["ledger"] == lid)["keep"]
            follow = entry["follow"].rsplit("/", 1)[1]
            books = await bo.ok("GET", f"/api/ledgers/{lid}?token={follow}")
            hand = {"active": [0, 1], "tricks": {"0": 3, "1": 2}}
            for path, method, body in [
                (f"/api/ledgers/{lid}/hands?token={follow}", "POST", hand),
                (f"/api/ledgers/{lid}/hands", "POST", hand),
                (f"/api/ledgers/{lid}/end?token={follow}", "POST", None),
            ]:
                status, answer = await bo.call(method, path, body)
                assert (status, answer["error"], answer["code"]) == (403, "bad_token", "not_keeper"), answer
            assert await bo.ok("GET", f"/api/ledgers/{lid}?token={follow}") == books
            # who may sit in a club's ledger
            dan = w.client()
            await dan.register("Dan")
            dan_id = (await dan.ok("GET", "/api/me"))["player"]["id"]
            before = len(await w.app.state.hub.store.load())
            for body, code in [
                ({"names": ["a", "b"], "club": club, "players": [ids["Ann"], dan_id]}, "not_a_member"),
                ({"names": ["a", "b"], "club": club, "players": [ids["Ann"], ids["Ann"]]}, "player_twice"),
                ({"names": ["a", "b"], "club": club, "players": [ids["Ann"]]}, "players_count"),
                ({"names": ["a", "b"], "players": [ids["Ann"], None]}, "players_need_club"),
            ]:
                status, answer = await ann.call("POST", "/api/ledgers", body)
                assert (status, answer["error"]) == (422, code), answer
            status, answer = await dan.call("POST", "/api/ledgers", {"names": ["a", "b"], "club": club})
            assert (status, answer["error"]) == (403, "not_member")
            assert len(await w.app.state.hub.store.load()) == before  # no ledger made

    asyncio.run(go())


def test_a_club_table_needs_a_member_and_a_player_sits_once(sqlite_url):
    """A club's card table is made by a logged-in member only; a player sits at one seat of a table
    (``already_seated``) and sits under their own name (R2.2); a guest still sits as before."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, club = await club_of_two(w)
            dan, guest = w.client(), w.client()
            await dan.register("Dan")
            before = set(w.hub.tables)
            for who, status, code in [(dan, 403, "not_member"), (guest, 401, "not_logged_in")]:
                got, answer = await who.call("POST", "/api/tables", {"seats": [HUMAN, RANDOM], "club": club})
                assert (got, answer["error"]) == (status, code)
            status, answer = await ann.call("POST", "/api/tables", {"seats": [HUMAN, RANDOM], "club": "nope"})
            assert (status, answer["error"]) == (404, "no_club")
            assert set(w.hub.tables) == before  # no table made
            made = await w.club_table(ann, club, [HUMAN, HUMAN, HUMAN])
            tid = made["table"]
            await ann.ok("POST", f"/api/tables/{tid}/sit", {"token": made["seats"][0]["token"], "name": "Annie"})
            assert w.hub.tables[tid].seats[0].name == "Ann"
            status, answer = await ann.call(
                "POST", f"/api/tables/{tid}/sit", {"token": made["seats"][1]["token"], "name": "x"}
            )
            assert (status, answer["error"], answer["fields"]) == (409, "already_seated", {"seat": "p1"})
            assert not w.hub.tables[tid].seats[1].taken
            sat = await guest.ok("POST", f"/api/tables/{tid}/sit", {"token": made["seats"][2]["token"], "name": "Gus"})
            assert "player" not in sat and w.hub.tables[tid].seats[2].name == "Gus"
            assert await w.directory.seat_links(tid) == {0: (await ann.ok("GET", "/api/me"))["player"]["id"]}
            status, answer = await guest.call(
                "POST", f"/api/tables/{tid}/sit", {"token": made["seats"][1]["token"], "name": "ann"}
            )
            assert (status, answer["error"]) == (409, "name_taken")  # the look-alike of a player's seat name (R2.2)

    asyncio.run(go())


def test_a_guest_seat_is_claimed_by_its_token_and_then_rated(sqlite_url):
    """Bo plays as a guest; afterwards, logged in, he claims the seat with the personal token he sat
    down with: the session is recorded again, now between players, and rated. Another token, a seat
    already claimed, a second seat of the same player: refused, nothing changed."""

    async def go():
        async with World(sqlite_url) as w:
            ann, bo = w.client(), w.client()
            await ann.register("Ann")
            made = await w.club_table(ann, None, [HUMAN, HUMAN, RANDOM])
            tid = made["table"]
            await ann.ok("POST", f"/api/tables/{tid}/sit", {"token": made["seats"][0]["token"], "name": "x"})
            guest_seat = await bo.ok(
                "POST", f"/api/tables/{tid}/sit", {"token": made["seats"][1]["token"], "name": "Bo"}
            )
            await ann.ok("POST", f"/api/tables/{tid}/start", {"creator_token": made["creator_token"]})
            await w.finish(tid)
            record = await w.directory.record(tid)
            assert record is None  # a guest at the table: not a session between players
            await bo.register("Bob")
            for token, status, code in [
                (made["seats"][1]["token"], 403, "claim_not_seat"),  # the invite link is not the seat's person
                (made["spectate"].rsplit("/", 1)[1], 403, "claim_not_seat"),
                (made["seats"][0]["token"], 403, "claim_not_seat"),
            ]:
                got, answer = await bo.call("POST", "/api/me/claim", {"table": tid, "token": token})
                assert (got, answer["error"]) == (status, code), answer
            got, answer = await ann.call("POST", "/api/me/claim", {"table": tid, "token": guest_seat["token"]})
            assert (got, answer["error"]) == (409, "already_seated")  # Ann already has seat p1 here
            assert await w.directory.record(tid) is None
            claimed = await bo.ok("POST", "/api/me/claim", {"table": tid, "token": guest_seat["token"]})
            assert claimed == {"table": tid, "seat": "p2"}
            record = await w.directory.record(tid)
            bob = (await bo.ok("GET", "/api/me"))["player"]
            assert record["rated"] and record["data"]["seats"][1]["player"] == bob["id"]
            assert (await bo.ok("GET", "/api/me"))["rating"]["sessions"] == 1
            got, answer = await bo.call("POST", "/api/me/claim", {"table": tid, "token": guest_seat["token"]})
            assert (got, answer["error"], answer["fields"]) == (409, "seat_claimed", {"seat": "p2"})

    asyncio.run(go())


def test_open_tables_are_listed_joined_watched_and_quick_play_fills_the_fullest(sqlite_url):
    """Tables are private by default: ``GET /api/tables`` lists open tables only (variant, free seats,
    pace, the spectator link), the admin token lists every table; a stranger takes a free seat with
    one click, a full open table starts itself, quick play seats at the fullest open table of the
    preset or opens one; a private table, a full table, a bad preset or name are refused."""

    async def go():
        async with World(sqlite_url) as w:
            host, stranger, third, fourth = w.client(), w.client("de"), w.client(), w.client()
            private = await w.club_table(host, None, [HUMAN, HUMAN, RANDOM])
            small = await w.club_table(host, None, [HUMAN, HUMAN], open=True, rules=["end=hands:1"], seed=2)
            big = await w.club_table(host, None, [HUMAN, HUMAN, HUMAN, RANDOM], open=True, seed=3)
            await host.ok("POST", f"/api/tables/{big['table']}/sit", {"token": big["seats"][0]["token"], "name": "Hal"})
            status, listing = await stranger.call("GET", "/api/tables")
            assert status == 200 and [t["table"] for t in listing] == [big["table"], small["table"]]  # fullest first
            text = json.dumps(listing)
            assert private["table"] not in text and private["spectate"] not in text
            assert all(s["token"] not in text for made in (private, small, big) for s in made["seats"])
            assert big["creator_token"] not in text
            entry = listing[0]
            assert (
                entry["free"] == 2
                and entry["rules"]["preset"] == "traditional"
                and entry["spectate"] == big["spectate"]
            )
            assert entry["pace"] == {"bot_pace_seconds": 0.0, "turn_seconds": None}
            # the admin sees everything; a wrong token is refused
            status, full = await stranger.call(
                "GET", "/api/tables", headers={"Authorization": "Bearer the-admin-token-of-the-tests"}
            )
            assert status == 200 and {private["table"], small["table"], big["table"]} <= {t["table"] for t in full}
            status, answer = await stranger.call("GET", "/api/tables", headers={"Authorization": "Bearer guess"})
            assert (status, answer["error"]) == (401, "admin_token")
            # private: refused; the spectator link of an open table is its watch page
            status, answer = await stranger.call("POST", f"/api/tables/{private['table']}/join", {"name": "Sue"})
            assert (status, answer["error"]) == (403, "not_open")
            assert (
                answer["message"]
                == f"Der Tisch {private['table']} ist nicht für alle offen; bitte um einen Einladungslink"
            )
            assert not any(s.taken for s in w.hub.tables[private["table"]].seats)
            for bad, code in [({"name": "rules p2"}, "bot_name"), ({}, "bad_name"), ({"name": "hal"}, "name_taken")]:
                status, answer = await stranger.call("POST", f"/api/tables/{big['table']}/join", bad)
                assert answer["error"] == code, answer
            sat = await stranger.ok("POST", f"/api/tables/{big['table']}/join", {"name": "Sue"})
            t = w.hub.tables[big["table"]]
            assert (
                sat["seat"] == "p2"
                and t.owns(t.seats[1], sat["token"])
                and sat["page"] == f"/t/{big['table']}/s/{sat['token']}"
            )
            # quick play: the fullest open table of the preset (big, one seat left), which then starts itself
            q = await third.ok("POST", "/api/quick-play", {"preset": "traditional", "name": "Quinn"})
            assert (q["table"], q["seat"], q["opened"]) == (big["table"], "p3", False)
            assert str(t.status) == "playing"  # full: it started itself
            status, answer = await fourth.call("POST", f"/api/tables/{big['table']}/join", {"name": "Zoe"})
            assert (status, answer["error"]) == (409, "no_free_seat")
            q2 = await fourth.ok("POST", "/api/quick-play", {"preset": "traditional", "name": "Zoe"})
            assert q2["table"] == small["table"] and not q2["opened"]
            # no open table of the preset: quick play opens one, the person its creator at p1
            q3 = await fourth.ok("POST", "/api/quick-play", {"preset": "nap", "name": "Zoe"})
            new = w.hub.tables[q3["table"]]
            assert q3["opened"] and q3["seat"] == "p1" and new.preset == "nap" and new.is_creator(q3["creator_token"])
            assert len(new.seats) == 5 and str(new.status) == "waiting"
            assert q3["table"] in {x["table"] for x in (await fourth.ok("GET", "/api/tables"))}
            for body, code in [
                ({"preset": "poker", "name": "Zoe"}, "unknown_preset"),
                ({"name": "tips p1"}, "bot_name"),
            ]:
                status, answer = await fourth.call("POST", "/api/quick-play", body)
                assert answer["code"] == code, answer
            # watching an open table: its spectator link is its watch page
            status, page = await fourth.call("GET", entry["spectate"])
            assert status == 200 and "table.js" in page

    asyncio.run(go())


def test_quick_plays_at_the_same_moment_fill_one_table(sqlite_url):
    """Ten people who press quick play at once sit at two full tables of five (the first one
    opened, then the next), not at ten tables of one."""

    async def go():
        async with World(sqlite_url) as w:
            people = [w.client() for _ in range(10)]
            answers = await asyncio.gather(
                *(c.ok("POST", "/api/quick-play", {"preset": "nap", "name": f"Q{i}"}) for i, c in enumerate(people))
            )
            tables = sorted(Counter(a["table"] for a in answers).values())
            assert tables == [5, 5], tables
            assert sum(a["opened"] for a in answers) == 2

    asyncio.run(go())


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_lobby_and_club_pages_are_served(sqlite_url, lang):
    """The account, club, season sheet, invite and ratings pages are the page shell with their
    script, in the language asked for; the lobby still loads its script."""

    async def go():
        async with World(sqlite_url) as w:
            c = w.client(lang)
            for path, script in [
                ("/account", "account.js"),
                ("/c/abc", "club.js"),
                ("/c/abc/s/def", "club.js"),
                ("/c/join/xyz", "club.js"),
                ("/ratings", "club.js"),
                ("/", "lobby.js"),
            ]:
                status, page = await c.call("GET", path)
                assert status == 200 and f"/static/{script}" in page and f'<html lang="{lang}">' in page

    asyncio.run(go())
