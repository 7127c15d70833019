"""``ramsli.client`` against a real ``ramsli serve`` process (issue 26, item 1).

- the example bot package (``examples/ramsli-example-bot``, installed by ``test_bot_packages``'s
  fixture) plays a seat through :func:`ramsli.client.play_bot`, and a built-in bot another seat
  through the real ``ramsli bot URL`` command, until the session ends; the table shows both seats
  as "bot (external)";
- R7, D-16: every frame the client received holds no card its seat may not know at that moment
  (checked against the hands replayed from the server's database afterwards);
- a client whose socket is closed mid-hand reconnects with the seat's personal token and finishes;
- bad input: malformed frames, an intent out of turn or on an old view, a flood, a spectator's
  intent, a bad name, a wrong token each raise :class:`~ramsli.client.ClientRefused` (or
  :class:`~ramsli.client.ConnectionLost`) with the server's code and record.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import threading

import pytest
from test_bot_packages import (  # noqa: F401 - the installed example package and the bad bots
    _on_path,
    example_target,
    faulty_target,
)

from ramsli.client import (
    RATE_LIMIT,
    ClientRefused,
    ConnectionLost,
    Invite,
    SyncTableClient,
    TableClient,
    play_bot,
)

from helpers import SRC, cards_in, http_json, post_ok, scaled

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def example(example_target):  # noqa: F811 - the fixture of test_bot_packages, on sys.path here
    yield from _on_path(example_target)


@pytest.fixture
def faulty(faulty_target, example_target):  # noqa: F811 - the fixtures of test_bot_packages
    yield from _on_path(faulty_target, example_target)


@pytest.fixture
def server(server_factory, sqlite_url):
    """A server of its own for each test: shared by the module, the reconnect test timed out in one
    run of three under ``-n 2`` (a server carrying the other tests' tables)."""
    return server_factory(sqlite_url)


def _table(server, seats, hands: int = 2, seed: int = 7, **opts) -> dict:
    body = {
        "rules": [f"end=hands:{hands}"],
        "seats": seats,
        "bot_pace_seconds": 0,
        "hand_pause_seconds": 0,
        "seed": seed,
        **opts,
    }
    return post_ok(server.http, "/api/tables", body)


async def _until(pred, seconds: float = scaled(60.0)) -> None:
    """Until ``pred()`` holds (AssertionError after ``seconds``)."""
    for _ in range(int(seconds / 0.02)):
        if pred():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def _link(server, made, i: int) -> str:
    return server.http + made["seats"][i]["invite"]


async def _hands_of(url: str, table: str):
    """The table's finished hands, replayed from the server's database (every card known)."""
    from ramsli.server.storage.eventstore import EventStore
    from ramsli.server.tables.hub import Hub

    store = await EventStore.open(url)
    try:
        hub = Hub(store, allow_test_seeds=True)
        await hub.restore()
        await hub.locate(table)  # a finished table is read on demand
        return [e.hand for e in hub.tables[table].session.results]
    finally:
        await store.close()


def _hidden_cards(frame: dict, hands, seat: int) -> set[str]:
    """The cards in ``frame`` that ``seat`` may not know at that moment (R7): of the hand the frame
    shows, anything but the turn-up, jokers turned aside, its own dealt cards and the cards played
    up to the frame's log."""
    named = cards_in(frame)
    hand_v = frame.get("hand") if frame.get("type") == "view" else None
    if hand_v is None:
        return named
    hand = hands[hand_v["number"] - 1]
    known = {str(hand.turn_up)} | {str(c) for c in hand.turned_aside}
    known |= {str(c) for c in hand.dealt[seat] if c is not None}
    known |= {str(a.card) for a in hand.history[: len(hand_v["log"])] if a.kind == "pl"}
    return named - known


def test_the_example_bot_package_and_ramsli_bot_play_a_server_table_R7(
    example,
    server,
    example_target,  # noqa: F811 - the fixture imported from test_bot_packages
):
    """The example package's bot (``lowest``) plays p1 through ``ramsli.client``, ``random`` plays
    p2 through the ``ramsli bot`` command, ``rules`` p3 at the server; the session ends, the seats
    show as "bot (external)", and no frame p1 received holds a card it may not know (R7, D-16)."""
    made = _table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rules"}], hands=3)
    frames: list[dict] = []
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(SRC), str(example_target), os.environ.get("PYTHONPATH", "")])
    )
    cmd = [sys.executable, "-c", "from ramsli.cli import main; main()", "bot", _link(server, made, 1)]
    cmd += ["--bot", "random", "--name", "Rita", "--seed", "5", "--again-wait", "0"]

    async def go():
        c = TableClient(_link(server, made, 0), on_message=frames.append)
        task = asyncio.create_task(
            play_bot(_link(server, made, 0), "lowest", "Lowe", seed=1, client=c, again_seconds=0)
        )
        for _ in range(int(scaled(200))):  # both seated, then the creator starts
            status, info = http_json(server.http, "GET", f"/api/tables/{made['table']}")
            if all(s["taken"] for s in info["seats"][:2]):
                break
            await asyncio.sleep(0.1)
        post_ok(server.http, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
        try:
            return await asyncio.wait_for(task, scaled(240))
        finally:
            await c.close()

    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        run = asyncio.run(go())
        out, _ = proc.communicate(timeout=scaled(120))
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert "sat down at p2" in out and "hand 3:" in out and "session over (hands)" in out, out
    assert run.seat == 0 and run.hands == 3 and run.end_reason == "hands"
    assert run.decisions > 0 and run.faults == 0 and run.refused == []
    assert [s["place"] for s in run.standings] and {s["name"] for s in run.standings} >= {"Lowe", "Rita"}
    status, info = http_json(server.http, "GET", f"/api/tables/{made['table']}")
    assert [s["external"] for s in info["seats"]] == [True, True, False]
    views = [f for f in frames if f["type"] == "view"]
    assert views[-1]["seats"][0]["external"] and views[-1]["seats"][0]["kind"] == "human"
    hands = asyncio.run(_hands_of(server.database, made["table"]))
    assert len(hands) == 3
    assert sum(1 for f in views if f["your_cards"]) > 10
    for f in frames:
        assert _hidden_cards(f, hands, 0) == set(), f


def test_a_client_dropped_mid_hand_reconnects_and_finishes_and_a_raising_bot_is_replaced(
    faulty, server, caplog, monkeypatch
):
    """The socket of the bot's client is closed in the middle of hand 1; it reconnects with the
    seat's personal token (a new ``welcome`` and the whole view) and plays the session out. The bot
    (``raiser``, an installed package's bot that raises on every decision) is reported by name and
    each of its decisions is the ``tips`` move: the client never stops over it."""
    made = _table(server, [{"kind": "human"}, {"kind": "bot", "bot": "rules"}, {"kind": "bot", "bot": "random"}])

    async def go():
        c = TableClient(_link(server, made, 0), backoff=(0.1, 0.5))
        task = asyncio.create_task(play_bot(c.invite, "raiser", "Rai", seed=2, client=c, again_seconds=0))
        await _until(lambda: c.view is not None)
        post_ok(server.http, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
        await _until(
            lambda: c.view.hand_number == 1 and c.view.raw["hand"]["phase"] in ("play", "declare") and c.view.your_cards
        )
        tokens_before = c.token
        await c.drop()
        try:
            run = await asyncio.wait_for(task, scaled(240))
        finally:
            await c.close()
        return run, tokens_before, c

    from ramsli.bots import packages

    monkeypatch.setattr(packages, "_FAULTS", {})  # this test's faults are logged, whatever ran before
    with caplog.at_level(logging.WARNING, logger="ramsli"):
        run, token, c = asyncio.run(go())
    assert c.token == token  # the personal token of the seat, kept across the drop
    assert run.connections >= 2, run
    assert run.end_reason == "hands" and run.hands == 2 and run.standings is not None
    assert run.faults == run.decisions > 0 and run.refused == []
    assert any("'raiser'" in r.getMessage() and "tips move" in r.getMessage() for r in caplog.records)


def test_a_bot_follows_play_again_to_the_next_session(server):
    """A tester's finding: ``ramsli bot`` stopped at the end of the session, so when the table's
    people pressed "Play again" its seat at the new table stayed empty until a stand-in bot took it.
    Now it follows as a person's seat does: it sees the table's ``next_table``, asks for its kept
    seat (``rematch`` with its token), sits there with the same name and plays that session too
    (R3.6: each session ends by its rule); nobody asking again within ``again_seconds``, it stops."""
    made = _table(server, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], hands=1)
    lines: list[str] = []

    async def go():
        c = TableClient(_link(server, made, 0))
        task = asyncio.create_task(
            play_bot(c.invite, "random", "Remo", seed=4, client=c, again_seconds=5, progress=lines.append)
        )
        await _until(lambda: c.view is not None)
        post_ok(server.http, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
        await _until(lambda: c.view.is_over)
        again = post_ok(server.http, f"/api/tables/{made['table']}/rematch", {"token": made["creator_token"]})
        try:
            return again, await asyncio.wait_for(task, scaled(120))
        finally:
            await c.close()

    again, run = asyncio.run(go())
    assert run.tables == [made["table"], again["table"]], (run, lines)
    assert run.hands == 2 and run.end_reason == "hands" and run.faults == 0 and run.refused == []
    status, info = http_json(server.http, "GET", f"/api/tables/{again['table']}")
    assert info["status"] == "over"
    assert info["seats"][0]["name"] == "Remo" and info["seats"][0]["external"], info["seats"][0]
    assert any(line.startswith("play again: sat down at p1 of table " + again["table"]) for line in lines), lines
    assert lines[-1].startswith("waiting up to 5 s for someone to play again"), lines


def test_refusals_are_typed_errors_with_the_servers_record(server):
    """Each refusal of the server reaches the client as ClientRefused naming its code and record:
    not started, a malformed frame, a message of the wrong shape, an intent out of turn (the
    engine's ``not_your_turn``, R4.5), an old view (``stale_seq``), another seat's action, a flood
    (``rate_limited``), a spectator's intent, a bad name and a refused token."""
    made = _table(server, [{"kind": "human"}] * 3, hands=1)

    async def go():
        clients = [TableClient(_link(server, made, i)) for i in range(3)]
        try:
            for i, c in enumerate(clients):
                await c.sit(f"P{i + 1}")
                await c.connect()
            with pytest.raises(ClientRefused) as e:
                await clients[0].act("p1 in")
            assert e.value.code == "not_started"
            post_ok(server.http, f"/api/tables/{made['table']}/start", {"creator_token": made["creator_token"]})
            v = await clients[0].next_view(after=clients[0].view.seq, seconds=scaled(30))
            while v.to_act is None:
                v = await clients[0].next_view(seconds=scaled(30))
            mover = clients[v.to_act]
            other = clients[(v.to_act + 1) % 3]
            view = await mover.next_view(after=v.seq - 1)
            me = f"p{other.view.seat + 1}"
            out: dict[str, ClientRefused] = {}
            await other.send("{not json")
            with pytest.raises(ClientRefused) as e:
                await other.raise_refusal()
            out["bad_json"] = e.value
            await other.send({"type": "act", "action": f"{me} in"})
            with pytest.raises(ClientRefused) as e:
                await other.raise_refusal()
            out["bad_message"] = e.value
            with pytest.raises(ClientRefused) as e:
                await other.act(f"{me} in", view.seq)
            out["illegal"] = e.value
            with pytest.raises(ClientRefused) as e:
                await mover.act(view.legal[0], view.seq - 1)
            out["stale_seq"] = e.value
            with pytest.raises(ClientRefused) as e:
                await other.act(view.legal[0], view.seq)
            out["not_your_seat"] = e.value
            for _ in range(2 * RATE_LIMIT):
                await other.send({"type": "ping"}, throttle=False)
            with pytest.raises(ClientRefused) as e:
                while True:
                    await other.raise_refusal()
            out["rate_limited"] = e.value
            await asyncio.sleep(1.5)  # the bucket fills again
            await mover.act(view.legal[0], view.seq)  # the table was left as it was: the move still goes
            return out
        finally:
            for c in clients:
                await c.close()

    out = asyncio.run(go())
    for code, err in out.items():
        assert err.code == code, (code, err)
        assert err.message, err
    assert out["bad_json"].refusal.code == "bad_json"
    assert out["bad_message"].refusal.code == "field_missing" and out["bad_message"].refusal["field"] == "seq"
    assert out["illegal"].refusal.code == "not_your_turn" and out["illegal"].refusal.rule == "R4.5"
    assert out["stale_seq"].seq is not None

    # a spectator's link, through the synchronous wrapper
    with SyncTableClient(server.http + made["spectate"]) as s:
        v = s.connect()
        assert v.seat is None and v.your_cards == () and v.legal == ()
        with pytest.raises(ClientRefused) as e:
            s.act("p1 pl AS")
        assert e.value.code == "spectator"
    # HTTP refusals and a refused token
    with SyncTableClient(_link(server, made, 0)) as s:
        with pytest.raises(ClientRefused) as e:
            s.sit("  ")
        assert e.value.code == "bad_name" and e.value.status == 422 and e.value.refusal.code == "bad_name"
        with pytest.raises(ClientRefused) as e:
            s.sit("Again")
        assert e.value.code == "seat_taken"
    bad = Invite(server.http, made["table"], "not-a-token")
    with SyncTableClient(bad, reconnects=0) as s:
        with pytest.raises(ConnectionLost) as e:
            s.connect()
        assert e.value.refusal is not None and e.value.refusal.code == "bad_token"


def test_ramsli_bot_stops_cleanly_on_ctrl_c_and_refuses_bad_input(server):
    """``ramsli bot`` sits down, then Ctrl-C (SIGINT) closes its connection and stops it (exit
    status 130); a bad link or an unknown bot is refused with exit status 2 before anything is
    sent; a link whose seat someone else took ends with the server's refusal (exit status 1)."""
    made = _table(server, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    base = [sys.executable, "-c", "from ramsli.cli import main; main()", "bot"]
    proc = subprocess.Popen(
        base + [_link(server, made, 0), "--bot", "random"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert "sat down at p1" in line and "'Random bot'" in line, line
        status, info = http_json(server.http, "GET", f"/api/tables/{made['table']}")
        assert info["seats"][0]["taken"] and info["seats"][0]["external"] and info["seats"][0]["name"] == "Random bot"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=scaled(60))
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    assert "stopped" in err
    for args, code, says in [
        (["https://x/nothing"], 2, "Not a table link"),
        ([_link(server, made, 1), "--bot", "no-such-bot"], 2, "no-such-bot"),
        ([_link(server, made, 0), "--bot", "random"], 1, "seat_taken"),
    ]:
        r = subprocess.run(base + args, env=env, capture_output=True, text=True, timeout=scaled(120))
        assert r.returncode == code and says in r.stderr, (args, r.returncode, r.stdout, r.stderr)


def test_an_invite_link_behind_a_path_prefix():
    i = Invite.parse("https://cards.example.org/pub/ramsli/t/abc/s/T0k?lang=de")
    assert (i.base, i.table, i.token, i.spectator) == ("https://cards.example.org/pub/ramsli", "abc", "T0k", False)
    assert i.ws_url == "wss://cards.example.org/pub/ramsli/ws/abc"
    for bad in ("https://x/t/abc", "ftp://x/t/a/s/b", "https://x/q/a/s/b", "https://x/t/a/z/b"):
        with pytest.raises(ValueError, match="table link"):
            Invite.parse(bad)


def test_the_clients_rate_limit_is_the_servers():
    from ramsli.server.tables.hub import RATE_LIMIT as SERVER_LIMIT

    assert RATE_LIMIT == SERVER_LIMIT


def test_a_remote_entrant_plays_in_the_arena_through_the_protocol():
    """The arena's remote entrant: a seat hosted by :class:`ramsli.client.host.SeatHost`, joined by
    :func:`ramsli.client.play_bot` (``tips``) through its invite link, plays duplicate matches
    against ``random``; every decision went through the protocol, none was a fault, and the client
    saw the session end."""
    from ramsli.analysis.arena import run_arena
    from ramsli.client.host import RemoteEntrant, SeatHost

    runs = []
    with SeatHost() as host:

        def client() -> None:
            runs.append(asyncio.run(play_bot(host.link, "tips", "Remy", seed=3)))

        t = threading.Thread(target=client, daemon=True)
        t.start()
        assert host.wait_for_client(60)
        entrant = RemoteEntrant("remote", host)
        res = run_arena([entrant, "random"], deals=3, seed=4)
        host.finish([{"place": i + 1, "seat": "p1", "name": e.label, "stack": 0} for i, e in enumerate(res.ranked())])
        t.join(scaled(60))
    remote = next(e for e in res.entrants if e.label == "remote")
    assert remote.spec == "remote:Remy" and remote.origin == "remote"
    assert remote.matches == 3 and remote.faults == 0 and remote.decisions == host.decisions > 0
    assert runs and runs[0].end_reason == "arena" and runs[0].decisions == host.decisions and runs[0].faults == 0


def test_ramsli_arena_remote_prints_a_link_that_ramsli_bot_plays(tmp_path):
    """``ramsli arena --remote R --bots random`` hosts R's seat and prints its invite link; a program
    joining it through ``ramsli.client`` plays every match; the ratings name R as ``remote:NAME``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, "-c", "from ramsli.cli import main; main()", "arena", "--remote", "R", "--bots", "random"]
    cmd += ["--deals", "2", "--seed", "1", "--quiet", "--out", str(tmp_path / "ratings")]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert line.startswith("remote seat R: ramsli bot http://127.0.0.1:"), line
        run = asyncio.run(play_bot(line.split()[5], "tips", "Tess"))
        out, err = proc.communicate(timeout=scaled(120))
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, (out, err)
    assert run.end_reason == "arena" and run.decisions > 0 and run.faults == 0
    data = json.loads((tmp_path / "ratings.json").read_text())
    rows = {e["label"]: e for e in data["entrants"]}
    assert rows["R"]["spec"] == "remote:Tess" and rows["R"]["matches"] == 2 and rows["R"]["decisions"] == run.decisions


def test_the_client_options_typeddict_names_every_keyword_option_of_table_client():
    import inspect
    import typing

    from ramsli.client.core import ClientOptions, ConnectionOptions, TableClient

    params = inspect.signature(TableClient.__init__).parameters
    keyword = {p for p, v in params.items() if v.kind is inspect.Parameter.KEYWORD_ONLY}
    assert set(typing.get_type_hints(ClientOptions)) == keyword
    assert set(typing.get_type_hints(ConnectionOptions)) == keyword - {"lang", "client"}


def test_a_refusal_of_protocol_2_is_read_by_its_error_and_record():
    """Protocol 2's error frame: ``error`` is the protocol code, ``code`` the refusal's."""
    frame = {
        "type": "error",
        "error": "illegal",
        "code": "must_follow",
        "rule": "R4.10",
        "fields": {"suit": "H"},
        "message": "must follow suit: play ♥ (R4.10)",
        "refusal": {"code": "must_follow", "rule": "R4.10", "fields": {"suit": "H"}},
        "seq": 7,
    }
    err = ClientRefused.from_frame(frame)
    assert (err.code, err.refusal.code, err.refusal.rule, err.refusal["suit"], err.seq) == (
        "illegal",
        "must_follow",
        "R4.10",
        "H",
        7,
    )


def test_a_refusal_of_protocol_1_is_still_read_for_one_release():
    """The shape before protocol 2 (``code`` the protocol code, the record only in ``refusal``)."""
    frame = {
        "type": "error",
        "code": "illegal",
        "message": "must follow suit: play ♥ (R4.10)",
        "rule": "R4.10",
        "refusal": {"code": "must_follow", "rule": "R4.10", "fields": {"suit": "H"}},
        "seq": 7,
    }
    err = ClientRefused.from_frame(frame)
    assert (err.code, err.refusal.code, err.refusal.rule, err.refusal["suit"], err.seq) == (
        "illegal",
        "must_follow",
        "R4.10",
        "H",
        7,
    )
