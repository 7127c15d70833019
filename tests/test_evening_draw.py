"""The draw of an evening's tables (issue 34 item 3): seeds, split, shuffles, draws, re-seats.

The draw must be recomputable by anyone with SHA-256 alone: ``Ref`` below re-implements it from
the prose of docs/evenings.md ("The draw, step by step") with nothing but ``hashlib``, and the
tests assert it agrees with ``ramsli.evening.draw`` on random inputs and on a fixed example.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ramsli.evening import draw as D
from ramsli.evening.rounds import draw_round
from ramsli.evening.scoring import Standing


class Ref:
    """docs/evenings.md's draw, written again from the text, with hashlib only."""

    @staticmethod
    def chain(top_hex: str, rounds: int) -> list[str]:
        seeds = [top_hex]
        while len(seeds) < rounds:
            seeds.insert(0, hashlib.sha256(bytes.fromhex(seeds[0])).hexdigest())
        return seeds

    @staticmethod
    def numbers(seed: str, rnd: int, label: str):
        k = 0
        while True:
            d = hashlib.sha256("|".join(["ramsli-evening", seed, str(rnd), label, str(k)]).encode("utf-8")).digest()
            yield int(d[:8].hex(), 16)
            k += 1

    @staticmethod
    def pick(gen, n: int) -> int:
        # a number x of 64 bits is kept if x < 2**64 - (2**64 mod n); the pick is x mod n
        while True:
            x = next(gen)
            if x < 2**64 - (2**64) % n:
                return x % n

    @classmethod
    def shuffle(cls, items, seed: str, rnd: int, label: str) -> list[str]:
        a = list(items)
        gen = cls.numbers(seed, rnd, label)
        i = len(a) - 1
        while i >= 1:
            j = cls.pick(gen, i + 1)
            a[i], a[j] = a[j], a[i]
            i -= 1
        return a

    @staticmethod
    def split(count: int, best: int = 5, low: int = 3) -> list[int]:
        # every table count whose equal-as-can-be sizes lie in 3..6; the nearest the best size, then fewer
        def sizes(tables: int) -> list[int]:
            small, extra = divmod(count, tables)
            return [small + 1 if k < extra else small for k in range(tables)]

        fits = [sizes(t) for t in range(1, count + 1) if all(low <= n <= 6 for n in sizes(t))]
        return min(fits, key=lambda s: (sum(abs(n - best) for n in s), len(s)))

    @staticmethod
    def cut(order, sizes):
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        return tables

    @classmethod
    def by_lot(cls, ids, sizes, seed: str, rnd: int) -> list[list[str]]:
        return cls.cut(cls.shuffle(sorted(ids), seed, rnd, "lot"), sizes)

    @classmethod
    def by_order(cls, order, sizes, seed: str, rnd: int) -> list[list[str]]:
        return [cls.shuffle(t, seed, rnd, "table" + str(n + 1)) for n, t in enumerate(cls.cut(list(order), sizes))]


seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
id_lists = st.lists(
    st.text("abcdefghijklmnopqrstuvwxyz0123456789:", min_size=1, max_size=12), min_size=3, max_size=60, unique=True
)


@settings(max_examples=120, deadline=None)
@given(ids=id_lists, seed=seeds, rnd=st.integers(1, 13), best=st.integers(3, 6))
def test_draw_by_lot_recomputes_with_hashlib_only(ids, seed, rnd, best):
    """Issue 34 item 3: the draw is a documented function of the seed, the round and the sorted list."""
    sizes = D.split(len(ids), best)
    assert sizes == Ref.split(len(ids), best)
    assert D.draw_by_lot(ids, sizes, seed, rnd) == Ref.by_lot(ids, sizes, seed, rnd)
    # the check-in order does not matter: the ids are sorted first
    assert D.draw_by_lot(list(reversed(ids)), sizes, seed, rnd) == D.draw_by_lot(ids, sizes, seed, rnd)


@settings(max_examples=120, deadline=None)
@given(ids=id_lists, seed=seeds, rnd=st.integers(1, 13), best=st.integers(3, 6))
def test_draw_by_order_recomputes_with_hashlib_only(ids, seed, rnd, best):
    sizes = D.split(len(ids), best)
    got = D.draw_by_order(ids, sizes, seed, rnd)
    assert got == Ref.by_order(ids, sizes, seed, rnd)
    # the leaders sit together: table n holds exactly the n-th slice of the standings
    assert [sorted(t) for t in got] == [sorted(t) for t in Ref.cut(ids, sizes)]


@settings(max_examples=60, deadline=None)
@given(top=st.binary(min_size=32, max_size=32), rounds=st.integers(1, 13))
def test_seed_chain_and_commitment_recompute(top, rounds):
    chain = D.seed_chain(rounds, top)
    assert chain == Ref.chain(top.hex(), rounds)
    c = D.commitment(chain)
    assert c == hashlib.sha256(bytes.fromhex(chain[0])).hexdigest()
    for r, s in enumerate(chain, 1):
        assert D.check_seed(c, r, s)
        assert not D.check_seed(c, r + 1, s)
        assert r == 1 or not D.check_seed(c, r - 1, s)


def test_seed_chain_is_random_without_top_and_refuses_bad_input():
    a, b = D.seed_chain(3), D.seed_chain(3)
    assert a != b and all(len(s) == 64 and s == s.lower() for s in a)
    with pytest.raises(ValueError):
        D.seed_chain(0)
    with pytest.raises(ValueError):
        D.seed_chain(2, b"short")
    assert not D.check_seed(D.commitment(a), 0, a[0])
    assert not D.check_seed(D.commitment(a), 1, a[0].upper())


def test_known_answer_23_participants():
    """Issue 34 item 3's example: 23 -> 3 x 5 + 2 x 4, with the tables of a fixed seed written out."""
    ids = [f"p{i:02d}" for i in range(1, 24)]
    seed = "c0ffee" * 10 + "c0ff"
    assert D.split(23) == [5, 5, 5, 4, 4]
    expected_lot = [
        ["p15", "p21", "p05", "p20", "p06"],
        ["p18", "p04", "p16", "p01", "p14"],
        ["p10", "p02", "p23", "p08", "p03"],
        ["p19", "p17", "p13", "p11"],
        ["p12", "p22", "p07", "p09"],
    ]
    assert D.draw_by_lot(ids, [5, 5, 5, 4, 4], seed, 1) == expected_lot
    assert Ref.by_lot(ids, [5, 5, 5, 4, 4], seed, 1) == expected_lot
    expected_order = [
        ["p02", "p04", "p05", "p01", "p03"],
        ["p07", "p08", "p09", "p06", "p10"],
        ["p12", "p14", "p11", "p15", "p13"],
        ["p18", "p16", "p19", "p17"],
        ["p20", "p22", "p21", "p23"],
    ]
    assert D.draw_by_order(ids, [5, 5, 5, 4, 4], seed, 2) == expected_order
    assert Ref.by_order(ids, [5, 5, 5, 4, 4], seed, 2) == expected_order


def test_stream_and_below_as_documented():
    seed = "00" * 32
    it = D.stream(seed, 2, "table1")
    for k in range(3):
        text = f"ramsli-evening|{seed}|2|table1|{k}"
        assert next(it) == int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    # rejection: 2**64 - 1 is at or above the limit for n = 3 (2**64 mod 3 = 1), so it is thrown away
    assert D.below(iter([2**64 - 1, 10]), 3) == 1
    assert D.below(iter([2**64 - 2, 10]), 3) == (2**64 - 2) % 3
    assert D.below(iter([12345]), 1) == 0
    with pytest.raises(ValueError):
        D.below(iter([1]), 0)


@settings(max_examples=300, deadline=None)
@given(count=st.integers(3, 400), best=st.integers(3, 6))
def test_split_properties(count, best):
    """docs/evenings.md "The split": sum, bounds, equal within one, and no other table count within
    3..6 seats its tables nearer the best size (nor as near with fewer tables)."""
    sizes = D.split(count, best)
    assert sum(sizes) == count
    assert all(3 <= n <= 6 for n in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    assert sizes == sorted(Ref.split(count, best), reverse=True)
    distance = sum(abs(n - best) for n in sizes)
    for t in range(1, count // 3 + 1):
        q, r = divmod(count, t)
        if 3 <= q and q + (r > 0) <= 6:
            other = r * abs(q + 1 - best) + (t - r) * abs(q - best)
            assert (other, t) >= (distance, len(sizes))


def test_split_examples_and_refusals():
    assert D.split(23) == [5, 5, 5, 4, 4]
    assert D.split(11) == [6, 5]  # issue 34's "eleven people ... two tables"
    assert D.split(12) == [6, 6]
    assert D.split(7) == [4, 3]
    assert D.split(6) == [6]
    assert D.split(3) == [3]
    assert D.split(200) == [5] * 40
    for bad in (0, 1, 2):
        with pytest.raises(ValueError):
            D.split(bad)
    with pytest.raises(ValueError):
        D.split(10, best=7)
    with pytest.raises(ValueError):
        D.split(10, best=2)


def test_apply_swaps_and_cut_refusals():
    drawn = [["a", "b", "c"], ["d", "e", "f"]]
    assert D.apply_swaps(drawn, []) == drawn
    assert D.apply_swaps(drawn, [("a", "f")]) == [["f", "b", "c"], ["d", "e", "a"]]
    # swaps apply in order: after a <-> f, a sits at table 2, so a <-> b moves b there
    assert D.apply_swaps(drawn, [("a", "f"), ("a", "b")]) == [["f", "a", "c"], ["d", "e", "b"]]
    two = D.apply_swaps(drawn, [("a", "f"), ("f", "b")])
    assert two == [["b", "f", "c"], ["d", "e", "a"]]
    assert D.apply_swaps(drawn, [("c", "c")]) == drawn
    assert drawn == [["a", "b", "c"], ["d", "e", "f"]]  # the input is left as it was
    with pytest.raises(ValueError):
        D.apply_swaps(drawn, [("a", "z")])
    with pytest.raises(ValueError):
        D.draw_by_lot(["a", "b", "c"], [4], "00" * 32, 1)
    with pytest.raises(ValueError):
        D.draw_by_lot(["a", "a", "c"], [3], "00" * 32, 1)


def _standings(order):
    return [Standing(i, p, 0.0, 0.0, 0, ()) for i, p in enumerate(order, 1)]


def test_draw_round_formats():
    seed = "ab" * 32
    present = [f"p{i}" for i in range(1, 12)]
    lot = draw_round("lot", 2, 3, present, _standings(present), seed)
    assert lot.order is None and lot.sizes == (6, 5)
    assert [list(t) for t in lot.drawn] == Ref.by_lot(present, [6, 5], seed, 2)
    # results: round 1 by lot, round 2 by the standings (the leaders at table 1)
    first = draw_round("results", 1, 3, present, [], seed)
    assert first.order is None and [list(t) for t in first.drawn] == Ref.by_lot(present, [6, 5], seed, 1)
    ranked = list(reversed(present))
    res = draw_round("results", 2, 3, present, _standings(ranked), seed, byes=["p11"])
    assert res.byes == ("p11",) and res.sizes == (5, 5)
    assert res.order == tuple(p for p in ranked if p != "p11")
    assert [list(t) for t in res.drawn] == Ref.by_order(list(res.order), [5, 5], seed, 2)
    # final: round R + 1 seats the best final_size at the Final, the next at the Small final
    fin = draw_round("final", 4, 3, present, _standings(ranked), seed, final_size=5, small_final=True)
    assert fin.kind == "final" and fin.sizes == (5, 5) and fin.kinds == ("final", "small_final")
    assert fin.order == tuple(ranked[:10]) and fin.byes == ("p1",)
    assert [list(t) for t in fin.drawn] == Ref.by_order(ranked[:10], [5, 5], seed, 4)
    no_small = draw_round("final", 4, 3, present, _standings(ranked), seed, final_size=5)
    assert no_small.sizes == (5,) and no_small.kinds == ("final",)
    # duplicate: every round by lot (issue 35: the deals, not the draw, are the same at every table)
    dup = draw_round("duplicate", 2, 3, present, _standings(ranked), seed)
    assert dup.drawn == draw_round("lot", 2, 3, present, [], seed).drawn and dup.order is None
    for bad in (
        lambda: draw_round("teams", 1, 3, present, [], seed),
        lambda: draw_round("lot", 4, 3, present, [], seed),
        lambda: draw_round("final", 4, 3, present, [], seed),
        lambda: draw_round("lot", 1, 3, ["a", "b"], [], seed),
        lambda: draw_round("lot", 1, 3, present, [], seed, byes=["zz"]),
    ):
        with pytest.raises(ValueError):
            bad()
