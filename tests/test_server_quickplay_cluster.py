"""Quick play across two ``ramsli serve`` processes on one PostgreSQL database (issue 37.2).

Quick play (``POST /api/quick-play``) seats a person at the fullest open table of the preset, or
opens one. With several processes it chooses from the shared database, not from the tables of the
process the request reached, and the table another process runs is joined through that process;
quick plays at the same moment are taken one at a time across the processes (a row lock).

- Ann quick plays through the first process (a new table), Bo through the second: Bo sits at Ann's
  table, and a logged-in player through the second process too (the login goes along: the seat
  takes the player's name and is linked to the player);
- for each preset, five people press quick play at once, three through one process and two
  through the other: one table of five, opened once (not a table per process);
- nobody sits twice at one seat, and the full tables started themselves.

Runs under ``CI=true`` (PostgreSQL); locally it skips without it.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from helpers import ServerProcess, http_get, pg_admin, post_json, postgres_base, scaled


@pytest.fixture
def two_processes(tmp_path):
    """Two started ``ramsli serve`` processes on a fresh PostgreSQL database; stopped afterwards."""
    base = postgres_base()
    name = "ramsli_quick_" + secrets.token_hex(5)
    pg_admin(base, f"CREATE DATABASE {name}")
    url = base.rsplit("/", 1)[0] + "/" + name
    servers = [ServerProcess(url, tmp_path, ["--create-limit", "0"]) for _ in range(2)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()
        pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _quick(base: str, preset: str, name: str) -> dict:
    status, answer = post_json(base, "/api/quick-play", {"preset": preset, "name": name})
    assert status == 200, answer
    return answer


def _process(base: str) -> str:
    return json.loads(http_get(base, "/healthz")[1])["process"]


def test_quick_play_through_another_process_sits_at_the_open_table(two_processes):
    first, second = two_processes
    assert _process(first.http) != _process(second.http)
    ann = _quick(first.http, "traditional", "Ann")
    assert ann["opened"] is True and ann["seat"] == "p1"
    bo = _quick(second.http, "traditional", "Bo")
    assert bo["opened"] is False, bo  # not a table of its own on the second process
    assert (bo["table"], bo["seat"]) == (ann["table"], "p2")
    assert bo["page"] == f"/t/{ann['table']}/s/{bo['token']}"

    # a logged-in player through the second process: the login goes along to the table's process
    import httpx

    with httpx.Client(base_url=second.http, timeout=scaled(10)) as client:
        made = client.post("/api/players", json={"name": "Cleo", "password": "a long password 42"})
        assert made.status_code == 201, made.text
        csrf = {"X-CSRF-Token": made.json()["csrf"]}
        r = client.post("/api/quick-play", json={"preset": "traditional", "name": "ignored"}, headers=csrf)
        assert r.status_code == 200, r.text
        cleo = r.json()
        assert (cleo["table"], cleo["seat"], cleo["opened"]) == (ann["table"], "p3", False)
        assert cleo["player"]["name"] == "Cleo"  # sat as the player (R2.2), linked to the seat
        again = client.post("/api/quick-play", json={"preset": "traditional"}, headers=csrf)
        assert again.status_code == 200, again.text
        assert (again.json()["table"], again.json()["seat"]) == (ann["table"], "p3")  # the player's own seat
    info = json.loads(http_get(second.http, f"/api/tables/{ann['table']}")[1])  # relayed to its process
    names = [s["name"] for s in info["seats"]]
    assert names[:3] == ["Ann", "Bo", "Cleo"], names


def test_quick_plays_at_the_same_moment_across_processes_fill_one_table(two_processes):
    """For each preset of R6, five people press quick play at the same moment, three through one
    process and two through the other (45 requests at once): one table of five per preset, opened
    once. Without the guard across processes both open a table when neither sees one yet."""
    from ramsli.rules import PRESETS

    bases = [s.http for s in two_processes]
    presses = [(preset, i) for i in range(5) for preset in PRESETS]
    with ThreadPoolExecutor(len(presses)) as pool:
        answers = list(pool.map(lambda p: (p[0], _quick(bases[p[1] % 2], p[0], f"Q{p[1]}")), presses))
    for preset in PRESETS:
        mine = [a for pr, a in answers if pr == preset]
        tables = Counter(a["table"] for a in mine)
        assert list(tables.values()) == [5], (preset, tables)
        assert sum(a["opened"] for a in mine) == 1, (preset, mine)
        assert len({a["seat"] for a in mine}) == 5  # nobody shares a seat
        info = json.loads(http_get(bases[0], f"/api/tables/{mine[0]['table']}")[1])
        assert info["status"] == "playing", info  # the full open table started itself
