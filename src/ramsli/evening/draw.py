"""The draw of an evening's tables: seeds, the split into tables, and the seats (issue 34).

Everything here is a pure function of its arguments (no I/O, no clock); the only randomness is
:func:`seed_chain` without ``top``. ``docs/evenings.md`` describes the same steps in prose so a
reader can recompute any draw by hand with SHA-256; ``ramsli verify`` recomputes it from an
evening's download (:mod:`ramsli.evening.verify`).

**Seeds.** An evening of ``n`` rounds (in the ``final`` format the final round counts: R + 1)
has one seed per round, each 32 bytes written as 64 lowercase hex digits. They form a *reverse
hash chain*: ``s_n`` is random and ``s_r = sha256(s_{r+1})`` (of the 32 bytes, not the hex), and
the evening publishes, when it is created, the **commitment** ``sha256(s_1)``. Opening ``s_r``
after round r's draw proves it was fixed at creation (hash it r times: the commitment), while
``s_{r+1}`` stays unknown: it is a preimage of ``s_r`` under SHA-256, which nobody can compute
from ``s_r``. One commitment therefore covers every round, and opening one round's seed tells
nothing about the next round's draw.

**Draw.** Round r's random numbers come from :func:`stream`: SHA-256 of the text
``ramsli-evening|SEED|r|LABEL|k`` for k = 0, 1, 2, …, each digest's first 8 bytes read as a
big-endian integer. :func:`below` turns them into a uniform choice by rejection, :func:`shuffled`
is the Fisher–Yates shuffle from the end, and the tables are cut from the shuffled list
(:func:`draw_by_lot`) or from the standings with each table's seats shuffled
(:func:`draw_by_order`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence

__all__ = [
    "SEED_BYTES",
    "seed_chain",
    "commitment",
    "check_seed",
    "hash_seed",
    "split",
    "stream",
    "below",
    "shuffled",
    "draw_by_lot",
    "draw_by_order",
    "apply_swaps",
    "cut",
]

#: the length of a seed in bytes (a seed is written as 2 * SEED_BYTES lowercase hex digits)
SEED_BYTES = 32

_HEX = frozenset("0123456789abcdef")


def _seed_bytes(seed: str) -> bytes:
    if len(seed) != 2 * SEED_BYTES or not set(seed) <= _HEX:
        raise ValueError(f"a seed is {2 * SEED_BYTES} lowercase hex digits, not {seed!r}")
    return bytes.fromhex(seed)


def hash_seed(seed: str) -> str:
    """One step down the chain: ``sha256(bytes.fromhex(seed)).hexdigest()``.

    Raises:
        ValueError: ``seed`` is not 64 lowercase hex digits.

    >>> hash_seed("00" * 32)
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def seed_chain(rounds: int, top: bytes | None = None) -> list[str]:
    """The seeds ``s_1 .. s_rounds`` of an evening, as lowercase hex (``[s_1, …, s_rounds]``).

    ``s_rounds`` is ``top`` (32 bytes) or, without it, 32 random bytes from :mod:`secrets`; each
    earlier seed is the SHA-256 of the next one's bytes: ``s_r = sha256(s_{r+1})``.

    Raises:
        ValueError: ``rounds`` < 1, or ``top`` is not 32 bytes.

    >>> chain = seed_chain(3, bytes(32))
    >>> chain[2] == "00" * 32, chain[1] == hash_seed(chain[2]), chain[0] == hash_seed(chain[1])
    (True, True, True)
    """
    if rounds < 1:
        raise ValueError(f"an evening has at least one round, not {rounds}")
    if top is None:
        top = secrets.token_bytes(SEED_BYTES)
    if len(top) != SEED_BYTES:
        raise ValueError(f"the top seed is {SEED_BYTES} bytes, not {len(top)}")
    out = [top.hex()]
    for _ in range(rounds - 1):
        out.append(hash_seed(out[-1]))
    out.reverse()
    return out


def commitment(seeds: Sequence[str]) -> str:
    """The evening's commitment: ``sha256(s_1)`` (``seeds[0]`` is s_1), published at creation.

    >>> commitment(seed_chain(2, bytes(32))) == hash_seed(hash_seed("00" * 32))
    True
    """
    if not seeds:
        raise ValueError("no seeds")
    return hash_seed(seeds[0])


def check_seed(commitment: str, round: int, seed: str) -> bool:
    """Whether ``seed`` is round ``round``'s seed of the chain committed to: hashed down ``round``
    times it gives ``commitment``. False (never an error) for a malformed seed or round < 1.

    >>> chain = seed_chain(3, bytes(32))
    >>> c = commitment(chain)
    >>> check_seed(c, 3, chain[2]), check_seed(c, 2, chain[2]), check_seed(c, 1, "zz")
    (True, False, False)
    """
    if round < 1:
        return False
    try:
        s = seed
        for _ in range(round):
            s = hash_seed(s)
    except ValueError:
        return False
    return s == commitment


def split(count: int, best: int = 5, low: int = 3, high: int = 6) -> list[int]:
    """The table sizes of ``count`` participants, largest first.

    The rule: every number of tables ``t`` whose sizes, as equal as possible (with ``q, r =
    divmod(count, t)``: r tables of q + 1, then t - r tables of q), all lie within ``low ..
    high`` is a candidate; the split is the candidate whose tables are nearest the preset's best
    size (the least sum of ``|size - best|``), of two as near the one with fewer tables. So a
    field of the best size's multiple sits at tables of that size (200: 40 tables of 5), eleven
    people sit at two tables (6 and 5), twenty-three at five (5 5 5 4 4).

    Raises:
        ValueError: ``count < low`` (not one table), ``low > best`` or ``best > high``, or no
            number of tables keeps every size within ``low .. high``.

    >>> split(23), split(11), split(12), split(7), split(6), split(4), split(3)
    ([5, 5, 5, 4, 4], [6, 5], [6, 6], [4, 3], [6], [4], [3])
    >>> split(5, best=4), split(7, best=3), split(13), split(200) == [5] * 40
    ([5], [4, 3], [5, 4, 4], True)
    """
    if not 1 <= low <= best <= high:
        raise ValueError(f"need 1 <= low <= best <= high, not {low}, {best}, {high}")
    if count < low:
        raise ValueError(f"{count} participants cannot fill a table of at least {low}")
    found: tuple[int, int] | None = None  # (distance from the best size, tables)
    for t in range(1, count // low + 1):
        q, r = divmod(count, t)
        if q < low or q + (r > 0) > high:
            continue
        distance = r * abs(q + 1 - best) + (t - r) * abs(q - best)
        if found is None or distance < found[0]:
            found = (distance, t)
    if found is None:
        raise ValueError(f"{count} participants do not split into tables of {low} to {high}")
    q, r = divmod(count, found[1])
    return [q + 1] * r + [q] * (found[1] - r)


def stream(seed: str, round: int, label: str) -> Iterator[int]:
    """Round ``round``'s random numbers for ``label``: for k = 0, 1, 2, … the first 8 bytes,
    big-endian, of ``sha256(f"ramsli-evening|{seed}|{round}|{label}|{k}".encode())``.

    >>> it = stream("00" * 32, 1, "lot")
    >>> first = next(it)
    >>> first == int.from_bytes(hashlib.sha256(("ramsli-evening|" + "00" * 32 + "|1|lot|0").encode()).digest()[:8])
    True
    """
    k = 0
    while True:
        text = f"ramsli-evening|{seed}|{round}|{label}|{k}"
        yield int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        k += 1


_SPAN = 1 << 64


def below(it: Iterator[int], n: int) -> int:
    """A uniform number in ``0 .. n-1`` from the 64-bit numbers of ``it``: take the next number
    x; if ``x >= 2**64 - (2**64 % n)`` throw it away and take the next; else ``x % n``.

    Raises:
        ValueError: ``n < 1``.

    >>> below(iter([5, 7]), 3), below(iter([2**64 - 1, 7]), 3)
    (2, 1)
    """
    if n < 1:
        raise ValueError(f"cannot choose below {n}")
    limit = _SPAN - _SPAN % n
    for x in it:
        if x < limit:
            return x % n
    raise ValueError("the stream ended")  # pragma: no cover - stream() never ends


def shuffled(ids: Sequence[str], seed: str, round: int, label: str) -> list[str]:
    """``ids`` shuffled by Fisher–Yates from the end with ``stream(seed, round, label)``: for
    i = len - 1 down to 1, ``j = below(stream, i + 1)`` and swap the items at i and j. The input
    order matters (callers sort first where it must not).

    >>> shuffled(["a", "b", "c", "d"], "00" * 32, 1, "lot")
    ['d', 'b', 'c', 'a']
    """
    out = list(ids)
    it = stream(seed, round, label)
    for i in range(len(out) - 1, 0, -1):
        j = below(it, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def cut(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """``order`` cut into consecutive tables of ``sizes``.

    Raises:
        ValueError: the sizes do not add up to the number of ids, or an id appears twice.

    >>> cut(["a", "b", "c", "d", "e"], [3, 2])
    [['a', 'b', 'c'], ['d', 'e']]
    """
    if sum(sizes) != len(order):
        raise ValueError(f"tables of {list(sizes)} do not seat {len(order)} participants")
    if len(set(order)) != len(order):
        raise ValueError("a participant appears twice")
    out: list[list[str]] = []
    at = 0
    for n in sizes:
        out.append(list(order[at : at + n]))
        at += n
    return out


def draw_by_lot(ids: Sequence[str], sizes: Sequence[int], seed: str, round: int) -> list[list[str]]:
    """Round ``round``'s tables by lot: ``sorted(ids)`` shuffled (label ``"lot"``) and cut into
    tables of ``sizes`` in order; each table's seat order (seat 1 first) is that order.

    Raises:
        ValueError: as :func:`cut`.

    >>> draw_by_lot(["d", "c", "b", "a", "e"], [3, 2], "00" * 32, 1)
    [['a', 'c', 'e'], ['b', 'd']]
    """
    return cut(shuffled(sorted(ids), seed, round, "lot"), sizes)


def draw_by_order(order: Sequence[str], sizes: Sequence[int], seed: str, round: int) -> list[list[str]]:
    """Round ``round``'s tables by results: ``order`` (the standings, best first) cut into tables
    of ``sizes`` (table 1 the leaders'), then table n's seats shuffled with label ``f"table{n}"``.

    Raises:
        ValueError: as :func:`cut`.

    >>> draw_by_order(["a", "b", "c", "d", "e"], [3, 2], "00" * 32, 2)
    [['b', 'c', 'a'], ['e', 'd']]
    """
    return [shuffled(t, seed, round, f"table{n}") for n, t in enumerate(cut(order, sizes), 1)]


def apply_swaps(tables: Sequence[Sequence[str]], swaps: Sequence[tuple[str, str]]) -> list[list[str]]:
    """The tables after the director's re-seats: each ``(a, b)`` in order swaps the seats of a and
    b (across tables or within one). A swap of an id with itself changes nothing.

    Raises:
        ValueError: an id of a swap is not seated.

    >>> apply_swaps([["a", "b"], ["c", "d"]], [("a", "d"), ("a", "c")])
    [['d', 'b'], ['a', 'c']]
    """
    out = [list(t) for t in tables]
    where = {pid: (i, j) for i, t in enumerate(out) for j, pid in enumerate(t)}
    for a, b in swaps:
        if a not in where or b not in where:
            raise ValueError(f"cannot swap {a!r} and {b!r}: not both seated")
        (ia, ja), (ib, jb) = where[a], where[b]
        out[ia][ja], out[ib][jb] = b, a
        where[a], where[b] = (ib, jb), (ia, ja)
    return out
