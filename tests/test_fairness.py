"""Deals anyone can check (docs/fairness.md; R4.2–R4.4, R7, D-16).

- the byte format written in docs/fairness.md, recomputed with ``hashlib`` alone (its worked
  example, and the docs' five lines of Python run on a real download);
- the places of the positions are where the engine deals them (hypothesis, every deck and batch);
- a session's downloads verify (``ramsli verify`` exit 0) and open exactly the cards their reader
  may know; a tampered deal is caught (exit 1, naming the position and the card);
- bad histories are refused with the reason: a changed card, a changed salt, a removed
  commitment, a duplicated position, a commitment list of the wrong length;
- the digest is stored before the hand is shown; a restart gives the same openings;
- forged requests get no opening their sender may not have (WebSocket messages, HTTP queries with
  other seats' positions, spectator links, invite links of taken seats).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import subprocess
import sys
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ramsli import fairness
from ramsli.cards import make_deck
from ramsli.cli import app
from ramsli.fairness import DealProof, check_deal, commitment, dealt_order, places
from ramsli.hand import deal_cards, order_from_dealer
from ramsli.history import HandHistory
from ramsli.server.protocol.messages import SpecError
from ramsli.server.tables.connection import Connection as Conn
from ramsli.server.tables.table import Table

from helpers import ROOT, known_cards, open_hub, scaled, seat_table

DOC = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
ALL_HUMAN = [{"kind": "human"}] * 3


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


# --- the byte format ------------------------------------------------------------------------------


def test_the_documented_byte_format_by_hashlib_alone():
    """The worked example of docs/fairness.md, recomputed here with hashlib only (and by the module)."""
    m = re.search(
        r"salt `([0-9a-f]{32})`, position `(\d+)`, card `(\w\w)`: the message\s+is `([^`]+)`, its commitment\s+`([0-9a-f]{64})`",
        DOC,
    )
    assert m, "the worked example is in docs/fairness.md"
    salt, pos, card, message, value = m.groups()
    assert message == f"{salt}:{pos}:{card}"
    assert sha(message) == value == commitment(salt, int(pos), card)
    m = re.search(
        r"deck `(\w\w) (\w\w) (\w\w)` with that salt.*?commitments ((?:`[0-9a-f]{64}`,?\s+(?:and\s+)?)+)the digest\s+`([0-9a-f]{64})`",
        DOC,
        re.S,
    )
    assert m
    cards, commits, digest = m.groups()[:3], re.findall(r"[0-9a-f]{64}", m.group(4)), m.group(5)
    assert commits == [sha(f"{salt}:{i}:{c}") for i, c in enumerate(cards)]
    assert digest == sha("".join(commits)) == fairness.deck_digest(commits)


@settings(max_examples=60, deadline=None)
@given(
    deck=st.sampled_from(["piquet32", "full52"]),
    jokers=st.booleans(),
    first=st.sampled_from([3, 2]),
    n=st.integers(2, 6),
    data=st.data(),
)
def test_positions_are_where_the_engine_deals_them(deck, jokers, first, n, data):
    """R4.3, R4.4, D-9: seat s's k-th dealt card, the jokers turned aside and the turn-up are at the
    positions :func:`places` gives them in dealt order (the deck after the cut)."""
    cards = list(make_deck(deck, jokers))
    data.draw(st.randoms(use_true_random=False)).shuffle(cards)
    seated = tuple(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=2, max_size=n))))
    dealer = data.draw(st.sampled_from(seated))
    cut = data.draw(st.integers(1, len(cards) - 1))
    order = order_from_dealer(dealer, seated, n)
    try:
        hands, turn_up, aside, _stock = deal_cards(cards, cut, order, first, n)
    except ValueError:
        return  # no suited card left for the turn-up: refused by the engine too
    dealt = dealt_order(cards, cut)
    pl = places(order, first, len(cards), len(aside))
    for s in order:
        assert [dealt[p] for p in pl.seats[s]] == hands[s]
    assert [dealt[p] for p in pl.aside] == aside and dealt[pl.turn_up] == turn_up
    assert len({p for ps in pl.seats.values() for p in ps} | set(pl.aside) | {pl.turn_up} | set(pl.stock)) == len(cards)


# --- a session through the hub ----------------------------------------------------------------------


async def _play(hub, seats=ALL_HUMAN, hands: int = 2, tamper: bool = False, seed: int = 3):
    """A short session, every person choosing at random; returns (made, table, people)."""
    made, t, people = await seat_table(hub, seats=seats, rules=[f"end=hands:{hands}"], seed=seed, test_tamper=tamper)
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + scaled(60)
    while t.status == "playing" and loop.time() < deadline:
        acted = False
        for _tok, c in people.values():
            views = [m for m in c.sent if m["type"] == "view"]
            if views and views[-1]["legal"] and views[-1]["seq"] == t.seq:
                await hub.receive(
                    c, json.dumps({"type": "act", "action": rng.choice(views[-1]["legal"]), "seq": t.seq})
                )
                acted = True
        if not acted:
            await asyncio.sleep(0.005)
    assert t.status == "over"
    return made, t, people


def _spectator(made) -> str:
    return made["spectate"].rsplit("/", 1)[1]


def _verify(tmp_path, texts: dict[str, str], *args: str):
    paths = []
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    return CliRunner().invoke(app, ["verify", *paths, *args])


def test_downloads_verify_and_open_exactly_what_their_reader_may_know(tmp_path, sqlite_url):
    """R7, D-16: a seat's download opens its own five cards, the turn-up, the jokers turned aside and
    the played cards; a spectator's, the creator's and an invite link's only the public ones; every
    download verifies, and the docs' five lines of Python agree."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        try:
            made, t, people = await _play(
                hub, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rules"}]
            )
            texts = {}
            for e in t.session.results:
                n, hand = e.number, e.hand
                readers = {f"p{i + 1}": (tok, i) for i, (tok, _c) in people.items()}
                readers |= {"watch": (_spectator(made), None), "creator": (made["creator_token"], None)}
                readers["invite"] = (made["seats"][0]["token"], None)  # the invite link of a taken seat
                readers["botlink"] = (made["seats"][2]["token"], None)
                for who, (tok, seat) in readers.items():
                    text = hub.history(t.id, n, tok)
                    hh = HandHistory.from_toml(text)
                    opened = {o.position: str(o.card) for o in hh.fairness.openings}
                    expected = {p: str(c) for p, c in fairness.known_cards(hand, seat)}
                    assert opened == expected, (who, n)
                    assert set(opened.values()) <= known_cards(hand, seat)
                    assert hh.fairness.seat == seat
                    assert hh.fairness.digest == t.deals[n].digest
                    texts[f"{who}-{n}.toml"] = text
            return texts
        finally:
            await hub.close()
            await store.close()

    texts = asyncio.run(go())
    r = _verify(tmp_path, texts)
    assert r.exit_code == 0, r.output
    assert r.output.count("deal checked") == len(texts)
    five = re.search(r"```python\n(.*?)```", DOC[DOC.index("seven lines of your own") :], re.S).group(1)
    assert len(five.strip().splitlines()) <= 7
    out = subprocess.run([sys.executable, "-c", five, str(tmp_path / "p1-1.toml")], capture_output=True, text=True)
    assert out.returncode == 0 and "openings match" in out.stdout, out.stderr


def test_a_tampered_deal_is_caught_by_verify_naming_position_and_card(tmp_path, sqlite_url):
    """The test-only hook swaps two unplayed cards after the commitment: the seats holding them
    (and everyone, once one is played) get openings that do not match; ``ramsli verify`` exits 1
    naming the position and the card."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        try:
            made, t, people = await _play(hub, hands=1, tamper=True)
            hand = t.session.results[0].hand
            a = hand.order[0]
            proof = t.proof(1, t.seats[a])
            bad = [o for o in proof.openings if not o.matches(proof.commitments[o.position])]
            # seat a's first card (position 0) is not the committed one; nor is the first card of the
            # second seat dealt (position 3), if it was played
            assert bad[0].position == 0 and {o.position for o in bad} <= {0, 3}
            assert fairness.check_deal(proof, hand)
            return hub.history(t.id, 1, people[a][0]), str(bad[0].card)
        finally:
            await hub.close()
            await store.close()

    text, card = asyncio.run(go())
    r = _verify(tmp_path, {"tampered.toml": text})
    assert r.exit_code == 1, r.output
    assert f"Position 0: {card} does not match its commitment" in r.output  # a refusal reads as a sentence


def test_a_tamper_hook_needs_a_seed_and_test_seeds(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        strict, _ = await open_hub(sqlite_url, allow_test_seeds=False)
        try:
            for h, body in [
                (hub, {"seats": ALL_HUMAN, "test_tamper": True}),
                (strict, {"seats": ALL_HUMAN, "test_tamper": True}),
            ]:
                with pytest.raises(SpecError) as e:
                    await h.create_table(body)
                assert e.value.refusal.code == "tamper_off"
            assert hub.tables == {}
        finally:
            await hub.close()
            await store.close()

    asyncio.run(go())


# --- bad histories -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> str:
    """A seat's download of a played hand (seat p1 sat and played)."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fair') / 's.sqlite'}"

    async def go():
        hub, store = await open_hub(url)
        try:
            made, t, people = await _play(hub, hands=3, seed=11)
            for e in t.session.results:
                text = hub.history(t.id, e.number, people[0][0])
                if any(a.kind == "pl" and a.seat == 0 for a in e.hand.history):
                    return text
            raise AssertionError("p1 played no card in three hands")
        finally:
            await hub.close()
            await store.close()

    return asyncio.run(go())


def _opening_line(text: str, k: int = 0) -> str:
    return re.findall(r"^    \{ position = .*$", text, re.M)[k]


def _bad_cases(text: str) -> dict[str, tuple[str, int, str]]:
    first = _opening_line(text)
    pos, card, salt = re.search(r'position = (\d+), card = "(\w\w)", salt = "([0-9a-f]+)"', first).groups()
    deck = [str(c) for c in make_deck()]
    other = next(c for c in deck if c not in text.split("[fairness]")[1])  # a card nobody opened
    commits = re.findall(r'^    "([0-9a-f]{64})",$', text, re.M)
    salt2 = ("0" if salt[0] != "0" else "1") + salt[1:]
    return {
        "changed card": (
            text.replace(first, first.replace(f'"{card}"', f'"{other}"')),
            1,
            f"Position {pos}: {other} does not match",
        ),
        "changed salt": (text.replace(first, first.replace(salt, salt2)), 1, f"Position {pos}: {card} does not match"),
        "changed commitment": (text.replace(commits[5], commits[6]), 1, "The digest does not match the commitments"),
        "removed commitment": (
            text.replace(f'    "{commits[5]}",\n', ""),
            2,
            "has 31 commitments, but the piquet32 deck has 32",
        ),
        "wrong length": (
            text.replace(f'    "{commits[5]}",\n', f'    "{commits[5]}",\n    "{commits[5]}",\n'),
            2,
            "has 33 commitments",
        ),
        "duplicated position": (text.replace(first, first + "\n" + first), 2, f"position {pos} is opened twice"),
        "no commitments": (
            text.split("\n[fairness]")[0].replace("ramsli-hh/2", "ramsli-hh/1") + "\n",
            2,
            "has no commitments",
        ),
        "a card opened at another place": (
            text.replace(first, first.replace(f"position = {pos},", f"position = {int(pos) + 20},")),
            1,
            "",
        ),
    }


@pytest.mark.parametrize(
    "case",
    [
        "changed card",
        "changed salt",
        "changed commitment",
        "removed commitment",
        "wrong length",
        "duplicated position",
        "no commitments",
        "a card opened at another place",
    ],
)
def test_a_bad_history_is_refused_with_the_reason(tmp_path, good, case):
    text, status, words = _bad_cases(good)[case]
    assert text != good
    assert _verify(tmp_path, {"good.toml": good}).exit_code == 0
    r = _verify(tmp_path, {"bad.toml": text})
    assert r.exit_code == status, r.output
    assert words in r.output, r.output
    if case == "a card opened at another place":  # its hash fails there, and its own place is not opened
        assert "does not match its commitment" in r.output and "has no opening" in r.output


def test_verify_speaks_the_reader_s_language(tmp_path, good):
    r = _verify(tmp_path, {"good.toml": good}, "--lang", "de")
    assert r.exit_code == 0 and "Kartengabe geprüft" in r.output, r.output


def test_check_deal_names_a_card_at_another_seat_s_place(good):
    """A server that swaps two seats' cards and opens each at the other seat's position (so that
    every hash matches) is caught by the places: a played card must be opened at one of its seat's
    positions (R4.3)."""
    hh = HandHistory.from_toml(good)
    hand = hh.replay()
    proof = hh.fairness
    o = proof.openings[0]
    moved = DealProof(
        proof.commitments, proof.digest, (type(o)(o.position + 20, o.card, o.salt),) + proof.openings[1:], proof.seat
    )
    codes = {r.code for r in check_deal(moved, hand)}
    assert {"fair_not_opened", "fair_mismatch", "fair_not_known"} <= codes


def test_a_malformed_file_exits_2(tmp_path):
    r = _verify(tmp_path, {"x.toml": "not = [toml"})
    assert r.exit_code == 2
    r = CliRunner().invoke(app, ["verify", str(tmp_path / "missing.toml")])
    assert r.exit_code == 2 and "no such file" in r.output


# --- the server: stored before shown, restarts, forged requests ---------------------------------------


class RecordingStore:
    """An event store that notes, when a deal is committed, whether any connection saw it already."""

    def __init__(self, store, conns):
        self.store, self.conns, self.seen_before = store, conns, []

    async def append(self, table_id, seq, kind, data):
        if kind == "deal":
            shown = any(
                (m.get("hand") or {}).get("fairness", {}) and m["hand"]["fairness"]["digest"] == data["digest"]
                for c in self.conns
                for m in c.sent
                if m.get("type") == "view"
            )
            self.seen_before.append(shown)
        await self.store.append(table_id, seq, kind, data)


def test_the_digest_is_stored_before_the_hand_is_shown_and_a_restart_opens_the_same(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        try:
            made, t, people = await seat_table(hub, seats=ALL_HUMAN, start=False, rules=["end=hands:2"])
            rec = RecordingStore(store, [c for _tok, c in people.values()])
            t.store = rec
            await hub.start(t.id, made["creator_token"])
            assert rec.seen_before == [False]
            view = [m for m in people[0][1].sent if m["type"] == "view"][-1]
            events = (await store.load())[0]["events"]
            deal = [d for _s, k, d in events if k == "deal"][-1]
            f = view["hand"]["fairness"]
            binding = fairness.DealBinding(t.id, 1, deal["dealer"], tuple(deal["seated"]))  # ramsli-deal/2
            assert f["scheme"] == deal["scheme"] == "ramsli-deal/2"
            assert f["digest"] == deal["digest"] == fairness.deck_digest(f["commitments"], binding)
            assert len(deal["salts"]) == 32 and all(len(s) == 32 for s in deal["salts"])
            hand = t.session.hand
            known = {p for i in range(3) for p, _c in fairness.known_cards(hand, i)}
            secret = {x for p, x in enumerate(deal["salts"]) if p not in known}  # the stock, never opened
            assert len(secret) >= 32 - 16 and not secret & set(
                json.dumps([c.sent for _t, c in people.values()]).split('"')
            )
            again = Table.replay(t.id, t.spec, events, store)
            for i, s in enumerate(t.seats):
                assert again.proof(1, again.seats[i]) == t.proof(1, s)
            assert again.proof(1, None) == t.proof(1, None)
        finally:
            await hub.close()
            await store.close()

    asyncio.run(go())


def test_a_replayed_deal_whose_salts_do_not_match_its_digest_is_a_corrupt_log(sqlite_url):
    async def go():
        hub, store = await open_hub(sqlite_url)
        try:
            made, t, _people = await seat_table(hub, seats=ALL_HUMAN)
            events = (await store.load())[0]["events"]
            events = [(s, k, dict(d, digest="0" * 64) if k == "deal" else d) for s, k, d in events]
            with pytest.raises(ValueError, match="do not match its stored digest"):
                Table.replay(t.id, t.spec, events, store)
        finally:
            await hub.close()
            await store.close()

    asyncio.run(go())


def test_forged_requests_get_no_opening_they_may_not_have(sqlite_url):
    """No message or query asks the server for an opening: forged WebSocket messages are refused and
    change nothing; HTTP queries naming other seats or positions give the reader's own openings only;
    a spectator link and the invite link of a taken seat get the spectators' openings (R7, D-16)."""
    import httpx

    from ramsli.server.app import create_app

    async def go():
        hub, store = await open_hub(sqlite_url)
        try:
            made, t, people = await seat_table(hub, seats=ALL_HUMAN, rules=["end=hands:1"])
            hand = t.session.hand
            mine = {p for p, _c in fairness.known_cards(hand, 0)}
            conn = people[0][1]
            before = len(conn.sent)
            for forged in [
                {"type": "open", "position": 20},
                {"type": "opening", "seat": "p2"},
                {"type": "hello", "token": people[1][0]},
                {"type": "act", "action": "p2 open 3", "seq": t.seq},
                {"type": "act", "action": "p1 pl " + str(hand.dealt[1][0]), "seq": t.seq},
            ]:
                await hub.receive(conn, json.dumps(forged), t.id)
            answers = conn.sent[before:]
            assert answers and all(m["type"] == "error" for m in answers)
            for m in answers:
                assert "salt" not in json.dumps(m)
            spy = Conn()
            await hub.receive(
                spy, json.dumps({"type": "hello", "token": made["seats"][1]["token"]}), t.id
            )  # a taken seat's invite
            v = [m for m in spy.sent if m["type"] == "view"][-1]
            public = {p for p, _c in fairness.known_cards(hand, None)}
            assert {o["position"] for o in v["hand"]["fairness"]["openings"]} == public
            mine_view = [m for m in conn.sent if m["type"] == "view"][-1]
            assert {o["position"] for o in mine_view["hand"]["fairness"]["openings"]} == mine
            # finish the hand, then ask over HTTP with other seats' positions and links
            while t.status == "playing":
                for _tok, c in people.values():
                    vv = [m for m in c.sent if m["type"] == "view"][-1]
                    if vv["legal"] and vv["seq"] == t.seq:
                        await hub.receive(c, json.dumps({"type": "act", "action": vv["legal"][0], "seq": t.seq}))
            app = create_app(sqlite_url)
            app.state.hub = hub
            done = t.session.results[0].hand
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
                for token, seat in [
                    (people[0][0], 0),
                    (_spectator(made), None),
                    (made["seats"][1]["token"], None),  # the invite link of a taken seat
                    (made["creator_token"], None),
                ]:
                    for query in ["", "&seat=p2", "&position=20&positions=0,1,2,3,4,5", "&reader=p3&seat=2"]:
                        r = await client.get(f"/api/tables/{t.id}/hands/1.toml?token={token}{query}")
                        assert r.status_code == 200
                        hh = HandHistory.from_toml(r.text)
                        got = {o.position for o in hh.fairness.openings}
                        assert got == {p for p, _c in fairness.known_cards(done, seat)}, (token, query)
                        r = await client.get(f"/api/tables/{t.id}/hands/1.json?token={token}{query}")
                        if token == made["creator_token"]:  # the readable account is for seats and spectators
                            assert r.status_code == 403
                            continue
                        assert {o["position"] for o in r.json()["fairness"]["openings"]} == got
                r = await client.get(f"/api/tables/{t.id}/hands/1.toml?token=forged&seat=p1")
                assert r.status_code == 403 and "salt" not in r.text
        finally:
            await hub.close()
            await store.close()

    asyncio.run(go())


def test_a_hand_dealt_without_commitments_has_none(sqlite_url):
    """A table stored before deals carried commitments replays, and its views say ``fairness: null``."""

    async def go():
        hub, store = await open_hub(sqlite_url)
        try:
            made, t, people = await seat_table(hub, seats=ALL_HUMAN)
            events = (await store.load())[0]["events"]
            old = [
                (s, k, {x: y for x, y in d.items() if x not in ("salts", "digest", "scheme")} if k == "deal" else d)
                for s, k, d in events
            ]
            again = Table.replay(t.id, t.spec, old, store)
            from ramsli.server.tables.views import view

            assert view(again, 0)["hand"]["fairness"] is None and again.proof(1, None) is None
        finally:
            await hub.close()
            await store.close()

    asyncio.run(go())


def test_the_proof_round_trips_through_toml_and_json(good):
    hh = HandHistory.from_toml(good)
    assert hh.to_toml() == good
    assert HandHistory.from_json(hh.to_json()) == hh
    assert tomllib.loads(good)["format"] == "ramsli-hh/2"
