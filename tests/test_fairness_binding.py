"""A deal bound to its hand (issue 37.8; docs/fairness.md, ``ramsli-deal/2``; R3.2, R3.5, R7).

- the v2 digest's bytes as docs/fairness.md writes them, recomputed with ``hashlib`` alone from its
  worked example;
- the server deals under ``ramsli-deal/2`` (the table id, the hand's number, the dealer and the
  seats dealt), stores the scheme with the deal, and replays deals stored before (``ramsli-deal/1``,
  no scheme) as they were; a deal's events replayed under another table id do not check;
- ``ramsli verify`` reads v1 and v2 downloads and says which; one hand's ``[fairness]`` shown
  in another hand's history is a mismatch naming the other hand; a binding edited without its
  digest is a changed digest;
- salts of every length the documents allow (32 to 128 hex digits, odd numbers too) are read,
  and no other.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import re

import pytest
from typer.testing import CliRunner

from ramsli import fairness
from ramsli.cards import Card, make_deck
from ramsli.cli import app
from ramsli.fairness import (
    SCHEME,
    SCHEME_V1,
    DealBinding,
    DealCommitment,
    DealProof,
    ProofError,
    check_deal,
    commitment,
    deck_digest,
)
from ramsli.history import HandHistory
from ramsli.server.tables.table import Table

from helpers import ROOT, open_hub, scaled, seat_table

DOC = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
BOTS = [{"kind": "bot", "bot": "rules"}] * 3


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


# --- the bytes ------------------------------------------------------------------------------------


def test_the_documented_v2_digest_by_hashlib_alone():
    """The ``ramsli-deal/2`` worked example of docs/fairness.md: its header (as text and as hex),
    its digest over the three commitments, recomputed here with hashlib and by the module."""
    salt = re.search(r"salt `([0-9a-f]{32})`, position", DOC).group(1)
    commits = [sha(f"{salt}:{i}:{c}") for i, c in enumerate(("AS", "KD", "TH"))]
    m = re.search(
        r"hand `(\d+)` of table `(\w+)`, dealer `(p\d)`, seats `(p\d)`, `(p\d)`, `(p\d)`,\s+its `ramsli-deal/2` header"
        r" is the (\d+) bytes\s+`([^`]+)`.*?in hex\s+`([0-9a-f]+)`.*?followed by the three commitments is\s+`([0-9a-f]{64})`",
        DOC,
        re.S,
    )
    assert m, "the v2 worked example is in docs/fairness.md"
    hand, table, dealer, *seats = m.groups()[:6]
    size, shown, hexed, digest = int(m.group(7)), m.group(8), m.group(9), m.group(10)
    header = f"ramsli-deal/2\ntable={table}\nhand={hand}\ndealer={dealer}\nseated={','.join(seats)}\n"
    assert shown.replace("␊", "\n") == header and bytes.fromhex(hexed) == header.encode("ascii")
    assert len(header.encode("ascii")) == size
    assert sha(header + "".join(commits)) == digest
    binding = DealBinding(table, int(hand), int(dealer[1:]) - 1, tuple(int(s[1:]) - 1 for s in seats))
    assert binding.header() == header and deck_digest(commits, binding) == digest
    assert deck_digest(commits) != digest  # v1 (the commitments alone) is another digest


def test_a_binding_of_another_form_is_refused():
    for bad in (
        ("k3 v9", 1, 0, (0, 1)),  # a space: not a table id
        ("", 1, 0, (0, 1)),
        ("t" * 65, 1, 0, (0, 1)),
        ("t1", 0, 0, (0, 1)),  # hands count from 1 (R3)
        ("t1", 1, 2, (0, 1)),  # the dealer is not seated (R3.2)
        ("t1", 1, 0, (0,)),  # one seat is no hand (R2.1)
        ("t1", 1, 0, (1, 0)),  # in seat order
        ("t1", 1, 0, (0, 6)),  # p7 is no seat
    ):
        with pytest.raises(ValueError):
            DealBinding(*bad)


# --- salts: every length the documents allow ---------------------------------------------------------


def test_salts_of_every_length_the_documents_allow_are_read():
    """docs/fairness.md: a reader accepts 32 to 128 hex digits, odd numbers too; nothing else."""
    assert (
        "any number of\n                                                 digits from 32 to 128, odd numbers too" in DOC
    )
    card = Card.parse("AS")
    for n in range(32, 129):
        salt = ("0123456789abcdef" * 8)[:n]
        deal = DealCommitment.build([card], [salt])
        assert deal.opening(0, card).matches(deal.commitments[0])
    for salt in ("0" * 31, "0" * 129, "A" * 32, "g" * 32, " " + "0" * 32):
        with pytest.raises(ValueError, match="32 to 128 lower-case hex digits"):
            DealCommitment.build([card], [salt])
    # a [fairness] table as a download holds it: the opening's salt read at every allowed length
    deck = list(make_deck())
    data = DealProof(("0" * 64,) * 32, "0" * 64, ()).to_data()
    for n in (32, 33, 77, 127, 128):
        proof = DealProof.from_data({**data, "openings": [{"position": 0, "card": "AS", "salt": "a" * n}]}, deck, 3)
        assert proof.openings[0].salt == "a" * n
    for n in (31, 129):
        with pytest.raises(ProofError, match="the salt is not 32 to 128 lower-case hex digits"):
            DealProof.from_data({**data, "openings": [{"position": 0, "card": "AS", "salt": "a" * n}]}, deck, 3)


# --- a session: downloads of bound deals ----------------------------------------------------------------


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """Three hands played by bots: ``(table id, {number: spectator download}, stored deal events,
    the table's events, spec)``."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('bound') / 's.sqlite'}"

    async def go():
        hub, store = await open_hub(url)
        try:
            made, t, _people = await seat_table(hub, seats=BOTS, sit=[], rules=["end=hands:3"], seed=21)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + scaled(60)
            while t.status != "over" and loop.time() < deadline:  # noqa: ASYNC110 - no event says "over"
                await asyncio.sleep(0.01)
            assert t.status == "over"
            spectator = made["spectate"].rsplit("/", 1)[1]
            texts = {e.number: hub.history(t.id, e.number, spectator) for e in t.session.results}
            events = (await store.load())[0]["events"]
            for n in texts:  # the packed deals of earlier hands keep their binding
                assert t.deals[n].binding == DealBinding(t.id, n, t.session.results[n - 1].hand.dealer, (0, 1, 2))
            return t.id, texts, events, t.spec
        finally:
            await hub.close()
            await store.close()

    return asyncio.run(go())


def _verify(tmp_path, texts: dict[str, str], *args: str):
    paths = []
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    return CliRunner().invoke(app, ["verify", *paths, *args])


def _fairness(text: str) -> str:
    return text[text.index("\n[fairness]") :]


def test_new_deals_are_stored_and_sent_under_v2(session):
    tid, texts, events, _spec = session
    deals = [d for _s, k, d in events if k == "deal"]
    assert [d["scheme"] for d in deals] == [SCHEME] * 3
    for d in deals:
        cards = fairness.dealt_order([Card.parse(c) for c in d["deck"]], d["cut"])
        bound = DealCommitment.build(cards, d["salts"], DealBinding(tid, d["number"], d["dealer"], tuple(d["seated"])))
        assert bound.digest == d["digest"]
        assert DealCommitment.build(cards, d["salts"]).digest != d["digest"]  # not the v1 digest
    for n, text in texts.items():
        proof = HandHistory.from_toml(text).fairness
        assert proof.scheme == SCHEME and proof.binding.table == tid and proof.binding.hand == n
        assert f'scheme = "{SCHEME}"' in text and f'table = "{tid}"' in text and f"hand = {n}\n" in _fairness(text)


def test_verify_reads_v1_and_v2_and_says_which(tmp_path, session):
    tid, texts, _events, _spec = session
    v2 = texts[2]
    hh = HandHistory.from_toml(v2)
    p = hh.fairness
    old = DealProof(p.commitments, deck_digest(p.commitments), p.openings, p.seat)  # a ramsli-deal/1 download
    v1_text = dataclasses.replace(hh, fairness=old).to_toml()
    assert f'scheme = "{SCHEME_V1}"' in v1_text and "table =" not in _fairness(v1_text)
    r = _verify(tmp_path, {"v2.toml": v2, "v1.toml": v1_text})
    assert r.exit_code == 0, r.output
    lines = {ln.split(":")[0].rsplit("/", 1)[-1]: ln for ln in r.output.splitlines() if ": hand 2: " in ln}
    assert f"ramsli-deal/2: bound to table {tid}, hand 2, dealer p" in lines["v2.toml"]
    assert "ramsli-deal/1: the digest does not name its table and hand" in lines["v1.toml"]
    r = _verify(tmp_path, {"v2.toml": v2}, "--lang", "de")
    assert r.exit_code == 0 and f"gebunden an Tisch {tid}, Spiel 2" in r.output, r.output


def test_one_hands_commitments_shown_at_another_hand_do_not_check(tmp_path, session):
    """The attack v2 stops: hand 1's [fairness] (commitments, digest and openings, all matching one
    another) shown in the history of hand 2 is named as the commitments of another hand."""
    tid, texts, _events, _spec = session
    moved = texts[2][: texts[2].index("\n[fairness]")] + _fairness(texts[1])
    r = _verify(tmp_path, {"moved.toml": moved})
    assert r.exit_code == 1, r.output
    assert "The digest is bound to hand 1, but this is hand 2: the commitments of another hand" in r.output
    # the same proof at another table
    hh = HandHistory.from_toml(texts[1])
    codes = [x.code for x in check_deal(hh.fairness, hh.replay(), number=1, table="someother")]
    assert codes == ["fair_other_table"]
    assert check_deal(hh.fairness, hh.replay(), number=1, table=tid) == []
    # a binding edited to fit, its digest kept: the digest no longer matches
    edited = texts[2][: texts[2].index("\n[fairness]")] + _fairness(texts[1]).replace("\nhand = 1\n", "\nhand = 2\n")
    r = _verify(tmp_path, {"edited.toml": edited})
    assert r.exit_code == 1 and "The digest does not match the commitments" in r.output, r.output
    assert "bound to hand 1" not in r.output


def test_a_binding_of_another_dealer_or_seats_is_named():
    hh_hand = _a_hand()
    commits = tuple("0" * 64 for _ in range(32))
    for binding, code in (
        (DealBinding("t1", 1, (hh_hand.dealer + 1) % 3, (0, 1, 2)), "fair_other_dealer"),
        (DealBinding("t1", 1, hh_hand.dealer, (0, 1, 2, 3)), "fair_other_seats"),
    ):
        proof = DealProof(commits, deck_digest(commits, binding), (), None, binding)
        assert code in [x.code for x in check_deal(proof, hh_hand)]


def _a_hand():
    import random

    from ramsli.hand import Hand
    from ramsli.rules import Rules

    return Hand.new(Rules(), [20] * 4, dealer=1, rng=random.Random(5), seated=(0, 1, 2))


def test_a_malformed_binding_cannot_be_read(tmp_path, session):
    _tid, texts, _events, _spec = session
    text = texts[1]
    for old, new, words in (
        ('\ndealer = "p', '\ndealer = "q', "dealer is not of its form"),
        ("\nhand = 1\n", '\nhand = "1"\n', "hand is not of its form"),
        ("\ntable = ", "\ntablet = ", "unknown key 'tablet'"),
    ):
        bad = text[: text.index("\n[fairness]")] + _fairness(text).replace(old, new, 1)
        assert bad != text
        r = _verify(tmp_path, {"bad.toml": bad})
        assert r.exit_code == 2 and words in r.output, (old, r.output)
    with pytest.raises(ProofError):
        DealProof.from_data({**DealProof(("0" * 64,) * 32, "0" * 64, ()).to_data(), "scheme": "ramsli-deal/3"}, [], 3)


def test_an_odd_salt_length_verifies(tmp_path, session):
    """A download whose salts have 33 and 127 digits (the documents allow 32 to 128) checks."""
    _tid, texts, _events, _spec = session
    hh = HandHistory.from_toml(texts[3])
    p = hh.fairness
    commits = list(p.commitments)
    openings = []
    for k, o in enumerate(p.openings):
        salt = ("ab" * 64)[: 33 if k % 2 else 127]
        commits[o.position] = commitment(salt, o.position, o.card)
        openings.append(type(o)(o.position, o.card, salt))
    proof = DealProof(tuple(commits), deck_digest(commits, p.binding), tuple(openings), p.seat, p.binding)
    text = dataclasses.replace(hh, fairness=proof).to_toml()
    r = _verify(tmp_path, {"odd.toml": text})
    assert r.exit_code == 0, r.output


# --- the server: stored deals of either scheme replay; another table id does not ---------------------------


def test_a_deal_stored_before_v2_replays_as_v1_and_another_table_id_does_not_check(session):
    tid, _texts, events, spec = session
    old = []
    for s, k, d in events:
        if k == "deal":
            cards = fairness.dealt_order([Card.parse(c) for c in d["deck"]], d["cut"])
            d = {x: y for x, y in d.items() if x != "scheme"}
            d["digest"] = DealCommitment.build(cards, d["salts"]).digest  # as ramsli-deal/1 stored it
        old.append((s, k, d))

    again = Table.replay(tid, spec, old, _NullStore())
    proof = again.proof(1, None)
    assert proof is not None and proof.scheme == SCHEME_V1 and proof.binding is None
    with pytest.raises(ValueError, match="do not match its stored digest"):
        Table.replay("another1", spec, events, _NullStore())  # v2 deals name their table
    assert Table.replay(tid, spec, events, _NullStore()).proof(1, None).scheme == SCHEME


class _NullStore:
    """An event store nothing is appended to (replay only reads the events given)."""

    async def append(self, *args, **kwargs):  # pragma: no cover - never called by replay
        raise AssertionError("replay appends nothing")
