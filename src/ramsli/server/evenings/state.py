"""An evening as the fold of its log, and the draw of its next round (pure: no I/O, issue 34).

:class:`Evening` is built from the evening's row and its log entries
(:mod:`ramsli.server.evenings.log`), one :meth:`Evening.apply` per entry: the spec, who is
checked in (each a :class:`Participant`: a logged-in player or a substitute bot), every round started
(:class:`RoundState`: who played, the draw, the swaps, the tables, which are paused), the swaps
waiting for the next draw, and whether it is closed. Results are not in the log: a table's result
is its session record (:mod:`ramsli.server.players.records`), read by the service and passed in
here as :class:`~ramsli.evening.scoring.TableResult` values.

:func:`plan_round` is the next round's draw (``docs/evenings.md``): who plays (checked in, not
withdrawn, from their first round on), then :func:`ramsli.evening.rounds.draw_round` — the sizes
(:func:`~ramsli.evening.draw.split` with the best size 5, R2.1), the tables by format (``lot``:
every round by lot; ``results``: round 1 by lot, then by the standings, table 1 the leaders';
``final``: the qualifying rounds by lot, then the final round: the best ``final_size`` of the
qualifying standings at the Final, the next ones at the Small final, everyone else sitting out) —
and then the director's swaps.

>>> ev = Evening("e1", None, "d", 0.0)
>>> ev.status, ev.round
('open', 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ramsli.evening.draw import apply_swaps
from ramsli.evening.duplicate import DealResult, duplicate_standings
from ramsli.evening.rounds import draw_round
from ramsli.evening.scoring import Standing, TableResult, standings
from ramsli.refusal import Refusal, Refused
from ramsli.server.evenings.log import (
    Captain,
    CheckIn,
    CheckOut,
    Close,
    Create,
    Entry,
    Pause,
    Reseat,
    StartRound,
    Substitute,
    TablePlan,
    Withdraw,
)

__all__ = [
    "BEST",
    "Participant",
    "RoundState",
    "Evening",
    "Draw",
    "plan_round",
    "table_name",
    "results_by_round",
]

#: the best table size (R2.1: 5 is best); the draw splits into tables of it first
BEST = 5


@dataclass
class Participant:
    """A participant of an evening: a person (``kind`` ``person``, ``id`` the player id) or a
    substitute bot (``kind`` ``bot``, ``id`` ``bot:LEVEL:K``, ``level``).

    Attributes:
        checked_in: False once checked out (before their first round).
        from_round: the first round they play.
        withdrawn_from: the first round they no longer play (withdrawn), or None.
    """

    id: str
    name: str
    kind: str
    level: str | None
    checked_in: bool
    from_round: int
    withdrawn_from: int | None = None

    def plays(self, round: int) -> bool:
        """True if they are to be drawn in round ``round``."""
        return (
            self.checked_in
            and self.from_round <= round
            and (self.withdrawn_from is None or round < self.withdrawn_from)
        )


@dataclass
class RoundState:
    """One round started: as its ``start_round`` entry, then its current-round swaps, captains
    and pauses (``paused``: table number -> paused)."""

    round: int
    kind: str
    participants: list[str]
    byes: list[str]
    sizes: list[int]
    order: list[str] | None
    drawn: list[list[str]]
    swaps: list[tuple[str, str]]
    tables: list[TablePlan]
    seed: str
    paused: dict[int, bool] = field(default_factory=dict)

    def table(self, number: int) -> TablePlan | None:
        """Table ``number`` (1..T), or None."""
        return self.tables[number - 1] if isinstance(number, int) and 1 <= number <= len(self.tables) else None

    def where(self, pid: str) -> TablePlan | None:
        """The table ``pid`` sits at this round, or None."""
        return next((t for t in self.tables if pid in t.seats), None)

    def ids(self) -> list[str]:
        """The ids of the round's card tables and ledgers."""
        return [x for t in self.tables for x in (t.table, t.ledger) if x is not None]


def table_name(kind: str, number: int) -> str:
    """The name of a round's table: ``Table 3``, ``Final``, ``Small final``.

    >>> table_name("qualifying", 3), table_name("small_final", 2)
    ('Table 3', 'Small final')
    """
    return {"final": "Final", "small_final": "Small final"}.get(kind, f"Table {number}")


class Evening:
    """An evening: the fold of its log (:meth:`apply`, one entry after the other).

    Args:
        eid: its id; club: its club's id or None; director: the player who made it; created:
            when (seconds since the epoch).

    Attributes:
        spec: as made (``create``); commitment: SHA-256 of round 1's seed (hex); people:
            participant id -> :class:`Participant`, in check-in order; rounds: the rounds started;
        pending: the director's swaps for the next draw; closed: closed by the director;
        next: the next evening of a recurring one; entries: the log.
    """

    def __init__(self, eid: str, club: str | None, director: str, created: float) -> None:
        self.id = eid
        self.club = club
        self.director = director
        self.created = created
        self.spec: dict[str, Any] = {}
        self.commitment = ""
        self.people: dict[str, Participant] = {}
        self.rounds: list[RoundState] = []
        self.pending: list[tuple[str, str]] = []
        self.closed = False
        self.next: str | None = None
        self.entries: list[Entry] = []

    # -- reading -----------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of the last entry applied."""
        return self.entries[-1].seq if self.entries else 0

    @property
    def round(self) -> int:
        """The last round started (0 before the first)."""
        return len(self.rounds)

    @property
    def status(self) -> str:
        """``open`` (no round yet), ``running`` (a round was started) or ``closed``."""
        return "closed" if self.closed else ("running" if self.rounds else "open")

    @property
    def fmt(self) -> str:
        """The format: ``lot``, ``results``, ``final`` or ``duplicate``."""
        return str(self.spec.get("format", "lot"))

    @property
    def rounds_total(self) -> int:
        """The rounds it draws (the final format: the qualifying rounds and the final round)."""
        return int(self.spec.get("rounds_total", 1))

    @property
    def current(self) -> RoundState | None:
        """The last round started, or None."""
        return self.rounds[-1] if self.rounds else None

    def names(self) -> dict[str, str]:
        """Participant id -> name."""
        return {p.id: p.name for p in self.people.values()}

    def playing(self, round: int) -> list[str]:
        """The ids to be drawn in round ``round``, sorted."""
        return sorted(p.id for p in self.people.values() if p.plays(round))

    def participant_ids(self) -> list[str]:
        """Everyone the standings list: checked in, or seated in a round."""
        played = {pid for r in self.rounds for pid in r.participants}
        return [p.id for p in self.people.values() if p.checked_in or p.id in played]

    def byes(self) -> dict[int, list[str]]:
        """Qualifying round -> the participants with a bye in it (a bye scores 50; sitting out
        the final round scores nothing)."""
        return {r.round: list(r.byes) for r in self.rounds if r.byes and r.kind == "qualifying"}

    def standings(self, results: Sequence[TableResult], deals: Sequence[DealResult] = ()) -> list[Standing]:
        """The standings after ``results`` (:func:`ramsli.evening.scoring.standings`; the lot
        breaks ties by the commitment); a duplicate evening's after ``deals``
        (:func:`ramsli.evening.duplicate.duplicate_standings`)."""
        if self.fmt == "duplicate":
            return duplicate_standings(self.participant_ids(), deals, self.commitment, self.rounds_total)
        rounds = self.spec.get("rounds")
        return standings(
            self.participant_ids(),
            results,
            self.fmt,
            self.byes(),
            self.commitment,
            rounds=None if rounds is None else int(rounds),
        )

    # -- the fold ----------------------------------------------------------------------------

    @classmethod
    def fold(cls, eid: str, club: str | None, director: str, created: float, entries: Sequence[Entry]) -> Evening:
        """The evening of these entries."""
        ev = cls(eid, club, director, created)
        for e in entries:
            ev.apply(e)
        return ev

    def apply(self, entry: Entry) -> None:
        """Apply the next entry (its ``seq`` follows the last one).

        Raises:
            ValueError: an entry out of order, or one that does not fit the evening (a damaged log).
        """
        if entry.seq != self.seq + 1:
            raise ValueError(f"evening {self.id}: entry {entry.seq} follows entry {self.seq}")
        rec = entry.record
        if isinstance(rec, Create):
            self.spec = dict(rec.spec)
            self.commitment = rec.commitment
        elif isinstance(rec, CheckIn):
            p = self.people.get(rec.participant)
            if p is None:
                self.people[rec.participant] = Participant(
                    rec.participant, rec.name, "person", None, True, rec.from_round
                )
            else:
                p.name, p.checked_in, p.from_round, p.withdrawn_from = rec.name, True, rec.from_round, None
        elif isinstance(rec, CheckOut):
            self._person(rec.participant).checked_in = False
        elif isinstance(rec, Withdraw):
            self._person(rec.participant).withdrawn_from = rec.from_round
        elif isinstance(rec, Substitute):
            self.people[rec.participant] = Participant(
                rec.participant, rec.name, "bot", rec.level, True, rec.from_round
            )
        elif isinstance(rec, StartRound):
            if rec.round != self.round + 1:
                raise ValueError(f"evening {self.id}: round {rec.round} follows round {self.round}")
            self.rounds.append(
                RoundState(
                    round=rec.round,
                    kind=rec.kind,
                    participants=list(rec.participants),
                    byes=list(rec.byes),
                    sizes=list(rec.sizes),
                    order=None if rec.order is None else list(rec.order),
                    drawn=[list(t) for t in rec.drawn],
                    swaps=list(rec.swaps),
                    tables=list(rec.tables),
                    seed=rec.seed,
                )
            )
            self.pending = []
        elif isinstance(rec, Reseat):
            self._reseat(rec)
        elif isinstance(rec, Pause):
            self._round(rec.round).paused[rec.table] = rec.paused
        elif isinstance(rec, Captain):
            r = self._round(rec.round)
            plan = r.table(rec.table)
            if plan is None:
                raise ValueError(f"evening {self.id}: round {rec.round} has no table {rec.table}")
            r.tables[rec.table - 1] = replace(plan, captain=rec.participant)
        elif isinstance(rec, Close):
            self.closed, self.next = True, rec.next
        self.entries.append(entry)

    def _person(self, pid: str) -> Participant:
        p = self.people.get(pid)
        if p is None:
            raise ValueError(f"evening {self.id}: {pid} is no participant")
        return p

    def _round(self, number: int) -> RoundState:
        if not 1 <= number <= self.round:
            raise ValueError(f"evening {self.id}: no round {number}")
        return self.rounds[number - 1]

    def _reseat(self, rec: Reseat) -> None:
        if rec.round == self.round + 1:  # between rounds: the next draw
            self.pending.append((rec.a, rec.b))
            return
        r = self._round(rec.round)
        swap = {rec.a: rec.b, rec.b: rec.a}
        ledgers = dict(rec.ledgers)
        for i, plan in enumerate(r.tables):
            if rec.a not in plan.seats and rec.b not in plan.seats:
                continue
            seats = tuple(swap.get(pid, pid) for pid in plan.seats)
            captain = plan.captain
            if captain is not None and captain not in seats:
                captain = swap[captain]  # the one who took the captain's seat keeps the ledger
            r.tables[i] = replace(plan, seats=seats, captain=captain, ledger=ledgers.get(plan.number, plan.ledger))
        r.swaps.append((rec.a, rec.b))


@dataclass(frozen=True)
class Draw:
    """The next round's draw (:func:`plan_round`): as the ``start_round`` entry will say it, with
    each table's seats after the swaps (``tables``), kind and name."""

    round: int
    kind: str
    participants: tuple[str, ...]
    byes: tuple[str, ...]
    sizes: tuple[int, ...]
    order: tuple[str, ...] | None
    drawn: tuple[tuple[str, ...], ...]
    swaps: tuple[tuple[str, str], ...]
    tables: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...]
    names: tuple[str, ...]


def plan_round(ev: Evening, seed: str, results: Sequence[TableResult]) -> Draw:
    """The draw of round ``ev.round + 1`` from its ``seed`` and the ``results`` so far: the one
    rule of :func:`ramsli.evening.rounds.draw_round` (which ``ramsli verify`` recomputes), with
    who plays the round and the standings before it; then the director's swaps of two
    participants who both sit in the round.

    Raises:
        Refused: ``too_few`` (fewer than 3 to seat, or to play a final).

    >>> from ramsli.server.evenings.log import CheckIn, Create, Entry
    >>> ev = Evening("e", None, "d", 0.0)
    >>> ev.apply(Entry(1, 0.0, "d", Create({"format": "lot", "rounds": 2, "rounds_total": 2}, "c")))
    >>> for k, p in enumerate("abcdefg", 2):
    ...     ev.apply(Entry(k, 0.0, p, CheckIn(p, p.upper(), 1)))
    >>> d = plan_round(ev, "00" * 32, [])
    >>> d.sizes, [len(t) for t in d.tables], d.names
    ((4, 3), [4, 3], ('Table 1', 'Table 2'))
    """
    r = ev.round + 1
    present = ev.playing(r)
    prior = ev.standings(results) if ev.fmt != "lot" else []
    final_size = ev.spec.get("final_size")
    try:
        d = draw_round(
            ev.fmt,
            r,
            int(ev.spec.get("rounds", ev.rounds_total)),
            present,
            prior,
            seed,
            best=int(ev.spec.get("best") or BEST),
            final_size=None if final_size is None else int(final_size),
            small_final=bool(ev.spec.get("small_final")),
        )
    except ValueError:
        raise Refused(Refusal("too_few", None, {"count": len(present)})) from None
    seated = set(d.participants)
    swaps = [(a, b) for a, b in ev.pending if a in seated and b in seated and a != b]
    tables = apply_swaps(d.drawn, swaps)
    return Draw(
        round=r,
        kind=d.kind,
        participants=d.participants,
        byes=d.byes,
        sizes=d.sizes,
        order=d.order,
        drawn=d.drawn,
        swaps=tuple(swaps),
        tables=tuple(tuple(t) for t in tables),
        kinds=d.kinds,
        names=tuple(table_name(k, n) for n, k in enumerate(d.kinds, 1)),
    )


def results_by_round(results: Mapping[tuple[int, int], TableResult | None]) -> list[TableResult]:
    """The results found, in round and table order."""
    return [v for _k, v in sorted(results.items(), key=lambda kv: kv[0]) if v is not None]
