"""The skill counters' rows and summaries (``ramsli.server.storage.skill``, ``ramsli.server.clubs.skill``):
one row per player, table and hand, stored once; a player's summary from their rows is the
``SkillSummary`` of those hands; a figure hides every number under its minimum (R7)."""

from __future__ import annotations

import asyncio
import math

from ramsli.coach.skill import SkillSummary
from ramsli.server.clubs.skill import figure
from ramsli.server.storage.directory import Directory
from ramsli.server.storage.eventstore import EventStore
from ramsli.server.storage.skill import FIELDS, SkillRows, summary_of


def _row(pid: str, table: str, hand: int, skill: float, club: str | None = None) -> dict:
    return {"player_id": pid, "table_id": table, "hand": hand, "seat": 1, "club_id": club, "measured": float(hand),
            "skill": skill, "deal_value": 0.5, "net": 2 * hand, "decisions": 3}  # fmt: skip


def test_rows_are_stored_once_read_by_player_club_and_table_and_forgotten(sqlite_url):
    async def go():
        store = await EventStore.open(sqlite_url)
        try:
            d = Directory(store.engine)
            for t in ("t1", "t2"):
                await store.create_table(t, {"seats": []}, 1.0)
            ann = (await d.create_player("Ann", "ann", "x", 1.0))["id"]
            bo = (await d.create_player("Bo", "bo", "x", 1.0))["id"]
            assert (await d.player(ann))["skill_opt_in"] is False  # off by default
            rows = SkillRows(store.engine)
            assert await rows.opted_in() == []
            await d.update_player(ann, skill_opt_in=True)
            assert await rows.opted_in() == [ann]
            assert await rows.put(_row(ann, "t1", 1, 1.5, "c1"))
            assert not await rows.put(_row(ann, "t1", 1, -9.0, "c1"))  # a hand is stored once: unchanged
            await rows.put(_row(ann, "t1", 2, -0.5, "c1"))
            await rows.put(_row(ann, "t2", 1, 0.25))
            await rows.put(_row(bo, "t2", 2, 3.0))
            mine = await rows.of_player(ann)
            assert [(r["table_id"], r["hand"], r["skill"]) for r in mine] == [
                ("t1", 1, 1.5),
                ("t2", 1, 0.25),
                ("t1", 2, -0.5),
            ]
            assert set(FIELDS) <= set(mine[0])
            assert [r["hand"] for r in await rows.of_player(ann, club="c1")] == [1, 2]
            assert len(await rows.all()) == 4 and len(await rows.all("c1")) == 2
            assert {(r["player_id"], r["hand"]) for r in await rows.of_tables(["t2"])} == {(ann, 1), (bo, 2)}
            assert await rows.measured("t1") == {(ann, 1), (ann, 2)}
            assert await rows.forget(ann) == 3
            assert await rows.of_player(ann) == [] and len(await rows.all()) == 1
        finally:
            await store.close()

    asyncio.run(go())


def test_the_summary_of_rows_is_the_skill_summary_of_their_hands():
    rows = [_row("a", "t", k, x) for k, x in enumerate([1.0, -2.0, 0.5, 3.0], 1)]
    s = summary_of(rows)
    skills = [1.0, -2.0, 0.5, 3.0]
    nets = [2.0, 4.0, 6.0, 8.0]
    want = SkillSummary(
        hands=4,
        decisions=12,
        skill_sum=sum(skills),
        skill_sq=sum(x * x for x in skills),
        net_sum=sum(nets),
        net_sq=sum(x * x for x in nets),
        corrected_sum=sum(x - 0.5 for x in nets),
        corrected_sq=sum((x - 0.5) ** 2 for x in nets),
    )
    assert s == want
    mean = sum(skills) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in skills) / 3)
    f = figure(s)
    assert f["hands"] == 4 and f["decisions"] == 12
    assert f["skill"]["mean"] == round(mean, 2) and f["skill"]["ci95"] == round(1.96 * sd / 2, 2)
    assert f["skill"]["low"] == round(mean - 1.96 * sd / 2, 2) and f["net"]["mean"] == 5.0
    # under the minimum: the count only (R7: one hand's skill tells of its cards)
    hidden = figure(s, least=5)
    assert hidden["hands"] == 4 and set(hidden["skill"].values()) == {None} and set(hidden["net"].values()) == {None}
    one = figure(summary_of(rows[:1]))
    assert one["skill"]["mean"] == 1.0 and one["skill"]["ci95"] is None  # no interval from one hand
    assert figure(summary_of([]))["skill"]["mean"] is None
