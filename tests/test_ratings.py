"""Ratings (``ramsli.server.players.ratings``) and season numbers (``ramsli.server.players.records``).

The OpenSkill check: two sessions worked out by hand with the Plackett–Luce update of Weng & Lin
(2011, Algorithm 4) and openskill's default parameters, written out below independently of the
``openskill`` package, and the same two sessions played as two club ledgers on the server.
"""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ramsli.server.players.ratings import CALIBRATION, Rating, calibrate, load_calibration, rate, replay
from ramsli.server.players.records import placement_points, places
from ramsli.server.storage.directory import bot_key

from clubworld import World

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0, 1e-4


def plackett_luce(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """One Plackett–Luce update (no ties), from the formulas: each σ first grows by τ
    (σ'² = σ² + τ²); c² = Σ (σ'² + β²); for seat i and every q ranked no worse than i,
    p = e^(μ_i/c) / Σ_{s ranked no better than q} e^(μ_s/c); Ω_i = σ'²/c · Σ (1[q=i] − p);
    Δ_i = (σ'/c) · σ'²/c² · Σ p(1 − p); μ ← μ + Ω_i, σ ← σ' · √max(1 − Δ_i, κ)."""
    var = [s * s + TAU * TAU for _m, s in players]
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    e = [math.exp(m / c) for m, _s in players]
    n = len(players)
    below = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = e[i] / below[q]
                omega += (1 - p) if q == i else -p
                delta += p * (1 - p)
        omega *= var[i] / c
        delta *= (math.sqrt(var[i]) / c) * var[i] / c**2
        out.append((players[i][0] + omega, math.sqrt(var[i]) * math.sqrt(max(1 - delta, KAPPA))))
    return out


def test_openskill_two_sessions_as_worked_out_by_hand():
    """Session 1: Ann beats Bo (both new). By hand: σ'² = 625/9 + 1/144 = 69.4514, c² = 2(σ'² + β²) =
    173.625, c = 13.1767; equal μ give p = 1/2, so Ω = ±σ'²/c · 1/2 = ±2.6354 and Δ = (σ'/c)(σ'²/c²)/4
    = 0.63246 · 0.4 · 0.25 = 0.063246: Ann 27.6354, Bo 22.3646, both σ = 8.33375 · √(1 − Δ) = 8.0659.
    Session 2: Cy (new) first, Ann second, Bo third, from those ratings."""
    one = plackett_luce([(MU, SIGMA), (MU, SIGMA)], [1, 2])
    assert [round(x, 4) for pair in one for x in pair] == [27.6354, 8.0659, 22.3646, 8.0659]
    two = plackett_luce([one[0], one[1], (MU, SIGMA)], [2, 3, 1])
    assert [round(x, 4) for pair in two for x in pair] == [27.7491, 7.8071, 19.5041, 7.827, 27.932, 8.199]
    got = replay([(["server"], [("ann", 1), ("bo", 2)]), (["server"], [("ann", 2), ("bo", 3), ("cy", 1)])], {})
    for name, (mu, sigma) in zip(("ann", "bo", "cy"), two):
        r = got[("server", name)]
        assert r.mu == pytest.approx(mu, abs=1e-9) and r.sigma == pytest.approx(sigma, abs=1e-9)
    assert [got[("server", n)].sessions for n in ("ann", "bo", "cy")] == [2, 2, 1]


def test_the_server_rates_two_club_ledgers_as_worked_out_by_hand(sqlite_url):
    """The same two sessions as pub ledgers of a club whose every seat is a player (R3.7: ranked by
    counters): Ann 21, Bo 19 (Ann took the pot of two antes, R5.1); then Cy 22, Ann 19, Bo 14 (Cy
    took the pot, Bo was bete, R5.3). The club's and the server's ratings are the hand-worked ones."""
    one = plackett_luce([(MU, SIGMA), (MU, SIGMA)], [1, 2])
    two = plackett_luce([one[0], one[1], (MU, SIGMA)], [2, 3, 1])

    async def go():
        async with World(sqlite_url) as w:
            ann, bo, cy = w.client(), w.client(), w.client()
            for c, name in ((ann, "Ann"), (bo, "Bo"), (cy, "Cy")):
                await c.register(name)
            club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
            for c in (bo, cy):
                invite = await ann.ok("POST", f"/api/clubs/{club}/invites")
                await c.ok("POST", "/api/clubs/join", {"token": invite["token"]})
            ids = {m["name"]: m["player"] for m in (await ann.ok("GET", f"/api/clubs/{club}"))["members"]}
            for names, hand, stacks in [
                (["Ann", "Bo"], {"active": [0, 1], "tricks": {"0": 3, "1": 2}}, [21, 19]),
                (["Ann", "Bo", "Cy"], {"active": [0, 1, 2], "tricks": {"0": 2, "1": 0, "2": 3}}, [19, 14, 22]),
            ]:
                made = await ann.ok(
                    "POST",
                    "/api/ledgers",
                    {"names": names, "club": club, "players": [ids[n] for n in names], "options": {"end": ["hands:1"]}},
                )
                state = await ann.ok("POST", f"/api/ledgers/{made['ledger']}/hands?token={made['token']}", hand)
                assert state["over"] and state["stacks"] == stacks
                for c in (bo, cy)[: len(names) - 1]:  # each named member confirms (issue 38.11)
                    await c.ok("POST", f"/api/ledgers/{made['ledger']}/confirm")
            for scope in (club, "server"):
                stored = await w.directory.ratings(scope)
                for name, (mu, sigma) in zip(("Ann", "Bo", "Cy"), two):
                    r = stored[ids[name]]
                    assert (r["mu"], r["sigma"]) == (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9))
            shown = {r["name"]: r for r in (await cy.ok("GET", f"/api/clubs/{club}"))["ratings"]}
            assert (shown["Cy"]["rating"], shown["Cy"]["uncertainty"]) == (27.9, 8.2)
            assert [r["name"] for r in (await cy.ok("GET", f"/api/clubs/{club}"))["ratings"]] == ["Ann", "Cy", "Bo"]

            # computed again from the first session on: the same ratings
            def values(rows):
                return {k: (round(v["mu"], 9), round(v["sigma"], 9), v["sessions"]) for k, v in rows.items()}

            before = values(await w.directory.ratings(club))
            await w.app.state.clubs.recompute_ratings()
            assert values(await w.directory.ratings(club)) == before
            # the keeper corrects the second evening after its end: Bo took the pot, Cy was bete;
            # recorded again, and every rating computed again (R3.4: the stacks still add up)
            state = await ann.ok(
                "PUT",
                f"/api/ledgers/{made['ledger']}/hands/1?token={made['token']}",
                {"active": [0, 1, 2], "tricks": {"0": 2, "1": 3, "2": 0}},
            )
            assert state["stacks"] == [19, 22, 14]
            assert state["consent"]["waiting"] == ["Bo", "Cy"]  # they confirmed the books as they were
            for c in (bo, cy):
                await c.ok("POST", f"/api/ledgers/{made['ledger']}/confirm")
            fixed = plackett_luce([one[0], one[1], (MU, SIGMA)], [2, 1, 3])
            stored = await w.directory.ratings(club)
            for name, (mu, sigma) in zip(("Ann", "Bo", "Cy"), fixed):
                assert stored[ids[name]]["mu"] == pytest.approx(mu, abs=1e-9)
                assert stored[ids[name]]["sigma"] == pytest.approx(sigma, abs=1e-9)
            assert stored[ids["Bo"]]["sessions"] == 2 and len(await w.directory.records(club=club)) == 2

    asyncio.run(go())


def test_a_bot_seated_twice_moves_once_by_its_seats_mean():
    """A bot level at two seats is one player: its new rating is the mean of its two seats' updates."""
    start = {"ann": Rating(25.0, 25 / 3), "easy": Rating(24.0, 2.0)}
    new = rate(start, [("ann", 1), ("easy", 2), ("easy", 3)])
    seats = plackett_luce([(25.0, 25 / 3), (24.0, 2.0), (24.0, 2.0)], [1, 2, 3])
    assert new["easy"].mu == pytest.approx((seats[1][0] + seats[2][0]) / 2)
    assert new["easy"].sigma == pytest.approx((seats[1][1] + seats[2][1]) / 2)
    assert new["ann"].mu == pytest.approx(seats[0][0]) and new["easy"].sessions == 1
    with pytest.raises(ValueError):
        rate(start, [("ann", 1)])


def test_bot_keys_and_the_calibration():
    """Each level is one player (``rules:eps=0.35`` is ``easy``, ``montecarlo:samples=6,eps=0.1`` ``hard``); the
    bundled calibration rates every level, ``hard`` and ``expert`` above the others, with a small σ; a calibration of
    duplicate sessions is repeatable; an arena result is read too; another file is refused."""
    assert [
        bot_key(s)
        for s in (
            "tips:eps=0.35",
            "rules:eps=0.35",
            "easy",
            "montecarlo:samples=6,eps=0.1",
            "montecarlo:samples=2,eps=0.2",
            "expert",
        )
    ] == ["easy", "easy", "easy", "hard", "medium", "expert"]
    assert bot_key("tips") == "tips" and bot_key("montecarlo:samples=6") == "montecarlo:samples=6"  # no slips
    assert bot_key("montecarlo:samples=64") == "montecarlo:samples=64"
    assert bot_key("montecarlo") == "montecarlo"  # the default budget is no level (docs/benchmarks.md)
    cal = load_calibration()
    assert set(cal) == {"easy", "medium", "hard", "expert", "random"}
    # places in ten-hand sessions: easy and medium are within one σ (docs/clubs.md), the rest in order
    assert cal["random"].mu < min(cal["easy"].mu, cal["medium"].mu)
    assert max(cal["easy"].mu, cal["medium"].mu) < cal["hard"].mu < cal["expert"].mu
    assert all(r.sigma < 3 for r in cal.values())
    data = json.loads(CALIBRATION.read_text())
    assert data["format"] == "ramsli-calibration/1" and data["hands"] == 10 and data["sessions"] >= 60
    small = calibrate(["easy", "random"], sessions=3, hands=3, seed=4)
    assert small == calibrate(["easy", "random"], sessions=3, hands=3, seed=4)
    assert [e["sessions"] for e in small["entrants"]] == [6, 6]


def test_calibration_files(tmp_path):
    from ramsli.analysis.arena import run_arena

    arena = tmp_path / "arena.json"
    arena.write_text(json.dumps(run_arena(["easy", "random"], deals=2, seed=1).to_dict()))
    assert set(load_calibration(arena)) == {"easy", "random"}
    bad = tmp_path / "bad.json"
    for text in (
        "not json",
        json.dumps({"format": "something"}),
        json.dumps({"format": "ramsli-arena/1", "entrants": [{}]}),
    ):
        bad.write_text(text)
        with pytest.raises(ValueError, match="bad.json"):
            load_calibration(bad)


@given(st.lists(st.integers(0, 60), min_size=2, max_size=6))
def test_placement_points_share_ties_and_hand_out_every_point(stacks):
    """Of N seats the first gets N points and the last 1; seats tied on counters share the points of
    the places they cover (R3.7), so every session hands out N(N + 1)/2 points; more counters never
    get fewer points."""
    n = len(stacks)
    pts = placement_points(stacks)
    assert sum(pts) == pytest.approx(n * (n + 1) / 2)
    for a in range(n):
        for b in range(n):
            if stacks[a] > stacks[b]:
                assert pts[a] > pts[b] and places(stacks)[a] < places(stacks)[b]
            elif stacks[a] == stacks[b]:
                assert pts[a] == pts[b]
    assert min(pts) >= 1 and max(pts) <= n
