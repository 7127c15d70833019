"""Recheck an evening's download (``GET /api/evenings/{id}/download.json``) offline.

:func:`verify_download` recomputes everything the download claims from what it records: each
opened seed hashes down to the commitment; each round's table sizes are the split of the
round's participants (the final round: the Final and Small final); each round's draw is the
documented function of its seed (by lot, or by the standings after the rounds before, which are
recomputed from the download's results); the tables are that draw after the recorded re-seats;
each table result's places and scores follow from its nets; and the standings recompute. It
reads nothing but its argument; ``ramsli verify FILE`` prints its findings.

A finding's ``what`` names the check: ``commitment``, ``seed``, ``roster`` (a round that
cannot be recomputed: its ``found`` says why), ``sizes``, ``finalists``, ``order``, ``draw``,
``tables``, ``result``, ``deals``, ``deal_keys`` (a duplicate evening: each deal's seats follow
its dealer, the tables' nets add up to their results, and every table of a section has the same
deal key, :func:`ramsli.evening.duplicate.deck_key`), ``standings`` (a duplicate evening's by
matchpoints, recomputed from the deals).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ramsli.evening.draw import SEED_BYTES, apply_swaps, check_seed
from ramsli.evening.duplicate import DealResult, DealSeat, DealTable, duplicate_standings
from ramsli.evening.rounds import RoundDraw, draw_round
from ramsli.evening.scoring import (
    SeatResult,
    Standing,
    TableResult,
    exact_scores,
    places,
    standings,
)

__all__ = ["KIND", "VERSION", "WHATS", "Finding", "Malformed", "verify_download"]

#: the ``kind`` of an evening download
KIND = "ramsli-evening"
#: the download's version this module reads
VERSION = 1
#: the checks a finding may name
WHATS = (
    "commitment",
    "seed",
    "roster",
    "sizes",
    "finalists",
    "order",
    "draw",
    "tables",
    "result",
    "deals",
    "deal_keys",
    "standings",
)
#: how far a recorded score may be from the recomputed one (a score rounded to 2 decimals passes)
TOLERANCE = 0.005


@dataclass(frozen=True, slots=True)
class Finding:
    """One check of a download.

    Attributes:
        ok: whether it checks.
        round: the round checked (None: the whole evening).
        what: the check (:data:`WHATS`).
        table: the table (1..T) a finding is about, or None.
        rank: the standings' rank a ``standings`` finding is about, or None.
        expected: what the recomputation gives (ids joined by ", "), when it does not check; for a
            ``tables`` or ``standings`` check that passes, the number of re-seats or of lines.
        found: what the download has (for a passing ``commitment``: the commitment; ``sizes``: the
            sizes); for ``roster``, why the round cannot be recomputed; empty for a ``seed`` not
            opened.
    """

    ok: bool
    round: int | None
    what: str
    table: int | None = None
    rank: int | None = None
    expected: str = ""
    found: str = ""


class Malformed(ValueError):
    """The data is not an evening download of a version this module reads.

    Attributes:
        field: where (``"rounds_played[2].drawn"``).
    """

    def __init__(self, field: str) -> None:
        super().__init__(f"not an evening download: {field} is missing or malformed")
        self.field = field


@dataclass(frozen=True, slots=True)
class _Round:
    round: int
    kind: str
    participants: list[str]
    byes: list[str]
    sizes: list[int]
    order: list[str] | None
    drawn: list[list[str]]
    swaps: list[tuple[str, str]]
    tables: list[list[str]]
    results: list[Mapping[str, Any] | None]
    deals: list[DealResult]


def _get(data: Mapping[str, Any], key: str, at: str) -> Any:
    if not isinstance(data, Mapping) or key not in data:
        raise Malformed(f"{at}{key}")
    return data[key]


def _int(x: Any, field: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise Malformed(field)
    return x


def _ids(x: Any, field: str) -> list[str]:
    if not isinstance(x, list) or not all(isinstance(i, str) for i in x):
        raise Malformed(field)
    return list(x)


def _tables(x: Any, field: str) -> list[list[str]]:
    if not isinstance(x, list):
        raise Malformed(field)
    return [_ids(t, f"{field}[{i}]") for i, t in enumerate(x)]


def _round(x: Any, i: int) -> _Round:
    at = f"rounds_played[{i}]."
    swaps = _get(x, "swaps", at)
    if not isinstance(swaps, list) or not all(isinstance(s, list) and len(s) == 2 for s in swaps):
        raise Malformed(at + "swaps")
    sizes = _get(x, "sizes", at)
    if not isinstance(sizes, list):
        raise Malformed(at + "sizes")
    order = _get(x, "order", at)
    results = _get(x, "results", at)
    if not isinstance(results, list) or not all(r is None or isinstance(r, Mapping) for r in results):
        raise Malformed(at + "results")
    kind = _get(x, "kind", at)
    if kind not in ("qualifying", "final"):
        raise Malformed(at + "kind")
    return _Round(
        round=_int(_get(x, "round", at), at + "round"),
        kind=kind,
        participants=_ids(_get(x, "participants", at), at + "participants"),
        byes=_ids(_get(x, "byes", at), at + "byes"),
        sizes=[_int(n, at + "sizes") for n in sizes],
        order=None if order is None else _ids(order, at + "order"),
        drawn=_tables(_get(x, "drawn", at), at + "drawn"),
        swaps=[(_ids(s, at + "swaps")[0], _ids(s, at + "swaps")[1]) for s in swaps],
        tables=_tables(_get(x, "tables", at), at + "tables"),
        results=results,
        deals=_deals(x.get("deals", []), _int(_get(x, "round", at), at + "round"), at + "deals"),
    )


def _deals(x: Any, rnd: int, at: str) -> list[DealResult]:
    """A duplicate round's ``deals`` (``[{"size", "hand", "tables": [{"table", "deal_key", "seats"}]}]``)."""
    if not isinstance(x, list):
        raise Malformed(at)
    out = []
    try:
        for i, d in enumerate(x):
            tables = []
            for t in d["tables"]:
                seats = tuple(DealSeat.from_data(s) for s in t["seats"])
                key = t.get("deal_key", "")
                if not isinstance(key, str):
                    raise TypeError("deal_key")
                tables.append(DealTable(_int(t["table"], f"{at}[{i}].tables"), seats, key))
            out.append(
                DealResult(rnd, _int(d["size"], f"{at}[{i}].size"), _int(d["hand"], f"{at}[{i}].hand"), tuple(tables))
            )
    except (KeyError, TypeError, ValueError) as e:
        raise Malformed(at) from e
    return out


def _check_deals(rnd: _Round, out: list[Finding]) -> None:
    """A duplicate round's deals: each table's seats are its participants from the deal's dealer
    on (one dealer per deal for the section, passing to the left, R3.2), the section's tables share
    each deal's key (the same cards), and each table's nets over its deals add up to its result."""
    bad: list[str] = []
    dealers: dict[tuple[int, int], int] = {}
    sums: dict[int, dict[str, int]] = {}
    counted: dict[int, int] = {}
    for d in rnd.deals:
        keys = {t.key for t in d.tables}
        if len(keys) != 1 or "" in keys:
            out.append(
                Finding(
                    False,
                    rnd.round,
                    "deal_keys",
                    d.tables[0].table if d.tables else None,
                    expected=f"one deal key for deal {d.hand}",
                    found=_text(sorted(keys)),
                )
            )
        for t in d.tables:
            seated = rnd.tables[t.table - 1] if 1 <= t.table <= len(rnd.tables) else []
            n = len(seated)
            ids = [x.participant for x in t.seats]
            dealer = seated.index(ids[0]) if n == d.size and ids and ids[0] in seated else None
            fits = (
                dealer is not None
                and [x.seat for x in t.seats] == list(range(n))
                and ids == [seated[(dealer + s) % n] for s in range(n)]
            )
            first = dealers.setdefault((d.size, d.hand), dealer if dealer is not None else -1)
            if not fits or first != dealer:
                bad.append(f"deal {d.hand}, table {t.table}")
                continue
            counted[t.table] = counted.get(t.table, 0) + 1
            for x in t.seats:
                sums.setdefault(t.table, {})[x.participant] = sums.setdefault(t.table, {}).get(x.participant, 0) + x.net
    for (size, hand), dealer in dealers.items():
        one = dealers.get((size, 1))
        if one is not None and one >= 0 and dealer >= 0 and dealer != (one + hand - 1) % size:
            bad.append(f"deal {hand}: dealer")
    for n, res in enumerate(rnd.results, 1):
        if res is None or n not in sums or counted[n] != res.get("hands"):
            continue
        for seat in res.get("seats", []):
            if isinstance(seat, Mapping) and sums[n].get(str(seat.get("participant"))) != seat.get("net"):
                bad.append(f"table {n}: nets")
                break
    if bad:
        out.append(
            Finding(False, rnd.round, "deals", expected="seats from the dealer, nets adding up", found=_text(bad[:3]))
        )
    else:
        keys_ok = all(len({t.key for t in d.tables}) == 1 and d.tables[0].key for d in rnd.deals)
        out.append(Finding(True, rnd.round, "deals", expected=str(len(rnd.deals))))
        if keys_ok:
            out.append(Finding(True, rnd.round, "deal_keys", expected=str(len(rnd.deals))))


def _text(ids: Iterable[object]) -> str:
    return ", ".join(str(i) for i in ids)


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= TOLERANCE


def _line(s: Standing) -> str:
    rounds = "/".join("-" if x is None else f"{x:.2f}" for x in s.rounds)
    note = f" ({s.note})" if s.note else ""
    return f"{s.participant}{note}: {s.score:.2f}, {s.net_vs_mean:+.2f}, {s.firsts}, [{rounds}]"


def _same_standing(a: Standing, b: Standing) -> bool:
    return (
        a.rank == b.rank
        and a.participant == b.participant
        and _close(a.score, b.score)
        and _close(a.net_vs_mean, b.net_vs_mean)
        and a.firsts == b.firsts
        and len(a.rounds) == len(b.rounds)
        and all(_close(x, y) for x, y in zip(a.rounds, b.rounds))
        and a.note == b.note
    )


def _result(rnd: _Round, n: int, data: Mapping[str, Any], kind: str, out: list[Finding]) -> TableResult | None:
    """The table result of table n (1-based) and its findings; None if it cannot be read as one."""
    at = f"rounds_played[{rnd.round - 1}].results[{n - 1}]."
    seats_data = _get(data, "seats", at)
    if not isinstance(seats_data, list):
        raise Malformed(at + "seats")
    try:
        seats = [SeatResult.from_data(s) for s in seats_data]
    except (KeyError, TypeError, ValueError) as e:
        raise Malformed(at + "seats") from e
    table = data.get("table")
    ids = [s.participant for s in seats]
    seated = rnd.tables[n - 1] if n <= len(rnd.tables) else []
    if table != n or ids != seated:
        out.append(Finding(False, rnd.round, "result", n, expected=_text(seated), found=_text(ids)))
        return None
    if len(seats) < 2:
        out.append(Finding(False, rnd.round, "result", n, expected="2+", found=str(len(seats))))
        return None
    nets = [s.net for s in seats]
    scores = [float(x) for x in exact_scores(nets)]
    pl = places(nets)
    got = [(s.place, s.score) for s in seats]
    if [p for p, _ in got] != pl or not all(_close(a, b) for (_, a), b in zip(got, scores)):
        expected = _text(f"{i} {p} {x:.2f}" for i, p, x in zip(ids, pl, scores))
        found = _text(f"{i} {p} {x:.2f}" for i, (p, x) in zip(ids, got))
        out.append(Finding(False, rnd.round, "result", n, expected=expected, found=found))
    else:
        out.append(Finding(True, rnd.round, "result", n))
    return TableResult(rnd.round, n, kind, tuple(seats))


def verify_download(data: Mapping[str, Any]) -> list[Finding]:
    """Every check of an evening download, in order (the module's notes).

    Raises:
        Malformed: ``data`` is not an evening download of :data:`VERSION` (the field is named).

    >>> verify_download({"kind": "ramsli-hh"})
    Traceback (most recent call last):
    ...
    ramsli.evening.verify.Malformed: not an evening download: kind is missing or malformed
    """
    if not isinstance(data, Mapping) or data.get("kind") != KIND:
        raise Malformed("kind")
    if data.get("version") != VERSION:
        raise Malformed("version")
    fmt = _get(data, "format", "")
    if fmt not in ("lot", "results", "final", "duplicate"):
        raise Malformed("format")
    best = _int(_get(data, "best", ""), "best")
    rounds = _int(_get(data, "rounds", ""), "rounds")
    final_size = data.get("final_size")
    if final_size is not None:
        final_size = _int(final_size, "final_size")
    small_final = bool(data.get("small_final", False))
    commitment = _get(data, "commitment", "")
    seeds = _get(data, "seeds", "")
    people = _get(data, "participants", "")
    played = _get(data, "rounds_played", "")
    recorded = _get(data, "standings", "")
    if not isinstance(commitment, str):
        raise Malformed("commitment")
    if not isinstance(seeds, Mapping) or not all(
        isinstance(k, str) and k.isdigit() and isinstance(v, str) for k, v in seeds.items()
    ):
        raise Malformed("seeds")
    if not isinstance(people, Mapping) or not isinstance(played, list) or not isinstance(recorded, list):
        raise Malformed("participants" if not isinstance(people, Mapping) else "rounds_played")
    rounds_data = [_round(x, i) for i, x in enumerate(played)]
    if [r.round for r in rounds_data] != list(range(1, len(rounds_data) + 1)):
        raise Malformed("rounds_played[].round")
    try:
        claimed = [Standing.from_data(s) for s in recorded]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise Malformed("standings") from e
    ids = [str(p) for p in people]

    out: list[Finding] = []
    good = len(commitment) == 2 * SEED_BYTES and all(c in "0123456789abcdef" for c in commitment)
    out.append(Finding(good, None, "commitment", found=commitment))
    for key in sorted(seeds, key=int):
        out.append(Finding(check_seed(commitment, int(key), seeds[key]), int(key), "seed", found=seeds[key]))
    results: list[TableResult] = []
    byes: dict[int, list[str]] = {}
    for rnd in rounds_data:
        r = rnd.round
        seed = seeds.get(str(r))
        if seed is None:
            out.append(Finding(False, r, "seed"))
        exp: RoundDraw | None = None
        if seed is not None:
            try:
                prior = standings(ids, results, fmt, byes, commitment, rounds=rounds)
                byes_here = rnd.byes if rnd.kind == "qualifying" else ()
                exp = draw_round(
                    fmt,
                    r,
                    rounds,
                    rnd.participants + rnd.byes,
                    prior,
                    seed,
                    best=best,
                    final_size=final_size,
                    small_final=small_final,
                    byes=byes_here,
                )
            except ValueError as e:
                out.append(Finding(False, r, "roster", found=str(e)))
        if exp is not None:
            if exp.kind != rnd.kind or (exp.kind == "final" and sorted(rnd.participants) != list(exp.participants)):
                out.append(
                    Finding(False, r, "finalists", expected=_text(exp.order or ()), found=_text(rnd.participants))
                )
            elif exp.kind == "final":
                out.append(Finding(True, r, "finalists"))
            sizes_ok = list(exp.sizes) == rnd.sizes
            out.append(Finding(sizes_ok, r, "sizes", expected=_text(exp.sizes), found=_text(rnd.sizes)))
            if exp.order is not None or rnd.order is not None:
                order_ok = rnd.order == (None if exp.order is None else list(exp.order))
                out.append(Finding(order_ok, r, "order", expected=_text(exp.order or ()), found=_text(rnd.order or ())))
            wrong = [n for n, t in enumerate(exp.drawn, 1) if n > len(rnd.drawn) or list(t) != rnd.drawn[n - 1]]
            if len(rnd.drawn) > len(exp.drawn):
                wrong.append(len(exp.drawn) + 1)
            if wrong:
                n = wrong[0]
                e_t = _text(exp.drawn[n - 1]) if n <= len(exp.drawn) else ""
                f_t = _text(rnd.drawn[n - 1]) if n <= len(rnd.drawn) else ""
                out.append(Finding(False, r, "draw", n, expected=e_t, found=f_t))
            else:
                out.append(Finding(True, r, "draw"))
        try:
            swapped = apply_swaps(rnd.drawn, rnd.swaps)
        except ValueError as e:
            out.append(Finding(False, r, "tables", found=str(e)))
        else:
            bad = [n for n, t in enumerate(swapped, 1) if n > len(rnd.tables) or t != rnd.tables[n - 1]]
            if len(rnd.tables) != len(swapped) and not bad:
                bad = [len(swapped) + 1]
            if bad:
                n = bad[0]
                e_t = _text(swapped[n - 1]) if n <= len(swapped) else ""
                f_t = _text(rnd.tables[n - 1]) if n <= len(rnd.tables) else ""
                out.append(Finding(False, r, "tables", n, expected=e_t, found=f_t))
            else:
                out.append(Finding(True, r, "tables", expected=str(len(rnd.swaps))))
        kinds = exp.kinds if exp is not None else (("final", "small_final") if rnd.kind == "final" else ())
        for n, res in enumerate(rnd.results, 1):
            if res is None:
                continue
            kind = kinds[n - 1] if n <= len(kinds) else "qualifying"
            tr = _result(rnd, n, res, kind, out)
            if tr is not None:
                results.append(tr)
        if rnd.kind == "qualifying" and rnd.byes:
            byes[r] = list(rnd.byes)
        if fmt == "duplicate":
            _check_deals(rnd, out)
    try:
        if fmt == "duplicate":
            again = duplicate_standings(ids, [d for rnd in rounds_data for d in rnd.deals], commitment, rounds)
        else:
            again = standings(ids, results, fmt, byes, commitment, rounds=rounds)
    except ValueError as e:
        out.append(Finding(False, None, "standings", found=str(e)))
        return out
    for i in range(max(len(again), len(claimed))):
        a = again[i] if i < len(again) else None
        b = claimed[i] if i < len(claimed) else None
        if a is None or b is None or not _same_standing(a, b):
            out.append(
                Finding(
                    False,
                    None,
                    "standings",
                    rank=i + 1,
                    expected="" if a is None else _line(a),
                    found="" if b is None else _line(b),
                )
            )
            break
    else:
        out.append(Finding(True, None, "standings", expected=str(len(again))))
    return out
