"""An evening's scores and standings (issue 34): fair across table sizes, ties broken as written.

**Score of a table result.** At a table of N seats (N >= 2) each seat gets placement points p:
N for the most counters won (the seat's ``net``) down to 1 for the fewest, seats tied on ``net``
sharing the points of the places they cover (two tied first of four: 3.5 each). Its evening
**score** is ``100 * (p - 1) / (N - 1)``: first 100, last 0, and the table's mean is 50 at every
size, so a round at a table of 3 weighs exactly as much as one at a table of 6. A **bye** scores
50 (a table's mean). Scores are kept exact (fractions) for the ranking and rounded to 2 decimals
only when shown.

**Standings.** Participants are ranked by, in order: (1) the total score of the qualifying
rounds, (2) the net counters against the table's mean (the seat's net minus the mean net of its
table, summed over the qualifying rounds), (3) the number of first places (place 1, shared
first places count), (4) the lot: ``sha256(f"{seed}|{participant}")`` in hex, ascending, where
``seed`` is the evening's commitment (:func:`lot_key`). In the ``final`` format the final round's
tables reorder the top: the final's players first, by their place at the final table (ties:
their qualifying order), then the small final's likewise, then everyone else in qualifying
order. ``docs/evenings.md`` has worked examples.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = [
    "KINDS",
    "FORMATS",
    "MIN_TABLE",
    "placement_points",
    "places",
    "table_scores",
    "exact_scores",
    "SeatResult",
    "TableResult",
    "table_result",
    "Standing",
    "lot_key",
    "standings",
    "finalists",
    "hands_for",
    "rounds_total",
]

#: the kinds of a table result: a qualifying round's table, the final table, the small final
KINDS = ("qualifying", "final", "small_final")
#: the evening formats (``duplicate`` is issue 35's)
FORMATS = ("lot", "results", "final", "duplicate")
#: the fewest seats of an evening's table
MIN_TABLE = 3


def placement_points(nets: Sequence[int]) -> list[float]:
    """Each seat's placement points: N for the first of N seats down to 1 for the last, seats
    tied on ``nets`` sharing the points of the places they cover (the same rule as the server's
    player records).

    >>> placement_points([5, -2, 5, -8])
    [3.5, 2.0, 3.5, 1.0]
    """
    return [p / 2 for p in _double_points(nets)]


def _double_points(nets: Sequence[int]) -> list[int]:
    n = len(nets)
    out = []
    for s in nets:
        better = sum(1 for v in nets if v > s)
        tied = sum(1 for v in nets if v == s)
        out.append(2 * n - 2 * better - (tied - 1))
    return out


def places(nets: Sequence[int]) -> list[int]:
    """Each seat's place: 1 + the number of seats with a larger net (tied seats share the better
    place).

    >>> places([5, -2, 5, -8])
    [1, 3, 1, 4]
    """
    return [1 + sum(1 for v in nets if v > s) for s in nets]


def exact_scores(nets: Sequence[int]) -> list[Fraction]:
    """:func:`table_scores` as exact fractions.

    Raises:
        ValueError: fewer than 2 seats.

    >>> [str(x) for x in exact_scores([3, 1, 0])]
    ['100', '50', '0']
    """
    n = len(nets)
    if n < 2:
        raise ValueError(f"a table result needs at least 2 seats, not {n}")
    return [Fraction(100 * (d - 2), 2 * (n - 1)) for d in _double_points(nets)]


def table_scores(nets: Sequence[int]) -> list[float]:
    """The evening score of each seat of one table from its net counters: ``100 * (p - 1) /
    (N - 1)`` with p the placement points (:func:`placement_points`): first 100, last 0, the
    mean 50 at every table size (N = 2: 100 and 0).

    Raises:
        ValueError: fewer than 2 seats.

    >>> table_scores([12, -4, -8])
    [100.0, 50.0, 0.0]
    >>> table_scores([7, 7, -2, -3, -4, -5])
    [90.0, 90.0, 60.0, 40.0, 20.0, 0.0]
    """
    return [float(x) for x in exact_scores(nets)]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result at one table of a round.

    Attributes:
        participant: the participant's id (a player id or ``bot:LEVEL:K``).
        net: counters won (negative: lost) over the table's hands of the round.
        place: 1 + the seats of the table with a larger net.
        score: the evening score (0..100, :func:`table_scores`).
        bot_hands: the hands a substitute bot played for the participant (0 for a bot itself).
    """

    participant: str
    net: int
    place: int
    score: float
    bot_hands: int = 0

    def to_data(self) -> dict[str, Any]:
        """The seat as the download writes it.

        >>> SeatResult("anna", 12, 1, 100.0).to_data()
        {'participant': 'anna', 'net': 12, 'place': 1, 'score': 100.0, 'bot_hands': 0}
        """
        return {
            "participant": self.participant,
            "net": self.net,
            "place": self.place,
            "score": self.score,
            "bot_hands": self.bot_hands,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SeatResult:
        """The seat from :meth:`to_data`'s shape (ValueError/KeyError/TypeError when malformed).

        >>> SeatResult.from_data({"participant": "bot:expert:1", "net": -3, "place": 2, "score": 50})
        SeatResult(participant='bot:expert:1', net=-3, place=2, score=50.0, bot_hands=0)
        """
        return cls(
            participant=_str(data["participant"]),
            net=_int(data["net"]),
            place=_int(data["place"]),
            score=_float(data["score"]),
            bot_hands=_int(data.get("bot_hands", 0)),
        )


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's result in one round.

    Attributes:
        round: the round (1..R; R + 1 the final round of the ``final`` format).
        table: the table number within the round (1..T).
        kind: ``"qualifying"``, ``"final"`` or ``"small_final"``.
        seats: the seats, in seat order.
    """

    round: int
    table: int
    kind: str
    seats: tuple[SeatResult, ...]


def table_result(
    round: int, table: int, kind: str, seats: Sequence[tuple[str, int] | tuple[str, int, int]]
) -> TableResult:
    """A table's result from ``(participant, net)`` or ``(participant, net, bot_hands)`` per seat,
    places and scores computed.

    Raises:
        ValueError: an unknown kind, fewer than 2 seats, or a participant twice.

    >>> r = table_result(1, 2, "qualifying", [("a", 4), ("b", -4, 3), ("c", 0)])
    >>> [(s.participant, s.place, s.score, s.bot_hands) for s in r.seats]
    [('a', 1, 100.0, 0), ('b', 3, 0.0, 3), ('c', 2, 50.0, 0)]
    """
    if kind not in KINDS:
        raise ValueError(f"unknown table kind {kind!r}")
    ids = [s[0] for s in seats]
    if len(set(ids)) != len(ids):
        raise ValueError("a participant sits twice at one table")
    nets = [s[1] for s in seats]
    scores = table_scores(nets)
    pl = places(nets)
    return TableResult(
        round,
        table,
        kind,
        tuple(SeatResult(s[0], s[1], pl[i], scores[i], s[2] if len(s) > 2 else 0) for i, s in enumerate(seats)),
    )


@dataclass(frozen=True, slots=True)
class Standing:
    """One participant's line of the standings.

    Attributes:
        rank: 1 for the first (ranks are distinct: the lot breaks every tie).
        participant: the participant's id.
        score: the total score of the qualifying rounds (byes 50 each).
        net_vs_mean: the qualifying rounds' net counters against each table's mean, summed.
        firsts: the qualifying rounds' first places.
        rounds: the score of each round 1, 2, …: a table result's score, 50.0 for a bye, None
            when not seated; in the ``final`` format the final round's entry is the final or small
            final table's score (not in ``score``: the place at that table decides).
        note: ``"final"``, ``"small_final"`` (played that table) or ``""``.
    """

    rank: int
    participant: str
    score: float
    net_vs_mean: float
    firsts: int
    rounds: tuple[float | None, ...]
    note: str = ""

    def to_data(self) -> dict[str, Any]:
        """The line as the download writes it.

        >>> Standing(1, "anna", 150.0, 4.5, 1, (100.0, None, 50.0)).to_data()["rounds"]
        [100.0, None, 50.0]
        """
        return {
            "rank": self.rank,
            "participant": self.participant,
            "score": self.score,
            "net_vs_mean": self.net_vs_mean,
            "firsts": self.firsts,
            "rounds": list(self.rounds),
            "note": self.note,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Standing:
        """The line from :meth:`to_data`'s shape (ValueError/KeyError/TypeError when malformed).

        >>> line = Standing(2, "ben", 100.0, -1.0, 0, (50.0, 50.0), "final")
        >>> Standing.from_data(line.to_data()) == line
        True
        """
        rounds = data["rounds"]
        if not isinstance(rounds, list):
            raise TypeError("rounds is a list")
        return cls(
            rank=_int(data["rank"]),
            participant=_str(data["participant"]),
            score=_float(data["score"]),
            net_vs_mean=_float(data["net_vs_mean"]),
            firsts=_int(data["firsts"]),
            rounds=tuple(None if x is None else _float(x) for x in rounds),
            note=_str(data.get("note", "")),
        )


def lot_key(seed: str, participant: str) -> str:
    """The last tie-break: ``sha256(f"{seed}|{participant}")`` as hex; the smaller ranks first.

    >>> lot_key("c0ffee", "anna") == hashlib.sha256(b"c0ffee|anna").hexdigest()
    True
    """
    return hashlib.sha256(f"{seed}|{participant}".encode()).hexdigest()


@dataclass
class _Tally:
    score: Fraction = Fraction(0)
    net_vs_mean: Fraction = Fraction(0)
    firsts: int = 0


def standings(
    participants: Sequence[str],
    results: Sequence[TableResult],
    fmt: str,
    byes: Mapping[int, Sequence[str]],
    seed_for_lot: str,
    *,
    rounds: int | None = None,
) -> list[Standing]:
    """The standings of ``participants`` (everyone ever checked in) after ``results``.

    Scores, places and the mean are recomputed from each seat's ``net`` (the results' own score
    and place are not read). Tie-breaks as in the module's notes; ``seed_for_lot`` is the
    evening's commitment. ``fmt`` ``"final"`` puts the players of the ``"final"`` table result
    first (by their place there, ties by qualifying order), then the ``"small_final"``'s, then
    everyone else; in the other formats every result counts as qualifying. A bye of round r
    (``byes[r]``) scores 50 unless round r is a final round (a round with a final or small
    final result, or, given ``rounds`` (the qualifying rounds R), a round after R): sitting out
    the final round scores nothing.

    Raises:
        ValueError: an unknown format, a result or bye of someone not in ``participants``, or
            a participant seated twice in one round.

    >>> rs = [table_result(1, 1, "qualifying", [("a", 5), ("b", 0), ("c", -5)]),
    ...       table_result(2, 1, "qualifying", [("c", 3), ("a", -3), ("d", 0)])]
    >>> for s in standings("abcd", rs, "lot", {2: ["b"]}, "00"):
    ...     print(s.rank, s.participant, s.score, s.net_vs_mean, s.rounds)
    1 a 100.0 2.0 (100.0, 0.0)
    2 b 100.0 0.0 (50.0, 50.0)
    3 c 100.0 -2.0 (0.0, 100.0)
    4 d 50.0 0.0 (None, 50.0)
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    ids = list(participants)
    known = set(ids)
    if len(known) != len(ids):
        raise ValueError("a participant is listed twice")
    final_rounds = {r.round for r in results if r.kind != "qualifying"} if fmt == "final" else set()
    for r, who in byes.items():
        if r < 1:
            raise ValueError(f"a bye in round {r}")
        for p in who:
            if p not in known:
                raise ValueError(f"{p!r} has a bye but is not a participant")
    scoring_byes = {
        r: who
        for r, who in byes.items()
        if who and r not in final_rounds and not (fmt == "final" and rounds is not None and r > rounds)
    }
    last = max([r.round for r in results] + list(scoring_byes) + [0])
    per_round: dict[str, list[Fraction | None]] = {p: [None] * last for p in ids}
    tally = {p: _Tally() for p in ids}
    final_place: dict[str, dict[str, int]] = {"final": {}, "small_final": {}}
    for res in results:
        if res.round < 1:
            raise ValueError(f"round {res.round}")
        nets = [s.net for s in res.seats]
        scores = exact_scores(nets)
        pl = places(nets)
        mean = Fraction(sum(nets), len(nets))
        qualifying = fmt != "final" or res.kind == "qualifying"
        for i, seat in enumerate(res.seats):
            p = seat.participant
            if p not in known:
                raise ValueError(f"{p!r} has a result but is not a participant")
            if per_round[p][res.round - 1] is not None:
                raise ValueError(f"{p!r} is seated twice in round {res.round}")
            per_round[p][res.round - 1] = scores[i]
            if qualifying:
                t = tally[p]
                t.score += scores[i]
                t.net_vs_mean += seat.net - mean
                t.firsts += pl[i] == 1
            else:
                final_place[res.kind][p] = pl[i]
    for r, who in scoring_byes.items():
        for p in who:
            if per_round[p][r - 1] is not None:
                raise ValueError(f"{p!r} is seated twice in round {r}")
            per_round[p][r - 1] = Fraction(50)
            tally[p].score += 50
    qualifying_order = sorted(
        ids, key=lambda p: (-tally[p].score, -tally[p].net_vs_mean, -tally[p].firsts, lot_key(seed_for_lot, p))
    )
    q_index = {p: i for i, p in enumerate(qualifying_order)}
    order: list[str] = []
    note: dict[str, str] = {}
    for kind in ("final", "small_final"):
        group = final_place[kind]
        order += sorted(group, key=lambda p, g=group: (g[p], q_index[p]))  # type: ignore[misc]
        note.update(dict.fromkeys(group, kind))
    order += [p for p in qualifying_order if p not in note]
    return [
        Standing(
            rank=i,
            participant=p,
            score=float(tally[p].score),
            net_vs_mean=float(tally[p].net_vs_mean),
            firsts=tally[p].firsts,
            rounds=tuple(None if x is None else float(x) for x in per_round[p]),
            note=note.get(p, ""),
        )
        for i, p in enumerate(order, 1)
    ]


def finalists(standings: Sequence[Standing], size: int, small_final: bool) -> tuple[list[str], list[str]]:
    """The final table and the small final of the ``final`` format from the qualifying
    standings: the first ``size`` participants play the final, the next ``size`` the small final
    (with ``small_final``); when fewer than ``size`` are left the small final takes those left if
    they are at least 3, else there is none (an empty list).

    Raises:
        ValueError: ``size`` not in 3..6, or fewer than 3 participants.

    >>> ranked = [Standing(i, p, 0.0, 0.0, 0, ()) for i, p in enumerate("abcdefghij", 1)]
    >>> finalists(ranked, 4, True)
    (['a', 'b', 'c', 'd'], ['e', 'f', 'g', 'h'])
    >>> finalists(ranked[:6], 4, True), finalists(ranked[:7], 4, False)
    ((['a', 'b', 'c', 'd'], []), (['a', 'b', 'c', 'd'], []))
    """
    if not MIN_TABLE <= size <= 6:
        raise ValueError(f"a final table has 3 to 6 seats, not {size}")
    order = [s.participant for s in sorted(standings, key=lambda s: s.rank)]
    if len(order) < MIN_TABLE:
        raise ValueError(f"{len(order)} participants cannot play a final")
    final = order[:size]
    small = order[size : 2 * size] if small_final else []
    if len(small) < MIN_TABLE:
        small = []
    return final, small


def hands_for(size: int, hands_per_round: int) -> int:
    """The hands a table of ``size`` plays in a round: ``hands_per_round`` rounded up to a
    multiple of ``size``, so everyone at the table deals equally often.

    Raises:
        ValueError: ``size`` or ``hands_per_round`` below 1.

    >>> hands_for(4, 10), hands_for(5, 10), hands_for(3, 10)
    (12, 10, 12)
    """
    if size < 1 or hands_per_round < 1:
        raise ValueError(f"cannot play {hands_per_round} hands at a table of {size}")
    return math.ceil(hands_per_round / size) * size


def rounds_total(fmt: str, rounds: int) -> int:
    """The rounds an evening draws (and so its number of seeds): ``rounds``, plus the final
    round in the ``final`` format.

    >>> rounds_total("final", 3), rounds_total("lot", 3)
    (4, 3)
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    return rounds + (fmt == "final")


def _int(x: object) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"not an integer: {x!r}")
    return x


def _float(x: object) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise TypeError(f"not a number: {x!r}")
    return float(x)


def _str(x: object) -> str:
    if not isinstance(x, str):
        raise TypeError(f"not a text: {x!r}")
    return x
